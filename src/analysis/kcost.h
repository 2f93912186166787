/* An estimate of the kernel verifier's work on a program bpfgate's analysis
 * found safe, to answer "will it load?" next to "is it safe?".
 *
 * The kernel walks paths (depth first, the jump target pushed, the fall
 * through followed) and prunes a path at a checkpoint whose state an explored
 * one covers. It gives up at BPF_COMPLEXITY_LIMIT_INSNS (1M processed
 * instructions: "BPF program is too large") and when more than
 * BPF_COMPLEXITY_LIMIT_JMP_SEQ (8192) branch states wait on its stack ("The
 * sequence of 8193 jumps is too complex"). This module does not walk paths:
 * it reads what the analysis saw (blocks reached per call context, which
 * conditional jumps had both edges feasible, how many iterations a loop the
 * analysis unrolled took) and the loop shapes of the CFG, and charges
 *   - every reached block its length, times the trip counts of its loops
 *     (a bounded loop is walked iteration by iteration: its counter is
 *     precise, no iteration prunes another), times a path factor;
 *   - static subprograms once per call site visit (the call site is part of
 *     the kernel's state), global functions once, sync callbacks and
 *     iterator / may_goto loops a few passes (their states converge);
 *   - the jump stack: along the deepest path, one pending state per
 *     conditional jump with both edges feasible.
 * Cost: O(contexts * blocks + loops * blocks). Internal to src/analysis. */
#ifndef BG_ANALYSIS_KCOST_H
#define BG_ANALYSIS_KCOST_H
#include <stdbool.h>
#include <stdint.h>
#include <bpfgate/verifier.h>

struct vctx;
struct kcost;

/* Allocate the observations for v (after cfg_build); NULL on ENOMEM (no estimate). */
struct kcost *kcost_new(const struct vctx *v);
void kcost_free(struct kcost *kc);
/* Observations, called by the fixpoint engine (NULL kc: no-op). */
void kcost_note_block(struct kcost *kc, uint32_t ctx, uint32_t block);
void kcost_note_branch(struct kcost *kc, size_t pc, bool taken);
void kcost_note_iter(struct kcost *kc, uint32_t loop, uint32_t iter);
/* After an accepted analysis: fill res->kernel (estimate, limit verdict and,
 * when a limit is exceeded, the finding with the dominating place).
 * Returns 0 or -ENOMEM. */
int kcost_finish(struct kcost *kc, const struct vctx *v, struct bg_verify_result *res);
#endif
