/* Assertions about loop shape and size: a checksum over the first 8 words
 * of the packet that must be unrolled (no back edge: it also loads on
 * kernels before 5.3), whose index is a constant in every copy, and whose
 * function stays within an instruction budget. Each unrolled copy carries
 * its own marker, so each is checked. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpfgate/assert.h>

SEC("xdp")
int loop_asserts(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u16 *w = data;
	__u32 sum = 0;

	if ((void *)(w + 8) > end)
		return XDP_PASS;
#pragma unroll
	for (int i = 0; i < 8; i++) {
		bg_assert_unrolled();           /* expect: holds x8 */
		bg_assert_const(i);             /* expect: holds x8 */
		sum += w[i];
	}
	sum = (sum & 0xffff) + (sum >> 16);
	bg_assert_max_insns(80);                /* expect: holds */
	return sum == 0xffff ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
