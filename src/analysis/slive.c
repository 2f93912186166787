/* Stack-slot liveness: which 8-byte slots of a function's own frame some
 * path from a block's entry may read before it overwrites them entirely
 * (cfg_block.slive, bit i: bytes [-8(i+1), -8i)). The fixpoint forgets the
 * other slots before it stores a state (verify.c kill_dead), as the kernel's
 * clean_live_states does for stack slots its liveness never saw read.
 *
 * Slots are read through pointers, so the analysis first follows the
 * frame's address syntactically (a forward pass per function): a register
 * or a spilled slot holds fp+c (FP), fp+c or a non-stack value (MAYFP),
 * any stack address (TOP), a constant (for helper sizes) or no stack
 * address (NONE). Then, per instruction:
 *  - a load through FP/MAYFP reads the slots it covers, through TOP all;
 *  - an 8-byte aligned store through FP overwrites its slot (kill); other
 *    stores read nothing and kill nothing;
 *  - an atomic operation reads the slots it covers;
 *  - a helper or kfunc reads [c, 0) for a stack argument fp+c (a helper
 *    accesses upwards from the pointer), except a helper's write-only
 *    argument (ARG_PTR_TO_UNINIT_MEM with a constant size: it kills the
 *    slots it covers whole); a TOP argument reads all slots;
 *  - a call that runs BPF code with a stack argument (a subprogram, a
 *    helper or kfunc with a callback, an indirect call) reads all slots,
 *    and afterwards every slot may hold a stack address (the callee may
 *    have spilled one through the pointer).
 * A second mask, svlive, keeps the slots whose value is read apart: a load,
 * an atomic, a 4-byte map key (an array lookup with a constant key cannot
 * fail), any access of unknown size, a kfunc or a callee read the value; a
 * helper's map key, map value or sized memory argument reads whether the
 * bytes are initialized, nothing else.
 * The frame's address escapes when a stack address is stored anywhere but
 * into an own slot as an 8-byte spill: then every slot of the function is
 * live everywhere. Helpers and kfuncs never return stack addresses (the
 * kernel gives none of them such a return type); a subprogram may return
 * its argument, so its r0 is TOP after a call with stack arguments.
 * Cost: O(passes * insns * 75) for the forward pass (the values only rise:
 * NONE/CONST < MAYFP/FP < TOP), O(passes * blocks) for the backward one. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/slive.h"
#include "analysis/vctx.h"
#include "platform/helpers.h"

enum { SV_BOT = 0, SV_NONE, SV_CONST, SV_MAP, SV_FP, SV_MAYFP, SV_TOP };

struct sval {
	int32_t c; /* SV_CONST: the value; SV_MAP: the map index; SV_FP/SV_MAYFP: the offset from fp */
	uint8_t k;
};

#define NSLOT 64
struct sstate {
	struct sval r[11];
	struct sval s[NSLOT];
};

static bool stackish(struct sval x)
{
	return x.k == SV_FP || x.k == SV_MAYFP || x.k == SV_TOP;
}

/* A value: a constant or an offset beyond 32 bits is no constant or no
 * known stack address (sizes and frame offsets are small). */
static struct sval sv(uint8_t k, int64_t c)
{
	if (c != (int32_t)c)
		return (struct sval){ .k = k == SV_FP || k == SV_MAYFP ? SV_TOP : k == SV_CONST ? SV_NONE : k };
	return (struct sval){ .k = k, .c = (int32_t)c };
}

static struct sval sv_join(struct sval a, struct sval b)
{
	if (a.k == SV_BOT)
		return b;
	if (b.k == SV_BOT || (a.k == b.k && a.c == b.c))
		return a;
	if (a.k == SV_TOP || b.k == SV_TOP)
		return sv(SV_TOP, 0);
	if (stackish(a) && stackish(b))
		return a.c == b.c ? sv(SV_MAYFP, a.c) : sv(SV_TOP, 0);
	if (stackish(a))
		return sv(SV_MAYFP, a.c);
	if (stackish(b))
		return sv(SV_MAYFP, b.c);
	return sv(SV_NONE, 0); /* two constants or maps, or one and NONE */
}

