# Packet pointers as helper arguments: only helpers whose prototype has
# pkt_access take one (map helpers, csum_diff, the socket lookups...); the
# others refuse it before checking its type ("helper access to the packet is
# not allowed"), whatever the bounds check. ARG_ANYTHING arguments are not
# checked. sock_ops lets no helper take one, cgroup/sockopt every helper.
# Which helper refuses where: measured (src/platform/helper_pkt.def).
# prog-type: tc
# map: h hash key=4 value=8 entries=4
# map: pea perf_event_array key=4 value=4 entries=4

# case: tc_load_bytes_into_pkt
# expect: reject
# message: helper access to the packet is not allowed
r6 = r1
r2 = *(u32 *)(r1 + 76)
r7 = *(u32 *)(r1 + 80)
r3 = r2
r2 += 8
if r2 > r7 goto out
r1 = r6
r2 = 0
r4 = 4
call bpf_skb_load_bytes
out:
r0 = 0
exit

# case: tc_load_bytes_into_stack
# expect: accept
r2 = 0
r3 = r10
r3 += -8
r4 = 4
call bpf_skb_load_bytes
r0 = 0
exit

# case: tc_csum_diff_from_pkt
# expect: accept
# csum_diff's prototype has pkt_access
r2 = *(u32 *)(r1 + 76)
r7 = *(u32 *)(r1 + 80)
r1 = r2
r2 += 8
if r2 > r7 goto out
r2 = 4
r3 = 0
r4 = 0
r5 = 0
call bpf_csum_diff
out:
r0 = 0
exit

# case: tc_map_lookup_pkt_key
# expect: accept
r2 = *(u32 *)(r1 + 76)
r7 = *(u32 *)(r1 + 80)
r3 = r2
r3 += 8
if r3 > r7 goto out
r1 = %[h] ll
call bpf_map_lookup_elem
out:
r0 = 0
exit

# case: tc_redirect_pkt_anything
# expect: accept
# an ARG_ANYTHING argument is not checked (privileged: no pointer leak)
r1 = *(u32 *)(r1 + 76)
r2 = 0
call bpf_redirect
r0 = 0
exit

# case: xdp_output_from_pkt
# expect: reject
# message: helper access to the packet is not allowed
# section: xdp
r6 = r1
r4 = *(u32 *)(r1 + 0)
r7 = *(u32 *)(r1 + 4)
r3 = r4
r3 += 8
if r3 > r7 goto out
r1 = r6
r2 = %[pea] ll
r3 = 0
r5 = 8
call bpf_perf_event_output
out:
r0 = 2
exit

# case: xdp_map_update_from_pkt
# expect: accept
# section: xdp
r2 = *(u32 *)(r1 + 0)
r7 = *(u32 *)(r1 + 4)
r3 = r2
r3 += 8
if r3 > r7 goto out
r3 = r2
r1 = %[h] ll
r4 = 0
call bpf_map_update_elem
out:
r0 = 2
exit

# case: sockops_map_lookup_pkt_key
# expect: reject
# message: helper access to the packet is not allowed
# section: sockops
r2 = *(u64 *)(r1 + 192)
r7 = *(u64 *)(r1 + 200)
r3 = r2
r3 += 4
if r3 > r7 goto out
r1 = %[h] ll
call bpf_map_lookup_elem
out:
r0 = 1
exit

# case: sockops_map_lookup_stack_key
# expect: accept
# section: sockops
r2 = 0
*(u32 *)(r10 - 4) = r2
r2 = r10
r2 += -4
r1 = %[h] ll
call bpf_map_lookup_elem
r0 = 1
exit

# case: sockopt_map_lookup_optval_key
# expect: accept
# section: cgroup/getsockopt
r2 = *(u64 *)(r1 + 8)
r7 = *(u64 *)(r1 + 16)
r3 = r2
r3 += 4
if r3 > r7 goto out
r1 = %[h] ll
call bpf_map_lookup_elem
out:
r0 = 1
exit
