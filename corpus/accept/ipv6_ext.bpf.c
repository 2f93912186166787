/* IPv6 extension-header walks. The chain length is attacker controlled, so
 * every walk is a bounded loop: unrolled, bpf_loop(), an open-coded
 * iterator, or a plain counted loop the verifier can bound. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

#define MAX_EXT_HDRS 8

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u64);
} l4_seen SEC(".maps");

struct ipv6_opt_hdr_ {
	__u8 nexthdr;
	__u8 hdrlen;
};

static __always_inline int is_ext(__u8 nh)
{
	return nh == IPPROTO_HOPOPTS_ || nh == IPPROTO_ROUTING_ || nh == IPPROTO_FRAGMENT_ ||
	       nh == IPPROTO_DSTOPTS_ || nh == 51 /* AH */;
}

/* Length in bytes of the extension header at p. */
static __always_inline __u32 ext_len(__u8 nh, struct ipv6_opt_hdr_ *h)
{
	if (nh == IPPROTO_FRAGMENT_)
		return 8;
	if (nh == 51)
		return (h->hdrlen + 2) * 4;
	return (h->hdrlen + 1) * 8;
}

static __always_inline void count(__u8 l4)
{
	__u32 k = l4;
	__u64 *v = bpf_map_lookup_elem(&l4_seen, &k);

	if (v)
		*v += 1;
}

SEC("xdp")
int xdp_ipv6_ext_unrolled(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6;
	void *pos;
	__u8 nh;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IPV6))
		return XDP_PASS;
	ip6 = (void *)(eth + 1);
	if ((void *)(ip6 + 1) > end)
		return XDP_DROP;
	nh = ip6->nexthdr;
	pos = ip6 + 1;
#pragma unroll
	for (int i = 0; i < MAX_EXT_HDRS; i++) {
		struct ipv6_opt_hdr_ *h = pos;

		if (!is_ext(nh))
			break;
		if ((void *)(h + 1) > end)
			return XDP_DROP;
		pos += ext_len(nh, h);
		nh = h->nexthdr;
	}
	if (is_ext(nh))
		return XDP_DROP; /* chain too long */
	count(nh);
	return XDP_PASS;
}

struct walk_ctx {
	void *data;
	void *end;
	__u32 off;
	__u8 nh;
	__u8 bad;
};

/* One header per callback invocation; the position is a bounded scalar
 * offset so that the verifier's states converge across iterations. */
static long walk_step(__u32 i, void *arg)
{
	struct walk_ctx *w = arg;
	struct ipv6_opt_hdr_ *h;
	__u32 off = w->off;

	if (!is_ext(w->nh))
		return 1;
	if (off > 512) {
		w->bad = 1;
		return 1;
	}
	h = w->data + off;
	if ((void *)(h + 1) > w->end) {
		w->bad = 1;
		return 1;
	}
	w->off = off + ext_len(w->nh, h);
	w->nh = h->nexthdr;
	return 0;
}

SEC("tc")
int tc_ipv6_ext_bpf_loop(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6;
	struct walk_ctx w;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IPV6))
		return TC_ACT_OK;
	ip6 = (void *)(eth + 1);
	if ((void *)(ip6 + 1) > end)
		return TC_ACT_SHOT;
	w.data = data;
	w.end = end;
	w.off = sizeof(*eth) + sizeof(*ip6);
	w.nh = ip6->nexthdr;
	w.bad = 0;
	bpf_loop(MAX_EXT_HDRS, walk_step, &w, 0);
	if (w.bad || is_ext(w.nh))
		return TC_ACT_SHOT;
	count(w.nh);
	return TC_ACT_OK;
}

/* With skb loads the offsets are plain scalars: no packet pointers at all. */
SEC("tc")
int tc_ipv6_ext_load_bytes(struct __sk_buff *skb)
{
	struct ipv6_opt_hdr_ h;
	__u32 off = ETH_HLEN + sizeof(struct ipv6hdr);
	__u8 nh;

	if (skb->protocol != bpf_htons(ETH_P_IPV6))
		return TC_ACT_OK;
	if (bpf_skb_load_bytes(skb, ETH_HLEN + offsetof(struct ipv6hdr, nexthdr), &nh, 1))
		return TC_ACT_SHOT;
	for (int i = 0; i < MAX_EXT_HDRS; i++) {
		if (!is_ext(nh))
			break;
		if (bpf_skb_load_bytes(skb, off, &h, sizeof(h)))
			return TC_ACT_SHOT;
		off += ext_len(nh, &h);
		nh = h.nexthdr;
	}
	count(nh);
	return TC_ACT_OK;
}

