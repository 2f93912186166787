# What the kernels around the running 6.18 decide differently from it
# (`bpfgate check --kernel 6.12,7.2`): 7.2 lets tracing programs use
# bpf_timer, raw_tp programs call the tracing kfuncs and global functions
# return void; 6.12 and 7.2 give a plain pointer where 6.18 walks to an
# untrusted one, 7.2 allows 16 call frames and tracks division by a
# constant. `# expect:` is the running 6.18's verdict (checked by
# bpf()); every `# profile:` line of 6.12/7.2 is checked against that kernel
# booted under QEMU.
# prog-type: kprobe/do_nanosleep
# c: struct tval { struct bpf_timer t; };
# c: struct lval { struct bpf_spin_lock l; long v; };
# c: extern struct task_struct *bpf_task_from_pid(s32 pid) __ksym;
# c: extern void bpf_task_release(struct task_struct *p) __ksym;
# c: extern int bpf_dynptr_from_skb(struct __sk_buff *s, __u64 flags, struct bpf_dynptr *ptr) __ksym;
# c: struct lt1 { long a; };
# c: struct lt2 { long b; long c; struct bpf_rb_node n; };
# c: extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
# c: extern void bpf_obj_drop_impl(void *kptr, void *meta__ign) __ksym;
# c: static __attribute__((noinline)) int drop_merged(int x) { void *p; if (x) { struct lt1 *a = bpf_obj_new_impl(__builtin_btf_type_id(*(struct lt1 *)0, 0), 0); if (!a) return 1; a->a = 1; p = a; } else { struct lt2 *b = bpf_obj_new_impl(__builtin_btf_type_id(*(struct lt2 *)0, 0), 0); if (!b) return 2; b->c = 2; p = b; } bpf_obj_drop_impl(p, 0); return 0; }
# c: __attribute__((noinline)) void g_void(struct __sk_buff *skb) { if (skb) skb->tc_index = 0; }
# c: static __attribute__((noinline)) int sq1(int x) { return x + 1; }
# c: static __attribute__((noinline)) int sq2(int x) { return sq1(x) + 2; }
# c: static __attribute__((noinline)) int sq3(int x) { return sq2(x) + 3; }
# c: static __attribute__((noinline)) int sq4(int x) { return sq3(x) + 4; }
# c: static __attribute__((noinline)) int sq5(int x) { return sq4(x) + 5; }
# c: static __attribute__((noinline)) int sq6(int x) { return sq5(x) + 6; }
# c: static __attribute__((noinline)) int sq7(int x) { return sq6(x) + 7; }
# c: static __attribute__((noinline)) int sq8(int x) { return sq7(x) + 8; }
# c: static __attribute__((noinline)) int sq9(int x) { return sq8(x) + 9; }
# c: static __attribute__((noinline)) int sq10(int x) { return sq9(x) + 10; }
# c: static __attribute__((noinline)) int sq11(int x) { return sq10(x) + 11; }
# c: static __attribute__((noinline)) int sq12(int x) { return sq11(x) + 12; }
# c: static __attribute__((noinline)) int sq13(int x) { return sq12(x) + 13; }
# c: static __attribute__((noinline)) int sq14(int x) { return sq13(x) + 14; }
# c: static __attribute__((noinline)) int sq15(int x) { return sq14(x) + 15; }
# c: static __attribute__((noinline)) int sq16(int x) { return sq15(x) + 16; }
# c: __attribute__((noinline)) int gq1(int x) { return x + 1; }
# c: __attribute__((noinline)) int gq2(int x) { return gq1(x) + 2; }
# c: __attribute__((noinline)) int gq3(int x) { return gq2(x) + 3; }
# c: __attribute__((noinline)) int gq4(int x) { return gq3(x) + 4; }
# c: __attribute__((noinline)) int gq5(int x) { return gq4(x) + 5; }
# c: __attribute__((noinline)) int gq6(int x) { return gq5(x) + 6; }
# c: __attribute__((noinline)) int gq7(int x) { return gq6(x) + 7; }
# c: __attribute__((noinline)) int gq8(int x) { return gq7(x) + 8; }
# map: tm array key=__u32 value=struct_tval entries=1
# map: lm array key=__u32 value=struct_lval entries=1
# map: skst sk_storage key=int value=__u64 flags=1

# A map with a bpf_timer in its value: refused to kprobe, perf_event,
# tracepoint and raw_tp programs at the map's ld_imm64 up to 6.18 ("tracing
# progs cannot use bpf_timer yet"); 7.2 takes it (TIMER_TRACING).
# case: timer_map_kprobe
# expect: reject
# message: tracing progs cannot use bpf_timer yet
# profile: 7.2 accept
# profile: 6.12 reject tracing progs cannot use bpf_timer yet
r1 = %[tm] ll
r0 = 0
exit

