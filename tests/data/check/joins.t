# Constants joined from paths the kernel walks apart. Beyond K states at one
# node bpfgate joins, and a shift by a joined register would be "untracked"
# (the kernel keeps no bounds for a shift by a non-constant); but the kernel
# never joins: it shifts by each path's constant. A join of constants is kept
# as a constant set (as_reg.cset) and a shift by it is the union of the
# shifts by each constant. A shift amount that is a range on one path stays
# untracked, as in the kernel. The first case is the shape clang gives
# xdp-tools' IPv6 extension-header walk ((len+1)<<3, AH (len+2)<<2).
# prog-type: xdp

# case: shift_by_path_constants
# expect: accept
r6 = *(u32 *)(r1 + 0)
r2 = *(u32 *)(r1 + 4)
r1 = r6
r1 += 16
if r1 > r2 goto out
r5 = *(u8 *)(r6 + 0)
r7 = *(u8 *)(r6 + 1)
r3 = 2
if r5 != 0 goto l1
r3 = 3
l1:
r8 = 0
if r7 == 1 goto m
r8 = 1
if r7 == 2 goto m
r8 = 2
if r7 == 3 goto m
r8 = 3
if r7 == 4 goto m
r8 = 4
if r7 == 5 goto m
r8 = 5
if r7 == 6 goto m
r8 = 6
if r7 == 7 goto m
r8 = 7
if r7 == 8 goto m
r8 = 8
if r7 == 9 goto m
r8 = 9
m:
r4 = *(u8 *)(r6 + 2)
r4 <<= r3
r9 = r6
r9 += r4
r1 = r9
r1 += 1
if r1 > r2 goto out
r0 = *(u8 *)(r9 + 0)
if r8 == 5 goto out
out:
r0 = 2
exit

# case: shift_by_range
# expect: reject
# message: math between pkt pointer and register with unbounded min value
r6 = *(u32 *)(r1 + 0)
r2 = *(u32 *)(r1 + 4)
r1 = r6
r1 += 16
if r1 > r2 goto out
r5 = *(u8 *)(r6 + 0)
r7 = *(u8 *)(r6 + 1)
r3 = *(u8 *)(r6 + 3)
r3 &= 1
r3 += 2
r8 = 0
if r7 == 1 goto m
r8 = 1
if r7 == 2 goto m
r8 = 2
if r7 == 3 goto m
r8 = 3
if r7 == 4 goto m
r8 = 4
if r7 == 5 goto m
r8 = 5
if r7 == 6 goto m
r8 = 6
if r7 == 7 goto m
r8 = 7
if r7 == 8 goto m
r8 = 8
if r7 == 9 goto m
r8 = 9
m:
r4 = *(u8 *)(r6 + 2)
r4 <<= r3
r9 = r6
r9 += r4
r1 = r9
r1 += 1
if r1 > r2 goto out
r0 = *(u8 *)(r9 + 0)
if r8 == 5 goto out
out:
r0 = 2
exit
