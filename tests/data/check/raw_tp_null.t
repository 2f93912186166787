# A tp_btf program's pointer arguments are trusted kernel objects, but the
# kernel knows raw tracepoints whose argument may be NULL (btf_ctx_access's
# raw_tp_null_args: sched_pi_setprio's pi_task, kfree_skb's reason-less
# location, ...): such an argument is PTR_MAYBE_NULL and must be checked
# before a dereference ("R1 invalid mem access 'trusted_ptr_or_null_'").
# The table grew after 6.12 (tcp_sendmsg_locked's third argument: the
# running 6.18 has it).
# prog-type: tp_btf/sched_pi_setprio

# case: pi_task_unchecked
# expect: reject
# message: R1 invalid mem access 'ptr_or_null_'
# profile: 6.12 reject invalid mem access
r1 = *(u64 *)(r1 + 8)
r0 = *(u64 *)(r1 + 0)
r0 = 0
exit

# case: pi_task_checked
# expect: accept
# profile: 6.12 accept
r1 = *(u64 *)(r1 + 8)
if r1 == 0 goto out
r0 = *(u64 *)(r1 + 0)
out:
r0 = 0
exit

# The first argument (the task) is never NULL.
# case: task_unchecked
# expect: accept
r1 = *(u64 *)(r1 + 0)
r0 = *(u64 *)(r1 + 0)
r0 = 0
exit

# case: tcp_sendmsg_locked_skb_unchecked
# section: tp_btf/tcp_sendmsg_locked
# expect: reject
# message: R1 invalid mem access 'ptr_or_null_'
r1 = *(u64 *)(r1 + 16)
r0 = *(u64 *)(r1 + 0)
r0 = 0
exit

# case: tcp_sendmsg_locked_sk_unchecked
# section: tp_btf/tcp_sendmsg_locked
# expect: accept
r1 = *(u64 *)(r1 + 0)
r0 = *(u64 *)(r1 + 0)
r0 = 0
exit
