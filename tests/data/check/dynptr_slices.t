# Dynptr slices: bpf_dynptr_data and bpf_dynptr_slice[_rdwr] return NULL or
# memory of their constant size, taken from one dynptr. The slice dies with
# its dynptr: when the dynptr's slots are overwritten or it is initialized
# again (destroy_if_dynptr_stack_slot: slices with its dynptr_id), when a
# ringbuf dynptr is submitted or discarded (bpf_dynptr_data's slices hold
# its reference; its clones die too), and, for skb/xdp dynptrs, when a
# packet-changing helper may move the data (clear_all_pkt_pointers).
# bpf_dynptr_slice's memory is read-only; bpf_dynptr_slice_rdwr needs a
# program type that may write packets. bpf_dynptr_clone's second argument
# is a new dynptr of the first's kind.
# prog-type: raw_tp
# map: rb ringbuf entries=4096
# map: vals array key=4 value=16 entries=1
# c: extern int bpf_dynptr_from_skb(struct __sk_buff *skb, __u64 flags, struct bpf_dynptr *ptr__uninit) __ksym;
# c: extern void *bpf_dynptr_slice(const struct bpf_dynptr *p, __u32 offset, void *buffer__opt, __u32 buffer__szk) __ksym;
# c: extern void *bpf_dynptr_slice_rdwr(const struct bpf_dynptr *p, __u32 offset, void *buffer__opt, __u32 buffer__szk) __ksym;
# c: extern int bpf_dynptr_clone(const struct bpf_dynptr *p, struct bpf_dynptr *clone__uninit) __ksym;

# case: ringbuf_data_slice
# expect: accept
r1 = %[rb] ll
r2 = 16
r3 = 0
r4 = r10
r4 += -16
call bpf_ringbuf_reserve_dynptr
r1 = r10
r1 += -16
r2 = 0
r3 = 16
call bpf_dynptr_data
if r0 == 0 goto out
r1 = 7
*(u64 *)(r0 + 8) = r1
out:
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_submit_dynptr
r0 = 0
exit

# case: ringbuf_data_slice_past_size
# expect: reject
# message: invalid access to memory, size=16 off=16 size=8
r1 = %[rb] ll
r2 = 16
r3 = 0
r4 = r10
r4 += -16
call bpf_ringbuf_reserve_dynptr
r1 = r10
r1 += -16
r2 = 0
r3 = 16
call bpf_dynptr_data
if r0 == 0 goto out
r1 = 7
*(u64 *)(r0 + 16) = r1
out:
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_submit_dynptr
r0 = 0
exit

# case: ringbuf_data_slice_unchecked
# expect: reject
# message: invalid mem access 'mem_or_null'
r1 = %[rb] ll
r2 = 16
r3 = 0
r4 = r10
r4 += -16
call bpf_ringbuf_reserve_dynptr
r1 = r10
r1 += -16
r2 = 0
r3 = 16
call bpf_dynptr_data
r1 = 7
*(u64 *)(r0 + 0) = r1
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_submit_dynptr
r0 = 0
exit

# case: ringbuf_data_slice_after_submit
# expect: reject
# message: invalid mem access 'scalar'
r1 = %[rb] ll
r2 = 16
r3 = 0
r4 = r10
r4 += -16
call bpf_ringbuf_reserve_dynptr
r1 = r10
r1 += -16
r2 = 0
r3 = 16
call bpf_dynptr_data
r6 = r0
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_submit_dynptr
if r6 == 0 goto out
r0 = *(u64 *)(r6 + 0)
out:
r0 = 0
exit

# case: ringbuf_null_slice_keeps_reference
# expect: reject
# message: Unreleased reference
r1 = %[rb] ll
r2 = 16
r3 = 0
r4 = r10
r4 += -16
call bpf_ringbuf_reserve_dynptr
r1 = r10
r1 += -16
r2 = 0
r3 = 16
call bpf_dynptr_data
if r0 != 0 goto submit
r0 = 0
exit
submit:
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_submit_dynptr
r0 = 0
exit

# case: ringbuf_discard_kills_clone
# expect: reject
# message: Expected an initialized dynptr
r1 = %[rb] ll
r2 = 16
r3 = 0
r4 = r10
r4 += -16
call bpf_ringbuf_reserve_dynptr
r1 = r10
r1 += -16
r2 = r10
r2 += -32
call bpf_dynptr_clone
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_discard_dynptr
r1 = r10
r1 += -32
r2 = 0
r3 = 8
call bpf_dynptr_data
r0 = 0
exit

# case: clone_into_referenced_dynptr
# expect: reject
# message: cannot overwrite referenced dynptr
r1 = %[rb] ll
r2 = 16
r3 = 0
r4 = r10
r4 += -16
call bpf_ringbuf_reserve_dynptr
r1 = %[rb] ll
r2 = 16
r3 = 0
r4 = r10
r4 += -32
call bpf_ringbuf_reserve_dynptr
r1 = r10
r1 += -16
r2 = r10
r2 += -32
call bpf_dynptr_clone
r1 = r10
r1 += -16
r2 = 0
call bpf_ringbuf_discard_dynptr
r1 = r10
r1 += -32
r2 = 0
call bpf_ringbuf_discard_dynptr
r0 = 0
exit

# case: local_clone_slice
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[vals] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r2 = 16
r3 = 0
r4 = r10
r4 += -32
call bpf_dynptr_from_mem
r1 = r10
r1 += -32
r2 = r10
r2 += -48
call bpf_dynptr_clone
r1 = r10
r1 += -48
r2 = 8
r3 = 8
call bpf_dynptr_data
if r0 == 0 goto out
r0 = *(u64 *)(r0 + 0)
out:
r0 = 0
exit

