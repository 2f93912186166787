/* The fixpoint engine and bg_verify().
 *
 * Nodes are (context, basic block); a context is a call string (main, or a
 * call site of a subprogram / callback reached from a context, depth <= 8),
 * so each call is analysed with its own input (context-sensitive).
 * A node holds a bounded set of disjuncts (trace partitioning), each keyed by
 *  - the loop iteration vector of the enclosing loops (bounded unrolling:
 *    iteration k of a loop is kept apart from iteration k+1 until the
 *    loop's unroll bound U; a loop whose back edge is still feasible at U
 *    iterations is rejected unless it uses may_goto or an open-coded
 *    iterator, in which case the counter saturates and the head widens);
 *  - a partition key over the outcomes that later branches re-test: which
 *    registers/spills hold which region type and NULL-ness, small constant
 *    values (flags), held references and the spin lock.
 * At most K disjuncts share an iteration vector; beyond K an incoming state
 * is joined into the disjunct with the same weak key (types, locks, refs)
 * or the first one. Every disjunct only grows (join, or widening with
 * thresholds from the program's constants at saturated loop heads), so a
 * check that fails on any intermediate state fails on the fixpoint too and
 * is reported at once. Cost: O(K * U^d * E * S) transfer steps for E edges,
 * loop nesting depth d (bounded-loop unrolling, as the kernel's), state size
 * S; with no loops or only may_goto/iterator loops O(K * E * S * h) where h
 * is the widening height (a bounded callback's calls after the first
 * CB_EXACT_CALLS too, unless a rejection needs them walked one by one: then
 * the analysis runs again, cb_exact). A step budget turns anything else into a
 * "too complex" verdict. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/bpf.h>
#include <bpfgate/object.h>
#include "analysis/names.h"
#include "analysis/btfarg.h"
#include "analysis/kcost.h"
#include "analysis/except.h"
#include "analysis/fastcall.h"
#include "analysis/vctx.h"
#include "analysis/kgate.h"
#include "analysis/slive.h"
#include "platform/sections.h"
#include "core/opts.h"

static int check_attach_target(struct vctx *v);
static int check_prog_kind(struct vctx *v);

#define DEFAULT_MAX_STEPS 40000000ull
#define DEFAULT_MAX_BYTES ((size_t)1 << 30) /* abstract states stored */
#define DEFAULT_UNROLL 2048u
#define DEFAULT_K 8u
#define COUNTED_UNROLL 1u
/* Calls of a bounded callback (bpf_loop) walked one by one before the rest
 * join into one widened partition (unless a rejection needs them all) */
#define CB_EXACT_CALLS 2u
#define MAX_CTX 4096u

/* A worklist entry carries its key (see wl_less): the context, the block
 * and the iteration vector of the disjunct when it was queued (a disjunct's
 * vector never changes: joins only merge states of equal vectors). */
struct wl_item {
	struct node *n;
	uint32_t d;
	uint32_t ctx, block;
	uint8_t base, niter;
	uint16_t iter[AS_MAX_ITER];
};

/* ------------------------------------------------------------ names */

static __thread const struct bg_program *tl_prog;

void as_names_set(const struct bg_program *prog)
{
	tl_prog = prog;
}

const char *as_map_name(int idx)
{
	static __thread char buf[32];
	if (tl_prog) {
		const struct bg_map_def *m = bg_object__map(bg_program__object(tl_prog), (size_t)idx);
		if (m && m->name)
			return m->name;
	}
	snprintf(buf, sizeof(buf), "#%d", idx);
	return buf;
}

/* ------------------------------------------------------------ errors */

uint32_t vid(struct vctx *v, size_t pc, uint32_t salt)
{
	(void)salt;
	uint32_t id = as_id_fresh(&v->next_id);
	if (id >= AS_ID_LIMIT)
		verr(v, NULL, pc, "too_complex", "too complex for bpfgate: more than %u abstract values",
		     AS_ID_LIMIT);
	return id;
}

static void collect_path(struct vctx *v, uint32_t p)
{
	size_t n = 0;
	for (uint32_t q = p; q; q = v->paths[q].parent)
		n++;
	if (n > 64)
		n = 64;
	v->diag.path = calloc(n + 1, sizeof(*v->diag.path));
	if (!v->diag.path)
		return;
	v->diag.path_len = n;
	size_t i = n;
	for (uint32_t q = p; q && i; q = v->paths[q].parent) {
		i--;
		v->diag.path[i].insn = v->paths[q].insn;
		v->diag.path[i].taken = v->paths[q].taken;
	}
}

int verr(struct vctx *v, const struct as_state *s, size_t pc, const char *check, const char *fmt, ...)
{
	if (v->failed)
		return -1;
	v->failed = true;
	char dis[128] = "";
	if (pc < v->n)
		bg_insn_format(&v->insns[pc], dis, sizeof(dis));
	char msg[1024];
	int k = snprintf(msg, sizeof(msg), "insn %zu (%s): ", pc, dis);
	va_list ap;
	va_start(ap, fmt);
	if (k >= 0 && (size_t)k < sizeof(msg))
		vsnprintf(msg + k, sizeof(msg) - (size_t)k, fmt, ap);
	va_end(ap);
	v->diag.insn = pc;
	v->diag.check = check;
	v->diag.message = strdup(msg);
	v->diag.line = pc < v->n ? bg_program__line(v->prog, pc) : NULL;
	if (s)
		collect_path(v, s->path);
	return -1;
}

int vnomem(struct vctx *v)
{
	v->nomem = true;
	v->failed = true;
	return -1;
}

/* ------------------------------------------------------------ worklist */

/* Worklist order: contexts in creation order; inside one, the hierarchical
 * order of the function's loop nesting: a block's key is, for each loop
 * containing it (outermost first), the reverse post-order number of the
 * loop's head followed by the state's iteration of that loop, then the
 * block's own reverse post-order number; then the caller frames' iterations.
 * So every iteration of an unrolled loop is finished before the next one
 * starts, and a block after a loop runs once every iteration has left it.
 * In a reducible function every edge but a back edge leads to a greater key
 * (forward edge: greater rpo; loop entry: the head comes after the entering
 * block; loop exit: its target after the head; back edge: next iteration),
 * which makes the final disjuncts of process() possible. */
static uint32_t key_rpo(const struct vctx *v, const struct cfg_block *b, uint32_t i, bool *more)
{
	*more = i < b->nloops;
	return *more ? v->g.blocks[v->g.loops[b->loops[i]].head].rpo : b->rpo;
}

static bool wl_less(const struct vctx *v, const struct wl_item *a, const struct wl_item *b)
{
	if (a->ctx != b->ctx)
		return a->ctx < b->ctx;
	const struct cfg_block *ba = &v->g.blocks[a->block], *bb = &v->g.blocks[b->block];
	for (uint32_t i = 0;; i++) {
		bool ma, mb;
		uint32_t ra = key_rpo(v, ba, i, &ma), rb = key_rpo(v, bb, i, &mb);
		if (ra != rb)
			return ra < rb;
		if (!ma || !mb)
			break; /* the same block */
		uint32_t xa = a->base + i, xb = b->base + i;
		uint16_t ia = xa < a->niter ? a->iter[xa] : 0, ib = xb < b->niter ? b->iter[xb] : 0;
		if (ia != ib)
			return ia < ib;
	}
	for (uint32_t i = 0; i < a->base && i < b->base; i++)
		if (a->iter[i] != b->iter[i])
			return a->iter[i] < b->iter[i];
	return a->base < b->base;
}

static void heap_push(struct vctx *v, struct wl_item it)
{
	if (v->nheap == v->capheap) {
		size_t cap = v->capheap ? v->capheap * 2 : 16;
		struct wl_item *h = realloc(v->heap, cap * sizeof(*h));
		if (!h) {
			vnomem(v);
			return;
		}
		v->heap = h;
		v->capheap = cap;
	}
	size_t i = v->nheap++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!wl_less(v, &it, &v->heap[p]))
			break;
		v->heap[i] = v->heap[p];
		i = p;
	}
	v->heap[i] = it;
}

static struct wl_item heap_pop(struct vctx *v)
{
	struct wl_item top = v->heap[0], last = v->heap[--v->nheap];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= v->nheap)
			break;
		if (c + 1 < v->nheap && wl_less(v, &v->heap[c + 1], &v->heap[c]))
			c++;
		if (!wl_less(v, &v->heap[c], &last))
			break;
		v->heap[i] = v->heap[c];
		i = c;
	}
	if (v->nheap)
		v->heap[i] = last;
	return top;
}

/* ------------------------------------------------------------ contexts */

static int ctx_get(struct vctx *v, uint32_t parent, uint32_t callsite, uint32_t func, uint8_t kind)
{
	for (uint32_t i = 1; i < v->nctx; i++) {
		struct actx *c = &v->ctxs[i];
		if (c->parent == parent && c->callsite == callsite && c->func == func && c->kind == kind)
			return (int)i;
	}
	if (v->nctx >= MAX_CTX)
		return -E2BIG;
	if (v->nctx == v->capctx) {
		uint32_t cap = v->capctx ? v->capctx * 2 : 8;
		struct actx *cs = realloc(v->ctxs, cap * sizeof(*cs));
		if (!cs)
			return vnomem(v), -ENOMEM;
		v->ctxs = cs;
		v->capctx = cap;
	}
	struct actx *c = &v->ctxs[v->nctx];
	memset(c, 0, sizeof(*c));
	c->parent = parent;
	c->callsite = callsite;
	c->func = func;
	c->kind = kind;
	c->depth = v->nctx && kind != CTX_GLOBAL && kind != CTX_CB_ASYNC ? v->ctxs[parent].depth + 1 : 1;
	const struct cfg_func *f = &v->g.funcs[func];
	c->first_block = v->g.block_of[f->start];
	c->nblocks = v->g.block_of[f->end - 1] - c->first_block + 1;
	c->nodes = calloc(c->nblocks, sizeof(*c->nodes));
	if (!c->nodes)
		return vnomem(v), -ENOMEM;
	c->ret_min = 0;
	c->ret_max = kind == CTX_CB_ASYNC ? 0 : 1;
	return (int)v->nctx++;
}

static struct node *node_get(struct vctx *v, uint32_t ctx, uint32_t block)
{
	struct actx *c = &v->ctxs[ctx];
	struct node **slot = &c->nodes[block - c->first_block];
	if (!*slot) {
		*slot = calloc(1, sizeof(**slot));
		if (!*slot) {
			vnomem(v);
			return NULL;
		}
		(*slot)->ctx = ctx;
		(*slot)->block = block;
	}
	return *slot;
}

/* ------------------------------------------------------------ loops */

static uint32_t loop_unroll(const struct vctx *v, uint32_t loop)
{
	if (v->g.loops[loop].allowed_unbounded)
		return 2;
	/* a counted loop is bounded by its shape: unroll a few iterations for
	 * precision, then widen */
	return v->g.loops[loop].counted ? COUNTED_UNROLL : v->unroll;
}

/* Update the iteration vector for an edge from block `from` (NULL: entry)
 * to block `to` of the same function; base is the frame's vector start.
 * *widen is set when `to` is a saturated loop head (joins there widen).
 * Returns -1 (after verr) when an unbounded loop is detected. */
