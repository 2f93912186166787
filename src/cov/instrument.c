/* Coverage instrumentation by bytecode rewriting (see include/bpfgate/cov.h).
 * Layout of the new code, per original slot i:
 *   [block counter, when i starts a block that needs one]  <- old_to_new[i]
 *   original instruction i
 * and, at the end of each function, one trampoline per conditional jump:
 *   [taken counter] goto <original target>
 * the jump itself now targeting its trampoline. Jumps, local calls and
 * callback addresses are retargeted through old_to_new. Counters are placed
 * sparingly (plan()): a block with a single incoming edge from earlier code
 * takes that edge's count, a fall-through edge is its block minus the taken
 * count, so only function entries, join points and loop heads carry block
 * counters and each conditional jump one taken counter. A counter site is
 *   rA = map_value(counters) + 8*k ll ; rB = 1 ; lock *(u64 *)(rA + 0) += rB
 * with rA, rB dead there, or spilled around the site to two stack slots
 * below the function's deepest slot when fewer than two are dead. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cov/cov_int.h"

#define R(x) (1u << (x))
#define MAX_NEW_INSNS (1u << 20)

struct emitter {
	struct bg_raw_insn *code;
	size_t *owner;       /* per new slot: the original slot it belongs to */
	size_t cur;          /* the original slot being laid out */
	size_t n, cap;
	bool oom;
};

static void emit(struct emitter *e, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	if (e->n == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 1024;
		struct bg_raw_insn *c = cap <= MAX_NEW_INSNS ? realloc(e->code, cap * sizeof(*c)) : NULL;
		size_t *o = c ? realloc(e->owner, cap * sizeof(*o)) : NULL;

		if (c)
			e->code = c;
		if (!o) {
			e->oom = true;
			return;
		}
		e->owner = o;
		e->cap = cap;
	}
	e->owner[e->n] = e->cur;
	e->code[e->n++] = (struct bg_raw_insn){code, dst, src, off, imm};
}

enum {
	OP_LD_IMM64 = BG_CLS_LD | 0x18,          /* BPF_LD | BPF_DW | BPF_IMM */
	OP_MOV64_K = BG_CLS_ALU64 | BG_ALU_MOV,   /* BPF_K */
	OP_STX_DW = BG_CLS_STX | 0x18 | 0x60,     /* BPF_MEM */
	OP_LDX_DW = BG_CLS_LDX | 0x18 | 0x60,
	OP_XADD_DW = BG_CLS_STX | 0x18 | 0xc0,    /* BPF_ATOMIC, imm BPF_ADD */
	OP_JA = BG_CLS_JMP | BG_JMP_JA,
	OP_GOTOL = BG_CLS_JMP32 | BG_JMP_JA,
};

struct site_ctx {
	int map_idx;
	uint16_t live, init;
	int frame_min;               /* function's lowest stack offset used (<= 0) */
	size_t *spills;
};

static int pick(uint16_t set, int not)
{
	static const int order[] = {0, 1, 2, 3, 4, 5, 9, 8, 7, 6};

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		if ((set & R(order[k])) && order[k] != not)
			return order[k];
	return -1;
}

/* Emit the increment of counter k; returns 0 or -ENOSPC when no register can be had. */
static int emit_site(struct emitter *e, const struct site_ctx *s, size_t k)
{
	uint16_t dead = ~s->live & 0x3ff;
	int a = pick(dead, -1), b = pick(dead, a), slot = (s->frame_min - 16) & ~7;
	bool spill_a = false, spill_b = false;

	if (a < 0) {
		a = pick(s->init & 0x3ff, -1);
		spill_a = true;
	}
	if (b < 0) {
		b = pick(s->init & 0x3ff, a);
		spill_b = true;
	}
	if (a < 0 || b < 0 || ((spill_a || spill_b) && (s->frame_min > 0 || slot < -512)))
		return -ENOSPC;
	if (spill_a || spill_b)
		(*s->spills)++;
	if (spill_a)
		emit(e, OP_STX_DW, 10, a, slot, 0);
	if (spill_b)
		emit(e, OP_STX_DW, 10, b, slot + 8, 0);
	emit(e, OP_LD_IMM64, a, BG_PSEUDO_MAP_IDX_VALUE, 0, s->map_idx);
	emit(e, 0, 0, 0, 0, (int32_t)(8 * k));
	emit(e, OP_MOV64_K, b, 0, 0, 1);
	emit(e, OP_XADD_DW, a, b, 0, BG_ATOMIC_ADD);
	if (spill_a)
		emit(e, OP_LDX_DW, a, 10, slot, 0);
	if (spill_b)
		emit(e, OP_LDX_DW, b, 10, slot + 8, 0);
	return 0;
}