# case: local_slice_after_reinit
# expect: reject
# message: invalid mem access 'scalar'
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[vals] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r7 = r0
r1 = r0
r2 = 16
r3 = 0
r4 = r10
r4 += -32
call bpf_dynptr_from_mem
r1 = r10
r1 += -32
r2 = 0
r3 = 8
call bpf_dynptr_data
if r0 == 0 goto out
r6 = r0
r1 = r7
r2 = 16
r3 = 0
r4 = r10
r4 += -32
call bpf_dynptr_from_mem
r0 = *(u64 *)(r6 + 0)
out:
r0 = 0
exit

# case: local_slice_after_overwrite
# expect: reject
# message: invalid mem access 'scalar'
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[vals] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r2 = 16
r3 = 0
r4 = r10
r4 += -32
call bpf_dynptr_from_mem
r1 = r10
r1 += -32
r2 = 0
r3 = 8
call bpf_dynptr_data
if r0 == 0 goto out
*(u64 *)(r10 - 56) = r0
r1 = 0
*(u32 *)(r10 - 24) = r1
r6 = *(u64 *)(r10 - 56)
r0 = *(u64 *)(r6 + 0)
out:
r0 = 0
exit

# case: local_slice_of_other_dynptr_survives
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[vals] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r7 = r0
r1 = r0
r2 = 16
r3 = 0
r4 = r10
r4 += -32
call bpf_dynptr_from_mem
r1 = r7
r2 = 16
r3 = 0
r4 = r10
r4 += -48
call bpf_dynptr_from_mem
r1 = r10
r1 += -48
r2 = 0
r3 = 8
call bpf_dynptr_data
if r0 == 0 goto out
r6 = r0
r1 = r7
r2 = 16
r3 = 0
r4 = r10
r4 += -32
call bpf_dynptr_from_mem
r0 = *(u64 *)(r6 + 0)
out:
r0 = 0
exit

# case: skb_slice
# section: tc
# expect: accept
r6 = r1
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb
r1 = r10
r1 += -16
r2 = 0
r3 = r10
r3 += -32
r4 = 14
call bpf_dynptr_slice
if r0 == 0 goto out
r0 = *(u8 *)(r0 + 13)
out:
r0 = 0
exit

# case: skb_slice_after_pull_data
# section: tc
# expect: reject
# message: invalid mem access 'scalar'
r6 = r1
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb
r1 = r10
r1 += -16
r2 = 0
r3 = r10
r3 += -32
r4 = 14
call bpf_dynptr_slice
if r0 == 0 goto out
r7 = r0
r1 = r6
r2 = 0
call bpf_skb_pull_data
r0 = *(u8 *)(r7 + 0)
out:
r0 = 0
exit

# case: skb_slice_after_dynptr_write
# section: tc
# expect: reject
# message: invalid mem access 'scalar'
r6 = r1
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb
r1 = r10
r1 += -16
r2 = 0
r3 = r10
r3 += -32
r4 = 14
call bpf_dynptr_slice
if r0 == 0 goto out
r7 = r0
r1 = 0
*(u64 *)(r10 - 40) = r1
r1 = r10
r1 += -16
r2 = 0
r3 = r10
r3 += -40
r4 = 1
r5 = 0
call bpf_dynptr_write
r0 = *(u8 *)(r7 + 0)
out:
r0 = 0
exit

# case: skb_slice_is_read_only
# section: tc
# expect: reject
# message: (cannot write into|write into) .*rdonly
r6 = r1
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb
r1 = r10
r1 += -16
r2 = 0
r3 = r10
r3 += -32
r4 = 14
call bpf_dynptr_slice
if r0 == 0 goto out
r1 = 0
*(u8 *)(r0 + 0) = r1
out:
r0 = 0
exit

# case: skb_slice_rdwr
# section: tc
# expect: accept
r6 = r1
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb
r1 = r10
r1 += -16
r2 = 0
r3 = r10
r3 += -32
r4 = 14
call bpf_dynptr_slice_rdwr
if r0 == 0 goto out
r1 = 0
*(u8 *)(r0 + 0) = r1
out:
r0 = 0
exit

# case: skb_slice_rdwr_in_cgroup_skb
# section: cgroup/skb
# expect: reject
# message: the prog does not allow writes to packet data
r6 = r1
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb
r1 = r10
r1 += -16
r2 = 0
r3 = r10
r3 += -32
r4 = 14
call bpf_dynptr_slice_rdwr
r0 = 1
exit

# case: local_dynptr_over_stack
# expect: reject
# message: Unsupported reg type fp for bpf_dynptr_from_mem data
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
r2 = 8
r3 = 0
r4 = r10
r4 += -32
call bpf_dynptr_from_mem
r0 = 0
exit

# bpf_dynptr_from_skb's skb is the ctx only in packet programs: elsewhere it
# is a kernel struct argument that must be trusted (KF_TRUSTED_ARGS), and an
# fentry/fexit argument is not. Only the booted kernels judge fentry.
# case: skb_dynptr_from_fentry_arg
# section: fentry/skb_tx_error
# expect: reject
# kernel: skip fentry is refused here (EPERM)
# message: R1 must be referenced or trusted
# profile: 7.2 reject must be referenced or trusted
# profile: 6.12 reject must be referenced or trusted
r1 = *(u64 *)(r1 + 0)
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb
r0 = 0
exit
