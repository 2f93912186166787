/* Tristate numbers ("known bits"): value holds the known bit values, mask the
 * unknown bits; invariant value & mask == 0. A tnum stands for every x with
 * (x & ~mask) == value. All operations over-approximate: the result contains
 * op(a, b) for every a in A, b in B. Pure value module, no allocation. */
#ifndef BG_DOMAIN_TNUM_H
#define BG_DOMAIN_TNUM_H
#include <stdbool.h>
#include <stdint.h>

struct bg_tnum {
	uint64_t value, mask;
};

struct bg_tnum bg_tnum_const(uint64_t v);
struct bg_tnum bg_tnum_unknown(void);
struct bg_tnum bg_tnum_range(uint64_t min, uint64_t max); /* smallest tnum holding [min,max] */
bool bg_tnum_is_const(struct bg_tnum a);
bool bg_tnum_contains(struct bg_tnum a, uint64_t x);
bool bg_tnum_leq(struct bg_tnum a, struct bg_tnum b);       /* gamma(a) subset of gamma(b) */
struct bg_tnum bg_tnum_join(struct bg_tnum a, struct bg_tnum b);   /* union hull */
struct bg_tnum bg_tnum_meet(struct bg_tnum a, struct bg_tnum b, bool *empty); /* intersection */
struct bg_tnum bg_tnum_add(struct bg_tnum a, struct bg_tnum b);
struct bg_tnum bg_tnum_sub(struct bg_tnum a, struct bg_tnum b);
struct bg_tnum bg_tnum_mul(struct bg_tnum a, struct bg_tnum b);
struct bg_tnum bg_tnum_and(struct bg_tnum a, struct bg_tnum b);
struct bg_tnum bg_tnum_or(struct bg_tnum a, struct bg_tnum b);
struct bg_tnum bg_tnum_xor(struct bg_tnum a, struct bg_tnum b);
struct bg_tnum bg_tnum_lsh(struct bg_tnum a, uint8_t shift);
struct bg_tnum bg_tnum_rsh(struct bg_tnum a, uint8_t shift);
struct bg_tnum bg_tnum_arsh(struct bg_tnum a, uint8_t shift, uint8_t width); /* width 32 or 64 */
struct bg_tnum bg_tnum_subreg(struct bg_tnum a);               /* low 32 bits, zero-extended */
struct bg_tnum bg_tnum_cast(struct bg_tnum a, uint8_t bytes);  /* truncate to 1/2/4/8 bytes */
int bg_tnum_fmt(struct bg_tnum a, char *buf, unsigned sz);     /* "(0x0; 0xff)" */
/* Added by the domain module (all exact unless stated in tnum.c). */
bool bg_tnum_eq(struct bg_tnum a, struct bg_tnum b);
struct bg_tnum bg_tnum_neg(struct bg_tnum a);
struct bg_tnum bg_tnum_sext(struct bg_tnum a, uint8_t bytes);   /* sign-extend low 1/2/4 bytes */
struct bg_tnum bg_tnum_concat(struct bg_tnum hi, struct bg_tnum lo); /* upper half of hi, low of lo */
struct bg_tnum bg_tnum_bswap(struct bg_tnum a, uint8_t width);  /* 16/32/64, zero-extended */
bool bg_tnum_next_ge(struct bg_tnum a, uint64_t x, uint64_t *out); /* min member >= x */
bool bg_tnum_prev_le(struct bg_tnum a, uint64_t x, uint64_t *out); /* max member <= x */
#endif
