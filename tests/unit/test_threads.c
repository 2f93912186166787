/* Thread safety of the library: 8 threads at once open, disassemble,
 * verify (bg_verify and bg_verify_states) and interpret different objects
 * (the examples, one corpus variant's accepted and rejected programs, and
 * tests/data/obj compiled here: globals.bpf.c's calls with invalid global
 * function arguments, whose diagnostics once shared static buffers), and
 * all of them also verify the programs of one object opened once and shared
 * (globals.bpf.c's). Every verdict and message
 * must equal the one a single thread computed first. Built and run under
 * ThreadSanitizer by `make tsan` (tests/threads.test.sh), where any data
 * race in the library fails the run; the ordinary builds run it too.
 * $BG_THREADS_OBJS limits the objects per thread (default all). */
/* min-pass: 1 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpfgate/bpfgate.h>
#include <bpfgate/verifier.h>
#include <bpfgate/vm.h>
#include "test.h"
#include "test_obj_util.h"

#define NTHREADS 8
#define MAX_OBJS 128
#define MAX_PROGS 64

struct ref {
	char path[512];
	size_t nprogs;
	int verdict[MAX_PROGS];
	char *msg[MAX_PROGS];
	uint64_t r0[MAX_PROGS]; /* XDP / socket programs: r0 on a zero packet, or ~0 */
};

static struct ref refs[MAX_OBJS];
static size_t nrefs;
static struct bg_object *shared;
static struct ref shared_ref;
static pthread_barrier_t start;
static int failures[NTHREADS];

static int quiet(enum bg_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static bool runnable(const struct bg_program *p)
{
	uint32_t t = bg_program__type(p);
	return t == BPF_PROG_TYPE_XDP || t == BPF_PROG_TYPE_SOCKET_FILTER || t == BPF_PROG_TYPE_SCHED_CLS;
}

static uint64_t run_once(const struct bg_program *p)
{
	static const uint8_t pkt[64];
	struct bg_vm_opts o = { .sz = sizeof(o) };
	struct bg_vm *vm;
	uint64_t r0 = ~0ull;

	if (!runnable(p) || !(vm = bg_vm__new(p, &o)))
		return ~0ull;
	if (bg_vm__set_packet(vm, pkt, sizeof(pkt)) || bg_vm__run(vm, &r0))
		r0 = ~1ull;
	bg_vm__free(vm);
	return r0;
}

/* Verdicts of every program of obj; with ref == NULL fill out, else compare. */
static int judge(const char *who, const struct bg_object *obj, struct ref *out, const struct ref *ref)
{
	int bad = 0;
	size_t n = bg_object__prog_cnt(obj);
	if (n > MAX_PROGS)
		n = MAX_PROGS;
	for (size_t i = 0; i < n; i++) {
		const struct bg_program *p = bg_object__prog(obj, i);
		struct bg_verify_opts vo = { .sz = sizeof(vo) };
		struct bg_verify_result r;
		size_t ni = 0;
		char dis[128];
		const struct bg_insn *in = bg_program__insns(p, &ni);
		for (size_t k = 0; in && k < ni; k++)
			bg_insn_format(&in[k], dis, sizeof(dis));
		int e = bg_verify(p, &vo, &r);
		int verdict = e ? -1 : (int)r.verdict;
		const char *msg = !e && r.diag.message ? r.diag.message : "";
		uint64_t r0 = verdict == BG_VERDICT_ACCEPTED ? run_once(p) : ~0ull;
		if (!ref) {
			out->verdict[i] = verdict;
			out->msg[i] = strdup(msg);
			out->r0[i] = r0;
		} else if (verdict != ref->verdict[i] || strcmp(msg, ref->msg[i]) || r0 != ref->r0[i]) {
			printf("FAIL threads/%s: %s %s: verdict %d r0 %llu '%s', alone %d r0 %llu '%s'\n", who,
			       bg_object__path(obj), bg_program__name(p), verdict, (unsigned long long)r0, msg,
			       ref->verdict[i], (unsigned long long)ref->r0[i], ref->msg[i]);
			bad++;
		}
		bg_verify_result__fini(&r);
		if (ref && i == 0) {
			/* the claims API too (its own analysis run) */
			struct bg_verify_states *st = bg_verify_states__new(p, NULL);
			if (!st || (int)bg_verify_states__result(st)->verdict != ref->verdict[i]) {
				printf("FAIL threads/%s: %s %s: bg_verify_states verdict differs\n", who,
				       bg_object__path(obj), bg_program__name(p));
				bad++;
			}
			bg_verify_states__free(st);
		}
	}
	if (out)
		out->nprogs = n;
	return bad;
}

static void *worker(void *arg)
{
	int id = (int)(intptr_t)arg;
	char who[16], err[256];
	size_t limit = getenv("BG_THREADS_OBJS") ? (size_t)atoi(getenv("BG_THREADS_OBJS")) : nrefs;
	snprintf(who, sizeof(who), "t%d", id);
	pthread_barrier_wait(&start);
	/* every thread starts at a different object and walks all of them */
	for (size_t k = 0; k < nrefs && k < limit; k++) {
		const struct ref *ref = &refs[(k + (size_t)id * 7) % nrefs];
		struct bg_object *obj = bg_object__open(ref->path, NULL, err, sizeof(err));
		if (!obj) {
			printf("FAIL threads/%s: open %s: %s\n", who, ref->path, err);
			failures[id]++;
			continue;
		}
		failures[id] += judge(who, obj, NULL, ref);
		bg_object__free(obj);
		if (k % 4 == 0) /* the shared object, verified by all threads at once */
			failures[id] += judge(who, shared, NULL, &shared_ref);
		if (k % 16 == (size_t)id)
			bg_set_print(quiet); /* swapping the callback while others print */
	}
	return NULL;
}

static void add_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d)) && nrefs < MAX_OBJS) {
		size_t l = strlen(e->d_name);
		if (l > 2 && !strcmp(e->d_name + l - 2, ".o"))
			snprintf(refs[nrefs++].path, sizeof(refs[0].path), "%s/%s", dir, e->d_name);
	}
	closedir(d);
}

