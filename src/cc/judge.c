/* Compiling one variant and judging the object it produces. A verdict is
 * the conjunction of the chosen verifiers (the running kernel through the
 * oracle, bpfgate's own verifier); each rejection is reduced to one line and
 * a normalized form (numbers and register names folded) so that builds at
 * different bisection points can be compared. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpfgate/bpfgate.h>
#include "cc/cc_int.h"
#include "cc/pipeline.h"
#include "cc/spawn.h"
#include "kern/klog.h"
#include "kvm/kvm.h"

double cc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void cc_progress(struct bg_cc_result *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->progress)
		return;
	fprintf(s->progress, "bpfgate cc: ");
	va_start(ap, fmt);
	vfprintf(s->progress, fmt, ap);
	va_end(ap);
	fputc('\n', s->progress);
}

bool cc_over_budget(const struct bg_cc_result *s)
{
	return cc_now() - s->t0 > s->budget_s;
}

extern char **environ;

/* The children's environment: s->envp without BPFGATE_SKIP_PASSES, plus
 * BPFGATE_SKIP_PASSES=skip when skip (the pass plugin reads it). The
 * strings are borrowed except *owned (free it and the array). */
static char **child_env(const struct bg_cc_result *s, const char *skip, char **owned)
{
	static const char var[] = "BPFGATE_SKIP_PASSES=";
	char *const *base = s->envp ? s->envp : environ;
	size_t n = 0, k = 0;
	char **env;

	*owned = NULL;
	while (base && base[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(base[i], var, sizeof(var) - 1))
			env[k++] = base[i];
	if (skip) {
		size_t len = sizeof(var) + strlen(skip);
		*owned = malloc(len);
		if (!*owned) {
			free(env);
			return NULL;
		}
		snprintf(*owned, len, "%s%s", var, skip);
		env[k++] = *owned;
	}
	env[k] = NULL;
	return env;
}

int cc_compile(struct bg_cc_result *s, const struct cc_variant *v, const char *out_path,
	       char **err_text)
{
	char limit[48], errp[96], plug[4200], *owned = NULL, **env;
	const char *skip = NULL;
	const char *argv[256];
	int n = 0, rc;

	if (v->pipe_drop)
		return cc_pipe_compile(s, v->pipe_drop, v->bisect_limit, out_path, err_text);
	argv[n++] = s->clang;
	for (int i = 0; i < s->nargs && n < 200; i++)
		argv[n++] = s->args[i];
	for (int i = 0; v->deps && i < s->ndep && n < 220; i++)
		argv[n++] = s->dep_args[i];
	for (int i = 0; i < v->nextra && n < 230; i++)
		argv[n++] = v->extra[i];
	if (v->bisect_limit >= 0) {
		snprintf(limit, sizeof(limit), "-opt-bisect-limit=%ld", v->bisect_limit);
		argv[n++] = "-mllvm";
		argv[n++] = limit;
	}
	if (v->skip && cc_plugin_path(s)) {
		snprintf(plug, sizeof(plug), "-fpass-plugin=%s", cc_plugin_path(s));
		argv[n++] = plug;
		skip = v->skip;
	}
	if (v->emit_ir) {
		argv[n++] = "-S";
		argv[n++] = "-emit-llvm";
	}
	argv[n++] = "-o";
	argv[n++] = out_path;
	argv[n] = NULL;
	snprintf(errp, sizeof(errp), "%s/clang.err", s->tmpdir);
	env = child_env(s, skip, &owned);
	if (!env)
		return -ENOMEM;
	rc = bg_spawn_env((char *const *)argv, env, NULL, errp, 300);
	free(env);
	free(owned);
	s->compiles++;
	if (err_text)
		*err_text = bg_read_file(errp, NULL);
	return rc;
}

void cc_normalize(const char *msg, char *out, size_t sz)
{
	size_t o = 0;

	for (const char *p = msg; *p && o + 2 < sz; p++) {
		if (isdigit((unsigned char)*p)) {
			out[o++] = '#';
			while (isxdigit((unsigned char)p[1]) || p[1] == 'x')
				p++;
		} else {
			out[o++] = *p;
		}
	}
	out[o] = 0;
}

/* The error line and the source line ("text @ file:line") of a kernel
 * rejection, read with the kernel oracle's own log parser so that cc and
 * kload name the same error. */
static void kernel_rejection(const char *log, struct cc_prog_verdict *v)
{
	struct bg_klog_where w;
	char *m = bg_klog_message(log, 1);

	snprintf(v->msg, sizeof(v->msg), "%s", m ? m : "");
	free(m);
	v->src[0] = 0;
	if (!bg_klog_where(log, &w) && w.line)
		snprintf(v->src, sizeof(v->src), "%s @ %s:%u", w.source, w.file, w.line);
}

/* The verifier entry point is weak so that cc works before and without it. */
extern int bg_verify(const struct bg_program *prog, const struct bg_verify_opts *opts,
		     struct bg_verify_result *res) __attribute__((weak));
extern void bg_verify_result__fini(struct bg_verify_result *res) __attribute__((weak));

/* Each verifier's verdict into its own record: 1 rejected, 0 accepted, -1 none
 * (the kernel: unavailable, e.g. EPERM before verification). */
static int judge_kernel(const struct bg_program *p, struct cc_prog_verdict *v)
{
	struct bg_kload_result r;
	int verdict = -1;

	memset(&r, 0, sizeof(r));
	if (bg_kern_load(p, NULL, &r) < 0)
		return -1;
	if (r.verdict == BG_VERDICT_REJECTED) {
		verdict = 1;
		kernel_rejection(r.log ? r.log : "", v);
		if (!v->msg[0])
			snprintf(v->msg, sizeof(v->msg), "%s", r.reason ? r.reason : "rejected");
	} else if (r.verdict == BG_VERDICT_ACCEPTED) {
		verdict = 0;
	}
	bg_kload_result__fini(&r);
	return verdict;
}

static int judge_bpfgate(const struct bg_program *p, struct cc_prog_verdict *v)
{
	struct bg_verify_result r;
	int verdict = -1;

	memset(&r, 0, sizeof(r));
	if (!bg_verify || bg_verify(p, NULL, &r) < 0)
		return -1;
	if (r.verdict == BG_VERDICT_REJECTED) {
		verdict = 1;
		snprintf(v->msg, sizeof(v->msg), "%s", r.diag.message ? r.diag.message : "rejected");
		if (r.diag.line)
			snprintf(v->src, sizeof(v->src), "%s @ %s:%u", r.diag.line->text,
				 r.diag.line->file, r.diag.line->line);
	} else if (r.verdict == BG_VERDICT_ACCEPTED) {
		verdict = 0;
	}
	if (bg_verify_result__fini)
		bg_verify_result__fini(&r);
	return verdict;
}

/* --kernel: boot each listed kernel once with this object; a program any of
 * them rejects is rejected "by kernel@VER" with that kernel's message. A
 * listed kernel that judges nothing (not cached, its guest failed) is
 * recorded in j->kvm_error: such a build is never taken as accepted. */
#define CC_MAX_KERNELS 8
struct kvm_verdicts {
	struct bg_kimage ks[CC_MAX_KERNELS];
	struct bg_kvm_run runs[CC_MAX_KERNELS];
	size_t n;
};

static void kvm_failed(struct cc_judge *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void kvm_failed(struct cc_judge *j, const char *fmt, ...)
{
	va_list ap;

	if (j->kvm_error[0]) /* the first failure is the one reported */
		return;
	va_start(ap, fmt);
	vsnprintf(j->kvm_error, sizeof(j->kvm_error), fmt, ap);
	va_end(ap);
}

static void kvm_judge(struct bg_cc_result *s, const char *path, struct kvm_verdicts *kv,
		      struct cc_judge *j)
{
	struct bg_kimage *ks = kv->ks;
	char list[sizeof(s->kernels)], *save = NULL;
	const char *objs[1] = {path};
	int e;

	kv->n = 0;
	snprintf(list, sizeof(list), "%s", s->kernels);
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (kv->n == CC_MAX_KERNELS)
			kvm_failed(j, "kernel %s: more than %d kernels listed", t, CC_MAX_KERNELS);
		else if (!bg_kcache_get(s->kernel_cache, t, &ks[kv->n]))
			kv->n++;
		else
			kvm_failed(j, "kernel %s is not in the cache (bpfgate kernels fetch %s)", t, t);
	struct kvm_boot_opts ko = {.sz = sizeof(ko), .cache_dir = s->kernel_cache,
				 .loader = s->kernel_loader, .timeout_s = s->kernel_timeout_s};

	if (kv->n && (e = bg_kvm_judge(ks, kv->n, objs, 1, &ko, kv->runs))) {
		kvm_failed(j, "kernel@%s: no guest could be started: %s", ks[0].ver, strerror(-e));
		kv->n = 0;
	}
	for (size_t k = 0; k < kv->n; k++)
		if (kv->runs[k].error)
			kvm_failed(j, "kernel@%s: the guest failed: %s", kv->runs[k].k.ver, kv->runs[k].error);
	if (j->kvm_error[0])
		cc_progress(s, "%s", j->kvm_error);
}

static void judge_kvm(const struct kvm_verdicts *kv, const char *prog, struct cc_prog_verdict *v)
{
	for (size_t k = 0; k < kv->n && !v->rejected; k++) {
		for (size_t i = 0; i < kv->runs[k].n; i++) {
			const struct bg_kvm_prog *g = &kv->runs[k].progs[i];

			if (strcmp(g->prog, prog) || g->r.verdict != BG_VERDICT_REJECTED)
				continue;
			v->rejected = 1;
			snprintf(v->by, sizeof(v->by), "kernel@%s", kv->runs[k].k.ver);
			snprintf(v->msg, sizeof(v->msg), "%s",
				 g->message ? g->message : g->r.reason ? g->r.reason : "rejected");
			break;
		}
	}
}

void cc_judge_object(struct bg_cc_result *s, const char *path, struct cc_judge *j)
{
	struct kvm_verdicts *kvms = NULL; /* large: on the heap, only with --kernel */
	char err[512];
	struct bg_object *obj = bg_object__open(path, NULL, err, sizeof(err));

	j->nprogs = 0;
	j->insns = 0;
	j->kvm_error[0] = 0;
	if (!obj) {
		j->compiled = false;
		snprintf(j->compile_err, sizeof(j->compile_err), "%s", err);
		return;
	}
	if (s->kernels[0] && !(kvms = calloc(1, sizeof(*kvms))))
		kvm_failed(j, "out of memory: the --kernel list is not judged");
	snprintf(j->judged_by, sizeof(j->judged_by), "%s%s%s",
		 s->kernel_ok ? "kernel" : "", s->kernel_ok && s->bpfgate_ok ? "," : "",
		 s->bpfgate_ok ? "bpfgate" : "");
	if (kvms) {
		kvm_judge(s, path, kvms, j);
		snprintf(s->judged, sizeof(s->judged), "%s", j->judged_by);
		for (size_t k = 0; k < kvms->n; k++)
			if (!kvms->runs[k].error)
				snprintf(s->judged + strlen(s->judged), sizeof(s->judged) - strlen(s->judged),
					 "%skernel@%s", s->judged[0] ? "," : "", kvms->runs[k].k.ver);
	}
	for (size_t i = 0; i < bg_object__prog_cnt(obj) && j->nprogs < CC_MAX_PROGS; i++) {
		const struct bg_program *p = bg_object__prog(obj, i);
		struct cc_prog_verdict *v = &j->progs[j->nprogs++];
		size_t n = 0;

		memset(v, 0, sizeof(*v));
		snprintf(v->name, sizeof(v->name), "%s", bg_program__name(p));
		bg_program__raw(p, &n);
		j->insns += n;
		struct cc_prog_verdict kv, bv;
		memset(&kv, 0, sizeof(kv));
		memset(&bv, 0, sizeof(bv));
		int k = s->kernel_ok ? judge_kernel(p, &kv) : -1;
		int b = s->bpfgate_ok ? judge_bpfgate(p, &bv) : -1;
		cc_decide(s, v, k, &kv, b, &bv); /* policy.c */
		if (!v->rejected && kvms)
			judge_kvm(kvms, v->name, v);
		cc_judge_asserts(p, v);
		cc_normalize(v->assert_failed ? v->akey : v->msg, v->norm, sizeof(v->norm));
	}
	for (size_t k = 0; kvms && k < kvms->n; k++)
		bg_kvm_run__fini(&kvms->runs[k]);
	free(kvms);
	bg_object__free(obj);
}

enum cc_outcome cc_classify(const struct bg_cc_result *s, const struct cc_judge *j)
{
	const struct cc_prog_verdict *want = &s->first.progs[s->target];
	bool all_ok = j->compiled;

	for (int i = 0; i < j->nprogs; i++) {
		const struct cc_prog_verdict *v = &j->progs[i];

		if (v->rejected)
			all_ok = false;
		if (v->rejected && !strcmp(v->name, want->name) && !strcmp(v->norm, want->norm))
			return CC_BAD;
	}
	return all_ok && j->nprogs > 0 && !j->kvm_error[0] ? CC_GOOD : CC_OTHER;
}

static enum cc_outcome judge_try(struct bg_cc_result *s, const struct cc_variant *v, struct cc_judge *j,
				 const char *tag);

enum cc_outcome cc_try(struct bg_cc_result *s, const struct cc_variant *v, struct cc_judge *j,
		       const char *tag)
{
	enum cc_outcome r;

	if (j)
		return judge_try(s, v, j, tag);
	j = malloc(sizeof(*j)); /* the caller wants the outcome only */
	if (!j)
		return CC_OTHER;
	r = judge_try(s, v, j, tag);
	free(j);
	return r;
}

static enum cc_outcome judge_try(struct bg_cc_result *s, const struct cc_variant *v, struct cc_judge *j,
				 const char *tag)
{
	char out[96];
	char *err = NULL;
	int rc;

	memset(j, 0, sizeof(*j));
	snprintf(out, sizeof(out), "%s/%s.o", s->tmpdir, tag);
	rc = cc_compile(s, v, out, &err);
	j->compiled = rc == 0;
	if (rc != 0) {
		const char *e = err ? err : "";
		const char *line = strstr(e, "error:");

		snprintf(j->compile_err, sizeof(j->compile_err), "clang exit %d: %.400s", rc,
			 line ? line : e);
		free(err);
		return CC_OTHER;
	}
	free(err);
	cc_judge_object(s, out, j);
	return cc_classify(s, j);
}
