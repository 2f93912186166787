/* bpfgate check: the static verifier on every program of one or more objects.
 * Text (default), JSON (one array of per-program records) or SARIF 2.1.0
 * (one run, a result per rejected program located at its source line).
 * Exit 0 when every program is accepted, 1 when one is rejected, 2 on bad input. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpfgate/bpfgate.h>
#include "cli.h"
#include "bg_json.h"
#include "check_asserts.h"
#include "hints_cli.h"
#include <bpfgate/text.h>
#include <bpfgate/profile.h>
#include <bpf/btf.h>

#define MAX_PROGS 256
#define MAX_OBJS 256
#define MAX_KERNELS 16

struct check_args {
	const char *objs[MAX_OBJS];
	int nobjs;
	const char *progs[MAX_PROGS];
	int nprogs;
	const char *btf, *dot;
	bool json, sarif, verbose, unpriv, quiet;
	uint64_t max_steps;
	int used_prog[MAX_PROGS];
	/* --kernel LIST / --profile LIST: judged profiles (multi: print per kernel) */
	const char *kernels;
	const struct bg_kernel_profile *kern[MAX_KERNELS];
	int nkern;
	bool multi;
	bool list_kernels;
	/* per judged kernel: the vmlinux BTF of its cached image (NULL: the
	 * host's or --btf) and its version for __kconfig (0: the running one) */
	struct btf *kbtf[MAX_KERNELS];
	uint32_t kver[MAX_KERNELS];
	bool kviews_done;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpfgate check OBJ... [--prog NAME]... [--btf FILE] [-v] [--dot FILE]\n"
		"                     [--json | --sarif] [--kernel LIST] [--unpriv] [--max-steps N]\n"
		"Statically verify every program of each object (polynomial-time abstract\n"
		"interpretation); print accepted/rejected and, for a rejection, where and why.\n"
		"  --prog NAME     only this program (repeatable)\n"
		"  --btf FILE      target BTF for CO-RE (default /sys/kernel/btf/vmlinux)\n"
		"  -v              print the abstract state before every instruction and the checks it gets\n"
		"  --dot FILE      write the CFG (blocks, branches, source lines) as Graphviz\n"
		"  --json          one JSON array of per-program records\n"
		"  --sarif         SARIF 2.1.0 log, results at source lines\n"
		"  --kernel LIST   judge for these kernel profiles in one run, side by side:\n"
		"                  comma-separated (7.2,6.18,6.12,6.6,6.1,5.15,5.10,5.4,4.19) or\n"
		"                  'all'; default: the running kernel's profile (6.18).\n"
		"                  Exit 1 when any listed kernel rejects. --profile is an alias.\n"
		"                  An older profile gates what that kernel lacks: helpers, kfuncs,\n"
		"                  program/attach/map types, instruction set (jmp32, atomics,\n"
		"                  ISA v4, may_goto...), loops before 5.3, program size,\n"
		"                  variable-offset stack access before 5.10, uninitialized\n"
		"                  stack reads before 5.12 (on 5.10 beyond the written depth); an\n"
		"                  older verifier's weaker range tracking is NOT modelled, so it\n"
		"                  may still reject a program bpfgate accepts for it. A kernel\n"
		"                  whose image is in the cache (bpfgate kernels fetch V) lends\n"
		"                  its vmlinux BTF: CO-RE, kfuncs and ksyms resolve against\n"
		"                  kernel V (without --btf); libbpf's __kconfig facts\n"
		"                  (LINUX_KERNEL_VERSION, LINUX_HAS_BPF_COOKIE) follow V.\n"
		"  --list-kernels  the known profiles: limits and what each lacks (with --json)\n"
		"  --unpriv        model unprivileged loading\n"
		"  --max-steps N   resource limit; beyond it the verdict is 'too complex'\n"
		"exit status: 0 all accepted, 1 a program rejected, 2 bad input,\n"
		"  3 a program too complex for bpfgate (--max-steps or the state memory\n"
		"  budget ran out: no verdict; JSON verdict unavailable, check too_complex)\n");
}

static int parse_kernels(struct check_args *a)
{
	if (!a->kernels) {
		a->nkern = 1; /* kern[0] NULL: the default profile, classic output */
		return 0;
	}
	char bad[64] = "";
	int n = bg_kernel_profile__parse_list(a->kernels, a->kern, MAX_KERNELS, bad, sizeof(bad));
	if (n < 0) {
		char known[256] = "";
		for (size_t i = 0; i < bg_kernel_profile__cnt(); i++)
			snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s", i ? ", " : "",
				 bg_kernel_profile__name(bg_kernel_profile__at(i)));
		return cli_error("check", "unknown kernel profile %s (known: %s, all)", bad, known);
	}
	a->nkern = n;
	a->multi = true;
	return 0;
}

