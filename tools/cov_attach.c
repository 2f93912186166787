/* Attaching instrumented tracing programs for the duration of a command:
 * kprobe/kretprobe through the kprobe PMU, tracepoints through perf events,
 * raw_tp and tp_btf through BPF_RAW_TRACEPOINT_OPEN. Counters are read when
 * the command exits; everything is detached and closed afterwards. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpfgate/bpfgate.h>
#include "cov_attach.h"

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

static int perf_open(struct perf_event_attr *attr)
{
	return (int)syscall(__NR_perf_event_open, attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
}

static int attach_perf(int prog_fd, struct perf_event_attr *attr, char *err)
{
	int pfd = perf_open(attr);

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
		return attach_perf(prog_fd, &attr, err);
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
		return attach_perf(prog_fd, &attr, err);
	}
	if (!strncmp(sec, "raw_tp/", 7) || !strncmp(sec, "raw_tracepoint/", 15) || !strncmp(sec, "tp_btf/", 7)) {
		int fd = bpf_raw_tracepoint_open(sec[1] == 'p' ? NULL : strchr(sec, '/') + 1, prog_fd);

		if (fd < 0)
			snprintf(err, 512, "raw tracepoint attach: %s", strerror(-fd));
		return fd < 0 ? -1 : fd;
	}
	snprintf(err, 512, "section %s: attaching is not supported (kprobe, kretprobe, tracepoint, raw_tp, tp_btf)", sec);
	return -1;
}

static int run_command(char **cmd)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execvp(cmd[0], cmd);
		fprintf(stderr, "bpfgate cov: %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int cov_attach_run(struct bg_cov **covs, size_t n, char **cmd, char errbuf[][512], const char **errs)
{
	int *prog_fd = calloc(n, sizeof(int)), *map_fd = calloc(n, sizeof(int)), *link = calloc(n, sizeof(int));
	int rc;

	if (!prog_fd || !map_fd || !link) {
		free(prog_fd);
		free(map_fd);
		free(link);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		prog_fd[i] = map_fd[i] = link[i] = -1;
		if (!covs[i])
			continue;
		prog_fd[i] = bg_cov__load_kernel(covs[i], &map_fd[i], errbuf[i], 512);
		if (prog_fd[i] >= 0)
			link[i] = attach(bg_cov__program(covs[i]), prog_fd[i], errbuf[i]);
		if (prog_fd[i] < 0 || link[i] < 0)
			errs[i] = errbuf[i];
	}
	rc = run_command(cmd);
	for (size_t i = 0; i < n; i++) {
		if (link[i] >= 0) {
			close(link[i]);
			bg_cov__read_kernel(covs[i], map_fd[i]);
		}
		if (map_fd[i] >= 0)
			close(map_fd[i]);
		if (prog_fd[i] >= 0)
			close(prog_fd[i]);
	}
	free(prog_fd);
	free(map_fd);
	free(link);
	if (rc)
		fprintf(stderr, "bpfgate cov: %s exited with status %d\n", cmd[0], rc);
	return 0;
}
