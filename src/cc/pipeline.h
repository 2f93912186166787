/* The textual new-pass-manager pipeline route: rebuild the user's object
 * with the -O2 (or the user's -O level) pipeline minus chosen entries, using
 * the opt and llc of the clang in use - no pass plugin, stock LLVM only.
 *
 * Stages (set up once per bpfgate cc run, on the first build):
 *  0. clang <user flags> -S -emit-llvm -Xclang -disable-llvm-passes: IR as
 *     the frontend leaves it;
 *  1. opt -passes='default<O2>' -print-pipeline-passes: the pipeline text;
 *  2. stage A: opt -passes='default<O2>' -opt-bisect-limit=K, where pass K
 *     is the last entry `-passes=` cannot parse (BPFAdjustOptPass: the BPF
 *     passes print under their C++ class names). It runs the pipeline's
 *     prefix unchanged; later passes that LLVM marks required also run
 *     there (the mandatory inliner, coroutine lowering: no-ops again later);
 *  3. stage B (per build): opt -passes='<the text after the cut, minus the
 *     dropped entries>' and llc (the user's -mcpu, -O level and -mllvm
 *     flags; the module's own triple).
 * With nothing dropped, stages A+B give the same instructions as clang -O2
 * (checked on tests/data/cc with clang 14 and 19).
 *
 * Entries are named by their textual pass name and 1-based occurrence in the
 * whole printed pipeline: "instcombine#3" (the third instcombine entry),
 * "instcombine" (every entry), comma separated. A dropped entry is dropped
 * for every function (the plugin route can skip one function's run).
 * An entry "name#k" in stage A cannot be dropped (such builds fail with a
 * reason); "name" drops every entry of stage B. */
#ifndef BG_CC_PIPELINE_H
#define BG_CC_PIPELINE_H
#include <stdbool.h>
#include <stddef.h>

struct bg_cc_result;
struct cc_pipe;

/* Build s's object through the route with `drop` removed (NULL or "" for
 * nothing), stage B at -opt-bisect-limit=limit (-1: no limit), into out.
 * Sets up the route on first use. Returns 0, a tool's exit status, or a
 * negative errno; the tools' diagnostics (or the reason) in *err_text when
 * non-NULL (malloc'd). Counts one compile per object built; the setup counts
 * one more. */
int cc_pipe_compile(struct bg_cc_result *s, const char *drop, long limit, const char *out,
		    char **err_text);
/* Translate one pass-run name of the BISECT listing (C++ class name) into
 * its pipeline entry: (InstCombinePass, run 3) -> "instcombine#3", with
 * run 0 -> "instcombine". Returns false when the class has no known name. */
bool cc_pipe_entry(const char *pass_class, int run, char *out, size_t sz);
/* Bisect stage B with `drop` in force (the full stage-B build with it must
 * be rejected the same way). On success returns 0 and names the culprit run
 * in s (culprit number = K + its stage-B number, name, unit, occurrence in
 * the whole pipeline) and its entry in entry[]; -1 when stage B at limit 0
 * is already rejected (the culprit runs in stage A) or it cannot bisect. */
int cc_pipe_bisect(struct bg_cc_result *s, const char *drop, char *entry, size_t sz);
/* The stage-B pipeline text of p with `drop` removed, for the unit test and
 * the report; NULL (errno set) when an entry is unknown or in stage A. */
char *cc_pipe_text_without(const char *pipeline, const char *drop, char *why, size_t wsz);
/* Why the route cannot be used for s (set up failed), or NULL. */
const char *cc_pipe_why(const struct bg_cc_result *s);
void cc_pipe_free(struct cc_pipe *p);
#endif
