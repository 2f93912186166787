/* EXPECT: accepted | */
/* Real kfuncs (resolved in vmlinux BTF, called with BTF ids) and a .kconfig
 * extern: the loader must resolve them and the oracle must load the object's
 * BTF with its extern declarations fixed up. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;
extern unsigned int LINUX_KERNEL_VERSION __kconfig;

SEC("tp_btf/sched_process_fork")
int kfunc_kconfig_ok(unsigned long long *ctx)
{
	struct task_struct *child = (struct task_struct *)ctx[1];
	struct task_struct *t = bpf_task_acquire(child);

	if (!t)
		return 0;
	bpf_task_release(t);
	return LINUX_KERNEL_VERSION > 0x60000;
}

char LICENSE[] SEC("license") = "GPL";
