/* Benchmark harness for bench/vm.bench.sh (built by the script, not by make):
 * runs one program of an object on one packet in the interpreter (sanitizing
 * on and off) and through BPF_PROG_TEST_RUN, and prints one line of figures.
 *   vm_bench OBJ PROG PACKET REPEAT LABEL */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpfgate/bpfgate.h>
#include <bpfgate/vm.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); /* CPU time: the machine is shared */
	return t.tv_sec + t.tv_nsec / 1e9;
}

#ifndef TRIALS
#define TRIALS 5
#endif

/* ns per run (the best of TRIALS timings of rep runs: other load on the
 * shared machine only ever adds time) and executed instructions per run. */
static int vm_time(const struct bg_program *p, const void *pkt, size_t len, long rep, int san,
		   double *ns, double *insns)
{
	struct bg_vm_opts o = { .sz = sizeof(o), .no_sanitize = !san };
	struct bg_vm *vm = bg_vm__new(p, &o);
	uint64_t r0, total = 0;
	double t0, t1, best = 1e30;
	long i;
	int t;

	if (!vm)
		return -1;
	bg_vm__set_packet(vm, pkt, len);
	if (bg_vm__run(vm, &r0)) {
		fprintf(stderr, "vm fault: %s\n", bg_vm__fault(vm)->msg);
		bg_vm__free(vm);
		return -1;
	}
	for (t = 0; t < TRIALS; t++) {
		total = 0;
		t0 = now();
		for (i = 0; i < rep; i++) {
			bg_vm__run(vm, &r0);
			total += bg_vm__insn_count(vm);
		}
		t1 = now();
		if ((t1 - t0) * 1e9 / rep < best)
			best = (t1 - t0) * 1e9 / rep;
	}
	*ns = best;
	*insns = (double)total / rep;
	bg_vm__free(vm);
	return 0;
}

int main(int argc, char **argv)
{
	char err[256] = "", *pkt;
	struct bg_object *obj;
	struct bg_program *p;
	double ns_off, ns_on, ins, ins2;
	long rep, len;
	FILE *f;
	struct bg_kload_opts ko = { .sz = sizeof(ko), .keep_fd = 1 };
	struct bg_kload_result kr;
	uint32_t kns = 0, ret;
	const char *why;

	if (argc < 6)
		return 2;
	rep = atol(argv[4]);
	bg_set_print(NULL);
	obj = bg_object__open(argv[1], NULL, err, sizeof(err));
	p = obj ? bg_object__find_prog(obj, argv[2]) : NULL;
	f = fopen(argv[3], "rb");
	if (!p || !f) {
		fprintf(stderr, "vm_bench: %s %s\n", err, argv[2]);
		return 2;
	}
	pkt = malloc(65536);
	len = (long)fread(pkt, 1, 65536, f);
	fclose(f);
	if (vm_time(p, pkt, (size_t)len, rep, 0, &ns_off, &ins) ||
	    vm_time(p, pkt, (size_t)len, rep, 1, &ns_on, &ins2))
		return 1;
	memset(&kr, 0, sizeof(kr));
	if (bg_kern_available(&why) && !bg_kern_load(p, &ko, &kr) &&
	    kr.verdict == BG_VERDICT_ACCEPTED) {
		struct bg_test_run_opts to = { .sz = sizeof(to), .data_in = pkt,
					       .data_size_in = (uint32_t)len,
					       .repeat = (uint32_t)rep };

		uint32_t d;
		int t;

		for (t = 0; t < TRIALS; t++) {
			to.repeat = (uint32_t)rep;
			if (bg_kern_test_run(kr.prog_fd, &to, &ret, &d)) {
				kns = 0;
				break;
			}
			if (!kns || d < kns)
				kns = d;
		}
	}
	printf("%-10s insns/run %8.0f | vm off %9.1f ns/run %6.0f Minsn/s | vm on %9.1f ns/run "
	       "%6.0f Minsn/s (x%.2f) | kernel %8u ns/run | vm/kernel off x%.1f on x%.1f\n",
	       argv[5], ins, ns_off, ins / ns_off * 1e3, ns_on, ins / ns_on * 1e3, ns_on / ns_off,
	       kns, kns ? ns_off / kns : 0.0, kns ? ns_on / kns : 0.0);
	bg_kload_result__fini(&kr);
	bg_object__free(obj);
	free(pkt);
	return 0;
}
