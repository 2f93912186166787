/* xdp_parse: an Ethernet / IPv4 / TCP+UDP parser at the XDP hook.
 *
 * Every header is bounds-checked against data_end before it is read. IPv4
 * options are skipped using the header length (ihl), which the verifier must
 * see bounded (5..15 words). Packets to a blocked TCP port (set in .rodata by
 * the loader before load) are dropped; per-protocol packet counts go to an
 * array map.
 */
#include "bg_net.h"

enum proto_slot { SLOT_OTHER, SLOT_IPV4, SLOT_TCP, SLOT_UDP, SLOT_DROPPED, SLOT_MAX };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SLOT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} proto_counts SEC(".maps");

/* Set by the loader through the .rodata map before the program is loaded. */
const volatile __u16 blocked_port = 23;

static __always_inline void count(__u32 slot)
{
	__u64 *v = bpf_map_lookup_elem(&proto_counts, &slot);

	if (v)
		__sync_fetch_and_add(v, 1);
}

/* Returns the L4 protocol, or -1 when the packet is not well-formed IPv4. */
static __always_inline int parse_ipv4(struct hdr_cursor *c)
{
	struct iphdr *ip = cursor_pull(c, sizeof(*ip));
	__u32 hlen;

	if (!ip)
		return -1;
	hlen = ip->ihl * 4;
	if (hlen < sizeof(*ip))
		return -1;
	/* skip options: ip + hlen must still lie inside the packet */
	if ((void *)ip + hlen > c->end)
		return -1;
	c->pos = (void *)ip + hlen;
	return ip->protocol;
}

SEC("xdp")
int xdp_parse(struct xdp_md *ctx)
{
	struct hdr_cursor c = {
		.pos = (void *)(long)ctx->data,
		.end = (void *)(long)ctx->data_end,
	};
	struct ethhdr *eth = cursor_pull(&c, sizeof(*eth));
	struct tcphdr *tcp;
	struct udphdr *udp;
	int proto;

	if (!eth)
		return XDP_ABORTED;
	if (eth->h_proto != bpf_htons(ETH_P_IP)) {
		count(SLOT_OTHER);
		return XDP_PASS;
	}
	count(SLOT_IPV4);
	proto = parse_ipv4(&c);
	if (proto == IPPROTO_TCP) {
		tcp = cursor_pull(&c, sizeof(*tcp));
		if (!tcp)
			return XDP_DROP;
		count(SLOT_TCP);
		if (tcp->dest == bpf_htons(blocked_port)) {
			count(SLOT_DROPPED);
			return XDP_DROP;
		}
	} else if (proto == IPPROTO_UDP) {
		udp = cursor_pull(&c, sizeof(*udp));
		if (!udp)
			return XDP_DROP;
		count(SLOT_UDP);
	} else if (proto < 0) {
		return XDP_DROP;
	}
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
