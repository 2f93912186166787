/* src/isa/exec.c - concrete semantics of ALU, END and conditional jumps as
 * RFC 9669 states them. All arithmetic is done on unsigned types so that the
 * C undefined cases (signed overflow, INT_MIN / -1, oversized shifts) cannot
 * occur; signed results are produced by two's complement reinterpretation.
 */
#include <bpfgate/insn.h>

#include "isa/exec.h"

uint64_t bg_extend(uint64_t v, uint8_t bytes, bool sign)
{
	unsigned bits = bytes * 8u;
	uint64_t m;

	if (bits == 0 || bits >= 64)
		return v;
	m = (UINT64_C(1) << bits) - 1;
	v &= m;
	if (sign && (v >> (bits - 1)) & 1)
		v |= ~m;
	return v;
}

/* Signed division / modulo on the low `bits` (32 or 64) of a and b, with the
 * RFC's rules: x / 0 = 0, x % 0 = x, MIN / -1 = MIN, MIN % -1 = 0. */
static uint64_t sdivmod(uint64_t a, uint64_t b, unsigned bits, bool mod)
{
	uint64_t sign = UINT64_C(1) << (bits - 1);
	uint64_t mask = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
	bool an = a & sign, bn = b & sign;
	uint64_t ua, ub, q;

	a &= mask;
	b &= mask;
	if (b == 0)
		return mod ? a : 0;
	ua = an ? (0 - a) & mask : a; /* |a|, MIN stays MIN which is right as unsigned */
	ub = bn ? (0 - b) & mask : b;
	if (mod) {
		q = ua % ub;
		return (an ? 0 - q : q) & mask; /* remainder takes the dividend's sign */
	}
	q = ua / ub;
	return (an != bn ? 0 - q : q) & mask;
}

static uint64_t alu64(uint8_t op, bool sgn, uint8_t ext, uint64_t d, uint64_t s)
{
	switch (op) {
	case BG_ALU_ADD: return d + s;
	case BG_ALU_SUB: return d - s;
	case BG_ALU_MUL: return d * s;
	case BG_ALU_DIV: return sgn ? sdivmod(d, s, 64, false) : s ? d / s : 0;
	case BG_ALU_MOD: return sgn ? sdivmod(d, s, 64, true) : s ? d % s : d;
	case BG_ALU_OR: return d | s;
	case BG_ALU_AND: return d & s;
	case BG_ALU_XOR: return d ^ s;
	case BG_ALU_LSH: return d << (s & 63);
	case BG_ALU_RSH: return d >> (s & 63);
	case BG_ALU_ARSH: {
		unsigned n = s & 63;
		uint64_t r = d >> n;

		if (n && (d >> 63))
			r |= ~(~UINT64_C(0) >> n);
		return r;
	}
	case BG_ALU_NEG: return 0 - d;
	case BG_ALU_MOV: return ext ? bg_extend(s, ext / 8, true) : s;
	default: return d;
	}
}

static uint32_t alu32(uint8_t op, bool sgn, uint8_t ext, uint32_t d, uint32_t s)
{
	switch (op) {
	case BG_ALU_DIV:
		return sgn ? (uint32_t)sdivmod(d, s, 32, false) : s ? d / s : 0;
	case BG_ALU_MOD:
		return sgn ? (uint32_t)sdivmod(d, s, 32, true) : s ? d % s : d;
	case BG_ALU_LSH: return d << (s & 31);
	case BG_ALU_RSH: return d >> (s & 31);
	case BG_ALU_ARSH: {
		unsigned n = s & 31;
		uint32_t r = d >> n;

		if (n && (d >> 31))
			r |= ~(~UINT32_C(0) >> n);
		return r;
	}
	case BG_ALU_MOV: return ext ? (uint32_t)bg_extend(s, ext / 8, true) : s;
	default: return (uint32_t)alu64(op, sgn, 0, d, s);
	}
}

uint64_t bg_alu_exec(uint8_t op, bool is64, bool is_signed, uint8_t ext_bits, uint64_t dst,
		     uint64_t src)
{
	if (is64)
		return alu64(op, is_signed, ext_bits, dst, src);
	return alu32(op, is_signed, ext_bits, (uint32_t)dst, (uint32_t)src);
}

uint64_t bg_end_exec(uint64_t v, uint8_t width, bool swap)
{
	switch (width) {
	case 16: return swap ? __builtin_bswap16((uint16_t)v) : (uint16_t)v;
	case 32: return swap ? __builtin_bswap32((uint32_t)v) : (uint32_t)v;
	case 64: return swap ? __builtin_bswap64(v) : v;
	default: return v;
	}
}

bool bg_jmp_exec(uint8_t op, bool is64, uint64_t dst, uint64_t src)
{
	int64_t sd, ss;

	if (!is64) {
		dst = (uint32_t)dst;
		src = (uint32_t)src;
		sd = (int32_t)(uint32_t)dst;
		ss = (int32_t)(uint32_t)src;
	} else {
		sd = (int64_t)dst;
		ss = (int64_t)src;
	}
	switch (op) {
	case BG_JMP_JA: return true;
	case BG_JMP_JEQ: return dst == src;
	case BG_JMP_JNE: return dst != src;
	case BG_JMP_JGT: return dst > src;
	case BG_JMP_JGE: return dst >= src;
	case BG_JMP_JLT: return dst < src;
	case BG_JMP_JLE: return dst <= src;
	case BG_JMP_JSET: return (dst & src) != 0;
	case BG_JMP_JSGT: return sd > ss;
	case BG_JMP_JSGE: return sd >= ss;
	case BG_JMP_JSLT: return sd < ss;
	case BG_JMP_JSLE: return sd <= ss;
	default: return false;
	}
}
