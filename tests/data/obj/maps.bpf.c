/* Loader test: BTF-defined maps of several kinds, sizes given by __type and by
 * __uint, flags, an array of maps with its inner template, a prog array. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct val { long a; int b; char c[20]; };

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1000);
	__type(key, __u32);
	__type(value, struct val);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} m_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 3);
	__uint(key_size, 4);
	__uint(value_size, 16);
} m_pcpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} m_ring SEC(".maps");

struct inner {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, int);
	__type(value, __u64);
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH_OF_MAPS);
	__uint(max_entries, 16);
	__type(key, int);
	__array(values, struct inner);
} m_outer SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, int());
} m_progs SEC(".maps");

SEC("socket")
int use_maps(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct val *v = bpf_map_lookup_elem(&m_hash, &k);
	void *pc = bpf_map_lookup_elem(&m_pcpu, &k);
	void *in = bpf_map_lookup_elem(&m_outer, &k);

	if (v && pc && in)
		bpf_ringbuf_output(&m_ring, v, sizeof(*v), 0);
	bpf_tail_call(skb, &m_progs, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

/* initial slots: a prog array and a map-in-map filled by the loader */
struct inner m_in1 SEC(".maps");

int tail_a(struct __sk_buff *skb);

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, int(struct __sk_buff *));
} m_jmp SEC(".maps") = {
	.values = { [2] = (void *)&tail_a },
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 3);
	__type(key, int);
	__array(values, struct inner);
} m_aom SEC(".maps") = {
	.values = { [1] = &m_in1 },
};

SEC("socket")
int tail_a(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &m_jmp, 2);
	return bpf_map_lookup_elem(&m_aom, &(int){1}) != 0;
}
