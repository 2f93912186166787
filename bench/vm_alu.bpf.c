/* ALU-heavy loop for bench/vm.bench.sh: a hash over a counter, 20000 rounds. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int alu_loop(struct xdp_md *ctx)
{
	__u64 h = 0xcbf29ce484222325ULL;
	__u32 i;

#pragma clang loop unroll(disable)
	for (i = 0; i < 20000; i++) {
		h ^= i;
		h *= 0x100000001b3ULL;
		h = (h << 7) | (h >> 57);
		h += h >> 11;
	}
	return (h & 1) ? XDP_PASS : XDP_DROP;
}
char LICENSE[] SEC("license") = "GPL";

/* Stack-heavy loop: every iteration loads and stores the stack (sanitizer
 * cost: shadow checks on each access). */
SEC("xdp")
int mem_loop(struct xdp_md *ctx)
{
	__u64 buf[32];
	__u64 s = 0;
	__u32 i, r;

	for (i = 0; i < 32; i++)
		buf[i] = i * 3;
#pragma clang loop unroll(disable)
	for (r = 0; r < 200; r++) {
#pragma clang loop unroll(disable)
		for (i = 0; i < 32; i++) {
			s += buf[(i + r) & 31];
			buf[i & 31] = s;
		}
	}
	return (s & 1) ? XDP_PASS : XDP_DROP;
}
