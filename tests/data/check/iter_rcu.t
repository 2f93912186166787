# The css_task iterator only in LSM, iterator and sleepable programs
# (check_css_task_iter_allowlist); RCU-protected iterators (KF_RCU_PROTECTED: bpf_iter_task_new,
# bpf_iter_css_new) in a sleepable program: made inside an RCU read section
# and used only while it lasts (bpf_rcu_read_unlock leaves them untrusted:
# "expected an RCU CS when using ..."). A non-sleepable program is always
# in one. syscall programs are sleepable: the running kernel judges them,
# 6.12 and 7.2 booted under QEMU too. In a program that cannot sleep the
# iterator's element is an RCU pointer: trusted-only kfuncs refuse it until
# it is acquired (the last three cases).
# prog-type: syscall
# c: extern int bpf_iter_task_new(struct bpf_iter_task *it, struct task_struct *task, unsigned int flags) __ksym;
# c: extern struct task_struct *bpf_iter_task_next(struct bpf_iter_task *it) __ksym;
# c: extern void bpf_iter_task_destroy(struct bpf_iter_task *it) __ksym;
# c: extern void bpf_rcu_read_lock(void) __ksym;
# c: extern void bpf_rcu_read_unlock(void) __ksym;
# c: extern struct cgroup *bpf_cgroup_from_id(__u64 cgid) __ksym;
# c: extern void bpf_cgroup_release(struct cgroup *cgrp) __ksym;
# c: extern int bpf_iter_css_task_new(struct bpf_iter_css_task *it, struct cgroup_subsys_state *css, unsigned int flags) __ksym;
# c: extern void bpf_iter_css_task_destroy(struct bpf_iter_css_task *it) __ksym;
# c: extern int bpf_send_signal_task(struct task_struct *task, int sig, enum pid_type type, u64 value) __ksym;
# c: extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
# c: extern void bpf_task_release(struct task_struct *p) __ksym;

# case: task_iter_inside_rcu
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
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

# case: task_iter_outside_rcu
# expect: reject
# message: requires RCU critical section protection|expected an RCU CS
# profile: 7.2 reject
# profile: 6.12 reject
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

# The section ends while the iterator lives: its next step is refused.
# case: task_iter_after_unlock
# expect: reject
# message: expected an RCU CS when using bpf_iter_task_next
# profile: 7.2 reject expected an RCU CS when using bpf_iter_task_next
# profile: 6.12 reject expected an RCU CS when using bpf_iter_task_next
call bpf_rcu_read_lock
r1 = r10
r1 += -24
r2 = 0
r3 = 0
call bpf_iter_task_new
call bpf_rcu_read_unlock
call bpf_rcu_read_lock
r1 = r10
r1 += -24
call bpf_iter_task_next
r1 = r10
r1 += -24
call bpf_iter_task_destroy
call bpf_rcu_read_unlock
r0 = 0
exit

# case: css_task_iter_sleepable
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 1
call bpf_cgroup_from_id
if r0 == 0 goto out
r6 = r0
r1 = r10
r1 += -8
r2 = r6
r3 = 1
call bpf_iter_css_task_new
r1 = r10
r1 += -8
call bpf_iter_css_task_destroy
r1 = r6
call bpf_cgroup_release
out:
r0 = 0
exit

# case: css_task_iter_tc
# section: tc
# expect: reject
# message: css_task_iter is only allowed in bpf_lsm, bpf_iter and sleepable progs
# profile: 7.2 reject css_task_iter is only allowed
# profile: 6.12 reject css_task_iter is only allowed
r1 = 1
call bpf_cgroup_from_id
if r0 == 0 goto out
r6 = r0
r1 = r10
r1 += -8
r2 = r6
r3 = 1
call bpf_iter_css_task_new
r1 = r10
r1 += -8
call bpf_iter_css_task_destroy
r1 = r6
call bpf_cgroup_release
out:
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
