/* The streaming JSON writer of every report bpfgate writes: the library's
 * own (cc, coverage, hints) and the CLI's --json output, so all emit the same
 * shapes. One source compiled into both (shared/: the library's copy is
 * hidden, the CLI's is its own object; docs/ARCHITECTURE.md, "shared/"), so
 * it uses the public API only: strings go through bg_text_write_json
 * (bpfgate/text.h), the one place that decides how hostile names become
 * valid UTF-8 JSON. Not library API: a program embedding libbpfgate has its
 * own JSON writer and needs only the escaping.
 * Commas and nesting are tracked here; callers only say what comes next. */
#ifndef BG_SHARED_JSON_H
#define BG_SHARED_JSON_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct bg_json {
	FILE *f;
	int depth;
	bool need_comma[64];
	bool after_key;
	bool pretty;
};

void bg_json_init(struct bg_json *j, FILE *f, bool pretty);
void bg_json_obj_begin(struct bg_json *j);
void bg_json_obj_end(struct bg_json *j);
void bg_json_arr_begin(struct bg_json *j);
void bg_json_arr_end(struct bg_json *j);
void bg_json_key(struct bg_json *j, const char *key);
void bg_json_str(struct bg_json *j, const char *s);          /* NULL writes null */
void bg_json_int(struct bg_json *j, int64_t v);
void bg_json_uint(struct bg_json *j, uint64_t v);
void bg_json_double(struct bg_json *j, double v);
void bg_json_bool(struct bg_json *j, bool v);
void bg_json_null(struct bg_json *j);
/* key + value shorthands */
void bg_json_kstr(struct bg_json *j, const char *key, const char *s);
void bg_json_kint(struct bg_json *j, const char *key, int64_t v);
void bg_json_kuint(struct bg_json *j, const char *key, uint64_t v);
void bg_json_kdouble(struct bg_json *j, const char *key, double v);
void bg_json_kbool(struct bg_json *j, const char *key, bool v);
#endif
