# bpf_cpumask_populate(cpumask, src, src__sz) (6.14): src and src__sz are a
# memory/size pair (KF_ARG_PTR_TO_MEM_SIZE): src must be readable memory of
# src__sz bytes ("arg#1 arg#2 memory, len pair leads to invalid memory
# access" for a scalar).
# prog-type: tp_btf/task_newtask
# c: extern struct bpf_cpumask *bpf_cpumask_create(void) __ksym;
# c: extern void bpf_cpumask_release(struct bpf_cpumask *cpumask) __ksym;
# c: extern int bpf_cpumask_populate(struct cpumask *cpumask, void *src, size_t src__sz) __ksym;

# case: populate_from_stack
# expect: accept
call bpf_cpumask_create
if r0 == 0 goto out
r6 = r0
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r6
r2 = r10
r2 += -8
r3 = 8
call bpf_cpumask_populate
r1 = r6
call bpf_cpumask_release
out:
r0 = 0
exit

# case: populate_from_scalar
# expect: reject
# message: R2 type=scalar expected=
call bpf_cpumask_create
if r0 == 0 goto out
r6 = r0
r1 = r6
r2 = 0x123456
r3 = 8
call bpf_cpumask_populate
r1 = r6
call bpf_cpumask_release
out:
r0 = 0
exit

# case: populate_beyond_stack_buffer
# expect: reject
call bpf_cpumask_create
if r0 == 0 goto out
r6 = r0
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r6
r2 = r10
r2 += -8
r3 = 16
call bpf_cpumask_populate
r1 = r6
call bpf_cpumask_release
out:
r0 = 0
exit
