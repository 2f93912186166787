/* bpf_loop with a callback, subprogram calls, a percpu array, an LRU hash,
 * global data (.bss/.data/.rodata) and a tail call through an empty prog
 * array (falls through in both the kernel and the interpreter). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} sums SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} lens SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} jmp SEC(".maps");

const volatile __u32 weight = 3;
__u64 total = 0;
__u32 runs = 7;

struct loop_ctx {
	unsigned char *data, *end;
	__u32 sum;
};

static int add_byte(__u32 i, void *arg)
{
	struct loop_ctx *c = arg;
	unsigned char *p = c->data + i;

	if (i >= 256 || p + 1 > c->end)
		return 1;
	c->sum = c->sum * weight + *p;
	return 0;
}

static __attribute__((noinline)) __u32 mix(__u32 a, __u32 b)
{
	return (a << 5) ^ (b >> 3) ^ 0x9e3779b9;
}

SEC("xdp")
int xdp_loop(struct xdp_md *ctx)
{
	struct loop_ctx c = { (void *)(long)ctx->data, (void *)(long)ctx->data_end, 0 };
	__u32 k = 0, len = ctx->data_end - ctx->data;
	__u64 *s;
	long n;

	n = bpf_loop(300, add_byte, &c, 0);
	s = bpf_map_lookup_elem(&sums, &k);
	if (s)
		*s += c.sum;
	bpf_map_update_elem(&lens, &len, &c.sum, BPF_ANY);
	total += mix(c.sum, (__u32)n);
	runs++;
	bpf_tail_call(ctx, &jmp, len & 1);
	return (c.sum & 1) ? XDP_PASS : XDP_DROP;
}
char LICENSE[] SEC("license") = "GPL";
