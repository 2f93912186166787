/* Unit tests of the interpreter on hand-built decoded instructions (no
 * assembler needed): ALU edge cases, memory model and sanitizer reports,
 * frames, may_goto, atomics, budget, hook. Programs that need the
 * assembler or objects are covered by test_vm_conformance and vm.test.sh. */
/* min-pass: 58 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpfgate/vm.h>
#include "test.h"

#define MAXI 64
static struct bg_insn prog[MAXI];
static size_t np;

static void reset(void) { memset(prog, 0, sizeof(prog)); np = 0; }

static struct bg_insn *add(enum bg_insn_kind k)
{
	struct bg_insn *i = &prog[np++];

	i->kind = k;
	i->target = -1;
	i->slots = 1;
	return i;
}
static void alu(uint8_t op, bool a64, uint8_t dst, bool reg, uint8_t src, int32_t imm)
{
	struct bg_insn *i = add(BG_K_ALU);

	i->op = op; i->alu64 = a64; i->dst = dst; i->src_is_reg = reg; i->src = src; i->imm = imm;
}
static void sdivmod(uint8_t op, bool a64, uint8_t dst, uint8_t src)
{
	alu(op, a64, dst, true, src, 0);
	prog[np - 1].is_signed = true;
	prog[np - 1].off = 1;
}
static void lddw(uint8_t dst, uint64_t v)
{
	struct bg_insn *i = add(BG_K_LD_IMM64);

	i->dst = dst; i->imm64 = v; i->imm = (int32_t)v; i->slots = 2;
	add(BG_K_LD_IMM64_HI);
}
static void mem(enum bg_insn_kind k, uint8_t size, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	struct bg_insn *i = add(k);

	i->size = size; i->dst = dst; i->src = src; i->off = off; i->imm = imm;
}
static void jmp(uint8_t op, bool a64, uint8_t dst, bool reg, uint8_t src, int32_t imm, int32_t target)
{
	struct bg_insn *i = add(BG_K_JCOND);

	i->op = op; i->alu64 = a64; i->dst = dst; i->src_is_reg = reg; i->src = src; i->imm = imm;
	i->target = target;
}
static void ja(int32_t target) { add(BG_K_JA)->target = target; }
static void ex(void) { add(BG_K_EXIT); }
static void call_local(int32_t target)
{
	struct bg_insn *i = add(BG_K_CALL);

	i->pseudo = BG_CALL_LOCAL; i->target = target; i->src = 1;
}
static void atomic(uint8_t size, uint16_t aop, uint8_t dst, uint8_t src, int16_t off)
{
	struct bg_insn *i = add(BG_K_ATOMIC);

	i->size = size; i->atomic_op = aop; i->dst = dst; i->src = src; i->off = off;
}

static int run(int sanitize, const void *memb, size_t memlen, uint64_t *r0,
	       struct bg_vm **keep)
{
	struct bg_vm_opts o = { .sz = sizeof(o), .no_sanitize = !sanitize, .insn_budget = 100000 };
	struct bg_vm *vm = bg_vm__new_insns(prog, np, &o);
	int err;

	if (!vm)
		return -ENOMEM;
	if (memlen)
		bg_vm__set_ctx(vm, memb, memlen);
	err = bg_vm__run(vm, r0);
	if (keep)
		*keep = vm;
	else
		bg_vm__free(vm);
	return err;
}

static void expect(const char *name, uint64_t want)
{
	uint64_t r0 = 0;
	int s;

	for (s = 0; s < 2; s++) {
		char n[128];
		int err = run(s, NULL, 0, &r0, NULL);

		snprintf(n, sizeof(n), "%s%s", name, s ? "" : "/nosan");
		T_CHECK(!err && r0 == want, n, "err %d r0 0x%llx want 0x%llx", err,
			(unsigned long long)r0, (unsigned long long)want);
	}
}

static void expect_fault(const char *name, enum bg_vm_fault_kind kind, const char *pat)
{
	struct bg_vm *vm = NULL;
	uint64_t r0;
	int err = run(1, NULL, 0, &r0, &vm);
	const struct bg_vm_fault *f = bg_vm__fault(vm);

	T_CHECK(err && f && f->kind == kind && (!pat || strstr(f->msg, pat)), name,
		"err %d kind %d msg '%s'", err, f ? (int)f->kind : -1, f ? f->msg : "");
	bg_vm__free(vm);
}

static void test_alu(void)
{
	reset(); alu(BG_ALU_MOV, 1, 0, 0, 0, -1); alu(BG_ALU_DIV, 1, 0, 0, 0, 0); ex();
	expect("div64 by zero imm gives 0", 0);
	reset(); alu(BG_ALU_MOV, 1, 0, 0, 0, 7); alu(BG_ALU_MOV, 1, 1, 0, 0, 0);
	alu(BG_ALU_MOD, 1, 0, 1, 1, 0); ex();
	expect("mod64 by zero keeps dst", 7);
	reset(); lddw(0, 0xffffffff00000007ull); alu(BG_ALU_MOV, 1, 1, 0, 0, 0);
	alu(BG_ALU_MOD, 0, 0, 1, 1, 0); ex();
	expect("mod32 by zero zero-extends dst", 7);
	reset(); lddw(0, 0x8000000000000000ull); alu(BG_ALU_MOV, 1, 1, 0, 0, -1);
	sdivmod(BG_ALU_DIV, 1, 0, 1); ex();
	expect("sdiv64 INT64_MIN / -1 wraps", 0x8000000000000000ull);
	reset(); alu(BG_ALU_MOV, 1, 0, 0, 0, -7); alu(BG_ALU_MOV, 1, 1, 0, 0, 2);
	sdivmod(BG_ALU_MOD, 1, 0, 1); ex();
	expect("smod64 sign follows dividend", (uint64_t)-1);
	reset(); alu(BG_ALU_MOV, 1, 0, 0, 0, 1); alu(BG_ALU_MOV, 1, 1, 0, 0, 65);
	alu(BG_ALU_LSH, 1, 0, 1, 1, 0); ex();
	expect("lsh64 masks the shift amount", 2);
	reset(); alu(BG_ALU_MOV, 1, 0, 0, 0, 1); alu(BG_ALU_MOV, 1, 1, 0, 0, 33);
	alu(BG_ALU_LSH, 0, 0, 1, 1, 0); ex();
	expect("lsh32 masks the shift amount", 2);
	reset(); alu(BG_ALU_MOV, 1, 0, 0, 0, -16); alu(BG_ALU_ARSH, 0, 0, 0, 0, 2); ex();
	expect("arsh32 sign-extends in 32 bits then zero-extends", 0xfffffffcull);
	reset(); alu(BG_ALU_MOV, 1, 0, 0, 0, -1); alu(BG_ALU_ADD, 0, 0, 0, 0, 1); ex();
	expect("add32 wraps and zero-extends", 0);
	reset(); alu(BG_ALU_MOV, 1, 0, 0, 0, 5); alu(BG_ALU_NEG, 1, 0, 0, 0, 0); ex();
	expect("neg64", (uint64_t)-5);
	reset(); alu(BG_ALU_MOV, 1, 1, 0, 0, 0x80); alu(BG_ALU_MOV, 1, 0, 1, 1, 0);
	prog[np - 1].ext_bits = 8; ex();
	expect("movsx64 s8", (uint64_t)-128);
	reset(); lddw(0, 0x1122334455667788ull);
	{ struct bg_insn *i = add(BG_K_END); i->dst = 0; i->ext_bits = 16; i->src_is_reg = 1; }
	ex();
	expect("be16 swaps and truncates", 0x8877);
	reset(); lddw(0, 0x1122334455667788ull);
	{ struct bg_insn *i = add(BG_K_END); i->dst = 0; i->ext_bits = 32; }
	ex();
	expect("le32 truncates", 0x55667788);
}

static void test_jumps_calls(void)
{
	/* 0: r0 = 0; 1: r0 += 1; 2: if r0 < 10 goto 1; 3: exit */
	reset(); alu(BG_ALU_MOV, 1, 0, 0, 0, 0); alu(BG_ALU_ADD, 1, 0, 0, 0, 1);
	jmp(BG_JMP_JLT, 1, 0, 0, 0, 10, 1); ex();
	expect("loop to 10", 10);
	/* signed 32-bit compare: w0 = -1 ; if w0 s< 0 goto 3 */
	reset(); alu(BG_ALU_MOV, 1, 0, 0, 0, -1); jmp(BG_JMP_JSLT, 0, 0, 0, 0, 0, 4);
	alu(BG_ALU_MOV, 1, 0, 0, 0, 1); ex(); alu(BG_ALU_MOV, 1, 0, 0, 0, 2); ex();
	expect("jslt32", 2);
	/* local call: r6 preserved, callee returns 5 */
	reset(); alu(BG_ALU_MOV, 1, 6, 0, 0, 40); call_local(4); alu(BG_ALU_ADD, 1, 0, 1, 6, 0);
	ex(); alu(BG_ALU_MOV, 1, 6, 0, 0, 99); alu(BG_ALU_MOV, 1, 0, 0, 0, 5); ex();
	expect("local call preserves r6", 45);
	/* infinite recursion: fault after 8 frames */
	reset(); call_local(0); ex();
	expect_fault("call depth limit", BG_VM_FAULT_STACK_DEPTH, "8 frames");
	/* infinite loop: budget */
	reset(); ja(0);
	expect_fault("instruction budget", BG_VM_FAULT_BUDGET, "budget");
	/* may_goto: loop until the counter says stop */
	reset(); alu(BG_ALU_MOV, 1, 0, 0, 0, 0);
	{ struct bg_insn *i = add(BG_K_MAY_GOTO); i->target = 4; }
	alu(BG_ALU_ADD, 1, 0, 0, 0, 1); ja(1); ex();
	{
		struct bg_vm_opts o = { .sz = sizeof(o), .insn_budget = 1ull << 28 };
		struct bg_vm *vm = bg_vm__new_insns(prog, np, &o);
		uint64_t r0 = 0;
		int err = bg_vm__run(vm, &r0);

		T_CHECK(!err && r0 == 8u * 1024 * 1024, "may_goto budget is 8M", "err %d r0 %llu",
			err, (unsigned long long)r0);
		bg_vm__free(vm);
	}
	/* falling off the end */
	reset(); alu(BG_ALU_MOV, 1, 0, 0, 0, 0);
	expect_fault("falling off the end", BG_VM_FAULT_INSN, "invalid");
}

