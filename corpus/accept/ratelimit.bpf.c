/* Token-bucket rate limiters. Buckets live in per-CPU maps (no atomics
 * needed on the fast path) or in an LRU hash keyed by source address with a
 * spin lock; rates come from .rodata so the loader can configure them. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

#define NSEC_PER_SEC 1000000000ULL

const volatile __u64 rate_pps = 100000;    /* tokens per second */
const volatile __u64 burst = 2000;         /* bucket depth */
const volatile __u64 rate_bytes = 12500000; /* 100 Mbit/s */

struct tbucket {
	__u64 tokens;
	__u64 last_ns;
};

struct locked_bucket {
	struct bpf_spin_lock lock;
	__u64 tokens;
	__u64 last_ns;
	__u64 drops;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tbucket);
} pcpu_bucket SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct tbucket);
} class_buckets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH); /* LRU maps cannot hold a bpf_spin_lock */
	__uint(max_entries, 100000);
	__type(key, __u32);
	__type(value, struct locked_bucket);
} src_buckets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_PERCPU_HASH);
	__uint(max_entries, 100000);
	__type(key, __u32);
	__type(value, struct tbucket);
} src_pcpu_buckets SEC(".maps");

/* Refill then take cost tokens; returns 1 when allowed. */
static __always_inline int take(struct tbucket *b, __u64 now, __u64 rate, __u64 depth, __u64 cost)
{
	__u64 elapsed = now - b->last_ns;
	__u64 add;

	if (elapsed > NSEC_PER_SEC)
		elapsed = NSEC_PER_SEC;
	add = elapsed * rate / NSEC_PER_SEC;
	if (add) {
		b->tokens += add;
		if (b->tokens > depth)
			b->tokens = depth;
		b->last_ns = now;
	}
	if (b->tokens < cost)
		return 0;
	b->tokens -= cost;
	return 1;
}

SEC("xdp")
int xdp_rate_limit_global(struct xdp_md *ctx)
{
	__u32 k = 0;
	struct tbucket *b = bpf_map_lookup_elem(&pcpu_bucket, &k);

	if (!b)
		return XDP_ABORTED;
	return take(b, bpf_ktime_get_ns(), rate_pps, burst, 1) ? XDP_PASS : XDP_DROP;
}

SEC("tc")
int tc_rate_limit_bytes(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct tbucket *b = bpf_map_lookup_elem(&pcpu_bucket, &k);

	if (!b)
		return TC_ACT_SHOT;
	return take(b, bpf_ktime_get_ns(), rate_bytes, rate_bytes / 10, skb->len) ? TC_ACT_OK
										   : TC_ACT_SHOT;
}

/* Per traffic class (DSCP) buckets. */
SEC("tc")
int tc_rate_limit_dscp(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	struct tbucket *b;
	__u32 cls;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end)
		return TC_ACT_OK;
	cls = ip->tos >> 2;
	b = bpf_map_lookup_elem(&class_buckets, &cls);
	if (!b)
		return TC_ACT_OK;
	return take(b, bpf_ktime_get_ns(), rate_pps >> (cls & 7), burst, 1) ? TC_ACT_OK : TC_ACT_SHOT;
}

/* Per source address, shared across CPUs: the bucket is guarded by a spin lock. */
SEC("xdp")
int xdp_rate_limit_per_src(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct locked_bucket *b, init = {};
	struct iphdr *ip;
	__u64 now = bpf_ktime_get_ns(), elapsed, add;
	int ok;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end)
		return XDP_DROP;
	b = bpf_map_lookup_elem(&src_buckets, &ip->saddr);
	if (!b) {
		init.tokens = burst;
		init.last_ns = now;
		bpf_map_update_elem(&src_buckets, &ip->saddr, &init, BPF_NOEXIST);
		return XDP_PASS;
	}
	bpf_spin_lock(&b->lock);
	elapsed = now - b->last_ns;
	if (elapsed > NSEC_PER_SEC)
		elapsed = NSEC_PER_SEC;
	add = elapsed * rate_pps / NSEC_PER_SEC;
	if (add) {
		b->tokens = b->tokens + add > burst ? burst : b->tokens + add;
		b->last_ns = now;
	}
	ok = b->tokens > 0;
	if (ok)
		b->tokens--;
	else
		b->drops++;
	bpf_spin_unlock(&b->lock);
	return ok ? XDP_PASS : XDP_DROP;
}

SEC("xdp")
int xdp_rate_limit_per_src_pcpu(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct tbucket *b, init;
	struct iphdr *ip;
	__u32 src;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end)
		return XDP_DROP;
	src = ip->saddr;
	b = bpf_map_lookup_elem(&src_pcpu_buckets, &src);
	if (!b) {
		init.tokens = burst - 1;
		init.last_ns = bpf_ktime_get_ns();
		bpf_map_update_elem(&src_pcpu_buckets, &src, &init, BPF_ANY);
		return XDP_PASS;
	}
	return take(b, bpf_ktime_get_ns(), rate_pps / 64, burst / 64, 1) ? XDP_PASS : XDP_DROP;
}

/* cgroup egress shaping: limit bytes a cgroup may send. */
SEC("cgroup_skb/egress")
int cg_egress_rate_limit(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct tbucket *b = bpf_map_lookup_elem(&pcpu_bucket, &k);

	if (!b)
		return 1;
	return take(b, bpf_ktime_get_ns(), rate_bytes, rate_bytes, skb->len);
}

/* SYN flood guard: only new connections consume tokens. */
SEC("xdp")
int xdp_syn_rate_limit(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	struct tcphdr *th;
	struct tbucket *b;
	__u32 k = 0;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->protocol != IPPROTO_TCP || ip->ihl != 5)
		return XDP_PASS;
	th = (void *)(ip + 1);
	if ((void *)(th + 1) > end)
		return XDP_DROP;
	if (!th->syn || th->ack)
		return XDP_PASS;
	b = bpf_map_lookup_elem(&pcpu_bucket, &k);
	if (!b)
		return XDP_PASS;
	return take(b, bpf_ktime_get_ns(), rate_pps / 10, burst / 10, 1) ? XDP_PASS : XDP_DROP;
}
