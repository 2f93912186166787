/* Reading packets for test runs: a capture (pcap or pcapng, read through
 * libpcap), a raw file, or a directory of raw files. A program's packet
 * input is an Ethernet frame (the kernel's BPF_PROG_TEST_RUN takes one for
 * every packet type and pulls L2 itself for those that see L3), so capture
 * records are converted: Ethernet as-is; Linux cooked (SLL, SLL2) gets an
 * Ethernet header with a zero destination, the cooked source address when
 * it has 6 bytes, and the cooked protocol; raw IP (only for programs that
 * see L3) gets a zero header with the EtherType of its version. Other link
 * types, and cooked records whose protocol is no EtherType, are refused.
 * Hostile input: records are capped at 256 KiB. */
#ifndef BG_CORE_PCAP_H
#define BG_CORE_PCAP_H
#include <stddef.h>
#include <stdint.h>

struct bg_packet {
	uint8_t *data;
	uint32_t len;
	uint64_t off; /* file offset of its capture record (0: a raw file) */
};

struct bg_packets {
	struct bg_packet *p;
	size_t n;
};

enum bg_pkt_input {
	BG_PKT_ETH,    /* the program reads the Ethernet header (XDP, tc) */
	BG_PKT_ETH_L3, /* the program sees from L3 on (socket filter, cgroup skb) */
};

/* Append the packets of a pcap file / one raw file / every regular file of a
 * directory (sorted by name). Return 0, or -errno with a message in err
 * naming the file and offset. */
int bg_packets_pcap(struct bg_packets *ps, const char *path, enum bg_pkt_input want,
		    char *err, size_t errsz);
int bg_packets_file(struct bg_packets *ps, const char *path, char *err, size_t errsz);
int bg_packets_dir(struct bg_packets *ps, const char *path, char *err, size_t errsz);
void bg_packets_free(struct bg_packets *ps);
#endif
