/* Accepted programs whose safety depends on correlations between branches.
 * The kernel explores paths separately and accepts them; an abstract
 * interpreter that merges states at join points loses the correlation
 * (flag <-> pointer validity, condition <-> lock held, predicate <-> index
 * bound) and rejects them. barrier_var() stops the compiler from folding
 * the second test into the first, so both tests stay in the bytecode. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

struct counter {
	struct bpf_spin_lock lock;
	__u64 n;
	__u64 bytes;
};

struct slots {
	__u64 s[16];
};

struct big {
	__u64 s[64];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct counter);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct slots);
} small_vals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct big);
} big_vals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} events SEC(".maps");

static __always_inline __u32 first_word(struct xdp_md *ctx, int *ok)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;

	if (data + 4 > end) {
		*ok = 0;
		return 0;
	}
	*ok = 1;
	return *(__u32 *)data;
}

/* if (c) lock(); ...; if (c) unlock(); */
SEC("xdp")
int corr_cond_lock(struct xdp_md *ctx)
{
	struct counter *c;
	__u32 key = 0, w;
	int ok, locked;

	w = first_word(ctx, &ok);
	if (!ok)
		return XDP_PASS;
	c = bpf_map_lookup_elem(&counters, &key);
	if (!c)
		return XDP_PASS;
	locked = w & 1;
	if (locked)
		bpf_spin_lock(&c->lock);
	c->n++;
	barrier_var(locked);
	if (locked)
		bpf_spin_unlock(&c->lock);
	return XDP_PASS;
}

/* lock taken on one path, a flag remembers it, the flag is tested later */
SEC("xdp")
int corr_lock_flag(struct xdp_md *ctx)
{
	struct counter *c;
	__u32 key = 1, w;
	int ok, held = 0;

	w = first_word(ctx, &ok);
	if (!ok)
		return XDP_PASS;
	c = bpf_map_lookup_elem(&counters, &key);
	if (!c)
		return XDP_PASS;
	if (w > 1000) {
		bpf_spin_lock(&c->lock);
		held = 1;
	}
	c->bytes += w;
	barrier_var(held);
	if (held)
		bpf_spin_unlock(&c->lock);
	return XDP_PASS;
}

/* lock one of two locks, unlock the same one under the same condition */
SEC("xdp")
int corr_lock_one_of_two(struct xdp_md *ctx)
{
	struct counter *a, *b;
	__u32 ka = 2, kb = 3, w;
	int ok, which;

	w = first_word(ctx, &ok);
	if (!ok)
		return XDP_PASS;
	a = bpf_map_lookup_elem(&counters, &ka);
	b = bpf_map_lookup_elem(&counters, &kb);
	if (!a || !b)
		return XDP_PASS;
	which = w & 2;
	if (which)
		bpf_spin_lock(&a->lock);
	else
		bpf_spin_lock(&b->lock);
	a->n++;
	b->n++;
	barrier_var(which);
	if (which)
		bpf_spin_unlock(&a->lock);
	else
		bpf_spin_unlock(&b->lock);
	return XDP_PASS;
}

/* a flag set on the path where the lookup succeeded guards the use */
SEC("xdp")
int corr_flag_guards_pointer(struct xdp_md *ctx)
{
	struct slots *v = NULL;
	__u32 w;
	int ok, have = 0;

	w = first_word(ctx, &ok);
	if (!ok)
		return XDP_PASS;
	if (w & 4) {
		v = bpf_map_lookup_elem(&small_vals, &w);
		if (v)
			have = 1;
	}
	barrier_var(have);
	if (have)
		v->s[0]++;
	return XDP_PASS;
}

/* the NULL test is computed once into a boolean and used later */
SEC("xdp")
int corr_null_test_saved(struct xdp_md *ctx)
{
	struct slots *v;
	__u32 w;
	int ok, valid;

	w = first_word(ctx, &ok);
	if (!ok)
		return XDP_PASS;
	v = bpf_map_lookup_elem(&small_vals, &w);
	valid = v != NULL;
	barrier_var(valid);
	if (!valid)
		return XDP_PASS;
	v->s[1] += w;
	return XDP_PASS;
}

