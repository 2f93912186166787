/* Attaching instrumented tracing programs for the duration of a command:
 * kprobe/kretprobe through the kprobe PMU, uprobe/uretprobe/usdt through the
 * uprobe PMU (file + offset resolved from the ELF symbol table or the
 * .note.stapsdt notes, system-wide like libbpf's default pid -1),
 * tracepoints through perf events, raw_tp and tp_btf through
 * BPF_RAW_TRACEPOINT_OPEN. Counters are read when the command exits;
 * everything is detached and closed afterwards. */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpfgate/bpfgate.h>
#include <bpfgate/cov.h>
#include "cov_attach.h"
#include "cli.h"

#define MAX_SITES 64 /* USDT sites attached per program */

static long read_num(const char *path, const char *prefix)
{
	char buf[128];
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		const char *p = buf;

		if (prefix && !strncmp(p, prefix, strlen(prefix)))
			p += strlen(prefix);
		v = strtol(p, NULL, 10);
	}
	fclose(f);
	return v;
}

/* pid < 0: every process (the event on CPU 0 stands for all: trace events run
 * their BPF programs on any CPU); else that process only, all its threads
 * (uprobes filter by address space). Not inherited: with a BPF program on an
 * inherited uprobe event, fork() fails in the traced process (6.18). */
static int perf_open(struct perf_event_attr *attr, pid_t pid)
{
	return (int)syscall(__NR_perf_event_open, attr, pid > 0 ? pid : -1, pid > 0 ? -1 : 0, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/* Attach through a BPF link carrying a cookie (USDT spec ids); the link
 * holds a reference to the perf event, so closing the link detaches. */
static int attach_perf_cookie(int prog_fd, struct perf_event_attr *attr, pid_t pid, uint64_t cookie, char *err)
{
	LIBBPF_OPTS(bpf_link_create_opts, o, .perf_event.bpf_cookie = cookie);
	int pfd = perf_open(attr, pid), lfd;

	if (pfd < 0) {
		snprintf(err, 512, "perf_event_open: %s", strerror(errno));
		return -1;
	}
	lfd = bpf_link_create(prog_fd, pfd, BPF_PERF_EVENT, &o);
	if (lfd < 0)
		snprintf(err, 512, "BPF_LINK_CREATE (perf event with cookie): %s", strerror(-lfd));
	close(pfd);
	return lfd < 0 ? -1 : lfd;
}

static int attach_perf(int prog_fd, struct perf_event_attr *attr, pid_t pid, char *err)
{
	int pfd = perf_open(attr, pid);

	if (pfd < 0) {
		snprintf(err, 512, "perf_event_open: %s", strerror(errno));
		return -1;
	}
	if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog_fd) < 0 || ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		snprintf(err, 512, "attach: %s", strerror(errno));
		close(pfd);
		return -1;
	}
	return pfd;
}

enum probe_kind { PK_OTHER, PK_UPROBE, PK_URETPROBE, PK_USDT, PK_UPROBE_MULTI, PK_URETPROBE_MULTI };

/* "uprobe", "uprobe.s", "uretprobe[.s]" or "usdt", alone or before '/'. */
static enum probe_kind probe_kind(const char *sec)
{
	static const struct {
		const char *name;
		enum probe_kind kind;
	} kinds[] = {{"uprobe", PK_UPROBE},
		     {"uprobe.s", PK_UPROBE},
		     {"uretprobe", PK_URETPROBE},
		     {"uretprobe.s", PK_URETPROBE},
		     {"usdt", PK_USDT},
		     {"uprobe.multi", PK_UPROBE_MULTI},
		     {"uprobe.multi.s", PK_UPROBE_MULTI},
		     {"uretprobe.multi", PK_URETPROBE_MULTI},
		     {"uretprobe.multi.s", PK_URETPROBE_MULTI}};
	size_t len = strcspn(sec, "/");

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].name) == len && !strncmp(sec, kinds[i].name, len))
			return kinds[i].kind;
	return PK_OTHER;
}

