/* The report of a bpfgate cc run, as text for people and as JSON (the same
 * data): verdict, who judged, the culprit pass, what was backed out and what
 * it cost in instructions, compiles and seconds. */
#include <stdio.h>
#include <string.h>
#include "cc/cc_int.h"
#include "bg_json.h"
#include "cc/hints.h"

static const char *outcome_name(enum cc_outcome o)
{
	return o == CC_GOOD ? "accepted" : o == CC_BAD ? "rejected-same" : "other";
}

static const char *judged_by(const struct bg_cc_result *s)
{
	if (s->judged[0])
		return s->judged;
	if (s->kernel_ok && s->bpfgate_ok)
		return "kernel,bpfgate";
	return s->kernel_ok ? "kernel" : s->bpfgate_ok ? "bpfgate" : "none";
}

static void print_text(const struct bg_cc_result *s, FILE *f)
{
	const struct cc_prog_verdict *t = s->target >= 0 ? &s->first.progs[s->target] : NULL;

	if (s->compile_error) {
		fprintf(f, "bpfgate cc: %s: compile error (clang exit status %d, its messages above); "
			   "nothing built, nothing verified\n", s->input, s->compile_error);
		return;
	}
	if (s->kernel_error[0]) {
		fprintf(f, "bpfgate cc: %s: not written: %s; every kernel of --kernel must judge the "
			   "build\n", s->output, s->kernel_error);
		return;
	}
	if (!s->kernel_ok)
		fprintf(f, "bpfgate cc: kernel not asked: %s\n", s->kernel_why ? s->kernel_why : "not chosen");
	cc_hints_print(s, f, NULL);
	for (int i = 0; i < s->first.nprogs; i++)
		if (s->first.progs[i].warn[0])
			fprintf(f, "bpfgate cc: warning: %s: program '%s': %s\n", s->input,
				s->first.progs[i].name, s->first.progs[i].warn);
	if (!t) {
		fprintf(f, "bpfgate cc: %s: %d program(s) accepted (judged by %s), %zu insns\n",
			s->output, s->first.nprogs, judged_by(s), s->first.insns);
		return;
	}
	fprintf(f, "bpfgate cc: %s: program '%s' rejected by %s: %s\n", s->input, t->name, t->by, t->msg);
	if (t->src[0])
		fprintf(f, "  at: %s\n", t->src);
	if (s->by_elimination)
		fprintf(f, "  culprit: %s on %s (by elimination: no accepted build below the bisection point; "
			   "skipping this pass makes it load; first run is pass %ld of %ld)\n",
			s->culprit_name, s->culprit_unit, s->culprit, s->npasses);
	else if (s->culprit > 0)
		fprintf(f, "  culprit: pass (%ld of %ld) %s on %s, run %d%s [%d compiles to find]\n",
			s->culprit, s->npasses, s->culprit_name, s->culprit_unit, s->culprit_occurrence,
			s->before == CC_GOOD ? "" : " (the build before it was not accepted either)",
			s->bisect_compiles);
	if (s->changed[0])
		fprintf(f, "  source lines whose IR it changed: %s\n", s->changed);
	if (s->chain[0])
		fprintf(f, "  with it skipped, also: %s\n", s->chain);
	for (int i = 0; i < s->nattempts; i++)
		fprintf(f, "  tried %s: %s%s%s\n", s->attempts[i].what, outcome_name(s->attempts[i].outcome),
			s->attempts[i].msg[0] ? ": " : "", s->attempts[i].msg);
	if (s->fix[0]) {
		fprintf(f, "bpfgate cc: %s %s; insns %zu -> %zu (%+ld); wrote %s (judged by %s)\n",
			s->replayed ? "replayed recorded fix" : "backed out with", s->fix, s->insns_before,
			s->insns_after, (long)s->insns_after - (long)s->insns_before, s->output, judged_by(s));
	} else if (s->alt_clang[0]) {
		fprintf(f, "bpfgate cc: no back-out of %s's passes is accepted, but %s builds this so that "
			   "the %s accepts it (the same command line); insns %zu -> %zu; wrote %s\n",
			s->clang, s->alt_clang, s->kernel_ok ? "kernel" : "verifier", s->insns_before,
			s->insns_after, s->output);
	} else if (s->unsafe_source) {
		fprintf(f, "bpfgate cc: the source itself is unsafe (or beyond the verifier): %s, and none of "
			   "%d rebuilds without passes or with other target choices is accepted; the verifier "
			   "says: %s%s%s\n",
			s->culprit == 0 ? "it is rejected the same way with every optional pass skipped"
					: "no build along the pipeline was accepted before the rejection appeared",
			s->nattempts, t->msg, t->src[0] ? " at " : "", t->src);
		if (s->builds_tried[0])
			fprintf(f, "  builds tried: %s\n", s->builds_tried);
	} else if (s->strict) {
		fprintf(f, "bpfgate cc: --strict: not backing out\n");
	} else {
		fprintf(f, "bpfgate cc: no fix found within the budget\n");
	}
	fprintf(f, "bpfgate cc: %d compiles, %.2f s\n", s->compiles, s->seconds);
}