/* two pointers valid together: one boolean for both */
SEC("xdp")
int corr_both_valid(struct xdp_md *ctx)
{
	struct slots *a;
	struct big *b;
	__u32 w;
	int ok, both;

	w = first_word(ctx, &ok);
	if (!ok)
		return XDP_PASS;
	a = bpf_map_lookup_elem(&small_vals, &w);
	b = bpf_map_lookup_elem(&big_vals, &w);
	both = a && b;
	barrier_var(both);
	if (both)
		b->s[63] = a->s[15];
	return XDP_PASS;
}

/* index bound checked in one block, used after a join under the same predicate */
SEC("xdp")
int corr_index_same_predicate(struct xdp_md *ctx)
{
	struct slots *v;
	__u32 key = 0, w, idx;
	int ok, in_range;

	w = first_word(ctx, &ok);
	if (!ok)
		return XDP_PASS;
	v = bpf_map_lookup_elem(&small_vals, &key);
	if (!v)
		return XDP_PASS;
	idx = w >> 8;
	in_range = idx < 16;
	if (in_range)
		v->s[0]++;
	else
		v->s[1]++;
	barrier_var(in_range);
	if (in_range)
		v->s[idx & 0xffff] += 2; /* mask keeps the compiler honest, not the verifier */
	return XDP_PASS;
}

/* the index is 0 or 100 depending on a condition; the large one is only
 * used with the large value */
SEC("xdp")
int corr_offset_by_kind(struct xdp_md *ctx)
{
	struct slots *sv;
	struct big *bv;
	__u32 key = 0, w, off;
	int ok, is_big;

	w = first_word(ctx, &ok);
	if (!ok)
		return XDP_PASS;
	is_big = w & 1;
	off = is_big ? 60 : 10;
	barrier_var(is_big);
	if (is_big) {
		bv = bpf_map_lookup_elem(&big_vals, &key);
		if (bv)
			bv->s[off]++;
	} else {
		sv = bpf_map_lookup_elem(&small_vals, &key);
		if (sv)
			sv->s[off]++;
	}
	return XDP_PASS;
}

/* pointer chosen by kind from maps of different value sizes, then a
 * kind-specific offset */
SEC("xdp")
int corr_pointer_by_kind(struct xdp_md *ctx)
{
	__u64 *p;
	__u32 key = 0, w;
	int ok, kind;

	w = first_word(ctx, &ok);
	if (!ok)
		return XDP_PASS;
	kind = w & 1;
	if (kind)
		p = bpf_map_lookup_elem(&big_vals, &key);
	else
		p = bpf_map_lookup_elem(&small_vals, &key);
	if (!p)
		return XDP_PASS;
	barrier_var(kind);
	if (kind)
		p[50]++;
	else
		p[5]++;
	return XDP_PASS;
}

/* ring buffer record reserved only when wanted, submitted under the same flag */
SEC("xdp")
int corr_reserve_submit_flag(struct xdp_md *ctx)
{
	__u64 *e = NULL;
	__u32 w;
	int ok, want;

	w = first_word(ctx, &ok);
	if (!ok)
		return XDP_PASS;
	want = (w & 0xff) == 0x45;
	barrier_var(want); /* test the boolean itself, not w (the kernel cannot
			      carry "w != 0x45" out of an equality branch) */
	if (want) {
		e = bpf_ringbuf_reserve(&events, 8, 0);
		if (!e)
			return XDP_PASS;
		*e = w;
	}
	barrier_var(want);
	if (want)
		bpf_ringbuf_submit(e, 0);
	return XDP_PASS;
}

/* a packet bounds check remembered in a flag */
SEC("xdp")
int corr_pkt_check_flag(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u8 *p = data;
	int long_enough;

	long_enough = data + 64 <= end;
	barrier_var(long_enough);
	if (!long_enough)
		return XDP_PASS;
	return p[63] == 0xff ? XDP_DROP : XDP_PASS;
}

/* header length depends on the protocol; after one check at the join, the
 * read offset depends on the same protocol */
SEC("xdp")
int corr_pkt_len_by_proto(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	__u8 *l3;
	__u32 need;
	int v6;

	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	v6 = eth->h_proto == bpf_htons(ETH_P_IPV6);
	barrier_var(v6);
	need = v6 ? 40 : 20;
	l3 = (void *)(eth + 1);
	if ((void *)l3 + need > end)
		return XDP_DROP;
	barrier_var(v6);
	if (v6)
		return l3[39] ? XDP_PASS : XDP_DROP; /* last byte of the IPv6 header */
	return l3[19] ? XDP_PASS : XDP_DROP;         /* last byte of the IPv4 header */
}

