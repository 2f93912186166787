/* Rejected: packet access mistakes. Each program is one unsafe pattern,
 * named in the comment above it; the kernel's message is recorded in
 * corpus/expected.tsv. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

/* unsafe: packet read without any bounds check */
SEC("xdp")
int xdp_no_bounds_check(struct xdp_md *ctx)
{
	struct ethhdr *eth = (void *)(long)ctx->data;

	return eth->h_proto == bpf_htons(ETH_P_IP) ? XDP_PASS : XDP_DROP;
}

/* unsafe: off-by-one on data_end (checks 14 bytes, reads byte 14) */
SEC("xdp")
int xdp_off_by_one(struct xdp_md *ctx)
{
	__u8 *p = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if (p + ETH_HLEN > end)
		return XDP_DROP;
	return p[ETH_HLEN] == 0x45 ? XDP_PASS : XDP_DROP;
}

/* unsafe: inverted bounds check (access on the out-of-bounds branch) */
SEC("xdp")
int xdp_inverted_check(struct xdp_md *ctx)
{
	struct ethhdr *eth = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if ((void *)(eth + 1) <= end)
		return XDP_PASS;
	return eth->h_proto ? XDP_DROP : XDP_PASS;
}

/* unsafe: bounds check against the wrong end pointer (data instead of data_end) */
SEC("xdp")
int xdp_check_against_data(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	struct iphdr *ip = data + ETH_HLEN;

	if ((void *)(ip + 1) < data)
		return XDP_DROP;
	return ip->protocol == IPPROTO_TCP ? XDP_PASS : XDP_DROP;
}

/* unsafe: header length from the packet used unchecked (ihl*4 past the check) */
SEC("xdp")
int xdp_unchecked_ihl(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct iphdr *ip = data + ETH_HLEN;
	struct udphdr *uh;

	if ((void *)(ip + 1) > end)
		return XDP_DROP;
	uh = (void *)ip + ip->ihl * 4;
	return uh->dest == bpf_htons(53) ? XDP_DROP : XDP_PASS;
}

/* unsafe: read before the start of the packet (negative offset) */
SEC("xdp")
int xdp_negative_offset(struct xdp_md *ctx)
{
	__u8 *p = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if (p + 4 > end)
		return XDP_DROP;
	return *(volatile __u8 *)(p - 2) ? XDP_PASS : XDP_DROP;
}

/* unsafe: write past the checked length */
SEC("tc")
int tc_write_past_check(struct __sk_buff *skb)
{
	__u8 *p = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;

	if (p + ETH_HLEN > end)
		return TC_ACT_OK;
	*(volatile __u32 *)(p + 12) = 0;
	return TC_ACT_OK;
}

/* unsafe: stale packet pointer used after bpf_xdp_adjust_head() */
SEC("xdp")
int xdp_stale_after_adjust_head(struct xdp_md *ctx)
{
	struct ethhdr *eth = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	if (bpf_xdp_adjust_head(ctx, -4))
		return XDP_DROP;
	return eth->h_proto ? XDP_PASS : XDP_DROP;
}

/* unsafe: stale packet pointer used after bpf_skb_pull_data() */
SEC("tc")
int tc_stale_after_pull(struct __sk_buff *skb)
{
	struct ethhdr *eth = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;

	if ((void *)(eth + 1) > end)
		return TC_ACT_OK;
	bpf_skb_pull_data(skb, 64);
	return eth->h_proto ? TC_ACT_OK : TC_ACT_SHOT;
}

/* unsafe: packet pointer plus an unbounded 32-bit offset from the packet */
SEC("xdp")
int xdp_unbounded_offset(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 *lenp = data;
	__u8 *p;

	if ((void *)(lenp + 1) > end)
		return XDP_DROP;
	p = data + *lenp;
	if ((void *)(p + 1) > end)
		return XDP_DROP;
	return *p;
}

/* unsafe: packet metadata read without checking data_meta against data */
SEC("xdp")
int xdp_meta_unchecked(struct xdp_md *ctx)
{
	__u32 *meta = (void *)(long)ctx->data_meta;

	return *meta == 1 ? XDP_DROP : XDP_PASS;
}

/* unsafe: cgroup_skb programs cannot write packet data directly */
SEC("cgroup_skb/ingress")
int cg_write_packet(struct __sk_buff *skb)
{
	__u8 *p = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;

	if (p + 1 > end)
		return 1;
	*p = 0;
	return 1;
}

/* unsafe: direct packet access from a socket filter (no data/data_end there) */
SEC("socket")
int sock_direct_packet_access(struct __sk_buff *skb)
{
	__u8 *p = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;

	if (p + 1 > end)
		return 0;
	return *p;
}

/* unsafe: arithmetic on the packet end pointer */
SEC("xdp")
__naked int xdp_pkt_end_arith(void)
{
	asm volatile("r2 = *(u32 *)(r1 + %[end_off]);"
		     "r2 += 8;"
		     "r0 = 2;"
		     "exit;"
		     :
		     : __imm_const(end_off, offsetof(struct xdp_md, data_end))
		     : "memory");
}

/* unsafe: atomic add on packet memory */
SEC("tc")
__naked int tc_atomic_on_packet(void)
{
	asm volatile("r2 = *(u32 *)(r1 + %[data_off]);"
		     "r3 = *(u32 *)(r1 + %[end_off]);"
		     "r4 = r2;"
		     "r4 += 8;"
		     "if r4 > r3 goto l0_%=;"
		     "r5 = 1;"
		     "lock *(u64 *)(r2 + 0) += r5;"
		     "l0_%=: r0 = 0;"
		     "exit;"
		     :
		     : __imm_const(data_off, offsetof(struct __sk_buff, data)),
		       __imm_const(end_off, offsetof(struct __sk_buff, data_end))
		     : "memory");
}

/* unsafe: helper reads more packet bytes than were checked (csum_diff over 40 bytes, 20 checked) */
SEC("tc")
int tc_helper_reads_past_check(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct iphdr *ip = data + ETH_HLEN;

	if ((void *)(ip + 1) > end)
		return TC_ACT_OK;
	return bpf_csum_diff((void *)ip, 40, NULL, 0, 0) ? TC_ACT_OK : TC_ACT_SHOT;
}

/* unsafe: 16-bit variable packet offset compared with data_end without an upper bound (offset may exceed the 64 KiB packet limit, so the check proves nothing) */
SEC("flow_dissector")
int flow_unbounded_nhoff(struct __sk_buff *skb)
{
	struct bpf_flow_keys *keys = skb->flow_keys;
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct iphdr *ip = data + keys->nhoff;

	if ((void *)(ip + 1) > end)
		return BPF_DROP;
	keys->ip_proto = ip->protocol;
	return BPF_OK;
}

/* unsafe: map with a bpf_spin_lock used from a tracing program */
struct locked_val {
	struct bpf_spin_lock lock;
	__u64 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, struct locked_val);
} traced_locks SEC(".maps");

SEC("tp/syscalls/sys_enter_write")
int tp_lock_map_in_tracing(void *ctx)
{
	__u32 k = 0;
	struct locked_val *v = bpf_map_lookup_elem(&traced_locks, &k);

	if (v)
		v->n++;
	return 0;
}
