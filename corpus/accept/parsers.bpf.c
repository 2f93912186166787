/* XDP header parsers: Ethernet, 802.1Q/802.1ad, IPv4, IPv6, TCP, UDP, ICMP,
 * ICMPv6, ARP. Every access is preceded by its bounds check against
 * data_end, the way production XDP code is written. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

struct cursor {
	void *pos;
	void *end;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u64);
} proto_count SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u16);
	__type(value, __u8);
} blocked_ports SEC(".maps");

static __always_inline void bump(__u32 key)
{
	__u64 *v = bpf_map_lookup_elem(&proto_count, &key);

	if (v)
		*v += 1;
}

static __always_inline int parse_eth(struct cursor *c, __u16 *proto)
{
	struct ethhdr *eth = c->pos;

	if ((void *)(eth + 1) > c->end)
		return -1;
	c->pos = eth + 1;
	*proto = eth->h_proto;
	return 0;
}

/* Up to two VLAN tags (QinQ). */
static __always_inline int skip_vlans(struct cursor *c, __u16 *proto)
{
#pragma unroll
	for (int i = 0; i < 2; i++) {
		struct vlan_hdr *vh = c->pos;

		if (*proto != bpf_htons(ETH_P_8021Q) && *proto != bpf_htons(ETH_P_8021AD))
			break;
		if ((void *)(vh + 1) > c->end)
			return -1;
		*proto = vh->h_vlan_encapsulated_proto;
		c->pos = vh + 1;
	}
	return 0;
}

static __always_inline struct iphdr *parse_ipv4(struct cursor *c)
{
	struct iphdr *ip = c->pos;
	__u32 hlen;

	if ((void *)(ip + 1) > c->end)
		return NULL;
	hlen = ip->ihl * 4;
	if (hlen < sizeof(*ip))
		return NULL;
	if (c->pos + hlen > c->end)
		return NULL;
	c->pos += hlen;
	return ip;
}

static __always_inline struct ipv6hdr *parse_ipv6(struct cursor *c)
{
	struct ipv6hdr *ip6 = c->pos;

	if ((void *)(ip6 + 1) > c->end)
		return NULL;
	c->pos = ip6 + 1;
	return ip6;
}

static __always_inline struct tcphdr *parse_tcp(struct cursor *c)
{
	struct tcphdr *th = c->pos;
	__u32 len;

	if ((void *)(th + 1) > c->end)
		return NULL;
	len = th->doff * 4;
	if (len < sizeof(*th))
		return NULL;
	if (c->pos + len > c->end)
		return NULL;
	c->pos += len;
	return th;
}

static __always_inline struct udphdr *parse_udp(struct cursor *c)
{
	struct udphdr *uh = c->pos;

	if ((void *)(uh + 1) > c->end)
		return NULL;
	c->pos = uh + 1;
	return uh;
}

SEC("xdp")
int xdp_count_ethertype(struct xdp_md *ctx)
{
	struct cursor c = {(void *)(long)ctx->data, (void *)(long)ctx->data_end};
	__u16 proto;

	if (parse_eth(&c, &proto))
		return XDP_DROP;
	bump(bpf_ntohs(proto) & 0xff);
	return XDP_PASS;
}

SEC("xdp")
int xdp_vlan_aware(struct xdp_md *ctx)
{
	struct cursor c = {(void *)(long)ctx->data, (void *)(long)ctx->data_end};
	__u16 proto;

	if (parse_eth(&c, &proto) || skip_vlans(&c, &proto))
		return XDP_DROP;
	if (proto == bpf_htons(ETH_P_IP))
		bump(4);
	else if (proto == bpf_htons(ETH_P_IPV6))
		bump(6);
	else
		bump(0);
	return XDP_PASS;
}

