/* CFG construction: function boundaries, leaders and blocks, per-function
 * iterative DFS (no recursion: programs of a million instructions), reverse
 * post-order, natural loops of back edges and their nesting. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/cfg.h"

static bool is_local_call(const struct bg_insn *in)
{
	return in->kind == BG_K_CALL && in->pseudo == BG_CALL_LOCAL;
}

bool cfg_ends_block(const struct bg_insn *in, bool (*is_cb_call)(const struct bg_insn *))
{
	switch (in->kind) {
	case BG_K_JA:
	case BG_K_JCOND:
	case BG_K_MAY_GOTO:
	case BG_K_EXIT:
		return true;
	case BG_K_CALL:
		return is_local_call(in) || (is_cb_call && is_cb_call(in));
	default:
		return false;
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

uint32_t cfg_func_of(const struct cfg *g, size_t i)
{
	uint32_t lo = 0, hi = g->nfuncs;
	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;
		if (g->funcs[mid].start <= i)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static int find_funcs(struct cfg *g, const uint32_t *fs, size_t nfs)
{
	size_t cap = nfs + 2, n = 0;
	uint32_t *starts = malloc(cap * sizeof(*starts));
	if (!starts)
		return -ENOMEM;
	starts[n++] = 0;
	for (size_t i = 0; i < nfs; i++)
		if (fs[i] < g->n)
			starts[n++] = fs[i];
	for (size_t i = 0; i < g->n; i++) {
		const struct bg_insn *in = &g->insns[i];
		int32_t t = -1;
		if (is_local_call(in))
			t = in->target;
		else if (in->kind == BG_K_LD_IMM64 && in->pseudo == BG_PSEUDO_FUNC)
			t = (int32_t)(i + 1 + (int64_t)in->imm);
		if (t < 0 || (size_t)t >= g->n)
			continue;
		if (n == cap) {
			cap *= 2;
			uint32_t *ns = realloc(starts, cap * sizeof(*ns));
			if (!ns) {
				free(starts);
				return -ENOMEM;
			}
			starts = ns;
		}
		starts[n++] = (uint32_t)t;
	}
	qsort(starts, n, sizeof(*starts), cmp_u32);
	g->funcs = calloc(n, sizeof(*g->funcs));
	if (!g->funcs) {
		free(starts);
		return -ENOMEM;
	}
	g->nfuncs = 0;
	for (size_t i = 0; i < n; i++) {
		if (i && starts[i] == starts[i - 1])
			continue;
		g->funcs[g->nfuncs++].start = starts[i];
	}
	for (uint32_t i = 0; i < g->nfuncs; i++)
		g->funcs[i].end = i + 1 < g->nfuncs ? g->funcs[i + 1].start : (uint32_t)g->n;
	free(starts);
	return 0;
}

static int split_blocks(struct cfg *g, bool (*is_cb_call)(const struct bg_insn *))
{
	uint8_t *leader = calloc(g->n + 1, 1);
	if (!leader)
		return -ENOMEM;
	for (uint32_t f = 0; f < g->nfuncs; f++)
		leader[g->funcs[f].start] = 1;
	for (size_t i = 0; i < g->n; i++) {
		const struct bg_insn *in = &g->insns[i];
		if (in->kind == BG_K_LD_IMM64_HI)
			continue;
		if (cfg_ends_block(in, is_cb_call)) {
			leader[i + in->slots] = 1;
			if ((in->kind == BG_K_JA || in->kind == BG_K_JCOND || in->kind == BG_K_MAY_GOTO) &&
			    in->target >= 0)
				leader[in->target] = 1;
		}
	}
	uint32_t nb = 0;
	for (size_t i = 0; i < g->n; i++)
		nb += leader[i];
	g->blocks = calloc(nb ? nb : 1, sizeof(*g->blocks));
	g->block_of = malloc((g->n + 1) * sizeof(*g->block_of));
	if (!g->blocks || !g->block_of) {
		free(leader);
		return -ENOMEM;
	}
	g->nblocks = 0;
	for (size_t i = 0; i < g->n; i++) {
		if (leader[i]) {
			if (g->nblocks)
				g->blocks[g->nblocks - 1].end = (uint32_t)i;
			struct cfg_block *b = &g->blocks[g->nblocks++];
			b->start = (uint32_t)i;
			b->func = cfg_func_of(g, i);
			b->head_of = -1;
		}
		g->block_of[i] = g->nblocks - 1;
	}
	if (g->nblocks)
		g->blocks[g->nblocks - 1].end = (uint32_t)g->n;
	free(leader);
	return 0;
}

/* Successors inside the function; a fall-through or jump that leaves the
 * function (or the program) is an error the kernel reports too. */
static int link_blocks(struct cfg *g, const char **why, size_t *bad)
{
	for (uint32_t b = 0; b < g->nblocks; b++) {
		struct cfg_block *bl = &g->blocks[b];
		uint32_t last = bl->end - 1;
		if (g->insns[last].kind == BG_K_LD_IMM64_HI && last > bl->start)
			last--;
		const struct bg_insn *in = &g->insns[last];
		const struct cfg_func *fn = &g->funcs[bl->func];
		bool falls = in->kind != BG_K_EXIT && in->kind != BG_K_JA;
		bl->nsucc = 0;
		if (falls) {
			if (bl->end >= fn->end) {
				*why = "last insn is not an exit or jmp";
				*bad = last;
				return -EINVAL;
			}
			bl->succ[bl->nsucc++] = g->block_of[bl->end];
		}
		if (in->kind == BG_K_JA || in->kind == BG_K_JCOND || in->kind == BG_K_MAY_GOTO) {
			if (in->target < (int32_t)fn->start || in->target >= (int32_t)fn->end) {
				*why = "jump out of range";
				*bad = last;
				return -EINVAL;
			}
			uint32_t t = g->block_of[in->target];
			if (bl->nsucc == 0 || bl->succ[0] != t)
				bl->succ[bl->nsucc++] = t;
		}
	}
	return 0;
}

