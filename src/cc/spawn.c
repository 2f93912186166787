/* Child processes for the compile driver: fork/exec with redirected output
 * and a wall-clock limit enforced by polling waitpid. */
#define _GNU_SOURCE /* execvpe */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cc/spawn.h"

static void redirect(const char *path, int fd)
{
	int f = open(path ? path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (f >= 0) {
		dup2(f, fd);
		close(f);
	}
}

static int wait_child(pid_t pid, int timeout_s)
{
	struct timespec start, now, nap = {0, 2000000};
	int st;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -errno;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (timeout_s > 0 && now.tv_sec - start.tv_sec >= timeout_s) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -ETIMEDOUT;
		}
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 50000000)
			nap.tv_nsec *= 2;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + WTERMSIG(st);
}

int bg_spawn(char *const argv[], const char *out_path, const char *err_path, int timeout_s)
{
	return bg_spawn_env(argv, NULL, out_path, err_path, timeout_s);
}

int bg_spawn_env(char *const argv[], char *const envp[], const char *out_path, const char *err_path,
		 int timeout_s)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);

		if (nul >= 0)
			dup2(nul, 0);
		redirect(out_path, 1);
		redirect(err_path, 2);
		if (envp)
			execvpe(argv[0], argv, envp);
		else
			execvp(argv[0], argv);
		_exit(127);
	}
	return wait_child(pid, timeout_s);
}

char *bg_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = (cap ? cap * 2 : 8192));

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		size_t r = fread(buf + n, 1, cap - n - 1, f);

		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}
