# Sync callbacks: how often the helper calls them. bpf_loop's callback is
# called while the caller frame's count of calls is below umax(nr_loops)
# (the kernel's check_helper_call, callback_depth), so a counter the callback
# steps is bounded by nr_loops. bpfgate walks the first two calls one by one,
# then joins the later ones into one widened partition (the kernel prunes them
# when they differ in values no check reads: imprecise scalars); when that
# analysis rejects the program, it is analysed again with every call walked
# one by one up to the unrolling bound (as the kernel does with a precise
# counter), stopping early when a call's entry state is contained in an
# earlier call's with more calls left.
# prog-type: socket
# c: struct cnt { long i; };
# c: static __attribute__((noinline)) int cb_inc(__u32 idx, struct cnt *c) { c->i++; return 0; }
# c: static __attribute__((noinline)) int cb_nop(__u32 idx, void *c) { return 0; }
# c: static __attribute__((noinline)) int cb_deref(__u32 idx, struct cnt *c) { return c->i & 1; }
# c: char choice[2] = {1, 2};
# c: const volatile char choice4[4] = {1, 2, 3, 4};
# c: static __attribute__((noinline)) int cb_idx(__u32 idx, struct cnt *c) { return choice4[c->i++] & 1; }

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

# A counter the callback steps but no check reads: the calls after the second
# join (the kernel prunes them: the counter is not precise), so 500 calls
# cost a few walks of the callback, not 500.
# case: loop_many_calls_counter_unread
# expect: accept
# max-steps: 100
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = 500
r2 = %[cb_inc] ll
r3 = r10
r3 += -8
r4 = 0
call bpf_loop
r0 = 0
exit

# Three calls: the counter is 0..3, inside choice4[4]. The joined calls lose
# that bound (the first analysis rejects); walked call by call it holds.
# case: loop_three_calls_bounds_counter
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = 3
r2 = %[cb_inc] ll
r3 = r10
r3 += -8
r4 = 0
call bpf_loop
r1 = %[choice4] ll
r2 = *(u64 *)(r10 - 8)
r1 += r2
r0 = *(u8 *)(r1 + 0)
exit

# Four calls: the counter may be 4, past choice4[4] (the same message as
# the call-by-call walk gives).
# case: loop_four_calls_overflow
# expect: reject
# message: invalid access to map value
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = 4
r2 = %[cb_inc] ll
r3 = r10
r3 += -8
r4 = 0
call bpf_loop
r1 = %[choice4] ll
r2 = *(u64 *)(r10 - 8)
r1 += r2
r0 = *(u8 *)(r1 + 0)
exit

# The check is in the callback: call k reads choice4[k-1], inside for four
# calls (walked call by call again after the joined calls' rejection) ...
# case: loop_callback_reads_by_counter
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = 4
r2 = %[cb_idx] ll
r3 = r10
r3 += -8
r4 = 0
call bpf_loop
r0 = 0
exit

# ... and past it on the fifth.
# case: loop_callback_reads_past_end
# expect: reject
# message: invalid access to map value
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = 5
r2 = %[cb_idx] ll
r3 = r10
r3 += -8
r4 = 0
call bpf_loop
r0 = 0
exit
