/* bpfgate/verifier.h - the static verifier (bpfgate check) as a library.
 *
 * bg_verify() analyses one prepared program (see object.h) by abstract
 * interpretation in polynomial time and returns a verdict and, for a
 * rejection, a diagnostic located at an instruction and source line. */
#ifndef BPFGATE_VERIFIER_H
#define BPFGATE_VERIFIER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <bpfgate/object.h>
#include <bpfgate/kern.h> /* enum bg_verdict */

#ifdef __cplusplus
extern "C" {
#endif

struct bg_verify_opts {
	size_t sz;                 /* sizeof(struct bg_verify_opts) */
	const char *profile;       /* kernel profile, e.g. "6.18" (default), "6.1", "5.15" */
	int unprivileged;          /* model unprivileged loading (default: privileged) */
	FILE *trace;               /* -v: abstract state before every instruction, or NULL */
	uint64_t max_steps;        /* resource limit (0: default); exceeded -> "too complex" */
};

/* One step of the path that leads to a rejection. */
struct bg_path_step {
	size_t insn;               /* slot index of the branch */
	int taken;                 /* 1 taken, 0 fall through */
};

struct bg_diag {
	size_t insn;               /* slot index of the failing instruction */
	const char *check;         /* short name of the failed assertion, e.g. "pkt_bounds" */
	char *message;             /* full text: "insn 17 (r0 = ...): packet access out of bounds: ..." */
	const struct bg_line *line;/* source position or NULL */
	struct bg_path_step *path; /* branches leading there */
	size_t path_len;
};

struct bg_verify_result {
	enum bg_verdict verdict;   /* accepted / rejected / unavailable (unsupported input) */
	struct bg_diag diag;       /* valid when rejected */
	double seconds;            /* analysis wall time */
	uint64_t steps;            /* abstract transfer steps performed */
	size_t peak_bytes;         /* peak memory of abstract states */
};

/* Returns 0 when a verdict was produced, negative errno on internal error. */
BG_API int bg_verify(const struct bg_program *prog, const struct bg_verify_opts *opts,
		     struct bg_verify_result *res);
BG_API void bg_verify_result__fini(struct bg_verify_result *res);

#ifdef __cplusplus
}
#endif
#endif
