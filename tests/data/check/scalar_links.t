# Scalar precision the 6.18 verifier has and no more (issue 10, the 7.2
# selftests yardstick): AND/OR with a constant of a value in [-1, 0] (the
# kernel explores dst = 0 and dst = -1 apart: maybe_fork_scalars), and the
# linked scalars' one constant offset (r += k once; a second add, or a copy
# of an offset register, leaves the link).
# prog-type: socket

# case: fork_arsh32_and_dead_branch
# expect: accept
call bpf_get_prandom_u32
w3 = w0
w3 s>>= 31
w3 &= -200
if w3 s> -1 goto out
if w3 != -202 goto out
w0 /= 0
out:
w0 = 0
exit

# case: fork_arsh32_and_live_branch
# expect: reject
# message: div by zero
call bpf_get_prandom_u32
w3 = w0
w3 s>>= 31
w3 &= -200
if w3 s> -1 goto out
if w3 != -200 goto out
w0 /= 0
out:
w0 = 0
exit

# case: fork_arsh64_or_dead_branch
# expect: accept
call bpf_get_prandom_u32
r3 = r0
r3 <<= 32
r3 s>>= 63
r3 |= 77
if r3 s< 0 goto out
if r3 != 78 goto out
r0 /= 0
out:
r0 = 0
exit

# case: fork_and_not_from_wider_range
# expect: reject
# message: div by zero
call bpf_get_prandom_u32
r3 = r0
r3 <<= 32
r3 s>>= 62
r3 &= -200
if r3 s> -1 goto out
if r3 != -248 goto out
r0 /= 0
out:
r0 = 0
exit

# case: link_one_offset_refines_base
# expect: accept
call bpf_get_prandom_u32
r0 &= 127
r4 = r0
r4 += 3
if r4 < 5 goto out
if r0 != 1 goto out
r0 /= 0
out:
r0 = 0
exit

# case: link_second_add_drops_it
# expect: reject
# message: div by zero
call bpf_get_prandom_u32
r0 &= 127
r4 = r0
r4 += 1
r4 += 2
if r4 < 5 goto out
if r0 != 1 goto out
r0 /= 0
out:
r0 = 0
exit

# case: link32_offset_to_sign_bit
# expect: accept
call bpf_get_prandom_u32
w0 &= 63
w4 = w0
w4 += 0x7fffffff
if w4 s>= 0 goto out
if w0 != 0 goto out
r0 /= 0
out:
r0 = 0
exit

# case: link_copy_of_offset_reg_starts_new_link
# expect: reject
# message: div by zero
call bpf_get_prandom_u32
r0 &= 127
r4 = r0
r4 += 3
r5 = r4
if r5 < 5 goto out
if r0 != 1 goto out
r0 /= 0
out:
r0 = 0
exit

# case: link_copy_of_offset_reg_links_the_copies
# expect: accept
call bpf_get_prandom_u32
r0 &= 127
r4 = r0
r4 += 3
r5 = r4
if r5 < 5 goto out
if r4 != 4 goto out
r0 /= 0
out:
r0 = 0
exit
