/* Reading packets for test runs: a classic pcap file (microsecond or
 * nanosecond, either byte order), a raw file, or a directory of raw files.
 * Hostile input: record lengths are checked against the file and a cap. */
#ifndef BG_CORE_PCAP_H
#define BG_CORE_PCAP_H
#include <stddef.h>
#include <stdint.h>

struct bg_packet {
	uint8_t *data;
	uint32_t len;
};

struct bg_packets {
	struct bg_packet *p;
	size_t n;
};

/* Append the packets of a pcap file / one raw file / every regular file of a
 * directory (sorted by name). Return 0, or -errno with a message in err
 * naming the file and offset. */
int bg_packets_pcap(struct bg_packets *ps, const char *path, char *err, size_t errsz);
int bg_packets_file(struct bg_packets *ps, const char *path, char *err, size_t errsz);
int bg_packets_dir(struct bg_packets *ps, const char *path, char *err, size_t errsz);
void bg_packets_free(struct bg_packets *ps);
#endif
