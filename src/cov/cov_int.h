/* Internal state of coverage: the instrumentation of one program and the
 * facts about its original code the report needs. */
#ifndef BG_COV_INT_H
#define BG_COV_INT_H
#include <stdbool.h>
#include <bpfgate/cov.h>
#include <bpfgate/insn.h>

struct cov_func {
	char *name;
	size_t start;                 /* original slot */
};

/* How a block's count is known: its own counter, or from its only incoming
 * edge (a taken or fall-through edge of a conditional jump, or the one exit
 * of an earlier block). Sources always precede the block in slot order. */
enum cov_via { VIA_NONE = 0, VIA_CTR, VIA_TAKEN, VIA_NOT_TAKEN, VIA_BLOCK };
struct cov_src {
	uint8_t via;
	int32_t ctr;                  /* VIA_CTR: counter index */
	size_t from;                  /* VIA_TAKEN/NOT_TAKEN: jump slot; VIA_BLOCK: leader */
};

struct bg_cov {
	struct bg_program *prog;      /* instrumented in place, not owned */
	char *prog_name;
	int map_idx;
	size_t n_old, n_new, spills;
	struct bg_insn *old;          /* original decoded program */
	struct bg_line *line;         /* per original slot (file NULL: none), copied */
	struct bg_cov_counter *ctr;
	size_t nctr;
	uint64_t *counts;
	struct cov_func *fn;
	size_t nfn;
	struct cov_src *src;          /* per original slot; leaders only */
	int32_t *taken_ctr;           /* per original slot: a jump's taken counter, or -1 */
	size_t *block_of;             /* per original slot: leader of its block */
	size_t *new_to_old;           /* per instrumented slot: the original slot it counts or is */
};

/* src/cov/derive.c: counts of every block and branch from the counters. */
struct cov_counts {
	uint64_t *block;              /* per original slot: runs of its block */
	uint64_t *taken, *not_taken;  /* per original slot (conditional jumps) */
};
int cov_derive(const struct bg_cov *c, struct cov_counts *out);
void cov_counts_free(struct cov_counts *cc);

/* src/cov/flow.c: per-slot register facts of the original program. */
struct cov_flow {
	uint16_t *live_in;            /* registers read later before being written */
	uint16_t *init_out;           /* registers written on every path to the slot's end */
	uint16_t *init_in;
	bool *leader;                 /* first slot of a basic block */
	int32_t *func_of;             /* index of the function holding the slot */
	size_t *starts;               /* function start slots, ascending */
	size_t nstarts;
	int *frame_min;               /* per function: lowest r10 offset used, 1: unknown */
};
int cov_flow_build(const struct bg_insn *in, size_t n, struct cov_flow *f);
void cov_flow_free(struct cov_flow *f);
#endif
