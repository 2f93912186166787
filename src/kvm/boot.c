/* Booting cached kernels under QEMU and reading their verdicts back.
 *
 * One guest per kernel: -kernel vmlinuz -initrd (built by initrd.c), no
 * disk, no network, console on the first serial port and the loader's
 * records on the second (both files in a scratch dir). KVM when /dev/kvm can
 * create a VM, otherwise TCG (-cpu max). At most `jobs` guests run at once;
 * each has a wall-clock limit after which it is killed and reported with the
 * tail of its console, as is a guest that stops (panic, reboot) before its
 * loader printed BG-END. Nothing here waits without a deadline. */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/kvm.h>
#include "cc/spawn.h"
#include "kvm/kvm_int.h"

#define QEMU "qemu-system-x86_64"
#define CONSOLE_TAIL_LINES 25
#define BASE_MEM_MB 256

/* Hardware virtualisation advertised by the CPU? (A /dev/kvm without it can
 * create a VM and then fail to run it.) */
static int cpu_virt(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[8192];
	int yes = 0;

	while (f && !yes && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5) && (strstr(line, " vmx") || strstr(line, " svm")))
			yes = 1;
	if (f)
		fclose(f);
	return yes;
}

/* The probe's answer, once per process (pthread_once: bg_kvm_accel is
 * called from any thread). */
static const char *probed_accel;
static char probed_reason[160];
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

static void probe_accel(void)
{
	int fd, vm;

	probed_accel = "tcg";
	if (!cpu_virt()) {
		snprintf(probed_reason, sizeof(probed_reason), "the CPU has no vmx/svm flag");
		return;
	}
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(probed_reason, sizeof(probed_reason), "/dev/kvm: %s", strerror(errno));
		return;
	}
	vm = ioctl(fd, KVM_CREATE_VM, 0);
	if (vm < 0) {
		snprintf(probed_reason, sizeof(probed_reason), "/dev/kvm cannot create a VM: %s",
			 strerror(errno));
	} else {
		close(vm);
		snprintf(probed_reason, sizeof(probed_reason), "/dev/kvm creates VMs");
		probed_accel = "kvm";
	}
	close(fd);
}

