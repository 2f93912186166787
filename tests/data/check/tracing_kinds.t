# Program kinds of libbpf's newer sections. kprobe.session and uprobe.session
# programs are kprobe programs with their own expected attach type: they
# return 0 (run the return probe) or 1 (skip it), and call what kprobe
# programs call. 7.2's multi-function tracing sections ("fentry.multi",
# "fexit.multi", "fsession.multi") name no BTF function: a kernel before 7.2
# gets a tracing program without an attach BTF id ("Tracing programs must
# provide btf_id"), before any instruction.
# prog-type: kprobe.session

# case: kprobe_session_ret0
# expect: accept
r0 = 0
exit

# case: kprobe_session_ret1
# expect: accept
r0 = 1
exit

# case: kprobe_session_ret2
# expect: reject
# message: At program exit the register R0 has .* should have been in \[0, 1\]
# profile: 6.12 reject should have been in \[0, 1\]
r0 = 2
exit

# case: kprobe_session_ret_unknown
# expect: reject
# message: should have been in \[0, 1\]
call bpf_get_prandom_u32
exit

# case: kprobe_session_ret_masked
# expect: accept
call bpf_get_prandom_u32
r0 &= 1
exit

# case: uprobe_session_ret2
# section: uprobe.session
# expect: reject
# message: should have been in \[0, 1\]
r0 = 2
exit

# case: uprobe_session_pid
# section: uprobe.session
# expect: accept
call bpf_get_current_pid_tgid
r0 >>= 32
r0 &= 1
exit

# A plain kprobe's result is not checked.
# case: kprobe_ret2
# section: kprobe
# expect: accept
r0 = 2
exit

# case: fentry_multi_no_btf_id
# section: fentry.multi
# expect: reject
# message: Tracing programs must provide btf_id
r0 = 0
exit
