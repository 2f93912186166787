/* Library print callback and error strings. The only place the library
 * writes to stderr, and only through the default callback. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpfgate/bpfgate.h>
#include "core/log.h"

static int default_print(enum bg_print_level level, const char *fmt, va_list ap)
{
	if (level > BG_WARN)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static bg_print_fn print_fn = default_print;

bg_print_fn bg_set_print(bg_print_fn fn)
{
	bg_print_fn old = print_fn;

	print_fn = fn;
	return old;
}

void bg_pr(enum bg_print_level level, const char *fmt, ...)
{
	va_list ap;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
}

const char *bg_strerror(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case BG_ERR_FORMAT: return "malformed input";
	case BG_ERR_UNSUPPORTED: return "unsupported input";
	case BG_ERR_LIMIT: return "resource limit reached (too complex)";
	default: return strerror(err);
	}
}
