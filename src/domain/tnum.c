/* Tristate numbers ("known bits"). A tnum (value, mask) stands for the set
 * gamma = { x : (x & ~mask) == value }; invariant: value & mask == 0, which
 * every constructor and operation below keeps. Each operation returns a tnum
 * whose gamma contains op(a, b) for all a in gamma(A), b in gamma(B); the
 * comment on each states where it loses precision. Pure, no allocation. */
#include <stdio.h>
#include "domain/tnum.h"

#define TN(v, m) ((struct bg_tnum){.value = (v) & ~(uint64_t)(m), .mask = (m)})

/* Exact: the single value v. */
struct bg_tnum bg_tnum_const(uint64_t v)
{
	return TN(v, 0);
}

/* Exact: every 64-bit value. */
struct bg_tnum bg_tnum_unknown(void)
{
	return TN(0, ~(uint64_t)0);
}

/* Smallest tnum holding [min,max]: the common high prefix is known, every bit
 * below the highest differing bit is unknown. Assumes min <= max. */
struct bg_tnum bg_tnum_range(uint64_t min, uint64_t max)
{
	uint64_t chi = min ^ max, delta;

	if (min > max)
		return bg_tnum_unknown();
	if (!chi)
		return bg_tnum_const(min);
	delta = (~(uint64_t)0) >> __builtin_clzll(chi);
	return TN(min, delta);
}

bool bg_tnum_is_const(struct bg_tnum a)
{
	return a.mask == 0;
}

bool bg_tnum_contains(struct bg_tnum a, uint64_t x)
{
	return (x & ~a.mask) == a.value;
}

bool bg_tnum_eq(struct bg_tnum a, struct bg_tnum b)
{
	return a.value == b.value && a.mask == b.mask;
}

/* Exact inclusion: every unknown bit of a is unknown in b and the bits b
 * knows agree with a's known bits. */
bool bg_tnum_leq(struct bg_tnum a, struct bg_tnum b)
{
	if (a.mask & ~b.mask)
		return false;
	return (a.value & ~b.mask) == b.value;
}

/* Least tnum containing both: bits known and equal in both stay known. */
struct bg_tnum bg_tnum_join(struct bg_tnum a, struct bg_tnum b)
{
	uint64_t mu = a.mask | b.mask | (a.value ^ b.value);

	return TN(a.value, mu);
}

/* Exact intersection; *empty set when the known bits conflict (the returned
 * tnum is then meaningless). */
struct bg_tnum bg_tnum_meet(struct bg_tnum a, struct bg_tnum b, bool *empty)
{
	uint64_t conflict = (a.value ^ b.value) & ~a.mask & ~b.mask;

	if (empty)
		*empty = conflict != 0;
	return TN(a.value | b.value, a.mask & b.mask);
}

/* Sum of the known parts plus the carries the unknown bits may cause: every
 * bit a carry chain may reach is unknown (the kernel's construction). */
struct bg_tnum bg_tnum_add(struct bg_tnum a, struct bg_tnum b)
{
	uint64_t sm = a.mask + b.mask, sv = a.value + b.value;
	uint64_t sigma = sm + sv, chi = sigma ^ sv;
	uint64_t mu = chi | a.mask | b.mask;

	return TN(sv, mu);
}

/* Difference of the known parts; every bit a borrow may reach is unknown. */
struct bg_tnum bg_tnum_sub(struct bg_tnum a, struct bg_tnum b)
{
	uint64_t dv = a.value - b.value;
	uint64_t alpha = dv + a.mask, beta = dv - b.mask;
	uint64_t chi = alpha ^ beta;
	uint64_t mu = chi | a.mask | b.mask;

	return TN(dv, mu);
}

/* Two's complement negation, as 0 - a. */
struct bg_tnum bg_tnum_neg(struct bg_tnum a)
{
	return bg_tnum_sub(bg_tnum_const(0), a);
}

