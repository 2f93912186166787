/* Loader test: kfuncs (extern functions, BPF_PSEUDO_KFUNC_CALL), typed ksyms
 * (BPF_PSEUDO_BTF_ID), a kfunc the kernel does not have, and __kconfig. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct task_struct;
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;
extern struct task_struct *bpf_task_from_pid(int pid) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;
extern int bpf_no_such_kfunc_here(int x) __ksym;
extern const int bpf_prog_active __ksym;
extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern int CONFIG_BPF_SYSCALL __kconfig __weak;

SEC("tp_btf/sched_process_fork")
int kfuncs(__u64 *ctx)
{
	struct task_struct *t;

	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	t = bpf_task_from_pid(1);
	if (t)
		bpf_task_release(t);
	return LINUX_KERNEL_VERSION > 0 && CONFIG_BPF_SYSCALL >= 0;
}

SEC("tp_btf/sched_process_fork")
int ksym_var(__u64 *ctx)
{
	const int *p = bpf_this_cpu_ptr(&bpf_prog_active);

	return *p;
}

SEC("tp_btf/sched_process_fork")
int missing_kfunc(__u64 *ctx)
{
	return bpf_no_such_kfunc_here(1);
}

char LICENSE[] SEC("license") = "GPL";

extern int CONFIG_HZ __kconfig;
extern char CONFIG_DEFAULT_HOSTNAME[16] __kconfig __weak;
extern int CONFIG_BPFGATE_NO_SUCH_OPTION __kconfig;

int kconfig_out[2];

SEC("tp_btf/sched_process_fork")
int kconfig_vals(__u64 *ctx)
{
	kconfig_out[0] = CONFIG_HZ;
	kconfig_out[1] = CONFIG_DEFAULT_HOSTNAME[0];
	return 0;
}

SEC("tp_btf/sched_process_fork")
int kconfig_missing(__u64 *ctx)
{
	return CONFIG_BPFGATE_NO_SUCH_OPTION;
}
