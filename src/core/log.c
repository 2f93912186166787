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

/* One callback per process, as libbpf's; read and swapped atomically so that
 * threads may print while another sets it. */
static bg_print_fn print_fn = default_print;

bg_print_fn bg_set_print(bg_print_fn fn)
{
	return __atomic_exchange_n(&print_fn, fn, __ATOMIC_ACQ_REL);
}

void bg_pr(enum bg_print_level level, const char *fmt, ...)
{
	bg_print_fn fn = __atomic_load_n(&print_fn, __ATOMIC_ACQUIRE);
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	fn(level, fmt, ap);
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
	case BG_ERR_NOT_FOUND: return "not in the registry";
	case BG_ERR_UNREACHABLE: return "registry unreachable";
	default: return strerror(err);
	}
}
