/* bpfgate/cc.h - the verifying compile driver (bpfgate cc) as a library.
 *
 * bg_cc_build() compiles a BPF C file with clang, judges every program of
 * the object with the chosen verifiers and, when a program is rejected,
 * bisects the LLVM pipeline (-opt-bisect-limit) to find the pass run that
 * made it unverifiable, tries the cheap fixes (-mcpu, pass knobs) and then
 * skips that pass run, and writes the first object every verifier accepts.
 * The decision is recorded in a sidecar (OUT.bpfgate) and replayed.
 *
 * Thread safety: one bg_cc_build per thread at a time on different outputs;
 * it never changes the process environment (children get opts->envp). */
#ifndef BPFGATE_CC_H
#define BPFGATE_CC_H

#include <stddef.h>
#include <stdio.h>
#include <bpfgate/insn.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BG_CC_VERIFIER_KERNEL  (1u << 0)
#define BG_CC_VERIFIER_BPFGATE (1u << 1)

/* How a pass run is backed out when no knob or -mcpu choice helps. */
#define BG_CC_ROUTE_AUTO     0  /* the pass plugin when built, else the pipeline */
#define BG_CC_ROUTE_PLUGIN   1  /* clang -fpass-plugin skipping chosen runs */
#define BG_CC_ROUTE_PIPELINE 2  /* opt -passes='<printed -O2 pipeline minus entries>' + llc */

struct bg_cc_opts {
	size_t sz;              /* sizeof(struct bg_cc_opts) */
	const char *clang;      /* clang to run; NULL: the newest installed (clang-N, clang) in
				 * the PATH of envp (the CLI reads $BPFGATE_CLANG) */
	unsigned verifiers;     /* BG_CC_VERIFIER_*; 0: both where available */
	int strict;             /* fail instead of backing out */
	double budget_s;        /* time budget of the search (0: 120 s) */
	int no_sidecar;         /* neither read nor write OUT.bpfgate */
	FILE *progress;         /* one line per step, or NULL */
	int fix_route;          /* BG_CC_ROUTE_* */
	const char *profile;    /* branch profile of `bpfgate cov run --profile`: built with it
				   as an LLVM sample profile (stale parts reported, left out) */
	int no_hints;           /* do not write branch hints (.bpfgate.hints) into the object */
	char *const *envp;      /* environment of clang and the tools run (execve's envp, NULL:
				 * this process's environ); the library never sets variables:
				 * the pass plugin gets BPFGATE_SKIP_PASSES through this list */
	const char *plugin_dir; /* where bpfgate-skip-N.so is (NULL: next to the executable,
				 * plugins/ or ../lib/bpfgate/; the CLI reads $BPFGATE_PLUGIN_DIR) */
	int keep_tmp;           /* keep the work directory (debugging; CLI: $BPFGATE_CC_KEEP) */
	int no_layout;          /* with profile: no profile-guided block layout of the object */
	const char *kernels;    /* "5.10,6.1": also judge in these cached Debian kernels,
				   booted under QEMU (bpfgate kernels fetch); NULL: none.
				   One that judges nothing (not cached, its guest fails):
				   status 2, no object written (an earlier OUT is removed) */
	const char *kernel_cache; /* with kernels: the image cache root (the CLI:
				     $XDG_CACHE_HOME/bpfgate or ~/.cache/bpfgate) */
	const char *kernel_loader; /* bpfgate binary run in the guests (NULL: this
				      executable; the CLI reads $BG_KVM_LOADER) */
	int kernel_timeout_s;   /* wall-clock limit per boot (0: 120 s + 2 s per object;
				   the CLI reads $BG_KVM_TIMEOUT) */
};
#define bg_cc_opts__last_field kernel_timeout_s

struct bg_cc_result;

/* argv: clang arguments exactly as given to bpfgate cc (no argv[0]).
 * Returns 0 and sets *res (free with bg_cc_result__free) or a negative errno. */
BG_API int bg_cc_build(int argc, char **argv, const struct bg_cc_opts *opts,
		       struct bg_cc_result **res);
/* Exit status for the CLI: 0 written and accepted, 1 rejected, 2 bad usage / compile error. */
BG_API int bg_cc_result__status(const struct bg_cc_result *res);
BG_API void bg_cc_result__print(const struct bg_cc_result *res, FILE *f, int json);
BG_API void bg_cc_result__free(struct bg_cc_result *res);

#ifdef __cplusplus
}
#endif
#endif