static bool ss_join(struct sstate *a, const struct sstate *b)
{
	if (!memcmp(a, b, sizeof(*a)))
		return false;
	bool changed = false;
	for (int i = 0; i < 11 + NSLOT; i++) {
		struct sval *x = i < 11 ? &a->r[i] : &a->s[i - 11];
		struct sval y = i < 11 ? b->r[i] : b->s[i - 11];
		if (x->k == y.k && x->c == y.c)
			continue; /* sv_join(x, x) == x */
		struct sval j = sv_join(*x, y);
		if (j.k != x->k || j.c != x->c) {
			*x = j;
			changed = true;
		}
	}
	return changed;
}

/* slots covering bytes [lo, hi) of the frame (clipped to it) */
static uint64_t span(int64_t lo, int64_t hi)
{
	if (lo < -8 * NSLOT)
		lo = -8 * NSLOT;
	if (hi > 0)
		hi = 0;
	uint64_t m = 0;
	for (int64_t o = lo; o < hi; o = -8 * ((-o - 1) / 8))
		m |= 1ull << ((-o - 1) / 8);
	return m;
}

/* the value read from the slots the address x + off covers (size bytes) */
static struct sval load(const struct sstate *st, struct sval x, int off, int size)
{
	if (x.k == SV_FP || x.k == SV_MAYFP) {
		int64_t a = x.c + off;
		if (size != 8 || a >= 0 || a < -8 * NSLOT || a % 8 != 0)
			return sv(SV_NONE, 0); /* a partial fill of a pointer is no pointer */
		/* through MAYFP the load may also come from elsewhere */
		struct sval y = st->s[(-a - 1) / 8];
		return x.k == SV_FP ? y : sv_join(y, sv(SV_NONE, 0));
	}
	if (x.k == SV_TOP)
		for (int i = 0; i < NSLOT; i++)
			if (stackish(st->s[i]))
				return sv(SV_TOP, 0);
	return sv(SV_NONE, 0);
}

/* What one instruction does to the frame: gen, slots it may read (where
 * the bytes are not known), kill, slots it overwrites whole, and the byte
 * ranges [lo, hi) it reads and writes through a known offset (a read of
 * bytes the same block wrote before reads nothing from its entry). */
#define NRANGE 6
struct effect {
	uint64_t gen, igen, kill; /* igen: read for their initialization only */
	bool escape;
	int nr, nw;
	int64_t rlo[NRANGE], rhi[NRANGE], wlo[NRANGE], whi[NRANGE];
	bool rval[NRANGE];        /* the read range's value matters */
};

static int range_add(int64_t *lo, int64_t *hi, int *n, uint64_t *gen, int64_t a, int64_t b)
{
	if (a < -8 * NSLOT)
		a = -8 * NSLOT;
	if (b > 0)
		b = 0;
	if (a >= b)
		return -1;
	if (*n == NRANGE) { /* no room: the slots themselves (reads only) */
		if (gen)
			*gen |= span(a, b);
		return -1;
	}
	lo[*n] = a;
	hi[*n] = b;
	return (*n)++;
}

/* a read of bytes [a, b); val: their value matters, not only whether they
 * are initialized */
static void read_bytes(struct effect *e, int64_t a, int64_t b, bool val)
{
	int k = range_add(e->rlo, e->rhi, &e->nr, val ? &e->gen : &e->igen, a, b);
	if (k >= 0)
		e->rval[k] = val;
}

static void write_bytes(struct effect *e, int64_t a, int64_t b)
{
	range_add(e->wlo, e->whi, &e->nw, NULL, a, b);
}

