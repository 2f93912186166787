/* DNS and QUIC header sniffers: parse UDP payloads (DNS header and the
 * first question name, QUIC long/short headers and connection IDs) and
 * report through a ring buffer. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

#define MAX_QNAME 64

struct dnshdr {
	__u16 id;
	__u16 flags;
	__u16 qdcount, ancount, nscount, arcount;
};

struct dns_event {
	__u32 saddr, daddr;
	__u16 id;
	__u16 flags;
	__u16 qtype;
	__u8 qlen;
	char qname[MAX_QNAME];
};

struct quic_event {
	__u32 saddr, daddr;
	__u32 version;
	__u8 long_hdr;
	__u8 dcid_len;
	__u8 dcid[20];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} dns_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} quic_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} rcode_count SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u32);
} quic_versions SEC(".maps");

static __always_inline struct udphdr *udp_of(void *data, void *end, struct iphdr **ipp)
{
	struct ethhdr *eth = data;
	struct iphdr *ip;
	struct udphdr *uh;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return NULL;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->ihl != 5 || ip->protocol != IPPROTO_UDP)
		return NULL;
	uh = (void *)(ip + 1);
	if ((void *)(uh + 1) > end)
		return NULL;
	*ipp = ip;
	return uh;
}

SEC("xdp")
int xdp_dns_query_log(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct dns_event *ev;
	struct dnshdr *dns;
	struct udphdr *uh;
	struct iphdr *ip;
	__u8 *q;
	int i;

	uh = udp_of(data, end, &ip);
	if (!uh || uh->dest != bpf_htons(53))
		return XDP_PASS;
	dns = (void *)(uh + 1);
	if ((void *)(dns + 1) > end)
		return XDP_PASS;
	if (dns->flags & bpf_htons(0x8000)) /* responses are counted elsewhere */
		return XDP_PASS;
	ev = bpf_ringbuf_reserve(&dns_events, sizeof(*ev), 0);
	if (!ev)
		return XDP_PASS;
	ev->saddr = ip->saddr;
	ev->daddr = ip->daddr;
	ev->id = bpf_ntohs(dns->id);
	ev->flags = bpf_ntohs(dns->flags);
	ev->qtype = 0;
	q = (void *)(dns + 1);
	for (i = 0; i < MAX_QNAME; i++) {
		if ((void *)(q + i + 1) > end)
			break;
		if (q[i] == 0)
			break;
		ev->qname[i] = q[i];
	}
	ev->qlen = i;
	bpf_ringbuf_submit(ev, 0);
	return XDP_PASS;
}

SEC("tc")
int tc_dns_rcode_stats(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct dnshdr *dns;
	struct udphdr *uh;
	struct iphdr *ip;
	__u64 *cnt;
	__u32 rcode;

	uh = udp_of(data, end, &ip);
	if (!uh || uh->source != bpf_htons(53))
		return TC_ACT_OK;
	dns = (void *)(uh + 1);
	if ((void *)(dns + 1) > end)
		return TC_ACT_OK;
	rcode = bpf_ntohs(dns->flags) & 0xf;
	cnt = bpf_map_lookup_elem(&rcode_count, &rcode);
	if (cnt)
		*cnt += 1;
	return TC_ACT_OK;
}

/* Drop DNS answers with absurd counts (amplification/garbage). */
SEC("xdp")
int xdp_dns_sanity(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct dnshdr *dns;
	struct udphdr *uh;
	struct iphdr *ip;

	uh = udp_of(data, end, &ip);
	if (!uh || uh->source != bpf_htons(53))
		return XDP_PASS;
	dns = (void *)(uh + 1);
	if ((void *)(dns + 1) > end)
		return XDP_DROP;
	if (bpf_ntohs(dns->qdcount) != 1)
		return XDP_DROP;
	if (bpf_ntohs(dns->ancount) > 64 || bpf_ntohs(dns->arcount) > 16)
		return XDP_DROP;
	return XDP_PASS;
}

/* Walk the labels of the question name and read QTYPE after it, with the
 * offset kept as a masked scalar. */
