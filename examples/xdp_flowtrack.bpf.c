/* xdp_flowtrack: per-flow packet and byte accounting in a hash map.
 *
 * The 5-tuple of IPv4 TCP/UDP packets is the key. New flows are inserted
 * with BPF_NOEXIST so that two CPUs racing on the same new flow do not reset
 * each other's counters; existing entries are updated with atomics. When the
 * table is full the packet is still passed and the miss is counted in .bss.
 */
#include "bg_net.h"

struct flow_key {
	__u32 saddr;
	__u32 daddr;
	__u16 sport;
	__u16 dport;
	__u8 proto;
	__u8 pad[3];
};

struct flow_stats {
	__u64 packets;
	__u64 bytes;
	__u64 first_seen_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, struct flow_key);
	__type(value, struct flow_stats);
} flows SEC(".maps");

__u64 table_full_drops = 0; /* .bss */

static __always_inline int fill_ports(struct hdr_cursor *c, struct flow_key *k)
{
	/* TCP and UDP both start with source and destination port */
	struct udphdr *l4 = cursor_pull(c, sizeof(*l4));

	if (!l4)
		return -1;
	k->sport = bpf_ntohs(l4->source);
	k->dport = bpf_ntohs(l4->dest);
	return 0;
}

SEC("xdp")
int xdp_flowtrack(struct xdp_md *ctx)
{
	struct hdr_cursor c = {
		.pos = (void *)(long)ctx->data,
		.end = (void *)(long)ctx->data_end,
	};
	__u64 len = c.end - c.pos;
	struct flow_key key = {};
	struct flow_stats *st, init = {};
	struct ethhdr *eth;
	struct iphdr *ip;

	eth = cursor_pull(&c, sizeof(*eth));
	if (!eth || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = cursor_pull(&c, sizeof(*ip));
	if (!ip || ip->ihl != 5)
		return XDP_PASS;
	if (ip->protocol != IPPROTO_TCP && ip->protocol != IPPROTO_UDP)
		return XDP_PASS;
	key.saddr = ip->saddr;
	key.daddr = ip->daddr;
	key.proto = ip->protocol;
	if (fill_ports(&c, &key))
		return XDP_PASS;

	st = bpf_map_lookup_elem(&flows, &key);
	if (!st) {
		init.first_seen_ns = bpf_ktime_get_ns();
		if (bpf_map_update_elem(&flows, &key, &init, BPF_NOEXIST) == -7 /* E2BIG */) {
			__sync_fetch_and_add(&table_full_drops, 1);
			return XDP_PASS;
		}
		st = bpf_map_lookup_elem(&flows, &key);
		if (!st)
			return XDP_PASS;
	}
	__sync_fetch_and_add(&st->packets, 1);
	__sync_fetch_and_add(&st->bytes, len);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
