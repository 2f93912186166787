/* Abstract state of the static verifier: registers and stack of every call
 * frame, the packet zone, held references and the spin lock.
 *
 * A register is a region type (what it points to, or scalar) plus an offset
 * that is itself a bg_scalar (the value, for a scalar). Pointer-typed
 * registers carry ids: a NULL-check id shared by copies of one _or_null
 * value, a reference id for acquired objects, a packet base id (zone.h).
 * Ids are fresh: every new value takes the next number of the analysis'
 * counter (as_id_fresh; vid() in vctx.h, join bases in as_state_join), so
 * two different values never share an id. An id is a name local to a state:
 * states are compared and joined up to a renaming of ids (as_state_leq builds
 * a map from b's ids to a's while comparing, as the kernel's check_ids idmap
 * does; as_state_join first renames b's ids to a's where both states hold
 * them in the same places), so the same value reached along two paths with
 * different ids still keeps its facts.
 * Stack slots are 8 bytes with byte masks (initialized, known zero) and an
 * optional spilled register (scalars keep their value, pointers their type).
 * Invariant: slots of a frame are sorted by index and only non-empty slots
 * are stored (the state stays small for big programs). */
#ifndef BG_ANALYSIS_STATE_H
#define BG_ANALYSIS_STATE_H
#include <stdbool.h>
#include <stdint.h>
#include "domain/scalar.h"
#include "domain/zone.h"
#include "analysis/region.h"

/* the most bpf-to-bpf frames of any profile (max_call_depth: 8, 16 on 7.2) */
#define AS_MAX_FRAMES 16
#define AS_MAX_REFS 16
#define AS_MAX_ITER 16
#define AS_STACK_SIZE 512
#define AS_NSLOTS (AS_STACK_SIZE / 8)
#define AS_CB_UNCOUNTED UINT32_MAX /* as_frame.cb_left: no bound on the calls */
#define AS_CB_JOINED UINT8_MAX     /* as_frame.cb_calls: a bounded callback's later calls, joined */

/* enum as_type (T_UNINIT, T_SCALAR, T_CTX, ...): one row per region type in
 * regions.def, with its descriptor (region.h). */

/* the widest join of constants kept as a constant set (as_reg.cset) */
#define AS_CSET_MAX 16

/* register flags */
#define RF_NULL 0x01      /* may be NULL (_or_null), must be checked */
#define RF_RDONLY 0x02    /* memory is read-only (rodata, ringbuf input) */
#define RF_UNTRUSTED 0x04 /* BTF pointer the kernel marks PTR_UNTRUSTED (as_btf_trust) */
#define RF_PERCPU 0x08
#define RF_LINK32 0x10   /* scalar link (id, delta) holds modulo 2^32 */
#define RF_RCU 0x20      /* BTF pointer protected by RCU (a kptr loaded from a map value) */
#define RF_PLAIN 0x40    /* BTF pointer of the legacy kind: neither trusted nor untrusted
			  * (the kernel's PTR_TO_BTF_ID without PTR_TRUSTED; as_btf_trust) */
#define RF_ALLOC 0x80     /* T_BTF_ID: a program-local object (bpf_obj_new; the kernel's
			  * MEM_ALLOC), btf names its struct in the object BTF; ref 0:
			  * a non-owning reference (valid until the lock is released) */
#define RF_PUBLIC 0x1f   /* the flags bg_aval exports (BG_AVAL_*) */

/* The trust of a BTF pointer (T_BTF_ID), the kernel's type flags on
 * PTR_TO_BTF_ID, from the most to the least trusted: PTR_TRUSTED (or a
 * reference, or a local object: is_trusted_reg), MEM_RCU, none (the legacy
 * plain pointer: a helper's result, an fentry argument), PTR_UNTRUSTED. The
 * flags: no trust flag is trusted, RF_RCU, RF_PLAIN, RF_UNTRUSTED; a join
 * keeps both paths' flags, so the least trusted wins. Which trust each
 * argument kind accepts is a table (call.c arg_trust). */
enum as_trust { AS_TRUST_TRUSTED = 0, AS_TRUST_RCU, AS_TRUST_PLAIN, AS_TRUST_UNTRUSTED };
#define AS_TRUST_BIT(t) (1u << (t))

