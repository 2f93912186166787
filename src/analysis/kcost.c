/* The kernel verifier's work on a safe program, estimated from what the
 * analysis observed (see kcost.h for the model). The constants below are
 * calibrated against the running kernel's processed-instruction counts on
 * the kernel's own BPF selftests (tests/kcost.test.sh prints the figure). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/kcost.h"
#include "analysis/vctx.h"

#define KC_LIMIT_INSNS 1000000u /* BPF_COMPLEXITY_LIMIT_INSNS */
#define KC_LIMIT_JMP_SEQ 8192u  /* BPF_COMPLEXITY_LIMIT_JMP_SEQ */
/* Passes over the body of a loop whose states converge (open-coded
 * iterator, may_goto) and over a sync callback (bpf_loop and friends): the
 * kernel walks them until a state repeats, usually the second or third time. */
#define KC_CONVERGE_PASSES 2.0
/* Processed instructions per reached instruction of a function with a branch
 * whose both edges are feasible: paths that reach a join with a state the
 * explored one does not cover walk on (calibrated: median estimate/actual
 * on the real corpus closest to 1). Branch-free code is walked once. */
#define KC_PATH_FACTOR 1.2

struct kcost {
	const struct vctx *v;
	uint8_t **reached;   /* per context: per block of its function, nonzero when analysed */
	uint32_t nreached;
	uint8_t *feas;       /* per slot of a conditional jump: bit 0 fall-through, bit 1 taken feasible */
	uint32_t *iters;     /* per loop: most back edges one walk took (unrolled loops) */
};

struct kcost *kcost_new(const struct vctx *v)
{
	struct kcost *kc = calloc(1, sizeof(*kc));
	if (!kc)
		return NULL;
	kc->v = v;
	kc->feas = calloc(v->n + 1, 1);
	kc->iters = calloc(v->g.nloops + 1, sizeof(*kc->iters));
	if (!kc->feas || !kc->iters) {
		kcost_free(kc);
		return NULL;
	}
	return kc;
}

void kcost_free(struct kcost *kc)
{
	if (!kc)
		return;
	for (uint32_t i = 0; i < kc->nreached; i++)
		free(kc->reached[i]);
	free(kc->reached);
	free(kc->feas);
	free(kc->iters);
	free(kc);
}

void kcost_note_block(struct kcost *kc, uint32_t ctx, uint32_t block)
{
	if (!kc)
		return;
	if (ctx >= kc->nreached) {
		uint32_t n = ctx + 8;
		uint8_t **r = realloc(kc->reached, n * sizeof(*r));
		if (!r)
			return; /* no record: the block costs nothing (an under-estimate) */
		memset(r + kc->nreached, 0, (n - kc->nreached) * sizeof(*r));
		kc->reached = r;
		kc->nreached = n;
	}
	const struct actx *c = &kc->v->ctxs[ctx];
	if (!kc->reached[ctx])
		kc->reached[ctx] = calloc(c->nblocks, 1);
	if (kc->reached[ctx] && block >= c->first_block && block - c->first_block < c->nblocks)
		kc->reached[ctx][block - c->first_block] = 1;
}

void kcost_note_branch(struct kcost *kc, size_t pc, bool taken)
{
	if (kc && pc < kc->v->n)
		kc->feas[pc] |= (uint8_t)(taken ? 2 : 1);
}

void kcost_note_iter(struct kcost *kc, uint32_t loop, uint32_t iter)
{
	if (kc && loop < kc->v->g.nloops && iter > kc->iters[loop])
		kc->iters[loop] = iter;
}

/* ------------------------------------------------------------ trip counts */

static bool in_loop(const struct cfg *g, uint32_t b, uint32_t l)
{
	for (uint32_t i = 0; i < g->blocks[b].nloops; i++)
		if (g->blocks[b].loops[i] == l)
			return true;
	return false;
}

/* The constant step of reg in loop l (sum of `reg += c` / `reg -= c`), 0 when
 * something else writes it. */