/* Iterative DFS from a function entry: reverse post-order and back edges. */
static int dfs_func(struct cfg *g, uint32_t f, uint32_t *stack, uint8_t *color, uint32_t *post,
		    uint32_t **backs, uint32_t *nbacks, uint32_t *capbacks)
{
	uint32_t sp = 0, npost = 0, entry = g->funcs[f].entry;
	uint32_t *next = calloc(g->nblocks, sizeof(*next));
	if (!next)
		return -ENOMEM;
	stack[sp++] = entry;
	color[entry] = 1;
	while (sp) {
		uint32_t b = stack[sp - 1];
		struct cfg_block *bl = &g->blocks[b];
		if (next[b] < bl->nsucc) {
			uint32_t s = bl->succ[next[b]++];
			if (color[s] == 0) {
				color[s] = 1;
				stack[sp++] = s;
			} else if (color[s] == 1) {
				if (*nbacks == *capbacks) {
					*capbacks = *capbacks ? *capbacks * 2 : 16;
					uint32_t *nb = realloc(*backs, *capbacks * 2 * sizeof(uint32_t));
					if (!nb) {
						free(next);
						return -ENOMEM;
					}
					*backs = nb;
				}
				(*backs)[2 * *nbacks] = b;
				(*backs)[2 * *nbacks + 1] = s;
				(*nbacks)++;
			}
			continue;
		}
		color[b] = 2;
		bl->reachable = true;
		post[npost++] = b;
		sp--;
	}
	for (uint32_t i = 0; i < npost; i++)
		g->blocks[post[i]].rpo = npost - 1 - i;
	free(next);
	return 0;
}

struct loop_tmp {
	uint32_t head;
	uint32_t nbody;
	uint32_t *body;
};

static int cmp_loop_size(const void *a, const void *b)
{
	const struct loop_tmp *x = a, *y = b;
	return x->nbody > y->nbody ? -1 : x->nbody < y->nbody;
}

/* Natural loop of head h: h plus blocks that reach a back-edge source without
 * passing through h (reverse reachability inside the function). */
static int loop_body(struct cfg *g, uint32_t h, const uint32_t *backs, uint32_t nbacks,
		     uint32_t **preds, uint32_t *npred, uint8_t *mark, struct loop_tmp *lt, uint32_t *work,
		     uint32_t *body)
{
	uint32_t nw = 0, nb = 0;
	lt->head = h;
	mark[h] = 1;
	body[nb++] = h;
	/* backs is sorted by head: binary search the first edge into h */
	uint32_t lo = 0, hi = nbacks;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (backs[2 * mid + 1] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint32_t i = lo; i < nbacks && backs[2 * i + 1] == h; i++)
		if (!mark[backs[2 * i]]) {
			mark[backs[2 * i]] = 1;
			work[nw++] = backs[2 * i];
			body[nb++] = backs[2 * i];
		}
	while (nw) {
		uint32_t b = work[--nw];
		for (uint32_t k = 0; k < npred[b]; k++) {
			uint32_t p = preds[b][k];
			if (!mark[p] && g->blocks[p].reachable) {
				mark[p] = 1;
				work[nw++] = p;
				body[nb++] = p;
			}
		}
	}
	for (uint32_t i = 0; i < nb; i++)
		mark[body[i]] = 0;
	lt->nbody = nb;
	lt->body = malloc(nb * sizeof(uint32_t));
	if (!lt->body)
		return -ENOMEM;
	memcpy(lt->body, body, nb * sizeof(uint32_t));
	return 0;
}

/* Predecessor lists of every block, in one pool (*pool_out: free it and
 * *preds_out, *npred_out). */
static int build_preds(struct cfg *g, uint32_t ***preds_out, uint32_t **npred_out, uint32_t **pool_out)
{
	uint32_t *npred = calloc(g->nblocks, sizeof(*npred));
	uint32_t **preds = calloc(g->nblocks, sizeof(*preds));
	uint32_t *pool = NULL;
	if (!npred || !preds)
		goto oom;
	size_t total = 0;
	for (uint32_t b = 0; b < g->nblocks; b++)
		for (uint32_t k = 0; k < g->blocks[b].nsucc; k++) {
			npred[g->blocks[b].succ[k]]++;
			total++;
		}
	pool = malloc((total + 1) * sizeof(*pool));
	if (!pool)
		goto oom;
	for (uint32_t b = 0, off = 0; b < g->nblocks; b++) {
		preds[b] = pool + off;
		off += npred[b];
		npred[b] = 0;
	}
	for (uint32_t b = 0; b < g->nblocks; b++)
		for (uint32_t k = 0; k < g->blocks[b].nsucc; k++) {
			uint32_t s = g->blocks[b].succ[k];
			preds[s][npred[s]++] = b;
		}
	*preds_out = preds;
	*npred_out = npred;
	*pool_out = pool;
	return 0;
oom:
	free(pool);
	free(preds);
	free(npred);
	return -ENOMEM;
}

static bool loop_has_escape_hatch(const struct cfg *g, const struct loop_tmp *lt,
				  bool (*is_iter_next)(const struct bg_insn *))
{
	for (uint32_t i = 0; i < lt->nbody; i++) {
		const struct cfg_block *b = &g->blocks[lt->body[i]];
		for (uint32_t k = b->start; k < b->end; k++) {
			const struct bg_insn *in = &g->insns[k];
			if (in->kind == BG_K_MAY_GOTO)
				return true;
			if (in->kind == BG_K_CALL && is_iter_next && is_iter_next(in))
				return true;
		}
	}
	return false;
}

