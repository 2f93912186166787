/* bpfgate/object.h - a BPF ELF object opened and prepared.
 *
 * bg_object__open() reads a clang-built object (libelf + libbpf's btf API),
 * resolves relocations (maps, global data, subprogram calls, kfuncs/ksyms),
 * applies CO-RE relocations against a target BTF and maps .BTF.ext line and
 * func info onto each program's final instructions.
 *
 * The result, a prepared program per entry point, is the single input of the
 * verifier, interpreter, coverage and the kernel oracle:
 *  - instructions are final: subprograms appended as the kernel would see them;
 *  - map references are ld_imm64 with pseudo BG_PSEUDO_MAP_IDX (imm = map index
 *    in the object) or BG_PSEUDO_MAP_IDX_VALUE (imm = map index, next imm =
 *    offset in the value), so the program loads with an fd_array as-is;
 *  - a CO-RE relocation that cannot be satisfied poisons its instruction the
 *    way libbpf does (call to helper 0xbad2310) and records the reason.
 * The object owns everything; getters lend pointers valid until __free().
 *
 * Thread safety: opening objects is reentrant; an opened object is read-only
 * for its getters and the verifier/interpreter, so several threads may use
 * one object at once; modifying calls (bg_object__add_map,
 * bg_program__set_insns) need exclusive access.
 */
#ifndef BPFGATE_OBJECT_H
#define BPFGATE_OBJECT_H

#include <stddef.h>
#include <stdint.h>
#include <bpfgate/insn.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bg_object;
struct bg_program;
struct btf; /* libbpf */

struct bg_open_opts {
	size_t sz;               /* sizeof(struct bg_open_opts) */
	const char *btf_path;    /* target BTF for CO-RE; NULL: /sys/kernel/btf/vmlinux */
	int no_core;             /* leave CO-RE relocations unapplied (poison them) */
	const struct btf *target_btf; /* target BTF already parsed (not owned, outlives the
				       object); overrides btf_path. Lets callers that open many
				       objects parse vmlinux once. */
	int keep_malformed;      /* a program whose final code does not decode (jump out of
				    range, bad opcode, reserved fields) does not fail the open:
				    it keeps its raw insns, bg_program__insns() returns NULL and
				    bg_program__decode_error() says why (for the kernel oracle) */
	uint32_t kernel_version; /* the target kernel as KERNEL_VERSION(a,b,c), for the libbpf
				    __kconfig facts LINUX_KERNEL_VERSION and LINUX_HAS_BPF_COOKIE
				    (check --kernel V); 0: the running kernel's (uname) */
};
#define bg_open_opts__last_field kernel_version

/* A map the object defines (BTF .maps, legacy maps, or a global data section). */
struct bg_map_def {
	const char *name;        /* "counts", or ".rodata", ".data.custom", ... */
	uint32_t type;           /* enum bpf_map_type */
	uint32_t key_size, value_size, max_entries, map_flags;
	int inner_map;           /* index of the inner map template, or -1 */
	uint32_t btf_key_type_id, btf_value_type_id;
	const void *init_data;   /* global data initial bytes (value_size), or NULL */
	int is_global_data;      /* .data/.rodata/.bss/.kconfig and custom sections */
	int readonly;            /* .rodata / .kconfig: BPF_F_RDONLY_PROG */
	size_t sec_off;          /* file offset of its definition, for messages */
	int inner_of;            /* an inner-map template: index of its outer map; else -1 */
	uint32_t numa_node, map_extra, pinning;
	/* Slots given by a `.values = { [i] = &x }` initializer of a prog array (program
	 * index in the object) or map-in-map (map index); -1 for an empty slot. NULL when
	 * the definition has no initializer. */
	const int32_t *init_slots;
	uint32_t init_slot_cnt;
};

/* Source position of an instruction, from .BTF.ext line info. */
struct bg_line {
	const char *file;        /* as recorded in BTF (may be a full path) */
	const char *text;        /* the source line text, or "" */
	uint32_t line, col;
};

/* A CO-RE relocation that could not be applied (instruction poisoned). */
struct bg_core_failure {
	size_t insn;             /* slot index in the prepared program */
	const char *reason;
};

struct bg_func_info {
	size_t insn;             /* first slot of the function in the prepared program */
	const char *name;
	uint32_t btf_type_id;    /* FUNC type id in the object's BTF */
	int linkage;             /* 0 static, 1 global, 2 extern */
};