static int64_t loop_step(const struct cfg *g, uint32_t l, int reg)
{
	int64_t step = 0;
	for (uint32_t bi = 0; bi < g->loops[l].size; bi++) {
		const struct cfg_block *b = &g->blocks[g->loops[l].body[bi]];
		for (uint32_t i = b->start; i < b->end; i++) {
			const struct bg_insn *in = &g->insns[i];
			bool def = (in->kind == BG_K_ALU || in->kind == BG_K_LDX || in->kind == BG_K_LD_IMM64 ||
				    in->kind == BG_K_END) && in->dst == reg;
			if (in->kind == BG_K_CALL || in->kind == BG_K_CALLX)
				def = def || reg <= 5;
			if (!def)
				continue;
			if (in->kind != BG_K_ALU || in->src_is_reg || (in->op != BG_ALU_ADD && in->op != BG_ALU_SUB))
				return 0;
			step += in->op == BG_ALU_SUB ? -(int64_t)in->imm : (int64_t)in->imm;
		}
	}
	return step;
}

/* The predecessors of each loop head, in block order: head h's are
 * ent[off[h] .. off[h + 1]) (one pass over the edges, O(e)). */
struct kc_entries {
	uint32_t *off, *ent;
};

static int loop_entries(const struct cfg *g, struct kc_entries *e)
{
	e->off = calloc((size_t)g->nblocks + 1, sizeof(*e->off));
	e->ent = NULL;
	if (!e->off)
		return -ENOMEM;
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t b = 0; b < g->nblocks; b++) {
			const struct cfg_block *bl = &g->blocks[b];
			for (uint32_t k = 0; k < bl->nsucc; k++) {
				uint32_t t = bl->succ[k];
				if (t >= g->nblocks || g->blocks[t].head_of < 0 || b == t || (k && bl->succ[0] == t))
					continue;
				if (pass == 0)
					e->off[t + 1]++;
				else
					e->ent[e->off[t]++] = b;
			}
		}
		if (pass == 0) {
			for (uint32_t t = 0; t < g->nblocks; t++)
				e->off[t + 1] += e->off[t];
			size_t n = e->off[g->nblocks];
			e->ent = malloc((n ? n : 1) * sizeof(*e->ent));
			if (!e->ent)
				return -ENOMEM;
		}
	}
	/* the fill advanced each start to the next head's: shift back */
	for (uint32_t t = g->nblocks; t > 0; t--)
		e->off[t] = e->off[t - 1];
	e->off[0] = 0;
	return 0;
}

/* The constant reg holds when loop l is entered: the last `reg = imm` in a
 * block outside the loop that leads to its head. */
static bool loop_init(const struct cfg *g, const struct kc_entries *e, uint32_t l, int reg, int64_t *val)
{
	uint32_t head = g->loops[l].head;
	for (uint32_t j = e->off[head]; j < e->off[head + 1]; j++) {
		uint32_t b = e->ent[j];
		if (in_loop(g, b, l))
			continue;
		const struct cfg_block *bl = &g->blocks[b];
		for (uint32_t i = bl->end; i-- > bl->start;) {
			const struct bg_insn *in = &g->insns[i];
			if (in->dst != reg || (in->kind != BG_K_ALU && in->kind != BG_K_LDX))
				continue;
			if (in->kind == BG_K_ALU && in->op == BG_ALU_MOV && !in->src_is_reg) {
				*val = in->imm;
				return true;
			}
			return false;
		}
	}
	return false;
}

/* Iterations of a loop bounded by its shape (cfg counted loops): the fewest
 * over its exit tests `reg OP K` with a constant step and entry value.
 * Returns 0 when no test gives a count; *test is the exit test's slot. */
static double counted_trips(const struct cfg *g, const struct kc_entries *e, uint32_t l, size_t *test)
{
	double best = 0;
	for (uint32_t bi = 0; bi < g->loops[l].size; bi++) {
		uint32_t b = g->loops[l].body[bi];
		const struct cfg_block *bl = &g->blocks[b];
		const struct bg_insn *t = &g->insns[bl->end - 1];
		if (bl->nsucc != 2 || t->kind != BG_K_JCOND || t->src_is_reg)
			continue;
		bool stay_taken = in_loop(g, bl->succ[1], l), stay_fall = in_loop(g, bl->succ[0], l);
		if (stay_taken == stay_fall)
			continue;
		int64_t step = loop_step(g, l, t->dst), init;
		if (!step || !loop_init(g, e, l, t->dst, &init))
			continue;
		uint8_t op = t->op;
		bool le = op == BG_JMP_JLE || op == BG_JMP_JSLE || op == BG_JMP_JGE || op == BG_JMP_JSGE;
		/* distance to the bound; the relation that keeps the loop going */
		double dist = step > 0 ? (double)t->imm - (double)init : (double)init - (double)t->imm;
		if (stay_taken == le || !stay_taken)
			dist += stay_taken ? 1 : 0;
		double n = dist / (double)(step > 0 ? step : -step);
		if (n < 1)
			n = 1;
		if (best == 0 || n < best) {
			best = n;
			*test = bl->end - 1;
		}
	}
	return best;
}

