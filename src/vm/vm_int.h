/* Internal state of the interpreter (src/vm). The public contract is
 * include/bpfgate/vm.h; this header is shared by vm.c (setup, memory model,
 * dispatch loop), maps.c (userspace maps) and helpers.c (helper calls).
 *
 * Invariants:
 *  - every host access the program makes goes through vm_load/vm_store (or
 *    the inlined stack/packet fast paths) and lands inside a region;
 *  - instruction arrays are translated once (vm_translate) into struct vinsn,
 *    one entry per slot, so indexes stay the kernel's;
 *  - memory handed to a program in one run stays allocated until the run ends
 *    (deleted hash elements go to a graveyard), as RCU keeps it in the kernel.
 */
#ifndef BG_VM_INT_H
#define BG_VM_INT_H
#include <bpfgate/vm.h>
#include <stdbool.h>
#include <stdint.h>

#define VM_STACK_SIZE 512
#define VM_MAX_FRAMES 8
#define VM_MAX_TAIL_CALLS 33
#define VM_MAX_LOOPS (8u * 1024 * 1024) /* may_goto budget, as the kernel's BPF_MAX_LOOPS */
#define VM_PKT_HEADROOM 256
#define VM_PKT_TAILROOM 4096
#define VM_PKT_MAX 65536

/* Internal opcodes: one per specialised handler of the dispatch loop. */
#define VM_ALU_OPS(X) X(ADD) X(SUB) X(MUL) X(DIV) X(SDIV) X(MOD) X(SMOD) X(OR) X(AND) \
	X(LSH) X(RSH) X(ARSH) X(XOR) X(MOV)
#define VM_JMP_OPS(X) X(JEQ) X(JGT) X(JGE) X(JSET) X(JNE) X(JSGT) X(JSGE) X(JLT) X(JLE) \
	X(JSLT) X(JSLE)
