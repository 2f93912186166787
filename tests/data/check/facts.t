# Expected abstract values at labels (`# at LABEL: rN in [a,b]`), beside the
# kernel-checked verdicts.
# prog-type: socket

# case: fact_mask
# expect: accept
# at here: r2 in [0,15]
r2 = *(u32 *)(r1 + 0)
r2 &= 15
here:
r0 = 0
exit

# case: fact_branch_refines
# expect: accept
# at small: r2 in [0,9]
# at big: r2 in [10,4294967295]
r2 = *(u32 *)(r1 + 0)
if r2 > 9 goto big
small:
r0 = 0
exit
big:
r0 = 1
exit

# case: fact_join
# expect: accept
# at join: r3 in [1,2]
r2 = *(u32 *)(r1 + 0)
r3 = 1
if r2 > 9 goto other
goto join
other:
r3 = 2
join:
r0 = r3
exit

# case: fact_loop_widened_bound
# expect: accept
# at after: r6 = 8
r6 = 0
l:
r6 += 1
if r6 < 8 goto l
after:
r0 = 0
exit

# case: fact_linked_copy
# expect: accept
# at in: r3 in [0,3]
r2 = *(u32 *)(r1 + 0)
r3 = r2
if r2 > 3 goto out
in:
r0 = 0
exit
out:
r0 = 0
exit

# case: fact_alu32_zext
# expect: accept
# at z: r2 in [0,4294967295]
r2 = -1
w2 += 0
z:
r0 = 0
exit
