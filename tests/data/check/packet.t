# Direct packet access: bounds checks through copies and arithmetic, the zone.
# prog-type: xdp

# case: pkt_checked
# expect: accept
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 14
if r4 > r3 goto out
r0 = *(u8 *)(r2 + 13)
out:
r0 = 2
exit

# case: pkt_off_by_one
# expect: reject
# message: invalid access to packet
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 14
if r4 > r3 goto out
r0 = *(u8 *)(r2 + 14)
out:
r0 = 2
exit

# case: pkt_unchecked
# expect: reject
# message: invalid access to packet
r2 = *(u32 *)(r1 + 0)
r0 = *(u8 *)(r2 + 0)
r0 = 2
exit

# case: pkt_wrong_branch
# expect: reject
# message: invalid access to packet
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 14
if r4 <= r3 goto out
r0 = *(u8 *)(r2 + 0)
out:
r0 = 2
exit

# case: pkt_end_on_left
# expect: accept
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 8
if r3 < r4 goto out
r0 = *(u64 *)(r2 + 0)
out:
r0 = 2
exit

# case: pkt_copy_shares_range
# expect: accept
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r5 = r2
r4 = r2
r4 += 20
if r4 > r3 goto out
r5 += 10
r0 = *(u32 *)(r5 + 6)
out:
r0 = 2
exit

# case: pkt_var_offset_rechecked
# expect: accept
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 1
if r4 > r3 goto out
r5 = *(u8 *)(r2 + 0)
r5 &= 15
r2 += r5
r4 = r2
r4 += 4
if r4 > r3 goto out
r0 = *(u32 *)(r2 + 0)
out:
r0 = 2
exit

# case: pkt_var_offset_not_rechecked
# expect: reject
# message: invalid access to packet
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 16
if r4 > r3 goto out
r5 = *(u8 *)(r2 + 0)
r5 &= 15
r2 += r5
r0 = *(u8 *)(r2 + 0)
out:
r0 = 2
exit

# case: pkt_unbounded_var
# expect: reject
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 8
if r4 > r3 goto out
r5 = *(u64 *)(r2 + 0)
r2 += r5
r0 = 2
exit
out:
r0 = 2
exit

# case: pkt_end_arith
# expect: reject
# message: pkt_end
r3 = *(u32 *)(r1 + 4)
r3 += 1
r0 = 2
exit

# case: pkt_meta_checked
# expect: accept
r2 = *(u32 *)(r1 + 8)
r3 = *(u32 *)(r1 + 0)
r4 = r2
r4 += 4
if r4 > r3 goto out
r0 = *(u32 *)(r2 + 0)
out:
r0 = 2
exit

# case: pkt_meta_unchecked
# expect: reject
# message: packet
r2 = *(u32 *)(r1 + 8)
r0 = *(u32 *)(r2 + 0)
r0 = 2
exit

# case: pkt_write_xdp
# expect: accept
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 2
if r4 > r3 goto out
r5 = 7
*(u16 *)(r2 + 0) = r5
out:
r0 = 2
exit

# case: pkt_stale_after_adjust_head
# expect: reject
r6 = r1
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 14
if r4 > r3 goto out
r7 = r2
r1 = r6
r2 = 0
call bpf_xdp_adjust_head
r0 = *(u8 *)(r7 + 0)
out:
r0 = 2
exit

# case: pkt_reload_after_adjust_head
# expect: accept
r6 = r1
r2 = -4
call bpf_xdp_adjust_head
r2 = *(u32 *)(r6 + 0)
r3 = *(u32 *)(r6 + 4)
r4 = r2
r4 += 1
if r4 > r3 goto out
r0 = *(u8 *)(r2 + 0)
out:
r0 = 2
exit

# case: pkt_join_different_offsets_rechecked
# expect: accept
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 20
if r4 > r3 goto out
r5 = *(u8 *)(r2 + 0)
r6 = r2
if r5 == 1 goto vlan
r6 += 14
goto join
vlan:
r6 += 18
join:
r4 = r6
r4 += 2
if r4 > r3 goto out
r0 = *(u16 *)(r6 + 0)
out:
r0 = 2
exit

# case: pkt_ptr_compare_refines_copy
# expect: accept
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 34
r7 = r4
if r7 > r3 goto out
r0 = *(u32 *)(r2 + 30)
out:
r0 = 2
exit

# case: pkt_negative_off
# expect: reject
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 14
if r4 > r3 goto out
r0 = *(u8 *)(r2 - 1)
out:
r0 = 2
exit

# case: pkt_atomic_rejected
# expect: reject
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 8
if r4 > r3 goto out
r5 = 1
lock *(u64 *)(r2 + 0) += r5
out:
r0 = 2
exit


# case: ldsx_of_ctx_data_pointer
# section: xdp
# expect: reject
# message: invalid bpf_context access off=0 size=4
r0 = *(s32 *)(r1 + 0)
r0 = 2
exit

# case: ldsx_of_ctx_scalar_field
# section: tc
# expect: accept
r0 = *(s32 *)(r1 + 0)
r0 = 0
exit
