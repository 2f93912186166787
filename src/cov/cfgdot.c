/* The control-flow graph of an instrumented program with its counts, as a
 * Graphviz dot graph: one node per basic block (slot range, first source
 * line, runs), filled from white (never run) to red (the hottest block);
 * one edge per control transfer, labelled with its count, its width
 * growing with the count (log scale), taken edges solid, fall-through
 * edges dashed. Counts are those of cov_derive (exact block and edge
 * counts). Names and source text are escaped for dot's quoted strings. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cov/cov_int.h"

static void dot_str(FILE *f, const char *s, size_t max)
{
	size_t n = 0;

	for (; s && *s && n < max; s++, n++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if (*s == '\t')
			fputc(' ', f);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
}

/* The last slot of the block led by b (the slot before the next leader). */
static size_t block_end(const struct bg_cov *c, size_t b)
{
	size_t e = b;

	while (e + 1 < c->n_old && c->block_of[e + 1] == b)
		e++;
	return e;
}

static void node(FILE *f, const struct bg_cov *c, size_t b, size_t e, uint64_t cnt, uint64_t max)
{
	const struct bg_line *l = NULL;
	double heat = max ? (double)cnt / (double)max : 0;

	for (size_t i = b; i <= e && !l; i++)
		if (c->line[i].file && c->line[i].line)
			l = &c->line[i];
	/* hue 0 (red), saturation 0.7 * heat: white when never run, text stays legible */
	fprintf(f, "  b%zu [label=\"insn %zu-%zu  runs %llu", b, b, e, (unsigned long long)cnt);
	if (l) {
		const char *base = strrchr(l->file, '/');

		fprintf(f, "\\n%s:%u: ", base ? base + 1 : l->file, l->line);
		dot_str(f, l->text ? l->text + strspn(l->text, " \t") : "", 48);
	}
	fprintf(f, "\", fillcolor=\"0.000 %.3f 1.000\"%s];\n", 0.7 * heat,
		cnt ? "" : ", fontcolor=gray40");
}

static void edge(FILE *f, size_t from, size_t to, uint64_t cnt, uint64_t max, bool taken)
{
	double w = max && cnt ? 1 + 5 * log((double)cnt + 1) / log((double)max + 1) : 0.5;

	fprintf(f, "  b%zu -> b%zu [label=\"%llu\", penwidth=%.2f%s];\n", from, to,
		(unsigned long long)cnt, w, taken ? "" : ", style=dashed");
}

int bg_cov__write_dot(const struct bg_cov *c, FILE *f)
{
	struct cov_counts cc;
	uint64_t max = 0;

	if (!c || !f)
		return -EINVAL;
	if (cov_derive(c, &cc) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < c->n_old; i++)
		max = cc.block[i] > max ? cc.block[i] : max;
	fprintf(f, "digraph \"");
	dot_str(f, c->prog_name, 128);
	fprintf(f, "\" {\n  node [shape=box, style=filled, fontname=monospace, fontsize=10];\n"
		   "  edge [fontname=monospace, fontsize=9];\n");
	for (size_t b = 0; b < c->n_old; b++) {
		size_t e;
		const struct bg_insn *t;

		if (c->block_of[b] != b)
			continue;
		e = block_end(c, b);
		t = &c->old[e];
		node(f, c, b, e, cc.block[b], max);
		if (t->kind == BG_K_JCOND) {
			edge(f, b, (size_t)t->target, cc.taken[e], max, true);
			if (e + 1 < c->n_old)
				edge(f, b, e + 1, cc.not_taken[e], max, false);
		} else if (t->kind == BG_K_JA) {
			if (t->target >= 0 && (size_t)t->target < c->n_old)
				edge(f, b, (size_t)t->target, cc.block[b], max, true);
		} else if (t->kind == BG_K_MAY_GOTO) { /* not counted: the split is unknown */
			if (t->target >= 0 && (size_t)t->target < c->n_old)
				fprintf(f, "  b%zu -> b%d [label=\"?\", style=dotted];\n", b,
					t->target);
			if (e + 1 < c->n_old)
				fprintf(f, "  b%zu -> b%zu [label=\"?\", style=dotted];\n", b,
					e + 1);
		} else if (t->kind != BG_K_EXIT && e + 1 < c->n_old) {
			edge(f, b, e + 1, cc.block[b], max, false);
		}
	}
	fprintf(f, "}\n");
	cov_counts_free(&cc);
	return ferror(f) ? -EIO : 0;
}
