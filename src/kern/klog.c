/* Verifier log parsing: statistics (processed insns, verification time) and
 * the verdict message. The log is the kernel's text; nothing here trusts its
 * shape: numbers are parsed with bounds, lines may be arbitrarily long. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "kern/kern_int.h"

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

static int is_blank(const char *l, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)l[i]))
			return 0;
	return 1;
}

int bg_klog_is_empty(const char *log)
{
	char *m = bg_klog_message(log, 1);
	int empty = !m;

	free(m);
	return empty;
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
	/* walk backwards line by line collecting message lines */
	end = log + strlen(log);
	while (end > log && n < max_lines) {
		const char *s = end;
		size_t len;

		while (s > log && s[-1] != '\n')
			s--;
		len = (size_t)(end - s);
		if (!is_blank(s, len) && !is_stats_line(s, len)) {
			starts[n] = s;
			lens[n] = len;
			n++;
		}
		end = s > log ? s - 1 : log;
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