static int iter_edge(struct vctx *v, struct as_state *s, const struct cfg_block *from, uint32_t to,
		     size_t pc, bool *widen)
{
	const struct cfg_block *tb = &v->g.blocks[to];
	uint32_t base = as_cur(s)->iter_base;
	uint32_t j = 0;
	if (from)
		while (j < from->nloops && j < tb->nloops && from->loops[j] == tb->loops[j])
			j++;
	*widen = false;
	bool back = from && tb->head_of >= 0 && tb->nloops && j == tb->nloops &&
		    tb->loops[tb->nloops - 1] == (uint32_t)tb->head_of;
	if (back) {
		uint32_t idx = base + tb->nloops - 1;
		uint32_t loop = (uint32_t)tb->head_of;
		s->niter = base + tb->nloops;
		if (s->niter > AS_MAX_ITER)
			s->niter = AS_MAX_ITER;
		if (idx >= AS_MAX_ITER) {
			*widen = true;
			return 0;
		}
		uint32_t u = loop_unroll(v, loop);
		kcost_note_iter(v->kc, loop, s->iter[idx] + 1u);
		if (s->iter[idx] + 1u >= u) {
			if (!v->g.loops[loop].allowed_unbounded && !v->g.loops[loop].counted)
				return verr(v, s, pc, "loop_bound",
					    "loop not proven bounded: back-edge from insn %zu to insn %u still feasible after %u iterations (infinite loop, or a bound the analysis cannot see)",
					    pc, tb->start, u);
			s->iter[idx] = (uint16_t)u;
			*widen = true;
		} else {
			s->iter[idx]++;
		}
		return 0;
	}
	s->niter = base + j;
	for (uint32_t k = j; k < tb->nloops && base + k < AS_MAX_ITER; k++)
		s->iter[base + k] = 0;
	s->niter = base + tb->nloops;
	if (s->niter > AS_MAX_ITER)
		s->niter = AS_MAX_ITER;
	if (tb->head_of >= 0 && tb->nloops && base + tb->nloops - 1 < AS_MAX_ITER) {
		/* a loop analysed by widening only keeps no iteration apart */
		uint32_t idx = base + tb->nloops - 1, u = loop_unroll(v, (uint32_t)tb->head_of);
		if (u <= 1) {
			s->iter[idx] = (uint16_t)u;
			*widen = true;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ propagate */

/* Disjuncts of one partition: the same loop iteration vector, and the same
 * calls left in each bounded callback frame (bpf_loop's first CB_EXACT_CALLS
 * calls are walked one by one, never joined; the later ones share the
 * AS_CB_UNCOUNTED partition, or are walked one by one too in a cb_exact run). */
static bool same_iter(const struct as_state *a, const struct as_state *b)
{
	if (a->niter != b->niter || memcmp(a->iter, b->iter, a->niter * sizeof(a->iter[0])))
		return false;
	for (uint32_t i = 0; i < a->nframes && i < b->nframes; i++)
		if (a->fr[i].cb_left != b->fr[i].cb_left)
			return false;
	return true;
}

/* ------------------------------------------------------------ iteration index */

#define IDX_MIN 8u /* below this many disjuncts a node is scanned linearly */

static uint32_t iter_hash(const uint16_t *iter, uint32_t niter)
{
	uint32_t h = 2166136261u ^ niter;
	for (uint32_t i = 0; i < niter; i++)
		h = (h ^ iter[i]) * 16777619u;
	return h ^ (h >> 15);
}

static void idx_insert(struct node *n, uint32_t d)
{
	uint32_t b = iter_hash(n->d[d].st.iter, n->d[d].st.niter) & (n->nbuck - 1);
	n->d[d].inext = n->ibuck[b];
	n->ibuck[b] = d;
}

/* Keep the index at >= 1 bucket per 2 disjuncts once the node is large. */
static void idx_grow(struct node *n)
{
	if (n->ndisj < IDX_MIN || n->ndisj <= 2 * n->nbuck)
		return;
	uint32_t nb = n->nbuck ? n->nbuck * 4 : 16;
	uint32_t *b = malloc(nb * sizeof(*b));
	if (!b)
		return; /* the smaller index still works (longer chains) */
	memset(b, 0xff, nb * sizeof(*b));
	free(n->ibuck);
	n->ibuck = b;
	n->nbuck = nb;
	for (uint32_t i = 0; i < n->ndisj; i++)
		idx_insert(n, i);
}

/* First disjunct (in the index's chain order) that may share s's iteration
 * vector; iterate with idx_next. Without an index: every disjunct. */
static uint32_t idx_first(const struct node *n, const uint16_t *iter, uint32_t niter)
{
	if (!n->nbuck)
		return n->ndisj ? 0 : UINT32_MAX;
	return n->ibuck[iter_hash(iter, niter) & (n->nbuck - 1)];
}

static uint32_t idx_next(const struct node *n, uint32_t d)
{
	if (!n->nbuck)
		return d + 1 < n->ndisj ? d + 1 : UINT32_MAX;
	return n->d[d].inext;
}

static void track_bytes(struct vctx *v, ssize_t delta)
{
	v->cur_bytes = (size_t)((ssize_t)v->cur_bytes + delta);
	if (v->cur_bytes > v->peak_bytes)
		v->peak_bytes = v->cur_bytes;
}

static void enqueue(struct vctx *v, struct node *n, uint32_t d)
{
	if (n->d[d].queued)
		return;
	n->d[d].queued = true;
	n->nqueued++;
	const struct as_state *s = &n->d[d].st;
	struct wl_item it = { .n = n, .d = d, .ctx = n->ctx, .block = n->block };
	it.niter = (uint8_t)(s->niter < AS_MAX_ITER ? s->niter : AS_MAX_ITER);
	uint32_t base = s->nframes ? s->fr[s->nframes - 1].iter_base : 0;
	it.base = (uint8_t)(base < it.niter ? base : it.niter);
	memcpy(it.iter, s->iter, it.niter * sizeof(it.iter[0]));
	heap_push(v, it);
}

/* Detect a loop that makes no progress: iteration k+1 at the head is the
 * same state as iteration k, or as an earlier iteration j (up to
 * NO_PROGRESS_BACK back) from which it descends: every iteration between j
 * and k held one disjunct at the head, so the states of j led to it (the
 * kernel's "infinite loop detected" compares with the states explored on the
 * current path). A loop cycling with a longer period, or through partitioned
 * iterations, still ends at the unrolling bound U. Cost: at most
 * NO_PROGRESS_BACK walks of one iteration's disjuncts per back edge taken. */
#define NO_PROGRESS_BACK 8
static bool no_progress(const struct node *n, const struct as_state *s, uint32_t idx)
{
	if (idx >= s->niter || s->iter[idx] == 0)
		return false;
	uint16_t prev[AS_MAX_ITER];
	memcpy(prev, s->iter, s->niter * sizeof(prev[0]));
	for (uint32_t back = 1; back <= NO_PROGRESS_BACK && back <= s->iter[idx]; back++) {
		prev[idx] = (uint16_t)(s->iter[idx] - back);
		uint32_t same_iter = 0;
		for (uint32_t i = idx_first(n, prev, s->niter); i != UINT32_MAX; i = idx_next(n, i)) {
			const struct as_state *o = &n->d[i].st;
			if (o->niter != s->niter || memcmp(o->iter, s->iter, idx * sizeof(s->iter[0])) ||
			    o->iter[idx] != prev[idx])
				continue;
			same_iter++;
			if (n->d[i].done)
				continue;
			struct as_state tmp = *s;
			tmp.iter[idx] = o->iter[idx];
			/* the same state again, not merely a narrower one (the kernel's
			 * states_equal(EXACT)): a loop whose counter narrows still moves */
			if (as_state_leq(&tmp, o) && as_state_leq(o, &tmp))
				return true;
		}
		/* an iteration with several disjuncts: the earlier ones need not
		 * be on the current path */
		if (same_iter != 1)
			return false;
	}
	return false;
}

/* A block with one predecessor inside its function that is neither a loop
 * head, a function entry nor a call's return point never joins states:
 * process them directly (LIFO) instead of storing them. */
static bool direct_block(struct vctx *v, uint32_t block)
{
	const struct cfg_block *b = &v->g.blocks[block];
	return b->npred == 1 && b->head_of < 0 && !b->after_call && v->g.funcs[b->func].entry != block;
}

static void direct_push(struct vctx *v, uint32_t ctx, uint32_t block, struct as_state *s)
{
	if (v->ndirect == v->capdirect) {
		size_t cap = v->capdirect ? v->capdirect * 2 : 8;
		struct direct_item *di = realloc(v->direct, cap * sizeof(*di));
		if (!di) {
			vnomem(v);
			as_state_fini(s);
			return;
		}
		v->direct = di;
		v->capdirect = cap;
	}
	struct direct_item *it = &v->direct[v->ndirect++];
	it->ctx = ctx;
	it->block = block;
	as_state_move(&it->st, s);
}

/* ------------------------------------------------------------ lockstep registers */

static bool iv_type_ok(const struct as_reg *r)
{
	return r->type == T_SCALAR || r->type == T_MAP_VALUE || r->type == T_MEM || r->type == T_STACK;
}

/* x - k * i over the abstract values (modulo 2^64, as the registers step) */
static struct bg_scalar iv_diff(const struct bg_scalar *x, const struct bg_scalar *i, int64_t k, bool add)
{
	struct bg_scalar kc = bg_scalar_const((uint64_t)k);
	struct bg_scalar m = bg_scalar_alu(BG_ALU_MUL, true, false, 0, i, &kc);
	return bg_scalar_alu(add ? BG_ALU_ADD : BG_ALU_SUB, true, false, 0, x, &m);
}

/* A state enters counted loop head n from outside: widen the invariants.
 * Returns true when one grew (the head's states must be refined again). */
static bool iv_entry(struct vctx *v, struct node *n, const struct cfg_loop *lp, const struct as_state *s)
{
	if (!n->iv) {
		n->iv = calloc(lp->niv, sizeof(*n->iv));
		if (!n->iv) {
			vnomem(v);
			return false;
		}
	}
	const struct as_frame *f = &s->fr[s->nframes - 1];
	const struct as_reg *i = &f->r[lp->cnt_reg];
	bool grew = false;
	for (uint32_t j = 0; j < lp->niv; j++) {
		struct iv_inv *e = &n->iv[j];
		const struct as_reg *x = &f->r[lp->iv_reg[j]];
		if (e->dead)
			continue;
		if (i->type != T_SCALAR || !iv_type_ok(x) ||
		    (e->set && (x->type != e->type || x->map != e->map || x->frame != e->frame))) {
			e->dead = true;
			grew = true;
			continue;
		}
		struct bg_scalar d = iv_diff(&x->v, &i->v, lp->iv_k[j], false);
		if (!e->set) {
			e->set = true;
			e->type = x->type;
			e->map = x->map;
			e->frame = x->frame;
			e->d = d;
			grew = true;
		} else if (!bg_scalar_leq(&d, &e->d)) {
			e->d = bg_scalar_join(&e->d, &d);
			grew = true;
		}
	}
	return grew;
}

/* Narrow the lockstep registers of a head state to invariant + k * counter. */
static void iv_refine(const struct node *n, const struct cfg_loop *lp, struct as_state *s)
{
	if (!n->iv)
		return;
	struct as_frame *f = as_cur(s);
	const struct as_reg *i = &f->r[lp->cnt_reg];
	if (i->type != T_SCALAR)
		return;
	for (uint32_t j = 0; j < lp->niv; j++) {
		const struct iv_inv *e = &n->iv[j];
		struct as_reg *x = &f->r[lp->iv_reg[j]];
		if (!e->set || e->dead || x->type != e->type || x->map != e->map || x->frame != e->frame)
			continue;
		struct bg_scalar r = iv_diff(&e->d, &i->v, lp->iv_k[j], true);
		struct bg_scalar m = bg_scalar_meet(&x->v, &r);
		if (!m.bottom)
			x->v = m;
	}
}

/* ------------------------------------------------------------ counter acceleration */

/* The counter's value after one iteration from head value x (cfg_loop.cnt_accel):
 * its step and its test, in their order, applied by the transfer functions
 * themselves to a copy of the head state. false: the iteration cannot go on. */
static bool cnt_iterate(struct vctx *v, const struct cfg_loop *lp, const struct as_state *head,
			const struct bg_scalar *x, struct bg_scalar *y)
{
	struct as_state o;
	if (as_state_copy(&o, head))
		return false;
	as_cur(&o)->r[lp->cnt_reg].v = *x;
	bool dead = false;
	int r = 0;
	for (int k = 0; k < 2 && !r && !dead; k++) {
		if ((k == 0) == lp->cnt_step_first)
			r = xfer_insn(v, &o, lp->cnt_step);
		else
			r = xfer_branch(v, &o, lp->cnt_insn, lp->cnt_stay, &dead);
	}
	const struct as_reg *c = &as_cur(&o)->r[lp->cnt_reg];
	bool ok = !r && !dead && c->type == T_SCALAR && !c->id;
	if (ok)
		*y = c->v;
	as_state_fini(&o);
	return ok;
}

/* A counted loop's widening at its head: its counter goes at once to the
 * value the head would reach after the widening steps of the following
 * iterations (each body run only moves the counter by its step and test,
 * cnt_iterate; the thresholds crossed one per run). The other registers then
 * widen in as many runs as they need themselves: the body of
 * `for (i = 0; i < 4; i++)` runs once or twice, not once per threshold in
 * [0, 3]. Done when a state enters the loop (the counter is then what it
 * will be once the back edge is taken: if no iteration ever takes it, the
 * counter is wider than the walk's; a rejection is then re-checked without,
 * verify_observed) and after a back edge. The value only grows (a sound start
 * for the iterations that follow). At most CNT_ACCEL_MAX steps (each crosses
 * a threshold). Returns true when it moved the counter. */
#define CNT_ACCEL_MAX 64
static bool cnt_accel(struct vctx *v, const struct cfg_loop *lp, struct as_state *head, const struct bg_scalar *before)
{
	struct as_reg *c = &as_cur(head)->r[lp->cnt_reg];
	/* a counter the join left as it was is where its iterates stop already */
	if (c->type != T_SCALAR || c->id || bg_scalar_eq(&c->v, before))
		return false;
	struct bg_scalar x = c->v, y;
	bool moved = false;
	for (int k = 0; k < CNT_ACCEL_MAX && cnt_iterate(v, lp, head, &x, &y); k++) {
		if (bg_scalar_leq(&y, &x))
			break;
		x = bg_scalar_widen(&x, &y, v->thr, v->nthr);
		moved = true;
	}
	c->v = x;
	return moved;
}

static const struct cfg_loop *accel_loop(const struct vctx *v, uint32_t block)
{
	int32_t h = v->g.blocks[block].head_of;
	if (h < 0 || !v->g.loops[h].counted || !v->g.loops[h].cnt_accel)
		return NULL;
	return &v->g.loops[h];
}

static const struct cfg_loop *iv_loop(const struct vctx *v, uint32_t block)
{
	int32_t h = v->g.blocks[block].head_of;
	if (h < 0 || !v->g.loops[h].counted || !v->g.loops[h].niv)
		return NULL;
	return &v->g.loops[h];
}

/* Stack slots of the current frame no path reads again (slive.c) are
 * forgotten; those whose value no path reads (only whether they are
 * initialized: svlive) keep their initialized bytes and nothing else
 * (STACK_ZERO and a spilled scalar become misc). Only data slots
 * (as_slot_data): not dynptrs and iterators (their slots are objects the
 * kernel tracks by themselves). Not for an unprivileged program (a write
 * over a spilled pointer is refused there, so the old slot matters), nor on
 * 5.10 (an uninitialized read is allowed within the deepest slot written:
 * the slots are the written depth). The frame's slot masks
 * (as_frame_slot_masks, O(1) on an array unchanged since they were last
 * asked) tell which slots change, so that a state with nothing to forget
 * costs no walk and a shared slot array is copied only when a slot goes. */
static void kill_dead_slots(const struct vctx *v, uint32_t block, struct as_frame *fr)
{
	uint64_t live = v->g.blocks[block].slive, vlive = v->g.blocks[block].svlive;
	if (!v->priv || (v->uninit_stack_written_ok && !v->uninit_stack_ok) || !fr->nslots || !~live)
		return;
	struct as_slot_masks mk;
	as_frame_slot_masks(fr, &mk);
	if (as_frame_drop(fr, mk.data & ~live))
		return; /* no memory (as_oom_take stops the analysis) */
	for (uint64_t weak = mk.value & live & ~vlive; weak; weak &= weak - 1) {
		struct as_slot *sl = as_slot_get(fr, __builtin_ctzll(weak), false);
		if (!sl)
			return; /* no memory, as above */
		sl->zero = 0;
		sl->kind = SK_NONE;
		sl->spill_size = 0;
		as_reg_uninit(&sl->spill);
	}
}

/* Registers no path reads again are forgotten (made uninit) before a state
 * is stored, as the kernel's clean_live_states does: states differing only
 * there then compare and join equal. In the frames below the current one,
 * r0-r5 are clobbered at the return and r6-r9 die where the return point
 * does not read them. */
static void kill_dead(const struct vctx *v, uint32_t block, struct as_state *s)
{
	for (uint32_t f = 0; f < s->nframes; f++) {
		struct as_frame *fr = &s->fr[f];
		uint16_t live;
		if (f + 1 == s->nframes) {
			live = v->g.blocks[block].rlive;
		} else {
			int32_t cs = s->fr[f + 1].callsite;
			if (cs < 0 || (size_t)cs + 1 >= v->g.n)
				continue;
			live = v->g.blocks[v->g.block_of[cs + 1]].rlive & 0x3c0u;
		}
		for (int i = 0; i < 10; i++)
			if (!((live >> i) & 1) && fr->r[i].type != T_UNINIT)
				as_reg_uninit(&fr->r[i]);
	}
	kill_dead_slots(v, block, as_cur(s));
}

/* Subsumption, the kernel's pruning: a disjunct (of s's iteration vector)
 * that already contains s takes it (the join changes nothing), else a queued
 * disjunct s contains takes s's place (*covers). Either way no disjunct is
 * added and nothing is lost: every check that holds on the larger state
 * holds on the smaller. UINT32_MAX: neither. Cost: O(K) leq. */
static uint32_t subsume_target(const struct node *n, const struct as_state *s, bool *covers)
{
	uint32_t cand = UINT32_MAX;
	*covers = false;
	for (uint32_t i = idx_first(n, s->iter, s->niter); i != UINT32_MAX; i = idx_next(n, i)) {
		const struct disj *d = &n->d[i];
		if (d->done || !same_iter(&d->st, s))
			continue;
		if (as_state_leq(s, &d->st))
			return i;
		if (cand == UINT32_MAX && d->queued && as_state_leq(&d->st, s))
			cand = i;
	}
	*covers = cand != UINT32_MAX;
	return cand;
}

/* After s replaced disjunct t (subsume_target's *covers): the other queued
 * disjuncts t now contains go (freed, marked done; process skips them). */
static void absorb_covered(struct vctx *v, struct node *n, uint32_t t)
{
	const struct as_state *ts = &n->d[t].st;
	for (uint32_t i = idx_first(n, ts->iter, ts->niter); i != UINT32_MAX; i = idx_next(n, i)) {
		struct disj *d = &n->d[i];
		if (i == t || d->done || !d->queued || !same_iter(&d->st, ts) || !as_state_leq(&d->st, ts))
			continue;
		track_bytes(v, -(ssize_t)as_state_bytes(&d->st));
		uint32_t ni = d->st.niter;
		uint16_t it[AS_MAX_ITER];
		memcpy(it, d->st.iter, sizeof(it));
		as_state_fini(&d->st);
		as_state_init(&d->st);
		d->st.niter = ni;
		memcpy(d->st.iter, it, sizeof(it));
		d->done = true; /* still queued: process drops it */
	}
}

static int thresholds(struct vctx *v);

static void propagate(struct vctx *v, uint32_t ctx, uint32_t block, struct as_state *s, bool widen, bool back)
{
	if (direct_block(v, block)) {
		direct_push(v, ctx, block, s);
		return;
	}
	struct node *n = node_get(v, ctx, block);
	if (!n) {
		as_state_fini(s);
		return;
	}
	kill_dead(v, block, s);
	as_zone_gc(s);
	uint16_t live = v->g.blocks[block].blive;
	/* at a widening head, constants (the loop counters) must not split states;
	 * the entry of a bounded callback whose calls joined is one */
	bool weak_only = widen && (v->g.blocks[block].head_of >= 0 ||
				   (as_cur(s)->cb_calls == AS_CB_JOINED && v->g.funcs[v->g.blocks[block].func].entry == block));
	struct as_keys ks;
	as_state_keys(s, live, weak_only, &ks);
	uint64_t wkey = ks.wkey, key = ks.key, lkey = ks.lkey, pkey = ks.pkey, mkey = ks.mkey;
	uint32_t same = 0, target = UINT32_MAX, weak = UINT32_MAX, first = UINT32_MAX;
	uint32_t wlive = UINT32_MAX, olive = UINT32_MAX, samep = UINT32_MAX;
	for (uint32_t i = idx_first(n, s->iter, s->niter); i != UINT32_MAX; i = idx_next(n, i)) {
		struct disj *d = &n->d[i];
		if (d->done || !same_iter(&d->st, s))
			continue;
		same++;
		/* the lowest index of each kind (the index chains run newest first) */
		if (i < first)
			first = i;
		if (d->key == key && i < target)
			target = i;
		if (d->wkey == wkey && i < weak)
			weak = i;
		if (d->lkey == lkey && d->wkey == wkey && i < wlive)
			wlive = i;
		if (d->lkey == lkey && i < olive)
			olive = i;
		if (d->pkey == pkey && i < samep)
			samep = i;
	}
	bool covers = false, inside = false;
	if (target == UINT32_MAX && same && !widen) {
		target = subsume_target(n, s, &covers);
		/* s <= the target already (as_state_leq): the join changes nothing */
		inside = target != UINT32_MAX && !covers;
	}
	if (target == UINT32_MAX && same >= v->kdisj) {
		/* beyond K: one that agrees on the branch-live registers (and
		 * the weak key), else on the weak key, else one that holds the
		 * same pointers, else on the live registers, else the first */
		target = wlive != UINT32_MAX ? wlive :
			 weak != UINT32_MAX ? weak :
			 samep != UINT32_MAX ? samep :
			 olive != UINT32_MAX ? olive : first;
		/* no disjunct holds the same pointers (a packet pointer where
		 * each of them holds NULL, say): a join would turn them into
		 * scalars where the kernel walks the path on its own; a new
		 * disjunct up to 2K (K fills first with states that differ in
		 * small constants only, e.g. the key each copy of an unrolled
		 * lookup loop spills) */
		if (samep == UINT32_MAX && same < 2 * v->kdisj)
			target = UINT32_MAX;
		/* joining map pointers of different maps loses them (the kernel walks
		 * each map's path apart): a disjunct with the same weak key and maps,
		 * else a new one up to 2K; beyond, the weak choice */
		if (mkey && target != UINT32_MAX && n->d[target].mkey != mkey) {
			uint32_t m = UINT32_MAX;
			for (uint32_t i = idx_first(n, s->iter, s->niter); i != UINT32_MAX; i = idx_next(n, i))
				if (!n->d[i].done && same_iter(&n->d[i].st, s) && n->d[i].mkey == mkey &&
				    n->d[i].wkey == wkey && i < m)
					m = i;
			if (m != UINT32_MAX)
				target = m;
			else if (same < 2 * v->kdisj)
				target = UINT32_MAX;
		}
	}
	const struct cfg_loop *ivl = iv_loop(v, block);
	const struct cfg_loop *acl = widen && (back || !v->no_entry_accel) ? accel_loop(v, block) : NULL;
	if (ivl)
		iv_refine(n, ivl, s);
	/* the widening thresholds (the joins and cnt_accel below): built at
	 * the first widening (thresholds) */
	if (widen && !v->thr && thresholds(v)) {
		vnomem(v);
		as_state_fini(s);
		return;
	}
	if (target != UINT32_MAX) {
		struct disj *d = &n->d[target];
		size_t before = as_state_bytes(&d->st);
		int changed;
		if (ivl && n->iv) {
			/* widening may lose the lockstep bound: narrow again, keeping
			 * at least the old state (disjuncts only grow) */
			struct as_state old;
			if (as_state_copy(&old, &d->st)) {
				vnomem(v);
				as_state_fini(s);
				return;
			}
			struct bg_scalar cnt0 = acl ? as_cur(&d->st)->r[acl->cnt_reg].v : bg_scalar_bottom();
			changed = as_state_join(&d->st, s, widen, v->thr, v->nthr, &v->next_id);
			if (changed > 0) {
				if (acl && cnt_accel(v, acl, &d->st, &cnt0) && !back)
					v->entry_accel = true;
				iv_refine(n, ivl, &d->st);
				if (as_state_join(&d->st, &old, false, NULL, 0, &v->next_id) < 0)
					changed = -ENOMEM;
				else
					changed = !as_state_leq(&d->st, &old);
			}
			as_state_fini(&old);
		} else if (inside) {
			changed = 0; /* as_state_join would answer so after the same leq */
		} else {
			struct bg_scalar cnt0 = acl ? as_cur(&d->st)->r[acl->cnt_reg].v : bg_scalar_bottom();
			changed = as_state_join(&d->st, s, widen, v->thr, v->nthr, &v->next_id);
			if (changed > 0 && acl && cnt_accel(v, acl, &d->st, &cnt0) && !back)
				v->entry_accel = true;
		}
		if (changed < 0)
			vnomem(v);
		if (changed > 0) {
			as_state_keys(&d->st, live, weak_only, &ks);
			d->wkey = ks.wkey;
			d->key = ks.key;
			d->mkey = ks.mkey;
			d->lkey = ks.lkey;
			d->pkey = ks.pkey;
			track_bytes(v, (ssize_t)as_state_bytes(&d->st) - (ssize_t)before);
			enqueue(v, n, target);
			if (covers)
				absorb_covered(v, n, target);
		}
		as_state_fini(s);
		return;
	}
	if (n->ndisj == n->cap) {
		uint32_t cap = n->cap ? n->cap * 2 : 1;
		struct disj *nd = realloc(n->d, cap * sizeof(*nd));
		if (!nd) {
			vnomem(v);
			as_state_fini(s);
			return;
		}
		n->d = nd;
		n->cap = cap;
	}
	struct disj *d = &n->d[n->ndisj];
	memset(d, 0, sizeof(*d));
	as_state_move(&d->st, s);
	d->key = key;
	d->wkey = wkey;
	d->mkey = mkey;
	d->lkey = lkey;
	d->pkey = pkey;
	d->inext = UINT32_MAX;
	struct bg_scalar none = bg_scalar_bottom();
	if (acl && cnt_accel(v, acl, &d->st, &none) && !back)
		v->entry_accel = true;
	track_bytes(v, (ssize_t)as_state_bytes(&d->st));
	if (n->nbuck)
		idx_insert(n, n->ndisj);
	n->ndisj++;
	idx_grow(n);
	enqueue(v, n, n->ndisj - 1);
}

static uint32_t path_add(struct vctx *v, uint32_t parent, size_t insn, bool taken)
{
	if (v->npaths == v->cappaths) {
		uint32_t cap = v->cappaths ? v->cappaths * 2 : 64;
		struct path_node *np = realloc(v->paths, cap * sizeof(*np));
		if (!np) {
			vnomem(v);
			return parent; /* the analysis stops: any valid node will do */
		}
		v->paths = np;
		v->cappaths = cap;
	}
	v->paths[v->npaths] = (struct path_node){ .parent = parent, .insn = (uint32_t)insn, .taken = taken };
	return v->npaths++;
}

/* Edge inside a function: iteration vector, then join into the target. */
static int edge_local(struct vctx *v, uint32_t ctx, const struct cfg_block *from, uint32_t to,
		      struct as_state *s, size_t pc)
{
	bool widen = false;
	if (iter_edge(v, s, from, to, pc, &widen)) {
		as_state_fini(s);
		return -1;
	}
	const struct cfg_block *tb = &v->g.blocks[to];
	if (from && tb->head_of >= 0 && !widen && tb->nloops) {
		uint32_t idx = as_cur(s)->iter_base + tb->nloops - 1;
		struct node *n = node_get(v, ctx, to);
		if (!n) {
			as_state_fini(s);
			return -1;
		}
		/* the head's stored states lost their dead registers: compare alike */
		kill_dead(v, to, s);
		if (!v->g.loops[tb->head_of].allowed_unbounded && idx < AS_MAX_ITER && no_progress(n, s, idx)) {
			int r = verr(v, s, pc, "loop_bound", "infinite loop detected: back-edge to insn %u makes no progress",
				     tb->start);
			as_state_fini(s);
			return r;
		}
	}
	const struct cfg_loop *ivl = iv_loop(v, to);
	bool entry = ivl != NULL;
	for (uint32_t k = 0; entry && from && k < from->nloops; k++)
		if (from->loops[k] == (uint32_t)tb->head_of)
			entry = false;
	struct node *hn = entry ? node_get(v, ctx, to) : NULL;
	bool grew = hn && iv_entry(v, hn, ivl, s);
	bool back = false; /* from inside the loop `to` heads */
	for (uint32_t k = 0; from && tb->head_of >= 0 && k < from->nloops; k++)
		if (from->loops[k] == (uint32_t)tb->head_of)
			back = true;
	propagate(v, ctx, to, s, widen, back);
	/* a wider invariant: the head's states are refined again (re-enqueued) */
	for (uint32_t d = 0; grew && d < hn->ndisj; d++)
		enqueue(v, hn, d);
	return 0;
}

/* ------------------------------------------------------------ calls */

/* The kernel's check_func_arg_reg_off for a memory or ctx argument: the
 * pointer types that may carry an offset, else a constant offset of 0 (BTF
 * pointers: any constant offset). */
static int global_arg_off(struct vctx *v, struct as_state *s, size_t pc, int reg)
{
	const struct as_reg *r = &as_cur(s)->r[reg];
	uint64_t c;
	switch (r->type) {
	case T_STACK: case T_PKT: case T_PKT_META: case T_MAP_VALUE: case T_MEM: case T_RINGBUF_MEM:
	case T_ARENA: case T_SCALAR:
		return 0;
	case T_BTF_ID:
		if (bg_scalar_is_const(&r->v, &c))
			return 0;
		break;
	default:
		if (bg_scalar_is_const(&r->v, &c) && c == 0)
			return 0;
		break;
	}
	return verr(v, s, pc, "global_arg", "dereference of modified %s ptr R%d off=%" PRId64 " disallowed",
		    as_type_name(r->type, 0), reg, r->v.smin);
}

/* The kernel's check_mem_reg: size bytes readable and writable, NULL
 * passes, a maybe-NULL pointer is checked as if it were not NULL. */
static int global_arg_mem(struct vctx *v, struct as_state *s, size_t pc, int reg, uint32_t size)
{
	struct as_reg *r = &as_cur(s)->r[reg];
	uint64_t c;
	if (r->type == T_SCALAR && bg_scalar_is_const(&r->v, &c) && c == 0)
		return 0;
	bool conv = false;
	bg_prog_ctx_btf(v->prog_type, NULL, &conv);
	switch (r->type) {
	case T_STACK: case T_PKT: case T_PKT_META: case T_MAP_VALUE: case T_MEM: case T_RINGBUF_MEM:
	case T_BTF_ID:
		break;
	case T_CTX:
		if (!conv) /* a rewritten ctx is no memory */
			break;
		return verr(v, s, pc, "global_arg", "R%d type=ctx expected=fp, pkt, pkt_meta, map_key, map_value, mem, buf",
			    reg);
	default:
		return verr(v, s, pc, "global_arg", "R%d type=%s expected=fp, pkt, pkt_meta, map_key, map_value, mem, buf",
			    reg, as_type_name(r->type, r->flags));
	}
	uint8_t saved = r->flags;
	r->flags &= (uint8_t)~RF_NULL;
	struct bg_scalar sz = bg_scalar_const(size);
	int e;
	if (r->type == T_CTX) { /* one byte at the end, as check_helper_mem_access */
		e = size ? check_mem(v, s, pc, reg, (int)size - 1, 1, false, NULL, NULL, false) : 0;
	} else {
		e = check_mem_range(v, s, pc, reg, &sz, false, true, "global function argument");
	}
	/* the write check also clobbers the bytes of the caller's stack, as
	 * the kernel's helper access does (the callee may write them) */
	if (!e && size && r->type != T_BTF_ID)
		e = r->type == T_CTX ? check_mem(v, s, pc, reg, (int)size - 1, 1, true, NULL, NULL, false)
				     : check_mem_range(v, s, pc, reg, &sz, true, true, "global function argument");
	r->flags = saved;
	return e;
}

/* struct name without a ___flavour suffix */
static size_t essential_len(const char *n)
{
	const char *f = strstr(n, "___");
	return f ? (size_t)(f - n) : strlen(n);
}

/* One argument of a global function call against its prototype (the
 * kernel's btf_check_func_arg_match). */
static int global_arg(struct vctx *v, struct as_state *s, size_t pc, int i, const struct gparam *gp,
		      const char *fname)
{
	int reg = i + 1;
	struct as_reg *r = &as_cur(s)->r[reg];
	uint64_t c;
	bool null = r->type == T_SCALAR && bg_scalar_is_const(&r->v, &c) && c == 0;
	switch (gp->kind) {
	case GP_SCALAR:
		if (r->type != T_SCALAR)
			return verr(v, s, pc, "global_arg", "R%d is not a scalar", reg);
		return 0;
	case GP_CTX:
		if (global_arg_off(v, s, pc, reg))
			return -1;
		if (r->type != T_CTX)
			return verr(v, s, pc, "global_arg", "arg#%d expects pointer to ctx", i);
		return 0;
	case GP_MEM:
		if (!kf_has(v, BG_KF_GLOBAL_PTR_ARGS))
			return verr(v, s, pc, "kernel_version", "Arg#%d type PTR in %s() is not supported yet.", i, fname);
		if (gp->unsized)
			return verr(v, s, pc, "kernel_version",
				    "arg#%d reference type('UNKNOWN ') size cannot be determined: -22", i);
		if (global_arg_off(v, s, pc, reg) || global_arg_mem(v, s, pc, reg, gp->size))
			return -1;
		if (!gp->nullable && (((r->flags & RF_NULL) && r->type != T_SCALAR) ||
				      (null && kf_has(v, BG_KF_NONNULL_ARG_NULL))))
			return verr(v, s, pc, "global_arg", "arg#%d is expected to be non-NULL", i);
		return 0;
	case GP_DYNPTR: {
		if (r->type == T_DYNPTR_PTR)
			return call_dynptr_ptr_off(v, s, pc, reg);
		if (r->type != T_STACK)
			return verr(v, s, pc, "global_arg", "arg#%d expected pointer to stack or const struct bpf_dynptr", i);
		if (!bg_scalar_is_const(&r->v, &c) || (int64_t)c >= 0 || ((int64_t)c & 7))
			return verr(v, s, pc, "global_arg", "R%d must point to a dynptr at a constant, aligned stack offset", reg);
		const struct as_slot *sl = as_slot_find(&s->fr[r->frame], (int)((-(int64_t)c - 1) / 8));
		if (!sl || sl->kind != SK_DYNPTR)
			return verr(v, s, pc, "global_arg", "Expected an initialized dynptr as arg #%d", i);
		return 0;
	}
	case GP_BTF:
		if (null && gp->nullable)
			return 0;
		if (r->type != T_BTF_ID || (r->flags & (RF_UNTRUSTED | RF_ALLOC | RF_PERCPU)))
			return verr(v, s, pc, "global_arg", "R%d type=%s expected=ptr_, trusted_ptr_, rcu_ptr_", reg,
				    as_type_name(r->type, r->flags));
		if ((r->flags & RF_NULL) && !gp->nullable)
			return verr(v, s, pc, "global_arg", "Possibly NULL pointer passed to helper arg%d", reg);
		if (!r->btf || !bg_scalar_is_const(&r->v, &c) || c != 0 || essential_len(r->btf) != strlen(gp->name) ||
		    strncmp(r->btf, gp->name, strlen(gp->name)))
			return verr(v, s, pc, "global_arg", "R%d is of type %s but %s is expected", reg,
				    r->btf ? r->btf : "?", gp->name);
		return 0;
	case GP_ARENA:
		if (r->type != T_ARENA && r->type != T_SCALAR)
			return verr(v, s, pc, "global_arg", "R%d is not a pointer to arena or scalar.", reg);
		return 0;
	case GP_UNTRUSTED:
		return 0; /* anything: the function reads it with probe reads */
	default:
		return verr(v, s, pc, "global_arg", "arg#%d of an unknown kind", i);
	}
}

/* The kernel's per-subprogram effects, set by check_cfg from the calls a
 * function makes and merged from every function it calls or takes the
 * address of (merge_callee_effects): FX_PKT, it changes packet data (a helper
 * or kfunc that does, a tail call; changes_pkt_data); FX_SLEEP, it may sleep (a
 * helper or kfunc that may; might_sleep). Computed once for every function. */
enum { FX_PKT = 1, FX_SLEEP = 2 };

static uint8_t insn_effects(struct vctx *v, const struct bg_insn *in)
{
	if (in->kind != BG_K_CALL)
		return 0;
	if (in->pseudo == BG_CALL_HELPER) {
		const struct bg_helper_proto *p = bg_helper_by_id((uint32_t)in->imm);
		return (in->imm == BPF_FUNC_tail_call || (p && (p->flags & BG_HF_PKT_CHANGING)) ? FX_PKT : 0) |
		       (p && (p->flags & BG_HF_MIGHT_SLEEP) ? FX_SLEEP : 0);
	}
	const char *name = in->pseudo == BG_CALL_LOCAL ? NULL : kfunc_name(v, in);
	const struct bg_helper_proto *kp = name ? bg_kfunc_by_name(name) : NULL;
	bool sleepable = false;
	/* a kfunc that may move the packet (bpf_xdp_pull_data) */
	return (kp && (kp->flags & BG_HF_PKT_CHANGING) ? FX_PKT : 0) |
	       (name && bg_kfunc_type_allowed(name, v->prog_type, &sleepable) >= 0 && sleepable ? FX_SLEEP : 0);
}

static uint8_t func_effects(struct vctx *v, uint32_t f)
{
	if (!v->func_fx) {
		v->func_fx = calloc(v->g.nfuncs ? v->g.nfuncs : 1, 1);
		if (!v->func_fx)
			return FX_PKT | FX_SLEEP; /* the safe side */
		for (uint32_t g = 0; g < v->g.nfuncs; g++)
			for (uint32_t i = v->g.funcs[g].start; i < v->g.funcs[g].end; i++)
				v->func_fx[g] |= insn_effects(v, &v->insns[i]);
		for (bool changed = true; changed;) {
			changed = false;
			for (uint32_t g = 0; g < v->g.nfuncs; g++)
				for (uint32_t i = v->g.funcs[g].start; i < v->g.funcs[g].end; i++) {
					const struct bg_insn *in = &v->insns[i];
					int64_t t = -1;
					if (in->kind == BG_K_CALL && in->pseudo == BG_CALL_LOCAL)
						t = in->target;
					else if (in->kind == BG_K_LD_IMM64 && in->pseudo == BG_PSEUDO_FUNC)
						t = (int64_t)i + 1 + in->imm;
					if (t < 0 || (size_t)t >= v->n)
						continue;
					uint8_t fx = v->func_fx[cfg_func_of(&v->g, (size_t)t)];
					if (fx & ~v->func_fx[g]) {
						v->func_fx[g] |= fx;
						changed = true;
					}
				}
		}
	}
	return v->func_fx[f];
}

/* btf_global_params of function func, read from the BTF once per analysis
 * (every visit of a call to it asks); NULL on allocation failure. */
static const struct gprot *global_params(struct vctx *v, uint32_t func)
{
	if (!v->gprot && !(v->gprot = calloc(v->g.nfuncs ? v->g.nfuncs : 1, sizeof(*v->gprot))))
		return NULL;
	struct gprot *g = &v->gprot[func];
	if (!g->known) {
		const char *why = NULL;
		unsigned fl = (kf_has(v, BG_KF_ARG_TAGS) ? GP_TAGGED : 0) |
			      (kf_has(v, BG_KF_VOID_GLOBAL) ? GP_VOID_RET : 0) |
			      (kf_has(v, BG_KF_ARG_UNTRUSTED) ? GP_UNTRUSTED_TAG : 0);
		g->np = btf_global_params(v->prog, v->g.funcs[func].start, fl, g->gp, &why);
		snprintf(g->why, sizeof(g->why), "%s", why ? why : "");
		g->known = true;
	}
	return g;
}

/* A global function is verified once, on its own, with arguments typed by
 * its BTF prototype and `arg:` tags (as the kernel does); a call checks the
 * arguments against that prototype and continues with an unknown scalar in
 * r0. */
static int call_global(struct vctx *v, uint32_t ctx, const struct as_state *at, size_t pc, uint32_t func)
{
	const struct gprot *gpr = global_params(v, func);
	if (!gpr)
		return vnomem(v);
	const struct gparam *gp = gpr->gp;
	const char *why = gpr->why;
	const char *fname = v->g.funcs[func].name ? v->g.funcs[func].name : "?";
	int np = gpr->np;
	struct as_state s;
	if (as_state_copy(&s, at))
		return vnomem(v);
	if (np == -2) {
		verr(v, &s, pc, "global_arg", "Caller passes invalid args into func#%u ('%s'): %s", func, fname, why);
		goto fail;
	}
	for (int i = 0; i < np; i++) {
		if (check_reg_init(v, &s, pc, i + 1))
			goto fail;
		if (global_arg(v, &s, pc, i, &gp[i], fname)) {
			/* the kernel's last word names the function: lead with it */
			char *m = v->diag.message;
			v->diag.message = NULL;
			if (m) {
				char msg[1024];
				snprintf(msg, sizeof(msg), "Caller passes invalid args into func#%u ('%s'): %s", func,
					 fname, m);
				free(m);
				v->diag.message = strdup(msg);
			}
			goto fail;
		}
	}
	/* the caller's packet pointers are stale (6.12 on: older kernels keep them) */
	if (kf_has(v, BG_KF_PKT_GLOBAL_CALLS) && (func_effects(v, func) & FX_PKT))
		invalidate_pkt(&s);
	if (s.lock != AS_LOCK_NONE) { /* it is verified without the caller's lock */
		verr(v, &s, pc, "lock", "global function calls are not allowed while holding a lock, use static function instead");
		goto fail;
	}
	/* before 6.18 (which refuses only the functions that may sleep,
	 * below) no global function is called with preemption disabled */
	if (!kf_has(v, BG_KF_GLOBAL_SLEEP_CTX) && s.sec[AS_SEC_PREEMPT]) {
		verr(v, &s, pc, "lock", "global function calls are not allowed with preemption disabled, use static "
		     "function instead");
		goto fail;
	}
	/* it is verified as sleepable when the program is: not inside a
	 * section that may not sleep (6.18) */
	for (int k = 0; kf_has(v, BG_KF_GLOBAL_SLEEP_CTX) && k < AS_SEC__MAX; k++)
		if (s.sec[k] && (func_effects(v, func) & FX_SLEEP)) {
			verr(v, &s, pc, "section", "global functions that may sleep are not allowed in non-sleepable "
			     "context, i.e., in a RCU/IRQ/preempt-disabled section (%s() may sleep, called in a %s "
			     "region)", fname, k == AS_SEC_RCU ? "RCU" : k == AS_SEC_IRQ ? "IRQ-disabled" :
			     "preempt-disabled");
			goto fail;
		}
	int nc = ctx_get(v, 0, UINT32_MAX, func, CTX_GLOBAL);
	if (nc < 0) {
		verr(v, &s, pc, "too_complex", "too many call contexts");
		goto fail;
	}
	if (!v->ctxs[nc].nodes[v->g.funcs[func].entry - v->ctxs[nc].first_block]) {
		struct as_state e;
		as_state_init(&e);
		if (as_push_frame(&e, -1)) {
			vnomem(v);
			goto fail;
		}
		for (int i = 0; i < np; i++) {
			struct as_reg *r = &as_cur(&e)->r[i + 1];
			switch (gp[i].kind) {
			case GP_CTX:
				r->type = T_CTX;
				r->v = bg_scalar_const(0);
				break;
			case GP_MEM:
				r->type = T_MEM;
				r->flags = gp[i].nullable ? RF_NULL : 0;
				r->size = gp[i].size;
				r->v = bg_scalar_const(0);
				r->id = vid(v, pc, 0);
				break;
			case GP_BTF:
				r->type = T_BTF_ID;
				r->flags = gp[i].nullable ? RF_NULL : 0;
				r->btf = gp[i].name;
				r->v = bg_scalar_const(0);
				r->id = vid(v, pc, 0);
				break;
			case GP_UNTRUSTED:
				/* untrusted_ptr_STRUCT, or rdonly_untrusted_mem (as bpf_rdonly_cast gives) */
				r->type = T_BTF_ID;
				r->flags = RF_UNTRUSTED;
				r->btf = gp[i].name;
				r->v = bg_scalar_const(0);
				break;
			case GP_DYNPTR:
				/* the kernel's CONST_PTR_TO_DYNPTR to a local dynptr */
				call_dynptr_ptr_new(v, pc, r);
				break;
			default:
				/* scalars and arena pointers */
				as_reg_unknown(r);
				break;
			}
		}
		uint32_t saved = v->cur_ctx;
		v->cur_ctx = (uint32_t)nc;
		int r = edge_local(v, (uint32_t)nc, NULL, v->g.funcs[func].entry, &e, pc);
		v->cur_ctx = saved;
		if (r)
			goto fail;
	}
	struct as_frame *f = as_cur(&s);
	for (int i = 1; i <= 5; i++)
		as_reg_uninit(&f->r[i]);
	if (kf_has(v, BG_KF_VOID_GLOBAL) && btf_func_ret_void(v->prog, v->g.funcs[func].start))
		as_reg_uninit(&f->r[0]); /* 7.2: "R0 !read_ok" after a void one */
	else
		as_reg_unknown(&f->r[0]);
	const struct cfg_block *from = &v->g.blocks[v->g.block_of[pc]];
	return edge_local(v, ctx, from, v->g.block_of[pc + 1], &s, pc);
fail:
	as_state_fini(&s);
	return -1;
}

static int enter_function(struct vctx *v, uint32_t ctx, const struct as_state *at, size_t pc,
			  int32_t target, uint8_t kind)
{
	uint32_t func = cfg_func_of(&v->g, (size_t)target);
	if (v->g.funcs[func].start != (uint32_t)target)
		return verr(v, at, pc, "bad_call", "call target insn %d is not the start of a function", target);
	for (uint32_t c = ctx;; c = v->ctxs[c].parent) {
		if (v->ctxs[c].func == func && kind == CTX_CALL)
			return verr(v, at, pc, "recursion", "recursive call from %s to %s",
				    v->g.funcs[v->ctxs[ctx].func].name ? v->g.funcs[v->ctxs[ctx].func].name : "?",
				    v->g.funcs[func].name ? v->g.funcs[func].name : "?");
		if (c == 0)
			break;
	}
	if (kind == CTX_CALL && v->g.funcs[func].linkage == 1) {
		/* global semantics need the BTF prototype (func info); without it the
		 * kernel treats the subprogram as static */
		const struct gprot *gpr = global_params(v, func);
		if (!gpr)
			return vnomem(v);
		if (gpr->np != -1)
			return call_global(v, ctx, at, pc, func);
	}
	if (kind != CTX_CB_ASYNC && v->ctxs[ctx].depth + 1 > v->prof->max_call_depth)
		return verr(v, at, pc, "call_depth", "the call stack of %u frames is too deep",
			    v->ctxs[ctx].depth + 1);
	/* an async callback's walk does not depend on its caller (a state of
	 * its own, no return): one context per call site, whoever arms it, so
	 * callbacks that re-arm each other close a cycle instead of a chain */
	int nc = ctx_get(v, kind == CTX_CB_ASYNC ? 0 : ctx, (uint32_t)pc, func, kind);
	if (nc < 0)
		return verr(v, at, pc, "too_complex", "too many call contexts");
	struct as_state s;
	if (as_state_copy(&s, at))
		return vnomem(v);
	if (kind == CTX_CB_ASYNC)
		as_keep_top_frame(&s); /* the callback's stack starts afresh (below) */
	if (as_push_frame(&s, (int32_t)pc)) {
		/* the depth was checked above: only memory can fail */
		as_state_fini(&s);
		return vnomem(v);
	}
	struct as_frame *f = as_cur(&s);
	const struct as_frame *cf = &at->fr[at->nframes - 1];
	if (kind == CTX_CALL) {
		for (int i = 1; i <= 5; i++)
			f->r[i] = cf->r[i];
	} else {
		f->is_cb = 1;
		if (call_set_cb_args(v, &s, pc, at)) {
			as_state_fini(&s);
			return -1;
		}
		if (kind == CTX_CB_SYNC) {
			uint32_t calls = call_cb_max_calls(v, pc, at, v->unroll);
			if (calls == 0) {
				/* bpf_loop(0, ...): the kernel never walks the callback */
				as_state_fini(&s);
				return 0;
			}
			f->cb_left = calls == AS_CB_UNCOUNTED ? calls : calls - 1;
			f->cb_calls = calls == AS_CB_UNCOUNTED ? 0 : 1;
		}
	}
	if (kind == CTX_CB_ASYNC) {
		/* runs later, on its own: no access to this frame's stack, and
		 * on a call stack of its own (push_async_cb: frame 0 of a new
		 * state, so its calls count from there) */
		for (int i = 1; i <= 5; i++)
			if (f->r[i].type == T_STACK)
				as_reg_unknown(&f->r[i]);
		as_keep_top_frame(&s);
	}
	return edge_local(v, (uint32_t)nc, NULL, v->g.funcs[func].entry, &s, pc);
}

/* A bounded callback's next call adds nothing when an earlier call entered
 * the callback with a state containing it and at least as many calls left
 * (the kernel prunes it at the call site: states_equal with callback_depth),
 * so a callback whose state converges is not walked umax(nr_loops) times. */
static bool cb_call_covered(struct vctx *v, uint32_t ctx, uint32_t block, const struct as_state *s)
{
	struct node *n = node_get(v, ctx, block);
	for (uint32_t i = n ? idx_first(n, s->iter, s->niter) : UINT32_MAX; i != UINT32_MAX; i = idx_next(n, i)) {
		const struct as_state *o = &n->d[i].st;
		if (n->d[i].done || o->niter != s->niter || memcmp(o->iter, s->iter, s->niter * sizeof(s->iter[0])))
			continue;
		if (as_state_leq(s, o))
			return true;
	}
	return false;
}

static int return_from(struct vctx *v, uint32_t ctx, struct as_state *s, size_t pc)
{
	/* the exit assertions (A_EXIT_*) were checked for this context kind */
	struct actx *c = &v->ctxs[ctx];
	struct as_reg r0 = as_cur(s)->r[0];
	if (c->kind == CTX_GLOBAL || c->kind == CTX_CB_ASYNC)
		return 0;
	uint32_t callsite = c->callsite, parent = c->parent;
	if (c->kind == CTX_CB_SYNC && as_cur(s)->cb_left != 0 && kf_has(v, BG_KF_CB_ITER)) {
		/* the helper may call the callback again (before 6.7 the
		 * kernel walks it once: BG_KF_CB_ITER) */
		uint32_t left = as_cur(s)->cb_left;
		uint8_t calls = as_cur(s)->cb_calls;
		struct as_state again;
		if (as_state_copy(&again, s))
			return vnomem(v);
		struct as_reg args[5];
		if (as_cur(&again)->cb_args)
			memcpy(args, as_cur(&again)->cb_args, sizeof(args));
		else
			for (int i = 0; i < 5; i++)
				as_reg_uninit(&args[i]);
		as_pop_frame(&again);
		struct as_frame *f = NULL;
		if (!as_push_frame(&again, (int32_t)callsite)) {
			f = as_cur(&again);
			f->is_cb = 1;
			f->cb_args = malloc(sizeof(args));
		}
		if (!f || !f->cb_args) {
			as_state_fini(&again);
			return vnomem(v);
		}
		memcpy(f->cb_args, args, sizeof(args));
		for (int i = 0; i < 5; i++)
			f->r[i + 1] = args[i];
		if (left != AS_CB_UNCOUNTED) {
			f->cb_left = left - 1;
			f->cb_calls = calls + 1u < AS_CB_JOINED ? (uint8_t)(calls + 1) : AS_CB_JOINED - 1;
			if (cb_call_covered(v, ctx, v->g.funcs[c->func].entry, &again)) {
				as_state_fini(&again);
			} else if (calls >= CB_EXACT_CALLS && !v->cb_exact) {
				/* the calls after the first CB_EXACT_CALLS join (and
				 * widen) as an unbounded callback's do; a rejection
				 * walks them call by call again (verify_observed) */
				f->cb_left = AS_CB_UNCOUNTED;
				f->cb_calls = AS_CB_JOINED;
				v->cb_widened = true;
				propagate(v, ctx, v->g.funcs[c->func].entry, &again, true, false);
			} else {
				propagate(v, ctx, v->g.funcs[c->func].entry, &again, false, false);
			}
		} else {
			f->cb_calls = calls;
			propagate(v, ctx, v->g.funcs[c->func].entry, &again, true, false);
		}
	}
	uint32_t base = as_cur(s)->iter_base;
	as_pop_frame(s);
	s->niter = base;
	struct as_frame *f = as_cur(s);
	for (int i = 1; i <= 5; i++)
		as_reg_uninit(&f->r[i]);
	if (c->kind == CTX_CALL)
		f->r[0] = r0;
	else
		as_reg_unknown(&f->r[0]);
	const struct cfg_block *from = &v->g.blocks[v->g.block_of[callsite]];
	uint32_t to = v->g.block_of[callsite + 1];
	uint32_t saved = v->cur_ctx;
	v->cur_ctx = parent;
	int r = edge_local(v, parent, from, to, s, pc);
	v->cur_ctx = saved;
	return r;
}

/* ------------------------------------------------------------ blocks */

static void trace_insn(struct vctx *v, const struct as_state *s, size_t pc)
{
	char dis[128];
	bg_insn_format(&v->insns[pc], dis, sizeof(dis));
	fprintf(v->opts->trace, "ctx %u insn %zu: %s\n", v->cur_ctx, pc, dis);
	as_state_print(s, v->opts->trace);
	asrt_print(v, pc, v->opts->trace);
}

/* A loop counted by `r != K` is bounded only while r stays on K's side at
 * its test (r then meets K). Checked on every state reaching the test;
 * false stops the analysis, which restarts with the loop unrolled. */
static bool cnt_guard(struct vctx *v, const struct cfg_block *b, struct as_state *s, size_t pc)
{
	for (uint32_t i = b->nloops; i-- > 0;) {
		uint32_t l = b->loops[i];
		const struct cfg_loop *lp = &v->g.loops[l];
		if (!lp->counted || !lp->cnt_check || lp->cnt_insn != pc)
			continue;
		const struct as_reg *r = &as_cur(s)->r[lp->cnt_reg];
		bool ok = r->type == T_SCALAR;
		if (ok && lp->cnt_w32)
			ok = lp->cnt_dir > 0 ? r->v.u32max <= lp->cnt_k : r->v.u32min >= lp->cnt_k;
		else if (ok)
			ok = lp->cnt_dir > 0 ? r->v.umax <= lp->cnt_k : r->v.umin >= lp->cnt_k;
		if (!ok) {
			v->demote = l + 1;
			v->failed = true;
			return false;
		}
	}
	return true;
}

static int ld_abs_exit(struct vctx *v, uint32_t ctx, const struct as_state *s, size_t pc);

static int terminator(struct vctx *v, uint32_t ctx, uint32_t block, struct as_state *s, size_t pc)
{
	const struct bg_insn *in = &v->insns[pc];
	const struct cfg_block *b = &v->g.blocks[block];
	switch (in->kind) {
	case BG_K_JCOND:
	case BG_K_MAY_GOTO: {
		if (in->kind == BG_K_JCOND && xfer_insn(v, s, pc))
			return -1;
		if (in->kind == BG_K_JCOND && b->nloops && !cnt_guard(v, b, s, pc))
			return -1;
		for (int taken = 0; taken <= 1; taken++) {
			/* the fall-through edge takes a copy, the taken edge s itself */
			struct as_state o;
			if (taken)
				as_state_move(&o, s);
			else if (as_state_copy(&o, s))
				return vnomem(v);
			bool dead = false;
			if (xfer_branch(v, &o, pc, taken, &dead)) {
				as_state_fini(&o);
				return -1;
			}
			if (dead) {
				as_state_fini(&o);
				continue;
			}
			kcost_note_branch(v->kc, pc, taken);
			o.path = path_add(v, o.path, pc, taken);
			uint32_t to = taken ? v->g.block_of[in->target] : v->g.block_of[b->end];
			if (edge_local(v, ctx, b, to, &o, pc))
				return -1;
		}
		return 0;
	}
	case BG_K_JA: {
		struct as_state o;
		as_state_move(&o, s);
		return edge_local(v, ctx, b, v->g.block_of[in->target], &o, pc);
	}
	case BG_K_EXIT: {
		if (v->ctxs[ctx].kind == CTX_MAIN)
			return 0; /* the exit assertions were checked (A_EXIT_*) */
		struct as_state o;
		if (as_state_copy(&o, s))
			return vnomem(v);
		int r = return_from(v, ctx, &o, pc);
		as_state_fini(&o);
		return r;
	}
	case BG_K_CALL:
		if (in->pseudo == BG_CALL_LOCAL) {
			for (int i = 1; i <= 5; i++)
				(void)0;
			return enter_function(v, ctx, s, pc, in->target, CTX_CALL);
		} else {
			struct as_state at;
			if (as_state_copy(&at, s))
				return vnomem(v);
			int32_t cb = -1;
			int kind = 0;
			if (xfer_call(v, s, pc, &cb, &kind)) {
				as_state_fini(&at);
				return -1;
			}
			int r = 0;
			if (cb >= 0)
				r = enter_function(v, ctx, &at, pc, cb, kind == 2 ? CTX_CB_ASYNC : CTX_CB_SYNC);
			as_state_fini(&at);
			if (r || call_throws(v, pc))
				return r;
			/* before 6.7 the caller goes on from the callback's exit
			 * only: a zero-times path is not walked */
			if (cb >= 0 && kind != 2 && !kf_has(v, BG_KF_CB_ITER))
				return 0;
			struct as_state o;
			as_state_move(&o, s);
			return edge_local(v, ctx, b, v->g.block_of[b->end], &o, pc);
		}
	default: {
		if (xfer_insn(v, s, pc) || ld_abs_exit(v, ctx, s, pc))
			return -1;
		struct as_state o;
		as_state_move(&o, s);
		return edge_local(v, ctx, b, v->g.block_of[b->end], &o, pc);
	}
	}
}

/* bpf_gen_ld_abs: a legacy packet load that fails returns 0 from the
 * function (a hidden exit); the kernel follows that path from a subprogram's
 * frame (check_ld_abs with curframe > 0; a global function is verified in
 * frame 0, where the exit ends the program as r0 = 0 would). */
static int ld_abs_exit(struct vctx *v, uint32_t ctx, const struct as_state *s, size_t pc)
{
	const struct bg_insn *in = &v->insns[pc];
	if ((in->kind != BG_K_LD_ABS && in->kind != BG_K_LD_IND) || s->nframes < 2)
		return 0;
	struct as_state o;
	if (as_state_copy(&o, s))
		return vnomem(v);
	as_reg_const(&as_cur(&o)->r[0], 0);
	int r = return_from(v, ctx, &o, pc);
	as_state_fini(&o);
	return r;
}

/* Is ctx, or a context it was called from, a global function's? */
static bool ctx_global_root(const struct vctx *v, uint32_t ctx)
{
	for (uint32_t c = ctx; c != 0; c = v->ctxs[c].parent)
		if (v->ctxs[c].kind == CTX_GLOBAL)
			return true;
	return false;
}

static int process_state(struct vctx *v, uint32_t ctx, uint32_t block, struct as_state *sp)
{
	struct as_state s = *sp;
	v->cur_ctx = ctx;
	kcost_note_block(v->kc, ctx, block);
	const struct cfg_block *b = &v->g.blocks[block];
	uint32_t last = b->end - 1;
	if (v->insns[last].kind == BG_K_LD_IMM64_HI && last > b->start)
		last--;
	int r = 0;
	for (uint32_t pc = b->start; pc <= last && !r; pc++) {
		if (v->insns[pc].kind == BG_K_LD_IMM64_HI)
			continue;
		v->steps++;
		v->pc = pc;
		if (v->opts->trace)
			trace_insn(v, &s, pc);
		if (v->visit)
			v->visit(v->visit_arg, pc, &s, ctx_global_root(v, ctx));
		if (asrt_check(v, &s, pc)) {
			r = -1;
		} else if (pc == last) {
			r = terminator(v, ctx, block, &s, pc);
		} else if (v->insns[pc].kind == BG_K_CALL) {
			int32_t cb;
			int kind;
			r = xfer_call(v, &s, pc, &cb, &kind);
			if (!r && call_throws(v, pc))
				break; /* bpf_throw: the program ends here */
		} else {
			r = xfer_insn(v, &s, pc) || ld_abs_exit(v, ctx, &s, pc) ? -1 : 0;
		}
	}
	/* a copy-on-write of stack slots that found no memory (state.c) */
	if (as_oom_take() && !r)
		r = vnomem(v);
	as_state_fini(&s);
	return r;
}

/* A disjunct is final when nothing can reach it with its iteration vector
 * once it is popped: then its state goes as soon as it is processed (memory
 * O(frontier), not O(nodes x iterations)). That holds when its context is
 * analysed once from its entry (main, or a global function), its block is
 * final (final_blocks: no call returns upstream, the function is reducible,
 * not a loop head) and no enclosing loop has reached its widening iteration
 * (a saturated iteration comes back along the back edge with the same
 * vector): every edge into it comes from a smaller key of the worklist order
 * (wl_less), and nothing smaller is queued. A state arriving anyway would
 * only make a new disjunct (processed alone: no precision lost). */
#define FIN_BLOCK 1 /* final_blocks: its disjuncts may be final */
#define FIN_HEAD 2  /* a loop head that would be FIN_BLOCK: its states go once the loop is left */

static bool disj_final(const struct vctx *v, const struct node *n, const struct as_state *s)
{
	uint8_t kind = v->ctxs[n->ctx].kind;
	if (!v->final || !(v->final[n->block] & FIN_BLOCK) || (kind != CTX_MAIN && kind != CTX_GLOBAL))
		return false;
	const struct cfg_block *b = &v->g.blocks[n->block];
	uint32_t base = s->nframes ? s->fr[s->nframes - 1].iter_base : 0;
	for (uint32_t i = 0; i < b->nloops; i++) {
		uint32_t idx = base + i;
		if (idx >= AS_MAX_ITER || idx >= s->niter || s->iter[idx] >= loop_unroll(v, b->loops[i]))
			return false;
	}
	return true;
}

/* Remove the final disjuncts of a node none of whose disjuncts is queued
 * (so no worklist entry holds an index into d), keeping the others in order;
 * the index is rebuilt. The records of a node that only ever holds final
 * disjuncts (most join points in unrolled code) go entirely. */
static void drop_final(struct node *n)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < n->ndisj; i++) {
		if (n->d[i].done) {
			n->ndropped++;
			n->dropped_visits += n->d[i].visits;
			continue;
		}
		if (k != i)
			n->d[k] = n->d[i];
		k++;
	}
	n->ndisj = k;
	if (!k) {
		free(n->d);
		free(n->ibuck);
		n->d = NULL;
		n->ibuck = NULL;
		n->cap = n->nbuck = 0;
		return;
	}
	if (n->nbuck) {
		memset(n->ibuck, 0xff, n->nbuck * sizeof(*n->ibuck));
		for (uint32_t i = 0; i < k; i++)
			idx_insert(n, i);
	}
}

static int process(struct vctx *v, struct node *n, uint32_t d)
{
	struct as_state s;
	n->d[d].queued = false;
	n->nqueued--;
	if (n->d[d].done) {
		/* absorbed by a larger disjunct while queued (absorb_covered) */
		if (!n->nqueued)
			drop_final(n);
		return 0;
	}
	n->d[d].visits++;
	if (disj_final(v, n, &n->d[d].st)) {
		as_state_move(&s, &n->d[d].st);
		track_bytes(v, -(ssize_t)as_state_bytes(&s));
		as_state_init(&n->d[d].st);
		/* keep the vector: the node's index hashes it */
		n->d[d].st.niter = s.niter;
		memcpy(n->d[d].st.iter, s.iter, sizeof(s.iter));
		n->d[d].done = true;
		if (!n->nqueued)
			drop_final(n);
	} else {
		if (as_state_copy(&s, &n->d[d].st))
			return vnomem(v);
	}
	return process_state(v, n->ctx, n->block, &s);
}

/* Blocks whose disjuncts may be final (disj_final): no call returns into
 * the block or any block that reaches it (a callee's context runs after its
 * caller's nodes and returns to a smaller key), it heads no loop (the
 * no-progress check and the lockstep invariants read the head's stored
 * states), and its function is reducible (every edge entering a loop enters
 * at its head: the argument of wl_less). Fixpoint over the edges,
 * O(passes * e). */
static void final_blocks(struct vctx *v)
{
	uint32_t nb = v->g.nblocks;
	uint8_t *callanc = calloc(nb ? nb : 1, 1); /* a call returns into it or an ancestor */
	uint8_t *irred = calloc(v->g.nfuncs ? v->g.nfuncs : 1, 1);
	v->final = calloc(nb ? nb : 1, 1);
	if (!callanc || !irred || !v->final) {
		free(v->final);
		v->final = NULL; /* nothing freed early: more memory, same result */
		goto out;
	}
	for (uint32_t b = 0; b < nb; b++) {
		const struct cfg_block *bl = &v->g.blocks[b];
		const struct bg_insn *in = &v->insns[bl->end - 1];
		if (b + 1 < nb && in->kind == BG_K_CALL && (in->pseudo == BG_CALL_LOCAL || call_is_cb(in)))
			callanc[b + 1] = 1; /* a callee returns here */
		for (uint32_t i = 0; i < bl->nsucc; i++) {
			uint32_t t = bl->succ[i];
			if (t >= nb || v->g.blocks[t].func != bl->func)
				continue;
			const struct cfg_block *tb = &v->g.blocks[t];
			/* t's loops that bl is not in must be entered at their head */
			for (uint32_t k = 0; k < tb->nloops; k++) {
				uint32_t l = tb->loops[k];
				bool in_l = false;
				for (uint32_t j = 0; j < bl->nloops && !in_l; j++)
					in_l = bl->loops[j] == l;
				if (!in_l && v->g.loops[l].head != t)
					irred[bl->func] = 1;
			}
		}
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t b = 0; b < nb; b++) {
			const struct cfg_block *bl = &v->g.blocks[b];
			if (!callanc[b])
				continue;
			for (uint32_t i = 0; i < bl->nsucc; i++) {
				uint32_t t = bl->succ[i];
				if (t < nb && v->g.blocks[t].func == bl->func && !callanc[t]) {
					callanc[t] = 1;
					changed = true;
				}
			}
		}
	}
	for (uint32_t b = 0; b < nb; b++) {
		const struct cfg_block *bl = &v->g.blocks[b];
		if (!callanc[b] && !irred[bl->func])
			v->final[b] = bl->head_of < 0 ? FIN_BLOCK : FIN_HEAD;
	}
out:
	free(callanc);
	free(irred);
}