static int parse(int argc, char **argv, struct check_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		const char *next;
		if (!strcmp(s, "--json")) {
			a->json = true;
		} else if (!strcmp(s, "--sarif")) {
			a->sarif = true;
		} else if (!strcmp(s, "-v") || !strcmp(s, "--verbose")) {
			a->verbose = true;
		} else if (!strcmp(s, "-q") || !strcmp(s, "--quiet")) {
			a->quiet = true;
		} else if (!strcmp(s, "--unpriv")) {
			a->unpriv = true;
		} else if (!strcmp(s, "--list-kernels")) {
			a->list_kernels = true;
		} else if (!strcmp(s, "--prog") || !strcmp(s, "--btf") || !strcmp(s, "--dot") ||
			   !strcmp(s, "--profile") || !strcmp(s, "--kernel") || !strcmp(s, "--max-steps")) {
			next = cli_value("check", argc, argv, &i);
			if (!next)
				return EXIT_BAD;
			if (!strcmp(s, "--prog")) {
				if (a->nprogs == MAX_PROGS)
					return cli_error("check", "too many --prog");
				a->progs[a->nprogs++] = next;
			} else if (!strcmp(s, "--btf")) {
				a->btf = next;
			} else if (!strcmp(s, "--dot")) {
				a->dot = next;
			} else if (!strcmp(s, "--profile") || !strcmp(s, "--kernel")) {
				a->kernels = next;
			} else {
				char *end;
				a->max_steps = strtoull(next, &end, 10);
				if (*end || !a->max_steps)
					return cli_error("check", "--max-steps: not a positive number: %s", next);
			}
		} else if (s[0] == '-' && s[1]) {
			return cli_error("check", "unknown option %s (see --help)", s);
		} else {
			if (a->nobjs == MAX_OBJS)
				return cli_error("check", "too many objects");
			a->objs[a->nobjs++] = s;
		}
	}
	if (!a->nobjs && !a->list_kernels)
		return cli_error("check", "no object given (see --help)");
	if (a->json && a->sarif)
		return cli_error("check", "--json and --sarif are exclusive");
	return parse_kernels(a);
}

static bool selected(struct check_args *a, const char *name)
{
	if (!a->nprogs)
		return true;
	for (int i = 0; i < a->nprogs; i++)
		if (!strcmp(a->progs[i], name)) {
			a->used_prog[i] = 1;
			return true;
		}
	return false;
}

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;
	return s ? s + 1 : p;
}

static void print_loc(FILE *f, const struct bg_line *l)
{
	if (l && l->file)
		fprintf(f, "%s:%u:%u: ", cli_safe(base_name(l->file)), l->line, l->col);
}

/* A rejection: location, message [check], then the source line. */
static void print_diag(const struct bg_diag *d)
{
	print_loc(stdout, d->line);
	printf("%s [%s]\n", d->message ? cli_safe(d->message) : "?", d->check ? cli_safe(d->check) : "?");
	if (d->line && d->line->text && d->line->text[0]) {
		const char *t = d->line->text;
		while (*t == ' ' || *t == '\t')
			t++;
		printf("  %5u | %s\n", d->line->line, cli_safe_src(t));
	}
}

static void print_step(const struct bg_program *p, const struct bg_path_step *st, const char *indent)
{
	size_t n = 0;
	const struct bg_insn *ins = bg_program__insns(p, &n);
	char dis[128] = "";

	if (st->insn < n)
		bg_insn_format(&ins[st->insn], dis, sizeof(dis));
	printf("%s", indent);
	print_loc(stdout, bg_program__line(p, st->insn));
	printf("insn %zu (%s): %s\n", st->insn, dis, st->taken ? "taken" : "not taken");
}

/* What a path step looks like to a reader: its source place and instruction
 * text (an unrolled loop repeats them at other instruction numbers). */
static bool same_look(const struct bg_program *p, const struct bg_path_step *a,
		      const struct bg_path_step *b)
{
	const struct bg_line *la = bg_program__line(p, a->insn), *lb = bg_program__line(p, b->insn);
	size_t n = 0;
	const struct bg_insn *ins = bg_program__insns(p, &n);
	char da[128] = "", db[128] = "";

	if (a->taken != b->taken)
		return false;
	if (a->insn == b->insn)
		return true;
	if (la && lb && la->file && lb->file)
		return la->line == lb->line && la->col == lb->col && !strcmp(la->file, lb->file);
	if (la || lb || a->insn >= n || b->insn >= n)
		return false;
	bg_insn_format(&ins[a->insn], da, sizeof(da));
	bg_insn_format(&ins[b->insn], db, sizeof(db));
	return !strcmp(da, db);
}

