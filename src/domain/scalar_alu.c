/* Scalar domain: ALU transfer functions (see scalar.h for the contract).
 * Each operation computes, per width, an unsigned and a signed interval by
 * exact (128-bit) arithmetic wrapped into the width, and a tnum, then lets
 * bg_scalar_reduce combine them. 64-bit ops whose low half depends only on
 * the operands' low halves also compute the 32-bit result and meet it in. */
#include <stdio.h>
#include <string.h>
#include <bpfgate/insn.h>
#include "domain/scalar.h"
#include "domain/scalar_impl.h"
#include "isa/exec.h"

/* ---- ALU transfer functions -------------------------------------------- */

/* The components of one width w: unsigned and signed interval of the low w
 * bits and the tnum (low w bits meaningful, upper bits known 0 for w < 64). */
struct comp {
	struct iv u, s;
	struct bg_tnum t;
};

static struct comp comp_of(const struct bg_scalar *a, unsigned w)
{
	return (struct comp){get_iv(a, w), get_iv(a, w | SGN), tn_low(a->tn, w)};
}

static struct comp comp_full(unsigned w, struct bg_tnum t)
{
	return (struct comp){iv_full(w), iv_full(w | SGN), tn_low(t, w)};
}

/* Exact sums wrapped: kept when no member overflows differently. */
static struct comp c_add(unsigned w, struct comp a, struct comp b)
{
	return (struct comp){iv_wrap(w, a.u.lo + b.u.lo, a.u.hi + b.u.hi),
			     iv_wrap(w | SGN, a.s.lo + b.s.lo, a.s.hi + b.s.hi),
			     tn_low(bg_tnum_add(a.t, b.t), w)};
}

static struct comp c_sub(unsigned w, struct comp a, struct comp b)
{
	return (struct comp){iv_wrap(w, a.u.lo - b.u.hi, a.u.hi - b.u.lo),
			     iv_wrap(w | SGN, a.s.lo - b.s.hi, a.s.hi - b.s.lo),
			     tn_low(bg_tnum_sub(a.t, b.t), w)};
}

/* Signed product: hull of the corner products, wrapped. */
static struct iv iv_smul(int o, struct iv a, struct iv b)
{
	i128 p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
	i128 lo = p[0], hi = p[0];

	for (int i = 1; i < 4; i++)
		lo = imin(lo, p[i]), hi = imax(hi, p[i]);
	return iv_wrap(o, lo, hi);
}

