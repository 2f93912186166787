/* bpfgate kload: load each program of an object into the running kernel, on
 * its own, and report the kernel's verdict per program (text or JSON). */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/time.h>
#include <stdlib.h>
#include <string.h>
#include <bpfgate/bpfgate.h>
#include "bg_json.h"
#include <bpfgate/kvm.h>
#include "cli.h"

#define MAX_SELECT 64
#define MAX_KERNELS 16

struct kload_args {
	const char **objs; /* argc entries */
	size_t obj_cnt;
	const char *progs[MAX_SELECT];
	size_t prog_cnt;
	const char *btf;
	bool json, log, probe, records;
	unsigned log_level;
	const char *kernels;    /* --kernel LIST: boot these cached kernels */
	int timeout_s, jobs;
	double prog_limit;      /* --records: guest seconds per program (0: none) */
};

/* What the printers need of a program (from a local object or a guest record). */
struct pview {
	const char *name, *section, *type;
	size_t insns;
};

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: bpfgate kload OBJ... [--prog NAME]... [--json] [--log] [--log-level N]\n"
	    "                     [--btf FILE] [--kernel VER[,VER...] [-j N] [--timeout SEC]]\n"
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
	    "  --probe         exit 0 when bpf() works here, else print why and exit 2\n"
	    "  --kernel LIST   judge in these kernels instead of the running one: Debian images\n"
	    "                  from the cache (bpfgate kernels fetch VER), booted under QEMU\n"
	    "                  (KVM when usable, else TCG), all objects in one boot per kernel;\n"
	    "                  the programs' BTF is the guest kernel's\n"
	    "  -j N            guests at once with --kernel (default 2, at most the CPUs)\n"
	    "  --timeout SEC   wall-clock limit per boot (default 120 + 2 per object); a program\n"
	    "                  whose load takes over 20 s of guest time is unavailable\n"
	    "                  (the guest logs at level 4 unless --log-level is given: with\n"
	    "                  level 1 software emulation is far slower)\n\n"
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
		else if (!strcmp(s, "--records"))
			a->records = true; /* the guest side of --kernel (src/kvm/records.c) */
		else if (!strcmp(s, "--prog") || !strcmp(s, "--btf") || !strcmp(s, "--log-level") ||
			 !strcmp(s, "--kernel") || !strcmp(s, "--timeout") || !strcmp(s, "-j")) {
			const char *v = cli_value("kload", argc, argv, &i);

			if (!v)
				return EXIT_BAD;
			if (!strcmp(s, "--kernel"))
				a->kernels = v;
			else if (!strcmp(s, "--timeout") && a->records)
				a->prog_limit = strtod(v, NULL);
			else if (!strcmp(s, "--timeout") || !strcmp(s, "-j")) {
				char *end;
				long n = strtol(v, &end, 10);

				if (*end || n <= 0 || n > 100000)
					return cli_error("kload", "%s: bad number '%s'", s, v);
				if (!strcmp(s, "-j"))
					a->jobs = (int)n;
				else
					a->timeout_s = (int)n;
			} else if (!strcmp(s, "--btf"))
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
		} else {
			a->objs[a->obj_cnt++] = s;
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

static struct pview view_of(const struct bg_program *p)
{
	struct pview v = {bg_program__name(p), bg_program__section(p), bg_program__type_name(p), 0};

	bg_program__raw(p, &v.insns);
	return v;
}

static void print_text(const struct pview *p, const struct bg_kload_result *r, bool log)
{
	size_t n = p->insns;
	char proc[32] = "-", tm[32] = "-";

	if (r->insns_processed >= 0)
		snprintf(proc, sizeof(proc), "%ld", r->insns_processed);
	if (r->verif_time_usec >= 0)
		snprintf(tm, sizeof(tm), "%ld", r->verif_time_usec);
	printf("%-24s %-14s %-11s insns=%zu processed=%s time=%sus\n", cli_safe(p->name), p->type,
	       bg_verdict_name(r->verdict), n, proc, tm);
	if (r->verdict != BG_VERDICT_ACCEPTED && r->reason) {
		cli_print_lines("    ", r->reason);
		if (r->fail_source && *r->fail_source)
			printf("    source: %s\n", cli_safe_src(r->fail_source));
	}
	if (log && r->log && *r->log) {
		printf("--- verifier log of %s ---\n", cli_safe(p->name));
		cli_print_lines("", r->log);
		printf("--- end of log ---\n");
	}
}

/* run: the guest a --kernel verdict came from (NULL: the running kernel). */
static void print_json(struct bg_json *j, const char *path, const struct pview *p,
		       const struct bg_kload_result *r, bool log, const struct bg_kvm_run *run)
{
	bg_json_obj_begin(j);
	bg_json_kstr(j, "object", path);
	bg_json_kstr(j, "program", p->name);
	bg_json_kstr(j, "section", p->section);
	bg_json_kstr(j, "type", p->type);
	if (run) {
		char boot[96];

		snprintf(boot, sizeof(boot), "qemu %s, %d MiB, 1 cpu", bg_kvm_run__accel(run),
			 bg_kvm_run__mem_mb(run));
		bg_json_kstr(j, "kernel", bg_kimage__version(bg_kvm_run__image(run)));
		bg_json_kstr(j, "kernel_release", bg_kvm_run__release(run));
		bg_json_kstr(j, "booted", boot);
	}
	bg_json_kstr(j, "verdict", bg_verdict_name(r->verdict));
	bg_json_kuint(j, "insns", p->insns);
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
		struct pview v = view_of(p);

		if (bg_kern_load(p, &ko, &r)) {
			cli_error("kload", "%s: %s: internal error", path, bg_program__name(p));
			rc = EXIT_BAD;
			continue;
		}
		if (j)
			print_json(j, path, &v, &r, a->log, NULL);
		else
			print_text(&v, &r, a->log);
		if (r.verdict == BG_VERDICT_REJECTED && rc == EXIT_OK)
			rc = EXIT_REJECTED;
		bg_kload_result__fini(&r);
	}
	bg_object__free(obj);
	return rc;
}

