/* bpfgate/verifier.h - the static verifier (bpfgate check) as a library.
 *
 * bg_verify() analyses one prepared program (see object.h) by abstract
 * interpretation in polynomial time and returns a verdict and, for a
 * rejection, a diagnostic located at an instruction and source line.
 *
 * Thread safety: bg_verify and bg_verify_states__new keep all state per call:
 * any number of threads may analyse programs (also of one shared object) at
 * once (tests/unit/test_threads.c, under ThreadSanitizer with make tsan). */
#ifndef BPFGATE_VERIFIER_H
#define BPFGATE_VERIFIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <bpfgate/types.h> /* enum bg_verdict */
#include <bpfgate/object.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bg_verify_opts {
	size_t sz;                 /* sizeof(struct bg_verify_opts) */
	const char *profile;       /* kernel profile, e.g. "6.18" (default), "6.1", "5.15"; an unknown
				    * name makes bg_verify return -EINVAL (names: bpfgate check
				    * --list-kernels). Older profiles gate availability (helpers, kfuncs,
				    * types, ISA, loops...), not an older verifier's value tracking. */
	int unprivileged;          /* model unprivileged loading (default: privileged) */
	FILE *trace;               /* -v: abstract state before every instruction, or NULL */
	uint64_t max_steps;        /* resource limit (0: default); exceeded -> "too complex" */
	uint32_t max_disjuncts;    /* states kept apart per program point and loop iteration
				    * (trace partitioning bound K; 0: default 8) */
	FILE *stats;               /* fixpoint statistics (totals, then per loop head, then the
				    * kernel-work estimate's loops) written here after the
				    * analysis, or NULL; the totals are also in bg_verify_result */
	int no_kernel_verdict;     /* estimate the kernel's work (bg_verify_result.kernel) but
				    * do not reject a safe program over the kernel's limits */
};
#define bg_verify_opts__last_field no_kernel_verdict

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

/* Will the kernel's verifier finish? An estimate of its path walk with state
 * pruning on a program bpfgate found safe (src/analysis/kcost.h). */
enum bg_kernel_limit {
	BG_KLIMIT_NONE = 0,        /* within the kernel's limits */
	BG_KLIMIT_INSNS,           /* > 1M processed insns: "BPF program is too large" */
	BG_KLIMIT_JMP_SEQ,         /* > 8192 pending branches: "The sequence of 8193 jumps is too complex" */
};

struct bg_kernel_estimate {
	bool valid;                /* an estimate was made (the analysis found the program safe) */
	enum bg_kernel_limit limit;
	uint64_t insns;            /* estimated processed instructions */
	uint64_t jmp_seq;          /* estimated deepest stack of pending branch states */
	size_t jmp_insn;           /* the branch where that stack is deepest */
	size_t loop_insn;          /* head of the loop whose walk costs most (loop_trips > 0) */
	uint64_t loop_trips;       /* its estimated iterations */
	size_t func_insn;          /* first insn of the function whose walks cost most */
};

struct bg_verify_result {
	enum bg_verdict verdict;   /* accepted / rejected / unavailable (unsupported input); rejected
				    * with diag.check "kernel_complexity" when the analysis found the
				    * program safe but the kernel is estimated to give up (kernel.limit) */
	struct bg_diag diag;       /* valid when rejected */
	double seconds;            /* analysis wall time */
	uint64_t steps;            /* abstract transfer steps performed */
	size_t peak_bytes;         /* peak memory of abstract states */
	/* statistics of the fixpoint (bpfgate check --stats) */
	uint32_t contexts;         /* call contexts analysed */
	uint32_t blocks;           /* basic blocks of the program */
	uint64_t nodes;            /* (context, block) pairs holding states */
	uint64_t disjuncts;        /* states stored over all nodes */
	uint64_t max_disjuncts;    /* most states at one node */
	uint64_t visits;           /* times a stored state was processed */
	struct bg_kernel_estimate kernel; /* the kernel's work, when valid */
};

/* Returns 0 when a verdict was produced, negative errno on internal error. */
BG_API int bg_verify(const struct bg_program *prog, const struct bg_verify_opts *opts,
		     struct bg_verify_result *res);
BG_API void bg_verify_result__fini(struct bg_verify_result *res);


