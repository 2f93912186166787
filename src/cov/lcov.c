/* Counts to source: lcov tracefile and the branch profile.
 * A slot's execution count is its basic block's counter; a line's count is
 * the largest count of the slots attributed to it in one program (several
 * blocks can share a line), summed over programs (an inlined helper shows
 * the runs of every program that contains it). Lines that carry no code in
 * the line info are not reported: they are not "missed". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bg_json.h"
#include "cov/cov_int.h"

struct rec {
	const char *file;
	uint32_t line;
	int kind;               /* 0 line, 1 branch, 2 function */
	long block, branch;     /* branch: jump slot and 0 taken / 1 not taken */
	uint64_t count;
	bool executed;          /* branch: its block ran */
	const char *name;       /* function */
	size_t prog;
	size_t ord;             /* branch: k-th distinct jump of its line in its program */
};

struct recs {
	struct rec *r;
	size_t n, cap;
};

static int push(struct recs *v, struct rec r)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 256;
		struct rec *t = realloc(v->r, cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		v->r = t;
		v->cap = cap;
	}
	v->r[v->n++] = r;
	return 0;
}

/* The source line a conditional jump is reported on: its own, or for a
 * merged location (line 0) the last real line before it. */
static const struct bg_line *branch_line(const struct bg_cov *c, size_t i)
{
	while (i > 0 && c->line[i].file && !c->line[i].line)
		i--;
	return &c->line[i];
}

static int collect(const struct bg_cov *c, size_t prog, struct recs *v)
{
	struct cov_counts cc;
	uint64_t *bc;
	int err = cov_derive(c, &cc);
	const struct bg_line *last = NULL; /* last slot with a real line: owns branches on line 0 */

	if (err)
		return err;
	bc = cc.block;
	for (size_t i = 0; i < c->n_old && !err; i++) {
		const struct bg_line *l = &c->line[i];

		if (!l->file || c->old[i].kind == BG_K_LD_IMM64_HI)
			continue;
		if (l->line) {
			last = l;
			err = push(v, (struct rec){l->file, l->line, 0, 0, 0, bc[i], bc[i] > 0, NULL, prog});
		} else if (last) {
			l = last;
		} else {
			continue;
		}
		if (!err && c->old[i].kind == BG_K_JCOND) {
			err = push(v, (struct rec){l->file, l->line, 1, (long)i, 0,
						   cc.taken[i], bc[i] > 0, NULL, prog});
			err = err ?: push(v, (struct rec){l->file, l->line, 1, (long)i, 1,
							   cc.not_taken[i], bc[i] > 0, NULL, prog});
		}
	}
	for (size_t k = 0; k < c->nfn && !err; k++) {
		const struct bg_line *l = &c->line[c->fn[k].start];

		if (l->file)
			err = push(v, (struct rec){l->file, l->line, 2, 0, 0, bc[c->fn[k].start],
						   true, c->fn[k].name, prog});
	}
	cov_counts_free(&cc);
	return err;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->kind == 2)
		return strcmp(x->name, y->name);
	if (x->prog != y->prog)
		return x->prog < y->prog ? -1 : 1;
	if (x->block != y->block)
		return x->block < y->block ? -1 : 1;
	return (int)(x->branch - y->branch);
}

/* Number the distinct jumps of each (file, line, program) run of sorted
 * branch records: rec.ord = k for the k-th. */
static void number_branches(struct rec *r, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		const struct rec *q = &r[i - 1];

		if (r[i].kind != 1 || q->kind != 1 || q->line != r[i].line || q->prog != r[i].prog ||
		    strcmp(q->file, r[i].file))
			continue;
		r[i].ord = q->ord + (q->block != r[i].block);
	}
}

/* The branches of one source line. The k-th conditional jump of a line in
 * one program and the k-th in another are the same source branch (a helper
 * inlined into both, a subprogram both call): their counts are summed, as
 * line counts are, and the record's block number is k. */
