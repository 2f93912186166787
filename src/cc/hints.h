/* Branch hints and the profile-guided build of bpfgate cc.
 *
 * hints.c: after the object is written, one more compile with the same
 * arguments prints the final machine code (`-mllvm -print-after=
 * funclet-layout`, the last pass before the BPF asm printer: block layout
 * is final there). Each conditional jump of that listing carries the
 * probability of its successors (what LLVM's block placement used) and its
 * debug location. The k-th conditional jump of function F in the listing is
 * the k-th conditional jump of symbol F in the object; a function whose
 * counts differ (inline asm jumps) gets no hints and is named in the note.
 * The hint build's code must equal the written object's byte for byte
 * (else the object was a fixed build the listing does not describe: no
 * hints, said so). Source of a probability: "profile" when the build used
 * a sample profile with samples for the jump's line, "expect" when the
 * frontend IR has an llvm.expect call on the jump's line, else "static"
 * (LLVM's heuristics). Written as section .bpfgate.hints (docs/HINTS.md).
 *
 * profile.c: `--profile FILE` (bpfgate cov run --profile) becomes an LLVM
 * sample profile (text format, line offsets from each function's
 * DISubprogram line, read from the frontend IR) passed as
 * -fprofile-sample-use to every build of the run. Lines whose source text
 * changed and functions the source no longer defines are stale: reported
 * and left out of the profile. */
#ifndef BG_CC_HINTS_H
#define BG_CC_HINTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct bg_cc_result;

/* Record the hints of s->output. Returns the number written, or a
 * negative errno; why in s->hints_note. */
int cc_hints_record(struct bg_cc_result *s);
/* Write the hints of a laid-out object from the profile's counts (layout.h)
 * into path. Returns the number written, or a negative errno. */
struct lay_hint;
int cc_hints_write_counts(struct bg_cc_result *s, const char *path, const struct lay_hint *h,
			  size_t n);
/* Turn s->profile into a sample profile and add -fprofile-sample-use to
 * s->args. Returns 0, or -1 with the reason in s->profile_note (bad
 * profile file: the build must not go on). */
int cc_profile_prepare(struct bg_cc_result *s);
/* The profile's branch records that are not stale (layout.h), or NULL. */
struct cc_branch;
const struct cc_branch *cc_profile_branches(const struct bg_cc_result *s, size_t *n);
/* Has the sample profile samples on file:line? */
bool cc_profile_covers(const struct bg_cc_result *s, const char *file, uint32_t line);
void cc_profile_free(struct bg_cc_result *s);
/* The hints and profile lines of the report: text to f, or members of the
 * open JSON object j ("hints", "profile"). */
struct bg_json;
void cc_hints_print(const struct bg_cc_result *s, FILE *f, struct bg_json *j);
#endif
