/* Scalar value domain: reduced product of four intervals (u64, s64, and u32,
 * s32 of the low half) and a tnum.
 *
 * Invariants (after bg_scalar_reduce, which every constructor, transfer
 * function and refinement ends with):
 *  - each interval is non-empty and its bounds are members of the tnum and of
 *    every other component (bounds are "snapped": no component can be
 *    tightened from another by the rules below, up to a bounded number of
 *    rounds);
 *  - an empty intersection is represented only by .bottom = true (canonical
 *    fields), never by crossed bounds.
 * Interval arithmetic is done on exact integers (__int128) and then wrapped
 * into the target width: a result interval is kept when all exact results
 * fall in the same 2^w window, otherwise the component becomes unknown. This
 * is how overflow is handled soundly, at every width (8/16/32/64 bits).
 * An "order" names a view of the bits: width (8..64) and signedness. */
#include <stdio.h>
#include <string.h>
#include <bpfgate/insn.h>
#include "domain/scalar.h"

typedef __int128 i128;

#define SGN 0x100
#define U64 64
#define S64 (64 | SGN)
#define U32 32
#define S32 (32 | SGN)
#define REDUCE_ROUNDS 6

struct iv {
	i128 lo, hi;
};

static unsigned ow(int o)
{
	return o & 0xff;
}

static bool osigned(int o)
{
	return o & SGN;
}

static i128 omin(int o)
{
	return osigned(o) ? -((i128)1 << (ow(o) - 1)) : 0;
}

static i128 omax(int o)
{
	return osigned(o) ? ((i128)1 << (ow(o) - 1)) - 1 : ((i128)1 << ow(o)) - 1;
}

static uint64_t wmask(unsigned w)
{
	return w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
}

/* The low ow(o) bits of x read in order o. */
static i128 oval(int o, uint64_t x)
{
	unsigned w = ow(o);

	x &= wmask(w);
	if (osigned(o) && ((x >> (w - 1)) & 1))
		return (i128)x - ((i128)1 << w);
	return x;
}

static struct iv iv_full(int o)
{
	return (struct iv){omin(o), omax(o)};
}

static struct iv iv_make(i128 lo, i128 hi)
{
	return (struct iv){lo, hi};
}

static bool iv_empty(struct iv a)
{
	return a.lo > a.hi;
}

static i128 imax(i128 a, i128 b)
{
	return a > b ? a : b;
}

static i128 imin(i128 a, i128 b)
{
	return a < b ? a : b;
}

static struct iv iv_meet(struct iv a, struct iv b)
{
	return iv_make(imax(a.lo, b.lo), imin(a.hi, b.hi));
}

static struct iv iv_hull(struct iv a, struct iv b)
{
	return iv_make(imin(a.lo, b.lo), imax(a.hi, b.hi));
}

/* Exact integer interval [lo,hi] reduced modulo 2^w into order o: exact when
 * every member lies in the same window of 2^w values, else the full range. */
static struct iv iv_wrap(int o, i128 lo, i128 hi)
{
	unsigned w = ow(o);
	i128 base = omin(o), k1 = (lo - base) >> w, k2 = (hi - base) >> w; /* floor division */

	if (k1 != k2)
		return iv_full(o);
	return iv_make(lo - k1 * ((i128)1 << w), hi - k1 * ((i128)1 << w));
}

static struct iv get_iv(const struct bg_scalar *s, int o)
{
	switch (o) {
	case U64:
		return iv_make(s->umin, s->umax);
	case S64:
		return iv_make(s->smin, s->smax);
	case U32:
		return iv_make(s->u32min, s->u32max);
	default:
		return iv_make(s->s32min, s->s32max);
	}
}

/* Store an interval; an empty one makes s bottom. */
static void set_iv(struct bg_scalar *s, int o, struct iv v)
{
	if (iv_empty(v)) {
		s->bottom = true;
		return;
	}
	switch (o) {
	case U64:
		s->umin = (uint64_t)v.lo, s->umax = (uint64_t)v.hi;
		break;
	case S64:
		s->smin = (int64_t)v.lo, s->smax = (int64_t)v.hi;
		break;
	case U32:
		s->u32min = (uint32_t)v.lo, s->u32max = (uint32_t)v.hi;
		break;
	default:
		s->s32min = (int32_t)v.lo, s->s32max = (int32_t)v.hi;
	}
}

