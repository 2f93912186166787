# Comparisons of pointers with 0 (found by the soundness test, test_soundness.c).
# The kernel decides `ptr == 0` only for pointers it knows are not NULL
# (reg_not_null: map values, sockets, memory, trusted BTF pointers); for ctx,
# stack and packet pointers, BTF pointers walked from another one and the
# arguments of fentry/fexit it explores the "== 0" outcome as well, so code
# there must be safe. Each "bad" branch reads the stack out of bounds.
# (BTF pointer cases: tests/check_nullcmp.test.sh, they need the target's BTF.)
# prog-type: xdp

# case: ctx_cmp_zero_explored
# expect: reject
# message: invalid read from stack
if r1 != 0 goto ok
r1 = *(u64 *)(r10 + 8)
ok:
r0 = 2
exit

# case: pkt_cmp_zero_explored
# expect: reject
# message: invalid read from stack
r2 = *(u32 *)(r1 + 0)
if r2 != 0 goto ok
r1 = *(u64 *)(r10 + 8)
ok:
r0 = 2
exit

# case: stack_ptr_cmp_zero_explored
# expect: reject
# message: invalid read from stack
r2 = r10
r2 += -8
if r2 != 0 goto ok
r1 = *(u64 *)(r10 + 8)
ok:
r0 = 2
exit

# case: ctx_cmp_zero_safe_branch
# expect: accept
if r1 != 0 goto ok
r0 = 1
exit
ok:
r0 = 2
exit
