/* bpfgate cc: the driver. Splits the clang command line, runs the user's
 * build (its exact command line: the object cc writes when it is accepted),
 * judges it, and when a program is rejected replays a
 * recorded decision (sidecar OUT.bpfgate) or runs the bisection and the fix
 * search, then writes the first object that every verifier accepts. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpfgate/bpfgate.h>
#include "cc/cc_int.h"
#include "cc/hints.h"
#include "cc/pipeline.h"
#include "cc/spawn.h"
#include "core/log.h"
#include "core/opts.h"

extern char **environ;

extern int bg_verify(const struct bg_program *prog, const struct bg_verify_opts *opts,
		     struct bg_verify_result *res) __attribute__((weak));

/* NAME=value of the children's environment (s->envp), or NULL. */
const char *cc_env(const struct bg_cc_result *s, const char *name)
{
	char *const *envp = s->envp;
	size_t n = strlen(name);

	for (; envp && *envp; envp++)
		if (!strncmp(*envp, name, n) && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

static int clang_major_of(const struct bg_cc_result *s, const char *clang)
{
	char tmp[] = "/tmp/bpfgate-ccv-XXXXXX";
	int fd = mkstemp(tmp), major = 0;
	char *const argv[] = {(char *)clang, "--version", NULL};
	char *out;

	if (fd < 0)
		return 0;
	close(fd);
	if (bg_spawn_env(argv, s->envp, tmp, NULL, 30) == 0 && (out = bg_read_file(tmp, NULL))) {
		const char *v = strstr(out, "version ");

		major = v ? atoi(v + 8) : 0;
		free(out);
	}
	unlink(tmp);
	return major;
}

static bool in_path(const struct bg_cc_result *s, const char *name, char *out, size_t sz)
{
	const char *path = cc_env(s, "PATH");
	char buf[PATH_MAX];

	if (strchr(name, '/')) {
		snprintf(out, sz, "%s", name);
		return access(name, X_OK) == 0;
	}
	for (const char *p = path ? path : "/usr/bin"; p && *p;) {
		const char *e = strchr(p, ':');
		int len = e ? (int)(e - p) : (int)strlen(p);

		snprintf(buf, sizeof(buf), "%.*s/%s", len, p, name);
		if (access(buf, X_OK) == 0) {
			snprintf(out, sz, "%s", buf);
			return true;
		}
		p = e ? e + 1 : NULL;
	}
	return false;
}

/* The chosen clang: the option, or the newest installed. */
static int pick_clang(struct bg_cc_result *s, const char *want)
{
	char name[32];

	if (want) {
		if (!in_path(s, want, s->clang, sizeof(s->clang)))
			return -ENOENT;
	} else {
		bool found = false;

		for (int v = 30; v >= 10 && !found; v--) {
			snprintf(name, sizeof(name), "clang-%d", v);
			found = in_path(s, name, s->clang, sizeof(s->clang));
		}
		if (!found && !in_path(s, "clang", s->clang, sizeof(s->clang)))
			return -ENOENT;
	}
	s->clang_major = clang_major_of(s, s->clang);
	return 0;
}

static bool is_dep_flag(const char *a, bool *takes_value)
{
	*takes_value = !strcmp(a, "-MF") || !strcmp(a, "-MT") || !strcmp(a, "-MQ");
	return *takes_value || !strcmp(a, "-MD") || !strcmp(a, "-MMD") || !strcmp(a, "-MP");
}

/* Split argv into the build arguments, the dependency-file flags, the input
 * and the output. Returns 1 when this is a compile bpfgate should check
 * (-c of one C file), 0 for anything else (passed through unchanged). */
static int split_args(struct bg_cc_result *s, int argc, char **argv)
{
	bool has_c = false, has_target = false, other_mode = false;
	int ninputs = 0;

	s->args = calloc(argc + 4, sizeof(char *));
	s->dep_args = calloc(argc + 3, sizeof(char *));
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		bool val;

		if (!strcmp(a, "-o") && i + 1 < argc) {
			s->output = argv[++i];
		} else if (is_dep_flag(a, &val)) {
			s->dep_args[s->ndep++] = argv[i];
			if (val && i + 1 < argc)
				s->dep_args[s->ndep++] = argv[++i];
		} else {
			if (!strcmp(a, "-c"))
				has_c = true;
			else if (!strcmp(a, "-E") || !strcmp(a, "-S") || !strcmp(a, "-M") ||
				 !strcmp(a, "-MM") || !strcmp(a, "-emit-llvm"))
				other_mode = true;
			else if (!strcmp(a, "-target") || !strncmp(a, "--target=", 9))
				has_target = true;
			else if (a[0] != '-' && strlen(a) > 2 && !strcmp(a + strlen(a) - 2, ".c") &&
				 (i == 0 || strcmp(argv[i - 1], "-I"))) {
				s->input = a;
				ninputs++;
			}
			s->args[s->nargs++] = argv[i];
		}
	}
	if (!has_target) {
		s->args[s->nargs++] = "-target";
		s->args[s->nargs++] = "bpf";
	}
	if (has_c && !other_mode && ninputs == 1 && !s->output) {
		const char *b = strrchr(s->input, '/');

		snprintf(s->default_out, sizeof(s->default_out), "%.*s.o", (int)strlen(b ? b + 1 : s->input) - 2,
			 b ? b + 1 : s->input);
		s->output = s->default_out;
	}
	if (s->ndep && s->output) {
		bool named = false;

		for (int i = 0; i < s->ndep; i++)
			named |= !strcmp(s->dep_args[i], "-MT") || !strcmp(s->dep_args[i], "-MQ");
		if (!named) { /* the object is built under a temporary name: name the real one */
			s->dep_args[s->ndep++] = "-MT";
			s->dep_args[s->ndep++] = (char *)s->output;
		}
	}
	return has_c && !other_mode && ninputs == 1;
}

/* --- sidecar ----------------------------------------------------------- */

static unsigned long long fnv(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 1099511628211ull;
	return h;
}

/* Key of a build: source bytes, arguments and clang. Headers are not
 * hashed; a stale replay is harmless because its result is verified. */
static unsigned long long build_key(const struct bg_cc_result *s)
{
	size_t len = 0;
	char *src = bg_read_file(s->input, &len);
	unsigned long long h = 1469598103934665603ull;

	if (src)
		h = fnv(h, src, len);
	free(src);
	for (int i = 0; i < s->nargs; i++) {
		if (!strncmp(s->args[i], "-fprofile-sample-use=", 21)) { /* temporary path: hash the profile */
			char *prof = bg_read_file(s->args[i] + 21, &len);

			if (prof)
				h = fnv(h, prof, len);
			free(prof);
			continue;
		}
		h = fnv(h, s->args[i], strlen(s->args[i]) + 1);
	}
	h = fnv(h, s->clang, strlen(s->clang));
	return fnv(h, &s->clang_major, sizeof(s->clang_major));
}

static void sidecar_path(const struct bg_cc_result *s, char *p, size_t sz)
{
	snprintf(p, sz, "%s.bpfgate", s->output);
}

static void sidecar_write(struct bg_cc_result *s)
{
	char p[PATH_MAX];
	FILE *f;

	sidecar_path(s, p, sizeof(p));
	f = fopen(p, "w");
	if (!f)
		return;
	fprintf(f, "# bpfgate cc decision; replayed while source, flags and clang are unchanged\n");
	fprintf(f, "key %016llx\nclang %s\nculprit (%ld) %s on %s\nfix %s\ninsns %zu %zu\n",
		build_key(s), s->clang, s->culprit, s->culprit_name, s->culprit_unit, s->fix,
		s->insns_before, s->insns_after);
	fclose(f);
}

/* Replay a recorded fix. Returns true when it produced an accepted object. */
static bool sidecar_replay(struct bg_cc_result *s)
{
	char p[PATH_MAX], fix[1100] = "", line[1200];
	unsigned long long key = 0;
	struct cc_variant v = {.bisect_limit = -1, .deps = true};
	struct cc_judge j;
	char *tok, *save;
	FILE *f;

	if (s->no_sidecar)
		return false;
	sidecar_path(s, p, sizeof(p));
	f = fopen(p, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "key ", 4))
			key = strtoull(line + 4, NULL, 16);
		else if (!strncmp(line, "fix ", 4))
			snprintf(fix, sizeof(fix), "%s", line + 4);
	}
	fclose(f);
	if (key != build_key(s) || !fix[0])
		return false;
	if (!strncmp(fix, "skip pass run(s) ", 17)) {
		v.skip = strdup(fix + 17);
	} else if (!strncmp(fix, "pipeline without ", 17)) {
		v.pipe_drop = strdup(fix + 17);
	} else {
		for (tok = strtok_r(fix, " ", &save); tok && v.nextra < CC_MAX_EXTRA;
		     tok = strtok_r(NULL, " ", &save))
			v.extra[v.nextra++] = strdup(tok);
	}
	sidecar_path(s, p, sizeof(p));
	if (cc_try(s, &v, &j, "replay") == CC_GOOD) {
		f = fopen(p, "r");
		while (f && fgets(line, sizeof(line), f))
			if (!strncmp(line, "fix ", 4))
				snprintf(s->fix, sizeof(s->fix), "%.*s", (int)strcspn(line + 4, "\n"), line + 4);
		if (f)
			fclose(f);
		s->replayed = true;
		s->insns_after = j.insns;
		snprintf(s->written, sizeof(s->written), "%s/replay.o", s->tmpdir);
	}
	for (int i = 0; i < v.nextra; i++)
		free((void *)v.extra[i]);
	free((void *)v.skip);
	free((void *)v.pipe_drop);
	return s->replayed;
}