static void meet_iv(struct bg_scalar *s, int o, struct iv v)
{
	set_iv(s, o, iv_meet(get_iv(s, o), v));
}

static const int orders[4] = {U64, S64, U32, S32};

/* ---- constructors ---------------------------------------------------- */

struct bg_scalar bg_scalar_unknown(void)
{
	struct bg_scalar s = {0};

	for (int i = 0; i < 4; i++)
		set_iv(&s, orders[i], iv_full(orders[i]));
	s.tn = bg_tnum_unknown();
	return s;
}

struct bg_scalar bg_scalar_bottom(void)
{
	struct bg_scalar s = {0};

	s.umin = 1, s.smin = 1, s.u32min = 1, s.s32min = 1;
	s.tn = bg_tnum_const(0);
	s.bottom = true;
	return s;
}

struct bg_scalar bg_scalar_const(uint64_t v)
{
	struct bg_scalar s = bg_scalar_unknown();

	s.tn = bg_tnum_const(v);
	bg_scalar_reduce(&s);
	return s;
}

struct bg_scalar bg_scalar_urange(uint64_t lo, uint64_t hi)
{
	struct bg_scalar s = bg_scalar_unknown();

	set_iv(&s, U64, iv_make(lo, hi));
	bg_scalar_reduce(&s);
	return s;
}

struct bg_scalar bg_scalar_srange(int64_t lo, int64_t hi)
{
	struct bg_scalar s = bg_scalar_unknown();

	set_iv(&s, S64, iv_make(lo, hi));
	bg_scalar_reduce(&s);
	return s;
}

bool bg_scalar_is_const(const struct bg_scalar *a, uint64_t *v)
{
	if (a->bottom || !bg_tnum_is_const(a->tn))
		return false;
	if (v)
		*v = a->tn.value;
	return true;
}

bool bg_scalar_contains(const struct bg_scalar *a, uint64_t x)
{
	if (a->bottom || !bg_tnum_contains(a->tn, x))
		return false;
	for (int i = 0; i < 4; i++) {
		struct iv v = get_iv(a, orders[i]);
		i128 y = oval(orders[i], x);

		if (y < v.lo || y > v.hi)
			return false;
	}
	return true;
}

/* ---- reduction ------------------------------------------------------- */

/* tnum restricted to the low w bits, as a w-bit tnum. */
static struct bg_tnum tn_low(struct bg_tnum t, unsigned w)
{
	return (struct bg_tnum){t.value & wmask(w), t.mask & wmask(w)};
}

/* Snap [lo,hi] of order o to members of the tnum (lowest member >= lo,
 * highest <= hi). Signed orders flip the sign bit: that maps signed order
 * onto unsigned order. */
static struct iv snap_to_tnum(int o, struct iv v, struct bg_tnum t)
{
	unsigned w = ow(o);
	uint64_t flip = osigned(o) ? (uint64_t)1 << (w - 1) : 0, lo, hi;

	t = tn_low(t, w);
	if (t.mask & flip)
		; /* sign bit unknown: flipping leaves it unknown */
	else
		t.value ^= flip;
	if (!bg_tnum_next_ge(t, ((uint64_t)v.lo ^ flip) & wmask(w), &lo) ||
	    !bg_tnum_prev_le(t, ((uint64_t)v.hi ^ flip) & wmask(w), &hi))
		return iv_make(1, 0);
	return iv_make(oval(o, lo ^ flip), oval(o, hi ^ flip));
}

/* The tnum implied by an interval of order o (the low w bits when w < 64);
 * signed intervals crossing 0 imply nothing. */
static struct bg_tnum tn_of_iv(int o, struct iv v)
{
	unsigned w = ow(o);
	struct bg_tnum t;

	if (osigned(o) && v.lo < 0 && v.hi >= 0)
		return bg_tnum_unknown();
	t = bg_tnum_range((uint64_t)v.lo & wmask(w), (uint64_t)v.hi & wmask(w));
	if (w < 64)
		t = bg_tnum_concat(bg_tnum_unknown(), t);
	return t;
}

/* Working form of the reduction: the four intervals as exact integers,
 * indexed like `orders` (U64, S64, U32, S32), and the tnum. */
