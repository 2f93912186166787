# Scalars spilled to the stack and filled back: a spill of a register to the
# start of a slot links the slot's copy with the register, as a move does
# (the kernel's check_stack_write_fixed_off gives the register an id first);
# a later test on the filled copy refines the register too. A narrowing spill
# or a narrowing fill breaks the link (the value no longer fits), and so
# cannot let a dead-looking branch go unchecked. The dead branch of each case
# reads through r9, which is never initialized: reaching it is a rejection.
# prog-type: xdp

# case: spill64_links_the_register
# expect: accept
call bpf_get_prandom_u32
r0 &= 0x80000000
r0 <<= 32
*(u64 *)(r10 - 8) = r0
r1 = *(u64 *)(r10 - 8)
r2 = 0
if r1 != r2 goto out
if r0 == r2 goto out
r0 = *(u64 *)(r9 + 0)
exit
out:
r0 = 0
exit

# case: spill_unbounded_then_bound
# expect: accept
call bpf_get_prandom_u32
*(u64 *)(r10 - 8) = r0
if r0 > 16 goto out
r0 = *(u64 *)(r10 - 8)
if r0 <= 16 goto out
r0 = *(u64 *)(r9 + 0)
out:
r0 = 0
exit

# case: spill32_of_32bit_value_links
# expect: accept
call bpf_get_prandom_u32
w0 &= 0x80000000
*(u32 *)(r10 - 8) = r0
r1 = *(u32 *)(r10 - 8)
r2 = 0
if r1 != r2 goto out
if r0 == r2 goto out
r0 = *(u64 *)(r9 + 0)
exit
out:
r0 = 0
exit

# case: spill8_of_8bit_value_links
# expect: accept
call bpf_get_prandom_u32
w0 &= 0x80
*(u8 *)(r10 - 8) = r0
r1 = *(u8 *)(r10 - 8)
r2 = 0
if r1 != r2 goto out
if r0 == r2 goto out
r0 = *(u64 *)(r9 + 0)
exit
out:
r0 = 0
exit

# case: fill32_of_spill64_keeps_link_when_it_fits
# expect: accept
call bpf_get_prandom_u32
w0 &= 0xffffffff
*(u64 *)(r10 - 8) = r0
r1 = *(u32 *)(r10 - 8)
r2 = 0
if r1 != r2 goto out
if r0 == r2 goto out
r0 = *(u64 *)(r9 + 0)
exit
out:
r0 = 0
exit

# case: narrowing_spill_breaks_link
# expect: reject
# message: R9 !read_ok
call bpf_get_prandom_u32
r0 <<= 32
r0 |= 1
*(u32 *)(r10 - 8) = r0
r1 = *(u32 *)(r10 - 8)
if r1 != 1 goto out
if r0 == 1 goto out
r0 = *(u64 *)(r9 + 0)
exit
out:
r0 = 0
exit

# case: narrowing_fill_breaks_link
# expect: reject
# message: R9 !read_ok
call bpf_get_prandom_u32
r0 <<= 32
r0 |= 1
*(u64 *)(r10 - 8) = r0
r1 = *(u32 *)(r10 - 8)
if r1 != 1 goto out
if r0 == 1 goto out
r0 = *(u64 *)(r9 + 0)
exit
out:
r0 = 0
exit
