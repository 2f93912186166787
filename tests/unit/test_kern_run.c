/* The kernel oracle end to end on a bundled example: load xdp_parse with its
 * maps kept, run it on hand-built frames with BPF_PROG_TEST_RUN, and read its
 * counters back. This checks what a verdict alone cannot: that map fds,
 * .rodata initial values (blocked_port = 23) and freezing reach the kernel. */
/* min-pass: 14 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <dirent.h>
#include <arpa/inet.h>
#include <bpfgate/bpfgate.h>
#include <linux/bpf.h>
#include "test.h"

enum { SLOT_OTHER, SLOT_IPV4, SLOT_TCP, SLOT_UDP, SLOT_DROPPED, SLOT_MAX };

static void example_path(char *buf, size_t n, const char *obj)
{
	const char *ex = getenv("BG_EXAMPLES"), *b = getenv("BG_BUILD");

	if (ex)
		snprintf(buf, n, "%s/%s", ex, obj);
	else
		snprintf(buf, n, "%s/examples/%s", b ? b : "build", obj);
}

/* Ethernet + IPv4 (no options) + 8 bytes of L4 header, 64 bytes in all. */
static size_t frame(uint8_t *f, uint16_t ethertype, uint8_t proto, uint16_t sport, uint16_t dport)
{
	memset(f, 0, 64);
	f[12] = ethertype >> 8;
	f[13] = ethertype & 0xff;
	f[14] = 0x45;          /* version 4, ihl 5 */
	f[16] = 0;             /* total length 50 */
	f[17] = 50;
	f[22] = 64;            /* ttl */
	f[23] = proto;
	f[26] = 10, f[29] = 1; /* 10.0.0.1 -> 10.0.0.2 */
	f[30] = 10, f[33] = 2;
	f[34] = sport >> 8, f[35] = sport & 0xff;
	f[36] = dport >> 8, f[37] = dport & 0xff;
	f[46] = 0x50;          /* tcp data offset 5 */
	return 64;
}

static int run(int fd, const uint8_t *data, uint32_t len, uint32_t *ret)
{
	struct bg_test_run_opts o = {.sz = sizeof(o), .data_in = data, .data_size_in = len};

	return bg_kern_test_run(fd, &o, ret, NULL);
}

static int map_index(const struct bg_object *obj, const char *name)
{
	for (size_t i = 0; i < bg_object__map_cnt(obj); i++)
		if (!strcmp(bg_object__map(obj, i)->name, name))
			return (int)i;
	return -1;
}

static int count_entries(const void *key, const void *value, void *ctx)
{
	(void)key;
	(void)value;
	(*(int *)ctx)++;
	return 0;
}

