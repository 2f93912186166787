/* bpfgate cov report / show / html / merge: lcov tracefiles in, text out.
 * The tracefile model is small: per source file its line counts (DA), branch
 * counts (BRDA, "-" for a branch whose block never ran) and functions
 * (FN/FNDA). Merging sums counts with the same key. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "bg_json.h"
#include "cov_cli.h"
#include "cov_cfg.h"

struct tline { unsigned line; unsigned long long count; };
struct tbr { unsigned line; long block, branch; long long count; /* -1: not executed */ };
struct tfn { char *name; unsigned line; unsigned long long count; };
struct tfile {
	char *path;
	struct tline *l; size_t nl;
	struct tbr *b; size_t nb;
	struct tfn *f; size_t nf;
};
struct trace { struct tfile *files; size_t n; };

#define GROW(arr, n) ((arr) = realloc((arr), ((n) + 1) * sizeof(*(arr))))

static struct tfile *file_of(struct trace *t, const char *path)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->files[i].path, path))
			return &t->files[i];
	if (!GROW(t->files, t->n))
		return NULL;
	memset(&t->files[t->n], 0, sizeof(t->files[0]));
	t->files[t->n].path = strdup(path);
	return &t->files[t->n++];
}

static void add_line(struct tfile *f, unsigned line, unsigned long long c)
{
	for (size_t i = 0; i < f->nl; i++)
		if (f->l[i].line == line) {
			f->l[i].count += c;
			return;
		}
	if (GROW(f->l, f->nl))
		f->l[f->nl++] = (struct tline){line, c};
}

static void add_branch(struct tfile *f, unsigned line, long block, long br, long long c)
{
	for (size_t i = 0; i < f->nb; i++) {
		struct tbr *b = &f->b[i];

		if (b->line == line && b->block == block && b->branch == br) {
			if (c >= 0)
				b->count = (b->count < 0 ? 0 : b->count) + c;
			return;
		}
	}
	if (GROW(f->b, f->nb))
		f->b[f->nb++] = (struct tbr){line, block, br, c};
}

static struct tfn *fn_of(struct tfile *f, const char *name)
{
	for (size_t i = 0; i < f->nf; i++)
		if (!strcmp(f->f[i].name, name))
			return &f->f[i];
	if (!GROW(f->f, f->nf))
		return NULL;
	f->f[f->nf] = (struct tfn){strdup(name), 0, 0};
	return &f->f[f->nf++];
}

static int parse_line(struct trace *t, struct tfile **cur, char *s)
{
	unsigned line;
	unsigned long long c;
	long block, br;
	char cnt[32], name[512];

	if (!strncmp(s, "SF:", 3)) {
		*cur = file_of(t, s + 3);
		return *cur ? 0 : -ENOMEM;
	}
	if (!strcmp(s, "end_of_record")) {
		*cur = NULL;
		return 0;
	}
	if (!*cur)
		return strncmp(s, "TN:", 3) && *s ? -EINVAL : 0;
	if (sscanf(s, "DA:%u,%llu", &line, &c) == 2)
		add_line(*cur, line, c);
	else if (sscanf(s, "BRDA:%u,%ld,%ld,%31s", &line, &block, &br, cnt) == 4)
		add_branch(*cur, line, block, br, cnt[0] == '-' ? -1 : atoll(cnt));
	else if (sscanf(s, "FN:%u,%511s", &line, name) == 2) {
		struct tfn *fn = fn_of(*cur, name);

		if (fn)
			fn->line = line;
	} else if (sscanf(s, "FNDA:%llu,%511s", &c, name) == 2) {
		struct tfn *fn = fn_of(*cur, name);

		if (fn)
			fn->count += c;
	} else if (strncmp(s, "LF:", 3) && strncmp(s, "LH:", 3) && strncmp(s, "BRF:", 4) &&
		   strncmp(s, "BRH:", 4) && strncmp(s, "FNF:", 4) && strncmp(s, "FNH:", 4) &&
		   strncmp(s, "TN:", 3)) {
		return -EINVAL;
	}
	return 0;
}

