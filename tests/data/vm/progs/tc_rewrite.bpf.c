/* skb helpers: load/store bytes, l3/l4 checksum replace, csum_diff, ctx
 * writes (mark, priority, cb), a hash map of per-protocol counters. */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} per_proto SEC(".maps");

__u64 csum_seen = 0;

SEC("tc")
int tc_rewrite(struct __sk_buff *skb)
{
	struct iphdr ip;
	__u32 key, new_daddr = bpf_htonl(0x0a0a0a0a);
	__u64 one = 1, *v;
	__u16 port = bpf_htons(8080), old_port;
	__u8 ttl;
	__s64 diff;

	skb->mark = 0x42;
	skb->priority = 3;
	skb->cb[0] = skb->len;
	if (skb->protocol != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	if (bpf_skb_load_bytes(skb, ETH_HLEN, &ip, sizeof(ip)))
		return TC_ACT_SHOT;
	key = ip.protocol;
	v = bpf_map_lookup_elem(&per_proto, &key);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&per_proto, &key, &one, BPF_NOEXIST);
	if (key == 47)
		bpf_map_delete_elem(&per_proto, &key);
	/* decrement TTL with an incremental checksum update */
	ttl = ip.ttl - 1;
	bpf_l3_csum_replace(skb, ETH_HLEN + 10, bpf_htons(ip.ttl << 8), bpf_htons(ttl << 8), 2);
	bpf_skb_store_bytes(skb, ETH_HLEN + 8, &ttl, 1, 0);
	/* rewrite the destination address, checksum from csum_diff */
	diff = bpf_csum_diff(&ip.daddr, 4, &new_daddr, 4, 0);
	csum_seen += (__u32)diff;
	bpf_l3_csum_replace(skb, ETH_HLEN + 10, 0, diff, 0);
	bpf_skb_store_bytes(skb, ETH_HLEN + 16, &new_daddr, 4, 0);
	if ((ip.protocol == IPPROTO_UDP || ip.protocol == IPPROTO_TCP) && ip.ihl == 5 &&
	    !(ip.frag_off & bpf_htons(0x3fff))) {
		__u32 csum_off = ETH_HLEN + 20 + (ip.protocol == IPPROTO_TCP ? 16 : 6);

		if (bpf_skb_load_bytes(skb, ETH_HLEN + 22, &old_port, 2))
			return TC_ACT_OK;
		bpf_l4_csum_replace(skb, csum_off, old_port, port,
				    2 | (ip.protocol == IPPROTO_UDP ? BPF_F_MARK_MANGLED_0 : 0));
		bpf_l4_csum_replace(skb, csum_off, ip.daddr, new_daddr,
				    4 | BPF_F_PSEUDO_HDR |
				    (ip.protocol == IPPROTO_UDP ? BPF_F_MARK_MANGLED_0 : 0));
		bpf_skb_store_bytes(skb, ETH_HLEN + 22, &port, 2, 0);
	}
	return ip.protocol == IPPROTO_ICMP ? TC_ACT_SHOT : TC_ACT_OK;
}
char LICENSE[] SEC("license") = "GPL";
