/* Tracepoint, raw tracepoint and BTF tracepoint tracers: scheduler latency,
 * exec/exit monitoring, syscall counting, network transmit statistics. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

#define TASK_COMM_LEN 16

const volatile __u32 targ_tgid = 0;
const volatile __u64 min_lat_us = 0;

struct sched_event {
	__u32 pid;
	__u32 prev_pid;
	__u64 delta_us;
	char comm[TASK_COMM_LEN];
	char prev_comm[TASK_COMM_LEN];
};

struct exec_event {
	__u32 pid, ppid, uid;
	int retval;
	char comm[TASK_COMM_LEN];
	char filename[128];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} wakeup_ts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} syscall_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} per_pid SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 32);
	__type(key, __u32);
	__type(value, __u64);
} len_hist SEC(".maps");

static __always_inline void bump_pid(__u32 pid, __u64 by)
{
	__u64 *v = bpf_map_lookup_elem(&per_pid, &pid);

	if (v)
		__sync_fetch_and_add(v, by);
	else
		bpf_map_update_elem(&per_pid, &pid, &by, BPF_NOEXIST);
}

SEC("tp/sched/sched_wakeup")
int tp_sched_wakeup(struct trace_event_raw_sched_wakeup_template *ctx)
{
	__u32 pid = ctx->pid;
	__u64 ts = bpf_ktime_get_ns();

	bpf_map_update_elem(&wakeup_ts, &pid, &ts, BPF_ANY);
	return 0;
}

SEC("tp/sched/sched_switch")
int tp_sched_switch(struct trace_event_raw_sched_switch *ctx)
{
	__u32 pid = ctx->next_pid;
	__u64 *tsp = bpf_map_lookup_elem(&wakeup_ts, &pid), delta;
	struct sched_event *e;

	if (!tsp)
		return 0;
	delta = (bpf_ktime_get_ns() - *tsp) / 1000;
	bpf_map_delete_elem(&wakeup_ts, &pid);
	if (delta < min_lat_us)
		return 0;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;
	e->pid = pid;
	e->prev_pid = ctx->prev_pid;
	e->delta_us = delta;
	bpf_probe_read_kernel_str(e->comm, sizeof(e->comm), ctx->next_comm);
	bpf_probe_read_kernel_str(e->prev_comm, sizeof(e->prev_comm), ctx->prev_comm);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp/sched/sched_process_exec")
int tp_sched_exec(struct trace_event_raw_sched_process_exec *ctx)
{
	struct exec_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	unsigned int off = ctx->__data_loc_filename & 0xffff;
	struct task_struct *task;

	if (!e)
		return 0;
	task = (struct task_struct *)bpf_get_current_task();
	e->pid = ctx->pid;
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->retval = 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_probe_read_kernel_str(e->filename, sizeof(e->filename), (void *)ctx + off);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp/sched/sched_process_exit")
int tp_sched_exit(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 pid = id >> 32;

	if ((__u32)id != pid)
		return 0;
	bpf_map_delete_elem(&per_pid, &pid);
	bpf_map_delete_elem(&wakeup_ts, &pid);
	return 0;
}

SEC("tp/raw_syscalls/sys_enter")
int tp_syscall_count(struct trace_event_raw_sys_enter *ctx)
{
	__u32 nr = (__u32)ctx->id;
	__u64 one = 1, *c;

	if (targ_tgid && (bpf_get_current_pid_tgid() >> 32) != targ_tgid)
		return 0;
	c = bpf_map_lookup_elem(&syscall_counts, &nr);
	if (c)
		*c += 1;
	else
		bpf_map_update_elem(&syscall_counts, &nr, &one, BPF_NOEXIST);
	return 0;
}

SEC("tp/raw_syscalls/sys_exit")
int tp_syscall_errors(struct trace_event_raw_sys_exit *ctx)
{
	if (ctx->ret >= 0)
		return 0;
	bump_pid(bpf_get_current_pid_tgid() >> 32, 1);
	return 0;
}

/* One program per interesting syscall, as opensnoop/execsnoop-style tools
 * attach them. */
