# Map values: NULL checks, bounds, read-only maps, helper arguments.
# prog-type: xdp
# map: arr array key=4 value=64 entries=4
# map: h hash key=8 value=16 entries=16
# map: rb ringbuf entries=4096
# c: const volatile int cfg_on = 1;
# c: struct lockval { struct bpf_spin_lock l; long v; };
# map: lk array key=__u32 value=struct_lockval entries=1

# case: lookup_null_checked
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 8)
out:
r0 = 2
exit

# case: lookup_no_null_check
# expect: reject
# message: map_value_or_null
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
r1 = *(u64 *)(r0 + 8)
r0 = 2
exit

# case: lookup_copy_null_checked
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
r6 = r0
if r0 == 0 goto out
r1 = *(u64 *)(r6 + 0)
out:
r0 = 2
exit

# case: value_oob
# expect: reject
# message: invalid access to map value
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 16)
out:
r0 = 2
exit

# case: array_const_key_unaligned_nullable
# expect: reject
# message: map_value_or_null
r1 = 1
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[arr] ll
call bpf_map_lookup_elem
r1 = *(u64 *)(r0 + 56)
r0 = 2
exit

# case: array_key_out_of_range_nullable
# expect: reject
r1 = 9
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[arr] ll
call bpf_map_lookup_elem
r1 = *(u64 *)(r0 + 0)
r0 = 2
exit

# case: value_var_index_bounded
# expect: accept
r6 = *(u32 *)(r1 + 12)
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r6
r1 &= 7
r1 <<= 3
r0 += r1
r1 = *(u64 *)(r0 + 0)
out:
r0 = 2
exit

# case: value_var_index_unbounded
# expect: reject
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u32 *)(r0 + 0)
r1 <<= 3
r0 += r1
r1 = *(u64 *)(r0 + 0)
out:
r0 = 2
exit

# case: value_index_off_by_one
# expect: reject
# message: invalid access to map value
r6 = r1
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u32 *)(r0 + 0)
if r1 > 8 goto out
r1 <<= 3
r0 += r1
r1 = *(u64 *)(r0 + 0)
out:
r0 = 2
exit

# case: rodata_read_const
# expect: accept
r1 = %[cfg_on] ll
r2 = *(u32 *)(r1 + 0)
r0 = 2
exit

# case: rodata_write
# expect: reject
# message: write into map forbidden
r1 = %[cfg_on] ll
r2 = 0
*(u32 *)(r1 + 0) = r2
r0 = 2
exit

# case: short_key
# expect: reject
# message: stack
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[h] ll
call bpf_map_lookup_elem
r0 = 2
exit

# case: update_value_from_stack
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
*(u64 *)(r10 - 16) = r1
*(u64 *)(r10 - 24) = r1
r2 = r10
r2 += -8
r3 = r10
r3 += -24
r1 = %[h] ll
r4 = 0
call bpf_map_update_elem
r0 = 2
exit

# case: map_ptr_arith
# expect: reject
# message: map_ptr
r1 = %[h] ll
r1 += 8
r0 = 2
exit

# case: lookup_ringbuf_rejected
# expect: reject
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[rb] ll
call bpf_map_lookup_elem
r0 = 2
exit

# case: ringbuf_reserve_submit
# expect: accept
r1 = %[rb] ll
r2 = 16
r3 = 0
call bpf_ringbuf_reserve
if r0 == 0 goto out
r1 = 5
*(u64 *)(r0 + 8) = r1
r1 = r0
r2 = 0
call bpf_ringbuf_submit
out:
r0 = 2
exit

# case: ringbuf_leak
# expect: reject
# message: Unreleased reference
r1 = %[rb] ll
r2 = 16
r3 = 0
call bpf_ringbuf_reserve
if r0 == 0 goto out
r1 = 5
*(u64 *)(r0 + 8) = r1
out:
r0 = 2
exit

# case: ringbuf_write_past
# expect: reject
r1 = %[rb] ll
r2 = 16
r3 = 0
call bpf_ringbuf_reserve
if r0 == 0 goto out
r1 = 5
*(u64 *)(r0 + 16) = r1
r1 = r0
r2 = 0
call bpf_ringbuf_discard
out:
r0 = 2
exit

# case: ringbuf_double_submit
# expect: reject
r1 = %[rb] ll
r2 = 16
r3 = 0
call bpf_ringbuf_reserve
if r0 == 0 goto out
r6 = r0
r1 = r0
r2 = 0
call bpf_ringbuf_submit
r1 = r6
r2 = 0
call bpf_ringbuf_submit
out:
r0 = 2
exit

# case: spin_lock_unlock
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[lk] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
r1 = r0
call bpf_spin_lock
r1 = *(u64 *)(r6 + 8)
r1 += 1
*(u64 *)(r6 + 8) = r1
r1 = r6
call bpf_spin_unlock
out:
r0 = 2
exit

