/* The data flow facts coverage instrumentation needs: basic-block leaders,
 * function (subprogram) ranges, backward register liveness (to find dead
 * scratch registers), forward must-initialization (which registers may be
 * spilled: storing an uninitialized register is rejected by the kernel) and
 * each function's deepest stack slot. Iterative bit-vector data flow over
 * slots: O(n * iterations), iterations bounded by loop nesting + 2. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cov/cov_int.h"

#define R(x) (1u << (x))
#define ARGS (R(1) | R(2) | R(3) | R(4) | R(5))

static bool is_jump(const struct bg_insn *i)
{
	return i->kind == BG_K_JA || i->kind == BG_K_JCOND || i->kind == BG_K_MAY_GOTO;
}

/* Registers an instruction reads (use) and writes (def). An exit reads only
 * r0, in subprograms too: r6-r9 belong to each call frame (the kernel's
 * verifier and interpreter keep the caller's, its JITs save the ones a
 * function writes, LLVM's BPF backend saves none), so a subprogram may use
 * them as scratch without restoring them. */
static void use_def(const struct bg_insn *i, uint16_t *use, uint16_t *def)
{
	uint16_t u = 0, d = 0;

	switch (i->kind) {
	case BG_K_ALU:
		d = R(i->dst);
		if (i->op != BG_ALU_MOV)
			u |= R(i->dst);
		if (i->src_is_reg)
			u |= R(i->src);
		break;
	case BG_K_END: u = d = R(i->dst); break;
	case BG_K_ADDR_CAST: u = R(i->src); d = R(i->dst); break;
	case BG_K_LD_IMM64: d = R(i->dst); break;
	case BG_K_LD_ABS: u = R(6); d = R(0) | ARGS; break;
	case BG_K_LD_IND: u = R(6) | R(i->src); d = R(0) | ARGS; break;
	case BG_K_LDX: u = R(i->src); d = R(i->dst); break;
	case BG_K_ST: u = R(i->dst); break;
	case BG_K_STX: u = R(i->dst) | R(i->src); break;
	case BG_K_ATOMIC:
		u = R(i->dst) | R(i->src);
		if (i->atomic_op == BG_ATOMIC_LOAD_ACQ) {
			u = R(i->src);
			d = R(i->dst);
		} else if (i->atomic_op == BG_ATOMIC_CMPXCHG) {
			u |= R(0);
			d = R(0);
		} else if (i->atomic_op & BG_ATOMIC_FETCH) {
			d = R(i->src);
		}
		break;
	case BG_K_JCOND: u = R(i->dst) | (i->src_is_reg ? R(i->src) : 0); break;
	case BG_K_CALL: u = ARGS; d = R(0) | ARGS; break;
	case BG_K_CALLX: u = ARGS | R(i->dst); d = R(0) | ARGS; break;
	case BG_K_EXIT: u = R(0); break;
	default: break;
	}
	*use = u & 0x7ff;
	*def = d & 0x7ff;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

static int find_functions(const struct bg_insn *in, size_t n, struct cov_flow *f)
{
	size_t cap = 8, k = 0;

	f->starts = malloc(cap * sizeof(size_t));
	if (!f->starts)
		return -ENOMEM;
	f->starts[k++] = 0;
	for (size_t i = 0; i < n; i++) {
		int32_t t = -1;

		if (in[i].kind == BG_K_CALL && in[i].pseudo == BG_CALL_LOCAL)
			t = in[i].target;
		else if (in[i].kind == BG_K_LD_IMM64 && in[i].pseudo == BG_PSEUDO_FUNC)
			t = (int32_t)(i + 1 + in[i].imm);
		if (t <= 0 || (size_t)t >= n)
			continue;
		if (k == cap) {
			size_t *s = realloc(f->starts, (cap *= 2) * sizeof(size_t));

			if (!s)
				return -ENOMEM;
			f->starts = s;
		}
		f->starts[k++] = (size_t)t;
	}
	qsort(f->starts, k, sizeof(size_t), cmp_size);
	f->nstarts = 0;
	for (size_t i = 0; i < k; i++)
		if (!f->nstarts || f->starts[f->nstarts - 1] != f->starts[i])
			f->starts[f->nstarts++] = f->starts[i];
	for (size_t i = 0, fn = 0; i < n; i++) {
		while (fn + 1 < f->nstarts && f->starts[fn + 1] <= i)
			fn++;
		f->func_of[i] = (int32_t)fn;
	}
	return 0;
}

static void find_leaders(const struct bg_insn *in, size_t n, struct cov_flow *f)
{
	for (size_t k = 0; k < f->nstarts; k++)
		f->leader[f->starts[k]] = true;
	for (size_t i = 0; i < n; i++) {
		if (in[i].kind == BG_K_LD_IMM64_HI)
			continue;
		if (is_jump(&in[i]) && in[i].target >= 0 && (size_t)in[i].target < n)
			f->leader[in[i].target] = true;
		if ((is_jump(&in[i]) || in[i].kind == BG_K_EXIT) && i + in[i].slots < n)
			f->leader[i + in[i].slots] = true;
	}
}

static void liveness(const struct bg_insn *in, size_t n, struct cov_flow *f)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (size_t j = n; j-- > 0;) {
			const struct bg_insn *i = &in[j];
			uint16_t use, def, out = 0, li;

			if (i->kind == BG_K_LD_IMM64_HI)
				continue;
			use_def(i, &use, &def);
			if (i->kind != BG_K_JA && i->kind != BG_K_EXIT && j + i->slots < n)
				out |= f->live_in[j + i->slots];
			if (is_jump(i) && i->target >= 0 && (size_t)i->target < n)
				out |= f->live_in[i->target];
			li = use | (out & ~def);
			if (li != f->live_in[j]) {
				f->live_in[j] = li;
				changed = true;
			}
		}
	}
}

