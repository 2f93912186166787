/* kprobe_openat: report every file open with the opening task's identity.
 *
 * A kprobe on do_sys_openat2 reads task_struct fields with CO-RE
 * (BPF_CORE_READ), so the program loads on kernels whose task_struct layout
 * differs from the vmlinux.h it was built against. Events go to a ring buffer;
 * a .rodata knob restricts them to one process when non-zero.
 */
#include "bg_trace.h"

#define TASK_COMM_LEN 16
#define PATH_LEN 128

struct open_event {
	__u32 pid;
	__u32 tgid;
	__u32 ppid;
	__u32 uid;
	__s32 dfd;
	char comm[TASK_COMM_LEN];
	char path[PATH_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} open_events SEC(".maps");

const volatile __u32 target_tgid = 0;

SEC("kprobe/do_sys_openat2")
int BPF_KPROBE(kprobe_openat, int dfd, const char *filename)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct open_event *e;
	__u32 tgid = BPF_CORE_READ(task, tgid);

	if (target_tgid && tgid != target_tgid)
		return 0;
	e = bpf_ringbuf_reserve(&open_events, sizeof(*e), 0);
	if (!e)
		return 0;
	e->pid = BPF_CORE_READ(task, pid);
	e->tgid = tgid;
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
	e->uid = BPF_CORE_READ(task, cred, uid.val);
	e->dfd = dfd;
	BPF_CORE_READ_STR_INTO(&e->comm, task, comm);
	bpf_probe_read_user_str(e->path, sizeof(e->path), filename);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
