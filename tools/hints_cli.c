/* Branch hints in the CLI (see hints_cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include "bg_json.h"
#include "hints_cli.h"
#include "cli.h"

const struct bg_hint **cli_hints_by_slot(const struct bg_program *prog, size_t n,
					 struct bg_hint **store)
{
	char err[512] = "";
	int nh = bg_program__hints(prog, store, err, sizeof(err));
	const struct bg_hint **by;

	if (nh < 0)
		fprintf(stderr, "bpfgate: %s (hints ignored)\n", cli_safe(err));
	if (nh <= 0)
		return NULL;
	by = calloc(n ? n : 1, sizeof(*by));
	for (int i = 0; by && i < nh; i++)
		if ((*store)[i].insn < n)
			by[(*store)[i].insn] = &(*store)[i];
	return by;
}

double cli_hint_p(const struct bg_hint *h)
{
	return h->taken / 2147483648.0;
}

void cli_hint_text(const struct bg_hint *h, char *buf, size_t sz)
{
	double p = cli_hint_p(h);

	snprintf(buf, sz, "%s %.2f (%s)",
		 p >= 0.8   ? "likely taken"
		 : p <= 0.2 ? "unlikely taken"
			    : "taken",
		 p, bg_hint_source_name(h->source));
}

void cli_hint_json(struct bg_json *j, const struct bg_hint *h)
{
	bg_json_key(j, "hint");
	bg_json_obj_begin(j);
	bg_json_kdouble(j, "taken", cli_hint_p(h));
	bg_json_kstr(j, "source", bg_hint_source_name(h->source));
	bg_json_kstr(j, "file", h->file);
	bg_json_kuint(j, "line", h->line);
	bg_json_kuint(j, "col", h->col);
	bg_json_obj_end(j);
}

void cli_hints_json(struct bg_json *j, const struct bg_program *prog)
{
	struct bg_hint *h = NULL;
	char err[512] = "";
	int n = bg_program__hints(prog, &h, err, sizeof(err));

	if (n < 0)
		fprintf(stderr, "bpfgate: %s (hints ignored)\n", cli_safe(err));
	if (n <= 0)
		return;
	bg_json_key(j, "hints");
	bg_json_arr_begin(j);
	for (int i = 0; i < n; i++) {
		bg_json_obj_begin(j);
		bg_json_kuint(j, "insn", h[i].insn);
		bg_json_kdouble(j, "p_taken", cli_hint_p(&h[i]));
		bg_json_kstr(j, "source", bg_hint_source_name(h[i].source));
		bg_json_kstr(j, "file", h[i].file);
		bg_json_kuint(j, "line", h[i].line);
		bg_json_kuint(j, "col", h[i].col);
		bg_json_obj_end(j);
	}
	bg_json_arr_end(j);
	free(h);
}
