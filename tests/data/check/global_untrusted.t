# `arg:untrusted` (__arg_untrusted) on a global function's pointer argument
# (6.18; 6.12 does not know the tag: "unsupported set of tags"): the caller
# may pass anything (a trusted or untrusted object, memory, a scalar, a
# variable offset), and the function sees an untrusted pointer to the kernel
# struct (read-only untrusted memory for a void or primitive pointee) that it
# may read but not pass where a trusted one is wanted. The tag combines with
# no other.
# prog-type: tp_btf/sys_enter
# c: __attribute__((noinline)) int g_untrusted(struct task_struct *t __attribute__((btf_decl_tag("arg:untrusted")))) { return t->pid; }
# c: __attribute__((noinline)) int g_void_untrusted(void *p __attribute__((btf_decl_tag("arg:untrusted")))) { return *(int *)p; }
# c: __attribute__((noinline)) int g_trusted(struct task_struct *t __attribute__((btf_decl_tag("arg:trusted")))) { return t->pid; }
# c: __attribute__((noinline)) int g_untrusted_fwd(struct task_struct *t __attribute__((btf_decl_tag("arg:untrusted")))) { return g_trusted(t); }
# c: __attribute__((noinline)) int g_untrusted_nullable(struct task_struct *t __attribute__((btf_decl_tag("arg:untrusted"))) __attribute__((btf_decl_tag("arg:nullable")))) { return t->pid; }

# case: trusted_to_untrusted
# expect: accept
# profile: 6.12 reject unsupported set of tags
call bpf_get_current_task_btf
r1 = r0
call g_untrusted
r0 = 0
exit

# case: scalar_to_untrusted
# expect: accept
r1 = 0
call g_untrusted
r1 = 12345
call g_untrusted
r0 = 0
exit

# case: stack_to_untrusted_mem
# expect: accept
# profile: 6.12 reject unsupported set of tags
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
call g_void_untrusted
call bpf_get_current_task_btf
r1 = r0
call g_void_untrusted
r0 = 0
exit

# case: untrusted_to_trusted
# expect: reject
# message: Caller passes invalid args into func#\d+ \('g_trusted'\)
call bpf_get_current_task_btf
r1 = r0
call g_untrusted_fwd
r0 = 0
exit

# case: untrusted_with_nullable
# expect: reject
# message: arg#0 untrusted cannot be combined with any other tags
r1 = 0
call g_untrusted_nullable
r0 = 0
exit
