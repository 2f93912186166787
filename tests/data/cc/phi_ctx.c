/* cc-test: clangs=14,19 flags= expect=fixed fix=skip.*InstCombinePass culprit=InstCombinePass
 * Safe: each path reads one __sk_buff field. At -O2 the two loads become one
 * load through a phi of two ctx field addresses ("dereference of modified
 * ctx ptr"). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int pick_field(struct __sk_buff *skb)
{
	__u32 v;

	if (skb->protocol == 8)
		v = skb->mark;
	else
		v = skb->priority;
	return v & 1;
}
char LICENSE[] SEC("license") = "GPL";
