# Helper memory arguments: a NULL pointer where the prototype allows one
# (ARG_PTR_TO_MEM | PTR_MAYBE_NULL) is only good for a size that is 0 on
# every path (the kernel checks the NULL register as a scalar with the
# size's maximum).
# prog-type: tc

# case: csum_diff_null_size_zero
# expect: accept
r1 = 0
r2 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
r0 = 0
exit

# case: csum_diff_null_size_var_zero
# expect: accept
# a size that is a variable but 0 on every path (x & 0)
r2 = *(u32 *)(r1 + 0)
r2 &= 0
r1 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
r0 = 0
exit

# case: csum_diff_null_size_var
# expect: reject
# message: R1 type=scalar expected=fp
r2 = *(u32 *)(r1 + 0)
r2 &= 64
r1 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
r0 = 0
exit

# case: csum_diff_null_size_const
# expect: reject
# message: R1 type=scalar expected=fp
r1 = 0
r2 = 4
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
r0 = 0
exit

# case: csum_diff_stack_size_var
# expect: accept
# the same variable size on a real buffer is fine
r2 = *(u32 *)(r1 + 0)
r2 &= 64
r1 = 0
*(u64 *)(r10 - 64) = r1
*(u64 *)(r10 - 56) = r1
*(u64 *)(r10 - 48) = r1
*(u64 *)(r10 - 40) = r1
*(u64 *)(r10 - 32) = r1
*(u64 *)(r10 - 24) = r1
*(u64 *)(r10 - 16) = r1
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -64
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
r0 = 0
exit

# case: csum_diff_null_size_unbounded
# expect: reject
# message: unbounded memory access
r2 = *(u32 *)(r1 + 0)
r1 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
r0 = 0
exit

# An empty range on the stack must still lie in it: its first byte in
# [-512, -1] and its end at most 0, over every offset the pointer may hold
# (the kernel's check_stack_access_within_bounds, even for size 0).

# case: zero_size_stack_var_inside
# expect: accept
r0 = 0
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 8) = r0
r1 = *(u32 *)(r1 + 0)
r1 &= 15
r1 += -16
r1 += r10
r2 = 0
r3 = 0
call bpf_probe_read_kernel
r0 = 0
exit

# case: zero_size_stack_var_past_top
# expect: reject
# message: invalid indirect access to stack
r0 = 0
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 8) = r0
r1 = *(u32 *)(r1 + 0)
r1 &= 63
r1 += -16
r1 += r10
r2 = 0
r3 = 0
call bpf_probe_read_kernel
r0 = 0
exit

# case: zero_size_stack_const_inside
# expect: accept
r1 = r10
r1 += -8
r2 = 0
r3 = 0
call bpf_probe_read_kernel
r0 = 0
exit

# case: zero_size_stack_at_top
# expect: reject
# message: invalid indirect access to stack
# the empty range at fp+0 starts outside the stack
r1 = r10
r2 = 0
r3 = 0
call bpf_probe_read_kernel
r0 = 0
exit

# case: zero_size_stack_below_bottom
# expect: reject
# message: invalid indirect access to stack
r1 = r10
r1 += -520
r2 = 0
r3 = 0
call bpf_probe_read_kernel
r0 = 0
exit
