/* What every subcommand shares: error reporting (text on stderr, and in
 * --json mode one JSON error object on stdout), terminal-safe printing of
 * names that come from input files, and option-value parsing. */
#define _GNU_SOURCE /* fopencookie */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bg_json.h"
#include <bpfgate/text.h>
#include <linux/bpf.h>
#include <bpfgate/bpfgate.h>
#include "cli.h"

static struct {
	int argc;
	char **argv;
	bool json;            /* --json given: errors are JSON on stdout too */
	bool printed;         /* a top-level JSON error object is out */
	struct bg_json *sink; /* an open JSON array errors join, or NULL */
	char *errs[64];       /* the first errors reported, for a report's summary */
	size_t nerrs;
} cli;

void cli_init(int argc, char **argv)
{
	cli.argc = argc;
	cli.argv = argv;
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			cli.json = true;
}

bool cli_json_mode(void)
{
	return cli.json;
}

void cli_json_sink(struct bg_json *j)
{
	cli.sink = j;
}

/* The input file a message names: the longest argument that prefixes it
 * followed by ": " (library and CLI messages start with the file), maybe
 * after a sub-subcommand's name ("cov run: FILE: ..."). *at: where it starts. */
static size_t longest_arg_prefix(const char *msg)
{
	size_t best = 0;

	for (int i = 1; i < cli.argc; i++) {
		size_t n = strlen(cli.argv[i]);
		if (n > best && !strncmp(msg, cli.argv[i], n) && msg[n] == ':' && msg[n + 1] == ' ')
			best = n;
	}
	return best;
}

static size_t file_prefix(const char *msg, size_t *at)
{
	size_t n = longest_arg_prefix(msg), sub;

	*at = 0;
	if (n || cli.argc < 2)
		return n;
	sub = strlen(cli.argv[1]);
	if (strncmp(msg, cli.argv[1], sub) || strncmp(msg + sub, ": ", 2))
		return 0;
	n = longest_arg_prefix(msg + sub + 2);
	if (n)
		*at = sub + 2;
	return n;
}

/* "offset N" in a message (the library's convention for where in a file). */
static bool find_offset(const char *msg, unsigned long long *off)
{
	for (const char *p = strstr(msg, "offset "); p; p = strstr(p + 1, "offset ")) {
		char *end;
		if (p[7] < '0' || p[7] > '9')
			continue;
		*off = strtoull(p + 7, &end, 0);
		return true;
	}
	return false;
}

/* The one JSON error shape: {"error": {command, file, offset, message, exit_code}}. */
static void json_error(struct bg_json *j, const char *cmd, const char *msg, int code)
{
	size_t at, fl = file_prefix(msg, &at);
	unsigned long long off;
	char *file = fl ? strndup(msg + at, fl) : NULL;

	bg_json_obj_begin(j);
	bg_json_key(j, "error");
	bg_json_obj_begin(j);
	bg_json_kstr(j, "command", cmd);
	bg_json_kstr(j, "file", file);
	bg_json_key(j, "offset");
	if (find_offset(msg, &off))
		bg_json_uint(j, off);
	else
		bg_json_null(j);
	bg_json_kstr(j, "message", fl ? msg + at + fl + 2 : msg);
	bg_json_kint(j, "exit_code", code);
	bg_json_obj_end(j);
	bg_json_obj_end(j);
	free(file);
}

int cli_error_code(const char *cmd, int code, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "bpfgate %s: %s\n", cmd, cli_safe(msg));
	if (cli.nerrs < sizeof(cli.errs) / sizeof(cli.errs[0]))
		cli.errs[cli.nerrs] = strdup(msg), cli.nerrs += !!cli.errs[cli.nerrs];
	if (cli.json && cli.sink) {
		json_error(cli.sink, cmd, msg, code);
	} else if (cli.json && !cli.printed) {
		struct bg_json j;

		bg_json_init(&j, stdout, false);
		json_error(&j, cmd, msg, code);
		fputc('\n', stdout);
		fflush(stdout);
		cli.printed = true;
	}
	return code;
}

