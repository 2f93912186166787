/* Options structs are handled one way by every entry point (src/core/opts.h,
 * libbpf's convention): sz read; fields past the caller's sz taken as zero
 * (an older caller); bytes past the fields this library knows must be zero
 * (a newer caller), else -EINVAL; sz < sizeof(size_t) is -EINVAL. Checked on
 * bg_verify, bg_verify_states__new, bg_object__open, bg_vm__new and
 * bg_kern_load with a smaller and a larger sz. */
/* min-pass: 15 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfgate/bpfgate.h>
#include <bpfgate/verifier.h>
#include <bpfgate/vm.h>
#include "test.h"

#define ENDOF(T, f) (offsetof(T, f) + sizeof(((T *)0)->f))

/* A caller compiled against a newer header: our struct plus 16 bytes. */
struct verify_opts_big {
	struct bg_verify_opts o;
	uint64_t future[2];
};

static void verify_cases(const struct bg_program *p)
{
	struct bg_verify_result r;
	int e;

	/* older caller: sz stops before max_steps; garbage after it must be ignored
	 * (max_steps = 1 would make the program "too complex") */
	struct bg_verify_opts small;
	memset(&small, 0xff, sizeof(small));
	small.sz = ENDOF(struct bg_verify_opts, trace);
	small.profile = NULL;
	small.unprivileged = 0;
	small.trace = NULL;
	e = bg_verify(p, &small, &r);
	T_CHECK(!e && r.verdict == BG_VERDICT_ACCEPTED, "verify_small_sz",
		"sz up to trace with 0xff after it: err %d verdict %d (want 0, accepted)", e, (int)r.verdict);
	bg_verify_result__fini(&r);

	/* the same bytes, sz covering max_steps = 1: honoured */
	small.sz = ENDOF(struct bg_verify_opts, max_steps);
	small.max_steps = 1;
	e = bg_verify(p, &small, &r);
	T_CHECK(!e && r.verdict != BG_VERDICT_ACCEPTED && r.diag.check && !strcmp(r.diag.check, "too_complex"),
		"verify_field_in_sz", "max_steps = 1 inside sz: err %d verdict %d check %s", e, (int)r.verdict,
		r.diag.check ? r.diag.check : "-");
	bg_verify_result__fini(&r);

	/* newer caller, unknown trailing bytes zero: accepted */
	struct verify_opts_big big;
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	e = bg_verify(p, &big.o, &r);
	T_CHECK(!e && r.verdict == BG_VERDICT_ACCEPTED, "verify_big_sz_zero",
		"larger sz, zero tail: err %d verdict %d", e, (int)r.verdict);
	bg_verify_result__fini(&r);

	/* newer caller asking for something we do not know: -EINVAL */
	big.future[1] = 1;
	e = bg_verify(p, &big.o, &r);
	T_CHECK(e == -EINVAL, "verify_big_sz_unknown", "larger sz, non-zero unknown field: err %d (want -EINVAL)", e);
	bg_verify_result__fini(&r);

	/* sz too small to be a struct */
	struct bg_verify_opts bad = { .sz = 3 };
	e = bg_verify(p, &bad, &r);
	T_CHECK(e == -EINVAL, "verify_sz_tiny", "sz 3: err %d (want -EINVAL)", e);
	bg_verify_result__fini(&r);

	/* bg_verify_states__new goes through the same check */
	struct {
		struct bg_verify_states_opts o;
		uint32_t future;
	} sbig;
	memset(&sbig, 0, sizeof(sbig));
	sbig.o.sz = sizeof(sbig);
	struct bg_verify_states *st = bg_verify_states__new(p, &sbig.o);
	T_CHECK(st != NULL, "states_big_sz_zero", "larger sz, zero tail: %s", strerror(errno));
	bg_verify_states__free(st);
	sbig.future = 7;
	errno = 0;
	st = bg_verify_states__new(p, &sbig.o);
	T_CHECK(!st && errno == EINVAL, "states_big_sz_unknown", "non-zero unknown field: st %p errno %d", (void *)st,
		errno);
	bg_verify_states__free(st);
	struct bg_verify_states_opts ssmall;
	memset(&ssmall, 0xff, sizeof(ssmall));
	ssmall.sz = ENDOF(struct bg_verify_states_opts, unprivileged);
	ssmall.profile = NULL;
	ssmall.unprivileged = 0;
	st = bg_verify_states__new(p, &ssmall);
	T_CHECK(st && bg_verify_states__result(st)->verdict == BG_VERDICT_ACCEPTED, "states_small_sz",
		"sz up to unprivileged, 0xff after: %s", st ? "not accepted" : strerror(errno));
	bg_verify_states__free(st);
}