SEC("tc")
int tc_dns_qtype(struct __sk_buff *skb)
{
	__u32 off = ETH_HLEN + sizeof(struct iphdr) + sizeof(struct udphdr) + sizeof(struct dnshdr);
	struct dns_event *ev;
	__u16 qtype;
	__u8 len;

	if (skb->protocol != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	for (int i = 0; i < 16; i++) {
		if (bpf_skb_load_bytes(skb, off, &len, 1))
			return TC_ACT_OK;
		off += 1;
		if (!len)
			break;
		if (len > 63)
			return TC_ACT_OK;
		off += len;
	}
	if (bpf_skb_load_bytes(skb, off, &qtype, 2))
		return TC_ACT_OK;
	ev = bpf_ringbuf_reserve(&dns_events, sizeof(*ev), 0);
	if (!ev)
		return TC_ACT_OK;
	__builtin_memset(ev, 0, sizeof(*ev));
	ev->qtype = bpf_ntohs(qtype);
	bpf_ringbuf_submit(ev, BPF_RB_NO_WAKEUP);
	return TC_ACT_OK;
}

SEC("xdp")
int xdp_quic_initial_sniff(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct quic_event *ev;
	struct udphdr *uh;
	struct iphdr *ip;
	__u8 *q, dlen;

	uh = udp_of(data, end, &ip);
	if (!uh || uh->dest != bpf_htons(443))
		return XDP_PASS;
	q = (void *)(uh + 1);
	if ((void *)(q + 6) > end)
		return XDP_PASS;
	if (!(q[0] & 0x80)) /* short header: no version, nothing to log */
		return XDP_PASS;
	dlen = q[5];
	if (dlen > 20)
		return XDP_DROP; /* RFC 9000: CIDs are at most 20 bytes in v1 */
	ev = bpf_ringbuf_reserve(&quic_events, sizeof(*ev), 0);
	if (!ev)
		return XDP_PASS;
	ev->saddr = ip->saddr;
	ev->daddr = ip->daddr;
	ev->version = (__u32)q[1] << 24 | (__u32)q[2] << 16 | (__u32)q[3] << 8 | q[4];
	ev->long_hdr = 1;
	ev->dcid_len = dlen;
	for (int i = 0; i < 20; i++) {
		if (i >= dlen)
			break;
		if ((void *)(q + 6 + i + 1) > end) {
			bpf_ringbuf_discard(ev, 0);
			return XDP_PASS;
		}
		ev->dcid[i] = q[6 + i];
	}
	bpf_ringbuf_submit(ev, 0);
	return XDP_PASS;
}

/* Count QUIC versions seen in long headers (version negotiation study). */
SEC("tc")
int tc_quic_version_census(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct udphdr *uh;
	struct iphdr *ip;
	__u32 ver, one = 1, *cnt;
	__u8 *q;

	uh = udp_of(data, end, &ip);
	if (!uh || (uh->dest != bpf_htons(443) && uh->source != bpf_htons(443)))
		return TC_ACT_OK;
	q = (void *)(uh + 1);
	if ((void *)(q + 5) > end || !(q[0] & 0x80))
		return TC_ACT_OK;
	ver = (__u32)q[1] << 24 | (__u32)q[2] << 16 | (__u32)q[3] << 8 | q[4];
	cnt = bpf_map_lookup_elem(&quic_versions, &ver);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	else
		bpf_map_update_elem(&quic_versions, &ver, &one, BPF_NOEXIST);
	return TC_ACT_OK;
}

/* A socket filter that passes only DNS queries to a raw capture socket. */
SEC("socket")
int sock_dns_only(struct __sk_buff *skb)
{
	__u8 proto;
	__u16 dport;

	if (skb->protocol != bpf_htons(ETH_P_IP))
		return 0;
	if (bpf_skb_load_bytes(skb, offsetof(struct iphdr, protocol), &proto, 1) || proto != IPPROTO_UDP)
		return 0;
	if (bpf_skb_load_bytes(skb, sizeof(struct iphdr) + 2, &dport, 2))
		return 0;
	return dport == bpf_htons(53) ? skb->len : 0;
}
