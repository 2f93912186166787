# Load-acquire and store-release (BPF_ATOMIC with BPF_LOAD_ACQ / BPF_STORE_REL,
# 6.15): a load or a store that is aligned like every atomic, and not through
# the ctx, a packet, the flow keys or a socket (the kernel's
# atomic_ptr_type_ok, checked after the access itself). clang-19 does not
# emit them: built by `bpfgate asm`.
# assembler: bpfgate
# prog-type: tc

# case: acq_stack_u64
# expect: accept
r1 = 7
*(u64 *)(r10 - 8) = r1
r0 = load_acquire((u64 *)(r10 - 8))
r0 &= 1
exit

# case: rel_stack_u32
# expect: accept
r1 = 7
store_release((u32 *)(r10 - 8), w1)
r0 = *(u32 *)(r10 - 8)
r0 &= 1
exit

# case: acq_stack_uninit
# expect: accept
r0 = load_acquire((u64 *)(r10 - 8))
r0 = 0
exit

# case: acq_stack_misaligned
# expect: reject
# message: misaligned stack access
r1 = 7
*(u64 *)(r10 - 8) = r1
*(u64 *)(r10 - 16) = r1
w0 = load_acquire((u32 *)(r10 - 10))
r0 = 0
exit

# case: acq_ctx
# expect: reject
# message: BPF_ATOMIC loads from R1 ctx is not allowed
w0 = load_acquire((u32 *)(r1 + 0))
r0 = 0
exit

# case: rel_ctx
# expect: reject
# message: BPF_ATOMIC stores into R1 ctx is not allowed
r2 = 1
store_release((u32 *)(r1 + 8), w2)
r0 = 0
exit

# case: acq_pkt
# expect: reject
# message: BPF_ATOMIC loads from R2 pkt is not allowed
r2 = *(u32 *)(r1 + 76)
r3 = *(u32 *)(r1 + 80)
r4 = r2
r4 += 8
if r4 > r3 goto out
w0 = load_acquire((u32 *)(r2 + 0))
out:
r0 = 0
exit

# case: rel_pkt
# expect: reject
# message: misaligned packet access off 2\+0\+0\+0 size 4
r2 = *(u32 *)(r1 + 76)
r3 = *(u32 *)(r1 + 80)
r4 = r2
r4 += 8
if r4 > r3 goto out
r5 = 0
store_release((u32 *)(r2 + 0), w5)
out:
r0 = 0
exit

# case: acq_u8_u16_stack
# expect: accept
r1 = 7
*(u64 *)(r10 - 8) = r1
w0 = load_acquire((u8 *)(r10 - 8))
w2 = load_acquire((u16 *)(r10 - 6))
r0 += r2
r0 &= 1
exit

# case: rel_pkt_aligned
# expect: reject
# message: BPF_ATOMIC stores into R2 pkt is not allowed
r2 = *(u32 *)(r1 + 76)
r3 = *(u32 *)(r1 + 80)
r2 += 2
r4 = r2
r4 += 8
if r4 > r3 goto out
r5 = 0
store_release((u32 *)(r2 + 0), w5)
out:
r0 = 0
exit

# case: acq_fullsock
# expect: reject
# message: BPF_ATOMIC loads from R1 sock is not allowed
r1 = *(u64 *)(r1 + 168)
if r1 == 0 goto out
call 95
if r0 == 0 goto out
r1 = r0
w0 = load_acquire((u32 *)(r1 + 4))
out:
r0 = 0
exit
