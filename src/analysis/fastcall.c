/* bpf_fastcall spill/fill patterns and the stack depth the kernel charges
 * after removing them (fastcall.h). The kernel's rules, restated:
 * - a pattern is up to 6 pairs `*(u64 *)(r10 + off) = rX` at call - i and
 *   `rX = *(u64 *)(r10 + off)` at call + i, i = 1, 2, ..., with off the
 *   function's lowest 8-byte spill offset + 8 * (i - 1), each rX a different
 *   r0-r5 the call does not clobber (r0 unless void, r1..rN for N
 *   arguments), no pair grown past an instruction a jump targets;
 * - the top of the function's pattern area is the lowest `off` after the
 *   last pair of any of its patterns; a pattern around a call the kernel
 *   does not inline keeps the function's stack as it is;
 * - while verifying, any other access of the function's frame below that
 *   top cancels the removal for the function;
 * - otherwise the function's depth becomes the top of the area.
 * Which calls are inlined is platform data (BG_HF_FASTCALL). A call whose
 * clobbers this module cannot know exactly (not inlined) is taken to
 * clobber nothing: it then matches at least the kernel's pairs, so the
 * function keeps its stack whenever the kernel's does. Cost: O(insns) once,
 * O(1) per stack access. */
#include "analysis/fastcall.h"

#include <errno.h>
#include <stdlib.h>

#include "analysis/vctx.h"

#define FC_BROKEN INT32_MIN
#define FC_CALLER_SAVED 0x3fu /* r0-r5 */

struct fastcall {
	uint8_t *pat;   /* per insn: a spill or fill of a pattern */
	int32_t *top;   /* per function: the pattern area's top (an offset <= 0), FC_BROKEN */
	uint8_t *keep;  /* per function: a pattern around a call not inlined */
	uint8_t *inl;   /* per function: a pattern around an inlined call */
};

static bool is_spill(const struct bg_insn *in)
{
	return in->kind == BG_K_STX && in->size == 8 && in->dst == 10;
}

static bool is_fill(const struct bg_insn *in)
{
	return in->kind == BG_K_LDX && in->size == 8 && !in->is_signed && in->src == 10;
}

/* Registers the inlined call at in clobbers, as a mask; false: not a call
 * of a helper or kfunc. *inl: the kernel inlines it here. */
static bool call_clobbers(struct vctx *v, const struct bg_insn *in, uint32_t *clob, bool *inl)
{
	const struct bg_helper_proto *p = NULL;
	if (in->kind != BG_K_CALL || in->pseudo == BG_CALL_LOCAL)
		return false;
	if (in->pseudo == BG_CALL_HELPER) {
		p = bg_helper_proto_for((uint32_t)in->imm, v->prog_type);
		if (!p)
			return false; /* refused later */
	} else {
		const char *name = kfunc_name(v, in);
		p = name ? bg_kfunc_by_name(name) : NULL;
	}
	*inl = p && (p->flags & BG_HF_FASTCALL);
	*clob = 0;
	if (*inl) {
		*clob = p->ret != BG_RET_VOID ? 1u : 0u;
		for (unsigned a = 1; a <= p->nargs && a <= 5; a++)
			*clob |= 1u << a;
	}
	return true;
}

static void mark_call(struct vctx *v, const uint8_t *jt, uint32_t f, size_t pc, int32_t lowest)
{
	struct fastcall *fc = v->fc;
	uint32_t clob, expected;
	bool inl;
	if (!call_clobbers(v, &v->insns[pc], &clob, &inl))
		return;
	expected = ~clob & FC_CALLER_SAVED;
	size_t i;
	int32_t off = lowest;
	for (i = 1; i <= 6; i++, off += 8) {
		if (pc < i || pc + i >= v->n || jt[pc - i + 1] || jt[pc + i])
			break;
		const struct bg_insn *st = &v->insns[pc - i], *ld = &v->insns[pc + i];
		if (!is_spill(st) || !is_fill(ld) || st->src != ld->dst || !(expected & (1u << st->src)) ||
		    st->off != off || ld->off != off)
			break;
		expected &= ~(1u << st->src);
		fc->pat[pc - i] = fc->pat[pc + i] = 1;
	}
	if (i == 1)
		return;
	if (inl)
		fc->inl[f] = 1;
	else
		fc->keep[f] = 1;
	if (off < fc->top[f])
		fc->top[f] = off;
}

