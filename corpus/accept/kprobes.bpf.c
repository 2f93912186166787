/* kprobe/kretprobe tracers in the style of the BCC/libbpf-tools family:
 * CO-RE reads of task_struct, string copies with bpf_probe_read_*_str,
 * events through a ring buffer and a perf buffer, latency histograms. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

#define TASK_COMM_LEN 16
#define PATH_LEN 128

const volatile __u32 filter_tgid = 0;
const volatile bool only_failures = false;

struct open_event {
	__u64 ts;
	__u32 pid, tgid, ppid, uid;
	int flags;
	char comm[TASK_COMM_LEN];
	char fname[PATH_LEN];
};

struct exec_event {
	__u32 pid, ppid;
	__u64 start_time;
	char comm[TASK_COMM_LEN];
	char pcomm[TASK_COMM_LEN];
};

struct start_info {
	__u64 ts;
	__u64 arg;
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(max_entries, 128);
	__type(key, __u32);
	__type(value, __u32);
} perf_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);
	__type(value, struct start_info);
} starts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} lat_hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct open_event);
} scratch SEC(".maps");

static __always_inline int filtered(void)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	return filter_tgid && tgid != filter_tgid;
}

static __always_inline __u32 log2_u64(__u64 v)
{
	__u32 r = 0;

#pragma unroll
	for (int i = 5; i >= 0; i--) {
		__u32 shift = 1u << i;

		if (v >> shift) {
			v >>= shift;
			r += shift;
		}
	}
	return r;
}

static __always_inline void hist_add(__u64 delta_ns)
{
	__u32 slot = log2_u64(delta_ns / 1000);
	__u64 *c;

	if (slot >= 64)
		slot = 63;
	c = bpf_map_lookup_elem(&lat_hist, &slot);
	if (c)
		__sync_fetch_and_add(c, 1);
}

SEC("kprobe/do_sys_openat2")
int BPF_KPROBE(kp_openat2, int dfd, const char *filename, struct open_how *how)
{
	struct task_struct *task;
	struct open_event *e;
	__u64 id = bpf_get_current_pid_tgid();

	if (filtered())
		return 0;
	e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (!e)
		return 0;
	task = (struct task_struct *)bpf_get_current_task();
	e->ts = bpf_ktime_get_ns();
	e->pid = (__u32)id;
	e->tgid = id >> 32;
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->flags = (int)BPF_CORE_READ(how, flags);
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_probe_read_user_str(e->fname, sizeof(e->fname), filename);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* Same event through a perf buffer, built in a per-CPU scratch slot. */
SEC("kprobe/do_sys_openat2")
int BPF_KPROBE(kp_openat2_perf, int dfd, const char *filename)
{
	__u32 zero = 0;
	struct open_event *e = bpf_map_lookup_elem(&scratch, &zero);
	__u64 id = bpf_get_current_pid_tgid();

	if (!e)
		return 0;
	e->ts = bpf_ktime_get_ns();
	e->pid = (__u32)id;
	e->tgid = id >> 32;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_probe_read_user_str(e->fname, sizeof(e->fname), filename);
	bpf_perf_event_output(ctx, &perf_events, BPF_F_CURRENT_CPU_, e, sizeof(*e));
	return 0;
}

SEC("kprobe/vfs_read")
int BPF_KPROBE(kp_vfs_read_entry, struct file *file, char *buf, size_t count)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct start_info si = {.ts = bpf_ktime_get_ns(), .arg = count};

	if (filtered())
		return 0;
	bpf_map_update_elem(&starts, &id, &si, BPF_ANY);
	return 0;
}

SEC("kretprobe/vfs_read")
int BPF_KRETPROBE(kp_vfs_read_exit, long ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct start_info *si = bpf_map_lookup_elem(&starts, &id);

	if (!si)
		return 0;
	if (!only_failures || ret < 0)
		hist_add(bpf_ktime_get_ns() - si->ts);
	bpf_map_delete_elem(&starts, &id);
	return 0;
}

