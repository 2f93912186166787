/* bpfgate cov run / stats: instrument, run, write the tracefile. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpfgate/bpfgate.h>
#include <bpfgate/cov.h>
#include "cli.h"
#include "bg_json.h"
#include <bpfgate/packets.h>
#include "cov_cli.h"
#include "cov_attach.h"
#include "cov_cfg.h"

struct run_args {
	const char *obj, *out, *profile, *cfg;
	const char *progs[64];
	int nprogs;
	int vm, json, command_only;
	uint32_t repeat;
	struct bg_packets *in;   /* --input, --input-dir, then --pcap */
	const char *pcaps[16];   /* read once the programs are known (link type) */
	int npcaps;
	char **cmd;              /* after "--" */
	const char *tprog[64], *tspec[64]; /* --uprobe/--usdt PROG=TARGET */
	int ntargets;
};

/* --uprobe PROG=PATH:FUNC[+OFF] or --usdt PROG=PATH:PROVIDER:NAME */
static int add_target(struct run_args *a, const char *opt, char *arg)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1])
		return cli_error("cov", "run: %s wants PROG=%s, got '%s'", opt,
				 strcmp(opt, "--usdt") ? "PATH:FUNC[+OFFSET]" : "PATH:PROVIDER:NAME", arg);
	if (a->ntargets == 64)
		return cli_error("cov", "run: at most 64 %s options", opt);
	*eq = 0;
	a->tprog[a->ntargets] = arg;
	a->tspec[a->ntargets++] = eq + 1;
	return 0;
}

static int parse(int argc, char **argv, struct run_args *a)
{
	char err[512];
	int rc = 0;

	a->out = "coverage.info";
	for (int i = 1; i < argc && !rc; i++) {
		const char *s = argv[i];
		char *v = NULL;

		if (!strcmp(s, "--")) {
			a->cmd = argv + i + 1;
			if (!a->cmd[0])
				return cli_error("cov", "run: -- needs a command");
			break;
		}
		if (!strcmp(s, "--prog") || !strcmp(s, "--uprobe") || !strcmp(s, "--usdt") ||
		    !strcmp(s, "-o") || !strcmp(s, "--profile") || !strcmp(s, "--cfg") ||
		    !strcmp(s, "--repeat") ||
		    !strcmp(s, "--input") || !strcmp(s, "--packet") || !strcmp(s, "--input-dir") ||
		    !strcmp(s, "--pcap")) {
			v = (char *)cli_value("cov", argc, argv, &i);
			if (!v)
				return EXIT_BAD;
		}
		if (!strcmp(s, "--prog")) {
			if (a->nprogs == 64)
				return cli_error("cov", "run: at most 64 --prog options");
			a->progs[a->nprogs++] = v;
		} else if (!strcmp(s, "--uprobe") || !strcmp(s, "--usdt")) {
			if (add_target(a, s, v))
				return EXIT_BAD;
		} else if (!strcmp(s, "--command-only")) {
			a->command_only = 1;
		} else if (!strcmp(s, "--vm")) {
			a->vm = 1;
		} else if (!strcmp(s, "--json")) {
			a->json = 1;
		} else if (!strcmp(s, "-o")) {
			a->out = v;
		} else if (!strcmp(s, "--profile")) {
			a->profile = v;
		} else if (!strcmp(s, "--cfg")) {
			a->cfg = v;
		} else if (!strcmp(s, "--repeat")) {
			a->repeat = (uint32_t)strtoul(v, NULL, 0);
		} else if (!strcmp(s, "--input") || !strcmp(s, "--packet")) {
			rc = bg_packets__add_file(a->in, v, err, sizeof(err));
		} else if (!strcmp(s, "--input-dir")) {
			rc = bg_packets__add_dir(a->in, v, err, sizeof(err));
		} else if (!strcmp(s, "--pcap")) {
			if (a->npcaps == 16)
				return cli_error("cov", "run: at most 16 --pcap options");
			a->pcaps[a->npcaps++] = v;
		} else if (s[0] == '-' || a->obj) {
			return cli_error("cov", "run: unexpected argument '%s'", s);
		} else {
			a->obj = s;
		}
	}
	if (rc)
		return cli_error("cov", "run: %s", err);
	if (!a->obj)
		return cli_error("cov", "run: no object");
	if (!a->cmd && !bg_packets__cnt(a->in) && !a->npcaps)
		return cli_error("cov", "run: no input (--input, --input-dir, --pcap) and no command after --");
	if (!a->cmd && a->ntargets)
		return cli_error("cov", "run: --uprobe/--usdt attach while a command runs: add -- COMMAND");
	return 0;
}

