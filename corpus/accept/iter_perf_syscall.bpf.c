/* Iterators that dump kernel objects into a seq_file (tasks, open files,
 * VMAs, BPF maps and programs, TCP sockets), perf_event samplers with stack
 * traces, and BPF_PROG_TYPE_SYSCALL programs run from user space. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

#define MAX_STACK 127

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, MAX_STACK * sizeof(__u64));
} stacks SEC(".maps");

struct sample_key {
	__u32 pid;
	int user_stack;
	int kern_stack;
	char comm[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct sample_key);
	__type(value, __u64);
} samples SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[MAX_STACK]);
} stack_buf SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} results SEC(".maps");

SEC("iter/task")
int iter_dump_tasks(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *task = ctx->task;

	if (!task)
		return 0;
	if (ctx->meta->seq_num == 0)
		BPF_SEQ_PRINTF(seq, "    tgid      pid comm\n");
	BPF_SEQ_PRINTF(seq, "%8d %8d %s\n", task->tgid, task->pid, task->comm);
	return 0;
}

SEC("iter/task")
int iter_kernel_threads(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *task = ctx->task;

	if (!task || !(task->flags & 0x00200000 /* PF_KTHREAD */))
		return 0;
	BPF_SEQ_PRINTF(seq, "%d %s\n", task->pid, task->comm);
	return 0;
}

SEC("iter/task_file")
int iter_task_files(struct bpf_iter__task_file *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *task = ctx->task;
	struct file *file = ctx->file;

	if (!task || !file)
		return 0;
	BPF_SEQ_PRINTF(seq, "%d %d %lx\n", task->tgid, ctx->fd, (unsigned long)file->f_op);
	return 0;
}

SEC("iter/task_vma")
int iter_task_vmas(struct bpf_iter__task_vma *ctx)
{
	struct vm_area_struct *vma = ctx->vma;
	struct task_struct *task = ctx->task;

	if (!task || !vma)
		return 0;
	BPF_SEQ_PRINTF(ctx->meta->seq, "%d %lx-%lx\n", task->pid, vma->vm_start, vma->vm_end);
	return 0;
}

SEC("iter/bpf_map")
int iter_bpf_maps(struct bpf_iter__bpf_map *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct bpf_map *map = ctx->map;

	if (!map)
		return 0;
	BPF_SEQ_PRINTF(seq, "%8u %s %u\n", map->id, map->name, map->max_entries);
	return 0;
}

SEC("iter/bpf_prog")
int iter_bpf_progs(struct bpf_iter__bpf_prog *ctx)
{
	struct bpf_prog *prog = ctx->prog;
	struct bpf_prog_aux *aux;

	if (!prog)
		return 0;
	aux = prog->aux;
	BPF_SEQ_PRINTF(ctx->meta->seq, "%u %s\n", aux->id, aux->name);
	return 0;
}

SEC("iter/tcp")
int iter_tcp_sockets(struct bpf_iter__tcp *ctx)
{
	struct sock_common *skc = ctx->sk_common;

	if (!skc)
		return 0;
	if (skc->skc_family != 2)
		return 0;
	BPF_SEQ_PRINTF(ctx->meta->seq, "%pI4:%u %pI4:%u %u\n", &skc->skc_rcv_saddr, skc->skc_num,
		       &skc->skc_daddr, bpf_ntohs(skc->skc_dport), ctx->uid);
	return 0;
}

/* perf_event: CPU profiler keyed by stack ids */
SEC("perf_event")
int perf_profile(struct bpf_perf_event_data *ctx)
{
	struct sample_key key = {};
	__u64 one = 1, *c;

	key.pid = bpf_get_current_pid_tgid() >> 32;
	key.kern_stack = bpf_get_stackid(ctx, &stacks, 0);
	key.user_stack = bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	bpf_get_current_comm(key.comm, sizeof(key.comm));
	c = bpf_map_lookup_elem(&samples, &key);
	if (c)
		__sync_fetch_and_add(c, 1);
	else
		bpf_map_update_elem(&samples, &key, &one, BPF_NOEXIST);
	return 0;
}

SEC("perf_event")
int perf_sample_period(struct bpf_perf_event_data *ctx)
{
	__u32 k = (__u32)(ctx->sample_period & 63);
	__u64 one = 1;

	bpf_map_update_elem(&results, &k, &one, BPF_ANY);
	return 0;
}

SEC("perf_event")
int perf_user_stack_copy(struct bpf_perf_event_data *ctx)
{
	__u32 zero = 0;
	__u64 *buf = bpf_map_lookup_elem(&stack_buf, &zero);
	long n;

	if (!buf)
		return 0;
	n = bpf_get_stack(ctx, buf, MAX_STACK * sizeof(__u64), BPF_F_USER_STACK);
	if (n > 0) {
		__u32 k = 1;
		__u64 v = n;

		bpf_map_update_elem(&results, &k, &v, BPF_ANY);
	}
	return 0;
}

SEC("perf_event")
int perf_counter_read(struct bpf_perf_event_data *ctx)
{
	struct bpf_perf_event_value val;
	__u32 k = 2;
	__u64 ratio;

	if (bpf_perf_prog_read_value(ctx, &val, sizeof(val)))
		return 0;
	ratio = val.enabled ? val.running * 100 / val.enabled : 0;
	bpf_map_update_elem(&results, &k, &ratio, BPF_ANY);
	return 0;
}

/* syscall programs: run with BPF_PROG_TEST_RUN, ctx is caller memory */
struct sys_args {
	__u32 key;
	__u64 value;
	int ret;
};

SEC("syscall")
int syscall_store(struct sys_args *args)
{
	__u32 k = args->key & 63;
	__u64 v = args->value;

	args->ret = bpf_map_update_elem(&results, &k, &v, BPF_ANY);
	return 0;
}

SEC("syscall")
int syscall_lookup(struct sys_args *args)
{
	__u32 k = args->key & 63;
	__u64 *v = bpf_map_lookup_elem(&results, &k);

	args->ret = v ? 0 : -2;
	args->value = v ? *v : 0;
	return 0;
}

SEC("syscall")
int syscall_clear(void *ctx)
{
#pragma unroll
	for (__u32 i = 0; i < 16; i++) {
		__u32 k = i;

		bpf_map_delete_elem(&results, &k);
	}
	return 0;
}
