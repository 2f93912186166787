# Global (non-static) functions: each is verified once, on its own, with
# arguments typed by its BTF prototype and `arg:` decl tags (the kernel's
# btf_prepare_func_args); a call checks the caller's registers against that
# prototype (btf_check_func_arg_match) and refuses the program with "Caller
# passes invalid args into func#N" when they do not fit: a pointer to the
# program type's ctx struct or `arg:ctx` is the ctx at offset 0, any other
# pointer is nullable memory of its pointee's size that must be readable and
# writable (the ctx of a type that rewrites ctx accesses is no memory),
# `arg:nonnull` drops the NULL, `arg:trusted` wants a trusted kernel object of
# the named struct, and `struct bpf_dynptr *` an initialized dynptr, which
# the function sees as a read-only local dynptr (CONST_PTR_TO_DYNPTR,
# "dynptr_ptr"): dynptr helpers and kfuncs take it (and another global
# function), a load or store through it, a release or a re-initialization
# do not.
# Global functions count in the kernel's walk of the call graph
# (check_max_stack_depth) like static ones: at most 8 frames and 512 bytes of
# stack (16-byte rounded) along any chain of calls. A global function that
# changes packet data (a helper that does, a tail call, or a function it
# calls that does: check_cfg's changes_pkt_data) leaves the caller's packet
# pointers stale. A legacy packet load (LD_ABS/LD_IND) that fails returns 0
# from a subprogram (bpf_gen_ld_abs's hidden exit), so such a subprogram
# must be declared to return an integer.
# prog-type: tc
# c: const volatile int ro_val = 1;
# c: __attribute__((noinline)) int g_skb(struct __sk_buff *skb) { return skb->len; }
# c: __attribute__((noinline)) int g_store(int *p) { if (p) *p = 42; return 0; }
# c: __attribute__((noinline)) int g_nonnull(int *p __attribute__((btf_decl_tag("arg:nonnull")))) { return *p; }
# c: __attribute__((noinline)) int g_nullable(int *p) { return *p; }
# c: __attribute__((noinline)) int g_dynptr(struct bpf_dynptr *d) { return d != 0; }
# c: extern int bpf_dynptr_from_skb(struct __sk_buff *skb, u64 flags, struct bpf_dynptr *ptr__uninit) __ksym;
# c: extern void *bpf_dynptr_slice(const struct bpf_dynptr *p, u32 offset, void *buffer__opt, u32 buffer__szk) __ksym;
# c: __attribute__((noinline)) long g_dynptr_read(struct bpf_dynptr *d) { long x = 0; bpf_dynptr_read(&x, sizeof(x), d, 0, 0); return x; }
# c: __attribute__((noinline)) long g_dynptr_slice(struct bpf_dynptr *d) { long buf = 0, *p = bpf_dynptr_slice(d, 0, &buf, sizeof(buf)); return p ? *p : 0; }
# c: __attribute__((noinline)) long g_dynptr_fwd(struct bpf_dynptr *d) { return g_dynptr_read(d) + 1; }
# c: __attribute__((noinline)) long g_dynptr_store(struct bpf_dynptr *d) { *(volatile long *)d = 0; return 0; }
# c: __attribute__((noinline)) long g_dynptr_reinit(struct bpf_dynptr *d) { static long buf; return bpf_dynptr_from_mem(&buf, sizeof(buf), 0, d); }
# c: static long g_stack[4];
# c: __attribute__((noinline)) int g_ctx_tag(void *ctx __attribute__((btf_decl_tag("arg:ctx")))) { return bpf_get_stack(ctx, g_stack, sizeof(g_stack), 0); }
# c: __attribute__((noinline)) int g_ctx_untagged(void *ctx) { return bpf_get_stack(ctx, g_stack, sizeof(g_stack), 0); }
# c: __attribute__((noinline)) int g_raw_tp(struct bpf_raw_tracepoint_args *ctx) { return bpf_get_stack(ctx, g_stack, sizeof(g_stack), 0); }
# c: __attribute__((noinline)) int gd1(int x) { return x + 1; }
# c: __attribute__((noinline)) int gd2(int x) { return gd1(x) + 2; }
# c: __attribute__((noinline)) int gd3(int x) { return gd2(x) + 3; }
# c: __attribute__((noinline)) int gd4(int x) { return gd3(x) + 4; }
# c: __attribute__((noinline)) int gd5(int x) { return gd4(x) + 5; }
# c: __attribute__((noinline)) int gd6(int x) { return gd5(x) + 6; }
# c: __attribute__((noinline)) int gd7(int x) { return gd6(x) + 7; }
# c: __attribute__((noinline)) int gd8(int x) { return gd7(x) + 8; }
# c: __attribute__((noinline)) int g_big(int x) { volatile char buf[300] = {}; return buf[299] + x; }
# c: __attribute__((noinline)) int g_pull(struct __sk_buff *skb) { return bpf_skb_pull_data(skb, 0); }
# c: struct { __uint(type, BPF_MAP_TYPE_PROG_ARRAY); __uint(max_entries, 1); __uint(key_size, 4); __uint(value_size, 4); } g_jt SEC(".maps");
# c: __attribute__((noinline)) int g_tail(struct __sk_buff *skb) { bpf_tail_call(skb, &g_jt, 0); return 0; }
# c: static __attribute__((naked, used, noinline)) int ldabs_int(void) { asm volatile("r6 = r1\n r0 = *(u32 *)skb[0]\n r0 = 1\n exit\n" ::: "memory"); }
# c: static __attribute__((naked, used, noinline)) void ldabs_void(void) { asm volatile("r6 = r1\n r0 = *(u32 *)skb[0]\n r0 = 1\n exit\n" ::: "memory"); }
# c: __attribute__((noinline)) int g_task(struct task_struct *t __attribute__((btf_decl_tag("arg:trusted")))) { return t->pid; }

