/* bpfgate corpus: run every program of a set of objects through several
 * verifiers (the running kernel, bpfgate's own verifier, external commands)
 * and compare each with the kernel: agreement matrix, agreement rate, time
 * and memory per program, and every disagreement with both messages.
 *
 * Work is split by object over -j forked workers; a worker serialises its
 * records as escaped TSV lines on a pipe and the parent rebuilds them, so
 * the report is the same whatever -j is. Records are sorted by (object,
 * program, verifier) before printing. The kernel is always the reference:
 * it is added to the verifiers when missing. Bad input (unreadable path,
 * object the loader refuses, bad option) -> message and exit 2; otherwise 0,
 * whatever the verdicts. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <bpfgate/bpfgate.h>
#include <bpfgate/kern.h>
#include <bpfgate/object.h>
#include <bpfgate/verifier.h>
#include <bpfgate/profile.h>
#include "bg_json.h"
#include <bpfgate/kvm.h>
#include <bpf/btf.h>
#include "cli.h"

/* bpfgate's verifier may not be linked yet: a weak reference resolves to
 * NULL then, and the verifier is reported as unavailable. */
#pragma weak bg_verify
#pragma weak bg_verify_result__fini

#define MAX_VERIFIERS 16
#define MSG_MAX 400

enum vkind { V_KERNEL, V_BPFGATE, V_EXTERNAL, V_KVM };

struct verifier {
	char name[64];
	enum vkind kind;
	const char *cmd; /* external: template with {obj} {section} {prog} {type} */
	char ver[32];    /* kernel@VER: the cached kernel booted; bpfgate@VER: the profile */
	int ref;         /* the kernel verifier it is compared with (bpfgate@V: kernel@V
			    when listed, else the running kernel) */
	struct bg_kvm_run *run; /* kernel@VER: the guest's verdicts (judged up front) */
	size_t *first;          /* kernel@VER: first record of object i in run->progs */
	struct btf *kbtf;       /* bpfgate@VER: the cached image's vmlinux BTF (CO-RE, kfuncs) */
	uint32_t kver;          /* bpfgate@VER: its version (__kconfig), as check --kernel VER */
};

struct rec {
	char *obj, *prog, *sec, *type;
	int vi;                 /* index into the verifier table */
	enum bg_verdict verdict;
	char *msg;
	double secs;
	long insns;             /* kernel: processed insns; bpfgate: steps; else -1 */
	long peak_kb;           /* bpfgate peak state memory or external child maxrss; -1 */
	long size;              /* program size in 8-byte instruction slots */
	long vtime_us;          /* kernel: "verification time N usec", else -1 */
};

struct opts {
	struct verifier v[MAX_VERIFIERS];
	int nv;
	int json, jobs, quiet, progress;
	double timeout;
	const char *tsv;
	char **objs;
	size_t nobj, capobj;
};

struct recs {
	struct rec *r;
	size_t n, cap;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpfgate corpus [PATH|LIST]... [--verifier kernel[,bpfgate]]\n"
		"                      [--external NAME='cmd {obj} {section} {prog}']... [--json]\n"
		"                      [--tsv FILE] [-j N] [--timeout SEC] [--quiet]\n"
		"  Runs every program of every object through each verifier and compares it with\n"
		"  the running kernel (always included as the reference).\n"
		"  PATH: an object, a folder (searched recursively for *.o) or a list file (one\n"
		"  path per line, '#' comments, relative to the list's folder).\n"
		"  --verifier LIST  kernel, bpfgate (comma separated; default kernel);\n"
		"                   kernel@VER: a cached Debian kernel booted under QEMU\n"
		"                   (bpfgate kernels fetch VER), every object in one boot;\n"
		"                   bpfgate@VER: bpfgate with the VER profile (check --kernel VER),\n"
		"                   compared with kernel@VER when that is listed too\n"
		"  --external N=CMD an external verifier: CMD runs under /bin/sh with {obj},\n"
		"                   {section}, {prog}, {type} replaced (shell-quoted); exit 0 =\n"
		"                   accepted, 1 = rejected, other = unavailable; the first output\n"
		"                   line is its message\n"
		"  --json           one record per program and verifier, plus the summary\n"
		"  --tsv FILE       tracking table, one row per program, a column group per verifier\n"
		"  -j N             parallel workers (by object)\n"
		"  --timeout SEC    per external run (default 60)\n"
		"exit: 0 compared (whatever the verdicts), 2 bad input or usage\n");
}

/* ---- small utilities ---------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d) {
		fprintf(stderr, "bpfgate corpus: out of memory\n");
		exit(EXIT_BAD);
	}
	return d;
}

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);

	if (!q) {
		fprintf(stderr, "bpfgate corpus: out of memory\n");
		exit(EXIT_BAD);
	}
	return q;
}

/* First line of s, trimmed, at most MSG_MAX bytes. */
static char *first_line(const char *s)
{
	char buf[MSG_MAX + 1];
	size_t n = 0;

	while (s && (*s == '\n' || *s == ' ' || *s == '\r'))
		s++;
	while (s && s[n] && s[n] != '\n' && n < MSG_MAX)
		n++;
	if (s)
		memcpy(buf, s, n);
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\r'))
		n--;
	buf[n] = 0;
	return xstrdup(buf);
}

static void recs_push(struct recs *rs, const struct rec *r)
{
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 256;
		rs->r = xrealloc(rs->r, rs->cap * sizeof(*rs->r));
	}
	rs->r[rs->n++] = *r;
}

static void rec_free(struct rec *r)
{
	free(r->obj);
	free(r->prog);
	free(r->sec);
	free(r->type);
	free(r->msg);
}

/* ---- collecting objects ------------------------------------------------- */

static void add_obj(struct opts *o, const char *path)
{
	if (o->nobj == o->capobj) {
		o->capobj = o->capobj ? o->capobj * 2 : 64;
		o->objs = xrealloc(o->objs, o->capobj * sizeof(*o->objs));
	}
	o->objs[o->nobj++] = xstrdup(path);
}

static int is_elf(const char *path)
{
	unsigned char m[4] = {0};
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, m, 4);
	close(fd);
	return n == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int collect(struct opts *o, const char *path, int depth);

