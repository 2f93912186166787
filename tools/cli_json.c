/* The CLI's streaming JSON writer (cli_json.h); src/core/json.c is the
 * library's own, for the reports it writes (cc, coverage). Invariant:
 * need_comma[depth] says whether the next value at this nesting level must
 * be preceded by a comma. */
#include <math.h>
#include <inttypes.h>
#include "cli_json.h"

void cli_json_init(struct cli_json *j, FILE *f, bool pretty)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = false;
	j->after_key = false;
	j->pretty = pretty;
}

static void indent(struct cli_json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator before a value (or a key) at the current level. */
static void pre_value(struct cli_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->need_comma[j->depth])
		fputc(',', j->f);
	if (j->depth > 0)
		indent(j);
	j->need_comma[j->depth] = true;
}

static void open(struct cli_json *j, char c)
{
	pre_value(j);
	fputc(c, j->f);
	if (j->depth < 63)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void close_(struct cli_json *j, char c)
{
	bool had = j->need_comma[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had)
		indent(j);
	fputc(c, j->f);
	if (j->depth == 0 && j->pretty)
		fputc('\n', j->f);
}

void cli_json_obj_begin(struct cli_json *j)
{
	open(j, '{');
}
void cli_json_obj_end(struct cli_json *j)
{
	close_(j, '}');
}
void cli_json_arr_begin(struct cli_json *j)
{
	open(j, '[');
}
void cli_json_arr_end(struct cli_json *j)
{
	close_(j, ']');
}

void cli_json_key(struct cli_json *j, const char *key)
{
	pre_value(j);
	bg_text_write_json(j->f, key);
	fputc(':', j->f);
	if (j->pretty)
		fputc(' ', j->f);
	j->after_key = true;
}

void cli_json_str(struct cli_json *j, const char *s)
{
	if (!s) {
		cli_json_null(j);
		return;
	}
	pre_value(j);
	bg_text_write_json(j->f, s);
}

void cli_json_int(struct cli_json *j, int64_t v)
{
	pre_value(j);
	fprintf(j->f, "%" PRId64, v);
}
void cli_json_uint(struct cli_json *j, uint64_t v)
{
	pre_value(j);
	fprintf(j->f, "%" PRIu64, v);
}
void cli_json_bool(struct cli_json *j, bool v)
{
	pre_value(j);
	fputs(v ? "true" : "false", j->f);
}
void cli_json_null(struct cli_json *j)
{
	pre_value(j);
	fputs("null", j->f);
}

void cli_json_double(struct cli_json *j, double v)
{
	pre_value(j);
	if (isfinite(v))
		fprintf(j->f, "%.6g", v);
	else
		fputs("null", j->f);
}

void cli_json_kstr(struct cli_json *j, const char *k, const char *s)
{
	cli_json_key(j, k);
	cli_json_str(j, s);
}
void cli_json_kint(struct cli_json *j, const char *k, int64_t v)
{
	cli_json_key(j, k);
	cli_json_int(j, v);
}
void cli_json_kuint(struct cli_json *j, const char *k, uint64_t v)
{
	cli_json_key(j, k);
	cli_json_uint(j, v);
}
void cli_json_kdouble(struct cli_json *j, const char *k, double v)
{
	cli_json_key(j, k);
	cli_json_double(j, v);
}
void cli_json_kbool(struct cli_json *j, const char *k, bool v)
{
	cli_json_key(j, k);
	cli_json_bool(j, v);
}