struct rv {
	struct iv v[4];
	struct bg_tnum t;
	bool bot, changed;
};

enum { IU64, IS64, IU32, IS32 };

static void rv_load(struct rv *r, const struct bg_scalar *s)
{
	r->v[IU64] = iv_make(s->umin, s->umax);
	r->v[IS64] = iv_make(s->smin, s->smax);
	r->v[IU32] = iv_make(s->u32min, s->u32max);
	r->v[IS32] = iv_make(s->s32min, s->s32max);
	r->t = s->tn;
	r->bot = s->bottom;
	r->changed = false;
}

static void rv_store(const struct rv *r, struct bg_scalar *s)
{
	for (int i = 0; i < 4; i++)
		set_iv(s, orders[i], r->v[i]);
	s->tn = r->t;
}

static void rv_set(struct rv *r, int i, struct iv v)
{
	if (iv_empty(v)) {
		r->bot = true;
	} else if (v.lo != r->v[i].lo || v.hi != r->v[i].hi) {
		r->v[i] = v;
		r->changed = true;
	}
}

static bool iv_is_full(int o, struct iv v)
{
	return v.lo == omin(o) && v.hi == omax(o);
}

/* Exact reduction between the unsigned (index iu) and the signed (is)
 * interval of width w: the signed interval is cut into pieces that do not
 * cross the sign boundary, each intersected with the unsigned one; both
 * become the hull of the surviving pieces in their own order. */
static void sync_us(struct rv *r, int iu, int is, unsigned w)
{
	struct iv u = r->v[iu], sg = r->v[is], p[2], nu = iv_make(1, 0), ns = iv_make(1, 0);
	int n = 0, k = 0;
	i128 size = (i128)1 << w;

	if (sg.lo >= 0 || sg.hi < 0) {
		p[n++] = iv_make(sg.lo < 0 ? sg.lo + size : sg.lo, sg.hi < 0 ? sg.hi + size : sg.hi);
	} else {
		p[n++] = iv_make(0, sg.hi);
		p[n++] = iv_make(sg.lo + size, size - 1);
	}
	for (int i = 0; i < n; i++) {
		struct iv q = iv_meet(p[i], u);

		if (iv_empty(q))
			continue;
		nu = k ? iv_hull(nu, q) : q;
		q = q.lo >= size / 2 ? iv_make(q.lo - size, q.hi - size) : q;
		ns = k ? iv_hull(ns, q) : q;
		k++;
	}
	rv_set(r, iu, nu);
	rv_set(r, is, ns);
}

/* Split V (a 64-bit order) into high part H and low part L read in order
 * o32: V = H * 2^32 + L. */
static void split(int o32, i128 v, i128 *h, i128 *l)
{
	*l = oval(o32, (uint64_t)v);
	*h = (v - *l) >> 32;
}

/* 64 -> 32: when the bounds of interval i64 share their high part (in the
 * split for o32), the low halves form the interval [L(lo), L(hi)] in o32. */
static void low_from_wide(struct rv *r, int i64, int i32)
{
	struct iv v = r->v[i64];
	i128 hl, ll, hh, lh;

	if (iv_is_full(orders[i64], v))
		return;
	split(orders[i32], v.lo, &hl, &ll);
	split(orders[i32], v.hi, &hh, &lh);
	if (hl == hh)
		rv_set(r, i32, iv_meet(r->v[i32], iv_make(ll, lh)));
}

/* 32 -> 64: raise the lower bound of interval i64 to the least value whose
 * low half (in the order of i32) lies in interval i32; lower the upper
 * bound likewise. */
static void wide_from_low(struct rv *r, int i64, int i32)
{
	struct iv v = r->v[i64], l32 = r->v[i32];
	i128 h, l, two32 = (i128)1 << 32;

	if (iv_is_full(orders[i32], l32))
		return;
	split(orders[i32], v.lo, &h, &l);
	if (l < l32.lo)
		v.lo = h * two32 + l32.lo;
	else if (l > l32.hi)
		v.lo = (h + 1) * two32 + l32.lo;
	split(orders[i32], v.hi, &h, &l);
	if (l > l32.hi)
		v.hi = h * two32 + l32.hi;
	else if (l < l32.lo)
		v.hi = (h - 1) * two32 + l32.hi;
	rv_set(r, i64, v);
}

