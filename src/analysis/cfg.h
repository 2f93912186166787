/* Control-flow graph of a prepared program: functions (main program and
 * subprograms, split at local-call and pseudo-func targets and func info),
 * basic blocks, a reverse post-order per function (the worklist priority)
 * and the loop nesting forest (natural loops of DFS back edges; their heads
 * are the widening points, and every cycle contains one).
 * Built once per program in O(n + e) plus O(loops * blocks) for loop bodies. */
#ifndef BG_ANALYSIS_CFG_H
#define BG_ANALYSIS_CFG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <bpfgate/insn.h>

struct cfg_block {
	uint32_t start, end;   /* slots [start, end) */
	uint32_t func;
	uint32_t rpo;          /* position in the function's reverse post-order */
	uint32_t nsucc;
	uint32_t succ[2];      /* block indexes: [0] fall-through/only, [1] jump target */
	uint32_t nloops;       /* enclosing loops, outermost first */
	uint32_t *loops;       /* loop indexes */
	int32_t head_of;       /* loop index when this block heads a loop, else -1 */
	bool reachable;        /* statically reachable from its function entry */
	uint16_t blive;        /* registers a later branch tests or a later access uses as base (live-in mask) */
	uint16_t rlive;        /* registers some path reads before writing them (live-in mask; cfg_reg_live) */
	uint64_t slive;        /* own-frame stack slots some path reads before overwriting them
			        * whole (bit i: bytes [-8(i+1), -8i); slive.c) */
	uint64_t svlive;       /* those of them whose value is read (a load, a 4-byte map key, a
			        * callee...), not only whether they are initialized (a helper's
			        * memory argument): a subset of slive */
	uint32_t npred;
	bool after_call;       /* follows a call: callee exits join here */
};

struct cfg_loop {
	uint32_t head;         /* block */
	uint32_t size;         /* blocks in the body */
	bool allowed_unbounded;/* uses may_goto or an open-coded iterator */
	bool counted;          /* proven bounded by an induction register (cfg_counted_loops) */
	/* counted by `r != K` (r stepped by exactly +-1 once per iteration): bounded
	 * only while r stays on K's side at the test, which the analysis checks on
	 * every state reaching cnt_insn (else the loop is demoted to unrolling) */
	bool cnt_check;
	bool cnt_ext;          /* counted by a `!=` or bound-register test (not `r < K`) */
	bool cnt_w32;          /* the test is a JMP32 */
	int8_t cnt_dir;        /* +1: r counts up to K, -1: down */
	uint8_t cnt_reg;
	uint32_t cnt_insn;
	uint64_t cnt_k;
	/* the counter's own iterates can be computed without the body
	 * (cfg_counted_loops, `r < K` shapes): one step `r += c` (cnt_step) and
	 * the test are all that read or write it in the loop, besides ALU ops
	 * that read it into another register (no copy: a copy's test would
	 * refine it); cnt_step_first tells their order on every iteration,
	 * cnt_stay the test's outcome that stays in the loop */
	bool cnt_accel;
	bool cnt_step_first;
	bool cnt_stay;
	uint32_t cnt_step;
	/* derived induction registers: each written only by one `x += c` (64-bit,
	 * constant) that every iteration executes once, beside a counter stepped
	 * by exactly +-1 once per iteration: x - iv_k * counter is loop-invariant */
	uint8_t niv;
	uint8_t iv_reg[10];
	int64_t iv_k[10];
	uint32_t *body;        /* its blocks (size entries), head first */
};

struct cfg_func {
	uint32_t start, end;   /* slots */
	uint32_t entry;        /* block */
	const char *name;
	int linkage;           /* 0 static, 1 global */
};

struct cfg {
	const struct bg_insn *insns;
	size_t n;
	uint32_t nblocks, nfuncs, nloops;
	struct cfg_block *blocks;
	struct cfg_func *funcs;
	struct cfg_loop *loops;
	uint32_t *block_of;    /* slot -> block */
	/* the argument registers (mask of r1-r5) a call reads, for the
	 * liveness analyses; NULL: all five */
	uint16_t (*call_reads)(const struct bg_insn *in);
	uint32_t *loop_pool;
	uint32_t *body_pool;
};

/* Is this instruction a block terminator? (jumps, exit, local calls, helper
 * calls that take a callback). */
bool cfg_ends_block(const struct bg_insn *in, bool (*is_cb_call)(const struct bg_insn *));
/* Build; returns 0 or a negative errno with *why and *bad set. */
int cfg_build(struct cfg *g, const struct bg_insn *insns, size_t n,
	      bool (*is_cb_call)(const struct bg_insn *), bool (*is_iter_next)(const struct bg_insn *),
	      const uint32_t *func_starts, size_t nfunc_starts, const char **why, size_t *bad);
void cfg_free(struct cfg *g);
/* Backward analysis: registers whose value flows (through moves and ALU) into
 * a later conditional jump without being redefined ("branch-live"). */
void cfg_branch_live(struct cfg *g);
/* Mark loops whose termination follows from their shape: a test `r < K`
 * (or <=, s<, s<=; or r > K ... for a decreasing r) that every iteration
 * passes and that keeps the loop going, on a register every iteration
 * changes by a constant step towards K and nothing else writes; or
 * `r < b` (strict, or r > b) on a bound register b the loop never writes,
 * r stepped by exactly 1 once per iteration (no wrap-around: r < b <= max);
 * or `r != K` with r stepped by exactly 1 once per iteration (cnt_check: the
 * analysis must see r on K's side at the test). */
int cfg_counted_loops(struct cfg *g);
/* Backward analysis: registers live at each block's entry (read on some path
 * before written; a superset of blive). After cfg_branch_live. */
void cfg_reg_live(struct cfg *g); /* 0 or -ENOMEM */
/* Function containing slot i. */
uint32_t cfg_func_of(const struct cfg *g, size_t i);
#endif
