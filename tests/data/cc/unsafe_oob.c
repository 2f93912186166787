/* cc-test: clangs=14,19 flags= expect=unsafe
 * Unsafe in the source: the index is checked against 17 but the value holds
 * 16 entries. No optimization choice can make this verifiable. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[16]);
} tbl SEC(".maps");

SEC("xdp")
int off_by_one(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&tbl, &k);
	__u32 i;

	if (!v)
		return 0;
	i = ctx->rx_queue_index;
	if (i <= 16)
		return v[i] & 3;
	return 2;
}
char LICENSE[] SEC("license") = "GPL";