static int cmp_back(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;
	if (x[1] != y[1])
		return x[1] < y[1] ? -1 : 1;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int build_loops(struct cfg *g, uint32_t *backs, uint32_t nbacks,
		       bool (*is_iter_next)(const struct bg_insn *))
{
	if (!nbacks) { /* no loop (most programs): what the general case leaves */
		g->nloops = 0;
		g->loops = calloc(1, sizeof(*g->loops));
		g->loop_pool = malloc(sizeof(uint32_t));
		g->body_pool = malloc(sizeof(uint32_t));
		if (!g->loops || !g->loop_pool || !g->body_pool)
			return -ENOMEM;
		for (uint32_t b = 0; b < g->nblocks; b++)
			g->blocks[b].loops = g->loop_pool;
		return 0;
	}
	qsort(backs, nbacks, 2 * sizeof(uint32_t), cmp_back);
	uint32_t **preds, *npred, *pool;
	int err = build_preds(g, &preds, &npred, &pool);
	if (err)
		return err;
	uint8_t *mark = calloc(g->nblocks, 1);
	uint32_t *lwork = malloc((g->nblocks + 1) * sizeof(uint32_t));
	uint32_t *lbody = malloc((g->nblocks + 1) * sizeof(uint32_t));
	uint32_t *heads = malloc((nbacks + 1) * sizeof(*heads)), nh = 0;
	struct loop_tmp *lt = calloc(nbacks + 1, sizeof(*lt));
	if (!mark || !heads || !lt || !lwork || !lbody) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < nbacks; i++)
		heads[nh++] = backs[2 * i + 1];
	qsort(heads, nh, sizeof(*heads), cmp_u32);
	uint32_t nl = 0;
	for (uint32_t i = 0; i < nh; i++) {
		if (i && heads[i] == heads[i - 1])
			continue;
		err = loop_body(g, heads[i], backs, nbacks, preds, npred, mark, &lt[nl], lwork, lbody);
		if (err)
			goto out;
		nl++;
	}
	/* outermost (largest) first, so per-block lists come out outermost first */
	qsort(lt, nl, sizeof(*lt), cmp_loop_size);
	g->nloops = nl;
	g->loops = calloc(nl + 1, sizeof(*g->loops));
	uint32_t total = 0;
	for (uint32_t l = 0; l < nl; l++)
		total += lt[l].nbody;
	g->loop_pool = malloc((total + 1) * sizeof(uint32_t));
	if (!g->loops || !g->loop_pool) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t l = 0; l < nl; l++)
		for (uint32_t i = 0; i < lt[l].nbody; i++)
			g->blocks[lt[l].body[i]].nloops++;
	uint32_t off = 0;
	for (uint32_t b = 0; b < g->nblocks; b++) {
		g->blocks[b].loops = g->loop_pool + off;
		off += g->blocks[b].nloops;
		g->blocks[b].nloops = 0;
	}
	g->body_pool = malloc((total + 1) * sizeof(uint32_t));
	if (!g->body_pool) {
		err = -ENOMEM;
		goto out;
	}
	off = 0;
	for (uint32_t l = 0; l < nl; l++) {
		g->loops[l].body = g->body_pool + off;
		memcpy(g->loops[l].body, lt[l].body, lt[l].nbody * sizeof(uint32_t));
		off += lt[l].nbody;
		g->loops[l].head = lt[l].head;
		g->loops[l].size = lt[l].nbody;
		g->loops[l].allowed_unbounded = loop_has_escape_hatch(g, &lt[l], is_iter_next);
		g->blocks[lt[l].head].head_of = (int32_t)l;
		for (uint32_t i = 0; i < lt[l].nbody; i++) {
			struct cfg_block *b = &g->blocks[lt[l].body[i]];
			b->loops[b->nloops++] = l;
		}
	}
out:
	if (lt)
		for (uint32_t l = 0; l < nbacks + 1; l++)
			free(lt[l].body);
	free(lt);
	free(heads);
	free(mark);
	free(lwork);
	free(lbody);
	free(pool);
	free(preds);
	free(npred);
	return err;
}

int cfg_build(struct cfg *g, const struct bg_insn *insns, size_t n,
	      bool (*is_cb_call)(const struct bg_insn *), bool (*is_iter_next)(const struct bg_insn *),
	      const uint32_t *func_starts, size_t nfunc_starts, const char **why, size_t *bad)
{
	memset(g, 0, sizeof(*g));
	g->insns = insns;
	g->n = n;
	*why = "out of memory";
	*bad = 0;
	if (n == 0) {
		*why = "empty program";
		return -EINVAL;
	}
	int err = find_funcs(g, func_starts, nfunc_starts);
	if (!err)
		err = split_blocks(g, is_cb_call);
	if (!err)
		err = link_blocks(g, why, bad);
	if (err)
		return err;
	for (uint32_t f = 0; f < g->nfuncs; f++)
		g->funcs[f].entry = g->block_of[g->funcs[f].start];
	/* one allocation: stack, post, then color (zeroed) */
	uint32_t *stack = calloc(1, (size_t)g->nblocks * (2 * sizeof(*stack) + 1));
	uint32_t *post = stack ? stack + g->nblocks : NULL;
	uint8_t *color = stack ? (uint8_t *)(post + g->nblocks) : NULL;
	uint32_t *backs = NULL, nbacks = 0, capbacks = 0;
	err = !stack ? -ENOMEM : 0;
	for (uint32_t f = 0; !err && f < g->nfuncs; f++)
		err = dfs_func(g, f, stack, color, post, &backs, &nbacks, &capbacks);
	if (!err)
		err = build_loops(g, backs, nbacks, is_iter_next);
	free(stack);
	free(backs);
	return err;
}

