# A program that is not GPL-compatible (its license section says so) may
# read kernel objects (BTF pointers) before 6.2 ("bpf: Tighten ptr_to_btf_id
# checks"); from 6.2 "Cannot access kernel 'struct X' from non-GPL compatible
# program". `# profile:` lines are checked against the booted Debian kernels;
# the GPL twin is kernels_kf.t's btf_read_gpl.
# license: Proprietary
# prog-type: tp_btf/sched_switch

# case: btf_read_not_gpl
# expect: reject
# message: Cannot access kernel 'struct task_struct' from non-GPL compatible program
# profile: 7.2 reject from non-GPL compatible program
# profile: 6.12 reject from non-GPL compatible program
# profile: 6.1 accept
# profile: 5.10 accept
r2 = *(u64 *)(r1 + 8)
r0 = *(u64 *)(r2 + 0)
r0 = 0
exit

# case: no_btf_read_not_gpl
# expect: accept
# profile: 6.12 accept
# profile: 5.10 accept
r0 = 0
exit
