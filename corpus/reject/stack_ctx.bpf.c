/* Rejected: stack, register, context and return-value mistakes. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} hm SEC(".maps");

/* unsafe: stack write below the 512-byte frame */
SEC("socket")
__naked int sock_stack_oob_write(void)
{
	asm volatile("r1 = 0;"
		     "*(u64 *)(r10 - 520) = r1;"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* unsafe: stack read above the frame pointer */
SEC("socket")
__naked int sock_stack_read_above_fp(void)
{
	asm volatile("r0 = *(u64 *)(r10 + 8);"
		     "exit;" ::: "memory");
}

/* unsafe: stack access at an unbounded variable offset */
SEC("socket")
__naked int sock_stack_var_offset_unbounded(void)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r1 = r10;"
		     "r1 += r0;"
		     "r2 = 0;"
		     "*(u8 *)(r1 - 8) = r2;"
		     "r0 = 0;"
		     "exit;"
		     :
		     : __imm(bpf_get_prandom_u32)
		     : "memory");
}

/* unsafe: return value register never written (uninitialized register) */
SEC("socket")
__naked int sock_r0_uninit(void)
{
	asm volatile("r1 = 1;"
		     "exit;" ::: "memory");
}

/* unsafe: read of a register that was never written */
SEC("socket")
__naked int sock_uninit_register(void)
{
	asm volatile("r0 = r7;"
		     "exit;" ::: "memory");
}

/* unsafe: caller-saved argument register used after a helper call clobbered it */
SEC("socket")
__naked int sock_clobbered_arg_reg(void)
{
	asm volatile("r2 = 7;"
		     "call %[bpf_get_prandom_u32];"
		     "r0 = r2;"
		     "exit;"
		     :
		     : __imm(bpf_get_prandom_u32)
		     : "memory");
}

