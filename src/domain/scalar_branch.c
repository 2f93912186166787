/* Scalar domain: branch refinement and decided comparisons (see scalar.h).
 * A comparison restricts the interval of its order (unsigned or signed, 32 or
 * 64 bits) on both sides, equality meets the components, JSET works on the
 * tnums; bg_scalar_reduce then spreads the facts to every component and
 * reports an impossible edge as bottom. */
#include <stdio.h>
#include <string.h>
#include <bpfgate/insn.h>
#include "domain/scalar.h"
#include "domain/scalar_impl.h"

/* ---- branch refinement --------------------------------------------------- */

#define JSET_NOT 0xf0 /* internal: (dst & src) == 0 */

/* The jump op whose taken edge is the fall-through of op (JSET's: JSET_NOT). */
static uint8_t negate_jmp(uint8_t op)
{
	uint8_t inv = bg_jmp_inverse(op);

	return op == BG_JMP_JSET ? JSET_NOT : inv ? inv : op;
}

/* a < b (strict) or a <= b in order o: cut a's top and b's bottom. */
static void refine_lt(int o, struct bg_scalar *a, struct bg_scalar *b, bool strict)
{
	struct iv x = get_iv(a, o), y = get_iv(b, o);
	i128 d = strict ? 1 : 0;

	set_iv(a, o, iv_make(x.lo, imin(x.hi, y.hi - d)));
	set_iv(b, o, iv_make(imax(y.lo, x.lo + d), y.hi));
}

/* Equality at width w: intersect the width-w components (and the low bits
 * of the tnums); 64-bit equality is the full meet. */
static void refine_eq(unsigned w, struct bg_scalar *a, struct bg_scalar *b)
{
	bool empty = false;
	struct bg_tnum t;

	if (w == 64) {
		*a = bg_scalar_meet(a, b);
		*b = *a;
		return;
	}
	for (int i = 2; i < 4; i++) {
		struct iv m = iv_meet(get_iv(a, orders[i]), get_iv(b, orders[i]));

		set_iv(a, orders[i], m);
		set_iv(b, orders[i], m);
	}
	t = bg_tnum_meet(tn_low(a->tn, 32), tn_low(b->tn, 32), &empty);
	a->tn = bg_tnum_concat(a->tn, t);
	b->tn = bg_tnum_concat(b->tn, t);
	if (empty)
		a->bottom = b->bottom = true;
}

/* a != b: when b is a single value at this width, a's bounds that equal it
 * move inward by one (in both orders of the width). */
static void refine_ne_one(unsigned w, struct bg_scalar *a, const struct bg_scalar *b)
{
	for (int sg = 0; sg < 2; sg++) {
		int o = sg ? (int)(w | SGN) : (int)w;
		struct iv x = get_iv(a, o), y = get_iv(b, o);

		if (y.lo != y.hi)
			continue;
		if (x.lo == y.lo)
			x.lo++;
		if (x.hi == y.lo)
			x.hi--;
		set_iv(a, o, x);
	}
}

/* (a & b) != 0 at width w: a constant single-bit b sets that bit in a;
 * neither can be 0; known bits that make the AND zero kill the edge. */
static void refine_jset(unsigned w, struct bg_scalar *a, struct bg_scalar *b)
{
	struct bg_tnum t = tn_low(bg_tnum_and(a->tn, b->tn), w);
	struct bg_scalar zero = bg_scalar_const(0);

	if (t.value == 0 && t.mask == 0) {
		a->bottom = true;
		return;
	}
	for (int side = 0; side < 2; side++) {
		struct bg_scalar *x = side ? b : a, *y = side ? a : b;
		struct bg_tnum ty = tn_low(y->tn, w);

		if (!ty.mask && ty.value && !(ty.value & (ty.value - 1))) {
			x->tn.value |= ty.value;
			x->tn.mask &= ~ty.value;
		}
		refine_ne_one(w, x, &zero);
	}
}

/* (a & b) == 0 at width w: bits known 1 in one are known 0 in the other. */
static void refine_jset_not(unsigned w, struct bg_scalar *a, struct bg_scalar *b)
{
	uint64_t ones_a = a->tn.value & wmask(w), ones_b = b->tn.value & wmask(w);

	if (ones_a & ones_b) {
		a->bottom = true;
		return;
	}
	a->tn.mask &= ~ones_b;
	b->tn.mask &= ~ones_a;
}

static void refine_op(uint8_t op, unsigned w, struct bg_scalar *a, struct bg_scalar *b)
{
	int u = w, s = w | SGN;

	switch (op) {
	case BG_JMP_JEQ:
		refine_eq(w, a, b);
		break;
	case BG_JMP_JNE:
		refine_ne_one(w, a, b), refine_ne_one(w, b, a);
		break;
	case BG_JMP_JGT:
		refine_lt(u, b, a, true);
		break;
	case BG_JMP_JGE:
		refine_lt(u, b, a, false);
		break;
	case BG_JMP_JLT:
		refine_lt(u, a, b, true);
		break;
	case BG_JMP_JLE:
		refine_lt(u, a, b, false);
		break;
	case BG_JMP_JSGT:
		refine_lt(s, b, a, true);
		break;
	case BG_JMP_JSGE:
		refine_lt(s, b, a, false);
		break;
	case BG_JMP_JSLT:
		refine_lt(s, a, b, true);
		break;
	case BG_JMP_JSLE:
		refine_lt(s, a, b, false);
		break;
	case BG_JMP_JSET:
		refine_jset(w, a, b);
		break;
	case JSET_NOT:
		refine_jset_not(w, a, b);
		break;
	default:
		break;
	}
}

