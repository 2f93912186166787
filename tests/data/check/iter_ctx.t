# The pointer fields of an iterator program's ctx (struct bpf_iter__TARGET)
# are typed by the target's ctx_arg_info (src/platform/iter_ctx.def), not
# all alike: task's task, cgroup's cgroup, bpf_map's map, tcp's sk_common,
# udp's udp_sk and kmem_cache's s are trusted (PTR_TRUSTED, NULL-able);
# task_file's task and file, task_vma's task and vma, bpf_prog, bpf_link,
# ksym, unix, netlink, ipv6_route, sockmap's and bpf_sk_storage_map's sk are
# the plain legacy pointer: a helper's BTF argument takes it, a KF_RCU or
# KF_TRUSTED_ARGS kfunc refuses it ("must be a rcu pointer"), and on 6.18
# a member walked from it is untrusted even where an allow-list names the
# member (task_struct group_leader, 1328 in the 6.18 kernel's task_struct).
# A field no ctx_arg_info names (meta) is trusted and never NULL.
# struct bpf_iter__task / __task_file / __task_vma / __cgroup / __bpf_map:
# meta at 0, task (cgroup, map) at 8; task_file's file at 24.
# prog-type: iter/task
# c: extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
# c: extern void bpf_task_release(struct task_struct *p) __ksym;
# c: extern struct cgroup *bpf_cgroup_acquire(struct cgroup *p) __ksym;
# c: extern void bpf_cgroup_release(struct cgroup *p) __ksym;
# c: extern s64 bpf_map_sum_elem_count(const struct bpf_map *map) __ksym;

# case: task_iter_task_to_rcu_kfunc
# section: iter/task
# expect: accept
# profile: 6.12 accept
# profile: 7.2 accept
r1 = *(u64 *)(r1 + 8)
if r1 == 0 goto out
call bpf_task_acquire
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# case: task_file_task_to_rcu_kfunc
# section: iter/task_file
# expect: reject
# message: R1 must be a rcu pointer
# profile: 6.12 reject must be a rcu pointer
# profile: 7.2 reject must be a rcu pointer
r1 = *(u64 *)(r1 + 8)
if r1 == 0 goto out
call bpf_task_acquire
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# case: task_vma_task_to_rcu_kfunc
# section: iter/task_vma
# expect: reject
# message: R1 must be a rcu pointer
# profile: 6.12 reject must be a rcu pointer
# profile: 7.2 reject must be a rcu pointer
r1 = *(u64 *)(r1 + 8)
if r1 == 0 goto out
call bpf_task_acquire
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# The plain task is still a helper's BTF argument.
# case: task_file_task_to_helper
# section: iter/task_file
# expect: accept
r1 = *(u64 *)(r1 + 8)
if r1 == 0 goto out
r2 = 0
*(u64 *)(r10 - 8) = r2
r2 = r10
r2 += -8
r3 = 8
r4 = 0
call bpf_get_task_stack
out:
r0 = 0
exit

# The task without its NULL check.
# case: task_file_task_null
# section: iter/task_file
# expect: reject
# message: NULL check missing|ptr_or_null
r1 = *(u64 *)(r1 + 8)
r0 = *(u32 *)(r1 + 1264)
r0 = 0
exit

# group_leader is on task_struct's RCU allow-list: from a trusted task it is
# an RCU pointer in a non-sleepable program, from a plain one untrusted.
# case: task_iter_walk_rcu
# section: iter/task
# expect: accept
r1 = *(u64 *)(r1 + 8)
if r1 == 0 goto out
r1 = *(u64 *)(r1 + 1328)
call bpf_task_acquire
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# case: task_file_walk_rcu
# section: iter/task_file
# expect: reject
# message: R1 must be a rcu pointer
r1 = *(u64 *)(r1 + 8)
if r1 == 0 goto out
r1 = *(u64 *)(r1 + 1328)
call bpf_task_acquire
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# case: cgroup_iter_to_rcu_kfunc
# section: iter/cgroup
# expect: accept
# profile: 6.12 accept
# profile: 7.2 accept
r1 = *(u64 *)(r1 + 8)
if r1 == 0 goto out
call bpf_cgroup_acquire
if r0 == 0 goto out
r1 = r0
call bpf_cgroup_release
out:
r0 = 0
exit

# case: bpf_map_iter_to_trusted_kfunc
# section: iter/bpf_map
# expect: accept
# profile: 6.12 accept
# profile: 7.2 accept
r1 = *(u64 *)(r1 + 8)
if r1 == 0 goto out
call bpf_map_sum_elem_count
out:
r0 = 0
exit

# meta is trusted and not NULL: its seq is read without a check.
# case: task_file_meta_not_null
# section: iter/task_file
# expect: accept
r1 = *(u64 *)(r1 + 0)
r0 = *(u64 *)(r1 + 0)
r0 = 0
exit

# The member walked from the plain task goes to a helper's BTF argument:
# 6.18 makes it untrusted (refused); before 6.4 it stays plain (taken).
# case: task_file_walk_to_helper
# section: iter/task_file
# expect: reject
# message: R1 type=untrusted_ptr_
r1 = *(u64 *)(r1 + 8)
if r1 == 0 goto out
r1 = *(u64 *)(r1 + 1328)
r2 = 0
*(u64 *)(r10 - 8) = r2
r2 = r10
r2 += -8
r3 = 8
r4 = 0
call bpf_get_task_stack
out:
r0 = 0
exit