#define VM_OPS(X)                                                                     \
	X(INVALID) X(HI)                                                              \
	VM_ALU_OPS(X##A64K) VM_ALU_OPS(X##A64X) VM_ALU_OPS(X##A32K) VM_ALU_OPS(X##A32X) \
	X(NEG64) X(NEG32) X(MOVSX64_8) X(MOVSX64_16) X(MOVSX64_32) X(MOVSX32_8)       \
	X(MOVSX32_16) X(TRUNC16) X(TRUNC32) X(NOP) X(BSWAP16) X(BSWAP32) X(BSWAP64)    \
	X(LDDW) X(LDXB) X(LDXH) X(LDXW) X(LDXDW) X(LDXSB) X(LDXSH) X(LDXSW)          \
	X(STB) X(STH) X(STW) X(STDW) X(STXB) X(STXH) X(STXW) X(STXDW) X(ATOMIC)       \
	X(LDXB_FP) X(LDXH_FP) X(LDXW_FP) X(LDXDW_FP) X(LDXSB_FP) X(LDXSH_FP)          \
	X(LDXSW_FP) X(STB_FP) X(STH_FP) X(STW_FP) X(STDW_FP) X(STXB_FP) X(STXH_FP)   \
	X(STXW_FP) X(STXDW_FP)                                                        \
	X(LDABS) X(LDIND) X(JA)                                                       \
	VM_JMP_OPS(X##J64K) VM_JMP_OPS(X##J64X) VM_JMP_OPS(X##J32K) VM_JMP_OPS(X##J32X) \
	X(MAY_GOTO) X(CALL) X(CALL_LOCAL) X(CALL_KFUNC) X(CALLX) X(EXIT)

/* X##A64K pastes a prefix; these helpers turn it into a name. */
#define XA64K(o) VM_OP_A64K_##o,
#define XA64X(o) VM_OP_A64X_##o,
#define XA32K(o) VM_OP_A32K_##o,
#define XA32X(o) VM_OP_A32X_##o,
#define XJ64K(o) VM_OP_J64K_##o,
#define XJ64X(o) VM_OP_J64X_##o,
#define XJ32K(o) VM_OP_J32K_##o,
#define XJ32X(o) VM_OP_J32X_##o,
#define X(n) VM_OP_##n,
enum vm_op { VM_OPS(X) VM_OP__MAX };
#undef X

/* A translated instruction: 24 bytes, everything precomputed. */
struct vinsn {
	uint16_t op;       /* enum vm_op */
	uint8_t dst, src;
	int16_t off;
	uint8_t size;      /* memory access size (LDABS/LDIND/ATOMIC) */
	uint8_t kf;        /* CALL_KFUNC: enum vm_kfunc (0: not modelled) */
	int32_t target;    /* absolute slot of a jump / local call target */
	uint32_t aux;      /* ATOMIC: atomic op; CALL: helper id */
	uint64_t imm;      /* K operand sign-extended; LDDW: resolved value */
};

enum vm_region_kind {
	VM_R_STACK, VM_R_CTX, VM_R_PKT, VM_R_MAP, VM_R_RINGBUF, VM_R_MEM, VM_R_SCRATCH,
};

struct vm_region {
	uint64_t lo, hi;   /* [lo, hi) host addresses */
	uint8_t kind;      /* enum vm_region_kind */
	bool writable;
	int map;           /* map index, or -1 */
	uint32_t gen;      /* run generation that registered it (transient regions) */
};

/* A userspace map. */
struct vm_hent;
struct vm_map {
	char name[64];
	uint32_t type, key_size, value_size, max_entries, flags;
	uint32_t vsz;            /* value_size rounded up to 8 (array stride) */
	bool readonly;           /* .rodata: read-only for the program */
	int inner;               /* inner map template index (map-in-map), or -1 */
	uint8_t *array;          /* array types: max_entries * vsz bytes */
	uint8_t *array_set;      /* prog_array / map-in-map: slot is occupied */
	uint32_t *array_ref;     /* prog_array / map-in-map: referenced prog / map index */
	struct vm_hent **buckets;/* hash types */
	uint32_t nbuckets, count;
	uint64_t lru_clock;
	int region;              /* fixed region of a global data section, or -1 */
	uint32_t *elem_gen;      /* arrays: run generation of each element's region */
	uint32_t *elem_region;   /* arrays: that region's index */
	uint32_t qhead, qcount;  /* queue / stack */
};

struct vm_hent {
	struct vm_hent *next;
	uint64_t lru;
	uint32_t gen;            /* region registered in this run */
	uint32_t region;         /* its index */
	uint8_t *value;          /* value storage (8-byte aligned) */
	uint8_t key[];           /* key_size bytes */
};

/* A program image: translated code of one program (tail calls switch image). */
struct vm_image {
	struct vinsn *code;
	size_t n;
	const struct bg_program *prog; /* NULL for bare instructions */
	const char *name;
};

struct vm_mem {          /* supplied memory for probe_read */
	uint64_t addr;
	size_t len;
	uint8_t *data;
};

struct vm_frame {
	const struct vinsn *ret; /* return address in the caller */
	uint64_t saved[4];       /* r6..r9 */
};

struct bg_vm {
	struct bg_vm_opts opts;
	bool sanitize;
	uint32_t prog_type;
	const struct bg_object *obj;
	struct vm_image *images; /* [0] the program; others loaded for tail calls */
	size_t nimages;
	int cur;                 /* image being run */
	/* maps */
	struct vm_map *maps;
	size_t nmaps;
	uint8_t *mapobj;         /* nmaps * VM_MAPOBJ_SIZE zero bytes, read only: what a map
				    pointer points at (the program may read the kernel's
				    struct bpf_array / bpf_htab / ... through it; no values here) */
	/* memory */
	uint8_t *stack;          /* VM_MAX_FRAMES * VM_STACK_SIZE, 16-byte aligned */
	uint8_t *shadow;         /* per stack byte: == shadow_gen when initialised */
	uint8_t shadow_gen;      /* this run's mark (1..255): a new run or a tail call
				  * takes the next one, so nothing is cleared per run */
	uint8_t *ctx;            /* the ctx struct the program sees */
	size_t ctx_size;
	bool ctx_special;        /* ctx region is a VM_R_CTX (not raw memory) */
	uint8_t *ctx_in;         /* ctx bytes from the user */
	size_t ctx_in_len;
	uint8_t *pkt_in;         /* packet as set */
	size_t pkt_in_len;
	uint8_t *pktbuf;         /* headroom + packet + tailroom */
	size_t pktbuf_size;
	uint8_t *data, *data_end, *data_meta;
	bool pkt_writable;
	bool has_pkt;            /* program type sees a packet */
	uint8_t *out_pkt;        /* packet as it left the last run (inside pktbuf) */
	size_t out_pkt_len;
	size_t l2_hidden;        /* socket filter: bytes of Ethernet header before data */
	uint8_t *pkt_low;        /* lowest data_meta since the headroom was last zeroed */
	int ctx_region;          /* fixed region of the ctx (patched per run), or -1 */
	int pkt_region;          /* fixed region of the packet (patched), or -1 */
	uint8_t ctx_ptr[64];     /* per 4-byte ctx word: 1 data, 2 data_end, 3 data_meta
				  * (a whole aligned 4-byte load yields the pointer), 0 other */
	struct vm_region *regions;
	size_t nregions, cap_regions;
	size_t nfixed;           /* regions 0..nfixed-1 persist across runs */
	size_t last_region;
	uint32_t gen;
	struct vm_mem *mems;
	size_t nmems;
	void **graveyard;
	size_t ngrave, cap_grave;
	/* run state */
	uint64_t icount;
	uint64_t may_goto_left;
	uint32_t tail_calls;
	uint64_t ktime, prandom;
	uint64_t redirect_target, redirect_flags;
	bool redirected;
	int depth;
	bool cur_changed;       /* a tail call switched vm->cur */
	bool stop;              /* a helper asked to stop the program (ld_abs failure, unwind) */
	uint64_t stop_r0;
	struct vm_frame frames[VM_MAX_FRAMES];
	struct bg_vm_fault fault;
	bool faulted;
	size_t pc;              /* pc of the instruction being run (for helper faults) */
	/* captured output */
	char *out;
	size_t out_len, out_cap;
	struct bg_vm_record *recs;
	size_t nrecs, cap_recs;
	uint8_t **ringbuf_pending; /* reserved, not yet submitted records */
	size_t nrb_pending;
	uint64_t loop_depth;
};

/* vm.c */
/* Start a fresh frame 0 (new run, tail call): every stack byte uninitialised. */
void vm_shadow_new_gen(struct bg_vm *vm);
int vm_atomic(struct bg_vm *vm, const struct vinsn *ip, uint64_t *r);
int vm_ld_legacy(struct bg_vm *vm, const struct vinsn *ip, uint64_t *r);
int vm_callx_target(struct bg_vm *vm, uint64_t v, size_t *target, uint64_t *r);
bool vm_shadow_ok(struct bg_vm *vm, uint64_t a, uint32_t size);
int vm_fault(struct bg_vm *vm, enum bg_vm_fault_kind k, uint64_t addr, uint32_t size,
	     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
int vm_add_region(struct bg_vm *vm, uint64_t lo, uint64_t hi, int kind, bool writable, int map);
/* Host pointer for [addr, addr+size) inside a plain-memory region, or NULL
 * (fault recorded). write: needs a writable region; marks stack initialised. */
void *vm_ptr(struct bg_vm *vm, uint64_t addr, uint64_t size, bool write);
/* Same but a read also requires initialised stack bytes when sanitizing. */
void *vm_ptr_read_init(struct bg_vm *vm, uint64_t addr, uint64_t size);
/* Returns 0, 1 when *val is a full 64-bit pointer (ctx packet fields), or
 * a negative error after recording a fault. */
int vm_load(struct bg_vm *vm, uint64_t addr, uint32_t size, uint64_t *val);
int vm_store(struct bg_vm *vm, uint64_t addr, uint32_t size, uint64_t val);
/* Run a callback (bpf_loop): BPF function at slot target with r1..r5. */
int vm_call_callback(struct bg_vm *vm, int32_t target, const uint64_t args[5], uint64_t *r0);
void vm_out_append(struct bg_vm *vm, const char *s, size_t n);
int vm_record(struct bg_vm *vm, int map, const void *data, size_t len);
void vm_graveyard(struct bg_vm *vm, void *p);
void vm_pkt_update(struct bg_vm *vm);
int vm_image_for_prog(struct bg_vm *vm, size_t idx);
int vm_tail_call(struct bg_vm *vm, uint64_t map_ptr, uint64_t index);

/* maps.c */
int vm_maps_create(struct bg_vm *vm);
void vm_maps_free(struct bg_vm *vm);
struct vm_map *vm_map_from_ptr(struct bg_vm *vm, uint64_t p);
#define VM_MAPOBJ_SIZE 4096u
/* The value of a map pointer (ld_imm64 of map i, an inner map). */
static inline uint64_t vm_map_ptr(const struct bg_vm *vm, size_t i)
{
	return (uint64_t)(vm->mapobj + i * VM_MAPOBJ_SIZE);
}
int vm_map_index(struct bg_vm *vm, const struct vm_map *m);
/* Value pointer for key, or NULL; registers a region for it. */
uint8_t *vm_map_lookup(struct bg_vm *vm, struct vm_map *m, const void *key);
int vm_bloom_push(struct vm_map *m, const void *val, uint64_t flags);
int vm_bloom_peek(struct vm_map *m, const void *val);
int vm_map_update(struct bg_vm *vm, struct vm_map *m, const void *key, const void *val,
		  uint64_t flags);
int vm_map_delete(struct bg_vm *vm, struct vm_map *m, const void *key);
int vm_map_next_key(struct bg_vm *vm, struct vm_map *m, const void *key, void *next);
bool vm_map_is_array(const struct vm_map *m);

/* helpers.c */
int vm_helper(struct bg_vm *vm, uint32_t id, uint64_t *r);

/* Kfuncs the interpreter models, found by name in the target BTF. */
enum vm_kfunc {
	VM_KF_NONE, VM_KF_ITER_NUM_NEW, VM_KF_ITER_NUM_NEXT, VM_KF_ITER_NUM_DESTROY,
};
/* kfunc btf id -> enum vm_kfunc (VM_KF_NONE when unknown); name for messages */
uint8_t vm_kfunc_code(const struct bg_vm *vm, uint32_t btf_id);
const char *vm_kfunc_name(const struct bg_vm *vm, uint32_t btf_id);
int vm_kfunc(struct bg_vm *vm, const struct vinsn *ip, uint64_t *r);

/* ctx.c */
int vm_ctx_prepare(struct bg_vm *vm);
/* Per run: rebuild packet and ctx, set r1 (and r2 for raw programs). */
int vm_ctx_reset(struct bg_vm *vm, uint64_t *r);
/* After a run: copy out the packet as it leaves. */
void vm_ctx_finish(struct bg_vm *vm);
int vm_ctx_load(struct bg_vm *vm, uint64_t off, uint32_t size, uint64_t *val);
int vm_ctx_store(struct bg_vm *vm, uint64_t off, uint32_t size, uint64_t val);
void vm_ctx_sync(struct bg_vm *vm);
const char *vm_region_name(int kind);
#endif
