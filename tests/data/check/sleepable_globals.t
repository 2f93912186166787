# A global function that may sleep (it calls a helper or kfunc that may, or a
# function that does: check_cfg's might_sleep, merged along calls) is
# verified on its own as the program's kind; since 6.18 a call to it inside
# an RCU, preempt-disabled or IRQ-disabled section is refused at the call
# ("global functions that may sleep are not allowed in non-sleepable
# context"). One that cannot sleep may be called there. 6.12 refuses every
# global function call with preemption disabled ("global function calls are
# not allowed with preemption disabled") and accepts them in RCU sections.
# prog-type: syscall
# c: extern void bpf_rcu_read_lock(void) __ksym;
# c: extern void bpf_rcu_read_unlock(void) __ksym;
# c: extern void bpf_preempt_disable(void) __ksym;
# c: extern void bpf_preempt_enable(void) __ksym;
# c: extern int bpf_copy_from_user_str(void *dst, u32 dst__sz, const void *unsafe_ptr__ign, u64 flags) __ksym;
# c: __attribute__((noinline)) int g_plain(int i) { return i + 1; }
# c: __attribute__((noinline)) int g_sleep_helper(int i) { if (i) bpf_copy_from_user(&i, sizeof(i), 0); return i; }
# c: __attribute__((noinline)) int g_sleep_kfunc(int i) { if (i) bpf_copy_from_user_str(&i, sizeof(i), 0, 0); return g_plain(i); }
# c: __attribute__((noinline)) int g_indirect(int i) { if (!i) g_sleep_kfunc(i); return i; }

# case: sleep_helper_global_in_preempt
# expect: reject
# message: global functions that may sleep are not allowed in non-sleepable context.*g_sleep_helper\(\) may sleep, called in a preempt-disabled region
# profile: 6.12 reject global function calls are not allowed with preemption disabled
call bpf_preempt_disable
r1 = 1
call g_sleep_helper
call bpf_preempt_enable
r0 = 0
exit

# case: sleep_kfunc_global_in_rcu
# expect: reject
# message: global functions that may sleep are not allowed in non-sleepable context.*RCU region
# profile: 6.12 accept
call bpf_rcu_read_lock
r1 = 1
call g_sleep_kfunc
call bpf_rcu_read_unlock
r0 = 0
exit

# case: sleep_global_indirect_in_preempt
# expect: reject
# message: g_indirect\(\) may sleep
# profile: 6.12 reject global function calls are not allowed with preemption disabled
call bpf_preempt_disable
r1 = 1
call g_indirect
call bpf_preempt_enable
r0 = 0
exit

# case: sleep_global_outside_sections
# expect: accept
r1 = 1
call g_sleep_helper
call bpf_preempt_disable
call bpf_preempt_enable
r0 = 0
exit

# case: plain_global_in_preempt
# expect: accept
# profile: 6.12 reject global function calls are not allowed with preemption disabled
call bpf_preempt_disable
r1 = 1
call g_plain
call bpf_preempt_enable
r0 = 0
exit

# case: plain_global_in_preempt_tc
# section: tc
# expect: accept
# profile: 6.12 reject global function calls are not allowed with preemption disabled
call bpf_preempt_disable
r1 = 1
call g_plain
call bpf_preempt_enable
r0 = 0
exit