static void print_json(const struct bg_cc_result *s, FILE *f)
{
	struct bg_json j;

	bg_json_init(&j, f, true);
	bg_json_obj_begin(&j);
	bg_json_kstr(&j, "object", s->output);
	bg_json_kstr(&j, "source", s->input);
	bg_json_kstr(&j, "clang", s->clang);
	bg_json_kstr(&j, "judged_by", judged_by(s));
	bg_json_kint(&j, "status", s->status);
	bg_json_kbool(&j, "compile_error", s->compile_error != 0);
	if (s->compile_error)
		bg_json_kstr(&j, "clang_messages", s->stderr_text ? s->stderr_text : "");
	if (s->kernel_error[0])
		bg_json_kstr(&j, "kernel_error", s->kernel_error);
	bg_json_key(&j, "programs");
	bg_json_arr_begin(&j);
	for (int i = 0; i < s->first.nprogs; i++) {
		const struct cc_prog_verdict *v = &s->first.progs[i];

		bg_json_obj_begin(&j);
		bg_json_kstr(&j, "program", v->name);
		bg_json_kstr(&j, "verdict", v->rejected ? "rejected" : "accepted");
		if (v->warn[0])
			bg_json_kstr(&j, "warning", v->warn);
		if (v->rejected) {
			bg_json_kstr(&j, "by", v->by);
			bg_json_kstr(&j, "message", v->msg);
			bg_json_kstr(&j, "source", v->src);
		}
		bg_json_obj_end(&j);
	}
	bg_json_arr_end(&j);
	bg_json_key(&j, "culprit");
	if (s->culprit > 0) {
		bg_json_obj_begin(&j);
		bg_json_kint(&j, "pass_number", s->culprit);
		bg_json_kint(&j, "passes", s->npasses);
		bg_json_kstr(&j, "pass", s->culprit_name);
		bg_json_kstr(&j, "unit", s->culprit_unit);
		bg_json_kint(&j, "run", s->culprit_occurrence);
		bg_json_kstr(&j, "before", outcome_name(s->before));
		bg_json_kstr(&j, "changed_lines", s->changed);
		bg_json_kint(&j, "bisect_compiles", s->bisect_compiles);
		bg_json_kstr(&j, "also", s->chain);
		bg_json_kbool(&j, "by_elimination", s->by_elimination);
		bg_json_obj_end(&j);
	} else {
		bg_json_null(&j);
	}
	bg_json_key(&j, "attempts");
	bg_json_arr_begin(&j);
	for (int i = 0; i < s->nattempts; i++) {
		bg_json_obj_begin(&j);
		bg_json_kstr(&j, "what", s->attempts[i].what);
		bg_json_kstr(&j, "outcome", outcome_name(s->attempts[i].outcome));
		bg_json_kstr(&j, "message", s->attempts[i].msg);
		bg_json_kuint(&j, "insns", s->attempts[i].insns);
		bg_json_obj_end(&j);
	}
	bg_json_arr_end(&j);
	bg_json_kstr(&j, "fix", s->fix[0] ? s->fix : NULL);
	bg_json_kstr(&j, "fix_route", s->route_used);
	bg_json_kbool(&j, "replayed", s->replayed);
	bg_json_kbool(&j, "unsafe_source", s->unsafe_source);
	bg_json_kstr(&j, "other_clang", s->alt_clang[0] ? s->alt_clang : NULL);
	bg_json_kstr(&j, "builds_tried", s->builds_tried[0] ? s->builds_tried : NULL);
	bg_json_kuint(&j, "insns_before", s->insns_before);
	bg_json_kuint(&j, "insns_after", s->fix[0] ? s->insns_after : s->insns_before);
	cc_hints_print(s, NULL, &j);
	bg_json_kint(&j, "compiles", s->compiles);
	bg_json_kdouble(&j, "seconds", s->seconds);
	bg_json_obj_end(&j);
}

void bg_cc_result__print(const struct bg_cc_result *s, FILE *f, int json)
{
	if (!s || !s->input)
		return;
	if (json)
		print_json(s, f);
	else
		print_text(s, f);
}
