/* Accepted, correlated, written as instruction sequences so that the
 * correlation is guaranteed to be in the bytecode exactly as described
 * (no compiler can fold or duplicate the tests). */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

struct counter {
	struct bpf_spin_lock lock;
	__u64 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct counter);
} lockmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u64);
	__type(value, __u64[16]);
} vals SEC(".maps");

/* r7 = lookup(vals, key=0) (may be NULL) */
#define LOOKUP_R7                          \
	"r1 = 0;"                          \
	"*(u64 *)(r10 - 8) = r1;"          \
	"r2 = r10;"                        \
	"r2 += -8;"                        \
	"r1 = %[vals] ll;"                 \
	"call %[bpf_map_lookup_elem];"     \
	"r7 = r0;"

/* if (r8) lock; n++; if (r8) unlock — lock state joined with r8 */
SEC("tc")
__naked int corr_asm_cond_lock(void)
{
	asm volatile("r6 = r1;"
		     "r1 = 0;"
		     "*(u32 *)(r10 - 4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[lockmap] ll;"
		     "call %[bpf_map_lookup_elem];"
		     "if r0 == 0 goto l_out%=;"
		     "r7 = r0;"
		     "r8 = *(u32 *)(r6 + %[len_off]);"
		     "r8 &= 1;"
		     "if r8 == 0 goto l_a%=;"
		     "r1 = r7;"
		     "call %[bpf_spin_lock];"
		     "l_a%=: r1 = *(u64 *)(r7 + 8);"
		     "r1 += 1;"
		     "*(u64 *)(r7 + 8) = r1;"
		     "if r8 == 0 goto l_out%=;"
		     "r1 = r7;"
		     "call %[bpf_spin_unlock];"
		     "l_out%=: r0 = 0;"
		     "exit;"
		     :
		     : __imm_addr(lockmap), __imm(bpf_map_lookup_elem), __imm(bpf_spin_lock),
		       __imm(bpf_spin_unlock), __imm_const(len_off, offsetof(struct __sk_buff, len))
		     : "memory");
}

/* flag in r8 set only where r7 != NULL; r7 used under r8 */
SEC("socket")
__naked int corr_asm_flag_pointer(void)
{
	asm volatile(LOOKUP_R7
		     "r8 = 0;"
		     "if r7 == 0 goto l_join%=;"
		     "r8 = 1;"
		     "l_join%=: r0 = 0;"
		     "if r8 == 0 goto l_out%=;"
		     "r0 = *(u64 *)(r7 + 0);"
		     "l_out%=: exit;"
		     :
		     : __imm_addr(vals), __imm(bpf_map_lookup_elem)
		     : "memory");
}

/* the same flag, spilled to the stack and filled back later */
SEC("socket")
__naked int corr_asm_flag_on_stack(void)
{
	asm volatile(LOOKUP_R7
		     "r1 = 0;"
		     "if r7 == 0 goto l_j%=;"
		     "r1 = 1;"
		     "l_j%=: *(u64 *)(r10 - 16) = r1;"
		     "call %[bpf_get_prandom_u32];"
		     "r1 = *(u64 *)(r10 - 16);"
		     "r0 = 0;"
		     "if r1 == 0 goto l_out%=;"
		     "r0 = *(u64 *)(r7 + 8);"
		     "l_out%=: exit;"
		     :
		     : __imm_addr(vals), __imm(bpf_map_lookup_elem), __imm(bpf_get_prandom_u32)
		     : "memory");
}

/* index bound remembered as a flag: r9 = (r6 < 16); ...; if (r9) use r6 */
SEC("socket")
__naked int corr_asm_index_flag(void)
{
	asm volatile(LOOKUP_R7
		     "if r7 == 0 goto l_out%=;"
		     "call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r9 = 0;"
		     "if r6 > 15 goto l_j%=;"
		     "r9 = 1;"
		     "l_j%=: r0 = 0;"
		     "if r9 == 0 goto l_out%=;"
		     "r6 <<= 3;"
		     "r7 += r6;"
		     "r0 = *(u64 *)(r7 + 0);"
		     "l_out%=: exit;"
		     :
		     : __imm_addr(vals), __imm(bpf_map_lookup_elem), __imm(bpf_get_prandom_u32)
		     : "memory");
}

