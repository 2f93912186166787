/* bpfgate/kern.h - the running kernel as an oracle.
 *
 * Loads one prepared program at a time (maps created from the object's
 * definitions, global data initialised, nothing pinned, everything closed
 * afterwards) and reports the verdict uniformly. One failure never hides
 * another: each program gets its own load.
 */
#ifndef BPFGATE_KERN_H
#define BPFGATE_KERN_H

#include <stddef.h>
#include <stdint.h>
#include <bpfgate/object.h>

#ifdef __cplusplus
extern "C" {
#endif

enum bg_verdict {
	BG_VERDICT_ACCEPTED = 0,
	BG_VERDICT_REJECTED = 1,
	BG_VERDICT_UNAVAILABLE = 2, /* could not be judged: EPERM before verification,
				       missing attach target / kfunc / ksym, CO-RE failure,
				       bpf() refused */
};
BG_API const char *bg_verdict_name(enum bg_verdict v); /* "accepted", "rejected", "unavailable" */

struct bg_kload_opts {
	size_t sz;              /* sizeof(struct bg_kload_opts) */
	uint32_t log_level;     /* 0: default (1 on failure retry, with BPF_LOG_STATS) */
	size_t log_size;        /* 0: 16 MiB */
	int keep_fd;            /* keep the program fd open in the result (caller closes) */
};

struct bg_kload_result {
	enum bg_verdict verdict;
	int err;                /* negative errno of BPF_PROG_LOAD, 0 when accepted */
	char *reason;           /* why unavailable / short rejection message (last log lines) */
	char *log;              /* full verifier log (may be NULL) */
	long insns_processed;   /* "processed N insns", -1 when unknown */
	long verif_time_usec;   /* "verification time N usec", -1 when unknown */
	int prog_fd;            /* with keep_fd: loaded program fd, else -1 */
	int *map_fds;           /* with keep_fd: fds of the object's maps, else NULL */
	size_t map_cnt;
};

/* Returns 1 when bpf(BPF_PROG_LOAD) works on this machine, 0 otherwise
 * (*why gets a static reason). Cached after the first call. */
BG_API int bg_kern_available(const char **why);

/* Load prog; fills res (free with bg_kload_result__fini). Returns 0 when a
 * verdict (any of the three) was produced, negative errno on internal error. */
BG_API int bg_kern_load(const struct bg_program *prog, const struct bg_kload_opts *opts,
			struct bg_kload_result *res);
BG_API void bg_kload_result__fini(struct bg_kload_result *res);

#ifdef __cplusplus
}
#endif
#endif