/* cookie < 0: none (PERF_EVENT_IOC_SET_BPF) */
static int attach_uprobe(int prog_fd, const struct bg_uprobe_target *t, bool ret, pid_t pid, int64_t cookie,
			 char *err)
{
	static const char *dev = "/sys/bus/event_source/devices/uprobe";
	char path[128];
	long type, bit, ref_shift;
	struct perf_event_attr attr;

	snprintf(path, sizeof(path), "%s/type", dev);
	type = read_num(path, NULL);
	snprintf(path, sizeof(path), "%s/format/retprobe", dev);
	bit = read_num(path, "config:");
	snprintf(path, sizeof(path), "%s/format/ref_ctr_offset", dev);
	ref_shift = read_num(path, "config:");
	if (type < 0) {
		snprintf(err, 512, "no uprobe PMU (%s)", dev);
		return -1;
	}
	if ((ret && (bit < 0 || bit > 63)) || (t->ref_ctr && (ref_shift < 0 || ref_shift > 63))) {
		snprintf(err, 512, "the uprobe PMU has no %s bit", ret ? "retprobe" : "ref_ctr_offset");
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (uint32_t)type;
	attr.config = (ret ? 1ull << bit : 0) | (t->ref_ctr ? t->ref_ctr << ref_shift : 0);
	attr.config1 = (uint64_t)(uintptr_t)t->path;
	attr.config2 = t->offset;
	return cookie < 0 ? attach_perf(prog_fd, &attr, pid, err)
			  : attach_perf_cookie(prog_fd, &attr, pid, (uint64_t)cookie, err);
}

/* The map a <bpf/usdt.bpf.h> program reads argument specs from
 * (__bpf_usdt_specs, named by its first 15 characters), among the maps the
 * loaded program uses; -1 when it has none (it reads no arguments). */
static int usdt_specs_map(int prog_fd, char *err)
{
	struct bpf_prog_info pi;
	struct bpf_map_info mi;
	uint32_t ids[64], len = sizeof(pi);
	int found = -1;

	memset(&pi, 0, sizeof(pi));
	pi.nr_map_ids = 64;
	pi.map_ids = (uint64_t)(uintptr_t)ids;
	if (bpf_obj_get_info_by_fd(prog_fd, &pi, &len))
		return -1;
	for (uint32_t i = 0; i < pi.nr_map_ids && i < 64 && found < 0; i++) {
		int fd = bpf_map_get_fd_by_id(ids[i]);

		len = sizeof(mi);
		memset(&mi, 0, sizeof(mi));
		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &mi, &len) && !strcmp(mi.name, "__bpf_usdt_spec")) {
			if (mi.value_size != sizeof(struct bg_usdt_spec) || mi.max_entries < MAX_SITES) {
				snprintf(err, 512, "__bpf_usdt_specs: value size %u, %u entries (want %zu, >= %d)",
					 mi.value_size, mi.max_entries, sizeof(struct bg_usdt_spec), MAX_SITES);
				close(fd);
				return -2;
			}
			found = fd;
		} else if (fd >= 0) {
			close(fd);
		}
	}
	return found;
}

/* USDT sites: with a specs map, site i gets spec i and attach cookie i. */
static int attach_usdt(int prog_fd, const struct bg_uprobe_target *t, int n, pid_t pid, int *fds, char *err)
{
	int specs = usdt_specs_map(prog_fd, err), i;

	if (specs == -2)
		return -1;
	for (i = 0; i < n; i++) {
		uint32_t key = (uint32_t)i;

		if (specs >= 0 && bpf_map_update_elem(specs, &key, &t[i].spec, 0)) {
			snprintf(err, 512, "__bpf_usdt_specs update: %s", strerror(errno));
			break;
		}
		fds[i] = attach_uprobe(prog_fd, &t[i], false, pid, specs >= 0 ? i : -1, err);
		if (fds[i] < 0)
			break;
	}
	if (specs >= 0)
		close(specs);
	if (i == n)
		return n;
	while (i--)
		close(fds[i]);
	return -1;
}

