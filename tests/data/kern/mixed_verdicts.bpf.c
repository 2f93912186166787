/* EXPECT: accepted:good_prog rejected:bad_prog */
/* Two programs in one object: one failure must not hide the other's verdict. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int good_prog(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("xdp")
int bad_prog(struct xdp_md *ctx)
{
	unsigned char *p = (void *)(long)ctx->data;

	return p[20];
}

char LICENSE[] SEC("license") = "GPL";
