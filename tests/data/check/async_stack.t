# An async callback (bpf_timer_set_callback) runs later on a call stack of
# its own: the kernel walks it as frame 0 of a new state (push_async_cb), so
# the frames of whoever armed the timer do not count toward its 8-frame
# limit, and callbacks that re-arm each other are no recursion. Judged by the
# running kernel (tc) and by 6.12/7.2 booted under QEMU.
# prog-type: tc
# c: struct tval { struct bpf_timer t; };
# c: struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 1); __type(key, int); __type(value, struct tval); } tm SEC(".maps");
# c: static __attribute__((noinline)) int leaf(int x) { return x & 0; }
# c: static __attribute__((noinline)) int mid(int x) { return leaf(x) + leaf(x + 1); }
# c: static int tcb2(void *map, int *key, struct tval *val);
# c: static int tcb(void *map, int *key, struct tval *val) { bpf_timer_set_callback(&val->t, tcb2); return mid(*key); }
# c: static int tcb2(void *map, int *key, struct tval *val) { bpf_timer_set_callback(&val->t, tcb); return leaf(*key); }
# c: static __attribute__((noinline)) int arm(struct tval *v) { bpf_timer_init(&v->t, &tm, 1); bpf_timer_set_callback(&v->t, tcb); return 0; }
# c: static __attribute__((noinline)) int d6(struct tval *v) { return arm(v) + 1; }
# c: static __attribute__((noinline)) int d5(struct tval *v) { return d6(v) + 1; }
# c: static __attribute__((noinline)) int d4(struct tval *v) { return d5(v) + 1; }
# c: static __attribute__((noinline)) int d3(struct tval *v) { return d4(v) + 1; }
# c: static __attribute__((noinline)) int d2(struct tval *v) { return d3(v) + 1; }
# c: static __attribute__((noinline)) int d1(struct tval *v) { return d2(v) + 1; }
# c: static __attribute__((noinline)) int d0(struct tval *v) { return d1(v) + 1; }

# Armed from the eighth frame; the callback calls two deeper.
# case: timer_armed_deep
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[tm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
call %[d1]
out:
r0 = 0
exit

# One frame more in front: arming the timer is the ninth frame (7.2 takes
# more frames: the 7.2 profile's call depth).
# case: nine_frames
# expect: reject
# message: the call stack of 9 frames is too deep
# profile: 7.2 accept
# profile: 6.12 reject the call stack of 9 frames is too deep
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[tm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
call %[d0]
out:
r0 = 0
exit
