/* Shared by the tests that run packet programs (test_vm_diff.c,
 * test_soundness.c): the crafted packets every program is run on, and a
 * walk over a directory of objects (examples, a corpus variant).
 * Header-only (static inline) so each test binary stays one .c file. */
#ifndef BG_TEST_PROGS_H
#define BG_TEST_PROGS_H
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"

/* ---------- crafted packets ---------- */

struct test_pkt {
	const char *name;
	uint8_t b[1600];
	size_t len;
};

static struct test_pkt test_pkts[32];
static size_t test_npkts;

static inline uint16_t test_csum16(const uint8_t *p, size_t n)
{
	uint32_t s = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static inline void test_hex_into(uint8_t *out, size_t *len, const char *hex)
{
	while (hex[0] && hex[1]) {
		unsigned v;

		if (hex[0] == ' ') {
			hex++;
			continue;
		}
		sscanf(hex, "%2x", &v);
		out[(*len)++] = (uint8_t)v;
		hex += 2;
	}
}

/* Ethernet + IPv4 header (ihl 5) + L4 bytes, lengths and checksum filled in. */
static inline void test_ipv4(const char *name, uint8_t proto, const char *l4hex, size_t pad,
			     uint16_t frag)
{
	struct test_pkt *p = &test_pkts[test_npkts++];
	uint8_t *ip;
	size_t l4, tot;
	uint16_t c;

	p->name = name;
	test_hex_into(p->b, &p->len, "02 00 00 00 00 02 02 00 00 00 00 01 08 00");
	ip = p->b + p->len;
	test_hex_into(p->b, &p->len, "45 00 00 00 12 34 00 00 40 00 00 00 c0 a8 01 0a c0 a8 01 14");
	ip[9] = proto;
	ip[6] = (uint8_t)(frag >> 8);
	ip[7] = (uint8_t)frag;
	l4 = p->len;
	test_hex_into(p->b, &p->len, l4hex);
	memset(p->b + p->len, 0x61, pad);
	p->len += pad;
	tot = p->len - 14;
	ip[2] = (uint8_t)(tot >> 8);
	ip[3] = (uint8_t)tot;
	if (proto == 17 && p->len - l4 >= 8) { /* UDP length */
		p->b[l4 + 4] = (uint8_t)((p->len - l4) >> 8);
		p->b[l4 + 5] = (uint8_t)(p->len - l4);
	}
	ip[10] = ip[11] = 0;
	c = test_csum16(ip, 20);
	ip[10] = (uint8_t)(c >> 8);
	ip[11] = (uint8_t)c;
}

static inline void test_raw(const char *name, const char *hex, size_t pad)
{
	struct test_pkt *p = &test_pkts[test_npkts++];

	p->name = name;
	test_hex_into(p->b, &p->len, hex);
	memset(p->b + p->len, 0x5a, pad);
	p->len += pad;
}

/* The 14 packets: TCP/UDP/ICMP/GRE over IPv4, a fragment, IPv6, ARP, VLAN,
 * and short or malformed frames. */
static inline void test_make_packets(void)
{
	test_npkts = 0;
	test_ipv4("tcp_syn", 6, "c3 50 00 50 00 00 00 01 00 00 00 00 50 02 72 10 00 00 00 00", 6, 0);
	test_ipv4("tcp_http", 6, "c3 51 1f 90 00 00 00 01 00 00 00 05 50 18 72 10 00 00 00 00", 40, 0);
	test_ipv4("udp_dns", 17, "d4 31 00 35 00 00 00 00 12 34 01 00 00 01 00 00 00 00 00 00"
				 " 03 77 77 77 07 65 78 61 6d 70 6c 65 03 63 6f 6d 00 00 01 00 01",
		  0, 0);
	test_ipv4("udp_other", 17, "30 39 1f 40 00 00 00 00", 100, 0);
	test_ipv4("udp_big", 17, "30 39 1f 41 00 00 00 00", 1400, 0);
	test_ipv4("icmp_echo", 1, "08 00 00 00 00 01 00 01", 32, 0);
	test_ipv4("ipv4_fragment", 17, "30 39 00 35 00 00 00 00", 16, 0x2001);
	test_ipv4("gre", 47, "00 00 08 00", 20, 0);
	test_raw("ipv6_udp", "02 00 00 00 00 02 02 00 00 00 00 01 86 dd 60 00 00 00 00 10 11 40"
			     " 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01"
			     " 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 02"
			     " 30 39 00 35 00 10 00 00",
		 8);
	test_raw("arp", "ff ff ff ff ff ff 02 00 00 00 00 01 08 06 00 01 08 00 06 04 00 01"
			" 02 00 00 00 00 01 c0 a8 01 0a 00 00 00 00 00 00 c0 a8 01 14",
		 18);
	test_raw("vlan_ipv4", "02 00 00 00 00 02 02 00 00 00 00 01 81 00 00 64 08 00"
			      " 45 00 00 1c 00 00 00 00 40 11 00 00 0a 00 00 01 0a 00 00 02"
			      " 00 35 00 35 00 08 00 00",
		 0);
	test_raw("eth_only", "02 00 00 00 00 02 02 00 00 00 00 01 08 00", 0);
	test_raw("ipv4_truncated", "02 00 00 00 00 02 02 00 00 00 00 01 08 00 45 00 00 30 00 00", 0);
	test_raw("garbage", "", 90);
}

/* More shapes, appended after the 14 (used by test_soundness.c; the kernel
 * differential keeps the 14): TCP options, IPv4 options, QinQ, IPv6
 * extension headers and fragments, TCP over IPv6. */
static inline void test_make_extra_packets(void)
{
	test_ipv4("tcp_options", 6, "c3 52 00 50 00 00 00 01 00 00 00 00 a0 02 72 10 00 00 00 00"
				    " 02 04 05 b4 04 02 08 0a 00 00 00 01 00 00 00 00 01 03 03 07",
		  4, 0);
	test_ipv4("tcp_ack_ts", 6, "c3 53 1f 90 00 00 00 02 00 00 00 07 80 10 72 10 00 00 00 00"
				   " 01 01 08 0a 00 00 00 05 00 00 00 06",
		  20, 0);
	test_raw("ipv4_options", "02 00 00 00 00 02 02 00 00 00 00 01 08 00 46 00 00 28 12 34 00 00"
				 " 40 11 00 00 c0 a8 01 0a c0 a8 01 14 01 01 01 00"
				 " 30 39 00 35 00 10 00 00",
		 8);
	test_raw("qinq_ipv4", "02 00 00 00 00 02 02 00 00 00 00 01 88 a8 00 0a 81 00 00 64 08 00"
			      " 45 00 00 1c 00 00 00 00 40 11 00 00 0a 00 00 01 0a 00 00 02"
			      " 00 35 00 35 00 08 00 00",
		 0);
	test_raw("ipv6_ext_frag", "02 00 00 00 00 02 02 00 00 00 00 01 86 dd 60 00 00 00 00 28 00 40"
				  " 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01"
				  " 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 02"
				  " 2b 00 01 04 00 00 00 00 2c 00 04 00 00 00 00 00"
				  " 11 00 00 01 00 00 00 2a 30 39 00 35 00 10 00 00",
		 8);
	test_raw("ipv6_tcp_options", "02 00 00 00 00 02 02 00 00 00 00 01 86 dd 60 00 00 00 00 28 06 40"
				     " 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01"
				     " 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 02"
				     " c3 54 01 bb 00 00 00 01 00 00 00 00 a0 02 72 10 00 00 00 00"
				     " 02 04 05 a0 04 02 08 0a 00 00 00 01 00 00 00 00 01 03 03 07",
		 0);
}

/* ---------- objects ---------- */

typedef void (*test_obj_fn)(const char *path, const char *shortname);

static inline int test_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Call fn for every *.o under dir (sorted, up to 3 levels down, skipping
 * "reject" directories: the kernel refuses those). shortname = prefix +
 * the path below dir. */
static inline void test_walk(const char *dir, const char *prefix, int depth, test_obj_fn fn)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, i;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char **nn;

		if (e->d_name[0] == '.')
			continue;
		nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn)
			break;
		names = nn;
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), test_name_cmp);
	for (i = 0; i < n; i++) {
		char path[PATH_MAX], sn[PATH_MAX];
		size_t l = strlen(names[i]);

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		snprintf(sn, sizeof(sn), "%s%s", prefix, names[i]);
		if (l > 2 && !strcmp(names[i] + l - 2, ".o")) {
			fn(path, sn);
		} else if (depth < 3 && !strchr(names[i], '.') && strcmp(names[i], "reject")) {
			char pre[PATH_MAX];

			snprintf(pre, sizeof(pre), "%s/", sn);
			test_walk(path, pre, depth + 1, fn);
		}
		free(names[i]);
	}
	free(names);
}

/* $BG_EXAMPLES, else BUILD/examples, else (ASan build) ../build/examples. */
static inline const char *test_examples_dir(char *buf, size_t sz)
{
	return test_build_sub(buf, sz, "BG_EXAMPLES", "examples");
}
#endif