size_t cli_error_cnt(void)
{
	return cli.nerrs;
}

const char *cli_error_msg(size_t i, char **file)
{
	size_t at, fl;

	if (i >= cli.nerrs)
		return NULL;
	fl = file_prefix(cli.errs[i], &at);
	*file = fl ? strndup(cli.errs[i] + at, fl) : NULL;
	return fl ? cli.errs[i] + at + fl + 2 : cli.errs[i];
}

int cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	}
	return 0;
}

const char *cli_value(const char *cmd, int argc, char **argv, int *i)
{
	const char *opt = argv[*i], *v;

	if (*i + 1 >= argc) {
		cli_error(cmd, "%s needs a value", opt);
		return NULL;
	}
	v = argv[*i + 1];
	/* "-" (stdin) and negative numbers are values; "--x" and "-x" are options */
	if (v[0] == '-' && (v[1] == '-' || (v[1] >= 'a' && v[1] <= 'z') ||
			    (v[1] >= 'A' && v[1] <= 'Z'))) {
		cli_error(cmd, "%s needs a value, got the option '%s' (a file named so: ./%s)", opt,
			  v, v);
		return NULL;
	}
	++*i;
	return v;
}

/* A ring of buffers so one printf may show several names; the CLI is
 * single-threaded. Each buffer grows to the longest name it held. */
static const char *safe(const char *s, unsigned flags)
{
	static char *ring[8];
	static size_t cap[8];
	static unsigned next;
	unsigned k = next++ % 8;
	size_t need;

	if (!s)
		return "(null)";
	need = bg_text_escape(ring[k], cap[k], s, flags) + 1;
	if (need > cap[k]) {
		char *n = realloc(ring[k], need);
		if (!n)
			return "(out of memory)";
		ring[k] = n;
		cap[k] = need;
		bg_text_escape(ring[k], cap[k], s, flags);
	}
	return ring[k];
}

const char *cli_safe(const char *s)
{
	return safe(s, 0);
}

const char *cli_safe_src(const char *s)
{
	return safe(s, BG_TEXT_KEEP_TAB);
}

void cli_print_lines(const char *indent, const char *text)
{
	for (const char *s = text; *s;) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		char *line = strndup(s, len);

		printf("%s%s\n", indent, line ? cli_safe_src(line) : "");
		free(line);
		s += len + (e ? 1 : 0);
	}
}

enum bg_packet_form cli_packet_input(const struct bg_program *p, bool *takes_packet)
{
	uint32_t t = bg_program__type(p);

	*takes_packet = bg_program__takes_packet(p);
	/* the kernel's test run pulls L2 for these (as src/vm does) */
	return t == BPF_PROG_TYPE_SOCKET_FILTER || t == BPF_PROG_TYPE_CGROUP_SKB ? BG_PACKET_ETH_L3
										 : BG_PACKET_ETH;
}

void cli_object_warnings(const char *cmd, const struct bg_object *obj)
{
	const char *w = bg_object__btf_error(obj);

	if (w)
		fprintf(stderr, "bpfgate %s: warning: %s: %s; read without BTF\n", cmd,
			cli_safe(bg_object__path(obj)), cli_safe(w));
}

/* A stream whose lines reach `under` terminal-safe (for the verifier's
 * trace, which quotes names from the object): bytes are kept until a
 * newline, then the line is escaped like a source line. */
struct safe_stream {
	FILE *under;
	char *buf;
	size_t n, cap;
};

static void safe_flush_line(struct safe_stream *ss, size_t len, bool nl)
{
	char *line = strndup(ss->buf, len);

	if (line)
		fputs(cli_safe_src(line), ss->under);
	if (nl)
		fputc('\n', ss->under);
	free(line);
}

