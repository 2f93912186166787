/* cc-test: clangs=19 flags=-mcpu=v3 expect=fixed fix=constraint-elimination culprit=ConstraintElimination
 * Safe: i < len and len <= 16, and i is checked < 16 once more because the
 * verifier does not relate two registers after the fact (i < len is tested
 * while len is still unbounded). ConstraintElimination (on at -O2 since
 * LLVM 15) proves that last check redundant from the first two and deletes
 * it: the index reaches the access with no bound ("R7 unbounded memory
 * access"). clang-14 keeps the check. bg_assert_range(i, 0, 15) names the
 * broken fact under clang-19 (tests/asserts_cc.test.sh builds it with
 * assertions on; tests/cc.test.sh with -DBG_ASSERT_DISABLE). At -mcpu=v1 the
 * builds below that pass also check a zero-extended copy, so the bisection
 * cannot isolate it: cc names it by elimination. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpfgate/assert.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[16]);
} tbl SEC(".maps");

SEC("xdp")
int implied_check(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&tbl, &k);
	__u32 i, len;

	if (!v)
		return XDP_PASS;
	i = bpf_get_prandom_u32();
	len = bpf_get_prandom_u32();
	if (i >= len)
		return XDP_DROP;
	if (len > 16)
		return XDP_ABORTED;
	if (i >= 16) /* implied by the two above: for the verifier */
		return XDP_TX;
	bg_assert_range(i, 0, 15);
	return v[i] & 1 ? XDP_PASS : XDP_DROP;
}
char LICENSE[] SEC("license") = "GPL";
