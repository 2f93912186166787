/* Exceptions: the checks the kernel makes on the call graph and on the BTF
 * of a program that may throw (after its path-by-path verification, as
 * check_max_stack_depth and the exception-callback setup do):
 * - the main program names at most one exception callback, with the
 *   `exception_callback:NAME` declaration tag on its BTF FUNC;
 * - that callback returns a scalar and takes exactly one integer argument,
 *   and nothing calls it directly;
 * - bpf_throw is never reached from a callback (a function whose address
 *   is taken: BPF_PSEUDO_FUNC, or the exception callback), whatever it
 *   calls on the way.
 * The loader appends the callback to the program (as libbpf does); the
 * analysis takes it as a second root (reachability, as check_cfg does, and
 * a verification of its own with an unknown scalar in r1).
 * Cost: O(insns + BTF types); the loader finds the tags once. */
#include <string.h>
#include <bpf/btf.h>
#include <bpfgate/object.h>
#include "analysis/except.h"
#include "analysis/vctx.h"

#define MAX_DEPTH 8

static bool is_scalar_type(const struct btf *b, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(b, id);
	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(b, t->type);
	return t && (btf_is_int(t) || btf_is_any_enum(t));
}

/* The callback's prototype: a scalar result, one integer argument. */
static int cb_proto(struct vctx *v, const struct btf *b, const char *cb)
{
	int fid = btf__find_by_name_kind(b, cb, BTF_KIND_FUNC);
	const struct btf_type *f = fid > 0 ? btf__type_by_id(b, (uint32_t)fid) : NULL;
	const struct btf_type *fp = f ? btf__type_by_id(b, f->type) : NULL;
	if (!fp || !btf_is_func_proto(fp))
		return 0;
	if (!is_scalar_type(b, fp->type))
		return verr(v, NULL, 0, "exception_cb", "Global function %s() doesn't return scalar. Only those are supported.",
			    cb);
	if (btf_vlen(fp) != 1 || !is_scalar_type(b, btf_params(fp)[0].type))
		return verr(v, NULL, 0, "exception_cb", "exception cb only supports single integer argument (%s)", cb);
	return 0;
}

/* The function starting at insn t, or -1 (cfg_func_of finds the one
 * containing it). */
static int func_at(const struct vctx *v, uint32_t t)
{
	if (t >= v->n)
		return -1;
	uint32_t f = cfg_func_of(&v->g, t);
	return v->g.funcs[f].start == t ? (int)f : -1;
}

/* bpf_throw in function f or what it calls or takes the address of. */
static int no_throw(struct vctx *v, int f, int cb, int depth)
{
	if (f < 0 || depth > MAX_DEPTH)
		return 0;
	for (uint32_t i = v->g.funcs[f].start; i < v->g.funcs[f].end; i++) {
		const struct bg_insn *in = &v->insns[i];
		if (call_throws(v, i))
			return verr(v, NULL, i, "exception_cb", "bpf_throw kfunc (insn %u) cannot be called from callback subprog %d",
				    i, cb);
		int32_t t = -1;
		if (in->kind == BG_K_CALL && in->pseudo == BG_CALL_LOCAL)
			t = in->target;
		else if (in->kind == BG_K_LD_IMM64 && in->pseudo == BG_PSEUDO_FUNC)
			t = (int32_t)(i + 1 + (int64_t)in->imm);
		if (t >= 0 && t != (int32_t)v->g.funcs[f].start && no_throw(v, func_at(v, (uint32_t)t), cb, depth + 1))
			return -1;
	}
	return 0;
}

int except_cb_func(const struct vctx *v)
{
	size_t insn;
	/* before 6.7 the kernel ignores the exception_callback tag: the
	 * function is an ordinary one (unreachable unless called) */
	if (!kf_has(v, BG_KF_EXCEPTIONS))
		return -1;
	if (!bg_program__exception_cb(v->prog, &insn, NULL) || insn == SIZE_MAX)
		return -1;
	int f = func_at(v, (uint32_t)insn);
	return f > 0 ? f : -1;
}

int except_check(struct vctx *v)
{
	if (!kf_has(v, BG_KF_EXCEPTIONS))
		return 0; /* the tag means nothing before 6.7 */
	const struct btf *b = bg_object__btf(v->obj);
	int ntags = 0;
	const char *cb = b ? bg_program__exception_cb(v->prog, NULL, &ntags) : NULL;
	if (ntags > 1)
		return verr(v, NULL, 0, "exception_cb", "multiple exception callback tags for main subprog");
	if (cb && cb_proto(v, b, cb))
		return -1;
	/* the callback itself is a callback: it may not throw either */
	int cbf = except_cb_func(v);
	if (cbf >= 0 && no_throw(v, cbf, cbf, 0))
		return -1;
	for (size_t i = 0; i < v->n; i++) {
		const struct bg_insn *in = &v->insns[i];
		if (cb && in->kind == BG_K_CALL && in->pseudo == BG_CALL_LOCAL && in->target >= 0) {
			int f = func_at(v, (uint32_t)in->target);
			if (f >= 0 && v->g.funcs[f].name && !strcmp(v->g.funcs[f].name, cb))
				return verr(v, NULL, i, "exception_cb", "insn %zu cannot call exception cb directly", i);
		}
		if (in->kind == BG_K_LD_IMM64 && in->pseudo == BG_PSEUDO_FUNC) {
			int f = func_at(v, (uint32_t)(i + 1 + (int64_t)in->imm));
			if (no_throw(v, f, f, 0))
				return -1;
		}
	}
	return 0;
}