/* Instructions a jump, a call or a function address targets. */
static void jump_targets(const struct vctx *v, uint8_t *jt)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct bg_insn *in = &v->insns[i];
		int64_t t = -1;
		if (in->kind == BG_K_JA || in->kind == BG_K_JCOND || in->kind == BG_K_MAY_GOTO ||
		    (in->kind == BG_K_CALL && in->pseudo == BG_CALL_LOCAL))
			t = in->target;
		else if (in->kind == BG_K_LD_IMM64 && in->pseudo == BG_PSEUDO_FUNC)
			t = (int64_t)i + 1 + in->imm;
		if (t >= 0 && (size_t)t < v->n)
			jt[t] = 1;
	}
}

/* Some call has a spill right before it and a fill right after it (the
 * first pair of any pattern). */
static bool any_pair(const struct vctx *v)
{
	for (size_t pc = 1; pc + 1 < v->n; pc++)
		if (v->insns[pc].kind == BG_K_CALL && is_spill(&v->insns[pc - 1]) && is_fill(&v->insns[pc + 1]))
			return true;
	return false;
}

int fastcall_prepare(struct vctx *v)
{
	/* without a pattern no function's depth changes: no tables (v->fc
	 * NULL), as without the feature */
	if (!bg_profile_has(v->prof, BG_KF_FASTCALL) || !v->g.nfuncs || !any_pair(v))
		return 0;
	uint32_t nf = v->g.nfuncs;
	struct fastcall *fc = calloc(1, sizeof(*fc));
	uint8_t *jt = calloc(v->n, 1);
	if (fc) {
		fc->pat = calloc(v->n, 1);
		fc->top = calloc(nf, sizeof(*fc->top));
		fc->keep = calloc(nf, 1);
		fc->inl = calloc(nf, 1);
	}
	v->fc = fc;
	if (!fc || !jt || !fc->pat || !fc->top || !fc->keep || !fc->inl) {
		free(jt);
		return -ENOMEM;
	}
	jump_targets(v, jt);
	for (uint32_t f = 0; f < nf; f++) {
		int32_t lowest = 0;
		for (uint32_t i = v->g.funcs[f].start; i < v->g.funcs[f].end; i++)
			if (is_spill(&v->insns[i]) && v->insns[i].off < lowest)
				lowest = v->insns[i].off;
		for (uint32_t i = v->g.funcs[f].start; i < v->g.funcs[f].end; i++)
			mark_call(v, jt, f, i, lowest);
	}
	free(jt);
	return 0;
}

/* The function whose frame is frame number `frame` of s (s belongs to the
 * current context: each context below it is one frame up). */
static uint32_t frame_func(const struct vctx *v, const struct as_state *s, int frame)
{
	uint32_t c = v->cur_ctx;
	for (int k = (int)s->nframes - 1; k > frame && c != 0; k--)
		c = v->ctxs[c].parent;
	return v->ctxs[c].func;
}

void fastcall_access(struct vctx *v, const struct as_state *s, size_t pc, int frame, int64_t off)
{
	struct fastcall *fc = v->fc;
	if (!fc || fc->pat[pc])
		return;
	uint32_t f = frame_func(v, s, frame);
	if (off < fc->top[f]) {
		fc->top[f] = FC_BROKEN;
		fc->inl[f] = 0;
	}
}

uint32_t fastcall_depth(const struct vctx *v, uint32_t f, uint32_t depth)
{
	const struct fastcall *fc = v->fc;
	if (!fc || !fc->inl[f] || fc->keep[f] || fc->top[f] == FC_BROKEN)
		return depth;
	return (uint32_t)-fc->top[f];
}

void fastcall_free(struct vctx *v)
{
	struct fastcall *fc = v->fc;
	if (!fc)
		return;
	free(fc->pat);
	free(fc->top);
	free(fc->keep);
	free(fc->inl);
	free(fc);
	v->fc = NULL;
}