static volatile sig_atomic_t alarm_hit;

static void on_alarm(int sig)
{
	(void)sig;
	alarm_hit = 1;
}

/* A repeating timer of secs (0: off): the verifier stops with EAGAIN when a
 * signal is pending, so a program over its limit ends its load (and any
 * reload) instead of holding the whole guest. Arming clears alarm_hit,
 * disarming keeps it (the caller reads it after the load: a load the timer
 * interrupted is unavailable whatever the kernel returned, EAGAIN (6.12),
 * a statistics-only log (7.2) or a late success (5.10 does not stop)). */
static void prog_timer(double secs)
{
	struct itimerval it = {0};

	it.it_value.tv_sec = (time_t)secs;
	it.it_value.tv_usec = (suseconds_t)((secs - (double)(time_t)secs) * 1e6);
	it.it_interval = it.it_value;
	if (secs > 0)
		alarm_hit = 0;
	setitimer(ITIMER_REAL, &it, NULL);
}

/* The guest side of --kernel: every program of every object, one record line
 * each on stdout (src/kvm/records.c). Objects are judged as `corpus` does:
 * a malformed program is still loaded as it is. With --timeout SEC a program
 * whose verification takes longer is reported unavailable. Exit 0 unless
 * stdout fails. */
static int kload_records(const struct kload_args *a)
{
	struct bg_open_opts oo = {.sz = sizeof(oo), .btf_path = a->btf, .keep_malformed = 1};
	struct bg_kload_opts ko = {.sz = sizeof(ko), .log_level = a->log_level};
	struct sigaction sa = {.sa_handler = on_alarm}; /* no SA_RESTART */
	char why[128];

	sigaction(SIGALRM, &sa, NULL);
	snprintf(why, sizeof(why), "verification took longer than %g s in the guest (--timeout)",
		 a->prog_limit);

	for (size_t i = 0; i < a->obj_cnt; i++) {
		char err[512] = "";
		struct bg_object *obj = bg_object__open(a->objs[i], &oo, err, sizeof(err));

		if (!obj) {
			bg_kvm_record_obj_error(stdout, i, *err ? err : "cannot open");
			continue;
		}
		for (size_t k = 0; k < bg_object__prog_cnt(obj); k++) {
			struct bg_program *p = bg_object__prog(obj, k);
			struct bg_kload_result r;

			int e;

			if (a->prog_limit > 0)
				prog_timer(a->prog_limit);
			e = bg_kern_load(p, &ko, &r);
			prog_timer(0);
			if (e || alarm_hit) {
				struct bg_kload_result t = {.verdict = BG_VERDICT_UNAVAILABLE,
							    .err = e ? e : r.err,
							    .insns_processed = -1,
							    .verif_time_usec = -1,
							    .fail_insn = -1,
							    .prog_fd = -1};

				t.reason = alarm_hit ? why : (char *)"internal error of the loader";
				bg_kvm_record_prog(stdout, i, p, &t, 0);
				if (!e)
					bg_kload_result__fini(&r);
				continue;
			}
			bg_kvm_record_prog(stdout, i, p, &r, a->log);
			bg_kload_result__fini(&r);
		}
		bg_object__free(obj);
	}
	return fflush(stdout) ? EXIT_BAD : EXIT_OK;
}

static void print_run_header(const struct bg_kvm_run *r, size_t nprogs)
{
	const struct bg_kimage *k = bg_kvm_run__image(r);

	printf("== kernel %s (%s, Debian %s): qemu %s, %d MiB, boot %.1f s, %zu programs judged "
	       "in %.1f s, wall %.1f s, qemu peak rss %ld MiB\n",
	       bg_kimage__version(k), bg_kvm_run__release(r), bg_kimage__package_version(k),
	       bg_kvm_run__accel(r), bg_kvm_run__mem_mb(r), bg_kvm_run__boot_seconds(r), nprogs,
	       bg_kvm_run__judge_seconds(r), bg_kvm_run__wall_seconds(r), bg_kvm_run__qemu_rss_kb(r) / 1024);
}

