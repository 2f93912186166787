/* Assertions next to the checks they rely on: an Ethernet + IPv4 parser
 * that states, at each access, what the verifier must have proven there
 * (bytes in the packet, a header length in range, a map value not NULL).
 * Holds at -O2 with clang-14 and clang-19 (tests/asserts.py checks every
 * `expect:` comment and that the kernel accepts the object). */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include <bpfgate/assert.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u64);
} proto_bytes SEC(".maps");

SEC("xdp")
int xdp_hdr_asserts(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	if ((void *)(eth + 1) > end)
		return XDP_PASS;
	bg_assert_pkt(eth, sizeof(*eth));       /* expect: holds */
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	struct iphdr *ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end)
		return XDP_PASS;
	bg_assert_pkt(ip, sizeof(*ip));         /* expect: holds /pkt\(off=14, r=20\)/ */
	__u32 hl = ip->ihl * 4;
	bg_assert_range(hl, 0, 60);             /* expect: holds */
	__u32 key = ip->protocol;
	bg_assert_range(key, 0, 255);           /* expect: holds */
	__u64 *v = bpf_map_lookup_elem(&proto_bytes, &key);
	if (!v)
		return XDP_PASS;
	bg_assert_nonnull(v);                   /* expect: holds */
	__sync_fetch_and_add(v, (__u64)(end - data));
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
