/* Kernel version profiles: what a given kernel release's verifier offers
 * (instruction set level, loops, iterators, kfuncs...) and its limits. A
 * helper newer than the profile's version is "invalid func" there
 * (bg_helper_allowed). Facts from public kernel changelogs and docs; the
 * default profile is the running machine's kernel, 6.18. */
#ifndef BG_PLATFORM_PROFILES_H
#define BG_PLATFORM_PROFILES_H
#include <stdbool.h>
#include <stdint.h>

/* feature bits (the first kernel release that has each is in profiles.c) */
enum bg_kfeat {
	BG_KF_BPF2BPF_CALLS = 1ull << 0,   /* 4.16 */
	BG_KF_JMP32 = 1ull << 1,           /* 5.1: ISA v3 (jmp32, alu32 idioms) */
	BG_KF_SPIN_LOCK = 1ull << 2,       /* 5.1 */
	BG_KF_1M_INSNS = 1ull << 3,        /* 5.2: 1M processed insns, 1M insns per program */
	BG_KF_BOUNDED_LOOPS = 1ull << 4,   /* 5.3 */
	BG_KF_GLOBAL_FUNCS = 1ull << 5,    /* 5.6: global functions verified independently */
	BG_KF_RINGBUF = 1ull << 6,         /* 5.8 */
	BG_KF_TAILCALL_SUBPROG = 1ull << 7,/* 5.10: tail calls mixed with bpf2bpf calls (x86) */
	BG_KF_ATOMICS = 1ull << 8,         /* 5.12: fetch add/and/or/xor, xchg, cmpxchg */
	BG_KF_KFUNCS = 1ull << 9,          /* 5.13: calls to kernel functions (BTF) */
	BG_KF_TIMER = 1ull << 10,          /* 5.15 */
	BG_KF_BPF_LOOP = 1ull << 11,       /* 5.17 */
	BG_KF_DYNPTR = 1ull << 12,         /* 5.19 */
	BG_KF_KPTR = 1ull << 13,           /* 5.19 */
	BG_KF_LOCAL_OBJ = 1ull << 14,      /* 6.2: bpf_obj_new, lists, rcu_read_lock kfuncs */
	BG_KF_ITERATORS = 1ull << 15,      /* 6.4: open-coded iterators (bpf_iter_num_*) */
	BG_KF_ISA_V4 = 1ull << 16,         /* 6.6: sdiv/smod, movsx, ldsx, bswap, gotol */
	BG_KF_EXCEPTIONS = 1ull << 17,     /* 6.7: bpf_throw */
	BG_KF_MAY_GOTO = 1ull << 18,       /* 6.9 */
	BG_KF_ARENA = 1ull << 19,          /* 6.9: arena maps, addr_space_cast */
	BG_KF_LOAD_ACQ_STORE_REL = 1ull << 20, /* 6.15: load-acquire / store-release */
};

struct bg_kernel_profile {
	const char *name;            /* "6.18" */
	uint32_t version;            /* BG_KVER(6, 18) */
	uint64_t features;           /* enum bg_kfeat bits */
	uint32_t max_processed_insns;/* verifier complexity limit (privileged) */
	uint32_t max_prog_insns;     /* program size limit (privileged) */
	uint32_t max_call_depth;     /* bpf-to-bpf frames */
	uint32_t stack_size;         /* bytes per frame */
	uint32_t max_tail_calls;     /* MAX_TAIL_CALL_CNT */
};

/* "6.18", "6.1", "5.15", "5.10", "5.4" (also "default", "running"); NULL when unknown. */
const struct bg_kernel_profile *bg_profile_by_name(const char *name);
/* The newest profile not newer than version (never NULL: the oldest one). */
const struct bg_kernel_profile *bg_profile_by_version(uint32_t version);
/* The profile bpfgate checks against by default (6.18, the running kernel). */
const struct bg_kernel_profile *bg_profile_default(void);
/* All profiles, newest first. */
const struct bg_kernel_profile *bg_profiles(unsigned *n);
static inline bool bg_profile_has(const struct bg_kernel_profile *p, uint64_t feat)
{
	return p && (p->features & feat) == feat;
}
#endif