/* parse status and output pointer: the pointer is only valid when the
 * status is 0 */
static __always_inline int find_udp(void *data, void *end, struct udphdr **out)
{
	struct ethhdr *eth = data;
	struct iphdr *ip;
	struct udphdr *uh;

	*out = NULL;
	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return -1;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->ihl != 5 || ip->protocol != IPPROTO_UDP)
		return -2;
	uh = (void *)(ip + 1);
	if ((void *)(uh + 1) > end)
		return -3;
	*out = uh;
	return 0;
}

SEC("xdp")
int corr_status_and_out_ptr(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct udphdr *uh;
	int err = find_udp(data, end, &uh);

	barrier_var(err);
	if (err)
		return XDP_PASS;
	return uh->dest == bpf_htons(4789) ? XDP_DROP : XDP_PASS;
}

/* protocol state remembers which header pointer is valid */
SEC("xdp")
int corr_state_machine(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	struct tcphdr *th = NULL;
	struct udphdr *uh = NULL;
	int state = 0;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->ihl != 5)
		return XDP_PASS;
	if (ip->protocol == IPPROTO_TCP) {
		th = (void *)(ip + 1);
		if ((void *)(th + 1) <= end)
			state = 1;
	} else if (ip->protocol == IPPROTO_UDP) {
		uh = (void *)(ip + 1);
		if ((void *)(uh + 1) <= end)
			state = 2;
	}
	barrier_var(state);
	if (state == 1)
		return th->syn ? XDP_DROP : XDP_PASS;
	if (state == 2)
		return uh->len ? XDP_PASS : XDP_DROP;
	return XDP_PASS;
}

/* two counters advance together: j == 8 * i, and j indexes bytes */
SEC("xdp")
int corr_linked_counters(struct xdp_md *ctx)
{
	struct slots *v;
	__u32 key = 0, j = 0;
	__u64 sum = 0;

	v = bpf_map_lookup_elem(&small_vals, &key);
	if (!v)
		return XDP_PASS;
	for (int i = 0; i < 16; i++) {
		barrier_var(j);
		sum += *(__u64 *)((char *)v + j);
		j += 8;
	}
	return sum & 1 ? XDP_DROP : XDP_PASS;
}

/* loop bound from data, array index bounded by the loop bound (i < n <= 16) */
SEC("xdp")
int corr_relational_loop_bound(struct xdp_md *ctx)
{
	struct slots *v;
	__u32 key = 0, w, n;
	int ok;
	__u64 acc = 0;

	w = first_word(ctx, &ok);
	if (!ok)
		return XDP_PASS;
	v = bpf_map_lookup_elem(&small_vals, &key);
	if (!v)
		return XDP_PASS;
	n = w & 0xff;
	if (n > 16)
		return XDP_PASS;
	for (__u32 i = 0; i < n; i++) {
		barrier_var(i);
		acc += v->s[i];
	}
	return acc ? XDP_PASS : XDP_DROP;
}

/* socket looked up only for TCP; released under the same predicate */
SEC("tc")
int corr_sk_lookup_release(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk = NULL;
	int is_tcp = skb->protocol == bpf_htons(ETH_P_IP) && skb->len > 100;
	int r = TC_ACT_OK;

	if (is_tcp) {
		sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
		if (!sk)
			return TC_ACT_OK;
	}
	barrier_var(is_tcp);
	if (is_tcp) {
		if (sk->state == 10)
			r = TC_ACT_SHOT;
		bpf_sk_release(sk);
	}
	return r;
}

/* valid index remembered with a flag; the index itself is kept aside */
SEC("xdp")
int corr_valid_slot(struct xdp_md *ctx)
{
	struct slots *v;
	__u32 key = 0, w, slot = 0;
	int ok, valid = 0;

	w = first_word(ctx, &ok);
	if (!ok)
		return XDP_PASS;
	v = bpf_map_lookup_elem(&small_vals, &key);
	if (!v)
		return XDP_PASS;
	if ((w % 97) < 16) {
		slot = w % 97;
		valid = 1;
	}
	barrier_var(valid);
	barrier_var(slot);
	if (valid && slot < 4096)
		v->s[slot & 0xfff]++;
	return XDP_PASS;
}
