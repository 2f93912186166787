/* bpfgate cc: other installed compilers, when no back-out of the user's
 * clang is accepted. A transform one LLVM version makes and another does not
 * (clang-14 turns `(u8)x < 32` into a mask test the verifier cannot use;
 * clang-19 keeps the compare) is then fixed by building the unchanged
 * command line with the other clang. Newest first; the first build every
 * program of which is accepted wins. "The source itself is unsafe" is left
 * for programs no build is accepted for, and the report names the builds
 * tried (s->builds_tried). Cost: one compile + judge per other clang. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cc/cc_int.h"

/* clang-N on the PATH of the children's environment (s->envp) into out. */
static bool find_clang(const struct bg_cc_result *s, int v, char *out, size_t sz)
{
	const char *path = cc_env(s, "PATH");
	for (const char *p = path ? path : "/usr/bin"; p && *p;) {
		const char *e = strchr(p, ':');
		int len = e ? (int)(e - p) : (int)strlen(p);
		snprintf(out, sz, "%.*s/clang-%d", len, p, v);
		if (access(out, X_OK) == 0)
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

static void add_tried(struct bg_cc_result *s, const char *what)
{
	size_t l = strlen(s->builds_tried);
	snprintf(s->builds_tried + l, sizeof(s->builds_tried) - l, "%s%s", l ? ", " : "", what);
}

int cc_try_other_clangs(struct bg_cc_result *s)
{
	char mine[256], other[PATH_MAX], what[300];
	int mine_major = s->clang_major;
	struct cc_variant v = {.bisect_limit = -1, .deps = true};
	struct cc_judge *jp = calloc(1, sizeof(*jp));

	if (!jp)
		return -1;

	snprintf(mine, sizeof(mine), "%s", s->clang);
	snprintf(what, sizeof(what), "clang-%d (the user's build and %d variants)", mine_major,
		 s->nattempts);
	add_tried(s, what);
	for (int ver = 30; ver >= 10; ver--) {
		if (ver == mine_major || !find_clang(s, ver, other, sizeof(other)))
			continue;
		if (cc_over_budget(s))
			break;
		snprintf(s->clang, sizeof(s->clang), "%s", other);
		s->clang_major = ver;
		char tag[32];
		snprintf(tag, sizeof(tag), "clang-%d", ver);
		enum cc_outcome o = cc_try(s, &v, jp, tag);
		cc_progress(s, "unchanged build with clang-%d: %s", ver,
			    o == CC_GOOD ? "accepted" : jp->compiled ? "rejected" : "does not compile");
		snprintf(what, sizeof(what), "clang-%d", ver);
		add_tried(s, what);
		if (o == CC_GOOD) {
			snprintf(s->alt_clang, sizeof(s->alt_clang), "clang-%d", ver);
			snprintf(s->written, sizeof(s->written), "%s/%s.o", s->tmpdir, tag);
			s->insns_after = jp->insns;
			break;
		}
	}
	snprintf(s->clang, sizeof(s->clang), "%s", mine);
	s->clang_major = mine_major;
	free(jp);
	return s->alt_clang[0] ? 0 : -1;
}