static int load(struct trace *t, const char *path)
{
	FILE *f = fopen(path, "r");
	struct tfile *cur = NULL;
	char buf[4096];
	int lineno = 0;

	if (!f)
		return cli_error("cov", "%s: %s", path, strerror(errno));
	while (fgets(buf, sizeof(buf), f)) {
		lineno++;
		buf[strcspn(buf, "\r\n")] = 0;
		if (parse_line(t, &cur, buf) < 0) {
			fclose(f);
			return cli_error("cov", "%s:%d: not an lcov tracefile record: '%.60s'", path, lineno, buf);
		}
	}
	fclose(f);
	return 0;
}

static void trace_free(struct trace *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct tfile *f = &t->files[i];

		for (size_t k = 0; k < f->nf; k++)
			free(f->f[k].name);
		free(f->path);
		free(f->l);
		free(f->b);
		free(f->f);
	}
	free(t->files);
}

static int cmp_line(const void *a, const void *b)
{
	const struct tline *x = a, *y = b;

	return (x->line > y->line) - (x->line < y->line);
}

static int cmp_fn(const void *a, const void *b)
{
	const struct tfn *x = a, *y = b;

	return (x->line > y->line) - (x->line < y->line);
}

static void sort_trace(struct trace *t)
{
	for (size_t i = 0; i < t->n; i++) {
		if (t->files[i].nl)
			qsort(t->files[i].l, t->files[i].nl, sizeof(struct tline), cmp_line);
		if (t->files[i].nf)
			qsort(t->files[i].f, t->files[i].nf, sizeof(struct tfn), cmp_fn);
	}
}

static int load_all(struct trace *t, int argc, char **argv, int first, const char **out, const char **srcdir, int *json)
{
	int n = 0;

	for (int i = first; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc && out)
			*out = argv[++i];
		else if (!strcmp(argv[i], "--source-dir") && i + 1 < argc && srcdir)
			*srcdir = argv[++i];
		else if (!strcmp(argv[i], "--json") && json)
			*json = 1;
		else if (argv[i][0] == '-')
			return cli_error("cov", "unknown option '%s'", argv[i]);
		else if (load(t, argv[i]))
			return EXIT_BAD;
		else
			n++;
	}
	if (!n)
		return cli_error("cov", "no tracefile given");
	sort_trace(t);
	return 0;
}

/* Counts of lines / branches of f in [lo, hi]. */
static void tally(const struct tfile *f, unsigned lo, unsigned hi, size_t *lf, size_t *lh, size_t *bf, size_t *bh)
{
	*lf = *lh = *bf = *bh = 0;
	for (size_t i = 0; i < f->nl; i++)
		if (f->l[i].line >= lo && f->l[i].line <= hi) {
			(*lf)++;
			*lh += f->l[i].count > 0;
		}
	for (size_t i = 0; i < f->nb; i++)
		if (f->b[i].line >= lo && f->b[i].line <= hi) {
			(*bf)++;
			*bh += f->b[i].count > 0;
		}
}

static double pct(size_t a, size_t b) { return b ? 100.0 * (double)a / (double)b : 100.0; }

