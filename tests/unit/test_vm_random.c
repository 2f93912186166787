/* Host safety under hostile programs: random instruction sequences (ALU,
 * jumps, stack/ctx/packet/wild loads and stores, atomics, helper calls with
 * random arguments, local calls) run as raw, XDP and tc programs with
 * sanitizing on and off. The run must end (exit or a fault report) without
 * touching host memory outside the VM's regions; the ASan build of this test
 * (make test) turns any such access into a failure. */
/* min-pass: 1 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <stdint.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpfgate/vm.h>
#include "test.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? (uint32_t)(rng % n) : 0;
}

#define N 24
static const uint32_t helpers[] = {
	BPF_FUNC_map_lookup_elem, BPF_FUNC_probe_read_kernel, BPF_FUNC_probe_read_kernel_str,
	BPF_FUNC_ktime_get_ns, BPF_FUNC_trace_printk, BPF_FUNC_get_prandom_u32,
	BPF_FUNC_xdp_adjust_head, BPF_FUNC_xdp_adjust_tail, BPF_FUNC_xdp_adjust_meta,
	BPF_FUNC_skb_load_bytes, BPF_FUNC_skb_store_bytes, BPF_FUNC_l3_csum_replace,
	BPF_FUNC_l4_csum_replace, BPF_FUNC_csum_diff, BPF_FUNC_get_current_comm,
	BPF_FUNC_snprintf, BPF_FUNC_skb_change_tail, BPF_FUNC_skb_adjust_room,
	BPF_FUNC_skb_vlan_push, BPF_FUNC_skb_vlan_pop, BPF_FUNC_trace_vprintk, 5, 9999,
};

static void gen(struct bg_insn *p)
{
	static const uint8_t alu_ops[] = { BG_ALU_ADD, BG_ALU_SUB, BG_ALU_MUL, BG_ALU_DIV,
					   BG_ALU_OR, BG_ALU_AND, BG_ALU_LSH, BG_ALU_RSH,
					   BG_ALU_MOD, BG_ALU_XOR, BG_ALU_MOV, BG_ALU_ARSH };
	static const uint8_t sizes[] = { 1, 2, 4, 8 };
	size_t i;

	memset(p, 0, sizeof(*p) * N);
	for (i = 0; i < N; i++) {
		struct bg_insn *in = &p[i];
		uint32_t k = rnd(20);

		in->target = -1;
		in->slots = 1;
		in->dst = (uint8_t)rnd(10);
		in->src = (uint8_t)rnd(11);
		in->off = (int16_t)(rnd(2) ? (int)rnd(1200) - 600 : (int)rnd(64) - 32);
		in->imm = rnd(3) ? (int32_t)rnd(200) - 100 : (int32_t)rnd(0xffffffffu);
		in->size = sizes[rnd(4)];
		if (k < 6) {
			in->kind = BG_K_ALU;
			in->op = alu_ops[rnd(sizeof(alu_ops))];
			in->alu64 = rnd(4) != 0;
			in->src_is_reg = rnd(2);
		} else if (k < 8) { /* point a register at the stack, ctx or packet */
			in->kind = BG_K_ALU;
			in->op = BG_ALU_MOV;
			in->alu64 = true;
			in->src_is_reg = true;
			in->src = rnd(2) ? 10 : 1;
		} else if (k < 11) {
			in->kind = BG_K_LDX;
			in->is_signed = rnd(4) == 0 && in->size < 8;
		} else if (k < 13) {
			in->kind = rnd(2) ? BG_K_STX : BG_K_ST;
		} else if (k < 14) {
			static const uint16_t aops[] = { BG_ATOMIC_ADD, BG_ATOMIC_ADD | BG_ATOMIC_FETCH,
							 BG_ATOMIC_XCHG, BG_ATOMIC_CMPXCHG,
							 BG_ATOMIC_LOAD_ACQ, BG_ATOMIC_STORE_REL };

			in->kind = BG_K_ATOMIC;
			in->atomic_op = aops[rnd(6)];
			in->size = rnd(2) ? 8 : 4;
		} else if (k < 16) {
			in->kind = BG_K_JCOND;
			in->op = (uint8_t)(0x10 * (1 + rnd(7)));
			in->alu64 = rnd(2);
			in->src_is_reg = rnd(2);
			in->target = (int32_t)rnd(N);
		} else if (k < 18) {
			in->kind = BG_K_CALL;
			in->pseudo = BG_CALL_HELPER;
			in->imm = (int32_t)helpers[rnd(sizeof(helpers) / sizeof(helpers[0]))];
		} else if (k < 19) {
			in->kind = BG_K_CALL;
			in->pseudo = BG_CALL_LOCAL;
			in->target = (int32_t)rnd(N);
		} else {
			in->kind = rnd(2) ? BG_K_LD_ABS : BG_K_LD_IND;
			in->size = sizes[rnd(3)];
		}
	}
	p[N - 1] = (struct bg_insn){ .kind = BG_K_EXIT, .target = -1, .slots = 1 };
}

int main(void)
{
	static const uint32_t types[] = { 0, BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_SCHED_CLS,
					  BPF_PROG_TYPE_SOCKET_FILTER };
	struct bg_insn p[N];
	uint8_t pkt[80], mem[64];
	size_t runs = 0, exits = 0, faults = 0, i;

	for (i = 0; i < sizeof(pkt); i++)
		pkt[i] = (uint8_t)(i * 7);
	memset(mem, 0x41, sizeof(mem));
	for (i = 0; i < 6000; i++) {
		struct bg_vm_opts o = { .sz = sizeof(o), .no_sanitize = (int)(i & 1),
					.insn_budget = 20000, .prog_type = types[(i >> 1) % 4] };
		struct bg_vm *vm;
		uint64_t r0;

		gen(p);
		vm = bg_vm__new_insns(p, N, &o);
		if (!vm)
			continue;
		bg_vm__set_packet(vm, pkt, sizeof(pkt));
		bg_vm__set_ctx(vm, mem, o.prog_type ? 0 : sizeof(mem));
		bg_vm__add_mem(vm, 0xffff888000000000ull, mem, sizeof(mem));
		if (bg_vm__run(vm, &r0) == 0)
			exits++;
		else if (bg_vm__fault(vm))
			faults++;
		runs++;
		bg_vm__free(vm);
	}
	printf("# %zu random programs: %zu exited, %zu stopped with a report\n", runs, exits,
	       faults);
	T_CHECK(runs == 6000 && exits + faults == runs && exits > 100 && faults > 100,
		"random programs end with an exit or a fault report", "runs %zu exits %zu faults %zu",
		runs, exits, faults);
	T_EXIT();
}
