/* Socket filters (classic capture-style filters rewritten in C), cgroup_skb
 * ingress/egress policies, and a handful of small XDP/tc utilities of the
 * kind every deployment carries. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 1024);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct { __u32 prefixlen; __u32 addr; });
	__type(value, __u32);
} deny_v4 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u16);
	__type(value, __u32);
} port_policy SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} allowed_cgroup SEC(".maps");

static __always_inline void count(__u32 i)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &i);

	if (c)
		*c += 1;
}

/* The LD_ABS instruction as an LLVM intrinsic (the samples/bpf idiom). */
unsigned long long load_byte(void *skb, unsigned long long off) asm("llvm.bpf.load.byte");

/* ---- socket filters (skb starts at the network header) ---- */
SEC("socket")
int sock_tcp_only(struct __sk_buff *skb)
{
	__u8 proto;

	if (skb->protocol != bpf_htons(ETH_P_IP))
		return 0;
	if (bpf_skb_load_bytes(skb, offsetof(struct iphdr, protocol), &proto, 1))
		return 0;
	return proto == IPPROTO_TCP ? skb->len : 0;
}

SEC("socket")
int sock_port_80(struct __sk_buff *skb)
{
	__u8 vihl;
	__u16 dport;

	if (skb->protocol != bpf_htons(ETH_P_IP))
		return 0;
	if (bpf_skb_load_bytes(skb, 0, &vihl, 1))
		return 0;
	if (bpf_skb_load_bytes(skb, (vihl & 0xf) * 4 + 2, &dport, 2))
		return 0;
	return dport == bpf_htons(80) ? -1 : 0;
}

SEC("socket")
int sock_snaplen_128(struct __sk_buff *skb)
{
	return skb->len > 128 ? 128 : skb->len;
}

SEC("socket")
int sock_no_multicast(struct __sk_buff *skb)
{
	__u32 daddr;

	if (skb->protocol != bpf_htons(ETH_P_IP))
		return skb->len;
	if (bpf_skb_load_bytes(skb, offsetof(struct iphdr, daddr), &daddr, 4))
		return 0;
	return (bpf_ntohl(daddr) >> 28) == 0xe ? 0 : skb->len;
}

SEC("socket")
int sock_ipv6_only(struct __sk_buff *skb)
{
	return skb->protocol == bpf_htons(ETH_P_IPV6) ? skb->len : 0;
}

SEC("socket")
int sock_sample_1_in_64(struct __sk_buff *skb)
{
	return (bpf_get_prandom_u32() & 63) == 0 ? skb->len : 0;
}

SEC("socket")
int sock_ld_abs_icmp(struct __sk_buff *skb)
{
	/* the legacy packet-load instructions, as cBPF-converted filters use */
	__u64 proto = load_byte(skb, offsetof(struct iphdr, protocol));

	return proto == IPPROTO_ICMP ? 0xffff : 0;
}

SEC("socket")
int sock_count_by_proto(struct __sk_buff *skb)
{
	__u8 proto = 0;

	if (skb->protocol == bpf_htons(ETH_P_IP) &&
	    !bpf_skb_load_bytes(skb, offsetof(struct iphdr, protocol), &proto, 1))
		count(proto & 15);
	return 0; /* observe only */
}

/* ---- cgroup_skb policies ---- */
SEC("cgroup_skb/ingress")
int cg_ingress_deny_prefixes(struct __sk_buff *skb)
{
	struct { __u32 prefixlen; __u32 addr; } key;
	__u32 saddr;

	if (skb->protocol != bpf_htons(ETH_P_IP))
		return 1;
	if (bpf_skb_load_bytes(skb, offsetof(struct iphdr, saddr), &saddr, 4))
		return 1;
	key.prefixlen = 32;
	key.addr = saddr;
	return bpf_map_lookup_elem(&deny_v4, &key) ? 0 : 1;
}

SEC("cgroup_skb/egress")
int cg_egress_port_policy(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct iphdr *ip = data;
	struct tcphdr *th;
	__u16 port;

	if (skb->protocol != bpf_htons(ETH_P_IP))
		return 1;
	if ((void *)(ip + 1) > end || ip->ihl != 5 || ip->protocol != IPPROTO_TCP)
		return 1;
	th = (void *)(ip + 1);
	if ((void *)(th + 1) > end)
		return 1;
	port = bpf_ntohs(th->dest);
	return bpf_map_lookup_elem(&port_policy, &port) ? 0 : 1;
}

SEC("cgroup_skb/egress")
int cg_egress_count_bytes(struct __sk_buff *skb)
{
	__u32 k = 1;
	__u64 *c = bpf_map_lookup_elem(&counters, &k);

	if (c)
		*c += skb->len;
	return 1;
}

SEC("cgroup_skb/ingress")
int cg_ingress_only_established(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk;
	struct bpf_tcp_sock *tp;

	if (!sk)
		return 1;
	tp = bpf_tcp_sock(sk);
	if (!tp)
		return 1;
	count(2 + (tp->snd_cwnd > 10));
	return 1;
}

