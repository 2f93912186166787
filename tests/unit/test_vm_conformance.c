/* Conformance suite of the interpreter: every tests/data/vm/<family>/<case>.data
 * file is assembled (bg_asm), decoded (bg_prog_decode), run with the file's
 * memory as r1/r2, and its r0 (or error message) compared with the file's
 * expectation. One PASS/FAIL line per file. Result cases run with sanitizing
 * on and off (both must agree); error cases with sanitizing on. */
/* min-pass: 578 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpfgate/insn.h>
#include <bpfgate/vm.h>
#include "test.h"


struct tcase {
	char asm_text[16384];
	uint8_t mem[4096];
	size_t memlen;
	int has_result;
	uint64_t result;
	char error[256];
};

static int parse_case(const char *text, struct tcase *c, char *why, size_t whysz)
{
	const char *p = text;
	int section = 0; /* 1 asm, 2 mem, 3 result, 4 error */
	size_t an = 0;

	memset(c, 0, sizeof(*c));
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char line[1024];

		if (n >= sizeof(line)) {
			snprintf(why, whysz, "line too long");
			return -1;
		}
		memcpy(line, p, n);
		line[n] = 0;
		p += n + (e ? 1 : 0);
		if (!strncmp(line, "-- ", 3)) {
			section = !strcmp(line + 3, "asm") ? 1 : !strcmp(line + 3, "mem") ? 2
				  : !strcmp(line + 3, "result") ? 3 : !strcmp(line + 3, "error") ? 4 : -1;
			if (section < 0) {
				snprintf(why, whysz, "unknown section '%s'", line);
				return -1;
			}
			continue;
		}
		if (section == 1) {
			if (an + n + 2 >= sizeof(c->asm_text)) {
				snprintf(why, whysz, "program too long");
				return -1;
			}
			memcpy(c->asm_text + an, line, n);
			an += n;
			c->asm_text[an++] = '\n';
		} else if (section == 2) {
			char *s = line;

			while (*s) {
				char *end;
				unsigned long b;

				while (*s == ' ')
					s++;
				if (!*s)
					break;
				b = strtoul(s, &end, 16);
				if (end == s || b > 255 || c->memlen >= sizeof(c->mem)) {
					snprintf(why, whysz, "bad memory byte");
					return -1;
				}
				c->mem[c->memlen++] = (uint8_t)b;
				s = end;
			}
		} else if (section == 3 && line[0]) {
			c->result = strtoull(line, NULL, 0);
			c->has_result = 1;
		} else if (section == 4 && line[0]) {
			snprintf(c->error, sizeof(c->error), "%s", line);
		}
	}
	c->asm_text[an] = 0;
	if (!c->has_result && !c->error[0]) {
		snprintf(why, whysz, "no -- result or -- error section");
		return -1;
	}
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = 0;
	fclose(f);
	return buf;
}

/* Run; returns 0 with *r0, or -1 with the fault message in msg. */
static int run_case(const struct bg_insn *ins, size_t n, const struct tcase *c, int sanitize,
		    uint64_t *r0, char *msg, size_t msgsz)
{
	struct bg_vm_opts o = { .sz = sizeof(o), .no_sanitize = !sanitize,
				.insn_budget = 1ull << 26 };
	struct bg_vm *vm = bg_vm__new_insns(ins, n, &o);
	int err;

	if (!vm) {
		snprintf(msg, msgsz, "bg_vm__new_insns: %s", strerror(errno));
		return -1;
	}
	if (c->memlen)
		bg_vm__set_ctx(vm, c->mem, c->memlen);
	err = bg_vm__run(vm, r0);
	if (err) {
		const struct bg_vm_fault *f = bg_vm__fault(vm);

		snprintf(msg, msgsz, "%s", f ? f->msg : "error without fault");
	}
	bg_vm__free(vm);
	return err ? -1 : 0;
}

static void one_case(const char *path, const char *name)
{
	static struct tcase c;
	char why[512], msg[512];
	struct bg_raw_insn *raw = NULL;
	struct bg_insn *ins = NULL;
	const char *dwhy = NULL;
	size_t bad = 0;
	char *text = slurp(path);
	uint64_t r0 = 0, r0n = 0;
	int n, err;

	if (!text) {
		T_FAIL(name, "cannot read %s", path);
		return;
	}
	if (parse_case(text, &c, why, sizeof(why))) {
		T_FAIL(name, "%s: %s", path, why);
		free(text);
		return;
	}
	free(text);
	n = bg_asm(c.asm_text, &raw, why, sizeof(why));
	if (n <= 0) {
		T_FAIL(name, "assembler: %s", why);
		return;
	}
	ins = calloc((size_t)n, sizeof(*ins));
	if (!ins || bg_prog_decode(raw, (size_t)n, ins, &bad, &dwhy)) {
		T_FAIL(name, "decode: insn %zu: %s", bad, dwhy ? dwhy : "?");
		goto out;
	}
	err = run_case(ins, (size_t)n, &c, 1, &r0, msg, sizeof(msg));
	if (c.error[0]) {
		T_CHECK(err && strstr(msg, c.error), name, "want error '%s', got %s", c.error,
			err ? msg : "success");
		goto out;
	}
	if (err) {
		T_FAIL(name, "unexpected fault: %s", msg);
		goto out;
	}
	err = run_case(ins, (size_t)n, &c, 0, &r0n, msg, sizeof(msg));
	T_CHECK(r0 == c.result && !err && r0n == r0, name,
		"r0 0x%llx (unsanitized 0x%llx%s%s), want 0x%llx", (unsigned long long)r0,
		(unsigned long long)r0n, err ? ", fault: " : "", err ? msg : "",
		(unsigned long long)c.result);
out:
	free(ins);
	free(raw);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	char root[PATH_MAX], dir[PATH_MAX + 32];
	char *names[4096];
	size_t nn = 0, i;
	DIR *d, *sub;
	struct dirent *e, *f;

	test_root_dir(root, sizeof(root));
	snprintf(dir, sizeof(dir), "%s/tests/data/vm", root);
	d = opendir(dir);
	if (!d) {
		T_FAIL("vm conformance", "cannot open %s", dir);
		T_EXIT();
	}
	while ((e = readdir(d))) {
		char sd[PATH_MAX * 2];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sd, sizeof(sd), "%s/%s", dir, e->d_name);
		sub = opendir(sd);
		if (!sub)
			continue;
		while ((f = readdir(sub)) && nn < 4096) {
			size_t l = strlen(f->d_name);
			char nm[600];

			if (l < 6 || strcmp(f->d_name + l - 5, ".data"))
				continue;
			snprintf(nm, sizeof(nm), "%s/%s", e->d_name, f->d_name);
			names[nn++] = strdup(nm);
		}
		closedir(sub);
	}
	closedir(d);
	qsort(names, nn, sizeof(names[0]), cmp_names);
	for (i = 0; i < nn; i++) {
		char path[PATH_MAX * 2], tname[700];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		snprintf(tname, sizeof(tname), "vm/%.*s", (int)(strlen(names[i]) - 5), names[i]);
		one_case(path, tname);
		free(names[i]);
	}
	T_CHECK(nn >= 300, "vm conformance has at least 300 cases", "only %zu", nn);
	T_EXIT();
}
