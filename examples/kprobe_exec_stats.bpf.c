/* kprobe_exec_stats: global data in every flavour.
 *
 * Counts execve calls (kprobe on the syscall entry), split by whether the
 * caller runs as root, and remembers the last caller's command name. It uses
 * .rodata (a const knob), .data (initialised counters), .bss (zeroed state)
 * and a custom data section (.data.last), each of which becomes an array map
 * with one element that user space can read and write.
 */
#include "bg_trace.h"

#define TASK_COMM_LEN 16

const volatile __u32 ignore_uid = 65534; /* .rodata: nobody */
__u64 exec_calls = 0;                    /* .bss */
__u64 root_calls = 0;                    /* .bss */
__u64 generation = 1;                    /* .data */
char last_comm[TASK_COMM_LEN] SEC(".data.last") = "none";
__u32 last_uid SEC(".data.last") = 0;

SEC("kprobe/__x64_sys_execve")
int kprobe_exec_stats(struct pt_regs *regs)
{
	__u32 uid = (__u32)bpf_get_current_uid_gid();

	if (uid == ignore_uid)
		return 0;
	__sync_fetch_and_add(&exec_calls, 1);
	if (uid == 0)
		__sync_fetch_and_add(&root_calls, 1);
	bpf_get_current_comm(last_comm, sizeof(last_comm));
	last_uid = uid;
	generation++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
