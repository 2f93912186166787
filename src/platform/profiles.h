/* Kernel version profiles: what a given kernel release's verifier offers
 * (instruction set level, loops, iterators, kfuncs...) and its limits. A
 * helper newer than the profile's version is "invalid func" there
 * (bg_helper_allowed). Facts from public kernel changelogs and docs, checked
 * against Debian's 5.10/6.1/6.12/7.2 images under QEMU (tests/data/check/
 * kernels.t); a profile "5.10" is the newest 5.10 LTS as Debian ships it,
 * whose stable backports can predate a feature's upstream release. The
 * default profile is the running machine's kernel, 6.18. */
#ifndef BG_PLATFORM_PROFILES_H
#define BG_PLATFORM_PROFILES_H
#include <stdbool.h>
#include <stdint.h>
#include <bpfgate/profile.h>

/* feature bits: masks of the public bit numbers (bpfgate/profile.h; the first
 * kernel release that has each is in profiles.c) */
enum bg_kfeat {
	BG_KF_BPF2BPF_CALLS = 1ull << BG_KFEAT_BPF2BPF_CALLS,   /* 4.16 */
	BG_KF_JMP32 = 1ull << BG_KFEAT_JMP32,           /* 5.1: ISA v3 (jmp32, alu32 idioms) */
	BG_KF_SPIN_LOCK = 1ull << BG_KFEAT_SPIN_LOCK,       /* 5.1 */
	BG_KF_1M_INSNS = 1ull << BG_KFEAT_1M_INSNS,        /* 5.2: 1M processed insns, 1M insns per program */
	BG_KF_BOUNDED_LOOPS = 1ull << BG_KFEAT_BOUNDED_LOOPS,   /* 5.3 */
	BG_KF_GLOBAL_FUNCS = 1ull << BG_KFEAT_GLOBAL_FUNCS,    /* 5.6: global functions verified independently */
	BG_KF_RINGBUF = 1ull << BG_KFEAT_RINGBUF,         /* 5.8 */
	BG_KF_TAILCALL_SUBPROG = 1ull << BG_KFEAT_TAILCALL_SUBPROG,/* 5.10: tail calls mixed with bpf2bpf calls (x86) */
	BG_KF_ATOMICS = 1ull << BG_KFEAT_ATOMICS,         /* 5.12: fetch add/and/or/xor, xchg, cmpxchg */
	BG_KF_KFUNCS = 1ull << BG_KFEAT_KFUNCS,          /* 5.13: calls to kernel functions (BTF) */
	BG_KF_TIMER = 1ull << BG_KFEAT_TIMER,          /* 5.15 */
	BG_KF_BPF_LOOP = 1ull << BG_KFEAT_BPF_LOOP,       /* 5.17 */
	BG_KF_DYNPTR = 1ull << BG_KFEAT_DYNPTR,         /* 5.19 */
	BG_KF_KPTR = 1ull << BG_KFEAT_KPTR,           /* 5.19 */
	BG_KF_LOCAL_OBJ = 1ull << BG_KFEAT_LOCAL_OBJ,      /* 6.2: bpf_obj_new, lists, rcu_read_lock kfuncs */
	BG_KF_ITERATORS = 1ull << BG_KFEAT_ITERATORS,      /* 6.4: open-coded iterators (bpf_iter_num_*) */
	BG_KF_ISA_V4 = 1ull << BG_KFEAT_ISA_V4,         /* 6.6: sdiv/smod, movsx, ldsx, bswap, gotol */
	BG_KF_EXCEPTIONS = 1ull << BG_KFEAT_EXCEPTIONS,     /* 6.7: bpf_throw */
	BG_KF_MAY_GOTO = 1ull << BG_KFEAT_MAY_GOTO,       /* 6.9 */
	BG_KF_ARENA = 1ull << BG_KFEAT_ARENA,          /* 6.9: arena maps, addr_space_cast */
	BG_KF_LOAD_ACQ_STORE_REL = 1ull << BG_KFEAT_LOAD_ACQ_STORE_REL, /* 6.15: load-acquire / store-release */
	/* added by s2prof (multi-kernel check) */
	BG_KF_GLOBAL_DATA = 1ull << BG_KFEAT_GLOBAL_DATA,    /* 5.2: ld_imm64 of a map value (.data/.rodata/.bss) */
	BG_KF_BTF_KSYM = 1ull << BG_KFEAT_BTF_KSYM,       /* 5.10: ld_imm64 of a kernel symbol by BTF id */
	BG_KF_PSEUDO_FUNC = 1ull << BG_KFEAT_PSEUDO_FUNC,    /* 5.13: ld_imm64 of a BPF function (callbacks) */
	BG_KF_CONST_KEY_LOOKUP = 1ull << BG_KFEAT_CONST_KEY_LOOKUP, /* 6.14: array lookup with a constant in-range key */
					     /* is not NULL (no NULL check needed) */
	BG_KF_UNINIT_STACK_READ = 1ull << BG_KFEAT_UNINIT_STACK_READ, /* 5.12: privileged programs may read uninitialized
					       * stack (directly and through helper arguments);
					       * QEMU: 5.10 rejects, 6.1 accepts */
	BG_KF_VAR_STACK_ACCESS = 1ull << BG_KFEAT_VAR_STACK_ACCESS,  /* 5.12 upstream, in the 5.10 LTS as Debian ships
					       * it (QEMU: 5.10.262 accepts privileged variable-
					       * offset stack loads and stores): 5.10 here */
	BG_KF_GLOBAL_PTR_ARGS = 1ull << BG_KFEAT_GLOBAL_PTR_ARGS,   /* 5.12: global functions take pointers to memory
					       * (nullable: a maybe-NULL pointer may be passed);
					       * before, only ctx and scalars ("Arg#0 type PTR in
					       * f() is not supported yet"); QEMU: 5.10 rejects,
					       * 6.1 and 6.12 accept */
	BG_KF_ST_CTX = 1ull << BG_KFEAT_ST_CTX,            /* 6.3: BPF_ST (store immediate) into ctx ("BPF_ST
					       * stores into R1 ctx is not allowed" before);
					       * QEMU: 5.10 and 6.1 refuse, 6.12 accepts */
	BG_KF_UNINIT_STACK_WRITTEN = 1ull << 29, /* privileged reads of uninitialized stack
						  * within the depth the path has already
						  * written (the kernel's allocated_stack);
						  * beyond it "invalid read from stack".
						  * Measured: Debian's 5.10 LTS (stable
						  * backports) accepts, 5.10 here; from 5.12
						  * (BG_KF_UNINIT_STACK_READ) any depth */
	BG_KF_NONNULL_ARG_NULL = 1ull << BG_KFEAT_NONNULL_ARG_NULL, /* a NULL constant passed for a
					       * global function's pointer argument that may not be
					       * NULL (arg:nonnull) is refused ("arg#N is expected to
					       * be non-NULL"); before, only a maybe-NULL pointer was.
					       * QEMU: 6.12 accepts, 7.2 and the running 6.18 refuse;
					       * no image between them: 6.18 (first seen) */
	BG_KF_WALK_UNTRUSTED = 1ull << BG_KFEAT_WALK_UNTRUSTED, /* 6.4 (the RCU refactoring of
					       * check_ptr_to_btf_access): a BTF pointer walked from a
					       * trusted or RCU one without an allow-list entry is
					       * PTR_UNTRUSTED, refused by helpers' BTF arguments;
					       * before, a plain PTR_TO_BTF_ID they take (iterator
					       * programs' ctx->meta->seq to bpf_seq_printf). QEMU:
					       * 5.10 and 6.1 accept, 6.12 and 7.2 as 6.18 */
	/* Range tracking (xfer.c scalar_branch, spill_link, stack_read,
	 * alu_mov): what an older verifier cannot prove, so it walks branches a
	 * newer one proves dead. Each is the release of the kernel commit that
	 * added the capability; tests/data/check/kernels.t has an accepted and a
	 * rejected case of each, confirmed by the booted 5.10/6.1/6.12/7.2. */
	BG_KF_SMALL_SPILL = 1ull << BG_KFEAT_SMALL_SPILL, /* 5.16 upstream ("Support <8-byte
							   * scalar spill and refill"), in the 5.10
							   * LTS as Debian ships it (QEMU: 5.10
							   * keeps a 4-byte spilled constant): 5.10
							   * here. A 1/2/4-byte spill of a bounded
							   * scalar keeps it; before, unknown data */
	BG_KF_PTR_EQ_NOT_NULL = 1ull << BG_KFEAT_PTR_EQ_NOT_NULL, /* 6.2 ("propagate nullness
								   * information for reg to reg
								   * comparisons") */
	BG_KF_BRANCH_JEQ_RANGE = 1ull << BG_KFEAT_BRANCH_JEQ_RANGE, /* 6.4 ("Improve verifier JEQ/JNE
								     * insn branch taken checking"):
								     * before, ==/!= is decided only
								     * when both sides are constants;
								     * from 6.4 also a constant outside
								     * the other's unsigned range */
	BG_KF_BRANCH_CONST_DST = 1ull << BG_KFEAT_BRANCH_CONST_DST, /* 6.4 ("Improve handling of
								     * pattern '<const> <cond_op>
								     * <non_const>'"): before, only a
								     * constant source operand decides */
	BG_KF_MOV32_LINK = 1ull << BG_KFEAT_MOV32_LINK, /* 6.4 ("Improve verifier u32 scalar
							 * equality checking"): before, w1 = w2
							 * never links the two */
	BG_KF_BRANCH_RANGES = 1ull << BG_KFEAT_BRANCH_RANGES, /* 6.8 (is_scalar_branch_taken /
							       * reg_set_min_max generalized to two
							       * registers): before, a comparison
							       * of two non-constant scalars is
							       * never decided and refines nothing
							       * but 64-bit ==/!= */
	BG_KF_SPILL_LINK = 1ull << BG_KFEAT_SPILL_LINK, /* 6.9 ("Assign ID to scalars on spill",
							 * "Track spilled unbounded scalars",
							 * "Preserve boundaries and track scalars
							 * on narrowing fill"): before, a spill
							 * links only a register already linked,
							 * an unbounded scalar spills as unknown
							 * data and a narrower fill is unknown */
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

/* "7.2", "6.18", "6.12", "6.6", "6.1", "5.15", "5.10", "5.4", "4.19" (also "default",
 * "running"); NULL when unknown. */
const struct bg_kernel_profile *bg_profile_by_name(const char *name);
/* The newest profile not newer than version (never NULL: the oldest one). */
const struct bg_kernel_profile *bg_profile_by_version(uint32_t version);
/* The profile bpfgate checks against by default (6.18, the running kernel). */
const struct bg_kernel_profile *bg_profile_default(void);
/* All profiles, newest first. */
const struct bg_kernel_profile *bg_profiles(unsigned *n);
/* added by s2prof: what a profile changes besides feature bits, as tables
 * (src/platform/kversions.def). 0: the id is unknown to bpfgate. */
uint32_t bg_prog_type_since(uint32_t prog_type);     /* enum bpf_prog_type */
uint32_t bg_attach_type_since(uint32_t attach_type); /* enum bpf_attach_type */
uint32_t bg_map_type_since(uint32_t map_type);       /* enum bpf_map_type */
const char *bg_map_type_name(uint32_t map_type);     /* "ringbuf", or NULL */
/* Does the kernel of version kver (0: any) check the expected attach type of
 * prog_type at load? (For the other types libbpf drops it when the kernel
 * does not know it.) */
bool bg_attach_type_required(uint32_t prog_type, uint32_t kver);
/* The ctx field of prog_type's uapi ctx struct (__sk_buff, xdp_md, bpf_sock)
 * that [off, off+size) touches, when it is newer than the oldest profile:
 * returns its first release and sets *name ("__sk_buff.gso_size"); 0 when
 * the access touches no such field. */
uint32_t bg_ctx_field_since(uint32_t prog_type, int64_t off, uint32_t size, const char **name);
/* The release that introduced a feature bit (one bit), 0 if unknown. */
uint32_t bg_feature_since(uint64_t feat);
/* A short name of a feature bit for messages ("bounded loops", "ISA v4"...). */
const char *bg_feature_name(uint64_t feat);
/* "5.17" for BG_KVER(5, 17) into buf (at least 16 bytes); returns buf. */
const char *bg_kver_str(uint32_t kver, char *buf);
/* Parse a comma-separated list of profile names ("5.10,6.1", "all": every
 * profile, newest first) into out[max]; returns the count, or -1 with *bad
 * pointing at the first unknown name (copied into bad_buf[64]). Duplicates
 * are dropped. */
int bg_profile_parse_list(const char *spec, const struct bg_kernel_profile **out, unsigned max,
			  char *bad_buf);
static inline bool bg_profile_has(const struct bg_kernel_profile *p, uint64_t feat)
{
	return p && (p->features & feat) == feat;
}
#endif
