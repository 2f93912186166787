/* The verifier's per-program context shared by the fixpoint engine
 * (verify.c), the instruction transfer functions and checks (xfer.c) and
 * the call handling (call.c). Internal to src/analysis. */
#ifndef BG_ANALYSIS_VCTX_H
#define BG_ANALYSIS_VCTX_H
#include <stdarg.h>
#include <stdio.h>
#include <bpfgate/object.h>
#include <bpfgate/verifier.h>
#include "analysis/assert.h"
#include "analysis/btfarg.h"
#include "analysis/cfg.h"
#include "analysis/state.h"
#include "platform/ctx.h"
#include "platform/helpers.h"
#include "platform/profiles.h"

/* Analysis contexts: one per call string (main, and each call site of each
 * subprogram or callback reached from a context). */
enum ctx_kind { CTX_MAIN = 0, CTX_CALL, CTX_CB_SYNC, CTX_CB_ASYNC, CTX_GLOBAL };

struct vcache;

struct actx {
	uint32_t parent;    /* parent context (main: itself) */
	uint32_t callsite;  /* call insn in the parent */
	uint32_t func;      /* cfg function */
	uint32_t depth;     /* frames */
	uint8_t kind;
	int64_t ret_min, ret_max; /* callbacks: allowed r0 range */
	struct node **nodes;/* per block of the function (index: block - first block) */
	uint32_t first_block, nblocks;
	uint32_t max_stack; /* deepest stack byte used in this frame */
};

struct disj {
	struct as_state st;
	uint64_t key, wkey, mkey; /* partition keys: full, weak, map pointers */
	uint64_t lkey;            /* the branch-live registers of the current frame (as_state_keys) */
	uint64_t pkey;            /* the pointers' region types (as_state_keys) */
	bool queued;
	uint32_t visits;
	uint32_t inext;     /* next disjunct with the same iteration-vector hash (UINT32_MAX: end) */
	bool done;          /* processed in a function no state can come back to: state freed */
};

/* A node's disjuncts are found by iteration vector through a hash index
 * (ibuck, built once a node holds more than a few), so a join costs
 * O(K) compares, not O(disjuncts of every iteration). */
struct node {
	uint32_t ctx, block;
	uint32_t ndisj, cap;
	struct disj *d;
	uint32_t *ibuck, nbuck;
	struct iv_inv *iv;  /* counted loop heads with lockstep registers: per register */
	uint32_t nqueued;   /* disjuncts on the worklist */
	uint32_t ndropped;  /* final disjuncts removed from d (process: compaction) */
	uint64_t dropped_visits;
};

/* x - k * counter over every state entering a counted loop head (cfg_loop.iv_*) */
struct iv_inv {
	bool set, dead;
	uint8_t type, frame;
	int32_t map;
	struct bg_scalar d;
};

struct direct_item {
	uint32_t ctx, block;
	struct as_state st;
};

struct path_node {
	uint32_t parent;
	uint32_t insn;
	uint8_t taken;
};

