/* Streaming JSON writer. Invariant: need_comma[depth] says whether the next
 * value at this nesting level must be preceded by a comma. */
#include <math.h>
#include <inttypes.h>
#include <bpfgate/text.h>
#include "bg_json.h"

void bg_json_init(struct bg_json *j, FILE *f, bool pretty)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = false;
	j->after_key = false;
	j->pretty = pretty;
}

static void indent(struct bg_json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator before a value (or a key) at the current level. */
static void pre_value(struct bg_json *j)
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

static void open(struct bg_json *j, char c)
{
	pre_value(j);
	fputc(c, j->f);
	if (j->depth < 63)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void close_(struct bg_json *j, char c)
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

void bg_json_obj_begin(struct bg_json *j) { open(j, '{'); }
void bg_json_obj_end(struct bg_json *j) { close_(j, '}'); }
void bg_json_arr_begin(struct bg_json *j) { open(j, '['); }
void bg_json_arr_end(struct bg_json *j) { close_(j, ']'); }

void bg_json_key(struct bg_json *j, const char *key)
{
	pre_value(j);
	bg_text_write_json(j->f, key);
	fputc(':', j->f);
	if (j->pretty)
		fputc(' ', j->f);
	j->after_key = true;
}

void bg_json_str(struct bg_json *j, const char *s)
{
	if (!s) {
		bg_json_null(j);
		return;
	}
	pre_value(j);
	bg_text_write_json(j->f, s);
}

void bg_json_int(struct bg_json *j, int64_t v) { pre_value(j); fprintf(j->f, "%" PRId64, v); }
void bg_json_uint(struct bg_json *j, uint64_t v) { pre_value(j); fprintf(j->f, "%" PRIu64, v); }
void bg_json_bool(struct bg_json *j, bool v) { pre_value(j); fputs(v ? "true" : "false", j->f); }
void bg_json_null(struct bg_json *j) { pre_value(j); fputs("null", j->f); }

void bg_json_double(struct bg_json *j, double v)
{
	pre_value(j);
	if (isfinite(v))
		fprintf(j->f, "%.6g", v);
	else
		fputs("null", j->f);
}

void bg_json_kstr(struct bg_json *j, const char *k, const char *s) { bg_json_key(j, k); bg_json_str(j, s); }
void bg_json_kint(struct bg_json *j, const char *k, int64_t v) { bg_json_key(j, k); bg_json_int(j, v); }
void bg_json_kuint(struct bg_json *j, const char *k, uint64_t v) { bg_json_key(j, k); bg_json_uint(j, v); }
void bg_json_kdouble(struct bg_json *j, const char *k, double v) { bg_json_key(j, k); bg_json_double(j, v); }
void bg_json_kbool(struct bg_json *j, const char *k, bool v) { bg_json_key(j, k); bg_json_bool(j, v); }