static void check_xdp_parse(void)
{
	char path[512], err[256] = "";
	struct bg_object *obj;
	struct bg_kload_opts ko = {.sz = sizeof(ko), .keep_fd = 1};
	struct bg_kload_result r;
	uint8_t f[64];
	uint32_t ret = 99;
	int e, mi, ri, entries = 0;

	example_path(path, sizeof(path), "xdp_parse.bpf.o");
	obj = bg_object__open(path, NULL, err, sizeof(err));
	if (!obj) {
		T_FAIL("kern_run/open", "%s: %s", path, err);
		return;
	}
	e = bg_kern_load(bg_object__find_prog(obj, "xdp_parse"), &ko, &r);
	T_CHECK(!e && r.verdict == BG_VERDICT_ACCEPTED && r.prog_fd >= 0, "kern_run/load_keep_fd",
		"e=%d verdict=%s: %s", e, bg_verdict_name(r.verdict), r.reason ? r.reason : "");
	if (r.prog_fd < 0)
		goto out;
	e = run(r.prog_fd, f, (uint32_t)frame(f, 0x0800, 6, 1234, 23), &ret);
	T_CHECK(!e && ret == XDP_DROP, "kern_run/tcp_blocked_port_dropped", "e=%d ret=%u", e, ret);
	e = run(r.prog_fd, f, (uint32_t)frame(f, 0x0800, 6, 1234, 80), &ret);
	T_CHECK(!e && ret == XDP_PASS, "kern_run/tcp_other_port_passed", "e=%d ret=%u", e, ret);
	e = run(r.prog_fd, f, (uint32_t)frame(f, 0x0800, 17, 1234, 53), &ret);
	T_CHECK(!e && ret == XDP_PASS, "kern_run/udp_passed", "e=%d ret=%u", e, ret);
	e = run(r.prog_fd, f, (uint32_t)frame(f, 0x0806, 0, 0, 0), &ret);
	T_CHECK(!e && ret == XDP_PASS, "kern_run/arp_passed", "e=%d ret=%u", e, ret);

	mi = map_index(obj, "proto_counts");
	if (mi < 0 || (size_t)mi >= r.map_cnt || r.map_fds[mi] < 0) {
		T_FAIL("kern_run/map_fd", "no fd for proto_counts (index %d)", mi);
		goto out;
	}
	uint64_t want[SLOT_MAX] = {[SLOT_OTHER] = 1, [SLOT_IPV4] = 3, [SLOT_TCP] = 2, [SLOT_UDP] = 1,
				   [SLOT_DROPPED] = 1};
	int ok = 1;
	for (uint32_t k = 0; k < SLOT_MAX; k++) {
		uint64_t v = 0;

		if (bg_kern_map_lookup(r.map_fds[mi], &k, &v) || v != want[k]) {
			T_FAIL("kern_run/counters", "slot %u = %llu, want %llu", k, (unsigned long long)v,
			       (unsigned long long)want[k]);
			ok = 0;
		}
	}
	if (ok)
		T_PASS("kern_run/counters");
	e = bg_kern_map_foreach(r.map_fds[mi], bg_object__map(obj, (size_t)mi), count_entries, &entries);
	T_CHECK(!e && entries == SLOT_MAX, "kern_run/map_foreach", "e=%d entries=%d", e, entries);

	ri = map_index(obj, ".rodata");
	if (ri >= 0 && (size_t)ri < r.map_cnt && r.map_fds[ri] >= 0) {
		uint32_t zero = 0;
		uint8_t val[64] = {0};

		e = bg_kern_map_update(r.map_fds[ri], &zero, val);
		T_CHECK(e == -EPERM, "kern_run/rodata_frozen", "update of .rodata returned %d", e);
	} else {
		T_FAIL("kern_run/rodata_frozen", "no .rodata map fd (index %d)", ri);
	}
out:
	bg_kload_result__fini(&r);
	bg_object__free(obj);
}

static void check_socket_filter(void)
{
	char path[512], err[256] = "";
	struct bg_object *obj;
	struct bg_kload_opts ko = {.sz = sizeof(ko), .keep_fd = 1};
	struct bg_kload_result r;
	uint8_t f[64];
	uint32_t ret = 99;
	int e;

	example_path(path, sizeof(path), "socket_dns.bpf.o");
	obj = bg_object__open(path, NULL, err, sizeof(err));
	if (!obj) {
		T_FAIL("kern_run/open_socket_dns", "%s: %s", path, err);
		return;
	}
	e = bg_kern_load(bg_object__find_prog(obj, "socket_dns"), &ko, &r);
	if (e || r.prog_fd < 0) {
		T_FAIL("kern_run/socket_load", "e=%d %s", e, r.reason ? r.reason : "");
		goto out;
	}
	/* the kernel strips the Ethernet header: 64 bytes in, skb->len 50 */
	e = run(r.prog_fd, f, (uint32_t)frame(f, 0x0800, 17, 40000, 53), &ret);
	T_CHECK(!e && ret == 50, "kern_run/socket_dns_kept", "e=%d ret=%u", e, ret);
	e = run(r.prog_fd, f, (uint32_t)frame(f, 0x0800, 17, 40000, 80), &ret);
	T_CHECK(!e && ret == 0, "kern_run/socket_other_dropped", "e=%d ret=%u", e, ret);
out:
	bg_kload_result__fini(&r);
	bg_object__free(obj);
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* Loading never leaks: without keep_fd everything is closed before return,
 * with keep_fd bg_kload_result__fini closes what the result holds. */
static void check_no_fd_leak(void)
{
	static const char *const objs[] = {"xdp_dispatch.bpf.o", "kprobe_exec_stats.bpf.o",
					   "tp_btf_fork.bpf.o", "kprobe_openat.bpf.o"};
	int before = open_fds(), loads = 0, accepted = 0;

	for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		char path[512];
		struct bg_object *obj;

		example_path(path, sizeof(path), objs[i]);
		obj = bg_object__open(path, NULL, NULL, 0);
		for (size_t p = 0; obj && p < bg_object__prog_cnt(obj); p++) {
			for (int keep = 0; keep <= 1; keep++) {
				struct bg_kload_opts ko = {.sz = sizeof(ko), .keep_fd = keep};
				struct bg_kload_result r;

				if (bg_kern_load(bg_object__prog(obj, p), &ko, &r))
					continue;
				loads++;
				accepted += r.verdict == BG_VERDICT_ACCEPTED;
				bg_kload_result__fini(&r);
			}
		}
		bg_object__free(obj);
	}
	T_CHECK(loads >= 10 && accepted == loads, "kern_run/loads_for_leak_check", "%d loads, %d accepted",
		loads, accepted);
	T_CHECK(open_fds() == before, "kern_run/no_fd_leak", "%d fds open before, %d after", before,
		open_fds());
}