struct vctx {
	const struct bg_program *prog;
	const struct bg_object *obj;
	const struct bg_insn *insns;
	size_t n;
	struct cfg g;
	const struct bg_prog_policy *pol;
	uint32_t prog_type;
	const struct bg_verify_opts *opts;
	bool priv;
	uint64_t *thr;       /* widening thresholds, sorted */
	unsigned nthr;
	/* contexts */
	struct actx *ctxs;
	uint32_t nctx, capctx;
	uint32_t cur_ctx;
	uint32_t next_id;    /* id counter (as_id_fresh): every value's id is fresh */
	/* worklist (binary heap of node/disjunct refs) */
	struct wl_item *heap;
	size_t nheap, capheap;
	struct direct_item *direct; /* states of single-predecessor blocks, LIFO */
	size_t ndirect, capdirect;
	/* path arena */
	struct path_node *paths;
	uint32_t npaths, cappaths;
	/* limits and counters */
	uint64_t steps, max_steps;
	size_t max_bytes;    /* budget of stored abstract states (cur_bytes) */
	uint32_t unroll;     /* iterations unrolled before a loop must be allowed */
	uint32_t kdisj;      /* partition bound per node and iteration vector */
	size_t cur_bytes, peak_bytes;
	/* result */
	bool failed;
	bool no_entry_accel;     /* counters accelerated after a back edge only (a rejection's second run) */
	bool entry_accel;        /* a counter was accelerated on entry to its loop (cnt_accel) */
	bool cb_exact;           /* bounded callbacks walked call by call to the end (a rejection's second run) */
	bool cb_widened;         /* a bounded callback's calls were joined after CB_EXACT_CALLS */
	uint32_t demote;         /* loop index + 1: a `!=`-counted loop whose bound check failed (restart unrolled) */
	const uint8_t *demoted;  /* per loop: analysed unrolled after a failed bound check */
	uint8_t *final;          /* per block: its disjuncts may be final (disj_final) */
	uint8_t *func_fx;        /* per function: its effects (verify.c FX_*), or NULL until asked */
	struct gprot *gprot;     /* per function: its global prototype (verify.c global_params),
				  * read from BTF once, or NULL until asked */
	bool nomem;          /* an allocation failed: bg_verify returns -ENOMEM */
	struct bg_diag diag;
	/* per-instruction scratch: the current instruction's slot index */
	size_t pc;
	/* observer of the state before every analysed instruction (states.c), or NULL */
	void (*visit)(void *arg, size_t pc, const struct as_state *s, bool global_root);
	void *visit_arg;
	/* kernel profile judged (kgate.c); kgate: older than the running one */
	const struct bg_kernel_profile *prof;
	bool kgate;
	bool uninit_stack_ok; /* reads of uninitialized stack allowed (privileged, 5.12+) */
	bool uninit_stack_written_ok; /* ... only within the depth already written (5.10) */
	/* the features (BG_KF_* bits) the judged profile LACKS, read through
	 * kf_has (kgate_setup): for the running 6.18 (the default) only the
	 * features of newer kernels (7.2), so its transfer functions take no
	 * older kernel's branch */
	uint64_t kf_lacks;
	/* assertion lists (assert.h): those of insn pc are asrt[asrt_at[pc] .. asrt_at[pc+1]) */
	struct assertion *asrt;
	uint32_t *asrt_at;
	/* observations for the estimate of the kernel's work (kcost.h), or NULL */
	struct kcost *kc;
	/* bpf_fastcall patterns and their contract (fastcall.h), or NULL */
	struct fastcall *fc;
	/* per instruction: the local object type a bpf_obj_drop / refcount
	 * acquire call saw first (the kernel keeps one per call), or NULL */
	const char **obj_type_at;
	/* per-program caches of BTF walks (call.c: local types, map value
	 * fields, kptr fields), allocated at their first use, or NULL */
	struct vcache *cache;
	/* the kernel BTF's ".data..percpu" DATASEC id (0: not looked up yet,
	 * negative: none) */
	int32_t pcpu_sec;
};

/* Is the call at pc bpf_throw (the program ends there)? */
bool call_throws(struct vctx *v, size_t pc);
/* Does the kfunc called at pc take a struct bpf_res_spin_lock (the resilient
 * lock kfuncs, callable while holding a lock)? */
bool call_is_res_lock(const struct vctx *v, size_t pc);
/* A branch on bpf_res_spin_lock's result d: the lock is held where it is 0,
 * not where it is not (xfer.c scalar_branch, after the refinement). */
void call_res_branch(struct as_state *s, const struct bg_insn *in, bool taken, const struct as_reg *d);
/* graph_is_local (graph.h) through the per-program cache. */
bool vctx_is_local(struct vctx *v, const char *name);

/* Record the first error at insn pc with a check name and message (printf
 * style, appended after "insn N (disasm): "). Returns -1. */
int verr(struct vctx *v, const struct as_state *s, size_t pc, const char *check, const char *fmt,
	 ...) __attribute__((format(printf, 5, 6)));
/* An allocation failed: stop the analysis (as verr does) and make bg_verify
 * return -ENOMEM. Returns -1. */
int vnomem(struct vctx *v);
/* The object's license is GPL-compatible as the kernel counts it (assert.c). */
bool prog_license_gpl(struct vctx *v);
/* The program is loaded sleepable (BPF_F_SLEEPABLE: a ".s" section, or one
 * libbpf always loads sleepable) (assert.c). */
bool prog_sleepable(struct vctx *v);
/* The kernel's in_rcu_cs: an RCU read section or a lock held, or a
 * program that cannot sleep (xfer.c). */
bool in_rcu_cs(struct vctx *v, const struct as_state *s);
/* The prototype an iterator program's target adds for helper id (tcp/unix
 * socket iterators: bpf_setsockopt/getsockopt), else NULL. */
const struct bg_helper_proto *prog_iter_helper(struct vctx *v, uint32_t id);
/* A fresh id (state.h) for a value created at insn pc (the message's place
 * when the counter runs out; salt is unused: ids are never derived from the
 * place, so two values never share one). */
uint32_t vid(struct vctx *v, size_t pc, uint32_t salt);

/* xfer.c: one non-terminator instruction (or the effect part of a
 * terminator). Returns 0, or -1 after verr(). */
int xfer_insn(struct vctx *v, struct as_state *s, size_t pc);
/* Branch refinement for conditional jumps; sets *dead when the edge is infeasible. */
int xfer_branch(struct vctx *v, struct as_state *s, size_t pc, bool taken, bool *dead);
/* Read a register (checks it is initialized). */
int check_reg_init(struct vctx *v, struct as_state *s, size_t pc, int reg);
/* Memory access through register reg at offset off of size bytes. For a read
 * the loaded value is stored in *out (may be NULL). */
