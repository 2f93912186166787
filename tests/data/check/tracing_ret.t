# What a tracing program returns (check_return_code): fentry and fexit
# programs return 0; an fmod_ret program returns the traced function's
# result (any value). With exceptions (6.7) the program's result may come
# from elsewhere, and the same range applies: bpf_throw's cookie (R1) when
# the default exception callback returns it, or the exception callback's
# own result. Only the booted kernels judge these (the running kernel
# refuses fentry: EPERM); 5.10 and 6.1 for the cases without exceptions.
# prog-type: fentry/bpf_fentry_test1
# c: extern void bpf_throw(__u64 cookie) __ksym;
# c: __attribute__((noinline)) int exc_cb_cookie(__u64 cookie) { return cookie; }
# c: __attribute__((noinline)) int exc_cb_zero(__u64 cookie) { return 0; }

# case: fentry_returns_0
# expect: accept
# kernel: skip fentry is refused here (EPERM)
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 accept
r0 = 0
exit

# case: fentry_returns_1
# expect: reject
# kernel: skip fentry is refused here (EPERM)
# message: At program exit the register R0 has .* should have been in \[0, 0\]
# profile: 7.2 reject should have been in \[0, 0\]
# profile: 6.12 reject should have been in \[0, 0\]
# profile: 6.1 reject should have been in \[0, 0\]
# profile: 5.10 reject should have been in \[0, 0\]
r0 = 1
exit

# case: fexit_returns_unknown
# section: fexit/bpf_fentry_test1
# expect: reject
# kernel: skip fexit is refused here (EPERM)
# message: should have been in \[0, 0\]
# profile: 7.2 reject should have been in \[0, 0\]
# profile: 6.12 reject should have been in \[0, 0\]
# profile: 6.1 reject should have been in \[0, 0\]
# profile: 5.10 reject should have been in \[0, 0\]
r0 = *(u64 *)(r1 + 0)
exit

# case: fmod_ret_returns_errno
# section: fmod_ret/bpf_modify_return_test
# expect: accept
# kernel: skip fmod_ret is refused here (EPERM)
# profile: 7.2 accept
# profile: 6.12 accept
r0 = -22
exit

# bpf_throw without an exception callback: the cookie is the result.
# case: throw_cookie_out_of_range
# expect: reject
# kernel: skip fentry is refused here (EPERM)
# message: register R1 has .* should have been in \[0, 0\]
# profile: 7.2 reject should have been in \[0, 0\]
# profile: 6.12 reject should have been in \[0, 0\]
r1 = 64
call bpf_throw
r0 = 0
exit

# case: throw_cookie_zero
# expect: accept
# kernel: skip fentry is refused here (EPERM)
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 0
call bpf_throw
r0 = 0
exit

# With an exception callback the cookie is its argument; its result must be
# in the range.
# case: exception_cb_returns_cookie
# decl-tag: exception_callback:exc_cb_cookie
# expect: reject
# kernel: skip fentry is refused here (EPERM)
# message: register R0 has .* should have been in \[0, 0\]
# profile: 7.2 reject
# profile: 6.12 reject
r1 = 64
call bpf_throw
r0 = 0
exit

# case: exception_cb_returns_zero
# decl-tag: exception_callback:exc_cb_zero
# expect: accept
# kernel: skip fentry is refused here (EPERM)
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 64
call bpf_throw
r0 = 0
exit