static uint16_t ip_csum(const uint8_t *ip)
{
	uint32_t sum = 0;

	for (int i = 0; i < 20; i += 2)
		sum += (uint32_t)(ip[i] << 8 | ip[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* tc_mark on a CS1 packet: data_out has DSCP 0 and a valid IPv4 checksum,
 * ctx_out has the mark from .data (0x2a). Exercises data_out/ctx_out. */
static void check_tc_rewrite(void)
{
	char path[512];
	struct bg_object *obj;
	struct bg_kload_opts ko = {.sz = sizeof(ko), .keep_fd = 1};
	struct bg_kload_result r;
	uint8_t f[64], out[128];
	struct __sk_buff ctx_in = {0}, ctx_out = {0};
	uint32_t ret = 99;
	int e;

	example_path(path, sizeof(path), "tc_mark.bpf.o");
	obj = bg_object__open(path, NULL, NULL, 0);
	e = obj ? bg_kern_load(bg_object__find_prog(obj, "tc_mark"), &ko, &r) : -ENOENT;
	if (e || r.prog_fd < 0) {
		T_FAIL("kern_run/tc_load", "e=%d", e);
		goto out;
	}
	frame(f, 0x0800, 17, 1000, 2000);
	f[15] = 8 << 2 | 1; /* DSCP CS1, ECN 1 */
	uint16_t c = ip_csum(f + 14);
	f[24] = c >> 8, f[25] = c & 0xff;
	struct bg_test_run_opts o = {.sz = sizeof(o), .data_in = f, .data_size_in = sizeof(f),
				     .data_out = out, .data_size_out = sizeof(out), .ctx_in = &ctx_in,
				     .ctx_size_in = sizeof(ctx_in), .ctx_out = &ctx_out,
				     .ctx_size_out = sizeof(ctx_out)};
	e = bg_kern_test_run(r.prog_fd, &o, &ret, NULL);
	T_CHECK(!e && ret == 0 /* TC_ACT_OK */ && o.data_size_out == sizeof(f), "kern_run/tc_ok",
		"e=%d ret=%u out=%u", e, ret, o.data_size_out);
	T_CHECK(!e && out[15] == 1 && ip_csum(out + 14) == 0, "kern_run/tc_dscp_rewritten",
		"tos=0x%02x csum check=0x%04x", out[15], ip_csum(out + 14));
	T_CHECK(!e && ctx_out.mark == 0x2a, "kern_run/tc_mark_set", "mark=0x%x", ctx_out.mark);
out:
	if (obj)
		bg_kload_result__fini(&r);
	bg_object__free(obj);
}

/* A log buffer too small for the level-1 log: the kernel says ENOSPC, the
 * oracle reloads (stats only, then without a log) and still gets the verdict. */
static void check_small_log(void)
{
	char path[512];
	struct bg_object *obj;
	struct bg_kload_opts ko = {.sz = sizeof(ko), .log_size = 256};
	struct bg_kload_result r;
	int e;

	example_path(path, sizeof(path), "xdp_payload_sum.bpf.o");
	obj = bg_object__open(path, NULL, NULL, 0);
	if (!obj) {
		T_FAIL("kern_run/small_log", "cannot open %s", path);
		return;
	}
	e = bg_kern_load(bg_object__find_prog(obj, "xdp_payload_sum"), &ko, &r);
	T_CHECK(!e && r.verdict == BG_VERDICT_ACCEPTED && r.insns_processed > 0, "kern_run/small_log",
		"e=%d verdict=%s processed=%ld: %s", e, bg_verdict_name(r.verdict), r.insns_processed,
		r.reason ? r.reason : "");
	bg_kload_result__fini(&r);
	bg_object__free(obj);
}

int main(void)
{
	const char *why;

	if (!bg_kern_available(&why)) {
		T_SKIP("kern_run/all", "bpf() unavailable: %s", why);
		return 0;
	}
	check_xdp_parse();
	check_socket_filter();
	check_no_fd_leak();
	check_small_log();
	check_tc_rewrite();
	T_EXIT();
}
