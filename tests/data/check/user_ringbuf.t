# bpf_user_ringbuf_drain's callback gets a read-only dynptr (the kernel's
# CONST_PTR_TO_DYNPTR, "dynptr_ptr", region T_DYNPTR_PTR): it may go to
# dynptr helpers at offset 0, never be read or written as memory, released
# (ringbuf submit/discard) or re-initialized (a dynptr constructor).
# prog-type: raw_tp
# map: urb BPF_MAP_TYPE_USER_RINGBUF entries=4096
# c: static __attribute__((noinline)) long cb_ignore(struct bpf_dynptr *d, void *ctx) { return 0; }
# c: static __attribute__((noinline)) long cb_write(struct bpf_dynptr *d, void *ctx) { *(volatile long *)d = 0; return 0; }
# c: static __attribute__((noinline)) long cb_read(struct bpf_dynptr *d, void *ctx) { return *(volatile long *)d ? 0 : 1; }
# c: static __attribute__((noinline)) long cb_dynptr_read(struct bpf_dynptr *d, void *ctx) { long x = 0; bpf_dynptr_read(&x, sizeof(x), d, 0, 0); return 0; }
# c: static __attribute__((noinline)) long cb_dynptr_data(struct bpf_dynptr *d, void *ctx) { long *p = bpf_dynptr_data(d, 0, sizeof(long)); return p ? *p & 1 : 0; }
# c: static __attribute__((noinline)) long cb_dynptr_moved(struct bpf_dynptr *d, void *ctx) { long x = 0; bpf_dynptr_read(&x, sizeof(x), d + 1, 0, 0); return 0; }
# c: static __attribute__((noinline)) long cb_submit(struct bpf_dynptr *d, void *ctx) { bpf_ringbuf_submit_dynptr(d, 0); return 0; }
# c: static __attribute__((noinline)) long cb_reinit(struct bpf_dynptr *d, void *ctx) { static long buf; bpf_dynptr_from_mem(&buf, sizeof(buf), 0, d); return 0; }

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
r1 = %[urb] ll
r2 = %[cb_dynptr_read] ll
r3 = 0
r4 = 0
call bpf_user_ringbuf_drain
r0 = 0
exit

# case: urb_cb_dynptr_data_slice
# expect: accept
r1 = %[urb] ll
r2 = %[cb_dynptr_data] ll
r3 = 0
r4 = 0
call bpf_user_ringbuf_drain
r0 = 0
exit

# case: urb_cb_dynptr_moved
# expect: reject
# message: dereference of modified dynptr_ptr ptr R3 off=16
r1 = %[urb] ll
r2 = %[cb_dynptr_moved] ll
r3 = 0
r4 = 0
call bpf_user_ringbuf_drain
r0 = 0
exit

# case: urb_cb_submits_dynptr
# expect: reject
# message: cannot release unowned const bpf_dynptr
r1 = %[urb] ll
r2 = %[cb_submit] ll
r3 = 0
r4 = 0
call bpf_user_ringbuf_drain
r0 = 0
exit

# case: urb_cb_reinits_dynptr
# expect: reject
# message: Dynptr has to be an uninitialized dynptr
r1 = %[urb] ll
r2 = %[cb_reinit] ll
r3 = 0
r4 = 0
call bpf_user_ringbuf_drain
r0 = 0
exit