/* same predicate tested twice with different instructions (r6 < 8, then r6 <= 7) */
SEC("socket")
__naked int corr_asm_same_predicate_twice(void)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r7 = 0;"
		     "if r6 >= 8 goto l_j%=;"
		     "r1 = 0;"
		     "*(u64 *)(r10 - 8) = r1;"
		     "r2 = r10;"
		     "r2 += -8;"
		     "r1 = %[vals] ll;"
		     "call %[bpf_map_lookup_elem];"
		     "if r0 == 0 goto l_out%=;"
		     "r7 = r0;"
		     "l_j%=: r0 = 0;"
		     "if r6 > 7 goto l_out%=;"
		     "r0 = *(u64 *)(r7 + 0);"
		     "l_out%=: exit;"
		     :
		     : __imm_addr(vals), __imm(bpf_map_lookup_elem), __imm(bpf_get_prandom_u32)
		     : "memory");
}

/* packet end pointer chosen on a branch (14 or 34 bytes), compared once
 * after the join; the read past 14 happens only on the 34-byte branch */
SEC("xdp")
__naked int corr_asm_pkt_after_join(void)
{
	asm volatile("r2 = *(u32 *)(r1 + %[data]);"
		     "r3 = *(u32 *)(r1 + %[end]);"
		     "r6 = *(u32 *)(r1 + %[ifindex]);"
		     "r6 &= 1;"
		     "r4 = r2;"
		     "r4 += 14;"
		     "if r6 == 0 goto l_j%=;"
		     "r4 += 20;"
		     "l_j%=: r0 = 2;"
		     "if r4 > r3 goto l_out%=;"
		     "if r6 == 0 goto l_short%=;"
		     "r0 = *(u8 *)(r2 + 33);"
		     "r0 = 2;"
		     "exit;"
		     "l_short%=: r0 = *(u8 *)(r2 + 13);"
		     "r0 = 2;"
		     "l_out%=: exit;"
		     :
		     : __imm_const(data, offsetof(struct xdp_md, data)),
		       __imm_const(end, offsetof(struct xdp_md, data_end)),
		       __imm_const(ifindex, offsetof(struct xdp_md, ingress_ifindex))
		     : "memory");
}

/* copy checked, original used: r7 = r6; if r7 > 15 exit; index with r6 */
SEC("socket")
__naked int corr_asm_copy_checked(void)
{
	asm volatile(LOOKUP_R7
		     "if r7 == 0 goto l_out%=;"
		     "call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r8 = r6;"
		     "r0 = 0;"
		     "if r8 > 15 goto l_out%=;"
		     "r6 <<= 3;"
		     "r7 += r6;"
		     "r0 = *(u64 *)(r7 + 0);"
		     "l_out%=: exit;"
		     :
		     : __imm_addr(vals), __imm(bpf_map_lookup_elem), __imm(bpf_get_prandom_u32)
		     : "memory");
}

/* loop whose counter bound is another register: for (i = 0; i < n; i++) with n <= 16 */
SEC("socket")
__naked int corr_asm_relational_loop(void)
{
	asm volatile(LOOKUP_R7
		     "if r7 == 0 goto l_out%=;"
		     "call %[bpf_get_prandom_u32];"
		     "r8 = r0;"
		     "r8 &= 15;"
		     "r8 += 1;"                      /* n in [1, 16] */
		     "r6 = 0;"
		     "r9 = 0;"
		     "l_loop%=: r1 = r6;"
		     "r1 <<= 3;"
		     "r2 = r7;"
		     "r2 += r1;"
		     "r1 = *(u64 *)(r2 + 0);"
		     "r9 += r1;"
		     "r6 += 1;"
		     "if r6 < r8 goto l_loop%=;"
		     "l_out%=: r0 = 0;"
		     "exit;"
		     :
		     : __imm_addr(vals), __imm(bpf_map_lookup_elem), __imm(bpf_get_prandom_u32)
		     : "memory");
}
