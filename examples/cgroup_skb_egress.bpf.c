/* cgroup_skb_egress: per-protocol egress byte accounting for a cgroup, with a
 * kill switch.
 *
 * cgroup_skb programs see the packet from the IP header on and return 1 to
 * allow, 0 to drop. The kill switch and the blocked protocol live in .bss and
 * .data, written by user space through the global-data maps.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define ETH_P_IP 0x0800
#define ETH_P_IPV6 0x86DD

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 256); /* by IP protocol number */
	__type(key, __u32);
	__type(value, __u64);
} egress_bytes SEC(".maps");

__u32 block_all;              /* .bss */
__u32 blocked_proto = 255;    /* .data; 255 = none */

SEC("cgroup_skb/egress")
int cgroup_skb_egress(struct __sk_buff *skb)
{
	__u32 proto;
	__u64 *bytes;
	__u8 p8;

	if (block_all)
		return 0;
	if (skb->protocol == bpf_htons(ETH_P_IP)) {
		if (bpf_skb_load_bytes(skb, __builtin_offsetof(struct iphdr, protocol), &p8, 1))
			return 1;
	} else if (skb->protocol == bpf_htons(ETH_P_IPV6)) {
		if (bpf_skb_load_bytes(skb, __builtin_offsetof(struct ipv6hdr, nexthdr), &p8, 1))
			return 1;
	} else {
		return 1;
	}
	proto = p8;
	bytes = bpf_map_lookup_elem(&egress_bytes, &proto);
	if (bytes)
		__sync_fetch_and_add(bytes, skb->len);
	return proto == blocked_proto ? 0 : 1;
}

char LICENSE[] SEC("license") = "GPL";
