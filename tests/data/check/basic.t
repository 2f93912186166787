# Basic transfer functions and checks on socket filters.
# prog-type: socket

# case: ret_const
# expect: accept
r0 = 0
exit

# case: uninit_r0
# expect: reject
# message: R0 !read_ok
exit

# case: uninit_r2_read
# expect: reject
# message: R2 !read_ok
r0 = r2
exit

# case: alu_chain
# expect: accept
r0 = 5
r0 += 3
r0 *= 2
r0 -= 1
r0 /= 3
r0 %= 4
r0 <<= 2
r0 >>= 1
r0 ^= 7
r0 |= 1
r0 &= 255
exit

# case: div_imm_zero
# expect: reject
# message: div by zero
r0 = 5
r0 /= 0
exit

# case: div_reg_zero_ok
# expect: accept
r0 = 5
r1 = 0
r0 /= r1
exit

# case: shift_too_big
# expect: reject
# message: invalid shift
r0 = 1
r0 <<= 64
exit

# case: stack_write_read
# expect: accept
r1 = 42
*(u64 *)(r10 - 8) = r1
r0 = *(u64 *)(r10 - 8)
exit

# case: stack_oob
# expect: reject
# message: stack
r1 = 42
*(u64 *)(r10 - 520) = r1
r0 = 0
exit

# case: stack_above_fp
# expect: reject
# message: stack
r1 = 42
*(u64 *)(r10 + 0) = r1
r0 = 0
exit

# case: stack_uninit_read_priv
# expect: accept
r0 = *(u64 *)(r10 - 8)
r0 = 0
exit

# case: misaligned_stack
# expect: reject
# message: misaligned stack access
r1 = 1
*(u64 *)(r10 - 12) = r1
r0 = 0
exit

# case: spill_fill_ptr
# expect: accept
*(u64 *)(r10 - 8) = r1
r1 = 0
r1 = *(u64 *)(r10 - 8)
r0 = *(u32 *)(r1 + 0)
r0 = 0
exit

# case: partial_fill_ptr
# expect: reject
# message: register fill
*(u64 *)(r10 - 8) = r1
r2 = *(u32 *)(r10 - 8)
r0 = 0
exit

# case: scalar_deref
# expect: reject
# message: invalid mem access 'scalar'
r1 = 100
r0 = *(u64 *)(r1 + 0)
exit

# case: ctx_ptr_modified
# expect: reject
# message: modified ctx
r1 += 4
r0 = *(u32 *)(r1 + 0)
exit

# case: ctx_len_read
# expect: accept
r0 = *(u32 *)(r1 + 0)
exit

# case: ctx_bad_off
# expect: reject
# message: invalid bpf_context access
r0 = *(u32 *)(r1 + 1000)
exit

# case: ptr_bitwise
# expect: reject
# message: R1 bitwise operator &= on pointer prohibited
r1 &= 7
r0 = 0
exit

# case: ptr32_arith
# expect: reject
# message: 32-bit pointer arithmetic
w1 += 4
r0 = 0
exit

# case: ptr_sub_ptr_priv
# expect: accept
r2 = r10
r2 -= r1
r0 = 0
exit

# case: branch_dead_code_const
# expect: accept
r0 = 0
r1 = 5
if r1 > 3 goto ok
r0 = *(u64 *)(r0 + 0)
ok:
exit

# case: branch_refines_then_use
# expect: accept
r0 = *(u32 *)(r1 + 0)
if r0 > 7 goto out
r0 = 1
out:
r0 = 0
exit

# case: unreachable_insn
# expect: reject
# message: unreachable insn
r0 = 0
exit
r0 = 1
exit

# case: infinite_loop
# expect: reject
# message: loop|infinite
r0 = 0
l:
r0 += 0
goto l

# case: bounded_loop
# expect: accept
r0 = 0
r1 = 0
l:
r0 += r1
r1 += 1
if r1 < 16 goto l
r0 = 0
exit

# case: unbounded_loop
# expect: reject
# message: loop
r6 = *(u32 *)(r1 + 0)
r1 = 0
l:
r1 += 1
if r1 != r6 goto l
r0 = 0
exit

# case: movsx_ok
# expect: accept
r1 = 0xff
r0 = (s8)r1
r0 += 1
exit

# case: bswap_ok
# expect: accept
r0 = 0x1234
r0 = bswap16 r0
r0 = be32 r0
r0 = le64 r0
r0 = 0
exit

# case: sdiv_ok
# expect: accept
r0 = -7
r0 s/= 2
r0 s%= 3
r0 = 0
exit

# case: jmp32_refine
# expect: accept
r0 = *(u32 *)(r1 + 0)
if w0 > 1 goto out
r0 = 0
out:
r0 = 0
exit
