/* cc-test: clangs=14,19 flags=-mllvm,-bpf-disable-avoid-speculation expect=fixed fix=-mcpu=v3
 * Safe: the pointer is advanced only after the offset is checked. With the
 * BPF speculation guard switched off (reproducing the LLVM behaviour before
 * it existed) p + ret is computed before the check and selected after. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u8[16]);
} tbl SEC(".maps");

SEC("xdp")
int advance(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u8 *p = bpf_map_lookup_elem(&tbl, &k);
	__u32 ret;

	if (!p)
		return 0;
	ret = bpf_get_prandom_u32();
	if (ret <= 7)
		p += ret;
	return *p & 3;
}
char LICENSE[] SEC("license") = "GPL";