/* Which files are being written: dentry name via CO-RE + kernel string copy. */
SEC("kprobe/vfs_write")
int BPF_KPROBE(kp_vfs_write_name, struct file *file)
{
	struct open_event *e;
	const unsigned char *name;

	if (filtered())
		return 0;
	e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (!e)
		return 0;
	__builtin_memset(e, 0, sizeof(*e));
	name = BPF_CORE_READ(file, f_path.dentry, d_name.name);
	bpf_probe_read_kernel_str(e->fname, sizeof(e->fname), name);
	e->flags = BPF_CORE_READ(file, f_flags);
	e->pid = bpf_get_current_pid_tgid();
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* Process tree: the parent's and grandparent's comm via CO-RE chains. */
SEC("kprobe/wake_up_new_task")
int BPF_KPROBE(kp_new_task, struct task_struct *p)
{
	struct exec_event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

	if (!e)
		return 0;
	e->pid = BPF_CORE_READ(p, tgid);
	e->ppid = BPF_CORE_READ(p, real_parent, tgid);
	e->start_time = BPF_CORE_READ(p, start_time);
	BPF_CORE_READ_STR_INTO(&e->comm, p, comm);
	BPF_CORE_READ_STR_INTO(&e->pcomm, p, real_parent, comm);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* TCP connect tracer: addresses from struct sock (CO-RE). */
struct conn_event {
	__u32 saddr, daddr;
	__u16 sport, dport;
	__u32 pid;
	char comm[TASK_COMM_LEN];
};

SEC("kprobe/tcp_connect")
int BPF_KPROBE(kp_tcp_connect, struct sock *sk)
{
	struct conn_event *e;

	if (BPF_CORE_READ(sk, __sk_common.skc_family) != 2 /* AF_INET */)
		return 0;
	e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (!e)
		return 0;
	e->saddr = BPF_CORE_READ(sk, __sk_common.skc_rcv_saddr);
	e->daddr = BPF_CORE_READ(sk, __sk_common.skc_daddr);
	e->sport = BPF_CORE_READ(sk, __sk_common.skc_num);
	e->dport = bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport));
	e->pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* Retransmit counter keyed by destination. */
SEC("kprobe/tcp_retransmit_skb")
int BPF_KPROBE(kp_tcp_retransmit, struct sock *sk)
{
	__u32 daddr = BPF_CORE_READ(sk, __sk_common.skc_daddr);
	__u64 one = 1, *c = bpf_map_lookup_elem(&counts, &daddr);

	if (c)
		__sync_fetch_and_add(c, 1);
	else
		bpf_map_update_elem(&counts, &daddr, &one, BPF_NOEXIST);
	return 0;
}

/* Block I/O size histogram from struct request (CO-RE). */
SEC("kprobe/blk_mq_start_request")
int BPF_KPROBE(kp_blk_start, struct request *rq)
{
	__u32 bytes = BPF_CORE_READ(rq, __data_len);

	hist_add((__u64)bytes * 1000);
	return 0;
}

/* Count page faults per process. */
SEC("kprobe/handle_mm_fault")
int BPF_KPROBE(kp_page_fault)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u64 one = 1, *c = bpf_map_lookup_elem(&counts, &tgid);

	if (c)
		__sync_fetch_and_add(c, 1);
	else
		bpf_map_update_elem(&counts, &tgid, &one, BPF_NOEXIST);
	return 0;
}

/* Signals sent: sender, target and signal number. */
SEC("kprobe/__send_signal_locked")
int BPF_KPROBE(kp_send_signal, int sig, struct kernel_siginfo *info, struct task_struct *t)
{
	struct exec_event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

	if (!e)
		return 0;
	e->pid = BPF_CORE_READ(t, tgid);
	e->ppid = sig;
	e->start_time = bpf_ktime_get_ns();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	BPF_CORE_READ_STR_INTO(&e->pcomm, t, comm);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* Current cgroup id and namespace inode of the caller. */
SEC("kprobe/do_nanosleep")
int BPF_KPROBE(kp_nanosleep_ns)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	__u32 inum = BPF_CORE_READ(task, nsproxy, pid_ns_for_children, ns.inum);
	__u64 cg = bpf_get_current_cgroup_id();
	__u32 key = inum ^ (__u32)cg;
	__u64 one = 1;

	bpf_map_update_elem(&counts, &key, &one, BPF_ANY);
	return 0;
}

/* exit code of exiting tasks; a field that moved across versions, guarded
 * with bpf_core_field_exists(). */
SEC("kprobe/do_exit")
int BPF_KPROBE(kp_do_exit, long code)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct exec_event *e;

	if (BPF_CORE_READ(task, pid) != BPF_CORE_READ(task, tgid))
		return 0; /* threads */
	e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (!e)
		return 0;
	e->pid = BPF_CORE_READ(task, tgid);
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
	e->start_time = bpf_core_field_exists(task->start_boottime) ?
				BPF_CORE_READ(task, start_boottime) : 0;
	e->start_time ^= (__u64)code << 32;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	__builtin_memset(e->pcomm, 0, sizeof(e->pcomm));
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* mmap sizes by process, summing into a hash. */
SEC("kprobe/do_mmap")
int BPF_KPROBE(kp_do_mmap, struct file *file, unsigned long addr, unsigned long len)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u64 *c = bpf_map_lookup_elem(&counts, &tgid);

	if (c)
		__sync_fetch_and_add(c, len);
	else
		bpf_map_update_elem(&counts, &tgid, (__u64 *)&len, BPF_NOEXIST);
	return 0;
}

/* execve argument 0 copied from user space. */
SEC("kprobe/do_execveat_common")
int BPF_KPROBE(kp_execve, int fd, struct filename *filename)
{
	struct open_event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	const char *name;

	if (!e)
		return 0;
	__builtin_memset(e, 0, sizeof(*e));
	name = BPF_CORE_READ(filename, name);
	bpf_probe_read_kernel_str(e->fname, sizeof(e->fname), name);
	e->pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, 0);
	return 0;
}
