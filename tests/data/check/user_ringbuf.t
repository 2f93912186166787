# bpf_user_ringbuf_drain's callback gets a read-only dynptr (the kernel's
# CONST_PTR_TO_DYNPTR, "dynptr_ptr"): it may go to dynptr helpers, never be
# read or written as memory. bpfgate does not model the type: the argument
# is an unknown number, so any access is refused (as the kernel does) and so
# is its use as a dynptr (which the kernel allows: xfail below).
# prog-type: raw_tp
# map: urb BPF_MAP_TYPE_USER_RINGBUF entries=4096
# c: static __attribute__((noinline)) long cb_ignore(struct bpf_dynptr *d, void *ctx) { return 0; }
# c: static __attribute__((noinline)) long cb_write(struct bpf_dynptr *d, void *ctx) { *(volatile long *)d = 0; return 0; }
# c: static __attribute__((noinline)) long cb_read(struct bpf_dynptr *d, void *ctx) { return *(volatile long *)d ? 0 : 1; }
# c: static __attribute__((noinline)) long cb_dynptr_read(struct bpf_dynptr *d, void *ctx) { long x = 0; bpf_dynptr_read(&x, sizeof(x), d, 0, 0); return 0; }

# case: urb_cb_ignores_dynptr
# expect: accept
r1 = %[urb] ll
r2 = %[cb_ignore] ll
r3 = 0
r4 = 0
call bpf_user_ringbuf_drain
r0 = 0
exit

# case: urb_cb_writes_dynptr
# expect: reject
# message: invalid mem access
r1 = %[urb] ll
r2 = %[cb_write] ll
r3 = 0
r4 = 0
call bpf_user_ringbuf_drain
r0 = 0
exit

# case: urb_cb_reads_dynptr
# expect: reject
# message: invalid mem access
r1 = %[urb] ll
r2 = %[cb_read] ll
r3 = 0
r4 = 0
call bpf_user_ringbuf_drain
r0 = 0
exit

# case: urb_cb_dynptr_read_helper
# expect: accept
# xfail: the callback's dynptr argument (CONST_PTR_TO_DYNPTR) is not modelled as a dynptr
r1 = %[urb] ll
r2 = %[cb_dynptr_read] ll
r3 = 0
r4 = 0
call bpf_user_ringbuf_drain
r0 = 0
exit
