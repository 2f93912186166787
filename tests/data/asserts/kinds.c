/* Each assertion kind holding and failing at -O2 (clang-14 and clang-19).
 * tests/asserts.py: a comment `expect: STATUS [xN] [/REGEX/]` on an assertion's
 * line is the status of every copy of it (xN: exactly N copies); `expect-c14:`
 * / `expect-c19:` override it for one compiler. Every program here is safe:
 * the running kernel must accept each one, assertions and all. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpfgate/assert.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

struct eth { unsigned char dst[6], src[6]; unsigned short proto; };

SEC("xdp") int range_pkt(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct eth *e = data;
	if ((void *)(e + 1) > end)
		return XDP_PASS;
	bg_assert_pkt(e, 14);          /* expect: holds /pkt\(off=0, r=14\)/ */
	bg_assert_pkt(e, 20);          /* expect: fails /r\d+ = pkt\(off=0, r=14\)/ */
	unsigned int k = e->dst[0] & 31;
	bg_assert_range(k, 0, 31);     /* expect: holds */
	bg_assert_range(k, 0, 15);     /* expect: fails /scalar \[0,31\]/ */
	int d = (int)(e->src[0] & 7) - 4;
	bg_assert_range(d, -4, 3);     /* expect: holds */
	bg_assert_range(d, 0, 3);      /* expect: fails */
	return k + d > 40 ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int nonnull_const(struct xdp_md *ctx)
{
	__u32 key = ctx->rx_queue_index & 3;
	bg_assert_const(key);          /* expect: fails /scalar \[0,3\]/ */
	__u32 zero = 0;
	bg_assert_const(zero);         /* expect: holds /scalar 0/ */
	__u64 *v = bpf_map_lookup_elem(&counts, &key);
	bg_assert_nonnull(v);          /* expect: fails /map_value_or_null/ */
	if (!v)
		return XDP_PASS;
	bg_assert_nonnull(v);          /* expect: holds /map_value\+0/ */
	__sync_fetch_and_add(v, 1);
	return XDP_PASS;
}

SEC("xdp") int loops(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	unsigned char *p = data;
	unsigned int sum = 0;
	if ((void *)(p + 8) > end)
		return XDP_PASS;
#pragma unroll
	for (int i = 0; i < 4; i++) {
		bg_assert_unrolled();  /* expect: holds x4 */
		bg_assert_const(i);    /* expect: holds x4 */
		bg_assert_range(i, 0, 3); /* expect: holds x4 */
		sum += p[i];
	}
	unsigned int n = ctx->rx_queue_index & 15;
#pragma nounroll
	for (unsigned int j = 0; j < n; j++) {
		bg_assert_unrolled();  /* expect: fails /inside a loop/ */
		sum += j;
	}
	bg_assert_max_insns(200);      /* expect: holds /has \d+ insns/ */
	bg_assert_max_insns(5);        /* expect: fails /function loops has \d+ insns/ */
	return sum > 1000 ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int lost(struct xdp_md *ctx)
{
	unsigned int q = ctx->rx_queue_index & 7;
	if (q > 10)
		bg_assert_range(q, 0, 3); /* expect: lost */
	bg_assert_range(q, 0, 7);      /* expect: holds */
	return XDP_PASS;
}

/* inlined twice: each copy brings its own marker; a static subprogram's
 * assertion is checked in its call context */
static __always_inline __u32 low3(__u32 x)
{
	x &= 7;
	bg_assert_range(x, 0, 7);      /* expect: holds x2 */
	return x;
}

static __attribute__((noinline)) __u32 sub_check(__u32 x)
{
	bg_assert_range(x, 0, 15);     /* expect: holds x1 /scalar \[0,15\]/ */
	return x + 1;
}

SEC("xdp") int inlined(struct xdp_md *ctx)
{
	__u32 a = low3(ctx->rx_queue_index), b = low3(ctx->ingress_ifindex);
	__u32 c = sub_check(ctx->rx_queue_index & 15);
	return a + b + c > 20 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