struct as_reg {
	uint8_t type;      /* enum as_type */
	uint8_t flags;     /* RF_* */
	uint8_t frame;     /* T_STACK: frame number */
	uint8_t cset;      /* scalar: the value is a join of constants that reached one node on
			    * different paths (the kernel, which never joins, keeps each path's
			    * constant): a shift by it is the union of the shifts by each */
	int32_t map;       /* T_MAP_PTR/T_MAP_VALUE: map index; T_FUNC: target insn */
	uint32_t id;       /* scalar: equality id; _or_null: null id; pkt: base id */
	uint32_t ref;      /* reference id (acquired object), 0 none */
	uint32_t size;     /* T_MEM/T_RINGBUF_MEM: accessible bytes */
	int32_t delta;     /* pkt/pkt_meta: constant offset from the base; scalar: from its id's value */
	uint32_t dynptr;   /* dynptr slot: the dynptr's id; T_MEM: id of the dynptr the slice was
			    * taken from (its destruction invalidates the slice), 0 none */
	uint8_t dkind;     /* dynptr slot / T_MEM slice: the dynptr's kind (bg_dynptr_kind) */
	const char *btf;   /* T_BTF_ID: struct name or NULL */
	struct bg_scalar v;/* scalar value, or pointer offset */
};

/* slot kinds */
#define SK_NONE 0
#define SK_SPILL 1 /* spill holds a register of spill_size bytes at byte 0 */
#define SK_DYNPTR 2 /* spill: T_UNINIT with dkind, dynptr (its id) and ref (ringbuf) */
#define SK_ITER 3
#define SK_OBJ_TAIL 4 /* the second slot of a dynptr: neither readable nor a dynptr itself */
#define SK_IRQ 5 /* an irq flag (bpf_local_irq_save): spill.size is the irq nesting depth it was
		  * saved at (AS_SEC_MAYBE: joined from different depths); not readable */

struct as_slot {
	uint8_t idx;       /* slot number: bytes [-8*(idx+1), -8*idx) of the frame */
	uint8_t init;      /* initialized byte mask (bit i: byte at -8*(idx+1)+i) */
	uint8_t zero;      /* known-zero byte mask (subset of init) */
	uint8_t kind;
	uint8_t spill_size;
	struct as_reg spill;
};

struct as_frame {
	struct as_reg r[11];
	uint32_t nslots, cap;
	struct as_slot *slots;
	uint64_t present;  /* bit i: slots[] holds the slot of index i (< 64); a slot's
			    * position is the number of bits below it (state.c keeps it) */
	int32_t callsite;  /* insn of the call that created this frame, -1 main */
	uint32_t iter_base;/* iteration vector length at entry */
	uint8_t is_cb;     /* callback frame (r0 range checked at exit) */
	uint8_t cb_calls;  /* bounded callback frame: which call of the callback this is,
			    * from 1; AS_CB_JOINED once its calls join (cb_left is then
			    * AS_CB_UNCOUNTED: verify.c return_from). join = max, leq ignores it */
	uint32_t cb_left;  /* callback frame of a helper that bounds its calls (bpf_loop: the
			    * kernel calls while its count is below umax(nr_loops)): the calls
			    * still possible after this one; AS_CB_UNCOUNTED otherwise.
			    * join = max, leq = <= (fewer calls left covers fewer paths) */
	struct as_reg *cb_args;   /* callback frames: the 5 arguments, to re-enter; else NULL */
};

struct as_ref {
	uint32_t id;
	uint32_t insn;     /* acquiring instruction */
	uint8_t type;      /* as_type of the acquired object */
	uint8_t many;      /* acquired more than once (loop) */
};

/* A resilient lock held (bpf_res_spin_lock[_irqsave]): which lock (as
 * as_lock_of), taken with the irq variant or not, and while the call's
 * result is unchecked the id of that result (held where it is 0: the
 * kernel's failing branch, r0 in [-4095,-1], holds nothing). */
struct as_res {
	uint32_t id;
	uint32_t cond;
	int16_t lock;
	uint8_t irq;
};
#define AS_MAX_RES 4
#define AS_RES_MAYBE 0xff /* nres: paths holding different locks joined */

struct as_state {
	uint32_t nframes;
	struct as_frame *fr;
	struct bg_zone zone;
	uint32_t nrefs;
	struct as_ref refs[AS_MAX_REFS];
	int32_t lock;      /* AS_LOCK_*, else map index of the held lock */
	uint32_t lock_id;  /* which value of that map (the register id of the pointer
			    * locked), or which local object (its reference id);
			    * AS_LOCK_ID_JOINED: different on the paths joined here */
	/* critical sections opened by kfuncs: nesting depth of each kind
	 * (enum as_section), AS_SEC_MAYBE when paths with different depths joined */
	uint8_t sec[3];
	uint8_t nres;      /* resilient locks held, innermost last (or AS_RES_MAYBE) */
	struct as_res res[AS_MAX_RES];
	uint32_t niter;
	uint16_t iter[AS_MAX_ITER]; /* loop iteration vector (outermost first) */
	uint32_t path;     /* path arena node of one path reaching here */
	bool bottom;
};