static int collect_dir(struct opts *o, const char *path, int depth)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (!d)
		return cli_error("corpus", "%s: %s", path, strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		char *p = xrealloc(NULL, strlen(path) + strlen(names[i]) + 2);
		struct stat st;

		sprintf(p, "%s/%s", path, names[i]);
		if (!stat(p, &st) && S_ISDIR(st.st_mode)) {
			if (collect_dir(o, p, depth + 1))
				rc = EXIT_BAD;
		} else if (strlen(names[i]) > 2 && !strcmp(names[i] + strlen(names[i]) - 2, ".o")) {
			add_obj(o, p);
		}
		free(p);
		free(names[i]);
	}
	free(names);
	(void)depth;
	return rc;
}

static int collect_list(struct opts *o, const char *path, int depth)
{
	FILE *f = fopen(path, "r");
	char line[4096], *dir, *slash;
	int rc = 0, lineno = 0;

	if (!f)
		return cli_error("corpus", "%s: %s", path, strerror(errno));
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		strcpy(dir, ".");
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *e, *full;

		lineno++;
		if (!memchr(line, '\n', strlen(line)) && !feof(f)) {
			rc = cli_error("corpus", "%s:%d: line too long", path, lineno);
			break;
		}
		while (*s == ' ' || *s == '\t')
			s++;
		e = s + strlen(s);
		while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
			*--e = 0;
		if (!*s || *s == '#')
			continue;
		if (memchr(s, 0, (size_t)(e - s)) != NULL && strlen(s) != (size_t)(e - s)) {
			rc = cli_error("corpus", "%s:%d: NUL byte in path", path, lineno);
			break;
		}
		full = xrealloc(NULL, strlen(dir) + strlen(s) + 2);
		if (*s == '/')
			strcpy(full, s);
		else
			sprintf(full, "%s/%s", dir, s);
		if (collect(o, full, depth + 1)) {
			fprintf(stderr, "bpfgate corpus: (listed at %s:%d)\n", cli_safe(path), lineno);
			rc = EXIT_BAD;
		}
		free(full);
	}
	fclose(f);
	free(dir);
	return rc;
}

static int collect(struct opts *o, const char *path, int depth)
{
	struct stat st;

	if (depth > 8)
		return cli_error("corpus", "%s: list files nested too deeply", path);
	if (stat(path, &st))
		return cli_error("corpus", "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return collect_dir(o, path, depth);
	if (is_elf(path)) {
		add_obj(o, path);
		return 0;
	}
	return collect_list(o, path, depth);
}

/* ---- running one verifier on one program -------------------------------- */

/* The kernel's reason for a rejection: the last message line of the
 * verifier log, read by the library's one log parser (bpfgate/kern.h: the same
 * rule as corpus/kjudge.c, which recorded corpus/expected.tsv and stays
 * independent of the library on purpose). */
static char *kernel_message(const char *log, const char *fallback)
{
	char *m = bg_klog_message(log, 1);

	if (!m)
		return first_line(fallback);
	if (strlen(m) > MSG_MAX)
		m[MSG_MAX] = 0;
	return m;
}

static void run_kernel(const struct bg_program *p, struct rec *r)
{
	struct bg_kload_opts ko = {.sz = sizeof(ko)};
	struct bg_kload_result kr;
	double t0 = now_s();
	int e = bg_kern_load(p, &ko, &kr);

	r->secs = now_s() - t0;
	if (e) {
		r->verdict = BG_VERDICT_UNAVAILABLE;
		r->msg = xstrdup(strerror(-e));
		return;
	}
	r->verdict = kr.verdict;
	if (kr.verdict == BG_VERDICT_REJECTED)
		r->msg = kernel_message(kr.log, kr.reason);
	else
		r->msg = first_line(kr.verdict == BG_VERDICT_ACCEPTED ? "" : kr.reason);
	r->insns = kr.insns_processed;
	r->vtime_us = kr.verif_time_usec;
	bg_kload_result__fini(&kr);
}

static void run_bpfgate(const struct verifier *v, const struct bg_program *p, struct rec *r)
{
	struct bg_verify_opts vo = {.sz = sizeof(vo), .profile = v->ver[0] ? v->ver : NULL};
	struct bg_verify_result vr;
	double t0 = now_s();
	int e;

	if (!bg_verify) {
		r->verdict = BG_VERDICT_UNAVAILABLE;
		r->msg = xstrdup("bpfgate verifier not built into this binary");
		return;
	}
	memset(&vr, 0, sizeof(vr));
	e = bg_verify(p, &vo, &vr);
	r->secs = now_s() - t0;
	if (e) {
		r->verdict = BG_VERDICT_UNAVAILABLE;
		r->msg = xstrdup(e == -EOPNOTSUPP ? "not supported by bpfgate yet" : strerror(-e));
	} else {
		r->verdict = vr.verdict;
		r->msg = first_line(vr.verdict == BG_VERDICT_ACCEPTED ? "" : vr.diag.message);
		if (vr.seconds > 0)
			r->secs = vr.seconds;
		r->insns = (long)vr.steps;
		r->peak_kb = (long)(vr.peak_bytes / 1024);
	}
	if (bg_verify_result__fini)
		bg_verify_result__fini(&vr);
}

/* kernel@VER: the verdict the guest gave program p of object idx. */
static void run_kvm(const struct verifier *v, size_t idx, const struct bg_program *p,
		    struct rec *r)
{
	const struct bg_kvm_run *run = v->run;

	r->verdict = BG_VERDICT_UNAVAILABLE;
	if (!run) {
		r->msg = xstrdup("kernel not booted");
		return;
	}
	for (size_t k = v->first[idx]; k < v->first[idx + 1]; k++) {
		const struct bg_kvm_prog *g = bg_kvm_run__prog(run, k);
		const struct bg_kload_result *res = bg_kvm_prog__result(g);

		if (bg_kvm_prog__obj_error(g)) {
			r->msg = first_line(bg_kvm_prog__obj_error(g));
			return;
		}
		if (strcmp(bg_kvm_prog__name(g), bg_program__name(p)))
			continue;
		r->verdict = res->verdict;
		if (res->verdict == BG_VERDICT_REJECTED)
			r->msg = first_line(bg_kvm_prog__message(g) ? bg_kvm_prog__message(g) : res->reason);
		else
			r->msg = first_line(res->verdict == BG_VERDICT_ACCEPTED ? "" : res->reason);
		r->insns = res->insns_processed;
		r->vtime_us = res->verif_time_usec;
		r->secs = res->verif_time_usec >= 0 ? (double)res->verif_time_usec / 1e6 : 0;
		return;
	}
	r->msg = first_line(bg_kvm_run__error(run) ? bg_kvm_run__error(run)
						  : "no verdict from the guest for this program");
}

/* Boot every kernel@VER verifier's kernel once with all objects (jobs
 * guests at once) before the per-object work. */
static int judge_kernels(struct opts *o)
{
	const struct bg_kimage *ks[MAX_VERIFIERS];
	struct bg_kvm_run *runs[MAX_VERIFIERS];
	int idx[MAX_VERIFIERS], nk = 0, e;
	struct bg_kvm_opts ko = {.sz = sizeof(ko)};
	struct bg_kcache *c = NULL;

	cli_kvm_opts(&ko);
	for (int vi = 0; vi < o->nv; vi++) {
		if (o->v[vi].kind != V_KVM)
			continue;
		if (!c && !(c = cli_kcache_open("corpus")))
			return EXIT_BAD;
		if (!(ks[nk] = bg_kcache__find(c, o->v[vi].ver))) {
			bg_kcache__free(c);
			return cli_error("corpus", "kernel %s is not in the cache (bpfgate kernels fetch %s)",
					 o->v[vi].ver, o->v[vi].ver);
		}
		idx[nk++] = vi;
	}
	if (!nk)
		return 0;
	e = bg_kcache__judge(c, ks, (size_t)nk, (const char *const *)o->objs, o->nobj, &ko, runs);
	bg_kcache__free(c);
	if (e)
		return cli_error("corpus", "cannot boot kernels: %s", strerror(-e));
	for (int k = 0; k < nk; k++) {
		struct verifier *v = &o->v[idx[k]];
		size_t j = 0, n = bg_kvm_run__prog_cnt(runs[k]);

		v->run = runs[k];
		v->first = xrealloc(NULL, (o->nobj + 1) * sizeof(size_t));
		for (size_t i = 0; i <= o->nobj; i++) {
			while (j < n && bg_kvm_prog__obj(bg_kvm_run__prog(runs[k], j)) < i)
				j++;
			v->first[i] = j;
		}
		if (bg_kvm_run__error(runs[k]))
			fprintf(stderr, "bpfgate corpus: %s\n--- last lines of the guest console ---\n%s\n---\n",
				bg_kvm_run__error(runs[k]),
				bg_kvm_run__console_tail(runs[k]) ? bg_kvm_run__console_tail(runs[k]) : "");
	}
	return 0;
}

static void free_kernels(struct opts *o)
{
	for (int vi = 0; vi < o->nv; vi++) {
		if (o->v[vi].kind != V_KVM || !o->v[vi].run)
			continue;
		bg_kvm_run__free(o->v[vi].run);
		o->v[vi].run = NULL;
		free(o->v[vi].first);
	}
}

/* Append s to the growing buffer, single-quoted for /bin/sh. */
static void append_quoted(char **buf, size_t *len, const char *s)
{
	size_t need = 3 + strlen(s) * 4;

	*buf = xrealloc(*buf, *len + need + 1);
	(*buf)[(*len)++] = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			memcpy(*buf + *len, "'\\''", 4);
			*len += 4;
		} else {
			(*buf)[(*len)++] = *s;
		}
	}
	(*buf)[(*len)++] = '\'';
	(*buf)[*len] = 0;
}

