# Helper memory arguments: a NULL pointer where the prototype allows one
# (ARG_PTR_TO_MEM | PTR_MAYBE_NULL) is only good for a size that is 0 on
# every path (the kernel checks the NULL register as a scalar with the
# size's maximum).
# prog-type: tc
# map: arr array key=4 value=8 entries=4
# map: h hash key=4 value=8 entries=4
# map: rb ringbuf entries=4096

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

# An empty range elsewhere must lie in its region too: a map value, a
# memory region (ringbuf record) or the packet, its offsets within
# [0, size] (check_mem_region_access / check_packet_access with size 0:
# off >= 0 and off + 0 <= size; a packet's `size` is its checked range).
# case: zero_size_mv_end_ok
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r1 += 8
r2 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
out:
r0 = 0
exit

# case: zero_size_mv_past_end
# expect: reject
# message: invalid access to map value.*off=9 size=0
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r1 += 9
r2 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
out:
r0 = 0
exit

# case: zero_size_mv_neg
# expect: reject
# message: invalid access to map value.*off=-1 size=0
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r1 += -1
r2 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
out:
r0 = 0
exit

# case: zero_size_mv_var_ok
# expect: accept
r6 = *(u32 *)(r1 + 0)
r6 &= 8
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r1 += r6
r2 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
out:
r0 = 0
exit

# case: zero_size_mv_var_past
# expect: reject
# message: max value is outside
r6 = *(u32 *)(r1 + 0)
r6 &= 15
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r1 += r6
r2 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
out:
r0 = 0
exit

# case: zero_size_pkt_unchecked_start
# expect: accept
r1 = *(u32 *)(r1 + 76)
r2 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
r0 = 0
exit

# case: zero_size_pkt_unchecked_off
# expect: reject
# message: invalid access to packet
r1 = *(u32 *)(r1 + 76)
r1 += 14
r2 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
r0 = 0
exit

# case: zero_size_pkt_checked_end
# expect: accept
r2 = *(u32 *)(r1 + 80)
r1 = *(u32 *)(r1 + 76)
r1 += 14
if r1 > r2 goto out
r2 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
out:
r0 = 0
exit

# case: zero_size_rb_end_ok
# expect: accept
r1 = %[rb] ll
r2 = 8
r3 = 0
call bpf_ringbuf_reserve
if r0 == 0 goto out
r6 = r0
r1 = r0
r1 += 8
r2 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
r1 = r6
r2 = 0
call bpf_ringbuf_discard
out:
r0 = 0
exit

# case: zero_size_rb_past_end
# expect: reject
# message: invalid access to memory.*off=9 size=0
r1 = %[rb] ll
r2 = 8
r3 = 0
call bpf_ringbuf_reserve
if r0 == 0 goto out
r6 = r0
r1 = r0
r1 += 9
r2 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
r1 = r6
r2 = 0
call bpf_ringbuf_discard
out:
r0 = 0
exit

# A maybe-NULL pointer for an argument that allows NULL (csum_diff's from:
# ARG_PTR_TO_MEM | PTR_MAYBE_NULL): the kernel folds PTR_MAYBE_NULL away
# (check_reg_type) and checks the memory as if the pointer were not NULL.
# An argument that does not allow NULL (a map key or value) still refuses it.
# case: maybe_null_value_to_nullable
# expect: accept
# (a variable key that is in range when run: the lookup is maybe-NULL to
# the verifier, never NULL at run time)
r1 = *(u32 *)(r1 + 0)
r1 &= 3
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[arr] ll
call bpf_map_lookup_elem
r1 = r0
r2 = 4
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
r0 = 0
exit

# case: maybe_null_value_past_end
# expect: reject
# message: invalid access to map value
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
r1 = r0
r2 = 12
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
r0 = 0
exit

# case: maybe_null_value_to_mem
# expect: reject
# message: NULL check missing
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
r3 = r0
r1 = %[arr] ll
r2 = r10
r2 += -8
r4 = 0
call bpf_map_update_elem
r0 = 0
exit

# case: maybe_null_value_to_key
# expect: reject
# message: NULL check missing
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
r2 = r0
r1 = %[arr] ll
call bpf_map_lookup_elem
r0 = 0
exit

# case: maybe_null_value_size_zero
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
r1 = r0
r2 = 0
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
r0 = 0
exit
