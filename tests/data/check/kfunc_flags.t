# kfuncs of 6.18's vmlinux that kfuncs.def listed only from session 8
# (scripts/gen_kfunc_flags.py, scripts/data/kfunc-flags-6.12.txt; kfuncs
# added after 6.12 from the public kernel tree): their KF_* flags decide the
# verdict. bpf_task_from_vpid and bpf_xdp_get_xfrm_state acquire a reference
# that may be NULL (KF_ACQUIRE | KF_RET_NULL), bpf_send_signal_task takes a
# trusted task (KF_TRUSTED_ARGS), bpf_get_kmem_cache returns a plain pointer
# (no KF_RET_NULL: reads need no NULL check), the kmem_cache iterator is
# sleepable, the xfrm kfuncs are registered for XDP only. 6.12 registers the
# generic set (task kfuncs) for the cgroup hook without sock_ops (6.15 added
# it): src/platform/kfunc_kver.def from the 6.12 source.
# prog-type: tc
# c: extern struct task_struct *bpf_task_from_vpid(s32 vpid) __ksym;
# c: extern void bpf_task_release(struct task_struct *p) __ksym;
# c: extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
# c: extern int bpf_send_signal_task(struct task_struct *task, int sig, enum pid_type type, u64 value) __ksym;
# c: extern struct xfrm_state *bpf_xdp_get_xfrm_state(struct xdp_md *ctx, struct bpf_xfrm_state_opts *opts, u32 opts__sz) __ksym;
# c: extern void bpf_xdp_xfrm_state_release(struct xfrm_state *x) __ksym;
# c: extern struct kmem_cache *bpf_get_kmem_cache(u64 addr) __ksym;
# c: extern int bpf_iter_kmem_cache_new(struct bpf_iter_kmem_cache *it) __ksym;
# c: extern struct kmem_cache *bpf_iter_kmem_cache_next(struct bpf_iter_kmem_cache *it) __ksym;
# c: extern void bpf_iter_kmem_cache_destroy(struct bpf_iter_kmem_cache *it) __ksym;

# case: task_from_vpid_released
# expect: accept
r1 = 1
call bpf_task_from_vpid
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# case: task_from_vpid_not_released
# expect: reject
# message: Unreleased reference
r1 = 1
call bpf_task_from_vpid
if r0 == 0 goto out
r1 = *(u32 *)(r0 + 0)
out:
r0 = 0
exit

# case: task_from_vpid_read_unchecked
# expect: reject
# message: invalid mem access
r1 = 1
call bpf_task_from_vpid
r6 = r0
r1 = *(u32 *)(r0 + 0)
r1 = r6
call bpf_task_release
r0 = 0
exit

# case: send_signal_task_referenced
# expect: accept
r1 = 1
call bpf_task_from_vpid
if r0 == 0 goto out
r6 = r0
r1 = r0
r2 = 0
r3 = 0
r4 = 0
call bpf_send_signal_task
r1 = r6
call bpf_task_release
out:
r0 = 0
exit

# case: send_signal_task_maybe_null
# expect: reject
# message: NULL
r1 = 1
call bpf_task_from_vpid
r6 = r0
r1 = r0
r2 = 0
r3 = 0
r4 = 0
call bpf_send_signal_task
if r6 == 0 goto out
r1 = r6
call bpf_task_release
out:
r0 = 0
exit

# case: xfrm_state_released
# section: xdp
# expect: accept
r2 = 0
*(u64 *)(r10 - 40) = r2
*(u64 *)(r10 - 32) = r2
*(u64 *)(r10 - 24) = r2
*(u64 *)(r10 - 16) = r2
*(u64 *)(r10 - 8) = r2
r2 = r10
r2 += -40
r3 = 36
call bpf_xdp_get_xfrm_state
if r0 == 0 goto out
r1 = r0
call bpf_xdp_xfrm_state_release
out:
r0 = 2
exit

# case: xfrm_state_not_released
# section: xdp
# expect: reject
# message: Unreleased reference
r2 = 0
*(u64 *)(r10 - 40) = r2
*(u64 *)(r10 - 32) = r2
*(u64 *)(r10 - 24) = r2
*(u64 *)(r10 - 16) = r2
*(u64 *)(r10 - 8) = r2
r2 = r10
r2 += -40
r3 = 36
call bpf_xdp_get_xfrm_state
r0 = 2
exit

# case: xfrm_state_in_tc
# expect: reject
# message: calling kernel function bpf_xdp_get_xfrm_state is not allowed
r2 = 0
*(u64 *)(r10 - 40) = r2
*(u64 *)(r10 - 32) = r2
*(u64 *)(r10 - 24) = r2
*(u64 *)(r10 - 16) = r2
*(u64 *)(r10 - 8) = r2
r2 = r10
r2 += -40
r3 = 36
call bpf_xdp_get_xfrm_state
if r0 == 0 goto out
r1 = r0
call bpf_xdp_xfrm_state_release
out:
r0 = 0
exit

# case: kmem_cache_read_unchecked
# section: kprobe/do_nanosleep
# expect: accept
r1 = 0
call bpf_get_kmem_cache
r0 = *(u64 *)(r0 + 0)
r0 = 0
exit

# case: kmem_cache_iter_not_sleepable
# section: kprobe/do_nanosleep
# expect: reject
# message: sleepable
r1 = r10
r1 += -8
call bpf_iter_kmem_cache_new
r1 = r10
r1 += -8
call bpf_iter_kmem_cache_destroy
r0 = 0
exit

# case: task_from_vpid_in_sock_ops
# section: sockops
# expect: accept
r1 = 1
call bpf_task_from_vpid
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 1
exit

# case: task_release_in_sock_ops
# section: sockops
# expect: accept
# profile: 6.12 reject calling kernel function bpf_task_acquire is not allowed
r6 = r1
call bpf_get_current_task_btf
r1 = r0
call bpf_task_acquire
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 1
exit

# case: xfrm_opts_beyond_stack
# section: xdp
# expect: reject
# message: invalid|out of bounds|stack
r2 = 0
*(u64 *)(r10 - 8) = r2
r2 = r10
r2 += -8
r3 = 36
call bpf_xdp_get_xfrm_state
if r0 == 0 goto out
r1 = r0
call bpf_xdp_xfrm_state_release
out:
r0 = 2
exit

# case: xfrm_opts_uninit_stack
# section: xdp
# expect: accept
r2 = r10
r2 += -40
r3 = 36
call bpf_xdp_get_xfrm_state
if r0 == 0 goto out
r1 = r0
call bpf_xdp_xfrm_state_release
out:
r0 = 2
exit