/* Intervals -> tnum, then every interval bound snapped to a tnum member. */
static void reduce_tnum(struct rv *r)
{
	for (int i = 0; i < 4 && !r->bot; i++) {
		bool empty = false;
		struct bg_tnum t;

		if (iv_is_full(orders[i], r->v[i]))
			continue;
		t = bg_tnum_meet(r->t, tn_of_iv(orders[i], r->v[i]), &empty);
		r->bot |= empty;
		r->changed |= !bg_tnum_eq(t, r->t);
		r->t = t;
	}
	for (int i = 0; i < 4 && !r->bot && ~r->t.mask; i++)
		rv_set(r, i, snap_to_tnum(orders[i], r->v[i], r->t));
}

static void reduce_round(struct rv *r)
{
	reduce_tnum(r);
	if (!r->bot)
		sync_us(r, IU64, IS64, 64);
	if (!r->bot)
		sync_us(r, IU32, IS32, 32);
	for (int i = IU64; i <= IS64 && !r->bot; i++)
		for (int j = IU32; j <= IS32 && !r->bot; j++)
			low_from_wide(r, i, j);
	if (!r->bot)
		sync_us(r, IU32, IS32, 32);
	for (int i = IU64; i <= IS64 && !r->bot; i++)
		for (int j = IU32; j <= IS32 && !r->bot; j++)
			wide_from_low(r, i, j);
	if (!r->bot)
		sync_us(r, IU64, IS64, 64);
}

/* A constant tnum fixes every interval (each must contain it). */
static void reduce_const(struct rv *r)
{
	for (int i = 0; i < 4; i++) {
		i128 c = oval(orders[i], r->t.value);

		rv_set(r, i, iv_meet(r->v[i], iv_make(c, c)));
	}
}

static bool same(const struct bg_scalar *a, const struct bg_scalar *b)
{
	return a->umin == b->umin && a->umax == b->umax && a->smin == b->smin &&
	       a->smax == b->smax && a->u32min == b->u32min && a->u32max == b->u32max &&
	       a->s32min == b->s32min && a->s32max == b->s32max && bg_tnum_eq(a->tn, b->tn) &&
	       a->bottom == b->bottom;
}

/* Fast path: when some component proves 0 <= x < 2^31, all four intervals
 * read the same numbers, so they collapse to one interval met with the tnum.
 * Returns false when the value is not known to be in that range. */
static bool reduce_small(struct rv *r)
{
	struct iv m = iv_make(0, ((i128)1 << 31) - 1), n;
	bool small = (r->t.value | r->t.mask) < (1ULL << 31);

	for (int i = 0; i < 4; i++)
		small |= r->v[i].lo >= 0 && r->v[i].hi < ((i128)1 << 31) && i < 2;
	if (!small)
		return false;
	for (int i = 0; i < 4; i++)
		m = iv_meet(m, r->v[i]);
	for (int k = 0; k < REDUCE_ROUNDS && !iv_empty(m); k++) {
		bool empty = false;

		r->t = bg_tnum_meet(r->t, bg_tnum_range((uint64_t)m.lo, (uint64_t)m.hi), &empty);
		if (empty) {
			r->bot = true;
			return true;
		}
		n = snap_to_tnum(U64, m, r->t);
		if (n.lo == m.lo && n.hi == m.hi)
			break;
		m = n;
	}
	for (int i = 0; i < 4; i++)
		rv_set(r, i, m);
	return true;
}

/* Tighten every component from the others until nothing changes (at most
 * REDUCE_ROUNDS rounds; each round only shrinks components, so stopping
 * early is sound). An empty component makes the whole value bottom. */
void bg_scalar_reduce(struct bg_scalar *a)
{
	struct rv r;

	rv_load(&r, a);
	if (!r.bot && bg_tnum_is_const(r.t)) {
		reduce_const(&r);
	} else if (!reduce_small(&r)) {
		for (int i = 0; i < REDUCE_ROUNDS && !r.bot; i++) {
			r.changed = false;
			reduce_round(&r);
			if (!r.changed)
				break;
		}
	}
	if (r.bot)
		*a = bg_scalar_bottom();
	else
		rv_store(&r, a);
}

