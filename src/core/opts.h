/* Options structs, handled one way by every public entry point (libbpf's
 * convention). A caller's struct starts with `size_t sz` = the sizeof it
 * was compiled with:
 *  - sz < sizeof(size_t) is invalid (-EINVAL);
 *  - fields past sz are taken as zero (an older caller did not know them);
 *  - bytes past the last field this library knows (a newer caller) must be
 *    zero, else -EINVAL: a request we cannot honour is refused, not ignored.
 * Each public struct names its last field with `#define TYPE__last_field F`
 * next to its definition (add a field: move that define). */
#ifndef BG_CORE_OPTS_H
#define BG_CORE_OPTS_H
#include <stdbool.h>
#include <stddef.h>

#ifndef offsetofend
#define offsetofend(TYPE, FIELD) (offsetof(TYPE, FIELD) + sizeof(((TYPE *)0)->FIELD))
#endif

/* The size of the known part of struct TYPE. */
#define OPTS_KNOWN(TYPE) offsetofend(struct TYPE, TYPE##__last_field)

/* NULL or a valid struct TYPE (checks sz and unknown trailing bytes; says
 * why through the print callback). */
#define OPTS_VALID(opts, TYPE) (!(opts) || bg_opts_valid((opts), OPTS_KNOWN(TYPE), #TYPE))

/* Does the caller's struct reach FIELD? */
#define OPTS_HAS(opts, FIELD) \
	((opts) && (opts)->sz >= offsetofend(__typeof__(*(opts)), FIELD))

/* FIELD of the caller's struct, or fallback when NULL / not covered by sz. */
#define OPTS_GET(opts, FIELD, fallback) (OPTS_HAS(opts, FIELD) ? (opts)->FIELD : (fallback))

/* Store into FIELD of the caller's struct when it has it (output fields). */
#define OPTS_SET(opts, FIELD, value)                  \
	do {                                          \
		if (OPTS_HAS(opts, FIELD))            \
			(opts)->FIELD = (value);      \
	} while (0)

/* *dst := the caller's options (NULL: all zero) with every field it does not
 * cover zero, dst->sz = sizeof(*dst); 0, or -EINVAL when !OPTS_VALID. For
 * entry points that keep the options or read many fields. */
#define OPTS_COPY(dst, opts, TYPE) \
	bg_opts_copy((dst), sizeof(*(dst)), (opts), OPTS_KNOWN(TYPE), #TYPE)

bool bg_opts_valid(const void *opts, size_t known, const char *type);
int bg_opts_copy(void *dst, size_t dst_sz, const void *opts, size_t known, const char *type);
#endif
