/* Verifier log parsing: statistics (processed insns, verification time) and
 * the verdict message. The log is the kernel's text; nothing here trusts its
 * shape: numbers are parsed with bounds, lines may be arbitrarily long. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "kern/klog.h"

/* Value of the number following the LAST occurrence of prefix, or -1. */
static long last_number_after(const char *log, const char *prefix)
{
	const char *p = log, *hit = NULL;
	size_t n = strlen(prefix);
	long v;
	char *end;

	if (!log)
		return -1;
	while ((p = strstr(p, prefix))) {
		hit = p;
		p += n;
	}
	if (!hit || !isdigit((unsigned char)hit[n]))
		return -1;
	v = strtol(hit + n, &end, 10);
	return end == hit + n || v < 0 ? -1 : v;
}

long bg_klog_processed(const char *log)
{
	return last_number_after(log, "processed ");
}

long bg_klog_verif_time(const char *log)
{
	return last_number_after(log, "verification time ");
}

/* Statistics lines the kernel appends at the end (level 4 and on success). */
static int is_stats_line(const char *l, size_t len)
{
	static const char *const prefixes[] = {"processed ", "verification time ", "stack depth ",
					       "-- END PROG LOAD LOG --", "mark_precise"};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t pl = strlen(prefixes[i]);

		if (len >= pl && !strncmp(l, prefixes[i], pl))
			return 1;
	}
	return 0;
}

/* Level-2 bookkeeping (precision tracking, state dumps, subprogram headers):
 * skipped when it trails the message, never part of it. */
static int is_noise_line(const char *l, size_t len)
{
	static const char *const prefixes[] = {"func#", "last_idx", "parent ", "regs=", "Validating ",
					       "insn_idx", "cur state:", "old state:"};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t pl = strlen(prefixes[i]);

		if (len >= pl && !strncmp(l, prefixes[i], pl))
			return 1;
	}
	return 0;
}

/* Length of message line l without trailing blanks and without a statistics
 * line glued to its end: the kernel prints some messages without a newline
 * ("expected prog array map for tail callverification time 45 usec"). */
static size_t message_len(const char *l, size_t len)
{
	for (size_t i = 1; i + 18 < len; i++)
		if (!strncmp(l + i, "verification time ", 18) && isdigit((unsigned char)l[i + 18])) {
			len = i;
			break;
		}
	while (len && isspace((unsigned char)l[len - 1]))
		len--;
	return len;
}

static int is_blank(const char *l, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)l[i]))
			return 0;
	return 1;
}

/* Trace lines of a level-1 log: instruction dumps and register states
 * ("12: (bf) r1 = r6", "12: R1=ctx()"), source comments ("; x = y @ f.c:3"),
 * branch headers ("from 4 to 9: ..."). Everything else is a message. */
static int is_trace_line(const char *l, size_t len)
{
	size_t i = 0;

	if (len && l[0] == ';')
		return 1;
	if (len >= 5 && !strncmp(l, "from ", 5))
		return 1;
	while (i < len && isdigit((unsigned char)l[i]))
		i++;
	return i > 0 && i + 1 < len && l[i] == ':' && l[i + 1] == ' ';
}

int bg_klog_is_empty(const char *log)
{
	const char *s = log, *e;

	while (s && *s) {
		e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (!is_blank(s, len) && !is_stats_line(s, len))
			return 0;
		s += len + (e ? 1 : 0);
	}
	return 1;
}

char *bg_klog_message(const char *log, int max_lines)
{
	const char *starts[16];
	size_t lens[16];
	int n = 0;
	const char *end;

	if (!log || max_lines <= 0)
		return NULL;
	if (max_lines > 16)
		max_lines = 16;
	/* walk backwards collecting the trailing run of message lines; a trace
	 * line ends the run (or is the message when nothing follows it) */
	end = log + strlen(log);
	while (end > log && n < max_lines) {
		const char *s = end;
		size_t len;

		while (s > log && s[-1] != '\n')
			s--;
		len = (size_t)(end - s);
		end = s > log ? s - 1 : log;
		if (is_blank(s, len) || is_stats_line(s, len))
			continue;
		if (is_noise_line(s, len)) {
			if (n)
				break;
			continue;
		}
		if (is_trace_line(s, len) && n)
			break;
		starts[n] = s;
		lens[n] = message_len(s, len);
		n++;
		if (is_trace_line(s, len))
			break;
	}
	if (!n)
		return NULL;
	size_t total = 1;
	for (int i = 0; i < n; i++)
		total += lens[i] + 1;
	char *out = malloc(total), *w = out;
	if (!out)
		return NULL;
	for (int i = n - 1; i >= 0; i--) {
		memcpy(w, starts[i], lens[i]);
		w += lens[i];
		if (i)
			*w++ = '\n';
	}
	*w = 0;
	return out;
}

/* Copy [s, s+len) into dst (bounded, NUL-terminated). */
static void copy_bounded(char *dst, size_t dstsz, const char *s, size_t len)
{
	if (!dstsz)
		return;
	if (len >= dstsz)
		len = dstsz - 1;
	memcpy(dst, s, len);
	dst[len] = 0;
}

/* "; text @ file:line" (line > 0) -> fills w's source fields; returns 1 when parsed. */
static int parse_source_line(const char *l, size_t len, struct bg_klog_where *w)
{
	const char *at = NULL, *colon = NULL;
	char *endp;
	unsigned long line;

	for (size_t i = 2; i + 3 <= len; i++)
		if (!strncmp(l + i, " @ ", 3))
			at = l + i;
	if (!at)
		return 0;
	for (const char *p = at + 3; p < l + len; p++)
		if (*p == ':')
			colon = p;
	if (!colon || !isdigit((unsigned char)colon[1]))
		return 0;
	line = strtoul(colon + 1, &endp, 10);
	if (endp > l + len || line > UINT32_MAX || !line)
		return 0; /* line 0: compiler-made code, no place to point at */
	w->line = (uint32_t)line;
	copy_bounded(w->file, sizeof(w->file), at + 3, (size_t)(colon - at - 3));
	copy_bounded(w->source, sizeof(w->source), l + 2, (size_t)(at - l - 2));
	return 1;
}

int bg_klog_where(const char *log, struct bg_klog_where *w)
{
	const char *s = log, *e;

	memset(w, 0, sizeof(*w));
	w->insn = -1;
	while (s && *s) {
		e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (len > 2 && s[0] == ';' && s[1] == ' ')
			parse_source_line(s, len, w);
		else if (is_trace_line(s, len) && isdigit((unsigned char)s[0])) {
			const char *c = memchr(s, ':', len);

			/* "N: (op) ..." is an instruction; "N: R..." only a state */
			if (c && (size_t)(c - s) + 2 < len && c[2] == '(')
				w->insn = strtol(s, NULL, 10);
		}
		s += len + (e ? 1 : 0);
	}
	return w->insn >= 0 || w->line ? 0 : -1;
}
