# Liveness of registers and stack slots: what no path reads again is
# forgotten before a state is stored (verify.c kill_dead), so states that
# differ only there join. A helper call reads the arguments of its
# prototype (cfg.c call_reads), not r1-r5. A stack slot (slive.c) read
# later, directly, through a spilled frame pointer, by a helper or by a
# callee (calls.t static_call_reads_below_its_pointer) stays. A slot only
# a helper's memory argument reads keeps its initialization and nothing
# else (a zero or a spilled scalar becomes misc bytes), unless a load, a
# 4-byte map key or a callee reads its value.
# prog-type: socket
# map: arr array key=4 value=8 entries=4
# map: h8 hash key=8 value=8 entries=4

# case: slive_dead_spill_joins
# expect: accept
# max-steps: 24
# One path spills the ctx pointer to fp-8, the other a scalar; fp-8 is
# overwritten before any read, so the slot is forgotten at the join and
# one state walks the diamonds below (22 steps; 38 when the two states,
# whose spills differ in region type, were kept apart).
r6 = *(u32 *)(r1 + 0)
if r6 > 5 goto a
*(u64 *)(r10 - 8) = r1
goto j
a:
r2 = 0
*(u64 *)(r10 - 8) = r2
j:
if r6 > 7 goto b
r6 += 1
b:
if r6 > 9 goto c
r6 += 1
c:
if r6 > 11 goto d
r6 += 1
d:
if r6 > 13 goto e
r6 += 1
e:
if r6 > 15 goto f
r6 += 1
f:
if r6 > 17 goto g
r6 += 1
g:
r2 = 0
*(u64 *)(r10 - 8) = r2
r0 = *(u64 *)(r10 - 8)
exit

# case: slive_read_through_spilled_fp
# expect: accept
# fp-16 holds 7 and is read only through the pointer spilled at fp-8:
# forgetting it at the join would make r0 unknown and the dereference of
# r0 on the other branch reachable.
r2 = r10
r2 += -16
*(u64 *)(r10 - 8) = r2
r3 = 7
*(u64 *)(r10 - 16) = r3
r6 = *(u32 *)(r1 + 0)
if r6 > 5 goto j
r6 = 1
j:
r4 = *(u64 *)(r10 - 8)
r0 = *(u64 *)(r4 + 0)
if r0 == 7 goto ok
r0 = *(u64 *)(r0 + 0)
ok:
r0 = 0
exit

# case: slive_helper_key_kept
# expect: accept
# The key spilled at fp-8 (constant 1) is read by the lookup after the
# join: an array lookup with a constant key in range cannot fail, so r0 is
# dereferenced without a NULL check.
r2 = 1
*(u32 *)(r10 - 8) = r2
r6 = *(u32 *)(r1 + 0)
if r6 > 5 goto j2
r6 = 1
j2:
r2 = r10
r2 += -8
r1 = %[arr] ll
call bpf_map_lookup_elem
r0 = *(u64 *)(r0 + 0)
r0 = 0
exit

# case: slive_no_arg_helper_reads_no_register
# expect: accept
# max-steps: 33
# r3 holds ctx on one path and 0 on the other and is dead:
# bpf_get_prandom_u32 takes no argument, so the two states join before it
# and the code after it is walked once (31 steps; 46 when every call
# counted as a read of r1-r5).
r6 = *(u32 *)(r1 + 0)
r3 = r1
if r6 > 5 goto a
r3 = 0
a:
call bpf_get_prandom_u32
r0 += 1
r0 += 1
r0 += 1
r0 += 1
r0 += 1
r0 += 1
r0 += 1
r0 += 1
r0 += 1
r0 += 1
r0 += 1
r0 += 1
if r6 > 7 goto b
r6 += 1
b:
if r6 > 9 goto c
r6 += 1
c:
if r6 > 11 goto d
r6 += 1
d:
if r6 > 13 goto e
r6 += 1
e:
if r6 > 15 goto f
r6 += 1
f:
if r6 > 17 goto g
r6 += 1
g:
r0 = 0
exit

# case: slive_key_bytes_join
# expect: accept
# max-steps: 23
# fp-8 holds 0 on one path and r6 on the other and is read only as an
# 8-byte hash key (its value does not matter, only that it is initialized):
# both become misc bytes and one state walks the diamonds (21 steps; 37
# when the zero and the spilled r6 kept two states apart).
r6 = *(u32 *)(r1 + 0)
r2 = 0
*(u64 *)(r10 - 8) = r2
if r6 > 5 goto j
*(u64 *)(r10 - 8) = r6
j:
if r6 > 7 goto b
r6 += 1
b:
if r6 > 9 goto c
r6 += 1
c:
if r6 > 11 goto d
r6 += 1
d:
if r6 > 13 goto e
r6 += 1
e:
if r6 > 15 goto f
r6 += 1
f:
r2 = r10
r2 += -8
r1 = %[h8] ll
call bpf_map_lookup_elem
r0 = 0
exit

# case: slive_key_then_load_keeps_value
# expect: accept
# fp-8 (0) is a hash key, then loaded: its value is read, so it stays 0
# across the join and the dereference below is never reached.
r6 = *(u32 *)(r1 + 0)
r2 = 0
*(u64 *)(r10 - 8) = r2
if r6 > 5 goto j2
r6 = 1
j2:
r2 = r10
r2 += -8
r1 = %[h8] ll
call bpf_map_lookup_elem
r1 = *(u64 *)(r10 - 8)
if r1 == 0 goto ok
r0 = *(u64 *)(r1 + 0)
ok:
r0 = 0
exit
