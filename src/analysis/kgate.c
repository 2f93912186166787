/* Kernel-profile gating: the checks that make `bpfgate check --kernel 5.10`
 * differ from the running kernel's verdict. Every fact is a table lookup in
 * src/platform (feature bits with their first release, per-id `since` of
 * helpers, kfuncs, program/attach/map types); this file only says where in
 * the program each fact applies. The default (running) profile has every
 * feature, so it skips all of this (v->kgate false). */
#include "analysis/kgate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include "analysis/vctx.h"
#include "platform/profiles.h"
#include "platform/sections.h"

int kgate_setup(struct vctx *v)
{
	const char *name = v->opts->profile;
	v->prof = name ? bg_profile_by_name(name) : bg_profile_default();
	if (!v->prof)
		return -EINVAL;
	v->kgate = v->prof != bg_profile_default();
	v->kf_lacks = ~v->prof->features & BG_KF_ALL;
	v->uninit_stack_ok = v->priv && kf_has(v, BG_KF_UNINIT_STACK_READ);
	v->uninit_stack_written_ok = v->priv && kf_has(v, BG_KF_UNINIT_STACK_WRITTEN);
	return 0;
}

/* "X is not available before V" (the caller prefixes the kernel's name) */
static int unavailable(struct vctx *v, const struct as_state *s, size_t pc, uint32_t since, const char *what)
{
	char a[16];
	return verr(v, s, pc, "kernel_version", "%s is not available before %s", what, bg_kver_str(since, a));
}

static int need(struct vctx *v, const struct as_state *s, size_t pc, uint64_t feat, const char *what)
{
	if (kf_has(v, feat))
		return 0;
	char buf[160];
	snprintf(buf, sizeof(buf), "%s (%s)", what, bg_feature_name(feat));
	return unavailable(v, s, pc, bg_feature_since(feat), buf);
}

/* The feature an instruction's encoding needs (0: none) and its name. */
static uint64_t insn_feature(const struct bg_insn *in, const char **what)
{
	switch (in->kind) {
	case BG_K_JA:
		*what = "gotol";
		return in->cls == BG_CLS_JMP32 ? BG_KF_ISA_V4 : 0;
	case BG_K_JCOND:
		*what = "32-bit conditional jump";
		return in->cls == BG_CLS_JMP32 ? BG_KF_JMP32 : 0;
	case BG_K_MAY_GOTO:
		*what = "may_goto";
		return BG_KF_MAY_GOTO;
	case BG_K_ALU:
		if (in->op == BG_ALU_MOV) {
			*what = "movsx";
			return in->ext_bits ? BG_KF_ISA_V4 : 0;
		}
		*what = in->op == BG_ALU_DIV ? "sdiv" : "smod";
		return in->is_signed ? BG_KF_ISA_V4 : 0;
	case BG_K_END:
		*what = "bswap";
		return in->cls == BG_CLS_ALU64 ? BG_KF_ISA_V4 : 0;
	case BG_K_LDX:
		*what = "sign-extending load";
		return in->is_signed ? BG_KF_ISA_V4 : 0;
	case BG_K_ATOMIC:
		if (in->atomic_op == BG_ATOMIC_LOAD_ACQ || in->atomic_op == BG_ATOMIC_STORE_REL) {
			*what = in->atomic_op == BG_ATOMIC_LOAD_ACQ ? "load-acquire" : "store-release";
			return BG_KF_LOAD_ACQ_STORE_REL;
		}
		*what = "atomic operation other than add";
		return in->atomic_op != BG_ATOMIC_ADD ? BG_KF_ATOMICS : 0;
	case BG_K_ADDR_CAST:
		*what = "addr_space_cast";
		return BG_KF_ARENA;
	case BG_K_LD_IMM64:
		if (in->pseudo == BG_PSEUDO_MAP_VALUE || in->pseudo == BG_PSEUDO_MAP_IDX_VALUE) {
			*what = "direct map value access";
			return BG_KF_GLOBAL_DATA;
		}
		if (in->pseudo == BG_PSEUDO_BTF_ID) {
			*what = "ld_imm64 of a kernel symbol";
			return BG_KF_BTF_KSYM;
		}
		*what = "ld_imm64 of a function";
		return in->pseudo == BG_PSEUDO_FUNC ? BG_KF_PSEUDO_FUNC : 0;
	case BG_K_CALL:
		if (in->pseudo == BG_CALL_LOCAL) {
			*what = "bpf-to-bpf call";
			return BG_KF_BPF2BPF_CALLS;
		}
		*what = "kfunc call";
		return in->pseudo == BG_CALL_KFUNC ? BG_KF_KFUNCS : 0;
	default:
		return 0;
	}
}

