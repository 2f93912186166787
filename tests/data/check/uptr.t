# __uptr fields of a task storage value (BTF type tag "uptr", 6.13): a load
# gives the user memory the kernel pinned at the value's update, of the
# pointee struct's size, or NULL (mark_uptr_ld_reg: PTR_TO_MEM |
# PTR_MAYBE_NULL); the program may read and write it once NULL-checked,
# within that size, and never stores to the field itself.
# prog-type: syscall
# c: struct udata { long a; int b; };
# c: struct udata ud_keep; /* the struct in BTF in full, not a forward declaration */
# c: struct uval { int x; struct udata __attribute__((btf_type_tag("uptr"))) *ud; };
# c: struct { __uint(type, BPF_MAP_TYPE_TASK_STORAGE); __uint(map_flags, BPF_F_NO_PREALLOC); __type(key, int); __type(value, struct uval); } ts SEC(".maps");

# case: uptr_read_write_checked
# expect: accept
call bpf_get_current_task_btf
r2 = r0
r1 = %[ts] ll
r3 = 0
r4 = 1
call bpf_task_storage_get
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 8)
if r1 == 0 goto out
r2 = *(u64 *)(r1 + 0)
r2 += 1
*(u32 *)(r1 + 8) = r2
out:
r0 = 0
exit

# case: uptr_no_null_check
# expect: reject
# message: R1 invalid mem access 'mem_or_null'
call bpf_get_current_task_btf
r2 = r0
r1 = %[ts] ll
r3 = 0
r4 = 1
call bpf_task_storage_get
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 8)
r2 = *(u64 *)(r1 + 0)
out:
r0 = 0
exit

# case: uptr_past_pointee_size
# expect: reject
# message: invalid access to memory, (mem_)?size=16 off=16 size=4
call bpf_get_current_task_btf
r2 = r0
r1 = %[ts] ll
r3 = 0
r4 = 1
call bpf_task_storage_get
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 8)
if r1 == 0 goto out
r2 = *(u32 *)(r1 + 16)
out:
r0 = 0
exit

# case: uptr_field_store
# expect: reject
# message: store to uptr disallowed
call bpf_get_current_task_btf
r2 = r0
r1 = %[ts] ll
r3 = 0
r4 = 1
call bpf_task_storage_get
if r0 == 0 goto out
r1 = 0
*(u64 *)(r0 + 8) = r1
out:
r0 = 0
exit
