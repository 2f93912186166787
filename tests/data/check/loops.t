# Loops and termination (bpf-to-bpf calls are covered by the corpus and
# examples: clang's inline assembler crashes on `call label`).
# prog-type: socket
# map: arr array key=4 value=8 entries=4
# c: long garr[16];

# case: loop_counted_array
# expect: accept
r6 = 0
*(u64 *)(r10 - 8) = r6
l:
r1 = r10
r1 += -8
r1 += r6
r2 = 0
*(u8 *)(r1 + 0) = r2
r6 += 1
if r6 < 8 goto l
r0 = 0
exit

# case: loop_counted_overflows_stack
# expect: reject
r6 = 0
l:
r1 = r10
r1 += -8
r1 += r6
r2 = 0
*(u8 *)(r1 + 0) = r2
r6 += 1
if r6 < 9 goto l
r0 = 0
exit

# case: loop_down_counter
# expect: accept
r6 = 100
r0 = 0
l:
r0 += 1
r6 -= 1
if r6 s> 0 goto l
r0 = 0
exit

# case: loop_no_progress
# expect: reject
r6 = 0
l:
r6 += 0
if r6 < 10 goto l
r0 = 0
exit


# case: loop_nested_bound_register
# A nested loop bounded by the outer counter (selftests loop1.c): the inner
# test `r6 < r7` on a register the inner loop never writes bounds it without
# unrolling; the outer `!= 100` is bounded since r7 stays <= 100 at the test.
# expect: accept
r0 = 0
r7 = 0
o:
r6 = 0
if r7 == 0 goto n
i:
r1 = r6
r1 *= r7
r0 += r1
r0 &= 65535
r6 += 1
if r6 < r7 goto i
n:
r7 += 1
if r7 != 100 goto o
r0 = 0
exit

# case: loop_ne_start_past_bound
# `!=` never met: the counter starts above the bound (the kernel gives up
# after 1M insns); the widened bound check fails, unrolling finds no end.
# expect: reject
# message: loop not proven bounded
r6 = 700
r0 = 0
l:
r0 += 1
r6 += 1
if r6 != 600 goto l
r0 = 0
exit

# case: loop_ne_counted
# expect: accept
r6 = 0
r0 = 0
l:
r0 += r6
r0 &= 255
r6 += 1
if r6 != 600 goto l
r0 = 0
exit

# case: loop_lockstep_stack_pointer
# r1 steps by 8 with the counter: x - 8*i is invariant, so the widened
# pointer stays inside the 64 bytes the loop writes.
# expect: accept
r6 = 0
r1 = r10
r1 += -64
l:
r2 = 0
*(u64 *)(r1 + 0) = r2
r1 += 8
r6 += 1
if r6 < 8 goto l
r0 = 0
exit

# case: loop_lockstep_stack_pointer_overflow
# one more iteration writes at fp+0: rejected by both
# expect: reject
r6 = 0
r1 = r10
r1 += -64
l:
r2 = 0
*(u64 *)(r1 + 0) = r2
r1 += 8
r6 += 1
if r6 < 9 goto l
r0 = 0
exit

# A loop whose spilled counter narrows each iteration ([0,255], then [1,11])
# makes progress: the kernel reports an infinite loop only when a state
# comes back equal (states_equal EXACT), not merely contained.
# case: loop_spilled_counter_narrows
# expect: accept
call bpf_get_prandom_u32
r0 &= 0xff
*(u64 *)(r10 - 8) = r0
r0 = 0
l:
r0 = *(u64 *)(r10 - 8)
if r0 > 10 goto out
r0 += 1
*(u64 *)(r10 - 8) = r0
r0 = 0
goto l
out:
r0 = 0
exit

# A loop whose state comes back after two iterations (r0 alternates 0, 1 at
# the head): the kernel finds the head state equal to one already explored
# on the path ("infinite loop detected"); so does bpfgate, comparing with the
# iterations before the last one too, instead of unrolling to the bound.
# case: loop_period_two_no_progress
# expect: reject
# message: infinite loop detected
r0 = 0
l:
r0 += 1
r0 &= 1
if r0 < 2 goto m
exit
m:
r0 += 1
r0 &= 1
if r0 < 2 goto l
exit

# A may_goto loop counted by `r != K` (stepped by 1) with a pointer stepped in
# lockstep: the kernel walks every iteration (the pointer's offset differs in
# each, so no state is pruned); bpfgate keeps `p - 8*i` invariant as for a
# counted loop without may_goto, the may_goto being one more exit.
# case: may_goto_counted_lockstep
# expect: accept
r1 = 0
r2 = %[garr] ll
loop:
may_goto out
*(u64 *)(r2 + 0) = r1
r2 += 8
r1 += 1
if r1 != 16 goto loop
out:
r0 = 0
exit

# The twin: one iteration more writes past the array.
# case: may_goto_counted_lockstep_oob
# expect: reject
# message: invalid access to map value|outside of the allowed memory range|unbounded memory access
r1 = 0
r2 = %[garr] ll
loop:
may_goto out
*(u64 *)(r2 + 0) = r1
r2 += 8
r1 += 1
if r1 != 17 goto loop
out:
r0 = 0
exit

# case: loop_accel_derived_index
# The counter is read only by its step, its test and an ALU op into r2
# (counter acceleration, verify.c cnt_accel): r2 = 4*i stays in [0, 28], the
# 32 bytes the loop writes.
# expect: accept
r6 = 0
l:
r1 = r10
r1 += -32
r2 = 0
r2 += r6
r2 *= 4
r1 += r2
r3 = 0
*(u32 *)(r1 + 0) = r3
r6 += 1
if r6 < 8 goto l
r0 = 0
exit

# case: loop_accel_derived_index_overflows
# One iteration more: the last write is at fp+0.
# expect: reject
r6 = 0
l:
r1 = r10
r1 += -32
r2 = 0
r2 += r6
r2 *= 4
r1 += r2
r3 = 0
*(u32 *)(r1 + 0) = r3
r6 += 1
if r6 < 9 goto l
r0 = 0
exit

# case: loop_accel_never_iterates
# The body always leaves on the first iteration (r7 is 1): the kernel walks
# i = 0 only. A counter accelerated on entry would be [0, 99] and the store
# out of bounds; the rejection is checked again without entry acceleration.
# expect: accept
r6 = 0
r7 = 1
l:
r1 = r10
r1 += -8
r2 = 0
r2 += r6
r2 *= 4
r1 += r2
r3 = 0
*(u8 *)(r1 + 0) = r3
if r7 != 0 goto out
r6 += 1
if r6 < 100 goto l
out:
r0 = 0
exit