/* Long multiplication with separate known/unknown accumulators: the product
 * of the known parts plus, for each bit of a that is 1 (or unknown), b's
 * unknown (or possible) bits shifted; the carries over-approximate. */
static struct bg_tnum mul_split(struct bg_tnum a, struct bg_tnum b)
{
	uint64_t known = a.value * b.value;
	struct bg_tnum acc = bg_tnum_const(0);

	while (a.value || a.mask) {
		if (a.value & 1)
			acc = bg_tnum_add(acc, TN(0, b.mask));
		else if (a.mask & 1)
			acc = bg_tnum_add(acc, TN(0, b.value | b.mask));
		a = TN(a.value >> 1, a.mask >> 1);
		b = TN(b.value << 1, b.mask << 1);
	}
	return bg_tnum_add(bg_tnum_const(known), acc);
}

/* Long multiplication on whole tnums: a known-1 bit of a adds the shifted b,
 * an unknown bit joins "added" with "not added" (the join is where it loses
 * precision, besides the carries of bg_tnum_add). */
static struct bg_tnum mul_join(struct bg_tnum a, struct bg_tnum b)
{
	struct bg_tnum acc = bg_tnum_const(0);

	while (a.value || a.mask) {
		if (a.value & 1)
			acc = bg_tnum_add(acc, b);
		else if (a.mask & 1)
			acc = bg_tnum_join(acc, bg_tnum_add(acc, b));
		a = TN(a.value >> 1, a.mask >> 1);
		b = TN(b.value << 1, b.mask << 1);
	}
	return acc;
}

/* Both constructions above (each sound) met, in both operand orders: at
 * least as precise as any one of them. */
struct bg_tnum bg_tnum_mul(struct bg_tnum a, struct bg_tnum b)
{
	struct bg_tnum r = mul_split(a, b);

	r = bg_tnum_meet(r, mul_join(a, b), NULL);
	r = bg_tnum_meet(r, mul_join(b, a), NULL);
	return bg_tnum_meet(r, mul_split(b, a), NULL);
}

/* Exact per bit: known 0 in either gives 0, known 1 in both gives 1. */
struct bg_tnum bg_tnum_and(struct bg_tnum a, struct bg_tnum b)
{
	uint64_t alpha = a.value | a.mask, beta = b.value | b.mask;
	uint64_t v = a.value & b.value;

	return TN(v, alpha & beta & ~v);
}

/* Exact per bit: known 1 in either gives 1, known 0 in both gives 0. */
struct bg_tnum bg_tnum_or(struct bg_tnum a, struct bg_tnum b)
{
	uint64_t v = a.value | b.value;

	return TN(v, (a.mask | b.mask) & ~v);
}

/* Exact per bit: known iff known in both. */
struct bg_tnum bg_tnum_xor(struct bg_tnum a, struct bg_tnum b)
{
	uint64_t mu = a.mask | b.mask;

	return TN(a.value ^ b.value, mu);
}

/* Exact: shifted-in bits are known 0. shift is taken mod 64. */
struct bg_tnum bg_tnum_lsh(struct bg_tnum a, uint8_t shift)
{
	shift &= 63;
	return TN(a.value << shift, a.mask << shift);
}

/* Exact: shifted-in bits are known 0. shift is taken mod 64. */
struct bg_tnum bg_tnum_rsh(struct bg_tnum a, uint8_t shift)
{
	shift &= 63;
	return TN(a.value >> shift, a.mask >> shift);
}

/* Exact: shifted-in bits copy the sign bit (bit width-1), known or not; with
 * width 32 the operation is on the low half and the result zero-extended. */
struct bg_tnum bg_tnum_arsh(struct bg_tnum a, uint8_t shift, uint8_t width)
{
	if (width == 32) {
		int32_t v = (int32_t)(uint32_t)a.value, m = (int32_t)(uint32_t)a.mask;

		shift &= 31;
		return TN((uint32_t)(v >> shift), (uint32_t)(m >> shift));
	}
	shift &= 63;
	return TN((uint64_t)((int64_t)a.value >> shift), (uint64_t)((int64_t)a.mask >> shift));
}

