/* tp_btf_fork: count forks per parent process with a BTF-enabled tracepoint.
 *
 * tp_btf programs are typed by the tracepoint's BTF prototype
 * (btf_trace_sched_process_fork), so task pointers can be dereferenced
 * directly, without bpf_probe_read. Totals are kept in global data.
 */
#include "bg_trace.h"

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);   /* parent tgid */
	__type(value, __u64); /* children forked */
} forks SEC(".maps");

__u64 total_forks;        /* .bss */
__u64 threads_created;    /* .bss */

SEC("tp_btf/sched_process_fork")
int BPF_PROG(tp_btf_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid;
	__u64 one = 1, *v;

	__sync_fetch_and_add(&total_forks, 1);
	if (child->tgid == ptgid)
		__sync_fetch_and_add(&threads_created, 1);
	v = bpf_map_lookup_elem(&forks, &ptgid);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&forks, &ptgid, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
