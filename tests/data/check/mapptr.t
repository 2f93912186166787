# Map pointers (CONST_PTR_TO_MAP) as the kernel's check_ptr_to_map_access
# reads them: the kernel struct of the map's type (its ops' map_btf_id:
# struct bpf_array for an array, struct bpf_htab for a hash, ...), read only,
# at a non-negative offset; the only arithmetic allowed is adding a known 0
# (adjust_ptr_min_max_vals). Offsets are those of the 6.18 kernel's BTF
# (struct bpf_map: sha[32], excl, ops at 40, ..., max_entries at 76).
# A map pointer is never NULL (reg_not_null: CONST_PTR_TO_MAP), so a
# comparison with 0 is decided, also for an inner map once its lookup was
# checked; a lookup in an inner array of BPF_F_INNER_MAP stays NULL-able
# whatever its key (can_elide_value_nullness: the inner array may be
# replaced by a smaller one). Reads through a map pointer follow the
# struct's members (btf_struct_access), also in a program without CO-RE.
# prog-type: socket
# map: m_array array key=4 value=48 entries=1
# map: m_hash hash key=8 value=16 entries=1
# c: struct { __uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS); __uint(max_entries, 1); __type(key, int); __type(value, int); __array(values, struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 4); __type(key, int); __type(value, long); }); } m_outer SEC(".maps");
# c: struct { __uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS); __uint(max_entries, 1); __type(key, int); __type(value, int); __array(values, struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(map_flags, BPF_F_INNER_MAP); __uint(max_entries, 4); __type(key, int); __type(value, long); }); } m_outer_dyn SEC(".maps");

# case: array_map_read_max_entries
# expect: accept
r1 = %[m_array] ll
r0 = *(u32 *)(r1 + 76)
r0 = 1
exit

# case: hash_map_read_max_entries
# expect: accept
r1 = %[m_hash] ll
r0 = *(u32 *)(r1 + 76)
r0 = 1
exit

# case: map_read_ops_pointer
# expect: accept
r1 = %[m_array] ll
r6 = *(u64 *)(r1 + 40)
r0 = 1
exit

# case: map_write_rejected
# expect: reject
# message: only read from bpf_array is supported
r1 = %[m_array] ll
r0 = 1
*(u32 *)(r1 + 76) = r0
exit

# case: map_negative_offset_rejected
# expect: reject
# message: invalid negative access
r1 = %[m_array] ll
r0 = *(u64 *)(r1 - 8)
r0 = 1
exit

# case: map_ptr_plus_known_zero
# expect: accept
r1 = %[m_hash] ll
r2 = 0
r1 += r2
r0 = *(u32 *)(r1 + 76)
r0 = 1
exit

# case: known_zero_plus_map_ptr
# expect: accept
r1 = 0
r2 = %[m_hash] ll
r1 += r2
r0 = *(u32 *)(r1 + 76)
r0 = 1
exit

# case: map_ptr_plus_constant_rejected
# expect: reject
# message: pointer arithmetic on map_ptr prohibited
r1 = %[m_hash] ll
r1 += 4
r0 = 1
exit

# case: map_ptr_minus_zero_rejected
# expect: reject
# message: pointer arithmetic on map_ptr prohibited
r1 = %[m_hash] ll
r2 = 0
r1 -= r2
r0 = 1
exit

# case: map_read_partial_ptr_member
# expect: reject
# message: cannot access ptr member ops with moff 40 in struct bpf_map with off 44 size 4
r1 = %[m_hash] ll
r0 = *(u32 *)(r1 + 44)
r0 = 1
exit

# case: map_read_past_scalar_member
# expect: reject
# message: access beyond the end of member excl \(mend:36\) in struct bpf_map with off 34 size 4
r1 = %[m_array] ll
r0 = *(u32 *)(r1 + 34)
r0 = 1
exit

# case: map_ptr_compare_zero_decided
# expect: accept
r0 = 0
r1 = %[m_hash] ll
if r1 == 0 goto dead
exit
dead:
r10 = 1
exit

# case: inner_map_ptr_compare_zero_decided
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[m_outer] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
if r0 != 0 goto out
r10 = 1
out:
r0 = 0
exit

# case: inner_array_const_key_not_null
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[m_outer] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = 1
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = r0
call bpf_map_lookup_elem
r0 = *(u64 *)(r0 + 0)
out:
r0 = 0
exit

# case: inner_map_flag_array_lookup_nullable
# expect: reject
# message: invalid mem access 'map_value_or_null'
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[m_outer_dyn] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = 1
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = r0
call bpf_map_lookup_elem
r0 = *(u64 *)(r0 + 0)
out:
r0 = 0
exit