/* A store of val through address x + off, size bytes. */
static void store(struct sstate *st, struct sval x, int off, int size, struct sval val, struct effect *e)
{
	if (x.k == SV_FP) {
		int64_t a = x.c + off;
		if (size == 8 && a < 0 && a >= -8 * NSLOT && a % 8 == 0) {
			st->s[(-a - 1) / 8] = val;
			e->kill |= 1ull << ((-a - 1) / 8);
			return;
		}
		if (stackish(val))
			e->escape = true;
		uint64_t m = span(a, a + size);
		for (int i = 0; i < NSLOT; i++)
			if ((m >> i) & 1)
				st->s[i] = sv(SV_NONE, 0);
		write_bytes(e, a, a + size);
		return;
	}
	if (stackish(val)) {
		e->escape = true;
		return;
	}
	if (x.k == SV_MAYFP || x.k == SV_TOP) {
		uint64_t m = x.k == SV_TOP ? ~0ull : span(x.c + off, x.c + off + size);
		for (int i = 0; i < NSLOT; i++)
			if ((m >> i) & 1)
				st->s[i] = sv_join(st->s[i], sv(SV_NONE, 0));
	}
}

/* an access of size bytes through x + off reads */
static void reads(struct effect *e, struct sval x, int off, int size)
{
	if (x.k == SV_TOP)
		e->gen = ~0ull;
	else if (x.k == SV_FP || x.k == SV_MAYFP)
		read_bytes(e, x.c + off, x.c + off + size, true);
}

static void alu(struct sstate *st, const struct bg_insn *in)
{
	struct sval *d = &st->r[in->dst];
	struct sval s = in->src_is_reg ? st->r[in->src] : sv(SV_CONST, in->alu64 ? (int64_t)in->imm : (int64_t)(uint32_t)in->imm);
	if (in->op == BG_ALU_MOV) {
		*d = in->alu64 && !in->ext_bits ? s : (stackish(s) ? sv(SV_TOP, 0) : s.k == SV_CONST ? s : sv(SV_NONE, 0));
		if (!in->alu64 && d->k == SV_CONST)
			*d = sv(SV_CONST, (int64_t)(uint32_t)d->c);
		return;
	}
	if (!stackish(*d) && !stackish(s)) {
		*d = sv(SV_NONE, 0);
		return;
	}
	if (in->alu64 && in->op == BG_ALU_ADD && s.k == SV_CONST && (d->k == SV_FP || d->k == SV_MAYFP)) {
		*d = sv(d->k, (int64_t)d->c + s.c);
		return;
	}
	if (in->alu64 && in->op == BG_ALU_ADD && d->k == SV_CONST && (s.k == SV_FP || s.k == SV_MAYFP)) {
		*d = sv(s.k, (int64_t)s.c + d->c);
		return;
	}
	if (in->alu64 && in->op == BG_ALU_SUB && s.k == SV_CONST && (d->k == SV_FP || d->k == SV_MAYFP)) {
		*d = sv(d->k, (int64_t)d->c - s.c);
		return;
	}
	*d = sv(SV_TOP, 0);
}

/* The bytes a helper reads through argument i (1..5), when known (else 0:
 * up to the top of the frame); *val: the helper's checks read their value
 * (a 4-byte map key: an array lookup with a constant key cannot fail), not
 * only whether they are initialized. */
static int64_t arg_size(const struct vctx *v, const struct sstate *st, const struct bg_helper_proto *p, int i,
			bool *val)
{
	*val = true;
	if (!p)
		return 0;
	const struct bg_map_def *m = st->r[1].k == SV_MAP ? bg_object__map(v->obj, (size_t)st->r[1].c) : NULL;
	struct sval n = i < 5 ? st->r[i + 1] : sv(SV_NONE, 0);
	switch (p->args[i - 1]) {
	case BG_ARG_MAP_KEY:
		*val = !m || m->key_size == 4;
		return m ? m->key_size : 0;
	case BG_ARG_MAP_VALUE:
	case BG_ARG_MAP_VALUE_OR_NULL:
		*val = false;
		return m ? m->value_size : 0;
	case BG_ARG_MEM:
	case BG_ARG_MEM_OR_NULL:
		*val = false;
		return n.k == SV_CONST && n.c > 0 ? n.c : 0;
	case BG_ARG_FIXED_MEM:
		*val = false;
		return p->arg_size[i - 1];
	default:
		return 0;
	}
}

/* Does a call run BPF code that may use a stack argument? */
static bool runs_bpf(const struct bg_insn *in)
{
	return in->kind == BG_K_CALLX || (in->kind == BG_K_CALL && in->pseudo == BG_CALL_LOCAL) || call_is_cb(in);
}

