/* bpfgate/packets.h - packet inputs for test runs (bg_vm__set_packet, the
 * coverage runs of bpfgate/cov.h, the kernel's BPF_PROG_TEST_RUN): a capture
 * (pcap or pcapng, read through libpcap), a raw file, or a directory of raw
 * files. Every packet is an Ethernet frame: the kernel's test run takes one
 * for every packet program type and pulls L2 itself for those that see L3.
 * Capture records are converted: Ethernet as-is; Linux cooked (SLL, SLL2)
 * gets an Ethernet header with a zero destination, the cooked source address
 * when it has 6 bytes, and the cooked protocol; raw IP (only for programs
 * that see L3) gets a zero header with the EtherType of its version. Other
 * link types, and cooked records whose protocol is no EtherType, are refused
 * with a message naming the link type. Hostile input: a packet is at most
 * 256 KiB, a raw file at most 1 GiB; errors name the file and the record's
 * offset.
 *
 * Thread safety: a bg_packets list is used by one thread at a time;
 * different lists in different threads at once are fine. */
#ifndef BPFGATE_PACKETS_H
#define BPFGATE_PACKETS_H

#include <stddef.h>
#include <stdint.h>
#include <bpfgate/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the program reads of a frame (for captures: which link types fit). */
enum bg_packet_form {
	BG_PACKET_ETH = 0,    /* the Ethernet header on (XDP, tc) */
	BG_PACKET_ETH_L3 = 1, /* L3 on (socket filter, cgroup skb): raw IP captures fit too */
};

struct bg_packets_opts {
	size_t sz;                 /* sizeof(struct bg_packets_opts) */
	enum bg_packet_form form;  /* captures: the program's view (default BG_PACKET_ETH) */
};
#define bg_packets_opts__last_field form

struct bg_packets; /* opaque: an ordered list of packets, owning their bytes */

/* An empty list; NULL with errno ENOMEM. */
BG_API struct bg_packets *bg_packets__new(void);
BG_API void bg_packets__free(struct bg_packets *ps);
/* Append the records of a pcap/pcapng capture / one raw file / every regular
 * file of a directory (sorted by name, dot files skipped). 0, or a negative
 * errno with "PATH: offset N: record K: why" in err[errsz] (err may be NULL);
 * the packets appended before the failure stay in the list. */
BG_API int bg_packets__add_capture(struct bg_packets *ps, const char *path,
				   const struct bg_packets_opts *opts, char *err, size_t errsz);
BG_API int bg_packets__add_file(struct bg_packets *ps, const char *path, char *err, size_t errsz);
BG_API int bg_packets__add_dir(struct bg_packets *ps, const char *path, char *err, size_t errsz);

BG_API size_t bg_packets__cnt(const struct bg_packets *ps);
/* Packet i's bytes (lent: valid until the list is changed or freed) and
 * length; NULL past the end. */
BG_API const void *bg_packets__data(const struct bg_packets *ps, size_t i, uint32_t *len);
/* The file offset of packet i's capture record (0 for a raw file). */
BG_API uint64_t bg_packets__offset(const struct bg_packets *ps, size_t i);

#ifdef __cplusplus
}
#endif
#endif