/* An assertion of <bpfgate/assert.h> found in the object (see docs/ASSERTIONS.md).
 * kind is BG_ASSERT_RANGE..BG_ASSERT_MAX_INSNS; a and b its constant arguments
 * (range: lo, hi; pkt: n; max_insns: n). */
enum bg_assert_kind {
	BG_ASSERT_RANGE = 1, BG_ASSERT_PKT, BG_ASSERT_NONNULL, BG_ASSERT_CONST,
	BG_ASSERT_UNROLLED, BG_ASSERT_MAX_INSNS,
};
struct bg_assert_site {
	uint8_t kind;            /* enum bg_assert_kind */
	uint8_t size;            /* operand bytes (1, 2, 4, 8); 0 for unrolled/max_insns */
	bool is_signed;          /* operand has a signed type */
	uint32_t line;           /* source line of the assertion (__LINE__) */
	int64_t a, b;
	size_t insn;             /* marker slot in the prepared program */
	int reg;                 /* register holding the operand at the marker, -1 none */
	const char *func;        /* lost: the function that declared it (from its symbol), or NULL */
};

/* Open and prepare. Returns NULL and sets errno on failure; with err non-NULL
 * a message naming the file and offset is written there. */
BG_API struct bg_object *bg_object__open(const char *path, const struct bg_open_opts *opts,
					 char *err, size_t errsz);
/* Same from memory (for the fuzzer and for cc); name is used in messages. */
BG_API struct bg_object *bg_object__open_mem(const void *buf, size_t len, const char *name,
					     const struct bg_open_opts *opts, char *err, size_t errsz);
BG_API void bg_object__free(struct bg_object *obj);

BG_API const char *bg_object__path(const struct bg_object *obj);
BG_API size_t bg_object__prog_cnt(const struct bg_object *obj);
BG_API struct bg_program *bg_object__prog(const struct bg_object *obj, size_t i);
BG_API struct bg_program *bg_object__find_prog(const struct bg_object *obj, const char *name);
BG_API size_t bg_object__map_cnt(const struct bg_object *obj);
BG_API const struct bg_map_def *bg_object__map(const struct bg_object *obj, size_t i);
BG_API const struct btf *bg_object__btf(const struct bg_object *obj);         /* may be NULL */
BG_API const struct btf *bg_object__target_btf(const struct bg_object *obj);  /* may be NULL */
/* Why the object's .BTF was set aside as malformed (it is then read without
 * BTF and BTF.ext), or NULL: a warning to show next to what was listed. */
BG_API const char *bg_object__btf_error(const struct bg_object *obj);
BG_API const char *bg_object__license(const struct bg_object *obj);
BG_API uint32_t bg_object__kversion(const struct bg_object *obj);
BG_API int bg_object__has_btf_ext(const struct bg_object *obj); /* 1 when .BTF.ext was present */

BG_API const char *bg_program__name(const struct bg_program *prog);
BG_API const char *bg_program__section(const struct bg_program *prog);
BG_API uint32_t bg_program__type(const struct bg_program *prog);         /* enum bpf_prog_type */
BG_API uint32_t bg_program__attach_type(const struct bg_program *prog);  /* enum bpf_attach_type */
BG_API const char *bg_program__attach_target(const struct bg_program *prog); /* "tcp_v4_connect" or NULL; struct_ops: "STRUCT:MEMBER" (e.g. "tcp_congestion_ops:init") */
BG_API const char *bg_program__type_name(const struct bg_program *prog); /* "xdp", "kprobe", ... */
BG_API const char *bg_program__attach_type_name(const struct bg_program *prog); /* "cgroup_inet_ingress", ... or NULL */
/* The program's context is a packet (xdp_md or __sk_buff): 1, else 0. */
BG_API int bg_program__takes_packet(const struct bg_program *prog);
/* The exception callback the entry function names with its BTF decl tag
 * "exception_callback:NAME" (NULL: none; the last one when there are
 * several), which the loader appended to the program as libbpf does: *insn
 * (may be NULL) gets its first instruction, SIZE_MAX when the object has no
 * function of that name; *ntags (may be NULL) how many such tags the entry
 * has (the kernel refuses more than one). */
BG_API const char *bg_program__exception_cb(const struct bg_program *prog, size_t *insn, int *ntags);
BG_API const struct bg_object *bg_program__object(const struct bg_program *prog);
/* BPF_PROG_LOAD prog_flags the section implies (BPF_F_SLEEPABLE for "fentry.s/",
 * BPF_F_XDP_HAS_FRAGS for "xdp.frags"), 0 otherwise. */
