/* cc-test: clangs=14,19 flags= expect=fixed fix=skip.*InstCombinePass culprit=InstCombinePass
 * Safe: a switch on a ctx field whose cases each load another ctx field.
 * SimplifyCFG sinks the per-case loads into the join, leaving one load
 * through a computed ctx address. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int classify(struct __sk_buff *skb)
{
	__u32 v;

	switch (skb->protocol) {
	case 8: v = skb->mark; break;
	case 0xdd86: v = skb->priority; break;
	case 0x0608: v = skb->tc_index; break;
	default: v = skb->hash; break;
	}
	return v & 1;
}
char LICENSE[] SEC("license") = "GPL";