static char *expand_template(const char *tpl, const char *obj, const struct bg_program *p)
{
	static const char *const keys[] = {"{obj}", "{section}", "{prog}", "{type}"};
	const char *vals[4] = {obj, bg_program__section(p), bg_program__name(p),
			       bg_program__type_name(p)};
	char *out = xstrdup("");
	size_t len = 0;

	while (*tpl) {
		int hit = -1;

		for (int k = 0; k < 4 && hit < 0; k++)
			if (!strncmp(tpl, keys[k], strlen(keys[k])))
				hit = k;
		if (hit >= 0) {
			append_quoted(&out, &len, vals[hit] ? vals[hit] : "");
			tpl += strlen(keys[hit]);
		} else {
			out = xrealloc(out, len + 2);
			out[len++] = *tpl++;
			out[len] = 0;
		}
	}
	return out;
}

/* Read the child's output until EOF or the deadline; keeps the first 4 KiB. */
static int drain(int fd, char *buf, size_t cap, double deadline)
{
	size_t n = 0;

	for (;;) {
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		double left = deadline - now_s();
		char tmp[4096];
		ssize_t r;

		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&pf, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		r = read(fd, tmp, sizeof(tmp));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (n + 1 < cap) {
			size_t k = (size_t)r < cap - 1 - n ? (size_t)r : cap - 1 - n;
			memcpy(buf + n, tmp, k);
			n += k;
		}
	}
	buf[n] = 0;
	return 0;
}

