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