/* ------------------------------------------------------------ the estimate */

struct kc_work {
	double *trips;      /* per loop */
	uint8_t *decided;   /* per slot: exit test the kernel decides (precise counter) */
	double *mult;       /* per context: how many times the kernel walks it */
	double *own;        /* per context: its blocks' cost, once */
	double *depth;      /* per context: deepest pending-branch count inside it, [2c] with
			     * loops walked every iteration, [2c + 1] counted loops once */
};

static double block_mult(const struct cfg *g, const struct kc_work *w, uint32_t b, uint32_t upto)
{
	double m = 1;
	for (uint32_t i = 0; i < g->blocks[b].nloops && i < upto; i++)
		m *= w->trips[g->blocks[b].loops[i]];
	return m;
}

/* As block_mult, leaving out the loops bounded by their shape (counted). */
static double block_mult_unrolled(const struct cfg *g, const struct kc_work *w, uint32_t b, uint32_t upto)
{
	double m = 1;
	for (uint32_t i = 0; i < g->blocks[b].nloops && i < upto; i++)
		if (!g->loops[g->blocks[b].loops[i]].counted)
			m *= w->trips[g->blocks[b].loops[i]];
	return m;
}

/* Loops enclosing both a and b (a prefix of both nests). */
static uint32_t common_loops(const struct cfg *g, uint32_t a, uint32_t b)
{
	uint32_t j = 0;
	while (j < g->blocks[a].nloops && j < g->blocks[b].nloops && g->blocks[a].loops[j] == g->blocks[b].loops[j])
		j++;
	return j;
}

static int loop_trips(const struct kcost *kc, struct kc_work *w)
{
	const struct cfg *g = &kc->v->g;
	struct kc_entries e;
	if (!g->nloops)
		return 0;
	if (loop_entries(g, &e)) {
		free(e.off);
		free(e.ent);
		return -ENOMEM;
	}
	for (uint32_t l = 0; l < g->nloops; l++) {
		size_t test = 0;
		double t = 0;
		if (g->loops[l].allowed_unbounded) {
			t = KC_CONVERGE_PASSES;
		} else if (g->loops[l].counted && (t = counted_trips(g, &e, l, &test)) > 0) {
			w->decided[test] = 1;
		} else {
			t = kc->iters[l] + 1.0;
			/* a bound the analysis found by unrolling, inside another
			 * loop: the most iterations of any walk; when it varies
			 * with the outer loop (a triangular nest) the walks average
			 * about half of it */
			if (g->blocks[g->loops[l].head].nloops > 1 && t > 2)
				t = (t + 1) / 2;
		}
		w->trips[l] = t;
	}
	free(e.off);
	free(e.ent);
	return 0;
}

static double ctx_factor(uint8_t kind)
{
	return kind == CTX_CB_SYNC ? KC_CONVERGE_PASSES : 1.0;
}

/* Cost of one walk of context c, and its deepest pending-branch count: a
 * longest path over its reached blocks in reverse post-order (back edges
 * left out), a fall-through edge of a two-way branch weighing the
 * iterations it is walked, a call adding its callee's depth. */