# case: spin_lock_missing_unlock
# expect: reject
# message: bpf_spin_unlock is missing
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[lk] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
call bpf_spin_lock
out:
r0 = 2
exit

# case: spin_lock_helper_inside
# expect: reject
# message: function calls are not allowed
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[lk] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
r1 = r0
call bpf_spin_lock
call bpf_ktime_get_ns
r1 = r6
call bpf_spin_unlock
out:
r0 = 2
exit

# case: spin_lock_field_read
# expect: reject
# message: bpf_spin_lock cannot be accessed
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[lk] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u32 *)(r0 + 0)
out:
r0 = 2
exit

# case: corr_cond_lock
# expect: accept
r7 = *(u32 *)(r1 + 12)
r7 &= 1
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[lk] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
if r7 == 0 goto skip1
r1 = r6
call bpf_spin_lock
skip1:
r1 = *(u64 *)(r6 + 8)
if r7 == 0 goto out
r1 = r6
call bpf_spin_unlock
out:
r0 = 2
exit

# case: array_const_key_aligned
# expect: accept
r1 = 1
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[arr] ll
call bpf_map_lookup_elem
r1 = *(u64 *)(r0 + 56)
r0 = 2
exit

# case: linked_copy_with_delta_bounds_index
# expect: accept
r7 = *(u32 *)(r1 + 12)
r1 = 0
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
w2 = w7
w2 += -4
if w2 > 3 goto out
r7 <<= 3
r0 += r7
r1 = *(u64 *)(r0 - 32)
out:
r0 = 2
exit

# case: linked_copy_delta_off_by_one
# expect: reject
# message: invalid access to map value
r7 = *(u32 *)(r1 + 12)
r1 = 0
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
w2 = w7
w2 += -4
if w2 > 8 goto out
r7 <<= 3
r0 += r7
r1 = *(u64 *)(r0 - 32)
out:
r0 = 2
exit

# case: map_by_relocation
# expect: accept
r2 = 0
*(u64 *)(r10 - 8) = r2
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_delete_elem
r0 = 2
exit

# case: map_by_raw_fd
# expect: reject
# message: fd 0 is not pointing to valid bpf_map
r2 = 0
*(u64 *)(r10 - 8) = r2
r2 = r10
r2 += -8
.8byte 0x1118
.8byte 0
call bpf_map_delete_elem
r0 = 2
exit

# A fill copies the slot's value, so the copy and the slot are the same
# pointer: a NULL check on the copy proves the slot, as the kernel's copies
# keep the lookup's id on each path. Here a join cannot keep the slot's NULL
# id (on one path the slot shares it with r6, on the other r6 holds another
# lookup's): the fill gives slot and copy a new one.
# case: joined_lookup_fill_checked
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
call bpf_get_prandom_u32
if r0 > 100 goto second
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
r6 = r0
*(u64 *)(r10 - 16) = r0
r0 = 0
goto join
second:
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
r6 = r0
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
*(u64 *)(r10 - 16) = r0
r0 = 0
goto join
join:
r1 = *(u64 *)(r10 - 16)
if r1 == 0 goto out
r2 = *(u64 *)(r10 - 16)
r0 = *(u64 *)(r2 + 8)
out:
r0 = 2
if r6 == 0 goto done
r0 = 1
done:
exit

# case: joined_lookup_move_checked
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
call bpf_get_prandom_u32
if r0 > 100 goto second
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
r6 = r0
r7 = r0
r0 = 0
goto join
second:
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
r6 = r0
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
r7 = r0
r0 = 0
goto join
join:
r8 = r7
if r8 == 0 goto out
r0 = *(u64 *)(r7 + 8)
out:
r0 = 2
if r6 == 0 goto done
r0 = 1
done:
exit

# The twin: the checked copy is r6's, the access through the slot, which
# holds r6's value on one path only: still NULL-able.
# case: joined_lookup_other_copy_unchecked
# expect: reject
# message: NULL check missing|invalid mem access 'map_value_or_null'
r1 = 0
*(u64 *)(r10 - 8) = r1
call bpf_get_prandom_u32
if r0 > 100 goto second
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
r6 = r0
*(u64 *)(r10 - 16) = r0
r0 = 0
goto join
second:
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
r6 = r0
r2 = r10
r2 += -8
r1 = %[h] ll
call bpf_map_lookup_elem
*(u64 *)(r10 - 16) = r0
r0 = 0
goto join
join:
r1 = r6
if r1 == 0 goto out
r2 = *(u64 *)(r10 - 16)
r0 = *(u64 *)(r2 + 8)
out:
r0 = 2
if r6 == 0 goto done
r0 = 1
done:
exit
