/* raw_tp_sched_switch: off-CPU time per thread from the sched_switch raw
 * tracepoint.
 *
 * raw_tp programs receive the tracepoint's arguments as an array of u64;
 * BPF_PROG unpacks them. Task fields are read with CO-RE; the task state
 * field was renamed (state -> __state in 5.14), and bpf_core_field_exists
 * picks whichever the running kernel has.
 */
#include "bg_trace.h"

/* the pre-5.14 layout, for the field-existence check */
struct task_struct___old {
	long state;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);   /* pid */
	__type(value, __u64); /* time it was switched out */
} off_since SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);   /* 0: switches, 1: total off-cpu ns */
	__type(value, __u64);
} switch_stats SEC(".maps");

static __always_inline long task_state(struct task_struct *t)
{
	struct task_struct___old *old = (void *)t;

	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ(old, state);
}

static __always_inline void add_stat(__u32 idx, __u64 v)
{
	__u64 *p = bpf_map_lookup_elem(&switch_stats, &idx);

	if (p)
		*p += v;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(raw_tp_sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 prev_pid = BPF_CORE_READ(prev, pid);
	__u32 next_pid = BPF_CORE_READ(next, pid);
	__u64 now = bpf_ktime_get_ns();
	__u64 *since;

	add_stat(0, 1);
	/* only threads that blocked (not preempted, not runnable) are off-CPU */
	if (prev_pid && !preempt && task_state(prev) != 0)
		bpf_map_update_elem(&off_since, &prev_pid, &now, BPF_ANY);
	since = bpf_map_lookup_elem(&off_since, &next_pid);
	if (since) {
		add_stat(1, now - *since);
		bpf_map_delete_elem(&off_since, &next_pid);
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
