/* Accepted, correlated, in tc / socket / cgroup programs: header pointers
 * valid only on the path that validated them, locks and references
 * released under the predicate that took them, offsets chosen per
 * encapsulation and used under the same choice. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

struct conn {
	struct bpf_spin_lock lock;
	__u64 bytes;
	__u64 pkts;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct conn);
} conns SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u64[8]);
} slots SEC(".maps");

/* VLAN or not: the L3 offset is 14 or 18, checked once, used per case */
SEC("tc")
int corr_tc_vlan_offset(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	__u8 *p = data;
	__u32 l3;
	int tagged;

	if ((void *)(eth + 1) > end)
		return TC_ACT_OK;
	tagged = eth->h_proto == bpf_htons(ETH_P_8021Q);
	barrier_var(tagged);
	l3 = tagged ? 18 : 14;
	if (data + l3 + 20 > end)
		return TC_ACT_OK;
	barrier_var(tagged);
	if (tagged)
		return p[18 + 9] == IPPROTO_TCP ? TC_ACT_OK : TC_ACT_OK; /* protocol byte */
	return p[14 + 9] == IPPROTO_UDP ? TC_ACT_OK : TC_ACT_OK;
}

/* lock only for TCP flows, unlock under the same test */
SEC("tc")
int corr_tc_lock_tcp_only(struct __sk_buff *skb)
{
	__u32 key = skb->hash;
	struct conn *c = bpf_map_lookup_elem(&conns, &key);
	long tcp; /* 64-bit: an int flag gets zero-extended (<<32 >>32) on
		     -mcpu=v1 and the kernel loses the link between the copies */

	if (!c)
		return TC_ACT_OK;
	tcp = skb->protocol == bpf_htons(ETH_P_IP) && (skb->mark & 1);
	barrier_var(tcp);
	if (tcp)
		bpf_spin_lock(&c->lock);
	c->bytes += skb->len;
	c->pkts++;
	barrier_var(tcp);
	if (tcp)
		bpf_spin_unlock(&c->lock);
	return TC_ACT_OK;
}

/* a slot index valid only when the lookup succeeded and the hash was small */
SEC("cgroup_skb/egress")
int corr_cg_slot_and_ptr(struct __sk_buff *skb)
{
	__u32 key = skb->ifindex, idx = skb->hash;
	__u64 *v = bpf_map_lookup_elem(&slots, &key);
	int ok = v != NULL && idx < 8;

	barrier_var(ok);
	if (ok)
		v[idx & 0xffff]++;
	return 1;
}

/* TCP header pointer recorded on one branch, used when the saved protocol says TCP */
SEC("tc")
int corr_tc_l4_by_saved_proto(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct tcphdr *th = NULL;
	__u8 proto = 0;

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5)
		return TC_ACT_OK;
	if (ip->protocol == IPPROTO_TCP && (void *)(ip + 1) + sizeof(*th) <= end) {
		th = (void *)(ip + 1);
		proto = IPPROTO_TCP;
	}
	skb->mark = ip->ttl;
	barrier_var(proto);
	if (proto == IPPROTO_TCP)
		skb->priority = th->syn ? 7 : 0;
	return TC_ACT_OK;
}

/* socket released on the same predicate it was acquired on, two predicates deep */
SEC("tc")
int corr_tc_nested_sk_release(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk = NULL;
	int want = (skb->mark & 2) != 0, got = 0;

	barrier_var(want);
	if (want) {
		sk = bpf_sk_lookup_udp(skb, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
		got = sk != NULL;
	}
	barrier_var(got);
	if (want && got) {
		skb->priority = sk->rx_queue_mapping & 7;
		bpf_sk_release(sk);
	}
	return TC_ACT_OK;
}

/* loop over a prefix whose length is bounded relative to a checked packet length */
SEC("xdp")
int corr_xdp_len_relational(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u8 *p = data;
	__u32 n, i, sum = 0;

	if (data + 64 > end)
		return XDP_PASS;
	n = p[0] & 63; /* n <= 63 < 64 checked bytes */
	for (i = 0; i < n; i++) {
		barrier_var(i);
		sum += p[(i & 63) + 0];
	}
	return sum & 1 ? XDP_PASS : XDP_PASS;
}
