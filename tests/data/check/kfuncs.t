# kfunc calls: which program types may call a kfunc, which kfuncs need a
# sleepable program and which a device-bound one (never the case here), as
# the running kernel answers (src/platform/kfunc_types.def, measured by
# test_platform_kernel --dump-kfunc-types), and the kfunc sets' filters by
# attach type (bpf_sock_destroy: iterators only, src/platform/helpers.c).
# prog-type: socket
# c: extern struct task_struct *bpf_task_from_pid(s32 pid) __ksym;
# c: extern void bpf_task_release(struct task_struct *p) __ksym;
# c: extern void bpf_rcu_read_lock(void) __ksym;
# c: extern void bpf_rcu_read_unlock(void) __ksym;
# c: extern int bpf_copy_from_user_str(void *dst, u32 dst__sz, const void *unsafe_ptr__ign, u64 flags) __ksym;
# c: extern int bpf_dynptr_from_xdp(struct xdp_md *x, u64 flags, struct bpf_dynptr *ptr__uninit) __ksym;
# c: extern int bpf_xdp_metadata_rx_timestamp(const struct xdp_md *ctx, u64 *timestamp) __ksym;
# c: extern int bpf_sock_destroy(struct sock_common *sk) __ksym;
# c: extern void __bpf_trap(void) __ksym;

# case: task_from_pid_in_kprobe
# section: kprobe
# expect: reject
# message: calling kernel function bpf_task_from_pid is not allowed
r1 = 1
call bpf_task_from_pid
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# case: task_from_pid_in_tracepoint
# section: tracepoint/syscalls/sys_enter_getpid
# expect: accept
r1 = 1
call bpf_task_from_pid
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# case: task_from_pid_in_socket_filter
# expect: reject
# message: calling kernel function bpf_task_from_pid is not allowed
r1 = 1
call bpf_task_from_pid
r0 = 0
exit

# case: rcu_lock_in_socket_filter
# expect: accept
call bpf_rcu_read_lock
call bpf_rcu_read_unlock
r0 = 0
exit

# case: dynptr_from_xdp_in_tc
# section: tc
# expect: reject
# message: calling kernel function bpf_dynptr_from_xdp is not allowed
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_xdp
r0 = 0
exit

# case: dynptr_from_xdp_in_xdp
# section: xdp
# expect: accept
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_xdp
r0 = 2
exit

# case: sleepable_kfunc_in_kprobe
# section: kprobe
# expect: reject
# message: program must be sleepable to call sleepable kfunc bpf_copy_from_user_str
r1 = r10
r1 += -16
r2 = 16
r3 = 0
r4 = 0
call bpf_copy_from_user_str
r0 = 0
exit

# case: sleepable_kfunc_in_syscall
# section: syscall
# expect: accept
r1 = r10
r1 += -16
r2 = 16
r3 = 0
r4 = 0
call bpf_copy_from_user_str
r0 = 0
exit

# case: sleepable_kfunc_in_uprobe_s
# section: uprobe.s
# expect: accept
r1 = r10
r1 += -16
r2 = 16
r3 = 0
r4 = 0
call bpf_copy_from_user_str
r0 = 0
exit

# case: xdp_metadata_kfunc_not_device_bound
# section: xdp
# expect: reject
# message: metadata kfuncs require device-bound program
r2 = r10
r2 += -8
call bpf_xdp_metadata_rx_timestamp
r0 = 2
exit

# case: sock_destroy_in_tcp_iterator
# section: iter/tcp
# expect: accept
r1 = *(u64 *)(r1 + 8)
if r1 == 0 goto out
call bpf_sock_destroy
out:
r0 = 0
exit

# case: sock_destroy_in_tp_btf
# section: tp_btf/tcp_destroy_sock
# expect: reject
# message: calling kernel function bpf_sock_destroy is not allowed
r1 = *(u64 *)(r1 + 0)
call bpf_sock_destroy
r0 = 0
exit

# case: bpf_trap_reachable
# expect: reject
# message: unexpected __bpf_trap\(\) due to uninitialized variable
r0 = 0
if r0 == 1 goto skip
call %[__bpf_trap]
skip:
r0 = 2
exit

# case: bpf_trap_dead_code
# expect: accept
r0 = 0
if r0 == 0 goto skip
call %[__bpf_trap]
skip:
r0 = 2
exit
