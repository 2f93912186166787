/* bpfgate cc --profile: the branch profile of `bpfgate cov run --profile`
 * (a JSON array of flat "branch" and "line" records, src/cov/lcov.c) as an
 * LLVM sample profile (text format read by -fprofile-sample-use):
 *
 *     function:total_samples:head_samples
 *      line_offset: samples
 *
 * with line offsets from the function's DISubprogram line, taken from the
 * frontend IR of the source being built now. Each line record is placed in
 * the function of the current source that contains its line (the one with
 * the largest DISubprogram line not after it, in the same file), so an
 * inlined helper's lines go to the helper's own entry, which the sample
 * loader applies before inlining. The same line in several programs sums.
 *
 * Staleness (the profile's program was built from other source):
 *  - a record whose line text (BTF line info, kept in the profile) differs
 *    from the source line now: that line is left out;
 *  - a function of the profile's program that the source no longer defines
 *    (renamed, removed): every record of it is left out.
 * Both are counted and named in s->profile_note, never applied silently. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc/cc_int.h"
#include "cc/hints.h"
#include "cc/irmeta.h"
#include "cc/layout.h"
#include "cc/spawn.h"

struct prec { /* one record of the profile */
	char kind[8], func[128], file[256], text[512], prog[128];
	uint32_t line, col, insn;
	uint64_t count; /* line: count; branch: taken + not_taken */
	uint64_t taken, not_taken;
};

struct applied {
	char file[256];
	uint32_t line;
};

struct cc_prof {
	struct applied *a;
	size_t n, cap;
	struct cc_branch *br; /* the fresh branch records (layout.c) */
	size_t nbr;
};

/* --- a reader for flat JSON objects in an array ---------------------------- */

struct jr {
	const char *s, *p, *path;
	char *err;
	size_t errsz;
};

static int jerr(struct jr *r, const char *what)
{
	snprintf(r->err, r->errsz, "%s: offset %zu: %s", r->path, (size_t)(r->p - r->s), what);
	return -1;
}

static void ws(struct jr *r)
{
	while (*r->p && isspace((unsigned char)*r->p))
		r->p++;
}

static int jstr(struct jr *r, char *out, size_t sz)
{
	size_t o = 0;

	ws(r);
	if (*r->p != '"')
		return jerr(r, "expected a string");
	for (r->p++; *r->p && *r->p != '"'; r->p++) {
		char c = *r->p;

		if (c == '\\') {
			c = *++r->p;
			if (c == 'n')
				c = '\n';
			else if (c == 't')
				c = '\t';
			else if (c == 'u') {
				if (strlen(r->p) < 5)
					return jerr(r, "bad \\u escape");
				c = (char)strtol((char[]){r->p[1], r->p[2], r->p[3], r->p[4], 0},
						 NULL, 16);
				r->p += 4;
			} else if (!c) {
				break;
			}
		}
		if (o + 1 < sz)
			out[o++] = c;
	}
	if (*r->p != '"')
		return jerr(r, "unterminated string");
	r->p++;
	out[o] = 0;
	return 0;
}

/* One value into the record field named key. */
static int jfield(struct jr *r, const char *key, struct prec *rec, uint64_t *taken)
{
	char buf[512];

	ws(r);
	if (*r->p == '"') {
		if (jstr(r, buf, sizeof(buf)))
			return -1;
		if (!strcmp(key, "kind"))
			snprintf(rec->kind, sizeof(rec->kind), "%s", buf);
		else if (!strcmp(key, "func"))
			snprintf(rec->func, sizeof(rec->func), "%s", buf);
		else if (!strcmp(key, "file"))
			snprintf(rec->file, sizeof(rec->file), "%s", buf);
		else if (!strcmp(key, "text"))
			snprintf(rec->text, sizeof(rec->text), "%s", buf);
		else if (!strcmp(key, "program"))
			snprintf(rec->prog, sizeof(rec->prog), "%s", buf);
		return 0;
	}
	if (isdigit((unsigned char)*r->p)) {
		char *e;
		unsigned long long v = strtoull(r->p, &e, 10);

		r->p = e;
		if (!strcmp(key, "line"))
			rec->line = v > UINT32_MAX ? 0 : (uint32_t)v;
		else if (!strcmp(key, "col"))
			rec->col = v > UINT32_MAX ? 0 : (uint32_t)v;
		else if (!strcmp(key, "insn"))
			rec->insn = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
		else if (!strcmp(key, "count"))
			rec->count += v;
		else if (!strcmp(key, "not_taken"))
			rec->count += v, rec->not_taken = v;
		else if (!strcmp(key, "taken"))
			*taken = v, rec->taken = v;
		return 0;
	}
	if (!strncmp(r->p, "null", 4) || !strncmp(r->p, "true", 4)) {
		r->p += 4;
		return 0;
	}
	if (!strncmp(r->p, "false", 5)) {
		r->p += 5;
		return 0;
	}
	return jerr(r, "expected a string or an unsigned number (records are flat)");
}