/* ------------------------------------------------------------ setup */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* A set of 64-bit values (open addressing, at most half full). */
struct u64set {
	uint64_t *v;
	bool *used;
	size_t cap, n;
};

static size_t u64set_slot(const struct u64set *st, uint64_t k)
{
	size_t h = (size_t)((k * 0x9e3779b97f4a7c15ull) >> 32) & (st->cap - 1);
	while (st->used[h] && st->v[h] != k)
		h = (h + 1) & (st->cap - 1);
	return h;
}

static int u64set_init(struct u64set *st, size_t cap)
{
	st->cap = cap;
	st->n = 0;
	st->v = malloc(cap * sizeof(*st->v));
	st->used = calloc(cap, sizeof(*st->used));
	return st->v && st->used ? 0 : -ENOMEM;
}

static void u64set_fini(struct u64set *st)
{
	free(st->v);
	free(st->used);
}

static int u64set_add(struct u64set *st, uint64_t k)
{
	size_t h = u64set_slot(st, k);
	if (st->used[h])
		return 0;
	st->used[h] = true;
	st->v[h] = k;
	if (++st->n * 2 <= st->cap)
		return 0;
	struct u64set big;
	if (u64set_init(&big, st->cap * 2)) {
		u64set_fini(&big);
		return -ENOMEM;
	}
	for (size_t j = 0; j < st->cap; j++)
		if (st->used[j])
			u64set_add(&big, st->v[j]);
	u64set_fini(st);
	*st = big;
	return 0;
}

