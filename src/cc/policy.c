/* bpfgate cc as a drop-in: which verifier decides, and assertions.
 *
 * Policy (docs/ASSERTIONS.md, "cc"): where the running kernel judges a
 * program (accepted or rejected), its verdict decides and a disagreeing
 * bpfgate verdict is a warning; where no kernel can judge (not asked, bpf()
 * refused, or the program type is unavailable, e.g. fentry refused with
 * EPERM before verification), a bpfgate rejection decides only when the
 * user chose bpfgate alone or --strict, otherwise it is a warning and
 * clang's object is kept. A failed <bpfgate/assert.h> assertion always
 * decides: it is the user's own statement about the compiled code. The
 * fix search starts only for a deciding rejection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfgate/bpfgate.h>
#include "cc/cc_int.h"

static void copy_verdict(struct cc_prog_verdict *v, const struct cc_prog_verdict *from, const char *by)
{
	v->rejected = 1;
	snprintf(v->by, sizeof(v->by), "%s", by);
	snprintf(v->msg, sizeof(v->msg), "%s", from->msg);
	snprintf(v->src, sizeof(v->src), "%s", from->src);
}

void cc_decide(const struct bg_cc_result *s, struct cc_prog_verdict *v, int k,
	       const struct cc_prog_verdict *kv, int b, const struct cc_prog_verdict *bv)
{
	bool bpfgate_alone = !(s->verifiers & BG_CC_VERIFIER_KERNEL);

	v->kernel = k;
	v->bpfgate = b;
	if (k == 1) {
		copy_verdict(v, kv, "kernel");
		if (b == 0)
			snprintf(v->warn, sizeof(v->warn), "bpfgate accepts what the kernel rejects");
		return;
	}
	if (k == 0) {
		if (b == 1)
			snprintf(v->warn, sizeof(v->warn), "bpfgate rejects what the kernel accepts "
				 "(the kernel decides): %.400s", bv->msg);
		return;
	}
	if (b != 1)
		return;
	if (bpfgate_alone || s->strict) {
		copy_verdict(v, bv, "bpfgate");
		return;
	}
	snprintf(v->warn, sizeof(v->warn), "no kernel could judge (%s); bpfgate rejects: %.380s "
		 "(kept clang's object; --strict refuses it)",
		 s->kernel_ok ? "unavailable here" : s->kernel_why ? s->kernel_why : "not asked", bv->msg);
}

static const char *base_name(const char *p)
{
	const char *q = p ? strrchr(p, '/') : NULL;
	return q ? q + 1 : p ? p : "?";
}

/* A failed assertion rejects the program (by "assert"); the folded form is
 * the assertion's identity (kind, line, text), not its abstract value, so
 * that builds along the pipeline compare equal while it keeps failing. Lost
 * assertions are a warning. */
void cc_judge_asserts(const struct bg_program *p, struct cc_prog_verdict *v)
{
	struct bg_assert_result *r = NULL;
	size_t n = 0;
	struct bg_verify_states *st = NULL;

	bg_program__asserts(p, &n);
	if (!bg_object__has_asserts(bg_program__object(p)))
		return;
	if (n && !(st = bg_verify_states__new(p, NULL)))
		return;
	int cnt = bg_asserts__check(p, st, 1, &r);
	bg_verify_states__free(st);
	for (int i = 0; i < cnt; i++) {
		const struct bg_assert_result *a = &r[i];
		const char *file = a->loc ? base_name(a->loc->file) : "?";
		if (a->status == BG_ASSERT_LOST && !v->warn[0])
			snprintf(v->warn, sizeof(v->warn), "%s:%u: %s lost: %s", file, a->site.line, a->text,
				 a->why);
		if (a->status != BG_ASSERT_FAILS)
			continue;
		char prev[200] = "";
		if (v->rejected)
			snprintf(prev, sizeof(prev), " (%s also rejects: %.150s)", v->by, v->msg);
		v->rejected = 1;
		v->assert_failed = 1;
		snprintf(v->by, sizeof(v->by), "assertion");
		snprintf(v->msg, sizeof(v->msg), "%s:%u: %s fails: %s%s", file, a->site.line, a->text,
			 a->why, prev);
		snprintf(v->src, sizeof(v->src), "%s @ %s:%u", a->text, a->loc ? a->loc->file : "?",
			 a->site.line);
		snprintf(v->akey, sizeof(v->akey), "assert %s %u %s", bg_assert_kind_name(a->site.kind),
			 a->site.line, a->text);
		break;
	}
	free(r);
}