/* --- the flow ---------------------------------------------------------- */

static int copy_file(const char *from, const char *to)
{
	size_t len;
	char *buf = bg_read_file(from, &len);
	FILE *f;
	int ok;

	if (!buf)
		return -errno;
	f = fopen(to, "wb");
	if (!f) {
		free(buf);
		return -errno;
	}
	ok = fwrite(buf, 1, len, f) == len;
	ok &= fclose(f) == 0;
	free(buf);
	return ok ? 0 : -EIO;
}

static int first_rejected(const struct cc_judge *j)
{
	for (int i = 0; i < j->nprogs; i++)
		if (j->progs[i].rejected)
			return i;
	return -1;
}

/* The user's command line exactly: its object is what cc writes when every
 * deciding verifier accepts it (byte-identical to clang's). */
static int user_build(struct bg_cc_result *s)
{
	struct cc_variant v = {.bisect_limit = -1, .deps = true};
	char out[96];
	int rc;

	snprintf(out, sizeof(out), "%s/user.o", s->tmpdir);
	rc = cc_compile(s, &v, out, &s->stderr_text);
	if (rc != 0)
		return rc;
	cc_judge_object(s, out, &s->first);
	s->first.compiled = true;
	s->insns_before = s->first.insns;
	snprintf(s->written, sizeof(s->written), "%s", out);
	return 0;
}

