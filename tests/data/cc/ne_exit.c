/* cc-test: clangs=19 flags=-mllvm,-lsr-term-fold expect=fixed fix=-disable-lsr culprit=Loop.Strength.Reduction
 * Safe: i < n with n at most 15 and v holding 16 entries. A loop exit
 * rewritten to !=: Loop Strength Reduction's terminating-condition folding
 * (-lsr-term-fold, LLVM >= 17, off by default for BPF: this is that guard
 * switched off) drops the counter and exits on p == v + 4 * n, a pointer
 * compare from which the verifier learns nothing, so it walks p past the
 * value ("R7 min value is outside of the allowed memory range"). The stock
 * build compares the counter (i < n) and loads. Any -mcpu. IndVarSimplify's
 * own rewrite to != (LFTR) does not fire on BPF: BPF's cost model prices an
 * add in the trip count above the SCEV expansion budget. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32[16]);
} arr SEC(".maps");

SEC("xdp")
int sum_prefix_ne(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u32 *v = bpf_map_lookup_elem(&arr, &k);
	__u32 n, s = 0;

	if (!v)
		return 0;
	n = bpf_get_prandom_u32() & 15;
	for (__u32 i = 0; i < n; i++)
		s += v[i];
	return s & 3;
}
char LICENSE[] SEC("license") = "GPL";