static int jobject(struct jr *r, struct prec *rec)
{
	uint64_t taken = 0;
	char key[32];

	memset(rec, 0, sizeof(*rec));
	ws(r);
	if (*r->p++ != '{')
		return r->p--, jerr(r, "expected '{'");
	ws(r);
	while (*r->p != '}') {
		if (jstr(r, key, sizeof(key)))
			return -1;
		ws(r);
		if (*r->p++ != ':')
			return r->p--, jerr(r, "expected ':'");
		if (jfield(r, key, rec, &taken))
			return -1;
		ws(r);
		if (*r->p == ',')
			r->p++;
		else if (*r->p != '}')
			return jerr(r, "expected ',' or '}'");
		ws(r);
	}
	r->p++;
	rec->count += taken;
	if (strcmp(rec->kind, "line") && strcmp(rec->kind, "branch"))
		return jerr(r, "record without \"kind\": \"line\" or \"branch\" (a profile of "
			       "bpfgate cov run --profile)");
	if (!rec->file[0] || !rec->line)
		return 0; /* no source position: nothing to place */
	return 0;
}

static int read_profile(const char *path, struct prec **out, size_t *n, char *err, size_t errsz)
{
	size_t len, cap = 0;
	char *text = bg_read_file(path, &len);
	struct jr r = {text, text, path, err, errsz};
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (!text) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	ws(&r);
	if (*r.p++ != '[') {
		r.p--;
		rc = jerr(&r, "expected a JSON array (bpfgate cov run --profile FILE)");
	}
	for (ws(&r); !rc && *r.p != ']';) {
		struct prec rec;

		if (jobject(&r, &rec)) {
			rc = -1;
			break;
		}
		if (*n == cap) {
			void *t = realloc(*out, (cap = cap ? 2 * cap : 64) * sizeof(rec));

			if (!t) {
				rc = jerr(&r, "out of memory");
				break;
			}
			*out = t;
		}
		(*out)[(*n)++] = rec;
		ws(&r);
		if (*r.p == ',')
			r.p++;
		else if (*r.p != ']')
			rc = jerr(&r, "expected ',' or ']'");
		ws(&r);
	}
	free(text);
	return rc;
}

/* --- the current source ------------------------------------------------------ */

struct srcfile {
	char path[256]; /* as in the profile */
	char *text;
	char **line; /* line[k]: text of line k+1 */
	size_t nline;
	bool missing;
};

static void trim(const char *s, char *out, size_t sz)
{
	size_t l;

	while (isspace((unsigned char)*s))
		s++;
	snprintf(out, sz, "%s", s);
	l = strlen(out);
	while (l && isspace((unsigned char)out[l - 1]))
		out[--l] = 0;
}

static void load_src(const struct bg_cc_result *s, struct srcfile *f)
{
	char p[PATH_MAX];
	const char *slash = strrchr(s->input, '/');
	size_t len;

	f->text = NULL;
	if (ir_same_file(f->path, s->input))
		f->text = bg_read_file(s->input, &len);
	if (!f->text)
		f->text = bg_read_file(f->path, &len);
	if (!f->text && f->path[0] != '/' && slash) {
		snprintf(p, sizeof(p), "%.*s/%s", (int)(slash - s->input), s->input, f->path);
		f->text = bg_read_file(p, &len);
	}
	f->missing = !f->text;
	if (!f->text)
		return;
	for (char *q = f->text; q; q = strchr(q, '\n'), q = q ? q + 1 : NULL)
		f->nline++;
	f->line = calloc(f->nline + 1, sizeof(char *));
	f->nline = 0;
	for (char *q = f->text; q && f->line; q = strchr(q, '\n'), q = q ? q + 1 : NULL)
		f->line[f->nline++] = q;
	for (char *q = f->text; (q = strchr(q, '\n')); q++)
		*q = 0;
}

struct srcs {
	struct srcfile f[16];
	size_t n;
};

static struct srcfile *src_of(const struct bg_cc_result *s, struct srcs *ss, const char *path)
{
	for (size_t i = 0; i < ss->n; i++)
		if (!strcmp(ss->f[i].path, path))
			return &ss->f[i];
	if (ss->n == 16)
		return NULL;
	snprintf(ss->f[ss->n].path, sizeof(ss->f[0].path), "%s", path);
	load_src(s, &ss->f[ss->n]);
	return &ss->f[ss->n++];
}

