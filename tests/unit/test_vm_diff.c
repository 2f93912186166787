/* Differential test of the interpreter against the running kernel: every
 * XDP, tc and socket-filter program of the examples ($BG_EXAMPLES) and the
 * corpus ($BG_CORPUS, when present) that the kernel accepts is run on a set
 * of crafted packets both here (sanitizing on) and through
 * BPF_PROG_TEST_RUN. Per program: same return value, same output packet,
 * same map contents after every packet, and no sanitizer report.
 * Per-CPU maps are compared as the sum over CPUs of each 8-byte word (the
 * interpreter models one CPU); LRU hashes on their common keys (the
 * kernel's eviction order is its own). Map values that depend on time,
 * randomness or the CPU are expected failures (XFAIL) with the reason.
 * $BG_VM_DIFF_PREFIX names the group in test names (default "examples"). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpfgate/bpfgate.h>
#include <bpfgate/vm.h>
#include "test.h"

/* ---------- crafted packets ---------- */

struct pkt {
	const char *name;
	uint8_t b[1600];
	size_t len;
};

static struct pkt pkts[16];
static size_t npkts;

static uint16_t csum16(const uint8_t *p, size_t n)
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

static void hex_into(uint8_t *out, size_t *len, const char *hex)
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
static void ipv4(const char *name, uint8_t proto, const char *l4hex, size_t pad, uint16_t frag)
{
	struct pkt *p = &pkts[npkts++];
	uint8_t *ip;
	size_t l4 = 0, tot;

	p->name = name;
	hex_into(p->b, &p->len, "02 00 00 00 00 02 02 00 00 00 00 01 08 00");
	ip = p->b + p->len;
	hex_into(p->b, &p->len, "45 00 00 00 12 34 00 00 40 00 00 00 c0 a8 01 0a c0 a8 01 14");
	ip[9] = proto;
	ip[6] = (uint8_t)(frag >> 8);
	ip[7] = (uint8_t)frag;
	hex_into(p->b, &l4, ""); /* keep l4 count separate */
	l4 = p->len;
	hex_into(p->b, &p->len, l4hex);
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
	{
		uint16_t c = csum16(ip, 20);

		ip[10] = (uint8_t)(c >> 8);
		ip[11] = (uint8_t)c;
	}
}

static void raw(const char *name, const char *hex, size_t pad)
{
	struct pkt *p = &pkts[npkts++];

	p->name = name;
	hex_into(p->b, &p->len, hex);
	memset(p->b + p->len, 0x5a, pad);
	p->len += pad;
}

static void make_packets(void)
{
	ipv4("tcp_syn", 6, "c3 50 00 50 00 00 00 01 00 00 00 00 50 02 72 10 00 00 00 00", 6, 0);
	ipv4("tcp_http", 6, "c3 51 1f 90 00 00 00 01 00 00 00 05 50 18 72 10 00 00 00 00", 40, 0);
	ipv4("udp_dns", 17, "d4 31 00 35 00 00 00 00 12 34 01 00 00 01 00 00 00 00 00 00"
			    " 03 77 77 77 07 65 78 61 6d 70 6c 65 03 63 6f 6d 00 00 01 00 01", 0, 0);
	ipv4("udp_other", 17, "30 39 1f 40 00 00 00 00", 100, 0);
	ipv4("udp_big", 17, "30 39 1f 41 00 00 00 00", 1400, 0);
	ipv4("icmp_echo", 1, "08 00 00 00 00 01 00 01", 32, 0);
	ipv4("ipv4_fragment", 17, "30 39 00 35 00 00 00 00", 16, 0x2001);
	ipv4("gre", 47, "00 00 08 00", 20, 0);
	raw("ipv6_udp", "02 00 00 00 00 02 02 00 00 00 00 01 86 dd 60 00 00 00 00 10 11 40"
			" 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01"
			" 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 02"
			" 30 39 00 35 00 10 00 00", 8);
	raw("arp", "ff ff ff ff ff ff 02 00 00 00 00 01 08 06 00 01 08 00 06 04 00 01"
		   " 02 00 00 00 00 01 c0 a8 01 0a 00 00 00 00 00 00 c0 a8 01 14", 18);
	raw("vlan_ipv4", "02 00 00 00 00 02 02 00 00 00 00 01 81 00 00 64 08 00"
			 " 45 00 00 1c 00 00 00 00 40 11 00 00 0a 00 00 01 0a 00 00 02"
			 " 00 35 00 35 00 08 00 00", 0);
	raw("eth_only", "02 00 00 00 00 02 02 00 00 00 00 01 08 00", 0);
	raw("ipv4_truncated", "02 00 00 00 00 02 02 00 00 00 00 01 08 00 45 00 00 30 00 00", 0);
	raw("garbage", "", 90);
}

