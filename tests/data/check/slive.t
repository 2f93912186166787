# Liveness of registers and stack slots: what no path reads again is
# forgotten before a state is stored (verify.c kill_dead), so states that
# differ only there join. A helper call reads the arguments of its
# prototype (cfg.c call_reads), not r1-r5. A stack slot (slive.c) read
# later, directly, through a spilled frame pointer, by a helper or by a
# callee (calls.t static_call_reads_below_its_pointer) stays.
# prog-type: socket
# map: arr array key=4 value=8 entries=4

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