/* Captures become Ethernet frames; raw IP only when every chosen program
 * that takes a packet sees from L3 on (see bpfgate/packets.h). */
static int read_pcaps(struct run_args *a, const struct bg_program **progs, size_t n)
{
	struct bg_packets_opts po = {.sz = sizeof(po), .form = BG_PACKET_ETH_L3};
	char err[512];

	for (size_t i = 0; i < n; i++) {
		bool takes;
		if (cli_packet_input(progs[i], &takes) == BG_PACKET_ETH && takes)
			po.form = BG_PACKET_ETH;
	}
	for (int k = 0; k < a->npcaps; k++)
		if (bg_packets__add_capture(a->in, a->pcaps[k], &po, err, sizeof(err)))
			return cli_error("cov", "run: %s", err);
	return 0;
}

static bool chosen(const struct run_args *a, const char *name)
{
	if (!a->nprogs)
		return true;
	for (int i = 0; i < a->nprogs; i++)
		if (!strcmp(a->progs[i], name))
			return true;
	return false;
}

static int write_outputs(const struct run_args *a, struct bg_cov **covs, size_t n)
{
	FILE *f = fopen(a->out, "w");

	if (!f || bg_cov__write_lcov(covs, n, "bpfgate", f) < 0) {
		if (f)
			fclose(f);
		return cli_error("cov", "cannot write %s: %s", a->out, strerror(errno));
	}
	fclose(f);
	if (a->profile) {
		f = fopen(a->profile, "w");
		if (!f || bg_cov__write_profile(covs, n, f) < 0) {
			if (f)
				fclose(f);
			return cli_error("cov", "cannot write %s: %s", a->profile, strerror(errno));
		}
		fclose(f);
	}
	if (a->cfg && cov_cfg_write(a->cfg, covs, n))
		return EXIT_BAD;
	return 0;
}

/* The record's verdict: "accepted" when the instrumented program ran,
 * "rejected" when the kernel refused it (bg_cov__load_kernel says so in its
 * message), "unavailable" when it could not be instrumented, attached or run. */
static const char *run_verdict(const struct bg_cov *cov, const char *err)
{
	if (!err)
		return "accepted";
	return cov && strstr(err, "not loaded (rejected)") ? "rejected" : "unavailable";
}

static void report_refused(const char *prog, const int *ierr, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (ierr[k])
			fprintf(stderr, "bpfgate cov: run: %s: input %zu refused by BPF_PROG_TEST_RUN (%s); "
				"the other inputs were counted\n", cli_safe(prog), k, strerror(-ierr[k]));
}

static void json_refused(struct bg_json *j, const int *ierr, size_t n)
{
	bg_json_key(j, "refused_inputs");
	bg_json_arr_begin(j);
	for (size_t k = 0; ierr && k < n; k++)
		if (ierr[k]) {
			bg_json_obj_begin(j);
			bg_json_kuint(j, "input", k);
			bg_json_kint(j, "errno", -ierr[k]);
			bg_json_kstr(j, "message", strerror(-ierr[k]));
			bg_json_obj_end(j);
		}
	bg_json_arr_end(j);
}

/* Write the tracefile (and profile), then the summary; in --json mode a
 * write error is an element of the summary array. Returns write_outputs'. */