static int add_counter(struct bg_cov *c, enum bg_cov_kind kind, size_t insn)
{
	struct bg_cov_counter *t = realloc(c->ctr, (c->nctr + 1) * sizeof(*t));

	if (!t)
		return -ENOMEM;
	c->ctr = t;
	t[c->nctr] = (struct bg_cov_counter){kind, insn};
	return (int)c->nctr++;
}

struct rewrite {
	struct bg_cov *c;
	const struct bg_insn *in;
	size_t n;
	struct cov_flow f;
	struct emitter e;
	size_t *old_to_new;
	size_t *tramp;               /* per jcond slot: trampoline start, else 0 */
	size_t *orig_pos;            /* per old slot: where the instruction itself lands */
	char *err;
	size_t errsz;
};

static int site(struct rewrite *w, size_t fn, uint16_t live, uint16_t init, enum bg_cov_kind kind,
		size_t insn)
{
	size_t spills = w->c->spills;
	struct site_ctx s = {w->c->map_idx, live, init, w->f.frame_min[fn], &spills};
	int k = add_counter(w->c, kind, insn);

	if (k < 0)
		return k;
	if (emit_site(&w->e, &s, (size_t)k) < 0) {
		snprintf(w->err, w->errsz, "insn %zu: no scratch register and no free stack slot", insn);
		return -ENOSPC;
	}
	w->c->spills = spills;
	return 0;
}

static size_t func_end(const struct rewrite *w, size_t fn)
{
	return fn + 1 < w->f.nstarts ? w->f.starts[fn + 1] : w->n;
}

/* Which blocks need their own counter: function entries, blocks with several
 * incoming edges or an edge from later code (loop heads), and blocks entered
 * through may_goto; every other block derives its count (see derive.c). */
static int plan(struct rewrite *w)
{
	struct bg_cov *c = w->c;
	uint32_t *npred = calloc(w->n + 1, sizeof(uint32_t));
	struct cov_src *first = calloc(w->n + 1, sizeof(*first));
	size_t leader = 0;

	c->src = calloc(w->n + 1, sizeof(*c->src));
	c->taken_ctr = malloc((w->n + 1) * sizeof(int32_t));
	c->block_of = calloc(w->n + 1, sizeof(size_t));
	if (!npred || !first || !c->src || !c->taken_ctr || !c->block_of) {
		free(npred);
		free(first);
		return -ENOMEM;
	}
	for (size_t i = 0; i < w->n; i++) {
		const struct bg_insn *j = &w->in[i];
		size_t next = i + (j->slots ? j->slots : 1);
		bool fall = next < w->n && w->f.func_of[next] == w->f.func_of[i];

		c->taken_ctr[i] = -1;
		if (w->f.leader[i])
			leader = i;
		c->block_of[i] = leader;
		if (j->kind == BG_K_LD_IMM64_HI)
			continue;
		if (j->kind == BG_K_JCOND && j->target >= 0) {
			if (!npred[j->target]++)
				first[j->target] = (struct cov_src){VIA_TAKEN, -1, i};
			if (fall && !npred[next]++)
				first[next] = (struct cov_src){VIA_NOT_TAKEN, -1, i};
		} else if (j->kind == BG_K_MAY_GOTO && j->target >= 0) {
			npred[j->target] += 2; /* either edge: no single source */
			if (fall)
				npred[next] += 2;
		} else if (j->kind == BG_K_JA && j->target >= 0) {
			if (!npred[j->target]++)
				first[j->target] = (struct cov_src){VIA_BLOCK, -1, leader};
		} else if (j->kind != BG_K_EXIT && fall && w->f.leader[next]) {
			if (!npred[next]++)
				first[next] = (struct cov_src){VIA_BLOCK, -1, leader};
		}
	}
	for (size_t k = 0; k < w->f.nstarts; k++)
		npred[w->f.starts[k]] += 2; /* entered by calls */
	for (size_t i = 0; i < w->n; i++) {
		if (!w->f.leader[i])
			continue;
		if (npred[i] == 1 && first[i].from < i)
			c->src[i] = first[i];
		else
			c->src[i] = (struct cov_src){VIA_CTR, -1, 0};
	}
	free(npred);
	free(first);
	return 0;
}