static void vm_cases(const struct bg_program *p)
{
	struct {
		struct bg_vm_opts o;
		uint64_t future;
	} big;
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	struct bg_vm *vm = bg_vm__new(p, &big.o);
	T_CHECK(vm != NULL, "vm_big_sz_zero", "larger sz, zero tail: %s", strerror(errno));
	bg_vm__free(vm);
	big.future = 1;
	errno = 0;
	vm = bg_vm__new(p, &big.o);
	T_CHECK(!vm && errno == EINVAL, "vm_big_sz_unknown", "non-zero unknown field: errno %d", errno);
	bg_vm__free(vm);
	/* older caller: insn_budget (after sz) left out; 0xff garbage after sz ignored */
	struct bg_vm_opts small;
	memset(&small, 0xff, sizeof(small));
	small.sz = ENDOF(struct bg_vm_opts, allow_uninit_stack);
	small.no_sanitize = 0;
	small.allow_uninit_stack = 0;
	vm = bg_vm__new(p, &small);
	T_CHECK(vm != NULL, "vm_small_sz", "sz up to allow_uninit_stack: %s", strerror(errno));
	if (vm) {
		static uint8_t pkt[64];
		uint64_t r0 = 0;
		int e = bg_vm__set_packet(vm, pkt, sizeof(pkt));
		if (!e)
			e = bg_vm__run(vm, &r0);
		/* a garbage hook / comm pointer past sz would crash here */
		T_CHECK(!e, "vm_small_sz_runs", "run with fields past sz: %d", e);
	}
	bg_vm__free(vm);
}

static void open_cases(const char *path)
{
	char err[256];
	struct {
		struct bg_open_opts o;
		uint64_t future;
	} big;
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	struct bg_object *obj = bg_object__open(path, &big.o, err, sizeof(err));
	T_CHECK(obj != NULL, "open_big_sz_zero", "larger sz, zero tail: %s", err);
	bg_object__free(obj);
	big.future = 1;
	obj = bg_object__open(path, &big.o, err, sizeof(err));
	T_CHECK(!obj && errno == EINVAL, "open_big_sz_unknown", "non-zero unknown field: errno %d (%s)", errno, err);
	bg_object__free(obj);
	struct bg_open_opts small;
	memset(&small, 0xff, sizeof(small));
	small.sz = ENDOF(struct bg_open_opts, btf_path);
	small.btf_path = NULL;
	obj = bg_object__open(path, &small, err, sizeof(err));
	/* target_btf = 0xff.. past sz would be dereferenced */
	T_CHECK(obj != NULL, "open_small_sz", "sz up to btf_path, 0xff after: %s", err);
	bg_object__free(obj);
}

static void kload_cases(const struct bg_program *p)
{
	struct {
		struct bg_kload_opts o;
		uint64_t future;
	} big;
	struct bg_kload_result r;
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.future = 1;
	int e = bg_kern_load(p, &big.o, &r);
	T_CHECK(e == -EINVAL, "kload_big_sz_unknown", "non-zero unknown field: %d", e);
	bg_kload_result__fini(&r);
	struct bg_kload_opts tiny = { .sz = 1 };
	e = bg_kern_load(p, &tiny, &r);
	T_CHECK(e == -EINVAL, "kload_sz_tiny", "sz 1: %d", e);
	bg_kload_result__fini(&r);
}

int main(void)
{
	char buf[4096], path[4200], err[256];
	const char *dir = test_build_sub(buf, sizeof(buf), "BG_EXAMPLES", "examples");
	snprintf(path, sizeof(path), "%s/xdp_parse.bpf.o", dir);
	bg_set_print(NULL);
	struct bg_object *obj = bg_object__open(path, NULL, err, sizeof(err));
	if (!obj) {
		T_FAIL("open", "%s: %s", path, err);
		return 1;
	}
	const struct bg_program *p = bg_object__prog(obj, 0);
	verify_cases(p);
	vm_cases(p);
	open_cases(path);
	kload_cases(p);
	bg_object__free(obj);
	return bg_test_failed ? 1 : 0;
}