/* The trust of BTF pointer r (enum as_trust). */
static inline enum as_trust as_btf_trust(const struct as_reg *r)
{
	if (r->flags & RF_UNTRUSTED)
		return AS_TRUST_UNTRUSTED;
	if (r->ref)
		return AS_TRUST_TRUSTED; /* a referenced object is always trusted */
	if (r->flags & RF_PLAIN)
		return AS_TRUST_PLAIN;
	if (r->flags & RF_RCU)
		return AS_TRUST_RCU;
	return AS_TRUST_TRUSTED;
}

/* Ids: 0 is "none" (for a packet base: the packet start); AS_ID_LOST a packet
 * pointer whose base is lost; AS_ID_JOIN flags a packet base made by a join.
 * The counter stops at AS_ID_LIMIT (the analysis then ends "too complex"). */
#define AS_ID_LOST 0xffffffffu
#define AS_ID_PENDING 0xfffffffeu
#define AS_ID_JOIN 0x80000000u
#define AS_ID_LIMIT 0x7ffffff0u
/* The next id of the counter *next (never 0, never AS_ID_JOIN-flagged). */
uint32_t as_id_fresh(uint32_t *next);

/* Critical sections a kfunc opens and closes (kfuncs.def: BG_HF_RCU_LOCK /
 * RCU_UNLOCK, BG_HF_SECTION_BEGIN / END, with BG_HF_IRQ for the irq pair). */
enum as_section { AS_SEC_RCU = 0, AS_SEC_PREEMPT, AS_SEC_IRQ, AS_SEC__MAX };
#define AS_SEC_MAYBE 0xff

#define AS_LOCK_NONE (-1)
#define AS_LOCK_MAYBE (-2) /* held on some joined paths only */
#define AS_LOCK_ALLOC (-3) /* a lock in a program-local object (bpf_obj_new) */
#define AS_LOCK_ID_JOINED UINT32_MAX

/* The lock a pointer to a bpf_spin_lock names: the map (or AS_LOCK_ALLOC for
 * a local object) and *id, which value of it (the kernel's active_lock ptr
 * and id: each lookup result or object is its own lock). */
static inline int32_t as_lock_of(const struct as_reg *r, uint32_t *id)
{
	*id = r->id;
	return r->type == T_BTF_ID ? AS_LOCK_ALLOC : r->map;
}

/* Is a lock of either kind held (or maybe held) in s? */
static inline bool as_locked(const struct as_state *s)
{
	return s->lock != AS_LOCK_NONE || s->nres;
}

static inline struct as_frame *as_cur(struct as_state *s)
{
	return &s->fr[s->nframes - 1];
}

void as_reg_uninit(struct as_reg *r);
void as_reg_scalar(struct as_reg *r, struct bg_scalar v);
void as_reg_const(struct as_reg *r, uint64_t v);
void as_reg_unknown(struct as_reg *r);
bool as_reg_is_ptr(const struct as_reg *r);
bool as_reg_eq(const struct as_reg *a, const struct as_reg *b);
bool as_reg_leq(const struct as_reg *a, const struct as_reg *b);
struct as_reg as_reg_join(const struct as_reg *a, const struct as_reg *b, bool widen,
			  const uint64_t *thr, unsigned nthr);
int as_reg_fmt(const struct as_reg *r, const struct as_state *s, char *buf, unsigned sz);
const char *as_type_name(uint8_t type, uint8_t flags);

void as_state_init(struct as_state *s);
void as_state_fini(struct as_state *s);
/* Free the frame arrays this thread keeps for reuse (as_state_fini keeps a
 * few per frame count for the next as_state_copy). */
void as_state_cache_drop(void);
/* Returns 0 or -ENOMEM (then dst holds no frames; as_state_fini is safe). */
int as_state_copy(struct as_state *dst, const struct as_state *src) __attribute__((warn_unused_result));
void as_state_move(struct as_state *dst, struct as_state *src);
/* Frame operations. push: 0, -E2BIG (too deep) or -ENOMEM. */
int as_push_frame(struct as_state *s, int32_t callsite);
/* Drop every frame but the current one, which becomes the first (an async
 * callback is walked in a state of its own: the kernel's push_async_cb). */
void as_keep_top_frame(struct as_state *s);
void as_pop_frame(struct as_state *s);
/* Stack slot lookup for writing (the frame's slot array becomes its own, see
 * as_frame_own); create makes an empty slot when missing (NULL: no memory,
 * or absent without create). */
struct as_slot *as_slot_get(struct as_frame *f, int idx, bool create);
/* The slots of indexes lo..hi (lo <= hi), made where missing as
 * as_slot_get(create) does, for writing: they are consecutive in f->slots,
 * the result points at slot lo. NULL: no memory. */
struct as_slot *as_slot_range(struct as_frame *f, int lo, int hi);
/* Position in f->slots of the first slot whose index is >= idx (nslots: none). */
uint32_t as_slot_lower(const struct as_frame *f, int idx);
/* Stack slot lookup for reading: NULL when absent. */
const struct as_slot *as_slot_find(const struct as_frame *f, int idx);
/* Slot arrays are shared copy-on-write between copies of a state: before
 * writing into f->slots[] directly, make the frame's array its own.
 * 0 or -ENOMEM (then as_oom_take() is true: a void caller cannot report it). */
