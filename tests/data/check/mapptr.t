# Map pointers (CONST_PTR_TO_MAP) as the kernel's check_ptr_to_map_access
# reads them: the kernel struct of the map's type (its ops' map_btf_id:
# struct bpf_array for an array, struct bpf_htab for a hash, ...), read only,
# at a non-negative offset; the only arithmetic allowed is adding a known 0
# (adjust_ptr_min_max_vals). Offsets are those of the 6.18 kernel's BTF
# (struct bpf_map: sha[32], excl, ops at 40, ..., max_entries at 76).
# prog-type: socket
# map: m_array array key=4 value=48 entries=1
# map: m_hash hash key=8 value=16 entries=1

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
