/* bpfgate/cov.h - line and branch coverage of BPF programs.
 *
 * bg_cov__instrument() rewrites a prepared program in place: a 64-bit
 * counter per basic block and two per conditional jump (taken / not taken),
 * each incremented by `lock *(u64 *)(rX + 0) += rY` in a single-entry array
 * map appended to the object (direct value access, no helper call). Scratch
 * registers come from a liveness analysis; where fewer than two are dead,
 * two initialized registers are spilled to stack slots below the deepest
 * slot the function uses. The instrumented program runs anywhere the
 * prepared program runs: the kernel (bg_kern_load) or the interpreter.
 * Counts are read from the map value, summed over runs, and written as an
 * lcov tracefile mapped to source lines through .BTF.ext line info.
 *
 * Thread safety: a struct bg_cov is used by one thread at a time; different
 * ones may be used from different threads at once. */
#ifndef BPFGATE_COV_H
#define BPFGATE_COV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <limits.h>
#include <stdbool.h>
#include <bpfgate/object.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bg_cov;

enum bg_cov_kind { BG_COV_BLOCK = 0, BG_COV_TAKEN = 1, BG_COV_NOT_TAKEN = 2 };

struct bg_cov_counter {
	enum bg_cov_kind kind;
	size_t insn;            /* original slot: block leader, or the conditional jump */
};

/* Instrument prog (modified in place; its object gains the counters map).
 * Returns NULL with errno set and a reason in err on failure. */
BG_API struct bg_cov *bg_cov__instrument(struct bg_program *prog, char *err, size_t errsz);
BG_API void bg_cov__free(struct bg_cov *cov);
BG_API int bg_cov__map_index(const struct bg_cov *cov);      /* the counters map */
BG_API size_t bg_cov__counter_cnt(const struct bg_cov *cov);
BG_API const struct bg_cov_counter *bg_cov__counter(const struct bg_cov *cov, size_t i);
BG_API size_t bg_cov__insns_before(const struct bg_cov *cov);
BG_API size_t bg_cov__insns_after(const struct bg_cov *cov);
BG_API size_t bg_cov__spills(const struct bg_cov *cov);       /* counter sites that spill */
/* Add one run's counter values (the map value, counter_cnt u64s). */
BG_API void bg_cov__add(struct bg_cov *cov, const uint64_t *vals);
BG_API const uint64_t *bg_cov__counts(const struct bg_cov *cov);
BG_API const struct bg_program *bg_cov__program(const struct bg_cov *cov); /* the instrumented program */

/* lcov tracefile of several instrumented programs (sums per file and line). */
BG_API int bg_cov__write_lcov(struct bg_cov *const *covs, size_t n, const char *test_name, FILE *f);
/* Branch profile (JSON array): per conditional jump a "kind":"branch" record
 * (taken / not-taken counts, program, func, file, line, col, source text),
 * per source line a "kind":"line" record (count: runs of its hottest block).
 * bpfgate cc --profile reads it (src/cc/profile.c). */
BG_API int bg_cov__write_profile(struct bg_cov *const *covs, size_t n, FILE *f);

/* The program's control-flow graph with its counts as a Graphviz dot graph:
 * blocks coloured by runs (white never, red the hottest), edges labelled and
 * widened by their counts (taken solid, fall-through dashed). */
BG_API int bg_cov__write_dot(const struct bg_cov *cov, FILE *f);

/* Running an instrumented program and collecting its counts. */
struct bg_cov_input {
	const void *data;       /* packet bytes */
	uint32_t len;
};
struct bg_cov_run_opts {
	size_t sz;              /* sizeof(struct bg_cov_run_opts) */
	uint32_t repeat;        /* runs per input (0: 1) */
	uint32_t *retvals;      /* optional: r0 of the last run per input */
	int *input_errs;        /* optional, kernel runs: 0 or the -errno the test run
				 * refused each input with */
};
#define bg_cov_run_opts__last_field input_errs
/* The original slot of slot insn of the instrumented program (a counter or a
 * trampoline belongs to the instruction it counts), or -1 when out of range. */
BG_API long bg_cov__orig_insn(const struct bg_cov *cov, size_t insn);
/* msg with every "insn N" of the instrumented program rewritten as
 * "insn M (instrumented N)" in the original numbering; returns its length. */
BG_API size_t bg_cov__message(const struct bg_cov *cov, const char *msg, char *out, size_t sz);
/* In the kernel (BPF_PROG_TEST_RUN; needs bpf()). Counts are added to cov.
 * An input the kernel refuses is skipped and the others still count: returns
 * 0, the number (> 0) of refused inputs (the first named in err, each in
 * opts->input_errs), or -errno when nothing ran or counts could not be read. */
