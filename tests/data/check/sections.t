# Critical sections opened by kfuncs: bpf_rcu_read_lock/unlock,
# bpf_preempt_disable/enable, bpf_local_irq_save/restore. Preemption and irq
# sections nest by count, RCU sections do not nest; closing one that is not
# open, exiting the program with one open, a tail call, a sleepable helper or
# kfunc, or bpf_throw inside one is refused.
# prog-type: tc
# map: jmp prog_array key=4 value=4 entries=2
# c: extern void bpf_rcu_read_lock(void) __ksym;
# c: extern void bpf_rcu_read_unlock(void) __ksym;
# c: extern void bpf_preempt_disable(void) __ksym;
# c: extern void bpf_preempt_enable(void) __ksym;
# c: extern void bpf_local_irq_save(unsigned long *flags__irq_flag) __ksym;
# c: extern void bpf_local_irq_restore(unsigned long *flags__irq_flag) __ksym;
# c: extern int bpf_copy_from_user_str(void *dst, u32 dst__sz, const void *unsafe_ptr__ign, u64 flags) __ksym;

# case: preempt_balanced
# expect: accept
call bpf_preempt_disable
call bpf_preempt_disable
call bpf_preempt_enable
call bpf_preempt_enable
r0 = 0
exit

# case: preempt_enable_missing
# expect: reject
# message: BPF_EXIT instruction in main prog cannot be used inside bpf_preempt_disable-ed region
call bpf_preempt_disable
r0 = 0
exit

# case: preempt_nested_one_missing
# expect: reject
# message: bpf_preempt_disable-ed region
call bpf_preempt_disable
call bpf_preempt_disable
call bpf_preempt_enable
r0 = 0
exit

# case: preempt_unmatched_enable
# expect: reject
# message: unmatched attempt to enable preemption \(kernel function bpf_preempt_enable\)
call bpf_preempt_enable
r0 = 0
exit

# case: preempt_on_one_path
# expect: accept
r6 = *(u32 *)(r1 + 0)
if r6 > 5 goto skip
call bpf_preempt_disable
call bpf_preempt_enable
skip:
r0 = 0
exit

# case: preempt_disable_on_one_path_only
# expect: reject
# message: bpf_preempt_disable-ed region
r6 = *(u32 *)(r1 + 0)
if r6 > 5 goto skip
call bpf_preempt_disable
skip:
r0 = 0
exit

# case: rcu_balanced
# expect: accept
call bpf_rcu_read_lock
call bpf_rcu_read_unlock
r0 = 0
exit

# case: rcu_unlock_missing
# expect: reject
# message: BPF_EXIT instruction in main prog cannot be used inside bpf_rcu_read_lock-ed region
call bpf_rcu_read_lock
r0 = 0
exit

# case: rcu_unmatched_unlock
# expect: reject
# message: unmatched rcu read unlock \(kernel function bpf_rcu_read_unlock\)
call bpf_rcu_read_unlock
r0 = 0
exit

# case: tail_call_in_rcu
# expect: reject
# message: tail_call cannot be used inside bpf_rcu_read_lock-ed region
r6 = r1
call bpf_rcu_read_lock
r1 = r6
r2 = %[jmp] ll
r3 = 0
call bpf_tail_call
call bpf_rcu_read_unlock
r0 = 0
exit

# case: tail_call_after_rcu
# expect: accept
r6 = r1
call bpf_rcu_read_lock
call bpf_rcu_read_unlock
r1 = r6
r2 = %[jmp] ll
r3 = 0
call bpf_tail_call
r0 = 0
exit

# case: irq_balanced
# expect: accept
r1 = r10
r1 += -8
call bpf_local_irq_save
r1 = r10
r1 += -8
call bpf_local_irq_restore
r0 = 0
exit

# case: irq_restore_missing
# expect: reject
# message: bpf_local_irq_save-ed region
r1 = r10
r1 += -8
call bpf_local_irq_save
r0 = 0
exit

# case: sleepable_kfunc_in_preempt
# section: syscall
# expect: reject
# message: kernel func bpf_copy_from_user_str is sleepable within non-preemptible region
call bpf_preempt_disable
r1 = r10
r1 += -16
r2 = 16
r3 = 0
r4 = 0
call bpf_copy_from_user_str
call bpf_preempt_enable
r0 = 0
exit

# case: sleepable_kfunc_in_rcu
# section: syscall
# expect: reject
# message: kernel func bpf_copy_from_user_str is sleepable within rcu_read_lock region
call bpf_rcu_read_lock
r1 = r10
r1 += -16
r2 = 16
r3 = 0
r4 = 0
call bpf_copy_from_user_str
call bpf_rcu_read_unlock
r0 = 0
exit

# case: sleepable_helper_in_rcu
# section: syscall
# expect: reject
# message: sleepable helper bpf_copy_from_user#148 in rcu_read_lock region
call bpf_rcu_read_lock
r1 = r10
r1 += -16
r2 = 16
r3 = 0
call bpf_copy_from_user
call bpf_rcu_read_unlock
r0 = 0
exit

# case: sleepable_helper_after_rcu
# section: syscall
# expect: accept
call bpf_rcu_read_lock
call bpf_rcu_read_unlock
r1 = r10
r1 += -16
r2 = 16
r3 = 0
call bpf_copy_from_user
r0 = 0
exit

# case: rcu_nested
# expect: reject
# message: nested rcu read lock \(kernel function bpf_rcu_read_lock\)
call bpf_rcu_read_lock
call bpf_rcu_read_lock
call bpf_rcu_read_unlock
call bpf_rcu_read_unlock
r0 = 0
exit
