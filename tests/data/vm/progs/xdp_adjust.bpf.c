/* Packet-changing XDP helpers: adjust_meta, adjust_head (encapsulate with a
 * copy of the Ethernet header), adjust_tail (grow / shrink). */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_adjust(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	unsigned char first;
	__u32 *meta;

	if (data + ETH_HLEN > end)
		return XDP_ABORTED;
	first = *(unsigned char *)data;
	if (bpf_xdp_adjust_meta(ctx, -8))
		return XDP_DROP;
	meta = (void *)(long)ctx->data_meta;
	data = (void *)(long)ctx->data;
	if ((void *)(meta + 2) > data)
		return XDP_DROP;
	meta[0] = 0x11223344;
	meta[1] = first;
	if (first & 1) {
		/* shrink by 4 bytes or grow by 8 (may fail on short frames) */
		if (bpf_xdp_adjust_tail(ctx, (first & 2) ? -4 : 8))
			return XDP_DROP;
	}
	if (bpf_xdp_adjust_head(ctx, -(int)ETH_HLEN))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	if (data + 2 * ETH_HLEN > end)
		return XDP_DROP;
	__builtin_memcpy(data, data + ETH_HLEN, ETH_HLEN);
	((unsigned char *)data)[12] = 0x88;
	((unsigned char *)data)[13] = 0xb5;
	return XDP_TX;
}
char LICENSE[] SEC("license") = "GPL";
