/* Helpers the interpreter answers without sockets or a call stack
 * (tests/unit/test_vm_helpers.c compiles this with clang-14 and runs each
 * program): sockmap/sockhash redirects find no socket (SK_DROP = 0),
 * get_stackid/get_stack find no stack (-EFAULT, -EINVAL for bad flags or
 * sizes, get_stack's buffer zeroed), sk_msg without message bytes, attach
 * cookie, current task (btf).
 * Each program returns the helper's result + 40 (or a check code) so a
 * value of 0 cannot pass by accident. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define EFAULT 14
#define EINVAL 22

struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} smap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SOCKHASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} shash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 8 * sizeof(__u64));
} stacks SEC(".maps");

SEC("sk_skb/stream_verdict")
int skb_redir_map(struct __sk_buff *skb)
{
	return bpf_sk_redirect_map(skb, &smap, 0, BPF_F_INGRESS) + 40;
}

SEC("sk_skb/stream_verdict")
int skb_redir_hash(struct __sk_buff *skb)
{
	__u32 key = skb->len;

	return bpf_sk_redirect_hash(skb, &shash, &key, 0) + 40;
}

SEC("sk_msg")
int msg_redir_map(struct sk_msg_md *msg)
{
	return bpf_msg_redirect_map(msg, &smap, 1, 0) + 40;
}

SEC("sk_msg")
int msg_redir_hash(struct sk_msg_md *msg)
{
	__u32 key = 2;

	return bpf_msg_redirect_hash(msg, &shash, &key, BPF_F_INGRESS) + 40;
}

/* no message bytes: pull_data finds no start (-EINVAL); apply/cork return 0.
 * 1 bit per check that holds */
SEC("sk_msg")
int msg_data(struct sk_msg_md *msg)
{
	int r = 0;

	r |= (bpf_msg_pull_data(msg, 0, 8, 0) == -EINVAL) << 0;
	r |= (bpf_msg_pull_data(msg, 4, 4, 0) == -EINVAL) << 1;
	r |= (bpf_msg_apply_bytes(msg, 100) == 0) << 2;
	r |= (bpf_msg_cork_bytes(msg, 10) == 0) << 3;
	return r;
}

/* 1 bit per check that holds */
SEC("kprobe/do_nanosleep")
int stackid(void *ctx)
{
	int r = 0;

	r |= (bpf_get_stackid(ctx, &stacks, 0) == -EFAULT) << 0;
	r |= (bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK | BPF_F_FAST_STACK_CMP | 3) == -EFAULT) << 1;
	r |= (bpf_get_stackid(ctx, &stacks, BPF_F_REUSE_STACKID) == -EFAULT) << 2;
	r |= (bpf_get_stackid(ctx, &stacks, 1 << 12) == -EINVAL) << 3;
	r |= (bpf_get_stackid(ctx, &stacks, BPF_F_USER_BUILD_ID) == -EINVAL) << 4;
	return r;
}

static __always_inline int zeroed(const __u64 *b, int n)
{
	for (int i = 0; i < n; i++)
		if (b[i])
			return 0;
	return 1;
}

SEC("kprobe/do_nanosleep")
int stack(void *ctx)
{
	__u64 buf[8];
	int r = 0;

	__builtin_memset(buf, 0xff, sizeof(buf));
	r |= (bpf_get_stack(ctx, buf, sizeof(buf), 0) == -EFAULT && zeroed(buf, 8)) << 0;
	__builtin_memset(buf, 0xff, sizeof(buf));
	r |= (bpf_get_stack(ctx, buf, 12, 0) == -EINVAL && zeroed(buf, 1) && buf[2] == ~0ull) << 1;
	__builtin_memset(buf, 0xff, sizeof(buf));
	r |= (bpf_get_stack(ctx, buf, sizeof(buf), BPF_F_USER_BUILD_ID) == -EINVAL && zeroed(buf, 8)) << 2;
	r |= (bpf_get_stack(ctx, buf, 64, BPF_F_USER_STACK | BPF_F_USER_BUILD_ID) == -EFAULT) << 3;
	r |= (bpf_get_stack(ctx, buf, 40, BPF_F_USER_STACK | BPF_F_USER_BUILD_ID) == -EINVAL) << 4;
	r |= (bpf_get_stack(ctx, buf, 16, 1 << 12) == -EINVAL) << 5;
	r |= (bpf_get_stack(ctx, buf, 0, BPF_F_USER_STACK) == -EFAULT) << 6;
	return r;
}

SEC("kprobe/do_nanosleep")
int cookie(void *ctx)
{
	return bpf_get_attach_cookie(ctx) + 40;
}

SEC("kprobe/do_nanosleep")
int task_btf(void *ctx)
{
	__u64 a = (__u64)bpf_get_current_task_btf(), b = bpf_get_current_task();

	return a && a == b ? 40 : 1;
}

char LICENSE[] SEC("license") = "GPL";
