# Tracing, LSM and iterator programs judged by the kernels that can: the
# running 6.18 kernel refuses to load these program types (EPERM before
# verification), so `# expect:` (bpfgate's 6.18 verdict) is not checked by
# it; every case is checked against the Debian kernels booted under QEMU
# (`# profile: 6.12 ...` / `# profile: 7.2 ...`: `kload --kernel`).
# prog-type: lsm/socket_post_create
# c: extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
# c: extern void bpf_task_release(struct task_struct *p) __ksym;

# An LSM program's ctx is the hook's arguments as u64s, typed by the
# prototype of its bpf_lsm_<hook> stub: arg 0 of socket_post_create is a
# struct socket *, whose field sk (offset 24) is a pointer to read.
# case: lsm_arg_is_a_btf_pointer
# section: lsm/socket_post_create
# expect: accept
# profile: 6.12 accept
# profile: 7.2 accept
r2 = *(u64 *)(r1 + 0)
r0 = *(u64 *)(r2 + 24)
r0 = 0
exit

# The same load from a scalar argument (arg 1, int family) is refused.
# case: lsm_scalar_arg_is_no_pointer
# section: lsm/socket_post_create
# expect: reject
# message: R2 invalid mem access 'scalar'
# profile: 6.12 reject R2 invalid mem access 'scalar'
# profile: 7.2 reject R2 invalid mem access 'scalar'
r2 = *(u64 *)(r1 + 8)
r0 = *(u64 *)(r2 + 24)
r0 = 0
exit

# task_alloc's task is trusted: an RCU/trusted-args kfunc takes it.
# case: lsm_trusted_hook_arg_to_kfunc
# section: lsm/task_alloc
# expect: accept
# profile: 6.12 accept
# profile: 7.2 accept
r1 = *(u64 *)(r1 + 0)
call bpf_task_acquire
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# task_free's argument is not trusted (bpf_lsm.c untrusted_lsm_hooks).
# case: lsm_untrusted_hook_arg_to_kfunc
# section: lsm/task_free
# expect: reject
# message: R1 must be a rcu pointer
# profile: 6.12 reject R1 must be a rcu pointer
# profile: 7.2 reject R1 must be a rcu pointer
r1 = *(u64 *)(r1 + 0)
call bpf_task_acquire
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit
