# Multi-kernel verdicts (format: kernels.t) for the combined stack of a
# bpf-to-bpf call chain: with the JIT on, each frame is charged its depth
# rounded up to 16 bytes; before 6.8 to 32 bytes and at least 32
# (BG_KFEAT_STACK_ROUND16). Objects built by `bpfgate asm` (local calls).
# assembler: bpfgate
# prog-type: socket

# case: stack_round32_too_large
# main: 8 bytes (16, before: 32), deep: 496 bytes (496, before: 512).
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject combined stack size of 2 calls is 544
# profile: 5.10 reject combined stack size of 2 calls is 544
r1 = 0
*(u64 *)(r10 - 8) = r1
call deep
r0 = 0
exit
deep:
r1 = 0
*(u64 *)(r10 - 496) = r1
r0 = 0
exit

# case: stack_round32_old_ok
# main: 8 bytes (32 before), deep: 480 bytes: 512 before, 496 now.
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 accept
r1 = 0
*(u64 *)(r10 - 8) = r1
call deep
r0 = 0
exit
deep:
r1 = 0
*(u64 *)(r10 - 480) = r1
r0 = 0
exit
