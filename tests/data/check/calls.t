# bpf-to-bpf calls and callbacks (objects built by `bpfgate asm`: clang's
# inline assembler cannot express local calls).
# assembler: bpfgate
# prog-type: socket

# case: static_call_ret
# expect: accept
r1 = 5
call add_one
r0 &= 1
exit
add_one:
r0 = r1
r0 += 1
exit

# case: static_call_stack_ptr_arg
# expect: accept
r1 = 7
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
call read_it
r0 = 0
exit
read_it:
r0 = *(u64 *)(r1 + 0)
exit

# case: callee_uninit_r6
# expect: reject
# message: R6 !read_ok
r6 = 1
call f6
r0 = 0
exit
f6:
r0 = r6
exit

# case: caller_regs_preserved
# expect: accept
r6 = r10
call f0
r0 = *(u64 *)(r6 - 8)
r0 = 0
exit
f0:
r0 = 0
exit

# case: args_clobbered_after_call
# expect: reject
# message: R1 !read_ok
r1 = 1
call f1
r0 = r1
exit
f1:
r0 = 0
exit

# case: return_stack_pointer
# expect: reject
call fsp
r0 = *(u64 *)(r0 + 0)
r0 = 0
exit
fsp:
r0 = r10
r0 += -8
exit

# case: recursion
# expect: reject
call rec
r0 = 0
exit
rec:
call rec
r0 = 0
exit

# case: callee_writes_caller_stack
# expect: accept
r1 = r10
r1 += -8
call wr
r0 = *(u64 *)(r10 - 8)
r0 = 0
exit
wr:
r2 = 3
*(u64 *)(r1 + 0) = r2
r0 = 0
exit

# case: callee_oob_caller_stack
# expect: reject
r1 = r10
r1 += -8
call wr2
r0 = 0
exit
wr2:
r2 = 3
*(u64 *)(r1 + 8) = r2
r0 = 0
exit

# case: two_call_sites_context_sensitive
# expect: accept
r1 = 0
call pick
r6 = r0
r1 = 1
call pick
r0 += r6
r0 = 0
exit
pick:
r0 = r1
exit

# A subprogram proves a packet range and says so in its result: the kernel
# walks each return path on its own (r0 is branch-live at the callee's exits
# because the caller tests it), so the range holds where the result is 1.
# case: subprog_pkt_range_result
# section: tc
# expect: accept
r6 = *(u32 *)(r1 + 76)
r2 = *(u32 *)(r1 + 80)
r3 = r6
r3 += 8
call chk
if r0 == 0 goto out
r0 = *(u8 *)(r6 + 0)
out:
r0 = 0
exit
chk:
r0 = 0
if r3 > r2 goto bad
r0 = 1
bad:
exit

# case: subprog_pkt_range_result_wrong_side
# section: tc
# expect: reject
# message: invalid access to packet
r6 = *(u32 *)(r1 + 76)
r2 = *(u32 *)(r1 + 80)
r3 = r6
r3 += 8
call chk
if r0 != 0 goto out
r0 = *(u8 *)(r6 + 0)
out:
r0 = 0
exit
chk:
r0 = 0
if r3 > r2 goto bad
r0 = 1
bad:
exit

# case: static_call_reads_below_its_pointer
# expect: accept
# The callee reads fp-24 of the caller through fp-16 - 8 (below the
# pointer it got): the caller's slot stays live until the call (slive.c:
# a call that runs BPF code with a stack argument reads every slot), so
# it still holds 3 after the join before the call.
r2 = 3
*(u64 *)(r10 - 24) = r2
r6 = *(u32 *)(r1 + 0)
if r6 > 5 goto j
r6 = 1
j:
r1 = r10
r1 += -16
call below
if r0 == 3 goto ok
r1 = 0
r0 = *(u64 *)(r1 + 0)
ok:
r0 = 0
exit
below:
r0 = *(u64 *)(r1 - 8)
exit