static void ctx_cost(const struct kcost *kc, struct kc_work *w, uint32_t c, size_t *where)
{
	const struct vctx *v = kc->v;
	const struct cfg *g = &v->g;
	const struct actx *cx = &v->ctxs[c];
	const uint8_t *r = c < kc->nreached ? kc->reached[c] : NULL;
	w->own[c] = 0;
	w->depth[2 * c] = w->depth[2 * c + 1] = 0;
	if (!r)
		return;
	uint32_t nb = cx->nblocks;
	double *dist = calloc(2 * (size_t)nb, sizeof(*dist));
	uint32_t *order = malloc(nb * sizeof(*order));
	if (!dist || !order) {
		free(dist);
		free(order);
		return;
	}
	for (uint32_t i = 0; i < nb; i++)
		order[i] = UINT32_MAX;
	for (uint32_t i = 0; i < nb; i++) {
		const struct cfg_block *b = &g->blocks[cx->first_block + i];
		if (b->reachable && b->rpo < nb)
			order[b->rpo] = i;
	}
	double own = 0, best = 0, best1 = 0;
	bool branchy = false;
	for (uint32_t k = 0; k < nb; k++) {
		if (order[k] == UINT32_MAX || !r[order[k]])
			continue;
		uint32_t bi = cx->first_block + order[k];
		const struct cfg_block *b = &g->blocks[bi];
		double m = block_mult(g, w, bi, UINT32_MAX);
		own += (double)(b->end - b->start) * m;
		double d = dist[2 * order[k]], d1 = dist[2 * order[k] + 1];
		/* callees walked from here: their pending branches stack on ours */
		for (uint32_t cc = c + 1; cc < v->nctx; cc++)
			if (v->ctxs[cc].parent == c && v->ctxs[cc].kind == CTX_CALL &&
			    g->block_of[v->ctxs[cc].callsite] == bi) {
				d += w->depth[2 * cc];
				d1 += w->depth[2 * cc + 1];
			}
		if (d > best)
			best = d;
		if (d1 > best1) {
			best1 = d1;
			*where = b->end - 1;
		}
		const struct bg_insn *t = &g->insns[b->end - 1];
		bool two_way = t->kind == BG_K_JCOND && kc->feas[b->end - 1] == 3 && !w->decided[b->end - 1];
		branchy = branchy || two_way;
		for (uint32_t s = 0; s < b->nsucc; s++) {
			uint32_t to = b->succ[s];
			if (to < cx->first_block || to - cx->first_block >= nb || g->blocks[to].rpo <= b->rpo)
				continue; /* back edge */
			double e = d, e1 = d1;
			if (two_way && s == 0) {
				e += block_mult(g, w, bi, common_loops(g, bi, to));
				e1 += block_mult_unrolled(g, w, bi, common_loops(g, bi, to));
			}
			uint32_t ti = to - cx->first_block;
			if (e > dist[2 * ti])
				dist[2 * ti] = e;
			if (e1 > dist[2 * ti + 1])
				dist[2 * ti + 1] = e1;
		}
	}
	w->own[c] = own * (branchy ? KC_PATH_FACTOR : 1.0);
	w->depth[2 * c] = best;
	w->depth[2 * c + 1] = best1;
	free(dist);
	free(order);
}

static int estimate(const struct kcost *kc, struct kc_work *w, struct bg_kernel_estimate *ke)
{
	const struct vctx *v = kc->v;
	const struct cfg *g = &v->g;
	if (loop_trips(kc, w))
		return -ENOMEM;
	size_t deep_at = 0, dummy = 0;
	/* callees first (a child's index is above its parent's) for depths */
	for (uint32_t c = v->nctx; c-- > 0;)
		ctx_cost(kc, w, c, c == 0 ? &deep_at : &dummy);
	double total = 0, worst = -1;
	for (uint32_t c = 0; c < v->nctx; c++) {
		const struct actx *cx = &v->ctxs[c];
		if (c == 0 || cx->kind == CTX_GLOBAL || cx->kind == CTX_CB_ASYNC)
			w->mult[c] = 1;
		else
			w->mult[c] = w->mult[cx->parent] * ctx_factor(cx->kind) *
				     block_mult(g, w, g->block_of[cx->callsite], UINT32_MAX);
		double cost = w->own[c] * w->mult[c];
		total += cost;
		if (cost > worst) {
			worst = cost;
			ke->func_insn = g->funcs[cx->func].start;
		}
	}
	/* the loop whose walk dominates: most instructions times iterations */
	double lbest = 0;
	for (uint32_t l = 0; l < g->nloops; l++) {
		double m = 1;
		const struct cfg_block *h = &g->blocks[g->loops[l].head];
		for (uint32_t i = 0; i < h->nloops; i++)
			m *= w->trips[h->loops[i]];
		double body = 0;
		for (uint32_t i = 0; i < g->loops[l].size; i++) {
			const struct cfg_block *b = &g->blocks[g->loops[l].body[i]];
			body += b->end - b->start;
		}
		if (m * body > lbest) {
			lbest = m * body;
			ke->loop_insn = h->start;
			ke->loop_trips = (uint64_t)w->trips[l];
		}
	}
	ke->valid = true;
	ke->insns = total > 1e18 ? (uint64_t)1e18 : (uint64_t)total;
	ke->jmp_seq = w->depth[0] > 1e9 ? (uint64_t)1e9 : (uint64_t)w->depth[0];
	ke->jmp_insn = deep_at;
	/* The verdict on the jump stack counts the branches of a counted loop
	 * (cfg_counted_loops) once: with every iteration counted,
	 * pyperf600_nounroll (600 iterations of a counted loop, accepted by the
	 * kernel) would be predicted over the limit, while pyperf600 (the same
	 * loop unrolled 150 times by clang, 4 iterations) is rejected. So the
	 * kernel decides, in such loops, branches the analysis finds open; a
	 * counted loop of truly open branches walked past 8192 is missed (the
	 * reported jmp_seq still counts it). */
	/* with the statistics stream (bg_verify_opts.stats) */
	FILE *st = kc->v->opts ? kc->v->opts->stats : NULL;
	if (st) {
		for (uint32_t l = 0; l < g->nloops; l++)
			fprintf(st, "kcost: loop %u head insn %u: %.1f trips, %u blocks%s\n", l,
				g->blocks[g->loops[l].head].start, w->trips[l], g->loops[l].size,
				g->loops[l].counted ? " (counted)" : "");
		fprintf(st, "kcost: pending %.0f, counted loops once %.0f\n", w->depth[0], w->depth[1]);
	}
	ke->limit = ke->insns > KC_LIMIT_INSNS ? BG_KLIMIT_INSNS :
		    w->depth[1] > KC_LIMIT_JMP_SEQ ? BG_KLIMIT_JMP_SEQ : BG_KLIMIT_NONE;
	return 0;
}

