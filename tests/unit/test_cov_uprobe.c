/* uprobe targets: "PATH:FUNC[+OFF]" resolved through the ELF symbol table
 * must give the file offset the loader actually mapped the function from.
 * The oracle is this very process: the function's runtime address, minus the
 * start of its mapping in /proc/self/maps, plus that mapping's file offset.
 * Also: raw offsets, +OFF, library lookup, and bad input refused with a
 * reason (no crash). */
/* min-pass: 26 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cov/uprobe.h"
#include "test.h"

__attribute__((noinline, used)) int bg_test_uprobe_target_fn(int x);
__attribute__((noinline, used)) int bg_test_uprobe_target_fn(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline, used)) int bg_test_uprobe_target_gn(int x);
__attribute__((noinline, used)) int bg_test_uprobe_target_gn(int x)
{
	return x * 5 + 2;
}

/* File offset of a runtime code address, from /proc/self/maps. */
static int64_t mapped_offset(uintptr_t addr, char *path, size_t pathsz)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	int64_t off = -1;

	while (f && fgets(line, sizeof(line), f)) {
		uint64_t lo, hi, foff;
		char perms[8], file[512] = "";

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %511s", &lo, &hi, perms, &foff,
			   file) < 4)
			continue;
		if (addr >= lo && addr < hi) {
			off = (int64_t)(addr - lo + foff);
			snprintf(path, pathsz, "%s", file);
			break;
		}
	}
	if (f)
		fclose(f);
	return off;
}

static void resolves_own_function(void)
{
	char exe[PATH_MAX], spec[PATH_MAX + 64], err[512] = "", mapped[PATH_MAX] = "";
	struct bg_uprobe_target t;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int64_t want = mapped_offset((uintptr_t)&bg_test_uprobe_target_fn, mapped, sizeof(mapped));
	int rc;

	if (n <= 0 || want < 0) {
		T_SKIP("uprobe/resolve-self", "no /proc/self/exe or maps");
		return;
	}
	exe[n] = 0;
	snprintf(spec, sizeof(spec), "%s:bg_test_uprobe_target_fn", exe);
	rc = bg_uprobe__resolve(spec, &t, err, sizeof(err));
	T_CHECK(rc == 0 && (int64_t)t.offset == want && !strcmp(t.path, exe), "uprobe/resolve-self",
		"rc %d (%s), offset 0x%" PRIx64 ", mapped at file offset 0x%" PRIx64 " of %s", rc, err, t.offset,
		(uint64_t)want, mapped);
	snprintf(spec, sizeof(spec), "%s:bg_test_uprobe_target_fn+0x10", exe);
	rc = bg_uprobe__resolve(spec, &t, err, sizeof(err));
	T_CHECK(rc == 0 && (int64_t)t.offset == want + 16, "uprobe/resolve-plus-offset", "rc %d (%s)", rc, err);
	snprintf(spec, sizeof(spec), "%s:0x1234", exe);
	rc = bg_uprobe__resolve(spec, &t, err, sizeof(err));
	T_CHECK(rc == 0 && t.offset == 0x1234, "uprobe/resolve-raw-offset", "rc %d (%s)", rc, err);
}

/* uprobe.multi: a glob gives every matching function, each at its mapped
 * file offset. */
static void resolves_glob(void)
{
	char exe[PATH_MAX], spec[PATH_MAX + 64], path[PATH_MAX], err[512] = "", m[PATH_MAX];
	uint64_t offs[8];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int64_t f = mapped_offset((uintptr_t)&bg_test_uprobe_target_fn, m, sizeof(m));
	int64_t g = mapped_offset((uintptr_t)&bg_test_uprobe_target_gn, m, sizeof(m));
	int rc;

	if (n <= 0 || f < 0 || g < 0) {
		T_SKIP("uprobe/resolve-glob", "no /proc/self/exe or maps");
		return;
	}
	exe[n] = 0;
	snprintf(spec, sizeof(spec), "%s:bg_test_uprobe_target_?n", exe);
	rc = bg_uprobe__resolve_multi(spec, path, sizeof(path), offs, 8, err, sizeof(err));
	T_CHECK(rc == 2 && ((int64_t)offs[0] == f || (int64_t)offs[1] == f) &&
		    ((int64_t)offs[0] == g || (int64_t)offs[1] == g),
		"uprobe/resolve-glob", "rc %d (%s)", rc, err);
	snprintf(spec, sizeof(spec), "%s:bg_nothing_*", exe);
	rc = bg_uprobe__resolve_multi(spec, path, sizeof(path), offs, 8, err, sizeof(err));
	T_CHECK(rc == -ENOENT && strstr(err, "no function matches"), "uprobe/resolve-glob-none", "rc %d (%s)", rc,
		err);
}

static void refuses(const char *name, const char *spec, int want_rc, const char *want_msg)
{
	struct bg_uprobe_target t;
	char err[512] = "";
	int rc = bg_uprobe__resolve(spec, &t, err, sizeof(err));

	T_CHECK(rc == want_rc && strstr(err, want_msg), name, "rc %d, want %d; message '%s', want '%s'", rc, want_rc,
		err, want_msg);
}

