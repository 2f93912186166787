/* cc-test: clangs=14,19 flags= expect=fixed fix=-disable-lsr culprit=Loop.Strength.Reduction
 * Safe: i runs from st (at most 7) while i < n (at most 15), and v holds 16
 * entries. Loop Strength Reduction (codegen IR pass) replaces v[i] by a
 * pointer advanced by 4 each iteration; the exit still compares the counter,
 * so the verifier bounds the counter but not the pointer ("R7 max value is
 * outside of the allowed memory range"). Any -mcpu; accepted with -disable-lsr. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32[16]);
} arr SEC(".maps");

SEC("xdp")
int sum_from(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u32 *v = bpf_map_lookup_elem(&arr, &k);
	__u32 n, st, s = 0;

	if (!v)
		return 0;
	n = bpf_get_prandom_u32() & 15;
	st = bpf_get_prandom_u32() & 7;
	for (__u32 i = st; i < n; i++)
		s += v[i];
	return s & 3;
}
char LICENSE[] SEC("license") = "GPL";
