/* cc-test: clangs=14,19 flags=-mllvm,-bpf-disable-serialize-icmp expect=fixed fix=-mcpu=v3
 * Safe: ret < 0 || ret > 15 rejects every bad index. With the BPF icmp
 * serialization guard switched off the two compares are folded into one
 * unsigned compare, which the verifier cannot use to bound the signed ret:
 * bg_assert_range(ret, 0, 15) fails at its line (tests/asserts_cc.test.sh). */
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
