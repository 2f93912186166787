/* bpfgate/profile.h - kernel version profiles: what a kernel release's
 * verifier offers (features such as bounded loops, kfuncs, ISA v4) and its
 * limits (program size, processed instructions, frames, stack, tail calls).
 * bg_verify_opts.profile names one; an older profile gates what that kernel
 * lacks (docs/ARCHITECTURE.md, "kernel profiles").
 *
 * Profiles are constant tables owned by the library: a profile pointer stays
 * valid for the life of the process and is never freed. Versions use the
 * kernel's KERNEL_VERSION encoding (BG_KERNEL_VERSION below).
 *
 * Thread safety: every function may be called from any thread at any time
 * (the tables are filled once, under pthread_once). */
#ifndef BPFGATE_PROFILE_H
#define BPFGATE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <bpfgate/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel's KERNEL_VERSION(a, b, 0): BG_KERNEL_VERSION(5, 10) == 0x050a00. */
#define BG_KERNEL_VERSION(a, b) ((((uint32_t)(a)) << 16) | (((uint32_t)(b)) << 8))

/* Verifier features a profile has or lacks. The values are ABI: append new
 * ones before BG_KFEAT__CNT, never renumber. Each has one row in the library's
 * feature table (src/platform/kfeatures.def: its first release, as
 * bg_kernel_feature__since() returns it, and its name in messages); the
 * library does not compile when the two disagree. */
enum bg_kernel_feature {
	BG_KFEAT_BPF2BPF_CALLS = 0,
	BG_KFEAT_JMP32 = 1,                    /* ISA v3 */
	BG_KFEAT_SPIN_LOCK = 2,
	BG_KFEAT_1M_INSNS = 3,                 /* 1M processed instructions */
	BG_KFEAT_BOUNDED_LOOPS = 4,
	BG_KFEAT_GLOBAL_FUNCS = 5,
	BG_KFEAT_RINGBUF = 6,
	BG_KFEAT_TAILCALL_SUBPROG = 7,
	BG_KFEAT_ATOMICS = 8,
	BG_KFEAT_KFUNCS = 9,
	BG_KFEAT_TIMER = 10,
	BG_KFEAT_BPF_LOOP = 11,
	BG_KFEAT_DYNPTR = 12,
	BG_KFEAT_KPTR = 13,
	BG_KFEAT_LOCAL_OBJ = 14,
	BG_KFEAT_ITERATORS = 15,
	BG_KFEAT_ISA_V4 = 16,
	BG_KFEAT_EXCEPTIONS = 17,
	BG_KFEAT_MAY_GOTO = 18,
	BG_KFEAT_ARENA = 19,
	BG_KFEAT_LOAD_ACQ_STORE_REL = 20,
	BG_KFEAT_GLOBAL_DATA = 21,
	BG_KFEAT_BTF_KSYM = 22,
	BG_KFEAT_PSEUDO_FUNC = 23,
	BG_KFEAT_CONST_KEY_LOOKUP = 24,
	BG_KFEAT_UNINIT_STACK_READ = 25,
	BG_KFEAT_VAR_STACK_ACCESS = 26,
	BG_KFEAT_GLOBAL_PTR_ARGS = 27,
	BG_KFEAT_ST_CTX = 28,
	BG_KFEAT_UNINIT_STACK_WRITTEN = 29,    /* uninitialized stack reads within the written depth */
	BG_KFEAT_NONNULL_ARG_NULL = 30,        /* a NULL constant refused for a non-NULL global function argument */
	BG_KFEAT_WALK_UNTRUSTED = 31,          /* a pointer walked from a trusted one is untrusted unless allow-listed */
	/* range tracking of the verifier (older kernels walk branches a newer
	 * one proves dead) */
	BG_KFEAT_SMALL_SPILL = 32,             /* spills of 1/2/4-byte scalars keep their bounds */
	BG_KFEAT_PTR_EQ_NOT_NULL = 33,         /* ptr == non-NULL ptr proves the first not NULL */
	BG_KFEAT_BRANCH_JEQ_RANGE = 34,        /* ==/!= a constant decided by the other side's range */
	BG_KFEAT_BRANCH_CONST_DST = 35,        /* `if <const> op <reg>` decided */
	BG_KFEAT_MOV32_LINK = 36,              /* w1 = w2 keeps the scalar link (upper 32 bits zero) */
	BG_KFEAT_BRANCH_RANGES = 37,           /* comparisons of two non-constant scalars decided, refined */
	BG_KFEAT_SPILL_LINK = 38,              /* spills link scalars, unbounded spills, narrowing fills */
	BG_KFEAT_FASTCALL = 39,                /* bpf_fastcall spill/fill pairs removed before the stack-depth check */
	BG_KFEAT_BUF_MAP_ARG = 40,             /* an iterator's buffer as a map key or value */
	/* what a program may do (platform facts) */
	BG_KFEAT_BTF_GPL = 41,                 /* kernel BTF objects readable only by GPL-compatible programs */
	BG_KFEAT_BIND_RET3 = 42,               /* cgroup bind programs may return 2 and 3 */
	BG_KFEAT_SLEEPABLE_KPROBE = 43,        /* sleepable kprobe-type programs (uprobes) */
	BG_KFEAT_LOCK_SUBPROG = 44,            /* static subprograms called with a bpf_spin_lock held */
	BG_KFEAT_MEM_MAP_KEY = 45,             /* helper memory (ringbuf, mem) as a map key or value */
	BG_KFEAT_PKT_GLOBAL_CALLS = 46,        /* a global function changing packet data invalidates packet pointers */
	/* how the verifier walks calls */
	BG_KFEAT_ARG_TAGS = 47,                /* `arg:` decl tags of global function arguments honoured */
	BG_KFEAT_CB_ITER = 48,                 /* a callback verified as called any number of times (else exactly once) */
	BG_KFEAT_CFG_FALLTHROUGH_LOOP = 49,    /* a loop closed by a fall-through edge in check_cfg's walk allowed */
	BG_KFEAT_STACK_ROUND16 = 50,           /* frames charged in 16-byte steps with the JIT (else 32, at least 32) */
	/* kernels around the running one (6.12, 7.2) */
	BG_KFEAT_WALK_PLAIN_UNTRUSTED = 51,    /* a member walked from a plain BTF pointer is untrusted (6.18) */
	BG_KFEAT_WALK_PLAIN_COMPAT = 52,       /* ... plain again, as before 6.18 (7.2) */
	BG_KFEAT_TIMER_TRACING = 53,           /* kprobe/tracepoint/perf_event/raw_tp programs may use bpf_timer */
	BG_KFEAT_KFUNC_RAW_TP = 54,            /* raw_tp programs may call the tracing kfuncs */
	BG_KFEAT_VOID_GLOBAL = 55,             /* global functions may return void */
	BG_KFEAT_OBJ_DROP_ONE_META = 56,       /* one bpf_obj_drop call takes objects of one struct meta (6.18) */
	BG_KFEAT_OBJ_DROP_ANY_META = 57,       /* ... of any, as before 6.18 (7.2) */
	BG_KFEAT_CALL_FRAMES16 = 58,           /* 16 bpf-to-bpf call frames (MAX_CALL_FRAMES; 8 before) */
	BG_KFEAT_DIV_RANGES = 59,              /* division and modulo by a constant tracked */
	BG_KFEAT_SLEEPABLE_TP = 60,            /* sleepable tracepoint/raw_tp/tp_btf programs; prog arrays in sleepable ones */
	BG_KFEAT_GLOBAL_SLEEP_CTX = 61,        /* a global function that may sleep refused in RCU/preempt/IRQ sections */
	BG_KFEAT_ARG_UNTRUSTED = 62,           /* `arg:untrusted` decl tags of global function arguments */
	BG_KFEAT_LOCK_ITER_NUM = 63,           /* bpf_iter_num kfuncs called with a bpf_spin_lock held */
	BG_KFEAT__CNT,
};