# The timer initialised from a raw tracepoint.
# case: timer_init_raw_tp
# section: raw_tp/sys_enter
# expect: reject
# message: tracing progs cannot use bpf_timer yet
# profile: 7.2 accept
# profile: 6.12 reject tracing progs cannot use bpf_timer yet
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[tm] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r2 = %[tm] ll
r3 = 1
call bpf_timer_init
out:
r0 = 0
exit

# A bpf_spin_lock stays refused to tracing programs on 7.2.
# case: spin_lock_map_kprobe_old_ok
# expect: reject
# message: tracing progs cannot use bpf_spin_lock yet
# profile: 7.2 reject
# profile: 6.12 reject tracing progs cannot use bpf_spin_lock yet
r1 = %[lm] ll
r0 = 0
exit

# The tracing kfunc sets (task, cgroup, cpumask kfuncs) in a raw_tp program:
# "calling kernel function bpf_task_from_pid is not allowed" up to 6.18, taken
# by 7.2 (KFUNC_RAW_TP).
# case: kfunc_task_raw_tp
# section: raw_tp/sys_enter
# expect: reject
# message: calling kernel function bpf_task_from_pid is not allowed
# profile: 7.2 accept
# profile: 6.12 reject calling kernel function bpf_task_from_pid is not allowed
r1 = 1
call bpf_task_from_pid
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# The same kfuncs from a tracepoint program: every kernel with them.
# case: kfunc_task_tp_old_ok
# section: tp/syscalls/sys_enter_getpid
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 1
call bpf_task_from_pid
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# A global function returning void: refused up to 6.18 ("Global function
# g_void() doesn't return scalar"), taken by 7.2 (VOID_GLOBAL).
# case: global_void_call
# section: tc
# expect: reject
# profile: 7.2 accept
# profile: 6.12 reject
call %[g_void]
r0 = 0
exit

# Walked from a plain pointer (bpf_sock_from_file's result, from the plain
# file of a task_file iterator): sock->sk (socket's sk at 24) is untrusted on
# 6.18 and a helper's BTF argument refuses it; 6.12 and 7.2 give the plain
# legacy pointer (WALK_PLAIN_STRICT from 6.18, WALK_PLAIN_COMPAT on 7.2).
# case: walk_plain_to_helper
# section: iter/task_file
# expect: reject
# message: R2 type=untrusted_ptr_ expected=ptr_
# profile: 7.2 accept
# profile: 6.12 accept
r1 = *(u64 *)(r1 + 24)
if r1 == 0 goto out
call bpf_sock_from_file
if r0 == 0 goto out
r2 = *(u64 *)(r0 + 24)
r1 = %[skst] ll
r3 = 0
r4 = 0
call bpf_sk_storage_get
out:
r0 = 0
exit

# The walked sk without a NULL check to a helper whose socket argument may
# not be NULL: a plain pointer passes (6.12), an untrusted one does not
# (6.18); a trusted-or-NULL one (were 7.2's helper results trusted: socket's
# sk is on its allow-list) would not either.
# case: walk_plain_no_null_check
# section: iter/task_file
# expect: reject
# profile: 7.2 accept
# profile: 6.12 accept
r1 = *(u64 *)(r1 + 24)
if r1 == 0 goto out
call bpf_sock_from_file
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 24)
call bpf_skc_to_tcp_sock
out:
r0 = 0
exit

# A void global function leaves r0 unset for its caller on 7.2 ("R0
# !read_ok").
# case: global_void_r0_read
# section: tc
# expect: reject
# profile: 7.2 reject R0 !read_ok
# profile: 6.12 reject doesn't return scalar
call %[g_void]
exit

# Walked from a trusted pointer through a member no allow-list names
# (sk_buff's sk at 24, the skb of tp_btf/tcp_retransmit_skb), in a program
# that cannot sleep: the plain pointer on every kernel.
# case: walk_unlisted_to_helper_old_ok
# section: tp_btf/tcp_retransmit_skb
# expect: accept
# profile: 6.12 accept
# profile: 7.2 accept
r1 = *(u64 *)(r1 + 8)
r2 = *(u64 *)(r1 + 24)
r1 = %[skst] ll
r3 = 0
r4 = 0
call bpf_sk_storage_get
r0 = 0
exit

