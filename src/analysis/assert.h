/* Per-instruction assertion lists (checks.def): built once per program from
 * the instructions, evaluated on the incoming abstract state before each
 * transfer, printed by `bpfgate check -v`. Internal to src/analysis. */
#ifndef BG_ANALYSIS_ASSERT_H
#define BG_ANALYSIS_ASSERT_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum asrt_id {
#define CHECK(id, name, fn, what) id,
#include "analysis/checks.def"
#undef CHECK
	A__MAX,
};

#define AF_WRITE 0x01 /* A_MEM: a store (else a load); both bits: read-modify-write */
#define AF_READ 0x02

struct assertion {
	uint8_t id;    /* enum asrt_id */
	uint8_t reg;   /* the register it concerns */
	uint8_t size;  /* A_MEM: access size */
	uint8_t flags; /* AF_* */
	int16_t off;   /* A_MEM: offset */
	uint8_t passed;/* a rule of the instruction and program alone (rule_static) held here once */
};

struct vctx;
struct as_state;

/* Build the lists of every instruction (v->asrt, v->asrt_at). -ENOMEM or 0. */
int asrt_build(struct vctx *v);
void asrt_free(struct vctx *v);
/* Evaluate the assertions of insn pc that have a rule, in order, on s.
 * Returns 0, or -1 after verr() for the first that fails. */
int asrt_check(struct vctx *v, struct as_state *s, size_t pc);
/* "  checks: init(r1) mem(r1+0,4,read)" on one line. */
void asrt_print(const struct vctx *v, size_t pc, FILE *f);
/* Name of an assertion (checks.def). */
const char *asrt_name(unsigned id);
#endif