static int gate_call(struct vctx *v, const struct as_state *s, size_t pc, const struct bg_insn *in)
{
	char what[160];
	if (in->pseudo == BG_CALL_KFUNC) {
		const char *name = kfunc_name(v, in);
		const struct bg_helper_proto *p = name ? bg_kfunc_by_name(name) : NULL;
		if (!p || !p->since || p->since <= v->prof->version)
			return 0;
		snprintf(what, sizeof(what), "kfunc %s", name);
		return unavailable(v, s, pc, p->since, what);
	}
	if (in->pseudo != BG_CALL_HELPER)
		return 0;
	const struct bg_helper_proto *p = bg_helper_by_id((uint32_t)in->imm);
	/* measured on the real kernel: the type's availability check decides
	 * (call.c, bg_helper_allowed_attach), backports included */
	if (bg_helper_measured((uint32_t)in->imm, v->prog_type, bg_program__attach_type(v->prog),
			       v->prof->version) >= 0)
		return 0;
	if (!p || !p->since || p->since <= v->prof->version)
		return 0;
	/* libbpf turns probe_read_{kernel,user}[_str] into probe_read[_str] on
	 * kernels without them (same prototype), so such programs still load */
	if (in->imm >= BPF_FUNC_probe_read_user && in->imm <= BPF_FUNC_probe_read_kernel_str)
		return 0;
	snprintf(what, sizeof(what), "helper %s (id %d)", p->name, in->imm);
	return unavailable(v, s, pc, p->since, what);
}

/* Before 5.12 a load or store through a stack pointer needs a constant
 * offset ("variable stack access var_off=..."); helpers could take one. */
static int gate_var_stack(struct vctx *v, const struct as_state *s, size_t pc, const struct bg_insn *in)
{
	int reg;
	if (in->kind == BG_K_LDX)
		reg = in->src;
	else if (in->kind == BG_K_ST || in->kind == BG_K_STX || in->kind == BG_K_ATOMIC)
		reg = in->dst;
	else
		return 0;
	const struct as_reg *r = &s->fr[s->nframes - 1].r[reg];
	uint64_t off;
	if (r->type != T_STACK || bg_scalar_is_const(&r->v, &off))
		return 0;
	char what[64];
	snprintf(what, sizeof(what), "access through R%d at a variable stack offset", reg);
	return need(v, s, pc, BG_KF_VAR_STACK_ACCESS, what);
}

/* ctx fields newer than the kernel ("invalid bpf_context access") */
static int gate_ctx_field(struct vctx *v, const struct as_state *s, size_t pc, const struct bg_insn *in)
{
	int reg = in->kind == BG_K_LDX ? in->src : in->dst;
	if (in->kind != BG_K_LDX && in->kind != BG_K_ST && in->kind != BG_K_STX)
		return 0;
	const struct as_reg *r = &s->fr[s->nframes - 1].r[reg];
	uint64_t off;
	if (r->type != T_CTX || !bg_scalar_is_const(&r->v, &off))
		return 0;
	const char *name = NULL;
	int64_t at = (int64_t)off + in->off;
	uint32_t since = bg_ctx_field_since(v->prog_type, at, in->size, &name);
	if (!since || since <= v->prof->version)
		return 0;
	char what[128];
	snprintf(what, sizeof(what), "ctx field %s (off=%lld size=%u)", name, (long long)at, in->size);
	return unavailable(v, s, pc, since, what);
}

/* BPF_ST (store of an immediate) into ctx: refused before 6.3 with the
 * kernel's message (the real 5.10 and 6.1 refuse it, 6.12 accepts) */
static int gate_st_ctx(struct vctx *v, const struct as_state *s, size_t pc, const struct bg_insn *in)
{
	if (in->kind != BG_K_ST || s->fr[s->nframes - 1].r[in->dst].type != T_CTX)
		return 0;
	return verr(v, s, pc, "kernel_version", "BPF_ST stores into R%d ctx is not allowed (%s is not "
		    "available before 6.3)", in->dst, bg_feature_name(BG_KF_ST_CTX));
}

