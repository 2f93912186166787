# Program-type policy: helpers allowed, return codes, ctx permissions.
# prog-type: xdp

# case: xdp_ret_ok
# expect: accept
r0 = 2
exit

# case: helper_not_allowed_in_xdp
# expect: reject
# message: cannot use helper|unknown func
r2 = 0
r3 = r10
r3 += -8
r4 = 1
r5 = 0
call bpf_skb_store_bytes
r0 = 2
exit

# case: xdp_write_ctx
# expect: reject
# message: invalid bpf_context access
r2 = 0
*(u32 *)(r1 + 0) = r2
r0 = 2
exit

# case: cg_skb_bad_ret
# section: cgroup_skb/egress
# expect: reject
# message: R0
r0 = 4
exit

# case: cg_skb_ret_ok
# section: cgroup_skb/egress
# expect: accept
r0 = 1
exit

# case: tc_write_mark
# section: tc
# expect: accept
r2 = 5
*(u32 *)(r1 + 8) = r2
r0 = 0
exit

# case: tc_write_len
# section: tc
# expect: reject
# message: invalid bpf_context access
r2 = 5
*(u32 *)(r1 + 0) = r2
r0 = 0
exit

# case: kprobe_read_regs
# section: kprobe/do_sys_openat2
# expect: accept
r0 = *(u64 *)(r1 + 112)
r0 = 0
exit

# case: kprobe_write_regs
# section: kprobe/do_sys_openat2
# expect: reject
r2 = 0
*(u64 *)(r1 + 112) = r2
r0 = 0
exit

# case: ld_abs_in_socket
# section: socket
# expect: accept
r6 = r1
r0 = *(u8 *)skb[12]
r0 = 0
exit

# case: sk_lookup_release
# section: tc
# expect: accept
r6 = r1
r1 = 0
*(u64 *)(r10 - 8) = r1
*(u64 *)(r10 - 16) = r1
*(u64 *)(r10 - 24) = r1
*(u64 *)(r10 - 32) = r1
*(u64 *)(r10 - 40) = r1
r2 = r10
r2 += -40
r1 = r6
r3 = 36
r4 = -1
r5 = 0
call bpf_sk_lookup_tcp
if r0 == 0 goto out
r1 = r0
call bpf_sk_release
out:
r0 = 0
exit

# case: sk_lookup_leak
# section: tc
# expect: reject
# message: Unreleased reference
r6 = r1
r1 = 0
*(u64 *)(r10 - 8) = r1
*(u64 *)(r10 - 16) = r1
*(u64 *)(r10 - 24) = r1
*(u64 *)(r10 - 32) = r1
*(u64 *)(r10 - 40) = r1
r2 = r10
r2 += -40
r1 = r6
r3 = 36
r4 = -1
r5 = 0
call bpf_sk_lookup_tcp
r0 = 0
exit
