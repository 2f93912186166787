/* bpfgate/bpfgate.h - umbrella header: version, print callback, error codes.
 * The library never prints to stdout/stderr itself; everything goes through
 * the print callback set here (default: warnings and errors to stderr).
 *
 * Thread safety: every function may be called from several threads at once on
 * different objects; bg_set_print swaps one process-wide callback atomically
 * (the callback itself may be called from any thread). Options structs: sz
 * first; fields past sz are zero, unknown non-zero trailing bytes -EINVAL. */
#ifndef BPFGATE_BPFGATE_H
#define BPFGATE_BPFGATE_H

#include <stdarg.h>
#include <bpfgate/types.h>
#include <bpfgate/insn.h>
#include <bpfgate/object.h>
#include <bpfgate/kern.h>
#include <bpfgate/verifier.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BPFGATE_VERSION "0.1.0"

enum bg_print_level { BG_WARN = 0, BG_INFO = 1, BG_DEBUG = 2 };
typedef int (*bg_print_fn)(enum bg_print_level level, const char *fmt, va_list ap);
/* Set the print callback; returns the previous one. NULL silences the library. */
BG_API bg_print_fn bg_set_print(bg_print_fn fn);


#ifdef __cplusplus
}
#endif
#endif
