/* Rejected: loops, calls, malformed instructions, pointer arithmetic and
 * bounds lost through arithmetic. Several are hand-written instruction
 * sequences: a compiler would not emit them, a JIT fuzzer or an attacker
 * would. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

struct val {
	__u64 slots[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct val);
} arr SEC(".maps");

struct tval {
	struct bpf_timer t;
	__u64 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tval);
} timers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} hm SEC(".maps");

const volatile __u32 ro_cfg = 1;

/* unsafe: infinite loop (branch to itself) */
SEC("socket")
__naked int sock_infinite_loop(void)
{
	asm volatile("r0 = 0;"
		     "l0_%=: goto l0_%=;" ::: "memory");
}

/* unsafe: loop whose exit condition never changes */
SEC("socket")
__naked int sock_loop_no_progress(void)
{
	asm volatile("r1 = 0;"
		     "l0_%=: r0 = 0;"
		     "if r1 == 0 goto l0_%=;"
		     "exit;" ::: "memory");
}

#if __clang_major__ >= 15 /* costly to judge (1M insns): one variant only */
/* unsafe: loop bounded only by packet-controlled data (unbounded loop) */
SEC("socket")
__naked int sock_unbounded_loop(void)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r1 = 0;"
		     "l0_%=: r1 += 1;"
		     "if r1 != r0 goto l0_%=;"
		     "r0 = 0;"
		     "exit;"
		     :
		     : __imm(bpf_get_prandom_u32)
		     : "memory");
}
#endif

/* unsafe: unreachable instructions after exit */
SEC("socket")
__naked int sock_unreachable_insn(void)
{
	asm volatile("r0 = 0;"
		     "exit;"
		     "r0 = 1;"
		     "exit;" ::: "memory");
}

/* unsafe: shift by an out-of-range immediate (64) */
SEC("socket")
__naked int sock_invalid_shift(void)
{
	asm volatile("r0 = 1;"
		     ".8byte 0x0000004000000067;" /* r0 <<= 64 */
		     "exit;" ::: "memory");
}

/* unsafe: division by an immediate zero */
SEC("socket")
__naked int sock_div_by_zero_imm(void)
{
	asm volatile("r0 = 7;"
		     ".8byte 0x0000000000000037;" /* r0 /= 0 */
		     "exit;" ::: "memory");
}

/* unsafe: legacy packet load (LD_ABS) in an XDP program */
SEC("xdp")
__naked int xdp_ld_abs(void)
{
	asm volatile("r6 = r1;"
		     "r0 = *(u8 *)skb[12];"
		     "r0 = 2;"
		     "exit;" ::: "memory");
}

