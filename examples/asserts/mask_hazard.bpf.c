/* A real optimizer hazard, caught by an assertion under the compiler that
 * has it. The C is safe: the index is truncated to u8 and checked < 32
 * before it indexes a 32-entry table. clang-14's InstCombine rewrites the
 * check into a mask test on the wide value (`r2 &= 0xe0; if r2 != 0`), and
 * the register that indexes the table is a different copy that keeps no
 * upper bound: the kernel refuses the clang-14 object ("R0 max value is
 * outside of the allowed memory range"). clang-19 keeps a real compare.
 *
 *   bpfgate check (clang-14 build):
 *     mask_hazard.bpf.c:NN: bg_assert_range(i, 0, 31) fails: r1 = scalar [0,255]
 *   bpfgate cc --clang clang-14 ... : rejected by assertion, culprit
 *     InstCombinePass, backed out; the written object loads.
 *
 * kernel-c14: reject
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpfgate/assert.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[32]);
} tbl SEC(".maps");

SEC("xdp")
int mask_hazard(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&tbl, &k);
	__u8 i;

	if (!v)
		return XDP_PASS;
	i = (__u8)ctx->rx_queue_index;
	if (i < 32) {
		bg_assert_range(i, 0, 31);      /* expect-c14: fails /scalar \[0,255\]/ expect-c19: holds */
		return v[i] & 3;
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