# bpf_dynptr_from_skb's first parameter is the ctx only in a program whose ctx
# is the __sk_buff: a tracepoint program's ctx is passed as a plain pointer
# the kfunc refuses (every kernel; btf_is_prog_ctx_type).
# case: dynptr_skb_tp_ctx_old_ok
# section: tp/syscalls/sys_enter_getpid
# expect: reject
# message: R1 must be referenced or trusted
# profile: 7.2 reject R1 must be referenced or trusted
# profile: 6.12 reject R1 must be referenced or trusted
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb
r0 = 0
exit

# The same from raw_tp: not allowed up to 6.18; on 7.2 allowed (the tracing
# kfunc sets), refused for the ctx.
# case: dynptr_skb_raw_tp_ctx
# section: raw_tp/sys_enter
# expect: reject
# message: calling kernel function bpf_dynptr_from_skb is not allowed
# profile: 7.2 reject R1 must be referenced or trusted
# profile: 6.12 reject calling kernel function bpf_dynptr_from_skb is not allowed
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb
r0 = 0
exit

# One bpf_obj_drop call reached with program-local objects of two types, one
# with a special field (lt2's bpf_rb_node; the compiler merged two drops):
# the running 6.18 refuses it ("... or mark the callee with
# __attribute__((nomerge))"), 6.12 and 7.2 take it (OBJ_DROP_ONE_META from
# 6.18, OBJ_DROP_ANY_META on 7.2).
# case: obj_drop_merged_types
# section: tc
# expect: reject
# message: nomerge
# profile: 7.2 accept
# profile: 6.12 accept
r1 = *(u32 *)(r1 + 0)
call %[drop_merged]
r0 = 0
exit

# 16 bpf-to-bpf frames on 7.2 (MAX_CALL_FRAMES), 8 before (CALL_FRAMES16):
# main and a chain of 8 static functions.
# case: static_chain_9_frames
# section: tc
# expect: reject
# message: the call stack of 9 frames is too deep
# profile: 7.2 accept
# profile: 6.12 reject the call stack of 9 frames is too deep
r1 = 1
call %[sq8]
exit

# case: static_chain_17_frames_old_ok
# section: tc
# expect: reject
# message: the call stack of 9 frames is too deep
# profile: 7.2 reject the call stack of 17 frames is too deep
# profile: 6.12 reject the call stack of 9 frames is too deep
r1 = 1
call %[sq16]
exit

# The same through global functions (each verified on its own; the stack
# walk counts their frames): "the call stack of 8 frames is too deep !".
# case: global_chain_9_frames
# section: tc
# expect: reject
# message: the call stack of 8 frames is too deep !
# profile: 7.2 accept
# profile: 6.12 reject the call stack of 8 frames is too deep !
r1 = 1
call %[gq8]
exit

# 7.2 tracks a division by a constant (DIV_RANGES): 0 / 1 is 0 and the
# branch to the read of r9 is dead; older kernels walk it ("R9 !read_ok").
# case: div_const_dead_branch
# section: tc
# expect: reject
# message: R9 !read_ok
# profile: 7.2 accept
# profile: 6.12 reject R9 !read_ok
r1 = 0
r1 /= 1
if r1 == 0 goto ok
r0 = r9
exit
ok:
r0 = 0
exit

# An unsigned range divided by a constant: [0, 15] / 4 is [0, 3].
# case: div_range_const
# section: tc
# expect: reject
# message: R9 !read_ok
# profile: 7.2 accept
# profile: 6.12 reject R9 !read_ok
r1 = *(u32 *)(r1 + 0)
r1 &= 15
r1 /= 4
if r1 > 3 goto bad
r0 = 0
exit
bad:
r0 = r9
exit

# A 32-bit modulo of an unknown u32 by 4 is [0, 3] on 7.2.
# case: mod_range_const
# section: tc
# expect: reject
# message: R9 !read_ok
# profile: 7.2 accept
# profile: 6.12 reject R9 !read_ok
r1 = *(u32 *)(r1 + 0)
r1 %= 4
if r1 > 3 goto bad
r0 = 0
exit
bad:
r0 = r9
exit

# ... but a modulo is a range, not a value: 7 % 4 is [0, 3], and == 3 is
# not decided (every kernel walks the read of r9).
# case: mod_const_not_exact_old_ok
# section: tc
# expect: reject
# message: R9 !read_ok
# profile: 7.2 reject R9 !read_ok
# profile: 6.12 reject R9 !read_ok
r1 = 7
r1 %= 4
if r1 == 3 goto ok
r0 = r9
exit
ok:
r0 = 0
exit

# A signed division of constants: -8 s/ 2 is -4.
# case: sdiv_const
# section: tc
# expect: reject
# message: R9 !read_ok
# profile: 7.2 accept
r1 = -8
r1 s/= 2
if r1 == -4 goto ok
r0 = r9
exit
ok:
r0 = 0
exit