static void call(const struct vctx *v, struct sstate *st, const struct bg_insn *in, struct effect *e)
{
	bool any = false;
	for (int i = 1; i <= 5; i++)
		any |= stackish(st->r[i]);
	if (runs_bpf(in)) {
		if (any) {
			e->gen = ~0ull;
			for (int i = 0; i < NSLOT; i++)
				st->s[i] = sv(SV_TOP, 0);
		}
		st->r[0] = any && in->pseudo == BG_CALL_LOCAL ? sv(SV_TOP, 0) : sv(SV_NONE, 0);
		if (any && in->kind == BG_K_CALLX)
			st->r[0] = sv(SV_TOP, 0);
	} else {
		const struct bg_helper_proto *p = in->pseudo == BG_CALL_HELPER ? bg_helper_by_id((uint32_t)in->imm) : NULL;
		/* a helper reads its prototype's arguments only (a kfunc: any) */
		int nargs = p && p->nargs <= 5 ? p->nargs : 5;
		for (int i = 1; i <= nargs; i++) {
			struct sval x = st->r[i];
			if (!stackish(x))
				continue;
			if (x.k == SV_TOP) {
				e->gen = ~0ull;
				continue;
			}
			if (p && i < 5 && p->args[i - 1] == BG_ARG_UNINIT_MEM) {
				/* written, never read: the slots it covers whole are
				 * overwritten when its size is a known constant */
				struct sval n = st->r[i + 1];
				if (x.k == SV_FP && n.k == SV_CONST && n.c > 0 && n.c <= 8 * NSLOT) {
					write_bytes(e, x.c, x.c + n.c);
					int64_t lo = x.c, hi = x.c + n.c;
					for (int k = 0; k < NSLOT; k++) {
						int64_t sl = -8 * (k + 1);
						if (sl >= lo && sl + 8 <= hi)
							e->kill |= 1ull << k;
					}
				}
				/* the bytes written hold no stack address */
				bool known = n.k == SV_CONST && n.c > 0 && n.c <= 8 * NSLOT;
				uint64_t w = known ? span(x.c, x.c + n.c) : span(x.c, 0);
				for (int k = 0; k < NSLOT; k++)
					if ((w >> k) & 1)
						st->s[k] = x.k == SV_FP && known ? sv(SV_NONE, 0) : sv_join(st->s[k], sv(SV_NONE, 0));
				continue;
			}
			bool val;
			int64_t n = arg_size(v, st, p, i, &val);
			if (n > 0)
				read_bytes(e, x.c, x.c + n, val);
			else
				e->gen |= span(x.c, 0);
		}
		st->r[0] = sv(SV_NONE, 0);
	}
	for (int i = 1; i <= 5; i++)
		st->r[i] = sv(SV_NONE, 0);
}

/* One instruction: the state after it, and what it reads and overwrites. */
static void step(const struct vctx *v, struct sstate *st, const struct bg_insn *in, struct effect *e)
{
	e->gen = e->igen = e->kill = 0;
	e->escape = false;
	e->nr = e->nw = 0;
	switch (in->kind) {
	case BG_K_ALU:
		alu(st, in);
		break;
	case BG_K_END:
	case BG_K_ADDR_CAST:
		st->r[in->dst] = stackish(st->r[in->kind == BG_K_END ? in->dst : in->src]) ? sv(SV_TOP, 0) : sv(SV_NONE, 0);
		break;
	case BG_K_LD_IMM64:
		st->r[in->dst] = in->pseudo == BG_PSEUDO_MAP_IDX || in->pseudo == BG_PSEUDO_MAP_FD ? sv(SV_MAP, in->imm)
												  : sv(SV_NONE, 0);
		break;
	case BG_K_LD_ABS:
	case BG_K_LD_IND:
		for (int i = 0; i <= 5; i++)
			st->r[i] = sv(SV_NONE, 0);
		break;
	case BG_K_LDX:
		reads(e, st->r[in->src], in->off, in->size);
		st->r[in->dst] = load(st, st->r[in->src], in->off, in->size);
		break;
	case BG_K_ST:
		store(st, st->r[in->dst], in->off, in->size, sv(SV_NONE, 0), e);
		break;
	case BG_K_STX:
		store(st, st->r[in->dst], in->off, in->size, st->r[in->src], e);
		break;
	case BG_K_ATOMIC: {
		if (in->atomic_op == BG_ATOMIC_LOAD_ACQ) { /* dst = *(src + off) */
			reads(e, st->r[in->src], in->off, in->size);
			st->r[in->dst] = load(st, st->r[in->src], in->off, in->size);
			break;
		}
		struct sval a = st->r[in->dst];
		reads(e, a, in->off, in->size);
		if (stackish(st->r[in->src]))
			e->escape = true;
		struct sval old = stackish(a) ? sv(SV_TOP, 0) : sv(SV_NONE, 0);
		if (in->atomic_op == BG_ATOMIC_CMPXCHG)
			st->r[0] = old;
		else if (in->atomic_op & BG_ATOMIC_FETCH)
			st->r[in->src] = old;
		break;
	}
	case BG_K_CALL:
	case BG_K_CALLX:
		call(v, st, in, e);
		break;
	default:
		break;
	}
}

