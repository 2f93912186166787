# The kptr fields of a map value as the kernel guards them (check_map_access,
# check_map_kptr_access, map_kptr_match_type): touched only by an 8-byte
# load or store at the field's constant offset, never by a helper, a
# variable offset or an atomic; a referenced or percpu kptr is only
# exchanged (bpf_kptr_xchg), an unreferenced one takes NULL or a kernel
# object of its struct at offset 0. Percpu kptrs (`__percpu_kptr`): the
# load is percpu memory (MEM_PERCPU | MEM_RCU), read only through
# bpf_this_cpu_ptr / bpf_per_cpu_ptr; bpf_percpu_obj_new's type is a struct
# of scalars, without special fields, at most 512 bytes; each drop frees its
# own kind. tc cases are judged by the running kernel; every `# profile:`
# line of 6.12/7.2 by that kernel booted under QEMU; the fentry cases only
# by the booted kernels (the running kernel refuses fentry: EPERM).
# prog-type: tc
# c: struct bpf_cpumask full_btf_of_bpf_cpumask; /* else clang emits only a FWD */
# c: struct pval { long a, b; };
# c: struct pbig { char b[600]; };
# c: struct pptr { char *p; };
# c: struct kv { char buf[8]; struct bpf_cpumask __attribute__((btf_type_tag("kptr_untrusted"))) *u; struct bpf_cpumask __attribute__((btf_type_tag("kptr"))) *r; struct pval __attribute__((btf_type_tag("percpu_kptr"))) *pc; };
# c: extern void *bpf_percpu_obj_new_impl(__u64 local_type_id, void *meta) __ksym;
# c: extern void *bpf_obj_new_impl(__u64 local_type_id, void *meta) __ksym;
# c: extern void bpf_percpu_obj_drop_impl(void *kptr, void *meta) __ksym;
# c: extern void bpf_obj_drop_impl(void *kptr, void *meta) __ksym;
# c: static __attribute__((noinline)) void *new_pval(void) { return bpf_percpu_obj_new_impl(__builtin_btf_type_id(*(struct pval *)0, 0), 0); }
# c: static __attribute__((noinline)) void *new_pbig(void) { return bpf_percpu_obj_new_impl(__builtin_btf_type_id(*(struct pbig *)0, 0), 0); }
# c: static __attribute__((noinline)) void *new_pptr(void) { return bpf_percpu_obj_new_impl(__builtin_btf_type_id(*(struct pptr *)0, 0), 0); }
# c: static __attribute__((noinline)) void *new_val(void) { return bpf_obj_new_impl(__builtin_btf_type_id(*(struct pval *)0, 0), 0); }
# map: kvm array key=int value=struct_kv entries=1

# case: kptr_load_aligned
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 8)
out:
r0 = 0
exit

# case: kptr_read_misaligned
# expect: reject
# message: kptr access misaligned expected=8 off=9
# profile: 7.2 reject kptr access misaligned
# profile: 6.12 reject kptr access misaligned
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 9)
out:
r0 = 0
exit

# case: kptr_write_not_dw
# expect: reject
# message: kptr access size must be BPF_DW
# profile: 7.2 reject kptr access size must be BPF_DW
# profile: 6.12 reject kptr access size must be BPF_DW
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = 0
*(u32 *)(r0 + 8) = r1
out:
r0 = 0
exit

# A byte buffer in front of the field: a variable offset into it may reach
# the kptr.
# case: kptr_variable_offset
# expect: reject
# message: kptr access cannot have variable offset
# profile: 7.2 reject kptr access cannot have variable offset
# profile: 6.12 reject kptr access cannot have variable offset
r6 = *(u32 *)(r1 + 16)
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 &= 8
r0 += r6
r1 = 0
*(u64 *)(r0 + 0) = r1
out:
r0 = 0
exit

# The buffer alone, at a variable offset that cannot reach the field.
# case: kptr_variable_offset_before_field
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r6 = *(u32 *)(r1 + 16)
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 &= 7
r0 += r6
r1 = 0
*(u8 *)(r0 + 0) = r1
out:
r0 = 0
exit