static void write_line_branches(const struct rec *r, size_t n, FILE *f, size_t *brf, size_t *brh)
{
	size_t nk = 0;

	for (size_t i = 0; i < n; i++)
		nk = r[i].ord + 1 > nk ? r[i].ord + 1 : nk;
	for (size_t k = 0; k < nk; k++) {
		for (long br = 0; br < 2; br++) {
			uint64_t sum = 0;
			bool executed = false, any = false;

			for (size_t i = 0; i < n; i++) {
				if (r[i].ord != k || r[i].branch != br)
					continue;
				sum += r[i].count;
				executed |= r[i].executed;
				any = true;
			}
			if (!any)
				continue;
			fprintf(f, "BRDA:%u,%zu,%ld,", r[0].line, k, br);
			if (executed)
				fprintf(f, "%llu\n", (unsigned long long)sum);
			else
				fprintf(f, "-\n");
			(*brf)++;
			*brh += executed && sum > 0;
		}
	}
}

/* A name or path in a tracefile line: lcov has no escapes, so a control
 * byte (a newline would forge records) is written as '?'. */
static void put_name(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++)
		fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, f);
}

static void write_file(const struct rec *r, size_t n, FILE *f)
{
	size_t lf = 0, lh = 0, brf = 0, brh = 0, fnf = 0, fnh = 0;

	fputs("SF:", f);
	put_name(f, r[0].file);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++)
		if (r[i].kind == 2 && (i == 0 || r[i - 1].kind != 2 || strcmp(r[i - 1].name, r[i].name))) {
			fprintf(f, "FN:%u,", r[i].line);
			put_name(f, r[i].name);
			fputc('\n', f);
		}
	for (size_t i = 0; i < n;) {
		size_t j = i;
		uint64_t sum = 0;

		if (r[i].kind != 2) {
			i++;
			continue;
		}
		while (j < n && r[j].kind == 2 && !strcmp(r[j].name, r[i].name))
			sum += r[j++].count;
		fprintf(f, "FNDA:%llu,", (unsigned long long)sum);
		put_name(f, r[i].name);
		fputc('\n', f);
		fnf++;
		fnh += sum > 0;
		i = j;
	}
	fprintf(f, "FNF:%zu\nFNH:%zu\n", fnf, fnh);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		if (r[i].kind != 1) {
			i++;
			continue;
		}
		while (j < n && r[j].kind == 1 && r[j].line == r[i].line)
			j++;
		write_line_branches(r + i, j - i, f, &brf, &brh);
		i = j;
	}
	fprintf(f, "BRF:%zu\nBRH:%zu\n", brf, brh);
	for (size_t i = 0; i < n;) {
		uint64_t sum = 0;
		size_t j = i;

		if (r[i].kind != 0) {
			i++;
			continue;
		}
		/* max within a program, summed over programs */
		while (j < n && r[j].kind == 0 && r[j].line == r[i].line) {
			uint64_t mx = 0;
			size_t p = r[j].prog;

			while (j < n && r[j].kind == 0 && r[j].line == r[i].line && r[j].prog == p) {
				if (r[j].count > mx)
					mx = r[j].count;
				j++;
			}
			sum += mx;
		}
		fprintf(f, "DA:%u,%llu\n", r[i].line, (unsigned long long)sum);
		lf++;
		lh += sum > 0;
		i = j;
	}
	fprintf(f, "LF:%zu\nLH:%zu\nend_of_record\n", lf, lh);
}

int bg_cov__write_lcov(struct bg_cov *const *covs, size_t n, const char *test_name, FILE *f)
{
	struct recs v = {0};
	int err = 0;

	for (size_t i = 0; i < n && !err; i++)
		if (covs[i]) /* NULL: a program that could not be instrumented */
			err = collect(covs[i], i, &v);
	if (err) {
		free(v.r);
		return err;
	}
	qsort(v.r, v.n, sizeof(*v.r), rec_cmp);
	number_branches(v.r, v.n);
	fprintf(f, "TN:%s\n", test_name ? test_name : "");
	for (size_t i = 0; i < v.n;) {
		size_t j = i;

		while (j < v.n && !strcmp(v.r[j].file, v.r[i].file))
			j++;
		write_file(v.r + i, j - i, f);
		i = j;
	}
	free(v.r);
	return ferror(f) ? -EIO : 0;
}

