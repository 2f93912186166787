/* Workload of tests/cov.test.sh for examples/usdt_step.bpf.c: ROUNDS (argv[1],
 * default 1) rounds of 5 steps k = -2..2 on a running sum x starting at 0;
 * each step fires bgwork:step(x, k, 7) if its semaphore is raised. Per round
 * the probe sees (x, k) = (0,-2) (-2,-1) (-3,0) (-3,1) (-2,2): k < 0 twice,
 * then x < -2 twice, else once. Exit status: 0 when the probe fired every
 * time (the semaphore was raised), 1 when it never did, 2 otherwise. */
#define _SDT_HAS_SEMAPHORES 1
#include <stdlib.h>
#include <sys/sdt.h>

unsigned short bgwork_step_semaphore __attribute__((unused)) __attribute__((section(".probes")));

static int fired;

__attribute__((noinline)) static long step(long x, int k)
{
	if (bgwork_step_semaphore) {
		STAP_PROBE3(bgwork, step, x, k, 7);
		fired++;
	}
	return x + k;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	long x = 0;

	for (int r = 0; r < rounds; r++)
		for (int k = -2; k <= 2; k++)
			x = step(x, k);
	return fired == 5 * rounds ? 0 : fired ? 2 : 1;
}
