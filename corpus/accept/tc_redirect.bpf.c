/* tc programs that rewrite packets and redirect them: MAC rewrite +
 * bpf_redirect, neighbour-aware bpf_redirect_neigh, VLAN push/pop, DSCP
 * marking with checksum fix-up, mirroring with bpf_clone_redirect, and an
 * XDP devmap redirect. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

struct fwd_entry {
	__u32 ifindex;
	__u8 dmac[ETH_ALEN];
	__u8 smac[ETH_ALEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct fwd_entry);
} fwd_table SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u32);
} tx_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} cpu_map SEC(".maps");

const volatile __u32 mirror_ifindex = 3;
const volatile __u16 vlan_id = 100;
const volatile __u8 dscp_mark = 46;

static __always_inline struct iphdr *ipv4_of(void *data, void *end)
{
	struct ethhdr *eth = data;
	struct iphdr *ip;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return NULL;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end)
		return NULL;
	return ip;
}

SEC("tc")
int tc_l3_forward(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct fwd_entry *f;
	struct iphdr *ip = ipv4_of(data, end);
	__u32 dst;

	if (!ip)
		return TC_ACT_OK;
	if (ip->ttl <= 1)
		return TC_ACT_OK; /* let the stack send the ICMP error */
	dst = ip->daddr;
	f = bpf_map_lookup_elem(&fwd_table, &dst);
	if (!f)
		return TC_ACT_OK;
	ip->check = csum_replace2(ip->check, bpf_htons((__u16)ip->ttl << 8), bpf_htons((__u16)(ip->ttl - 1) << 8));
	ip->ttl--;
	__builtin_memcpy(eth->h_dest, f->dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, f->smac, ETH_ALEN);
	return bpf_redirect(f->ifindex, 0);
}

SEC("tc")
int tc_redirect_neigh(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct iphdr *ip = ipv4_of(data, end);
	struct fwd_entry *f;
	__u32 dst;

	if (!ip)
		return TC_ACT_OK;
	dst = ip->daddr;
	f = bpf_map_lookup_elem(&fwd_table, &dst);
	if (!f)
		return TC_ACT_OK;
	return bpf_redirect_neigh(f->ifindex, NULL, 0, 0);
}

SEC("tc")
int tc_dscp_mark(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct iphdr *ip = ipv4_of(data, end);
	__u16 old, new_;
	__u8 tos;

	if (!ip)
		return TC_ACT_OK;
	tos = (dscp_mark << 2) | (ip->tos & 3);
	old = *(__u16 *)ip;
	ip->tos = tos;
	new_ = *(__u16 *)ip;
	ip->check = csum_replace2(ip->check, old, new_);
	return TC_ACT_OK;
}

/* Same marking through bpf_skb_store_bytes + bpf_l3_csum_replace. */
SEC("tc")
int tc_dscp_mark_helpers(struct __sk_buff *skb)
{
	__u8 tos_old, tos_new;
	__u16 old, new_;
	__u32 off = ETH_HLEN + offsetof(struct iphdr, tos);

	if (skb->protocol != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	if (bpf_skb_load_bytes(skb, off, &tos_old, 1))
		return TC_ACT_OK;
	tos_new = (dscp_mark << 2) | (tos_old & 3);
	old = bpf_htons(0x4500 | tos_old) ;
	new_ = bpf_htons(0x4500 | tos_new);
	bpf_l3_csum_replace(skb, ETH_HLEN + offsetof(struct iphdr, check), old, new_, 2);
	bpf_skb_store_bytes(skb, off, &tos_new, 1, 0);
	return TC_ACT_OK;
}

SEC("tc")
int tc_vlan_push(struct __sk_buff *skb)
{
	if (skb->vlan_present)
		return TC_ACT_OK;
	if (bpf_skb_vlan_push(skb, bpf_htons(ETH_P_8021Q), vlan_id))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

SEC("tc")
int tc_vlan_pop(struct __sk_buff *skb)
{
	if (!skb->vlan_present || skb->vlan_tci != vlan_id)
		return TC_ACT_OK;
	if (bpf_skb_vlan_pop(skb))
		return TC_ACT_SHOT;
	return bpf_redirect(skb->ifindex, BPF_F_INGRESS);
}

SEC("tc")
int tc_mirror(struct __sk_buff *skb)
{
	bpf_clone_redirect(skb, mirror_ifindex, 0);
	return TC_ACT_OK;
}

/* Swap MACs and bounce back out of the same interface (a reflector). */
SEC("tc")
int tc_reflect(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	__u8 tmp[ETH_ALEN];

	if ((void *)(eth + 1) > end)
		return TC_ACT_SHOT;
	__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
	return bpf_redirect(skb->ifindex, 0);
}

/* Mark the skb for policy routing and a qdisc class. */
SEC("tc")
int tc_classify_mark(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct iphdr *ip = ipv4_of(data, end);

	if (!ip)
		return TC_ACT_OK;
	skb->mark = ip->protocol == IPPROTO_UDP ? 0x10 : 0x20;
	skb->tc_classid = 0x10000 | (ip->tos >> 2);
	skb->priority = ip->tos >> 5;
	return TC_ACT_OK;
}

/* Change the protocol to IPv6 room: grow the headroom for an encap header. */
SEC("tc")
int tc_gre_room(struct __sk_buff *skb)
{
	if (skb->protocol != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	if (bpf_skb_adjust_room(skb, 24, BPF_ADJ_ROOM_MAC, 0))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

SEC("xdp")
int xdp_devmap_forward(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct iphdr *ip = ipv4_of(data, end);
	struct fwd_entry *f;
	struct ethhdr *eth = data;
	__u32 dst;

	if (!ip)
		return XDP_PASS;
	dst = ip->daddr;
	f = bpf_map_lookup_elem(&fwd_table, &dst);
	if (!f)
		return XDP_PASS;
	__builtin_memcpy(eth->h_dest, f->dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, f->smac, ETH_ALEN);
	return bpf_redirect_map(&tx_ports, f->ifindex & 63, 0);
}

/* Spread flows over CPUs (RPS in XDP). */
SEC("xdp")
int xdp_cpumap_spread(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct iphdr *ip = ipv4_of(data, end);
	__u32 cpu;

	if (!ip)
		return XDP_PASS;
	cpu = (ip->saddr ^ ip->daddr) % 4;
	return bpf_redirect_map(&cpu_map, cpu, XDP_PASS);
}
