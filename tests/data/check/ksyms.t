# Kernel symbols as libbpf loads them (src/obj/reloc.c, link.c): an extern's
# kind comes from its BTF declaration, not from its use. A kfunc whose
# address is taken (bpf_ksym_exists) is an ld_imm64 of its BTF FUNC id,
# read-only memory of size 0 to the verifier; an unresolved weak one (absent,
# or a "___flavour" whose prototype does not match the kernel's) loads as 0,
# so the call it guards is dead. A typeless ksym (`const void`) is resolved
# through /proc/kallsyms to its address: a plain scalar.
# prog-type: tp_btf/task_newtask
# c: extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym __weak;
# c: extern struct task_struct *bpf_task_acquire___one(struct task_struct *p) __ksym __weak;
# c: extern struct task_struct *bpf_task_acquire___two(struct task_struct *p, void *ctx) __ksym __weak;
# c: extern void bpf_task_release(struct task_struct *p) __ksym;
# c: extern void bpf_no_such_kfunc_here(void) __ksym __weak;
# c: extern const void bpf_fentry_test1 __ksym;
# c: /* clang emits an extern's BTF only for C references, not asm operands */
# c: SEC("tp_btf/task_newtask") int btf_decls(void *ctx) { return !!bpf_task_acquire + !!bpf_task_acquire___one + !!bpf_task_acquire___two + !!bpf_no_such_kfunc_here; }

# case: kfunc_address_then_call
# expect: accept
r6 = *(u64 *)(r1 + 0)
r1 = %[bpf_task_acquire] ll
if r1 == 0 goto out
r1 = r6
call bpf_task_acquire
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# case: kfunc_flavour_matching_proto
# expect: accept
r6 = *(u64 *)(r1 + 0)
r1 = %[bpf_task_acquire___one] ll
if r1 == 0 goto out
r1 = r6
call bpf_task_acquire___one
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# case: kfunc_flavour_other_proto_is_null
# expect: accept
r6 = *(u64 *)(r1 + 0)
r1 = %[bpf_task_acquire___two] ll
if r1 == 0 goto out
r1 = r6
r2 = 0
call bpf_task_acquire___two
out:
r0 = 0
exit

# case: missing_weak_kfunc_address_is_null
# expect: accept
r1 = %[bpf_no_such_kfunc_here] ll
if r1 == 0 goto out
call bpf_no_such_kfunc_here
out:
r0 = 0
exit

# case: kfunc_address_is_not_readable
# expect: reject
# message: invalid access to memory
r1 = %[bpf_task_acquire] ll
if r1 == 0 goto out
r0 = *(u8 *)(r1 + 0)
out:
r0 = 0
exit

# case: typeless_ksym_is_a_scalar
# expect: accept
r2 = *(u64 *)(r1 + 0)
r1 = %[bpf_fentry_test1] ll
r0 = 1
if r1 == r2 goto out
r0 = 0
out:
exit

# case: typeless_ksym_not_a_pointer
# expect: reject
# message: invalid mem access 'scalar'
r1 = %[bpf_fentry_test1] ll
r0 = *(u64 *)(r1 + 0)
r0 = 0
exit