SEC("xdp")
int xdp_ipv4_proto(struct xdp_md *ctx)
{
	struct cursor c = {(void *)(long)ctx->data, (void *)(long)ctx->data_end};
	struct iphdr *ip;
	__u16 proto;

	if (parse_eth(&c, &proto) || skip_vlans(&c, &proto))
		return XDP_DROP;
	if (proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = parse_ipv4(&c);
	if (!ip)
		return XDP_DROP;
	bump(ip->protocol);
	return XDP_PASS;
}

SEC("xdp")
int xdp_ipv6_nexthdr(struct xdp_md *ctx)
{
	struct cursor c = {(void *)(long)ctx->data, (void *)(long)ctx->data_end};
	struct ipv6hdr *ip6;
	__u16 proto;

	if (parse_eth(&c, &proto))
		return XDP_DROP;
	if (proto != bpf_htons(ETH_P_IPV6))
		return XDP_PASS;
	ip6 = parse_ipv6(&c);
	if (!ip6)
		return XDP_DROP;
	if (ip6->hop_limit <= 1)
		return XDP_DROP;
	bump(ip6->nexthdr);
	return XDP_PASS;
}

SEC("xdp")
int xdp_drop_ip_fragments(struct xdp_md *ctx)
{
	struct cursor c = {(void *)(long)ctx->data, (void *)(long)ctx->data_end};
	struct iphdr *ip;
	__u16 proto;

	if (parse_eth(&c, &proto) || proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = parse_ipv4(&c);
	if (!ip)
		return XDP_DROP;
	if (ip->frag_off & bpf_htons(IP_MF | IP_OFFSET))
		return XDP_DROP;
	return XDP_PASS;
}

SEC("xdp")
int xdp_ttl_guard(struct xdp_md *ctx)
{
	struct cursor c = {(void *)(long)ctx->data, (void *)(long)ctx->data_end};
	struct iphdr *ip;
	__u16 proto;

	if (parse_eth(&c, &proto) || proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = parse_ipv4(&c);
	if (!ip)
		return XDP_DROP;
	if (ip->ttl < 2)
		return XDP_DROP;
	if (ip->saddr == ip->daddr)
		return XDP_DROP;
	return XDP_PASS;
}

SEC("xdp")
int xdp_tcp_flags(struct xdp_md *ctx)
{
	struct cursor c = {(void *)(long)ctx->data, (void *)(long)ctx->data_end};
	struct iphdr *ip;
	struct tcphdr *th;
	__u16 proto;

	if (parse_eth(&c, &proto) || proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = parse_ipv4(&c);
	if (!ip || ip->protocol != IPPROTO_TCP)
		return XDP_PASS;
	th = parse_tcp(&c);
	if (!th)
		return XDP_DROP;
	/* SYN+FIN and null scans */
	if (th->syn && th->fin)
		return XDP_DROP;
	if (!th->syn && !th->ack && !th->rst && !th->fin && !th->psh && !th->urg)
		return XDP_DROP;
	bump(128 + (th->syn ? 1 : 0) + (th->ack ? 2 : 0));
	return XDP_PASS;
}

SEC("xdp")
int xdp_udp_port_block(struct xdp_md *ctx)
{
	struct cursor c = {(void *)(long)ctx->data, (void *)(long)ctx->data_end};
	struct iphdr *ip;
	struct udphdr *uh;
	__u16 proto, port;

	if (parse_eth(&c, &proto) || skip_vlans(&c, &proto) || proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = parse_ipv4(&c);
	if (!ip || ip->protocol != IPPROTO_UDP)
		return XDP_PASS;
	uh = parse_udp(&c);
	if (!uh)
		return XDP_DROP;
	port = bpf_ntohs(uh->dest);
	if (bpf_map_lookup_elem(&blocked_ports, &port))
		return XDP_DROP;
	return XDP_PASS;
}

SEC("xdp")
int xdp_tcp_port_block(struct xdp_md *ctx)
{
	struct cursor c = {(void *)(long)ctx->data, (void *)(long)ctx->data_end};
	struct ipv6hdr *ip6;
	struct iphdr *ip;
	struct tcphdr *th;
	__u16 proto, port;
	__u8 l4;

	if (parse_eth(&c, &proto) || skip_vlans(&c, &proto))
		return XDP_PASS;
	if (proto == bpf_htons(ETH_P_IP)) {
		ip = parse_ipv4(&c);
		if (!ip)
			return XDP_DROP;
		l4 = ip->protocol;
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		ip6 = parse_ipv6(&c);
		if (!ip6)
			return XDP_DROP;
		l4 = ip6->nexthdr;
	} else {
		return XDP_PASS;
	}
	if (l4 != IPPROTO_TCP)
		return XDP_PASS;
	th = parse_tcp(&c);
	if (!th)
		return XDP_DROP;
	port = bpf_ntohs(th->dest);
	if (bpf_map_lookup_elem(&blocked_ports, &port))
		return XDP_DROP;
	return XDP_PASS;
}

SEC("xdp")
int xdp_icmp_echo_reply(struct xdp_md *ctx)
{
	struct cursor c = {(void *)(long)ctx->data, (void *)(long)ctx->data_end};
	struct ethhdr *eth = c.pos;
	struct icmphdr *icmp;
	struct iphdr *ip;
	__u8 mac[ETH_ALEN];
	__u32 addr;
	__u16 proto;

	if (parse_eth(&c, &proto) || proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = parse_ipv4(&c);
	if (!ip || ip->protocol != IPPROTO_ICMP)
		return XDP_PASS;
	icmp = c.pos;
	if ((void *)(icmp + 1) > c.end)
		return XDP_DROP;
	if (icmp->type != 8 || icmp->code != 0)
		return XDP_PASS;
	/* turn the echo request into a reply in place */
	__builtin_memcpy(mac, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, mac, ETH_ALEN);
	addr = ip->saddr;
	ip->saddr = ip->daddr;
	ip->daddr = addr;
	icmp->type = 0;
	icmp->checksum = csum_replace2(icmp->checksum, bpf_htons(8 << 8), 0);
	return XDP_TX;
}

SEC("xdp")
int xdp_icmpv6_filter(struct xdp_md *ctx)
{
	struct cursor c = {(void *)(long)ctx->data, (void *)(long)ctx->data_end};
	struct ipv6hdr *ip6;
	struct icmp6hdr *ic6;
	__u16 proto;

	if (parse_eth(&c, &proto) || proto != bpf_htons(ETH_P_IPV6))
		return XDP_PASS;
	ip6 = parse_ipv6(&c);
	if (!ip6 || ip6->nexthdr != IPPROTO_ICMPV6_)
		return XDP_PASS;
	ic6 = c.pos;
	if ((void *)(ic6 + 1) > c.end)
		return XDP_DROP;
	/* keep neighbour discovery, drop redirects */
	if (ic6->icmp6_type == 137)
		return XDP_DROP;
	bump(192 + (ic6->icmp6_type & 0x3f));
	return XDP_PASS;
}

SEC("xdp")
int xdp_arp_guard(struct xdp_md *ctx)
{
	struct cursor c = {(void *)(long)ctx->data, (void *)(long)ctx->data_end};
	struct arphdr *arp;
	__u16 proto;

	if (parse_eth(&c, &proto) || proto != bpf_htons(ETH_P_ARP))
		return XDP_PASS;
	arp = c.pos;
	if ((void *)(arp + 1) > c.end)
		return XDP_DROP;
	if (arp->ar_hrd != bpf_htons(1) || arp->ar_pro != bpf_htons(ETH_P_IP))
		return XDP_DROP;
	if (arp->ar_hln != 6 || arp->ar_pln != 4)
		return XDP_DROP;
	bump(0x80 | (bpf_ntohs(arp->ar_op) & 0xf));
	return XDP_PASS;
}

SEC("xdp")
int xdp_ipv4_options_drop(struct xdp_md *ctx)
{
	struct cursor c = {(void *)(long)ctx->data, (void *)(long)ctx->data_end};
	struct iphdr *ip;
	__u16 proto;
	__u8 *opt;

	if (parse_eth(&c, &proto) || proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = c.pos;
	if ((void *)(ip + 1) > c.end)
		return XDP_DROP;
	if (ip->ihl <= 5)
		return XDP_PASS;
	/* options present: drop source-routing ones (LSRR 0x83, SSRR 0x89) */
	opt = (void *)(ip + 1);
	if ((void *)(opt + 1) > c.end)
		return XDP_DROP;
	if (*opt == 0x83 || *opt == 0x89)
		return XDP_DROP;
	return XDP_PASS;
}