static void bad_input(void)
{
	char exe[PATH_MAX], spec[PATH_MAX + 64], tmp[] = "/tmp/bg-uprobe-XXXXXX";
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int fd = mkstemp(tmp);

	exe[n > 0 ? n : 0] = 0;
	refuses("uprobe/refuse-no-colon", "/bin/true", -EINVAL, "want PATH:FUNC");
	refuses("uprobe/refuse-bad-offset", "/bin/true:main+zz", -EINVAL, "want PATH:FUNC");
	refuses("uprobe/refuse-missing-file", "/nonexistent/bin:main", -ENOENT, "/nonexistent/bin");
	refuses("uprobe/refuse-not-in-path", "bg-no-such-tool:main", -ENOENT, "not found in the standard program directories");
	snprintf(spec, sizeof(spec), "%s:bg_no_such_function", exe);
	refuses("uprobe/refuse-missing-symbol", spec, -ENOENT, "no function 'bg_no_such_function'");
	if (fd >= 0) {
		if (write(fd, "#!/bin/sh\nexit 0\n", 17) != 17)
			T_FAIL("uprobe/refuse-not-elf", "cannot write %s", tmp);
		close(fd);
		snprintf(spec, sizeof(spec), "%s:main", tmp);
		refuses("uprobe/refuse-not-elf", spec, -ENOEXEC, "not an ELF file");
		unlink(tmp);
	}
}

static void library_lookup(void)
{
	struct bg_uprobe_target t;
	char err[512] = "";
	int rc = bg_uprobe__resolve("libc.so.6:malloc", &t, err, sizeof(err));

	if (rc == -ENOENT && strstr(err, "library directories")) {
		T_SKIP("uprobe/resolve-library", "%s", err);
		return;
	}
	T_CHECK(rc == 0 && t.offset > 0 && strstr(t.path, "/libc.so.6"), "uprobe/resolve-library",
		"rc %d (%s) path %s offset 0x%" PRIx64, rc, err, t.path, t.offset);
}

static void usdt_absent(void)
{
	char exe[PATH_MAX], spec[PATH_MAX + 64], err[512] = "";
	struct bg_uprobe_target t[4];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int rc;

	exe[n > 0 ? n : 0] = 0;
	snprintf(spec, sizeof(spec), "%s:bgprov:nothing", exe);
	rc = bg_usdt__resolve(spec, t, 4, err, sizeof(err));
	T_CHECK(rc == -ENOENT && strstr(err, "no USDT probe bgprov:nothing"), "usdt/refuse-missing-probe",
		"rc %d: %s", rc, err);
	rc = bg_usdt__resolve("/bin/true:onlyprovider", t, 4, err, sizeof(err));
	T_CHECK(rc == -EINVAL, "usdt/refuse-bad-spec", "rc %d: %s", rc, err);
}

/* Operands as gcc writes them into .note.stapsdt, decoded into libbpf's
 * spec layout: pt_regs offsets of x86-64 (di 112, si 104, bp 32, ax 80). */
static void usdt_args(void)
{
	struct bg_usdt_spec sp;
	char err[256] = "";
	int rc = bg_usdt__parse_args("-8@%rdi -4@%esi 8@-16(%rbp) -4@$7 1@(%rax) 2@%r9w", &sp, err, sizeof(err));
	const struct bg_usdt_arg *a = sp.args;

	T_CHECK(rc == 0 && sp.arg_cnt == 6, "usdt/args-count", "rc %d (%s), %d args", rc, err, sp.arg_cnt);
	T_CHECK(a[0].type == BG_USDT_ARG_REG && a[0].reg_off == 112 && a[0].is_signed && a[0].bitshift == 0,
		"usdt/args-reg64", "type %u reg %d signed %u shift %d", a[0].type, a[0].reg_off, a[0].is_signed,
		a[0].bitshift);
	T_CHECK(a[1].type == BG_USDT_ARG_REG && a[1].reg_off == 104 && a[1].is_signed && a[1].bitshift == 32,
		"usdt/args-reg32", "type %u reg %d shift %d", a[1].type, a[1].reg_off, a[1].bitshift);
	T_CHECK(a[2].type == BG_USDT_ARG_REG_DEREF && a[2].reg_off == 32 && a[2].val_off == (uint64_t)-16 &&
		    !a[2].is_signed,
		"usdt/args-deref", "type %u reg %d off %" PRId64, a[2].type, a[2].reg_off, (int64_t)a[2].val_off);
	T_CHECK(a[3].type == BG_USDT_ARG_CONST && a[3].val_off == 7 && a[3].bitshift == 32, "usdt/args-const",
		"type %u val %" PRIu64, a[3].type, a[3].val_off);
	T_CHECK(a[4].type == BG_USDT_ARG_REG_DEREF && a[4].reg_off == 80 && a[4].val_off == 0 && a[4].bitshift == 56,
		"usdt/args-deref-no-offset", "type %u reg %d", a[4].type, a[4].reg_off);
	T_CHECK(a[5].type == BG_USDT_ARG_REG && a[5].reg_off == 64 && a[5].bitshift == 48, "usdt/args-r9w",
		"reg %d shift %d", a[5].reg_off, a[5].bitshift);
	rc = bg_usdt__parse_args("", &sp, err, sizeof(err));
	T_CHECK(rc == 0 && sp.arg_cnt == 0, "usdt/args-none", "rc %d", rc);
	static const char *const bad[] = {"8@%xmm0", "3@%rax", "8@8(%rip)", "8@(%rax,%rbx,8)", "%rax", "8@$x", "8@"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char name[64];

		snprintf(name, sizeof(name), "usdt/args-refuse/%s", bad[i]);
		rc = bg_usdt__parse_args(bad[i], &sp, err, sizeof(err));
		T_CHECK(rc == -EINVAL && strstr(err, "not understood"), name, "rc %d: %s", rc, err);
	}
}

int main(void)
{
	usdt_args();
	resolves_own_function();
	resolves_glob();
	bad_input();
	library_lookup();
	usdt_absent();
	T_EXIT();
}
