/* TCP option parsing: MSS clamping, window scale, timestamps, SACK-permitted.
 * Options are a TLV list of at most 40 bytes; each walk is bounded. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u16 mss_cap = 1400;

struct opt_stats {
	__u64 mss, wscale, ts, sackok, sack, other;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct opt_stats);
} opt_stats SEC(".maps");

static __always_inline struct tcphdr *tcp_of(void *data, void *end)
{
	struct ethhdr *eth = data;
	struct iphdr *ip;
	struct tcphdr *th;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return NULL;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->protocol != IPPROTO_TCP || ip->ihl != 5)
		return NULL;
	th = (void *)(ip + 1);
	if ((void *)(th + 1) > end)
		return NULL;
	return th;
}

/* Clamp the MSS option of SYNs (the classic MSS-clamping middlebox). */
SEC("tc")
int tc_mss_clamp(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct tcphdr *th = tcp_of(data, end);
	__u8 *opt;
	__u32 optlen, off = 0;

	if (!th || !th->syn)
		return TC_ACT_OK;
	optlen = th->doff * 4;
	if (optlen <= sizeof(*th))
		return TC_ACT_OK;
	optlen -= sizeof(*th);
	opt = (__u8 *)(th + 1);
#pragma unroll
	for (int i = 0; i < 10; i++) {
		__u8 *p;

		if (off >= optlen || off > 36)
			break;
		p = opt + off;
		if ((void *)(p + 1) > end)
			break;
		if (p[0] == TCPOPT_EOL)
			break;
		if (p[0] == TCPOPT_NOP) {
			off++;
			continue;
		}
		if ((void *)(p + 2) > end || p[1] < 2)
			break;
		if (p[0] == TCPOPT_MSS && p[1] == 4) {
			__u16 *mssp = (__u16 *)(p + 2);
			__u16 old, new_;

			if ((void *)(mssp + 1) > end)
				break;
			old = *mssp;
			if (bpf_ntohs(old) <= mss_cap)
				break;
			new_ = bpf_htons(mss_cap);
			*mssp = new_;
			th->check = csum_replace2(th->check, old, new_);
			break;
		}
		off += p[1];
	}
	return TC_ACT_OK;
}

static __always_inline void note(__u8 kind)
{
	__u32 k = 0;
	struct opt_stats *s = bpf_map_lookup_elem(&opt_stats, &k);

	if (!s)
		return;
	switch (kind) {
	case TCPOPT_MSS: s->mss++; break;
	case TCPOPT_WSCALE: s->wscale++; break;
	case TCPOPT_TS: s->ts++; break;
	case TCPOPT_SACKOK: s->sackok++; break;
	case TCPOPT_SACK: s->sack++; break;
	default: s->other++;
	}
}

/* Count every option kind on SYNs, walking with skb loads (offset arithmetic
 * on scalars instead of packet pointers). */
SEC("tc")
int tc_syn_option_census(struct __sk_buff *skb)
{
	struct tcphdr th;
	__u32 base = ETH_HLEN + sizeof(struct iphdr), off, end;
	__u8 kl[2];

	if (skb->protocol != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	if (bpf_skb_load_bytes(skb, base, &th, sizeof(th)))
		return TC_ACT_OK;
	if (!th.syn)
		return TC_ACT_OK;
	off = base + sizeof(th);
	end = base + th.doff * 4;
	for (int i = 0; i < 20 && off < end; i++) {
		if (bpf_skb_load_bytes(skb, off, kl, 1))
			break;
		if (kl[0] == TCPOPT_EOL)
			break;
		if (kl[0] == TCPOPT_NOP) {
			off++;
			continue;
		}
		if (bpf_skb_load_bytes(skb, off, kl, 2) || kl[1] < 2)
			break;
		note(kl[0]);
		off += kl[1];
	}
	return TC_ACT_OK;
}

/* Drop SYNs without timestamps (policy knob in a real deployment). */
SEC("xdp")
int xdp_require_tcp_timestamps(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct tcphdr *th = tcp_of(data, end);
	__u8 *opt;
	__u32 optlen, off = 0;

	if (!th || !th->syn || th->ack)
		return XDP_PASS;
	optlen = th->doff * 4;
	if (optlen <= sizeof(*th))
		return XDP_DROP;
	optlen -= sizeof(*th);
	opt = (__u8 *)(th + 1);
#pragma unroll
	for (int i = 0; i < 10; i++) {
		__u8 *p = opt + (off & 0x3f);

		if (off >= optlen)
			break;
		if ((void *)(p + 2) > end)
			break;
		if (p[0] == TCPOPT_EOL)
			break;
		if (p[0] == TCPOPT_NOP) {
			off++;
			continue;
		}
		if (p[0] == TCPOPT_TS)
			return XDP_PASS;
		if (p[1] < 2)
			break;
		off += p[1];
	}
	return XDP_DROP;
}

struct ws_ctx {
	struct __sk_buff *skb;
	__u32 off, end;
	__u8 wscale;
	__u8 done;
};

static long ws_step(__u32 i, void *arg)
{
	struct ws_ctx *c = arg;
	__u8 kl[3];

	if (c->off >= c->end)
		return 1;
	if (bpf_skb_load_bytes(c->skb, c->off, kl, 1) || kl[0] == TCPOPT_EOL)
		return 1;
	if (kl[0] == TCPOPT_NOP) {
		c->off++;
		return 0;
	}
	if (bpf_skb_load_bytes(c->skb, c->off, kl, 3))
		return 1;
	if (kl[0] == TCPOPT_WSCALE && kl[1] == 3) {
		c->wscale = kl[2];
		c->done = 1;
		return 1;
	}
	if (kl[1] < 2)
		return 1;
	c->off += kl[1];
	return 0;
}

/* Reject window scale shifts above 14 (RFC 7323) with bpf_loop. */
SEC("tc")
int tc_wscale_sanity(struct __sk_buff *skb)
{
	struct tcphdr th;
	__u32 base = ETH_HLEN + sizeof(struct iphdr);
	struct ws_ctx c = {.skb = skb};

	if (skb->protocol != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	if (bpf_skb_load_bytes(skb, base, &th, sizeof(th)) || !th.syn)
		return TC_ACT_OK;
	c.off = base + sizeof(th);
	c.end = base + th.doff * 4;
	bpf_loop(40, ws_step, &c, 0);
	if (c.done && c.wscale > 14)
		return TC_ACT_SHOT;
	note(c.done ? TCPOPT_WSCALE : 255);
	return TC_ACT_OK;
}

/* sockops: read the negotiated options from the socket instead. */
SEC("sockops")
int sockops_syn_opts(struct bpf_sock_ops *ops)
{
	if (ops->op == BPF_SOCK_OPS_TCP_CONNECT_CB)
		bpf_sock_ops_cb_flags_set(ops, ops->bpf_sock_ops_cb_flags |
						       BPF_SOCK_OPS_PARSE_ALL_HDR_OPT_CB_FLAG);
	if (ops->op == BPF_SOCK_OPS_PARSE_HDR_OPT_CB) {
		__u8 opt[4] = {TCPOPT_MSS, 0, 0, 0};

		if (bpf_load_hdr_opt(ops, opt, sizeof(opt), 0) > 0)
			note(TCPOPT_MSS);
	}
	return 1;
}
