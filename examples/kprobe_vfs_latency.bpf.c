/* kprobe_vfs_latency: a log2 histogram of vfs_read latency.
 *
 * The kprobe stores the entry time per thread in a hash map; the kretprobe
 * computes the delta and bumps a histogram slot. The slot is computed by a
 * static, non-inlined subprogram with a bounded loop, which the verifier
 * checks once per call site (static functions are verified in context).
 */
#include "bg_trace.h"

#define MAX_SLOTS 32

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);   /* pid_tgid */
	__type(value, __u64); /* entry timestamp, ns */
} read_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MAX_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} read_hist SEC(".maps");

/* floor(log2(v)) for v > 0, capped at MAX_SLOTS - 1; a bounded loop */
static __noinline __u32 log2_slot(__u64 v)
{
	__u32 slot = 0;

	for (int i = 0; i < MAX_SLOTS - 1; i++) {
		if (v <= 1)
			break;
		v >>= 1;
		slot++;
	}
	return slot;
}

SEC("kprobe/vfs_read")
int BPF_KPROBE(vfs_read_entry)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 ts = bpf_ktime_get_ns();

	bpf_map_update_elem(&read_start, &id, &ts, BPF_ANY);
	return 0;
}

SEC("kretprobe/vfs_read")
int BPF_KRETPROBE(vfs_read_exit, long ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 *start, *cnt;
	__u32 slot;

	start = bpf_map_lookup_elem(&read_start, &id);
	if (!start)
		return 0;
	slot = log2_slot((bpf_ktime_get_ns() - *start) / 1000);
	bpf_map_delete_elem(&read_start, &id);
	cnt = bpf_map_lookup_elem(&read_hist, &slot);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