/* ---------------------------------------------------------------------
 * The analysis' claims: abstract register values before every instruction.
 *
 * bg_verify_states__new() runs the same analysis as bg_verify() and keeps,
 * per instruction slot, the distinct abstract register files it stepped
 * through (every call context and disjunct; intermediate loop states too,
 * whose union covers the fixpoint). For an accepted program, every concrete
 * run must be covered: at each executed instruction, the registers of the
 * current frame lie in at least one of the states of that slot. The
 * soundness test (tests/unit/test_soundness.c) checks exactly this against
 * the interpreter. Beyond max_per_insn states a slot's new states are
 * joined into a stored one (registers whose kinds differ become
 * BG_AVAL_ANY), which only weakens the claims. */

enum bg_aval_kind {
	BG_AVAL_UNINIT = 0,        /* not initialised: no claim (the program may not read it) */
	BG_AVAL_SCALAR,            /* a number: the scalar fields bound it */
	BG_AVAL_CTX,               /* ctx + offset */
	BG_AVAL_STACK,             /* frame pointer of `frame` + offset */
	BG_AVAL_PKT,               /* packet data + offset */
	BG_AVAL_PKT_META,          /* data_meta + offset */
	BG_AVAL_PKT_END,           /* data_end + offset */
	BG_AVAL_MAP_PTR,           /* the map `map` */
	BG_AVAL_MAP_VALUE,         /* a value of map `map` + offset */
	BG_AVAL_MEM,               /* helper/kfunc memory of mem_size bytes + offset */
	BG_AVAL_RINGBUF_MEM,       /* a ringbuf record of mem_size bytes + offset */
	BG_AVAL_BTF_ID,            /* kernel object pointer (BTF type) + offset */
	BG_AVAL_SOCK,
	BG_AVAL_SOCK_COMMON,
	BG_AVAL_TCP_SOCK,
	BG_AVAL_FUNC,              /* a BPF function: map = its first insn */
	BG_AVAL_ARENA,
	BG_AVAL_ANY,               /* states of different kinds were merged: no claim */
};

#define BG_AVAL_MAYBE_NULL 0x01    /* pointer or NULL (not yet checked) */
#define BG_AVAL_RDONLY 0x02
#define BG_AVAL_UNTRUSTED 0x04
#define BG_AVAL_PERCPU 0x08
#define BG_AVAL_LINK32 0x10        /* scalar link holds modulo 2^32 */

struct bg_aval {
	uint8_t kind;              /* enum bg_aval_kind */
	uint8_t flags;             /* BG_AVAL_* */
	uint8_t frame;             /* BG_AVAL_STACK: call frame (0: main) */
	uint8_t pad;
	int32_t map;               /* map ptr/value: map index; func: first insn; else -1 */
	uint32_t mem_size;         /* mem/ringbuf_mem: accessible bytes */
	/* Packet pointers: `base` names a packet position (0: data itself, for
	 * BG_AVAL_PKT_META: data_meta); ptr - delta is that position, the same
	 * for every register with the same nonzero base; and, when pkt_range > 0,
	 * end - (ptr - delta) >= pkt_range with end = data_end (data for
	 * packet_meta); 0: no room proven (the pointer may be past the end).
	 * pkt_range < 0: the base is lost, no relation at all. Scalars: registers with the same
	 * nonzero base hold value - delta equal (low 32 bits with LINK32). */
	uint32_t base;
	int32_t delta;
	int64_t pkt_range;
	/* scalar: the value; pointers: the offset (stack: from the frame
	 * pointer, packet: from data, packet_meta: from data_meta). A value x
	 * is in it when it is inside the four intervals and
	 * (x & ~tn_mask) == tn_value. */
	uint64_t umin, umax;
	int64_t smin, smax;
	uint32_t u32min, u32max;
	int32_t s32min, s32max;
	uint64_t tn_value, tn_mask;
};

#define BG_ASTATE_GLOBAL_ROOT 0x1  /* frames count from a global function's entry
				      * (analysed once, apart from its callers) */

struct bg_astate {
	uint32_t frame;            /* current call frame (0: main, or the global function) */
	uint32_t flags;            /* BG_ASTATE_* */
	struct bg_aval r[11];      /* r0..r10 of the current frame */
};

