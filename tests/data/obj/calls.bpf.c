/* Loader test: subprograms (static, global, nested, shared), a bpf_loop
 * callback (ld_imm64 BPF_PSEUDO_FUNC), global data in .data/.rodata/.bss and
 * custom .data.* / .rodata.* sections, static (section-symbol) and global
 * (object-symbol) variables, two programs in one section. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

int g_counter = 7;                                  /* .data, global symbol */
static int s_counter = 9;                           /* .data, section symbol */
volatile const int ro_val = 42;                     /* .rodata */
int zeroed;                                         /* .bss */
int custom_data SEC(".data.custom") = 0x1234;       /* .data.custom */
const volatile long custom_ro SEC(".rodata.custom") = 0x55aa; /* .rodata.custom */

static __attribute__((noinline)) int leaf(int x)
{
	return x * 3 + ro_val;
}

static __attribute__((noinline)) int middle(int x)
{
	return leaf(x) + s_counter;
}

__attribute__((noinline)) int global_helper(int x)
{
	return x + custom_data;
}

static long loop_cb(__u32 idx, void *ctx)
{
	int *sum = ctx;

	*sum += idx;
	return 0;
}

SEC("xdp")
int prog_a(struct xdp_md *ctx)
{
	int sum = 0;

	bpf_loop(4, loop_cb, &sum, 0);
	g_counter += middle(ctx->ingress_ifindex);
	zeroed++;
	return sum > 100 ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int prog_b(struct xdp_md *ctx)
{
	return global_helper(ctx->rx_queue_index) + custom_ro > 0 ? XDP_PASS : XDP_DROP;
}

SEC("tc")
int prog_c(struct __sk_buff *skb)
{
	return leaf(skb->len) & 1;
}

char LICENSE[] SEC("license") = "GPL";
