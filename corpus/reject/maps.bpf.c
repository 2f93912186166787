/* Rejected: map value, reference and lock mistakes. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

struct val {
	__u64 slots[16];
};

struct locked {
	struct bpf_spin_lock lock;
	__u64 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct val);
} arr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u64);
	__type(value, __u64);
} h8 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct locked);
} locks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} jmp SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

const volatile __u32 cfg_limit = 10;
__u64 counters[8];

/* unsafe: map value dereferenced before the NULL check */
SEC("xdp")
int xdp_map_value_no_null_check(struct xdp_md *ctx)
{
	__u64 k = 0;
	__u64 *v = bpf_map_lookup_elem(&h8, &k);

	*v += 1;
	return XDP_PASS;
}

/* unsafe: off-by-one index into a map value array (<= instead of <) */
SEC("xdp")
int xdp_map_value_off_by_one(struct xdp_md *ctx)
{
	__u32 k = 0, i = bpf_get_prandom_u32();
	struct val *v = bpf_map_lookup_elem(&arr, &k);

	if (!v || i > 16)
		return XDP_PASS;
	v->slots[i]++;
	return XDP_PASS;
}

/* unsafe: map value index taken from the packet without a bound */
SEC("xdp")
int xdp_map_value_unbounded_index(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 k = 0, *ip = data;
	struct val *v;

	if ((void *)(ip + 1) > end)
		return XDP_DROP;
	v = bpf_map_lookup_elem(&arr, &k);
	if (!v)
		return XDP_PASS;
	v->slots[*ip]++;
	return XDP_PASS;
}

/* unsafe: signed index checked only from above (may be negative) */
SEC("xdp")
int xdp_map_value_negative_index(struct xdp_md *ctx)
{
	__u32 k = 0;
	int i = (int)bpf_get_prandom_u32();
	struct val *v = bpf_map_lookup_elem(&arr, &k);

	if (!v || i >= 16)
		return XDP_PASS;
	v->slots[i]++;
	return XDP_PASS;
}

/* unsafe: pointer arithmetic on a map value that may be NULL */
SEC("xdp")
__naked int xdp_arith_on_nullable(void)
{
	asm volatile("r1 = 0;"
		     "*(u64 *)(r10 - 8) = r1;"
		     "r2 = r10;"
		     "r2 += -8;"
		     "r1 = %[h8] ll;"
		     "call %[bpf_map_lookup_elem];"
		     "r0 += 8;"
		     "if r0 == 0 goto l0_%=;"
		     "r1 = *(u64 *)(r0 + 0);"
		     "l0_%=: r0 = 2;"
		     "exit;"
		     :
		     : __imm_addr(h8), __imm(bpf_map_lookup_elem)
		     : "memory");
}

/* unsafe: key buffer smaller than the map's key size */
SEC("xdp")
int xdp_short_key(struct xdp_md *ctx)
{
	__u32 small = 1; /* h8 wants 8 bytes */
	__u64 *v = bpf_map_lookup_elem(&h8, (void *)&small);

	return v ? XDP_DROP : XDP_PASS;
}

/* unsafe: write into read-only .rodata */
SEC("xdp")
__naked int xdp_write_rodata(void)
{
	asm volatile("r1 = %[cfg_limit] ll;"
		     "r2 = 5;"
		     "*(u32 *)(r1 + 0) = r2;"
		     "r0 = 2;"
		     "exit;"
		     :
		     : __imm_addr(cfg_limit)
		     : "memory");
}

/* unsafe: global (.bss) array indexed without a bound */
SEC("xdp")
int xdp_global_array_oob(struct xdp_md *ctx)
{
	__u32 i = bpf_get_prandom_u32();

	counters[i]++;
	return XDP_PASS;
}

/* unsafe: lookup in a prog array with bpf_map_lookup_elem */
SEC("xdp")
int xdp_lookup_prog_array(struct xdp_md *ctx)
{
	__u32 k = 0;

	return bpf_map_lookup_elem(&jmp, &k) ? XDP_DROP : XDP_PASS;
}

/* unsafe: tail call through a map that is not a prog array */
SEC("xdp")
int xdp_tail_call_wrong_map(struct xdp_md *ctx)
{
	bpf_tail_call(ctx, &h8, 0);
	return XDP_PASS;
}

/* unsafe: ring buffer reserved and never submitted nor discarded (reference leak) */
SEC("tp/syscalls/sys_enter_openat")
int tp_ringbuf_leak(void *ctx)
{
	__u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!e)
		return 0;
	*e = bpf_ktime_get_ns();
	return 0;
}

/* unsafe: ring buffer record submitted twice */
SEC("tp/syscalls/sys_enter_openat")
int tp_ringbuf_double_submit(void *ctx)
{
	__u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!e)
		return 0;
	bpf_ringbuf_submit(e, 0);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* unsafe: ring buffer record written after submit (use after release) */
SEC("tp/syscalls/sys_enter_openat")
int tp_ringbuf_use_after_submit(void *ctx)
{
	volatile __u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!e)
		return 0;
	bpf_ringbuf_submit((void *)e, 0);
	*e = 1;
	return 0;
}

/* unsafe: ring buffer reservation with a non-constant size */
SEC("tp/syscalls/sys_enter_openat")
int tp_ringbuf_variable_size(void *ctx)
{
	__u64 sz = bpf_get_prandom_u32() & 0xff;
	void *e = bpf_ringbuf_reserve(&rb, sz, 0);

	if (e)
		bpf_ringbuf_discard(e, 0);
	return 0;
}