BG_API uint32_t bg_program__prog_flags(const struct bg_program *prog);
/* Final instructions: raw (loadable) and decoded (one entry per slot). */
BG_API const struct bg_raw_insn *bg_program__raw(const struct bg_program *prog, size_t *n);
BG_API const struct bg_insn *bg_program__insns(const struct bg_program *prog, size_t *n);
/* With bg_open_opts.keep_malformed: "FILE: insn N (section S offset 0xO, opcode
 * 0xC): why" when the program's code does not decode (then bg_program__insns()
 * is NULL; bg_verify() rejects it with this message), else NULL. */
BG_API const char *bg_program__decode_error(const struct bg_program *prog);
/* Source position of slot i, or NULL when there is no line info for it
 * (the nearest preceding line info entry applies, as in the kernel log). */
BG_API const struct bg_line *bg_program__line(const struct bg_program *prog, size_t i);
BG_API size_t bg_program__func_cnt(const struct bg_program *prog);
BG_API const struct bg_func_info *bg_program__func(const struct bg_program *prog, size_t i);
BG_API size_t bg_program__core_failure_cnt(const struct bg_program *prog);
BG_API const struct bg_core_failure *bg_program__core_failure(const struct bg_program *prog, size_t i);
/* The func_info / line_info arrays in the kernel's load format (for BPF_PROG_LOAD),
 * or NULL when absent. rec_size is set to the record size. */
BG_API const void *bg_program__btf_func_info(const struct bg_program *prog, size_t *cnt, uint32_t *rec_size);
BG_API const void *bg_program__btf_line_info(const struct bg_program *prog, size_t *cnt, uint32_t *rec_size);

/* Assertion markers in prog (every copy the compiler made: unrolling and
 * inlining duplicate them), in slot order; NULL with *n = 0 when none. */
BG_API const struct bg_assert_site *bg_program__asserts(const struct bg_program *prog, size_t *n);
/* Assertions declared in the object whose marker the optimizer removed
 * everywhere (insn and reg are meaningless). */
BG_API const struct bg_assert_site *bg_object__lost_asserts(const struct bg_object *obj, size_t *n);
/* 1 when the object was built with <bpfgate/assert.h> assertions (declared or marked). */
BG_API int bg_object__has_asserts(const struct bg_object *obj);

/* Branch hints: the probability the compiler had for a conditional jump being
 * taken, recorded by bpfgate cc in the section .bpfgate.hints (docs/HINTS.md). */
enum bg_hint_source { BG_HINT_STATIC = 0, BG_HINT_EXPECT = 1, BG_HINT_PROFILE = 2 };
struct bg_hint {
	size_t insn;             /* slot of the conditional jump in the prepared program */
	uint32_t taken;          /* P(taken) * 2^31 (LLVM's BranchProbability numerator) */
	int source;              /* enum bg_hint_source: where LLVM's probability came from */
	const char *file;        /* source of the jump (points into the object) */
	uint32_t line, col;
};
/* The hints of prog's jumps, sorted by slot, in *out (malloc'd; NULL when
 * none). Returns their number, 0 when the object has no hints section, or
 * -BG_ERR_FORMAT with "FILE: section .bpfgate.hints offset 0xO: why" in err
 * for a malformed section. */
BG_API int bg_program__hints(const struct bg_program *prog, struct bg_hint **out, char *err,
			     size_t errsz);
BG_API const char *bg_hint_source_name(int source); /* "static", "expect", "profile" */

/* Editing a prepared program (used by coverage instrumentation). */
/* Append a map to the object; returns its index (what ld_imm64 MAP_IDX
 * references) or a negative errno. The definition is copied. */
BG_API int bg_object__add_map(struct bg_object *obj, const struct bg_map_def *def);
/* Replace prog's instructions with raw[n]. old_to_new[i] (for every old
 * slot i) is the new slot where old instruction i's code starts: func info,
 * line info, CO-RE failures and subprogram starts move with it; new slots
 * between old_to_new[i] and old_to_new[i+1] take old i's source line.
 * The new code is decoded and validated; returns 0 or -EINVAL. */
BG_API int bg_program__set_insns(struct bg_program *prog, const struct bg_raw_insn *raw, size_t n,
				 const size_t *old_to_new);

#ifdef __cplusplus
}
#endif
#endif
