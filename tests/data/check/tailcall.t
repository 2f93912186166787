# Tail calls from subprograms and the stack of the frames above them: the
# kernel refuses a subprogram that tail-calls when the caller frames' stack
# (each rounded up to 16 bytes under JIT: 248 counts as 256, 488 as 488)
# adds up to 256 bytes or more; the 512-byte combined limit uses the same
# rounding.
# prog-type: tc
# c: struct { __uint(type, BPF_MAP_TYPE_PROG_ARRAY); __uint(max_entries, 1); __uint(key_size, 4); __uint(value_size, 4); } jt SEC(".maps");
# c: static __attribute__((naked, used, noinline)) int sub_tail(void) { asm volatile("r2 = %[jt] ll\n r3 = 0\n call 12\n r0 = 0\n exit\n" :: [jt]"i"(&jt) : "memory"); }
# c: static __attribute__((naked, used, noinline)) int sub_plain(void) { asm volatile("r0 = 0\n exit\n" ::: "memory"); }
# c: __attribute__((noinline)) int gtail(struct __sk_buff *skb) { bpf_tail_call(skb, &jt, 0); return 0; }
# c: static __attribute__((naked, used, noinline)) int sub_mid(void) { asm volatile("r2 = 1\n *(u64 *)(r10 - 136) = r2\n call sub_tail\n r0 = 0\n exit\n" ::: "memory"); }

# case: tail_sub_caller_264
# expect: reject
# message: tail_calls are not allowed when call stack of previous frames is 272 bytes
r2 = 42
*(u64 *)(r10 - 264) = r2
call sub_tail
r0 = 0
exit

# case: tail_sub_caller_256
# expect: reject
# message: previous frames is 256 bytes.*tail_sub_caller_256 \(256\) calls sub_tail
r2 = 42
*(u64 *)(r10 - 256) = r2
call sub_tail
r0 = 0
exit

# case: tail_sub_caller_248
# expect: reject
# message: previous frames is 256 bytes
r2 = 42
*(u64 *)(r10 - 248) = r2
call sub_tail
r0 = 0
exit

# case: tail_sub_caller_240
# expect: accept
r2 = 42
*(u64 *)(r10 - 240) = r2
call sub_tail
r0 = 0
exit

# case: tail_sub_chain_128_136
# expect: reject
# message: previous frames is 272 bytes.*\(128\) -> sub_mid \(144\) calls sub_tail
r2 = 42
*(u64 *)(r10 - 128) = r2
call sub_mid
r0 = 0
exit

# case: plain_sub_caller_400
# expect: accept
r2 = 42
*(u64 *)(r10 - 400) = r2
call sub_plain
r0 = 0
exit

# case: plain_sub_caller_496
# expect: accept
r2 = 42
*(u64 *)(r10 - 496) = r2
call sub_plain
r0 = 0
exit

# case: plain_sub_caller_488
# expect: accept
r2 = 42
*(u64 *)(r10 - 488) = r2
call sub_plain
r0 = 0
exit

# case: combined_504_sub_mid
# expect: reject
# message: combined stack size of 2 calls is 656
r2 = 42
*(u64 *)(r10 - 504) = r2
call sub_mid
r0 = 0
exit

# case: global_tail_caller_256
# expect: reject
# message: previous frames is 256 bytes.*calls gtail
r2 = 42
*(u64 *)(r10 - 256) = r2
call gtail
r0 = 0
exit

# case: global_tail_caller_240
# expect: accept
r2 = 42
*(u64 *)(r10 - 240) = r2
call gtail
r0 = 0
exit