/* clang's own diagnostics of the user's build (BISECT lines dropped), as
 * warnings through the print callback (the CLI's shows them on stderr). */
static void print_clang_diagnostics(const char *text)
{
	for (const char *p = text; p && *p;) {
		const char *e = strchr(p, '\n');
		int len = e ? (int)(e - p) : (int)strlen(p);

		if (strncmp(p, "BISECT: ", 8))
			pr_warn("%.*s\n", len, p);
		p = e ? e + 1 : NULL;
	}
}

/* The BISECT pass listing of the user's command line, a second compile made
 * only when a program is rejected: -opt-bisect-limit changes no instruction
 * but can order BTF types differently (two FWD types swapped in the
 * selftests' nested_trust_success.c with clang-19), so the written object
 * never comes from this build. */
static void listing_build(struct bg_cc_result *s)
{
	struct cc_variant v = {.bisect_limit = 1000000000L};
	char out[96];
	char *err = NULL;

	snprintf(out, sizeof(out), "%s/listing.o", s->tmpdir);
	if (cc_compile(s, &v, out, &err) == 0 && err) {
		free(s->stderr_text);
		s->stderr_text = err;
	} else {
		free(err);
	}
}

/* clang 14 and 19 abort on BPF objects with calls once a sample profile
 * is used ("Relocation for CG Profile could not be created"): when the build
 * fails with the profile and succeeds without, go on without it (the block
 * layout still uses the profile), and say so. */