int check_mem(struct vctx *v, struct as_state *s, size_t pc, int reg, int off, int size,
	      bool write, const struct as_reg *val, struct as_reg *out, bool sign);
/* The kernel's check_ptr_alignment for an access of size bytes at off through
 * reg: strict (atomics, aligned helper arguments) checks every region that
 * names its misaligned accesses, otherwise only those always checked (the
 * stack). 0, or -1 after verr(). */
int check_align(struct vctx *v, struct as_state *s, size_t pc, int reg, int off, int size, bool strict);
/* Range access for helper arguments: [ptr, ptr+size) with size a scalar. */
int check_mem_range(struct vctx *v, struct as_state *s, size_t pc, int reg,
		    const struct bg_scalar *size, bool write, bool zero_ok, const char *what);
void invalidate_pkt(struct as_state *s);
/* Older holders of id lose it (a fresh value with that id is being made). */
void as_forget_id(struct as_state *s, uint32_t id);
void call_prepare(struct vctx *v);
void mark_regs_id(struct as_state *s, uint32_t id, void (*fn)(struct as_reg *, void *), void *arg);
/* fn on every register and spilled register of every frame. */
/* xfer.c: a write over stack bytes [lo, end) of frame f destroys the dynptrs
 * there (and their slices); referenced ones are refused. 0 or -1 after verr(). */
int stack_write_objs(struct vctx *v, struct as_state *s, size_t pc, struct as_frame *f, int64_t lo,
		     int64_t end);
void for_each_reg(struct as_state *s, void (*fn)(struct as_reg *, void *), void *arg);

/* call.c: helper / kfunc call effect. Returns 0 or -1. *cb_target is set to
 * the callback's insn (>= 0) when the helper calls a BPF function. */
int xfer_call(struct vctx *v, struct as_state *s, size_t pc, int32_t *cb_target, int *cb_kind);
bool call_is_cb(const struct bg_insn *in);
/* Offset of a field of BTF struct type tname in a map's value; -1 none, -2 no BTF. */
int map_field_offset(struct vctx *v, const struct bg_map_def *m, const char *tname);
/* The kernel's name of a BTF pointer's type (reg_type_str): its trust or
 * percpu prefix, "ptr_", "or_null_" when it may be NULL. */
const char *btf_ptr_name(const struct as_reg *r);
/* The release the verdict is for (0: the newest). */
static inline uint32_t vctx_kver(const struct vctx *v)
{
	return v->prof ? v->prof->version : 0;
}
/* The kptr fields of m's value (btf_map_kptr_fields, cached): their count,
 * the fields in *f. */
int map_kptrs(struct vctx *v, const struct bg_map_def *m, const struct btf_kptr_field **f);
bool call_is_iter_next(const struct bg_insn *in);
const char *kfunc_name(struct vctx *v, const struct bg_insn *in);
/* How often the helper at pc may call its callback: umax of bpf_loop's
 * nr_loops when at most cap, else AS_CB_UNCOUNTED. */
uint32_t call_cb_max_calls(struct vctx *v, size_t pc, const struct as_state *at_call, uint32_t cap);
/* 0, or -1 after vnomem(). */
int call_set_cb_args(struct vctx *v, struct as_state *s, size_t pc, const struct as_state *at_call);
/* A pointer to a dynptr that lives elsewhere (dynptr_ptr: CONST_PTR_TO_DYNPTR)
 * passed as a dynptr argument in register reg: back at offset 0, as the
 * kernel's check_func_arg_reg_off requires. Returns 0, or -1 after verr(). */
int call_dynptr_ptr_off(struct vctx *v, struct as_state *s, size_t pc, int reg);
/* Make r a dynptr_ptr to a fresh local dynptr (a global function's or a
 * user ringbuf callback's argument: the kernel marks it BPF_DYNPTR_TYPE_LOCAL). */
void call_dynptr_ptr_new(struct vctx *v, size_t pc, struct as_reg *r);

/* verify.c: bg_verify() with an observer called with the abstract state
 * before every instruction the analysis steps through (every context and
 * disjunct, including intermediate states of loops: their union covers the
 * fixpoint, since disjuncts only grow). global_root: the state's frame 0 is
 * a global function's (analysed once, apart from its callers). */
typedef void (*verify_visit_fn)(void *arg, size_t pc, const struct as_state *s, bool global_root);
int verify_observed(const struct bg_program *prog, const struct bg_verify_opts *opts,
		    struct bg_verify_result *res, verify_visit_fn visit, void *arg);

int fmt_reg(struct vctx *v, const struct as_state *s, int reg, char *buf, unsigned sz);
/* Does the judged kernel's verifier have feature f (every bit of it)? The
 * analysis' one question to the profile (kgate.c, xfer.c, call.c, verify.c). */
static inline bool kf_has(const struct vctx *v, uint64_t f)
{
	return !(v->kf_lacks & f);
}
#endif
