# Stack objects: a dynptr takes 16 bytes of the stack (two slots), an
# iterator its struct's size. Their bytes are not memory: a load, a helper's
# read or a helper's write of them is refused, and a plain store over a
# referenced dynptr (a ring buffer reservation) is refused too
# (check_stack_read_fixed_off, check_stack_range_initialized,
# destroy_if_dynptr_stack_slot). Released, the slots are ordinary stack.
# prog-type: raw_tp
# map: rb ringbuf entries=4096
# map: vals array key=4 value=16 entries=1
# c: extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
# c: extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;

# case: dynptr_load_of_head
# expect: reject
# message: invalid read from stack
r1 = %[rb] ll
r2 = 8
r3 = 0
r4 = r10
r4 += -16
call bpf_ringbuf_reserve_dynptr
r6 = *(u32 *)(r10 - 16)
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_discard_dynptr
r0 = 0
exit

# case: dynptr_load_of_tail
# expect: reject
# message: invalid read from stack
r1 = %[rb] ll
r2 = 8
r3 = 0
r4 = r10
r4 += -16
call bpf_ringbuf_reserve_dynptr
r6 = *(u64 *)(r10 - 8)
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_discard_dynptr
r0 = 0
exit

# case: dynptr_store_over_referenced_tail
# expect: reject
# message: cannot overwrite referenced dynptr
r1 = %[rb] ll
r2 = 8
r3 = 0
r4 = r10
r4 += -16
call bpf_ringbuf_reserve_dynptr
r6 = 0
*(u8 *)(r10 - 8) = r6
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_discard_dynptr
r0 = 0
exit

# case: dynptr_as_helper_value
# expect: reject
# message: invalid read from stack
r1 = %[rb] ll
r2 = 8
r3 = 0
r4 = r10
r4 += -16
call bpf_ringbuf_reserve_dynptr
r1 = 0
*(u32 *)(r10 - 20) = r1
r1 = %[vals] ll
r2 = r10
r2 += -20
r3 = r10
r3 += -16
r4 = 0
call bpf_map_update_elem
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_discard_dynptr
r0 = 0
exit

# case: dynptr_slots_reused_after_discard
# expect: accept
r1 = %[rb] ll
r2 = 8
r3 = 0
r4 = r10
r4 += -16
call bpf_ringbuf_reserve_dynptr
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_discard_dynptr
r6 = 0
*(u64 *)(r10 - 8) = r6
*(u64 *)(r10 - 16) = r6
r0 = *(u64 *)(r10 - 8)
r0 = 0
exit

# case: iter_num_slot_load
# expect: reject
# message: invalid read from stack
r6 = r10
r6 += -8
r1 = r6
r2 = 0
r3 = 10
call bpf_iter_num_new
r7 = *(u64 *)(r6 + 0)
r1 = r6
call bpf_iter_num_destroy
r0 = 0
exit

# A dynptr a release helper takes must hold a reservation's reference before
# it is checked as a dynptr at all (check_func_arg): a released one, one
# never made, and a local (non-ring-buffer) one are all refused so.
# case: dynptr_discard_twice
# expect: reject
# message: arg 1 is an unacquired reference
r1 = %[rb] ll
r2 = 8
r3 = 0
r4 = r10
r4 += -16
call bpf_ringbuf_reserve_dynptr
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_discard_dynptr
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_discard_dynptr
r0 = 0
exit

# case: dynptr_submit_never_made
# expect: reject
# message: arg 1 is an unacquired reference
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_submit_dynptr
r0 = 0
exit

# case: dynptr_submit_local
# expect: reject
# message: arg 1 is an unacquired reference
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[vals] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r2 = 8
r3 = 0
r4 = r10
r4 += -24
call bpf_dynptr_from_mem
r1 = r10
r1 += -24
r2 = 0
call bpf_ringbuf_submit_dynptr
out:
r0 = 0
exit