static bool same_steps(const struct bg_program *p, const struct bg_path_step *a,
		       const struct bg_path_step *b, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (!same_look(p, &a[i], &b[i]))
			return false;
	return true;
}

/* The branch path to a rejection, loops folded: a block of up to 32 steps
 * repeated back to back (the same instructions, or an unrolled loop's copies:
 * the same source place or instruction text) is printed once, with how many
 * times it repeats and the instruction range it spans. */
static void print_path(const struct bg_program *p, const struct bg_path_step *path, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t best_k = 1, best_r = 1;
		for (size_t k = 1; k <= 32 && i + 2 * k <= len; k++) {
			size_t r = 1;
			while (i + (r + 1) * k <= len && same_steps(p, &path[i], &path[i + r * k], k))
				r++;
			if (r > 1 && r * k > best_r * best_k)
				best_k = k, best_r = r;
		}
		if (best_r == 1) {
			print_step(p, &path[i], "    ");
		} else {
			size_t lo = path[i].insn, hi = path[i].insn;
			for (size_t s = i; s < i + best_k * best_r; s++) {
				lo = path[s].insn < lo ? path[s].insn : lo;
				hi = path[s].insn > hi ? path[s].insn : hi;
			}
			printf("    x%zu (insns %zu-%zu), each time:\n", best_r, lo, hi);
			for (size_t s = 0; s < best_k; s++)
				print_step(p, &path[i + s], "      ");
		}
		i += best_k * best_r;
	}
}

/* Which exit status wins over several objects: bad input, then a rejection,
 * then a program too complex to judge. */
static int exit_rank(int rc)
{
	return rc == EXIT_BAD ? 3 : rc == EXIT_REJECTED ? 2 : rc == EXIT_TOO_COMPLEX ? 1 : 0;
}

/* A resource budget ran out: no verdict on the program. */
static bool too_complex(const struct bg_verify_result *r)
{
	return r->verdict == BG_VERDICT_UNAVAILABLE && r->diag.check && !strcmp(r->diag.check, "too_complex");
}

static void print_text(const char *path, const struct bg_program *p, const struct bg_verify_result *r,
		       bool verbose)
{
	size_t n = 0;
	bg_program__raw(p, &n); /* slots; also for a malformed program (no decoded insns) */
	printf("%s: %s (section %s, %s, %zu insns): %s", cli_safe(path), cli_safe(bg_program__name(p)),
	       cli_safe(bg_program__section(p)), bg_program__type_name(p), n,
	       too_complex(r) ? "too complex for bpfgate" : bg_verdict_name(r->verdict));
	printf(" [%.2f ms, %llu steps]\n", r->seconds * 1e3, (unsigned long long)r->steps);
	if (r->kernel.valid && (verbose || r->kernel.limit != BG_KLIMIT_NONE))
		printf("  kernel: estimated %llu processed instructions, %llu pending branches%s\n",
		       (unsigned long long)r->kernel.insns, (unsigned long long)r->kernel.jmp_seq,
		       r->kernel.limit == BG_KLIMIT_NONE ? " (within its limits)" : "");
	if (r->verdict == BG_VERDICT_ACCEPTED)
		return;
	const struct bg_diag *d = &r->diag;
	printf("  ");
	print_diag(d);
	if (d->path_len) {
		printf("  path to insn %zu:\n", d->insn);
		print_path(p, d->path, d->path_len);
	}
}

static void json_line(struct bg_json *j, const struct bg_line *l)
{
	if (!l) {
		return;
	}
	bg_json_kstr(j, "file", l->file);
	bg_json_kuint(j, "line", l->line);
	bg_json_kuint(j, "col", l->col);
	bg_json_kstr(j, "source", l->text);
}

/* CPU time of the analysis being reported (this thread's, around bg_verify):
 * the wall time in `seconds` includes waiting on a loaded machine. */
static double cur_cpu_s;

