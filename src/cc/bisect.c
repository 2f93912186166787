/* Bisection of the LLVM pipeline. clang -mllvm -opt-bisect-limit=N runs the
 * first N optional passes (IR and codegen share one counter) and prints
 * "BISECT: running pass (N) NAME on UNIT". The predicate is "the target
 * program is rejected with the same normalized message as the full build";
 * other failures (indirect helper calls at low limits, stack or branch
 * limits) are not the bug and count as not-bad. Binary search costs
 * ceil(log2(passes)) + 1 compiles. The culprit's effect on the IR is shown
 * by diffing the IR emitted at limits culprit-1 and culprit, per source line
 * (through !dbg locations). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc/cc_int.h"
#include "cc/spawn.h"

/* A loop pass runs on a loop, which the listing names by its blocks
 * ("Loop at depth 1 containing: %11<header>...", LLVM 14) or "loop %x in
 * function f" (LLVM 19); the skip plugin counts a loop as its function. The
 * enclosing function is the one named in LLVM 19's text, else the unit of
 * the last function pass listed before it (loop passes run inside a
 * function's pipeline). Other units are kept. */
static void norm_unit(const char *unit, const char *last_fn, char *out, size_t sz)
{
	const char *in = strstr(unit, " in function ");

	if (strncmp(unit, "Loop at depth ", 14) && strncmp(unit, "loop ", 5)) {
		snprintf(out, sz, "%s", unit);
		return;
	}
	if (in)
		snprintf(out, sz, "%s", in + 13);
	else
		snprintf(out, sz, "%s", last_fn);
}

static bool is_function_unit(const char *unit)
{
	return unit[0] && unit[0] != '(' && unit[0] != '[' && strncmp(unit, "Loop at depth ", 14) &&
	       strncmp(unit, "loop ", 5) && !strstr(unit, "function (");
}

/* Find pass number n in clang's BISECT output: name, unit, and which run of
 * (name, unit) it is. Returns the total number of passes. */
static long scan_passes(const char *text, long n, char *name, size_t nsz, char *unit, size_t usz,
			int *occ)
{
	long total = 0;
	const char *p = text;
	char want_name[160] = "", want_unit[128] = "";

	/* two sweeps: first find pass n, then count its earlier runs */
	for (int sweep = 0; sweep < 2; sweep++) {
		int count = 0;
		char last_fn[128] = "";

		for (p = text; p && *p;) {
			const char *e = strchr(p, '\n');
			const char *r = strstr(p, "BISECT: ");
			long num;
			char nm[160], raw[128], un[128];

			if (r && (!e || r < e)) {
				const char *q = strchr(r, '(');

				if (q && sscanf(q, "(%ld) ", &num) == 1) {
					const char *a = strchr(q, ')') + 2;
					const char *on = strstr(a, " on ");
					const char *end = e ? e : a + strlen(a);

					if (on && on < end) {
						snprintf(nm, sizeof(nm), "%.*s", (int)(on - a), a);
						snprintf(raw, sizeof(raw), "%.*s", (int)(end - on - 4), on + 4);
						norm_unit(raw, last_fn, un, sizeof(un));
						if (is_function_unit(raw))
							snprintf(last_fn, sizeof(last_fn), "%s", raw);
						if (num > total)
							total = num;
						if (sweep == 0 && num == n) {
							snprintf(want_name, sizeof(want_name), "%s", nm);
							snprintf(want_unit, sizeof(want_unit), "%s", un);
						}
						if (sweep == 1 && num <= n && !strcmp(nm, want_name) &&
						    !strcmp(un, want_unit))
							count++;
					}
				}
			}
			p = e ? e + 1 : NULL;
		}
		if (sweep == 1 && occ)
			*occ = count;
	}
	if (name)
		snprintf(name, nsz, "%s", want_name);
	if (unit)
		snprintf(unit, usz, "%s", want_unit);
	return total;
}

static enum cc_outcome at_limit(struct bg_cc_result *s, long limit)
{
	struct cc_variant v = {.bisect_limit = limit, .skip = s->bisect_skip};
	char tag[32];
	enum cc_outcome o;

	snprintf(tag, sizeof(tag), "bisect-%ld", limit);
	o = cc_try(s, &v, NULL, tag);
	s->bisect_compiles++;
	cc_progress(s, "bisect: limit %ld -> %s", limit,
		    o == CC_BAD ? "rejected the same way" : o == CC_GOOD ? "accepted" : "other failure");
	return o;
}

/* With passes skipped (s->bisect_skip) the pipeline after the first skip
 * differs (a loop left rolled meets other loop passes), so the passes are
 * numbered by a listing built with the same skips; NULL: the user's. */
static char *skip_listing(struct bg_cc_result *s)
{
	struct cc_variant v = {.bisect_limit = 1000000000L, .skip = s->bisect_skip};
	char out[96], *err = NULL;

	if (!s->bisect_skip)
		return NULL;
	snprintf(out, sizeof(out), "%s/listing-skip.o", s->tmpdir);
	if (cc_compile(s, &v, out, &err) != 0) {
		free(err);
		return NULL;
	}
	return err;
}

