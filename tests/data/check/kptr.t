# kptr fields of map values (`struct T __kptr *`): a load gives the object
# or NULL, RCU-protected (untrusted once an explicit RCU section ends);
# bpf_kptr_xchg needs a kptr field and returns the old object as a reference;
# a released object is passed at its start (offset 0).
# prog-type: tp_btf/task_newtask
# c: struct mval { struct bpf_cpumask __kptr *mask; u64 other; };
# c: struct bpf_cpumask full_btf_of_bpf_cpumask; /* else clang emits only a FWD: no kptr */
# c: extern struct bpf_cpumask *bpf_cpumask_create(void) __ksym;
# c: extern void bpf_cpumask_release(struct bpf_cpumask *cpumask) __ksym;
# c: extern u32 bpf_cpumask_first(const struct cpumask *cpumask) __ksym;
# c: extern void bpf_rcu_read_lock(void) __ksym;
# c: extern void bpf_rcu_read_unlock(void) __ksym;
# c: extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
# c: extern void bpf_task_release(struct task_struct *p) __ksym;
# map: masks array key=u32 value=struct_mval entries=1

# case: kptr_load_use
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[masks] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 0)
if r1 == 0 goto out
call bpf_cpumask_first
out:
r0 = 0
exit

# case: kptr_use_after_rcu_unlock
# expect: reject
# message: R1 must be a rcu pointer
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[masks] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
call bpf_rcu_read_lock
r7 = *(u64 *)(r6 + 0)
call bpf_rcu_read_unlock
if r7 == 0 goto out
r1 = r7
call bpf_cpumask_first
out:
r0 = 0
exit

# case: kptr_use_inside_rcu
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[masks] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
call bpf_rcu_read_lock
r7 = *(u64 *)(r6 + 0)
if r7 == 0 goto unlock
r1 = r7
call bpf_cpumask_first
unlock:
call bpf_rcu_read_unlock
out:
r0 = 0
exit

# case: kptr_xchg_old_released
# expect: accept
call bpf_cpumask_create
if r0 == 0 goto out
r6 = r0
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[masks] ll
call bpf_map_lookup_elem
if r0 != 0 goto have
r1 = r6
call bpf_cpumask_release
goto out
have:
r1 = r0
r2 = r6
call bpf_kptr_xchg
if r0 == 0 goto out
r1 = r0
call bpf_cpumask_release
out:
r0 = 0
exit

# case: kptr_xchg_old_leaked
# expect: reject
# message: Unreleased reference
call bpf_cpumask_create
if r0 == 0 goto out
r6 = r0
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[masks] ll
call bpf_map_lookup_elem
if r0 != 0 goto have
r1 = r6
call bpf_cpumask_release
goto out
have:
r1 = r0
r2 = r6
call bpf_kptr_xchg
out:
r0 = 0
exit

# case: kptr_xchg_not_a_kptr
# expect: reject
# message: R1 has no valid kptr
call bpf_cpumask_create
if r0 == 0 goto out
r6 = r0
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[masks] ll
call bpf_map_lookup_elem
if r0 != 0 goto have
r1 = r6
call bpf_cpumask_release
goto out
have:
r1 = r0
r1 += 8
r2 = r6
call bpf_kptr_xchg
if r0 == 0 goto out
r1 = r0
call bpf_cpumask_release
out:
r0 = 0
exit

# case: release_task_at_offset
# expect: reject
# message: R1 must have zero offset when passed to release func
r1 = *(u64 *)(r1 + 0)
call bpf_task_acquire
if r0 == 0 goto out
r1 = r0
r1 += 8
call bpf_task_release
out:
r0 = 0
exit

# case: release_task
# expect: accept
r1 = *(u64 *)(r1 + 0)
call bpf_task_acquire
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# btf_ld_kptr_type: a kptr to a struct the kernel frees after an RCU grace
# period (rcu_protected_types: task_struct, cgroup, bpf_cpumask,
# bpf_crypto_ctx; or a program-local type) loads as an RCU pointer only
# inside an RCU read section; a sleepable program (syscall) is outside one
# unless it took bpf_rcu_read_lock, and there the kptr is untrusted: a
# KF_RCU kfunc refuses it, reading through it is fine.
# case: kptr_load_sleepable
# section: syscall
# expect: reject
# message: R1 must be a rcu pointer
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[masks] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 0)
if r1 == 0 goto out
call bpf_cpumask_first
out:
r0 = 0
exit

# case: kptr_load_sleepable_in_rcu
# section: syscall
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[masks] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
call bpf_rcu_read_lock
r1 = *(u64 *)(r6 + 0)
if r1 == 0 goto unl
call bpf_cpumask_first
unl:
call bpf_rcu_read_unlock
out:
r0 = 0
exit

# case: kptr_load_sleepable_read
# section: syscall
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[masks] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 0)
if r1 == 0 goto out
r0 = *(u32 *)(r1 + 0)
out:
r0 = 0
exit
