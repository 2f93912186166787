/* Packet inputs: the list behind the opaque struct bg_packets of
 * bpfgate/packets.h (the contract: formats, conversions, limits). */
#ifndef BG_CORE_PCAP_H
#define BG_CORE_PCAP_H
#include <stddef.h>
#include <stdint.h>
#include <bpfgate/packets.h>

struct bg_packet {
	uint8_t *data;
	uint32_t len;
	uint64_t off; /* file offset of its capture record (0: a raw file) */
};

struct bg_packets {
	struct bg_packet *p;
	size_t n;
};

#endif
