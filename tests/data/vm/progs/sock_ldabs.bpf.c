/* Legacy packet loads (ld_abs / ld_ind) in a socket filter: keep UDP/53 and
 * TCP packets, truncated to 64 bytes; count bytes seen in an array. */
#include <linux/bpf.h>
#include <linux/in.h>
#include <bpf/bpf_helpers.h>

unsigned long long load_byte(void *skb, unsigned long long off) asm("llvm.bpf.load.byte");
unsigned long long load_half(void *skb, unsigned long long off) asm("llvm.bpf.load.half");
unsigned long long load_word(void *skb, unsigned long long off) asm("llvm.bpf.load.word");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

SEC("socket")
int sock_ldabs(struct __sk_buff *skb)
{
	__u32 k = 0, ihl;
	__u64 *v;
	__u8 proto;

	if (load_byte(skb, 0) >> 4 != 4)
		return 0;
	proto = load_byte(skb, 9);
	ihl = (load_byte(skb, 0) & 15) * 4;
	k = proto & 3;
	v = bpf_map_lookup_elem(&seen, &k);
	if (v)
		*v += load_half(skb, 2) + (load_word(skb, 12) & 0xff);
	if (proto == IPPROTO_TCP)
		return 64;
	if (proto == IPPROTO_UDP && load_half(skb, ihl + 2) == 53)
		return skb->len;
	/* reads past the end end the program with 0 */
	return load_word(skb, 4000) + 1;
}
char LICENSE[] SEC("license") = "GPL";