static double thread_cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The per-program record without its closing brace (kernels may follow). */
static void print_json_open(struct bg_json *j, const char *path, const struct bg_program *p,
			    const struct bg_verify_result *r)
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
	bg_json_kdouble(j, "seconds", r->seconds);
	bg_json_kdouble(j, "cpu_seconds", cur_cpu_s);
	bg_json_kuint(j, "steps", r->steps);
	bg_json_kuint(j, "peak_bytes", r->peak_bytes);
	if (r->kernel.valid) {
		/* bpfgate's own finding, apart from "will the kernel finish?" */
		bg_json_kbool(j, "safe", true);
		bg_json_kuint(j, "kernel_insns_estimate", r->kernel.insns);
		bg_json_kuint(j, "kernel_jmp_seq_estimate", r->kernel.jmp_seq);
		if (r->kernel.limit != BG_KLIMIT_NONE) {
			bg_json_key(j, "kernel_limit");
			bg_json_obj_begin(j);
			bg_json_kstr(j, "limit", r->kernel.limit == BG_KLIMIT_INSNS ? "insns" : "jmp_seq");
			bg_json_kstr(j, "check", r->diag.check);
			bg_json_kuint(j, "insn", r->diag.insn);
			bg_json_kstr(j, "message", r->diag.message);
			bg_json_obj_end(j);
		}
	} else if (r->verdict == BG_VERDICT_REJECTED) {
		bg_json_kbool(j, "safe", false);
	}
	cli_hints_json(j, p);
	if (r->verdict != BG_VERDICT_ACCEPTED) {
		const struct bg_diag *d = &r->diag;
		bg_json_kstr(j, "message", d->message);
		bg_json_key(j, "diagnostic");
		bg_json_obj_begin(j);
		bg_json_kuint(j, "insn", d->insn);
		bg_json_kstr(j, "check", d->check);
		bg_json_kstr(j, "message", d->message);
		json_line(j, d->line);
		bg_json_key(j, "path");
		bg_json_arr_begin(j);
		for (size_t i = 0; i < d->path_len; i++) {
			bg_json_obj_begin(j);
			bg_json_kuint(j, "insn", d->path[i].insn);
			bg_json_kbool(j, "taken", d->path[i].taken);
			const struct bg_line *l = bg_program__line(p, d->path[i].insn);
			if (l) {
				bg_json_kstr(j, "file", l->file);
				bg_json_kuint(j, "line", l->line);
			}
			bg_json_obj_end(j);
		}
		bg_json_arr_end(j);
		bg_json_obj_end(j);
	}
}

static void print_json(struct bg_json *j, const char *path, const struct bg_program *p,
		       const struct bg_verify_result *r, const struct bg_assert_result *as, int nas)
{
	print_json_open(j, path, p, r);
	if (nas > 0)
		check_asserts_json(j, as, nas);
	bg_json_obj_end(j);
}

/* kernel: the profile judged with --kernel (rule id "check/kernel"), or NULL. */
static void sarif_result(struct bg_json *j, const char *path, const struct bg_program *p,
			 const struct bg_verify_result *r, const char *kernel)
{
	const struct bg_diag *d = &r->diag;
	char text[1400], rule[128];
	snprintf(text, sizeof(text), "%s%s%s%s: %s", kernel ? "[kernel " : "", kernel ? kernel : "",
		 kernel ? "] " : "", bg_program__name(p), d->message ? d->message : "rejected");
	snprintf(rule, sizeof(rule), "%s%s%s", d->check ? d->check : "rejected", kernel ? "/" : "",
		 kernel ? kernel : "");
	cli_sarif_result(j, rule, text, d->line && d->line->file ? d->line->file : path,
			 d->line ? d->line->line : 0, d->line ? d->line->col : 0);
	bg_json_kstr(j, "object", path);
	bg_json_kstr(j, "program", bg_program__name(p));
	bg_json_kstr(j, "section", bg_program__section(p));
	bg_json_kuint(j, "insn", d->insn);
	if (kernel)
		bg_json_kstr(j, "kernel", kernel);
	cli_sarif_result_end(j);
}

static void dot_program(FILE *f, const struct bg_program *p, const struct bg_verify_result *r)
{
	size_t n = 0;
	const struct bg_insn *ins = bg_program__insns(p, &n);
	const char *name = bg_program__name(p);
	fprintf(f, "  subgraph \"cluster_%s\" {\n    label=\"%s: %s\";\n", name, name,
		bg_verdict_name(r->verdict));
	uint8_t *leader = calloc(n + 1, 1);
	if (!leader)
		return;
	if (n)
		leader[0] = 1;
	for (size_t i = 0; i < n; i++) {
		const struct bg_insn *in = &ins[i];
		if (in->kind == BG_K_JA || in->kind == BG_K_JCOND || in->kind == BG_K_MAY_GOTO ||
		    in->kind == BG_K_EXIT) {
			leader[i + in->slots] = 1;
			if (in->target >= 0 && (size_t)in->target < n)
				leader[in->target] = 1;
		}
	}
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i != n && (!leader[i] || i == 0))
			continue;
		if (i == start)
			continue;
		fprintf(f, "    \"%s_%zu\" [shape=box,fontname=monospace,label=\"", name, start);
		for (size_t k = start; k < i; k++) {
			if (ins[k].kind == BG_K_LD_IMM64_HI)
				continue;
			char dis[128];
			bg_insn_format(&ins[k], dis, sizeof(dis));
			for (char *c = dis; *c; c++)
				if (*c == '"')
					*c = '\'';
			const struct bg_line *l = bg_program__line(p, k);
			fprintf(f, "%zu: %s%s%s%s\\l", k, dis, l ? "  ; " : "", l ? base_name(l->file) : "",
				"");
		}
		fprintf(f, "\"%s];\n", r->verdict != BG_VERDICT_ACCEPTED && r->diag.insn >= start &&
						  r->diag.insn < i ? ",color=red" : "");
		size_t last = i - 1;
		while (last > start && ins[last].kind == BG_K_LD_IMM64_HI)
			last--;
		const struct bg_insn *t = &ins[last];
		if (t->kind != BG_K_EXIT && t->kind != BG_K_JA && i < n)
			fprintf(f, "    \"%s_%zu\" -> \"%s_%zu\";\n", name, start, name, i);
		if ((t->kind == BG_K_JA || t->kind == BG_K_JCOND || t->kind == BG_K_MAY_GOTO) && t->target >= 0)
			fprintf(f, "    \"%s_%zu\" -> \"%s_%d\" [label=%s];\n", name, start, name, t->target,
				t->kind == BG_K_JA ? "\"\"" : "taken");
		start = i;
	}
	free(leader);
	fprintf(f, "  }\n");
}

