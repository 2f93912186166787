/* Internals shared by the scalar domain's files (scalar.c: constructors,
 * reduction, lattice; scalar_alu.c: ALU transfer functions; scalar_branch.c:
 * branch refinement; scalar_fmt.c: printing). Not a contract: include only
 * from src/domain/scalar*.c.
 * An "order" names a view of the bits: width (8..64) and signedness (SGN);
 * struct iv is an interval in an order, as exact integers (__int128). */
#ifndef BG_DOMAIN_SCALAR_IMPL_H
#define BG_DOMAIN_SCALAR_IMPL_H
#include <stdint.h>
#include "domain/scalar.h"

typedef __int128 i128;

#define SGN 0x100
#define U64 64
#define S64 (64 | SGN)
#define U32 32
#define S32 (32 | SGN)

struct iv {
	i128 lo, hi;
};

static inline unsigned ow(int o)
{
	return o & 0xff;
}

static inline bool osigned(int o)
{
	return o & SGN;
}

static inline i128 omin(int o)
{
	return osigned(o) ? -((i128)1 << (ow(o) - 1)) : 0;
}

static inline i128 omax(int o)
{
	return osigned(o) ? ((i128)1 << (ow(o) - 1)) - 1 : ((i128)1 << ow(o)) - 1;
}

static inline uint64_t wmask(unsigned w)
{
	return w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
}

/* The low ow(o) bits of x read in order o. */
static inline i128 oval(int o, uint64_t x)
{
	unsigned w = ow(o);

	x &= wmask(w);
	if (osigned(o) && ((x >> (w - 1)) & 1))
		return (i128)x - ((i128)1 << w);
	return x;
}

static inline struct iv iv_full(int o)
{
	return (struct iv){omin(o), omax(o)};
}

static inline struct iv iv_make(i128 lo, i128 hi)
{
	return (struct iv){lo, hi};
}

static inline bool iv_empty(struct iv a)
{
	return a.lo > a.hi;
}

static inline i128 imax(i128 a, i128 b)
{
	return a > b ? a : b;
}

static inline i128 imin(i128 a, i128 b)
{
	return a < b ? a : b;
}

static inline struct iv iv_meet(struct iv a, struct iv b)
{
	return iv_make(imax(a.lo, b.lo), imin(a.hi, b.hi));
}

static inline struct iv iv_hull(struct iv a, struct iv b)
{
	return iv_make(imin(a.lo, b.lo), imax(a.hi, b.hi));
}

/* Exact integer interval [lo,hi] reduced modulo 2^w into order o: exact when
 * every member lies in the same window of 2^w values, else the full range. */
static inline struct iv iv_wrap(int o, i128 lo, i128 hi)
{
	unsigned w = ow(o);
	i128 base = omin(o), k1 = (lo - base) >> w, k2 = (hi - base) >> w; /* floor division */

	if (k1 != k2)
		return iv_full(o);
	return iv_make(lo - k1 * ((i128)1 << w), hi - k1 * ((i128)1 << w));
}

static inline struct iv get_iv(const struct bg_scalar *s, int o)
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
static inline void set_iv(struct bg_scalar *s, int o, struct iv v)
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

static inline void meet_iv(struct bg_scalar *s, int o, struct iv v)
{
	set_iv(s, o, iv_meet(get_iv(s, o), v));
}

static const int orders[4] = {U64, S64, U32, S32};

/* tnum restricted to the low w bits, as a w-bit tnum. */
static inline struct bg_tnum tn_low(struct bg_tnum t, unsigned w)
{
	return (struct bg_tnum){t.value & wmask(w), t.mask & wmask(w)};
}

/* The low w bits of s are one known value. */
static inline bool const_in(const struct bg_scalar *s, unsigned w, uint64_t *v)
{
	struct bg_tnum t = tn_low(s->tn, w);

	*v = t.value;
	return !s->bottom && !t.mask;
}
/* Every field equal (the same representation, not only the same values). */
static inline bool scalar_fields_eq(const struct bg_scalar *a, const struct bg_scalar *b)
{
	return a->umin == b->umin && a->umax == b->umax && a->smin == b->smin && a->smax == b->smax &&
	       a->u32min == b->u32min && a->u32max == b->u32max && a->s32min == b->s32min &&
	       a->s32max == b->s32max && a->tn.value == b->tn.value && a->tn.mask == b->tn.mask &&
	       a->bottom == b->bottom;
}

/* Memo tables of pure operations (bg_scalar_reduce, the kernel profile's ALU
 * and branch transfer, loads): the result of an operation is a function of
 * its inputs' fields, and an analysis repeats the same few hundred operations
 * on the same values over and over (an unrolled loop's body). Each table is
 * per thread and direct-mapped: an entry holds the last inputs that hashed
 * to it and their result; a lookup compares every field, so a hit returns
 * exactly what the computation would. */
static inline uint64_t scalar_hash(const struct bg_scalar *a, uint64_t h)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;

	h = (h ^ a->umin) * k;
	h = (h ^ a->umax) * k;
	h = (h ^ (uint64_t)a->smin) * k;
	h = (h ^ (uint64_t)a->smax) * k;
	h = (h ^ ((uint64_t)a->u32min << 32 | a->u32max)) * k;
	h = (h ^ ((uint64_t)(uint32_t)a->s32min << 32 | (uint32_t)a->s32max)) * k;
	h = (h ^ a->tn.value) * k;
	return (h ^ a->tn.mask ^ a->bottom) * k;
}

/* Slot of hash h in a table of n entries (n a power of two <= 2^16). */
static inline unsigned memo_slot(uint64_t h, unsigned n)
{
	return (unsigned)(h >> 48) & (n - 1);
}

/* Inputs built by hand may break the invariants (crossed bounds, value &
 * mask != 0): such a value is reduced first (crossed bounds: bottom). */
static inline bool scalar_wellformed(const struct bg_scalar *a)
{
	return a->bottom || (a->umin <= a->umax && a->smin <= a->smax && a->u32min <= a->u32max &&
			     a->s32min <= a->s32max && !(a->tn.value & a->tn.mask));
}

static inline struct bg_scalar scalar_norm(const struct bg_scalar *a)
{
	struct bg_scalar r = *a;

	if (!scalar_wellformed(a))
		bg_scalar_reduce(&r);
	return r;
}
#endif
