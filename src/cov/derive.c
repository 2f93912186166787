/* From counters to counts. Only some blocks carry a counter (see
 * instrument.c): the rest take the count of their only incoming edge, and a
 * fall-through edge is its jump's block count minus the taken count. The
 * sources of every derived value precede it in slot order, so one forward
 * sweep computes them all. A block left early (tail call, LD_ABS beyond the
 * packet) counts as fully run: the counts are those of block entries. */
#include <errno.h>
#include <stdlib.h>
#include "cov/cov_int.h"

int cov_derive(const struct bg_cov *c, struct cov_counts *out)
{
	size_t n = c->n_old ? c->n_old : 1;

	out->block = calloc(n, sizeof(uint64_t));
	out->taken = calloc(n, sizeof(uint64_t));
	out->not_taken = calloc(n, sizeof(uint64_t));
	if (!out->block || !out->taken || !out->not_taken) {
		cov_counts_free(out);
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->n_old; i++) {
		const struct cov_src *s = &c->src[i];
		size_t b = c->block_of[i];

		if (b == i) { /* a leader */
			switch (s->via) {
			case VIA_CTR: out->block[i] = c->counts[s->ctr]; break;
			case VIA_TAKEN: out->block[i] = out->taken[s->from]; break;
			case VIA_NOT_TAKEN: out->block[i] = out->not_taken[s->from]; break;
			case VIA_BLOCK: out->block[i] = out->block[s->from]; break;
			default: break;
			}
		} else {
			out->block[i] = out->block[b];
		}
		if (c->taken_ctr[i] >= 0) {
			uint64_t t = c->counts[c->taken_ctr[i]];

			out->taken[i] = t;
			out->not_taken[i] = out->block[i] >= t ? out->block[i] - t : 0;
		}
	}
	return 0;
}

void cov_counts_free(struct cov_counts *cc)
{
	free(cc->block);
	free(cc->taken);
	free(cc->not_taken);
	cc->block = cc->taken = cc->not_taken = NULL;
}
