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
/* min-pass: 9 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
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
#include "test_progs.h"

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
	for (i = 0; i < test_npkts && !bad; i++) {
		struct bg_test_run_opts to = { .sz = sizeof(to), .data_in = test_pkts[i].b,
					       .data_size_in = (uint32_t)test_pkts[i].len,
					       .data_out = kout, .data_size_out = sizeof(kout) };
		uint32_t kret = 0;
		uint64_t r0 = 0;
		const uint8_t *vout;
		size_t vlen;
		int kerr = bg_kern_test_run(kr.prog_fd, &to, &kret, NULL);
		int verr;

		if (kerr) /* the kernel refused the input (e.g. too short): skip it here too */
			continue;
		bg_vm__set_packet(vm, test_pkts[i].b, test_pkts[i].len);
		verr = bg_vm__run(vm, &r0);
		if (verr) {
			const struct bg_vm_fault *f = bg_vm__fault(vm);

			snprintf(why, sizeof(why), "packet %s: sanitizer: insn %zu: %s", test_pkts[i].name,
				 f ? f->pc : 0, f ? f->msg : "?");
			bad = fault = 1;
			if (f && f->kind == BG_VM_FAULT_KFUNC)
				kfunc = 1;
			break;
		}
		if ((uint32_t)r0 != kret) {
			snprintf(why, sizeof(why), "packet %s: r0 %u here, %u in the kernel",
				 test_pkts[i].name, (uint32_t)r0, kret);
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
				 test_pkts[i].name, vlen, to.data_size_out, k);
			bad = 1;
			break;
		}
		if (compare_maps(vm, obj, &kr, why, sizeof(why))) {
			char tmp[512];

			snprintf(tmp, sizeof(tmp), "after packet %s: %s", test_pkts[i].name, why);
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

int main(void)
{
	const char *why = NULL, *ex, *corpus = getenv("BG_CORPUS");
	char exdir[PATH_MAX + 16];

	bg_set_print(NULL);
	if (!bg_kern_available(&why)) {
		T_SKIP("vm differential", "bpf() unavailable: %s", why ? why : "?");
		return 0;
	}
	test_make_packets();
	ex = test_examples_dir(exdir, sizeof(exdir)); /* the ASan build has no examples */
	{
		const char *pre = getenv("BG_VM_DIFF_PREFIX");
		char pfx[128];

		snprintf(pfx, sizeof(pfx), "%s/", pre ? pre : "examples");
		test_walk(ex, pfx, 0, diff_object);
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
				test_walk(sub, pre, 0, diff_object);
				done++;
			}
		}
		if (!done)
			test_walk(corpus, "corpus/", 0, diff_object);
	}
	T_CHECK(nprog > 0, "vm differential ran programs", "no XDP/tc/socket program found in %s", ex);
	printf("# %d programs compared with the kernel, %d differ\n", nprog, ndiff);
	T_EXIT();
}
