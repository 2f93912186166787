# Accesses through BTF pointers walk the struct as the kernel's
# btf_struct_walk does: a read may not run past the end of a scalar member
# (an array counts as one member: its whole size is scratch space), a
# pointer member is read whole or not at all, and a helper reads the whole
# size it is given in one such access and may never write through a BTF
# pointer (check_reg_type: "may write into memory"). Offsets are the 6.18
# kernel's struct task_struct (void *stack at 32, char comm[16] at 1752).
# prog-type: tp_btf/task_newtask
# c: const char foo_str[4] = "foo";

# case: strncmp_whole_comm
# expect: accept
r1 = *(u64 *)(r1 + 0)
r1 += 1752
w2 = 16
r3 = %[foo_str] ll
call bpf_strncmp
r0 = 0
exit

# case: strncmp_past_comm
# expect: reject
# message: access beyond the end of member comm
r1 = *(u64 *)(r1 + 0)
r1 += 1752
w2 = 17
r3 = %[foo_str] ll
call bpf_strncmp
r0 = 0
exit

# case: strncmp_comm_from_second_byte
# expect: reject
# message: access beyond the end of member comm
r1 = *(u64 *)(r1 + 0)
r1 += 1753
w2 = 16
r3 = %[foo_str] ll
call bpf_strncmp
r0 = 0
exit

# case: probe_read_into_task
# expect: reject
# message: may write into memory pointed by R1
r6 = *(u64 *)(r1 + 0)
r1 = r6
r1 += 1752
w2 = 16
r3 = r6
r3 += 1752
call bpf_probe_read_kernel
r0 = 0
exit

# case: probe_read_from_task
# expect: accept
r3 = *(u64 *)(r1 + 0)
r3 += 1752
r1 = r10
r1 += -16
w2 = 16
call bpf_probe_read_kernel
r0 = 0
exit

# case: load_whole_pointer_member
# expect: accept
r1 = *(u64 *)(r1 + 0)
r0 = *(u64 *)(r1 + 32)
r0 = 0
exit

# case: load_half_pointer_member
# expect: reject
# message: cannot access ptr member stack
r1 = *(u64 *)(r1 + 0)
r0 = *(u32 *)(r1 + 32)
r0 = 0
exit

# case: load_across_comm_end
# expect: reject
# message: access beyond the end of member comm
r1 = *(u64 *)(r1 + 0)
r0 = *(u64 *)(r1 + 1764)
r0 = 0
exit
