/* Stateful NAT on tc: SNAT/DNAT of IPv4 addresses and ports with checksum
 * fix-ups through bpf_l3_csum_replace()/bpf_l4_csum_replace(), and an XDP
 * variant that updates the checksums by hand (RFC 1624). */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

#define IP_CSUM_OFF (ETH_HLEN + offsetof(struct iphdr, check))
#define IP_SRC_OFF (ETH_HLEN + offsetof(struct iphdr, saddr))
#define IP_DST_OFF (ETH_HLEN + offsetof(struct iphdr, daddr))
#define L4_OFF (ETH_HLEN + sizeof(struct iphdr))
#define TCP_CSUM_OFF (L4_OFF + offsetof(struct tcphdr, check))
#define UDP_CSUM_OFF (L4_OFF + offsetof(struct udphdr, check))
#define BPF_F_PSEUDO_HDR_ (1ULL << 4)

struct nat_key {
	__u32 addr;
	__u16 port;
	__u8 proto;
	__u8 pad;
};

struct nat_val {
	__u32 addr;
	__u16 port;
	__u16 pad;
	__u64 last_seen;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, struct nat_key);
	__type(value, struct nat_val);
} snat_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, struct nat_key);
	__type(value, struct nat_val);
} dnat_map SEC(".maps");

const volatile __u32 public_addr = 0xc0a80001;
const volatile __u16 port_base = 20000;

static __always_inline int l4_csum_off(__u8 proto)
{
	return proto == IPPROTO_TCP ? TCP_CSUM_OFF : UDP_CSUM_OFF;
}

static __always_inline int load_tuple(struct __sk_buff *skb, struct nat_key *src, struct nat_key *dst)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	__u16 *ports;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return -1;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->ihl != 5)
		return -1;
	if (ip->protocol != IPPROTO_TCP && ip->protocol != IPPROTO_UDP)
		return -1;
	ports = (void *)(ip + 1);
	if ((void *)(ports + 2) > end)
		return -1;
	src->addr = ip->saddr;
	src->port = ports[0];
	src->proto = ip->protocol;
	src->pad = 0;
	dst->addr = ip->daddr;
	dst->port = ports[1];
	dst->proto = ip->protocol;
	dst->pad = 0;
	return 0;
}

static __always_inline int rewrite_addr(struct __sk_buff *skb, int off, __u32 old, __u32 new_, __u8 proto)
{
	if (bpf_l4_csum_replace(skb, l4_csum_off(proto), old, new_, BPF_F_PSEUDO_HDR_ | sizeof(new_)))
		return -1;
	if (bpf_l3_csum_replace(skb, IP_CSUM_OFF, old, new_, sizeof(new_)))
		return -1;
	return bpf_skb_store_bytes(skb, off, &new_, sizeof(new_), 0);
}

static __always_inline int rewrite_port(struct __sk_buff *skb, int off, __u16 old, __u16 new_, __u8 proto)
{
	if (bpf_l4_csum_replace(skb, l4_csum_off(proto), old, new_, sizeof(new_)))
		return -1;
	return bpf_skb_store_bytes(skb, off, &new_, sizeof(new_), 0);
}