void cfg_free(struct cfg *g)
{
	free(g->blocks);
	free(g->funcs);
	free(g->loops);
	free(g->block_of);
	free(g->loop_pool);
	free(g->body_pool);
	memset(g, 0, sizeof(*g));
}

/* the argument registers a call reads (r1-r5 unless told) */
static uint16_t call_args(const struct cfg *g, const struct bg_insn *in)
{
	return g->call_reads ? (uint16_t)(g->call_reads(in) & 0x3eu) : 0x3eu;
}

static uint16_t insn_blive(const struct cfg *g, const struct bg_insn *in, uint16_t live)
{
	uint16_t d = (uint16_t)(1u << in->dst), sr = (uint16_t)(1u << in->src);
	switch (in->kind) {
	case BG_K_JCOND:
		return (uint16_t)(live | d | (in->src_is_reg ? sr : 0));
	case BG_K_ALU:
		/* a register added to another may be a pointer offset: its constant
		 * value decides the pointer's offset (packet range, map bounds) */
		if ((in->op == BG_ALU_ADD || in->op == BG_ALU_SUB) && in->src_is_reg && in->alu64)
			live |= sr;
		if (!(live & d))
			return live;
		if (in->op == BG_ALU_MOV) {
			live &= (uint16_t)~d;
			return (uint16_t)(live | (in->src_is_reg ? sr : 0));
		}
		return (uint16_t)(live | (in->src_is_reg ? sr : 0));
	case BG_K_END:
		return live;
	case BG_K_LDX:
		/* the base of an access: its region type decides the access (a
		 * stack buffer on one path, a packet pointer on the other must
		 * not join into a scalar) */
		return (uint16_t)((live & ~d) | sr);
	case BG_K_ST:
	case BG_K_STX:
	case BG_K_ATOMIC:
		return (uint16_t)(live | d);
	case BG_K_LD_IMM64:
	case BG_K_ADDR_CAST:
		return (uint16_t)(live & ~d);
	case BG_K_CALL:
		return (uint16_t)((live & ~0x3fu) | call_args(g, in));
	case BG_K_CALLX:
	case BG_K_LD_ABS:
	case BG_K_LD_IND:
		return (uint16_t)(live & ~0x3fu);
	default:
		return live;
	}
}

/* Live registers before in, from those live after it: a read makes a
 * register live, a write (without a read) kills it. Calls read their
 * arguments (a helper's prototype's, else r1-r5) and clobber r0-r5; an
 * atomic reads r0 besides its operands and kills nothing. */
static uint16_t insn_rlive(const struct cfg *g, const struct bg_insn *in, uint16_t live)
{
	uint16_t d = (uint16_t)(1u << in->dst), sr = (uint16_t)(1u << in->src);
	uint16_t src = in->src_is_reg ? sr : 0;
	switch (in->kind) {
	case BG_K_ALU:
		if (in->op == BG_ALU_MOV)
			return (uint16_t)((live & ~d) | src);
		return (uint16_t)(live | d | src);
	case BG_K_END:
		return (uint16_t)(live | d);
	case BG_K_ADDR_CAST:
		return (uint16_t)((live & ~d) | sr);
	case BG_K_LD_IMM64:
		return (uint16_t)(live & ~d);
	case BG_K_LD_ABS:
		return (uint16_t)((live & ~0x3fu) | 0x40u);
	case BG_K_LD_IND:
		return (uint16_t)((live & ~0x3fu) | 0x40u | sr);
	case BG_K_LDX:
		return (uint16_t)((live & ~d) | sr);
	case BG_K_ST:
		return (uint16_t)(live | d);
	case BG_K_STX:
		return (uint16_t)(live | d | sr);
	case BG_K_ATOMIC:
		return (uint16_t)(live | d | sr | 1u);
	case BG_K_JCOND:
		return (uint16_t)(live | d | src);
	case BG_K_CALL:
		return (uint16_t)((live & ~0x3fu) | call_args(g, in));
	case BG_K_CALLX:
		return (uint16_t)((live & ~0x3fu) | 0x3eu | d);
	case BG_K_EXIT:
		return (uint16_t)(live | 1u);
	default:
		return live;
	}
}

/* Does every edge lead to a later block? Then one sweep in reverse block
 * order reaches a backward analysis' fixpoint (each block's successors are
 * final when it is visited): no second sweep to confirm it. */
static bool forward_only(const struct cfg *g)
{
	for (uint32_t b = 0; b < g->nblocks; b++)
		for (uint32_t k = 0; k < g->blocks[b].nsucc; k++)
			if (g->blocks[b].succ[k] <= b)
				return false;
	return true;
}

void cfg_reg_live(struct cfg *g)
{
	bool changed = true, fwd = forward_only(g);
	for (uint32_t b = 0; b < g->nblocks; b++)
		g->blocks[b].rlive = 0;
	for (bool first = true; changed && (first || !fwd); first = false) {
		changed = false;
		for (uint32_t b = g->nblocks; b-- > 0;) {
			struct cfg_block *bl = &g->blocks[b];
			uint16_t live = 0;
			for (uint32_t k = 0; k < bl->nsucc; k++)
				live |= g->blocks[bl->succ[k]].rlive;
			for (uint32_t i = bl->end; i-- > bl->start;)
				if (g->insns[i].kind != BG_K_LD_IMM64_HI)
					live = insn_rlive(g, &g->insns[i], live);
			live |= bl->blive;
			if (live != bl->rlive) {
				bl->rlive = live;
				changed = true;
			}
		}
	}
}

