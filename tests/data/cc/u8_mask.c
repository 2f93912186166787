/* cc-test: clangs=14 flags= expect=fixed fix=skip.*InstCombinePass culprit=InstCombinePass
 * Safe: the index is truncated to u8 and checked < 32. clang-14 turns the
 * check into a mask test on the wide value, so the index used for the access
 * keeps no upper bound (clang-19 keeps the compare).
 * bg_assert_range names the broken fact at its line: tests/cc.test.sh builds
 * this with -DBG_ASSERT_DISABLE, tests/asserts_cc.test.sh with assertions. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpfgate/assert.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[32]);
} tbl SEC(".maps");

SEC("xdp")
int u8_index(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&tbl, &k);
	__u8 i;

	if (!v)
		return 0;
	i = (__u8)ctx->rx_queue_index;
	if (i < 32) {
		bg_assert_range(i, 0, 31);
		return v[i] & 3;
	}
	return 2;
}
char LICENSE[] SEC("license") = "GPL";