#define SYSCALL_COUNTER(name)                                                 \
	SEC("tp/syscalls/sys_enter_" #name)                                   \
	int tp_enter_##name(struct trace_event_raw_sys_enter *ctx)            \
	{                                                                     \
		bump_pid(bpf_get_current_pid_tgid() >> 32, 1);                \
		return 0;                                                     \
	}

SYSCALL_COUNTER(openat)
SYSCALL_COUNTER(connect)
SYSCALL_COUNTER(accept4)
SYSCALL_COUNTER(clone)
SYSCALL_COUNTER(kill)
SYSCALL_COUNTER(mount)
SYSCALL_COUNTER(unlinkat)
SYSCALL_COUNTER(renameat2)

SEC("tp/syscalls/sys_enter_write")
int tp_write_bytes(struct trace_event_raw_sys_enter *ctx)
{
	__u64 count = ctx->args[2];
	__u32 slot = 0;
	__u64 *c;

	while (count > 1 && slot < 31) {
		count >>= 1;
		slot++;
	}
	c = bpf_map_lookup_elem(&len_hist, &slot);
	if (c)
		*c += 1;
	return 0;
}

SEC("tp/syscalls/sys_exit_execve")
int tp_execve_exit(struct trace_event_raw_sys_exit *ctx)
{
	struct exec_event *e;

	if (ctx->ret >= 0)
		return 0;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;
	__builtin_memset(e, 0, sizeof(*e));
	e->pid = bpf_get_current_pid_tgid() >> 32;
	e->retval = ctx->ret;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp/net/net_dev_xmit")
int tp_net_xmit(struct trace_event_raw_net_dev_xmit *ctx)
{
	__u32 len = ctx->len, slot = 0;
	__u64 *c;

	if (ctx->rc)
		return 0;
	while (len > 1 && slot < 31) {
		len >>= 1;
		slot++;
	}
	c = bpf_map_lookup_elem(&len_hist, &slot);
	if (c)
		*c += 1;
	return 0;
}

/* raw tracepoints: arguments as an array of u64 */
SEC("raw_tp/sched_switch")
int rawtp_sched_switch(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *prev = (struct task_struct *)ctx->args[1];
	struct task_struct *next = (struct task_struct *)ctx->args[2];
	__u32 pid = BPF_CORE_READ(next, pid);
	__u64 ts = bpf_ktime_get_ns();

	if (BPF_CORE_READ(prev, __state) == 0) /* preempted while runnable */
		bpf_map_update_elem(&wakeup_ts, &pid, &ts, BPF_ANY);
	return 0;
}

SEC("raw_tp/sys_enter")
int rawtp_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 nr = (__u32)ctx->args[1];
	__u64 one = 1, *c = bpf_map_lookup_elem(&syscall_counts, &nr);

	if (c)
		*c += 1;
	else
		bpf_map_update_elem(&syscall_counts, &nr, &one, BPF_NOEXIST);
	return 0;
}

SEC("raw_tp/sched_process_fork")
int rawtp_fork(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *parent = (struct task_struct *)ctx->args[0];

	bump_pid(BPF_CORE_READ(parent, tgid), 1);
	return 0;
}

/* BTF tracepoints: typed arguments, direct (checked) pointer reads */
SEC("tp_btf/sched_switch")
int BPF_PROG(btf_sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 pid = next->pid;
	__u64 ts = bpf_ktime_get_ns();

	if (prev->__state == 0)
		bpf_map_update_elem(&wakeup_ts, &pid, &ts, BPF_ANY);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(btf_wakeup_new, struct task_struct *p)
{
	struct exec_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e)
		return 0;
	e->pid = p->tgid;
	e->ppid = p->real_parent->tgid;
	e->uid = p->cred->uid.val;
	e->retval = 0;
	__builtin_memcpy(e->comm, p->comm, sizeof(e->comm));
	__builtin_memset(e->filename, 0, sizeof(e->filename));
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(btf_process_exit, struct task_struct *p)
{
	__u32 pid = p->tgid;
	__u64 code = p->exit_code;

	if (p->pid != p->tgid)
		return 0;
	bpf_map_update_elem(&per_pid, &pid, &code, BPF_ANY);
	return 0;
}

SEC("tp_btf/netif_receive_skb")
int BPF_PROG(btf_netif_rx, struct sk_buff *skb)
{
	__u32 len = skb->len, slot = 0;
	__u64 *c;

	while (len > 1 && slot < 31) {
		len >>= 1;
		slot++;
	}
	c = bpf_map_lookup_elem(&len_hist, &slot);
	if (c)
		*c += 1;
	return 0;
}

SEC("tp_btf/task_rename")
int BPF_PROG(btf_task_rename, struct task_struct *task, const char *comm)
{
	struct exec_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e)
		return 0;
	__builtin_memset(e, 0, sizeof(*e));
	e->pid = task->pid;
	__builtin_memcpy(e->comm, task->comm, sizeof(e->comm));
	bpf_probe_read_kernel_str(e->filename, sizeof(e->filename), comm);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* the current task as a trusted BTF pointer */
SEC("tp_btf/sys_enter")
int BPF_PROG(btf_sys_enter, struct pt_regs *regs, long id)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u32 key = t->tgid;

	if (id == 59 /* execve */)
		bump_pid(key, 1000);
	return 0;
}