/* The function a local call at slot i enters (UINT32_MAX: none). */
static uint32_t callee_of(const struct cfg *g, uint32_t i)
{
	const struct bg_insn *in = &g->insns[i];
	if (!is_local_call(in))
		return UINT32_MAX;
	int64_t t = (int64_t)i + 1 + in->imm;
	for (uint32_t f = 0; f < g->nfuncs; f++)
		if (g->funcs[f].start == t)
			return f;
	return UINT32_MAX;
}

void cfg_branch_live(struct cfg *g)
{
	for (uint32_t b = 0; b < g->nblocks; b++)
		g->blocks[b].blive = 0;
	/* a subprogram whose result a caller tests (a bool telling whether a
	 * pointer it wrote through an argument is NULL, or whether it proved
	 * a packet range: the kernel walks each return path on its own) has r0
	 * branch-live at its exits */
	bool *rlive = calloc(g->nfuncs ? g->nfuncs : 1, sizeof(*rlive));
	bool changed = true, fwd = forward_only(g);
	for (bool first = true; changed; first = false) {
		changed = false;
		for (uint32_t b = 0; rlive && b + 1 < g->nblocks; b++) {
			uint32_t f = callee_of(g, g->blocks[b].end - 1);
			if (f != UINT32_MAX && !rlive[f] && (g->blocks[b + 1].blive & 1u)) {
				rlive[f] = true;
				changed = true;
			}
		}
		/* forward_only: the blocks agree with the last sweep already */
		if (fwd && !first && !changed)
			break;
		for (uint32_t b = g->nblocks; b-- > 0;) {
			struct cfg_block *bl = &g->blocks[b];
			uint16_t live = 0;
			for (uint32_t k = 0; k < bl->nsucc; k++)
				live |= g->blocks[bl->succ[k]].blive;
			if (rlive && rlive[bl->func] && g->insns[bl->end - 1].kind == BG_K_EXIT)
				live |= 1u;
			for (uint32_t i = bl->end; i-- > bl->start;)
				if (g->insns[i].kind != BG_K_LD_IMM64_HI)
					live = insn_blive(g, &g->insns[i], live);
			if (live != bl->blive) {
				bl->blive = live;
				changed = true;
			}
		}
	}
	free(rlive);
	for (uint32_t b = 0; b < g->nblocks; b++)
		g->blocks[b].npred = 0;
	for (uint32_t b = 0; b < g->nblocks; b++) {
		for (uint32_t k = 0; k < g->blocks[b].nsucc; k++)
			g->blocks[g->blocks[b].succ[k]].npred++;
		uint32_t last = g->blocks[b].end - 1;
		if (g->insns[last].kind == BG_K_CALL && b + 1 < g->nblocks)
			g->blocks[b + 1].after_call = true;
	}
}

static bool in_loop(const struct cfg *g, uint32_t b, uint32_t l)
{
	const struct cfg_block *bl = &g->blocks[b];
	for (uint32_t i = 0; i < bl->nloops; i++)
		if (bl->loops[i] == l)
			return true;
	return false;
}

static const struct bg_insn *last_insn(const struct cfg *g, uint32_t b)
{
	uint32_t last = g->blocks[b].end - 1;
	if (g->insns[last].kind == BG_K_LD_IMM64_HI && last > g->blocks[b].start)
		last--;
	return &g->insns[last];
}

/* Can a latch of loop l be reached from its head avoiding every block with
 * mark[b] set? (iterative DFS inside the loop) */
static bool latch_avoids(const struct cfg *g, uint32_t l, const uint8_t *mark, uint32_t *stack, uint8_t *seen)
{
	uint32_t head = g->loops[l].head, sp = 0, nvis = 0;
	uint32_t *vis = stack + g->nblocks + 1;
	bool found = false;
	if (mark[head])
		return false;
	stack[sp++] = head;
	seen[head] = 1;
	vis[nvis++] = head;
	while (sp && !found) {
		uint32_t b = stack[--sp];
		const struct cfg_block *bl = &g->blocks[b];
		for (uint32_t k = 0; k < bl->nsucc; k++) {
			uint32_t s = bl->succ[k];
			if (s == head) {
				found = true;
				break;
			}
			if (!in_loop(g, s, l) || seen[s] || mark[s])
				continue;
			seen[s] = 1;
			vis[nvis++] = s;
			stack[sp++] = s;
		}
	}
	for (uint32_t i = 0; i < nvis; i++)
		seen[vis[i]] = 0;
	return found;
}

/* The blocks of loop l every iteration passes: on every path from the head
 * back to it through the loop's blocks, i.e. the dominators of the back
 * edges' target (a node "again" the latches lead to) in the loop's graph.
 * One pass of Cooper, Harvey and Kennedy's iterative algorithm per loop
 * (O(size) per round, two rounds for a reducible loop) instead of one
 * depth-first search per candidate block: latch_avoids(l, {b}) is
 * back && !every[b]. */
struct loop_dom {
	uint32_t *rpo;   /* per block, and [nblocks] for "again": reverse postorder
			  * position, UINT32_MAX unvisited */
	uint32_t *idom;
	uint32_t *order; /* the visited blocks in reverse postorder, then "again" */
	uint8_t *every;
	uint32_t n;      /* entries of order */
	bool back;       /* some path comes back to the head */
};

static uint32_t dom_meet(const struct loop_dom *d, uint32_t a, uint32_t b)
{
	while (a != b) {
		while (d->rpo[a] > d->rpo[b])
			a = d->idom[a];
		while (d->rpo[b] > d->rpo[a])
			b = d->idom[b];
	}
	return a;
}

/* Successor k of block u in loop l's graph: a block of the loop, the
 * "again" node for the head, UINT32_MAX for an exit. */