int cov_cmd_report(int argc, char **argv)
{
	struct trace t = {0};
	int json = 0, rc = load_all(&t, argc, argv, 1, NULL, NULL, &json);
	struct bg_json j;

	if (rc)
		return rc;
	if (json) {
		bg_json_init(&j, stdout, true);
		bg_json_arr_begin(&j);
	}
	for (size_t i = 0; i < t.n; i++) {
		const struct tfile *f = &t.files[i];
		size_t lf, lh, bf, bh;

		tally(f, 0, ~0u, &lf, &lh, &bf, &bh);
		if (json) {
			bg_json_obj_begin(&j);
			bg_json_kstr(&j, "file", f->path);
			bg_json_kuint(&j, "lines", lf);
			bg_json_kuint(&j, "lines_hit", lh);
			bg_json_kuint(&j, "branches", bf);
			bg_json_kuint(&j, "branches_hit", bh);
			bg_json_key(&j, "functions");
			bg_json_arr_begin(&j);
		} else {
			printf("%s: lines %zu/%zu (%.1f%%), branches %zu/%zu (%.1f%%)\n", cli_safe(f->path), lh, lf,
			       pct(lh, lf), bh, bf, pct(bh, bf));
		}
		for (size_t k = 0; k < f->nf; k++) {
			unsigned hi = k + 1 < f->nf ? f->f[k + 1].line - 1 : ~0u;

			tally(f, f->f[k].line, hi, &lf, &lh, &bf, &bh);
			if (json) {
				bg_json_obj_begin(&j);
				bg_json_kstr(&j, "function", f->f[k].name);
				bg_json_kuint(&j, "calls", f->f[k].count);
				bg_json_kuint(&j, "lines", lf);
				bg_json_kuint(&j, "lines_hit", lh);
				bg_json_kuint(&j, "branches", bf);
				bg_json_kuint(&j, "branches_hit", bh);
				bg_json_obj_end(&j);
			} else {
				printf("  %-28s entered %llu: lines %zu/%zu (%.1f%%), branches %zu/%zu (%.1f%%)\n",
				       cli_safe(f->f[k].name), f->f[k].count, lh, lf, pct(lh, lf), bh, bf, pct(bh, bf));
			}
		}
		if (json) {
			bg_json_arr_end(&j);
			bg_json_obj_end(&j);
		}
	}
	if (json)
		bg_json_arr_end(&j);
	trace_free(&t);
	return EXIT_OK;
}

/* A line that holds code a compiler could have dropped (not a comment,
 * blank, brace or declaration-only line). */
static int looks_like_code(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	if (!*s || !strncmp(s, "//", 2) || !strncmp(s, "/*", 2) || *s == '*' || *s == '#' ||
	    *s == '{' || *s == '}')
		return 0;
	return strchr(s, ';') || !strncmp(s, "if", 2) || !strncmp(s, "for", 3) ||
	       !strncmp(s, "while", 5) || !strncmp(s, "switch", 6);
}

static FILE *open_source(const char *path, const char *srcdir)
{
	char buf[4096];
	const char *base = strrchr(path, '/');
	FILE *f = fopen(path, "r");

	if (f || !srcdir)
		return f;
	snprintf(buf, sizeof(buf), "%s/%s", srcdir, path);
	if ((f = fopen(buf, "r")))
		return f;
	snprintf(buf, sizeof(buf), "%s/%s", srcdir, base ? base + 1 : path);
	return fopen(buf, "r");
}

static void show_file(const struct tfile *f, const char *srcdir)
{
	FILE *src = open_source(f->path, srcdir);
	char text[4096];
	unsigned n = 0, lo = f->nl ? f->l[0].line : 0, hi = f->nl ? f->l[f->nl - 1].line : 0;
	size_t li = 0;

	printf("%s\n", cli_safe(f->path));
	if (!src) {
		printf("  (source not found: %s; --source-dir DIR)\n", strerror(errno));
		return;
	}
	while (fgets(text, sizeof(text), src)) {
		char margin[32] = "";

		n++;
		text[strcspn(text, "\n")] = 0;
		while (li < f->nl && f->l[li].line < n)
			li++;
		if (li < f->nl && f->l[li].line == n)
			snprintf(margin, sizeof(margin), "%s",
				 f->l[li].count ? "" : "#####");
		if (li < f->nl && f->l[li].line == n && f->l[li].count)
			snprintf(margin, sizeof(margin), "%llu", f->l[li].count);
		else if (!margin[0] && n > lo && n < hi && looks_like_code(text))
			snprintf(margin, sizeof(margin), "(opt)");
		else if (!margin[0])
			snprintf(margin, sizeof(margin), "-");
		printf("%10s:%5u: %s\n", margin, n, cli_safe_src(text));
		for (size_t b = 0; b < f->nb; b++)
			if (f->b[b].line == n && f->b[b].branch == 0)
				for (size_t c = 0; c < f->nb; c++)
					if (f->b[c].line == n && f->b[c].block == f->b[b].block && f->b[c].branch == 1) {
						if (f->b[b].count < 0)
							printf("%10s        branch (insn %ld) never reached\n", "", f->b[b].block);
						else
							printf("%10s        branch (insn %ld) taken %lld, not taken %lld\n", "",
							       f->b[b].block, f->b[b].count, f->b[c].count);
					}
	}
	fclose(src);
}