/* Widening thresholds: each immediate k and k +- 1, sorted, at most 4096
 * (the smallest). The distinct immediates first (a set: a generated or
 * unrolled program repeats a few constants over thousands of instructions,
 * and sorting every occurrence cost more than analysing straight code).
 * Built at the first widening (propagate): most programs never widen, and
 * the sort was ~5% of a small program's analysis. */
static int thresholds(struct vctx *v)
{
	struct u64set st;
	int err = u64set_init(&st, 64);
	for (size_t i = 0; !err && i < v->n; i++) {
		const struct bg_insn *in = &v->insns[i];
		if ((in->kind == BG_K_JCOND || in->kind == BG_K_ALU) && !in->src_is_reg)
			err = u64set_add(&st, (uint64_t)(int64_t)in->imm);
	}
	uint64_t *t = err ? NULL : malloc((3 * st.n + 1) * sizeof(*t));
	if (!t) {
		u64set_fini(&st);
		return -ENOMEM;
	}
	size_t n = 0;
	for (size_t j = 0; j < st.cap; j++) {
		if (!st.used[j])
			continue;
		t[n++] = st.v[j];
		t[n++] = st.v[j] + 1;
		t[n++] = st.v[j] - 1;
	}
	u64set_fini(&st);
	qsort(t, n, sizeof(*t), cmp_u64);
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		if (!w || t[w - 1] != t[i])
			t[w++] = t[i];
	v->thr = t;
	v->nthr = (unsigned)(w > 4096 ? 4096 : w);
	return 0;
}

