# Which cause a rejection names, and in which order the checks of one
# instruction run: the kernel's (verifier.c adjust_ptr_min_max_vals,
# check_reg_sane_offset, check_mem_region_access, check_alu_op). Each message
# regex holds the kernel's own words for the same cause; the verdicts are
# checked against the running kernel (privileged, as kjudge loads).
# prog-type: xdp
# map: arr array key=4 value=48 entries=4
# map: rb ringbuf entries=4096
# map: h hash key=4 value=8 entries=4

# case: ptr_and_const
# expect: reject
# message: R1 bitwise operator &= on pointer prohibited
r1 &= 7
r0 = 0
exit

# case: ptr_xor_reg
# expect: reject
# message: R1 bitwise operator \^= on pointer prohibited
r2 = 3
r1 ^= r2
r0 = 0
exit

# case: scalar_or_ptr
# expect: reject
# message: R2 bitwise operator \|= on pointer prohibited
r2 = 3
r2 |= r1
r0 = 0
exit

# case: ptr_mul
# expect: reject
# message: R1 pointer arithmetic with \*= operator prohibited
r1 *= 2
r0 = 0
exit

# case: ptr_mul_null_first
# expect: reject
# message: R0 pointer arithmetic on map_value_or_null prohibited, null-check it first
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[h] ll
call bpf_map_lookup_elem
r0 *= 2
r0 = 0
exit

# case: fp_add_huge_const
# expect: reject
# message: math between fp pointer and 2147483647 is not allowed
r1 = r10
r1 += 2147483647
r0 = 0
exit

# case: fp_offset_accumulated
# expect: reject
# message: fp pointer offset 1073741822 is not allowed
r0 = 0x1fffffff
r1 = r10
r1 += r0
r1 += r0
r0 = 0
exit

# case: fp_sub_huge_reg
# expect: reject
# message: math between fp pointer and -2147483648 is not allowed
r1 = r10
r2 = -2147483648
r1 += r2
r0 = 0
exit

# case: scalar_sub_ptr
# expect: reject
# message: R2 tried to subtract pointer from scalar
r2 = 8
r2 -= r1
r0 = 0
exit

# case: scalar_sub_ptr_32
# expect: accept
w2 = 8
w2 -= w1
r0 = 0
exit

# case: value_unbounded_index
# expect: reject
# message: R0 unbounded memory access, make sure to bounds check any such access
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u32 *)(r0 + 0)
r0 += r1
r1 = 0
*(u8 *)(r0 + 0) = r1
out:
r0 = 0
exit

# case: value_max_outside
# expect: reject
# message: invalid access to map value, size=48 off=63 size=1: R0 max value is outside of the allowed memory range
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u8 *)(r0 + 0)
r1 &= 63
r0 += r1
r1 = 0
*(u8 *)(r0 + 0) = r1
out:
r0 = 0
exit

# case: value_min_outside
# expect: reject
# message: invalid access to map value, size=48 off=48 size=1: R0 min value is outside of the allowed memory range
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u8 *)(r0 + 0)
r1 &= 7
r1 += 48
r0 += r1
r1 = 0
*(u8 *)(r0 + 0) = r1
out:
r0 = 0
exit

# case: ringbuf_mem_min_outside
# expect: reject
# message: invalid access to memory, size=8 off=8 size=8: R0 min value is outside of the allowed memory range
r1 = %[rb] ll
r2 = 8
r3 = 0
call bpf_ringbuf_reserve
if r0 == 0 goto out
r1 = 0
*(u64 *)(r0 + 8) = r1
r1 = r0
r2 = 0
call bpf_ringbuf_discard
out:
r0 = 0
exit

# case: ptr_bswap_priv
# expect: accept
r1 = be64 r1
r0 = 0
exit

# case: ptr_bswap_then_deref
# expect: reject
# message: R1 invalid mem access 'scalar'
r1 = be64 r1
r0 = *(u32 *)(r1 + 0)
exit

# case: ptr_neg_priv
# expect: accept
r1 = -r1
r0 = 0
exit
