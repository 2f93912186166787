/* Editing prepared programs: appending a map and replacing a program's
 * instructions with a rewritten version (coverage instrumentation). The
 * invariant kept: every per-slot fact (line of, func info, line info,
 * subprogram pieces, CO-RE failures) refers to the new slot numbering. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include "obj/internal.h"

int bg_object__add_map(struct bg_object *obj, const struct bg_map_def *def)
{
	struct bg_map_def *m;
	int err;

	if (!obj || !def)
		return -EINVAL;
	err = add_map(obj, def->name, 0, &m);
	if (err)
		return err;
	{
		const char *name = m->name;

		*m = *def;
		m->name = name;
		m->inner_map = def->inner_map;
		m->inner_of = -1;
	}
	return (int)obj->nmaps - 1;
}

int bg_program__set_insns(struct bg_program *p, const struct bg_raw_insn *raw, size_t n,
			  const size_t *old_to_new)
{
	struct bg_raw_insn *nraw;
	struct bg_insn *ninsns;
	int32_t *nline = NULL;
	size_t bad;
	const char *why;

	if (!p || !raw || !n || !old_to_new)
		return -EINVAL;
	for (size_t i = 0; i < p->n; i++)
		if (old_to_new[i] >= n || (i && old_to_new[i] < old_to_new[i - 1]))
			return -EINVAL;
	nraw = malloc(n * sizeof(*nraw));
	ninsns = calloc(n, sizeof(*ninsns));
	if (p->line_of)
		nline = malloc(n * sizeof(*nline));
	if (!nraw || !ninsns || (p->line_of && !nline))
		goto nomem;
	memcpy(nraw, raw, n * sizeof(*nraw));
	if (bg_prog_decode(nraw, n, ninsns, &bad, &why) < 0) {
		free(nraw);
		free(ninsns);
		free(nline);
		return -EINVAL;
	}
	for (size_t i = 0; nline && i < p->n; i++) {
		size_t end = i + 1 < p->n ? old_to_new[i + 1] : n;

		for (size_t k = old_to_new[i]; k < end; k++)
			nline[k] = p->line_of[i];
		if (i == 0)
			for (size_t k = 0; k < old_to_new[0]; k++)
				nline[k] = p->line_of[0];
	}
	for (size_t i = 0; i < p->nkfi; i++)
		p->kfi[i].insn_off = old_to_new[p->kfi[i].insn_off];
	for (size_t i = 0; i < p->nkli; i++)
		p->kli[i].insn_off = old_to_new[p->kli[i].insn_off];
	for (size_t i = 0; i < p->nfuncs; i++)
		p->funcs[i].insn = old_to_new[p->funcs[i].insn];
	for (size_t i = 0; i < p->nfails; i++)
		p->fails[i].insn = old_to_new[p->fails[i].insn];
	for (size_t i = 0; i < p->npieces; i++)
		p->pieces[i].at = old_to_new[p->pieces[i].at];
	for (size_t i = 0; i < p->nasserts; i++) { /* the marker: within old insn's new code */
		size_t o = p->asserts[i].insn, k = old_to_new[o];
		size_t end = o + 1 < p->n ? old_to_new[o + 1] : n;
		while (k + 1 < end && memcmp(&nraw[k], &p->raw[o], sizeof(*nraw)))
			k++;
		p->asserts[i].insn = k;
	}
	free(p->raw);
	free(p->insns);
	free(p->line_of);
	p->raw = nraw;
	p->insns = ninsns;
	p->line_of = nline;
	p->n = n;
	return 0;
nomem:
	free(nraw);
	free(ninsns);
	free(nline);
	return -ENOMEM;
}