static void run_external(const struct verifier *v, const char *obj, const struct bg_program *p,
			 double timeout, struct rec *r)
{
	char *cmd = expand_template(v->cmd, obj, p), out[4096];
	int pfd[2], status = 0, to;
	struct rusage ru;
	double t0 = now_s();
	pid_t pid;

	if (pipe(pfd)) {
		r->verdict = BG_VERDICT_UNAVAILABLE;
		r->msg = xstrdup(strerror(errno));
		free(cmd);
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	free(cmd);
	if (pid < 0) {
		close(pfd[0]);
		r->verdict = BG_VERDICT_UNAVAILABLE;
		r->msg = xstrdup(strerror(errno));
		return;
	}
	to = drain(pfd[0], out, sizeof(out), t0 + timeout);
	close(pfd[0]);
	if (to) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	r->secs = now_s() - t0;
	r->peak_kb = ru.ru_maxrss;
	if (to) {
		r->verdict = BG_VERDICT_UNAVAILABLE;
		r->msg = xstrdup("timed out");
	} else if (WIFEXITED(status) && WEXITSTATUS(status) <= 1) {
		r->verdict = WEXITSTATUS(status) ? BG_VERDICT_REJECTED : BG_VERDICT_ACCEPTED;
		r->msg = first_line(out);
	} else {
		char m[MSG_MAX + 64];
		char *fl = first_line(out);

		snprintf(m, sizeof(m), "exit %d%s%s",
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
			 *fl ? ": " : "", fl);
		free(fl);
		r->verdict = BG_VERDICT_UNAVAILABLE;
		r->msg = xstrdup(m);
	}
}

typedef void (*emit_fn)(const struct rec *r, void *arg);

/* Every program of one object through every verifier. An object that the
 * loader refuses yields one record per verifier for program "-", verdict
 * unavailable, with the loader's message (it is data, not bad input). */
static int process_object(const struct opts *o, size_t idx, emit_fn emit, void *arg)
{
	const char *path = o->objs[idx];
	char err[512] = "";
	/* a malformed program is still a program: the kernel judges its raw
	 * code, bpfgate's verifier rejects it with the loader's message */
	struct bg_open_opts oo = {.sz = sizeof(oo), .keep_malformed = 1};
	struct bg_object *obj = bg_object__open(path, &oo, err, sizeof(err));

	if (!obj) {
		if (!o->quiet)
			fprintf(stderr, "bpfgate corpus: warning: %s\n",
				cli_safe(err[0] ? err : strerror(errno)));
		for (int vi = 0; vi < o->nv; vi++) {
			struct rec r = {.vi = vi, .insns = -1, .peak_kb = -1, .vtime_us = -1,
					.verdict = BG_VERDICT_UNAVAILABLE};

			r.obj = xstrdup(path);
			r.prog = xstrdup("-");
			r.sec = xstrdup("-");
			r.type = xstrdup("-");
			r.msg = xstrdup(err[0] ? err : strerror(errno));
			emit(&r, arg);
		}
		return 0;
	}
	/* bpfgate@VER sees the object as check --kernel VER does: through VER's
	 * BTF and __kconfig (one more open per such verifier) */
	struct bg_object *vobj[MAX_VERIFIERS] = {0};
	for (int vi = 0; vi < o->nv; vi++) {
		if (o->v[vi].kind != V_BPFGATE || (!o->v[vi].kbtf && !o->v[vi].kver))
			continue;
		struct bg_open_opts vo = {.sz = sizeof(vo), .keep_malformed = 1, .target_btf = o->v[vi].kbtf,
					  .kernel_version = o->v[vi].kver};
		char verr[256] = "";
		vobj[vi] = bg_object__open(path, &vo, verr, sizeof(verr));
		if (vobj[vi] && bg_object__prog_cnt(vobj[vi]) != bg_object__prog_cnt(obj)) {
			bg_object__free(vobj[vi]);
			vobj[vi] = NULL;
		}
	}
	for (size_t i = 0; i < bg_object__prog_cnt(obj); i++) {
		const struct bg_program *p = bg_object__prog(obj, i);
		size_t nslots = 0;

		for (int vi = 0; vi < o->nv; vi++) {
			struct rec r = {.vi = vi, .insns = -1, .peak_kb = -1, .vtime_us = -1};

			r.obj = xstrdup(path);
			r.prog = xstrdup(bg_program__name(p));
			r.sec = xstrdup(bg_program__section(p));
			r.type = xstrdup(bg_program__type_name(p));
			bg_program__raw(p, &nslots);
			r.size = (long)nslots;
			if (o->v[vi].kind == V_KERNEL)
				run_kernel(p, &r);
			else if (o->v[vi].kind == V_BPFGATE)
				run_bpfgate(&o->v[vi], vobj[vi] ? bg_object__prog(vobj[vi], i) : p, &r);
			else if (o->v[vi].kind == V_KVM)
				run_kvm(&o->v[vi], idx, p, &r);
			else
				run_external(&o->v[vi], path, p, o->timeout, &r);
			emit(&r, arg);
		}
	}
	for (int vi = 0; vi < o->nv; vi++)
		bg_object__free(vobj[vi]);
	bg_object__free(obj);
	return 0;
}

/* ---- worker protocol: one escaped TSV line per record ------------------- */

static void put_field(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\t')
			fputs("\\t", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\\')
			fputs("\\\\", f);
		else
			fputc(*s, f);
	}
	fputc('\t', f);
}

static void emit_pipe(const struct rec *r, void *arg)
{
	FILE *f = arg;

	fputs("R\t", f);
	put_field(f, r->obj);
	put_field(f, r->prog);
	put_field(f, r->sec);
	put_field(f, r->type);
	put_field(f, r->msg);
	fprintf(f, "%d\t%d\t%.9f\t%ld\t%ld\t%ld\t%ld\n", r->vi, (int)r->verdict, r->secs, r->insns,
		r->peak_kb, r->size, r->vtime_us);
	fflush(f);
	rec_free((struct rec *)r);
}

static void emit_local(const struct rec *r, void *arg)
{
	recs_push(arg, r);
}

/* Split s at tabs in place, unescaping; returns the number of fields. */
static int split_fields(char *s, char **f, int max)
{
	int n = 0;
	char *w = s;

	f[n++] = w;
	for (char *p = s; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			*w++ = *p == 't' ? '\t' : *p == 'n' ? '\n' : *p;
		} else if (*p == '\t' && n < max) {
			*w++ = 0;
			f[n++] = w;
		} else {
			*w++ = *p;
		}
	}
	*w = 0;
	return n;
}

static void parse_line(char *line, struct recs *rs, size_t *done, int *bad)
{
	char *f[13];
	int n;

	if (!strncmp(line, "D\t", 2)) {
		(*done)++;
		if (line[2] == '1')
			*bad = 1;
		return;
	}
	if (strncmp(line, "R\t", 2))
		return;
	n = split_fields(line + 2, f, 12);
	if (n < 12)
		return;
	struct rec r = {.obj = xstrdup(f[0]), .prog = xstrdup(f[1]), .sec = xstrdup(f[2]),
			.type = xstrdup(f[3]), .msg = xstrdup(f[4]), .vi = atoi(f[5]),
			.verdict = (enum bg_verdict)atoi(f[6]), .secs = atof(f[7]),
			.insns = atol(f[8]), .peak_kb = atol(f[9]), .size = atol(f[10]),
			.vtime_us = atol(f[11])};
	recs_push(rs, &r);
}

static void progress(const struct opts *o, size_t done)
{
	static size_t shown = (size_t)-1;

	if (o->progress && done != shown) {
		shown = done;
		fprintf(stderr, "\rcorpus: %zu/%zu objects", done, o->nobj);
	}
}

struct wbuf {
	int fd;
	char *buf;
	size_t len, cap;
};

/* Read what a worker wrote; parse complete lines. Returns 0 at EOF. */
static int pump(struct wbuf *wb, struct recs *rs, size_t *done, int *bad, const struct opts *o)
{
	ssize_t r;
	char *nl, *start;

	if (wb->cap - wb->len < 65536) {
		wb->cap = wb->cap * 2 + 65536;
		wb->buf = xrealloc(wb->buf, wb->cap);
	}
	r = read(wb->fd, wb->buf + wb->len, wb->cap - wb->len - 1);
	if (r < 0 && errno == EINTR)
		return 1;
	if (r <= 0)
		return 0;
	wb->len += (size_t)r;
	wb->buf[wb->len] = 0;
	start = wb->buf;
	while ((nl = memchr(start, '\n', wb->len - (size_t)(start - wb->buf)))) {
		*nl = 0;
		parse_line(start, rs, done, bad);
		progress(o, *done);
		start = nl + 1;
	}
	wb->len -= (size_t)(start - wb->buf);
	memmove(wb->buf, start, wb->len);
	return 1;
}