static int print_summary(const struct run_args *a, struct bg_cov **covs, const struct bg_program **progs,
			 const char **names, const char **errs, int **refused, size_t n)
{
	struct bg_json j;
	int rc;

	if (!a->json) {
		rc = write_outputs(a, covs, n);
		for (size_t i = 0; i < n; i++) {
			const uint64_t *c = covs[i] ? bg_cov__counts(covs[i]) : NULL;
			size_t hit = 0, nc = covs[i] ? bg_cov__counter_cnt(covs[i]) : 0;

			for (size_t k = 0; c && k < nc; k++)
				hit += c[k] > 0;
			if (errs[i])
				printf("%-24s error: %s\n", cli_safe(names[i]), cli_safe(errs[i]));
			else
				printf("%-24s %zu/%zu counters hit, insns %zu -> %zu%s\n", cli_safe(names[i]),
				       hit, nc, bg_cov__insns_before(covs[i]), bg_cov__insns_after(covs[i]),
				       refused[i] ? " (some inputs refused, see above)" : "");
		}
		if (!rc)
			printf("wrote %s\n", cli_safe(a->out));
		return rc;
	}
	bg_json_init(&j, stdout, true);
	bg_json_arr_begin(&j);
	cli_json_sink(&j);
	rc = write_outputs(a, covs, n);
	for (size_t i = 0; i < n; i++) {
		bg_json_obj_begin(&j);
		bg_json_kstr(&j, "object", a->obj);
		bg_json_kstr(&j, "program", names[i]);
		bg_json_kstr(&j, "section", bg_program__section(progs[i]));
		bg_json_kstr(&j, "type", bg_program__type_name(progs[i]));
		bg_json_kstr(&j, "verdict", run_verdict(covs[i], errs[i]));
		bg_json_kstr(&j, "runner", a->vm ? "vm" : "kernel");
		bg_json_kstr(&j, "error", errs[i]);
		json_refused(&j, refused[i], bg_packets__cnt(a->in));
		if (covs[i]) {
			const uint64_t *c = bg_cov__counts(covs[i]);

			bg_json_kuint(&j, "insns_before", bg_cov__insns_before(covs[i]));
			bg_json_kuint(&j, "insns_after", bg_cov__insns_after(covs[i]));
			bg_json_key(&j, "counters");
			bg_json_arr_begin(&j);
			for (size_t k = 0; k < bg_cov__counter_cnt(covs[i]); k++) {
				const struct bg_cov_counter *ct = bg_cov__counter(covs[i], k);

				bg_json_obj_begin(&j);
				bg_json_kstr(&j, "kind", ct->kind == BG_COV_BLOCK ? "block" :
						 ct->kind == BG_COV_TAKEN ? "taken" : "not_taken");
				bg_json_kuint(&j, "insn", ct->insn);
				bg_json_kuint(&j, "count", c[k]);
				bg_json_obj_end(&j);
			}
			bg_json_arr_end(&j);
		}
		bg_json_obj_end(&j);
	}
	cli_json_sink(NULL);
	bg_json_arr_end(&j);
	return rc;
}