/* ---- lattice ----------------------------------------------------------- */

/* Sufficient test: every component of a (reduced first, so a widened value
 * compares by what it stands for) inside b's. */
bool bg_scalar_leq(const struct bg_scalar *a_in, const struct bg_scalar *b)
{
	struct bg_scalar ar = *a_in, *a = &ar;

	bg_scalar_reduce(a);
	if (a->bottom)
		return true;
	if (b->bottom)
		return false;
	for (int i = 0; i < 4; i++) {
		struct iv x = get_iv(a, orders[i]), y = get_iv(b, orders[i]);

		if (x.lo < y.lo || x.hi > y.hi)
			return false;
	}
	return bg_tnum_leq(a->tn, b->tn);
}

bool bg_scalar_eq(const struct bg_scalar *a, const struct bg_scalar *b)
{
	if (a->bottom || b->bottom)
		return a->bottom == b->bottom;
	return same(a, b);
}

/* Hull of each component, then reduced: contains both (not always the least
 * upper bound in the concrete: the union of two intervals is not one). */
struct bg_scalar bg_scalar_join(const struct bg_scalar *a, const struct bg_scalar *b)
{
	struct bg_scalar r;

	if (a->bottom)
		return *b;
	if (b->bottom)
		return *a;
	r = *a;
	for (int i = 0; i < 4; i++)
		set_iv(&r, orders[i], iv_hull(get_iv(a, orders[i]), get_iv(b, orders[i])));
	r.tn = bg_tnum_join(a->tn, b->tn);
	bg_scalar_reduce(&r);
	return r;
}

/* Intersection of each component, then reduced (bottom when empty): exact
 * in the sense that every common member is kept. */
struct bg_scalar bg_scalar_meet(const struct bg_scalar *a, const struct bg_scalar *b)
{
	struct bg_scalar r;
	bool empty = false;

	if (a->bottom || b->bottom)
		return bg_scalar_bottom();
	r = *a;
	for (int i = 0; i < 4; i++)
		meet_iv(&r, orders[i], get_iv(b, orders[i]));
	r.tn = bg_tnum_meet(a->tn, b->tn, &empty);
	if (empty)
		r.bottom = true;
	bg_scalar_reduce(&r);
	return r;
}

/* Least threshold >= x in order o (thresholds not representable in o are
 * skipped), else the order's maximum. */
static i128 thr_above(int o, i128 x, const uint64_t *thr, unsigned n)
{
	i128 best = omax(o);

	for (unsigned i = 0; i < n; i++) {
		i128 t = osigned(o) ? (i128)(int64_t)thr[i] : (i128)thr[i];

		if (t >= x && t < best && t >= omin(o))
			best = t;
	}
	return best;
}

static i128 thr_below(int o, i128 x, const uint64_t *thr, unsigned n)
{
	i128 best = omin(o);

	for (unsigned i = 0; i < n; i++) {
		i128 t = osigned(o) ? (i128)(int64_t)thr[i] : (i128)thr[i];

		if (t <= x && t > best && t <= omax(o))
			best = t;
	}
	return best;
}

/* Bounds that grew jump to the next threshold or the extreme; the tnum is
 * joined (finite height). Not reduced afterwards: reduction could undo a
 * jump and break termination; each component is still sound on its own. */
struct bg_scalar bg_scalar_widen(const struct bg_scalar *old, const struct bg_scalar *next,
				 const uint64_t *thresholds, unsigned nthr)
{
	struct bg_scalar r;

	if (old->bottom)
		return *next;
	if (next->bottom)
		return *old;
	r = *old;
	for (int i = 0; i < 4; i++) {
		int o = orders[i];
		struct iv a = get_iv(old, o), b = get_iv(next, o);

		if (b.lo < a.lo)
			a.lo = thr_below(o, b.lo, thresholds, nthr);
		if (b.hi > a.hi)
			a.hi = thr_above(o, b.hi, thresholds, nthr);
		set_iv(&r, o, a);
	}
	r.tn = bg_tnum_join(old->tn, next->tn);
	return r;
}

/* Standard interval narrowing: only bounds of old at the type's extreme are
 * replaced by next's; the tnum is met (finite height). Terminates. */
