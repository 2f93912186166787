# Platform facts per kernel (`bpfgate check --kernel ...`): what each kernel
# lets a program do besides its verifier's value tracking - return ranges,
# ctx fields, fmod_ret targets, sleepable program types, the exception
# callback tag, reads of kernel objects. `# expect:` is the running 6.18's
# verdict (checked by bpf() where the type loads here; fentry/fmod_ret do not:
# EPERM); every `# profile:` line of 5.10/6.1/6.12/7.2 is checked against
# that kernel booted under QEMU. Non-GPL programs: kernels_gpl.t.
# prog-type: cgroup/bind4
# c: static __attribute__((noinline)) int exc_cb(__u64 cookie) { return 0; }
# c: static __attribute__((noinline)) int sub_add1(int x) { return x + 1; }
# c: struct lockval { struct bpf_spin_lock l; long v; };
# c: extern unsigned long CONFIG_HZ __kconfig;
# c: extern struct bpf_key *bpf_lookup_system_key(__u64 id) __ksym;
# c: extern void bpf_key_put(struct bpf_key *bkey) __ksym;
# c: extern int bpf_verify_pkcs7_signature(struct bpf_dynptr *data, struct bpf_dynptr *sig, struct bpf_key *key) __ksym;
# c: char pkcs_buf[16];
# c: __attribute__((noinline)) int gpull(struct __sk_buff *skb) { return bpf_skb_pull_data(skb, 0); }
# map: lk array key=__u32 value=struct_lockval entries=1
# map: rbk ringbuf entries=4096
# map: hk hash key=4 value=8 entries=4
# map: skst sk_storage key=4 value=8 flags=1

# cgroup inet4/inet6 bind programs return [0, 3] from 5.12 (bit 1: skip the
# CAP_NET_BIND_SERVICE check); 5.10 wants [0, 1].
# case: bind_returns_3
# expect: accept
# profile: 6.1 accept
# profile: 5.10 reject should have been in \[0, 1\]
r0 = 3
exit

# case: bind_returns_1
# expect: accept
# profile: 6.1 accept
# profile: 5.10 accept
r0 = 1
exit

# sk_lookup's ingress_ifindex (off 64) came in 5.17.
# case: sk_lookup_ingress_ifindex
# section: sk_lookup
# expect: accept
# profile: 6.1 accept
# profile: 5.10 reject ctx field ingress_ifindex .*not available before 5.17
r2 = *(u32 *)(r1 + 64)
r0 = 1
exit

# case: sk_lookup_local_port
# section: sk_lookup
# expect: accept
# profile: 6.1 accept
# profile: 5.10 accept
r2 = *(u32 *)(r1 + 60)
r0 = 1
exit

# sk_reuseport_md's sk (off 40) and migrating_sk came in 5.14.
# case: sk_reuseport_sk
# section: sk_reuseport
# expect: accept
# profile: 6.1 accept
# profile: 5.10 reject ctx field sk .*not available before 5.14
r2 = *(u64 *)(r1 + 40)
r0 = 1
exit

# case: sk_reuseport_hash
# section: sk_reuseport
# expect: accept
# profile: 6.1 accept
# profile: 5.10 accept
r2 = *(u32 *)(r1 + 32)
r0 = 1
exit

# bpf_sock_ops' skb_hwtstamp (off 216) came in 6.2.
# case: sock_ops_skb_hwtstamp
# section: sockops
# expect: accept
# profile: 6.12 accept
# profile: 6.1 reject ctx field skb_hwtstamp .*not available before 6.2
# profile: 5.10 reject ctx field skb_hwtstamp .*not available before 6.2
r2 = *(u64 *)(r1 + 216)
r0 = 1
exit

# case: sock_ops_op
# section: sockops
# expect: accept
# profile: 6.1 accept
# profile: 5.10 accept
r2 = *(u32 *)(r1 + 0)
r0 = 1
exit

# fmod_ret targets: security_ functions everywhere; net/bpf/test_run.c's
# fmod_ret set (bpf_modify_return_test...) taken by 6.12 and 7.2, refused by
# 5.10 and 6.1; a syscall (error-injection list) taken by 7.2 only.
# case: fmod_ret_test_run_set
# section: fmod_ret/bpf_modify_return_test
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject bpf_modify_return_test\(\) is not modifiable
# profile: 5.10 reject bpf_modify_return_test\(\) is not modifiable
r0 = 0
exit

# case: fmod_ret_security_function
# section: fmod_ret/security_socket_create
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 accept
r0 = 0
exit

