/* The public APIs the CLI moved onto (issue 12), through their headers
 * only (no src/ include): kernel profiles (bpfgate/profile.h), text and
 * JSON escaping (bpfgate/text.h), packet captures (bpfgate/packets.h, a
 * pcap written here byte by byte: Ethernet, Linux cooked, a refused link
 * type, a truncated record) and the kernel image cache (bpfgate/kvm.h, a
 * cache root built here: no download, no boot). Options structs go through
 * the one sz convention: an unknown non-zero trailing field is -EINVAL. */
/* min-pass: 25 (every check: nothing here needs clang, bpf() or the corpus) */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpfgate/bpfgate.h>
#include <bpfgate/kvm.h>
#include <bpfgate/packets.h>
#include <bpfgate/profile.h>
#include <bpfgate/text.h>
#include "test.h"

static void profiles(void)
{
	const struct bg_kernel_profile *p510 = bg_kernel_profile__by_name("5.10");
	const struct bg_kernel_profile *l[16];
	char bad[64] = "", v[16];
	size_t n = bg_kernel_profile__cnt();
	int k;

	T_CHECK(n >= 9 && !strcmp(bg_kernel_profile__name(bg_kernel_profile__at(0)), "7.2") &&
		    bg_kernel_profile__at(n) == NULL,
		"profile_list", "%zu profiles, first %s", n,
		bg_kernel_profile__name(bg_kernel_profile__at(0)));
	errno = 0;
	T_CHECK(p510 && bg_kernel_profile__version(p510) == BG_KERNEL_VERSION(5, 10) &&
		    !bg_kernel_profile__by_name("7.7") && errno == ENOENT,
		"profile_by_name", "5.10 -> %p, 7.7 errno %d", (void *)p510, errno);
	T_CHECK(bg_kernel_profile__by_version(BG_KERNEL_VERSION(5, 12)) == p510 &&
		    !strcmp(bg_kernel_profile__name(bg_kernel_profile__default()), "6.18"),
		"profile_by_version", "5.12 -> %s",
		bg_kernel_profile__name(bg_kernel_profile__by_version(BG_KERNEL_VERSION(5, 12))));
	T_CHECK(bg_kernel_profile__has(p510, BG_KFEAT_BOUNDED_LOOPS) &&
		    !bg_kernel_profile__has(p510, BG_KFEAT_ISA_V4) &&
		    !bg_kernel_profile__has(p510, BG_KFEAT__CNT) &&
		    bg_kernel_feature__since(BG_KFEAT_ISA_V4) == BG_KERNEL_VERSION(6, 6) &&
		    !strcmp(bg_kernel_feature__name(BG_KFEAT_BOUNDED_LOOPS), "bounded loops") &&
		    !bg_kernel_feature__name(BG_KFEAT__CNT),
		"profile_features", "5.10 loops/v4, v4 since %x",
		bg_kernel_feature__since(BG_KFEAT_ISA_V4));
	T_CHECK(bg_kernel_profile__max_prog_insns(bg_kernel_profile__by_name("4.19")) == 4096 &&
		    bg_kernel_profile__max_tail_calls(bg_kernel_profile__by_name("5.10")) == 32 &&
		    bg_kernel_profile__stack_size(p510) == 512 &&
		    bg_kernel_profile__max_call_depth(p510) == 8 &&
		    bg_kernel_profile__max_processed_insns(p510) == 1000000,
		"profile_limits", "4.19 insns %u",
		bg_kernel_profile__max_prog_insns(bg_kernel_profile__by_name("4.19")));
	k = bg_kernel_profile__parse_list("5.10,6.1,5.10", l, 16, bad, sizeof(bad));
	T_CHECK(k == 2 && l[0] == p510 &&
		    bg_kernel_profile__parse_list("all", l, 16, bad, sizeof(bad)) == (int)n &&
		    bg_kernel_profile__parse_list("6.1,7.7", l, 16, bad, sizeof(bad)) == -ENOENT &&
		    !strcmp(bad, "7.7"),
		"profile_parse_list", "count %d, bad '%s'", k, bad);
	T_CHECK(bg_kernel_version__str(BG_KERNEL_VERSION(5, 17), v, sizeof(v)) == 4 &&
		    !strcmp(v, "5.17"),
		"profile_version_str", "'%s'", v);
}

