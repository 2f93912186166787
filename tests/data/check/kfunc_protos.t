# kfunc prototypes: references a kfunc acquires and releases (a result
# never NULL, bpf_cpumask_acquire's, is a reference too; crypto contexts
# are acquired by bpf_crypto_ctx_create), and arguments the kernel does not
# check (the __ign suffix: bpf_iter_bits_new's unsafe_ptr__ign); a struct
# pointer argument takes its struct or one that starts with it (struct
# bpf_cpumask starts with a struct cpumask: btf_struct_ids_match).
# prog-type: syscall
# map: vals array key=4 value=8 entries=1
# c: extern struct bpf_cpumask *bpf_cpumask_create(void) __ksym;
# c: extern struct bpf_cpumask *bpf_cpumask_acquire(struct bpf_cpumask *cpumask) __ksym;
# c: extern void bpf_cpumask_release(struct bpf_cpumask *cpumask) __ksym;
# c: extern u32 bpf_cpumask_first(const struct cpumask *cpumask) __ksym;
# c: extern struct task_struct *bpf_task_from_pid(s32 pid) __ksym;
# c: extern void bpf_task_release(struct task_struct *p) __ksym;
# c: extern struct bpf_crypto_ctx *bpf_crypto_ctx_create(const struct bpf_crypto_params *params, u32 params__sz, int *err) __ksym;
# c: extern void bpf_crypto_ctx_release(struct bpf_crypto_ctx *ctx) __ksym;
# c: extern int bpf_iter_bits_new(struct bpf_iter_bits *it, const u64 *unsafe_ptr__ign, u32 nr_words) __ksym;
# c: extern void bpf_iter_bits_destroy(struct bpf_iter_bits *it) __ksym;

# case: cpumask_acquire_release
# expect: accept
call bpf_cpumask_create
if r0 == 0 goto out
r6 = r0
r1 = r0
call bpf_cpumask_acquire
r7 = r0
r1 = r6
call bpf_cpumask_release
r1 = r7
call bpf_cpumask_release
out:
r0 = 0
exit

# case: cpumask_acquire_leak
# expect: reject
# message: Unreleased reference
call bpf_cpumask_create
if r0 == 0 goto out
r6 = r0
r1 = r0
call bpf_cpumask_acquire
r1 = r6
call bpf_cpumask_release
out:
r0 = 0
exit

# case: crypto_ctx_create_release
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -4
r1 = %[vals] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r2 = 8
r3 = r10
r3 += -8
call bpf_crypto_ctx_create
if r0 == 0 goto out
r1 = r0
call bpf_crypto_ctx_release
out:
r0 = 0
exit

# case: crypto_ctx_create_leak
# expect: reject
# message: Unreleased reference
r1 = 0
*(u32 *)(r10 - 4) = r1
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -4
r1 = %[vals] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r2 = 8
r3 = r10
r3 += -8
call bpf_crypto_ctx_create
out:
r0 = 0
exit

# case: bits_new_pointer_not_checked
# expect: accept
r1 = r10
r1 += -16
r2 = -4095
r3 = 1
call bpf_iter_bits_new
r1 = r10
r1 += -16
call bpf_iter_bits_destroy
r0 = 0
exit

# case: cpumask_first_of_bpf_cpumask
# expect: accept
call bpf_cpumask_create
if r0 == 0 goto out
r6 = r0
r1 = r0
call bpf_cpumask_first
r1 = r6
call bpf_cpumask_release
out:
r0 = 0
exit

# case: cpumask_first_of_task
# expect: reject
# message: kernel function bpf_cpumask_first args#0 expected pointer to STRUCT cpumask but R1 has a pointer to STRUCT task_struct
r1 = 1
call bpf_task_from_pid
if r0 == 0 goto out
r6 = r0
r1 = r0
call bpf_cpumask_first
r1 = r6
call bpf_task_release
out:
r0 = 0
exit

# case: crypto_ctx_create_null_params
# expect: reject
# message: Possibly NULL pointer passed to trusted arg0
r1 = 0
*(u32 *)(r10 - 8) = r1
r2 = 0
r3 = r10
r3 += -8
call bpf_crypto_ctx_create
if r0 == 0 goto out
r1 = r0
call bpf_crypto_ctx_release
out:
r0 = 0
exit