struct sink {
	struct bg_json j;
	FILE *trace; /* -v: the verifier's trace, terminal-safe, to stderr */
	FILE *dot;
	int worst;
};

/* ---- several kernels: one verdict per profile, side by side ---- */

/* --list-kernels: every profile with its limits and the features it lacks
 * (name and first release), from the platform tables. */
static int list_kernels(bool json)
{
	struct bg_json j;
	if (json) {
		bg_json_init(&j, stdout, true);
		bg_json_arr_begin(&j);
	} else {
		printf("%-6s %8s %10s %6s %5s %9s  %s\n", "kernel", "insns", "processed", "frames", "stack",
		       "tailcalls", "lacks (first release)");
	}
	for (size_t i = 0; i < bg_kernel_profile__cnt(); i++) {
		const struct bg_kernel_profile *p = bg_kernel_profile__at(i);
		if (json) {
			bg_json_obj_begin(&j);
			bg_json_kstr(&j, "name", bg_kernel_profile__name(p));
			bg_json_kuint(&j, "max_prog_insns", bg_kernel_profile__max_prog_insns(p));
			bg_json_kuint(&j, "max_processed_insns", bg_kernel_profile__max_processed_insns(p));
			bg_json_kuint(&j, "max_call_depth", bg_kernel_profile__max_call_depth(p));
			bg_json_kuint(&j, "stack_size", bg_kernel_profile__stack_size(p));
			bg_json_kuint(&j, "max_tail_calls", bg_kernel_profile__max_tail_calls(p));
			bg_json_key(&j, "lacks");
			bg_json_arr_begin(&j);
		} else {
			printf("%-6s %8u %10u %6u %5u %9u  ", bg_kernel_profile__name(p),
			       bg_kernel_profile__max_prog_insns(p), bg_kernel_profile__max_processed_insns(p),
			       bg_kernel_profile__max_call_depth(p), bg_kernel_profile__stack_size(p),
			       bg_kernel_profile__max_tail_calls(p));
		}
		/* missing features, oldest first */
		enum bg_kernel_feature miss[BG_KFEAT__CNT];
		int nm = 0, lacks = 0;
		for (int f = 0; f < BG_KFEAT__CNT; f++)
			if (bg_kernel_feature__since(f) && !bg_kernel_profile__has(p, f))
				miss[nm++] = f;
		for (int x = 1; x < nm; x++)
			for (int y = x; y > 0 && bg_kernel_feature__since(miss[y - 1]) > bg_kernel_feature__since(miss[y]);
			     y--) {
				enum bg_kernel_feature t = miss[y];
				miss[y] = miss[y - 1];
				miss[y - 1] = t;
			}
		for (int m = 0; m < nm; m++) {
			char v[16];
			bg_kernel_version__str(bg_kernel_feature__since(miss[m]), v, sizeof(v));
			if (json) {
				bg_json_obj_begin(&j);
				bg_json_kstr(&j, "feature", bg_kernel_feature__name(miss[m]));
				bg_json_kstr(&j, "since", v);
				bg_json_obj_end(&j);
			} else {
				printf("%s%s (%s)", lacks ? ", " : "", bg_kernel_feature__name(miss[m]), v);
			}
			lacks++;
		}
		if (json) {
			bg_json_arr_end(&j);
			bg_json_obj_end(&j);
		} else {
			printf("%s\n", lacks ? "" : "-");
		}
	}
	if (json) {
		bg_json_arr_end(&j);
		printf("\n");
	}
	return EXIT_OK;
}

static const char *kname(const struct check_args *a, int k)
{
	return a->kern[k] ? bg_kernel_profile__name(a->kern[k]) : "6.18";
}

