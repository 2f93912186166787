# Alignment. On x86 (efficient unaligned access) plain loads and stores need
# no alignment except through the stack, which is always checked (the
# kernel's check_ptr_alignment: its spill tracking relies on it), for a
# variable offset too (the tnum of the offset). Atomics and the helpers'
# aligned integer results (bpf_strtol/strtoul `res`: MEM_ALIGNED) are checked
# on every region ("misaligned value access", "misaligned stack access").
# prog-type: tc
# map: m_hash hash key=8 value=8 entries=1

# case: unaligned_map_value_load_ok
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[m_hash] ll
call bpf_map_lookup_elem
if r0 != 0 goto l0
exit
l0:
r0 = *(u32 *)(r0 + 3)
r0 = 0
exit

# case: atomic_unaligned_map_value
# expect: reject
# message: misaligned value access off 0\+0\+3 size 4
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[m_hash] ll
call bpf_map_lookup_elem
if r0 != 0 goto l0
exit
l0:
r1 = 1
lock *(u32 *)(r0 + 3) += w1
r0 = 0
exit

# case: atomic_aligned_map_value
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[m_hash] ll
call bpf_map_lookup_elem
if r0 != 0 goto l0
exit
l0:
r1 = 1
lock *(u32 *)(r0 + 4) += w1
r0 = 0
exit

# case: stack_variable_offset_misaligned
# expect: reject
# message: misaligned stack access
call bpf_get_prandom_u32
r0 &= 4
r1 = r10
r1 += -16
r1 += r0
r2 = 0
*(u64 *)(r1 + 0) = r2
r0 = 0
exit

# case: stack_variable_offset_aligned
# expect: accept
call bpf_get_prandom_u32
r0 &= 8
r1 = r10
r1 += -16
r1 += r0
r2 = 0
*(u64 *)(r1 + 0) = r2
r0 = 0
exit

# case: strtoul_result_misaligned
# expect: reject
# message: misaligned stack access off 0\+-20\+0 size 8
# section: cgroup/sysctl
r7 = r10
r7 += -8
r0 = 0x00303036
*(u64 *)(r7 + 0) = r0
r1 = r7
r2 = 4
r3 = 0
r7 += -12
r0 = 0
*(u32 *)(r7 + 0) = r0
*(u64 *)(r7 + 4) = r0
r4 = r7
call bpf_strtoul
r0 = 1
exit

# case: strtoul_result_aligned
# expect: accept
# section: cgroup/sysctl
r7 = r10
r7 += -8
r0 = 0x00303036
*(u64 *)(r7 + 0) = r0
r1 = r7
r2 = 4
r3 = 0
r7 += -8
r4 = r7
call bpf_strtoul
r0 = 1
exit
