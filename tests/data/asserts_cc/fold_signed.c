/* assert-cc: clangs=14,19 flags=-mllvm,-bpf-disable-serialize-icmp
 * Hazard: two checks folded into one. ret < 0 || ret > 15 rejects every bad
 * index; InstCombine folds the two compares into one unsigned compare (the
 * BPF backend's icmp serialization guard, switched off here to reproduce
 * the LLVM behaviour before it existed), from which the verifier learns no
 * bound on the signed ret: bg_assert_range(ret, 0, 15) fails at its line. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpfgate/assert.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u8[16]);
} tbl SEC(".maps");

SEC("xdp")
int checked_index(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u8 *p = bpf_map_lookup_elem(&tbl, &k);
	int ret;

	if (!p)
		return 0;
	ret = bpf_get_prandom_u32();
	if (ret < 0 || ret > 15)
		return 0;
	bg_assert_range(ret, 0, 15);
	return p[ret] & 3;
}
char LICENSE[] SEC("license") = "GPL";