static bool func_reached(struct vctx *v, uint8_t *freach, uint32_t f)
{
	(void)v;
	return freach[f];
}

/* The kernel resolves every ld_imm64 of a kernel symbol before its walk
 * (resolve_pseudo_ldimm64 -> check_pseudo_btf_id): a typed ksym the running
 * kernel's kallsyms lacks (the loader records why at the instruction)
 * rejects the program wherever the instruction sits. */
static int check_ksym_addrs(struct vctx *v)
{
	for (size_t i = 0; i < bg_program__core_failure_cnt(v->prog); i++) {
		const struct bg_core_failure *f = bg_program__core_failure(v->prog, i);

		if (f->insn < v->n && v->insns[f->insn].kind == BG_K_LD_IMM64 &&
		    v->insns[f->insn].pseudo == BG_PSEUDO_BTF_ID)
			return verr(v, NULL, f->insn, "ksym", "%s", f->reason);
	}
	return 0;
}

static bool func_has(const struct vctx *v, uint32_t f, bool ld_abs)
{
	for (uint32_t i = v->g.funcs[f].start; i < v->g.funcs[f].end; i++) {
		const struct bg_insn *in = &v->insns[i];
		if (ld_abs ? in->kind == BG_K_LD_ABS || in->kind == BG_K_LD_IND
			   : in->kind == BG_K_CALL && in->pseudo == BG_CALL_HELPER && in->imm == BPF_FUNC_tail_call)
			return true;
	}
	return false;
}

