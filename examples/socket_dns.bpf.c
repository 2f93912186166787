/* socket_dns: a socket filter that keeps only DNS traffic (UDP port 53).
 *
 * Socket filters see the packet from the network header on (no Ethernet
 * header on a packet socket bound to IP); they cannot read packet memory
 * directly and use bpf_skb_load_bytes. The return value is the number of
 * bytes to keep: 0 drops, skb->len keeps everything.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define ETH_P_IP 0x0800
#define IPPROTO_UDP 17
#define DNS_PORT 53

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} dns_seen SEC(".maps");

static __always_inline void bump(__u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(&dns_seen, &idx);

	if (v)
		__sync_fetch_and_add(v, 1);
}

SEC("socket")
int socket_dns(struct __sk_buff *skb)
{
	struct iphdr ip;
	struct udphdr udp;
	__u32 l4_off;

	if (skb->protocol != bpf_htons(ETH_P_IP))
		return 0;
	if (bpf_skb_load_bytes(skb, 0, &ip, sizeof(ip)))
		return 0;
	if (ip.protocol != IPPROTO_UDP || (ip.frag_off & bpf_htons(0x1fff)))
		return 0;
	l4_off = ip.ihl * 4;
	if (bpf_skb_load_bytes(skb, l4_off, &udp, sizeof(udp)))
		return 0;
	if (udp.dest == bpf_htons(DNS_PORT)) {
		bump(0);
		return skb->len;
	}
	if (udp.source == bpf_htons(DNS_PORT)) {
		bump(1);
		return skb->len;
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
