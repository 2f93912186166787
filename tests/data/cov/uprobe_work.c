/* Workload of tests/cov.test.sh for examples/uprobe_classify.bpf.c: calls
 * classify() on a fixed list ROUNDS times (argv[1], default 1). Per round:
 * arguments 1 negative, 4 small (two even, two odd), 2 big; results -1 once,
 * 0 twice, 1 twice, 2 twice; step_odd() and step_even() twice each. Built
 * with gcc -O0; noinline keeps the calls. */
#include <stdlib.h>

/* parity of small arguments: probed together by uprobe.multi ("step_*") */
__attribute__((noinline)) long step_odd(long x)
{
	return x & 1;
}

__attribute__((noinline)) long step_even(long x)
{
	return x & 1;
}

__attribute__((noinline)) long classify(long x)
{
	if (x < 0)
		return -1;
	if (x < 100)
		return x % 2 ? step_odd(x) : step_even(x);
	return 2;
}

int main(int argc, char **argv)
{
	static const long xs[] = {-5, 7, 42, 99, 64, 100, 1000};
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	long sum = 0;

	for (int r = 0; r < rounds; r++)
		for (unsigned i = 0; i < sizeof(xs) / sizeof(xs[0]); i++)
			sum += classify(xs[i]);
	return sum == 5L * rounds ? 0 : 1;
}
