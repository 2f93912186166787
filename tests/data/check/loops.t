# Loops and termination (bpf-to-bpf calls are covered by the corpus and
# examples: clang's inline assembler crashes on `call label`).
# prog-type: socket
# map: arr array key=4 value=8 entries=4

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

