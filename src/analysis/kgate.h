/* Kernel-profile gating (bpfgate check --kernel): what an older kernel
 * refuses that the running 6.18 accepts, as lookups of the platform tables
 * (profiles.c feature bits, kversions.def, helpers.def/kfuncs.def `since`).
 * Only availability is modelled: an older verifier's weaker value tracking
 * (ranges, spills, precision) is not. */
#ifndef BG_ANALYSIS_KGATE_H
#define BG_ANALYSIS_KGATE_H
#include <stddef.h>

struct vctx;
struct as_state;

/* Resolve opts->profile into v->prof (NULL name: the default profile).
 * Returns 0, or -EINVAL when the name is unknown. */
int kgate_setup(struct vctx *v);
/* Whole-program checks the kernel makes before walking instructions
 * (program/attach/map types, program size, back-edges before 5.3, tail calls
 * mixed with subprograms before 5.10); also treats global functions as
 * static before 5.6. After the CFG is built. Returns 0 or -1 (verr). */
int kgate_program(struct vctx *v);
/* The instruction at pc on a reached path: instruction set level, helper and
 * kfunc availability. Returns 0 or -1 (verr). */
int kgate_insn(struct vctx *v, const struct as_state *s, size_t pc);
#endif
