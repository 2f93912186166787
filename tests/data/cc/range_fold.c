/* cc-test: clangs=14,19 flags= expect=fixed fix=-mcpu=v3
 * Safe: x > 3 && x < 19 bounds the index. The two checks are folded into one
 * unsigned compare of x - 4, made at -mcpu=v1 on a zero-extended copy; the
 * register used for the access keeps no bound. bg_assert_range on the index
 * names it (built with assertions by tests/asserts_cc.test.sh only). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpfgate/assert.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[16]);
} tbl SEC(".maps");

SEC("xdp")
int range_index(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&tbl, &k);
	__u32 x;

	if (!v)
		return 0;
	x = ctx->rx_queue_index;
	if (x > 3 && x < 19) {
		bg_assert_range(x, 4, 18);
		return v[x - 3] & 3;
	}
	return 2;
}
char LICENSE[] SEC("license") = "GPL";
