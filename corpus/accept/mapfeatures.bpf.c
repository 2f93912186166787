/* Map and runtime features: spin locks in map values, timers, tail calls
 * through a prog array, map-in-map, LRU and per-CPU maps, global data
 * (.data/.bss) and .rodata configuration, queue/stack maps, task storage. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

#define CLOCK_MONOTONIC 1

struct flow_stat {
	struct bpf_spin_lock lock;
	__u64 packets;
	__u64 bytes;
	__u64 last_ns;
};

struct gc_timer {
	struct bpf_timer timer;
	__u64 fired;
	__u64 armed_at;
};

struct inner_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct flow_stat);
} flow_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct gc_timer);
} timers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u32);
} jump_table SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, struct inner_map);
} tenants SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH_OF_MAPS);
	__uint(max_entries, 64);
	__type(key, __u32);
	__array(values, struct inner_map);
} tenants_by_id SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, __u64);
} recent SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} pcpu_counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 1024);
	__type(value, __u32);
} work_queue SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK);
	__uint(max_entries, 256);
	__type(value, __u64);
} free_ids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__uint(max_entries, 10000);
	__type(value, __u32);
	__uint(map_extra, 3);
} seen_src SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} task_calls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} sk_bytes SEC(".maps");

/* global data */
__u64 total_packets = 0;
__u64 drops_by_reason[8];
const volatile __u32 sample_rate = 16;
const volatile char cfg_name[16] = "corpus";

static __always_inline __u32 src_of(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return 0;
	return ip->saddr;
}

SEC("tc")
int tc_flow_stats_locked(struct __sk_buff *skb)
{
	__u32 src = src_of(skb);
	struct flow_stat *fs, init = {};

	if (!src)
		return TC_ACT_OK;
	fs = bpf_map_lookup_elem(&flow_stats, &src);
	if (!fs) {
		bpf_map_update_elem(&flow_stats, &src, &init, BPF_NOEXIST);
		fs = bpf_map_lookup_elem(&flow_stats, &src);
		if (!fs)
			return TC_ACT_OK;
	}
	bpf_spin_lock(&fs->lock);
	fs->packets++;
	fs->bytes += skb->len;
	bpf_spin_unlock(&fs->lock);
	return TC_ACT_OK;
}

static int gc_fire(void *map, __u32 *key, struct gc_timer *t)
{
	t->fired++;
	bpf_timer_start(&t->timer, 1000000000ULL, 0);
	return 0;
}

SEC("tc")
int tc_arm_gc_timer(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct gc_timer *t = bpf_map_lookup_elem(&timers, &k);

	if (!t)
		return TC_ACT_OK;
	if (t->armed_at)
		return TC_ACT_OK;
	t->armed_at = bpf_ktime_get_ns();
	bpf_timer_init(&t->timer, &timers, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&t->timer, gc_fire);
	bpf_timer_start(&t->timer, 1000000000ULL, 0);
	return TC_ACT_OK;
}

SEC("tc")
int tc_cancel_gc_timer(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct gc_timer *t = bpf_map_lookup_elem(&timers, &k);

	if (t && skb->mark == 0xdead)
		bpf_timer_cancel(&t->timer);
	return TC_ACT_OK;
}

/* dispatcher: tail call by IP protocol, fall back when the slot is empty */
SEC("tc")
int tc_dispatch(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	bpf_tail_call(skb, &jump_table, ip->protocol & 7);
	return TC_ACT_OK;
}

SEC("tc")
int tc_handle_tcp(struct __sk_buff *skb)
{
	__sync_fetch_and_add(&total_packets, 1);
	bpf_tail_call(skb, &jump_table, 7); /* chain to the accounting stage */
	return TC_ACT_OK;
}

SEC("xdp")
int xdp_dispatch(struct xdp_md *ctx)
{
	__u32 slot = ctx->rx_queue_index & 7;

	bpf_tail_call(ctx, &jump_table, slot);
	return XDP_PASS;
}

/* per-tenant counters in an array of maps */
SEC("tc")
int tc_tenant_counters(struct __sk_buff *skb)
{
	__u32 tenant = skb->mark & 3, slot = skb->queue_mapping & 15;
	void *inner = bpf_map_lookup_elem(&tenants, &tenant);
	__u64 *c;

	if (!inner)
		return TC_ACT_OK;
	c = bpf_map_lookup_elem(inner, &slot);
	if (c)
		__sync_fetch_and_add(c, skb->len);
	return TC_ACT_OK;
}

SEC("tc")
int tc_tenant_by_id(struct __sk_buff *skb)
{
	__u32 id = skb->mark, slot = 0;
	void *inner = bpf_map_lookup_elem(&tenants_by_id, &id);
	__u64 *c;

	if (!inner)
		return TC_ACT_SHOT;
	c = bpf_map_lookup_elem(inner, &slot);
	if (c)
		__sync_fetch_and_add(c, 1);
	return TC_ACT_OK;
}

SEC("xdp")
int xdp_lru_recent(struct xdp_md *ctx)
{
	__u64 key = ((__u64)ctx->ingress_ifindex << 32) | ctx->rx_queue_index;
	__u64 now = bpf_ktime_get_ns();

	bpf_map_update_elem(&recent, &key, &now, BPF_ANY);
	return XDP_PASS;
}

SEC("xdp")
int xdp_sampled_counter(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *c;

	if (bpf_get_prandom_u32() % sample_rate)
		return XDP_PASS;
	c = bpf_map_lookup_elem(&pcpu_counters, &k);
	if (c)
		*c += sample_rate;
	return XDP_PASS;
}

SEC("xdp")
int xdp_global_drop_reasons(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 reason;

	if (data + ETH_HLEN > end)
		reason = 1;
	else if (data + 64 > end)
		reason = 2;
	else
		return XDP_PASS;
	__sync_fetch_and_add(&drops_by_reason[reason], 1);
	return XDP_DROP;
}

SEC("tc")
int tc_queue_work(struct __sk_buff *skb)
{
	__u32 src = src_of(skb);

	if (src)
		bpf_map_push_elem(&work_queue, &src, BPF_EXIST);
	return TC_ACT_OK;
}

SEC("tc")
int tc_take_id(struct __sk_buff *skb)
{
	__u64 id;

	if (bpf_map_pop_elem(&free_ids, &id))
		return TC_ACT_OK;
	skb->mark = (__u32)id;
	return TC_ACT_OK;
}

SEC("xdp")
int xdp_bloom_first_seen(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	__u32 src;

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	src = ip->saddr;
	if (bpf_map_peek_elem(&seen_src, &src))
		bpf_map_push_elem(&seen_src, &src, 0);
	return XDP_PASS;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(btf_task_storage_calls, struct pt_regs *regs, long id)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 *n = bpf_task_storage_get(&task_calls, t, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (n)
		*n += 1;
	return 0;
}

SEC("cgroup_skb/egress")
int cg_sk_storage_bytes(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk;
	__u64 *n;

	if (!sk)
		return 1;
	sk = bpf_sk_fullsock(sk);
	if (!sk)
		return 1;
	n = bpf_sk_storage_get(&sk_bytes, sk, NULL, BPF_SK_STORAGE_GET_F_CREATE);
	if (n)
		__sync_fetch_and_add(n, skb->len);
	return 1;
}

SEC("tc")
int tc_rodata_name_check(struct __sk_buff *skb)
{
	/* read-only config compared at run time */
	if (cfg_name[0] == 'c' && cfg_name[1] == 'o')
		skb->mark |= 0x100;
	return TC_ACT_OK;
}
