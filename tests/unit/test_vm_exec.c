/* The dispatch loop restates ALU/JMP/END semantics inline for speed; this
 * test checks every handler against src/isa/exec.h (the one statement of
 * those facts) on boundary operands plus pseudo-random ones, for every
 * operation, width and operand form (register and immediate). */
/* min-pass: 104 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <stdint.h>
#include <string.h>
#include <bpfgate/insn.h>
#include <bpfgate/vm.h>
#include "isa/exec.h"
#include "test.h"

static const uint64_t edge[] = {
	0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256,
	0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe,
	0xffffffff, 0x100000000ull, 0x100000001ull, 0x7fffffffffffffffull,
	0x8000000000000000ull, 0x8000000000000001ull, 0xfffffffffffffffeull,
	0xffffffffffffffffull, 0xffffffff00000000ull, 0x00000000ffffffffull,
	0xdeadbeefcafebabeull, 0x123456789abcdef0ull, (uint64_t)-7, (uint64_t)-2,
};
#define NEDGE (sizeof(edge) / sizeof(edge[0]))
#define NRAND 300

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Operand pairs: edge x edge, then random (with small values mixed in). */
static size_t npairs;
static uint64_t pd[NEDGE * NEDGE + NRAND], ps[NEDGE * NEDGE + NRAND];

static void make_pairs(void)
{
	size_t i, j;

	for (i = 0; i < NEDGE; i++)
		for (j = 0; j < NEDGE; j++) {
			pd[npairs] = edge[i];
			ps[npairs++] = edge[j];
		}
	for (i = 0; i < NRAND; i++) {
		pd[npairs] = rnd() >> (rnd() & 63);
		ps[npairs++] = (i & 1) ? rnd() & 0x7f : rnd() >> (rnd() & 63);
	}
}

static struct bg_insn prog[8];

static void base(void)
{
	memset(prog, 0, sizeof(prog));
	/* r2 = *(u64 *)(r1 + 0); r3 = *(u64 *)(r1 + 8); <op>; r0 = r2 | result; exit */
	prog[0] = (struct bg_insn){ .kind = BG_K_LDX, .size = 8, .dst = 2, .src = 1, .target = -1 };
	prog[1] = (struct bg_insn){ .kind = BG_K_LDX, .size = 8, .dst = 3, .src = 1, .off = 8,
				    .target = -1 };
}

/* Run prog (n insns) on d, s; the program leaves its answer in r0. */
static int run(struct bg_vm *vm, uint64_t d, uint64_t s, uint64_t *r0)
{
	uint64_t m[2] = { d, s };

	bg_vm__set_ctx(vm, m, sizeof(m));
	return bg_vm__run(vm, r0);
}

static void test_alu(void)
{
	static const uint8_t ops[] = { BG_ALU_ADD, BG_ALU_SUB, BG_ALU_MUL, BG_ALU_DIV, BG_ALU_OR,
				       BG_ALU_AND, BG_ALU_LSH, BG_ALU_RSH, BG_ALU_MOD, BG_ALU_XOR,
				       BG_ALU_MOV, BG_ALU_ARSH, BG_ALU_NEG };
	size_t oi, k;
	int a64, reg, sg, ext;

	for (oi = 0; oi < sizeof(ops); oi++)
		for (a64 = 0; a64 < 2; a64++)
			for (sg = 0; sg < 2; sg++)
				for (ext = 0; ext < 4; ext++)
					for (reg = 0; reg < 2; reg++) {
		uint8_t op = ops[oi];
		uint8_t eb = ext == 0 ? 0 : ext == 1 ? 8 : ext == 2 ? 16 : 32;
		char name[96];
		size_t bad = 0, runs = 0;
		uint64_t bd = 0, bs = 0, got = 0, want = 0;

		if (sg && op != BG_ALU_DIV && op != BG_ALU_MOD)
			continue;
		if (eb && (op != BG_ALU_MOV || !reg || (!a64 && eb == 32)))
			continue;
		if (op == BG_ALU_NEG && reg)
			continue;
		for (k = 0; k < npairs; k++) {
			struct bg_vm_opts o = { .sz = sizeof(o), .no_sanitize = 1 };
			uint64_t s = reg ? ps[k] : (uint64_t)(int64_t)(int32_t)ps[k];
			struct bg_vm *vm;
			uint64_t r0;

			/* immediate forms: one program per distinct imm (edge values only) */
			if (!reg && k >= NEDGE * NEDGE)
				break;
			base();
			prog[2] = (struct bg_insn){ .kind = BG_K_ALU, .op = op, .alu64 = a64,
						    .src_is_reg = reg, .is_signed = sg, .off = sg,
						    .ext_bits = eb, .dst = 2, .src = 3,
						    .imm = (int32_t)ps[k], .target = -1 };
			prog[3] = (struct bg_insn){ .kind = BG_K_ALU, .op = BG_ALU_MOV, .alu64 = 1,
						    .src_is_reg = 1, .dst = 0, .src = 2, .target = -1 };
			prog[4] = (struct bg_insn){ .kind = BG_K_EXIT, .target = -1 };
			vm = bg_vm__new_insns(prog, 5, &o);
			if (!vm || run(vm, pd[k], ps[k], &r0)) {
				bad++;
				bg_vm__free(vm);
				continue;
			}
			bg_vm__free(vm);
			runs++;
			want = bg_alu_exec(op, a64, sg, eb, pd[k],
					   reg ? s : (a64 ? s : (uint32_t)s));
			if (r0 != want && !bad++) {
				bd = pd[k];
				bs = s;
				got = r0;
				want = bg_alu_exec(op, a64, sg, eb, pd[k], reg ? s : (a64 ? s : (uint32_t)s));
			}
		}
		snprintf(name, sizeof(name), "exec/alu op 0x%02x %s%s%s%s", op, a64 ? "64" : "32",
			 reg ? " reg" : " imm", sg ? " signed" : "", eb ? (eb == 8 ? " sx8" : eb == 16 ? " sx16" : " sx32") : "");
		T_CHECK(!bad && runs, name, "%zu of %zu differ, e.g. dst 0x%llx src 0x%llx: vm 0x%llx exec.h 0x%llx",
			bad, runs, (unsigned long long)bd, (unsigned long long)bs,
			(unsigned long long)got, (unsigned long long)want);
	}
}

