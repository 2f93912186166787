# Multi-kernel verdicts (format: kernels.t) for `arg:` decl tags of global
# function arguments, honoured from 6.8 (kernel profile feature
# BG_KFEAT_ARG_TAGS, "support 'arg:xxx' btf_decl_tag-based hints for global
# subprog args"). Before, btf_prepare_func_args types an argument by its BTF
# type alone: a pointer to the program type's ctx struct is the ctx, any other
# pointer NULL-able memory of the pointee's size, and a `void *` (no size)
# refuses the program. Apart from kernels.t because decl tags make 5.10 (no
# BTF_KIND_DECL_TAG) load the whole object without BTF.
# prog-type: socket
# c: __attribute__((noinline)) int g_tag_ctx(void *ctx __attribute__((btf_decl_tag("arg:ctx")))) { return ctx != 0; }
# c: __attribute__((noinline)) int g_tag_nonnull(int *p __attribute__((btf_decl_tag("arg:nonnull")))) { return *p; }
# c: __attribute__((noinline)) int g_untagged_chk(int *p) { return p ? *p : 0; }

# case: arg_ctx_tag_void
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject arg#0 reference type\('UNKNOWN '\) size cannot be determined
call %[g_tag_ctx]
r0 = 0
exit

# case: arg_nonnull_tag_deref
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject mem_or_null
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
call %[g_tag_nonnull]
r0 = 0
exit

# case: arg_untagged_old_ok
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
call %[g_untagged_chk]
r0 = 0
exit
