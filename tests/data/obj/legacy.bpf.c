/* Loader test: a legacy `maps` section (struct bpf_map_def, pre-BTF style). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_map_def_legacy {
	unsigned int type, key_size, value_size, max_entries, map_flags;
};

struct bpf_map_def_legacy SEC("maps") old_hash = {
	.type = BPF_MAP_TYPE_HASH, .key_size = 4, .value_size = 8, .max_entries = 64,
};
struct bpf_map_def_legacy SEC("maps") old_array = {
	.type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 16, .max_entries = 2,
	.map_flags = 0,
};

SEC("kprobe/do_nanosleep")
int legacy_prog(void *ctx)
{
	int k = 1;
	long *v = bpf_map_lookup_elem(&old_hash, &k);
	void *a = bpf_map_lookup_elem(&old_array, &k);

	return v && a ? (int)*v : 0;
}

char LICENSE[] SEC("license") = "GPL";