/* BPF_LINK_CREATE of a uprobe_multi link (kernel 6.6+; the installed uapi
 * headers predate it, so the attr is laid out here: link_create's common
 * head, then the uprobe_multi member of its union at offset 16). */
struct uprobe_multi_attr {
	uint32_t prog_fd, target_fd, attach_type, flags;
	uint64_t path, offsets, ref_ctr_offsets, cookies;
	uint32_t cnt, multi_flags, pid, pad;
};
#define BG_TRACE_UPROBE_MULTI 48  /* enum bpf_attach_type */
#define BG_UPROBE_MULTI_RETURN 1u /* BPF_F_UPROBE_MULTI_RETURN */

static int attach_uprobe_multi(int prog_fd, const char *target, bool ret, pid_t pid, char *err)
{
	uint64_t *offs = calloc(4096, sizeof(uint64_t));
	char path[PATH_MAX];
	struct uprobe_multi_attr a;
	int n = offs ? bg_uprobe__resolve_multi(target, path, sizeof(path), offs, 4096, err, 512) : -ENOMEM;
	int fd = -1;

	if (n == -ENOMEM)
		snprintf(err, 512, "out of memory");
	if (n > 4096)
		snprintf(err, 512, "%s: %d functions match, at most 4096 are attached", target, n);
	if (n > 0 && n <= 4096) {
		memset(&a, 0, sizeof(a));
		a.prog_fd = (uint32_t)prog_fd;
		a.attach_type = BG_TRACE_UPROBE_MULTI;
		a.path = (uint64_t)(uintptr_t)path;
		a.offsets = (uint64_t)(uintptr_t)offs;
		a.cnt = (uint32_t)n;
		a.multi_flags = ret ? BG_UPROBE_MULTI_RETURN : 0;
		a.pid = pid > 0 ? (uint32_t)pid : 0;
		fd = (int)syscall(__NR_bpf, BPF_LINK_CREATE, &a, sizeof(a));
		if (fd < 0)
			snprintf(err, 512, "BPF_LINK_CREATE (uprobe_multi, %d functions): %s", n, strerror(errno));
	}
	free(offs);
	return fd;
}

/* uprobe, uretprobe and usdt: target from the command line or the section.
 * Stores up to MAX_SITES fds in fds; returns how many, or -1 with err set. */
static int attach_user(const struct bg_program *p, int prog_fd, const char *target, pid_t pid, int *fds,
		       char *err)
{
	enum probe_kind k = probe_kind(bg_program__section(p));
	struct bg_uprobe_target *t = calloc(MAX_SITES, sizeof(*t));
	int n;

	if (!target)
		target = bg_program__attach_target(p);
	if (!target || !*target) {
		snprintf(err, 512, "section %s names no target: give --%s %s=PATH:%s", bg_program__section(p),
			 k == PK_USDT ? "usdt" : "uprobe", bg_program__name(p),
			 k == PK_USDT ? "PROVIDER:NAME" : k >= PK_UPROBE_MULTI ? "PATTERN" : "FUNC[+OFFSET]");
		free(t);
		return -1;
	}
	if (!t) {
		snprintf(err, 512, "out of memory");
		return -1;
	}
	if (k == PK_UPROBE_MULTI || k == PK_URETPROBE_MULTI) {
		free(t);
		fds[0] = attach_uprobe_multi(prog_fd, target, k == PK_URETPROBE_MULTI, pid, err);
		return fds[0] < 0 ? -1 : 1;
	}
	n = k == PK_USDT ? bg_usdt__resolve(target, t, MAX_SITES, err, 512) : bg_uprobe__resolve(target, t, err, 512);
	if (n == 0)
		n = 1; /* a resolved uprobe */
	if (n > MAX_SITES) {
		snprintf(err, 512, "%s: %d probe sites, at most %d are attached", target, n, MAX_SITES);
		n = -1;
	}
	if (n > 0 && k == PK_USDT)
		n = attach_usdt(prog_fd, t, n, pid, fds, err);
	else if (n > 0 && (fds[0] = attach_uprobe(prog_fd, t, k == PK_URETPROBE, pid, -1, err)) < 0)
		n = -1;
	free(t);
	return n < 0 ? -1 : n;
}

