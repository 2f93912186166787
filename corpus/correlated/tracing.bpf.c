/* Accepted, correlated, in tracing and cgroup programs: an event record
 * reserved under a filter and submitted under the same filter, optional
 * per-pid state used only when found, a lock taken for some pids only. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

struct event {
	__u32 pid;
	__u32 tgid;
	char comm[16];
};

struct pstat {
	struct bpf_spin_lock lock;
	__u64 calls;
	__u64 bytes;
	__u64 hist[8];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct pstat);
} stats SEC(".maps"); /* with a lock: not usable from tracing programs */

struct tstat {
	__u64 calls;
	__u64 bytes;
	__u64 hist[8];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct tstat);
} tstats SEC(".maps");

const volatile __u32 target_tgid = 0;

/* reserve only for the target process, submit under the same predicate */
SEC("kprobe/do_sys_openat2")
int corr_kp_reserve_filtered(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct event *e = NULL;
	int match = (id >> 32) == target_tgid || target_tgid == 0;

	barrier_var(match);
	if (match) {
		e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
		if (!e)
			return 0;
		e->pid = (__u32)id;
		e->tgid = id >> 32;
		bpf_get_current_comm(e->comm, sizeof(e->comm));
	}
	barrier_var(match);
	if (match)
		bpf_ringbuf_submit(e, 0);
	return 0;
}

/* optional state pointer, used under the flag that says it was found */
SEC("tp/syscalls/sys_enter_write")
int corr_tp_optional_state(struct trace_event_raw_sys_enter *ctx)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	struct tstat *s = bpf_map_lookup_elem(&tstats, &tgid);
	int found = s != NULL;
	__u64 count = ctx->args[2];

	barrier_var(found);
	if (found)
		s->bytes += count;
	return 0;
}

/* histogram bucket computed and validated in one block, used after a join */
SEC("tp/syscalls/sys_enter_read")
int corr_tp_bucket_after_join(struct trace_event_raw_sys_enter *ctx)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	struct tstat *s = bpf_map_lookup_elem(&tstats, &tgid);
	__u64 count = ctx->args[2];
	__u32 bucket = 0;
	int ok = 0;

	if (!s)
		return 0;
	if (count < 256) {
		bucket = count >> 5; /* 0..7 */
		ok = 1;
	} else {
		s->calls++;
	}
	barrier_var(ok);
	barrier_var(bucket);
	if (ok)
		s->hist[bucket & 0xffff]++;
	return 0;
}

/* per-socket lock, only for large packets */
SEC("cgroup_skb/egress")
int corr_cg_lock_large(struct __sk_buff *skb)
{
	__u32 tgid = skb->ifindex;
	struct pstat *s = bpf_map_lookup_elem(&stats, &tgid);
	int threaded = skb->len > 1000;

	if (!s)
		return 0;
	barrier_var(threaded);
	if (threaded)
		bpf_spin_lock(&s->lock);
	s->calls++;
	barrier_var(threaded);
	if (threaded)
		bpf_spin_unlock(&s->lock);
	return 0;
}

/* cgroup_skb: the length class picked in one block decides the map offset later */
SEC("cgroup_skb/ingress")
int corr_cg_len_class(struct __sk_buff *skb)
{
	__u32 key = skb->ifindex, len = skb->len;
	struct tstat *s = bpf_map_lookup_elem(&tstats, &key);
	__u32 cls = 0;
	int small;

	barrier_var(len);
	small = len < 512;

	if (!s)
		return 1;
	barrier_var(small);
	if (small)
		cls = len >> 6; /* 0..7 */
	barrier_var(cls);
	barrier_var(small);
	if (small)
		s->hist[cls & 0xff]++;
	return 1;
}

/* socket filter: accept length computed on the path that validated the header */
SEC("socket")
int corr_sock_len_flag(struct __sk_buff *skb)
{
	__u8 ihl = 0;
	int have = 0;

	if (skb->protocol == bpf_htons(ETH_P_IP) && !bpf_skb_load_bytes(skb, 0, &ihl, 1))
		have = 1;
	barrier_var(have);
	if (have)
		return (ihl & 0xf) * 4 + 8;
	return 0;
}

/* tp_btf: task pointer from the tracepoint args, a field read only when
 * the pointer was checked in an earlier block */
SEC("tp_btf/sched_wakeup")
int BPF_PROG(corr_btf_checked_task, struct task_struct *p)
{
	struct task_struct *parent = NULL;
	int has_parent = 0;
	__u32 key;
	struct tstat *s;

	if (p) {
		parent = p->real_parent;
		has_parent = parent != NULL;
	}
	barrier_var(has_parent);
	if (!has_parent)
		return 0;
	key = parent->tgid;
	s = bpf_map_lookup_elem(&tstats, &key);
	if (s)
		s->calls++;
	return 0;
}

/* cgroup/connect4: rewrite only when a backend was found, flag-guarded */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u32);
} backends SEC(".maps");

SEC("cgroup/connect4")
int corr_connect_rewrite(struct bpf_sock_addr *ctx)
{
	__u32 vip = ctx->user_ip4;
	__u32 *be = bpf_map_lookup_elem(&backends, &vip);
	int rewrite = be != NULL && ctx->protocol == IPPROTO_TCP;

	barrier_var(rewrite);
	if (rewrite)
		ctx->user_ip4 = *be;
	return 1;
}
