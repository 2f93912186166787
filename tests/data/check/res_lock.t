# Resilient spin locks (bpf_res_spin_lock, 6.15): the kfunc may fail (r0 in
# [-4095,-1]) and then holds nothing; where it returns 0 the lock is held
# like a bpf_spin_lock (no function call, no exit), several may be held and
# are released innermost first by the same kind of kfunc (irq or not).
# Taking a held lock again is an AA deadlock. src/platform/kfunc_params.def
# (struct bpf_res_spin_lock), call.c res_lock_op.
# prog-type: tc
# map: rsmap array key=__u32 value=struct_rsval entries=1
# map: arr array key=4 value=8 entries=1
# c: struct rsval { struct bpf_res_spin_lock l; int v; };
# c: struct bpf_res_spin_lock glock_a SEC(".data.A");
# c: struct bpf_res_spin_lock glock_b SEC(".data.B");
# c: extern int bpf_res_spin_lock(struct bpf_res_spin_lock *lock) __ksym;
# c: extern void bpf_res_spin_unlock(struct bpf_res_spin_lock *lock) __ksym;
# c: extern int bpf_res_spin_lock_irqsave(struct bpf_res_spin_lock *lock, unsigned long *flags__irq_flag) __ksym;
# c: extern void bpf_res_spin_unlock_irqrestore(struct bpf_res_spin_lock *lock, unsigned long *flags__irq_flag) __ksym;

# case: rs_checked
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[rsmap] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
r1 = r0
call bpf_res_spin_lock
if w0 != 0 goto out
r1 = 5
*(u32 *)(r6 + 4) = r1
r1 = r6
call bpf_res_spin_unlock
out:
r0 = 0
exit

# case: rs_signed_check
# expect: reject
# message: bpf_res_spin_unlock without taking a lock
r1 = %[glock_a] ll
call bpf_res_spin_lock
if r0 s< 0 goto out
r1 = %[glock_a] ll
call bpf_res_spin_unlock
out:
r0 = 0
exit

# case: rs_unchecked_unlock
# expect: reject
# message: bpf_res_spin_unlock without taking a lock
r1 = %[glock_a] ll
call bpf_res_spin_lock
r1 = %[glock_a] ll
call bpf_res_spin_unlock
r0 = 0
exit

# case: rs_helper_while_held
# expect: reject
# message: function calls are not allowed while holding a lock
r1 = %[glock_a] ll
call bpf_res_spin_lock
if w0 != 0 goto out
call bpf_get_prandom_u32
r1 = %[glock_a] ll
call bpf_res_spin_unlock
out:
r0 = 0
exit

# case: rs_exit_held
# expect: reject
# message: BPF_EXIT instruction in main prog cannot be used inside bpf_spin_lock-ed region
r1 = %[glock_a] ll
call bpf_res_spin_lock
if w0 != 0 goto out
r0 = 0
exit
out:
r0 = 0
exit

# case: rs_two_locks
# expect: accept
r1 = %[glock_a] ll
call bpf_res_spin_lock
if w0 != 0 goto out
r1 = %[glock_b] ll
call bpf_res_spin_lock
if w0 != 0 goto unl_a
r1 = %[glock_b] ll
call bpf_res_spin_unlock
unl_a:
r1 = %[glock_a] ll
call bpf_res_spin_unlock
out:
r0 = 0
exit

# case: rs_out_of_order
# expect: reject
# message: bpf_res_spin_unlock cannot be out of order
r1 = %[glock_a] ll
call bpf_res_spin_lock
if w0 != 0 goto out
r1 = %[glock_b] ll
call bpf_res_spin_lock
if w0 != 0 goto unl_a
r1 = %[glock_a] ll
call bpf_res_spin_unlock
r1 = %[glock_b] ll
call bpf_res_spin_unlock
r0 = 0
exit
unl_a:
r1 = %[glock_a] ll
call bpf_res_spin_unlock
out:
r0 = 0
exit

# case: rs_aa
# expect: reject
# message: AA deadlock detected
r1 = %[glock_a] ll
call bpf_res_spin_lock
if w0 != 0 goto out
r1 = %[glock_a] ll
call bpf_res_spin_lock
r0 = 0
exit
out:
r0 = 0
exit

# case: rs_unlock_other
# expect: reject
# message: unlock of different lock
r1 = %[glock_a] ll
call bpf_res_spin_lock
if w0 != 0 goto out
r1 = %[glock_b] ll
call bpf_res_spin_unlock
out:
r0 = 0
exit

# case: rs_unlock_nothing
# expect: reject
# message: bpf_res_spin_unlock without taking a lock
r1 = %[glock_a] ll
call bpf_res_spin_unlock
r0 = 0
exit

# case: rs_irq_pair
# expect: accept
r1 = %[glock_a] ll
r2 = r10
r2 += -8
call bpf_res_spin_lock_irqsave
if w0 != 0 goto out
r1 = %[glock_a] ll
r2 = r10
r2 += -8
call bpf_res_spin_unlock_irqrestore
out:
r0 = 0
exit

# case: rs_irq_plain_unlock
# expect: reject
# message: unlock of different lock
r1 = %[glock_a] ll
r2 = r10
r2 += -8
call bpf_res_spin_lock_irqsave
if w0 != 0 goto out
r1 = %[glock_a] ll
call bpf_res_spin_unlock
out:
r0 = 0
exit

# case: rs_off_field
# expect: reject
# message: off 4 doesn't point to 'struct bpf_res_spin_lock' that is at 0
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[rsmap] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r1 += 4
call bpf_res_spin_lock
out:
r0 = 0
exit

# case: rs_stack
# expect: reject
# message: arg#0 doesn't point to map value or allocated object
r1 = r10
r1 += -8
call bpf_res_spin_lock
r0 = 0
exit

# case: rs_no_lock_in_map
# expect: reject
# message: map 'arr' has to have BTF in order to use bpf_res_spin_lock
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
call bpf_res_spin_lock
out:
r0 = 0
exit

# case: rs_two_lookups
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[rsmap] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
r2 = r10
r2 += -4
r1 = %[rsmap] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r7 = r0
r1 = r6
call bpf_res_spin_lock
if w0 != 0 goto out
r1 = r7
call bpf_res_spin_lock
if w0 != 0 goto unl6
r1 = r7
call bpf_res_spin_unlock
unl6:
r1 = r6
call bpf_res_spin_unlock
out:
r0 = 0
exit

# case: rs_signed_check_32
# expect: accept
r1 = %[glock_a] ll
call bpf_res_spin_lock
if w0 s< 0 goto out
r1 = %[glock_a] ll
call bpf_res_spin_unlock
out:
r0 = 0
exit

# case: rs_result_kept
# expect: accept
r1 = %[glock_a] ll
call bpf_res_spin_lock
r6 = r0
if w6 != 0 goto out
r1 = %[glock_a] ll
call bpf_res_spin_unlock
out:
r0 = r6
r0 &= 1
exit