# case: ctx_struct_arg
# expect: accept
call g_skb
exit

# case: ctx_struct_arg_modified
# expect: reject
# message: Caller passes invalid args into func#1 .*modified ctx ptr R1 off=8
r1 += 8
call g_skb
exit

# case: ctx_struct_arg_not_ctx
# expect: reject
# message: Caller passes invalid args into func#1 .*arg#0 expects pointer to ctx
r1 = r10
r1 += -8
call g_skb
exit

# case: mem_arg_stack
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
call g_store
exit

# case: mem_arg_readonly_map
# expect: reject
# message: Caller passes invalid args into func#1 .*write into map forbidden
r1 = %[ro_val] ll
call g_store
exit

# case: mem_arg_rewritten_ctx
# expect: reject
# message: Caller passes invalid args into func#1 .*R1 type=ctx expected=
call g_store
exit

# case: mem_arg_too_short
# expect: reject
# message: Caller passes invalid args into func#1 .*stack
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -2
call g_store
exit

# case: mem_arg_null_const
# expect: accept
r1 = 0
call g_store
exit

# case: nonnull_arg_no_check
# expect: accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
call g_nonnull
exit

# case: nonnull_arg_null_const
# expect: reject
# message: Caller passes invalid args into func#1 .*arg#0 is expected to be non-NULL
r1 = 0
call g_nonnull
exit

# case: nullable_arg_no_check
# expect: reject
# message: NULL check missing
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
call g_nullable
exit

# case: dynptr_arg_scalar
# expect: reject
# message: Caller passes invalid args into func#1 .*expected pointer to stack or const struct bpf_dynptr
r1 = 0
call g_dynptr
exit

# case: dynptr_arg_uninit
# expect: reject
# message: Caller passes invalid args into func#1 .*Expected an initialized dynptr
r1 = 0
*(u64 *)(r10 - 8) = r1
*(u64 *)(r10 - 16) = r1
r1 = r10
r1 += -16
call g_dynptr
exit

# case: dynptr_arg_read
# expect: accept
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb
r1 = r10
r1 += -16
call g_dynptr_read
r0 = 0
exit