struct bg_kernel_profile; /* opaque, owned by the library */

/* All profiles, newest first: i in [0, bg_kernel_profile__cnt()); NULL past the end. */
BG_API size_t bg_kernel_profile__cnt(void);
BG_API const struct bg_kernel_profile *bg_kernel_profile__at(size_t i);
/* "7.2", "6.18", "6.12", "6.6", "6.1", "5.15", "5.10", "5.4", "4.19", also
 * "default" / "running"; NULL (errno ENOENT) when unknown. */
BG_API const struct bg_kernel_profile *bg_kernel_profile__by_name(const char *name);
/* The newest profile not newer than kver (never NULL: at worst the oldest). */
BG_API const struct bg_kernel_profile *bg_kernel_profile__by_version(uint32_t kver);
/* The profile bg_verify uses when none is named (the running machine's, 6.18). */
BG_API const struct bg_kernel_profile *bg_kernel_profile__default(void);
/* A comma-separated list of names ("5.10,6.1", "all": every profile, newest
 * first), duplicates dropped, into out[max]. Returns the count, or -ENOENT
 * with the first unknown name (or "(empty list)") copied into bad[bad_sz]. */
BG_API int bg_kernel_profile__parse_list(const char *spec, const struct bg_kernel_profile **out,
					 size_t max, char *bad, size_t bad_sz);

BG_API const char *bg_kernel_profile__name(const struct bg_kernel_profile *p);
BG_API uint32_t bg_kernel_profile__version(const struct bg_kernel_profile *p);
BG_API bool bg_kernel_profile__has(const struct bg_kernel_profile *p, enum bg_kernel_feature f);
/* Limits (privileged loading): instructions per program, processed
 * instructions, bpf-to-bpf frames, stack bytes per frame, tail calls. */
BG_API uint32_t bg_kernel_profile__max_prog_insns(const struct bg_kernel_profile *p);
BG_API uint32_t bg_kernel_profile__max_processed_insns(const struct bg_kernel_profile *p);
BG_API uint32_t bg_kernel_profile__max_call_depth(const struct bg_kernel_profile *p);
BG_API uint32_t bg_kernel_profile__stack_size(const struct bg_kernel_profile *p);
BG_API uint32_t bg_kernel_profile__max_tail_calls(const struct bg_kernel_profile *p);

/* A feature's name for messages ("bounded loops") and first release; NULL / 0
 * for a value outside the enum. */
BG_API const char *bg_kernel_feature__name(enum bg_kernel_feature f);
BG_API uint32_t bg_kernel_feature__since(enum bg_kernel_feature f);
/* "5.17" for BG_KERNEL_VERSION(5, 17) into buf[n]; returns the length
 * snprintf would, or -EINVAL without a buffer. */
BG_API int bg_kernel_version__str(uint32_t kver, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