int cov_cmd_run(int argc, char **argv)
{
	struct run_args a = {0};
	struct bg_object *obj;
	struct bg_cov *covs[64] = {0};
	const char *names[64] = {0}, *errs[64] = {0}, *targets[64] = {0};
	const struct bg_program *progs[64] = {0};
	int *refused[64] = {0}; /* per program: the kernel's refusal per input, or NULL */
	static char errbuf[64][512];
	char err[512];
	size_t n = 0;
	int rc, status = EXIT_OK;

	if (!(a.in = bg_packets__new()))
		return cli_error("cov", "run: %s", strerror(ENOMEM));
	rc = parse(argc, argv, &a);

	if (rc) {
		bg_packets__free(a.in);
		return rc;
	}
	obj = bg_object__open(a.obj, NULL, err, sizeof(err));
	if (!obj) {
		bg_packets__free(a.in);
		return cli_error("cov", "%s", err);
	}
	for (size_t i = 0; i < bg_object__prog_cnt(obj) && n < 64; i++) {
		struct bg_program *p = bg_object__prog(obj, i);

		if (!chosen(&a, bg_program__name(p)))
			continue;
		names[n] = bg_program__name(p);
		progs[n] = p;
		errbuf[n][0] = 0;
		covs[n] = bg_cov__instrument(p, errbuf[n], sizeof(errbuf[n]));
		if (!covs[n])
			errs[n] = errbuf[n];
		n++;
	}
	if (a.npcaps && (rc = read_pcaps(&a, progs, n))) {
		for (size_t i = 0; i < n; i++)
			bg_cov__free(covs[i]);
		bg_object__free(obj);
		bg_packets__free(a.in);
		return rc;
	}
	for (int t = 0; t < a.ntargets; t++) {
		size_t i = 0;

		while (i < n && strcmp(names[i], a.tprog[t]))
			i++;
		if (i == n) {
			for (i = 0; i < n; i++)
				bg_cov__free(covs[i]);
			bg_object__free(obj);
			bg_packets__free(a.in);
			return cli_error("cov", "run: %s: no selected program '%s'", a.obj, a.tprog[t]);
		}
		targets[i] = a.tspec[t];
	}
	if (a.cmd) {
		rc = cov_attach_run(covs, n, targets, a.command_only, a.cmd, errbuf, errs);
	} else {
		struct bg_cov_input *in = calloc(bg_packets__cnt(a.in), sizeof(*in));
		struct bg_cov_run_opts ro = {.sz = sizeof(ro), .repeat = a.repeat};

		for (size_t k = 0; in && k < bg_packets__cnt(a.in); k++) {
			uint32_t len;
			const void *d = bg_packets__data(a.in, k, &len);
			in[k] = (struct bg_cov_input){d, len};
		}
		for (size_t i = 0; i < n; i++) {
			if (!covs[i])
				continue;
			ro.input_errs = a.vm ? NULL : calloc(bg_packets__cnt(a.in) ? bg_packets__cnt(a.in) : 1, sizeof(int));
			rc = a.vm ? bg_cov__run_vm(covs[i], in, bg_packets__cnt(a.in), &ro, errbuf[i], sizeof(errbuf[i]))
				  : bg_cov__run_kernel(covs[i], in, bg_packets__cnt(a.in), &ro, errbuf[i], sizeof(errbuf[i]));
			if (rc < 0 || (rc && a.vm))
				errs[i] = errbuf[i];
			if (rc > 0 && !a.vm) { /* some inputs refused: the others counted */
				report_refused(names[i], ro.input_errs, bg_packets__cnt(a.in));
				refused[i] = ro.input_errs;
				ro.input_errs = NULL;
				status = EXIT_REJECTED;
			}
			free(ro.input_errs);
		}
		free(in);
	}
	for (size_t i = 0; i < n; i++)
		if (errs[i])
			status = EXIT_REJECTED;
	if (print_summary(&a, covs, progs, names, errs, refused, n))
		status = EXIT_BAD;
	for (size_t i = 0; i < n; i++) {
		bg_cov__free(covs[i]);
		free(refused[i]);
	}
	bg_object__free(obj);
	bg_packets__free(a.in);
	return n ? status : cli_error("cov", "run: no program selected");
}

/* A 64-byte Ethernet/IPv4/TCP packet for timing packet programs. */
static const uint8_t bench_pkt[64] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x08, 0x00,             /* eth, IPv4 */
	0x45, 0, 0, 50, 0, 0, 0x40, 0, 64, 6, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2, /* ip, TCP */
	0x30, 0x39, 0x00, 0x50, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x02, 0xff, 0xff, 0, 0, 0, 0,
};

/* Mean BPF_PROG_TEST_RUN time of prog over repeat runs, in ns (0: not runnable). */
static double time_prog(const struct bg_program *p, uint32_t repeat)
{
	struct bg_kload_opts o = {.sz = sizeof(o), .keep_fd = 1};
	struct bg_kload_result r;
	uint32_t dur = 0;
	double best = 0;

	memset(&r, 0, sizeof(r));
	if (bg_kern_load(p, &o, &r) < 0 || r.verdict != BG_VERDICT_ACCEPTED) {
		bg_kload_result__fini(&r);
		return 0;
	}
	for (int k = 0; k < 5; k++) { /* best of 5: the least disturbed */
		struct bg_test_run_opts t = {.sz = sizeof(t), .data_in = bench_pkt,
					     .data_size_in = sizeof(bench_pkt), .repeat = repeat};

		if (bg_kern_test_run(r.prog_fd, &t, NULL, &dur) < 0) {
			best = 0;
			break;
		}
		if (!best || dur < best)
			best = dur;
	}
	bg_kload_result__fini(&r);
	return best;
}

/* stats: for every program, the original and the instrumented build in the
 * kernel, and the instruction growth; with --bench N, also the mean
 * BPF_PROG_TEST_RUN time of both on a 64-byte TCP packet. */