/* unsafe: write to the read-only frame pointer r10 */
SEC("socket")
__naked int sock_write_fp(void)
{
	asm volatile("r10 = 0;"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* unsafe: partial (4-byte) fill of a spilled pointer from the stack */
SEC("socket")
__naked int sock_partial_pointer_fill(void)
{
	asm volatile("*(u64 *)(r10 - 8) = r1;"
		     "r0 = *(u32 *)(r10 - 8);"
		     "r0 = *(u8 *)(r0 + 0);"
		     "exit;" ::: "memory");
}

/* unsafe: combined stack of caller and callee frames above 512 bytes */
static __noinline int deep_frame(int x)
{
	volatile char buf[400];

	buf[x & 0xff] = 1;
	return buf[(x + 1) & 0xff];
}

SEC("socket")
int sock_combined_stack_too_large(struct __sk_buff *skb)
{
	volatile char buf[300];

	buf[skb->len & 0xff] = 2;
	return deep_frame(buf[0]);
}

/* unsafe: helper writes 16 bytes into an 8-byte stack buffer */
SEC("kprobe/do_sys_openat2")
int kp_helper_overflows_stack_buf(struct pt_regs *ctx)
{
	char small[8];
	struct {
		char comm[8];
	} *p = (void *)small;

	bpf_get_current_comm(p, 16);
	return p->comm[0];
}

/* unsafe: bpf_probe_read_kernel() with an unbounded size */
SEC("kprobe/do_sys_openat2")
int kp_probe_read_unbounded_size(struct pt_regs *ctx)
{
	char buf[64];
	__u32 n = (__u32)PT_REGS_PARM3(ctx);

	bpf_probe_read_kernel(buf, n, (void *)PT_REGS_PARM2(ctx));
	return buf[0];
}

/* unsafe: bpf_probe_read_kernel() with a possibly negative size */
SEC("kprobe/do_sys_openat2")
int kp_probe_read_negative_size(struct pt_regs *ctx)
{
	char buf[64];
	int n = (int)PT_REGS_PARM3(ctx);

	if (n > 64)
		return 0;
	bpf_probe_read_kernel(buf, n, (void *)PT_REGS_PARM2(ctx));
	return buf[0];
}

/* unsafe: write to a read-only context field (xdp_md->data) */
SEC("xdp")
__naked int xdp_write_ctx_data(void)
{
	asm volatile("r2 = 0;"
		     "*(u32 *)(r1 + %[off]) = r2;"
		     "r0 = 2;"
		     "exit;"
		     :
		     : __imm_const(off, offsetof(struct xdp_md, data))
		     : "memory");
}

/* unsafe: write to __sk_buff->len from tc */
SEC("tc")
int tc_write_skb_len(struct __sk_buff *skb)
{
	skb->len = 0;
	return TC_ACT_OK;
}

/* unsafe: misaligned narrow context load (2 bytes at offset 1 of xdp_md) */
SEC("xdp")
__naked int xdp_misaligned_ctx_load(void)
{
	asm volatile("r0 = *(u16 *)(r1 + 1);"
		     "r0 = 2;"
		     "exit;" ::: "memory");
}

/* unsafe: load through a modified context pointer */
SEC("tc")
__naked int tc_modified_ctx_ptr(void)
{
	asm volatile("r1 += 4;"
		     "r0 = *(u32 *)(r1 + 0);"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* unsafe: context access beyond the end of struct __sk_buff */
SEC("tc")
__naked int tc_ctx_out_of_range(void)
{
	asm volatile("r0 = *(u32 *)(r1 + 1024);"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* unsafe: kprobe programs cannot write pt_regs */
SEC("kprobe/do_sys_openat2")
__naked int kp_write_regs(void)
{
	asm volatile("r2 = 0;"
		     "*(u64 *)(r1 + 0) = r2;"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* unsafe: raw tracepoint argument read beyond the 12 possible arguments */
SEC("raw_tp/sys_enter")
__naked int rawtp_arg_out_of_range(void)
{
	asm volatile("r0 = *(u64 *)(r1 + 128);"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* unsafe: context pointer passed as a map key */
SEC("socket")
__naked int sock_ctx_as_map_key(void)
{
	asm volatile("r2 = r1;"
		     "r1 = %[hm] ll;"
		     "call %[bpf_map_lookup_elem];"
		     "r0 = 0;"
		     "exit;"
		     :
		     : __imm_addr(hm), __imm(bpf_map_lookup_elem)
		     : "memory");
}

/* unsafe: kernel pointer dereferenced directly in a kprobe (needs bpf_probe_read_kernel) */
SEC("kprobe/do_sys_openat2")
int kp_direct_kernel_deref(struct pt_regs *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();

	return *(volatile int *)((char *)t + 8);
}

/* unsafe: BTF pointer written through (task->pid = 0) */
SEC("tp_btf/sched_switch")
int BPF_PROG(btf_write_task, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	prev->pid = 0;
	return 0;
}

/* unsafe: bad return value for cgroup_skb (must be 0 or 1) */
SEC("cgroup_skb/egress")
int cg_bad_return_const(struct __sk_buff *skb)
{
	return 5;
}

/* unsafe: cgroup sock_addr program returning an unbounded value */
SEC("cgroup/connect4")
int cg_connect_unbounded_return(struct bpf_sock_addr *ctx)
{
	return ctx->user_port;
}

/* unsafe: helper not allowed for the program type (bpf_redirect in a socket filter) */
SEC("socket")
int sock_redirect_not_allowed(struct __sk_buff *skb)
{
	return bpf_redirect(1, 0);
}

/* unsafe: bpf_skb_store_bytes from a socket filter (not allowed for the type) */
SEC("socket")
int sock_store_bytes_not_allowed(struct __sk_buff *skb)
{
	__u8 z = 0;

	bpf_skb_store_bytes(skb, 0, &z, 1, 0);
	return 0;
}

/* unsafe: sleepable helper bpf_copy_from_user() in a non-sleepable kprobe */
SEC("kprobe/do_sys_openat2")
int kp_sleepable_helper(struct pt_regs *ctx)
{
	char buf[16];

	bpf_copy_from_user(buf, sizeof(buf), (void *)PT_REGS_PARM2(ctx));
	return buf[0];
}

/* unsafe: call of an unknown helper id */
SEC("socket")
__naked int sock_unknown_helper(void)
{
	asm volatile("call 9999;"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* unsafe: bpf_get_stack() with a buffer size that is not a constant within the buffer */
SEC("kprobe/do_sys_openat2")
int kp_get_stack_too_big(struct pt_regs *ctx)
{
	__u64 st[8];

	bpf_get_stack(ctx, st, 128, 0);
	return (int)st[0];
}
