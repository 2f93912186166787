/* bpfgate kload: load each program of an object into the running kernel, on
 * its own, and report the kernel's verdict per program (text or JSON). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfgate/bpfgate.h>
#include "core/json.h"
#include "cli.h"

#define MAX_SELECT 64

struct kload_args {
	const char *objs[MAX_SELECT];
	size_t obj_cnt;
	const char *progs[MAX_SELECT];
	size_t prog_cnt;
	const char *btf;
	bool json, log, probe;
	unsigned log_level;
};

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: bpfgate kload OBJ... [--prog NAME]... [--json] [--log] [--log-level N]\n"
	    "                     [--btf FILE]\n"
	    "       bpfgate kload --probe\n\n"
	    "Load every program of OBJ into the running kernel, one at a time (maps created as\n"
	    "needed, nothing pinned, everything closed), and print the kernel's verdict:\n"
	    "  PROG  TYPE  VERDICT  insns=N processed=N time=Nus   (+ message when not "
	    "accepted)\n\n"
	    "  --prog NAME     only this program (repeatable)\n"
	    "  --json          one JSON array of per-program records\n"
	    "  --log           include the full verifier log\n"
	    "  --log-level N   verifier log level (default 5 = 1|BPF_LOG_STATS; 4 = stats only)\n"
	    "  --btf FILE      target BTF for CO-RE relocations (default: running kernel)\n"
	    "  --probe         exit 0 when bpf() works here, else print why and exit 2\n\n"
	    "verdicts: accepted; rejected (the verifier refused it; the message is the last log\n"
	    "lines); unavailable (the kernel could not judge it: EPERM before verification,\n"
	    "missing attach target, CO-RE/kfunc failure, map creation failure, bpf() refused).\n"
	    "exit status: 0 all accepted or unavailable, 1 a program rejected, 2 bad input.\n"
	    "unavailable programs alone do not make the exit status 1.\n");
}

/* Returns 0, or EXIT_BAD after printing a usage error. -1: --help printed. */
static int parse_args(int argc, char **argv, struct kload_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (!strcmp(s, "--json"))
			a->json = true;
		else if (!strcmp(s, "--log"))
			a->log = true;
		else if (!strcmp(s, "--probe"))
			a->probe = true;
		else if (!strcmp(s, "--prog") || !strcmp(s, "--btf") || !strcmp(s, "--log-level")) {
			const char *v = cli_value("kload", argc, argv, &i);

			if (!v)
				return EXIT_BAD;
			if (!strcmp(s, "--btf"))
				a->btf = v;
			else if (!strcmp(s, "--log-level"))
				a->log_level = (unsigned)strtoul(v, NULL, 0);
			else if (a->prog_cnt < MAX_SELECT)
				a->progs[a->prog_cnt++] = v;
			else
				return cli_error("kload", "too many --prog options (max %d)",
						 MAX_SELECT);
		} else if (s[0] == '-' && s[1]) {
			return cli_error("kload", "unknown option '%s' (see --help)", s);
		} else if (a->obj_cnt < MAX_SELECT) {
			a->objs[a->obj_cnt++] = s;
		} else {
			return cli_error("kload", "too many objects (max %d)", MAX_SELECT);
		}
	}
	if (!a->probe && !a->obj_cnt)
		return cli_error("kload", "no object file given (see --help)");
	return 0;
}

/* Is name selected by --prog (all when none given)? Marks the match in hit[]. */
static bool selected(const struct kload_args *a, const char *name, bool *hit)
{
	bool sel = !a->prog_cnt;

	for (size_t i = 0; i < a->prog_cnt; i++)
		if (!strcmp(a->progs[i], name))
			sel = hit[i] = true;
	return sel;
}

static void print_text(const struct bg_program *p, const struct bg_kload_result *r, bool log)
{
	size_t n = 0;
	char proc[32] = "-", tm[32] = "-";

	bg_program__raw(p, &n);
	if (r->insns_processed >= 0)
		snprintf(proc, sizeof(proc), "%ld", r->insns_processed);
	if (r->verif_time_usec >= 0)
		snprintf(tm, sizeof(tm), "%ld", r->verif_time_usec);
	printf("%-24s %-14s %-11s insns=%zu processed=%s time=%sus\n", cli_safe(bg_program__name(p)),
	       bg_program__type_name(p), bg_verdict_name(r->verdict), n, proc, tm);
	if (r->verdict != BG_VERDICT_ACCEPTED && r->reason) {
		cli_print_lines("    ", r->reason);
		if (r->fail_source && *r->fail_source)
			printf("    source: %s\n", cli_safe_src(r->fail_source));
	}
	if (log && r->log && *r->log) {
		printf("--- verifier log of %s ---\n", cli_safe(bg_program__name(p)));
		cli_print_lines("", r->log);
		printf("--- end of log ---\n");
	}
}