static uint32_t dom_succ(const struct cfg *g, uint32_t l, uint32_t u, uint32_t k)
{
	uint32_t s = g->blocks[u].succ[k];
	if (s == g->loops[l].head)
		return g->nblocks;
	return in_loop(g, s, l) ? s : UINT32_MAX;
}

static void loop_dom(const struct cfg *g, uint32_t l, struct loop_dom *d, uint32_t *stack)
{
	uint32_t head = g->loops[l].head, again = g->nblocks, np = 0;
	for (uint32_t i = 0; i < d->n; i++) {
		d->rpo[d->order[i]] = UINT32_MAX;
		d->every[d->order[i]] = 0;
	}
	d->n = 0;
	d->back = false;
	/* iterative depth-first search: (block, next successor) pairs;
	 * postorder into order[], reversed below */
	uint32_t sp = 0;
	d->rpo[head] = 0; /* visited */
	stack[sp++] = head;
	stack[sp++] = 0;
	while (sp) {
		uint32_t u = stack[sp - 2], k = stack[sp - 1];
		if (k < g->blocks[u].nsucc) {
			stack[sp - 1]++;
			uint32_t t = dom_succ(g, l, u, k);
			if (t == again)
				d->back = true;
			else if (t != UINT32_MAX && d->rpo[t] == UINT32_MAX) {
				d->rpo[t] = 0;
				stack[sp++] = t;
				stack[sp++] = 0;
			}
			continue;
		}
		sp -= 2;
		d->order[np++] = u;
	}
	for (uint32_t i = 0; i < np / 2; i++) {
		uint32_t t = d->order[i];
		d->order[i] = d->order[np - 1 - i];
		d->order[np - 1 - i] = t;
	}
	if (d->back)
		d->order[np++] = again;
	d->n = np;
	for (uint32_t i = 0; i < np; i++) {
		d->rpo[d->order[i]] = i;
		d->idom[d->order[i]] = UINT32_MAX;
	}
	if (!d->back)
		return;
	d->idom[head] = head;
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = 0; i < np; i++) {
			uint32_t u = d->order[i];
			if (u == again || d->idom[u] == UINT32_MAX)
				continue;
			for (uint32_t k = 0; k < g->blocks[u].nsucc; k++) {
				uint32_t t = dom_succ(g, l, u, k);
				if (t == UINT32_MAX || t == head)
					continue;
				uint32_t m = d->idom[t] == UINT32_MAX ? u : dom_meet(d, u, d->idom[t]);
				if (m != d->idom[t]) {
					d->idom[t] = m;
					changed = true;
				}
			}
		}
	}
	for (uint32_t x = d->idom[again];; x = d->idom[x]) {
		d->every[x] = 1;
		if (x == head)
			break;
	}
}

/* Does the instruction write register reg? */
static bool insn_defines(const struct bg_insn *in, int reg)
{
	switch (in->kind) {
	case BG_K_ALU: case BG_K_END: case BG_K_LDX: case BG_K_LD_IMM64: case BG_K_ADDR_CAST:
		return in->dst == reg;
	case BG_K_CALL: case BG_K_CALLX: case BG_K_LD_ABS: case BG_K_LD_IND:
		return reg <= 5;
	case BG_K_ATOMIC:
		return in->src == reg || (reg == 0 && in->atomic_op == BG_ATOMIC_CMPXCHG);
	default:
		return false;
	}
}

static bool loop_writes(const struct cfg *g, uint32_t l, int reg)
{
	for (uint32_t bi = 0; bi < g->loops[l].size; bi++) {
		uint32_t b = g->loops[l].body[bi];
		for (uint32_t i = g->blocks[b].start; i < g->blocks[b].end; i++)
			if (insn_defines(&g->insns[i], reg))
				return true;
	}
	return false;
}

/* Every write of reg inside loop l is `reg += c` (dir > 0) or `reg -= c`
 * (dir < 0) with a constant c > 0; marks the blocks holding one. unit: only
 * one such write, with c = 1, outside the loops nested in l (so an
 * iteration executes it at most once); *w64 tells its width. */
static bool only_steps(const struct cfg *g, uint32_t l, int reg, int dir, uint8_t *mark, bool unit, bool *w64);

/* The registers stepped in lockstep with loop l's counter (see cfg_loop.iv_*). */
static void find_ivs(struct cfg *g, uint32_t l, int cstep, uint8_t *mark, uint32_t *stack, uint8_t *seen)
{
	struct cfg_loop *lp = &g->loops[l];
	uint32_t depth = g->blocks[lp->head].nloops;
	lp->niv = 0;
	for (int x = 0; x <= 9; x++) {
		if (x == lp->cnt_reg)
			continue;
		uint32_t nw = 0, wb = 0;
		int64_t c = 0;
		bool ok = true;
		for (uint32_t bi = 0; bi < lp->size && ok; bi++) {
			uint32_t b = lp->body[bi];
			for (uint32_t i = g->blocks[b].start; i < g->blocks[b].end && ok; i++) {
				const struct bg_insn *in = &g->insns[i];
				if (!insn_defines(in, x))
					continue;
				nw++;
				wb = b;
				ok = in->kind == BG_K_ALU && !in->src_is_reg && in->alu64 &&
				     (in->op == BG_ALU_ADD || in->op == BG_ALU_SUB) && in->imm != 0 &&
				     g->blocks[b].nloops == depth;
				c = in->op == BG_ALU_SUB ? -(int64_t)in->imm : in->imm;
			}
		}
		if (!ok || nw != 1)
			continue;
		/* every iteration executes it */
		for (uint32_t k = 0; k < lp->size; k++)
			mark[lp->body[k]] = 0;
		mark[wb] = 1;
		ok = !latch_avoids(g, l, mark, stack, seen);
		mark[wb] = 0;
		if (!ok)
			continue;
		lp->iv_reg[lp->niv] = (uint8_t)x;
		lp->iv_k[lp->niv] = c * cstep;
		lp->niv++;
	}
}