static void test_memory(void)
{
	uint8_t m[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint64_t r0;
	int err;
	struct bg_vm *vm;
	const struct bg_vm_fault *f;

	/* stack store/load */
	reset(); alu(BG_ALU_MOV, 1, 1, 0, 0, 0x1234);
	mem(BG_K_STX, 8, 10, 1, -8, 0); mem(BG_K_LDX, 2, 0, 10, -8, 0); ex();
	expect("stack store and load", 0x1234);
	/* uninitialized stack read */
	reset(); mem(BG_K_LDX, 4, 0, 10, -16, 0); ex();
	expect_fault("uninit stack read reported", BG_VM_FAULT_UNINIT, "fp-16");
	/* beyond the frame (r10 + 0) */
	reset(); mem(BG_K_LDX, 8, 0, 10, 0, 0); ex();
	expect_fault("load past the stack top", BG_VM_FAULT_MEM, "past the end of stack");
	/* memory region load and bounds */
	reset(); mem(BG_K_LDX, 4, 0, 1, 4, 0); ex();
	err = run(1, m, sizeof(m), &r0, NULL);
	T_CHECK(!err && r0 == 0x08070605, "load from memory region", "err %d r0 %llx", err,
		(unsigned long long)r0);
	reset(); mem(BG_K_LDX, 4, 0, 1, 6, 0); ex();
	err = run(1, m, sizeof(m), &r0, &vm);
	f = bg_vm__fault(vm);
	T_CHECK(err && f && f->kind == BG_VM_FAULT_MEM && f->pc == 0 && f->region &&
			!strcmp(f->region, "memory") && f->region_hi - f->region_lo == 8,
		"out-of-bounds load names region and bounds", "%s", f ? f->msg : "no fault");
	bg_vm__free(vm);
	/* wild pointer: no sanitize still never touches the host */
	reset(); lddw(1, 0x1000); mem(BG_K_STX, 8, 1, 1, 0, 0); ex();
	err = run(0, NULL, 0, &r0, &vm);
	f = bg_vm__fault(vm);
	T_CHECK(err && f && f->kind == BG_VM_FAULT_MEM, "wild store stopped without sanitizing",
		"err %d", err);
	bg_vm__free(vm);
	/* ST imm then sign-extending load */
	reset(); mem(BG_K_ST, 1, 10, 0, -1, 0xf0); mem(BG_K_LDX, 1, 0, 10, -1, 0);
	prog[np - 1].is_signed = true; ex();
	expect("ldxsb sign-extends", (uint64_t)(int64_t)(int8_t)0xf0);
}

static void test_atomics(void)
{
	/* *(u64 *)(r10-8) = 10; r1 = 5; lock fetch_add -> r1 = 10, mem = 15; r0 = mem + r1 */
	reset(); mem(BG_K_ST, 8, 10, 0, -8, 10); alu(BG_ALU_MOV, 1, 1, 0, 0, 5);
	atomic(8, BG_ATOMIC_ADD | BG_ATOMIC_FETCH, 10, 1, -8); mem(BG_K_LDX, 8, 0, 10, -8, 0);
	alu(BG_ALU_ADD, 1, 0, 1, 1, 0); ex();
	expect("atomic fetch_add", 25);
	/* cmpxchg success: r0 == mem */
	reset(); mem(BG_K_ST, 8, 10, 0, -8, 3); alu(BG_ALU_MOV, 1, 0, 0, 0, 3);
	alu(BG_ALU_MOV, 1, 1, 0, 0, 9); atomic(8, BG_ATOMIC_CMPXCHG, 10, 1, -8);
	mem(BG_K_LDX, 8, 2, 10, -8, 0); alu(BG_ALU_LSH, 1, 2, 0, 0, 8);
	alu(BG_ALU_OR, 1, 0, 1, 2, 0); ex();
	expect("cmpxchg64 success", 0x903);
	/* cmpxchg32 failure compares the low 32 bits only and zero-extends r0 */
	reset(); mem(BG_K_ST, 4, 10, 0, -8, 3); lddw(0, 0x100000004ull);
	alu(BG_ALU_MOV, 1, 1, 0, 0, 9); atomic(4, BG_ATOMIC_CMPXCHG, 10, 1, -8); ex();
	expect("cmpxchg32 failure loads old value", 3);
	/* xchg */
	reset(); mem(BG_K_ST, 4, 10, 0, -4, 7); alu(BG_ALU_MOV, 1, 1, 0, 0, 1);
	atomic(4, BG_ATOMIC_XCHG, 10, 1, -4); mem(BG_K_LDX, 4, 0, 10, -4, 0);
	alu(BG_ALU_LSH, 1, 1, 0, 0, 4); alu(BG_ALU_OR, 1, 0, 1, 1, 0); ex();
	expect("xchg32", 0x71);
}

static uint64_t hook_calls;
static void hook(void *cookie, size_t pc, const uint64_t regs[11])
{
	(void)cookie; (void)pc; (void)regs;
	hook_calls++;
}

static void test_hook(void)
{
	struct bg_vm_opts o = { .sz = sizeof(o), .hook = hook };
	struct bg_vm *vm;
	uint64_t r0 = 0;
	int err;

	reset(); alu(BG_ALU_MOV, 1, 0, 0, 0, 0); alu(BG_ALU_ADD, 1, 0, 0, 0, 1);
	jmp(BG_JMP_JLT, 1, 0, 0, 0, 10, 1); ex();
	vm = bg_vm__new_insns(prog, np, &o);
	err = bg_vm__run(vm, &r0);
	T_CHECK(!err && r0 == 10 && hook_calls == bg_vm__insn_count(vm) && hook_calls == 22,
		"hook called once per executed instruction", "calls %llu count %llu",
		(unsigned long long)hook_calls, (unsigned long long)bg_vm__insn_count(vm));
	bg_vm__free(vm);
}

/* Run the program as prog type t on a 60-byte packet. */
static int run_ctx(uint32_t t, uint64_t *r0, struct bg_vm **keep)
{
	struct bg_vm_opts o = { .sz = sizeof(o), .prog_type = t };
	struct bg_vm *vm = bg_vm__new_insns(prog, np, &o);
	uint8_t pkt[60] = { [12] = 0x08, [13] = 0x00 };
	int err;

	bg_vm__set_packet(vm, pkt, sizeof(pkt));
	err = bg_vm__run(vm, r0);
	*keep = vm;
	return err;
}

static void ctx_fault_case(const char *name, uint32_t t, const char *pat)
{
	struct bg_vm *vm;
	uint64_t r0;
	int err = run_ctx(t, &r0, &vm);
	const struct bg_vm_fault *f = bg_vm__fault(vm);

	T_CHECK(err && f && f->kind == BG_VM_FAULT_CTX && strstr(f->msg, pat), name,
		"err %d msg '%s'", err, f ? f->msg : "");
	bg_vm__free(vm);
}

static void test_ctx(void)
{
	struct bg_vm *vm;
	uint64_t r0 = 0;
	int err;

	/* data_end - data through the 32-bit ctx fields */
	reset(); mem(BG_K_LDX, 4, 2, 1, 0, 0); mem(BG_K_LDX, 4, 0, 1, 4, 0);
	alu(BG_ALU_SUB, 1, 0, 1, 2, 0); ex();
	err = run_ctx(BPF_PROG_TYPE_XDP, &r0, &vm);
	T_CHECK(!err && r0 == 60, "xdp data/data_end load as pointers", "err %d r0 %llu", err,
		(unsigned long long)r0);
	bg_vm__free(vm);
	reset(); mem(BG_K_LDX, 2, 0, 1, 0, 0); ex();
	ctx_fault_case("partial load of xdp_md->data", BPF_PROG_TYPE_XDP, "loaded whole");
	reset(); mem(BG_K_LDX, 4, 0, 1, 2, 0); ex();
	ctx_fault_case("misaligned ctx load", BPF_PROG_TYPE_XDP, "misaligned");
	reset(); mem(BG_K_LDX, 4, 0, 1, 24, 0); ex();
	{
		const struct bg_vm_fault *f;

		err = run_ctx(BPF_PROG_TYPE_XDP, &r0, &vm);
		f = bg_vm__fault(vm);
		T_CHECK(err && f && strstr(f->msg, "(ctx+24) is 0 bytes past the end of ctx") &&
				f->region_hi - f->region_lo == 24,
			"load past the end of xdp_md", "%s", f ? f->msg : "no fault");
		bg_vm__free(vm);
	}
	reset(); mem(BG_K_ST, 4, 1, 0, 12, 5); alu(BG_ALU_MOV, 1, 0, 0, 0, 0); ex();
	ctx_fault_case("store to xdp_md", BPF_PROG_TYPE_XDP, "read-only");
	reset(); mem(BG_K_ST, 4, 1, 0, 0, 5); alu(BG_ALU_MOV, 1, 0, 0, 0, 0); ex();
	ctx_fault_case("store to __sk_buff->len", BPF_PROG_TYPE_SCHED_CLS, "read-only");
	/* __sk_buff: mark is writable, len and protocol computed */
	reset(); mem(BG_K_ST, 4, 1, 0, 8, 7); mem(BG_K_LDX, 4, 0, 1, 8, 0);
	mem(BG_K_LDX, 4, 2, 1, 0, 0); alu(BG_ALU_LSH, 1, 2, 0, 0, 8); alu(BG_ALU_OR, 1, 0, 1, 2, 0);
	mem(BG_K_LDX, 4, 2, 1, 16, 0); alu(BG_ALU_LSH, 1, 2, 0, 0, 16); alu(BG_ALU_OR, 1, 0, 1, 2, 0);
	ex();
	err = run_ctx(BPF_PROG_TYPE_SCHED_CLS, &r0, &vm);
	T_CHECK(!err && r0 == (7 | 60 << 8 | 0x0008ull << 16), "__sk_buff mark/len/protocol",
		"err %d r0 0x%llx", err, (unsigned long long)r0);
	bg_vm__free(vm);
	/* socket filter: len without the Ethernet header, no direct packet access */
	reset(); mem(BG_K_LDX, 4, 0, 1, 0, 0); ex();
	err = run_ctx(BPF_PROG_TYPE_SOCKET_FILTER, &r0, &vm);
	T_CHECK(!err && r0 == 46, "socket filter sees len without L2", "err %d r0 %llu", err,
		(unsigned long long)r0);
	bg_vm__free(vm);
	reset(); mem(BG_K_LDX, 4, 0, 1, 76, 0); ex();
	ctx_fault_case("socket filter reading skb->data", BPF_PROG_TYPE_SOCKET_FILTER,
		       "no direct packet access");
}

/* Stack initialisation is per run: bytes a previous run wrote read as
 * uninitialized in the next one, across many runs of one VM (the shadow's
 * run marks wrap every 255 runs). */
static void test_stack_per_run(void)
{
	struct bg_vm_opts o = { .sz = sizeof(o) };
	struct bg_vm *vm;
	uint8_t w = 0, rd = 1;
	uint64_t r0;
	int i, bad = 0, faults = 0, err;

	reset();
	mem(BG_K_LDX, 1, 2, 1, 0, 0);                 /* r2 = *(u8 *)(r1 + 0) */
	alu(BG_ALU_MOV, 1, 0, 0, 0, 0);               /* r0 = 0 */
	jmp(BG_JMP_JEQ, 1, 2, 0, 0, 1, 5);            /* if r2 == 1 goto read */
	mem(BG_K_STX, 8, 10, 0, -8, 0);               /* *(u64 *)(r10 - 8) = r0 */
	ex();
	mem(BG_K_LDX, 8, 0, 10, -8, 0);               /* read: r0 = *(u64 *)(r10 - 8) */
	ex();
	for (o.no_sanitize = 0; o.no_sanitize < 2; o.no_sanitize++) {
		vm = bg_vm__new_insns(prog, np, &o);
		bad = faults = 0;
		for (i = 0; i < 600; i++) {
			bg_vm__set_ctx(vm, &w, 1);
			bad += bg_vm__run(vm, &r0) != 0;
			bg_vm__set_ctx(vm, &rd, 1);
			err = bg_vm__run(vm, &r0);
			faults += err && bg_vm__fault(vm) &&
				  bg_vm__fault(vm)->kind == BG_VM_FAULT_UNINIT;
		}
		if (!o.no_sanitize)
			T_CHECK(!bad && faults == 600, "stack written by the previous run is uninitialized",
				"bad %d faults %d of 600", bad, faults);
		else
			T_CHECK(!bad && faults == 0, "stack across runs without sanitizing",
				"bad %d faults %d", bad, faults);
		bg_vm__free(vm);
	}
}

int main(void)
{
	test_stack_per_run();
	test_ctx();
	test_alu();
	test_jumps_calls();
	test_memory();
	test_atomics();
	test_hook();
	T_EXIT();
}
