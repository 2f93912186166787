# Packet pointers a call invalidates (issue 10, the 7.2 selftests yardstick,
# as the running 6.18 decides): a kfunc that may move the packet
# (bpf_xdp_pull_data), a global function that calls one, a static function
# that tail-calls (the program it calls may change the packet; a tail call
# of the main frame does not return), and bpf_dynptr_write into an skb
# metadata dynptr (slices of the packet and of its metadata are stale).
# Beside them, the numeric iterator's kfuncs (bpf_for) inside a
# bpf_spin_lock region, which 6.18 allows (kfunc_spin_allowed).
# prog-type: tc
# c: extern int bpf_xdp_pull_data(struct xdp_md *x, __u32 len) __ksym;
# c: extern int bpf_dynptr_from_skb_meta(struct __sk_buff *skb, __u64 flags, struct bpf_dynptr *ptr__uninit) __ksym;
# c: extern void *bpf_dynptr_slice(const struct bpf_dynptr *p, __u32 offset, void *buffer__opt, __u32 buffer__szk) __ksym;
# c: extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
# c: extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
# c: extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;
# c: struct { __uint(type, BPF_MAP_TYPE_PROG_ARRAY); __uint(max_entries, 1); __type(key, int); __type(value, int); } jt SEC(".maps");
# c: static __attribute__((noinline)) int st_tail(struct __sk_buff *s) { bpf_tail_call_static(s, &jt, 0); return s->len & 1; }
# c: static __attribute__((noinline)) int st_plain(struct __sk_buff *s) { return s->len & 1; }
# c: __attribute__((noinline)) int gl_pull(struct xdp_md *x) { return bpf_xdp_pull_data(x, 0) & 1; }
# c: struct lockval { struct bpf_spin_lock l; long v; };
# map: lk array key=__u32 value=struct_lockval entries=1

# case: static_tail_call_invalidates
# expect: reject
# message: R6 invalid mem access 'scalar'
r6 = *(u32 *)(r1 + 76)
r7 = *(u32 *)(r1 + 80)
r2 = r6
r2 += 4
if r2 > r7 goto out
call %[st_tail]
r1 = 1
*(u32 *)(r6 + 0) = r1
out:
r0 = 0
exit

# case: static_plain_call_keeps_pkt
# expect: accept
r6 = *(u32 *)(r1 + 76)
r7 = *(u32 *)(r1 + 80)
r2 = r6
r2 += 4
if r2 > r7 goto out
call %[st_plain]
r1 = 1
*(u32 *)(r6 + 0) = r1
out:
r0 = 0
exit

# case: main_tail_call_keeps_pkt
# expect: accept
r6 = *(u32 *)(r1 + 76)
r7 = *(u32 *)(r1 + 80)
r2 = r6
r2 += 4
if r2 > r7 goto out
r2 = %[jt] ll
r3 = 0
call bpf_tail_call
r1 = 1
*(u32 *)(r6 + 0) = r1
out:
r0 = 0
exit

# case: xdp_pull_data_invalidates
# section: xdp
# expect: reject
# message: R6 invalid mem access 'scalar'
r6 = *(u32 *)(r1 + 0)
r7 = *(u32 *)(r1 + 4)
r2 = r6
r2 += 4
if r2 > r7 goto out
r2 = 0
call bpf_xdp_pull_data
r1 = 1
*(u32 *)(r6 + 0) = r1
out:
r0 = 2
exit

# case: xdp_pull_data_after_access
# section: xdp
# expect: accept
r6 = *(u32 *)(r1 + 0)
r7 = *(u32 *)(r1 + 4)
r2 = r6
r2 += 4
if r2 > r7 goto out
r2 = 1
*(u32 *)(r6 + 0) = r2
r2 = 0
call bpf_xdp_pull_data
out:
r0 = 2
exit

# case: xdp_global_func_pulling_invalidates
# section: xdp
# expect: reject
# message: R6 invalid mem access 'scalar'
r6 = *(u32 *)(r1 + 0)
r7 = *(u32 *)(r1 + 4)
r2 = r6
r2 += 4
if r2 > r7 goto out
call %[gl_pull]
r1 = 1
*(u32 *)(r6 + 0) = r1
out:
r0 = 2
exit

# case: skb_meta_write_invalidates_meta_slice
# expect: reject
# message: R6 invalid mem access 'scalar'
r9 = r1
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb_meta
r1 = r10
r1 += -16
r2 = 0
r3 = 0
r4 = 1
call bpf_dynptr_slice
if r0 == 0 goto out
r6 = r0
r1 = 7
*(u64 *)(r10 - 24) = r1
r1 = r10
r1 += -16
r2 = 0
r3 = r10
r3 += -24
r4 = 1
r5 = 0
call bpf_dynptr_write
r0 = *(u8 *)(r6 + 0)
out:
r0 = 0
exit

# case: skb_meta_slice_read_before_write
# expect: accept
r9 = r1
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb_meta
r1 = r10
r1 += -16
r2 = 0
r3 = 0
r4 = 1
call bpf_dynptr_slice
if r0 == 0 goto out
r6 = *(u8 *)(r0 + 0)
*(u64 *)(r10 - 24) = r6
r1 = r10
r1 += -16
r2 = 0
r3 = r10
r3 += -24
r4 = 1
r5 = 0
call bpf_dynptr_write
out:
r0 = 0
exit

# case: iter_num_loop_inside_spin_lock
# expect: accept
# profile: 6.12 reject function calls are not allowed while holding a lock
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[lk] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
r1 = r6
call bpf_spin_lock
r1 = r10
r1 += -16
r2 = 0
r3 = 4
call bpf_iter_num_new
loop:
r1 = r10
r1 += -16
call bpf_iter_num_next
if r0 == 0 goto done
goto loop
done:
r1 = r10
r1 += -16
call bpf_iter_num_destroy
r1 = r6
call bpf_spin_unlock
out:
r0 = 0
exit

# case: helper_inside_spin_lock_still_refused
# expect: reject
# message: function calls are not allowed while holding a lock
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[lk] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
r1 = r6
call bpf_spin_lock
call bpf_ktime_get_ns
r1 = r6
call bpf_spin_unlock
out:
r0 = 0
exit
