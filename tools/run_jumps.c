/* Jump statistics of bpfgate run (see run_jumps.h). */
#include <stdlib.h>
#include <bpfgate/insn.h>
#include "bg_json.h"
#include "hints_cli.h"
#include "run_jumps.h"

int run_jumps_init(struct run_jumps *r, const struct bg_program *p)
{
	r->in = bg_program__insns(p, &r->n);
	r->last = -1;
	r->exec = calloc(r->n ? r->n : 1, sizeof(uint64_t));
	r->taken = calloc(r->n ? r->n : 1, sizeof(uint64_t));
	return r->exec && r->taken ? 0 : -1;
}

void run_jumps_hook(void *cookie, size_t pc, const uint64_t regs[11])
{
	struct run_jumps *r = cookie;

	(void)regs;
	if (r->last >= 0 && (long)pc != r->last + 1 && (long)pc == r->in[r->last].target)
		r->taken[r->last]++;
	r->last = -1;
	if (pc < r->n && r->in[pc].kind == BG_K_JCOND) {
		r->exec[pc]++;
		r->last = (long)pc;
	}
}

void run_jumps_end_run(struct run_jumps *r)
{
	r->last = -1;
}

static void hints_json(const struct run_jumps *r, const struct bg_program *p, struct bg_json *j)
{
	struct bg_hint *h = NULL;
	char err[512] = "";
	int nh = bg_program__hints(p, &h, err, sizeof(err));

	bg_json_key(j, "hints");
	bg_json_arr_begin(j);
	for (int i = 0; i < nh; i++) {
		size_t s = h[i].insn;
		int predicts_taken = cli_hint_p(&h[i]) >= 0.5;

		bg_json_obj_begin(j);
		bg_json_kuint(j, "insn", s);
		bg_json_kstr(j, "file", h[i].file);
		bg_json_kuint(j, "line", h[i].line);
		bg_json_kdouble(j, "p_taken", cli_hint_p(&h[i]));
		bg_json_kstr(j, "source", bg_hint_source_name(h[i].source));
		bg_json_kuint(j, "executed", r->exec[s]);
		bg_json_kuint(j, "taken", r->taken[s]);
		bg_json_kuint(j, "right", predicts_taken ? r->taken[s] : r->exec[s] - r->taken[s]);
		bg_json_obj_end(j);
	}
	bg_json_arr_end(j);
	free(h);
}

void run_jumps_json(const struct run_jumps *r, const struct bg_program *p, uint64_t runs,
		    uint64_t insns, struct bg_json *j)
{
	uint64_t ex = 0, tk = 0;

	for (size_t i = 0; i < r->n; i++) {
		ex += r->exec[i];
		tk += r->taken[i];
	}
	bg_json_kuint(j, "cond_jumps", ex);
	bg_json_kuint(j, "taken_jumps", tk);
	bg_json_key(j, "per_run");
	bg_json_obj_begin(j);
	bg_json_kdouble(j, "insns", runs ? (double)insns / (double)runs : 0);
	bg_json_kdouble(j, "cond_jumps", runs ? (double)ex / (double)runs : 0);
	bg_json_kdouble(j, "taken_jumps", runs ? (double)tk / (double)runs : 0);
	bg_json_obj_end(j);
	hints_json(r, p, j);
}

void run_jumps_free(struct run_jumps *r)
{
	free(r->exec);
	free(r->taken);
}
