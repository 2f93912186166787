/* The open-coded numeric iterator (bpf_iter_num_new/next/destroy kfuncs, what
 * bpf_for() expands to) on its edge cases: empty and inverted ranges,
 * negative starts, ranges ending at INT_MAX, a range longer than the kernel's
 * 8M-iteration limit, next() after the end, and a loop over packet bytes.
 * Results go to an array map that the differential test compares with the
 * kernel's. Needs clang >= 15 (clang-14 emits no BTF for extern kfuncs): with
 * an older compiler the program only returns XDP_PASS. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __s64);
} res SEC(".maps");

#if __clang_major__ >= 15
struct bpf_iter_num {
	__u64 __opaque[1];
} __attribute__((aligned(8)));

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __weak __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __weak __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __weak __ksym;

static __always_inline void put(__u32 slot, __s64 v)
{
	__s64 *p = bpf_map_lookup_elem(&res, &slot);

	if (p)
		*p = v;
}

/* Returns what new() returned; *sum and *n get the sum and count of the values. */
static __always_inline int walk(int start, int end, __s64 *sum, __s64 *n)
{
	struct bpf_iter_num it;
	int err = bpf_iter_num_new(&it, start, end), *v;

	*sum = 0;
	*n = 0;
	while ((v = bpf_iter_num_next(&it))) {
		*sum += *v;
		*n += 1;
	}
	/* exhausted: next() keeps returning NULL */
	if (bpf_iter_num_next(&it))
		*n += 1000;
	bpf_iter_num_destroy(&it);
	return err;
}

SEC("xdp")
int xdp_iter_num(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct bpf_iter_num it;
	__s64 sum, n;
	__u32 bytes = 0;
	int *v;

	put(0, walk(5, 3, &sum, &n));           /* start > end: -EINVAL, nothing */
	put(1, sum * 100 + n);
	put(2, walk(7, 7, &sum, &n));           /* empty */
	put(3, sum * 100 + n);
	put(4, walk(-3, 2, &sum, &n));          /* -3..1 */
	put(5, sum * 100 + n);
	put(6, walk(0x7ffffffd, 0x7fffffff, &sum, &n)); /* ends at INT_MAX */
	put(7, sum * 100 + n);
	put(8, walk(0, 1 << 24, &sum, &n));     /* longer than 8M: -E2BIG */
	put(9, sum * 100 + n);
	/* the packet's bytes, each index checked against data_end */
	bpf_iter_num_new(&it, 0, 128);
	while ((v = bpf_iter_num_next(&it))) {
		int i = *v;

		if (i < 0 || i >= 128 || data + i + 1 > end)
			break;
		bytes = bytes * 31 + data[i];
	}
	bpf_iter_num_destroy(&it);
	put(10, bytes);
	return bytes & 1 ? XDP_PASS : XDP_DROP;
}
#else
SEC("xdp")
int xdp_iter_num(struct xdp_md *ctx)
{
	return XDP_PASS;
}
#endif