static void print_json(struct bg_json *j, const char *path, const struct bg_program *p,
		       const struct bg_kload_result *r, bool log)
{
	size_t n = 0;

	bg_program__raw(p, &n);
	bg_json_obj_begin(j);
	bg_json_kstr(j, "object", path);
	bg_json_kstr(j, "program", bg_program__name(p));
	bg_json_kstr(j, "section", bg_program__section(p));
	bg_json_kstr(j, "type", bg_program__type_name(p));
	bg_json_kstr(j, "verdict", bg_verdict_name(r->verdict));
	bg_json_kuint(j, "insns", n);
	bg_json_kint(j, "processed", r->insns_processed);
	bg_json_kint(j, "verif_time_us", r->verif_time_usec);
	bg_json_kint(j, "errno", -r->err);
	bg_json_kstr(j, "message", r->verdict == BG_VERDICT_ACCEPTED ? NULL : r->reason);
	if (r->verdict == BG_VERDICT_REJECTED && (r->fail_insn >= 0 || r->fail_line)) {
		bg_json_key(j, "location");
		bg_json_obj_begin(j);
		bg_json_kint(j, "insn", r->fail_insn);
		bg_json_kstr(j, "file", r->fail_file);
		bg_json_kuint(j, "line", r->fail_line);
		bg_json_kstr(j, "source", r->fail_source);
		bg_json_obj_end(j);
	}
	if (log)
		bg_json_kstr(j, "log", r->log);
	bg_json_obj_end(j);
}

/* Load the selected programs of one object. Returns the worst exit code. */
static int kload_object(const struct kload_args *a, const char *path, struct bg_json *j, bool *hit)
{
	struct bg_open_opts oo = {.sz = sizeof(oo), .btf_path = a->btf};
	struct bg_kload_opts ko = {.sz = sizeof(ko), .log_level = a->log_level};
	char err[512] = "";
	struct bg_object *obj = bg_object__open(path, &oo, err, sizeof(err));
	int rc = EXIT_OK;

	if (!obj)
		return cli_error("kload", "%s", *err ? err : path);
	cli_object_warnings("kload", obj);
	if (!bg_object__prog_cnt(obj))
		fprintf(stderr, "bpfgate kload: %s: no programs in this object\n", cli_safe(path));
	for (size_t i = 0; i < bg_object__prog_cnt(obj); i++) {
		struct bg_program *p = bg_object__prog(obj, i);
		struct bg_kload_result r;

		if (!selected(a, bg_program__name(p), hit))
			continue;
		if (bg_kern_load(p, &ko, &r)) {
			cli_error("kload", "%s: %s: internal error", path, bg_program__name(p));
			rc = EXIT_BAD;
			continue;
		}
		if (j)
			print_json(j, path, p, &r, a->log);
		else
			print_text(p, &r, a->log);
		if (r.verdict == BG_VERDICT_REJECTED && rc == EXIT_OK)
			rc = EXIT_REJECTED;
		bg_kload_result__fini(&r);
	}
	bg_object__free(obj);
	return rc;
}

static int probe(void)
{
	const char *why;

	if (bg_kern_available(&why)) {
		printf("bpf() available\n");
		return EXIT_OK;
	}
	printf("bpf() unavailable: %s\n", why);
	return EXIT_BAD;
}

int cmd_kload(int argc, char **argv)
{
	struct kload_args a = {0};
	struct bg_json j;
	bool hit[MAX_SELECT] = {0};
	int rc = EXIT_OK, e;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	e = parse_args(argc, argv, &a);
	if (e)
		return e;
	if (a.probe)
		return probe();
	if (a.json) {
		bg_json_init(&j, stdout, true);
		bg_json_arr_begin(&j);
		cli_json_sink(&j);
	}
	for (size_t i = 0; i < a.obj_cnt; i++) {
		e = kload_object(&a, a.objs[i], a.json ? &j : NULL, hit);
		if (e > rc)
			rc = e;
	}
	for (size_t i = 0; i < a.prog_cnt; i++)
		if (!hit[i] && rc != EXIT_BAD)
			rc = cli_error("kload", "no program named '%s' in the object(s) given",
				       a.progs[i]);
	if (a.json) {
		cli_json_sink(NULL);
		bg_json_arr_end(&j);
		fputc('\n', stdout);
	}
	return rc;
}
