/* The CLI's streaming JSON writer: every --json report of the subcommands
 * goes through it, so all emit the same shapes (docs/ARCHITECTURE.md,
 * "reports"). Commas and nesting are tracked here; callers only say what
 * comes next. Strings go through the library's bg_text_write_json
 * (bpfgate/text.h), the one place that decides how hostile names become
 * valid UTF-8 JSON. A CLI piece, not library API: a program embedding
 * libbpfgate has its own JSON writer and needs only the escaping. */
#ifndef BG_TOOLS_CLI_JSON_H
#define BG_TOOLS_CLI_JSON_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <bpfgate/text.h>

struct cli_json {
	FILE *f;
	int depth;
	bool need_comma[64];
	bool after_key;
	bool pretty;
};

void cli_json_init(struct cli_json *j, FILE *f, bool pretty);
void cli_json_obj_begin(struct cli_json *j);
void cli_json_obj_end(struct cli_json *j);
void cli_json_arr_begin(struct cli_json *j);
void cli_json_arr_end(struct cli_json *j);
void cli_json_key(struct cli_json *j, const char *key);
void cli_json_str(struct cli_json *j, const char *s);          /* NULL writes null */
void cli_json_int(struct cli_json *j, int64_t v);
void cli_json_uint(struct cli_json *j, uint64_t v);
void cli_json_double(struct cli_json *j, double v);
void cli_json_bool(struct cli_json *j, bool v);
void cli_json_null(struct cli_json *j);
/* key + value shorthands */
void cli_json_kstr(struct cli_json *j, const char *key, const char *s);
void cli_json_kint(struct cli_json *j, const char *key, int64_t v);
void cli_json_kuint(struct cli_json *j, const char *key, uint64_t v);
void cli_json_kdouble(struct cli_json *j, const char *key, double v);
void cli_json_kbool(struct cli_json *j, const char *key, bool v);
#endif