int main(void)
{
	char ebuf[4096], cbuf[4096], dir[4200], err[256];
	const char *edir = test_build_sub(ebuf, sizeof(ebuf), "BG_EXAMPLES", "examples");
	const char *cdir = test_build_sub(cbuf, sizeof(cbuf), "BG_CORPUS", "corpus");
	pthread_t th[NTHREADS];
	size_t nprogs = 0;
	int total = 0;

	bg_set_print(quiet);
	add_dir(edir);
	snprintf(dir, sizeof(dir), "%s/c19v4/accept", cdir);
	add_dir(dir);
	snprintf(dir, sizeof(dir), "%s/c19/reject", cdir);
	add_dir(dir);
	if (tu_compile_all()) {
		T_FAIL("threads", "cannot compile tests/data/obj with clang-14");
		tu_cleanup();
		return 1;
	}
	add_dir(tu_dir);
	if (nrefs < 8) {
		T_FAIL("threads", "fewer than 8 objects in %s and %s/c19v4 (build the examples and corpus)", edir,
		       cdir);
		tu_cleanup();
		return 1;
	}
	/* references, one thread */
	for (size_t i = 0; i < nrefs; i++) {
		struct bg_object *obj = bg_object__open(refs[i].path, NULL, err, sizeof(err));
		if (!obj) {
			/* objects built to be refused by the loader (malformed.bpf.c) */
			if (strstr(refs[i].path, "malformed")) {
				refs[i--] = refs[--nrefs];
				continue;
			}
			T_FAIL("threads_ref", "open %s: %s", refs[i].path, err);
			tu_cleanup();
			return 1;
		}
		judge("ref", obj, &refs[i], NULL);
		nprogs += refs[i].nprogs;
		bg_object__free(obj);
	}
	/* the object all threads verify at once: globals.bpf.c (rejections
	 * with global-function diagnostics), else the first one */
	char spath[PATH_MAX];
	tu_obj("globals", 19, spath, sizeof(spath));
	if (access(spath, R_OK))
		tu_obj("globals", 14, spath, sizeof(spath));
	shared = bg_object__open(spath, NULL, err, sizeof(err));
	if (!shared) {
		T_FAIL("threads_ref", "open %s: %s", spath, err);
		tu_cleanup();
		return 1;
	}
	judge("ref", shared, &shared_ref, NULL);
	pthread_barrier_init(&start, NULL, NTHREADS);
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], NULL);
		total += failures[i];
	}
	pthread_barrier_destroy(&start);
	T_CHECK(total == 0, "threads_same_verdicts",
		"%d differences between 8 concurrent threads and one thread", total);
	if (!total)
		printf("PASS threads: %d threads x %zu of %zu objects (%zu programs) + 1 shared object, verdicts, "
		       "messages, claims and interpreter results equal to one thread's\n",
		       NTHREADS, getenv("BG_THREADS_OBJS") && (size_t)atoi(getenv("BG_THREADS_OBJS")) < nrefs
				 ? (size_t)atoi(getenv("BG_THREADS_OBJS")) : nrefs,
		       nrefs, nprogs);
	bg_object__free(shared);
	for (size_t i = 0; i < nrefs; i++)
		for (size_t k = 0; k < refs[i].nprogs; k++)
			free(refs[i].msg[k]);
	for (size_t k = 0; k < shared_ref.nprogs; k++)
		free(shared_ref.msg[k]);
	tu_cleanup();
	return bg_test_failed ? 1 : 0;
}