/* ---------- map comparison ---------- */

struct cmp_ctx {
	struct bg_vm *vm;
	size_t map;
	const struct bg_map_def *def;
	int ncpu;
	size_t count, lru_missing;
	char why[256];
};

static bool is_lru(uint32_t t)
{
	return t == BPF_MAP_TYPE_LRU_HASH || t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static bool is_percpu(uint32_t t)
{
	return t == BPF_MAP_TYPE_PERCPU_ARRAY || t == BPF_MAP_TYPE_PERCPU_HASH ||
	       t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static int cmp_one(const void *key, const void *kval, void *arg)
{
	struct cmp_ctx *c = arg;
	uint8_t vval[4096], want[4096];
	uint32_t vs = c->def->value_size;
	int err;

	c->count++;
	if (vs > sizeof(vval))
		return 0;
	err = bg_vm__map_lookup(c->vm, c->map, key, vval);
	if (err && is_lru(c->def->type)) {
		c->lru_missing++; /* the kernel's LRU evicts in batches, per CPU */
		return 0;
	}
	if (err) {
		snprintf(c->why, sizeof(c->why), "map %s: key present in the kernel only",
			 c->def->name);
		return 1;
	}
	if (is_percpu(c->def->type)) {
		uint32_t stride = (vs + 7) & ~7u, w;
		int cpu;

		memset(want, 0, sizeof(want));
		for (cpu = 0; cpu < c->ncpu; cpu++)
			for (w = 0; w + 8 <= vs; w += 8) {
				uint64_t a, b;

				memcpy(&a, want + w, 8);
				memcpy(&b, (const uint8_t *)kval + (size_t)cpu * stride + w, 8);
				a += b;
				memcpy(want + w, &a, 8);
			}
		vs &= ~7u;
	} else {
		memcpy(want, kval, vs);
	}
	if (memcmp(want, vval, vs)) {
		snprintf(c->why, sizeof(c->why), "map %s: value differs (kernel %02x%02x%02x%02x.. vm %02x%02x%02x%02x..)",
			 c->def->name, want[0], want[1], want[2], want[3], vval[0], vval[1], vval[2],
			 vval[3]);
		return 1;
	}
	return 0;
}

static bool comparable(uint32_t t)
{
	switch (t) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		return true;
	default:
		return false;
	}
}

static int compare_maps(struct bg_vm *vm, const struct bg_object *obj,
			const struct bg_kload_result *kr, char *why, size_t whysz)
{
	size_t i;

	for (i = 0; i < kr->map_cnt && i < bg_object__map_cnt(obj); i++) {
		const struct bg_map_def *d = bg_object__map(obj, i);
		struct cmp_ctx c = { vm, i, d, bg_kern_possible_cpus(), 0, 0, "" };
		uint8_t k[512], nk[512];
		size_t vcount = 0;
		int err;

		if (!comparable(d->type) || kr->map_fds[i] < 0 || d->key_size > sizeof(k))
			continue;
		err = bg_kern_map_foreach(kr->map_fds[i], d, cmp_one, &c);
		if (err) {
			snprintf(why, whysz, "%s", c.why[0] ? c.why : "kernel map read failed");
			return -1;
		}
		err = bg_vm__map_next_key(vm, i, NULL, nk);
		while (!err && vcount <= c.count + d->max_entries) {
			vcount++;
			memcpy(k, nk, d->key_size);
			err = bg_vm__map_next_key(vm, i, k, nk);
		}
		if (is_lru(d->type)) {
			/* eviction order is the kernel's own: compare the common keys
			 * only, and the number of entries up to the capacity */
			if (vcount > d->max_entries || c.count > d->max_entries ||
			    (vcount < d->max_entries && c.count < d->max_entries &&
			     vcount != c.count)) {
				snprintf(why, whysz, "map %s: %zu entries in the kernel, %zu here",
					 d->name, c.count, vcount);
				return -1;
			}
			continue;
		}
		if (vcount != c.count) {
			snprintf(why, whysz, "map %s: %zu entries in the kernel, %zu here", d->name,
				 c.count, vcount);
			return -1;
		}
	}
	return 0;
}

/* ---------- one program ---------- */

static int ndiff, nprog;

/* Name of a time/random/CPU helper the program calls (its map contents then
 * legitimately differ from the kernel's), or NULL. */
static const char *nondeterministic(const struct bg_program *p)
{
	size_t n, i;
	const struct bg_insn *ins = bg_program__insns(p, &n);

	for (i = 0; ins && i < n; i++) {
		if (ins[i].kind != BG_K_CALL || ins[i].pseudo != BG_CALL_HELPER)
			continue;
		switch (ins[i].imm) {
		case BPF_FUNC_ktime_get_ns:
		case BPF_FUNC_ktime_get_boot_ns:
		case BPF_FUNC_ktime_get_coarse_ns:
		case BPF_FUNC_ktime_get_tai_ns:
		case BPF_FUNC_jiffies64:
			return "bpf_ktime_get_ns (time)";
		case BPF_FUNC_get_prandom_u32:
			return "bpf_get_prandom_u32";
		case BPF_FUNC_get_smp_processor_id:
			return "bpf_get_smp_processor_id";
		case BPF_FUNC_get_hash_recalc:
			return "bpf_get_hash_recalc (the kernel seeds its flow hash at random per boot)";
		default:
			break;
		}
	}
	return NULL;
}

static void diff_prog(const char *objname, const struct bg_object *obj, struct bg_program *p)
{
	struct bg_kload_opts ko = { .sz = sizeof(ko), .keep_fd = 1 };
	struct bg_kload_result kr;
	struct bg_vm_opts vo = { .sz = sizeof(vo) };
	struct bg_vm *vm;
	char name[512], why[512] = "";
	static uint8_t kout[65536];
	size_t i;
	int bad = 0, fault = 0, kfunc = 0;
	const char *nondet = nondeterministic(p);

	snprintf(name, sizeof(name), "diff/%s/%s", objname, bg_program__name(p));
	memset(&kr, 0, sizeof(kr));
	if (bg_kern_load(p, &ko, &kr) || kr.verdict != BG_VERDICT_ACCEPTED || kr.prog_fd < 0) {
		char *nl = kr.reason ? strchr(kr.reason, '\n') : NULL;

		if (nl)
			*nl = 0;
		T_SKIP(name, "not loaded by the kernel: %s", kr.reason ? kr.reason : "?");
		bg_kload_result__fini(&kr);
		return;
	}
	vm = bg_vm__new(p, &vo);
	if (!vm) {
		T_FAIL(name, "bg_vm__new: %s", strerror(errno));
		bg_kload_result__fini(&kr);
		return;
	}
	nprog++;
	for (i = 0; i < npkts && !bad; i++) {
		struct bg_test_run_opts to = { .sz = sizeof(to), .data_in = pkts[i].b,
					       .data_size_in = (uint32_t)pkts[i].len,
					       .data_out = kout, .data_size_out = sizeof(kout) };
		uint32_t kret = 0;
		uint64_t r0 = 0;
		const uint8_t *vout;
		size_t vlen;
		int kerr = bg_kern_test_run(kr.prog_fd, &to, &kret, NULL);
		int verr;

		if (kerr) /* the kernel refused the input (e.g. too short): skip it here too */
			continue;
		bg_vm__set_packet(vm, pkts[i].b, pkts[i].len);
		verr = bg_vm__run(vm, &r0);
		if (verr) {
			const struct bg_vm_fault *f = bg_vm__fault(vm);

			snprintf(why, sizeof(why), "packet %s: sanitizer: insn %zu: %s", pkts[i].name,
				 f ? f->pc : 0, f ? f->msg : "?");
			bad = fault = 1;
			if (f && f->kind == BG_VM_FAULT_KFUNC)
				kfunc = 1;
			break;
		}
		if ((uint32_t)r0 != kret) {
			snprintf(why, sizeof(why), "packet %s: r0 %u here, %u in the kernel",
				 pkts[i].name, (uint32_t)r0, kret);
			bad = 1;
			break;
		}
		vout = bg_vm__packet(vm, &vlen);
		if (vlen != to.data_size_out || (vlen && memcmp(vout, kout, vlen))) {
			size_t k = 0;

			while (k < vlen && k < to.data_size_out && vout[k] == kout[k])
				k++;
			snprintf(why, sizeof(why),
				 "packet %s: output packet differs (%zu bytes here, %u in the kernel, first difference at %zu)",
				 pkts[i].name, vlen, to.data_size_out, k);
			bad = 1;
			break;
		}
		if (compare_maps(vm, obj, &kr, why, sizeof(why))) {
			char tmp[512];

			snprintf(tmp, sizeof(tmp), "after packet %s: %s", pkts[i].name, why);
			memcpy(why, tmp, sizeof(why));
			bad = 1;
		}
	}
	if (bad && nondet && !fault) {
		T_XFAIL(name, "%s; results depend on %s", why, nondet);
	} else if (kfunc) {
		T_XFAIL(name, "%s (this kfunc is not modelled by the interpreter)", why);
	} else if (bad) {
		ndiff++;
		T_FAIL(name, "%s", why);
	} else {
		T_PASS(name);
	}
	bg_vm__free(vm);
	bg_kload_result__fini(&kr);
}

static bool wanted(uint32_t t)
{
	return t == BPF_PROG_TYPE_XDP || t == BPF_PROG_TYPE_SCHED_CLS ||
	       t == BPF_PROG_TYPE_SCHED_ACT || t == BPF_PROG_TYPE_SOCKET_FILTER ||
	       t == BPF_PROG_TYPE_CGROUP_SKB;
}

static void diff_object(const char *path, const char *shortname)
{
	char err[512] = "";
	struct bg_object *obj = bg_object__open(path, NULL, err, sizeof(err));
	size_t i;

	if (!obj)
		return; /* the object loader's own tests report this */
	for (i = 0; i < bg_object__prog_cnt(obj); i++) {
		struct bg_program *p = bg_object__prog(obj, i);

		if (wanted(bg_program__type(p)))
			diff_prog(shortname, obj, p);
	}
	bg_object__free(obj);
}

static void walk(const char *dir, const char *prefix, int depth)
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
	qsort(names, n, sizeof(*names), (int (*)(const void *, const void *))strcmp);
	for (i = 0; i < n; i++) {
		char path[PATH_MAX], sn[PATH_MAX];
		size_t l = strlen(names[i]);

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		snprintf(sn, sizeof(sn), "%s%s", prefix, names[i]);
		if (l > 6 && !strcmp(names[i] + l - 6, ".bpf.o"))
			diff_object(path, sn);
		else if (l > 2 && !strcmp(names[i] + l - 2, ".o"))
			diff_object(path, sn);
		else if (depth < 3 && !strchr(names[i], '.') && strcmp(names[i], "reject")) {
			/* corpus/reject: the kernel refuses those, nothing to compare */
			char pre[PATH_MAX];

			snprintf(pre, sizeof(pre), "%s/", sn);
			walk(path, pre, depth + 1);
		}
		free(names[i]);
	}
	free(names);
}

