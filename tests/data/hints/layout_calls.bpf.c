/* Layout test: conditional jumps in several functions of .text (static
 * bpf-to-bpf calls, relative), a global function (call relocated against its
 * symbol), a bpf_loop callback (ld_imm64 of a function, relocated against
 * .text), JSET (never inverted) and a bounded loop. Each path is hot or cold
 * depending on the packets, so a skewed profile moves blocks in every one.
 * A tc program: it returns r itself (no action range to fold it). */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct loop_ctx {
	__u32 acc;
	__u8 seed;
};

static __attribute__((noinline)) int weight(__u32 v)
{
	if (v & 0x80)
		return 3;
	if (v > 200)
		return 2;
	if (v == 7)
		return 5;
	return 1;
}

__attribute__((noinline)) int global_mix(__u32 a, __u32 b)
{
	if (a == b)
		return 11;
	if (a > b)
		return (int)(a - b) & 0xff;
	return (int)(b - a) & 0x7f;
}

static int step(__u32 i, void *data)
{
	struct loop_ctx *c = data;

	if ((c->seed + i) % 3 == 0)
		c->acc += 2;
	else if (c->acc > 1000)
		return 1;
	else
		c->acc += weight(c->seed ^ i);
	return 0;
}

SEC("tc")
int layout_calls(struct __sk_buff *ctx)
{
	unsigned char *p = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct loop_ctx c = {0, 0};
	int r = 0;

	if (p + 20 > end)
		return 0;
	c.seed = p[14];
	if (p[15] == 1)
		r += weight(p[16]);
	else if (p[15] == 2)
		r += global_mix(p[16], p[17]);
	else
		r += weight(p[17]) + 1;
	if (p[18] & 0x10)
		r += 4;
	for (int i = 0; i < 4; i++) {
		if (p[i + 14] == 0xff)
			break;
		r += p[i + 14] > 128 ? 1 : 0;
	}
	bpf_loop(p[19] & 7, step, &c, 0);
	r += c.acc;
	return r; /* the whole computation: compared packet by packet before/after */
}

char LICENSE[] SEC("license") = "GPL";