/* First pass: lay out code and counters; jumps keep their old targets. */
static int layout(struct rewrite *w)
{
	for (size_t fn = 0; fn < w->f.nstarts; fn++) {
		size_t end = func_end(w, fn);

		for (size_t i = w->f.starts[fn]; i < end; i++) {
			const struct bg_insn *p = i ? &w->in[i - 1] : NULL;

			w->e.cur = i;
			if (w->in[i].kind == BG_K_LD_IMM64_HI) {
				w->old_to_new[i] = w->e.n;
				w->orig_pos[i] = w->e.n;
				emit(&w->e, w->c->prog ? 0 : 0, 0, 0, 0, 0); /* placeholder, copied below */
				continue;
			}
			(void)p;
			w->old_to_new[i] = w->e.n;
			if (w->c->src[i].via == VIA_CTR) {
				w->c->src[i].ctr = (int32_t)w->c->nctr;
				if (site(w, fn, w->f.live_in[i], w->f.init_in[i], BG_COV_BLOCK, i) < 0)
					return -ENOSPC;
			}
			w->orig_pos[i] = w->e.n;
			emit(&w->e, 0, 0, 0, 0, 0); /* the original, copied and fixed below */
		}
		for (size_t i = w->f.starts[fn]; i < end; i++) {
			const struct bg_insn *j = &w->in[i];

			if (j->kind != BG_K_JCOND || j->target < 0)
				continue;
			w->e.cur = i; /* a trampoline counts jump i's taken edge */
			w->tramp[i] = w->e.n;
			w->c->taken_ctr[i] = (int32_t)w->c->nctr;
			if (site(w, fn, w->f.live_in[j->target], w->f.init_out[i], BG_COV_TAKEN, i) < 0)
				return -ENOSPC;
			emit(&w->e, OP_JA, 0, 0, 0, (int32_t)j->target); /* fixed below */
		}
	}
	return w->e.oom ? -ENOMEM : 0;
}

static int set_offset(struct rewrite *w, size_t at, size_t to, bool may_long)
{
	long d = (long)to - (long)at - 1;
	struct bg_raw_insn *r = &w->e.code[at];

	if (d >= INT16_MIN && d <= INT16_MAX) {
		r->off = (int16_t)d;
		return 0;
	}
	if (may_long && (r->code == OP_JA || r->code == OP_GOTOL)) {
		r->code = OP_GOTOL;
		r->off = 0;
		r->imm = (int32_t)d;
		return 0;
	}
	snprintf(w->err, w->errsz, "jump at new insn %zu out of 16-bit range after instrumentation", at);
	return -E2BIG;
}

