/* xdp_count: per-CPU packet and byte counters at the XDP hook.
 *
 * A per-CPU array needs no atomics: each CPU updates its own copy and user
 * space sums them. The frame length comes from data_end - data.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct datarec {
	__u64 packets;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XDP_REDIRECT + 1);
	__type(key, __u32);
	__type(value, struct datarec);
} xdp_stats SEC(".maps");

SEC("xdp")
int xdp_count(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u32 action = XDP_PASS;
	struct datarec *rec;

	rec = bpf_map_lookup_elem(&xdp_stats, &action);
	if (!rec)
		return XDP_ABORTED;
	rec->packets++;
	rec->bytes += data_end - data;
	return action;
}

char LICENSE[] SEC("license") = "GPL";