struct bg_scalar bg_scalar_narrow(const struct bg_scalar *old, const struct bg_scalar *next)
{
	struct bg_scalar r;
	bool empty = false;

	if (old->bottom || next->bottom)
		return bg_scalar_bottom();
	r = *old;
	for (int i = 0; i < 4; i++) {
		int o = orders[i];
		struct iv a = get_iv(old, o), b = get_iv(next, o);

		if (a.lo == omin(o))
			a.lo = b.lo;
		if (a.hi == omax(o))
			a.hi = b.hi;
		set_iv(&r, o, a);
	}
	r.tn = bg_tnum_meet(old->tn, next->tn, &empty);
	if (empty || r.bottom)
		return bg_scalar_bottom();
	return r;
}

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
			q = iv_make(a.lo < 0 ? imax(a.lo, 1 - big) : 0, a.hi > 0 ? imin(a.hi, big - 1) : 0);
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

	return (struct comp){iv_wrap(w, a.u.lo * f, a.u.hi * f), iv_wrap(w | SGN, a.s.lo * f, a.s.hi * f),
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

struct bg_scalar bg_scalar_alu(uint8_t op, bool alu64, bool is_signed, uint8_t ext_bits,
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
struct bg_scalar bg_scalar_cast(const struct bg_scalar *a, uint8_t bytes, bool sign_extend)
{
	unsigned w = bytes * 8;
	int tgt = sign_extend ? (int)(w | SGN) : (int)w;
	struct bg_scalar r = bg_scalar_unknown();
	struct iv v = iv_full(tgt);

	if (a->bottom || bytes >= 8)
		return *a;
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

struct bg_scalar bg_scalar_end(const struct bg_scalar *a, uint8_t width, bool swap)
{
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
	struct bg_scalar u = bg_scalar_unknown();

	return bg_scalar_cast(&u, bytes, sign_extend);
}

/* ---- branch refinement --------------------------------------------------- */

#define JSET_NOT 0xf0 /* internal: (dst & src) == 0 */

/* The jump op whose taken edge is the fall-through of op. */
static uint8_t negate_jmp(uint8_t op)
{
	switch (op) {
	case BG_JMP_JEQ: return BG_JMP_JNE;
	case BG_JMP_JNE: return BG_JMP_JEQ;
	case BG_JMP_JGT: return BG_JMP_JLE;
	case BG_JMP_JLE: return BG_JMP_JGT;
	case BG_JMP_JGE: return BG_JMP_JLT;
	case BG_JMP_JLT: return BG_JMP_JGE;
	case BG_JMP_JSGT: return BG_JMP_JSLE;
	case BG_JMP_JSLE: return BG_JMP_JSGT;
	case BG_JMP_JSGE: return BG_JMP_JSLT;
	case BG_JMP_JSLT: return BG_JMP_JSGE;
	case BG_JMP_JSET: return JSET_NOT;
	default: return op;
	}
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
	case BG_JMP_JEQ: refine_eq(w, a, b); break;
	case BG_JMP_JNE: refine_ne_one(w, a, b), refine_ne_one(w, b, a); break;
	case BG_JMP_JGT: refine_lt(u, b, a, true); break;
	case BG_JMP_JGE: refine_lt(u, b, a, false); break;
	case BG_JMP_JLT: refine_lt(u, a, b, true); break;
	case BG_JMP_JLE: refine_lt(u, a, b, false); break;
	case BG_JMP_JSGT: refine_lt(s, b, a, true); break;
	case BG_JMP_JSGE: refine_lt(s, b, a, false); break;
	case BG_JMP_JSLT: refine_lt(s, a, b, true); break;
	case BG_JMP_JSLE: refine_lt(s, a, b, false); break;
	case BG_JMP_JSET: refine_jset(w, a, b); break;
	case JSET_NOT: refine_jset_not(w, a, b); break;
	default: break;
	}
}

bool bg_scalar_refine(uint8_t jmp_op, bool alu64, bool taken, struct bg_scalar *dst,
		      struct bg_scalar *src)
{
	uint8_t op = taken ? jmp_op : negate_jmp(jmp_op);

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
int bg_scalar_cmp(uint8_t jmp_op, bool alu64, const struct bg_scalar *dst, const struct bg_scalar *src)
{
	struct bg_scalar a = *dst, b = *src;

	if (!bg_scalar_refine(jmp_op, alu64, true, &a, &b))
		return 0;
	a = *dst, b = *src;
	if (!bg_scalar_refine(jmp_op, alu64, false, &a, &b))
		return 1;
	return -1;
}

/* ---- printing ---------------------------------------------------------- */

static int fmt_num(char *buf, unsigned sz, int64_t v)
{
	if (v >= -(1LL << 31) && v < (1LL << 32))
		return snprintf(buf, sz, "%lld", (long long)v);
	return snprintf(buf, sz, "%#llx", (unsigned long long)v);
}

struct fmt_buf {
	char *p;
	unsigned sz, len;
	bool sep;
};

/* Short forms for constants and plain ranges, else the kernel's bound list. */
int bg_scalar_fmt(const struct bg_scalar *a, char *buf, unsigned sz)
{
	struct bg_scalar plain;
	uint64_t v;
	int n;

	if (sz)
		buf[0] = 0;
	if (a->bottom)
		return snprintf(buf, sz, "bottom");
	if (bg_scalar_is_const(a, &v))
		return fmt_num(buf, sz, (int64_t)v);
	plain = bg_scalar_unknown();
	if (bg_scalar_eq(&plain, a))
		return snprintf(buf, sz, "unknown");
	plain = bg_scalar_urange(a->umin, a->umax);
	if (bg_scalar_eq(&plain, a))
		return snprintf(buf, sz, "[%llu,%llu]", (unsigned long long)a->umin,
				(unsigned long long)a->umax);
	plain = bg_scalar_srange(a->smin, a->smax);
	if (bg_scalar_eq(&plain, a))
		return snprintf(buf, sz, "[%lld,%lld]", (long long)a->smin, (long long)a->smax);
	n = bg_scalar_fmt_kernel(a, buf, sz);
	if (n >= 8 && sz > (unsigned)n) { /* drop the "scalar(" ... ")" wrapper */
		memmove(buf, buf + 7, n - 7);
		buf[n - 8] = 0;
		n -= 8;
	}
	return n;
}

/* ---- kernel profile ------------------------------------------------------ */

/* The low w bits of s are one known value. */
static bool const_in(const struct bg_scalar *s, unsigned w, uint64_t *v)
{
	struct bg_tnum t = tn_low(s->tn, w);

	*v = t.value;
	return !s->bottom && !t.mask;
}

/* Where the 6.18 verifier does not track an ALU result (division and modulo
 * always, shifts unless by a constant below the width) the result is an
 * unknown 64-bit scalar, even for 32-bit ops (the kernel does not zero-extend
 * it); elsewhere the precise transfer function. */
struct bg_scalar bg_scalar_alu_kernel(uint8_t op, bool alu64, bool is_signed, uint8_t ext_bits,
				      const struct bg_scalar *dst, const struct bg_scalar *src)
{
	unsigned w = alu64 ? 64 : 32;
	bool untracked = op == BG_ALU_DIV || op == BG_ALU_MOD;
	struct bg_scalar r = bg_scalar_unknown();
	uint64_t k;

	if (op == BG_ALU_LSH || op == BG_ALU_RSH || op == BG_ALU_ARSH)
		untracked = !const_in(src, w, &k) || src->umax >= w;
	if (!untracked || dst->bottom || src->bottom)
		return bg_scalar_alu(op, alu64, is_signed, ext_bits, dst, src);
	return r;
}

/* The kernel's JSET: decided and refined only against a constant operand
 * (taken: a single-bit constant sets that bit; not taken: the constant's
 * bits are cleared; no "non-zero" facts); other jumps as bg_scalar_refine.
 * The kernel sometimes also drops the refined register's intervals here; that
 * is not reproduced (this profile stays at least as precise as the kernel). */
bool bg_scalar_refine_kernel(uint8_t jmp_op, bool alu64, bool taken, struct bg_scalar *dst,
			     struct bg_scalar *src)
{
	unsigned w = alu64 ? 64 : 32;
	struct bg_scalar *o = dst;
	uint64_t c, known, possible;

	if (jmp_op != BG_JMP_JSET)
		return bg_scalar_refine(jmp_op, alu64, taken, dst, src);
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

/* ---- the kernel's log format ------------------------------------------------ */

/* The kernel prints small numbers (|v| < 2^15) in decimal, others in hex of
 * their bit pattern at the field's width (32 or 64). */
static void put_num(struct fmt_buf *f, bool is_signed, uint64_t v, unsigned width)
{
	unsigned room = f->len < f->sz ? f->sz - f->len : 0;
	int64_t sv = (int64_t)v;
	bool dec = is_signed ? sv >= -32768 && sv <= 32767 : v <= 32767;
	int n;

	if (!dec && width == 32)
		v = (uint32_t)v;
	n = snprintf(f->p + (room ? f->len : 0), room, dec ? (is_signed ? "%lld" : "%llu") : "%#llx",
		     (unsigned long long)v);
	f->len += n > 0 ? n : 0;
}

static void put_str(struct fmt_buf *f, const char *s)
{
	unsigned room = f->len < f->sz ? f->sz - f->len : 0;
	int n = snprintf(f->p + (room ? f->len : 0), room, "%s", s);

	f->len += n > 0 ? n : 0;
}

/* The eight bounds in the kernel's order; a bound at its type's extreme is
 * omitted, and a later bound of the same kind (min with min, max with max)
 * that prints the same number with the same sign is listed with it:
 * "smin=smin32=0". (Sign: a negative 64-bit signed bound, or a 32-bit one
 * printed with a minus; measured against the kernel's log.) */
static void put_bounds(struct fmt_buf *f, const struct bg_scalar *a)
{
	struct {
		const char *name;
		uint64_t v;
		bool omit;
		char text[24];
	} b[8] = {
		{"smin", (uint64_t)a->smin, a->smin == INT64_MIN, ""},
		{"smax", (uint64_t)a->smax, a->smax == INT64_MAX, ""},
		{"umin", a->umin, a->umin == 0, ""},
		{"umax", a->umax, a->umax == UINT64_MAX, ""},
		{"smin32", (uint64_t)(int64_t)a->s32min, a->s32min == INT32_MIN, ""},
		{"smax32", (uint64_t)(int64_t)a->s32max, a->s32max == INT32_MAX, ""},
		{"umin32", a->u32min, a->u32min == 0, ""},
		{"umax32", a->u32max, a->u32max == UINT32_MAX, ""},
	};
	bool neg[8];

	for (int i = 0; i < 8; i++) {
		struct fmt_buf t = {b[i].text, sizeof(b[i].text), 0, false};

		put_num(&t, b[i].name[0] == 's', b[i].v, i >= 4 ? 32 : 64);
		neg[i] = b[i].name[0] == 's' && (i < 4 ? (int64_t)b[i].v < 0 : b[i].text[0] == '-');
	}
	for (int i = 0; i < 8; i++) {
		if (b[i].omit)
			continue;
		put_str(f, f->sep ? "," : "");
		f->sep = true;
		put_str(f, b[i].name);
		put_str(f, "=");
		for (int j = i + 2; j < 8; j += 2) {
			if (!b[j].omit && neg[i] == neg[j] && !strcmp(b[i].text, b[j].text)) {
				put_str(f, b[j].name);
				put_str(f, "=");
				b[j].omit = true;
			}
		}
		put_str(f, b[i].text);
	}
}

/* As the kernel's verifier log prints a scalar register's value: a constant
 * as a number, else "scalar(" bounds ",var_off=(v; m))". */
int bg_scalar_fmt_kernel(const struct bg_scalar *a, char *buf, unsigned sz)
{
	struct fmt_buf f = {buf, sz, 0, false};
	char t[48];

	if (sz)
		buf[0] = 0;
	if (a->bottom)
		return snprintf(buf, sz, "bottom");
	if (bg_tnum_is_const(a->tn)) {
		put_num(&f, true, a->tn.value, 64);
		return (int)f.len;
	}
	put_str(&f, "scalar(");
	put_bounds(&f, a);
	if (~a->tn.mask) {
		bg_tnum_fmt(a->tn, t, sizeof(t));
		put_str(&f, f.sep ? ",var_off=" : "var_off=");
		put_str(&f, t);
	}
	put_str(&f, ")");
	return (int)f.len;
}