int cov_cmd_show(int argc, char **argv)
{
	struct trace t = {0};
	const char *srcdir = NULL;
	int rc = load_all(&t, argc, argv, 1, NULL, &srcdir, NULL);

	if (rc)
		return rc;
	printf("legend: count = times run, ##### = never run, (opt) = code the compiler left no "
	       "instructions for, - = no code\n");
	for (size_t i = 0; i < t.n; i++)
		show_file(&t.files[i], srcdir);
	trace_free(&t);
	return EXIT_OK;
}

static void write_trace(const struct trace *t, FILE *o)
{
	fprintf(o, "TN:bpfgate\n");
	for (size_t i = 0; i < t->n; i++) {
		const struct tfile *f = &t->files[i];
		size_t lf, lh, bf, bh, fh = 0;

		tally(f, 0, ~0u, &lf, &lh, &bf, &bh);
		fprintf(o, "SF:%s\n", f->path);
		for (size_t k = 0; k < f->nf; k++)
			fprintf(o, "FN:%u,%s\n", f->f[k].line, f->f[k].name);
		for (size_t k = 0; k < f->nf; k++) {
			fprintf(o, "FNDA:%llu,%s\n", f->f[k].count, f->f[k].name);
			fh += f->f[k].count > 0;
		}
		fprintf(o, "FNF:%zu\nFNH:%zu\n", f->nf, fh);
		for (size_t k = 0; k < f->nb; k++) {
			fprintf(o, "BRDA:%u,%ld,%ld,", f->b[k].line, f->b[k].block, f->b[k].branch);
			if (f->b[k].count < 0)
				fprintf(o, "-\n");
			else
				fprintf(o, "%lld\n", f->b[k].count);
		}
		fprintf(o, "BRF:%zu\nBRH:%zu\n", bf, bh);
		for (size_t k = 0; k < f->nl; k++)
			fprintf(o, "DA:%u,%llu\n", f->l[k].line, f->l[k].count);
		fprintf(o, "LF:%zu\nLH:%zu\nend_of_record\n", lf, lh);
	}
}

int cov_cmd_merge(int argc, char **argv)
{
	struct trace t = {0};
	const char *out = NULL;
	int rc = load_all(&t, argc, argv, 1, &out, NULL, NULL);
	FILE *o;

	if (rc)
		return rc;
	if (!out) {
		trace_free(&t);
		return cli_error("cov", "merge: -o OUT is required");
	}
	o = fopen(out, "w");
	if (!o) {
		trace_free(&t);
		return cli_error("cov", "%s: %s", out, strerror(errno));
	}
	write_trace(&t, o);
	fclose(o);
	trace_free(&t);
	return EXIT_OK;
}

int cov_cmd_html(int argc, char **argv)
{
	const char *out = NULL, *info = NULL, *cfg = NULL;
	pid_t pid;
	int st;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--cfg") && i + 1 < argc)
			cfg = argv[++i];
		else if (argv[i][0] != '-' && !info)
			info = argv[i];
		else
			return cli_error("cov", "html: unexpected argument '%s'", argv[i]);
	}
	if (!out || !info)
		return cli_error("cov", "html: usage: bpfgate cov html INFO -o DIR [--cfg CFGDIR]");
	if (access(info, R_OK))
		return cli_error("cov", "html: %s: %s", info, strerror(errno));
	pid = fork();
	if (pid == 0) {
		execlp("genhtml", "genhtml", "--quiet", "--branch-coverage", "--function-coverage",
		       "--legend", "--title", "bpfgate coverage", "-o", out, info, (char *)NULL);
		fprintf(stderr, "bpfgate cov: genhtml: %s (the lcov package provides it)\n", strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		return cli_error("cov", "html: genhtml failed");
	if (cfg && cov_cfg_link(out, cfg))
		return EXIT_BAD;
	printf("wrote %s/index.html%s\n", cli_safe(out), cfg ? " (CFG view: cfg/index.html)" : "");
	return EXIT_OK;
}