int kgate_insn(struct vctx *v, const struct as_state *s, size_t pc)
{
	if (!v->kgate)
		return 0;
	const struct bg_insn *in = &v->insns[pc];
	const char *what = NULL;
	uint64_t f = insn_feature(in, &what);
	if (f && need(v, s, pc, f, what))
		return -1;
	if (!kf_has(v, BG_KF_VAR_STACK_ACCESS) && gate_var_stack(v, s, pc, in))
		return -1;
	if (gate_ctx_field(v, s, pc, in))
		return -1;
	if (!kf_has(v, BG_KF_ST_CTX) && gate_st_ctx(v, s, pc, in))
		return -1;
	if (in->kind == BG_K_CALL)
		return gate_call(v, s, pc, in);
	return 0;
}

/* ---- whole program ---- */

static int gate_types(struct vctx *v)
{
	char what[160];
	uint32_t t = v->prog_type, since = bg_prog_type_since(t);
	if (since > v->prof->version) {
		snprintf(what, sizeof(what), "program type %s", bg_prog_type_name(t));
		return unavailable(v, NULL, 0, since, what);
	}
	uint32_t at = bg_program__attach_type(v->prog);
	since = bg_attach_type_required(t, v->prof->version) ? bg_attach_type_since(at) : 0;
	if (since > v->prof->version) {
		snprintf(what, sizeof(what), "attach type %s", bg_attach_type_name(at));
		return unavailable(v, NULL, 0, since, what);
	}
	return 0;
}

static int gate_map(struct vctx *v, size_t pc, int idx, int depth)
{
	const struct bg_map_def *m = idx >= 0 ? bg_object__map(v->obj, (size_t)idx) : NULL;
	if (!m || depth > 2)
		return 0;
	uint32_t since = bg_map_type_since(m->type);
	if (since > v->prof->version) {
		char what[160];
		const char *tn = bg_map_type_name(m->type);
		snprintf(what, sizeof(what), "map %s of type %s", m->name ? m->name : "?", tn ? tn : "?");
		return unavailable(v, NULL, pc, since, what);
	}
	return gate_map(v, pc, m->inner_map, depth + 1);
}

/* The kernel's first pass (check_cfg) refuses any back-edge before 5.3. */
static int gate_back_edges(struct vctx *v)
{
	if (kf_has(v, BG_KF_BOUNDED_LOOPS))
		return 0;
	uint32_t best_from = UINT32_MAX, best_to = 0;
	for (uint32_t l = 0; l < v->g.nloops; l++) {
		const struct cfg_loop *lp = &v->g.loops[l];
		for (uint32_t k = 0; k < lp->size; k++) {
			const struct cfg_block *b = &v->g.blocks[lp->body[k]];
			for (uint32_t e = 0; e < b->nsucc; e++) {
				if (b->succ[e] != lp->head)
					continue;
				uint32_t from = b->end - 1;
				if (v->insns[from].kind == BG_K_LD_IMM64_HI && from > b->start)
					from--;
				if (from < best_from) {
					best_from = from;
					best_to = v->g.blocks[lp->head].start;
				}
			}
		}
	}
	if (best_from == UINT32_MAX)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "back-edge from insn %u to %u (bounded loops)", best_from, best_to);
	return unavailable(v, NULL, best_from, bg_feature_since(BG_KF_BOUNDED_LOOPS), what);
}

/* The edges check_cfg tries from slot t, in its order: *n of them in w[],
 * ok[] says whether a back-edge along it is allowed (a jump's edges; before
 * 6.7 never a fall-through of a non-jump instruction or a call, nor a call's
 * edge to its callee). */
static int cfg_edges(const struct vctx *v, size_t t, int64_t w[2], bool ok[2])
{
	const struct bg_insn *in = &v->insns[t];
	switch (in->kind) {
	case BG_K_EXIT:
		return 0;
	case BG_K_JA:
		w[0] = in->target, ok[0] = true;
		return 1;
	case BG_K_JCOND:
	case BG_K_MAY_GOTO:
		w[0] = (int64_t)t + 1, ok[0] = true;
		w[1] = in->target, ok[1] = true;
		return 2;
	case BG_K_CALL:
		w[0] = (int64_t)t + 1, ok[0] = false;
		if (in->pseudo != BG_CALL_LOCAL)
			return 1;
		w[1] = in->target, ok[1] = false;
		return 2;
	case BG_K_LD_IMM64:
		w[0] = (int64_t)t + 1, ok[0] = false;
		if (in->pseudo != BG_PSEUDO_FUNC)
			return 1;
		w[1] = (int64_t)t + 1 + in->imm, ok[1] = true; /* recursion is checked later */
		return 2;
	default:
		w[0] = (int64_t)t + 1, ok[0] = false;
		return 1;
	}
}