static void test_end(void)
{
	static const uint8_t widths[] = { 16, 32, 64 };
	size_t w, k;
	int form;

	for (form = 0; form < 3; form++) /* to_le, to_be, bswap */
		for (w = 0; w < 3; w++) {
			struct bg_vm_opts o = { .sz = sizeof(o), .no_sanitize = 1 };
			struct bg_vm *vm;
			char name[64];
			size_t bad = 0;

			base();
			prog[2] = (struct bg_insn){ .kind = BG_K_END, .alu64 = form == 2,
						    .code = (uint8_t)((form == 2 ? BG_CLS_ALU64 : BG_CLS_ALU) |
								      BG_ALU_END | (form == 1 ? 0x08 : 0)),
						    .ext_bits = widths[w], .imm = widths[w], .dst = 2,
						    .target = -1 };
			prog[3] = (struct bg_insn){ .kind = BG_K_ALU, .op = BG_ALU_MOV, .alu64 = 1,
						    .src_is_reg = 1, .dst = 0, .src = 2, .target = -1 };
			prog[4] = (struct bg_insn){ .kind = BG_K_EXIT, .target = -1 };
			vm = bg_vm__new_insns(prog, 5, &o);
			for (k = 0; k < npairs; k++) {
				uint64_t r0 = 0;

				if (run(vm, pd[k], 0, &r0) ||
				    r0 != bg_end_exec(pd[k], widths[w], form != 0))
					bad++;
			}
			bg_vm__free(vm);
			snprintf(name, sizeof(name), "exec/end %s%u", form == 0 ? "le" : form == 1 ? "be" : "bswap",
				 widths[w]);
			T_CHECK(!bad, name, "%zu operands differ from exec.h", bad);
		}
}

static void test_jmp(void)
{
	static const uint8_t ops[] = { BG_JMP_JEQ, BG_JMP_JGT, BG_JMP_JGE, BG_JMP_JSET,
				       BG_JMP_JNE, BG_JMP_JSGT, BG_JMP_JSGE, BG_JMP_JLT,
				       BG_JMP_JLE, BG_JMP_JSLT, BG_JMP_JSLE };
	size_t oi, k;
	int a64, reg;

	for (oi = 0; oi < sizeof(ops); oi++)
		for (a64 = 0; a64 < 2; a64++)
			for (reg = 0; reg < 2; reg++) {
				char name[64];
				size_t bad = 0, runs = 0;

				for (k = 0; k < npairs; k++) {
					struct bg_vm_opts o = { .sz = sizeof(o), .no_sanitize = 1 };
					uint64_t s = reg ? ps[k] : (uint64_t)(int64_t)(int32_t)ps[k];
					struct bg_vm *vm;
					uint64_t r0 = 9;
					bool want;

					if (!reg && k >= NEDGE * NEDGE)
						break;
					base();
					/* r0 = 0; if r2 op r3/imm goto +1; exit; r0 = 1; exit */
					prog[2] = (struct bg_insn){ .kind = BG_K_ALU, .op = BG_ALU_MOV,
								    .alu64 = 1, .dst = 0, .target = -1 };
					prog[3] = (struct bg_insn){ .kind = BG_K_JCOND, .op = ops[oi],
								    .alu64 = a64, .src_is_reg = reg,
								    .dst = 2, .src = 3, .imm = (int32_t)ps[k],
								    .off = 1, .target = 5 };
					prog[4] = (struct bg_insn){ .kind = BG_K_EXIT, .target = -1 };
					prog[5] = (struct bg_insn){ .kind = BG_K_ALU, .op = BG_ALU_MOV,
								    .alu64 = 1, .dst = 0, .imm = 1,
								    .target = -1 };
					prog[6] = (struct bg_insn){ .kind = BG_K_EXIT, .target = -1 };
					vm = bg_vm__new_insns(prog, 7, &o);
					want = bg_jmp_exec(ops[oi], a64, pd[k], s);
					if (!vm || run(vm, pd[k], ps[k], &r0) || r0 != (uint64_t)want)
						bad++;
					runs++;
					bg_vm__free(vm);
				}
				snprintf(name, sizeof(name), "exec/jmp op 0x%02x %s%s", ops[oi],
					 a64 ? "64" : "32", reg ? " reg" : " imm");
				T_CHECK(!bad && runs, name, "%zu of %zu differ from exec.h", bad, runs);
			}
}

int main(void)
{
	make_pairs();
	test_alu();
	test_end();
	test_jmp();
	T_EXIT();
}