/* Bits [lo, hi) of the byte mask wb (bit -o-1: byte o of the frame): all
 * set (bytes_all), or set them (bytes_set). */
static bool bytes_all(const uint64_t *wb, int64_t lo, int64_t hi)
{
	for (int64_t b = lo; b < hi;) {
		int64_t w = b / 64, e = hi < (w + 1) * 64 ? hi : (w + 1) * 64;
		uint64_t m = (e - b == 64 ? ~0ull : ((1ull << (e - b)) - 1)) << (b % 64);
		if ((wb[w] & m) != m)
			return false;
		b = e;
	}
	return true;
}

static void bytes_set(uint64_t *wb, int64_t lo, int64_t hi)
{
	for (int64_t b = lo; b < hi;) {
		int64_t w = b / 64, e = hi < (w + 1) * 64 ? hi : (w + 1) * 64;
		wb[w] |= (e - b == 64 ? ~0ull : ((1ull << (e - b)) - 1)) << (b % 64);
		b = e;
	}
}

/* One block from entry state *st (left as the state at its end): its
 * gen/igen/kill summary (forward composition: a slot is read at entry when
 * read before the block overwrites it). false: the frame's address escapes. */
static bool block_effects(struct vctx *v, const struct cfg_block *bl, struct sstate *st, uint64_t *gen,
			  uint64_t *igen, uint64_t *kill)
{
	uint64_t G = 0, I = 0, K = 0, wb[NSLOT / 8] = { 0 }; /* bytes written so far, bit -o-1 */
	struct effect e;
	for (uint32_t i = bl->start; i < bl->end; i++) {
		if (v->insns[i].kind == BG_K_LD_IMM64_HI)
			continue;
		step(v, st, &v->insns[i], &e);
		if (e.escape)
			return false;
		G |= e.gen & ~K;
		I |= e.igen & ~K;
		for (int r = 0; r < e.nr; r++) {
			bool all = bytes_all(wb, -e.rhi[r], -e.rlo[r]);
			if (!all && e.rval[r])
				G |= span(e.rlo[r], e.rhi[r]) & ~K;
			else if (!all)
				I |= span(e.rlo[r], e.rhi[r]) & ~K;
		}
		K |= e.kill;
		for (int w = 0; w < e.nw; w++)
			bytes_set(wb, -e.whi[w], -e.wlo[w]);
	}
	*gen = G;
	*igen = I & ~G;
	*kill = K;
	return true;
}

/* Forward pass over function f: block entry states until stable, each
 * block's gen/kill summary from its last visit (made with its final entry
 * state: a block is visited again whenever its entry changes). Blocks never
 * reached (seen[] 0) read and kill nothing. false: the frame's address
 * escapes. */