# case: fmod_ret_syscall
# section: fmod_ret/__x64_sys_nanosleep
# expect: reject
# message: __x64_sys_nanosleep\(\) is not modifiable
# profile: 7.2 accept
# profile: 6.12 reject __x64_sys_nanosleep\(\) is not modifiable
# profile: 6.1 reject __x64_sys_nanosleep\(\) is not modifiable
r0 = 0
exit

# Sleepable kprobe-type programs (uprobe.s) from 6.0; 5.10 lets only
# tracing and LSM programs sleep.
# case: uprobe_sleepable
# section: uprobe.s
# expect: accept
# profile: 6.1 accept
# profile: 5.10 reject Only fentry/fexit/fmod_ret and lsm programs can be sleepable
r0 = 0
exit

# case: uprobe_not_sleepable
# section: uprobe
# expect: accept
# profile: 6.1 accept
# profile: 5.10 accept
r0 = 0
exit

# The exception_callback decl tag (6.7) makes exc_cb a root of its own that
# no one may call; before 6.7 the tag means nothing and the call is plain.
# case: exception_cb_called_directly
# section: tc
# decl-tag: exception_callback:exc_cb
# expect: reject
# message: cannot call exception cb directly
# profile: 6.12 reject cannot call exception cb directly
# profile: 6.1 accept
# profile: 5.10 accept
r1 = 0
call %[exc_cb]
r0 = 0
exit

# A GPL program reads kernel objects (the twin of kernels_gpl.t's case).
# case: btf_read_gpl
# section: tp_btf/sched_switch
# expect: accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 accept
r2 = *(u64 *)(r1 + 8)
r0 = *(u64 *)(r2 + 0)
r0 = 0
exit

# A static subprogram called with a bpf_spin_lock held: from 6.9 it runs
# under the caller's lock; before, no call (and no function exit) with a
# lock held.
# case: lock_held_across_static_call
# section: tc
# expect: accept
# profile: 6.12 accept
# profile: 6.1 reject function calls are not allowed while holding a lock
# profile: 5.10 reject function calls are not allowed while holding a lock
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[lk] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
r1 = r6
call bpf_spin_lock
r1 = 1
call %[sub_add1]
*(u64 *)(r6 + 8) = r0
r1 = r6
call bpf_spin_unlock
out:
r0 = 0
exit

# case: lock_released_before_static_call
# section: tc
# expect: accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[lk] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
r1 = r6
call bpf_spin_lock
r1 = r6
call bpf_spin_unlock
r1 = 1
call %[sub_add1]
*(u64 *)(r6 + 8) = r0
out:
r0 = 0
exit

# A strong __kconfig extern: the loader resolves it from the kernel's
# configuration (/boot/config-RELEASE; in the guests, the image's own,
# cached by `bpfgate kernels fetch`; 7.2's is in linux-base-REL, beside the
# image's linux-binary-REL).
# case: kconfig_strong_extern
# section: tc
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 accept
r1 = %[CONFIG_HZ] ll
r0 = *(u64 *)(r1 + 0)
r0 = 0
exit

# A kfunc's dynptr arguments (6.1 types them struct bpf_dynptr_kern *, later
# kernels struct bpf_dynptr *): initialized dynptrs on the stack.
# case: kfunc_dynptr_args_valid
# section: lsm.s/bpf
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 accept
r1 = %[pkcs_buf] ll
r2 = 16
r3 = 0
r4 = r10
r4 += -16
call bpf_dynptr_from_mem
r1 = %[pkcs_buf] ll
r2 = 8
r3 = 0
r4 = r10
r4 += -32
call bpf_dynptr_from_mem
r1 = 1
call bpf_lookup_system_key
if r0 == 0 goto out
r6 = r0
r1 = r10
r1 += -16
r2 = r10
r2 += -32
r3 = r6
call bpf_verify_pkcs7_signature
r1 = r6
call bpf_key_put
out:
r0 = 0
exit

# case: kfunc_dynptr_args_uninit
# section: lsm.s/bpf
# expect: reject
# message: initialized dynptr
# profile: 7.2 reject initialized dynptr
# profile: 6.12 reject initialized dynptr
# profile: 6.1 reject initialized dynptr
r1 = 1
call bpf_lookup_system_key
if r0 == 0 goto out
r6 = r0
r1 = r10
r1 += -16
r2 = r10
r2 += -32
r3 = r6
call bpf_verify_pkcs7_signature
r1 = r6
call bpf_key_put
out:
r0 = 0
exit