bool bg_scalar_refine(uint8_t jmp_op, bool alu64, bool taken, struct bg_scalar *dst,
		      struct bg_scalar *src)
{
	uint8_t op = taken ? jmp_op : negate_jmp(jmp_op);

	*dst = scalar_norm(dst);
	*src = scalar_norm(src);
	if (dst->bottom || src->bottom) {
		*dst = *src = bg_scalar_bottom();
		return false;
	}
	refine_op(op, alu64 ? 64 : 32, dst, src);
	if (!dst->bottom)
		bg_scalar_reduce(dst);
	if (!src->bottom)
		bg_scalar_reduce(src);
	if (dst->bottom || src->bottom) {
		*dst = *src = bg_scalar_bottom();
		return false;
	}
	return true;
}

/* Decided by refinement: an outcome whose edge is dead cannot happen. */
int bg_scalar_cmp(uint8_t jmp_op, bool alu64, const struct bg_scalar *dst,
		  const struct bg_scalar *src)
{
	struct bg_scalar a = *dst, b = *src;

	if (!bg_scalar_refine(jmp_op, alu64, true, &a, &b))
		return 0;
	a = *dst, b = *src;
	if (!bg_scalar_refine(jmp_op, alu64, false, &a, &b))
		return 1;
	return -1;
}

/* ---- kernel profile ------------------------------------------------------ */

/* The kernel's JSET: decided and refined only against a constant operand
 * (taken: a single-bit constant sets that bit; not taken: the constant's
 * bits are cleared; no "non-zero" facts); other jumps as bg_scalar_refine.
 * The kernel sometimes also drops the refined register's intervals here; that
 * is not reproduced (this profile stays at least as precise as the kernel). */
static bool refine_kernel(uint8_t jmp_op, bool alu64, bool taken, struct bg_scalar *dst,
			  struct bg_scalar *src)
{
	unsigned w = alu64 ? 64 : 32;
	struct bg_scalar *o = dst;
	uint64_t c, known, possible;

	if (jmp_op != BG_JMP_JSET)
		return bg_scalar_refine(jmp_op, alu64, taken, dst, src);
	*dst = scalar_norm(dst);
	*src = scalar_norm(src);
	if (dst->bottom || src->bottom)
		return false;
	if (!const_in(src, w, &c)) {
		o = src;
		if (!const_in(dst, w, &c))
			return true;
	}
	known = o->tn.value & c;
	possible = (o->tn.value | o->tn.mask) & c;
	if (taken ? !possible : known != 0)
		return false;
	if (taken && !(c & (c - 1))) {
		o->tn.value |= c;
		o->tn.mask &= ~c;
	} else if (!taken) {
		o->tn.mask &= ~c;
	}
	bg_scalar_reduce(o);
	return !o->bottom;
}

/* Memoized (scalar_impl.h: memo tables), both refined sides and the answer. */
#define REFINE_MEMO 512

struct refine_memo {
	struct bg_scalar dst, src, odst, osrc;
	uint32_t tag;
	bool ret, used;
};

static __thread struct refine_memo refine_memo[REFINE_MEMO];

bool bg_scalar_refine_kernel(uint8_t jmp_op, bool alu64, bool taken, struct bg_scalar *dst,
			     struct bg_scalar *src)
{
	uint32_t tag = jmp_op | (uint32_t)alu64 << 8 | (uint32_t)taken << 9;
	struct refine_memo *m = &refine_memo[memo_slot(scalar_hash(src, scalar_hash(dst, tag)), REFINE_MEMO)];

	if (m->used && m->tag == tag && scalar_fields_eq(&m->dst, dst) && scalar_fields_eq(&m->src, src)) {
		*dst = m->odst;
		*src = m->osrc;
		return m->ret;
	}
	m->dst = *dst;
	m->src = *src;
	m->tag = tag;
	m->ret = refine_kernel(jmp_op, alu64, taken, dst, src);
	m->odst = *dst;
	m->osrc = *src;
	m->used = true;
	return m->ret;
}

int bg_scalar_cmp_kernel(uint8_t jmp_op, bool alu64, const struct bg_scalar *dst,
			 const struct bg_scalar *src)
{
	struct bg_scalar a = *dst, b = *src;

	if (!bg_scalar_refine_kernel(jmp_op, alu64, true, &a, &b))
		return 0;
	a = *dst, b = *src;
	if (!bg_scalar_refine_kernel(jmp_op, alu64, false, &a, &b))
		return 1;
	return -1;
}