static bool func_effects(struct vctx *v, uint32_t f, struct sstate *in, uint8_t *dirty, uint8_t *seen,
			 uint64_t *bgen, uint64_t *bigen, uint64_t *bkill)
{
	const struct cfg *g = &v->g;
	const struct cfg_func *fn = &g->funcs[f];
	uint32_t b0 = g->block_of[fn->start], b1 = g->block_of[fn->end - 1] + 1;
	memset(dirty, 0, b1 - b0);
	memset(seen, 0, b1 - b0);
	for (uint32_t b = b0; b < b1; b++)
		bgen[b] = bigen[b] = bkill[b] = 0;
	struct sstate *e0 = &in[fn->entry - b0];
	dirty[fn->entry - b0] = seen[fn->entry - b0] = 1;
	for (int i = 0; i < 11; i++)
		e0->r[i] = sv(SV_NONE, 0);
	for (int i = 0; i < NSLOT; i++)
		e0->s[i] = sv(SV_NONE, 0);
	e0->r[10] = sv(SV_FP, 0);
	struct sstate st;
	/* sweeps in block order revisit only the blocks whose entry changed
	 * (forward edges are handled in the same sweep, back edges in the next) */
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t b = b0; b < b1; b++) {
			const struct cfg_block *bl = &g->blocks[b];
			if (!dirty[b - b0])
				continue;
			dirty[b - b0] = 0;
			st = in[b - b0];
			if (!block_effects(v, bl, &st, &bgen[b], &bigen[b], &bkill[b]))
				return false;
			for (uint32_t k = 0; k < bl->nsucc; k++) {
				uint32_t t = bl->succ[k];
				if (t < b0 || t >= b1 || g->blocks[t].func != f)
					continue;
				if (!seen[t - b0]) { /* the join with bottom */
					in[t - b0] = st;
					seen[t - b0] = 1;
				} else if (!ss_join(&in[t - b0], &st)) {
					continue;
				}
				if (!dirty[t - b0]) {
					dirty[t - b0] = 1;
					changed |= t <= b;
				}
			}
		}
	}
	return true;
}

int slive_compute(struct vctx *v)
{
	struct cfg *g = &v->g;
	uint32_t maxb = 0;
	for (uint32_t f = 0; f < g->nfuncs; f++) {
		uint32_t n = g->block_of[g->funcs[f].end - 1] - g->block_of[g->funcs[f].start] + 1;
		if (n > maxb)
			maxb = n;
	}
	size_t nb = g->nblocks ? g->nblocks : 1;
	/* entry states are written before they are read (func_effects: seen) */
	struct sstate *in = malloc((maxb ? maxb : 1) * sizeof(*in));
	uint8_t *dirty = malloc(2 * (size_t)(maxb ? maxb : 1)), *seen = dirty ? dirty + (maxb ? maxb : 1) : NULL;
	uint64_t *gen = malloc(3 * nb * sizeof(*gen)), *igen = gen + nb, *kill = gen + 2 * nb;
	if (!in || !gen || !dirty) {
		free(in);
		free(dirty);
		free(gen);
		return -ENOMEM;
	}
	for (uint32_t b = 0; b < g->nblocks; b++)
		g->blocks[b].slive = g->blocks[b].svlive = ~0ull;
	for (uint32_t f = 0; f < g->nfuncs; f++) {
		if (!func_effects(v, f, in, dirty, seen, gen, igen, kill))
			continue; /* escapes: every slot stays live */
		uint32_t b0 = g->block_of[g->funcs[f].start], b1 = g->block_of[g->funcs[f].end - 1] + 1;
		for (uint32_t b = b0; b < b1; b++)
			g->blocks[b].slive = g->blocks[b].svlive = 0;
		for (bool changed = true; changed;) {
			changed = false;
			for (uint32_t b = b1; b-- > b0;) {
				struct cfg_block *bl = &g->blocks[b];
				uint64_t out = 0, vout = 0;
				for (uint32_t k = 0; k < bl->nsucc; k++)
					if (g->blocks[bl->succ[k]].func == f) {
						out |= g->blocks[bl->succ[k]].slive;
						vout |= g->blocks[bl->succ[k]].svlive;
					}
				uint64_t live = gen[b] | igen[b] | (out & ~kill[b]), vlive = gen[b] | (vout & ~kill[b]);
				if (live != bl->slive || vlive != bl->svlive) {
					bl->slive = live;
					bl->svlive = vlive;
					changed = true;
				}
			}
		}
	}
	free(in);
	free(dirty);
	free(gen);
	return 0;
}
