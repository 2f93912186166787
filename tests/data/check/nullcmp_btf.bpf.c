/* Comparisons of BTF pointers with 0 (tests/check_nullcmp.test.sh).
 * The kernel decides `p == 0` only for trusted BTF pointers (tp_btf
 * arguments); a pointer walked from one (task->mm, task->real_parent) and
 * the arguments of fentry may be NULL, so the "== 0" branch is explored and
 * must be safe. BAD() reads the stack out of bounds: a program whose BAD()
 * the kernel explores is rejected. The expected verdict is the program
 * name's suffix: ..._accept / ..._reject. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

#define BAD() asm volatile("r1 = *(u64 *)(r10 + 8)" ::: "r1")

SEC("tp_btf/sched_wakeup")
int BPF_PROG(arg_trusted_accept, struct task_struct *p)
{
	if (!p)
		BAD();
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(walked_mm_reject, struct task_struct *p)
{
	struct mm_struct *mm = p->mm;

	if (!mm)
		BAD();
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(walked_parent_reject, struct task_struct *p)
{
	struct task_struct *q = p->real_parent;

	if (!q)
		BAD();
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(walked_checked_accept, struct task_struct *p)
{
	struct mm_struct *mm = p->mm;

	if (mm)
		return mm->map_count & 1;
	return 0;
}

SEC("fentry/do_unlinkat")
int BPF_PROG(fentry_arg_reject, int dfd, struct filename *name)
{
	if (!name)
		BAD();
	return 0;
}