/* unsafe: write beyond the reserved ring buffer record */
SEC("tp/syscalls/sys_enter_openat")
int tp_ringbuf_write_past_record(void *ctx)
{
	__u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!e)
		return 0;
	e[1] = 2;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* unsafe: bpf_ringbuf_submit() on a map value, not a reserved record */
SEC("tp/syscalls/sys_enter_openat")
int tp_ringbuf_submit_map_value(void *ctx)
{
	__u32 k = 0;
	struct val *v = bpf_map_lookup_elem(&arr, &k);

	if (v)
		bpf_ringbuf_submit(v, 0);
	return 0;
}

/* unsafe: socket from bpf_sk_lookup_tcp() never released (reference leak) */
SEC("tc")
int tc_sk_lookup_leak(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;

	sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
	if (!sk)
		return TC_ACT_OK;
	return sk->state == 10 ? TC_ACT_SHOT : TC_ACT_OK;
}

/* unsafe: socket released twice */
SEC("tc")
int tc_sk_double_release(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;

	sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
	if (!sk)
		return TC_ACT_OK;
	bpf_sk_release(sk);
	bpf_sk_release(sk);
	return TC_ACT_OK;
}

/* unsafe: socket from lookup dereferenced without a NULL check */
SEC("tc")
int tc_sk_no_null_check(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;
	int st;

	sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
	st = sk->state;
	if (sk)
		bpf_sk_release(sk);
	return st;
}

/* unsafe: releasing a socket that was not acquired (skb->sk) */
SEC("tc")
int tc_release_unreferenced_sock(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk;

	if (!sk)
		return TC_ACT_OK;
	bpf_sk_release(sk);
	return TC_ACT_OK;
}

/* unsafe: spin lock still held at program exit */
SEC("tc")
int tc_lock_held_at_exit(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct locked *l = bpf_map_lookup_elem(&locks, &k);

	if (!l)
		return TC_ACT_OK;
	bpf_spin_lock(&l->lock);
	l->n++;
	return TC_ACT_OK;
}

/* unsafe: helper call while holding a spin lock */
SEC("tc")
int tc_helper_under_lock(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct locked *l = bpf_map_lookup_elem(&locks, &k);

	if (!l)
		return TC_ACT_OK;
	bpf_spin_lock(&l->lock);
	l->n = bpf_ktime_get_ns();
	bpf_spin_unlock(&l->lock);
	return TC_ACT_OK;
}

/* unsafe: unlock without holding the lock */
SEC("tc")
int tc_unlock_without_lock(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct locked *l = bpf_map_lookup_elem(&locks, &k);

	if (!l)
		return TC_ACT_OK;
	l->n++;
	bpf_spin_unlock(&l->lock);
	return TC_ACT_OK;
}

/* unsafe: taking the same spin lock twice (self deadlock) */
SEC("tc")
int tc_double_lock(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct locked *l = bpf_map_lookup_elem(&locks, &k);

	if (!l)
		return TC_ACT_OK;
	bpf_spin_lock(&l->lock);
	bpf_spin_lock(&l->lock);
	l->n++;
	bpf_spin_unlock(&l->lock);
	bpf_spin_unlock(&l->lock);
	return TC_ACT_OK;
}

/* unsafe: the spin lock field read directly by a load */
SEC("tc")
int tc_lock_field_read(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct locked *l = bpf_map_lookup_elem(&locks, &k);

	if (!l)
		return TC_ACT_OK;
	return *(volatile __u32 *)&l->lock ? TC_ACT_SHOT : TC_ACT_OK;
}

/* unsafe: bpf_spin_lock() on a map whose value has no lock */
SEC("tc")
int tc_lock_on_plain_value(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct val *v = bpf_map_lookup_elem(&arr, &k);

	if (!v)
		return TC_ACT_OK;
	bpf_spin_lock((struct bpf_spin_lock *)v);
	v->slots[1]++;
	bpf_spin_unlock((struct bpf_spin_lock *)v);
	return TC_ACT_OK;
}

/* unsafe: map pointer passed where a stack key is expected (wrong argument type) */
SEC("xdp")
__naked int xdp_helper_wrong_arg_type(void)
{
	asm volatile("r1 = %[h8] ll;"
		     "r2 = r1;"
		     "call %[bpf_map_lookup_elem];"
		     "r0 = 2;"
		     "exit;"
		     :
		     : __imm_addr(h8), __imm(bpf_map_lookup_elem)
		     : "memory");
}

/* unsafe: scalar passed as the map argument */
SEC("xdp")
__naked int xdp_scalar_as_map(void)
{
	asm volatile("r1 = 42;"
		     "r2 = r10;"
		     "r2 += -8;"
		     "r3 = 0;"
		     "*(u64 *)(r10 - 8) = r3;"
		     "call %[bpf_map_lookup_elem];"
		     "r0 = 2;"
		     "exit;"
		     :
		     : __imm(bpf_map_lookup_elem)
		     : "memory");
}

/* unsafe: pointer arithmetic on a map pointer */
SEC("xdp")
__naked int xdp_map_ptr_arith(void)
{
	asm volatile("r1 = %[h8] ll;"
		     "r1 += 8;"
		     "r0 = 2;"
		     "exit;"
		     :
		     : __imm_addr(h8)
		     : "memory");
}
