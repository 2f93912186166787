# The trust of BTF pointers (the kernel's PTR_TRUSTED / MEM_RCU / plain /
# PTR_UNTRUSTED) and which arguments take which (check_ptr_to_btf_access,
# compatible_reg_types, check_kfunc_args), as the 6.18 kernel has them: a
# pointer loaded through a trusted or RCU pointer keeps that trust only
# through a member of the kernel's allow-lists (the "<struct>__safe_rcu"
# etc. structs of its BTF: task_struct real_parent/group_leader/cpus_ptr/
# cgroups, css_set dfl_cgrp ...), RCU-protected inside an RCU read section
# (a non-sleepable program always is); through any other member, or from an
# untrusted or plain pointer, it is untrusted. A helper's BTF argument takes
# trusted, RCU and plain pointers; a KF_RCU kfunc trusted and RCU ones; the
# end of an RCU read section makes its RCU pointers untrusted. Offsets are
# the 6.18 kernel's (task_struct real_parent 1280, parent 1288, group_leader
# 1328, mm 1136, cpus_ptr 800, user_cpus_ptr 808; mm_struct owner 1304;
# sk_buff next 0, sk 24; tcp_sock's sk_cgrp_data.cgroup 672). A helper's
# BTF pointer result is plain (bpf_skc_to_tcp_sock), unless the helper says
# it is trusted (bpf_get_current_task_btf). bpf_rdonly_cast returns an
# untrusted pointer to the struct whose kernel BTF id its second argument is
# (any other type but void is refused; ids are the 6.18 kernel's BTF:
# task_struct 114, union bpf_attr 1933, the int type of u64 27). A helper's
# BTF argument must point to the struct it names, or to one that starts with
# it (btf_struct_ids_match: a tcp_sock is a sock_common through its first
# members; bpf_sk_storage_get of tracing programs names sock_common). A
# helper's memory argument takes only a trusted BTF pointer, and only where
# the helper only reads it (never a map key or value: "may write"); task
# comm is at 1752, pid at 1264.
# prog-type: tp_btf/task_newtask
# map: tstore BPF_MAP_TYPE_TASK_STORAGE key=int value=long entries=0 flags=BPF_F_NO_PREALLOC
# map: skstore BPF_MAP_TYPE_SK_STORAGE key=int value=long entries=0 flags=BPF_F_NO_PREALLOC
# map: h hash key=4 value=8 entries=4
# map: cgstore BPF_MAP_TYPE_CGRP_STORAGE key=int value=long entries=0 flags=BPF_F_NO_PREALLOC
# c: const char foo_str[4] = "foo";
# c: extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
# c: extern void bpf_task_release(struct task_struct *p) __ksym;
# c: extern bool bpf_cpumask_test_cpu(u32 cpu, const struct cpumask *cpumask) __ksym;
# c: extern void bpf_rcu_read_lock(void) __ksym;
# c: extern void bpf_rcu_read_unlock(void) __ksym;
# c: extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

# case: rcu_member_to_helper
# expect: accept
r1 = *(u64 *)(r1 + 0)
r2 = *(u64 *)(r1 + 1280)
r1 = %[tstore] ll
r3 = 0
r4 = 0
call bpf_task_storage_get
r0 = 0
exit

# case: rcu_member_of_rcu_pointer
# expect: accept
r1 = *(u64 *)(r1 + 0)
r1 = *(u64 *)(r1 + 1328)
r2 = *(u64 *)(r1 + 1280)
r1 = %[tstore] ll
r3 = 0
r4 = 0
call bpf_task_storage_get
r0 = 0
exit

# case: unlisted_member_to_helper
# expect: reject
# message: R2 type=untrusted_ptr_ expected=ptr_, trusted_ptr_, rcu_ptr_
r1 = *(u64 *)(r1 + 0)
r1 = *(u64 *)(r1 + 1328)
r2 = *(u64 *)(r1 + 1288)
r1 = %[tstore] ll
r3 = 0
r4 = 0
call bpf_task_storage_get
r0 = 0
exit

# case: member_of_untrusted_pointer
# expect: reject
# message: R2 type=untrusted_ptr_ expected=ptr_, trusted_ptr_, rcu_ptr_
r1 = *(u64 *)(r1 + 0)
r1 = *(u64 *)(r1 + 1136)
if r1 == 0 goto out
r2 = *(u64 *)(r1 + 1304)
r1 = %[tstore] ll
r3 = 0
r4 = 0
call bpf_task_storage_get
out:
r0 = 0
exit

# case: rcu_member_to_rcu_kfunc
# expect: accept
r1 = *(u64 *)(r1 + 0)
r1 = *(u64 *)(r1 + 1280)
call bpf_task_acquire
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# case: unlisted_member_to_rcu_kfunc
# expect: reject
# message: R1 must be a rcu pointer
r1 = *(u64 *)(r1 + 0)
r1 = *(u64 *)(r1 + 1288)
call bpf_task_acquire
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# case: trusted_helper_result_to_rcu_kfunc
# expect: accept
call bpf_get_current_task_btf
r1 = r0
call bpf_task_acquire
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# case: cpus_ptr_to_cpumask_kfunc
# expect: accept
r1 = *(u64 *)(r1 + 0)
r2 = *(u64 *)(r1 + 800)
w1 = 0
call bpf_cpumask_test_cpu
r0 = 0
exit

# case: user_cpus_ptr_to_cpumask_kfunc
# expect: reject
# message: R2 must be a rcu pointer
r1 = *(u64 *)(r1 + 0)
r2 = *(u64 *)(r1 + 808)
w1 = 0
call bpf_cpumask_test_cpu
r0 = 0
exit

