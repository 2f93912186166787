/* Scalar value domain: the reduced product of unsigned and signed 64-bit
 * intervals, unsigned and signed 32-bit intervals (of the low half) and a
 * tnum. After every operation bg_scalar_reduce() tightens each component
 * from the others (as the kernel's reg_bounds_sync does), so any component
 * can be read directly. Bottom (no value) is represented by .bottom = true.
 * Every transfer function over-approximates: for all concrete a in A, b in B,
 * op(a, b) is in the result, with op's RFC 9669 semantics (see src/isa/exec.h).
 * Pure value module: structs by value, no allocation. */
#ifndef BG_DOMAIN_SCALAR_H
#define BG_DOMAIN_SCALAR_H
#include <stdbool.h>
#include <stdint.h>
#include "domain/tnum.h"

struct bg_scalar {
	uint64_t umin, umax;
	int64_t smin, smax;
	uint32_t u32min, u32max;
	int32_t s32min, s32max;
	struct bg_tnum tn;
	bool bottom;
};

/* Every component full: bg_scalar_unknown() as a constant initializer (for
 * static templates). */
#define BG_SCALAR_UNKNOWN_INIT                                                              \
	{                                                                                   \
		.umin = 0, .umax = UINT64_MAX, .smin = INT64_MIN, .smax = INT64_MAX,        \
		.u32min = 0, .u32max = UINT32_MAX, .s32min = INT32_MIN, .s32max = INT32_MAX, \
		.tn = { .value = 0, .mask = UINT64_MAX }, .bottom = false                   \
	}

struct bg_scalar bg_scalar_const(uint64_t v);
struct bg_scalar bg_scalar_unknown(void);
struct bg_scalar bg_scalar_urange(uint64_t lo, uint64_t hi);  /* unsigned 64-bit [lo,hi] */
struct bg_scalar bg_scalar_srange(int64_t lo, int64_t hi);
struct bg_scalar bg_scalar_bottom(void);
bool bg_scalar_is_const(const struct bg_scalar *a, uint64_t *v);
bool bg_scalar_contains(const struct bg_scalar *a, uint64_t x);
void bg_scalar_reduce(struct bg_scalar *a);                     /* sync all components */
bool bg_scalar_leq(const struct bg_scalar *a, const struct bg_scalar *b);
bool bg_scalar_eq(const struct bg_scalar *a, const struct bg_scalar *b);
struct bg_scalar bg_scalar_join(const struct bg_scalar *a, const struct bg_scalar *b);
struct bg_scalar bg_scalar_meet(const struct bg_scalar *a, const struct bg_scalar *b);
/* Widening: bounds that grew jump to the next threshold (sorted ascending,
 * may be NULL) or to the type's extreme. Terminates: finite thresholds. */
struct bg_scalar bg_scalar_widen(const struct bg_scalar *old, const struct bg_scalar *next,
				 const uint64_t *thresholds, unsigned nthr);
struct bg_scalar bg_scalar_narrow(const struct bg_scalar *old, const struct bg_scalar *next);

/* ALU transfer: op is a bg_alu_op (ADD..ARSH, MOV, NEG), alu64 false means the
 * 32-bit instruction (operate on low halves, zero-extend the result).
 * is_signed selects sdiv/smod. ext_bits != 0 with MOV is movsx (8/16/32).
 * Division/modulo by zero follow RFC 9669 (x/0 = 0, x%0 = x). Shift amounts
 * are masked (& 63 or & 31) as the RFC says. */
struct bg_scalar bg_scalar_alu(uint8_t op, bool alu64, bool is_signed, uint8_t ext_bits,
			       const struct bg_scalar *dst, const struct bg_scalar *src);
/* Byte swap / to_le / to_be: width 16/32/64, to_be true for big-endian conversion
 * on this (little-endian) host; bswap (ALU64 END) is to_be semantics. */
struct bg_scalar bg_scalar_end(const struct bg_scalar *a, uint8_t width, bool swap);
/* A load of `bytes` bytes with unknown content: [0, 2^(8*bytes)-1], or sign-extended. */
struct bg_scalar bg_scalar_load(uint8_t bytes, bool sign_extend);
/* Truncate to the low `bytes` bytes (zero-extended) or sign-extend them. */
struct bg_scalar bg_scalar_cast(const struct bg_scalar *a, uint8_t bytes, bool sign_extend);

/* Branch refinement: restrict *dst and *src to the values for which
 * `dst <jmp_op> src` (alu64 false: compare low 32 bits) is `taken`.
 * Returns false when that outcome is impossible (the edge is dead).
 * jmp_op is a bg_jmp_op (JEQ..JSLE, JSET). */
bool bg_scalar_refine(uint8_t jmp_op, bool alu64, bool taken, struct bg_scalar *dst,
		      struct bg_scalar *src);
/* Decide a comparison when possible: 1 always taken, 0 never, -1 unknown. */
int bg_scalar_cmp(uint8_t jmp_op, bool alu64, const struct bg_scalar *dst, const struct bg_scalar *src);

/* Human-readable, kernel-log-like: "42", "[0,255]", "smin=-1,smax=7,var_off=(0x0; 0x7)". */
int bg_scalar_fmt(const struct bg_scalar *a, char *buf, unsigned sz);
/* Kernel profile (measured against the running 6.18 kernel by
 * tests/unit/test_scalar_kernel.c): the same operations, but where the kernel's
 * verifier tracks less (DIV/MOD results, shifts by a non-constant, JSET against a
 * non-constant) the result is as coarse as the kernel's, so an analysis that must
 * agree with the kernel does not prove what the kernel cannot. Still sound. */
struct bg_scalar bg_scalar_alu_kernel(uint8_t op, bool alu64, bool is_signed, uint8_t ext_bits,
				      const struct bg_scalar *dst, const struct bg_scalar *src);
bool bg_scalar_refine_kernel(uint8_t jmp_op, bool alu64, bool taken, struct bg_scalar *dst,
			     struct bg_scalar *src);
int bg_scalar_cmp_kernel(uint8_t jmp_op, bool alu64, const struct bg_scalar *dst,
			 const struct bg_scalar *src);
/* The kernel verifier log's notation: "42", "scalar(smin=smin32=0,smax=umax=100,var_off=(0x0; 0x7f))". */
int bg_scalar_fmt_kernel(const struct bg_scalar *a, char *buf, unsigned sz);
#endif
