# Multi-kernel verdicts (format: kernels.t) for a NULL constant passed to a
# global function's pointer argument tagged `arg:nonnull`: 6.12 lets it
# through (only a maybe-NULL pointer is refused there), 7.2 and the running
# 6.18 refuse it ("arg#0 is expected to be non-NULL"): kernel profile feature
# BG_KFEAT_NONNULL_ARG_NULL. Apart from kernels.t because its decl tag makes
# older kernels (5.10: no BTF_KIND_DECL_TAG) load that whole object without BTF.
# prog-type: socket
# c: __attribute__((noinline)) int gderef_nonnull(int *p __attribute__((btf_decl_tag("arg:nonnull")))) { return *p; }

# case: null_to_nonnull_global_func
# expect: reject
# message: arg#0 is expected to be non-NULL
# profile: 7.2 reject arg#0 is expected to be non-NULL
# profile: 6.12 accept
r1 = 0
call %[gderef_nonnull]
r0 = 0
exit

# case: stack_to_nonnull_global_func
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
call %[gderef_nonnull]
r0 = 0
exit
