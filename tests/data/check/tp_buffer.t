# A writable raw tracepoint's (raw_tp.w) ctx arg 0 is the kernel's
# PTR_TO_TP_BUFFER: the tracepoint's buffer, whose size the kernel learns
# at attach only. At load any constant offset >= 0 is accepted, for reads
# and writes (the highest byte is recorded, max_tp_access, and checked at
# attach); a variable offset never is, nor a negative one; it is not a
# helper's memory argument (not among the kernel's mem_types).
# prog-type: raw_tp.w/bpf_testmod_test_writable_bare

# case: tp_buffer_constant_offsets
# expect: accept
r1 = *(u64 *)(r1 + 0)
r2 = *(u32 *)(r1 + 4)
*(u32 *)(r1 + 4000) = r2
r1 += 8
r0 = *(u64 *)(r1 + 0)
*(u8 *)(r1 + 0) = r0
r0 = 0
exit

# case: tp_buffer_negative_offset
# expect: reject
# message: R1 invalid tracepoint buffer access: off=-4, size=4
r1 = *(u64 *)(r1 + 0)
r0 = *(u32 *)(r1 - 4)
r0 = 0
exit

# case: tp_buffer_variable_offset
# expect: reject
# message: R6 invalid variable buffer offset
r6 = *(u64 *)(r1 + 0)
call bpf_get_prandom_u32
r0 &= 7
r6 += r0
r0 = *(u8 *)(r6 + 0)
r0 = 0
exit

# Arg 0 is read as a whole 8-byte pointer only.
# case: tp_buffer_arg0_narrow_read
# expect: reject
# message: invalid bpf_context access
r1 = *(u32 *)(r1 + 0)
r0 = 0
exit

# case: tp_buffer_not_helper_memory
# expect: reject
r1 = *(u64 *)(r1 + 0)
r2 = 16
call bpf_get_current_comm
r0 = 0
exit
