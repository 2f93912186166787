/* Test-only reference of RFC 9669 ALU/JMP semantics, written independently of
 * src/isa/exec.c so the domain tests cross-check both (see test_scalar_sound.c). */
#ifndef BG_TEST_SCALAR_REF_H
#define BG_TEST_SCALAR_REF_H
#include <stdbool.h>
#include <stdint.h>
#include <bpfgate/insn.h>

static uint64_t ref_extend(uint64_t v, uint8_t bytes, bool sign)
{
	unsigned sh;

	if (bytes >= 8)
		return v;
	sh = 64 - 8 * bytes;
	return sign ? (uint64_t)((int64_t)(v << sh) >> sh) : (v << sh) >> sh;
}

static uint64_t ref_sdiv(int64_t a, int64_t b, bool mod)
{
	uint64_t ua = a < 0 ? -(uint64_t)a : (uint64_t)a, ub = b < 0 ? -(uint64_t)b : (uint64_t)b;

	if (!b)
		return mod ? (uint64_t)a : 0;
	if (mod)
		return a < 0 ? -(ua % ub) : ua % ub;
	return ((a < 0) == (b < 0)) ? ua / ub : -(ua / ub);
}

static uint64_t ref_alu64(uint8_t op, bool sg, uint8_t ext, uint64_t d, uint64_t s)
{
	switch (op) {
	case BG_ALU_ADD: return d + s;
	case BG_ALU_SUB: return d - s;
	case BG_ALU_MUL: return d * s;
	case BG_ALU_DIV: return sg ? ref_sdiv((int64_t)d, (int64_t)s, false) : (s ? d / s : 0);
	case BG_ALU_MOD: return sg ? ref_sdiv((int64_t)d, (int64_t)s, true) : (s ? d % s : d);
	case BG_ALU_OR: return d | s;
	case BG_ALU_AND: return d & s;
	case BG_ALU_XOR: return d ^ s;
	case BG_ALU_LSH: return d << (s & 63);
	case BG_ALU_RSH: return d >> (s & 63);
	case BG_ALU_ARSH: return (uint64_t)((int64_t)d >> (s & 63));
	case BG_ALU_NEG: return -d;
	case BG_ALU_MOV: return ext ? ref_extend(s, ext / 8, true) : s;
	default: return 0;
	}
}

static uint64_t ref_alu32(uint8_t op, bool sg, uint8_t ext, uint32_t d, uint32_t s)
{
	switch (op) {
	case BG_ALU_DIV:
	case BG_ALU_MOD:
		if (sg) {
			uint64_t r = ref_sdiv((int32_t)d, (int32_t)s, op == BG_ALU_MOD);

			return (uint32_t)r;
		}
		return (uint32_t)ref_alu64(op, false, 0, d, s);
	case BG_ALU_LSH: return (uint32_t)(d << (s & 31));
	case BG_ALU_RSH: return (uint32_t)(d >> (s & 31));
	case BG_ALU_ARSH: return (uint32_t)((int32_t)d >> (s & 31));
	case BG_ALU_MOV: return ext ? (uint32_t)ref_extend(s, ext / 8, true) : s;
	default: return (uint32_t)ref_alu64(op, false, 0, d, s);
	}
}

static uint64_t ref_alu(uint8_t op, bool alu64, bool sg, uint8_t ext, uint64_t d, uint64_t s)
{
	return alu64 ? ref_alu64(op, sg, ext, d, s) : ref_alu32(op, sg, ext, (uint32_t)d, (uint32_t)s);
}

static bool ref_jmp(uint8_t op, bool alu64, uint64_t d, uint64_t s)
{
	int64_t sd = alu64 ? (int64_t)d : (int32_t)d, ss = alu64 ? (int64_t)s : (int32_t)s;

	if (!alu64)
		d = (uint32_t)d, s = (uint32_t)s;
	switch (op) {
	case BG_JMP_JEQ: return d == s;
	case BG_JMP_JNE: return d != s;
	case BG_JMP_JGT: return d > s;
	case BG_JMP_JGE: return d >= s;
	case BG_JMP_JLT: return d < s;
	case BG_JMP_JLE: return d <= s;
	case BG_JMP_JSGT: return sd > ss;
	case BG_JMP_JSGE: return sd >= ss;
	case BG_JMP_JSLT: return sd < ss;
	case BG_JMP_JSLE: return sd <= ss;
	case BG_JMP_JSET: return (d & s) != 0;
	default: return false;
	}
}

static uint64_t ref_end(uint64_t v, uint8_t width, bool swap)
{
	if (!swap)
		return ref_extend(v, width / 8, false);
	if (width == 16)
		return __builtin_bswap16((uint16_t)v);
	if (width == 32)
		return __builtin_bswap32((uint32_t)v);
	return __builtin_bswap64(v);
}
#endif
