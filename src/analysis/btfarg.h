/* BTF-typed pointers for tracing programs (see btfarg.c). */
#ifndef BG_ANALYSIS_BTFARG_H
#define BG_ANALYSIS_BTFARG_H
#include <stdbool.h>
struct bg_program;
/* Type of the ctx argument at byte offset off: *is_ptr and the pointed
 * struct name (NULL for a non-struct pointer). False when unknown. */
bool btf_ctx_arg(const struct bg_program *prog, int off, const char **name, bool *is_ptr);
/* Type of the field of struct sname loaded at off with size bytes. */
bool btf_field_load(const struct bg_program *prog, const char *sname, int off, int size,
		    const char **name, bool *is_ptr);
#endif
