# Cgroup kfuncs of kernel/bpf/helpers.c with their BTF_ID_FLAGS:
# bpf_task_get_cgroup1 (KF_ACQUIRE | KF_RCU | KF_RET_NULL: a referenced
# cgroup or NULL), the css_task iterator (next returns a task or NULL).
# prog-type: tp_btf/task_newtask
# c: extern struct cgroup *bpf_task_get_cgroup1(struct task_struct *task, int hierarchy_id) __ksym;
# c: extern void bpf_cgroup_release(struct cgroup *cgrp) __ksym;

# case: get_cgroup1_released
# expect: accept
r1 = *(u64 *)(r1 + 0)
r2 = 1
call bpf_task_get_cgroup1
if r0 == 0 goto out
r6 = *(u64 *)(r0 + 0)
r1 = r0
call bpf_cgroup_release
out:
r0 = 0
exit

# case: get_cgroup1_leaked
# expect: reject
# message: Unreleased reference
r1 = *(u64 *)(r1 + 0)
r2 = 1
call bpf_task_get_cgroup1
r0 = 0
exit

# case: get_cgroup1_not_null_checked
# expect: reject
# message: invalid mem access 'ptr_or_null_'
r1 = *(u64 *)(r1 + 0)
r2 = 1
call bpf_task_get_cgroup1
r6 = r0
r1 = *(u64 *)(r0 + 0)
r1 = r6
call bpf_cgroup_release
r0 = 0
exit