static uint16_t init_after(const struct bg_insn *i, uint16_t in_set)
{
	uint16_t use, def;

	use_def(i, &use, &def);
	if (i->kind == BG_K_CALL || i->kind == BG_K_CALLX || i->kind == BG_K_LD_ABS ||
	    i->kind == BG_K_LD_IND)
		return (in_set & ~ARGS) | R(0); /* the kernel marks r1-r5 unreadable after calls */
	return in_set | def;
}

static void must_init(const struct bg_insn *in, size_t n, struct cov_flow *f)
{
	bool changed = true;

	for (size_t j = 0; j < n; j++)
		f->init_in[j] = 0x7ff;
	for (size_t k = 0; k < f->nstarts; k++)
		f->init_in[f->starts[k]] = R(10) | (f->starts[k] == 0 ? R(1) : 0);
	while (changed) {
		changed = false;
		for (size_t j = 0; j < n; j++) {
			const struct bg_insn *i = &in[j];
			uint16_t out;

			if (i->kind == BG_K_LD_IMM64_HI)
				continue;
			out = init_after(i, f->init_in[j]);
			if (out != f->init_out[j]) {
				f->init_out[j] = out;
				changed = true;
			}
			if (i->kind != BG_K_JA && i->kind != BG_K_EXIT && j + i->slots < n &&
			    !(f->leader[j + i->slots] && f->func_of[j + i->slots] != f->func_of[j])) {
				uint16_t m = f->init_in[j + i->slots] & out;

				if (m != f->init_in[j + i->slots]) {
					f->init_in[j + i->slots] = m;
					changed = true;
				}
			}
			if (is_jump(i) && i->target >= 0 && (size_t)i->target < n) {
				uint16_t m = f->init_in[i->target] & out;

				if (m != f->init_in[i->target]) {
					f->init_in[i->target] = m;
					changed = true;
				}
			}
		}
	}
}

/* Lowest r10-relative offset each function touches (1 when unknowable). */
static void frames(const struct bg_insn *in, size_t n, struct cov_flow *f)
{
	int cur = -1;
	int copy[11];

	for (size_t j = 0; j < n; j++) {
		const struct bg_insn *i = &in[j];
		int fn = f->func_of[j];

		if (fn != cur) {
			cur = fn;
			f->frame_min[fn] = 0;
			for (int r = 0; r < 11; r++)
				copy[r] = r == 10 ? 0 : 1;
		}
		if (f->leader[j]) /* copies are only trusted within a block */
			for (int r = 0; r < 10; r++)
				copy[r] = 1;
		switch (i->kind) {
		case BG_K_LDX:
			if (copy[i->src] <= 0 && copy[i->src] + i->off < f->frame_min[fn])
				f->frame_min[fn] = copy[i->src] + i->off;
			break;
		case BG_K_ST:
		case BG_K_STX:
		case BG_K_ATOMIC:
			if (copy[i->dst] <= 0 && copy[i->dst] + i->off < f->frame_min[fn])
				f->frame_min[fn] = copy[i->dst] + i->off;
			break;
		default:
			break;
		}
		if (i->kind == BG_K_ALU && i->alu64 && i->op == BG_ALU_MOV && i->src_is_reg && i->dst != 10) {
			copy[i->dst] = copy[i->src];
		} else if (i->kind == BG_K_ALU && i->alu64 && i->op == BG_ALU_ADD && !i->src_is_reg &&
			   copy[i->dst] <= 0) {
			copy[i->dst] += i->imm;
			if (copy[i->dst] < f->frame_min[fn])
				f->frame_min[fn] = copy[i->dst] < -512 ? -512 : copy[i->dst];
			if (copy[i->dst] > 0)
				copy[i->dst] = 1;
		} else {
			uint16_t use, def;

			use_def(i, &use, &def);
			for (int r = 0; r < 10; r++)
				if (def & R(r)) {
					/* a stack pointer escaping into an unknown computation */
					if (i->kind == BG_K_ALU && i->dst == r && copy[r] <= 0)
						f->frame_min[fn] = -512;
					copy[r] = 1;
				}
		}
	}
}

int cov_flow_build(const struct bg_insn *in, size_t n, struct cov_flow *f)
{
	memset(f, 0, sizeof(*f));
	f->live_in = calloc(n, sizeof(uint16_t));
	f->init_in = calloc(n, sizeof(uint16_t));
	f->init_out = calloc(n, sizeof(uint16_t));
	f->leader = calloc(n, sizeof(bool));
	f->func_of = calloc(n, sizeof(int32_t));
	if (!f->live_in || !f->init_in || !f->init_out || !f->leader || !f->func_of ||
	    find_functions(in, n, f) < 0) {
		cov_flow_free(f);
		return -ENOMEM;
	}
	f->frame_min = calloc(f->nstarts, sizeof(int));
	if (!f->frame_min) {
		cov_flow_free(f);
		return -ENOMEM;
	}
	find_leaders(in, n, f);
	liveness(in, n, f);
	must_init(in, n, f);
	frames(in, n, f);
	return 0;
}

void cov_flow_free(struct cov_flow *f)
{
	free(f->live_in);
	free(f->init_in);
	free(f->init_out);
	free(f->leader);
	free(f->func_of);
	free(f->starts);
	free(f->frame_min);
	memset(f, 0, sizeof(*f));
}
