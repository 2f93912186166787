/* The profile-guided block layout (src/cc/layout.c) over every accepted
 * corpus object and example: each conditional jump gets a profile that
 * makes its taken side hot (taken 3, not taken 1), the object is rewritten,
 * and the result must open, decode and get the same bpfgate verdict per
 * program as before (and the same kernel verdict where bpf() works), with
 * as many conditional jumps; an object the pass
 * refuses must not be written. DWARF is stripped first (as cc does).
 * min-pass: 20 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpfgate/bpfgate.h>
#include "test.h"
#include "cc/layout.h"
#include "cc/spawn.h"

static size_t jconds(const struct bg_program *p)
{
	size_t n = 0, k = 0;
	const struct bg_insn *in = bg_program__insns(p, &n);

	for (size_t i = 0; in && i < n; i++)
		k += in[i].kind == BG_K_JCOND;
	return k;
}

/* A branch record per conditional jump of every program: taken side hot. */
static struct cc_branch *hot_taken(const struct bg_object *o, size_t *nb)
{
	struct cc_branch *b = NULL;
	size_t cap = 0;

	*nb = 0;
	for (size_t p = 0; p < bg_object__prog_cnt(o); p++) {
		const struct bg_program *prog = bg_object__prog(o, p);
		size_t n = 0;
		const struct bg_insn *in = bg_program__insns(prog, &n);

		for (size_t i = 0; in && i < n; i++) {
			const struct bg_line *l = bg_program__line(prog, i);

			if (in[i].kind != BG_K_JCOND)
				continue;
			if (*nb == cap) {
				cap = cap ? 2 * cap : 64;
				b = realloc(b, cap * sizeof(*b));
			}
			memset(&b[*nb], 0, sizeof(*b));
			snprintf(b[*nb].prog, sizeof(b->prog), "%s", bg_program__name(prog));
			b[*nb].insn = (uint32_t)i;
			b[*nb].line = l ? l->line : 0;
			b[*nb].col = l ? l->col : 0;
			b[*nb].taken = 3;
			b[*nb].not_taken = 1;
			(*nb)++;
		}
	}
	return b;
}

/* The kernel's verdict (when bpf() works), else -2; *limit: rejected for
 * the verifier's complexity limit. */
static int kverdict(const struct bg_program *p, bool *limit)
{
	struct bg_kload_result r;
	int v;

	if (!bg_kern_available(&(const char *){NULL}))
		return -2;
	memset(&r, 0, sizeof(r));
	if (bg_kern_load(p, NULL, &r))
		return -1;
	v = (int)r.verdict;
	if (limit)
		*limit = r.reason && (strstr(r.reason, "too large") || strstr(r.reason, "too complex"));
	bg_kload_result__fini(&r);
	return v;
}

static int verdict(const struct bg_program *p)
{
	struct bg_verify_result r;

	memset(&r, 0, sizeof(r));
	if (bg_verify(p, NULL, &r))
		return -1;
	return (int)r.verdict;
}

/* Same programs, same verdicts, same conditional jump counts. */
static void compare(const char *name, const char *a, const char *b)
{
	struct bg_object *x = bg_object__open(a, NULL, NULL, 0);
	struct bg_object *y = bg_object__open(b, NULL, NULL, 0);
	char err[512] = "";
	bool limit = false;
	int kb, ka;

	if (!x || !y) {
		T_FAIL(name, "the rewritten object does not open");
		goto out;
	}
	if (bg_object__prog_cnt(x) != bg_object__prog_cnt(y))
		snprintf(err, sizeof(err), "program count differs");
	for (size_t i = 0; !err[0] && i < bg_object__prog_cnt(x); i++) {
		const struct bg_program *p = bg_object__prog(x, i);
		const struct bg_program *q = bg_object__find_prog(y, bg_program__name(p));

		if (!q || !bg_program__insns(q, &(size_t){0}))
			snprintf(err, sizeof(err), "%s: missing or does not decode", bg_program__name(p));
		else if (jconds(p) != jconds(q))
			snprintf(err, sizeof(err), "%s: %zu conditional jumps, %zu after",
				 bg_program__name(p), jconds(p), jconds(q));
		else if (verdict(p) != verdict(q))
			snprintf(err, sizeof(err), "%s: verdict %d before, %d after", bg_program__name(p),
				 verdict(p), verdict(q));
		else if ((kb = kverdict(p, NULL)) != (ka = kverdict(q, &limit)))
			snprintf(err, sizeof(err), "%s: kernel verdict %d before, %d after",
				 bg_program__name(p), kb, ka);
	}
	if (err[0] && limit) /* the order changes the kernel's state pruning */
		T_XFAIL(name, "%s: the kernel's complexity limit (its state pruning follows the new "
			"block order; bpfgate's kcost estimate does not see it); cc judges a laid-out "
			"object and keeps the plain one then", err);
	else if (err[0])
		T_FAIL(name, "%s", err);
	else
		T_PASS(name);
out:
	bg_object__free(x);
	bg_object__free(y);
}

