/* tc_mark: a tc classifier that classifies IPv4 traffic by DSCP.
 *
 * Packets whose DSCP is in the configured "bulk" class get skb->mark set and
 * their DSCP rewritten to the configured value; the IPv4 header checksum is
 * fixed up with bpf_l3_csum_replace. The configuration lives in .data so user
 * space can change it at run time through the map.
 */
#include "bg_net.h"
#include <linux/pkt_cls.h>

#define IP_TOS_OFF (ETH_HLEN + __builtin_offsetof(struct iphdr, tos))
#define IP_CSUM_OFF (ETH_HLEN + __builtin_offsetof(struct iphdr, check))

struct tc_config {
	__u32 mark;
	__u8 match_dscp;
	__u8 new_dscp;
};

struct tc_config cfg = { .mark = 0x2a, .match_dscp = 8 /* CS1 */, .new_dscp = 0 };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} remarked SEC(".maps");

static __always_inline int rewrite_dscp(struct __sk_buff *skb, __u8 old_tos, __u8 new_dscp)
{
	__u8 new_tos = (new_dscp << 2) | (old_tos & 3);

	if (bpf_l3_csum_replace(skb, IP_CSUM_OFF, bpf_htons(old_tos), bpf_htons(new_tos), 2))
		return -1;
	return bpf_skb_store_bytes(skb, IP_TOS_OFF, &new_tos, 1, 0);
}

SEC("tc")
int tc_mark(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + sizeof(*eth);
	__u32 zero = 0;
	__u64 *cnt;
	__u8 tos;

	if ((void *)(ip + 1) > data_end)
		return TC_ACT_OK;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	tos = ip->tos;
	if ((tos >> 2) != cfg.match_dscp)
		return TC_ACT_OK;
	skb->mark = cfg.mark;
	/* data/data_end are invalid after the helpers below rewrite the packet */
	if (rewrite_dscp(skb, tos, cfg.new_dscp))
		return TC_ACT_SHOT;
	cnt = bpf_map_lookup_elem(&remarked, &zero);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