/* Second pass: copy originals, retarget jumps, calls and callback addresses. */
static int fixup(struct rewrite *w, const struct bg_raw_insn *raw)
{
	for (size_t i = 0; i < w->n; i++) {
		const struct bg_insn *j = &w->in[i];
		size_t at = w->orig_pos[i];
		int err = 0;

		w->e.code[at] = raw[i];
		if (j->kind == BG_K_LD_IMM64_HI)
			continue;
		if ((j->kind == BG_K_JA || j->kind == BG_K_MAY_GOTO) && j->target >= 0)
			err = set_offset(w, at, w->old_to_new[j->target], j->kind == BG_K_JA);
		else if (j->kind == BG_K_JCOND && j->target >= 0)
			err = set_offset(w, at, w->tramp[i], false);
		else if (j->kind == BG_K_CALL && j->pseudo == BG_CALL_LOCAL && j->target >= 0)
			w->e.code[at].imm = (int32_t)((long)w->old_to_new[j->target] - (long)at - 1);
		else if (j->kind == BG_K_LD_IMM64 && j->pseudo == BG_PSEUDO_FUNC)
			w->e.code[at].imm = (int32_t)((long)w->old_to_new[i + 1 + j->imm] - (long)at - 1);
		if (err)
			return err;
		if (j->kind == BG_K_JCOND && j->target >= 0) {
			size_t ja = w->tramp[i];

			while (w->e.code[ja].code != OP_JA || w->e.code[ja].imm != (int32_t)j->target)
				ja++;
			w->e.code[ja].imm = 0;
			err = set_offset(w, ja, w->old_to_new[j->target], true);
			if (err)
				return err;
		}
	}
	return 0;
}

static int snapshot(struct bg_cov *c, const struct bg_program *prog)
{
	size_t n;
	const struct bg_insn *in = bg_program__insns(prog, &n);

	c->n_old = n;
	c->old = malloc(n * sizeof(*c->old));
	c->line = calloc(n, sizeof(*c->line));
	c->prog_name = strdup(bg_program__name(prog));
	if (!c->old || !c->line || !c->prog_name)
		return -ENOMEM;
	memcpy(c->old, in, n * sizeof(*in));
	for (size_t i = 0; i < n; i++) {
		const struct bg_line *l = bg_program__line(prog, i);

		/* the strings are the object's, which outlives us; a slot without
		 * its own record belongs to the line before it (as in the kernel log);
		 * line 0 (a merged location) is kept: it counts for no line */
		if (l)
			c->line[i] = *l;
		else if (i)
			c->line[i] = c->line[i - 1];
	}
	return 0;
}

static int add_functions(struct bg_cov *c, const struct bg_program *prog, const struct cov_flow *f)
{
	c->fn = calloc(f->nstarts, sizeof(*c->fn));
	if (!c->fn)
		return -ENOMEM;
	for (size_t k = 0; k < f->nstarts; k++) {
		const char *name = k == 0 ? bg_program__name(prog) : NULL;

		for (size_t i = 0; i < bg_program__func_cnt(prog) && !name; i++)
			if (bg_program__func(prog, i)->insn == f->starts[k])
				name = bg_program__func(prog, i)->name;
		c->fn[k].start = f->starts[k];
		c->fn[k].name = strdup(name ? name : "subprog");
		c->nfn++;
	}
	return 0;
}

static int add_counters_map(struct bg_program *prog, size_t ncounters_hint)
{
	struct bg_map_def def = {.name = "bg_cov_counts", .type = 2 /* BPF_MAP_TYPE_ARRAY */,
				 .key_size = 4, .value_size = (uint32_t)(8 * ncounters_hint),
				 .max_entries = 1, .inner_map = -1};

	return bg_object__add_map((struct bg_object *)bg_program__object(prog), &def);
}

struct bg_cov *bg_cov__instrument(struct bg_program *prog, char *err, size_t errsz)
{
	struct bg_cov *c = calloc(1, sizeof(*c));
	struct rewrite w = {.c = c, .err = err, .errsz = errsz};
	const struct bg_raw_insn *raw;
	size_t n;
	int rc = -ENOMEM;