# case: kptr_ref_store_null
# expect: reject
# message: store to referenced kptr disallowed
# profile: 7.2 reject store to referenced kptr disallowed
# profile: 6.12 reject store to referenced kptr disallowed
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = 0
*(u64 *)(r0 + 16) = r1
out:
r0 = 0
exit

# case: kptr_untrusted_store_null
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = 0
*(u64 *)(r0 + 8) = r1
out:
r0 = 0
exit

# case: kptr_untrusted_store_loaded
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 8)
*(u64 *)(r0 + 8) = r1
out:
r0 = 0
exit

# case: kptr_untrusted_store_moved
# expect: reject
# message: invalid kptr access, R1 type=untrusted_ptr_bpf_cpumask
# profile: 7.2 reject invalid kptr access
# profile: 6.12 reject invalid kptr access
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 8)
if r1 == 0 goto out
r1 += 4
*(u64 *)(r0 + 8) = r1
out:
r0 = 0
exit

# case: kptr_store_scalar
# expect: reject
# message: invalid kptr access, R1 type=scalar
# profile: 7.2 reject invalid kptr access
# profile: 6.12 reject invalid kptr access
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = 1
*(u64 *)(r0 + 8) = r1
out:
r0 = 0
exit

# case: kptr_st_imm
# expect: reject
# message: BPF_ST imm must be 0 when storing to kptr at off=8
# profile: 7.2 reject BPF_ST imm must be 0
# profile: 6.12 reject BPF_ST imm must be 0
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
*(u64 *)(r0 + 8) = 1
out:
r0 = 0
exit

# case: kptr_helper_writes_over
# expect: reject
# message: kptr cannot be accessed indirectly by helper
# profile: 7.2 reject kptr cannot be accessed indirectly by helper
# profile: 6.12 reject kptr cannot be accessed indirectly by helper
r6 = r1
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r6
r2 = 0
r3 = r0
r4 = 16
call bpf_skb_load_bytes
out:
r0 = 0
exit

# case: kptr_helper_buffer_only
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r6 = r1
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r6
r2 = 0
r3 = r0
r4 = 8
call bpf_skb_load_bytes
out:
r0 = 0
exit

# case: kptr_atomic
# expect: reject
# message: kptr in map can only be accessed using BPF_MEM instruction mode
# profile: 7.2 reject kptr in map can only be accessed using BPF_MEM
# profile: 6.12 reject kptr in map can only be accessed using BPF_MEM
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = 0
lock *(u64 *)(r0 + 8) += r1
out:
r0 = 0
exit

# A percpu kptr loaded in an RCU section (any point of a non-sleepable
# program) is percpu memory: this CPU's copy through bpf_this_cpu_ptr is
# the program's struct, read and written.
# case: percpu_kptr_this_cpu
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 24)
if r1 == 0 goto out
call bpf_this_cpu_ptr
r1 = *(u64 *)(r0 + 8)
r1 += 1
*(u64 *)(r0 + 8) = r1
out:
r0 = 0
exit

# case: percpu_kptr_per_cpu_null_checked
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 24)
if r1 == 0 goto out
r2 = 0
call bpf_per_cpu_ptr
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 0)
out:
r0 = 0
exit

# bpf_per_cpu_ptr of a percpu kptr's object is never NULL for the kernel
# (the helper's NULL flag is dropped for it).
# case: percpu_kptr_per_cpu_unchecked
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 24)
if r1 == 0 goto out
r2 = 0
call bpf_per_cpu_ptr
r1 = *(u64 *)(r0 + 0)
out:
r0 = 0
exit

# case: percpu_kptr_direct_read
# expect: reject
# message: access percpu memory
# profile: 7.2 reject access percpu memory
# profile: 6.12 reject access percpu memory
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 24)
if r1 == 0 goto out
r0 = *(u64 *)(r1 + 0)
out:
r0 = 0
exit

# bpf_this_cpu_ptr takes percpu memory only, not a kernel object.
# case: this_cpu_ptr_untrusted_kptr
# expect: reject
# message: R1 type=untrusted_ptr_bpf_cpumask expected=percpu_ptr_
# profile: 7.2 reject expected=percpu_ptr_
# profile: 6.12 reject expected=percpu_ptr_
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 8)
if r1 == 0 goto out
call bpf_this_cpu_ptr
out:
r0 = 0
exit