/* The worst verdict over the judged kernels (rejected > unavailable > accepted). */
static int worst_of(const struct bg_verify_result *r, int n)
{
	int w = 0;
	for (int k = 1; k < n; k++) {
		if (r[w].verdict == BG_VERDICT_REJECTED)
			break;
		if (r[k].verdict == BG_VERDICT_REJECTED ||
		    (r[k].verdict == BG_VERDICT_UNAVAILABLE && r[w].verdict == BG_VERDICT_ACCEPTED))
			w = k;
	}
	return w;
}

static bool same_diag(const struct bg_verify_result *x, const struct bg_verify_result *y)
{
	return x->verdict == y->verdict && x->diag.insn == y->diag.insn && x->diag.message &&
	       y->diag.message && !strcmp(x->diag.message, y->diag.message);
}

static void print_text_multi(const struct check_args *a, const char *path, const struct bg_program *p,
			     const struct bg_verify_result *r)
{
	size_t n = 0;
	bg_program__insns(p, &n);
	printf("%s: %s (section %s, %s, %zu insns):", cli_safe(path), cli_safe(bg_program__name(p)),
	       cli_safe(bg_program__section(p)), bg_program__type_name(p), n);
	for (int k = 0; k < a->nkern; k++)
		printf("%s %s %s", k ? "," : "", kname(a, k),
		       r[k].verdict == BG_VERDICT_ACCEPTED ? "ok" : bg_verdict_name(r[k].verdict));
	printf("\n");
	for (int k = 0; k < a->nkern; k++) {
		if (r[k].verdict == BG_VERDICT_ACCEPTED)
			continue;
		bool seen = false;
		for (int j = 0; j < k && !seen; j++)
			seen = same_diag(&r[j], &r[k]);
		if (seen)
			continue;
		printf("  %s", kname(a, k));
		for (int j = k + 1; j < a->nkern; j++)
			if (same_diag(&r[j], &r[k]))
				printf(", %s", kname(a, j));
		printf(": ");
		print_diag(&r[k].diag);
	}
}

static void json_kernel(struct bg_json *j, const char *name, const struct bg_verify_result *r)
{
	bg_json_key(j, name);
	bg_json_obj_begin(j);
	bg_json_kstr(j, "verdict", bg_verdict_name(r->verdict));
	if (r->verdict != BG_VERDICT_ACCEPTED) {
		bg_json_kstr(j, "message", r->diag.message);
		bg_json_kstr(j, "check", r->diag.check);
		bg_json_kuint(j, "insn", r->diag.insn);
		json_line(j, r->diag.line);
	}
	bg_json_kdouble(j, "seconds", r->seconds);
	bg_json_kuint(j, "steps", r->steps);
	bg_json_obj_end(j);
}

static void print_json_multi(const struct check_args *a, struct bg_json *j, const char *path,
			     const struct bg_program *p, const struct bg_verify_result *r)
{
	int w = worst_of(r, a->nkern);
	print_json_open(j, path, p, &r[w]);
	bg_json_key(j, "kernels");
	bg_json_obj_begin(j);
	for (int k = 0; k < a->nkern; k++)
		json_kernel(j, kname(a, k), &r[k]);
	bg_json_obj_end(j);
	bg_json_obj_end(j);
}

/* What each listed kernel other than the running one lends the object (its
 * image's BTF, its version): once per run. */
static void kernel_views(struct check_args *a)
{
	if (a->kviews_done)
		return;
	a->kviews_done = true;
	for (int k = 0; k < a->nkern; k++)
		if (a->kern[k])
			cli_kernel_view("check", bg_kernel_profile__name(a->kern[k]), a->btf != NULL, &a->kbtf[k],
					&a->kver[k]);
}