/* Returns the attachment fd (closing it detaches) or -1 with err set. */
static int attach(const struct bg_program *p, int prog_fd, char *err)
{
	const char *sec = bg_program__section(p);
	const char *target = bg_program__attach_target(p);
	struct perf_event_attr attr;
	char path[512];

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	if (!strncmp(sec, "kprobe/", 7) || !strncmp(sec, "kretprobe/", 10)) {
		long type = read_num("/sys/bus/event_source/devices/kprobe/type", NULL);
		long bit = read_num("/sys/bus/event_source/devices/kprobe/format/retprobe", "config:");

		if (type < 0) {
			snprintf(err, 512, "no kprobe PMU");
			return -1;
		}
		attr.type = (uint32_t)type;
		attr.config = sec[1] == 'r' && bit >= 0 ? 1ull << bit : 0;
		attr.config1 = (uint64_t)(uintptr_t)(target ? target : strchr(sec, '/') + 1);
		return attach_perf(prog_fd, &attr, -1, err);
	}
	if (!strncmp(sec, "tracepoint/", 11) || !strncmp(sec, "tp/", 3)) {
		const char *tp = strchr(sec, '/') + 1;
		long id;

		snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/id", tp);
		id = read_num(path, NULL);
		if (id < 0 && mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0)
			id = read_num(path, NULL); /* tracefs was not mounted */
		if (id < 0) {
			snprintf(path, sizeof(path), "/sys/kernel/debug/tracing/events/%s/id", tp);
			id = read_num(path, NULL);
		}
		if (id < 0) {
			snprintf(err, 512, "tracepoint %s not found", tp);
			return -1;
		}
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = (uint64_t)id;
		attr.sample_period = 1;
		attr.wakeup_events = 1;
		return attach_perf(prog_fd, &attr, -1, err);
	}
	if (!strncmp(sec, "raw_tp/", 7) || !strncmp(sec, "raw_tracepoint/", 15) || !strncmp(sec, "tp_btf/", 7)) {
		int fd = bpf_raw_tracepoint_open(sec[1] == 'p' ? NULL : strchr(sec, '/') + 1, prog_fd);

		if (fd < 0)
			snprintf(err, 512, "raw tracepoint attach: %s", strerror(-fd));
		return fd < 0 ? -1 : fd;
	}
	snprintf(err, 512, "section %s: attaching is not supported (kprobe, kretprobe, uprobe, uretprobe, uprobe.multi, uretprobe.multi, usdt, tracepoint, raw_tp, tp_btf)", sec);
	return -1;
}

/* While COMMAND runs, SIGTERM/SIGINT/SIGHUP to bpfgate are passed on to it
 * (a second one kills it), so bpfgate outlives it, detaches and still writes
 * the counts gathered so far. If bpfgate itself is killed, the kernel kills
 * COMMAND (PR_SET_PDEATHSIG): it is never left running as an orphan. */
static volatile sig_atomic_t got_signal, signal_cnt;
static volatile pid_t command_pid;

static void forward_signal(int sig)
{
	got_signal = sig;
	signal_cnt++;
	if (command_pid > 0)
		kill(command_pid, signal_cnt > 1 ? SIGKILL : sig);
}