SEC("cgroup_skb/egress")
int cg_egress_ecn_mark(struct __sk_buff *skb)
{
	if (skb->len > 1400)
		bpf_skb_ecn_set_ce(skb);
	return 1;
}

SEC("cgroup_skb/ingress")
int cg_ingress_cgroup_match(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *want = bpf_map_lookup_elem(&allowed_cgroup, &k);

	if (!want || !*want)
		return 1;
	return bpf_skb_cgroup_id(skb) == *want ? 1 : 0;
}

/* ---- small XDP / tc utilities ---- */
SEC("xdp")
int xdp_pass_all(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("xdp")
int xdp_drop_all(struct xdp_md *ctx)
{
	count(4);
	return XDP_DROP;
}

SEC("xdp")
int xdp_lpm_blocklist(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct { __u32 prefixlen; __u32 addr; } key;

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	key.prefixlen = 32;
	key.addr = ip->saddr;
	if (bpf_map_lookup_elem(&deny_v4, &key)) {
		count(5);
		return XDP_DROP;
	}
	return XDP_PASS;
}

SEC("xdp")
int xdp_metadata_mark(struct xdp_md *ctx)
{
	__u32 *meta;
	void *data;

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(__u32)))
		return XDP_PASS;
	meta = (void *)(long)ctx->data_meta;
	data = (void *)(long)ctx->data;
	if ((void *)(meta + 1) > data)
		return XDP_PASS;
	*meta = 0xcafe;
	return XDP_PASS;
}

SEC("tc")
int tc_read_xdp_metadata(struct __sk_buff *skb)
{
	__u32 *meta = (void *)(long)skb->data_meta;
	void *data = (void *)(long)skb->data;

	if ((void *)(meta + 1) > data)
		return TC_ACT_OK;
	skb->mark = *meta;
	return TC_ACT_OK;
}

SEC("xdp")
int xdp_truncate_jumbo(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	int len = end - data;

	if (len > 1514)
		bpf_xdp_adjust_tail(ctx, 1514 - len);
	return XDP_PASS;
}

SEC("xdp")
int xdp_swap_macs_tx(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	__u8 tmp[ETH_ALEN];

	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	__builtin_memcpy(tmp, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, tmp, ETH_ALEN);
	return XDP_TX;
}

SEC("xdp")
int xdp_fib_lookup_forward(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct bpf_fib_lookup fib = {};
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	long rc;

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP) || ip->ttl <= 1)
		return XDP_PASS;
	fib.family = 2;
	fib.tos = ip->tos;
	fib.l4_protocol = ip->protocol;
	fib.tot_len = bpf_ntohs(ip->tot_len);
	fib.ipv4_src = ip->saddr;
	fib.ipv4_dst = ip->daddr;
	fib.ifindex = ctx->ingress_ifindex;
	rc = bpf_fib_lookup(ctx, &fib, sizeof(fib), 0);
	if (rc != BPF_FIB_LKUP_RET_SUCCESS)
		return XDP_PASS;
	ip->check = csum_replace2(ip->check, bpf_htons((__u16)ip->ttl << 8), bpf_htons((__u16)(ip->ttl - 1) << 8));
	ip->ttl--;
	__builtin_memcpy(eth->h_dest, fib.dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, fib.smac, ETH_ALEN);
	return bpf_redirect(fib.ifindex, 0);
}

SEC("tc")
int tc_set_tstamp_delay(struct __sk_buff *skb)
{
	/* EDT pacing: delay each packet by 10 us relative to now */
	skb->tstamp = bpf_ktime_get_ns() + 10000;
	return TC_ACT_OK;
}

SEC("tc")
int tc_change_tail_pad(struct __sk_buff *skb)
{
	if (skb->len < 60)
		bpf_skb_change_tail(skb, 60, 0);
	return TC_ACT_OK;
}

SEC("tc")
int tc_hash_recalc(struct __sk_buff *skb)
{
	__u32 h = bpf_get_hash_recalc(skb);

	count(6 + (h & 7));
	return TC_ACT_OK;
}

SEC("tc")
int tc_egress_cgroup_classid(struct __sk_buff *skb)
{
	__u32 cls = bpf_get_cgroup_classid(skb);

	if (cls)
		skb->priority = cls & 0xffff;
	return TC_ACT_OK;
}

SEC("tc")
int tc_sk_lookup_established(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct tcphdr *th = (void *)(ip + 1);
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;

	if ((void *)(th + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_TCP)
		return TC_ACT_OK;
	t.ipv4.saddr = ip->saddr;
	t.ipv4.daddr = ip->daddr;
	t.ipv4.sport = th->source;
	t.ipv4.dport = th->dest;
	sk = bpf_skc_lookup_tcp(skb, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
	if (!sk)
		return TC_ACT_OK;
	if (sk->state != 10 /* TCP_LISTEN */)
		skb->mark = 1;
	bpf_sk_release(sk);
	return TC_ACT_OK;
}
