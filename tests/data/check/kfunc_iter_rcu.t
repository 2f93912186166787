# KF_RCU_PROTECTED iterators (bpf_iter_task_new, bpf_iter_css_new): the
# iterator is usable only inside an RCU read section. A program that cannot
# sleep is always in one; a sleepable one (syscall) must hold
# bpf_rcu_read_lock when it creates the iterator and until its last use
# (the kernel marks the iterator PTR_UNTRUSTED outside a section and at
# bpf_rcu_read_unlock: "expected an RCU CS when using ...").
# prog-type: syscall
# c: struct bpf_iter_task;
# c: extern int bpf_iter_task_new(struct bpf_iter_task *it, struct task_struct *task, unsigned int flags) __ksym;
# c: extern struct task_struct *bpf_iter_task_next(struct bpf_iter_task *it) __ksym;
# c: extern void bpf_iter_task_destroy(struct bpf_iter_task *it) __ksym;
# c: extern void bpf_rcu_read_lock(void) __ksym;
# c: extern void bpf_rcu_read_unlock(void) __ksym;
# c: extern int bpf_send_signal_task(struct task_struct *task, int sig, enum pid_type type, u64 value) __ksym;
# c: extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
# c: extern void bpf_task_release(struct task_struct *p) __ksym;

# case: task_iter_in_rcu_section
# expect: accept
call bpf_rcu_read_lock
r1 = r10
r1 += -24
r2 = 0
r3 = 0
call bpf_iter_task_new
r1 = r10
r1 += -24
call bpf_iter_task_next
r1 = r10
r1 += -24
call bpf_iter_task_destroy
call bpf_rcu_read_unlock
r0 = 0
exit

# case: task_iter_without_rcu_lock
# expect: reject
# message: expected an RCU CS when using bpf_iter_task_next
r1 = r10
r1 += -24
r2 = 0
r3 = 0
call bpf_iter_task_new
r1 = r10
r1 += -24
call bpf_iter_task_next
r1 = r10
r1 += -24
call bpf_iter_task_destroy
r0 = 0
exit

# case: task_iter_after_rcu_unlock
# expect: reject
# message: expected an RCU CS when using bpf_iter_task_next
call bpf_rcu_read_lock
r1 = r10
r1 += -24
r2 = 0
r3 = 0
call bpf_iter_task_new
call bpf_rcu_read_unlock
r1 = r10
r1 += -24
call bpf_iter_task_next
r1 = r10
r1 += -24
call bpf_iter_task_destroy
r0 = 0
exit

# case: task_iter_not_sleepable
# section: tc
# expect: accept
r1 = r10
r1 += -24
r2 = 0
r3 = 0
call bpf_iter_task_new
r1 = r10
r1 += -24
call bpf_iter_task_next
r1 = r10
r1 += -24
call bpf_iter_task_destroy
r0 = 0
exit

# case: task_iter_element_is_rcu
# section: tc
# expect: reject
# message: must be referenced or trusted
r1 = r10
r1 += -24
r2 = 0
r3 = 0
call bpf_iter_task_new
r1 = r10
r1 += -24
call bpf_iter_task_next
if r0 == 0 goto done
r1 = r0
r2 = 0
r3 = 0
r4 = 0
call bpf_send_signal_task
done:
r1 = r10
r1 += -24
call bpf_iter_task_destroy
r0 = 0
exit

# case: task_iter_element_acquired
# section: tc
# expect: accept
r1 = r10
r1 += -24
r2 = 0
r3 = 0
call bpf_iter_task_new
r1 = r10
r1 += -24
call bpf_iter_task_next
if r0 == 0 goto done
r1 = r0
call bpf_task_acquire
if r0 == 0 goto done
r1 = r0
call bpf_task_release
done:
r1 = r10
r1 += -24
call bpf_iter_task_destroy
r0 = 0
exit
