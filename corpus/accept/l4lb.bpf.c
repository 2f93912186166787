/* An L4 load balancer in XDP: VIP lookup, Maglev-style consistent hashing
 * into a per-VIP lookup table, connection tracking in an LRU hash, and
 * IP-in-IP encapsulation towards the chosen backend with
 * bpf_xdp_adjust_head(). */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

#define RING_SIZE 65537 /* prime, as Maglev requires */
#define MAX_VIPS 64

struct vip_key {
	__u32 addr;
	__u16 port;
	__u8 proto;
	__u8 pad;
};

struct vip_meta {
	__u32 vip_num;
	__u32 flags;
};

struct flow_key {
	__u32 src, dst;
	__u16 sport, dport;
	__u8 proto;
	__u8 pad[3];
};

struct real {
	__u32 addr;
	__u8 mac[ETH_ALEN];
	__u16 pad;
};

struct lb_stats {
	__u64 pkts, bytes, new_flows, no_real;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_VIPS);
	__type(key, struct vip_key);
	__type(value, struct vip_meta);
} vips SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, RING_SIZE * 4);
	__type(key, __u32);
	__type(value, __u32);
} ch_rings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct real);
} reals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, struct flow_key);
	__type(value, __u32);
} conn_table SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, MAX_VIPS);
	__type(key, __u32);
	__type(value, struct lb_stats);
} vip_stats SEC(".maps");

const volatile __u32 lb_src_addr = 0x0a000001;

static __always_inline __u32 rol32(__u32 w, unsigned s)
{
	return (w << s) | (w >> (32 - s));
}

/* A jhash-like 3-word mix (written from the published lookup3 rounds). */
static __always_inline __u32 mix3(__u32 a, __u32 b, __u32 c)
{
	c ^= b; c -= rol32(b, 14);
	a ^= c; a -= rol32(c, 11);
	b ^= a; b -= rol32(a, 25);
	c ^= b; c -= rol32(b, 16);
	a ^= c; a -= rol32(c, 4);
	b ^= a; b -= rol32(a, 14);
	c ^= b; c -= rol32(b, 24);
	return c;
}

static __always_inline __u32 flow_hash(const struct flow_key *k)
{
	return mix3(k->src, k->dst, ((__u32)k->sport << 16 | k->dport) ^ k->proto);
}

static __always_inline __u16 ip_checksum(struct iphdr *ip)
{
	__u16 *w = (__u16 *)ip;
	__u32 sum = 0;

#pragma unroll
	for (int i = 0; i < (int)sizeof(*ip) / 2; i++)
		sum += w[i];
	return csum_fold32(sum);
}

static __always_inline int parse_flow(void *data, void *end, struct flow_key *fk, __u32 *l3_len)
{
	struct ethhdr *eth = data;
	struct iphdr *ip;
	__u16 *ports;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return -1;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->ihl != 5)
		return -1;
	if (ip->frag_off & bpf_htons(IP_MF | IP_OFFSET))
		return -1;
	if (ip->protocol != IPPROTO_TCP && ip->protocol != IPPROTO_UDP)
		return -1;
	ports = (void *)(ip + 1);
	if ((void *)(ports + 2) > end)
		return -1;
	__builtin_memset(fk, 0, sizeof(*fk));
	fk->src = ip->saddr;
	fk->dst = ip->daddr;
	fk->sport = ports[0];
	fk->dport = ports[1];
	fk->proto = ip->protocol;
	*l3_len = bpf_ntohs(ip->tot_len);
	return 0;
}

static __always_inline struct real *pick_real(struct flow_key *fk, struct vip_meta *vm,
					      struct lb_stats *st)
{
	__u32 *real_idx, ring_pos, key;
	__u32 *cached = bpf_map_lookup_elem(&conn_table, fk);

	if (cached) {
		key = *cached;
		return bpf_map_lookup_elem(&reals, &key);
	}
	ring_pos = vm->vip_num % 4 * RING_SIZE + flow_hash(fk) % RING_SIZE;
	real_idx = bpf_map_lookup_elem(&ch_rings, &ring_pos);
	if (!real_idx)
		return NULL;
	key = *real_idx;
	bpf_map_update_elem(&conn_table, fk, &key, BPF_ANY);
	if (st)
		st->new_flows++;
	return bpf_map_lookup_elem(&reals, &key);
}

static __always_inline int encap_ipip(struct xdp_md *ctx, struct real *dst, __u32 inner_len,
				      __u32 hash)
{
	struct ethhdr *neth, *oeth;
	struct iphdr *outer;
	void *data, *end;

	if (bpf_xdp_adjust_head(ctx, 0 - (int)sizeof(struct iphdr)))
		return -1;
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	neth = data;
	oeth = data + sizeof(struct iphdr);
	outer = data + sizeof(struct ethhdr);
	if ((void *)(oeth + 1) > end || (void *)(outer + 1) > end)
		return -1;
	__builtin_memcpy(neth->h_source, oeth->h_dest, ETH_ALEN);
	__builtin_memcpy(neth->h_dest, dst->mac, ETH_ALEN);
	neth->h_proto = bpf_htons(ETH_P_IP);
	outer->version = 4;
	outer->ihl = 5;
	outer->tos = 0;
	outer->tot_len = bpf_htons(inner_len + sizeof(struct iphdr));
	outer->id = (__u16)hash;
	outer->frag_off = 0;
	outer->ttl = 64;
	outer->protocol = IPPROTO_IPIP;
	outer->saddr = lb_src_addr;
	outer->daddr = dst->addr;
	outer->check = 0;
	outer->check = ip_checksum(outer);
	return 0;
}

