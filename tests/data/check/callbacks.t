# Sync callbacks: how often the helper calls them. bpf_loop's callback is
# called while the caller frame's count of calls is below umax(nr_loops)
# (the kernel's check_helper_call, callback_depth), so a counter the callback
# steps is bounded by nr_loops; bpfgate walks the calls one by one (never
# joined, never widened) up to the unrolling bound, and stops early when a
# call's entry state is contained in an earlier call's with more calls left.
# prog-type: socket
# c: struct cnt { long i; };
# c: static __attribute__((noinline)) int cb_inc(__u32 idx, struct cnt *c) { c->i++; return 0; }
# c: static __attribute__((noinline)) int cb_nop(__u32 idx, void *c) { return 0; }
# c: static __attribute__((noinline)) int cb_deref(__u32 idx, struct cnt *c) { return c->i & 1; }
# c: char choice[2] = {1, 2};

# One call at most: the counter is 0 or 1, inside choice[2].
# case: loop_one_call_bounds_counter
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = 1
r2 = %[cb_inc] ll
r3 = r10
r3 += -8
r4 = 0
call bpf_loop
r1 = %[choice] ll
r2 = *(u64 *)(r10 - 8)
r1 += r2
r0 = *(u8 *)(r1 + 0)
exit

# Two calls: the counter may be 2, past choice[2].
# case: loop_two_calls_overflow
# expect: reject
# message: invalid access to map value
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = 2
r2 = %[cb_inc] ll
r3 = r10
r3 += -8
r4 = 0
call bpf_loop
r1 = %[choice] ll
r2 = *(u64 *)(r10 - 8)
r1 += r2
r0 = *(u8 *)(r1 + 0)
exit

# nr_loops is not a constant: its umax (1) bounds the calls.
# case: loop_count_umax_bounds_counter
# expect: accept
call bpf_get_prandom_u32
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r0
r1 &= 1
r2 = %[cb_inc] ll
r3 = r10
r3 += -8
r4 = 0
call bpf_loop
r1 = %[choice] ll
r2 = *(u64 *)(r10 - 8)
r1 += r2
r0 = *(u8 *)(r1 + 0)
exit

# The same with umax 3: the counter may reach 3.
# case: loop_count_umax_overflow
# expect: reject
# message: invalid access to map value
call bpf_get_prandom_u32
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r0
r1 &= 3
r2 = %[cb_inc] ll
r3 = r10
r3 += -8
r4 = 0
call bpf_loop
r1 = %[choice] ll
r2 = *(u64 *)(r10 - 8)
r1 += r2
r0 = *(u8 *)(r1 + 0)
exit

# bpf_loop(0, ...): the kernel never walks the callback, whose NULL
# dereference is then no error.
# case: loop_zero_calls_skips_callback
# expect: accept
r1 = 0
r2 = %[cb_deref] ll
r3 = 0
r4 = 0
call bpf_loop
r0 = 0
exit

# case: loop_one_call_walks_callback
# expect: reject
# message: invalid mem access 'scalar'
r1 = 1
r2 = %[cb_deref] ll
r3 = 0
r4 = 0
call bpf_loop
r0 = 0
exit

# A callback whose state does not change is walked once, however large
# nr_loops is (the second call's entry state is contained in the first's).
# case: loop_many_calls_converge
# expect: accept
r1 = 1000
r2 = %[cb_nop] ll
r3 = 0
r4 = 0
call bpf_loop
r0 = 0
exit

# The callback chosen on a branch: each path walks its own (a join of two
# function pointers is no function pointer).
# case: loop_callback_chosen_on_branch
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
call bpf_get_prandom_u32
r6 = 0
*(u64 *)(r10 - 8) = r6
r2 = %[cb_inc] ll
if r0 == 15 goto call
r2 = %[cb_nop] ll
call:
r1 = 1
r3 = r10
r3 += -8
r4 = 0
call bpf_loop
r0 = 0
exit

# ... and each callback is checked on its path: cb_deref reads through the
# context it gets, NULL on this path.
# case: loop_callback_chosen_null_ctx
# expect: reject
# message: invalid mem access
# profile: 7.2 reject
# profile: 6.12 reject
call bpf_get_prandom_u32
r2 = %[cb_deref] ll
if r0 == 15 goto call
r2 = %[cb_nop] ll
call:
r1 = 1
r3 = 0
r4 = 0
call bpf_loop
r0 = 0
exit
