/* bpfgate check: the <bpfgate/assert.h> assertions of a program, checked on
 * the analysis' states and printed as text, JSON or SARIF beside the
 * program's verdict. A failed or lost assertion makes the exit code 1, like
 * a rejection; an unreached one (dead code, or after a rejection) does not. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfgate/bpfgate.h>
#include "check_asserts.h"
#include "cli.h"

int check_asserts_eval(const struct bg_program *p, const char *profile, int unpriv,
		       uint64_t max_steps, struct bg_assert_result **out, int *bad)
{
	struct bg_verify_states_opts so = { .sz = sizeof(so), .profile = profile,
					    .unprivileged = unpriv, .max_steps = max_steps };
	size_t ns = 0;
	*out = NULL;
	*bad = 0;
	bg_program__asserts(p, &ns);
	struct bg_verify_states *st = NULL;
	if (ns && bg_program__insns(p, &ns) && !(st = bg_verify_states__new(p, &so)))
		return -errno;
	int n = bg_asserts__check(p, st, 1, out);
	bg_verify_states__free(st);
	for (int i = 0; i < n; i++)
		*bad += (*out)[i].status == BG_ASSERT_FAILS || (*out)[i].status == BG_ASSERT_LOST;
	return n;
}

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;
	return s ? s + 1 : p;
}

/* "parse.c:42: bg_assert_pkt(ip, 20) fails: r3 = pkt(off=14, r=14)" */
void check_asserts_line(FILE *f, const struct bg_assert_result *r)
{
	if (r->loc && r->loc->file)
		fprintf(f, "%s:%u: ", cli_safe(base_name(r->loc->file)), r->site.line);
	else
		fprintf(f, "line %u: ", r->site.line);
	fprintf(f, "%s %s: %s", cli_safe(r->text), bg_assert_status_name(r->status), cli_safe(r->why));
	if (r->site.insn != SIZE_MAX)
		fprintf(f, " [insn %zu]", r->site.insn);
	fprintf(f, "\n");
}

void check_asserts_text(const struct bg_assert_result *r, int n, bool verbose, bool rejected)
{
	int cnt[4] = { 0 };
	for (int i = 0; i < n; i++) {
		cnt[r[i].status]++;
		bool show = verbose || r[i].status == BG_ASSERT_FAILS || r[i].status == BG_ASSERT_LOST ||
			    (r[i].status == BG_ASSERT_UNREACHED && !rejected);
		if (!show)
			continue;
		printf("  ");
		check_asserts_line(stdout, &r[i]);
	}
	if (n)
		printf("  assertions: %d hold, %d fail, %d lost, %d unreached%s\n", cnt[BG_ASSERT_HOLDS],
		       cnt[BG_ASSERT_FAILS], cnt[BG_ASSERT_LOST], cnt[BG_ASSERT_UNREACHED],
		       rejected && cnt[BG_ASSERT_UNREACHED] ? " (not checked past the rejection)" : "");
}

void check_asserts_json(struct bg_json *j, const struct bg_assert_result *r, int n)
{
	bg_json_key(j, "asserts");
	bg_json_arr_begin(j);
	for (int i = 0; i < n; i++) {
		bg_json_obj_begin(j);
		bg_json_kstr(j, "kind", bg_assert_kind_name(r[i].site.kind));
		bg_json_kstr(j, "assertion", r[i].text);
		bg_json_kstr(j, "status", bg_assert_status_name(r[i].status));
		bg_json_kstr(j, "value", r[i].why);
		bg_json_kstr(j, "file", r[i].loc ? r[i].loc->file : NULL);
		bg_json_kuint(j, "line", r[i].site.line);
		if (r[i].site.insn != SIZE_MAX)
			bg_json_kuint(j, "insn", r[i].site.insn);
		if (r[i].site.reg >= 0)
			bg_json_kint(j, "reg", r[i].site.reg);
		bg_json_kuint(j, "states", r[i].states);
		bg_json_obj_end(j);
	}
	bg_json_arr_end(j);
}

void check_asserts_sarif(struct bg_json *j, const char *path, const struct bg_program *p,
			 const struct bg_assert_result *r, int n)
{
	for (int i = 0; i < n; i++) {
		if (r[i].status != BG_ASSERT_FAILS && r[i].status != BG_ASSERT_LOST)
			continue;
		char text[600], rule[64];
		snprintf(text, sizeof(text), "%s: %s %s: %s", bg_program__name(p), r[i].text,
			 bg_assert_status_name(r[i].status), r[i].why);
		snprintf(rule, sizeof(rule), "assert/%s", bg_assert_kind_name(r[i].site.kind));
		cli_sarif_result(j, rule, text, r[i].loc && r[i].loc->file ? r[i].loc->file : path,
				 r[i].site.line, 0);
		bg_json_kstr(j, "object", path);
		bg_json_kstr(j, "program", bg_program__name(p));
		bg_json_kstr(j, "status", bg_assert_status_name(r[i].status));
		if (r[i].site.insn != SIZE_MAX)
			bg_json_kuint(j, "insn", r[i].site.insn);
		cli_sarif_result_end(j);
	}
}