static void srcs_free(struct srcs *ss)
{
	for (size_t i = 0; i < ss->n; i++) {
		free(ss->f[i].text);
		free(ss->f[i].line);
	}
}

/* --- staleness and placement ------------------------------------------------- */

static void note(struct bg_cc_result *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void note(struct bg_cc_result *s, const char *fmt, ...)
{
	size_t l = strlen(s->profile_note);
	va_list ap;

	if (l + 200 > sizeof(s->profile_note))
		return;
	if (l) {
		s->profile_note[l++] = ';';
		s->profile_note[l++] = ' ';
	}
	va_start(ap, fmt);
	vsnprintf(s->profile_note + l, sizeof(s->profile_note) - l, fmt, ap);
	va_end(ap);
}

static bool defines(const struct ir_meta *fe, const char *name)
{
	for (size_t i = 0; i < fe->nsps; i++)
		if (!strcmp(fe->sps[i].name, name))
			return true;
	return false;
}

/* Is the record's line unchanged in the current source? */
static bool line_fresh(struct bg_cc_result *s, struct srcs *ss, const struct prec *r)
{
	struct srcfile *f = src_of(s, ss, r->file);
	char a[512], b[512];

	if (!f || f->missing || !r->text[0])
		return true; /* nothing to compare against: kept */
	if (r->line > f->nline)
		return false;
	trim(r->text, a, sizeof(a));
	trim(f->line[r->line - 1], b, sizeof(b));
	return !strcmp(a, b);
}

static const struct ir_subprogram *containing(const struct ir_meta *fe, const char *file,
					      uint32_t line)
{
	const struct ir_subprogram *best = NULL;

	for (size_t i = 0; i < fe->nsps; i++) {
		const struct ir_subprogram *sp = &fe->sps[i];

		if (sp->line <= line && ir_same_file(sp->file, file) &&
		    (!best || sp->line > best->line))
			best = sp;
	}
	return best;
}

/* Mark the stale records (kind[0] = 0) and name them in the note. */
static void mark_stale(struct bg_cc_result *s, const struct ir_meta *fe, struct prec *r, size_t n)
{
	struct srcs ss = {.n = 0};

	for (size_t i = 0; i < n; i++) {
		if (!r[i].kind[0] || !r[i].func[0] || defines(fe, r[i].func))
			continue;
		note(s, "function '%s' of the profile is not defined by %s (renamed or removed?)",
		     r[i].func, s->input);
		s->profile_stale++;
		for (size_t k = i + 1; k < n; k++)
			if (!strcmp(r[k].func, r[i].func))
				r[k].kind[0] = 0;
		r[i].kind[0] = 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (!r[i].kind[0] || !r[i].line || line_fresh(s, &ss, &r[i]))
			continue;
		note(s, "%s:%u changed since the profile (was '%.80s')", r[i].file, r[i].line,
		     r[i].text);
		s->profile_stale++;
		for (size_t k = i + 1; k < n; k++)
			if (r[k].line == r[i].line && !strcmp(r[k].file, r[i].file))
				r[k].kind[0] = 0;
		r[i].kind[0] = 0;
	}
	srcs_free(&ss);
}

/* --- writing the sample profile ---------------------------------------------- */

struct body {
	uint32_t off;
	uint64_t count;
};

static int body_cmp(const void *a, const void *b)
{
	const struct body *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static int add_applied(struct cc_prof *p, const char *file, uint32_t line)
{
	if (p->n == p->cap) {
		void *t = realloc(p->a, (p->cap = p->cap ? 2 * p->cap : 64) * sizeof(*p->a));

		if (!t)
			return -ENOMEM;
		p->a = t;
	}
	snprintf(p->a[p->n].file, sizeof(p->a[0].file), "%s", file);
	p->a[p->n++].line = line;
	return 0;
}

/* The body of one function: line records placed in sp, summed per offset. */
static size_t function_body(const struct ir_meta *fe, const struct ir_subprogram *sp,
			    const struct prec *r, size_t n, struct body *b)
{
	size_t nb = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ir_subprogram *c;
		size_t k;

		if (strcmp(r[i].kind, "line") || !r[i].line ||
		    !(c = containing(fe, r[i].file, r[i].line)) || c != sp)
			continue;
		for (k = 0; k < nb && b[k].off != r[i].line - sp->line; k++)
			;
		if (k == nb)
			b[nb++] = (struct body){r[i].line - sp->line, 0};
		b[k].count += r[i].count;
	}
	qsort(b, nb, sizeof(*b), body_cmp);
	return nb;
}

static int write_sample_profile(struct bg_cc_result *s, const struct ir_meta *fe,
				const struct prec *r, size_t n)
{
	struct body *b = calloc(n ? n : 1, sizeof(*b));
	FILE *f;

	snprintf(s->sample_prof, sizeof(s->sample_prof), "%s/sample.prof", s->tmpdir);
	f = fopen(s->sample_prof, "w");
	if (!f || !b) {
		free(b);
		if (f)
			fclose(f);
		return -errno;
	}
	for (size_t i = 0; i < fe->nsps; i++) {
		const struct ir_subprogram *sp = &fe->sps[i];
		size_t nb = function_body(fe, sp, r, n, b);
		uint64_t total = 0, head = 0;

		for (size_t k = 0; k < nb; k++) {
			total += b[k].count;
			head = b[k].count > head && (!head || b[k].off == 0) ? b[k].count : head;
		}
		if (!nb || !total)
			continue;
		fprintf(f, "%s:%llu:%llu\n", sp->name, (unsigned long long)total,
			(unsigned long long)head);
		for (size_t k = 0; k < nb; k++) {
			fprintf(f, " %u: %llu\n", b[k].off, (unsigned long long)b[k].count);
			if (b[k].count && add_applied(s->prof, sp->file, sp->line + b[k].off)) {
				free(b);
				fclose(f);
				return -ENOMEM;
			}
		}
		s->profile_funcs++;
	}
	free(b);
	return fclose(f) ? -EIO : 0;
}

/* The fresh branch records with a program and a source position. */
static int keep_branches(struct cc_prof *p, const struct prec *r, size_t n)
{
	p->br = calloc(n + 1, sizeof(*p->br));
	if (!p->br)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct cc_branch *b = &p->br[p->nbr];

		if (strcmp(r[i].kind, "branch") || !r[i].prog[0])
			continue;
		snprintf(b->prog, sizeof(b->prog), "%s", r[i].prog);
		snprintf(b->file, sizeof(b->file), "%s", r[i].file);
		b->insn = r[i].insn;
		b->line = r[i].line, b->col = r[i].col;
		b->taken = r[i].taken, b->not_taken = r[i].not_taken;
		p->nbr++;
	}
	return 0;
}

