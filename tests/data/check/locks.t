# bpf_spin_lock: which lock a pointer names (the map, and which lookup of
# it: each lookup result is its own lock) and locks in global data
# sections (a `.data.NAME` / `.bss.NAME` map whose DATASEC holds one
# struct bpf_spin_lock). Checked against the running kernel.
# prog-type: tc
# c: struct lockval { struct bpf_spin_lock l; long v; };
# c: struct bpf_spin_lock glock SEC(".data.A") __attribute__((aligned(8)));
# c: long gval SEC(".data.A") __attribute__((aligned(8)));
# c: struct bpf_spin_lock glock2 SEC(".data.B") __attribute__((aligned(8)));
# c: struct bpf_spin_lock twolocks[2] SEC(".data.C") __attribute__((aligned(8)));
# map: lk array key=__u32 value=struct_lockval entries=1

# case: global_lock_in_data_section
# expect: accept
r1 = %[glock] ll
call bpf_spin_lock
r1 = %[gval] ll
r2 = 1
*(u64 *)(r1 + 0) = r2
r1 = %[glock] ll
call bpf_spin_unlock
r0 = 0
exit

# case: global_lock_read_directly
# expect: reject
# message: bpf_spin_lock cannot be accessed directly
r1 = %[glock] ll
r0 = *(u32 *)(r1 + 0)
r0 = 0
exit

# case: global_unlock_of_other_section
# expect: reject
# message: bpf_spin_unlock of different lock
r1 = %[glock] ll
call bpf_spin_lock
r1 = %[glock2] ll
call bpf_spin_unlock
r0 = 0
exit

# case: global_lock_array_has_no_valid_lock
# expect: reject
# message: has no valid bpf_spin_lock
r1 = %[twolocks] ll
call bpf_spin_lock
r1 = %[twolocks] ll
call bpf_spin_unlock
r0 = 0
exit

# case: unlock_of_other_lookup
# expect: reject
# message: bpf_spin_unlock of different lock
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[lk] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
r2 = r10
r2 += -4
r1 = %[lk] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r7 = r0
r1 = r6
call bpf_spin_lock
r1 = r7
call bpf_spin_unlock
out:
r0 = 0
exit

# case: unlock_of_same_lookup_copy
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[lk] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
r7 = r0
r1 = r6
call bpf_spin_lock
r1 = r7
call bpf_spin_unlock
out:
r0 = 0
exit