struct bg_verify_states_opts {
	size_t sz;                 /* sizeof(struct bg_verify_states_opts) */
	const char *profile;       /* as bg_verify_opts */
	int unprivileged;
	uint64_t max_steps;
	size_t max_per_insn;       /* distinct states kept per slot (0: 64) */
	uint32_t max_disjuncts;    /* as bg_verify_opts */
};
#define bg_verify_states_opts__last_field max_disjuncts

struct bg_verify_states;

/* Analyse prog and keep its states. NULL with errno set on internal error;
 * a rejected program still gives an object (its verdict says so). */
BG_API struct bg_verify_states *bg_verify_states__new(const struct bg_program *prog,
						       const struct bg_verify_states_opts *opts);
BG_API void bg_verify_states__free(struct bg_verify_states *st);
/* The verdict and diagnostic, as bg_verify() gives them. */
BG_API const struct bg_verify_result *bg_verify_states__result(const struct bg_verify_states *st);
BG_API size_t bg_verify_states__insn_cnt(const struct bg_verify_states *st);
/* Number of states at slot pc (0: never reached), and the i-th. */
BG_API size_t bg_verify_states__cnt(const struct bg_verify_states *st, size_t pc);
BG_API const struct bg_astate *bg_verify_states__get(const struct bg_verify_states *st, size_t pc,
						     size_t i);
/* Stack claims of state i at pc: the 8-byte slots (of every frame in the
 * state) that hold known-zero bytes or a spilled register. */
struct bg_aslot {
	uint8_t frame;             /* as BG_AVAL_STACK's frame */
	uint8_t init;              /* initialised bytes (bit b: byte off + b) */
	uint8_t zero;              /* bytes known to be zero (subset of init) */
	uint8_t spill_size;        /* 0 none; else a register spilled in bytes [off, off+size) */
	int32_t off;               /* slot start from the frame pointer (-8, -16, ...) */
	struct bg_aval spill;      /* the spilled register (scalars: its low spill_size bytes) */
};
BG_API const struct bg_aslot *bg_verify_states__slots(const struct bg_verify_states *st,
						      size_t pc, size_t i, size_t *n);
/* States joined because a slot had max_per_insn already. */
BG_API size_t bg_verify_states__merged(const struct bg_verify_states *st);
/* Does a concrete 64-bit value lie in the numeric part (value / offset)? */
BG_API bool bg_aval__contains(const struct bg_aval *a, uint64_t x);
/* "scalar [0,255] (0x0; 0xff)", "pkt+[14,14] base 3 delta 14 range 20", ... */
BG_API int bg_aval__fmt(const struct bg_aval *a, char *buf, size_t sz);
/* Name of a kind ("pkt", "map_value", "any"); "?" when out of range. */
BG_API const char *bg_aval_kind_str(unsigned kind);

/* ---------------------------------------------------------------------
 * Assertions of <bpfgate/assert.h> (docs/ASSERTIONS.md), checked against
 * the analysis' states at each marker (every copy, every state there). */
enum bg_assert_status {
	BG_ASSERT_HOLDS = 0,
	BG_ASSERT_FAILS,           /* some state at the marker does not prove it */
	BG_ASSERT_LOST,            /* declared, but the optimizer removed every marker */
	BG_ASSERT_UNREACHED,       /* marker present, no state reaches it: dead code to the
				    * verifier, or the analysis stopped at a rejection */
};

struct bg_assert_result {
	struct bg_assert_site site;   /* the marker (lost: the declaration) */
	enum bg_assert_status status;
	const struct bg_line *loc;    /* source position (file from line info), or NULL */
	char text[128];               /* "bg_assert_pkt(ip, 20)" (from the source line when known) */
	char why[256];                /* FAILS: "r3 = pkt(off=14, r=14)"; else what was seen */
	size_t states;                /* states checked at the marker */
};

/* Check every marker of prog against st (bg_verify_states__new of the same
 * program); with lost != 0 also report the object's lost declarations that
 * belong to prog's functions (or to no known function, reported once by
 * the object's first program). *out is malloc'd (free() it); returns the
 * count or a negative errno. */
BG_API int bg_asserts__check(const struct bg_program *prog, const struct bg_verify_states *st,
			     int lost, struct bg_assert_result **out);
BG_API const char *bg_assert_status_name(enum bg_assert_status s); /* "holds", "fails", ... */
BG_API const char *bg_assert_kind_name(int kind);                  /* "pkt", "range", ... */

#ifdef __cplusplus
}
#endif
#endif
