# Integer results a helper bounds by its size argument: bpf_get_stack,
# bpf_get_task_stack and the probe_read_*_str helpers return a negative
# error or the bytes written, at most the size argument's upper bound
# (the kernel's do_refine_retval_range: smax and s32_max = msize_max_value,
# smin and s32_min = -MAX_ERRNO). A program may use the result as an
# offset or a size within that bound.
# prog-type: kprobe/do_nanosleep
# map: vals array key=4 value=48 entries=1

# case: get_stack_result_as_offset
# expect: accept
r6 = r1
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[vals] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r7 = r0
r1 = r6
r2 = r7
r3 = 24
r4 = 256
call bpf_get_stack
r8 = r0
r8 <<= 32
r8 s>>= 32
if r8 s< 0 goto out
r7 += r8
r0 = *(u8 *)(r7 + 23)
out:
r0 = 0
exit

# case: get_stack_result_past_value
# expect: reject
# message: invalid access to map value
r6 = r1
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[vals] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r7 = r0
r1 = r6
r2 = r7
r3 = 48
r4 = 256
call bpf_get_stack
if r0 s< 0 goto out
r7 += r0
r0 = *(u8 *)(r7 + 0)
out:
r0 = 0
exit

# case: probe_read_str_result_as_size
# expect: accept
r6 = r1
r1 = r10
r1 += -16
r2 = 16
r3 = r6
call bpf_probe_read_kernel_str
if r0 s< 1 goto out
r1 = r10
r1 += -32
r2 = r0
r3 = r6
call bpf_probe_read_kernel
out:
r0 = 0
exit