BG_API int bg_cov__run_kernel(struct bg_cov *cov, const struct bg_cov_input *in, size_t n,
			      const struct bg_cov_run_opts *opts, char *err, size_t errsz);
/* In the interpreter (no privileges). Counts are added to cov. */
BG_API int bg_cov__run_vm(struct bg_cov *cov, const struct bg_cov_input *in, size_t n,
			  const struct bg_cov_run_opts *opts, char *err, size_t errsz);
/* Load the instrumented program in the kernel and keep it (for attaching):
 * returns the program fd and sets *map_fd to the counters map; close both,
 * after bg_cov__read_kernel(). */
BG_API int bg_cov__load_kernel(struct bg_cov *cov, int *map_fd, char *err, size_t errsz);
BG_API int bg_cov__read_kernel(struct bg_cov *cov, int map_fd);

/* User-space probe targets (`cov run --attach`): "PATH:FUNC[+OFF]" (libbpf's
 * uprobe section syntax) resolved to a binary and a file offset through the
 * ELF symbol table (st_value translated through its section: right for
 * ET_EXEC and ET_DYN), and USDT probes found in .note.stapsdt. */
/* libbpf's USDT argument spec: the value layout of the __bpf_usdt_specs map
 * that programs built with <bpf/usdt.bpf.h> read (struct __bpf_usdt_spec,
 * the attach cookie is its index). x86-64 operands only. */
enum bg_usdt_arg_type { BG_USDT_ARG_CONST, BG_USDT_ARG_REG, BG_USDT_ARG_REG_DEREF };
#define BG_USDT_MAX_ARGS 12
struct bg_usdt_arg {
	uint64_t val_off;  /* the constant, or the offset added to the register */
	uint32_t type;     /* enum bg_usdt_arg_type */
	int16_t reg_off;   /* offsetof(struct pt_regs, reg) */
	uint8_t is_signed; /* "-4@..." */
	int8_t bitshift;   /* 64 - 8 * size */
};
struct bg_usdt_spec {
	struct bg_usdt_arg args[BG_USDT_MAX_ARGS];
	uint64_t cookie;
	int16_t arg_cnt;
};

struct bg_uprobe_target {
	char path[PATH_MAX]; /* the file as the kernel will open it */
	uint64_t offset;     /* file offset of the probed instruction */
	uint64_t ref_ctr;    /* USDT semaphore file offset, 0 when none */
	struct bg_usdt_spec spec; /* USDT: where the arguments are */
};

/* A binary named without a '/' is looked up: shared objects (".so" in the
 * name) in the usual library directories, others in the standard program
 * directories (/usr/local/sbin ... /bin; not $PATH: the library reads no
 * environment). Returns 0, or -errno with a reason in err. */
BG_API int bg_uprobe__find_binary(const char *name, char *path, size_t pathsz, char *err, size_t errsz);

/* Resolve "PATH:FUNC[+OFF]" or "PATH:0xOFF" (a raw file offset). FUNC must
 * be a defined function symbol (.symtab first, then .dynsym); several
 * definitions at different addresses are refused as ambiguous unless exactly
 * one is global. Returns 0, or -errno with a reason in err. */
BG_API int bg_uprobe__resolve(const char *spec, struct bg_uprobe_target *t, char *err, size_t errsz);

/* uprobe.multi: "PATH:PATTERN" (fnmatch glob over function names, as
 * libbpf) to the distinct file offsets of every matching function. Fills up
 * to max offsets into offs and the binary into path; returns how many match
 * (may exceed max), or -errno with a reason in err. */
BG_API int bg_uprobe__resolve_multi(const char *spec, char *path, size_t pathsz, uint64_t *offs, size_t max,
			     char *err, size_t errsz);

/* Resolve "PATH:PROVIDER:NAME" to the USDT probe sites recorded in the
 * binary's .note.stapsdt. Fills up to max targets; returns how many sites
 * exist (may exceed max), or -errno with a reason in err. */
BG_API int bg_usdt__resolve(const char *spec, struct bg_uprobe_target *t, size_t max, char *err,
		     size_t errsz);

/* Parse a stapsdt argument string ("-4@%esi 8@-16(%rbp) 4@$7") into spec.
 * Returns 0, or -EINVAL with the operand that is not understood in err. */
BG_API int bg_usdt__parse_args(const char *args, struct bg_usdt_spec *spec, char *err, size_t errsz);


#ifdef __cplusplus
}
#endif
#endif