/* At load (check_btf_func, check_abnormal_return): a subprogram with a
 * legacy packet load or a tail call, whose hidden or real exits return an
 * integer, must be declared to return one, and must have BTF at all. */
static int check_abnormal_return(struct vctx *v)
{
	for (uint32_t f = 1; f < v->g.nfuncs; f++) {
		for (int k = 0; k < 2; k++) {
			const char *what = k ? "tail_call" : "LD_ABS";
			if (!func_has(v, f, !k))
				continue;
			int sc = btf_func_ret_scalar(v->prog, v->g.funcs[f].start);
			if (sc < 0 && !bg_program__func_cnt(v->prog))
				return verr(v, NULL, v->g.funcs[f].start, "abnormal_return", "%s is not allowed in subprogs without BTF",
					    what);
			if (sc == 0)
				return verr(v, NULL, v->g.funcs[f].start, "abnormal_return",
					    "%s is only allowed in functions that return 'int'.", what);
		}
	}
	return 0;
}

/* The kernel rejects code no path reaches ("unreachable insn N"). */
static int check_reachable(struct vctx *v)
{
	uint8_t *freach = calloc(v->g.nfuncs, 1);
	if (!freach)
		return -ENOMEM;
	freach[0] = 1;
	int cbf = except_cb_func(v); /* check_cfg's second root */
	if (cbf >= 0)
		freach[cbf] = 1;
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t b = 0; b < v->g.nblocks; b++) {
			const struct cfg_block *bl = &v->g.blocks[b];
			if (!bl->reachable || !func_reached(v, freach, bl->func))
				continue;
			for (uint32_t i = bl->start; i < bl->end; i++) {
				const struct bg_insn *in = &v->insns[i];
				int64_t t = -1;
				if (in->kind == BG_K_CALL && in->pseudo == BG_CALL_LOCAL)
					t = in->target;
				else if (in->kind == BG_K_LD_IMM64 && in->pseudo == BG_PSEUDO_FUNC)
					t = (int64_t)i + 1 + in->imm;
				if (t < 0 || (size_t)t >= v->n)
					continue;
				uint32_t f = cfg_func_of(&v->g, (size_t)t);
				if (!freach[f]) {
					freach[f] = 1;
					changed = true;
				}
			}
		}
	}
	int r = 0;
	for (uint32_t b = 0; b < v->g.nblocks && !r; b++) {
		const struct cfg_block *bl = &v->g.blocks[b];
		if (!bl->reachable || !freach[bl->func])
			r = verr(v, NULL, bl->start, "unreachable", "unreachable insn %u", bl->start);
	}
	free(freach);
	return r;
}

/* The kernel's check_max_stack_depth: a walk of the static call graph (every
 * call instruction and every function address taken, reached or not; calls
 * into global functions too, which the analysis verifies apart) from the
 * main program and from each async callback (the exception callback is one).
 * Each frame is charged its function's deepest byte over every analysed
 * context (the kernel keeps one depth per subprogram), rounded up to 16
 * bytes as with the JIT on (round_up_stack_depth; bpf_jit_enable=1 here,
 * measured by tailcall.t). Along any chain: at most 8 frames, at most 512
 * bytes, and a function that tail-calls (a tail call unwinds only the frame
 * making it, so the frames above stay through up to 33 tail calls) below
 * frames holding less than 256 bytes.
 * Cost: the kernel enumerates chains; this walk prunes a function reached
 * again with no more bytes above it and no more frames than a walk before,
 * so it is O(functions x 8 x call instructions) at worst. */
struct stack_walk {
	struct vctx *v;
	const uint32_t *bytes;  /* per function, rounded */
	const uint8_t *async;   /* per function: an async callback */
	const uint8_t *tails;   /* per function: makes a tail call */
	int32_t *seen;          /* [func * AS_MAX_FRAMES + frame]: most bytes above seen, -1 none */
	uint32_t chain[AS_MAX_FRAMES];
};

static const char *func_label(const struct vctx *v, uint32_t f, char *buf, size_t len)
{
	if (v->g.funcs[f].name && v->g.funcs[f].name[0])
		return v->g.funcs[f].name;
	snprintf(buf, len, "func@%u", v->g.funcs[f].start);
	return buf;
}