int as_frame_own(struct as_frame *f) __attribute__((warn_unused_result));
/* A data slot: plain bytes or a spilled register, not a stack object
 * (dynptr, iterator) the kernel tracks by itself. */
static inline bool as_slot_data(const struct as_slot *sl)
{
	return sl->kind == SK_NONE || sl->kind == SK_SPILL;
}
/* A data slot that holds more than which of its bytes are initialized: known
 * zero bytes, or a spilled scalar (a spilled pointer is not a value that can
 * be forgotten while its bytes stay readable). */
static inline bool as_slot_value(const struct as_slot *sl)
{
	return sl->kind == SK_NONE ? sl->zero != 0 : sl->kind == SK_SPILL && sl->spill.type == T_SCALAR;
}
/* Bit i set when the frame's slot i (i < 64) is as_slot_data / as_slot_value.
 * O(1) for a slot array whose masks were asked since its last write (kept
 * in the array's header: a write must go through as_frame_own), else one
 * walk of the slots. */
struct as_slot_masks {
	uint64_t data, value;
};
void as_frame_slot_masks(const struct as_frame *f, struct as_slot_masks *m);
/* Remove the slots whose index (< 64) is a bit of drop, the frame's slot
 * array becoming its own (a shared array is copied without them).
 * 0 or -ENOMEM (as_oom_take() then true). */
int as_frame_drop(struct as_frame *f, uint64_t drop) __attribute__((warn_unused_result));
int as_state_own(struct as_state *s) __attribute__((warn_unused_result));
/* Whether a copy-on-write failed for lack of memory since the last call
 * (per thread); the analysis then stops as out of memory. */
bool as_oom_take(void);
/* The dynptr whose first slot is idx stops existing (overwritten or
 * released): both its slots become uninitialized, as the kernel marks a
 * destroyed dynptr's slots STACK_INVALID. */
void as_dynptr_forget(struct as_frame *f, int idx);
/* Slices taken from dynptr `id` become unknown scalars (the kernel marks them
 * invalid when the dynptr is overwritten or re-initialized). */
void as_dynptr_kill_slices(struct as_state *s, uint32_t id);
void as_slot_del(struct as_frame *f, int idx);
/* Lattice. join/widen write into a (a := a join/widen b). join returns 1 when a
 * changed, 0 when not, -ENOMEM (a unchanged). */
bool as_state_leq(const struct as_state *a, const struct as_state *b);
/* ids: the analysis' id counter (bases made by the join, renamed ids). */
int as_state_join(struct as_state *a, const struct as_state *b, bool widen, const uint64_t *thr,
		  unsigned nthr, uint32_t *ids);
/* Drop zone facts about bases no register or spill refers to. */
void as_zone_gc(struct as_state *s);
/* Partition keys of a state, computed together in one walk (as_state_keys).
 * live: the branch-live registers of the current frame (every register of
 * the frames below counts); weak_only (widening heads): key is the weak key,
 * lkey 0.
 * - wkey, weak: region types and NULL-ness of every register and spill,
 *   locks, critical sections, references (by acquiring insn).
 * - key, full: the weak key's, with small constants (< 256), the map of
 *   map pointers/values and the target of function pointers, for the live
 *   registers and every spill.
 * - mkey, map: which maps the live map pointers (registers, spills) name, 0
 *   when none. States with different map keys are not joined while the node
 *   has room (<= 2K).
 * - pkey, pointers: the weak key of the live registers and spills, with
 *   scalars, uninitialized registers and data slots all alike (region types
 *   of the pointers, NULL-ness, lock): beyond 2K disjuncts an incoming state
 *   prefers one that holds the same pointers, so a join keeps them (a slot
 *   that holds NULL on one path and a packet pointer on the other would
 *   become a scalar).
 * - lkey, live: the full key of the current frame's branch-live registers
 *   only: beyond K disjuncts an incoming state prefers a disjunct that agrees
 *   on them (a subprogram's result 0/1 kept apart at its exit however many
 *   caller slots differ). */
struct as_keys {
	uint64_t key, wkey, mkey, lkey, pkey;
};
void as_state_keys(const struct as_state *s, uint16_t live, bool weak_only, struct as_keys *k);
/* References. */
int as_ref_add(struct as_state *s, uint32_t id, uint32_t insn, uint8_t type);
bool as_ref_del(struct as_state *s, uint32_t id);
bool as_ref_held(const struct as_state *s, uint32_t id);
/* Text of the whole state (-v). */
void as_state_print(const struct as_state *s, void *file);
size_t as_state_bytes(const struct as_state *s);
#endif
