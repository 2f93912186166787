/* Branch hints from likely()/unlikely(): bpfgate cc must record them in
 * .bpfgate.hints (tests/hints.test.sh). Markers L:name find the lines. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

SEC("xdp")
int likely_prog(struct xdp_md *ctx)
{
	unsigned char *p = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;

	if (unlikely(p + 2 > end)) /* L:bounds */
		return XDP_ABORTED;
	if (likely(p[0] == 0x45)) /* L:likely */
		return XDP_PASS;
	if (p[1] == 7) /* L:plain */
		return XDP_TX;
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