#if CORPUS_HAVE_KFUNCS
SEC("xdp")
int xdp_ipv6_ext_iter(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6;
	__u32 off, i;
	__u8 nh;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IPV6))
		return XDP_PASS;
	ip6 = (void *)(eth + 1);
	if ((void *)(ip6 + 1) > end)
		return XDP_DROP;
	nh = ip6->nexthdr;
	off = sizeof(*eth) + sizeof(*ip6);
	corpus_for(i, 0, MAX_EXT_HDRS)
	{
		struct ipv6_opt_hdr_ *h;

		if (!is_ext(nh))
			break;
		if (off > 1500)
			return XDP_DROP;
		h = data + off;
		if ((void *)(h + 1) > end)
			return XDP_DROP;
		off += ext_len(nh, h);
		nh = h->nexthdr;
	}
	count(nh);
	return XDP_PASS;
}
#endif

/* Drop packets carrying a routing header of type 0 (RFC 5095). */
SEC("xdp")
int xdp_ipv6_rh0_drop(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6;
	void *pos;
	__u8 nh;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IPV6))
		return XDP_PASS;
	ip6 = (void *)(eth + 1);
	if ((void *)(ip6 + 1) > end)
		return XDP_DROP;
	nh = ip6->nexthdr;
	pos = ip6 + 1;
#pragma unroll
	for (int i = 0; i < 4; i++) {
		struct ipv6_rt_hdr *rt = pos;

		if (!is_ext(nh))
			break;
		if ((void *)(rt + 1) > end)
			return XDP_DROP;
		if (nh == IPPROTO_ROUTING_ && rt->type == 0)
			return XDP_DROP;
		pos += ext_len(nh, (struct ipv6_opt_hdr_ *)rt);
		nh = rt->nexthdr;
	}
	return XDP_PASS;
}

/* Find the fragment header and count first vs. later fragments. */
SEC("xdp")
int xdp_ipv6_frag_stats(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6;
	void *pos;
	__u8 nh;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IPV6))
		return XDP_PASS;
	ip6 = (void *)(eth + 1);
	if ((void *)(ip6 + 1) > end)
		return XDP_DROP;
	nh = ip6->nexthdr;
	pos = ip6 + 1;
#pragma unroll
	for (int i = 0; i < 6; i++) {
		if (nh == IPPROTO_FRAGMENT_) {
			struct frag_hdr *fh = pos;

			if ((void *)(fh + 1) > end)
				return XDP_DROP;
			count(fh->frag_off & bpf_htons(0xfff8) ? 250 : 251);
			return XDP_PASS;
		}
		if (!is_ext(nh))
			break;
		struct ipv6_opt_hdr_ *h = pos;
		if ((void *)(h + 1) > end)
			return XDP_DROP;
		pos += ext_len(nh, h);
		nh = h->nexthdr;
	}
	return XDP_PASS;
}

/* Hop-by-hop options TLV walk: look for the router-alert option. */
SEC("xdp")
int xdp_ipv6_hbh_router_alert(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6;
	struct ipv6_opt_hdr_ *hbh;
	__u32 off, len;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IPV6))
		return XDP_PASS;
	ip6 = (void *)(eth + 1);
	if ((void *)(ip6 + 1) > end)
		return XDP_DROP;
	if (ip6->nexthdr != IPPROTO_HOPOPTS_)
		return XDP_PASS;
	hbh = (void *)(ip6 + 1);
	if ((void *)(hbh + 1) > end)
		return XDP_DROP;
	len = (hbh->hdrlen + 1) * 8;
	off = 2;
	for (int i = 0; i < 16 && off < len; i++) {
		__u8 *t = (void *)hbh + (off & 0xff);

		if ((void *)(t + 2) > end)
			return XDP_DROP;
		if (t[0] == 0) { /* Pad1 */
			off++;
			continue;
		}
		if (t[0] == 5) /* router alert */
			return XDP_PASS;
		off += 2 + t[1];
	}
	count(IPPROTO_HOPOPTS_);
	return XDP_PASS;
}