static ssize_t safe_write(void *cookie, const char *data, size_t size)
{
	struct safe_stream *ss = cookie;
	char *nl;

	if (ss->n + size + 1 > ss->cap) {
		size_t cap = (ss->n + size + 1) * 2;
		char *b = realloc(ss->buf, cap);
		if (!b)
			return -1;
		ss->buf = b;
		ss->cap = cap;
	}
	memcpy(ss->buf + ss->n, data, size);
	ss->n += size;
	while ((nl = memchr(ss->buf, '\n', ss->n))) {
		size_t len = (size_t)(nl - ss->buf);
		ss->buf[len] = 0;
		safe_flush_line(ss, len, true);
		memmove(ss->buf, nl + 1, ss->n - len - 1);
		ss->n -= len + 1;
	}
	return (ssize_t)size;
}

static int safe_close(void *cookie)
{
	struct safe_stream *ss = cookie;

	if (ss->n) {
		ss->buf[ss->n] = 0;
		safe_flush_line(ss, ss->n, false);
	}
	fflush(ss->under);
	free(ss->buf);
	free(ss);
	return 0;
}

FILE *cli_safe_stream(FILE *under)
{
	cookie_io_functions_t io = {.write = safe_write, .close = safe_close};
	struct safe_stream *ss = calloc(1, sizeof(*ss));
	FILE *f;

	if (!ss)
		return under;
	ss->under = under;
	f = fopencookie(ss, "w", io);
	if (!f) {
		free(ss);
		return under;
	}
	setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

size_t cli_uri_path_encode(char *dst, size_t dsz, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t at = 0; /* the length the whole text needs so far */
	size_t filled = 0; /* bytes written to dst: whole pieces only */

	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		char c[3] = {(char)*p};
		bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			     (*p >= '0' && *p <= '9') || strchr("-._~/", *p);
		size_t n = plain ? 1 : 3;

		if (!plain) {
			c[0] = '%';
			c[1] = hex[*p >> 4];
			c[2] = hex[*p & 15];
		}
		if (filled == at && at + n < dsz) {
			memcpy(dst + at, c, n);
			filled += n;
		}
		at += n;
	}
	if (dsz)
		dst[filled] = '\0';
	return at;
}

void cli_json_uri(struct bg_json *j, const char *path)
{
	size_t n = cli_uri_path_encode(NULL, 0, path) + 1;
	char *u = malloc(n + 7);

	if (!u) {
		bg_json_kstr(j, "uri", "");
		return;
	}
	strcpy(u, path[0] == '/' ? "file://" : "");
	cli_uri_path_encode(u + strlen(u), n, path);
	bg_json_kstr(j, "uri", u);
	free(u);
}

void cli_sarif_message(struct bg_json *j, const char *text)
{
	bg_json_key(j, "message");
	bg_json_obj_begin(j);
	bg_json_kstr(j, "text", text);
	bg_json_obj_end(j);
}

void cli_sarif_locations(struct bg_json *j, const char *file, unsigned line, unsigned col)
{
	bg_json_key(j, "locations");
	bg_json_arr_begin(j);
	bg_json_obj_begin(j);
	bg_json_key(j, "physicalLocation");
	bg_json_obj_begin(j);
	bg_json_key(j, "artifactLocation");
	bg_json_obj_begin(j);
	cli_json_uri(j, file);
	bg_json_obj_end(j);
	if (line) {
		bg_json_key(j, "region");
		bg_json_obj_begin(j);
		bg_json_kuint(j, "startLine", line);
		if (col)
			bg_json_kuint(j, "startColumn", col);
		bg_json_obj_end(j);
	}
	bg_json_obj_end(j);
	bg_json_obj_end(j);
	bg_json_arr_end(j);
}

void cli_sarif_result(struct bg_json *j, const char *rule, const char *text, const char *file,
		      unsigned line, unsigned col)
{
	bg_json_obj_begin(j);
	bg_json_kstr(j, "ruleId", rule);
	bg_json_kstr(j, "level", "error");
	cli_sarif_message(j, text);
	cli_sarif_locations(j, file, line, col);
	bg_json_key(j, "properties");
	bg_json_obj_begin(j);
}

void cli_sarif_result_end(struct bg_json *j)
{
	bg_json_obj_end(j);
	bg_json_obj_end(j);
}