# Ring buffer memory as a helper's map key: from 6.2 (before, the key is on
# the stack, in a packet or in a map value).
# case: ringbuf_mem_as_map_key
# section: tc
# expect: accept
# profile: 6.12 accept
# profile: 6.1 reject R2 type=ringbuf_mem expected=fp, pkt, pkt_meta, map_key, map_value
# profile: 5.10 reject R2 type=ringbuf_mem expected=fp, pkt, pkt_meta, map_key, map_value
r1 = %[rbk] ll
r2 = 8
r3 = 0
call bpf_ringbuf_reserve
if r0 == 0 goto out
r6 = r0
r1 = 0
*(u64 *)(r6 + 0) = r1
r1 = %[hk] ll
r2 = r6
call bpf_map_lookup_elem
r1 = r6
r2 = 0
call bpf_ringbuf_discard
out:
r0 = 0
exit

# case: stack_copy_as_map_key
# section: tc
# expect: accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 accept
r1 = %[rbk] ll
r2 = 8
r3 = 0
call bpf_ringbuf_reserve
if r0 == 0 goto out
r6 = r0
r1 = 0
*(u64 *)(r6 + 0) = r1
*(u32 *)(r10 - 8) = r1
r1 = %[hk] ll
r2 = r10
r2 += -8
call bpf_map_lookup_elem
r1 = r6
r2 = 0
call bpf_ringbuf_discard
out:
r0 = 0
exit

# Tracing helpers: fentry/fexit have tp_btf's helpers (bpf_sk_storage_get
# from 5.11), and some helpers check where the program is attached (the
# kernel's bpf_func_proto.allowed): bpf_sk_storage_get not from the
# bpf_sk_storage* functions, bpf_d_path only from an allow-list of functions.
# case: sk_storage_get_fentry
# section: fentry/tcp_connect
# expect: accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 reject unknown func bpf_sk_storage_get
r2 = *(u64 *)(r1 + 0)
r1 = %[skst] ll
r3 = 0
r4 = 0
call bpf_sk_storage_get
r0 = 0
exit

# case: sk_storage_get_traces_itself
# section: fentry/bpf_sk_storage_free
# expect: reject
# message: helper call is not allowed in probe
# profile: 7.2 reject helper call is not allowed in probe
# profile: 6.12 reject helper call is not allowed in probe
# profile: 6.1 reject helper call is not allowed in probe
r2 = *(u64 *)(r1 + 0)
r1 = %[skst] ll
r3 = 0
r4 = 0
call bpf_sk_storage_get
r0 = 0
exit

# case: d_path_allowed_target
# section: fentry/dentry_open
# expect: accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 accept
r0 = 0
*(u64 *)(r10 - 8) = r0
*(u64 *)(r10 - 16) = r0
r1 = *(u64 *)(r1 + 0)
r2 = r10
r2 += -16
r3 = 16
call bpf_d_path
r0 = 0
exit

# case: d_path_other_target
# section: fentry/d_path
# expect: reject
# message: helper call is not allowed in probe
# profile: 6.12 reject helper call is not allowed in probe
# profile: 6.1 reject helper call is not allowed in probe
# profile: 5.10 reject helper call is not allowed in probe
r0 = 0
*(u64 *)(r10 - 8) = r0
*(u64 *)(r10 - 16) = r0
r1 = *(u64 *)(r1 + 0)
r2 = r10
r2 += -16
r3 = 16
call bpf_d_path
r0 = 0
exit

# A global function that changes packet data (or tail-calls) makes the
# caller's packet pointers stale from 6.12 (Debian's LTS has the 6.13 fix);
# before, the caller keeps them.
# case: pkt_ptr_after_global_pull
# section: tc
# expect: reject
# message: invalid mem access
# profile: 6.12 reject invalid mem access
# profile: 6.1 accept
# profile: 5.10 accept
r6 = r1
r2 = *(u32 *)(r6 + 76)
r3 = *(u32 *)(r6 + 80)
r4 = r2
r4 += 4
if r4 > r3 goto out
r7 = r2
r1 = r6
call %[gpull]
r1 = 0
*(u32 *)(r7 + 0) = r1
out:
r0 = 0
exit

# case: pkt_ptr_reloaded_after_global_pull
# section: tc
# expect: accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 accept
r6 = r1
r1 = r6
call %[gpull]
r2 = *(u32 *)(r6 + 76)
r3 = *(u32 *)(r6 + 80)
r4 = r2
r4 += 4
if r4 > r3 goto out
r1 = 0
*(u32 *)(r2 + 0) = r1
out:
r0 = 0
exit
