# A helper's constant string argument (ARG_PTR_TO_CONST_STR: bpf_strncmp's
# s2) points into a read-only map value (a frozen .rodata) at a constant
# offset, and a NUL follows before the value's end (check_reg_const_str
# reads the map's frozen data: here, the object's .rodata, whose last
# variable is raw_str, 4 bytes without a NUL).
# prog-type: socket
# c: const char ok_str[8] = "abc";
# c: const char raw_str[4] = "abcd";

# case: strncmp_terminated
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
w2 = 8
r3 = %[ok_str] ll
call bpf_strncmp
r0 = 0
exit

# case: strncmp_inside_terminated
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
w2 = 8
r3 = %[ok_str] ll
r3 += 2
call bpf_strncmp
r0 = 0
exit

# case: strncmp_not_terminated
# expect: reject
# message: string is not zero-terminated
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
w2 = 8
r3 = %[raw_str] ll
call bpf_strncmp
r0 = 0
exit

# case: strncmp_variable_offset
# expect: reject
# message: R3 is not a constant address
r1 = 0
*(u64 *)(r10 - 8) = r1
call bpf_get_prandom_u32
r0 &= 1
r1 = r10
r1 += -8
w2 = 8
r3 = %[ok_str] ll
r3 += r0
call bpf_strncmp
r0 = 0
exit