static int check_object(struct check_args *a, const char *path, struct sink *out)
{
	char err[512] = "";
	/* keep_malformed: a program whose code does not decode is rejected (as
	 * the kernel rejects it) with the loader's message; the others are judged */
	struct bg_open_opts oo = { .sz = sizeof(oo), .btf_path = a->btf, .keep_malformed = 1 };
	struct bg_object *obj = bg_object__open(path, &oo, err, sizeof(err));
	if (!obj) {
		cli_error("check", "%s", err[0] ? err : strerror(errno));
		return EXIT_BAD;
	}
	cli_object_warnings("check", obj);
	/* the object as each listed kernel sees it (its BTF, its __kconfig):
	 * opened again per distinct view; the programs come in the same order */
	struct bg_object *kobj[MAX_KERNELS] = {0};
	kernel_views(a);
	for (int k = 0; k < a->nkern; k++) {
		if (!a->kbtf[k] && !a->kver[k])
			continue;
		for (int j = 0; j < k && !kobj[k]; j++)
			if (kobj[j] && a->kbtf[j] == a->kbtf[k] && a->kver[j] == a->kver[k])
				kobj[k] = kobj[j];
		if (kobj[k])
			continue;
		struct bg_open_opts ko = { .sz = sizeof(ko), .btf_path = a->btf, .keep_malformed = 1,
					   .target_btf = a->kbtf[k], .kernel_version = a->kver[k] };
		kobj[k] = bg_object__open(path, &ko, err, sizeof(err));
		if (!kobj[k] || bg_object__prog_cnt(kobj[k]) != bg_object__prog_cnt(obj)) {
			cli_error("check", "%s: as kernel %s sees it: %s", path, kname(a, k),
				  err[0] ? err : "a different set of programs");
			for (int j = 0; j <= k; j++)
				if (kobj[j] && (j == k || kobj[j] != kobj[k]))
					bg_object__free(kobj[j]);
			bg_object__free(obj);
			return EXIT_BAD;
		}
	}
	int rc = EXIT_OK;
	for (size_t i = 0; i < bg_object__prog_cnt(obj); i++) {
		const struct bg_program *p = bg_object__prog(obj, i);
		if (!selected(a, bg_program__name(p)))
			continue;
		struct bg_verify_result r[MAX_KERNELS];
		double cpu[MAX_KERNELS];
		int nk = 0, e = 0;
		for (; nk < a->nkern; nk++) {
			struct bg_verify_opts vo = { .sz = sizeof(vo),
						     .profile = a->kern[nk] ? bg_kernel_profile__name(a->kern[nk]) : NULL,
						     .unprivileged = a->unpriv,
						     .trace = a->verbose ? out->trace : NULL,
						     .max_steps = a->max_steps };
			/* experiment knobs of the analysis (the library reads no environment) */
			if (getenv("BG_CHECK_K") && atoi(getenv("BG_CHECK_K")) > 0)
				vo.max_disjuncts = (uint32_t)atoi(getenv("BG_CHECK_K"));
			if (a->verbose)
				fprintf(out->trace, "=== %s: %s%s%s\n", cli_safe(path), cli_safe(bg_program__name(p)),
					a->multi ? " on kernel " : "", a->multi ? kname(a, nk) : "");
			if (getenv("BG_CHECK_STATS"))
				vo.stats = stderr;
			double c0 = thread_cpu_s();
			e = bg_verify(kobj[nk] ? bg_object__prog(kobj[nk], i) : p, &vo, &r[nk]);
			cpu[nk] = thread_cpu_s() - c0;
			if (e)
				break;
		}
		if (e) {
			cli_error("check", "%s: %s: internal error: %s", path, bg_program__name(p), strerror(-e));
			rc = EXIT_BAD;
			for (int k = 0; k < nk; k++)
				bg_verify_result__fini(&r[k]);
			continue;
		}
		int w = worst_of(r, nk);
		cur_cpu_s = cpu[a->json && a->multi ? w : 0];
		/* assertions (<bpfgate/assert.h>): on the first profile's analysis */
		struct bg_assert_result *as = NULL;
		int nas = 0, abad = 0;
		if (bg_object__has_asserts(obj) &&
		    (nas = check_asserts_eval(p, a->kern[0] ? bg_kernel_profile__name(a->kern[0]) : NULL, a->unpriv,
					      a->max_steps, &as, &abad)) < 0) {
			cli_error("check", "%s: %s: assertions: %s", path, bg_program__name(p), strerror(-nas));
			rc = EXIT_BAD;
		}
		if (a->json && a->multi) {
			print_json_multi(a, &out->j, path, p, r);
		} else if (a->json) {
			print_json(&out->j, path, p, &r[0], as, nas);
		} else if (a->sarif) {
			for (int k = 0; k < nk; k++)
				if (r[k].verdict == BG_VERDICT_REJECTED)
					sarif_result(&out->j, path, p, &r[k], a->multi ? kname(a, k) : NULL);
			if (nas > 0)
				check_asserts_sarif(&out->j, path, p, as, nas);
		} else if (!a->quiet || r[w].verdict != BG_VERDICT_ACCEPTED || abad) {
			if (a->multi)
				print_text_multi(a, path, p, r);
			else
				print_text(path, p, &r[0], a->verbose);
			if (nas > 0)
				check_asserts_text(as, nas, a->verbose, r[0].verdict != BG_VERDICT_ACCEPTED);
		}
		free(as);
		if (abad && rc == EXIT_OK)
			rc = EXIT_REJECTED;
		if (out->dot)
			dot_program(out->dot, p, &r[0]);
		if (r[w].verdict == BG_VERDICT_REJECTED && (rc == EXIT_OK || rc == EXIT_TOO_COMPLEX))
			rc = EXIT_REJECTED;
		for (int k = 0; k < nk; k++)
			if (too_complex(&r[k]) && rc == EXIT_OK)
				rc = EXIT_TOO_COMPLEX;
		for (int k = 0; k < nk; k++)
			bg_verify_result__fini(&r[k]);
	}
	for (int k = 0; k < a->nkern; k++) {
		bool first = kobj[k] != NULL;
		for (int j = 0; j < k && first; j++)
			first = kobj[j] != kobj[k];
		if (first)
			bg_object__free(kobj[k]);
	}
	bg_object__free(obj);
	return rc;
}