static bool only_steps(const struct cfg *g, uint32_t l, int reg, int dir, uint8_t *mark, bool unit, bool *w64)
{
	uint32_t any = 0, depth = g->blocks[g->loops[l].head].nloops;
	for (uint32_t bi = 0; bi < g->loops[l].size; bi++) {
		uint32_t b = g->loops[l].body[bi];
		for (uint32_t i = g->blocks[b].start; i < g->blocks[b].end; i++) {
			const struct bg_insn *in = &g->insns[i];
			if (!insn_defines(in, reg))
				continue;
			if (in->kind != BG_K_ALU || in->src_is_reg || in->imm == 0)
				return false;
			int64_t c = in->imm;
			if (in->op == BG_ALU_SUB)
				c = -c;
			else if (in->op != BG_ALU_ADD)
				return false;
			if ((dir > 0 && c <= 0) || (dir < 0 && c >= 0))
				return false;
			if (unit && ((c != 1 && c != -1) || any || g->blocks[b].nloops != depth))
				return false;
			if (w64)
				*w64 = in->alu64;
			mark[b] = 1;
			any++;
		}
	}
	return any > 0;
}

/* Does the instruction read register reg? */
static bool insn_reads(const struct bg_insn *in, int reg)
{
	bool d = in->dst == reg, s = in->src == reg;
	switch (in->kind) {
	case BG_K_ALU:
		return (d && in->op != BG_ALU_MOV) || (in->src_is_reg && s);
	case BG_K_END:
	case BG_K_ST:
		return d;
	case BG_K_ADDR_CAST:
	case BG_K_LDX:
		return s;
	case BG_K_STX:
		return d || s;
	case BG_K_ATOMIC:
		return d || s || reg == 0;
	case BG_K_JCOND:
		return d || (in->src_is_reg && s);
	case BG_K_CALL:
		return reg <= 5;
	case BG_K_CALLX:
		return d || reg <= 5;
	case BG_K_LD_ABS:
	case BG_K_LD_IND:
		return reg == 6 || (in->kind == BG_K_LD_IND && s);
	case BG_K_EXIT:
		return reg == 0;
	default:
		return false;
	}
}

/* Can block `to` be reached from loop l's head inside the loop (back edges
 * to the head not followed) without passing through block `avoid`? */
static bool reaches_avoiding(const struct cfg *g, uint32_t l, uint32_t to, uint32_t avoid, uint32_t *stack,
			     uint8_t *seen)
{
	uint32_t head = g->loops[l].head, sp = 0, nvis = 0;
	uint32_t *vis = stack + g->nblocks + 1;
	bool found = head == to && head != avoid;
	if (head == avoid || found)
		return found;
	stack[sp++] = head;
	seen[head] = 1;
	vis[nvis++] = head;
	while (sp && !found) {
		const struct cfg_block *bl = &g->blocks[stack[--sp]];
		for (uint32_t k = 0; k < bl->nsucc && !found; k++) {
			uint32_t s = bl->succ[k];
			if (s == head || s == avoid || !in_loop(g, s, l) || seen[s])
				continue;
			found = s == to;
			seen[s] = 1;
			vis[nvis++] = s;
			stack[sp++] = s;
		}
	}
	for (uint32_t i = 0; i < nvis; i++)
		seen[vis[i]] = 0;
	return found;
}

/* Counted loop l (test t at the end of block tb): is the counter's value at
 * the back edge a function of its value at the head alone (cfg_loop.cnt_accel)?
 * Its one write and the test sit in l itself (not in a nested loop, so each
 * runs once per iteration), every other instruction of the loop leaves it
 * unread except ALU ops reading it into another register (MOV excluded: a
 * copy is linked, and its test would refine the counter). */
static void counter_accel(struct cfg *g, uint32_t l, uint32_t tb, const struct bg_insn *t, uint32_t *stack,
			  uint8_t *seen)
{
	struct cfg_loop *lp = &g->loops[l];
	uint32_t depth = g->blocks[lp->head].nloops, sb = UINT32_MAX, step = 0, nw = 0;
	int reg = t->dst;
	lp->cnt_accel = false;
	if (g->blocks[tb].nloops != depth)
		return;
	for (uint32_t bi = 0; bi < lp->size; bi++) {
		uint32_t b = lp->body[bi];
		for (uint32_t i = g->blocks[b].start; i < g->blocks[b].end; i++) {
			const struct bg_insn *in = &g->insns[i];
			if (insn_defines(in, reg)) {
				if (in->kind != BG_K_ALU || g->blocks[b].nloops != depth)
					return;
				nw++;
				sb = b;
				step = i;
			} else if (in != t && insn_reads(in, reg) &&
				   (in->kind != BG_K_ALU || in->op == BG_ALU_MOV || in->dst == reg)) {
				return;
			}
		}
	}
	if (nw != 1)
		return;
	if (sb == tb)
		lp->cnt_step_first = true;
	else if (!reaches_avoiding(g, l, tb, sb, stack, seen))
		lp->cnt_step_first = true; /* every path to the test passes the step */
	else if (!reaches_avoiding(g, l, sb, tb, stack, seen))
		lp->cnt_step_first = false;
	else
		return;
	lp->cnt_step = step;
	lp->cnt_accel = true;
}

