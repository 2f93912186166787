/* cc-test: clangs=14 flags= expect=fixed fix=-mcpu=v3
 * Safe: the loop bound is min(n, 16). clang-14 at -mcpu=v1 compares a
 * zero-extended copy of n with 16 and runs the loop on the other copy, so
 * the induction pointer is not known to stay inside the value. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32[16]);
} arr SEC(".maps");

SEC("xdp")
int sum_prefix(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u32 *v = bpf_map_lookup_elem(&arr, &k);
	__u32 n, m, s = 0;

	if (!v)
		return 0;
	n = bpf_get_prandom_u32();
	m = n < 16 ? n : 16;
	for (__u32 i = 0; i < m; i++)
		s += v[i];
	return s & 3;
}
char LICENSE[] SEC("license") = "GPL";