# bpf_percpu_obj_new's type: a struct of scalars at most 512 bytes.
# case: percpu_obj_new_stash
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
call %[new_pval]
if r0 == 0 goto out
r1 = r6
r1 += 24
r2 = r0
call bpf_kptr_xchg
if r0 == 0 goto out
r1 = r0
r2 = 0
call bpf_percpu_obj_drop_impl
out:
r0 = 0
exit

# case: percpu_obj_new_too_big
# expect: reject
# message: bpf_percpu_obj_new type size \(600\) is greater than 512
# profile: 7.2 reject type size \(600\) is greater than 512
# profile: 6.12 reject type size \(600\) is greater than 512
call %[new_pbig]
if r0 == 0 goto out
r1 = r0
r2 = 0
call bpf_percpu_obj_drop_impl
out:
r0 = 0
exit

# case: percpu_obj_new_pointer_member
# expect: reject
# message: must be of a struct of scalars
# profile: 7.2 reject must be of a struct of scalars
# profile: 6.12 reject must be of a struct of scalars
call %[new_pptr]
if r0 == 0 goto out
r1 = r0
r2 = 0
call bpf_percpu_obj_drop_impl
out:
r0 = 0
exit

# case: percpu_obj_dropped_as_plain
# expect: reject
# message: arg#0 expected for bpf_percpu_obj_drop_impl\(\)
# profile: 7.2 reject arg#0 expected for bpf_percpu_obj_drop_impl
# profile: 6.12 reject arg#0 expected for bpf_percpu_obj_drop_impl
call %[new_pval]
if r0 == 0 goto out
r1 = r0
r2 = 0
call bpf_obj_drop_impl
out:
r0 = 0
exit

# case: plain_obj_dropped_as_percpu
# expect: reject
# message: arg#0 expected for bpf_obj_drop_impl\(\)
# profile: 7.2 reject arg#0 expected for bpf_obj_drop_impl
# profile: 6.12 reject arg#0 expected for bpf_obj_drop_impl
call %[new_val]
if r0 == 0 goto out
r1 = r0
r2 = 0
call bpf_percpu_obj_drop_impl
out:
r0 = 0
exit

# A plain local object into a percpu kptr.
# case: kptr_xchg_plain_into_percpu
# expect: reject
# message: invalid kptr access, R2 type=ptr_pval expected=ptr_pval
# profile: 7.2 reject invalid kptr access
# profile: 6.12 reject invalid kptr access
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
call %[new_val]
if r0 == 0 goto out
r1 = r6
r1 += 24
r2 = r0
call bpf_kptr_xchg
if r0 == 0 goto out
r1 = r0
r2 = 0
call bpf_percpu_obj_drop_impl
out:
r0 = 0
exit

# The same rules in tracing programs, which only the booted kernels judge.
# case: fentry_percpu_kptr_this_cpu
# section: fentry/bpf_fentry_test1
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 24)
if r1 == 0 goto out
call bpf_this_cpu_ptr
r1 = *(u64 *)(r0 + 0)
out:
r0 = 0
exit

# case: fentry_kptr_ref_store
# section: fentry/bpf_fentry_test1
# expect: reject
# message: store to referenced kptr disallowed
# profile: 7.2 reject store to referenced kptr disallowed
# profile: 6.12 reject store to referenced kptr disallowed
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[kvm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = 0
*(u64 *)(r0 + 16) = r1
out:
r0 = 0
exit

# case: fentry_percpu_obj_new_too_big
# section: fentry/bpf_fentry_test1
# expect: reject
# message: bpf_percpu_obj_new type size \(600\) is greater than 512
# profile: 7.2 reject type size \(600\) is greater than 512
# profile: 6.12 reject type size \(600\) is greater than 512
call %[new_pbig]
if r0 == 0 goto out
r1 = r0
r2 = 0
call bpf_percpu_obj_drop_impl
out:
r0 = 0
exit