const char *bg_kvm_accel(const char *force, const char **why)
{
	if (force && (!strcmp(force, "tcg") || !strcmp(force, "kvm"))) {
		if (why)
			*why = "chosen by the caller";
		return !strcmp(force, "tcg") ? "tcg" : "kvm";
	}
	pthread_once(&probe_once, probe_accel);
	if (why)
		*why = probed_reason;
	return probed_accel;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct guest {
	struct bg_kvm_run *run;
	char dir[PATH_MAX];
	pid_t pid;
	double t0, deadline;
	int timed_out;
	int tries;              /* boots so far */
};

/* What start() needs again for a retry. */
struct boot_args {
	const char *root;
	const char *const *objs;
	size_t nobj;
	const struct kvm_boot_opts *o;
};

__attribute__((format(printf, 2, 3))) static void set_error(struct bg_kvm_run *r,
							     const char *fmt, ...)
{
	char buf[PATH_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	free(r->error);
	r->error = strdup(buf);
}

static const char *loader_path(const struct kvm_boot_opts *o, char *buf, size_t n)
{
	ssize_t k;

	if (o->loader && *o->loader)
		return o->loader;
	k = readlink("/proc/self/exe", buf, n - 1);
	if (k <= 0)
		return NULL;
	buf[k] = 0;
	return buf;
}

static long file_size(const char *p)
{
	struct stat st;

	return stat(p, &st) ? 0 : (long)st.st_size;
}

/* Build the initrd and start QEMU; errors go to g->run->error. */
static void start(struct guest *g, const char *root, int idx, const char *const *objs,
		  size_t nobj, const struct kvm_boot_opts *o)
{
	char initrd[PATH_MAX + 16], con[PATH_MAX + 32], out[PATH_MAX + 32], err[512] = "";
	char lbuf[PATH_MAX], args[64] = "", mem[16], scon[PATH_MAX + 48], sout[PATH_MAX + 48];
	char cmdline[512], config[PATH_MAX + 64];
	const char *loader = loader_path(o, lbuf, sizeof(lbuf));
	const char *accel = bg_kvm_accel(o->accel, NULL);
	struct bg_kvm_run *r = g->run;
	int e, timeout;

	g->pid = -1;
	g->tries++;
	g->timed_out = 0;
	snprintf(g->dir, sizeof(g->dir), "%s/tmp/boot-%d-%d", root, (int)getpid(), idx);
	mkdir(g->dir, 0755);
	snprintf(initrd, sizeof(initrd), "%s/initrd", g->dir);
	snprintf(con, sizeof(con), "%s/console.log", g->dir);
	snprintf(out, sizeof(out), "%s/records", g->dir);
	snprintf(args, sizeof(args), "--log-level %u --timeout %g%s",
		 o->log_level ? o->log_level : 4u,
		 o->prog_limit > 0 ? o->prog_limit : o->prog_limit < 0 ? 0 : 20.0,
		 o->log ? " --log" : "");
	if (!loader) {
		set_error(r, "cannot find the loader binary");
		return;
	}
	snprintf(config, sizeof(config), "%s/kernels/%s/config", root, r->k.ver);
	e = bg_kvm_initrd(initrd, loader, objs, nobj, args, config, r->k.release, err, sizeof(err));
	if (e) {
		set_error(r, "initrd: %s", err);
		return;
	}
	r->mem_mb = o->mem_mb ? o->mem_mb : BASE_MEM_MB + (int)(3 * (file_size(initrd) >> 20));
	if (r->mem_mb < 16)
		r->mem_mb = BASE_MEM_MB;
	timeout = o->timeout_s ? o->timeout_s : 120 + 2 * (int)nobj;
	if (timeout <= 0)
		timeout = 120 + 2 * (int)nobj;
	/* o->append: extra kernel arguments (the last of a repeated one wins) */
	snprintf(cmdline, sizeof(cmdline), "console=ttyS0 panic=-1 rdinit=/init loglevel=4 "
		 "mitigations=off no_timer_check %s", o->append ? o->append : "");
	snprintf(r->accel, sizeof(r->accel), "%s", accel);
	snprintf(mem, sizeof(mem), "%d", r->mem_mb);
	snprintf(scon, sizeof(scon), "file:%s", con);
	snprintf(sout, sizeof(sout), "file:%s", out);
	char *av[] = {(char *)QEMU, (char *)"-accel", (char *)accel, (char *)"-cpu",
		      (char *)(strcmp(accel, "kvm") ? "max" : "host"), (char *)"-m", mem,
		      (char *)"-smp", (char *)"1", (char *)"-nodefaults", (char *)"-no-user-config",
		      (char *)"-display", (char *)"none", (char *)"-no-reboot", (char *)"-serial",
		      scon, (char *)"-serial", sout, (char *)"-kernel", r->k.vmlinuz,
		      (char *)"-initrd", initrd, (char *)"-append",
		      cmdline, NULL};
	fflush(NULL);
	g->t0 = now_s();
	g->deadline = g->t0 + timeout;
	g->pid = fork();
	if (g->pid < 0) {
		set_error(r, "cannot start " QEMU ": %s", strerror(errno));
		return;
	}
	if (g->pid == 0) {
		int nul = open("/dev/null", O_RDWR);
		char log[PATH_MAX + 32];
		int lf;

		/* a guest never outlives bpfgate (killed, crashed, timed out) */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		snprintf(log, sizeof(log), "%s/qemu.err", g->dir);
		lf = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(nul, 0);
		dup2(nul, 1);
		dup2(lf >= 0 ? lf : nul, 2);
		execvp(av[0], av);
		/* into qemu.err (fd 2 of the child), read back as the boot's error */
		char msg[160];
		int len = snprintf(msg, sizeof(msg), "cannot run " QEMU ": %s\n", strerror(errno));
		if (len > 0 && write(2, msg, (size_t)len) < 0)
			_exit(126);
		_exit(127);
	}
}

/* The last n lines of a file, malloc'd. */
static char *tail(const char *path, int n)
{
	size_t len = 0;
	char *s = bg_read_file(path, &len), *p;
	int lines = 0;

	if (!s || !len) {
		free(s);
		return strdup("(nothing on the console: the guest stopped before its kernel set up "
			      "the serial console, e.g. too little memory for the kernel and initrd)");
	}
	for (size_t i = 0; i < len; i++)
		if (s[i] == '\r' || (s[i] < ' ' && s[i] != '\n' && s[i] != '\t'))
			s[i] = s[i] == '\r' ? ' ' : '?';
	p = s + len;
	while (p > s && lines <= n)
		if (*--p == '\n')
			lines++;
	/* a panic's first line may be further up than the tail of its trace */
	for (const char *const *m = (const char *const[]){"Kernel panic", "BUG:", "Oops", NULL}; *m;
	     m++) {
		char *hit = NULL, *q = s;

		while ((q = strstr(q, *m)))
			hit = q++;
		while (hit && hit > s && hit[-1] != '\n')
			hit--;
		if (hit && hit < p && s + len - hit < 8192) {
			p = hit;
			break;
		}
	}
	p = strdup(p + (p > s && *p == '\n'));
	free(s);
	return p;
}

static void collect(struct guest *g, int status, const struct rusage *ru)
{
	struct bg_kvm_run *r = g->run;
	char path[PATH_MAX + 32], *s, *save = NULL;
	double begin = -1, end = -1;
	int ended = 0, code = -1;

	r->wall_s = now_s() - g->t0;
	r->host_rss_kb = ru ? ru->ru_maxrss : -1;
	snprintf(path, sizeof(path), "%s/records", g->dir);
	s = bg_read_file(path, NULL);
	for (char *l = s ? strtok_r(s, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		struct bg_kvm_prog p;

		if (!strncmp(l, "BG-BEGIN ", 9)) {
			sscanf(l + 9, "%95s %lf", r->release, &begin);
		} else if (!strncmp(l, "BG-END ", 7)) {
			ended = sscanf(l + 7, "%d %lf", &code, &end) >= 1;
		} else if (bg_kvm_record_parse(l, &p)) {
			struct bg_kvm_prog *grown = realloc(r->progs, (r->n + 1) * sizeof(p));

			if (!grown) {
				bg_kvm_prog__fini(&p);
				break;
			}
			r->progs = grown;
			r->progs[r->n++] = p;
		}
	}
	free(s);
	r->boot_s = begin;
	r->judge_s = begin >= 0 && end >= begin ? end - begin : -1;
	snprintf(path, sizeof(path), "%s/console.log", g->dir);
	if (g->timed_out)
		set_error(r, "kernel %s: guest did not finish within %.0f s (killed)", r->k.ver,
			  g->deadline - g->t0);
	else if (!ended)
		set_error(r, "kernel %s: guest stopped before the loader finished (panic, crash "
			     "or reboot; QEMU status %d)",
			  r->k.ver, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	else if (code != 0 && code != 1)
		set_error(r, "kernel %s: the loader in the guest failed (status %d)", r->k.ver,
			  code);
	if (r->error) {
		r->console_tail = tail(path, CONSOLE_TAIL_LINES);
		if (WIFEXITED(status) && (WEXITSTATUS(status) == 1 || WEXITSTATUS(status) == 127)) {
			snprintf(path, sizeof(path), "%s/qemu.err", g->dir);
			free(r->console_tail);
			r->console_tail = tail(path, CONSOLE_TAIL_LINES);
		}
	}
}

static void cleanup(struct guest *g, int keep)
{
	static const char *const files[] = {"initrd", "console.log", "records", "qemu.err"};
	char p[PATH_MAX + 32];

	if (keep)
		return;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", g->dir, files[i]);
		unlink(p);
	}
	rmdir(g->dir);
}

/* A guest that stopped before its /init ran the loader (no BG-BEGIN), not
 * killed by the deadline and not failing to run /init, is booted once more:
 * on a loaded host a TCG guest can miss its early timer checks and panic
 * ("IO-APIC + timer doesn't work", despite no_timer_check). */
static int retry_worthy(const struct guest *g)
{
	const struct bg_kvm_run *r = g->run;

	const char *t = r->console_tail ? r->console_tail : "";

	return r->error && r->boot_s < 0 && !r->n && !g->timed_out && g->tries < 2 &&
	       !strstr(t, "VFS: Unable to mount root") && !strstr(t, "No working init") &&
	       !strstr(t, "Attempted to kill init");
}

/* Poll running guests: reap those that ended, kill those past their
 * deadline, boot once more those retry_worthy(). Returns how many are still
 * running. */
static int reap(struct guest *gs, size_t ng, const struct boot_args *ba)
{
	int running = 0;

	for (size_t i = 0; i < ng; i++) {
		struct guest *g = &gs[i];
		struct rusage ru;
		int st = 0;
		pid_t p;

		if (g->pid <= 0)
			continue;
		p = wait4(g->pid, &st, WNOHANG, &ru);
		if (p == 0 && now_s() > g->deadline) {
			kill(g->pid, SIGKILL);
			g->timed_out = 1;
			p = wait4(g->pid, &st, 0, &ru);
		}
		if (p == 0 || (p < 0 && errno == EINTR)) {
			running++;
			continue;
		}
		g->pid = -1;
		collect(g, st, p > 0 ? &ru : NULL);
		cleanup(g, ba->o->keep);
		if (retry_worthy(g)) {
			struct bg_kimage k = g->run->k;

			bg_kvm_run__fini(g->run);
			g->run->k = k;
			g->run->host_rss_kb = -1;
			g->run->boot_s = g->run->judge_s = -1;
			start(g, ba->root, (int)(g - gs), ba->objs, ba->nobj, ba->o);
			if (g->pid > 0)
				running++;
		}
	}
	return running;
}

int bg_kvm_judge(const struct bg_kimage *ks, size_t nk, const char *const *objs, size_t nobj,
		 const struct kvm_boot_opts *o, struct bg_kvm_run *runs)
{
	struct kvm_boot_opts def = {.sz = sizeof(def)};
	struct guest *gs = calloc(nk ? nk : 1, sizeof(*gs));
	char root[PATH_MAX], tmp[PATH_MAX + 8];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int jobs;
	size_t next = 0;

	if (!gs)
		return -ENOMEM;
	if (!o)
		o = &def;
	jobs = o->jobs > 0 ? o->jobs : ncpu >= 2 ? 2 : 1;
	if (!o->cache_dir || !*o->cache_dir ||
	    snprintf(root, sizeof(root), "%s", o->cache_dir) >= (int)sizeof(root)) {
		free(gs);
		return -ENOENT;
	}
	snprintf(tmp, sizeof(tmp), "%s/tmp", root);
	mkdir(root, 0755);
	mkdir(tmp, 0755);
	for (size_t i = 0; i < nk; i++) {
		memset(&runs[i], 0, sizeof(runs[i]));
		runs[i].k = ks[i];
		runs[i].host_rss_kb = -1;
		runs[i].boot_s = runs[i].judge_s = -1;
		gs[i].run = &runs[i];
		gs[i].pid = -1;
	}
	struct boot_args ba = {root, objs, nobj, o};

	for (;;) {
		int running = reap(gs, next, &ba);

		while (running < jobs && next < nk) {
			start(&gs[next], root, (int)next, objs, nobj, o);
			if (gs[next].pid > 0)
				running++;
			else
				cleanup(&gs[next], o->keep);
			next++;
		}
		if (!running && next >= nk)
			break;
		usleep(20000);
	}
	free(gs);
	return 0;
}

void bg_kvm_run__fini(struct bg_kvm_run *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		bg_kvm_prog__fini(&r->progs[i]);
	free(r->progs);
	free(r->error);
	free(r->console_tail);
	memset(r, 0, sizeof(*r));
}
