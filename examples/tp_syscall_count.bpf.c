/* tp_syscall_count: count system calls per syscall number and per process.
 *
 * A classic tracepoint (raw_syscalls/sys_enter): the context is the
 * tracepoint's record layout, struct trace_event_raw_sys_enter in vmlinux.h.
 * Counts are kept in a per-CPU hash so that the hot path needs no atomics.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct sc_key {
	__u32 tgid;
	__u32 nr;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 8192);
	__type(key, struct sc_key);
	__type(value, __u64);
} syscall_counts SEC(".maps");

SEC("tracepoint/raw_syscalls/sys_enter")
int tp_sys_enter(struct trace_event_raw_sys_enter *ctx)
{
	struct sc_key key = {
		.tgid = bpf_get_current_pid_tgid() >> 32,
		.nr = (__u32)ctx->id,
	};
	__u64 one = 1, *v;

	if (ctx->id < 0)
		return 0;
	v = bpf_map_lookup_elem(&syscall_counts, &key);
	if (v)
		(*v)++;
	else
		bpf_map_update_elem(&syscall_counts, &key, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
