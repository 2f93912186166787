/* Minimal test harness for C unit tests. Each check prints one line the
 * runner (tests/run.sh) counts: "PASS name", "FAIL name: why", "SKIP name: why",
 * "XFAIL name: why" (known imprecision, listed with its reason). */
#ifndef BG_TEST_H
#define BG_TEST_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bg_test_failed;

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
