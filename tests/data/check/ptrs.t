# Pointer provenance: where a pointer comes from decides what may be done with
# it. The kernel verifies each path on its own, so a register that is a stack
# buffer on one path and a packet pointer on the other is still a pointer on
# both (bpf_flow.c's bpf_flow_dissect_get_header: the header in the packet or
# a copy of it on the stack).
# prog-type: xdp
# map: m_hash hash key=8 value=16 entries=1
# map: m_array array key=4 value=48 entries=1

# case: join_stack_or_pkt_base
# expect: accept
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 8
if r4 > r3 goto copy
r1 = r2
goto use
copy:
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
use:
r0 = *(u32 *)(r1 + 4)
r0 = 2
exit

# case: join_stack_or_pkt_base_store
# expect: accept
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 8
if r4 > r3 goto copy
r1 = r2
goto use
copy:
r1 = r10
r1 += -8
use:
r0 = 0
*(u32 *)(r1 + 4) = r0
r0 = 2
exit

# case: join_stack_or_pkt_base_oob
# expect: reject
# message: invalid access to packet
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 8
if r4 > r3 goto copy
r1 = r2
goto use
copy:
r1 = 0
*(u64 *)(r10 - 16) = r1
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -16
use:
r0 = *(u32 *)(r1 + 8)
r0 = 2
exit

# case: join_map_ptrs_of_two_maps
# expect: accept
r0 = *(u32 *)(r1 + 0)
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
if r0 == 1 goto arr
r1 = %[m_hash] ll
goto look
arr:
r1 = %[m_array] ll
look:
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u8 *)(r0 + 15)
out:
r0 = 2
exit

# case: join_map_ptrs_value_beyond_smaller
# expect: reject
# message: invalid access to map value
r0 = *(u32 *)(r1 + 0)
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
if r0 == 1 goto arr
r1 = %[m_hash] ll
goto look
arr:
r1 = %[m_array] ll
look:
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u8 *)(r0 + 16)
out:
r0 = 2
exit

# A pointer that is NULL on one path (a function's `return NULL`) stays a
# pointer that may be NULL after the paths join: a NULL check separates them
# again, as the kernel, walking each path, sees (strobemeta's sample_end).
# case: join_null_or_map_value_checked
# expect: accept
call bpf_get_prandom_u32
r6 = r0
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[m_array] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r7 = r0
r7 += 8
if r6 != 1 goto use
r7 = 0
use:
if r7 == 0 goto out
r0 = *(u64 *)(r7 + 0)
out:
r0 = 2
exit

# case: join_null_or_map_value_unchecked
# expect: reject
# message: invalid mem access
call bpf_get_prandom_u32
r6 = r0
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[m_array] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r7 = r0
r7 += 8
if r6 != 1 goto use
r7 = 0
use:
r0 = *(u64 *)(r7 + 0)
out:
r0 = 2
exit

# 32-bit arithmetic with a pointer operand gives a scalar when privileged,
# whichever side the pointer is on (adjust_ptr_min_max_vals judges the 32-bit
# op before "scalar -= pointer"); the 64-bit subtraction stays refused.
# case: sub32_scalar_minus_pkt_ptr
# expect: accept
r8 = *(u32 *)(r1 + 4)
r7 = *(u32 *)(r1 + 0)
r6 = r7
r6 += 40
if r6 > r8 goto out
w4 = w6
w4 -= w7
out:
r0 = 2
exit

# case: sub64_scalar_minus_pkt_ptr
# expect: reject
# message: subtract pointer from scalar
r8 = *(u32 *)(r1 + 4)
r7 = *(u32 *)(r1 + 0)
r6 = r7
r6 += 40
if r6 > r8 goto out
r4 = 40
r4 -= r7
out:
r0 = 2
exit
