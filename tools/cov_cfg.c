/* CFG view of coverage (see cov_cfg.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "cov_cfg.h"

static int run_dot(const char *dot, const char *svg)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		execlp("dot", "dot", "-Tsvg", "-o", svg, dot, (char *)NULL);
		fprintf(stderr, "bpfgate cov: dot: %s (the graphviz package provides it)\n",
			strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return 0;
}

/* A program name usable as a file name (names are C identifiers, but the
 * object is input: anything else becomes '_'). */
static void file_name(const char *name, char *out, size_t sz)
{
	size_t i = 0;

	for (; name[i] && i + 1 < sz; i++)
		out[i] = (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
				 (name[i] >= '0' && name[i] <= '9') || name[i] == '_' ||
				 name[i] == '.'
			     ? name[i]
			     : '_';
	out[i] = 0;
	if (!i || out[0] == '.')
		out[0] = '_';
}

int cov_cfg_write(const char *dir, struct bg_cov *const *covs, size_t n)
{
	char path[4096], svg[4096], fn[256];
	FILE *idx;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return cli_error("cov", "run: --cfg %s: %s", dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/index.html", dir);
	idx = fopen(path, "w");
	if (!idx)
		return cli_error("cov", "run: %s: %s", path, strerror(errno));
	fprintf(
	    idx,
	    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>bpfgate CFG "
	    "view</title></head>\n"
	    "<body><h1>Control-flow graphs with counts</h1>\n<p>Blocks: runs (white: never, red: "
	    "hottest). Edges: counts (solid: jump taken, dashed: fall-through).</p>\n<ul>\n");
	for (size_t i = 0; i < n; i++) {
		FILE *f;

		if (!covs[i])
			continue;
		file_name(bg_program__name(bg_cov__program(covs[i])), fn, sizeof(fn));
		snprintf(path, sizeof(path), "%s/%s.dot", dir, fn);
		snprintf(svg, sizeof(svg), "%s/%s.svg", dir, fn);
		f = fopen(path, "w");
		if (!f || bg_cov__write_dot(covs[i], f) < 0) {
			if (f)
				fclose(f);
			fclose(idx);
			return cli_error("cov", "run: cannot write %s: %s", path, strerror(errno));
		}
		fclose(f);
		if (run_dot(path, svg)) {
			fclose(idx);
			return cli_error("cov", "run: dot failed on %s", path);
		}
		fprintf(idx, "<li><a href=\"%s.svg\">%s</a></li>\n", fn, fn);
	}
	fprintf(idx, "</ul></body></html>\n");
	fclose(idx);
	return 0;
}

static int copy(const char *from, const char *to)
{
	FILE *a = fopen(from, "rb"), *b = a ? fopen(to, "wb") : NULL;
	char buf[65536];
	size_t k;
	int err = 0;

	if (!a || !b)
		err = -1;
	while (!err && (k = fread(buf, 1, sizeof(buf), a)) > 0)
		err = fwrite(buf, 1, k, b) != k ? -1 : 0;
	if (a)
		fclose(a);
	if (b && fclose(b))
		err = -1;
	return err;
}

/* Insert a link to cfg/index.html right after <body ...> of OUT/index.html. */
static int add_link(const char *out)
{
	char path[4096];
	size_t len;
	char *html;
	const char *body;
	FILE *f;

	snprintf(path, sizeof(path), "%s/index.html", out);
	f = fopen(path, "rb");
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	rewind(f);
	html = malloc(len + 1);
	if (!html || fread(html, 1, len, f) != len) {
		free(html);
		fclose(f);
		return -1;
	}
	fclose(f);
	html[len] = 0;
	body = strstr(html, "<body");
	body = body ? strchr(body, '>') : NULL;
	f = body ? fopen(path, "wb") : NULL;
	if (!f) {
		free(html);
		return -1;
	}
	fwrite(html, 1, (size_t)(body + 1 - html), f);
	fprintf(f, "\n<p style=\"font-family:sans-serif\"><a href=\"cfg/index.html\">Control-flow "
		   "graphs with "
		   "counts (CFG view)</a></p>\n");
	fputs(body + 1, f);
	free(html);
	return fclose(f) ? -1 : 0;
}

int cov_cfg_link(const char *out, const char *dir)
{
	char from[4096], to[4096];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return cli_error("cov", "html: --cfg %s: %s", dir, strerror(errno));
	snprintf(to, sizeof(to), "%s/cfg", out);
	if (mkdir(to, 0755) && errno != EEXIST) {
		closedir(d);
		return cli_error("cov", "html: %s: %s", to, strerror(errno));
	}
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l < 5 || (strcmp(e->d_name + l - 4, ".svg") && strcmp(e->d_name, "index.html")))
			continue;
		snprintf(from, sizeof(from), "%s/%s", dir, e->d_name);
		snprintf(to, sizeof(to), "%s/cfg/%s", out, e->d_name);
		if (copy(from, to)) {
			closedir(d);
			return cli_error("cov", "html: cannot copy %s to %s", from, to);
		}
	}
	closedir(d);
	if (add_link(out))
		return cli_error("cov", "html: cannot link the CFG view from %s/index.html", out);
	return 0;
}