static int finding(const struct kcost *kc, struct bg_verify_result *res)
{
	const struct bg_kernel_estimate *ke = &res->kernel;
	char msg[512];
	size_t at;
	if (ke->limit == BG_KLIMIT_INSNS) {
		at = ke->loop_trips > 1 ? ke->loop_insn : ke->func_insn;
		if (ke->loop_trips > 1)
			snprintf(msg, sizeof(msg),
				 "insn %zu: the kernel will reject this: estimated %llu processed instructions > %u (BPF program is too large); the loop at insn %zu is walked about %llu times (bpfgate: the program is safe)",
				 at, (unsigned long long)ke->insns, KC_LIMIT_INSNS, ke->loop_insn,
				 (unsigned long long)ke->loop_trips);
		else
			snprintf(msg, sizeof(msg),
				 "insn %zu: the kernel will reject this: estimated %llu processed instructions > %u (BPF program is too large) (bpfgate: the program is safe)",
				 at, (unsigned long long)ke->insns, KC_LIMIT_INSNS);
	} else {
		at = ke->jmp_insn;
		snprintf(msg, sizeof(msg),
			 "insn %zu: the kernel will reject this: estimated %llu branch states pending on its deepest path > %u (The sequence of %u jumps is too complex) (bpfgate: the program is safe)",
			 at, (unsigned long long)ke->jmp_seq, KC_LIMIT_JMP_SEQ, KC_LIMIT_JMP_SEQ + 1);
	}
	res->diag.message = strdup(msg);
	if (!res->diag.message)
		return -ENOMEM;
	res->diag.insn = at;
	res->diag.check = "kernel_complexity";
	res->diag.line = bg_program__line(kc->v->prog, at);
	res->verdict = BG_VERDICT_REJECTED;
	return 0;
}

int kcost_finish(struct kcost *kc, const struct vctx *v, struct bg_verify_result *res)
{
	if (!kc || v->nctx == 0)
		return 0;
	/* the doubles first, then the bytes: one allocation */
	size_t nd = (size_t)v->g.nloops + 1 + 4 * (size_t)v->nctx;
	double *d = calloc(1, nd * sizeof(double) + v->n + 1);
	if (!d)
		return -ENOMEM;
	struct kc_work w = {
		.trips = d,
		.mult = d + v->g.nloops + 1,
		.own = d + v->g.nloops + 1 + v->nctx,
		.depth = d + v->g.nloops + 1 + 2 * (size_t)v->nctx,
		.decided = (uint8_t *)(d + nd),
	};
	int err = estimate(kc, &w, &res->kernel);
	if (!err && res->kernel.limit != BG_KLIMIT_NONE && !(v->opts && v->opts->no_kernel_verdict))
		err = finding(kc, res);
	free(d);
	return err;
}
