# An iterator over map elements (iter/bpf_map_elem) gets the element's key
# and value as the kernel's PTR_TO_BUF (map_iter.c ctx_arg_info): NULL-able,
# the key read-only (rdonly_buf), the value read-write; like a tracepoint
# buffer their size is checked at attach (against the map given then), so
# at load any constant offset >= 0 is accepted and a variable one refused.
# The running 6.18 kernel refuses iterator programs (EPERM before
# verification): every case is judged by the Debian kernels under QEMU.
# prog-type: iter/bpf_map_elem
# map: h hash key=8 value=8 entries=4

# case: iter_key_read_value_written
# expect: accept
# profile: 6.12 accept
# profile: 7.2 accept
r6 = *(u64 *)(r1 + 16)
r7 = *(u64 *)(r1 + 24)
if r6 == 0 goto out
if r7 == 0 goto out
r0 = *(u32 *)(r6 + 0)
*(u64 *)(r7 + 8) = r0
out:
r0 = 0
exit

# case: iter_key_written
# expect: reject
# message: cannot write into rdonly_buf
# profile: 6.12 reject cannot write into rdonly_buf
# profile: 7.2 reject cannot write into rdonly_buf
r6 = *(u64 *)(r1 + 16)
if r6 == 0 goto out
r0 = 1
*(u32 *)(r6 + 0) = r0
out:
r0 = 0
exit

# case: iter_value_null_unchecked
# expect: reject
# message: invalid mem access 'buf_or_null'
# profile: 6.12 reject invalid mem access
# profile: 7.2 reject invalid mem access
r7 = *(u64 *)(r1 + 24)
r0 = *(u64 *)(r7 + 0)
r0 = 0
exit

# case: iter_value_variable_offset
# expect: reject
# message: invalid variable buffer offset
# profile: 6.12 reject invalid variable buffer offset
# profile: 7.2 reject invalid variable buffer offset
r7 = *(u64 *)(r1 + 24)
if r7 == 0 goto out
call bpf_get_prandom_u32
r0 &= 7
r7 += r0
r0 = *(u8 *)(r7 + 0)
out:
r0 = 0
exit

# case: iter_value_negative_offset
# expect: reject
# message: invalid rdwr buffer access: off=-8
# profile: 6.12 reject invalid rdwr buffer access
# profile: 7.2 reject invalid rdwr buffer access
r7 = *(u64 *)(r1 + 24)
if r7 == 0 goto out
r0 = *(u64 *)(r7 - 8)
out:
r0 = 0
exit

# The value may be a map key (from 6.12: the 6.1 guest refuses it); the
# read-only key may not.
# case: iter_value_as_map_key
# expect: accept
# profile: 6.12 accept
# profile: 7.2 accept
# profile: 6.1 reject R2 type=buf expected=
r7 = *(u64 *)(r1 + 24)
if r7 == 0 goto out
r1 = %[h] ll
r2 = r7
call bpf_map_lookup_elem
out:
r0 = 0
exit

# case: iter_key_as_map_key
# expect: reject
# message: type=
# profile: 6.12 reject R2 type=
# profile: 7.2 reject R2 type=
r6 = *(u64 *)(r1 + 16)
if r6 == 0 goto out
r1 = %[h] ll
r2 = r6
call bpf_map_lookup_elem
out:
r0 = 0
exit

# The element's map is never NULL (not among the target's ctx_arg_info).
# case: iter_map_not_null
# expect: accept
# profile: 6.12 accept
# profile: 7.2 accept
r2 = *(u64 *)(r1 + 8)
r0 = *(u64 *)(r2 + 0)
r0 = 0
exit
