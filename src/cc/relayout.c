/* bpfgate cc --profile, last step: the profile-guided block layout
 * (layout.h) of the object the profile was measured on. The profile's
 * branch records name instruction slots of a build, so the layout applies to
 * the build whose code they describe exactly (checked jump by jump): the
 * profile-guided build when the profile came from it, else the build without
 * the sample profile (the plain build a profile normally comes from). DWARF
 * is stripped first (its addresses would describe the old layout; BTF line
 * info is rewritten instead). The laid-out object is judged like any other;
 * it replaces the output only when every verifier accepts it, and then
 * carries the profile's own probabilities as hints. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cc/cc_int.h"
#include "cc/hints.h"
#include "cc/layout.h"
#include "cc/spawn.h"

static void lnote(struct bg_cc_result *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void lnote(struct bg_cc_result *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->layout_note, sizeof(s->layout_note), fmt, ap);
	va_end(ap);
}

/* The build without -fprofile-sample-use into out. */
static int plain_build(struct bg_cc_result *s, const char *out)
{
	struct cc_variant v = {.bisect_limit = -1};
	int saved = s->nargs, rc;

	for (int i = 0; i < s->nargs; i++)
		if (s->args[i] == s->sample_arg) {
			memmove(&s->args[i], &s->args[i + 1],
				(size_t)(s->nargs - i - 1) * sizeof(char *));
			s->nargs--;
			break;
		}
	rc = cc_compile(s, &v, out, NULL);
	if (s->nargs != saved)
		s->args[s->nargs++] = s->sample_arg;
	return rc;
}

static int strip_debug(struct bg_cc_result *s, const char *in, const char *out)
{
	char tool[64];
	char *argv[] = {tool, "--strip-debug", (char *)in, (char *)out, NULL};

	snprintf(tool, sizeof(tool), "llvm-objcopy-%d", s->clang_major);
	if (bg_spawn_env(argv, s->envp, NULL, NULL, 60) == 0)
		return 0;
	snprintf(tool, sizeof(tool), "llvm-objcopy");
	return bg_spawn_env(argv, s->envp, NULL, NULL, 60) == 0 ? 0 : -ENOENT;
}

/* The object the profile describes (stripped of DWARF) and its counts. */
static int pick_base(struct bg_cc_result *s, char *base, size_t sz, struct lay_count **c,
		     size_t *nc)
{
	const struct cc_branch *b;
	size_t nb;
	char plain[96], why1[300] = "", why2[300] = "";

	b = cc_profile_branches(s, &nb);
	if (!nb)
		return lnote(s, "not done: the profile has no branch records"), -ENOENT;
	snprintf(base, sz, "%s/layout-base.o", s->tmpdir);
	if (strip_debug(s, s->written, base))
		return lnote(s, "not done: llvm-objcopy (to strip DWARF) failed"), -ENOENT;
	if (cc_layout_counts(base, b, nb, c, nc, why1, sizeof(why1)) == 0) {
		snprintf(s->layout_base, sizeof(s->layout_base), "%s",
			 s->sample_arg[0] ? "profile-guided build" : "plain build");
		return 0;
	}
	snprintf(plain, sizeof(plain), "%s/layout-plain.o", s->tmpdir);
	if (!s->sample_arg[0] || plain_build(s, plain) || strip_debug(s, plain, base))
		return lnote(s, "not done: the profile does not describe this build (%s)", why1),
		       -ESTALE;
	if (cc_layout_counts(base, b, nb, c, nc, why2, sizeof(why2)))
		return lnote(s, "not done: the profile does not describe this build (%s)", why2),
		       -ESTALE;
	snprintf(s->layout_base, sizeof(s->layout_base), "plain build");
	return 0;
}

static bool all_accepted(const struct cc_judge *j)
{
	for (int i = 0; i < j->nprogs; i++)
		if (j->progs[i].rejected)
			return false;
	return j->nprogs > 0;
}

static int copy_to(const char *from, const char *to)
{
	size_t len;
	char *b = bg_read_file(from, &len);
	FILE *f = b ? fopen(to, "wb") : NULL;
	int ok = f && fwrite(b, 1, len, f) == len;

	if (f)
		ok &= fclose(f) == 0;
	free(b);
	return ok ? 0 : -EIO;
}

void cc_layout_step(struct bg_cc_result *s)
{
	struct lay_count *c = NULL;
	struct cc_layout r = {0};
	struct cc_judge *j = calloc(1, sizeof(*j));
	char base[96], out[96];
	size_t nc = 0;
	int rc;

	if (!j)
		return;
	if (s->profile_stale) {
		lnote(s, "not done: the profile is stale");
		goto done;
	}
	if (pick_base(s, base, sizeof(base), &c, &nc))
		goto done;
	snprintf(out, sizeof(out), "%s/layout.o", s->tmpdir);
	rc = cc_layout_rewrite(base, out, c, nc, &r);
	if (rc <= 0) {
		lnote(s, "not done: %s%s%s", rc < 0 ? strerror(-rc) : "no function gains",
		      r.note[0] ? "; " : "", r.note);
		goto done;
	}
	cc_judge_object(s, out, j);
	if (!all_accepted(j)) {
		lnote(s, "not used: the laid-out object is rejected (%s)",
		      j->nprogs ? j->progs[0].msg : "no programs");
		goto done;
	}
	rc = s->no_hints ? -1 : cc_hints_write_counts(s, out, r.hints, r.nhints);
	if ((rc < 0 && !s->no_hints) || copy_to(out, s->output)) {
		lnote(s, "not used: cannot write %s", s->output);
		goto done;
	}
	s->laid_out = true;
	s->nhints = rc;
	if (rc >= 0)
		snprintf(s->hints_note, sizeof(s->hints_note),
			 "probabilities of the profile's counts");
	s->layout_funcs = r.funcs;
	s->layout_inverted = r.inverted;
	s->layout_ja_added = r.ja_added;
	s->layout_ja_removed = r.ja_removed;
	s->layout_before = r.taken_before;
	s->layout_after = r.taken_after;
	lnote(s, "%s%s", r.note[0] ? "unchanged: " : "", r.note);
done:
	cc_layout_free(&r);
	free(c);
	free(j);
}
