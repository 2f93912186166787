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
 * Files: this one (constructors, reduction, lattice), scalar_alu.c,
 * scalar_branch.c, scalar_fmt.c; shared internals in scalar_impl.h. */
#include <stdio.h>
#include <string.h>
#include <bpfgate/insn.h>
#include "domain/scalar.h"
#include "domain/scalar_impl.h"

#define REDUCE_ROUNDS 6

/* ---- constructors ---------------------------------------------------- */

struct bg_scalar bg_scalar_unknown(void)
{
	/* every component full, written out (made on every load and call) */
	struct bg_scalar s = BG_SCALAR_UNKNOWN_INIT;
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
	/* the reduced form, built directly (constants are made on every step) */
	struct bg_scalar s = {0};

	s.umin = s.umax = v;
	s.smin = s.smax = (int64_t)v;
	s.u32min = s.u32max = (uint32_t)v;
	s.s32min = s.s32max = (int32_t)(uint32_t)v;
	s.tn = bg_tnum_const(v);
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
	r->t.value &= ~r->t.mask;
	r->bot = s->bottom;
	r->changed = false;
	for (int i = 0; i < 4; i++)
		r->bot |= iv_empty(r->v[i]);
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
		p[n++] =
		    iv_make(sg.lo < 0 ? sg.lo + size : sg.lo, sg.hi < 0 ? sg.hi + size : sg.hi);
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

/* Fast path: when the tnum knows the upper half (H), the 64-bit intervals
 * are the low half's u32 interval shifted by H << 32 (all orders agree on a
 * fixed upper half); only the 32-bit components need reducing. */
static bool reduce_high_known(struct rv *r)
{
	uint64_t hi = r->t.value & ~(uint64_t)UINT32_MAX;
	struct iv lo32 = iv_make(0, UINT32_MAX);
	i128 base[2] = {hi, oval(S64, hi)};

	if (r->t.mask >> 32)
		return false;
	for (int i = IU64; i <= IS64; i++) /* the 64-bit bounds, as low halves */
		lo32 = iv_meet(lo32, iv_make(r->v[i].lo - base[i], r->v[i].hi - base[i]));
	rv_set(r, IU32, iv_meet(r->v[IU32], lo32));
	for (int k = 0; k < REDUCE_ROUNDS && !r->bot; k++) {
		r->changed = false;
		reduce_tnum(r);
		if (!r->bot)
			sync_us(r, IU32, IS32, 32);
		if (!r->changed)
			break;
	}
	if (r->bot)
		return true;
	r->v[IU64] = iv_make(base[0] + r->v[IU32].lo, base[0] + r->v[IU32].hi);
	r->v[IS64] = iv_make(base[1] + r->v[IU32].lo, base[1] + r->v[IU32].hi);
	return true;
}

/* The reduction is memoized (scalar_impl.h: memo tables): pyperf180 reduces
 * 165k values, 99.8% of them an input seen before, at ~2,500 instructions
 * each when the rounds run. */
#define REDUCE_MEMO 1024

struct reduce_memo {
	struct bg_scalar in, out;
	bool used;
};

static __thread struct reduce_memo reduce_memo[REDUCE_MEMO];

static void reduce_rounds(struct bg_scalar *a);

/* Tighten every component from the others until nothing changes (at most
 * REDUCE_ROUNDS rounds; each round only shrinks components, so stopping
 * early is sound). An empty component makes the whole value bottom. */
void bg_scalar_reduce(struct bg_scalar *a)
{
	struct reduce_memo *m = &reduce_memo[memo_slot(scalar_hash(a, 0), REDUCE_MEMO)];

	if (m->used && scalar_fields_eq(&m->in, a)) {
		*a = m->out;
		return;
	}
	m->in = *a;
	reduce_rounds(a);
	m->out = *a;
	m->used = true;
}

static void reduce_rounds(struct bg_scalar *a)
{
	struct rv r;

	rv_load(&r, a);
	if (!r.bot && bg_tnum_is_const(r.t)) {
		reduce_const(&r);
	} else if (!reduce_small(&r) && !reduce_high_known(&r)) {
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
/* Every component of a inside b's, a as stored. */
static bool leq_raw(const struct bg_scalar *a, const struct bg_scalar *b)
{
	return a->umin >= b->umin && a->umax <= b->umax && a->smin >= b->smin && a->smax <= b->smax &&
	       a->u32min >= b->u32min && a->u32max <= b->u32max && a->s32min >= b->s32min &&
	       a->s32max <= b->s32max && bg_tnum_leq(a->tn, b->tn);
}

bool bg_scalar_leq(const struct bg_scalar *a_in, const struct bg_scalar *b)
{
	struct bg_scalar ar = *a_in, *a = &ar;

	/* reducing a only shrinks its components: inside b as stored is enough */
	if (!a_in->bottom && !b->bottom && leq_raw(a_in, b))
		return true;
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
	return scalar_fields_eq(a, b);
}

/* Hull of each component, then reduced: contains both (not always the least
 * upper bound in the concrete: the union of two intervals is not one). */
struct bg_scalar bg_scalar_join(const struct bg_scalar *a_in, const struct bg_scalar *b_in)
{
	/* the same value on both sides (most joins at a fixpoint): itself, as
	 * reduced as it was made (every value is made reduced) */
	if (scalar_fields_eq(a_in, b_in) && scalar_wellformed(a_in))
		return *a_in;
	struct bg_scalar an = scalar_norm(a_in), bn = scalar_norm(b_in), *a = &an, *b = &bn, r;

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
struct bg_scalar bg_scalar_meet(const struct bg_scalar *a_in, const struct bg_scalar *b_in)
{
	struct bg_scalar an = scalar_norm(a_in), bn = scalar_norm(b_in), *a = &an, *b = &bn, r;
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

/* The thresholds (sorted as unsigned 64-bit values) in order o's ascending
 * sequence: an unsigned order reads them as they are; a signed one as int64,
 * which starts at the negatives (sorted last as unsigned values). */
static i128 thr_at(int o, const uint64_t *thr, unsigned n, unsigned neg, unsigned j)
{
	if (!osigned(o))
		return (i128)thr[j];
	return (i128)(int64_t)thr[(neg + j) % n];
}

/* Index of the first threshold with the sign bit set (n: none). */
static unsigned thr_neg(const uint64_t *thr, unsigned n)
{
	unsigned lo = 0, hi = n;
	while (lo < hi) {
		unsigned m = lo + (hi - lo) / 2;
		if (thr[m] >> 63)
			hi = m;
		else
			lo = m + 1;
	}
	return lo;
}

/* Number of thresholds whose value in order o is <= x (strict: < x): a
 * binary search over thr_at's ascending sequence. */
static unsigned thr_count(int o, const uint64_t *thr, unsigned n, unsigned neg, i128 x, bool strict)
{
	unsigned lo = 0, hi = n;
	while (lo < hi) {
		unsigned m = lo + (hi - lo) / 2;
		i128 t = thr_at(o, thr, n, neg, m);
		if (strict ? t < x : t <= x)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* Least threshold >= x in order o (thresholds not representable in o are
 * skipped), else the order's maximum. O(log n). */
static i128 thr_above(int o, i128 x, const uint64_t *thr, unsigned n)
{
	if (!thr || !n)
		return omax(o);
	unsigned neg = thr_neg(thr, n), j = thr_count(o, thr, n, neg, x, true);
	if (j == n)
		return omax(o);
	i128 t = thr_at(o, thr, n, neg, j);
	return t < omax(o) ? t : omax(o);
}

/* Greatest threshold <= x in order o, else the order's minimum. */
static i128 thr_below(int o, i128 x, const uint64_t *thr, unsigned n)
{
	if (!thr || !n)
		return omin(o);
	unsigned neg = thr_neg(thr, n), j = thr_count(o, thr, n, neg, x, false);
	if (j == 0)
		return omin(o);
	i128 t = thr_at(o, thr, n, neg, j - 1);
	return t > omin(o) ? t : omin(o);
}

/* When bits of the tnum became unknown, every bit from the lowest of them
 * up (to bit 31 if the upper half is still known, else 63) becomes unknown:
 * a growing value would otherwise lose one bit per iteration. Low known
 * bits (alignment) and a known upper half are kept. */
static struct bg_tnum widen_tnum(struct bg_tnum old, struct bg_tnum j)
{
	uint64_t grown = j.mask & ~old.mask, up;

	if (!grown)
		return j;
	up = wmask((j.mask >> 32) ? 64 : 32) & ~((grown & -grown) - 1);
	return (struct bg_tnum){j.value & ~up, j.mask | up};
}

/* Bounds that grew jump to the next threshold or the extreme; the tnum as
 * widen_tnum says. Not reduced afterwards: reduction could undo a
 * jump and break termination; each component is still sound on its own. */
struct bg_scalar bg_scalar_widen(const struct bg_scalar *old_in, const struct bg_scalar *next_in,
				 const uint64_t *thresholds, unsigned nthr)
{
	/* nothing grew (most registers at a widening head): the value itself */
	if (scalar_fields_eq(old_in, next_in) && scalar_wellformed(old_in))
		return *old_in;
	struct bg_scalar on = scalar_norm(old_in), nn = scalar_norm(next_in), *old = &on,
			 *next = &nn, r;

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
	r.tn = widen_tnum(old->tn, bg_tnum_join(old->tn, next->tn));
	return r;
}

/* Standard interval narrowing: only bounds of old at the type's extreme are
 * replaced by next's; the tnum is met (finite height). Terminates. */
struct bg_scalar bg_scalar_narrow(const struct bg_scalar *old_in, const struct bg_scalar *next_in)
{
	struct bg_scalar on = scalar_norm(old_in), nn = scalar_norm(next_in), *old = &on,
			 *next = &nn, r;
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
