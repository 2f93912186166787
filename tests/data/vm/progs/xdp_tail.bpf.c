/* bpf_tail_call through a prog array: the dispatcher jumps to slot (first
 * byte & 1); an empty slot falls through. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} jmp SEC(".maps");

SEC("xdp")
int tail_a(struct xdp_md *ctx)
{
	return XDP_TX;
}

SEC("xdp")
int tail_b(struct xdp_md *ctx)
{
	bpf_tail_call(ctx, &jmp, 1); /* chains when slot 1 holds tail_b itself */
	return XDP_DROP;
}

SEC("xdp")
int dispatch(struct xdp_md *ctx)
{
	unsigned char *d = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;

	if (d + 1 > end)
		return XDP_ABORTED;
	bpf_tail_call(ctx, &jmp, d[0] & 1);
	return XDP_PASS;
}
char LICENSE[] SEC("license") = "GPL";