static bool func_tail_calls(const struct vctx *v, uint32_t f)
{
	for (uint32_t i = v->g.funcs[f].start; i < v->g.funcs[f].end; i++) {
		const struct bg_insn *in = &v->insns[i];
		if (in->kind == BG_K_CALL && in->pseudo == BG_CALL_HELPER && in->imm == BPF_FUNC_tail_call)
			return true;
	}
	return false;
}

static int tail_call_refused(struct stack_walk *w, uint32_t frame, uint32_t above, size_t pc)
{
	struct vctx *v = w->v;
	/* the chain, innermost caller last: "main (272) -> sub (16)" */
	char chain[256] = "", b1[32], b2[32];
	size_t len = 0;
	for (uint32_t k = 0; k < frame; k++) {
		int n = snprintf(chain + len, sizeof(chain) - len, "%s%s (%u)", k ? " -> " : "",
				 func_label(v, w->chain[k], b1, sizeof(b1)), w->bytes[w->chain[k]]);
		if (n < 0 || (size_t)n >= sizeof(chain) - len)
			break;
		len += (size_t)n;
	}
	return verr(v, NULL, pc, "tail_call_stack",
		    "tail_calls are not allowed when call stack of previous frames is %u bytes. "
		    "Too large: %s calls %s, which tail-calls; keep the callers' stack below 256 bytes",
		    above, chain, func_label(v, w->chain[frame], b2, sizeof(b2)));
}

/* Function f at frame number frame (0: a root), called at insn pc, with
 * `above` bytes in the frames above it. */
static int walk_stack(struct stack_walk *w, uint32_t f, uint32_t frame, uint32_t above, size_t pc)
{
	struct vctx *v = w->v;
	if (frame >= v->prof->max_call_depth)
		return verr(v, NULL, pc, "call_depth", "the call stack of %u frames is too deep !", frame);
	for (uint32_t k = frame; k < AS_MAX_FRAMES; k++)
		if (w->seen[f * AS_MAX_FRAMES + k] >= (int32_t)above)
			return 0; /* a walk with as much above and as many frames went on from here */
	w->seen[f * AS_MAX_FRAMES + frame] = (int32_t)above;
	w->chain[frame] = f;
	if (frame && w->tails[f] && above >= 256)
		return tail_call_refused(w, frame, above, pc);
	uint32_t depth = above + w->bytes[f];
	if (depth > AS_STACK_SIZE)
		return verr(v, NULL, pc, "stack_depth", "combined stack size of %u calls is %u. Too large", frame + 1,
			    depth);
	for (uint32_t i = v->g.funcs[f].start; i < v->g.funcs[f].end; i++) {
		const struct bg_insn *in = &v->insns[i];
		int64_t t;
		bool direct = in->kind == BG_K_CALL && in->pseudo == BG_CALL_LOCAL;
		if (direct)
			t = in->target;
		else if (in->kind == BG_K_LD_IMM64 && in->pseudo == BG_PSEUDO_FUNC)
			t = (int64_t)i + 1 + in->imm;
		else
			continue;
		if (t < 0 || (size_t)t >= v->n)
			continue;
		uint32_t c = cfg_func_of(&v->g, (size_t)t);
		if (w->async[c] && !direct) /* runs later, on a stack of its own */
			continue;
		if (walk_stack(w, c, frame + 1, depth, i))
			return -1;
	}
	return 0;
}

static int check_stack_depth(struct vctx *v)
{
	uint32_t nf = v->g.nfuncs ? v->g.nfuncs : 1;
	struct stack_walk w = { .v = v };
	/* one allocation: seen, bytes (4-byte words), then the flags */
	int32_t *seen = calloc(1, (size_t)nf * (AS_MAX_FRAMES + 1) * sizeof(*seen) + 2 * (size_t)nf);
	if (!seen)
		return -ENOMEM;
	uint32_t *bytes = (uint32_t *)(seen + (size_t)nf * AS_MAX_FRAMES);
	uint8_t *flags = (uint8_t *)(bytes + nf);
	for (uint32_t i = 0; i < v->nctx; i++)
		if (v->ctxs[i].max_stack > bytes[v->ctxs[i].func])
			bytes[v->ctxs[i].func] = v->ctxs[i].max_stack;
	for (uint32_t f = 0; f < v->g.nfuncs; f++) {
		/* before 6.8 every frame is charged at least 32 bytes in 32-byte
		 * steps, the interpreter's granularity, JIT or not
		 * (BG_KF_STACK_ROUND16) */
		uint32_t d = fastcall_depth(v, f, bytes[f]);
		bytes[f] = kf_has(v, BG_KF_STACK_ROUND16) ? (d + 15) / 16 * 16 : ((d ? d : 1) + 31) / 32 * 32;
		flags[nf + f] = func_tail_calls(v, f);
	}
	for (uint32_t i = 0; i < v->nctx; i++)
		if (v->ctxs[i].kind == CTX_CB_ASYNC)
			flags[v->ctxs[i].func] = 1;
	int cbf = except_cb_func(v);
	if (cbf >= 0)
		flags[cbf] = 1;
	for (size_t k = 0; k < (size_t)nf * AS_MAX_FRAMES; k++)
		seen[k] = -1;
	w.bytes = bytes;
	w.async = flags;
	w.tails = flags + nf;
	w.seen = seen;
	int r = 0;
	for (uint32_t f = 0; f < v->g.nfuncs && !r; f++)
		if (f == 0 || flags[f])
			r = walk_stack(&w, f, 0, 0, v->g.funcs[f].start);
	free(seen);
	return r;
}

static void fill_stats(struct vctx *v, struct bg_verify_result *res)
{
	uint64_t nodes = 0, disj = 0, visits = 0, maxd = 0;
	for (uint32_t i = 0; i < v->nctx; i++)
		for (uint32_t b = 0; b < v->ctxs[i].nblocks; b++) {
			struct node *n = v->ctxs[i].nodes[b];
			if (!n)
				continue;
			nodes++;
			disj += n->ndisj + n->ndropped;
			if (n->ndisj + n->ndropped > maxd)
				maxd = n->ndisj + n->ndropped;
			visits += n->dropped_visits;
			for (uint32_t d = 0; d < n->ndisj; d++)
				visits += n->d[d].visits;
		}
	res->contexts = v->nctx;
	res->blocks = v->g.nblocks;
	res->nodes = nodes;
	res->disjuncts = disj;
	res->max_disjuncts = maxd;
	res->visits = visits;
	if (!v->opts->stats)
		return;
	fprintf(v->opts->stats, "stats: ctxs %u blocks %u nodes %" PRIu64 " disjuncts %" PRIu64 " (max %" PRIu64
		") visits %" PRIu64 " steps %" PRIu64 " peak %zu bytes\n",
		v->nctx, v->g.nblocks, nodes, disj, maxd, visits, v->steps, v->peak_bytes);
	/* per loop head: shape and how often its disjuncts were processed */
	for (uint32_t l = 0; l < v->g.nloops; l++) {
		const struct cfg_loop *lp = &v->g.loops[l];
		uint64_t hv = 0, hd = 0;
		for (uint32_t i = 0; i < v->nctx; i++) {
			if (lp->head < v->ctxs[i].first_block || lp->head >= v->ctxs[i].first_block + v->ctxs[i].nblocks)
				continue;
			struct node *n = v->ctxs[i].nodes[lp->head - v->ctxs[i].first_block];
			if (!n)
				continue;
			hd += n->ndisj + n->ndropped;
			hv += n->dropped_visits;
			for (uint32_t d = 0; d < n->ndisj; d++)
				hv += n->d[d].visits;
		}
		fprintf(v->opts->stats, "stats: loop %u head insn %u depth %u size %u %s: disjuncts %" PRIu64 " visits %" PRIu64 "\n",
			l, v->g.blocks[lp->head].start, v->g.blocks[lp->head].nloops, lp->size,
			lp->allowed_unbounded ? "widened" : lp->counted ? "counted" : "unrolled", hd, hv);
	}
}

static void free_all(struct vctx *v)
{
	asrt_free(v);
	fastcall_free(v);
	for (uint32_t i = 0; i < v->nctx; i++) {
		struct actx *c = &v->ctxs[i];
		for (uint32_t b = 0; b < c->nblocks; b++) {
			struct node *n = c->nodes[b];
			if (!n)
				continue;
			for (uint32_t d = 0; d < n->ndisj; d++)
				as_state_fini(&n->d[d].st);
			free(n->d);
			free(n->ibuck);
			free(n->iv);
			free(n);
		}
		free(c->nodes);
	}
	free(v->ctxs);
	free(v->heap);
	for (size_t i = 0; i < v->ndirect; i++)
		as_state_fini(&v->direct[i].st);
	free(v->direct);
	free(v->paths);
	free(v->thr);
	free(v->final);
	free(v->func_fx);
	free(v->gprot);
	v->func_fx = NULL;
	free(v->obj_type_at);
	v->obj_type_at = NULL;
	free(v->cache);
	v->cache = NULL;
	cfg_free(&v->g);
}

/* A resource budget reached: not a verdict on the program ("too complex for
 * bpfgate", BG_VERDICT_UNAVAILABLE with check too_complex), at the block
 * being analysed when it ran out. */
static void budget_exceeded(struct vctx *v, const struct as_state *s, size_t pc)
{
	if (v->steps > v->max_steps)
		verr(v, s, pc, "too_complex",
		     "too complex for bpfgate: more than %" PRIu64 " abstract steps (--max-steps)", v->max_steps);
	else if (v->cur_bytes > v->max_bytes)
		verr(v, s, pc, "too_complex",
		     "too complex for bpfgate: abstract states above %zu MiB", v->max_bytes >> 20);
	else
		verr(v, s, pc, "too_complex", "too complex for bpfgate: more than %u abstract values",
		     AS_ID_LIMIT);
}

/* The exception callback is verified on its own, as a global function
 * taking one integer (the cookie of bpf_throw): a root context of its own. */
static int seed_exception_cb(struct vctx *v)
{
	int f = except_cb_func(v);
	if (f < 0)
		return 0;
	int nc = ctx_get(v, 0, UINT32_MAX, (uint32_t)f, CTX_GLOBAL);
	if (nc < 0)
		return verr(v, NULL, v->g.funcs[f].start, "too_complex", "too many call contexts");
	struct as_state e;
	as_state_init(&e);
	if (as_push_frame(&e, -1))
		return -1;
	as_reg_unknown(&as_cur(&e)->r[1]);
	uint32_t saved = v->cur_ctx;
	v->cur_ctx = (uint32_t)nc;
	int r = edge_local(v, (uint32_t)nc, NULL, v->g.funcs[f].entry, &e, v->g.funcs[f].start);
	v->cur_ctx = saved;
	return r ? -1 : 0;
}

/* The worklist moved from prev to cur (consecutive pops of one main or
 * global context, cur the greater key): every loop containing prev's block
 * whose region cur's key lies beyond has been left for good at prev's
 * iterations of the loops around it, when those are not saturated (the
 * argument of disj_final: nothing smaller than cur is queued, and no edge
 * leads back into a region left behind but a saturated back edge or a
 * return, excluded by FIN_HEAD). Its head's states with that prefix go. */
static void loops_left(struct vctx *v, const struct wl_item *prev, const struct wl_item *cur)
{
	uint8_t kind = v->ctxs[cur->ctx].kind;
	if (!v->final || prev->ctx != cur->ctx || (kind != CTX_MAIN && kind != CTX_GLOBAL) ||
	    !wl_less(v, prev, cur))
		return;
	const struct cfg_block *bp = &v->g.blocks[prev->block], *bc = &v->g.blocks[cur->block];
	uint32_t i = 0;
	for (;; i++) {
		bool mp, mc;
		if (key_rpo(v, bp, i, &mp) != key_rpo(v, bc, i, &mc) || !mp || !mc)
			break;
		uint32_t x = prev->base + i, y = cur->base + i;
		uint16_t ip = x < prev->niter ? prev->iter[x] : 0, ic = y < cur->niter ? cur->iter[y] : 0;
		if (ip != ic) {
			i++; /* the same loop, a later iteration: the loops inside it are left */
			break;
		}
	}
	if (i >= bp->nloops)
		return;
	/* the outermost loop left, L = bp->loops[i], at prefix P = prev's
	 * iterations of the loops around it: every head inside L's body (L's
	 * own included) loses its states with prefix P, whatever their
	 * iterations of L and of the loops inside it */
	const struct actx *c = &v->ctxs[cur->ctx];
	const struct cfg_loop *lp = &v->g.loops[bp->loops[i]];
	uint32_t plen = prev->base + i;
	if (plen >= AS_MAX_ITER || plen > prev->niter)
		return;
	for (uint32_t t = 0; t < i; t++)
		if (prev->iter[prev->base + t] >= loop_unroll(v, bp->loops[t]))
			return; /* an enclosing loop comes back with this prefix */
	for (uint32_t k = 0; k < lp->size; k++) {
		uint32_t head = lp->body[k];
		if (v->g.blocks[head].head_of < 0)
			continue;
		if (!(v->final[head] & FIN_HEAD))
			return;
		if (head < c->first_block || head - c->first_block >= c->nblocks)
			continue;
		struct node *n = c->nodes[head - c->first_block];
		if (!n)
			continue;
		for (uint32_t d = 0; d < n->ndisj; d++) {
			struct disj *dj = &n->d[d];
			if (dj->done || dj->queued || dj->st.niter < plen ||
			    memcmp(dj->st.iter, prev->iter, plen * sizeof(prev->iter[0])))
				continue;
			track_bytes(v, -(ssize_t)as_state_bytes(&dj->st));
			uint32_t ni = dj->st.niter;
			uint16_t it[AS_MAX_ITER];
			memcpy(it, dj->st.iter, sizeof(it));
			as_state_fini(&dj->st);
			as_state_init(&dj->st);
			dj->st.niter = ni;
			memcpy(dj->st.iter, it, sizeof(it));
			dj->done = true;
		}
		if (!n->nqueued)
			drop_final(n);
	}
}

