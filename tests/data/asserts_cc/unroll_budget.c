/* Hazard: a size budget broken by full unrolling. The hash of an 8-word
 * value is a small loop (about 30 instructions rolled); LoopFullUnroll at
 * -O2 (clang-14 and clang-19) unrolls it to about 100, past the function's
 * budget bg_assert_max_insns(96). The kernel accepts both forms: only the
 * assertion rejects the build, and cc backs out the unroll passes. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpfgate/assert.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32[8]);
} keys SEC(".maps");

SEC("xdp")
int hash_key(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u32 *v = bpf_map_lookup_elem(&keys, &k);
	__u32 h = 0;

	bg_assert_max_insns(96);
	if (!v)
		return XDP_PASS;
	for (int i = 0; i < 8; i++) {
		__u32 x = v[i];

		h = (h << 5 | h >> 27) ^ x;
		h += (x >> 3) * 13 + (x & 7);
	}
	return h & 1 ? XDP_PASS : XDP_DROP;
}
char LICENSE[] SEC("license") = "GPL";