static void text(void)
{
	char b[128], *buf = NULL;
	size_t need = bg_text_escape(b, sizeof(b), "a\x1b]0;x\x07\n\xff\xc2\x85ok\tz", 0);
	size_t sz = 0;
	FILE *f;

	T_CHECK(!strcmp(b, "a\\x1b]0;x\\x07\\n\\xff\\u0085ok\\tz") && need == strlen(b),
		"text_escape", "'%s' (%zu)", b, need);
	T_CHECK(bg_text_escape(NULL, 0, "\x1b", 0) == 4 &&
		    bg_text_escape(b, 3, "\x1bxyz", 0) == 7 && !strcmp(b, "") &&
		    (bg_text_escape(b, sizeof(b), "a\tb", BG_TEXT_KEEP_TAB), !strcmp(b, "a\tb")),
		"text_escape_sizes", "'%s'", b);
	f = open_memstream(&buf, &sz);
	T_CHECK(f && !bg_text_write_json(f, "q\"\\\x01\xff\xe2\x82\xac") &&
		    !bg_text_write_json(f, NULL) && !fclose(f) &&
		    !strcmp(buf, "\"q\\\"\\\\\\u0001\\ufffd\xe2\x82\xac\"null"),
		"text_json", "%s", buf ? buf : "(none)");
	free(buf);
}

/* ---- captures ---- */

static void put32(FILE *f, uint32_t v)
{
	fwrite(&v, 4, 1, f);
}
static void put16(FILE *f, uint16_t v)
{
	fwrite(&v, 2, 1, f);
}

static void pcap_header(FILE *f, uint32_t link)
{
	put32(f, 0xa1b2c3d4);
	put16(f, 2);
	put16(f, 4);
	put32(f, 0);
	put32(f, 0);
	put32(f, 65535);
	put32(f, link);
}

static void pcap_record(FILE *f, const void *d, uint32_t len, uint32_t claimed)
{
	put32(f, 1);
	put32(f, 0);
	put32(f, claimed);
	put32(f, claimed);
	fwrite(d, 1, len, f);
}