static int without_sample_profile(struct bg_cc_result *s)
{
	const char *fatal = s->stderr_text ? strstr(s->stderr_text, "error: ") : NULL;
	int i;

	for (i = 0; i < s->nargs && s->args[i] != s->sample_arg; i++)
		;
	if (i == s->nargs)
		return 2;
	snprintf(s->sample_failed, sizeof(s->sample_failed), "%.*s",
		 fatal ? (int)strcspn(fatal + 7, "\n") : 0, fatal ? fatal + 7 : "");
	memmove(&s->args[i], &s->args[i + 1], (size_t)(s->nargs - i - 1) * sizeof(char *));
	s->nargs--;
	s->sample_arg[0] = 0;
	free(s->stderr_text);
	s->stderr_text = NULL;
	return user_build(s);
}

static void search(struct bg_cc_result *s)
{
	const struct cc_prog_verdict *t = &s->first.progs[s->target];

	cc_progress(s, "program '%s' rejected by %s: %s", t->name, t->by, t->msg);
	listing_build(s); /* the replay of a pipeline-route fix places stage A with it */
	if (sidecar_replay(s))
		return;
	if (s->strict)
		return;
	/* no pass is to blame for an instruction the kernel does not know: the
	 * code generator emits what -mcpu allows (and a bisection under QEMU
	 * would cost a boot per compile) */
	if (cc_isa_rejection(t->msg) && cc_fix_isa(s) == 0)
		return;
	if (cc_bisect(s) == 0 && s->culprit > 0) {
		cc_progress(s, "culprit: pass (%ld) %s on %s (run %d), %d bisection compiles",
			    s->culprit, s->culprit_name, s->culprit_unit, s->culprit_occurrence,
			    s->bisect_compiles);
		cc_ir_diff(s);
	}
	if (s->culprit == 0 && s->bisected) {
		if (cc_try_other_clangs(s) != 0)
			s->unsafe_source = true;
		return;
	}
	if (cc_find_fix(s) != 0 && cc_try_other_clangs(s) != 0 && s->before != CC_GOOD)
		s->unsafe_source = true;
}

static void finish(struct bg_cc_result *s)
{
	bool ok = s->fix[0] || s->alt_clang[0] || first_rejected(&s->first) < 0;

	if (ok && copy_file(s->written, s->output) == 0) {
		if (s->fix[0] && !s->replayed && !s->no_sidecar)
			sidecar_write(s);
		s->status = 0;
	} else {
		s->status = ok ? 2 : 1;
	}
	s->seconds = cc_now() - s->t0;
}

static int passthrough(int argc, char **argv, const char *clang, char *const *env)
{
	char **av = calloc(argc + 2, sizeof(char *));
	int rc;

	av[0] = (char *)clang;
	memcpy(av + 1, argv, argc * sizeof(char *));
	rc = bg_spawn_env(av, env, "/dev/stdout", "/dev/stderr", 0);
	free(av);
	return rc;
}