int cov_cmd_stats(int argc, char **argv)
{
	int json = 0, status = EXIT_OK;
	uint32_t bench = 0;
	struct bg_json j;

	for (int i = 1; i < argc; i++) {
		json |= !strcmp(argv[i], "--json");
		if (!strcmp(argv[i], "--bench") && i + 1 < argc) {
			bench = (uint32_t)strtoul(argv[i + 1], NULL, 0);
			argv[i + 1] = (char *)"--json-skip";
		}
	}
	if (json) {
		bg_json_init(&j, stdout, true);
		bg_json_arr_begin(&j);
		cli_json_sink(&j);
	}
	for (int i = 1; i < argc; i++) {
		char err[512];
		struct bg_object *obj;

		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "--bench") || !strcmp(argv[i], "--json-skip"))
			continue;
		obj = bg_object__open(argv[i], NULL, err, sizeof(err));
		if (!obj) {
			status = cli_error("cov", "%s", err);
			continue;
		}
		for (size_t k = 0; k < bg_object__prog_cnt(obj); k++) {
			struct bg_program *p = bg_object__prog(obj, k);
			struct bg_kload_result r0, r1;
			struct bg_cov *c;
			char ierr[256] = "", msg[2048] = "";
			size_t before;
			double t_plain = 0, t_cov = 0;

			memset(&r0, 0, sizeof(r0));
			memset(&r1, 0, sizeof(r1));
			bg_program__raw(p, &before);
			bg_kern_load(p, NULL, &r0);
			if (bench)
				t_plain = time_prog(p, bench);
			c = bg_cov__instrument(p, ierr, sizeof(ierr));
			if (c)
				bg_kern_load(p, NULL, &r1);
			if (c && bench)
				t_cov = time_prog(p, bench);
			/* the kernel's insn numbers of the instrumented build, in the original's */
			if (c && r1.verdict != BG_VERDICT_ACCEPTED)
				bg_cov__message(c, r1.reason, msg, sizeof(msg));
			if (json) {
				bg_json_obj_begin(&j);
				bg_json_kstr(&j, "object", argv[i]);
				bg_json_kstr(&j, "program", bg_program__name(p));
				bg_json_kstr(&j, "section", bg_program__section(p));
				bg_json_kstr(&j, "type", bg_program__type_name(p));
				bg_json_kstr(&j, "verdict", bg_verdict_name(r0.verdict));
				bg_json_kstr(&j, "instrumented_verdict", c ? bg_verdict_name(r1.verdict) : "not instrumented");
				bg_json_kstr(&j, "message", c ? (r1.verdict != BG_VERDICT_ACCEPTED ? msg : NULL) : ierr);
				bg_json_kuint(&j, "insns", before);
				bg_json_kuint(&j, "insns_instrumented", c ? bg_cov__insns_after(c) : 0);
				bg_json_kuint(&j, "counters", c ? bg_cov__counter_cnt(c) : 0);
				bg_json_kuint(&j, "spill_sites", c ? bg_cov__spills(c) : 0);
				if (bench) {
					bg_json_kdouble(&j, "run_ns", t_plain);
					bg_json_kdouble(&j, "run_ns_instrumented", t_cov);
				}
				bg_json_obj_end(&j);
			} else {
				printf("%-40s %-24s %-11s -> %-11s insns %zu -> %zu%s%s\n", cli_safe(argv[i]),
				       cli_safe(bg_program__name(p)), bg_verdict_name(r0.verdict),
				       c ? bg_verdict_name(r1.verdict) : "not instrumented", before,
				       c ? bg_cov__insns_after(c) : 0, c ? (*msg ? "  " : "") : " ",
				       cli_safe(c ? msg : ierr));
			}
			if (r0.verdict == BG_VERDICT_ACCEPTED && (!c || r1.verdict != BG_VERDICT_ACCEPTED))
				status = EXIT_REJECTED;
			bg_kload_result__fini(&r0);
			bg_kload_result__fini(&r1);
			bg_cov__free(c);
		}
		bg_object__free(obj);
	}
	if (json) {
		cli_json_sink(NULL);
		bg_json_arr_end(&j);
	}
	return status;
}