SEC("tc")
int tc_snat_egress(struct __sk_buff *skb)
{
	struct nat_key src, dst;
	struct nat_val *v, nv = {};

	if (load_tuple(skb, &src, &dst))
		return TC_ACT_OK;
	v = bpf_map_lookup_elem(&snat_map, &src);
	if (!v) {
		struct nat_key rev;

		nv.addr = public_addr;
		nv.port = bpf_htons(port_base + (bpf_get_prandom_u32() & 0x3fff));
		nv.last_seen = bpf_ktime_get_ns();
		if (bpf_map_update_elem(&snat_map, &src, &nv, BPF_NOEXIST))
			return TC_ACT_SHOT;
		rev.addr = nv.addr;
		rev.port = nv.port;
		rev.proto = src.proto;
		rev.pad = 0;
		nv.addr = src.addr;
		nv.port = src.port;
		bpf_map_update_elem(&dnat_map, &rev, &nv, BPF_ANY);
		v = bpf_map_lookup_elem(&snat_map, &src);
		if (!v)
			return TC_ACT_SHOT;
	}
	v->last_seen = bpf_ktime_get_ns();
	if (rewrite_addr(skb, IP_SRC_OFF, src.addr, v->addr, src.proto))
		return TC_ACT_SHOT;
	if (rewrite_port(skb, L4_OFF, src.port, v->port, src.proto))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

SEC("tc")
int tc_dnat_ingress(struct __sk_buff *skb)
{
	struct nat_key src, dst;
	struct nat_val *v;
	__u32 new_addr;
	__u16 new_port;

	if (load_tuple(skb, &src, &dst))
		return TC_ACT_OK;
	v = bpf_map_lookup_elem(&dnat_map, &dst);
	if (!v)
		return TC_ACT_OK;
	new_addr = v->addr;
	new_port = v->port;
	if (rewrite_addr(skb, IP_DST_OFF, dst.addr, new_addr, dst.proto))
		return TC_ACT_SHOT;
	if (rewrite_port(skb, L4_OFF + 2, dst.port, new_port, dst.proto))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

/* Static port forward: the destination port only. */
SEC("tc")
int tc_port_forward(struct __sk_buff *skb)
{
	struct nat_key src, dst;

	if (load_tuple(skb, &src, &dst))
		return TC_ACT_OK;
	if (dst.port != bpf_htons(8080))
		return TC_ACT_OK;
	if (rewrite_port(skb, L4_OFF + 2, dst.port, bpf_htons(80), dst.proto))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

/* bpf_csum_diff over both addresses at once. */
SEC("tc")
int tc_snat_csum_diff(struct __sk_buff *skb)
{
	struct nat_key src, dst;
	__u32 from[1], to[1];
	__s64 diff;

	if (load_tuple(skb, &src, &dst))
		return TC_ACT_OK;
	from[0] = src.addr;
	to[0] = public_addr;
	diff = bpf_csum_diff(from, sizeof(from), to, sizeof(to), 0);
	if (diff < 0)
		return TC_ACT_SHOT;
	if (bpf_l3_csum_replace(skb, IP_CSUM_OFF, 0, diff, 0))
		return TC_ACT_SHOT;
	if (bpf_l4_csum_replace(skb, l4_csum_off(src.proto), 0, diff, BPF_F_PSEUDO_HDR_))
		return TC_ACT_SHOT;
	if (bpf_skb_store_bytes(skb, IP_SRC_OFF, to, sizeof(to), 0))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

/* XDP DNAT with in-place incremental checksum updates. */
SEC("xdp")
int xdp_dnat(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	struct tcphdr *th;
	struct nat_key k = {};
	struct nat_val *v;
	__u32 old;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->ihl != 5 || ip->protocol != IPPROTO_TCP)
		return XDP_PASS;
	th = (void *)(ip + 1);
	if ((void *)(th + 1) > end)
		return XDP_PASS;
	k.addr = ip->daddr;
	k.port = th->dest;
	k.proto = IPPROTO_TCP;
	v = bpf_map_lookup_elem(&dnat_map, &k);
	if (!v)
		return XDP_PASS;
	old = ip->daddr;
	ip->daddr = v->addr;
	ip->check = csum_replace2(ip->check, old >> 16, v->addr >> 16);
	ip->check = csum_replace2(ip->check, old & 0xffff, v->addr & 0xffff);
	th->check = csum_replace2(th->check, old >> 16, v->addr >> 16);
	th->check = csum_replace2(th->check, old & 0xffff, v->addr & 0xffff);
	th->check = csum_replace2(th->check, th->dest, v->port);
	th->dest = v->port;
	return XDP_PASS;
}

/* Expire idle SNAT entries from a syscall-driven sweep (bpf_for_each_map_elem). */
struct sweep_ctx {
	__u64 now;
	__u32 expired;
};

static long sweep_one(struct bpf_map *map, struct nat_key *key, struct nat_val *val, struct sweep_ctx *c)
{
	if (c->now - val->last_seen > 300ULL * 1000000000ULL) {
		bpf_map_delete_elem(map, key);
		c->expired++;
	}
	return 0;
}

SEC("tc")
int tc_nat_gc(struct __sk_buff *skb)
{
	struct sweep_ctx c = {.now = bpf_ktime_get_ns()};

	bpf_for_each_map_elem(&snat_map, sweep_one, &c, 0);
	return TC_ACT_OK;
}
