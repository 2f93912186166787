# Access rules the kernel applies whatever the values: a map the program may
# only write (BPF_F_WRONLY_PROG) is not read, and a stack pointer is never
# subtracted from, not even a constant (check_map_access_type,
# adjust_ptr_min_max_vals). clang writes `r += -K`, so only hand-written code
# meets the second; the selftests' verifier_basic_stack and
# verifier_array_access are the real-corpus cases of both.
# prog-type: xdp
# map: wo array key=4 value=48 entries=1 flags=256

# case: write_only_map_write
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[wo] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = 7
*(u64 *)(r0 + 0) = r1
out:
r0 = 2
exit

# case: write_only_map_read
# expect: reject
# message: read from map forbidden
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[wo] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u32 *)(r0 + 0)
out:
r0 = 2
exit

# case: stack_pointer_add_negative
# expect: accept
r1 = 0
r2 = r10
r2 += -8
*(u64 *)(r2 + 0) = r1
r0 = 2
exit

# case: stack_pointer_sub_constant
# expect: reject
# message: subtraction from stack pointer prohibited
r1 = 0
r2 = r10
r2 -= 8
*(u64 *)(r2 + 0) = r1
r0 = 2
exit
