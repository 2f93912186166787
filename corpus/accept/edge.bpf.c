/* Edge-router odds and ends: tunnel decapsulation, VXLAN/GENEVE port
 * policing, IPv6 hop-limit handling, MAC allow-lists, TTL normalisation,
 * UDP length sanity and TCP resets for closed ports. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

struct mac_key {
	__u8 addr[ETH_ALEN];
	__u16 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, struct mac_key);
	__type(value, __u8);
} mac_allow SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} edge_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u32);
} vni_allow SEC(".maps");

const volatile __u8 normal_ttl = 64;

static __always_inline void stat(__u32 i)
{
	__u64 *c = bpf_map_lookup_elem(&edge_stats, &i);

	if (c)
		*c += 1;
}

struct gre_base {
	__be16 flags;
	__be16 proto;
};

SEC("xdp")
int xdp_gre_decap(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data, *neth;
	struct iphdr *ip = (void *)(eth + 1);
	struct gre_base *gre = (void *)(ip + 1);
	__u8 src[ETH_ALEN], dst[ETH_ALEN];
	int hdr = sizeof(*ip) + sizeof(*gre);

	if ((void *)(gre + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	if (ip->ihl != 5 || ip->protocol != 47 /* GRE */ || gre->flags != 0 ||
	    gre->proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	__builtin_memcpy(src, eth->h_source, ETH_ALEN);
	__builtin_memcpy(dst, eth->h_dest, ETH_ALEN);
	if (bpf_xdp_adjust_head(ctx, hdr))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	neth = data;
	if ((void *)(neth + 1) > end)
		return XDP_DROP;
	__builtin_memcpy(neth->h_source, src, ETH_ALEN);
	__builtin_memcpy(neth->h_dest, dst, ETH_ALEN);
	neth->h_proto = bpf_htons(ETH_P_IP);
	stat(0);
	return XDP_PASS;
}

SEC("xdp")
int xdp_vxlan_vni_filter(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *uh = (void *)(ip + 1);
	__u8 *vx = (void *)(uh + 1);
	__u32 vni;

	if ((void *)(vx + 8) > end || eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_UDP || uh->dest != bpf_htons(4789))
		return XDP_PASS;
	if (!(vx[0] & 0x08)) /* I flag */
		return XDP_DROP;
	vni = (__u32)vx[4] << 16 | (__u32)vx[5] << 8 | vx[6];
	if (!bpf_map_lookup_elem(&vni_allow, &vni)) {
		stat(1);
		return XDP_DROP;
	}
	return XDP_PASS;
}

SEC("xdp")
int xdp_geneve_opt_len(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *uh = (void *)(ip + 1);
	__u8 *gn = (void *)(uh + 1);

	if ((void *)(gn + 8) > end || eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_UDP || uh->dest != bpf_htons(6081))
		return XDP_PASS;
	/* version 0 only, options at most 64 bytes */
	if ((gn[0] >> 6) != 0 || (gn[0] & 0x3f) > 16)
		return XDP_DROP;
	return XDP_PASS;
}

SEC("tc")
int tc_ipv6_hop_limit(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6 = (void *)(eth + 1);

	if ((void *)(ip6 + 1) > end || eth->h_proto != bpf_htons(ETH_P_IPV6))
		return TC_ACT_OK;
	if (ip6->hop_limit <= 1)
		return TC_ACT_SHOT;
	ip6->hop_limit--; /* no IPv6 header checksum to fix */
	return TC_ACT_OK;
}

SEC("tc")
int tc_ipv6_flowlabel(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6 = (void *)(eth + 1);
	__u32 h;

	if ((void *)(ip6 + 1) > end || eth->h_proto != bpf_htons(ETH_P_IPV6))
		return TC_ACT_OK;
	if (ip6->flow_lbl[0] | ip6->flow_lbl[1] | ip6->flow_lbl[2])
		return TC_ACT_OK;
	h = bpf_get_hash_recalc(skb);
	ip6->flow_lbl[0] = (h >> 16) & 0x0f;
	ip6->flow_lbl[1] = h >> 8;
	ip6->flow_lbl[2] = h;
	return TC_ACT_OK;
}

SEC("xdp")
int xdp_mac_allowlist(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct mac_key k = {};

	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	__builtin_memcpy(k.addr, eth->h_source, ETH_ALEN);
	if (bpf_map_lookup_elem(&mac_allow, &k))
		return XDP_PASS;
	stat(2);
	return XDP_DROP;
}

SEC("tc")
int tc_ttl_normalize(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	__u16 old, new_;

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	if (ip->ttl == normal_ttl)
		return TC_ACT_OK;
	old = bpf_htons((__u16)ip->ttl << 8 | ip->protocol);
	new_ = bpf_htons((__u16)normal_ttl << 8 | ip->protocol);
	ip->ttl = normal_ttl;
	ip->check = csum_replace2(ip->check, old, new_);
	return TC_ACT_OK;
}

SEC("xdp")
int xdp_udp_length_sanity(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *uh = (void *)(ip + 1);
	__u16 ulen, tlen;

	if ((void *)(uh + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_UDP)
		return XDP_PASS;
	ulen = bpf_ntohs(uh->len);
	tlen = bpf_ntohs(ip->tot_len);
	if (ulen < sizeof(*uh) || ulen != tlen - sizeof(*ip)) {
		stat(3);
		return XDP_DROP;
	}
	return XDP_PASS;
}

/* Answer SYNs to closed ports with a RST built in place (XDP_TX). */
SEC("xdp")
int xdp_tcp_rst_closed(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct tcphdr *th = (void *)(ip + 1);
	__u8 mac[ETH_ALEN];
	__u32 a, seq;
	__u16 p;

	if ((void *)(th + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_TCP)
		return XDP_PASS;
	if (!th->syn || th->ack || th->dest != bpf_htons(23))
		return XDP_PASS;
	__builtin_memcpy(mac, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, mac, ETH_ALEN);
	a = ip->saddr; ip->saddr = ip->daddr; ip->daddr = a;
	p = th->source; th->source = th->dest; th->dest = p;
	seq = bpf_ntohl(th->seq);
	th->ack_seq = bpf_htonl(seq + 1);
	th->seq = 0;
	th->syn = 0;
	th->rst = 1;
	th->ack = 1;
	th->check = 0; /* checksum offload on the TX path */
	stat(4);
	return XDP_TX;
}

SEC("tc")
int tc_ingress_vlan_policy(struct __sk_buff *skb)
{
	if (!skb->vlan_present)
		return TC_ACT_OK;
	/* only VLANs 100-199 may enter */
	if ((skb->vlan_tci & 0x0fff) < 100 || (skb->vlan_tci & 0x0fff) > 199) {
		stat(5);
		return TC_ACT_SHOT;
	}
	return TC_ACT_OK;
}