/* Exact: bytes 1/2/4/8; higher bits become known 0. */
struct bg_tnum bg_tnum_cast(struct bg_tnum a, uint8_t bytes)
{
	uint64_t keep = bytes >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * bytes)) - 1;

	return TN(a.value & keep, a.mask & keep);
}

/* Exact: the low 32 bits, zero-extended. */
struct bg_tnum bg_tnum_subreg(struct bg_tnum a)
{
	return bg_tnum_cast(a, 4);
}

/* Exact: sign-extend the low `bytes` bytes (the sign bit may be unknown: then
 * every higher bit is unknown). */
struct bg_tnum bg_tnum_sext(struct bg_tnum a, uint8_t bytes)
{
	unsigned sh;

	if (bytes >= 8)
		return a;
	sh = 64 - 8 * bytes;
	return TN((uint64_t)((int64_t)(a.value << sh) >> sh),
		  (uint64_t)((int64_t)(a.mask << sh) >> sh));
}

/* Exact: the upper 32 bits of hi and the lower 32 bits of lo. */
struct bg_tnum bg_tnum_concat(struct bg_tnum hi, struct bg_tnum lo)
{
	uint64_t h = ~(uint64_t)0 << 32;

	return TN((hi.value & h) | (lo.value & ~h), (hi.mask & h) | (lo.mask & ~h));
}

static uint64_t bswap_bits(uint64_t x, uint8_t width)
{
	if (width == 16)
		return __builtin_bswap16((uint16_t)x);
	if (width == 32)
		return __builtin_bswap32((uint32_t)x);
	return __builtin_bswap64(x);
}

/* Exact: byte-reverse the low width (16/32/64) bits, zero-extended. */
struct bg_tnum bg_tnum_bswap(struct bg_tnum a, uint8_t width)
{
	return TN(bswap_bits(a.value, width), bswap_bits(a.mask, width));
}

/* Smallest member of a that is >= x, if any (exact). */
bool bg_tnum_next_ge(struct bg_tnum a, uint64_t x, uint64_t *out)
{
	uint64_t conflict = (x & ~a.mask) ^ a.value, below, free;
	int i;

	if (!conflict) {
		*out = x;
		return true;
	}
	i = 63 - __builtin_clzll(conflict);
	below = ((uint64_t)1 << i) - 1;
	if (a.value & ((uint64_t)1 << i)) { /* a needs a 1 where x has 0 */
		*out = (x & ~below & ~((uint64_t)1 << i)) | ((uint64_t)1 << i) | (a.value & below);
		return true;
	}
	/* a needs a 0 where x has 1: raise the prefix at the lowest free 0 bit */
	free = a.mask & ~x & ~(below | ((uint64_t)1 << i));
	if (!free)
		return false;
	i = __builtin_ctzll(free);
	below = ((uint64_t)1 << i) - 1;
	*out = (x & ~below) | ((uint64_t)1 << i);
	*out = (*out & ~below) | (a.value & below);
	return true;
}

/* Largest member of a that is <= x, if any (exact). */
bool bg_tnum_prev_le(struct bg_tnum a, uint64_t x, uint64_t *out)
{
	struct bg_tnum na = TN(~a.value & ~a.mask, a.mask);
	uint64_t r;

	/* mirror: y <= x  <=>  ~y >= ~x, and ~y is a member of the complemented tnum */
	if (!bg_tnum_next_ge(na, ~x, &r))
		return false;
	*out = ~r;
	return true;
}

int bg_tnum_fmt(struct bg_tnum a, char *buf, unsigned sz)
{
	return snprintf(buf, sz, "(0x%llx; 0x%llx)", (unsigned long long)a.value,
			(unsigned long long)a.mask);
}