static void catch_signals(bool on, struct sigaction *saved)
{
	static const int sigs[3] = {SIGTERM, SIGINT, SIGHUP};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward_signal; /* no SA_RESTART: waitpid returns EINTR */
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++) {
		if (on)
			sigaction(sigs[i], &sa, &saved[i]);
		else
			sigaction(sigs[i], &saved[i], NULL);
	}
}

/* Fork cmd held before its exec until *go is written to or closed, so that
 * probes can be opened on its pid first. */
static pid_t spawn_held(char **cmd, int *go)
{
	pid_t parent = getpid();
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (pid == 0) {
		char c;

		close(p[1]);
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		if (read(p[0], &c, 1) != 1) /* bpfgate went away before releasing it */
			_exit(127);
		execvp(cmd[0], cmd);
		fprintf(stderr, "bpfgate cov: %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

static int wait_command(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Everything attached for one program: fds to close, counters to read. */
struct attached {
	int prog_fd, map_fd, nlinks;
	int links[MAX_SITES];
};

static void attach_one(struct bg_cov *cov, const char *target, pid_t pid, struct attached *at, char *err)
{
	const struct bg_program *p = bg_cov__program(cov);

	at->prog_fd = bg_cov__load_kernel(cov, &at->map_fd, err, 512);
	if (at->prog_fd < 0)
		return;
	if (probe_kind(bg_program__section(p)) != PK_OTHER) {
		at->nlinks = attach_user(p, at->prog_fd, target, pid, at->links, err);
	} else if (target) {
		snprintf(err, 512, "section %s takes no target from the command line", bg_program__section(p));
		at->nlinks = -1;
	} else {
		at->links[0] = attach(p, at->prog_fd, err);
		at->nlinks = at->links[0] < 0 ? -1 : 1;
	}
}

int cov_attach_run(struct bg_cov **covs, size_t n, const char **targets, bool command_only, char **cmd,
		   char errbuf[][512], const char **errs)
{
	struct attached *at = calloc(n ? n : 1, sizeof(*at));
	struct sigaction saved[3];
	int rc, go = -1;
	pid_t pid;

	if (!at)
		return -ENOMEM;
	catch_signals(true, saved);
	pid = spawn_held(cmd, &go);
	if (pid < 0) {
		catch_signals(false, saved);
		free(at);
		return pid;
	}
	command_pid = pid;
	if (got_signal) /* arrived before the pid was known */
		kill(pid, got_signal);
	for (size_t i = 0; i < n; i++) {
		at[i].prog_fd = at[i].map_fd = -1;
		if (!covs[i])
			continue;
		attach_one(covs[i], targets ? targets[i] : NULL, command_only ? pid : -1, &at[i], errbuf[i]);
		if (at[i].prog_fd < 0 || at[i].nlinks < 0)
			errs[i] = errbuf[i];
	}
	if (write(go, "g", 1) != 1)
		fprintf(stderr, "bpfgate cov: cannot release %s: %s\n", cli_safe(cmd[0]), strerror(errno));
	close(go);
	rc = wait_command(pid);
	command_pid = 0;
	catch_signals(false, saved);
	if (got_signal)
		fprintf(stderr, "bpfgate cov: %s, passed on to %s: writing the counts gathered so far\n",
			strsignal(got_signal), cli_safe(cmd[0]));
	for (size_t i = 0; i < n; i++) {
		for (int k = 0; k < at[i].nlinks; k++)
			close(at[i].links[k]);
		if (at[i].nlinks > 0)
			bg_cov__read_kernel(covs[i], at[i].map_fd);
		if (at[i].map_fd >= 0)
			close(at[i].map_fd);
		if (at[i].prog_fd >= 0)
			close(at[i].prog_fd);
	}
	free(at);
	if (rc && !got_signal)
		fprintf(stderr, "bpfgate cov: %s exited with status %d\n", cli_safe(cmd[0]), rc);
	return 0;
}
