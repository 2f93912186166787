/* EXPECT: rejected | invalid mem access 'map_value_or_null' */
/* Uses the result of a hash map lookup without checking it for NULL. (An
 * array lookup with a constant in-range key is known non-NULL on 6.18.) */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} counter SEC(".maps");

SEC("socket")
int map_null_deref(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&counter, &k);

	*v += skb->len;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
