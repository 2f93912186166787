/* Profile-guided block layout of a compiled BPF object (bpfgate cc --profile).
 *
 * LLVM's BPF backend cannot invert a conditional branch after instruction
 * selection (BPFInstrInfo::analyzeBranch gives up on them), so block
 * placement ignores branch weights. This pass does the placement on the
 * object itself: per function, basic blocks are ordered so that the hotter
 * successor of each conditional jump (exact counts of `cov run --profile`)
 * falls through; the jump is inverted (JEQ<->JNE, JGT<->JLE, JGE<->JLT,
 * JSGT<->JSLE, JSGE<->JSLT, 64- and 32-bit; JSET and may_goto are never
 * inverted), `ja` instructions are inserted where a fall-through is lost and
 * removed where their target comes next.
 *
 * Everything that names an instruction offset is rewritten: jump offsets
 * (ja, gotol, conditional, may_goto), bpf-to-bpf call and callback (ld_imm64
 * BPF_PSEUDO_FUNC) immediates, relative or relocated, relocation offsets of
 * the code sections, symbol values and function sizes, .BTF.ext func_info,
 * line_info (a moved block keeps its source line: it gets its own record)
 * and CO-RE relocation offsets, .bpfgate.hints offsets (probability flipped
 * where the jump was inverted). Programs keep their entry points (a
 * function's first block stays first).
 *
 * Refused (that function or section left unchanged, the reason in the note):
 * a jump leaving its function, a function falling off its end, code that
 * does not decode, functions that do not tile their section, a section that
 * data relocations reach through anything but a function symbol (assertion
 * markers, section-relative function pointers), offsets that no longer fit,
 * a layout that would not reduce the taken jumps on the profile's counts.
 * Objects with DWARF (.debug_*) or RELA sections are refused as a whole: the
 * caller strips DWARF first (its addresses would describe the old layout). */
#ifndef BG_CC_LAYOUT_H
#define BG_CC_LAYOUT_H
#include <stddef.h>
#include <stdint.h>

/* One conditional jump of the profile (a "branch" record of cov run --profile). */
struct cc_branch {
	char prog[128];
	uint32_t insn; /* slot in the profiled program */
	char file[256];
	uint32_t line, col;
	uint64_t taken, not_taken;
};

/* The counts of one conditional jump of the object (summed over programs). */
struct lay_count {
	char sec[128];
	uint32_t off; /* byte offset of the jump in its section */
	uint64_t taken, not_taken;
	char file[256];
	uint32_t line, col;
};

/* A conditional jump of the rewritten object with the profile's counts. */
struct lay_hint {
	char sec[128];
	uint32_t off;		   /* byte offset in the rewritten section */
	uint64_t taken, not_taken; /* in the rewritten jump's sense */
	const char *file;	   /* points into the lay_count array */
	uint32_t line, col;
};

struct cc_layout {
	int funcs; /* functions rewritten */
	int inverted, ja_added, ja_removed;
	uint64_t taken_before,
	    taken_after; /* taken jumps on the profile's runs (rewritten functions) */
	char note[1024]; /* what was left unchanged and why */
	struct lay_hint *hints;
	size_t nhints;
};

/* Place the profile's branch records on the object at path: each record must
 * name a conditional jump of its program at the same source line and column,
 * and every conditional jump of a profiled program must have a record (else
 * the profile does not describe this object: -ESTALE, why in why). */
int cc_layout_counts(const char *path, const struct cc_branch *b, size_t n, struct lay_count **out,
		     size_t *nout, char *why, size_t whysz);
/* Rewrite the object at in into out (a new file). Returns the number of
 * functions rewritten (0: out not written), or a negative errno. */
int cc_layout_rewrite(const char *in, const char *out, const struct lay_count *c, size_t n,
		      struct cc_layout *res);
void cc_layout_free(struct cc_layout *res);
#endif
