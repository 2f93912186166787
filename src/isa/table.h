/* src/isa/table.h - the opcode table (generated from opcodes.def) as data,
 * shared by decode/encode/format (insn.c), the assembler (asm.c) and tests. */
#ifndef BG_ISA_TABLE_H
#define BG_ISA_TABLE_H
#include <stddef.h>
#include <stdint.h>
#include <bpfgate/insn.h>

/* Which raw fields a form's template takes as operands (the others are fixed). */
enum {
	BG_U_DST = 1 << 0,
	BG_U_SRC = 1 << 1,
	BG_U_OFF = 1 << 2,
	BG_U_IMM = 1 << 3,
	BG_U_HI = 1 << 4, /* imm of the second ld_imm64 slot */
};

struct bg_opform {
	uint8_t code;
	uint8_t kind; /* enum bg_insn_kind */
	uint8_t src;  /* fixed src field (pseudo / call kind) when not an operand */
	int16_t off;  /* fixed off when not an operand */
	int32_t imm;  /* fixed imm when not an operand */
	uint8_t size, ext, sgn;
	const char *tmpl, *objdump;
};

extern const struct bg_opform bg_opforms[];
extern const size_t bg_opform_cnt;

/* Operand mask of form i (derived from its template). */
unsigned bg_opform_uses(size_t i);
/* Index of the form that (code, dst, src, off, imm, hi) encodes, or -1 with
 * *why set to the reason it is invalid. */
int bg_opform_find(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm, int32_t hi,
		   const char **why);
/* The kernel verifier log's template of form i (BG_FMT_KERNEL). */
const char *bg_opform_kernel(size_t i);
/* First form with this opcode byte (-1 if none) and the next one after i. */
int bg_opform_first(uint8_t code);
int bg_opform_next(size_t i);
#endif
