/* bpfgate/insn.h - the one decoded BPF instruction model.
 *
 * Every module (disassembler, assembler, verifier, interpreter, coverage, cc)
 * consumes struct bg_insn. Raw bytes are decoded exactly once, by
 * bg_insn_decode()/bg_prog_decode(), which are driven by the single opcode
 * table in src/isa/opcodes.def. encode(decode(x)) == x for every valid x.
 *
 * Instruction indexes are in 8-byte slots, as the kernel counts them: an
 * ld_imm64 occupies two slots; the second slot decodes as BG_K_LD_IMM64_HI
 * so that index arithmetic stays the kernel's.
 *
 * Thread safety: all functions are reentrant (the decode index is built once
 * under pthread_once).
 */
#ifndef BPFGATE_INSN_H
#define BPFGATE_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <bpfgate/types.h>

#ifdef __cplusplus
extern "C" {
#endif


/* The raw 8-byte encoding, layout-identical to the kernel's struct bpf_insn. */
struct bg_raw_insn {
	uint8_t code;
	uint8_t dst_reg : 4;
	uint8_t src_reg : 4;
	int16_t off;
	int32_t imm;
};

/* Instruction classes and field values (RFC 9669 / kernel uapi). */
enum {
	BG_CLS_LD = 0x00, BG_CLS_LDX = 0x01, BG_CLS_ST = 0x02, BG_CLS_STX = 0x03,
	BG_CLS_ALU = 0x04, BG_CLS_JMP = 0x05, BG_CLS_JMP32 = 0x06, BG_CLS_ALU64 = 0x07,
};

/* ALU operations, value of the op field (code & 0xf0). */
enum bg_alu_op {
	BG_ALU_ADD = 0x00, BG_ALU_SUB = 0x10, BG_ALU_MUL = 0x20, BG_ALU_DIV = 0x30,
	BG_ALU_OR = 0x40, BG_ALU_AND = 0x50, BG_ALU_LSH = 0x60, BG_ALU_RSH = 0x70,
	BG_ALU_NEG = 0x80, BG_ALU_MOD = 0x90, BG_ALU_XOR = 0xa0, BG_ALU_MOV = 0xb0,
	BG_ALU_ARSH = 0xc0, BG_ALU_END = 0xd0,
};

/* Jump operations, value of the op field (code & 0xf0). */
enum bg_jmp_op {
	BG_JMP_JA = 0x00, BG_JMP_JEQ = 0x10, BG_JMP_JGT = 0x20, BG_JMP_JGE = 0x30,
	BG_JMP_JSET = 0x40, BG_JMP_JNE = 0x50, BG_JMP_JSGT = 0x60, BG_JMP_JSGE = 0x70,
	BG_JMP_CALL = 0x80, BG_JMP_EXIT = 0x90, BG_JMP_JLT = 0xa0, BG_JMP_JLE = 0xb0,
	BG_JMP_JSLT = 0xc0, BG_JMP_JSLE = 0xd0, BG_JMP_JCOND = 0xe0,
};

/* Atomic operation selectors (imm of an STX ATOMIC instruction). */
enum bg_atomic_op {
	BG_ATOMIC_ADD = 0x00, BG_ATOMIC_OR = 0x40, BG_ATOMIC_AND = 0x50, BG_ATOMIC_XOR = 0xa0,
	BG_ATOMIC_FETCH = 0x01, BG_ATOMIC_XCHG = 0xe1, BG_ATOMIC_CMPXCHG = 0xf1,
	BG_ATOMIC_LOAD_ACQ = 0x100, BG_ATOMIC_STORE_REL = 0x110,
};

/* ld_imm64 src_reg kinds and call src_reg kinds. */
enum bg_pseudo {
	BG_PSEUDO_NONE = 0, BG_PSEUDO_MAP_FD = 1, BG_PSEUDO_MAP_VALUE = 2,
	BG_PSEUDO_BTF_ID = 3, BG_PSEUDO_FUNC = 4, BG_PSEUDO_MAP_IDX = 5,
	BG_PSEUDO_MAP_IDX_VALUE = 6,
};
enum bg_call_kind { BG_CALL_HELPER = 0, BG_CALL_LOCAL = 1, BG_CALL_KFUNC = 2 };

/* What an instruction does, independent of its encoding details. */
enum bg_insn_kind {
	BG_K_INVALID = 0,
	BG_K_ALU,        /* dst = dst <alu_op> (src | imm); MOV, NEG, movsx, sdiv/smod */
	BG_K_END,        /* byte swap: to_le / to_be / bswap, ext_bits = 16/32/64 */
	BG_K_ADDR_CAST,  /* addr_space_cast: dst = cast(src), imm = dst_as<<16 | src_as */
	BG_K_LD_IMM64,   /* dst = imm64 (pseudo tells map / value / btf / func) */
	BG_K_LD_IMM64_HI,/* second slot of an ld_imm64, never executed */
	BG_K_LD_ABS,     /* legacy packet load r0 = ntoh(*(size *)(skb->data + imm)) */
	BG_K_LD_IND,     /* legacy packet load r0 = ntoh(*(size *)(skb->data + src + imm)) */
	BG_K_LDX,        /* dst = *(size *)(src + off), sign-extended if is_signed */
	BG_K_ST,         /* *(size *)(dst + off) = imm */
	BG_K_STX,        /* *(size *)(dst + off) = src */
	BG_K_ATOMIC,     /* atomic_op on *(size *)(dst + off) with src */
	BG_K_JA,         /* goto target (off, or imm for gotol) */
	BG_K_JCOND,      /* conditional jump: if dst <jmp_op> (src | imm) goto target */
	BG_K_MAY_GOTO,   /* may_goto target (JCOND with src_reg 0) */
	BG_K_CALL,       /* call_kind: helper id imm / local target / kfunc btf id imm */
	BG_K_CALLX,      /* indirect call through dst register */
	BG_K_EXIT,
	BG_K__MAX,
};

/* The decoded instruction. Fields that do not apply to a kind are zero. */
struct bg_insn {
	enum bg_insn_kind kind;
	uint8_t code;       /* raw opcode byte */
	uint8_t cls;        /* BG_CLS_* */
	uint8_t op;         /* bg_alu_op or bg_jmp_op value (code & 0xf0) */
	bool alu64;         /* 64-bit ALU or JMP class (false: ALU32 / JMP32) */
	bool src_is_reg;    /* operand is src register (BPF_X), else imm */
	bool is_signed;     /* sdiv/smod, MEMSX sign-extending load */
	uint8_t size;       /* memory access size in bytes: 1, 2, 4, 8 */
	uint8_t ext_bits;   /* movsx source width 8/16/32; END width 16/32/64 */
	uint8_t dst, src;   /* register numbers 0..10 */
	int16_t off;
	int32_t imm;
	uint64_t imm64;     /* LD_IMM64: full 64-bit immediate (lo | hi << 32) */
	uint8_t pseudo;     /* LD_IMM64: bg_pseudo; CALL: bg_call_kind */
	uint16_t atomic_op; /* BG_K_ATOMIC: bg_atomic_op value (incl. FETCH bit) */
	uint8_t slots;      /* 1, or 2 for ld_imm64 */
	int32_t target;     /* absolute slot index of jump / local call target, else -1 */
};

/* Decode one instruction at raw[0] (raw[1] is read for ld_imm64 when n >= 2).
 * pc is the slot index of raw[0] (to compute absolute targets).
 * Returns the number of slots consumed (1 or 2), or -EINVAL when the encoding
 * is invalid; *why (if non-NULL) then points to a static reason string. */
BG_API int bg_insn_decode(const struct bg_raw_insn *raw, size_t n, size_t pc,
			  struct bg_insn *out, const char **why);

/* Encode into out[0] (and out[1] for ld_imm64). Returns slots written or -EINVAL.
 * Reads code, dst, src, off and imm (for ld_imm64: imm64 supplies both
 * halves, imm is ignored); the result must decode, so a struct filled by
 * bg_insn_decode always encodes back to the same bytes. */
BG_API int bg_insn_encode(const struct bg_insn *in, struct bg_raw_insn out[2]);

/* Decode a whole program into out[n] (one entry per slot). Checks that every
 * jump target lands inside the program and not on an ld_imm64 second half.
 * Returns 0, or -EINVAL with *bad_pc set and *why describing the problem. */
BG_API int bg_prog_decode(const struct bg_raw_insn *raw, size_t n, struct bg_insn *out,
			  size_t *bad_pc, const char **why);

/* Format an instruction in llvm-objdump-14 syntax, e.g. "r0 = *(u32 *)(r1 + 4)"
 * or "if r1 > 64 goto +3" (see bg_insn_format_opts for hex / kernel-log
 * syntax). Returns the length that was (or would have been) written, like
 * snprintf. The second slot of an ld_imm64 formats as "" (length 0). */
BG_API int bg_insn_format(const struct bg_insn *in, char *buf, size_t sz);

/* Formatting flags for bg_insn_format_opts(). The default syntax (flags 0) is
 * what llvm-objdump-14 -d prints for the same bytes, with LLVM 19 spellings
 * for forms llvm-objdump-14 does not know (sdiv, movsx, bswap, gotol,
 * may_goto, ...), and unambiguous spellings where objdump's are lossy:
 *   local call          "call pc+N"            (objdump: "call N")
 *   kfunc call          "call kfunc(ID)" / "call kfunc(ID, OFF)"
 *   ld_imm64 pseudo     "r1 = map_fd(FD) ll", "r1 = map_value(FD, OFF) ll",
 *                       "r1 = btf_id(ID, FD) ll", "r1 = func(pc+N) ll",
 *                       "r1 = map_idx(IDX) ll", "r1 = map_idx_value(IDX, OFF) ll"
 *   legacy IND load     "r0 = *(u8 *)skb[r1 + IMM]" when IMM != 0
 * bg_asm() parses all of it (and labels). */
enum bg_fmt_flags {
	BG_FMT_OBJDUMP = 1 << 0, /* calls exactly as llvm-objdump prints them ("call N") */
	BG_FMT_HEX = 1 << 1,     /* immediates and offsets in hex, as llvm-objdump >= 15 */
	BG_FMT_KERNEL = 1 << 2,  /* the kernel verifier log: "(61) r0 = *(u32 *)(r1 +4)",
				  * "(15) if r1 == 0x0 goto pc+3", "(85) call #1" */
};
BG_API int bg_insn_format_opts(const struct bg_insn *in, char *buf, size_t sz, unsigned flags);

/* Assemble text in the disassembler's syntax (one instruction per line,
 * labels "name:" allowed, ';' / '#' / '//' comments). On success returns the
 * number of slots and sets *out (malloc'd, caller frees). On error returns
 * -EINVAL and fills err with "line N: message".
 * Syntax: one instruction per line as bg_insn_format prints it; "name:" defines
 * a label (alone or before an instruction); jump offsets ("goto +3"), gotol,
 * may_goto, local calls ("call pc+2") and func(...) take a label name instead;
 * "call name" is a local call to a label. Immediates are decimal or 0x-hex.
 * A leading "N:" index and a trailing "<...>" (llvm-objdump output) are ignored.
 * A line with the kernel log's "(op) " prefix is read in the kernel's syntax
 * (BG_FMT_KERNEL; helper names in "call name#1" are ignored), so verifier
 * log lines can be pasted as they are. '#' starts a comment only at the start
 * of a line or after a blank, and not before a digit. */
BG_API int bg_asm(const char *text, struct bg_raw_insn **out, char *err, size_t errsz);

/* bg_asm() that also returns the labels (malloc'd array, sorted by name;
 * caller frees), e.g. to name functions at local call targets. */
struct bg_asm_label {
	char name[128];
	size_t slot; /* slot index the label points at */
	int line;
};
BG_API int bg_asm_labels(const char *text, struct bg_raw_insn **out, struct bg_asm_label **labels,
			 size_t *nlabels, char *err, size_t errsz);

/* Name of a kind, for diagnostics. */
BG_API const char *bg_insn_kind_name(enum bg_insn_kind k);

/* The conditional jump op (BG_JMP_*) taken exactly when op falls through:
 * JEQ<->JNE, JGT<->JLE, JGE<->JLT, JSGT<->JSLE, JSGE<->JSLT (64- and 32-bit
 * alike). 0 when op has no such op in the ISA (JSET, JA, JCOND, ...). */
BG_API uint8_t bg_jmp_inverse(uint8_t op);

#ifdef __cplusplus
}
#endif
#endif
