# Helper prototypes as the program sees them: results of a known kind
# (bpf_get_local_storage: the cgroup storage value, never NULL), the maps a
# helper accepts, flags it refuses, and map pointers chosen by a branch
# (each path keeps its own map, as the kernel walks them apart); sockmap
# updates with a socket value and where they are allowed; helpers and
# return values that depend on the expected attach type.
# prog-type: cgroup_skb/egress
# map: cgs BPF_MAP_TYPE_CGROUP_STORAGE key=struct_bpf_cgroup_storage_key value=8
# map: pcgs BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE key=struct_bpf_cgroup_storage_key value=16
# map: h16 hash key=8 value=16 entries=1
# map: a48 array key=4 value=48 entries=1
# map: sm BPF_MAP_TYPE_SOCKMAP key=4 value=8 entries=1

# case: local_storage_value
# expect: accept
r1 = %[cgs] ll
r2 = 0
call bpf_get_local_storage
r1 = 1
lock *(u64 *)(r0 + 0) += r1
r0 = 1
exit

# case: local_storage_percpu_value
# expect: accept
r1 = %[pcgs] ll
r2 = 0
call bpf_get_local_storage
r1 = *(u64 *)(r0 + 8)
r0 = 1
exit

# case: local_storage_past_value
# expect: reject
# message: invalid access to map value, size=8 off=8 size=8
r1 = %[cgs] ll
r2 = 0
call bpf_get_local_storage
r1 = *(u64 *)(r0 + 8)
r0 = 1
exit

# case: local_storage_flags
# expect: reject
# message: get_local_storage\(\) doesn't support non-zero flags
r1 = %[cgs] ll
r2 = 1
call bpf_get_local_storage
r0 = 1
exit

# case: local_storage_hash_map
# expect: reject
# message: cannot pass map_type 1 into func bpf_get_local_storage#81
r1 = %[h16] ll
r2 = 0
call bpf_get_local_storage
r0 = 1
exit

# case: map_by_branch_common_bytes
# expect: accept
r6 = *(u32 *)(r1 + 0)
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
if r6 == 1 goto other
r1 = %[h16] ll
goto lookup
other:
r1 = %[a48] ll
lookup:
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 8)
out:
r0 = 1
exit

# case: map_by_branch_past_smaller
# expect: reject
# message: invalid access to map value, size=16 off=40 size=8
r6 = *(u32 *)(r1 + 0)
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
if r6 == 1 goto other
r1 = %[h16] ll
goto lookup
other:
r1 = %[a48] ll
lookup:
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 40)
out:
r0 = 1
exit

# case: sockmap_update_tc
# section: tc
# expect: accept
r1 = *(u64 *)(r1 + 168)
if r1 == 0 goto out
r3 = r1
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[sm] ll
r4 = 0
call bpf_map_update_elem
out:
r0 = 0
exit

# case: sockmap_update_stack_value
# section: tc
# expect: reject
# message: R3 type=fp expected=sock_common
r1 = 0
*(u64 *)(r10 - 8) = r1
r3 = r10
r3 += -8
r2 = r10
r2 += -8
r1 = %[sm] ll
r4 = 0
call bpf_map_update_elem
r0 = 0
exit

# case: sockmap_delete_raw_tp
# section: raw_tp/sys_enter
# expect: reject
# message: cannot pass map_type 15 into func bpf_map_delete_elem#3
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[sm] ll
call bpf_map_delete_elem
r0 = 0
exit

# case: get_retval_recvmsg4
# section: cgroup/recvmsg4
# expect: reject
# message: cannot use helper bpf_get_retval#186
call bpf_get_retval
r0 = 1
exit

# case: get_retval_connect4
# section: cgroup/connect4
# expect: accept
call bpf_get_retval
r0 = 1
exit

# case: recvmsg_unix_ret0
# section: cgroup/recvmsg_unix
# expect: reject
# message: should have been in \[1, 1\]
r0 = 0
exit

# case: connect_unix_ret1
# section: cgroup/connect_unix
# expect: accept
r0 = 1
exit

# case: connect_unix_user_ip4
# section: cgroup/connect_unix
# expect: reject
# message: invalid bpf_context access
r2 = *(u32 *)(r1 + 4)
r0 = 1
exit
