# A flow dissector's __sk_buff->flow_keys (at 144) is the kernel's
# PTR_TO_FLOW_KEYS: struct bpf_flow_keys (56 bytes), moved by constants only
# (adjust_ptr_min_max_vals: "pointer arithmetic on flow_keys prohibited"
# for a variable offset), and no helper's memory argument (it is not among
# the kernel's mem_types).
# prog-type: flow_dissector

# case: flow_keys_constant_offset
# expect: accept
r7 = *(u64 *)(r1 + 144)
r7 += 8
r0 = *(u32 *)(r7 + 0)
r0 = 0
exit

# case: flow_keys_variable_offset
# expect: reject
# message: R7 pointer arithmetic on flow_keys prohibited
r7 = *(u64 *)(r1 + 144)
r8 = 8
r8 /= 1
r8 &= 8
r7 += r8
r0 = *(u64 *)(r7 + 0)
r0 = 0
exit

# case: flow_keys_past_end
# expect: reject
# message: invalid access to flow keys off=56 size=8
r7 = *(u64 *)(r1 + 144)
r0 = *(u64 *)(r7 + 56)
r0 = 0
exit

# case: flow_keys_as_helper_memory
# expect: reject
# message: R3 type=flow_keys expected=
r3 = *(u64 *)(r1 + 144)
r2 = 0
r4 = 4
call bpf_skb_load_bytes
r0 = 0
exit

# case: flow_keys_moved_past_end
# expect: reject
# message: invalid access to flow keys off=52 size=8
r7 = *(u64 *)(r1 + 144)
r7 += 48
r0 = *(u64 *)(r7 + 4)
r0 = 0
exit

# case: flow_keys_write_last_word
# expect: accept
r7 = *(u64 *)(r1 + 144)
r7 += 48
r2 = 1
*(u64 *)(r7 + 0) = r2
r0 = 0
exit