# case: rcu_pointer_inside_section
# expect: accept
r6 = *(u64 *)(r1 + 0)
call bpf_rcu_read_lock
r2 = *(u64 *)(r6 + 1280)
r1 = %[tstore] ll
r3 = 0
r4 = 0
call bpf_task_storage_get
call bpf_rcu_read_unlock
r0 = 0
exit

# case: rcu_pointer_after_section
# expect: reject
# message: R2 type=untrusted_ptr_ expected=ptr_, trusted_ptr_, rcu_ptr_
r6 = *(u64 *)(r1 + 0)
call bpf_rcu_read_lock
r6 = *(u64 *)(r6 + 1280)
call bpf_rcu_read_unlock
r1 = %[tstore] ll
r2 = r6
r3 = 0
r4 = 0
call bpf_task_storage_get
r0 = 0
exit

# case: skb_sk_to_helper
# section: tp_btf/tcp_probe
# expect: accept
r1 = *(u64 *)(r1 + 8)
r2 = *(u64 *)(r1 + 24)
if r2 == 0 goto out
r1 = %[skstore] ll
r3 = 0
r4 = 0
call bpf_sk_storage_get
out:
r0 = 0
exit

# case: skb_next_to_helper
# section: tp_btf/tcp_probe
# expect: reject
# message: R2 type=untrusted_ptr_ expected=ptr_, trusted_ptr_, rcu_ptr_
r1 = *(u64 *)(r1 + 8)
r2 = *(u64 *)(r1 + 0)
r1 = %[skstore] ll
r3 = 0
r4 = 0
call bpf_sk_storage_get
r0 = 0
exit

# case: plain_helper_result_to_helper
# section: tp_btf/tcp_probe
# expect: accept
r1 = *(u64 *)(r1 + 0)
call bpf_skc_to_tcp_sock
if r0 == 0 goto out
r2 = r0
r1 = %[skstore] ll
r3 = 0
r4 = 0
call bpf_sk_storage_get
out:
r0 = 0
exit

# case: member_of_plain_helper_result
# section: tp_btf/tcp_probe
# expect: reject
# message: R2 type=untrusted_ptr_ expected=ptr_, trusted_ptr_, rcu_ptr_
r1 = *(u64 *)(r1 + 0)
call bpf_skc_to_tcp_sock
if r0 == 0 goto out
r2 = *(u64 *)(r0 + 672)
r1 = %[cgstore] ll
r3 = 0
r4 = 0
call bpf_cgrp_storage_get
out:
r0 = 0
exit

# case: rdonly_cast_to_helper
# expect: reject
# message: R2 type=untrusted_ptr_ expected=ptr_, trusted_ptr_, rcu_ptr_
r1 = *(u64 *)(r1 + 0)
w2 = 114
call bpf_rdonly_cast
r2 = r0
r1 = %[tstore] ll
r3 = 0
r4 = 0
call bpf_task_storage_get
r0 = 0
exit

# case: rdonly_cast_read
# expect: accept
r1 = *(u64 *)(r1 + 0)
w2 = 114
call bpf_rdonly_cast
r0 = *(u64 *)(r0 + 1280)
r0 = 0
exit

# case: rdonly_cast_to_union
# expect: accept
r1 = *(u64 *)(r1 + 0)
w2 = 1933
call bpf_rdonly_cast
r0 = 0
exit

# case: rdonly_cast_to_void
# expect: accept
r1 = *(u64 *)(r1 + 0)
w2 = 0
call bpf_rdonly_cast
r0 = 0
exit

# case: rdonly_cast_to_int
# expect: reject
# message: type ID argument must be of a struct or void
r1 = *(u64 *)(r1 + 0)
w2 = 27
call bpf_rdonly_cast
r0 = 0
exit

# case: task_as_cgroup_to_helper
# expect: reject
# message: R2 is of type task_struct but cgroup is expected
call bpf_get_current_task_btf
r2 = r0
r1 = %[cgstore] ll
r3 = 0
r4 = 0
call bpf_cgrp_storage_get
r0 = 0
exit

# case: skb_as_sock_to_helper
# section: tp_btf/tcp_probe
# expect: reject
# message: R2 is of type sk_buff but sock_common is expected
r2 = *(u64 *)(r1 + 8)
r1 = %[skstore] ll
r3 = 0
r4 = 0
call bpf_sk_storage_get
r0 = 0
exit

# case: sock_to_sock_common_helper
# section: tp_btf/tcp_probe
# expect: accept
r2 = *(u64 *)(r1 + 0)
r1 = %[skstore] ll
r3 = 0
r4 = 0
call bpf_sk_storage_get
r0 = 0
exit

# case: trusted_comm_to_strncmp
# expect: accept
r1 = *(u64 *)(r1 + 0)
r1 += 1752
w2 = 16
r3 = %[foo_str] ll
call bpf_strncmp
r0 = 0
exit

# case: rcu_comm_to_strncmp
# expect: reject
# message: R1 type=rcu_ptr_ expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_
r1 = *(u64 *)(r1 + 0)
r1 = *(u64 *)(r1 + 1280)
r1 += 1752
w2 = 16
r3 = %[foo_str] ll
call bpf_strncmp
r0 = 0
exit

# case: untrusted_comm_to_strncmp
# expect: reject
# message: R1 type=untrusted_ptr_ expected=fp
r1 = *(u64 *)(r1 + 0)
r1 = *(u64 *)(r1 + 1288)
r1 += 1752
w2 = 16
r3 = %[foo_str] ll
call bpf_strncmp
r0 = 0
exit

# case: trusted_pid_as_map_key
# expect: reject
# message: bpf_map_lookup_elem\(\) may write into memory pointed by R2 type=trusted_ptr_
r2 = *(u64 *)(r1 + 0)
r2 += 1264
r1 = %[h] ll
call bpf_map_lookup_elem
r0 = 0
exit