static bool loop_counted(struct cfg *g, uint32_t l, uint8_t *mark, uint32_t *stack, uint8_t *seen,
			 struct loop_dom *dom)
{
	bool dom_done = false;
	for (uint32_t bi = 0; bi < g->loops[l].size; bi++) {
		uint32_t b = g->loops[l].body[bi];
		const struct bg_insn *t = last_insn(g, b);
		if (t->kind != BG_K_JCOND)
			continue;
		/* a bound register: not the counter, never written in the loop */
		bool regb = t->src_is_reg;
		if (regb && (t->src == t->dst || loop_writes(g, l, t->src)))
			continue;
		if (!regb && (t->imm < -(1 << 30) || t->imm > (1 << 30)))
			continue;
		const struct cfg_block *bl = &g->blocks[b];
		if (bl->nsucc != 2)
			continue;
		bool stay_taken = in_loop(g, bl->succ[1], l) || bl->succ[1] == g->loops[l].head;
		bool stay_fall = in_loop(g, bl->succ[0], l) || bl->succ[0] == g->loops[l].head;
		if (stay_taken == stay_fall)
			continue;
		/* the relation that holds while the loop goes on */
		uint8_t op = t->op;
		if (!stay_taken) {
			switch (op) {
			case BG_JMP_JGT: op = BG_JMP_JLE; break;
			case BG_JMP_JGE: op = BG_JMP_JLT; break;
			case BG_JMP_JLT: op = BG_JMP_JGE; break;
			case BG_JMP_JLE: op = BG_JMP_JGT; break;
			case BG_JMP_JSGT: op = BG_JMP_JSLE; break;
			case BG_JMP_JSGE: op = BG_JMP_JSLT; break;
			case BG_JMP_JSLT: op = BG_JMP_JSGE; break;
			case BG_JMP_JSLE: op = BG_JMP_JSGT; break;
			case BG_JMP_JEQ: op = BG_JMP_JNE; break;
			case BG_JMP_JNE: op = BG_JMP_JEQ; break;
			default: continue;
			}
		}
		/* `r != K`: either direction, steps of exactly 1 */
		bool ne = op == BG_JMP_JNE && !regb;
		for (int dir = -1; dir <= 1; dir += 2) {
			if (!ne) {
				bool up = op == BG_JMP_JLT || op == BG_JMP_JLE || op == BG_JMP_JSLT || op == BG_JMP_JSLE;
				bool down = op == BG_JMP_JGT || op == BG_JMP_JGE || op == BG_JMP_JSGT || op == BG_JMP_JSGE;
				if ((dir > 0 && !up) || (dir < 0 && !down))
					continue;
				/* a bound register: strict tests only (r < b <= max: r + 1 does not wrap) */
				if (regb && op != BG_JMP_JLT && op != BG_JMP_JSLT && op != BG_JMP_JGT && op != BG_JMP_JSGT)
					continue;
			}
			bool unit = ne || regb, w64 = true;
			/* (mark is clear here: each try clears what it marked) */
			/* every iteration passes the test ... */
			if (!dom_done) {
				loop_dom(g, l, dom, stack);
				dom_done = true;
			}
			if (dom->back && !dom->every[b])
				continue;
			/* ... and every iteration steps the register towards the bound */
			bool ok = only_steps(g, l, t->dst, dir, mark, unit, &w64) && !latch_avoids(g, l, mark, stack, seen);
			for (uint32_t k = 0; k < g->loops[l].size; k++)
				mark[g->loops[l].body[k]] = 0;
			/* a 32-bit step wraps at 2^32: it may only meet a 32-bit test */
			if (ok && unit && !w64 && t->alu64)
				ok = false;
			if (!ok)
				continue;
			struct cfg_loop *lp = &g->loops[l];
			lp->cnt_check = ne;
			lp->cnt_ext = ne || regb;
			lp->cnt_w32 = !t->alu64;
			lp->cnt_dir = (int8_t)dir;
			lp->cnt_reg = t->dst;
			lp->cnt_insn = (uint32_t)(t - g->insns);
			lp->cnt_k = t->alu64 ? (uint64_t)(int64_t)t->imm : (uint64_t)(uint32_t)t->imm;
			lp->cnt_stay = stay_taken;
			lp->cnt_accel = false;
			if (!ne && !regb)
				counter_accel(g, l, b, t, stack, seen);
			/* lockstep registers need a counter stepped by exactly 1 once per iteration */
			bool w64c = w64;
			if ((unit || only_steps(g, l, t->dst, dir, mark, true, &w64c)) && w64c)
				find_ivs(g, l, dir, mark, stack, seen);
			for (uint32_t k = 0; k < g->loops[l].size; k++)
				mark[g->loops[l].body[k]] = 0;
			return true;
		}
	}
	return false;
}

int cfg_counted_loops(struct cfg *g)
{
	if (!g->nloops)
		return 0;
	uint8_t *mark = calloc(g->nblocks + 1, 1), *seen = calloc(g->nblocks + 1, 1);
	uint32_t *stack = malloc(2 * (g->nblocks + 1) * sizeof(*stack));
	struct loop_dom dom = {
		.rpo = malloc((g->nblocks + 1) * sizeof(uint32_t)),
		.idom = malloc((g->nblocks + 1) * sizeof(uint32_t)),
		.order = malloc((g->nblocks + 1) * sizeof(uint32_t)),
		.every = calloc(g->nblocks + 1, 1),
	};
	int err = mark && seen && stack && dom.rpo && dom.idom && dom.order && dom.every ? 0 : -ENOMEM;
	if (!err) {
		memset(dom.rpo, 0xff, (g->nblocks + 1) * sizeof(uint32_t));
		for (uint32_t l = 0; l < g->nloops; l++)
			g->loops[l].counted = g->loops[l].size <= 4096 &&
					      loop_counted(g, l, mark, stack, seen, &dom);
	}
	free(mark);
	free(seen);
	free(stack);
	free(dom.rpo);
	free(dom.idom);
	free(dom.order);
	free(dom.every);
	return err;
}