static void one(const char *path, const char *tag)
{
	char name[512], base[] = "/tmp/bg-layout-XXXXXX", out[64];
	char *argv[] = {"llvm-objcopy-19", "--strip-debug", (char *)path, base, NULL};
	struct bg_object *o;
	struct cc_branch *b;
	struct lay_count *c = NULL;
	struct cc_layout r;
	size_t nb = 0, nc = 0;
	char why[300] = "";
	int fd = mkstemp(base), rc;

	snprintf(name, sizeof(name), "layout/%s", tag);
	if (fd < 0)
		return;
	close(fd);
	snprintf(out, sizeof(out), "%s.out", base);
	if (bg_spawn(argv, NULL, NULL, 60) != 0) {
		T_SKIP(name, "llvm-objcopy-19 failed");
		goto out;
	}
	o = bg_object__open(base, NULL, NULL, 0);
	if (!o) {
		T_SKIP(name, "does not open");
		goto out;
	}
	b = hot_taken(o, &nb);
	bg_object__free(o);
	if (cc_layout_counts(base, b, nb, &c, &nc, why, sizeof(why))) {
		T_FAIL(name, "its own profile does not describe it: %s", why);
		free(b);
		goto out;
	}
	rc = cc_layout_rewrite(base, out, c, nc, &r);
	printf("# %s: %d function(s) rewritten, %d inverted%s%s\n", tag, rc, r.inverted,
	       r.note[0] ? "; " : "", r.note);
	if (rc < 0)
		T_FAIL(name, "rewrite failed: %s (%s)", strerror(-rc), r.note);
	else if (rc == 0)
		T_CHECK(access(out, F_OK) != 0, name, "unchanged (%s) but written", r.note);
	else
		compare(name, base, out);
	cc_layout_free(&r);
	free(b);
	free(c);
out:
	if (getenv("BG_LAYOUT_KEEP")) { /* debugging: keep both objects */
		printf("# kept %s %s\n", base, out);
		return;
	}
	unlink(base);
	unlink(out);
}

static void dir(const char *d, const char *prefix)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	char path[PATH_MAX], tag[300];

	if (!dp) {
		T_SKIP(prefix, "%s not built", d);
		return;
	}
	while ((e = readdir(dp))) {
		size_t l = strlen(e->d_name);

		if (l < 3 || strcmp(e->d_name + l - 2, ".o"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", d, e->d_name);
		snprintf(tag, sizeof(tag), "%s/%s", prefix, e->d_name);
		one(path, tag);
	}
	closedir(dp);
}

int main(void)
{
	char buf[PATH_MAX], sub[PATH_MAX];
	const char *ex = test_build_sub(buf, sizeof(buf), "BG_EXAMPLES", "examples");
	const char *corpus;

	dir(ex, "examples");
	corpus = test_build_sub(buf, sizeof(buf), "BG_CORPUS", "corpus");
	snprintf(sub, sizeof(sub), "%s/c19/accept", corpus);
	dir(sub, "corpus-c19");
	snprintf(sub, sizeof(sub), "%s/c14/accept", corpus);
	dir(sub, "corpus-c14");
	return bg_test_failed ? 1 : 0;
}
