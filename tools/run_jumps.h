/* bpfgate run: conditional jumps executed and taken per slot (through the
 * interpreter's per-instruction hook) and how often each branch hint of the
 * object was right. A jump is taken when the next instruction executed is
 * its target (a target of pc+1 counts as not taken). Pcs outside the
 * program (tail calls) are ignored. */
#ifndef BG_TOOLS_RUN_JUMPS_H
#define BG_TOOLS_RUN_JUMPS_H
#include <stddef.h>
#include <stdint.h>
#include <bpfgate/object.h>

struct bg_json;

struct run_jumps {
	const struct bg_insn *in;
	size_t n;
	long last; /* slot of the previous insn when it was a conditional jump, else -1 */
	uint64_t *exec, *taken; /* per slot */
};

int run_jumps_init(struct run_jumps *r, const struct bg_program *p);
void run_jumps_hook(void *cookie, size_t pc, const uint64_t regs[11]);
void run_jumps_end_run(struct run_jumps *r);
/* Members "cond_jumps", "taken_jumps", "per_run" and "hints" of the open object. */
void run_jumps_json(const struct run_jumps *r, const struct bg_program *p, uint64_t runs,
		    uint64_t insns, struct bg_json *j);
void run_jumps_free(struct run_jumps *r);
#endif