static void packets(const char *dir)
{
	char path[512], err[512] = "";
	uint8_t eth[60] = {0}, sll[16 + 20] = {0};
	struct bg_packets *ps = bg_packets__new();
	struct bg_packets_opts o = {.sz = sizeof(o)};
	uint32_t len = 0;
	const uint8_t *d;
	FILE *f;
	int e;

	eth[12] = 0x08; /* IPv4 */
	snprintf(path, sizeof(path), "%s/eth.pcap", dir);
	f = fopen(path, "wb");
	pcap_header(f, 1);
	pcap_record(f, eth, 60, 60);
	pcap_record(f, eth, 42, 42);
	fclose(f);
	e = bg_packets__add_capture(ps, path, &o, err, sizeof(err));
	d = bg_packets__data(ps, 1, &len);
	T_CHECK(!e && bg_packets__cnt(ps) == 2 && d && len == 42 &&
		    bg_packets__offset(ps, 0) == 24 && bg_packets__offset(ps, 1) == 24 + 16 + 60 &&
		    !bg_packets__data(ps, 2, &len) && len == 0,
		"packets_pcap_eth", "e %d n %zu len %u off %llu: %s", e, bg_packets__cnt(ps), len,
		(unsigned long long)bg_packets__offset(ps, 1), err);

	/* Linux cooked (113): an Ethernet header is made, protocol kept */
	sll[4] = 0, sll[5] = 6;				/* address length 6 */
	memcpy(sll + 6, "\x02\x11\x22\x33\x44\x55", 6); /* source */
	sll[14] = 0x86, sll[15] = 0xdd;			/* IPv6 */
	snprintf(path, sizeof(path), "%s/sll.pcap", dir);
	f = fopen(path, "wb");
	pcap_header(f, 113);
	pcap_record(f, sll, sizeof(sll), sizeof(sll));
	fclose(f);
	e = bg_packets__add_capture(ps, path, &o, err, sizeof(err));
	d = bg_packets__data(ps, 2, &len);
	T_CHECK(!e && bg_packets__cnt(ps) == 3 && len == 14 + 20 && d &&
		    !memcmp(d + 6, sll + 6, 6) && d[12] == 0x86 && d[13] == 0xdd,
		"packets_pcap_cooked", "e %d len %u: %s", e, len, err);

	/* a link type no program input can come from: refused, named */
	snprintf(path, sizeof(path), "%s/wifi.pcap", dir);
	f = fopen(path, "wb");
	pcap_header(f, 105);
	pcap_record(f, eth, 60, 60);
	fclose(f);
	e = bg_packets__add_capture(ps, path, NULL, err, sizeof(err));
	T_CHECK(e == -EINVAL && strstr(err, "wifi.pcap: link type") &&
		    strstr(err, "(105) refused") && bg_packets__cnt(ps) == 3,
		"packets_pcap_refused_link", "e %d: %s", e, err);

	/* a record that claims more bytes than the file holds */
	snprintf(path, sizeof(path), "%s/cut.pcap", dir);
	f = fopen(path, "wb");
	pcap_header(f, 1);
	pcap_record(f, eth, 20, 60);
	fclose(f);
	e = bg_packets__add_capture(ps, path, &o, err, sizeof(err));
	T_CHECK(e < 0 && strstr(err, "cut.pcap: offset 24: record 1: "), "packets_pcap_truncated",
		"e %d: %s", e, err);

	/* raw file and directory; errors are errors */
	snprintf(path, sizeof(path), "%s/raw", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/raw/b", dir);
	f = fopen(path, "wb");
	fwrite(eth, 1, 20, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/raw/a", dir);
	f = fopen(path, "wb");
	fwrite(eth, 1, 30, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/raw", dir);
	e = bg_packets__add_dir(ps, path, err, sizeof(err));
	bg_packets__data(ps, 3, &len);
	T_CHECK(!e && bg_packets__cnt(ps) == 5 && len == 30, "packets_dir_sorted",
		"e %d n %zu first %u", e, bg_packets__cnt(ps), len);
	T_CHECK(bg_packets__add_file(ps, path, err, sizeof(err)) < 0 && strstr(err, "/raw") &&
		    bg_packets__add_file(ps, "/nonexistent/x", NULL, 0) < 0 &&
		    bg_packets__add_dir(ps, "/nonexistent/x", err, sizeof(err)) < 0,
		"packets_read_errors", "%s", err);

	/* options: a newer caller's unknown non-zero field is refused, a zero one accepted */
	struct {
		struct bg_packets_opts o;
		uint64_t future;
	} big = {.o = {.sz = sizeof(big)}, .future = 1};
	snprintf(path, sizeof(path), "%s/eth.pcap", dir);
	e = bg_packets__add_capture(ps, path, &big.o, err, sizeof(err));
	big.future = 0;
	T_CHECK(e == -EINVAL && !bg_packets__add_capture(ps, path, &big.o, err, sizeof(err)),
		"packets_opts_sz", "non-zero tail: %d", e);
	bg_packets__free(ps);
	bg_packets__free(NULL);
}

/* ---- the kernel image cache ---- */

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void kcache(const char *dir)
{
	char root[512], p[640];
	struct bg_kcache_opts co = {.sz = sizeof(co)};
	struct bg_kcache *c;
	const struct bg_kimage *k;

	T_CHECK(!bg_kcache_default_root("/x", "/h", root, sizeof(root)) &&
		    !strcmp(root, "/x/bpfgate") &&
		    !bg_kcache_default_root("", "/h", root, sizeof(root)) &&
		    !strcmp(root, "/h/.cache/bpfgate") &&
		    bg_kcache_default_root(NULL, NULL, root, sizeof(root)) == -ENOENT &&
		    bg_kcache_default_root("/x", NULL, root, 4) == -ENAMETOOLONG,
		"kcache_default_root", "%s", root);
	T_CHECK(bg_kcache_valid_ver("5.10") && bg_kcache_valid_ver("7.2") &&
		    !bg_kcache_valid_ver("6.x") && !bg_kcache_valid_ver("../1") &&
		    !bg_kcache_valid_ver(NULL),
		"kcache_valid_ver", "%s", "5.10/7.2 valid, 6.x ../1 NULL not");
	snprintf(root, sizeof(root), "%s/cache", dir);
	for (int i = 0; i < 2; i++) {
		const char *ver = i ? "5.10" : "6.1";

		snprintf(p, sizeof(p), "%s/kernels/%s", root, ver);
		mkdir(root, 0755);
		snprintf(p, sizeof(p), "%s/kernels", root);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/kernels/%s", root, ver);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/kernels/%s/vmlinuz", root, ver);
		write_file(p, "not a kernel");
		snprintf(p, sizeof(p), "%s/kernels/%s/info", root, ver);
		write_file(p, i ? "release=5.10.0-46-amd64\npackage=linux-image-5.10.0-46-"
				  "amd64\nversion=5.10.262-1\n"
				: "release=6.1.0-57-amd64\npackage=linux-image-6.1.0-57-"
				  "amd64\nversion=6.1.192-3\n");
	}
	c = bg_kcache__open(root, &co);
	k = bg_kcache__find(c, "5.10");
	T_CHECK(c && bg_kcache__image_cnt(c) == 2 &&
		    !strcmp(bg_kimage__version(bg_kcache__image(c, 0)), "5.10") && k &&
		    !strcmp(bg_kimage__release(k), "5.10.0-46-amd64") &&
		    !strcmp(bg_kimage__package(k), "linux-image-5.10.0-46-amd64") &&
		    !strcmp(bg_kimage__package_version(k), "5.10.262-1") &&
		    strstr(bg_kimage__path(k), "/5.10/vmlinuz") &&
		    !strcmp(bg_kcache__root(c), root),
		"kcache_open_list", "%zu images", bg_kcache__image_cnt(c));
	errno = 0;
	T_CHECK(!bg_kcache__find(c, "6.12") && errno == ENOENT &&
		    bg_kcache__remove(c, "6.12") == -ENOENT && !bg_kcache__remove(c, "6.1") &&
		    bg_kcache__image_cnt(c) == 1 && !bg_kcache__find(c, "6.1") &&
		    bg_kcache__find(c, "5.10") == k,
		"kcache_find_remove", "%zu images", bg_kcache__image_cnt(c));
	{
		char err[256] = "";
		int e = bg_kcache__fetch(c, "6.x", NULL, err, sizeof(err));

		T_CHECK(e == -EINVAL, "kcache_fetch_bad_version", "e %d: %s", e, err);
	}
	struct {
		struct bg_kvm_opts o;
		uint64_t future;
	} big = {.o = {.sz = sizeof(big)}, .future = 1};
	struct bg_kvm_run *runs[1] = {(struct bg_kvm_run *)&big};
	const char *objs[1] = {"/nonexistent.o"};
	T_CHECK(bg_kcache__judge(c, &k, 1, objs, 1, &big.o, runs) == -EINVAL && runs[0] == NULL,
		"kcache_judge_opts_sz", "non-zero tail accepted");
	bg_kcache__free(c);
	struct {
		struct bg_kcache_opts o;
		uint64_t future;
	} cbig = {.o = {.sz = sizeof(cbig)}, .future = 1};
	errno = 0;
	T_CHECK(
	    !bg_kcache__open(root, &cbig.o) && errno == EINVAL && !bg_kcache__open(NULL, NULL) &&
		(c = bg_kcache__open("/nonexistent/root", NULL)) && bg_kcache__image_cnt(c) == 0,
	    "kcache_open_opts", "errno %d", errno);
	bg_kcache__free(c);
	const char *why = NULL, *a = bg_kvm_accel(NULL, &why);
	T_CHECK(a && (!strcmp(a, "kvm") || !strcmp(a, "tcg")) && why && *why &&
		    !strcmp(bg_kvm_accel("tcg", NULL), "tcg"),
		"kvm_accel", "%s (%s)", a ? a : "-", why ? why : "-");
}

int main(void)
{
	char dir[] = "/tmp/bg-public-XXXXXX", cmd[64];

	if (!mkdtemp(dir)) {
		T_FAIL("tmpdir", "%s", strerror(errno));
		T_EXIT();
	}
	profiles();
	text();
	packets(dir);
	kcache(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		T_FAIL("cleanup", "%s", cmd);
	T_EXIT();
}
