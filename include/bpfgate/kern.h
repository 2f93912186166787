/* bpfgate/kern.h - the running kernel as an oracle.
 *
 * Loads one prepared program at a time (maps created from the object's
 * definitions, global data initialised, nothing pinned, everything closed
 * afterwards) and reports the verdict uniformly. One failure never hides
 * another: each program gets its own load.
 *
 * Thread safety: loads and test runs of different programs may run in
 * parallel threads (the vmlinux BTF and the bpf() probe are initialised once
 * under pthread_once); a result is owned by one thread.
 */
#ifndef BPFGATE_KERN_H
#define BPFGATE_KERN_H

#include <stddef.h>
#include <stdint.h>
#include <bpfgate/types.h>
#include <bpfgate/object.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bg_kload_opts {
	size_t sz;              /* sizeof(struct bg_kload_opts) */
	uint32_t log_level;     /* 0: default (1 on failure retry, with BPF_LOG_STATS) */
	size_t log_size;        /* 0: 16 MiB */
	int keep_fd;            /* keep program and map fds open in the result; they are
				   closed by bg_kload_result__fini unless the caller takes
				   them (sets prog_fd = -1 / map_fds = NULL) */
};
#define bg_kload_opts__last_field keep_fd

struct bg_kload_result {
	enum bg_verdict verdict;
	int err;                /* negative errno of BPF_PROG_LOAD, 0 when accepted */
	char *reason;           /* why unavailable / short rejection message (last log lines) */
	char *log;              /* full verifier log (may be NULL) */
	long insns_processed;   /* "processed N insns", -1 when unknown */
	long verif_time_usec;   /* "verification time N usec", -1 when unknown */
	int prog_fd;            /* with keep_fd: loaded program fd, else -1 */
	int *map_fds;           /* with keep_fd: fds indexed like bg_object__map (-1 for maps
				   the program does not reference), else NULL */
	size_t map_cnt;
	/* rejected: where the verifier stopped (from its log; line info needed for
	 * file/line/source) */
	long fail_insn;         /* last instruction the verifier printed, -1 unknown */
	char *fail_file;        /* source file, NULL when unknown */
	uint32_t fail_line;     /* 0 when unknown */
	char *fail_source;      /* the source line's text, NULL when unknown */
};

/* Returns 1 when bpf(BPF_PROG_LOAD) works on this machine, 0 otherwise
 * (*why gets a static reason). Cached after the first call. */
BG_API int bg_kern_available(const char **why);

/* Load prog; fills res (free with bg_kload_result__fini). Returns 0 when a
 * verdict (any of the three) was produced, negative errno on internal error. */
BG_API int bg_kern_load(const struct bg_program *prog, const struct bg_kload_opts *opts,
			struct bg_kload_result *res);
BG_API void bg_kload_result__fini(struct bg_kload_result *res);

/* --- Running a loaded program (BPF_PROG_TEST_RUN) ---------------------------
 * For differential tests and coverage: load with keep_fd, then run the
 * program fd on chosen input. Fields mirror the kernel's test_run attr. */
struct bg_test_run_opts {
	size_t sz;              /* sizeof(struct bg_test_run_opts) */
	const void *data_in;    /* packet (XDP, tc, socket filter, ...) or NULL */
	uint32_t data_size_in;
	void *data_out;         /* optional; data_size_out in: capacity, out: length */
	uint32_t data_size_out;
	const void *ctx_in;     /* optional context (e.g. struct xdp_md, __sk_buff) */
	uint32_t ctx_size_in;
	void *ctx_out;          /* optional; ctx_size_out in: capacity, out: length */
	uint32_t ctx_size_out;
	uint32_t repeat;        /* 0 or 1: one run */
	uint32_t flags;         /* BPF_F_TEST_RUN_ON_CPU, BPF_F_TEST_XDP_LIVE_FRAMES */
	uint32_t cpu;
};
#define bg_test_run_opts__last_field cpu

/* Run prog_fd once (or repeat times). *retval gets r0 (32 bits, as the kernel
 * reports it), *duration_ns the mean time per run; either may be NULL.
 * Returns 0 or a negative errno from bpf(BPF_PROG_TEST_RUN). */
BG_API int bg_kern_test_run(int prog_fd, struct bg_test_run_opts *o, uint32_t *retval,
			    uint32_t *duration_ns);

/* --- Reading maps after a run ---------------------------------------------- */
/* Size of one value as user space sees it: value_size, or for per-CPU maps
 * round_up(value_size, 8) * possible CPUs. 0 for maps without values
 * (ring buffers). */
BG_API size_t bg_kern_map_value_size(const struct bg_map_def *def);
/* Number of possible CPUs (cached), as used for per-CPU values. */
BG_API int bg_kern_possible_cpus(void);
/* Call fn for every key of the map, in the kernel's iteration order, with its
 * value (bg_kern_map_value_size bytes). Stops when fn returns non-zero and
 * returns that value; 0 after the last key; negative errno on failure. */
typedef int (*bg_kern_map_fn)(const void *key, const void *value, void *ctx);
BG_API int bg_kern_map_foreach(int map_fd, const struct bg_map_def *def, bg_kern_map_fn fn,
			       void *ctx);
/* Look up one key; value must hold bg_kern_map_value_size(def) bytes.
 * Returns 0, -ENOENT when absent, or another negative errno. */
BG_API int bg_kern_map_lookup(int map_fd, const void *key, void *value);
/* Write one key/value (BPF_ANY). For arrays of global data, key 0. */
BG_API int bg_kern_map_update(int map_fd, const void *key, const void *value);

/* Kernel verifier logs (a bg_kload_result's log, or any other): parsed by the
 * one parser the kernel oracle and the compile driver use. Logs are hostile
 * text; nothing here trusts their length or shape. Pure functions. */
/* Last "processed N insns" / "verification time N usec" in log, or -1. */
BG_API long bg_klog_processed(const char *log);
BG_API long bg_klog_verif_time(const char *log);
/* The verdict message: the last max_lines non-empty lines of log that are
 * not statistics, joined with "\n". Level-2 bookkeeping lines after the
 * message (func#, regs=, state dumps, "Validating f() func#N") are skipped;
 * a statistics line glued to the message ("...tail callverification time
 * 45 usec") and trailing blanks are cut. Returns a malloc'd string, or NULL
 * when the log has no such line. */
BG_API char *bg_klog_message(const char *log, int max_lines);
/* 1 when the log holds nothing but statistics (or is empty). */
BG_API int bg_klog_is_empty(const char *log);
/* Where the verifier stopped: the last instruction it printed and the last
 * source line comment ("; text @ file:line", line > 0) of a level-1 log. */
struct bg_klog_where {
	long insn;     /* -1 when no instruction was printed */
	uint32_t line; /* 0 when no source line */
	char file[256];
	char source[256];
};
/* Returns 0 when anything was found, -1 otherwise. */
BG_API int bg_klog_where(const char *log, struct bg_klog_where *w);

#ifdef __cplusplus
}
#endif
#endif