/* The function (of the prepared program) holding slot i. */
static const char *func_of(const struct bg_cov *c, size_t i)
{
	const char *name = c->prog_name;

	for (size_t k = 0; k < c->nfn; k++)
		if (c->fn[k].start <= i)
			name = c->fn[k].name;
	return name;
}

static void profile_branches(const struct bg_cov *c, const struct cov_counts *cc, struct bg_json *j)
{
	for (size_t i = 0; i < c->n_old; i++) {
		const struct bg_line *l = branch_line(c, i);

		if (c->old[i].kind != BG_K_JCOND)
			continue;
		bg_json_obj_begin(j);
		bg_json_kstr(j, "kind", "branch");
		bg_json_kstr(j, "program", c->prog_name);
		bg_json_kstr(j, "func", func_of(c, i));
		bg_json_kuint(j, "insn", i);
		bg_json_kstr(j, "file", l->file);
		bg_json_kuint(j, "line", l->line);
		bg_json_kuint(j, "col", l->col);
		bg_json_kstr(j, "text", l->text ? l->text : "");
		bg_json_kuint(j, "taken", cc->taken[i]);
		bg_json_kuint(j, "not_taken", cc->not_taken[i]);
		bg_json_obj_end(j);
	}
}

static const struct bg_cov *sort_cov; /* qsort context (single-threaded report writing) */

static int slot_line_cmp(const void *a, const void *b)
{
	const struct bg_line *x = &sort_cov->line[*(const size_t *)a];
	const struct bg_line *y = &sort_cov->line[*(const size_t *)b];
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* One record per source line of the program: the largest block count of
 * the slots on it (what a sample profile calls the line's samples). */
static int profile_lines(const struct bg_cov *c, const struct cov_counts *cc, struct bg_json *j)
{
	size_t *ix = malloc((c->n_old ? c->n_old : 1) * sizeof(size_t)), n = 0;

	if (!ix)
		return -ENOMEM;
	for (size_t i = 0; i < c->n_old; i++)
		if (c->line[i].file && c->line[i].line && c->old[i].kind != BG_K_LD_IMM64_HI)
			ix[n++] = i;
	sort_cov = c;
	qsort(ix, n, sizeof(*ix), slot_line_cmp);
	for (size_t a = 0, b; a < n; a = b) {
		const struct bg_line *l = &c->line[ix[a]];
		uint64_t mx = 0;

		for (b = a; b < n && c->line[ix[b]].line == l->line && !strcmp(c->line[ix[b]].file, l->file); b++)
			if (cc->block[ix[b]] > mx)
				mx = cc->block[ix[b]];
		bg_json_obj_begin(j);
		bg_json_kstr(j, "kind", "line");
		bg_json_kstr(j, "program", c->prog_name);
		bg_json_kstr(j, "func", func_of(c, ix[a]));
		bg_json_kstr(j, "file", l->file);
		bg_json_kuint(j, "line", l->line);
		bg_json_kstr(j, "text", l->text ? l->text : "");
		bg_json_kuint(j, "count", mx);
		bg_json_obj_end(j);
	}
	free(ix);
	return 0;
}

int bg_cov__write_profile(struct bg_cov *const *covs, size_t n, FILE *f)
{
	struct bg_json j;
	int err;

	bg_json_init(&j, f, true);
	bg_json_arr_begin(&j);
	for (size_t p = 0; p < n; p++) {
		const struct bg_cov *c = covs[p];
		struct cov_counts cc;

		if (!c)
			continue;
		if (cov_derive(c, &cc) < 0)
			return -ENOMEM;
		profile_branches(c, &cc, &j);
		err = profile_lines(c, &cc, &j);
		cov_counts_free(&cc);
		if (err)
			return err;
	}
	bg_json_arr_end(&j);
	return ferror(f) ? -EIO : 0;
}
