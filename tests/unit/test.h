/* Minimal test harness for C unit tests. Each check prints one line the
 * runner (tests/run.sh) counts: "PASS name", "FAIL name: why", "SKIP name: why",
 * "XFAIL name: why" (known imprecision, listed with its reason). */
#ifndef BG_TEST_H
#define BG_TEST_H
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int bg_test_failed;

/* The directory `levels` above the running test binary
 * (BUILD/tests/x: 2 -> BUILD, 3 -> the repository root). */
static inline void test_exe_dir_up(char *out, size_t sz, int levels)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int i;

	exe[n > 0 ? n : 0] = 0;
	for (i = 0; i < levels; i++) {
		char *s = strrchr(exe, '/');

		if (s)
			*s = 0;
	}
	snprintf(out, sz, "%s", exe);
}

/* The build directory of the running test binary. */
static inline void test_build_dir(char *out, size_t sz)
{
	test_exe_dir_up(out, sz, 2);
}

/* Repository root: $BG_ROOT, else three levels above the binary. */
static inline void test_root_dir(char *out, size_t sz)
{
	const char *env = getenv("BG_ROOT");

	if (env)
		snprintf(out, sz, "%s", env);
	else
		test_exe_dir_up(out, sz, 3);
}

/* $ENV, else BUILD/SUB, else (the ASan build has no examples or corpus)
 * the normal build's ../build/SUB. */
static inline const char *test_build_sub(char *buf, size_t sz, const char *env, const char *sub)
{
	const char *v = getenv(env);
	char build[PATH_MAX];

	if (v)
		return v;
	test_build_dir(build, sizeof(build));
	snprintf(buf, sz, "%s/%s", build, sub);
	if (access(buf, R_OK))
		snprintf(buf, sz, "%s/../build/%s", build, sub);
	return buf;
}

#define T_PASS(name) printf("PASS %s\n", (name))
#define T_FAIL(name, ...)                                                 \
	do {                                                              \
		printf("FAIL %s: ", (name));                              \
		printf(__VA_ARGS__);                                      \
		printf("\n");                                             \
		bg_test_failed++;                                         \
	} while (0)
#define T_SKIP(name, ...)                                                 \
	do {                                                              \
		printf("SKIP %s: ", (name));                              \
		printf(__VA_ARGS__);                                      \
		printf("\n");                                             \
	} while (0)
#define T_XFAIL(name, ...)                                                \
	do {                                                              \
		printf("XFAIL %s: ", (name));                             \
		printf(__VA_ARGS__);                                      \
		printf("\n");                                             \
	} while (0)
/* Check a condition; report PASS or FAIL with the message. */
#define T_CHECK(cond, name, ...)                                          \
	do {                                                              \
		if (cond)                                                 \
			T_PASS(name);                                     \
		else                                                      \
			T_FAIL(name, __VA_ARGS__);                        \
	} while (0)
#define T_EXIT() return bg_test_failed ? 1 : 0
#endif
