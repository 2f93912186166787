/* Allocation failure inside the static verifier: bg_verify must return
 * -ENOMEM (or, when the failed allocation was only an optimisation, the same
 * verdict as without the failure), never abort or crash, and free everything
 * it allocated.
 *
 * The test interposes malloc/calloc/realloc (glibc's __libc_* underneath)
 * and, while armed, fails the N-th allocation; for every program of a few
 * examples it first counts the allocations of a full analysis, then fails
 * each of the first 400 and 200 spread over the rest. Live allocations are
 * counted to find leaks. Under AddressSanitizer the allocator cannot be
 * interposed: the test skips there (tests/run.sh runs it from the normal
 * build too, see verify_oom.test.sh). */
/* min-pass: 0 (interposes malloc: skips under sanitizers; verify_oom.test.sh runs it) */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfgate/bpfgate.h>
#include <bpfgate/verifier.h>
#include "test.h"

#if defined(__SANITIZE_ADDRESS__)
#define NO_INTERPOSE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define NO_INTERPOSE 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define NO_INTERPOSE 1
#endif

#ifndef NO_INTERPOSE
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static bool armed;
static long fail_at = -1; /* allocation number to fail (while armed) */
static long nalloc;       /* allocations while armed */
static long live;         /* live allocations made while armed, minus their frees */

static bool should_fail(void)
{
	if (!armed)
		return false;
	return nalloc++ == fail_at;
}

void *malloc(size_t n);
void *calloc(size_t a, size_t b);
void *realloc(void *p, size_t n);
void free(void *p);
char *strdup(const char *s);

void *malloc(size_t n)
{
	if (should_fail())
		return NULL;
	void *p = __libc_malloc(n);
	if (p && armed)
		live++;
	return p;
}

void *calloc(size_t a, size_t b)
{
	if (should_fail())
		return NULL;
	void *p = __libc_calloc(a, b);
	if (p && armed)
		live++;
	return p;
}

void *realloc(void *p, size_t n)
{
	if (should_fail())
		return NULL;
	void *q = __libc_realloc(p, n);
	if (armed && q && !p)
		live++;
	return q;
}

/* glibc's strdup allocates without going through malloc: count it too */
char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

void free(void *p)
{
	if (p && armed)
		live--;
	__libc_free(p);
}

struct outcome {
	int err;
	int verdict;
	long allocs;
	long leaked;
};

static struct outcome verify_once(const struct bg_program *prog, long fail)
{
	struct bg_verify_opts o = { .sz = sizeof(o) };
	struct bg_verify_result res;
	struct outcome out;
	fail_at = fail;
	nalloc = 0;
	live = 0;
	armed = true;
	out.err = bg_verify(prog, &o, &res);
	out.verdict = out.err ? -1 : (int)res.verdict;
	bg_verify_result__fini(&res);
	armed = false;
	out.allocs = nalloc;
	out.leaked = live;
	return out;
}

static int check_prog(const char *file, const struct bg_program *prog, long *runs)
{
	if (getenv("OOM_ONLY") && strcmp(getenv("OOM_ONLY"), bg_program__name(prog)))
		return 0;
	struct outcome base = verify_once(prog, -1);
	char name[256];
	snprintf(name, sizeof(name), "oom/%s/%s", file, bg_program__name(prog));
	if (base.err || base.leaked) {
		T_FAIL(name, "bg_verify without failures: %d, %ld allocations leaked", base.err, base.leaked);
		return -1;
	}
	long n = base.allocs, nomem = 0, same = 0;
	for (long i = 0; i < n; i++) {
		if (i >= 400 && (i - 400) % (n / 200 + 1))
			continue;
		struct outcome o = verify_once(prog, i);
		(*runs)++;
		if (o.leaked) {
			T_FAIL(name, "allocation %ld of %ld failed: %ld allocations leaked", i, n, o.leaked);
			return -1;
		}
		if (o.err == -ENOMEM) {
			nomem++;
		} else if (!o.err && o.verdict == base.verdict) {
			same++;
		} else {
			T_FAIL(name, "allocation %ld of %ld failed: err %d verdict %d (want -ENOMEM or verdict %d)", i,
			       n, o.err, o.verdict, base.verdict);
			return -1;
		}
	}
	if (!nomem) {
		T_FAIL(name, "no failed allocation gave -ENOMEM (%ld allocations)", n);
		return -1;
	}
	printf("PASS %s: %ld allocations, %ld failures injected: %ld -ENOMEM, %ld same verdict, 0 leaks\n", name,
	       n, nomem + same, nomem, same);
	return 0;
}

static long open_and_check(const char *dir, const char *file, long *runs)
{
	char path[4200], err[256];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	struct bg_object *obj = bg_object__open(path, NULL, err, sizeof(err));
	if (!obj) {
		T_SKIP(file, "cannot open %s: %s", path, err);
		return 0;
	}
	for (size_t i = 0; i < bg_object__prog_cnt(obj); i++)
		check_prog(file, bg_object__prog(obj, i), runs);
	bg_object__free(obj);
	return 1;
}

int main(void)
{
	/* packet parsing, flow map, iterator, kprobe; corpus: every loop form
	 * (bounded, bpf_loop, for_each, subprograms) and rejections */
	static const char *examples[] = { "xdp_parse.bpf.o", "xdp_flowtrack.bpf.o", "iter_task.bpf.o",
					  "kprobe_exec_stats.bpf.o" };
	static const char *corpus[] = { "c14/accept/loops.o", "c14/reject/control.o" };
	char ebuf[4096], cbuf[4096];
	const char *edir = test_build_sub(ebuf, sizeof(ebuf), "BG_EXAMPLES", "examples");
	const char *cdir = test_build_sub(cbuf, sizeof(cbuf), "BG_CORPUS", "corpus");
	long runs = 0;
	bg_set_print(NULL);
	for (size_t f = 0; f < sizeof(examples) / sizeof(examples[0]); f++)
		open_and_check(edir, examples[f], &runs);
	for (size_t f = 0; f < sizeof(corpus) / sizeof(corpus[0]); f++)
		open_and_check(cdir, corpus[f], &runs);
	printf("%ld analyses with an injected allocation failure\n", runs);
	return bg_test_failed ? 1 : 0;
}
#else
int main(void)
{
	T_SKIP("oom", "the allocator cannot be interposed under a sanitizer; verify_oom.test.sh runs the normal build's binary");
	return bg_test_failed;
}
#endif
