/* xdp_payload_sum: a bounded loop over packet bytes.
 *
 * Sums the first bytes of the UDP payload (at most MAX_BYTES) as a cheap
 * signature and drops packets whose signature matches the one configured in
 * .rodata. Each iteration re-checks the byte against data_end, which is what
 * lets the verifier accept a loop whose trip count depends on the packet.
 * The checksum fold is a global (non-static) subprogram: the verifier checks
 * it once, on its own, from its BTF signature.
 */
#include "bg_net.h"

#define MAX_BYTES 64

const volatile __u32 drop_signature = 0xffffffff;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} matched SEC(".maps");

__noinline __u32 fold16(__u32 sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

SEC("xdp")
int xdp_payload_sum(struct xdp_md *ctx)
{
	struct hdr_cursor c = {
		.pos = (void *)(long)ctx->data,
		.end = (void *)(long)ctx->data_end,
	};
	struct ethhdr *eth = cursor_pull(&c, sizeof(*eth));
	struct iphdr *ip;
	__u8 *payload;
	__u32 sum = 0, zero = 0;
	__u64 *cnt;

	if (!eth || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = cursor_pull(&c, sizeof(*ip));
	if (!ip || ip->ihl != 5 || ip->protocol != IPPROTO_UDP)
		return XDP_PASS;
	if (!cursor_pull(&c, sizeof(struct udphdr)))
		return XDP_PASS;
	payload = c.pos;
	for (int i = 0; i < MAX_BYTES; i++) {
		if ((void *)(payload + i + 1) > c.end)
			break;
		sum += payload[i];
	}
	if (fold16(sum) != drop_signature)
		return XDP_PASS;
	cnt = bpf_map_lookup_elem(&matched, &zero);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