SEC("xdp")
int xdp_l4lb_ipip(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct flow_key fk;
	struct vip_key vk = {};
	struct vip_meta *vm;
	struct lb_stats *st;
	struct real *r;
	__u32 l3_len;

	if (parse_flow(data, end, &fk, &l3_len))
		return XDP_PASS;
	vk.addr = fk.dst;
	vk.port = fk.dport;
	vk.proto = fk.proto;
	vm = bpf_map_lookup_elem(&vips, &vk);
	if (!vm)
		return XDP_PASS;
	st = bpf_map_lookup_elem(&vip_stats, &vm->vip_num);
	if (st) {
		st->pkts++;
		st->bytes += l3_len;
	}
	r = pick_real(&fk, vm, st);
	if (!r) {
		if (st)
			st->no_real++;
		return XDP_DROP;
	}
	if (encap_ipip(ctx, r, l3_len, flow_hash(&fk)))
		return XDP_DROP;
	return XDP_TX;
}

/* Same LB, but falling back to port-less VIPs (all-ports services). */
SEC("xdp")
int xdp_l4lb_anyport(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct flow_key fk;
	struct vip_key vk = {};
	struct vip_meta *vm;
	struct real *r;
	__u32 l3_len;

	if (parse_flow(data, end, &fk, &l3_len))
		return XDP_PASS;
	vk.addr = fk.dst;
	vk.port = fk.dport;
	vk.proto = fk.proto;
	vm = bpf_map_lookup_elem(&vips, &vk);
	if (!vm) {
		vk.port = 0;
		vm = bpf_map_lookup_elem(&vips, &vk);
		if (!vm)
			return XDP_PASS;
		fk.sport = 0; /* all-port VIPs hash on addresses only */
	}
	r = pick_real(&fk, vm, NULL);
	if (!r)
		return XDP_DROP;
	if (encap_ipip(ctx, r, l3_len, flow_hash(&fk)))
		return XDP_DROP;
	return XDP_TX;
}

/* Direct server return: rewrite the destination MAC only. */
SEC("xdp")
int xdp_l4lb_dsr(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct flow_key fk;
	struct vip_key vk = {};
	struct vip_meta *vm;
	struct real *r;
	__u32 l3_len;

	if (parse_flow(data, end, &fk, &l3_len))
		return XDP_PASS;
	vk.addr = fk.dst;
	vk.port = fk.dport;
	vk.proto = fk.proto;
	vm = bpf_map_lookup_elem(&vips, &vk);
	if (!vm)
		return XDP_PASS;
	r = pick_real(&fk, vm, NULL);
	if (!r)
		return XDP_DROP;
	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, r->mac, ETH_ALEN);
	return XDP_TX;
}

/* The decapsulating side on the backend: strip the outer IPv4 header. */
SEC("xdp")
int xdp_ipip_decap(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data, *neth;
	struct iphdr *outer;
	__u8 src[ETH_ALEN], dst[ETH_ALEN];

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	outer = (void *)(eth + 1);
	if ((void *)(outer + 1) > end || outer->protocol != IPPROTO_IPIP || outer->ihl != 5)
		return XDP_PASS;
	__builtin_memcpy(src, eth->h_source, ETH_ALEN);
	__builtin_memcpy(dst, eth->h_dest, ETH_ALEN);
	if (bpf_xdp_adjust_head(ctx, (int)sizeof(struct iphdr)))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	neth = data;
	if ((void *)(neth + 1) > end)
		return XDP_DROP;
	__builtin_memcpy(neth->h_source, src, ETH_ALEN);
	__builtin_memcpy(neth->h_dest, dst, ETH_ALEN);
	neth->h_proto = bpf_htons(ETH_P_IP);
	return XDP_PASS;
}

/* Health-check responder for the VIPs: answers UDP probes on port 7. */
SEC("xdp")
int xdp_l4lb_healthcheck(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	struct udphdr *uh;
	struct vip_key vk = {};
	__u8 mac[ETH_ALEN];
	__u32 a;
	__u16 p;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->ihl != 5 || ip->protocol != IPPROTO_UDP)
		return XDP_PASS;
	uh = (void *)(ip + 1);
	if ((void *)(uh + 1) > end || uh->dest != bpf_htons(7))
		return XDP_PASS;
	vk.addr = ip->daddr;
	vk.proto = IPPROTO_UDP;
	if (!bpf_map_lookup_elem(&vips, &vk))
		return XDP_PASS;
	__builtin_memcpy(mac, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, mac, ETH_ALEN);
	a = ip->saddr; ip->saddr = ip->daddr; ip->daddr = a;
	p = uh->source; uh->source = uh->dest; uh->dest = p;
	uh->check = 0;
	return XDP_TX;
}
