/* Shared by the loader's unit tests (tests/unit/test_obj*.c): locate the
 * source tree from the test binary, compile tests/data/obj/ with clang into a
 * temporary directory, and remove it afterwards. Header-only on purpose: every
 * unit test source is its own binary. */
#ifndef BG_TEST_OBJ_UTIL_H
#define BG_TEST_OBJ_UTIL_H
#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tu_root[PATH_MAX], tu_dir[PATH_MAX];
/* compilers: clang-14, clang-19, clang-19 -mcpu=v4 (named 194) */
static const int tu_variants[] = {14, 19, 194};

/* BUILD/tests/BINARY -> source root */
static const char *tu_root_dir(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (tu_root[0])
		return tu_root;
	if (n <= 0)
		return ".";
	exe[n] = '\0';
	snprintf(tu_root, sizeof(tu_root), "%s", dirname(dirname(dirname(exe))));
	return tu_root;
}

static __attribute__((unused)) const char *tu_examples_dir(char *buf, size_t sz)
{
	const char *e = getenv("BG_EXAMPLES");

	if (e && *e)
		snprintf(buf, sz, "%s", e);
	else
		snprintf(buf, sz, "%s/build/examples", tu_root_dir());
	return buf;
}

/* Path of a compiled test object: tu_obj("calls", 14) -> DIR/calls.14.o */
static __attribute__((unused)) const char *tu_obj(const char *name, int clang, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s.%d.o", tu_dir, name, clang);
	return buf;
}

/* Compile every tests/data/obj/NAME.bpf.c with clang-14 and clang-19 (when
 * installed), and btf_nofield.c, into a fresh temporary directory. */
static __attribute__((unused)) int tu_compile_all(void)
{
	char cmd[3 * PATH_MAX], src[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int fails = 0;

	snprintf(tu_dir, sizeof(tu_dir), "/tmp/bg-test-obj.XXXXXX");
	if (!mkdtemp(tu_dir))
		return -1;
	snprintf(src, sizeof(src), "%s/tests/data/obj", tu_root_dir());
	d = opendir(src);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char base[256];

		if (l < 7 || strcmp(de->d_name + l - 6, ".bpf.c") || l - 6 >= sizeof(base))
			continue;
		memcpy(base, de->d_name, l - 6);
		base[l - 6] = '\0';
		for (size_t i = 0; i < sizeof(tu_variants) / sizeof(tu_variants[0]); i++) {
			int v = tu_variants[i], cl = v > 100 ? v / 10 : v;

			snprintf(cmd, sizeof(cmd),
				 "command -v clang-%d >/dev/null && clang-%d -O2 -g -target bpf -Wno-everything %s "
				 "-I/usr/include/x86_64-linux-gnu -c %s/%s -o %s/%s.%d.o",
				 cl, cl, v > 100 ? "-mcpu=v4" : "", src, de->d_name, tu_dir, base, v);
			if (system(cmd) != 0 && v == 14)
				fails++;
		}
	}
	closedir(d);
	snprintf(cmd, sizeof(cmd), "clang-14 -g -target bpf -c %s/btf_nofield.c -o %s/btf_nofield.o",
		 src, tu_dir);
	fails += system(cmd) != 0;
	return fails ? -1 : 0;
}

static __attribute__((unused)) void tu_cleanup(void)
{
	char cmd[PATH_MAX + 16];

	if (!tu_dir[0] || strncmp(tu_dir, "/tmp/bg-test-obj.", 17))
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tu_dir);
	if (system(cmd)) {
	}
}
#endif