int cc_bisect(struct bg_cc_result *s)
{
	long lo = 0, hi;
	enum cc_outcome lo_out;
	char *own = skip_listing(s);
	const char *listing = own ? own : s->stderr_text ? s->stderr_text : "";

	s->npasses = scan_passes(listing, -1, NULL, 0, NULL, 0, NULL);
	if (s->npasses <= 0) {
		cc_progress(s, "bisect: clang printed no BISECT lines; cannot bisect");
		free(own);
		return -1;
	}
	hi = s->npasses;
	lo_out = at_limit(s, 0);
	if (lo_out == CC_BAD) {
		/* rejected even with every optional pass skipped */
		s->bisected = true;
		s->culprit = 0;
		s->before = CC_BAD;
		free(own);
		return 0;
	}
	while (hi - lo > 1 && !cc_over_budget(s)) {
		long mid = lo + (hi - lo) / 2;
		enum cc_outcome o = at_limit(s, mid);

		if (o == CC_BAD) {
			hi = mid;
		} else {
			lo = mid;
			lo_out = o;
		}
	}
	s->bisected = hi - lo <= 1;
	s->culprit = hi;
	s->before = lo_out;
	scan_passes(listing, hi, s->culprit_name, sizeof(s->culprit_name), s->culprit_unit,
		    sizeof(s->culprit_unit), &s->culprit_occurrence);
	free(own);
	/* new-PM IR passes are named "XxxPass" and run "on fn", codegen passes "on function (fn)";
	 * the IR passes of the codegen pipeline (legacy pass manager, e.g. "Loop Strength
	 * Reduction" on a loop) are named in words: neither route can skip them, knobs can */
	s->culprit_is_ir = !strstr(s->culprit_unit, "function (") && !strchr(s->culprit_name, ' ');
	return 0;
}

/* --- IR diff ------------------------------------------------------------ */

/* Map "!123" metadata ids to DILocation lines. */
struct dbgmap {
	long *id;
	int *line;
	size_t n, cap;
};

static void dbgmap_scan(struct dbgmap *m, const char *ir)
{
	for (const char *p = ir; (p = strstr(p, "!DILocation(line: "));) {
		const char *b = p;
		long id;
		int line = atoi(p + 18);

		while (b > ir && b[-1] != '\n')
			b--;
		if (sscanf(b, "!%ld = ", &id) == 1) {
			if (m->n == m->cap) {
				m->cap = m->cap ? m->cap * 2 : 256;
				m->id = realloc(m->id, m->cap * sizeof(*m->id));
				m->line = realloc(m->line, m->cap * sizeof(*m->line));
			}
			m->id[m->n] = id;
			m->line[m->n++] = line;
		}
		p += 18;
	}
}

static int dbgmap_line(const struct dbgmap *m, long id)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->id[i] == id)
			return m->line[i];
	return 0;
}

/* A per-source-line fingerprint of the instructions attributed to it: the
 * sum of hashes of each instruction's text with SSA names and metadata
 * ids folded. Lines whose fingerprint differs changed. */
#define MAX_LINES 4096
static void fingerprint(const char *ir, unsigned long long *fp)
{
	struct dbgmap m = {0};

	dbgmap_scan(&m, ir);
	for (const char *p = ir; p && *p;) {
		const char *e = strchr(p, '\n');
		const char *d = strstr(p, "!dbg !");
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (d && d < p + len && p[0] == ' ') {
			int line = dbgmap_line(&m, atol(d + 6));
			unsigned long long h = 1469598103934665603ull;

			for (const char *c = p; c < d; c++) {
				if (*c == '%' || *c == '!') { /* fold names: %x, %12, !7 */
					h = (h ^ (unsigned char)*c) * 1099511628211ull;
					while (c + 1 < d && (isalnum((unsigned char)c[1]) || c[1] == '.' || c[1] == '_'))
						c++;
					continue;
				}
				h = (h ^ (unsigned char)*c) * 1099511628211ull;
			}
			if (line > 0 && line < MAX_LINES)
				fp[line] += h;
		}
		p = e ? e + 1 : NULL;
	}
	free(m.id);
	free(m.line);
}

void cc_ir_diff(struct bg_cc_result *s)
{
	struct cc_variant v = {.emit_ir = true};
	char a[96], b[96];
	char *ira, *irb;
	unsigned long long *fa, *fb;
	size_t o = 0;

	if (!s->culprit_is_ir || s->culprit <= 0)
		return;
	snprintf(a, sizeof(a), "%s/before.ll", s->tmpdir);
	snprintf(b, sizeof(b), "%s/after.ll", s->tmpdir);
	v.bisect_limit = s->culprit - 1;
	if (cc_compile(s, &v, a, NULL) != 0)
		return;
	v.bisect_limit = s->culprit;
	if (cc_compile(s, &v, b, NULL) != 0)
		return;
	ira = bg_read_file(a, NULL);
	irb = bg_read_file(b, NULL);
	fa = calloc(MAX_LINES, sizeof(*fa));
	fb = calloc(MAX_LINES, sizeof(*fb));
	if (ira && irb && fa && fb) {
		fingerprint(ira, fa);
		fingerprint(irb, fb);
		for (int l = 1; l < MAX_LINES && o + 16 < sizeof(s->changed); l++)
			if (fa[l] != fb[l])
				o += snprintf(s->changed + o, sizeof(s->changed) - o, "%s%d",
					      o ? "," : "", l);
	}
	free(ira);
	free(irb);
	free(fa);
	free(fb);
}
