/* Rejected: instruction sequences in the shape of known kernel verifier
 * soundness bugs. On the vulnerable kernels the verifier believed the
 * access below was in bounds; a correct verifier (6.18 here) follows the
 * real value and rejects the out-of-bounds access. Each sequence is written
 * by hand because the compiler would never produce it. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} vals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

/* r0 = &vals[0] (non-NULL), or exit 0 */
#define LOOKUP_VALS                               \
	"r1 = 0;"                                 \
	"*(u32 *)(r10 - 4) = r1;"                 \
	"r2 = r10;"                               \
	"r2 += -4;"                               \
	"r1 = %[vals] ll;"                        \
	"call %[bpf_map_lookup_elem];"            \
	"if r0 != 0 goto l_ok%=;"                 \
	"exit;"                                   \
	"l_ok%=:"

/* unsafe: CVE-2017-16995 mov32 sign extension: w2 = -1 is 0xffffffff, not -1; the old verifier sign-extended it and pruned the branch that adds it to a map pointer */
SEC("socket")
__naked int cve_2017_16995_mov32_sign_ext(void)
{
	asm volatile(LOOKUP_VALS
		     "w2 = -1;"
		     "if r2 != -1 goto l1_%=;"
		     "r0 = 0;"
		     "exit;"
		     "l1_%=: r0 += r2;"
		     "r0 = *(u64 *)(r0 + 0);"
		     "r0 = 0;"
		     "exit;"
		     :
		     : __imm_addr(vals), __imm(bpf_map_lookup_elem)
		     : "memory");
}

/* unsafe: CVE-2020-8835 32-bit bound narrowing: 1 <= r <= 0x100000001 made the old verifier believe the low 32 bits were exactly 1 */
SEC("socket")
__naked int cve_2020_8835_bound32_narrowing(void)
{
	asm volatile(LOOKUP_VALS
		     "r6 = r0;"
		     "r7 = *(u64 *)(r6 + 0);"
		     "if r7 < 1 goto l_out%=;"
		     "r8 = 0x100000001 ll;"
		     "if r7 > r8 goto l_out%=;"
		     "w7 += 0;"           /* 32-bit op: zero-extends, low bits in [0, 0xffffffff] */
		     "w7 &= 2;"
		     "w7 >>= 1;"          /* 0 or 1; the buggy verifier thought 0 */
		     "r7 *= 4096;"
		     "r6 += r7;"
		     "r0 = *(u64 *)(r6 + 0);"
		     "l_out%=: r0 = 0;"
		     "exit;"
		     :
		     : __imm_addr(vals), __imm(bpf_map_lookup_elem)
		     : "memory");
}

/* unsafe: CVE-2021-3490 32-bit bitwise ops: AND/OR/XOR of registers with known low halves left the 32-bit bounds stale */
SEC("socket")
__naked int cve_2021_3490_alu32_bitwise_bounds(void)
{
	asm volatile(LOOKUP_VALS
		     "r6 = r0;"
		     "r7 = *(u64 *)(r6 + 0);"
		     "r8 = 0xffffffff00000000 ll;"
		     "r7 &= r8;"          /* high half unknown, low half 0 */
		     "r9 = *(u64 *)(r6 + 0);"
		     "r9 &= 1;"           /* 0 or 1 */
		     "r7 |= r9;"
		     "w7 &= 3;"           /* 32-bit AND: [0, 1] */
		     "w7 |= 2;"           /* 32-bit OR: [2, 3] */
		     "w7 ^= 2;"           /* 32-bit XOR: [0, 1] */
		     "r7 *= 8192;"
		     "r6 += r7;"
		     "r0 = *(u64 *)(r6 + 0);"
		     "r0 = 0;"
		     "exit;"
		     :
		     : __imm_addr(vals), __imm(bpf_map_lookup_elem)
		     : "memory");
}

/* unsafe: CVE-2021-31440 64-to-32 bound propagation: a signed 64-bit upper bound was wrongly applied to the low 32 bits */
SEC("socket")
__naked int cve_2021_31440_bound64_to_32(void)
{
	asm volatile(LOOKUP_VALS
		     "r6 = r0;"
		     "r7 = *(u64 *)(r6 + 0);"
		     "if r7 s> 0x7fffffff goto l_out%=;" /* r7 may still be negative */
		     "if w7 s< 0 goto l_out%=;"
		     "w7 >>= 29;"         /* the buggy verifier: 0; really up to 3 */
		     "r7 *= 8;"
		     "r6 += r7;"
		     "r0 = *(u64 *)(r6 + 0);"
		     "l_out%=: r0 = 0;"
		     "exit;"
		     :
		     : __imm_addr(vals), __imm(bpf_map_lookup_elem)
		     : "memory");
}

/* unsafe: CVE-2022-23222 arithmetic on a maybe-NULL pointer: offset the ringbuf_mem_or_null before the check, so NULL + 8 passes a NULL test */
SEC("socket")
__naked int cve_2022_23222_or_null_arith(void)
{
	asm volatile("r1 = %[rb] ll;"
		     "r2 = 16;"
		     "r3 = 0;"
		     "call %[bpf_ringbuf_reserve];"
		     "r6 = r0;"
		     "r6 += 8;"
		     "if r6 == 0 goto l_out%=;"
		     "r1 = *(u64 *)(r6 + 0);"
		     "r1 = r0;"
		     "r2 = 0;"
		     "call %[bpf_ringbuf_discard];"
		     "l_out%=: r0 = 0;"
		     "exit;"
		     :
		     : __imm_addr(rb), __imm(bpf_ringbuf_reserve), __imm(bpf_ringbuf_discard)
		     : "memory");
}

/* unsafe: CVE-2023-2163 pruning with imprecise scalars: the offset register is not used by the first path, so the old verifier pruned the second path that adds a large offset */
SEC("socket")
__naked int cve_2023_2163_pruning_imprecise(void)
{
	asm volatile(LOOKUP_VALS
		     "r6 = r0;"
		     "call %[bpf_get_prandom_u32];"
		     "r8 = r0;"
		     "r9 = 0;"
		     "if r8 > 10 goto l_big%=;"
		     "goto l_join%=;"
		     "l_big%=: r9 = 0x2000;"
		     "l_join%=: if r8 > 5 goto l_use%=;"
		     "r0 = 0;"
		     "exit;"
		     "l_use%=: r6 += r9;"
		     "r0 = *(u64 *)(r6 + 0);"
		     "r0 = 0;"
		     "exit;"
		     :
		     : __imm_addr(vals), __imm(bpf_map_lookup_elem), __imm(bpf_get_prandom_u32)
		     : "memory");
}

/* unsafe: CVE-2021-33200 pointer minus scalar limits: map_value - unknown negative offset */
SEC("socket")
__naked int cve_2021_33200_ptr_sub_limits(void)
{
	asm volatile(LOOKUP_VALS
		     "r6 = r0;"
		     "r7 = *(u64 *)(r6 + 0);"
		     "r7 &= 0xff;"
		     "r6 -= r7;"
		     "r0 = *(u8 *)(r6 + 0);"
		     "r0 = 0;"
		     "exit;"
		     :
		     : __imm_addr(vals), __imm(bpf_map_lookup_elem)
		     : "memory");
}

/* unsafe: bpf_sk_fullsock() result (sock_or_null) dereferenced without a NULL check */
SEC("cgroup_skb/egress")
int cve_fullsock_unchecked(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk;

	if (!sk)
		return 1;
	sk = bpf_sk_fullsock(sk);
	return sk->protocol == 6;
}