/* Print one guest's verdicts (selected programs only); returns the exit code. */
static int print_run(const struct kload_args *a, const struct bg_kvm_run *r, struct bg_json *j,
		     bool *hit)
{
	const char *ver = bg_kimage__version(bg_kvm_run__image(r));
	int rc = EXIT_OK;
	size_t n = 0;

	for (size_t i = 0; i < bg_kvm_run__prog_cnt(r); i++)
		n += bg_kvm_prog__obj_error(bg_kvm_run__prog(r, i)) == NULL;
	if (!j && (n || !bg_kvm_run__error(r)))
		print_run_header(r, n);
	for (size_t i = 0; i < bg_kvm_run__prog_cnt(r); i++) {
		const struct bg_kvm_prog *g = bg_kvm_run__prog(r, i);
		const struct bg_kload_result *res = bg_kvm_prog__result(g);
		struct pview v = {bg_kvm_prog__name(g), bg_kvm_prog__section(g), bg_kvm_prog__type(g),
				  bg_kvm_prog__insns(g)};
		const char *path = bg_kvm_prog__obj(g) < a->obj_cnt ? a->objs[bg_kvm_prog__obj(g)] : "?";

		if (bg_kvm_prog__obj_error(g)) {
			rc = cli_error("kload", "kernel %s: %s: %s", ver, path, bg_kvm_prog__obj_error(g));
			continue;
		}
		if (!selected(a, v.name, hit))
			continue;
		if (j)
			print_json(j, path, &v, res, a->log, r);
		else
			print_text(&v, res, a->log);
		if (res->verdict == BG_VERDICT_REJECTED && rc == EXIT_OK)
			rc = EXIT_REJECTED;
	}
	return rc;
}

/* --kernel: boot each listed kernel once with every object. */
static int kload_kernels(const struct kload_args *a, struct bg_json *j, bool *hit)
{
	const struct bg_kimage *ks[MAX_KERNELS];
	struct bg_kvm_run *runs[MAX_KERNELS];
	struct bg_kvm_opts o = {.sz = sizeof(o), .timeout_s = a->timeout_s, .jobs = a->jobs,
				.log = a->log, .log_level = a->log_level};
	char list[256], *save = NULL;
	struct bg_kcache *c;
	size_t nk = 0;
	int rc = EXIT_OK, e;

	cli_kvm_opts(&o);
	if (!(c = cli_kcache_open("kload")))
		return EXIT_BAD;
	snprintf(list, sizeof(list), "%s", a->kernels);
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (nk == MAX_KERNELS)
			rc = cli_error("kload", "too many kernels (max %d)", MAX_KERNELS);
		else if (!bg_kcache_valid_ver(t))
			rc = cli_error("kload", "--kernel: '%s' is not a kernel series (like 6.1)", t);
		else if (!(ks[nk] = bg_kcache__find(c, t)))
			rc = cli_error("kload", "kernel %s is not in the cache (bpfgate kernels fetch %s)",
				       t, t);
		if (rc)
			goto out;
		nk++;
	}
	for (size_t i = 0; i < a->obj_cnt; i++) {
		char err[512] = "";
		struct bg_open_opts oo = {.sz = sizeof(oo), .keep_malformed = 1};
		struct bg_object *obj = bg_object__open(a->objs[i], &oo, err, sizeof(err));

		if (!obj) {
			rc = cli_error("kload", "%s", *err ? err : a->objs[i]);
			goto out;
		}
		bg_object__free(obj);
	}
	e = bg_kcache__judge(c, ks, nk, a->objs, a->obj_cnt, &o, runs);
	if (e) {
		rc = cli_error("kload", "cannot boot kernels: %s", strerror(-e));
		goto out;
	}
	for (size_t k = 0; k < nk; k++) {
		e = print_run(a, runs[k], j, hit);
		if (e > rc)
			rc = e;
		if (bg_kvm_run__error(runs[k])) {
			cli_error("kload", "%s (%zu program verdicts before it stopped)",
				  bg_kvm_run__error(runs[k]), bg_kvm_run__prog_cnt(runs[k]));
			fprintf(stderr, "--- last lines of the guest console ---\n%s\n---\n",
				bg_kvm_run__console_tail(runs[k]) ? bg_kvm_run__console_tail(runs[k]) : "");
			rc = EXIT_BAD;
		}
		bg_kvm_run__free(runs[k]);
	}
out:
	bg_kcache__free(c);
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
	a.objs = calloc((size_t)argc, sizeof(*a.objs));
	if (!a.objs)
		return cli_error("kload", "out of memory");
	e = parse_args(argc, argv, &a);
	if (e) {
		free(a.objs);
		return e;
	}
	if (a.probe || a.records) {
		rc = a.probe ? probe() : kload_records(&a);
		free(a.objs);
		return rc;
	}
	if (a.json) {
		bg_json_init(&j, stdout, true);
		bg_json_arr_begin(&j);
		cli_json_sink(&j);
	}
	if (a.kernels)
		rc = kload_kernels(&a, a.json ? &j : NULL, hit);
	for (size_t i = 0; i < a.obj_cnt && !a.kernels; i++) {
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
	free(a.objs);
	return rc;
}
