/* Loader test: one program whose code does not decode (a jump past its end)
 * next to a good one. By default the open fails naming the program; with
 * keep_malformed both are kept and the bad one carries the reason. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
__attribute__((naked)) int bad_jump(void)
{
	asm volatile("goto +100;"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

SEC("socket")
int good(struct __sk_buff *skb)
{
	return skb->len;
}

/* the bad slot is in a subprogram: the message names its section (.text) */
static __attribute__((noinline)) int sub_bad(int x)
{
	asm volatile(".8byte 0x00000000000000ff" ::: "memory");
	return x + 1;
}

SEC("socket")
int calls_bad(struct __sk_buff *skb)
{
	return sub_bad(skb->len);
}

char LICENSE[] SEC("license") = "GPL";
