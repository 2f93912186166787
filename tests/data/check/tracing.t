# Tracing, LSM and iterator programs judged by the kernels that can: the
# running 6.18 kernel refuses to load these program types (EPERM before
# verification), so `# expect:` (bpfgate's 6.18 verdict) is not checked by
# it; every case is checked against the Debian kernels booted under QEMU
# (`# profile: 6.12 ...` / `# profile: 7.2 ...`: `kload --kernel`).
# prog-type: lsm/socket_post_create
# c: extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
# c: extern void bpf_task_release(struct task_struct *p) __ksym;
# c: extern struct bpf_key *bpf_lookup_system_key(u64 id) __ksym;
# c: extern void bpf_key_put(struct bpf_key *bkey) __ksym;

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

# socket->sk is walked as trusted-or-NULL (verifier.c
# BTF_TYPE_SAFE_TRUSTED_OR_NULL): its fields need a NULL check first.
# case: lsm_socket_sk_needs_null_check
# section: lsm/socket_post_create
# expect: reject
# message: NULL check missing
# profile: 6.12 reject NULL check missing
# profile: 7.2 reject NULL check missing
r2 = *(u64 *)(r1 + 0)
r2 = *(u64 *)(r2 + 24)
r0 = *(u32 *)(r2 + 0)
r0 = 0
exit

# case: lsm_socket_sk_checked
# section: lsm/socket_post_create
# expect: accept
# profile: 6.12 accept
# profile: 7.2 accept
r2 = *(u64 *)(r1 + 0)
r2 = *(u64 *)(r2 + 24)
if r2 == 0 goto out
r0 = *(u32 *)(r2 + 0)
out:
r0 = 0
exit

# Return values: an int hook's program returns 0 or -errno from 6.12 on
# (bpf_lsm_get_retval_range); 6.1 checks nothing.
# case: lsm_int_hook_returns_positive
# section: lsm/file_mprotect
# expect: reject
# message: should have been in \[-4095, 0\]
# profile: 6.1 accept
# profile: 6.12 reject should have been in \[-4095, 0\]
# profile: 7.2 reject should have been in \[-4095, 0\]
r0 = 1
exit

# A bool hook's returns 0 or 1.
# case: lsm_bool_hook_returns_one
# section: lsm/audit_rule_known
# expect: accept
# profile: 6.12 accept
# profile: 7.2 accept
r0 = 1
exit

# A void hook's program may return anything, even leave r0 unset (6.1 on).
# case: lsm_void_hook_any_return
# section: lsm/file_free_security
# expect: accept
# profile: 6.1 accept
# profile: 6.12 accept
# profile: 7.2 accept
exit

# The hook's own return value (the ctx slot after the arguments: file_mprotect
# has 3) reads as the range the program must return (6.12: is_retval).
# case: lsm_retval_arg_in_range
# section: lsm/file_mprotect
# expect: accept
# profile: 6.12 accept
# profile: 7.2 accept
r0 = *(u64 *)(r1 + 24)
w0 = w0
exit

# lsm_cgroup: returns 0 or 1 (void hooks: 1) and may set socket options on
# the hooks where the socket is locked or not yet visible.
# case: lsm_cgroup_returns_errno
# section: lsm_cgroup/socket_bind
# expect: reject
# message: should have been in \[0, 1\]
# profile: 6.12 reject should have been in \[0, 1\]
# profile: 7.2 reject should have been in \[0, 1\]
r0 = -1
exit

# case: lsm_cgroup_void_hook_returns_zero
# section: lsm_cgroup/inet_csk_clone
# expect: reject
# message: should have been in \[1, 1\]
# profile: 6.12 reject should have been in \[1, 1\]
# profile: 7.2 reject should have been in \[1, 1\]
r0 = 0
exit

# case: lsm_cgroup_setsockopt
# section: lsm_cgroup/socket_post_create
# expect: accept
# profile: 6.12 accept
# profile: 7.2 accept
r1 = *(u64 *)(r1 + 0)
r1 = *(u64 *)(r1 + 24)
if r1 == 0 goto out
r2 = 1
*(u32 *)(r10 - 4) = r2
r3 = 7
r4 = r10
r4 += -4
r5 = 4
call bpf_setsockopt
out:
r0 = 1
exit

# case: lsm_cgroup_setsockopt_other_hook
# section: lsm_cgroup/socket_bind
# expect: reject
# message: cannot use helper bpf_setsockopt
# profile: 6.12 reject cannot use helper bpf_setsockopt
# profile: 7.2 reject cannot use helper bpf_setsockopt
r1 = *(u64 *)(r1 + 0)
r1 = *(u64 *)(r1 + 24)
if r1 == 0 goto out
r2 = 1
*(u32 *)(r10 - 4) = r2
r3 = 7
r4 = r10
r4 += -4
r5 = 4
call bpf_setsockopt
out:
r0 = 1
exit

# Hooks no BPF program may attach to (bpf_lsm_disabled_hooks, 6.1 on).
# case: lsm_disabled_hook
# section: lsm/getprocattr
# expect: reject
# message: disabled hook
# profile: 5.10 accept
# profile: 6.1 reject disabled hook
# profile: 6.12 reject disabled hook
# profile: 7.2 reject disabled hook
r0 = 0
exit

# A sleepable fentry program needs an error-injectable target: syscalls are
# refused by 6.1 and 6.12 (and by the running 6.18, which has no
# CONFIG_FUNCTION_ERROR_INJECTION), taken by Debian's 7.2.
# case: sleepable_fentry_on_syscall
# section: fentry.s/__x64_sys_getpgid
# expect: reject
# message: is not sleepable
# profile: 6.1 reject is not sleepable
# profile: 6.12 reject is not sleepable
# profile: 7.2 accept
r0 = 0
exit

# bpf_lookup_system_key's key may be NULL and must be put.
# case: key_put_unchecked
# section: lsm.s/bpf
# expect: reject
# message: NULL
# profile: 6.12 reject NULL
# profile: 7.2 reject NULL
r1 = 1
call bpf_lookup_system_key
r1 = r0
call bpf_key_put
r0 = 0
exit

# case: key_acquire_release
# section: lsm.s/bpf
# expect: accept
# profile: 6.1 accept
# profile: 6.12 accept
# profile: 7.2 accept
r1 = 1
call bpf_lookup_system_key
if r0 == 0 goto out
r1 = r0
call bpf_key_put
out:
r0 = 0
exit

# case: key_leaked
# section: lsm.s/bpf
# expect: reject
# message: Unreleased reference
# profile: 6.1 reject Unreleased reference
# profile: 6.12 reject Unreleased reference
# profile: 7.2 reject Unreleased reference
r1 = 1
call bpf_lookup_system_key
r0 = 0
exit
