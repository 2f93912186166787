/* xdp_dispatch: per-protocol XDP handlers chained with tail calls, and a
 * per-interface allow list kept in a map of maps.
 *
 * The entry program looks up the ingress interface in an array of hash maps
 * (the inner map holds allowed IPv4 source addresses), then tail-calls the
 * handler for the L4 protocol through a program array. A tail call that finds
 * no program falls through, so the entry program still returns a verdict.
 */
#include "bg_net.h"

enum { HANDLER_TCP, HANDLER_UDP, HANDLER_MAX };

struct allow_inner {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);   /* IPv4 source address */
	__type(value, __u8);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 64); /* by ifindex */
	__type(key, __u32);
	__array(values, struct allow_inner);
} allow_by_if SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, HANDLER_MAX);
	__type(key, __u32);
	__type(value, __u32);
} handlers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, HANDLER_MAX);
	__type(key, __u32);
	__type(value, __u64);
} handled SEC(".maps");

static __always_inline struct iphdr *ipv4_of(struct xdp_md *ctx)
{
	struct hdr_cursor c = {
		.pos = (void *)(long)ctx->data,
		.end = (void *)(long)ctx->data_end,
	};
	struct ethhdr *eth = cursor_pull(&c, sizeof(*eth));

	if (!eth || eth->h_proto != bpf_htons(ETH_P_IP))
		return 0;
	return cursor_pull(&c, sizeof(struct iphdr));
}

static __always_inline int count_handled(__u32 h)
{
	__u64 *v = bpf_map_lookup_elem(&handled, &h);

	if (v)
		(*v)++;
	return XDP_PASS;
}

SEC("xdp")
int xdp_dispatch(struct xdp_md *ctx)
{
	__u32 ifindex = ctx->ingress_ifindex;
	struct iphdr *ip = ipv4_of(ctx);
	void *allow;
	__u32 saddr;

	if (!ip)
		return XDP_PASS;
	saddr = ip->saddr;
	allow = bpf_map_lookup_elem(&allow_by_if, &ifindex);
	if (allow && !bpf_map_lookup_elem(allow, &saddr))
		return XDP_DROP;
	if (ip->protocol == IPPROTO_TCP)
		bpf_tail_call(ctx, &handlers, HANDLER_TCP);
	else if (ip->protocol == IPPROTO_UDP)
		bpf_tail_call(ctx, &handlers, HANDLER_UDP);
	return XDP_PASS;
}

SEC("xdp")
int handle_tcp(struct xdp_md *ctx)
{
	return count_handled(HANDLER_TCP);
}

SEC("xdp")
int handle_udp(struct xdp_md *ctx)
{
	return count_handled(HANDLER_UDP);
}

char LICENSE[] SEC("license") = "GPL";