static int run_parallel(const struct opts *o, struct recs *rs)
{
	int nw = o->jobs > (int)o->nobj ? (int)o->nobj : o->jobs;
	struct pollfd *pf = calloc((size_t)nw, sizeof(*pf));
	struct wbuf *wb = calloc((size_t)nw, sizeof(*wb));
	pid_t *pids = calloc((size_t)nw, sizeof(*pids));
	size_t done = 0, open_cnt = 0;
	int bad = 0;

	if (!pf || !wb || !pids) {
		free(pf);
		free(wb);
		free(pids);
		return cli_error("corpus", "out of memory");
	}
	fflush(NULL);
	for (int w = 0; w < nw; w++) {
		int fd[2];

		if (pipe(fd) || (pids[w] = fork()) < 0) {
			bad = 1;
			cli_error("corpus", "cannot start worker: %s", strerror(errno));
			break;
		}
		if (pids[w] == 0) {
			FILE *out;

			close(fd[0]);
			for (int k = 0; k < w; k++)
				close(wb[k].fd);
			out = fdopen(fd[1], "w");
			if (!out)
				_exit(EXIT_BAD);
			for (size_t i = (size_t)w; i < o->nobj; i += (size_t)nw) {
				int e = process_object(o, i, emit_pipe, out);
				fprintf(out, "D\t%d\n", e ? 1 : 0);
				fflush(out);
			}
			fclose(out);
			_exit(0);
		}
		close(fd[1]);
		wb[w].fd = fd[0];
		pf[w].fd = fd[0];
		pf[w].events = POLLIN;
		open_cnt++;
	}
	while (open_cnt) {
		if (poll(pf, (nfds_t)nw, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int w = 0; w < nw; w++) {
			if (pf[w].fd < 0 || !(pf[w].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (!pump(&wb[w], rs, &done, &bad, o)) {
				close(wb[w].fd);
				pf[w].fd = -1;
				open_cnt--;
			}
		}
	}
	for (int w = 0; w < nw; w++) {
		int st = 0;

		free(wb[w].buf);
		if (pids[w] <= 0)
			continue;
		while (waitpid(pids[w], &st, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	}
	free(pf);
	free(wb);
	free(pids);
	return bad ? EXIT_BAD : 0;
}

static int run_all(const struct opts *o, struct recs *rs)
{
	int bad = 0;

	if (o->jobs > 1 && o->nobj > 1)
		return run_parallel(o, rs);
	for (size_t i = 0; i < o->nobj; i++) {
		if (process_object(o, i, emit_local, rs))
			bad = 1;
		progress(o, i + 1);
	}
	return bad ? EXIT_BAD : 0;
}

/* ---- analysis ------------------------------------------------------------ */

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	int c = strcmp(x->obj, y->obj);

	if (!c)
		c = strcmp(x->prog, y->prog);
	if (!c)
		c = x->vi - y->vi;
	return c;
}

/* Kernel rejections that are a policy of the program type or of privilege,
 * not a safety violation: a verifier accepting them is not unsound. */
static int policy_rejection(const char *m)
{
	static const char *const pat[] = {
		"cannot use helper", "unknown func", "At program exit the register R0",
		"should have been in", "helper call might sleep", "not allowed for this program type",
		"BPF_LD_[ABS|IND] instructions not allowed", "unprivileged", "tracing progs cannot use",
		"not supported for this program type", "cannot write into packet",
		"program of this type cannot", "attach", "Unsupported", "sleepable",
		"only read is supported", "is not allowed in", "only allowed"};

	for (size_t i = 0; m && i < sizeof(pat) / sizeof(pat[0]); i++)
		if (strstr(m, pat[i]))
			return 1;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct vstats {
	size_t cnt[3];          /* accepted, rejected, unavailable */
	size_t m[2][2];         /* [verifier acc/rej][kernel acc/rej] */
	size_t unavail_v, unavail_k;
	double med, p90, max, sum;
	long peak_kb;
};

/* Index of the kernel record of the same program (records are sorted). */
static const struct rec *kernel_of(const struct recs *rs, size_t i, int kvi)
{
	size_t b = i;

	while (b > 0 && !strcmp(rs->r[b - 1].obj, rs->r[i].obj) &&
	       !strcmp(rs->r[b - 1].prog, rs->r[i].prog))
		b--;
	for (size_t k = b; k < rs->n && !strcmp(rs->r[k].obj, rs->r[i].obj) &&
			   !strcmp(rs->r[k].prog, rs->r[i].prog);
	     k++)
		if (rs->r[k].vi == kvi)
			return &rs->r[k];
	return NULL;
}

static void compute_stats(const struct recs *rs, int vi, int kvi, struct vstats *s)
{
	double *t = malloc((rs->n + 1) * sizeof(double));
	size_t nt = 0;

	memset(s, 0, sizeof(*s));
	s->peak_kb = -1;
	for (size_t i = 0; i < rs->n; i++) {
		const struct rec *r = &rs->r[i], *k;

		if (r->vi != vi)
			continue;
		s->cnt[r->verdict]++;
		if (t)
			t[nt++] = r->secs;
		s->sum += r->secs;
		if (r->peak_kb > s->peak_kb)
			s->peak_kb = r->peak_kb;
		k = kernel_of(rs, i, kvi);
		if (!k)
			continue;
		if (r->verdict == BG_VERDICT_UNAVAILABLE)
			s->unavail_v++;
		else if (k->verdict == BG_VERDICT_UNAVAILABLE)
			s->unavail_k++;
		else
			s->m[r->verdict][k->verdict]++;
	}
	if (t && nt) {
		qsort(t, nt, sizeof(double), cmp_double);
		s->med = t[nt / 2];
		s->p90 = t[(nt * 9) / 10 < nt ? (nt * 9) / 10 : nt - 1];
		s->max = t[nt - 1];
	}
	free(t);
}

static const char *disagreement_kind(const struct opts *o, const struct rec *r,
				     const struct rec *k)
{
	if (o->v[r->vi].kind == V_KVM && r->verdict != k->verdict &&
	    r->verdict != BG_VERDICT_UNAVAILABLE && k->verdict != BG_VERDICT_UNAVAILABLE)
		return "kernel difference";
	if (r->verdict == BG_VERDICT_ACCEPTED && k->verdict == BG_VERDICT_REJECTED)
		return policy_rejection(k->msg) ? "policy" : "POSSIBLE UNSOUNDNESS";
	if (r->verdict == BG_VERDICT_REJECTED && k->verdict == BG_VERDICT_ACCEPTED)
		return "imprecision";
	return NULL;
}

/* ---- reports ------------------------------------------------------------- */

static void fmt_time(char *b, size_t n, double s)
{
	if (s < 1e-3)
		snprintf(b, n, "%.0f us", s * 1e6);
	else if (s < 1)
		snprintf(b, n, "%.2f ms", s * 1e3);
	else
		snprintf(b, n, "%.2f s", s);
}

/* How a kernel@VER guest ran: the figures for boot-and-judge time and memory. */
static void print_boot(const struct bg_kvm_run *r)
{
	if (bg_kvm_run__error(r)) {
		printf("  booted: FAILED: %s\n", bg_kvm_run__error(r));
		return;
	}
	printf("  booted: %s (Debian %s) under qemu %s, %d MiB guest; boot %.1f s and judging "
	       "%.1f s of guest time, wall %.1f s, qemu peak rss %ld MiB\n",
	       bg_kvm_run__release(r), bg_kimage__package_version(bg_kvm_run__image(r)), bg_kvm_run__accel(r),
	       bg_kvm_run__mem_mb(r), bg_kvm_run__boot_seconds(r), bg_kvm_run__judge_seconds(r),
	       bg_kvm_run__wall_seconds(r), bg_kvm_run__qemu_rss_kb(r) / 1024);
}

static void json_boot(struct bg_json *j, const struct bg_kvm_run *r)
{
	bg_json_key(j, "boot");
	bg_json_obj_begin(j);
	bg_json_kstr(j, "release", bg_kvm_run__release(r));
	bg_json_kstr(j, "debian_version", bg_kimage__package_version(bg_kvm_run__image(r)));
	bg_json_kstr(j, "accel", bg_kvm_run__accel(r));
	bg_json_kint(j, "mem_mib", bg_kvm_run__mem_mb(r));
	bg_json_kdouble(j, "boot_seconds", bg_kvm_run__boot_seconds(r));
	bg_json_kdouble(j, "judge_seconds", bg_kvm_run__judge_seconds(r));
	bg_json_kdouble(j, "wall_seconds", bg_kvm_run__wall_seconds(r));
	bg_json_kint(j, "qemu_peak_rss_kib", bg_kvm_run__qemu_rss_kb(r));
	bg_json_kstr(j, "error", bg_kvm_run__error(r));
	bg_json_obj_end(j);
}

static void print_text(const struct opts *o, const struct recs *rs, int kvi, double wall)
{
	size_t progs = 0;

	for (size_t i = 0; i < rs->n; i++)
		progs += rs->r[i].vi == kvi;
	printf("corpus: %zu programs in %zu objects, %d verifier%s, wall %.1f s\n", progs, o->nobj,
	       o->nv, o->nv > 1 ? "s" : "", wall);
	for (int vi = 0; vi < o->nv; vi++) {
		struct vstats s;
		char a[32], b[32], c[32], d[32];

		compute_stats(rs, vi, o->v[vi].ref, &s);
		fmt_time(a, sizeof(a), s.med);
		fmt_time(b, sizeof(b), s.p90);
		fmt_time(c, sizeof(c), s.max);
		fmt_time(d, sizeof(d), s.sum);
		printf("\n%s: %zu accepted, %zu rejected, %zu unavailable\n", o->v[vi].name, s.cnt[0],
		       s.cnt[1], s.cnt[2]);
		printf("  time per program: median %s, p90 %s, max %s, sum %s\n", a, b, c, d);
		if (o->v[vi].run)
			print_boot(o->v[vi].run);
		if (s.peak_kb >= 0)
			printf("  peak memory: %ld KiB\n", s.peak_kb);
		if (o->v[vi].kind == V_KERNEL)
			continue;
		size_t decided = s.m[0][0] + s.m[0][1] + s.m[1][0] + s.m[1][1];
		printf("  agreement with %-14s  kernel accepted  kernel rejected\n",
		       o->v[o->v[vi].ref].name);
		printf("    %-10s accepted        %15zu  %15zu\n", o->v[vi].name, s.m[0][0], s.m[0][1]);
		printf("    %-10s rejected        %15zu  %15zu\n", o->v[vi].name, s.m[1][0], s.m[1][1]);
		printf("    unavailable: %zu (%s), %zu (kernel only)\n", s.unavail_v, o->v[vi].name,
		       s.unavail_k);
		if (decided)
			printf("  agreement rate: %.1f%% (%zu of %zu decided programs)\n",
			       100.0 * (double)(s.m[0][0] + s.m[1][1]) / (double)decided,
			       s.m[0][0] + s.m[1][1], decided);
		else
			printf("  agreement rate: n/a (no program decided by both)\n");
	}
	for (int vi = 0; vi < o->nv; vi++) {
		int header = 0;

		if (o->v[vi].kind == V_KERNEL)
			continue;
		for (size_t i = 0; i < rs->n; i++) {
			const struct rec *r = &rs->r[i], *k;
			const char *kind;

			if (r->vi != vi || !(k = kernel_of(rs, i, o->v[vi].ref)))
				continue;
			kind = disagreement_kind(o, r, k);
			if (!kind)
				continue;
			if (!header++)
				printf("\ndisagreements of %s with %s:\n", cli_safe(o->v[vi].name),
				       o->v[o->v[vi].ref].name);
			printf("  %s: %s:%s (%s): %s %s, kernel %s\n", kind, cli_safe(r->obj),
			       cli_safe(r->prog), cli_safe(r->type), cli_safe(o->v[vi].name),
			       bg_verdict_name(r->verdict), bg_verdict_name(k->verdict));
			printf("      %s: %s\n      kernel: %s\n", cli_safe(o->v[vi].name),
			       *r->msg ? cli_safe(r->msg) : "-", *k->msg ? cli_safe(k->msg) : "-");
		}
		if (!header)
			printf("\n%s: no disagreement with %s\n", o->v[vi].name,
			       o->v[o->v[vi].ref].name);
	}
}

static void print_json(const struct opts *o, const struct recs *rs, double wall)
{
	struct bg_json j;

	bg_json_init(&j, stdout, false);
	bg_json_obj_begin(&j);
	bg_json_key(&j, "records");
	bg_json_arr_begin(&j);
	for (size_t i = 0; i < rs->n; i++) {
		const struct rec *r = &rs->r[i], *k = kernel_of(rs, i, o->v[r->vi].ref);
		const char *kind = k && r->vi != k->vi ? disagreement_kind(o, r, k) : NULL;

		bg_json_obj_begin(&j);
		bg_json_kstr(&j, "object", r->obj);
		bg_json_kstr(&j, "program", r->prog);
		bg_json_kstr(&j, "section", r->sec);
		bg_json_kstr(&j, "type", r->type);
		bg_json_kstr(&j, "verifier", o->v[r->vi].name);
		bg_json_kstr(&j, "verdict", bg_verdict_name(r->verdict));
		bg_json_kstr(&j, "message", r->msg);
		bg_json_kdouble(&j, "seconds", r->secs);
		bg_json_kint(&j, "insns", r->size);
		if (r->insns >= 0)
			bg_json_kint(&j,
				     o->v[r->vi].kind == V_KERNEL || o->v[r->vi].kind == V_KVM
					 ? "insns_processed"
					 : "steps",
				     r->insns);
		if (r->peak_kb >= 0)
			bg_json_kint(&j, "peak_kib", r->peak_kb);
		if (r->vtime_us >= 0)
			bg_json_kint(&j, "verif_usec", r->vtime_us);
		if (kind)
			bg_json_kstr(&j, "disagreement", kind);
		bg_json_obj_end(&j);
	}
	bg_json_arr_end(&j);
	bg_json_key(&j, "summary");
	bg_json_arr_begin(&j);
	for (int vi = 0; vi < o->nv; vi++) {
		struct vstats s;

		compute_stats(rs, vi, o->v[vi].ref, &s);
		bg_json_obj_begin(&j);
		bg_json_kstr(&j, "verifier", o->v[vi].name);
		bg_json_kuint(&j, "accepted", s.cnt[0]);
		bg_json_kuint(&j, "rejected", s.cnt[1]);
		bg_json_kuint(&j, "unavailable", s.cnt[2]);
		if (o->v[vi].run)
			json_boot(&j, o->v[vi].run);
		if (o->v[vi].kind != V_KERNEL) {
			bg_json_kstr(&j, "compared_with", o->v[o->v[vi].ref].name);
			size_t dec = s.m[0][0] + s.m[0][1] + s.m[1][0] + s.m[1][1];
			bg_json_kuint(&j, "acc_acc", s.m[0][0]);
			bg_json_kuint(&j, "acc_rej", s.m[0][1]);
			bg_json_kuint(&j, "rej_acc", s.m[1][0]);
			bg_json_kuint(&j, "rej_rej", s.m[1][1]);
			bg_json_kuint(&j, "unavailable_verifier", s.unavail_v);
			bg_json_kuint(&j, "unavailable_kernel", s.unavail_k);
			if (dec)
				bg_json_kdouble(&j, "agreement", (double)(s.m[0][0] + s.m[1][1]) / (double)dec);
		}
		bg_json_kdouble(&j, "median_seconds", s.med);
		bg_json_kdouble(&j, "p90_seconds", s.p90);
		bg_json_kdouble(&j, "max_seconds", s.max);
		bg_json_kdouble(&j, "sum_seconds", s.sum);
		if (s.peak_kb >= 0)
			bg_json_kint(&j, "peak_kib", s.peak_kb);
		bg_json_obj_end(&j);
	}
	bg_json_arr_end(&j);
	bg_json_kuint(&j, "objects", o->nobj);
	bg_json_kdouble(&j, "wall_seconds", wall);
	bg_json_obj_end(&j);
	fputc('\n', stdout);
}

static void tsv_field(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
}

static int write_tsv(const struct opts *o, const struct recs *rs, int kvi)
{
	FILE *f = fopen(o->tsv, "w");

	if (!f)
		return cli_error("corpus", "%s: %s", o->tsv, strerror(errno));
	fprintf(f, "object\tprogram\tsection\ttype");
	for (int vi = 0; vi < o->nv; vi++)
		fprintf(f, "\t%s_verdict\t%s_seconds\t%s_insns\t%s_message", o->v[vi].name,
			o->v[vi].name, o->v[vi].name, o->v[vi].name);
	fputc('\n', f);
	for (size_t i = 0; i < rs->n; i++) {
		const struct rec *r = &rs->r[i];

		if (r->vi != kvi)
			continue;
		tsv_field(f, r->obj);
		fputc('\t', f);
		tsv_field(f, r->prog);
		fputc('\t', f);
		tsv_field(f, r->sec);
		fputc('\t', f);
		tsv_field(f, r->type);
		for (int vi = 0; vi < o->nv; vi++) {
			const struct rec *x = NULL;

			for (size_t k = i; k < rs->n && !strcmp(rs->r[k].obj, r->obj) &&
					   !strcmp(rs->r[k].prog, r->prog);
			     k++)
				if (rs->r[k].vi == vi)
					x = &rs->r[k];
			for (size_t k = i; !x && k-- > 0 && !strcmp(rs->r[k].obj, r->obj) &&
					   !strcmp(rs->r[k].prog, r->prog);)
				if (rs->r[k].vi == vi)
					x = &rs->r[k];
			if (!x) {
				fprintf(f, "\t-\t-\t-\t-");
				continue;
			}
			fprintf(f, "\t%s\t%.6f\t%ld\t", bg_verdict_name(x->verdict), x->secs, x->insns);
			tsv_field(f, x->msg);
		}
		fputc('\n', f);
	}
	return fclose(f) ? cli_error("corpus", "%s: %s", o->tsv, strerror(errno)) : 0;
}

/* ---- options ------------------------------------------------------------- */

static int add_verifier(struct opts *o, const char *name, enum vkind kind, const char *cmd)
{
	for (int i = 0; i < o->nv; i++)
		if (!strcmp(o->v[i].name, name))
			return 0;
	if (o->nv == MAX_VERIFIERS)
		return cli_error("corpus", "too many verifiers (at most %d)", MAX_VERIFIERS);
	if (!*name || strlen(name) >= sizeof(o->v[0].name))
		return cli_error("corpus", "bad verifier name '%s'", name);
	snprintf(o->v[o->nv].name, sizeof(o->v[0].name), "%s", name);
	if (strchr(name, '@') && kind != V_EXTERNAL)
		snprintf(o->v[o->nv].ver, sizeof(o->v[0].ver), "%s", strchr(name, '@') + 1);
	o->v[o->nv].kind = kind;
	o->v[o->nv].cmd = cmd;
	o->nv++;
	return 0;
}

static int parse_verifiers(struct opts *o, const char *list)
{
	char *dup = xstrdup(list), *save = NULL;
	int rc = 0;

	for (char *t = strtok_r(dup, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "kernel"))
			rc = add_verifier(o, "kernel", V_KERNEL, NULL);
		else if (!strcmp(t, "bpfgate"))
			rc = add_verifier(o, "bpfgate", V_BPFGATE, NULL);
		else if (!strncmp(t, "kernel@", 7) && bg_kcache_valid_ver(t + 7))
			rc = add_verifier(o, t, V_KVM, NULL);
		else if (!strncmp(t, "bpfgate@", 8) && bg_kernel_profile__by_name(t + 8))
			rc = add_verifier(o, t, V_BPFGATE, NULL);
		else if (!strncmp(t, "bpfgate@", 8))
			rc = cli_error("corpus", "bpfgate has no kernel profile '%s' (bpfgate check "
						 "--list-kernels)", t + 8);
		else
			rc = cli_error("corpus", "unknown verifier '%s' (kernel, bpfgate, kernel@VER, "
						 "bpfgate@VER, or --external)", t);
	}
	free(dup);
	return rc;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	int rc = 0, have_v = 0;

	o->jobs = 1;
	o->timeout = 60;
	for (int i = 1; i < argc && !rc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--verifier") || !strcmp(a, "--external") || !strcmp(a, "--tsv") ||
		    !strcmp(a, "-j") || !strcmp(a, "--timeout")) {
			const char *val = cli_value("corpus", argc, argv, &i);
			if (!val)
				return EXIT_BAD;
			if (!strcmp(a, "--verifier")) {
				have_v = 1;
				rc = parse_verifiers(o, val);
			} else if (!strcmp(a, "--external")) {
				const char *eq = strchr(val, '=');
				char name[64];
				if (!eq || eq == val || (size_t)(eq - val) >= sizeof(name) || !eq[1])
					return cli_error("corpus", "--external wants NAME='cmd ...', got '%s'", val);
				memcpy(name, val, (size_t)(eq - val));
				name[eq - val] = 0;
				if (!strcmp(name, "kernel") || !strcmp(name, "bpfgate"))
					return cli_error("corpus", "external verifier name '%s' is reserved", name);
				rc = add_verifier(o, name, V_EXTERNAL, eq + 1);
			} else if (!strcmp(a, "--tsv")) {
				o->tsv = val;
			} else if (!strcmp(a, "-j")) {
				char *end;
				long n = strtol(val, &end, 10);
				if (*end || n < 1 || n > 256)
					return cli_error("corpus", "-j wants 1..256, got '%s'", val);
				o->jobs = (int)n;
			} else {
				char *end;
				o->timeout = strtod(val, &end);
				if (*end || !(o->timeout > 0))
					return cli_error("corpus", "--timeout wants seconds > 0, got '%s'", val);
			}
		} else if (!strncmp(a, "-j", 2) && a[2]) {
			char *end;
			long n = strtol(a + 2, &end, 10);
			if (*end || n < 1 || n > 256)
				return cli_error("corpus", "-j wants 1..256, got '%s'", a + 2);
			o->jobs = (int)n;
		} else if (!strcmp(a, "--json")) {
			o->json = 1;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			o->quiet = 1;
		} else if (a[0] == '-' && a[1]) {
			return cli_error("corpus", "unknown option '%s' (see --help)", a);
		} else {
			rc = collect(o, a, 0);
		}
	}
	if (rc)
		return rc;
	if (!have_v && o->nv == 0)
		rc = add_verifier(o, "kernel", V_KERNEL, NULL);
	return rc;
}

static int kernel_index(struct opts *o)
{
	for (int i = 0; i < o->nv; i++)
		if (o->v[i].kind == V_KERNEL)
			return i;
	return add_verifier(o, "kernel", V_KERNEL, NULL) ? -1 : o->nv - 1;
}

int cmd_corpus(int argc, char **argv)
{
	struct opts o;
	struct recs rs = {0};
	int rc, run_rc, kvi;
	double t0;

	memset(&o, 0, sizeof(o));
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	rc = parse_args(argc, argv, &o);
	if (!rc && o.nobj == 0 && argc > 1)
		rc = cli_error("corpus", "no objects found in the given paths");
	if (!rc && argc <= 1) {
		usage(stderr);
		rc = EXIT_BAD;
	}
	kvi = rc ? -1 : kernel_index(&o);
	if (kvi < 0 && !rc)
		rc = EXIT_BAD;
	if (rc) {
		for (size_t i = 0; i < o.nobj; i++)
			free(o.objs[i]);
		free(o.objs);
		return rc;
	}
	for (int vi = 0; vi < o.nv; vi++) {
		o.v[vi].ref = kvi;
		for (int k = 0; o.v[vi].kind == V_BPFGATE && o.v[vi].ver[0] && k < o.nv; k++)
			if (o.v[k].kind == V_KVM && !strcmp(o.v[k].ver, o.v[vi].ver))
				o.v[vi].ref = k;
		if (o.v[vi].kind == V_BPFGATE && o.v[vi].ver[0])
			cli_kernel_view("corpus", o.v[vi].ver, false, &o.v[vi].kbtf, &o.v[vi].kver);
	}
	o.progress = !o.quiet && isatty(2);
	t0 = now_s();
	run_rc = judge_kernels(&o);
	if (!run_rc)
		run_rc = run_all(&o, &rs);
	if (o.progress)
		fputc('\n', stderr);
	if (rs.n)
		qsort(rs.r, rs.n, sizeof(*rs.r), cmp_rec);
	if (rs.n && o.json)
		print_json(&o, &rs, now_s() - t0);
	else if (rs.n)
		print_text(&o, &rs, kvi, now_s() - t0);
	if (rs.n && o.tsv && write_tsv(&o, &rs, kvi))
		run_rc = EXIT_BAD;
	for (size_t i = 0; i < rs.n; i++)
		rec_free(&rs.r[i]);
	free(rs.r);
	free_kernels(&o);
	for (int vi = 0; vi < o.nv; vi++)
		btf__free(o.v[vi].kbtf);
	for (size_t i = 0; i < o.nobj; i++)
		free(o.objs[i]);
	free(o.objs);
	return run_rc;
}