int bg_cc_build(int argc, char **argv, const struct bg_cc_opts *opts, struct bg_cc_result **res)
{
	struct bg_cc_result *s = calloc(1, sizeof(*s));
	struct bg_cc_opts o;
	const char *why;
	int rc;

	if (!s)
		return -ENOMEM;
	*res = s;
	s->nhints = -1;
	s->target = -1;
	s->t0 = cc_now();
	if (OPTS_COPY(&o, opts, bg_cc_opts)) {
		s->status = 2;
		return -EINVAL;
	}
	s->budget_s = o.budget_s > 0 ? o.budget_s : 120;
	s->strict = o.strict;
	s->progress = o.progress;
	s->fix_route = o.fix_route;
	s->verifiers = o.verifiers ? o.verifiers : BG_CC_VERIFIER_KERNEL | BG_CC_VERIFIER_BPFGATE;
	s->no_sidecar = o.no_sidecar;
	s->keep_tmp = o.keep_tmp;
	s->envp = o.envp ? o.envp : environ;
	s->profile = o.profile;
	s->no_hints = o.no_hints;
	s->no_layout = o.no_layout;
	if (pick_clang(s, o.clang) < 0) {
		s->status = 2;
		snprintf(s->fix, sizeof(s->fix), "%s", "");
		return -ENOENT;
	}
	cc_find_plugin(s, o.plugin_dir);
	if (!split_args(s, argc, argv)) {
		s->status = passthrough(argc, argv, s->clang, s->envp) == 0 ? 0 : 2;
		return 0;
	}
	strcpy(s->tmpdir, "/tmp/bpfgate-cc-XXXXXX");
	if (!mkdtemp(s->tmpdir))
		return -errno;
	s->kernel_ok = (s->verifiers & BG_CC_VERIFIER_KERNEL) && bg_kern_available(&why);
	s->kernel_why = s->kernel_ok ? NULL : why;
	s->bpfgate_ok = (s->verifiers & BG_CC_VERIFIER_BPFGATE) && bg_verify;
	if (s->profile && cc_profile_prepare(s) != 0) {
		pr_warn("bpfgate cc: --profile %s\n", s->profile_note);
		s->status = 2;
		return 0;
	}
	if (o.kernels) {
		if (!o.kernel_cache) {
			s->status = 2;
			return -EINVAL;
		}
		snprintf(s->kernels, sizeof(s->kernels), "%s", o.kernels);
		s->kernel_cache = o.kernel_cache;
		s->kernel_loader = o.kernel_loader;
		s->kernel_timeout_s = o.kernel_timeout_s;
	}
	rc = user_build(s);
	if (rc != 0 && s->sample_arg[0]) /* clang may fail with the sample profile alone */
		rc = without_sample_profile(s);
	if (rc != 0) { /* a compile error: clang's message, exit 2, nothing to judge or fix */
		print_clang_diagnostics(s->stderr_text);
		s->compile_error = rc;
		s->status = 2;
		return 0;
	}
	print_clang_diagnostics(s->stderr_text);
	if (s->first.kvm_error[0]) { /* a listed kernel gave no verdict: nothing is written */
		snprintf(s->kernel_error, sizeof(s->kernel_error), "%s", s->first.kvm_error);
		struct stat st;
		if (!lstat(s->output, &st) && S_ISREG(st.st_mode)) /* an earlier build's: not this one */
			unlink(s->output);
		s->status = 2;
		s->seconds = cc_now() - s->t0;
		return 0;
	}
	s->target = first_rejected(&s->first);
	if (s->target >= 0)
		search(s);
	finish(s);
	s->nhints = -1;
	if (s->status == 0 && s->profile && !s->no_layout)
		cc_layout_step(s);
	if (s->status == 0 && !s->no_hints && !s->laid_out)
		cc_hints_record(s);
	return 0;
}

int bg_cc_result__status(const struct bg_cc_result *s)
{
	return s ? s->status : 2;
}

void bg_cc_result__free(struct bg_cc_result *s)
{
	char cmd[128];

	if (!s)
		return;
	if (s->tmpdir[0] && !s->keep_tmp) {
		char *const argv[] = {"rm", "-rf", s->tmpdir, NULL};

		(void)cmd;
		bg_spawn_env(argv, s->envp, NULL, NULL, 30);
	}
	free(s->args);
	free(s->dep_args);
	free(s->stderr_text);
	cc_pipe_free(s->pipe);
	cc_profile_free(s);
	free(s);
}
