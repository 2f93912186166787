# Which program kinds a kernel may run sleeping (check_attach_btf_id's
# can_be_sleepable) and what a sleepable program may use: libbpf's ".s"
# sections load with BPF_F_SLEEPABLE. Tracepoint, raw_tp and tp_btf programs
# may sleep from 7.2 on ("tp.s/", "raw_tp.s/", "tp_btf.s/"); the running 6.18
# and 6.12 refuse them before any instruction. A sleepable program may use
# only array, hash, ringbuf, local storage (and a few more) maps, reached or
# not; a prog array joins the list in 7.2.
# prog-type: tp.s/syscalls/sys_enter_getcwd
# map: jmp prog_array key=4 value=4 entries=2
# map: arr array key=4 value=8 entries=2

# case: tp_sleepable
# expect: reject
# message: Only fentry/fexit/fmod_ret, lsm, iter, uprobe, and struct_ops programs can be sleepable
# profile: 6.12 reject can be sleepable
# profile: 7.2 accept
r0 = 0
exit

# case: raw_tp_sleepable
# section: raw_tp.s/sys_enter
# expect: reject
# message: Only fentry/fexit/fmod_ret, lsm, iter, uprobe, and struct_ops programs can be sleepable
# profile: 6.12 reject can be sleepable
# profile: 7.2 accept
r0 = 0
exit

# case: raw_tracepoint_sleepable_alias
# section: raw_tracepoint.s/sys_enter
# expect: reject
# message: can be sleepable
r0 = 0
exit

# case: tp_btf_sleepable
# section: tp_btf.s/sys_enter
# expect: reject
# message: can be sleepable \(a sleepable tracing program, attach type trace_raw_tp\)
# profile: 6.12 reject can be sleepable
# profile: 7.2 accept
r0 = 0
exit

# The same programs loaded without BPF_F_SLEEPABLE load.
# case: tp_plain
# section: tp/syscalls/sys_enter_getcwd
# expect: accept
r0 = 0
exit

# case: raw_tp_plain
# section: raw_tp/sys_enter
# expect: accept
r0 = 0
exit

# A sleepable uprobe may use an array, not a prog array (before 7.2), even
# where the reference is never reached.
# case: uprobe_sleepable_array
# section: uprobe.s
# expect: accept
r1 = %[arr] ll
r0 = 0
exit

# case: uprobe_sleepable_prog_array
# section: uprobe.s
# expect: reject
# message: Sleepable programs can only use array, hash, ringbuf and local storage maps.*prog_array
# profile: 6.12 reject Sleepable programs can only use
# profile: 7.2 accept
r0 = 0
if r0 != 0 goto skip
exit
skip:
r1 = %[jmp] ll
exit

# case: uprobe_plain_prog_array
# section: uprobe
# expect: accept
r1 = %[jmp] ll
r0 = 0
exit

# syscall programs are always loaded sleepable.
# case: syscall_prog_array
# section: syscall
# expect: reject
# message: Sleepable programs can only use
r2 = %[jmp] ll
r0 = 0
exit