	if (!c)
		goto out;
	c->prog = prog;
	raw = bg_program__raw(prog, &n);
	w.in = bg_program__insns(prog, &n);
	w.n = n;
	w.old_to_new = calloc(n + 1, sizeof(size_t));
	w.orig_pos = calloc(n + 1, sizeof(size_t));
	w.tramp = calloc(n + 1, sizeof(size_t));
	if (!w.old_to_new || !w.orig_pos || !w.tramp || snapshot(c, prog) < 0 ||
	    cov_flow_build(w.in, n, &w.f) < 0 || add_functions(c, prog, &w.f) < 0)
		goto out;
	c->map_idx = add_counters_map(prog, 1);
	if (c->map_idx < 0)
		goto out;
	rc = plan(&w);
	if (!rc)
		rc = layout(&w);
	if (!rc)
		rc = fixup(&w, raw);
	if (!rc) {
		/* the map value holds exactly the counters */
		struct bg_map_def *m = (struct bg_map_def *)bg_object__map(bg_program__object(prog), c->map_idx);

		m->value_size = (uint32_t)(8 * c->nctr);
		c->counts = calloc(c->nctr, sizeof(uint64_t));
		rc = c->counts ? bg_program__set_insns(prog, w.e.code, w.e.n, w.old_to_new) : -ENOMEM;
		if (rc == -EINVAL)
			snprintf(err, errsz, "instrumented code does not decode");
	}
	c->n_new = w.e.n;
	if (!rc) {
		c->new_to_old = w.e.owner;
		w.e.owner = NULL;
	}
out:
	if (rc && err && !err[0])
		snprintf(err, errsz, "%s", rc == -ENOMEM ? "out of memory" : "cannot instrument");
	cov_flow_free(&w.f);
	free(w.old_to_new);
	free(w.orig_pos);
	free(w.tramp);
	free(w.e.code);
	free(w.e.owner);
	if (rc) {
		bg_cov__free(c);
		errno = -rc;
		return NULL;
	}
	return c;
}

void bg_cov__free(struct bg_cov *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nfn; i++)
		free(c->fn[i].name);
	free(c->fn);
	free(c->old);
	free(c->line);
	free(c->ctr);
	free(c->counts);
	free(c->prog_name);
	free(c->src);
	free(c->taken_ctr);
	free(c->block_of);
	free(c->new_to_old);
	free(c);
}

long bg_cov__orig_insn(const struct bg_cov *c, size_t insn)
{
	return c && c->new_to_old && insn < c->n_new ? (long)c->new_to_old[insn] : -1;
}

/* "insn N" (N of the instrumented program) -> "insn M" of the original, the
 * instrumented number kept in parentheses, so a message reads in the numbering
 * of `bpfgate disasm` and `check`. */
size_t bg_cov__message(const struct bg_cov *c, const char *msg, char *out, size_t sz)
{
	size_t o = 0;

	if (!sz)
		return 0;
	for (const char *p = msg ? msg : ""; *p && o + 1 < sz;) {
		char *end;
		unsigned long n;
		long m;

		if (!strncmp(p, "insn ", 5) && p[5] >= '0' && p[5] <= '9' &&
		    (n = strtoul(p + 5, &end, 10), (m = bg_cov__orig_insn(c, n)) >= 0)) {
			int k = snprintf(out + o, sz - o, "insn %ld (instrumented %lu)", m, n);
			if (k < 0 || (size_t)k >= sz - o)
				break;
			o += (size_t)k;
			p = end;
			continue;
		}
		out[o++] = *p++;
	}
	out[o] = 0;
	return o;
}

int bg_cov__map_index(const struct bg_cov *c) { return c ? c->map_idx : -EINVAL; }
size_t bg_cov__counter_cnt(const struct bg_cov *c) { return c ? c->nctr : 0; }
size_t bg_cov__insns_before(const struct bg_cov *c) { return c ? c->n_old : 0; }
size_t bg_cov__insns_after(const struct bg_cov *c) { return c ? c->n_new : 0; }
size_t bg_cov__spills(const struct bg_cov *c) { return c ? c->spills : 0; }
const struct bg_program *bg_cov__program(const struct bg_cov *c) { return c ? c->prog : NULL; }
const uint64_t *bg_cov__counts(const struct bg_cov *c) { return c ? c->counts : NULL; }

const struct bg_cov_counter *bg_cov__counter(const struct bg_cov *c, size_t i)
{
	return c && i < c->nctr ? &c->ctr[i] : NULL;
}

void bg_cov__add(struct bg_cov *c, const uint64_t *vals)
{
	for (size_t i = 0; c && vals && i < c->nctr; i++)
		c->counts[i] += vals[i];
}
