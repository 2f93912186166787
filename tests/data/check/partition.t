# Pointers the kernel keeps on each path, kept apart beyond K. A header
# pointer saved in one of two stack slots (IPv4 or IPv6: the packet on one
# path, NULL on the other; xdp_synproxy's and tcp_custom_syncookie's
# struct header_pointers), then a lookup loop unrolled 8 times whose copies
# spill their own key and all exit to one block: 16 states differing in the
# key's constant reach it. A join of the two paths' states would turn both
# slots into scalars; the kernel walks each path apart. Beyond K a state
# whose pointers (region types of the live registers and spills) no
# disjunct holds opens a new one (up to 2K), and beyond 2K it prefers a
# disjunct with the same pointers.
# prog-type: xdp
# map: ports array key=4 value=2 entries=8

# case: hdr_ptr_after_unrolled_lookups
# expect: accept
r6 = *(u32 *)(r1 + 0)
r7 = *(u32 *)(r1 + 4)
r1 = r6
r1 += 40
if r1 > r7 goto out
r5 = *(u8 *)(r6 + 0)
r0 = 0
if r5 == 1 goto v6
*(u64 *)(r10 - 16) = r6
*(u64 *)(r10 - 24) = r0
goto ports
v6:
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 24) = r6
ports:
r1 = 0
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
r1 = 1
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
r1 = 2
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
r1 = 3
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
r1 = 4
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
r1 = 5
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
r1 = 6
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
r1 = 7
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
goto out
hit:
r1 = *(u64 *)(r10 - 16)
if r1 == 0 goto tryv6
r0 = *(u8 *)(r1 + 39)
exit
tryv6:
r1 = *(u64 *)(r10 - 24)
if r1 == 0 goto out
r0 = *(u8 *)(r1 + 39)
exit
out:
r0 = 2
exit

# case: hdr_ptr_after_unrolled_lookups_oob
# expect: reject
# message: invalid access to packet
r6 = *(u32 *)(r1 + 0)
r7 = *(u32 *)(r1 + 4)
r1 = r6
r1 += 40
if r1 > r7 goto out
r5 = *(u8 *)(r6 + 0)
r0 = 0
if r5 == 1 goto v6
*(u64 *)(r10 - 16) = r6
*(u64 *)(r10 - 24) = r0
goto ports
v6:
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 24) = r6
ports:
r1 = 0
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
r1 = 1
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
r1 = 2
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
r1 = 3
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
r1 = 4
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
r1 = 5
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
r1 = 6
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
r1 = 7
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[ports] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 0)
if r1 == 0 goto out
if r1 == 443 goto hit
goto out
hit:
r1 = *(u64 *)(r10 - 16)
if r1 == 0 goto tryv6
r0 = *(u8 *)(r1 + 40)
exit
tryv6:
r1 = *(u64 *)(r10 - 24)
if r1 == 0 goto out
r0 = *(u8 *)(r1 + 40)
exit
out:
r0 = 2
exit
