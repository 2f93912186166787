/* Coverage test program: every line and branch count is known by
 * construction for the packets made by tests/cov.test.sh (first byte 1 ->
 * drop; second byte > 10 -> tx; else pass). Markers name the lines. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} verdicts SEC(".maps");

static __noinline int count(__u32 action)
{
	__u64 *v = bpf_map_lookup_elem(&verdicts, &action); /* L:count-lookup */

	if (v)                                              /* L:count-check */
		__sync_fetch_and_add(v, 1);                 /* L:count-add */
	return action;
}

SEC("xdp")
int cov_branches(struct xdp_md *ctx)
{
	unsigned char *p = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;

	if (p + 2 > end)                                    /* L:bounds */
		return XDP_ABORTED;                         /* L:aborted */
	if (p[0] == 1)                                      /* L:first */
		return count(XDP_DROP);                     /* L:drop */
	if (p[1] > 10)                                      /* L:second */
		return count(XDP_TX);                       /* L:tx */
	return count(XDP_PASS);                             /* L:pass */
}

char LICENSE[] SEC("license") = "GPL";