static int run(struct vctx *v)
{
	struct as_state s;
	as_state_init(&s);
	if (as_push_frame(&s, -1))
		return -ENOMEM;
	struct as_reg *r1 = &as_cur(&s)->r[1];
	as_reg_uninit(r1);
	r1->type = T_CTX;
	r1->v = bg_scalar_const(0);
	s.path = 0;
	if (ctx_get(v, 0, 0, 0, CTX_MAIN) < 0) {
		as_state_fini(&s);
		return -ENOMEM;
	}
	v->ctxs[0].parent = 0;
	v->cur_ctx = 0;
	if (edge_local(v, 0, NULL, v->g.funcs[0].entry, &s, 0))
		return 0;
	if (seed_exception_cb(v))
		return v->failed ? 0 : -ENOMEM;
	struct wl_item prev;
	bool have_prev = false;
	while ((v->nheap || v->ndirect) && !v->failed) {
		if (v->ndirect) {
			struct direct_item it = v->direct[--v->ndirect];
			if (v->steps > v->max_steps || v->cur_bytes > v->max_bytes || v->next_id >= AS_ID_LIMIT) {
				budget_exceeded(v, &it.st, v->g.blocks[it.block].start);
				as_state_fini(&it.st);
				break;
			}
			process_state(v, it.ctx, it.block, &it.st);
			continue;
		}
		struct wl_item it = heap_pop(v);
		if (!it.n->d[it.d].queued)
			continue;
		if (v->steps > v->max_steps || v->cur_bytes > v->max_bytes || v->next_id >= AS_ID_LIMIT) {
			budget_exceeded(v, &it.n->d[it.d].st, v->g.blocks[it.n->block].start);
			break;
		}
		if (have_prev)
			loops_left(v, &prev, &it);
		prev = it;
		have_prev = true;
		process(v, it.n, it.d);
	}
	if (!v->failed && check_stack_depth(v) == -ENOMEM)
		return -ENOMEM;
	if (!v->failed)
		except_check(v);
	return 0;
}

/* A helper reads the arguments of its prototype; a subprogram, a kfunc or
 * an unknown helper any of r1-r5. */
static uint16_t call_reads(const struct bg_insn *in)
{
	const struct bg_helper_proto *p = in->pseudo == BG_CALL_HELPER ? bg_helper_by_id((uint32_t)in->imm) : NULL;
	if (!p || p->nargs > 5)
		return 0x3e;
	return (uint16_t)(((1u << p->nargs) - 1) << 1);
}

static bool want_cb(const struct bg_insn *in)
{
	return call_is_cb(in);
}

/* A program the loader kept raw because its code does not decode
 * (bg_open_opts.keep_malformed): rejected, as the kernel rejects it, with
 * the loader's message (file, section offset, instruction). The decoder is
 * run again on the raw code only to learn the slot, for the source line. */
static int reject_malformed(struct vctx *v, const struct bg_program *prog, const char *why)
{
	size_t n = 0, bad = 0;
	const struct bg_raw_insn *raw = bg_program__raw(prog, &n);
	struct bg_insn *tmp = calloc(n ? n : 1, sizeof(*tmp));

	if (!tmp)
		return -ENOMEM;
	if (raw && n)
		bg_prog_decode(raw, n, tmp, &bad, NULL);
	free(tmp);
	v->diag.message = strdup(why);
	if (!v->diag.message)
		return -ENOMEM;
	v->failed = true;
	v->diag.insn = bad;
	v->diag.check = "bad_insn";
	v->diag.line = bad < n ? bg_program__line(prog, bad) : NULL;
	return -1;
}

static int setup(struct vctx *v, const struct bg_program *prog, const struct bg_verify_opts *opts)
{
	v->prog = prog;
	v->obj = bg_program__object(prog);
	v->insns = bg_program__insns(prog, &v->n);
	v->opts = opts;
	v->priv = !opts->unprivileged;
	v->prog_type = bg_program__type(prog);
	v->pol = bg_prog_policy(v->prog_type, bg_program__attach_type(prog));
	v->max_steps = opts->max_steps ? opts->max_steps : DEFAULT_MAX_STEPS;
	v->max_bytes = DEFAULT_MAX_BYTES;
	v->unroll = DEFAULT_UNROLL;
	v->kdisj = opts->max_disjuncts ? opts->max_disjuncts : DEFAULT_K;
	as_names_set(prog);
	if (kgate_setup(v))
		return -EINVAL;
	call_prepare(v);
	if (!v->insns && bg_program__decode_error(prog))
		return reject_malformed(v, prog, bg_program__decode_error(prog));
	if (!v->insns || !v->n)
		return verr(v, NULL, 0, "bad_insn", "program has no instructions");
	size_t nf = bg_program__func_cnt(prog);
	uint32_t *fs = calloc(nf + 1, sizeof(*fs));
	if (!fs)
		return -ENOMEM;
	for (size_t i = 0; i < nf; i++)
		fs[i] = (uint32_t)bg_program__func(prog, i)->insn;
	const char *why = NULL;
	size_t bad = 0;
	int err = cfg_build(&v->g, v->insns, v->n, want_cb, call_is_iter_next, fs, nf, &why, &bad);
	free(fs);
	if (err == -ENOMEM)
		return err;
	if (err)
		return verr(v, NULL, bad, "cfg", "%s", why);
	for (size_t i = 0; i < nf; i++) {
		const struct bg_func_info *fi = bg_program__func(prog, i);
		uint32_t f = cfg_func_of(&v->g, fi->insn);
		if (v->g.funcs[f].start == fi->insn) {
			v->g.funcs[f].name = fi->name;
			v->g.funcs[f].linkage = fi->linkage;
		}
	}
	if (asrt_build(v) || fastcall_prepare(v))
		return -ENOMEM;
	v->g.call_reads = call_reads;
	cfg_branch_live(&v->g);
	cfg_reg_live(&v->g);
	if (slive_compute(v))
		return -ENOMEM;
	final_blocks(v);
	if (cfg_counted_loops(&v->g))
		return -ENOMEM;
	for (uint32_t l = 0; v->demoted && l < v->g.nloops; l++)
		if (v->demoted[l])
			v->g.loops[l].counted = false;
	/* the kernel's check_struct_ops_btf_id, before any instruction: the
	 * license first, then the member */
	if (v->prog_type == BPF_PROG_TYPE_STRUCT_OPS && !prog_license_gpl(v))
		return verr(v, NULL, 0, "struct_ops", "struct ops programs must have a GPL compatible license");
	if (!btf_stops_member_ok(prog, prog_sleepable(v))) {
		const char *t = bg_program__attach_target(prog), *c = strchr(t, ':');
		return verr(v, NULL, 0, "struct_ops", "attach to unsupported member %s of struct %.*s%s", c + 1,
			    (int)(c - t), t, prog_sleepable(v) ? " (sleepable)" : "");
	}
	if (check_prog_kind(v) || kgate_program(v) || check_attach_target(v))
		return -1;
	v->kc = kcost_new(v); /* NULL: no estimate */
	if (check_ksym_addrs(v) || check_abnormal_return(v))
		return -1;
	return check_reachable(v);
}

/* check_map_prog_compatibility: the map types a sleepable program may use,
 * the map itself or the inner map of a map of maps (resolve_pseudo_ldimm64:
 * every map reference, reached or not, after check_attach_btf_id). */
static int sleepable_map_ok(struct vctx *v, size_t pc, const struct bg_map_def *m)
{
	if (!m || !prog_sleepable(v))
		return 0;
	uint64_t feat = v->prof ? v->prof->features : ~0ull;
	for (int depth = 0; m && depth < 2; depth++) {
		if (!bg_sleepable_map_ok(m->type, feat)) {
			const char *tn = bg_map_type_name(m->type);
			return verr(v, NULL, pc, "sleep", "Sleepable programs can only use array, hash, ringbuf and local "
				    "storage maps, also as inner maps (map %s of type %s)", m->name ? m->name : "?",
				    tn ? tn : "?");
		}
		m = m->inner_map >= 0 ? bg_object__map(v->obj, (size_t)m->inner_map) : NULL;
	}
	return 0;
}

/* check_attach_btf_id's refusals of the program's kind, before any
 * instruction: a sleepable program of a type the kernel cannot run sleeping
 * (its can_be_sleepable), and a tracing program loaded without an attach BTF
 * id (libbpf's sections without a BTF target, e.g. 7.2's "fentry.multi",
 * name an attach type a kernel before it does not know:
 * bpf_check_attach_target's first check). */
static int check_prog_kind(struct vctx *v)
{
	uint32_t at = bg_program__attach_type(v->prog);
	uint64_t feat = v->prof ? v->prof->features : ~0ull;
	const struct bg_sec_def *d = bg_sec_def_find(bg_program__section(v->prog), NULL);
	const char *why = prog_sleepable(v) ? bg_prog_sleep_refusal(v->prog_type, at, feat) : NULL;
	if (why)
		return verr(v, NULL, 0, "sleepable", "%s (a sleepable %s program%s%s)", why,
			    bg_prog_type_name(v->prog_type), d && d->has_attach ? ", attach type " : "",
			    d && d->has_attach ? bg_attach_type_name(at) : "");
	if (v->prog_type == BPF_PROG_TYPE_TRACING && d && !d->btf_target &&
	    bg_attach_type_since(at) > (v->prof ? v->prof->version : 0)) {
		char a[16];
		return verr(v, NULL, 0, "attach", "Tracing programs must provide btf_id (attach type %s is not "
			    "known before %s)", bg_attach_type_name(at), bg_kver_str(bg_attach_type_since(at), a));
	}
	for (size_t pc = 0; prog_sleepable(v) && pc < v->n; pc++) {
		const struct bg_insn *in = &v->insns[pc];
		if (in->kind == BG_K_LD_IMM64 && in->pseudo != BG_PSEUDO_NONE && in->pseudo != BG_PSEUDO_BTF_ID &&
		    in->pseudo != BG_PSEUDO_FUNC && in->imm >= 0 &&
		    sleepable_map_ok(v, pc, bg_object__map(v->obj, (size_t)in->imm)))
			return -1;
	}
	return 0;
}

/* bpf_check_attach_target's refusals that depend on the target alone: a
 * disabled LSM hook, a sleepable tracing program on a function that cannot
 * sleep, fmod_ret on a function whose return cannot be modified (before any
 * instruction, as the kernel). */
static int check_attach_target(struct vctx *v)
{
	const char *t = bg_program__attach_target(v->prog);
	uint32_t at = bg_program__attach_type(v->prog);
	if (!t)
		return 0;
	if (v->prog_type == BPF_PROG_TYPE_LSM && bg_lsm_hook_disabled(t, v->prof ? v->prof->version : 0))
		return verr(v, NULL, 0, "attach", "attach_btf_id points to disabled hook bpf_lsm_%s", t);
	if (v->prog_type == BPF_PROG_TYPE_TRACING && prog_sleepable(v) &&
	    (at == BPF_TRACE_FENTRY || at == BPF_TRACE_FEXIT || at == BPF_MODIFY_RETURN) &&
	    !bg_tracing_sleepable_ok(t, v->prof ? v->prof->version : 0))
		return verr(v, NULL, 0, "attach", "%s is not sleepable (not in this kernel's error-injection list)", t);
	if (v->prog_type == BPF_PROG_TYPE_TRACING && at == BPF_MODIFY_RETURN && !prog_sleepable(v) &&
	    !bg_tracing_modify_ok(t, v->prof ? v->prof->version : 0))
		return verr(v, NULL, 0, "attach", "%s() is not modifiable (not a security_ function, nor in this "
			    "kernel's error-injection list or fmod_ret set)", t);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int bg_verify(const struct bg_program *prog, const struct bg_verify_opts *opts, struct bg_verify_result *res)
{
	return verify_observed(prog, opts, res, NULL, NULL);
}

int verify_observed(const struct bg_program *prog, const struct bg_verify_opts *opts,
		    struct bg_verify_result *res, verify_visit_fn visit, void *arg)
{
	struct bg_verify_opts o;
	if (!prog || !res)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	if (OPTS_COPY(&o, opts, bg_verify_opts))
		return -EINVAL;
	opts = &o;
	double t0 = now_s();
	uint8_t *demoted = NULL;
	bool no_entry_accel = false, cb_exact = false;
	uint64_t steps = 0;
	struct vctx *v;
	int err;
	/* A `!=`-counted loop whose bound check fails is demoted to unrolling
	 * and the analysis restarts: at most one restart per such loop. */
	for (;;) {
		v = calloc(1, sizeof(*v));
		if (!v) {
			free(demoted);
			return -ENOMEM;
		}
		v->visit = visit;
		v->visit_arg = arg;
		v->demoted = demoted;
		v->no_entry_accel = no_entry_accel;
		v->cb_exact = cb_exact;
		err = setup(v, prog, opts);
		if (v->failed)
			err = 0;
		if (!err && !v->failed) {
			path_add(v, 0, 0, 0); /* node 0: the empty path */
			err = run(v);
		}
		if (v->nomem)
			err = -ENOMEM;
		steps += v->steps;
		/* a rejection after widening a `!=`/bound-register loop may be the
		 * widening's imprecision (values stepped with the counter lose their
		 * bound): such loops are analysed unrolled again, as before */
		bool ext = false, rejected = !err && v->failed && !v->demote &&
						  !(v->diag.check && !strcmp(v->diag.check, "too_complex"));
		for (uint32_t l = 0; rejected && l < v->g.nloops; l++)
			if (v->g.loops[l].counted && v->g.loops[l].cnt_ext)
				ext = true;
		/* a counter accelerated on entry to a loop that never iterates is
		 * wider than the walk's: a rejection is checked again without */
		bool unaccel = rejected && !ext && v->entry_accel && !no_entry_accel;
		if (unaccel)
			no_entry_accel = true;
		/* a bounded callback whose later calls were joined may have lost
		 * what a check needs (a value stepped call by call: the kernel's
		 * precise scalars): a rejection walks every call again */
		bool uncb = rejected && v->cb_widened && !cb_exact;
		if (uncb)
			cb_exact = true;
		if (err || (!v->demote && !ext && !unaccel && !uncb))
			break;
		if (!demoted)
			demoted = calloc(v->g.nloops, 1);
		if (!demoted) {
			err = -ENOMEM;
			break;
		}
		if (v->demote)
			demoted[v->demote - 1] = 1;
		for (uint32_t l = 0; ext && l < v->g.nloops; l++)
			if (v->g.loops[l].counted && v->g.loops[l].cnt_ext)
				demoted[l] = 1;
		free(v->diag.message);
		free(v->diag.path);
		kcost_free(v->kc);
		free_all(v);
		free(v);
	}
	free(demoted);
	v->demoted = NULL;
	res->seconds = now_s() - t0;
	res->steps = steps;
	res->peak_bytes = v->peak_bytes;
	fill_stats(v, res);
	if (err) {
		free(v->diag.message);
		free(v->diag.path);
	} else if (v->failed) {
		res->verdict = BG_VERDICT_REJECTED;
		res->diag = v->diag;
		if (v->diag.check && !strcmp(v->diag.check, "too_complex"))
			res->verdict = BG_VERDICT_UNAVAILABLE;
	} else {
		res->verdict = BG_VERDICT_ACCEPTED;
		err = kcost_finish(v->kc, v, res);
	}
	kcost_free(v->kc);
	free_all(v);
	as_state_cache_drop();
	as_names_set(NULL);
	free(v);
	return err;
}

void bg_verify_result__fini(struct bg_verify_result *res)
{
	if (!res)
		return;
	free(res->diag.message);
	free(res->diag.path);
	memset(res, 0, sizeof(*res));
}
