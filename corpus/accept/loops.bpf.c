/* Loops the way current programs write them: bpf_loop() callbacks,
 * open-coded iterators (bpf_iter_num via corpus_for), bounded C loops the
 * verifier walks, bpf_for_each_map_elem(), and static/global subprograms. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

struct hist {
	__u64 slots[32];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hist);
} hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} table SEC(".maps");

struct sum_ctx {
	struct hist *h;
	__u64 total;
	__u32 nonzero;
};

static long sum_slot(__u32 i, void *arg)
{
	struct sum_ctx *c = arg;

	if (i >= 32)
		return 1;
	c->total += c->h->slots[i];
	if (c->h->slots[i])
		c->nonzero++;
	return 0;
}

SEC("tc")
int tc_bpf_loop_sum(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct sum_ctx c = {};

	c.h = bpf_map_lookup_elem(&hist, &k);
	if (!c.h)
		return TC_ACT_OK;
	bpf_loop(32, sum_slot, &c, 0);
	skb->mark = c.nonzero;
	return TC_ACT_OK;
}

struct scan_ctx {
	struct xdp_md *xdp;
	__u32 first_zero;
};

/* find the first zero byte; the callback keeps no per-iteration state, so
 * the verifier's states converge */
static long scan_byte(__u32 i, void *arg)
{
	struct scan_ctx *c = arg;
	void *data = (void *)(long)c->xdp->data, *end = (void *)(long)c->xdp->data_end;
	__u8 *p = data + (i & 0x3ff);

	if ((void *)(p + 1) > end)
		return 1;
	if (*p == 0) {
		c->first_zero = i;
		return 1;
	}
	return 0;
}

SEC("xdp")
int xdp_bpf_loop_scan(struct xdp_md *ctx)
{
	struct scan_ctx c = {.xdp = ctx, .first_zero = 0xffffffff};

	bpf_loop(1024, scan_byte, &c, 0);
	return c.first_zero < 14 ? XDP_DROP : XDP_PASS;
}

static __u64 count_cb(struct bpf_map *map, __u32 *key, __u64 *val, __u64 *sum)
{
	*sum += *val;
	return 0;
}

SEC("tc")
int tc_for_each_sum(struct __sk_buff *skb)
{
	__u64 sum = 0;

	bpf_for_each_map_elem(&table, count_cb, &sum, 0);
	skb->priority = sum > 1000000 ? 1 : 0;
	return TC_ACT_OK;
}

/* A plain bounded loop: the verifier walks every iteration. */
SEC("tc")
int tc_bounded_loop(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct hist *h = bpf_map_lookup_elem(&hist, &k);
	__u64 max = 0;
	int i;

	if (!h)
		return TC_ACT_OK;
	for (i = 0; i < 32; i++)
		if (h->slots[i] > max)
			max = h->slots[i];
	skb->mark = (__u32)max;
	return TC_ACT_OK;
}

/* while loop with a data-dependent exit and a hard cap */
SEC("tc")
int tc_while_capped(struct __sk_buff *skb)
{
	__u32 v = skb->hash, steps = 0;

	while (v != 1 && steps < 64) { /* Collatz, capped */
		v = (v & 1) ? 3 * v + 1 : v / 2;
		steps++;
	}
	skb->mark = steps;
	return TC_ACT_OK;
}

#if CORPUS_HAVE_KFUNCS
SEC("tc")
int tc_iter_num_sum(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct hist *h = bpf_map_lookup_elem(&hist, &k);
	__u64 total = 0;
	int i;

	if (!h)
		return TC_ACT_OK;
	corpus_for(i, 0, 32)
		total += h->slots[i];
	skb->mark = (__u32)total;
	return TC_ACT_OK;
}

SEC("xdp")
int xdp_iter_checksum(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 sum = 0;
	int i;

	corpus_for(i, 0, 256)
	{
		__u8 *p = data + i;

		if ((void *)(p + 1) > end)
			break;
		sum += *p;
	}
	return sum & 1 ? XDP_PASS : XDP_PASS;
}

SEC("tp/sched/sched_switch")
int tp_iter_nested(void *ctx)
{
	__u32 k = 0;
	struct hist *h = bpf_map_lookup_elem(&hist, &k);
	int i, j;

	if (!h)
		return 0;
	corpus_for(i, 0, 4)
	{
		corpus_for(j, 0, 8)
		{
			h->slots[j] += i;
		}
	}
	return 0;
}
#endif

/* static subprograms (verified in the caller's context) */
static __noinline __u32 fold16(__u32 x)
{
	x = (x & 0xffff) + (x >> 16);
	return (x & 0xffff) + (x >> 16);
}

static __noinline int classify_port(__u16 port)
{
	if (port == 53)
		return 1;
	if (port == 80 || port == 443)
		return 2;
	if (port < 1024)
		return 3;
	return 0;
}

SEC("tc")
int tc_static_subprogs(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *uh = (void *)(ip + 1);

	if ((void *)(uh + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5)
		return TC_ACT_OK;
	skb->mark = classify_port(bpf_ntohs(uh->dest)) << 16 | fold16(ip->saddr ^ ip->daddr);
	return TC_ACT_OK;
}

/* global subprograms (verified once, on their own, against their BTF signature) */
__noinline int global_hash(__u32 a, __u32 b)
{
	a ^= b;
	a *= 0x9e3779b1;
	return a >> 16;
}

__noinline int global_ctx_len(struct __sk_buff *skb)
{
	if (!skb)
		return 0;
	return skb->len;
}

__noinline int global_hist_add(struct hist *h, __u32 slot)
{
	if (!h || slot >= 32)
		return -1;
	h->slots[slot]++;
	return 0;
}

SEC("tc")
int tc_global_subprogs(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct hist *h = bpf_map_lookup_elem(&hist, &k);

	if (h)
		global_hist_add(h, global_hash(skb->hash, skb->mark) & 31);
	return global_ctx_len(skb) > 1500 ? TC_ACT_SHOT : TC_ACT_OK;
}

SEC("xdp")
int xdp_global_subprog(struct xdp_md *ctx)
{
	return global_hash(ctx->ingress_ifindex, ctx->rx_queue_index) & 1 ? XDP_PASS : XDP_PASS;
}

/* callback subprogram with a nested static call */
static __noinline __u64 weight(__u32 i)
{
	return (__u64)i * i;
}

static long weighted(__u32 i, void *arg)
{
	*(__u64 *)arg += weight(i);
	return 0;
}

SEC("tp/syscalls/sys_enter_getpid")
int tp_loop_with_subprog(void *ctx)
{
	__u64 acc = 0;
	__u32 k = 0;
	struct hist *h;

	bpf_loop(100, weighted, &acc, 0);
	h = bpf_map_lookup_elem(&hist, &k);
	if (h)
		h->slots[0] = acc;
	return 0;
}
