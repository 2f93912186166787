/* iter_task: a BPF iterator that lists tasks with their state and parent.
 *
 * Iterator programs are attached to a kernel iterator target (bpf_iter_task)
 * found by BTF id and write to a seq_file with bpf_seq_printf; reading the
 * iterator's fd yields the text. Only thread-group leaders are printed unless
 * .rodata says otherwise.
 */
#include "bg_trace.h"

const volatile bool all_threads = false;

SEC("iter/task")
int iter_task(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *task = ctx->task;

	if (!task) /* end of iteration */
		return 0;
	if (ctx->meta->seq_num == 0)
		BPF_SEQ_PRINTF(seq, "%8s %8s %8s %s\n", "tgid", "pid", "ppid", "comm");
	if (!all_threads && task->pid != task->tgid)
		return 0;
	BPF_SEQ_PRINTF(seq, "%8d %8d %8d %s\n", task->tgid, task->pid,
		       BPF_CORE_READ(task, real_parent, tgid), task->comm);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