/* The project has no web home: informationUri (an absolute URI) names the
 * documentation `make install` puts under PREFIX (docs/ARCHITECTURE.md). */
static void json_info_uri(struct bg_json *j)
{
	char u[1024] = "file://";

	cli_uri_path_encode(u + 7, sizeof(u) - 7, BG_DOC_DIR "/README.md");
	bg_json_kstr(j, "informationUri", u);
}

static void sarif_begin(struct bg_json *j)
{
	bg_json_obj_begin(j);
	bg_json_kstr(j, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
	bg_json_kstr(j, "version", "2.1.0");
	bg_json_key(j, "runs");
	bg_json_arr_begin(j);
	bg_json_obj_begin(j);
	bg_json_key(j, "tool");
	bg_json_obj_begin(j);
	bg_json_key(j, "driver");
	bg_json_obj_begin(j);
	bg_json_kstr(j, "name", "bpfgate check");
	bg_json_kstr(j, "version", BPFGATE_VERSION);
	json_info_uri(j);
	bg_json_obj_end(j);
	bg_json_obj_end(j);
	bg_json_key(j, "results");
	bg_json_arr_begin(j);
}

/* invocations[0]: executionSuccessful is false when an input could not be
 * read or judged, one error notification per reported error, so a
 * code-scanning upload does not show an unreadable object as clean. */
static void sarif_invocation(struct bg_json *j)
{
	bg_json_key(j, "invocations");
	bg_json_arr_begin(j);
	bg_json_obj_begin(j);
	bg_json_kbool(j, "executionSuccessful", cli_error_cnt() == 0);
	bg_json_key(j, "toolExecutionNotifications");
	bg_json_arr_begin(j);
	for (size_t i = 0; i < cli_error_cnt(); i++) {
		char *file;
		const char *msg = cli_error_msg(i, &file);
		bg_json_obj_begin(j);
		bg_json_kstr(j, "level", "error");
		cli_sarif_message(j, msg);
		if (file)
			cli_sarif_locations(j, file, 0, 0);
		bg_json_obj_end(j);
		free(file);
	}
	bg_json_arr_end(j);
	bg_json_obj_end(j);
	bg_json_arr_end(j);
}

static void sarif_end(struct bg_json *j)
{
	bg_json_arr_end(j);
	sarif_invocation(j);
	bg_json_obj_end(j);
	bg_json_arr_end(j);
	bg_json_obj_end(j);
}

int cmd_check(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	struct check_args a;
	memset(&a, 0, sizeof(a));
	if (parse(argc, argv, &a))
		return EXIT_BAD;
	if (a.list_kernels)
		return list_kernels(a.json);
	struct sink out = { 0 };
	if (a.dot) {
		out.dot = fopen(a.dot, "w");
		if (!out.dot)
			return cli_error("check", "%s: %s", a.dot, strerror(errno));
		fprintf(out.dot, "digraph bpfgate {\n");
	}
	if (a.json || a.sarif) {
		bg_json_init(&out.j, stdout, true);
		if (a.json) {
			bg_json_arr_begin(&out.j);
			cli_json_sink(&out.j);
		} else
			sarif_begin(&out.j);
	}
	int rc = EXIT_OK;
	if (a.verbose)
		out.trace = cli_safe_stream(stderr);
	for (int i = 0; i < a.nobjs; i++) {
		int r = check_object(&a, a.objs[i], &out);
		if (exit_rank(r) > exit_rank(rc))
			rc = r;
	}
	if (out.trace && out.trace != stderr)
		fclose(out.trace);
	for (int k = 0; k < a.nkern; k++)
		btf__free(a.kbtf[k]);
	for (int i = 0; i < a.nprogs; i++)
		if (!a.used_prog[i]) {
			cli_error("check", "no program named %s", a.progs[i]);
			rc = EXIT_BAD;
		}
	if (a.json) {
		cli_json_sink(NULL);
		bg_json_arr_end(&out.j);
		printf("\n");
	} else if (a.sarif) {
		sarif_end(&out.j);
		printf("\n");
	}
	if (out.dot) {
		fprintf(out.dot, "}\n");
		fclose(out.dot);
	}
	return rc;
}