# case: dynptr_arg_slice
# expect: accept
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb
r1 = r10
r1 += -16
call g_dynptr_slice
r0 = 0
exit

# case: dynptr_arg_forwarded
# expect: accept
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb
r1 = r10
r1 += -16
call g_dynptr_fwd
r0 = 0
exit

# case: dynptr_arg_store
# expect: reject
# message: invalid mem access 'dynptr_ptr'
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb
r1 = r10
r1 += -16
call g_dynptr_store
r0 = 0
exit

# case: dynptr_arg_reinit
# expect: reject
# message: Dynptr has to be an uninitialized dynptr
r2 = 0
r3 = r10
r3 += -16
call bpf_dynptr_from_skb
r1 = r10
r1 += -16
call g_dynptr_reinit
r0 = 0
exit

# case: ctx_tag_kprobe
# section: kprobe
# expect: accept
call g_ctx_tag
exit

# case: ctx_untagged_kprobe
# section: kprobe
# expect: reject
# message: expected=ctx
call g_ctx_untagged
exit

# case: ctx_tag_raw_tp
# section: raw_tp
# expect: accept
call g_ctx_tag
exit

# case: ctx_struct_raw_tp
# section: raw_tp
# expect: accept
call g_raw_tp
exit

# case: ctx_tag_tracepoint
# section: tracepoint
# expect: accept
call g_ctx_tag
exit

# case: trusted_arg_task
# section: tp_btf/task_newtask
# expect: accept
call bpf_get_current_task_btf
r1 = r0
call g_task
exit

# case: trusted_arg_null
# section: tp_btf/task_newtask
# expect: reject
# message: Caller passes invalid args into func#1 .*R1 type=scalar expected=ptr_
r1 = 0
call g_task
exit

# case: global_chain_8_frames
# expect: accept
r1 = 1
call gd7
exit

# case: global_chain_9_frames
# expect: reject
# message: the call stack of 8 frames is too deep
r1 = 1
call gd8
exit

# case: global_stack_combined_ok
# expect: accept
r1 = 0
*(u64 *)(r10 - 128) = r1
r1 = 1
call g_big
exit

# case: global_stack_combined_too_large
# expect: reject
# message: combined stack size of 2 calls is 576
r1 = 0
*(u64 *)(r10 - 256) = r1
r1 = 1
call g_big
exit

# case: global_pull_data_stale_pkt
# expect: reject
# message: R7 invalid mem access
r6 = r1
r7 = *(u32 *)(r6 + 76)
r8 = *(u32 *)(r6 + 80)
r2 = r7
r2 += 8
if r2 > r8 goto out
r1 = r6
call g_pull
r0 = *(u8 *)(r7 + 0)
out:
r0 = 0
exit

# case: global_tail_call_stale_pkt
# expect: reject
# message: R7 invalid mem access
r6 = r1
r7 = *(u32 *)(r6 + 76)
r8 = *(u32 *)(r6 + 80)
r2 = r7
r2 += 8
if r2 > r8 goto out
r1 = r6
call g_tail
r0 = *(u8 *)(r7 + 0)
out:
r0 = 0
exit

# case: global_no_pull_pkt_kept
# expect: accept
r6 = r1
r7 = *(u32 *)(r6 + 76)
r8 = *(u32 *)(r6 + 80)
r2 = r7
r2 += 8
if r2 > r8 goto out
r1 = r6
call g_skb
r0 = *(u8 *)(r7 + 0)
out:
r0 = 0
exit

# case: ld_abs_subprog_hidden_exit
# section: socket
# expect: reject
# message: R9
call ldabs_int
if r0 != 0 goto out
r0 = r9
out:
r0 = 0
exit

# case: ld_abs_subprog_both_paths
# section: socket
# expect: accept
call ldabs_int
r0 = 0
exit

# case: ld_abs_void_subprog
# section: socket
# expect: reject
# message: LD_ABS is only allowed in functions that return 'int'
call ldabs_void
r0 = 0
exit