/* Before 6.7 ("fix control-flow graph checking in privileged mode") check_cfg's
 * depth-first walk refuses a back-edge that is a fall-through of a non-jump
 * instruction or a call, so a loop whose walk closes there (one entered in
 * its middle by a jump) is refused although bounded loops are allowed. The
 * walk is the kernel's: from slot 0, edges in cfg_edges' order, an edge to a
 * slot still on the stack is a back-edge. O(n). */
static int gate_cfg_fallthrough_loops(struct vctx *v)
{
	if (kf_has(v, BG_KF_CFG_FALLTHROUGH_LOOP) || !kf_has(v, BG_KF_BOUNDED_LOOPS))
		return 0;
	enum { NEW = 0, ON_STACK, DONE };
	uint8_t *st = calloc(v->n ? v->n : 1, 2);
	uint32_t *stack = malloc((v->n ? v->n : 1) * sizeof(*stack));
	if (!st || !stack) {
		free(st);
		free(stack);
		return vnomem(v);
	}
	uint8_t *tried = st + v->n; /* edges already followed from a slot, a bit each */
	size_t sp = 0;
	int64_t bad_from = -1, bad_to = 0;
	if (v->n) {
		st[0] = ON_STACK;
		stack[sp++] = 0;
	}
	while (sp && bad_from < 0) {
		size_t t = stack[sp - 1];
		int64_t w[2];
		bool ok[2], pushed = false;
		int ne = cfg_edges(v, t, w, ok);
		for (int e = 0; e < ne && !pushed && bad_from < 0; e++) {
			if ((tried[t] >> e) & 1 || w[e] < 0 || (size_t)w[e] >= v->n)
				continue;
			if (st[w[e]] == NEW) {
				tried[t] |= (uint8_t)(1u << e);
				st[w[e]] = ON_STACK;
				stack[sp++] = (uint32_t)w[e];
				pushed = true;
			} else if (st[w[e]] == ON_STACK) {
				if (!ok[e])
					bad_from = (int64_t)t, bad_to = w[e];
			} else {
				tried[t] |= (uint8_t)(1u << e);
			}
		}
		if (!pushed && bad_from < 0) {
			st[t] = DONE;
			sp--;
		}
	}
	free(st);
	free(stack);
	if (bad_from < 0)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "back-edge from insn %lld to %lld (a loop closed by a fall-through)",
		 (long long)bad_from, (long long)bad_to);
	return unavailable(v, NULL, (size_t)bad_from, bg_feature_since(BG_KF_CFG_FALLTHROUGH_LOOP), what);
}

int kgate_program(struct vctx *v)
{
	if (!v->kgate)
		return 0;
	if (gate_types(v))
		return -1;
	if (v->n > v->prof->max_prog_insns) {
		char a[16];
		return verr(v, NULL, 0, "kernel_version",
			    "program too large: %zu instructions, kernel %s allows %u (1M since %s)", v->n,
			    v->prof->name, v->prof->max_prog_insns,
			    bg_kver_str(bg_feature_since(BG_KF_1M_INSNS), a));
	}
	size_t tail_call = SIZE_MAX;
	for (size_t pc = 0; pc < v->n; pc++) {
		const struct bg_insn *in = &v->insns[pc];
		if (in->kind == BG_K_LD_IMM64 && in->pseudo != BG_PSEUDO_NONE && in->pseudo != BG_PSEUDO_BTF_ID &&
		    in->pseudo != BG_PSEUDO_FUNC && gate_map(v, pc, in->imm, 0))
			return -1;
		if (in->kind == BG_K_CALL && in->pseudo == BG_CALL_HELPER && in->imm == BPF_FUNC_tail_call && tail_call == SIZE_MAX)
			tail_call = pc;
	}
	if (v->g.nfuncs > 1 && tail_call != SIZE_MAX && !kf_has(v, BG_KF_TAILCALL_SUBPROG))
		return need(v, NULL, tail_call, BG_KF_TAILCALL_SUBPROG, "tail call in a program with bpf-to-bpf calls");
	if (!kf_has(v, BG_KF_GLOBAL_FUNCS))
		for (uint32_t f = 0; f < v->g.nfuncs; f++)
			v->g.funcs[f].linkage = 0; /* libbpf makes them static for such kernels */
	return gate_back_edges(v) || gate_cfg_fallthrough_loops(v) ? -1 : 0;
}