static int frontend_ir(struct bg_cc_result *s, struct ir_meta *fe)
{
	struct cc_variant v = {.bisect_limit = -1,
			       .nextra = 2,
			       .emit_ir = true,
			       .extra = {"-Xclang", "-disable-llvm-passes"}};
	char out[96];

	snprintf(out, sizeof(out), "%s/profile-fe.ll", s->tmpdir);
	if (cc_compile(s, &v, out, NULL))
		return -EINVAL;
	return ir_meta_load(fe, out);
}

int cc_profile_prepare(struct bg_cc_result *s)
{
	struct prec *r = NULL;
	struct ir_meta fe;
	size_t n;
	int err;

	if (read_profile(s->profile, &r, &n, s->profile_note, sizeof(s->profile_note))) {
		free(r);
		return -1;
	}
	if (frontend_ir(s, &fe)) {
		free(r);
		snprintf(s->profile_note, sizeof(s->profile_note),
			 "%s: the source does not compile", s->input);
		return -1;
	}
	s->prof = calloc(1, sizeof(*s->prof));
	mark_stale(s, &fe, r, n);
	err = s->prof ? write_sample_profile(s, &fe, r, n) : -ENOMEM;
	err = err ?: keep_branches(s->prof, r, n);
	ir_meta_free(&fe);
	free(r);
	if (err) {
		snprintf(s->profile_note, sizeof(s->profile_note),
			 "cannot write the sample profile: %s", strerror(-err));
		return -1;
	}
	if (s->profile_funcs) { /* an empty profile is refused by clang: build without */
		snprintf(s->sample_arg, sizeof(s->sample_arg), "-fprofile-sample-use=%s", s->sample_prof);
		s->args[s->nargs++] = s->sample_arg;
	}
	return 0;
}

const struct cc_branch *cc_profile_branches(const struct bg_cc_result *s, size_t *n)
{
	*n = s->prof ? s->prof->nbr : 0;
	return s->prof ? s->prof->br : NULL;
}

bool cc_profile_covers(const struct bg_cc_result *s, const char *file, uint32_t line)
{
	if (!s->prof)
		return false;
	for (size_t i = 0; i < s->prof->n; i++)
		if (s->prof->a[i].line == line && ir_same_file(s->prof->a[i].file, file))
			return true;
	return false;
}

void cc_profile_free(struct bg_cc_result *s)
{
	if (s->prof) {
		free(s->prof->a);
		free(s->prof->br);
	}
	free(s->prof);
	s->prof = NULL;
}