static int bitlen(uint64_t x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

/* Unsigned product: [lo*lo, hi*hi] wrapped; unknown when it would not fit
 * the 128-bit exact computation. */
static struct iv iv_umul(int o, struct iv a, struct iv b)
{
	if (bitlen((uint64_t)a.hi) + bitlen((uint64_t)b.hi) > 126)
		return iv_full(o);
	return iv_wrap(o, a.lo * b.lo, a.hi * b.hi);
}

static struct comp c_mul(unsigned w, struct comp a, struct comp b)
{
	return (struct comp){iv_umul(w, a.u, b.u), iv_smul(w | SGN, a.s, b.s),
			     tn_low(bg_tnum_mul(a.t, b.t), w)};
}

/* AND: unsigned result <= both operands; a non-negative operand bounds the
 * result to [0, its max]; two negatives give a negative <= both. */
static struct comp c_and(unsigned w, struct comp a, struct comp b)
{
	struct comp r = comp_full(w, bg_tnum_and(a.t, b.t));

	r.u = iv_make(0, imin(a.u.hi, b.u.hi));
	if (a.s.lo >= 0 && b.s.lo >= 0)
		r.s = iv_make(0, imin(a.s.hi, b.s.hi));
	else if (a.s.lo >= 0)
		r.s = iv_make(0, a.s.hi);
	else if (b.s.lo >= 0)
		r.s = iv_make(0, b.s.hi);
	else if (a.s.hi < 0 && b.s.hi < 0)
		r.s = iv_make(omin(w | SGN), imin(a.s.hi, b.s.hi));
	else
		r.s = iv_make(omin(w | SGN), imax(a.s.hi, b.s.hi));
	return r;
}

/* OR: unsigned result >= both operands; a negative operand makes the result
 * negative and >= it. Upper bounds come from the tnum. */
static struct comp c_or(unsigned w, struct comp a, struct comp b)
{
	struct comp r = comp_full(w, bg_tnum_or(a.t, b.t));
	int os = w | SGN;

	r.u = iv_make(imax(a.u.lo, b.u.lo), omax(w));
	if (a.s.hi < 0 && b.s.hi < 0)
		r.s = iv_make(imax(a.s.lo, b.s.lo), -1);
	else if (a.s.hi < 0)
		r.s = iv_make(a.s.lo, -1);
	else if (b.s.hi < 0)
		r.s = iv_make(b.s.lo, -1);
	else if (a.s.lo >= 0 && b.s.lo >= 0)
		r.s = iv_make(imax(a.s.lo, b.s.lo), omax(os));
	else
		r.s = iv_make(imin(a.s.lo, b.s.lo), omax(os));
	return r;
}

/* XOR: only the tnum (intervals follow from it in the reduction). */
static struct comp c_xor(unsigned w, struct comp a, struct comp b)
{
	return comp_full(w, bg_tnum_xor(a.t, b.t));
}

/* Unsigned division, x / 0 = 0. */
static struct iv iv_udiv(struct iv a, struct iv d)
{
	struct iv r = iv_make(1, 0);

	if (d.lo == 0)
		r = iv_make(0, 0);
	if (d.hi >= 1) {
		struct iv q = iv_make(a.lo / d.hi, a.hi / imax(d.lo, 1));

		r = iv_empty(r) ? q : iv_hull(r, q);
	}
	return r;
}

/* Unsigned modulo, x % 0 = x; a dividend below every divisor is unchanged. */
static struct iv iv_umod(struct iv a, struct iv d)
{
	struct iv r = iv_make(1, 0);

	if (d.lo == 0)
		r = a;
	if (d.hi >= 1) {
		i128 dl = imax(d.lo, 1);
		struct iv q = a.hi < dl ? a : iv_make(0, imin(a.hi, d.hi - 1));

		r = iv_empty(r) ? q : iv_hull(r, q);
	}
	return r;
}

/* The divisor interval split at zero: the negative and the positive part. */
static int nonzero_parts(struct iv d, struct iv p[2])
{
	int n = 0;

	if (d.lo <= -1)
		p[n++] = iv_make(d.lo, imin(d.hi, -1));
	if (d.hi >= 1)
		p[n++] = iv_make(imax(d.lo, 1), d.hi);
	return n;
}

/* Signed division truncating toward zero, x / 0 = 0, MIN / -1 wraps to MIN
 * (exact quotient 2^(w-1), wrapped): extremes are at the corners of each
 * same-sign part of the divisor. */
static struct iv iv_sdiv(int o, struct iv a, struct iv d)
{
	struct iv p[2], r = iv_make(1, 0);
	int n = nonzero_parts(d, p);

	if (d.lo <= 0 && d.hi >= 0)
		r = iv_make(0, 0);
	for (int i = 0; i < n; i++) {
		i128 q[4] = {a.lo / p[i].lo, a.lo / p[i].hi, a.hi / p[i].lo, a.hi / p[i].hi};
		struct iv h = iv_make(q[0], q[0]);

		for (int j = 1; j < 4; j++)
			h = iv_hull(h, iv_make(q[j], q[j]));
		r = iv_empty(r) ? h : iv_hull(r, h);
	}
	return iv_wrap(o, r.lo, r.hi);
}

/* Signed remainder (sign of the dividend, |r| < |d|, |r| <= |a|), x % 0 = x. */
static struct iv iv_smod(struct iv a, struct iv d)
{
	struct iv p[2], r = iv_make(1, 0);
	int n = nonzero_parts(d, p);

	if (d.lo <= 0 && d.hi >= 0)
		r = a;
	for (int i = 0; i < n; i++) {
		i128 m = imin(p[i].lo < 0 ? -p[i].hi : p[i].lo, p[i].lo < 0 ? -p[i].lo : p[i].hi);
		i128 big = imax(p[i].lo < 0 ? -p[i].lo : p[i].hi, m);
		struct iv q = a;

		if (!(a.lo > -m && a.hi < m))
			q = iv_make(a.lo < 0 ? imax(a.lo, 1 - big) : 0,
				    a.hi > 0 ? imin(a.hi, big - 1) : 0);
		r = iv_empty(r) ? q : iv_hull(r, q);
	}
	return r;
}

static struct comp c_divmod(uint8_t op, unsigned w, bool is_signed, struct comp a, struct comp b)
{
	struct comp r = comp_full(w, bg_tnum_unknown());

	if (is_signed)
		r.s = op == BG_ALU_DIV ? iv_sdiv(w | SGN, a.s, b.s) : iv_smod(a.s, b.s);
	else
		r.u = op == BG_ALU_DIV ? iv_udiv(a.u, b.u) : iv_umod(a.u, b.u);
	return r;
}

static struct comp comp_op(uint8_t op, unsigned w, bool is_signed, struct comp a, struct comp b)
{
	switch (op) {
	case BG_ALU_ADD:
		return c_add(w, a, b);
	case BG_ALU_SUB:
		return c_sub(w, a, b);
	case BG_ALU_MUL:
		return c_mul(w, a, b);
	case BG_ALU_AND:
		return c_and(w, a, b);
	case BG_ALU_OR:
		return c_or(w, a, b);
	case BG_ALU_XOR:
		return c_xor(w, a, b);
	case BG_ALU_NEG:
		return c_sub(w, comp_of(&(struct bg_scalar){0}, w), a);
	case BG_ALU_DIV:
	case BG_ALU_MOD:
		return c_divmod(op, w, is_signed, a, b);
	default:
		return comp_full(w, bg_tnum_unknown());
	}
}

/* Unreduced scalar whose width-w components are c (others unknown). */
static struct bg_scalar from_comp(struct comp c, unsigned w)
{
	struct bg_scalar r = bg_scalar_unknown();

	set_iv(&r, w, c.u);
	set_iv(&r, w | SGN, c.s);
	r.tn = w == 64 ? c.t : bg_tnum_concat(bg_tnum_unknown(), c.t);
	return r;
}

/* Restrict r's 32-bit components by c (the 32-bit result of the same op). */
static void merge_low(struct bg_scalar *r, struct comp c)
{
	bool empty = false;

	meet_iv(r, U32, c.u);
	meet_iv(r, S32, c.s);
	r->tn = bg_tnum_meet(r->tn, bg_tnum_concat(bg_tnum_unknown(), c.t), &empty);
	if (empty)
		r->bottom = true;
}

/* Zero-extend the low half: the 32-bit components stay, the upper half is 0. */
static void zext32(struct bg_scalar *r)
{
	set_iv(r, U64, iv_full(U64));
	set_iv(r, S64, iv_full(S64));
	r->tn = bg_tnum_subreg(r->tn);
}

/* Ops whose low 32 result bits depend only on the operands' low 32 bits. */
static bool low_half_op(uint8_t op)
{
	return op == BG_ALU_ADD || op == BG_ALU_SUB || op == BG_ALU_MUL || op == BG_ALU_AND ||
	       op == BG_ALU_OR || op == BG_ALU_XOR || op == BG_ALU_NEG;
}

/* Hull of each component, no reduction (used to combine shift cases). */
static struct bg_scalar join_raw(const struct bg_scalar *a, const struct bg_scalar *b)
{
	struct bg_scalar r = *a;

	for (int i = 0; i < 4; i++)
		set_iv(&r, orders[i], iv_hull(get_iv(a, orders[i]), get_iv(b, orders[i])));
	r.tn = bg_tnum_join(a->tn, b->tn);
	return r;
}

/* x << k at width w: exact products wrapped; the tnum shifted. */
static struct comp c_lsh(unsigned w, struct comp a, unsigned k)
{
	i128 f = (i128)1 << k;

	return (struct comp){iv_wrap(w, a.u.lo * f, a.u.hi * f),
			     iv_wrap(w | SGN, a.s.lo * f, a.s.hi * f),
			     tn_low(bg_tnum_lsh(a.t, k), w)};
}

/* Shift of dst by the constant k (already masked) at width w, unreduced. */
static struct bg_scalar shift_k(uint8_t op, unsigned w, const struct bg_scalar *dst, unsigned k)
{
	struct comp a = comp_of(dst, w), c = comp_full(w, bg_tnum_unknown());
	struct bg_scalar r;

	if (k == 0) {
		r = *dst;
		if (w == 32)
			zext32(&r);
		return r;
	}
	if (op == BG_ALU_LSH) {
		c = c_lsh(w, a, k);
	} else if (op == BG_ALU_RSH) {
		c.u = iv_make(a.u.lo >> k, a.u.hi >> k);
		c.t = bg_tnum_rsh(a.t, k);
	} else {
		c.s = iv_make(a.s.lo >> k, a.s.hi >> k);
		c.t = tn_low(bg_tnum_arsh(a.t, k, w), w);
	}
	r = from_comp(c, w);
	if (w == 64 && op == BG_ALU_LSH && k < 32) {
		merge_low(&r, c_lsh(32, comp_of(dst, 32), k));
	} else if (w == 64 && op == BG_ALU_LSH) {
		/* x << k for k >= 32 only sees the low half: s32(x) * 2^k */
		i128 f = (i128)1 << k;
		struct comp l = comp_of(dst, 32);

		meet_iv(&r, U64, iv_wrap(U64, l.u.lo * f, l.u.hi * f));
		meet_iv(&r, S64, iv_wrap(S64, l.s.lo * f, l.s.hi * f));
	}
	if (w == 32)
		zext32(&r);
	return r;
}

/* Shift by a possibly non-constant amount: the join over every amount the
 * masked source may hold (at most 64 cases). */
static struct bg_scalar alu_shift(uint8_t op, bool alu64, const struct bg_scalar *dst,
				  const struct bg_scalar *src)
{
	unsigned w = alu64 ? 64 : 32, lo = 0, hi = w - 1;
	struct bg_tnum amt = bg_tnum_and(src->tn, bg_tnum_const(w - 1));
	struct bg_scalar r = bg_scalar_bottom(), x;
	bool first = true;

	if (src->u32max <= w - 1)
		lo = src->u32min, hi = src->u32max;
	for (unsigned k = lo; k <= hi; k++) {
		if (!bg_tnum_contains(amt, k))
			continue;
		x = shift_k(op, w, dst, k);
		r = first ? x : join_raw(&r, &x);
		first = false;
	}
	bg_scalar_reduce(&r);
	return r;
}

static struct bg_scalar alu_mov(bool alu64, uint8_t ext_bits, const struct bg_scalar *src)
{
	struct bg_scalar r = *src;

	if (ext_bits == 8 || ext_bits == 16 || (ext_bits == 32 && alu64))
		r = bg_scalar_cast(&r, ext_bits / 8, true);
	if (!alu64)
		r = bg_scalar_cast(&r, 4, false);
	return r;
}

static struct bg_scalar alu(uint8_t op, bool alu64, bool is_signed, uint8_t ext_bits,
			    const struct bg_scalar *dst, const struct bg_scalar *src);

struct bg_scalar bg_scalar_alu(uint8_t op, bool alu64, bool is_signed, uint8_t ext_bits,
			       const struct bg_scalar *dst, const struct bg_scalar *src)
{
	struct bg_scalar d = scalar_norm(dst), s = scalar_norm(src);
	uint64_t x, y;

	/* constant folding: the concrete semantics, exactly */
	if (op != BG_ALU_END && bg_scalar_is_const(&d, &x) && bg_scalar_is_const(&s, &y))
		return bg_scalar_const(bg_alu_exec(op, alu64, is_signed, ext_bits, x, y));
	if (op == BG_ALU_MOV && !ext_bits && (alu64 || s.umax <= UINT32_MAX))
		return s;
	return alu(op, alu64, is_signed, ext_bits, &d, &s);
}

static struct bg_scalar alu(uint8_t op, bool alu64, bool is_signed, uint8_t ext_bits,
			    const struct bg_scalar *dst, const struct bg_scalar *src)
{
	unsigned w = alu64 ? 64 : 32;
	struct bg_scalar r;

	if (op == BG_ALU_MOV)
		return src->bottom ? bg_scalar_bottom() : alu_mov(alu64, ext_bits, src);
	if (dst->bottom || (op != BG_ALU_NEG && src->bottom))
		return bg_scalar_bottom();
	if (op == BG_ALU_LSH || op == BG_ALU_RSH || op == BG_ALU_ARSH)
		return alu_shift(op, alu64, dst, src);
	r = from_comp(comp_op(op, w, is_signed, comp_of(dst, w), comp_of(src, w)), w);
	if (alu64 && low_half_op(op))
		merge_low(&r, comp_op(op, 32, is_signed, comp_of(dst, 32), comp_of(src, 32)));
	if (!alu64)
		zext32(&r);
	bg_scalar_reduce(&r);
	return r;
}

/* The low `bytes` bytes, zero- or sign-extended: each source interval read
 * at the narrower width (kept when it does not wrap), and the tnum cut. */
struct bg_scalar bg_scalar_cast(const struct bg_scalar *a_in, uint8_t bytes, bool sign_extend)
{
	struct bg_scalar an = scalar_norm(a_in), *a = &an;
	unsigned w = bytes * 8;
	int tgt = sign_extend ? (int)(w | SGN) : (int)w;
	struct bg_scalar r;
	struct iv v;

	if (a->bottom || bytes >= 8 || bytes == 0) /* 0: not a width, nothing to cut */
		return *a;
	r = bg_scalar_unknown();
	v = iv_full(tgt);
	for (int i = 0; i < 4; i++) {
		struct iv x = get_iv(a, orders[i]);

		if (ow(orders[i]) >= w)
			v = iv_meet(v, iv_wrap(tgt, x.lo, x.hi));
	}
	set_iv(&r, sign_extend ? S64 : U64, v);
	r.tn = bg_tnum_cast(a->tn, bytes);
	if (sign_extend)
		r.tn = bg_tnum_sext(r.tn, bytes);
	if (w == 32) {
		set_iv(&r, U32, get_iv(a, U32));
		set_iv(&r, S32, get_iv(a, S32));
	}
	bg_scalar_reduce(&r);
	return r;
}

struct bg_scalar bg_scalar_end(const struct bg_scalar *a_in, uint8_t width, bool swap)
{
	struct bg_scalar an = scalar_norm(a_in), *a = &an;
	struct bg_scalar r = bg_scalar_unknown();

	if (a->bottom)
		return *a;
	if (!swap)
		return bg_scalar_cast(a, width / 8, false);
	r.tn = bg_tnum_bswap(a->tn, width);
	bg_scalar_reduce(&r);
	return r;
}

struct bg_scalar bg_scalar_load(uint8_t bytes, bool sign_extend)
{
	/* one value per (bytes, sign): made once per thread */
	static __thread struct {
		struct bg_scalar v;
		bool used;
	} memo[9][2];
	struct bg_scalar u;

	if (bytes > 8)
		bytes = 8; /* bg_scalar_cast: 8 bytes and more cut nothing */
	if (memo[bytes][sign_extend].used)
		return memo[bytes][sign_extend].v;
	u = bg_scalar_unknown();
	memo[bytes][sign_extend].v = bg_scalar_cast(&u, bytes, sign_extend);
	memo[bytes][sign_extend].used = true;
	return memo[bytes][sign_extend].v;
}

/* ---- kernel profile ---------------------------------------------------- */

/* The kernel's maybe_fork_scalars: AND/OR with a constant of a value in
 * [-1, 0] (signed, of the operation's width; the 64-bit range first, as the
 * kernel checks it) is explored as two states, dst = 0 and dst = -1 (the
 * idiom `x s>>= 63; x &= C` selects C or 0). Here: the join of the two
 * results, which the branches after it refine as the two states would in
 * the common case. Returns false when the rule does not apply. */
static bool alu_fork_minus1_zero(uint8_t op, bool alu64, const struct bg_scalar *dst,
				 const struct bg_scalar *src, struct bg_scalar *out)
{
	uint64_t c;

	if ((op != BG_ALU_AND && op != BG_ALU_OR) || dst->bottom || !bg_scalar_is_const(src, &c))
		return false;
	bool s64 = dst->smin == -1 && dst->smax == 0;
	if (!s64 && !(dst->s32min == -1 && dst->s32max == 0 && !alu64))
		return false;
	struct bg_scalar zero = bg_scalar_const(0), ones = bg_scalar_const(s64 ? UINT64_MAX : UINT32_MAX);
	struct bg_scalar r0 = bg_scalar_alu(op, alu64, false, 0, &zero, src);
	struct bg_scalar r1 = bg_scalar_alu(op, alu64, false, 0, &ones, src);
	*out = bg_scalar_join(&r0, &r1);
	return true;
}

/* Where the 6.18 verifier does not track an ALU result (division and modulo
 * always, shifts unless by a constant below the width) the result is an
 * unknown 64-bit scalar, even for 32-bit ops (the kernel does not zero-extend
 * it); AND/OR drop their own signed bounds when an operand may be negative;
 * elsewhere the precise transfer function. */
static struct bg_scalar alu_kernel(uint8_t op, bool alu64, bool is_signed, uint8_t ext_bits,
				   const struct bg_scalar *dst, const struct bg_scalar *src)
{
	unsigned w = alu64 ? 64 : 32;
	bool untracked = op == BG_ALU_DIV || op == BG_ALU_MOD;
	struct bg_scalar r = bg_scalar_unknown();
	uint64_t k = 0;

	if (alu_fork_minus1_zero(op, alu64, dst, src, &r))
		return r;
	if (op == BG_ALU_LSH || op == BG_ALU_RSH || op == BG_ALU_ARSH)
		untracked = !const_in(src, w, &k) || src->umax >= w;
	if (!untracked || dst->bottom || src->bottom)
		r = bg_scalar_alu(op, alu64, is_signed, ext_bits, dst, src);
	if (untracked || r.bottom)
		return r;
	if (op == BG_ALU_LSH) { /* no signed tracking of its own, but for << 32 */
		if (!(alu64 && k == 32))
			set_iv(&r, S64, iv_full(S64));
		set_iv(&r, S32, iv_full(S32));
		bg_scalar_reduce(&r);
		return r;
	}
	if (op != BG_ALU_AND && op != BG_ALU_OR)
		return r;
	/* AND/OR: the kernel keeps no signed bounds of its own when an operand
	 * may be negative; they come back only from the unsigned bounds/tnum */
	if (alu64 && (dst->smin < 0 || src->smin < 0))
		set_iv(&r, S64, iv_full(S64));
	if (dst->s32min < 0 || src->s32min < 0)
		set_iv(&r, S32, iv_full(S32));
	bg_scalar_reduce(&r);
	return r;
}

/* Memoized (scalar_impl.h: memo tables): 94% of pyperf600's 198k ALU
 * transfers repeat one of the previous 256 inputs. */
#define ALU_MEMO 512

struct alu_memo {
	struct bg_scalar dst, src, out;
	uint32_t tag;
	bool used;
};

static __thread struct alu_memo alu_memo[ALU_MEMO];

struct bg_scalar bg_scalar_alu_kernel(uint8_t op, bool alu64, bool is_signed, uint8_t ext_bits,
				      const struct bg_scalar *dst, const struct bg_scalar *src)
{
	uint32_t tag = op | (uint32_t)alu64 << 8 | (uint32_t)is_signed << 9 | (uint32_t)ext_bits << 16;
	struct alu_memo *m = &alu_memo[memo_slot(scalar_hash(src, scalar_hash(dst, tag)), ALU_MEMO)];
	struct bg_scalar r;

	if (m->used && m->tag == tag && scalar_fields_eq(&m->dst, dst) && scalar_fields_eq(&m->src, src))
		return m->out;
	r = alu_kernel(op, alu64, is_signed, ext_bits, dst, src);
	m->dst = *dst;
	m->src = *src;
	m->out = r;
	m->tag = tag;
	m->used = true;
	return r;
}