/* unsafe: 32-bit arithmetic on a pointer */
SEC("socket")
__naked int sock_ptr_alu32(void)
{
	asm volatile("w1 += 4;"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* unsafe: multiplication of a pointer */
SEC("socket")
__naked int sock_ptr_mul(void)
{
	asm volatile("r1 = r10;"
		     "r1 *= 2;"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* unsafe: bitwise OR on a pointer */
SEC("socket")
__naked int sock_ptr_bitwise(void)
{
	asm volatile("r1 = r10;"
		     "r1 |= 7;"
		     "r0 = *(u8 *)(r1 - 8);"
		     "exit;" ::: "memory");
}

/* unsafe: subtraction of two pointers of different kinds, used as a pointer */
SEC("socket")
__naked int sock_ptr_minus_ptr_deref(void)
{
	asm volatile("r2 = r10;"
		     "r2 -= r1;"
		     "r0 = *(u8 *)(r2 + 0);"
		     "exit;" ::: "memory");
}

/* unsafe: dereference of a plain integer as a pointer */
SEC("socket")
__naked int sock_scalar_deref(void)
{
	asm volatile("r1 = 4096;"
		     "r0 = *(u64 *)(r1 + 0);"
		     "exit;" ::: "memory");
}

/* unsafe: call chain deeper than 8 frames */
#define CHAIN(n, next)                                        \
	static __noinline int chain##n(int x)                 \
	{                                                     \
		volatile int y = x + n;                       \
		return next(y) + 1;                           \
	}
static __noinline int chain9(int x)
{
	volatile int y = x;
	return y;
}
CHAIN(8, chain9)
CHAIN(7, chain8)
CHAIN(6, chain7)
CHAIN(5, chain6)
CHAIN(4, chain5)
CHAIN(3, chain4)
CHAIN(2, chain3)
CHAIN(1, chain2)

SEC("socket")
int sock_call_chain_too_deep(struct __sk_buff *skb)
{
	return chain1(skb->len);
}

/* unsafe: bounds lost through a 32-bit subtraction that wraps */
SEC("xdp")
int xdp_bounds_lost_alu32(struct xdp_md *ctx)
{
	__u32 k = 0, i = bpf_get_prandom_u32();
	struct val *v = bpf_map_lookup_elem(&arr, &k);
	__u32 j;

	if (!v || i > 15)
		return XDP_PASS;
	j = i - 8; /* wraps to 0xfffffff8.. for i < 8 */
	v->slots[j]++;
	return XDP_PASS;
}

/* unsafe: bounds laundered through division (quotient of an unchecked value still too big) */
SEC("xdp")
int xdp_bounds_after_division(struct xdp_md *ctx)
{
	__u32 k = 0, i = bpf_get_prandom_u32() & 0xfff;
	struct val *v = bpf_map_lookup_elem(&arr, &k);

	if (!v)
		return XDP_PASS;
	i /= 16; /* [0, 255]: still out of the 16 slots */
	v->slots[i]++;
	return XDP_PASS;
}

/* unsafe: bpf_loop callback returning a value other than 0 or 1 */
static long bad_cb(__u32 i, void *ctx)
{
	return 2;
}

SEC("tc")
int tc_loop_callback_bad_return(struct __sk_buff *skb)
{
	bpf_loop(4, bad_cb, NULL, 0);
	return TC_ACT_OK;
}

/* unsafe: timer callback returning non-zero */
static int bad_timer_cb(void *map, int *key, struct tval *v)
{
	return 1;
}

SEC("tc")
int tc_timer_callback_bad_return(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct tval *v = bpf_map_lookup_elem(&timers, &k);

	if (!v)
		return TC_ACT_OK;
	bpf_timer_init(&v->t, &timers, 1 /* CLOCK_MONOTONIC */);
	bpf_timer_set_callback(&v->t, bad_timer_cb);
	bpf_timer_start(&v->t, 1000, 0);
	return TC_ACT_OK;
}

/* unsafe: bpf_timer on the stack instead of inside a map value */
SEC("tc")
int tc_timer_on_stack(struct __sk_buff *skb)
{
	struct bpf_timer t = {};

	bpf_timer_init(&t, &timers, 1);
	return TC_ACT_OK;
}

/* unsafe: for_each callback writes into the map key */
static long write_key_cb(struct bpf_map *map, __u32 *key, __u64 *val, void *ctx)
{
	*key = 0;
	return 0;
}

SEC("tc")
int tc_foreach_writes_key(struct __sk_buff *skb)
{
	bpf_for_each_map_elem(&hm, write_key_cb, NULL, 0);
	return TC_ACT_OK;
}

/* unsafe: bpf_snprintf() with a format string on the stack (must be read-only) */
SEC("tc")
int tc_snprintf_stack_fmt(struct __sk_buff *skb)
{
	char fmt[8] = "%d";
	char out[16];
	__u64 args[1] = {skb->len};

	bpf_snprintf(out, sizeof(out), fmt, args, sizeof(args));
	return out[0];
}

/* unsafe: helper writes into .rodata (bpf_probe_read_kernel into a const) */
SEC("kprobe/do_sys_openat2")
int kp_helper_writes_rodata(struct pt_regs *ctx)
{
	bpf_probe_read_kernel((void *)&ro_cfg, sizeof(ro_cfg), (void *)PT_REGS_PARM2(ctx));
	return 0;
}

/* unsafe: perf event output of more bytes than the stack buffer holds */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u32);
} perf SEC(".maps");

SEC("kprobe/do_sys_openat2")
int kp_perf_output_overread(struct pt_regs *ctx)
{
	__u64 ev[2] = {1, 2};

	bpf_perf_event_output(ctx, &perf, BPF_F_CURRENT_CPU_, ev, 64);
	return 0;
}

/* unsafe: global function dereferences its pointer argument without a NULL check */
struct pair {
	int a, b;
};

__noinline int global_sum(struct pair *p)
{
	return p->a + p->b;
}

SEC("tc")
int tc_global_func_nullable_arg(struct __sk_buff *skb)
{
	struct pair p = {skb->len, 1};

	return global_sum(&p);
}

/* unsafe: ring buffer dynptr reserved and never submitted or discarded */
SEC("tp/syscalls/sys_enter_openat")
int tp_dynptr_leak(void *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 16, 0, &d);
	return 0;
}

#if CORPUS_HAVE_KFUNCS
/* unsafe: open-coded iterator created and never destroyed */
SEC("tc")
int tc_iter_not_destroyed(struct __sk_buff *skb)
{
	struct bpf_iter_num it;
	int *v, sum = 0;

	bpf_iter_num_new(&it, 0, 4);
	while ((v = bpf_iter_num_next(&it)))
		sum += *v;
	return sum & 1;
}

/* unsafe: iterator advanced without having been created */
SEC("tc")
int tc_iter_next_uninit(struct __sk_buff *skb)
{
	struct bpf_iter_num it;
	int *v = bpf_iter_num_next(&it);

	return v ? 1 : 0;
}
#endif