static void root_dir(char *root, size_t sz)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int i;

	exe[n > 0 ? n : 0] = 0;
	for (i = 0; i < 2; i++) { /* BUILD/tests/x -> BUILD */
		char *s = strrchr(exe, '/');

		if (s)
			*s = 0;
	}
	snprintf(root, sz, "%s", exe);
}

int main(void)
{
	const char *why = NULL, *ex = getenv("BG_EXAMPLES"), *corpus = getenv("BG_CORPUS");
	char build[PATH_MAX], exdir[PATH_MAX + 16];

	bg_set_print(NULL);
	if (!bg_kern_available(&why)) {
		T_SKIP("vm differential", "bpf() unavailable: %s", why ? why : "?");
		return 0;
	}
	make_packets();
	root_dir(build, sizeof(build));
	if (!ex) {
		/* the ASan build has no examples: use the normal build's */
		snprintf(exdir, sizeof(exdir), "%s/examples", build);
		if (access(exdir, R_OK))
			snprintf(exdir, sizeof(exdir), "%s/../build/examples", build);
		ex = exdir;
	}
	{
		const char *pre = getenv("BG_VM_DIFF_PREFIX");
		char pfx[128];

		snprintf(pfx, sizeof(pfx), "%s/", pre ? pre : "examples");
		walk(ex, pfx, 0);
	}
	if (corpus && !access(corpus, R_OK)) {
		/* one compiler variant (clang-19 -mcpu=v4: the widest ISA) keeps the
		 * run short, each program being loaded into the kernel;
		 * BG_VM_DIFF_ALL=1 walks every variant */
		static const char *const variants[] = { "c19v4" };
		char sub[PATH_MAX + 16];
		size_t v, done = 0;

		for (v = 0; !getenv("BG_VM_DIFF_ALL") && v < 1; v++) {
			char pre[64];

			snprintf(sub, sizeof(sub), "%s/%s", corpus, variants[v]);
			snprintf(pre, sizeof(pre), "corpus/%s/", variants[v]);
			if (!access(sub, R_OK)) {
				walk(sub, pre, 0);
				done++;
			}
		}
		if (!done)
			walk(corpus, "corpus/", 0);
	}
	T_CHECK(nprog > 0, "vm differential ran programs", "no XDP/tc/socket program found in %s", ex);
	printf("# %d programs compared with the kernel, %d differ\n", nprog, ndiff);
	T_EXIT();
}
