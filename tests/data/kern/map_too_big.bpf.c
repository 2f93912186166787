/* EXPECT: unavailable | map 'huge'.*create failed */
/* A map the kernel cannot create (1 MiB values x 1M entries): the program
 * cannot be judged, which is not the program's fault. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct big {
	char bytes[1 << 20];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1 << 20);
	__type(key, __u32);
	__type(value, struct big);
} huge SEC(".maps");

SEC("socket")
int map_too_big(struct __sk_buff *skb)
{
	__u32 k = 0;

	return bpf_map_lookup_elem(&huge, &k) ? 1 : 0;
}

char LICENSE[] SEC("license") = "GPL";
