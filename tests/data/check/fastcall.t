# bpf_fastcall (6.12): the kernel inlines bpf_get_smp_processor_id on x86-64
# so that it keeps r1-r5, and removes the spill/fill pairs a compiler puts
# around the call (at the function's lowest stack slots) before it checks
# the combined stack depth; the function's depth becomes the top of the
# pattern area unless another instruction touched that area, a pattern
# surrounds a call the kernel does not inline, or a jump lands inside it
# (analysis/fastcall.c). Which program types get the inlined prototype is
# platform data (helpers.def: tracing, tc, xdp and lwt types; the others get
# bpf_base_func_proto's, which is not fastcall). Objects built by `bpfgate
# asm` (local calls).
# assembler: bpfgate
# prog-type: xdp

# main uses all 512 bytes; the subprogram's only slot is a fastcall pair.
# case: fastcall_pair_frees_stack
# expect: accept
# profile: 6.12 accept
# profile: 6.1 reject combined stack size
r1 = 42
*(u64 *)(r10 - 512) = r1
call sub
r0 = 0
exit
sub:
*(u64 *)(r10 - 8) = r1
call 8
r1 = *(u64 *)(r10 - 8)
r0 = 0
exit

# A socket filter's bpf_get_smp_processor_id is not inlined: 512 + 16 bytes.
# case: fastcall_socket_filter_not_inlined
# section: socket
# expect: reject
# message: combined stack size of 2 calls is 528
r1 = 42
*(u64 *)(r10 - 512) = r1
call sub
r0 = 0
exit
sub:
*(u64 *)(r10 - 8) = r1
call 8
r1 = *(u64 *)(r10 - 8)
r0 = 0
exit

# Another read of the pattern's slot: the pair stays, 512 + 16 bytes.
# case: fastcall_slot_read_elsewhere
# expect: reject
# message: combined stack size of 2 calls is 528
# profile: 6.12 reject combined stack size
r1 = 42
*(u64 *)(r10 - 512) = r1
call sub
r0 = 0
exit
sub:
*(u64 *)(r10 - 8) = r1
call 8
r1 = *(u64 *)(r10 - 8)
r0 = *(u64 *)(r10 - 8)
exit

# bpf_get_prandom_u32 is not inlined: its pattern keeps the stack.
# case: fastcall_call_not_inlined
# expect: reject
# message: combined stack size of 2 calls is 528
r1 = 42
*(u64 *)(r10 - 512) = r1
call sub
r0 = 0
exit
sub:
*(u64 *)(r10 - 8) = r1
call 7
r1 = *(u64 *)(r10 - 8)
r0 = 0
exit

# r0 is the call's result: no pair of it is a fastcall pattern.
# case: fastcall_clobbered_register
# expect: reject
# message: combined stack size of 2 calls is 528
r1 = 42
*(u64 *)(r10 - 512) = r1
call sub
r0 = 0
exit
sub:
r0 = 1
*(u64 *)(r10 - 8) = r0
call 8
r0 = *(u64 *)(r10 - 8)
r0 = 0
exit

# A jump lands on the fill: the pattern is not grown past it.
# case: fastcall_fill_is_jump_target
# expect: reject
# message: combined stack size of 2 calls is 528
r1 = 42
*(u64 *)(r10 - 512) = r1
call sub
r0 = 0
exit
sub:
if r1 == 0 goto fill
*(u64 *)(r10 - 8) = r1
call 8
fill:
r1 = *(u64 *)(r10 - 8)
r0 = 0
exit

# Two pairs nested around one call, the innermost at the lowest slot: depth 0.
# case: fastcall_two_pairs
# expect: accept
r1 = 42
*(u64 *)(r10 - 512) = r1
call sub
r0 = 0
exit
sub:
r2 = 1
*(u64 *)(r10 - 8) = r2
*(u64 *)(r10 - 16) = r1
call 8
r1 = *(u64 *)(r10 - 16)
r2 = *(u64 *)(r10 - 8)
r0 = r1
r0 += r2
exit

# The same pairs in the other order are no pattern (the pair next to the
# call must use the lowest slot): 512 + 16 bytes.
# case: fastcall_pairs_out_of_order
# expect: reject
# message: combined stack size of 2 calls is 528
r1 = 42
*(u64 *)(r10 - 512) = r1
call sub
r0 = 0
exit
sub:
r2 = 1
*(u64 *)(r10 - 16) = r1
*(u64 *)(r10 - 8) = r2
call 8
r2 = *(u64 *)(r10 - 8)
r1 = *(u64 *)(r10 - 16)
r0 = r1
r0 += r2
exit
