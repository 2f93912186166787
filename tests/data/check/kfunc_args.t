# kfunc arguments the kernel classifies by their parameter's name in the
# kernel's BTF (check_kfunc_args, btf_param_match_suffix), whatever kfunc
# they belong to: src/platform/kfunc_params.def.
# prog-type: tc
# map: wqmap array key=__u32 value=struct_wqval entries=1
# map: arr array key=4 value=8 entries=1
# c: struct wqval { struct bpf_wq w; };
# c: const char fmt[8] = "hi %d";
# c: const char raw_fmt[4] = "abcd";
# c: char rw_fmt[8] = "hi";
# c: extern int bpf_stream_vprintk_impl(int stream_id, const char *fmt__str, const void *args, u32 len__sz, void *aux__prog) __ksym;
# c: extern struct task_struct *bpf_task_from_pid(s32 pid) __ksym;
# c: extern void bpf_task_release(struct task_struct *p) __ksym;
# c: extern void *bpf_rdonly_cast(const void *obj__ign, u32 btf_id__k) __ksym;
# c: extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __ksym;
# c: extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __ksym;
# c: extern void bpf_local_irq_save(unsigned long *flags__irq_flag) __ksym;
# c: extern void bpf_local_irq_restore(unsigned long *flags__irq_flag) __ksym;

# case: stream_rodata_fmt
# expect: accept
r1 = 7
*(u64 *)(r10 - 8) = r1
w1 = 1
r2 = %[fmt] ll
r3 = r10
r3 += -8
w4 = 8
r5 = 0
call bpf_stream_vprintk_impl
r0 = 0
exit

# case: stream_fmt_on_stack
# expect: reject
# message: arg#1 doesn't point to a const string
r1 = 7
*(u64 *)(r10 - 8) = r1
w1 = 1
r2 = r10
r2 += -8
r3 = r10
r3 += -8
w4 = 8
r5 = 0
call bpf_stream_vprintk_impl
r0 = 0
exit

# case: stream_fmt_writable
# expect: reject
# message: R2 does not point to a readonly map
r1 = 7
*(u64 *)(r10 - 8) = r1
w1 = 1
r2 = %[rw_fmt] ll
r3 = r10
r3 += -8
w4 = 8
r5 = 0
call bpf_stream_vprintk_impl
r0 = 0
exit

# case: stream_fmt_unterminated
# expect: reject
# message: string is not zero-terminated
r1 = 7
*(u64 *)(r10 - 8) = r1
w1 = 1
r2 = %[raw_fmt] ll
r3 = r10
r3 += -8
w4 = 8
r5 = 0
call bpf_stream_vprintk_impl
r0 = 0
exit

# case: stream_len_uninit
# expect: reject
r1 = 7
*(u64 *)(r10 - 8) = r1
w1 = 1
r2 = %[fmt] ll
r3 = r10
r3 += -8
r5 = 0
call bpf_stream_vprintk_impl
r0 = 0
exit

# case: stream_aux_uninit
# expect: accept
r1 = 7
*(u64 *)(r10 - 8) = r1
w1 = 1
r2 = %[fmt] ll
r3 = r10
r3 += -8
w4 = 8
call bpf_stream_vprintk_impl
r0 = 0
exit

# case: stream_id_pointer
# expect: reject
# message: R1 is not a scalar
r1 = 7
*(u64 *)(r10 - 8) = r1
r1 = r10
r2 = %[fmt] ll
r3 = r10
r3 += -8
w4 = 8
r5 = 0
call bpf_stream_vprintk_impl
r0 = 0
exit

# case: task_from_pid_pointer
# expect: reject
# message: R1 is not a scalar
r1 = r10
call bpf_task_from_pid
if r0 == 0 goto out
r1 = r0
call bpf_task_release
out:
r0 = 0
exit

# case: rdonly_cast_var_id
# expect: reject
# message: R2 must be a known constant
r2 = *(u32 *)(r1 + 0)
r1 = r10
call bpf_rdonly_cast
r0 = 0
exit

# case: wq_init_not_map
# expect: reject
# message: pointer in R2 isn't map pointer
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[wqmap] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r2 = r10
r3 = 0
call bpf_wq_init
out:
r0 = 0
exit

# case: wq_init_map
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[wqmap] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r2 = %[wqmap] ll
r3 = 0
call bpf_wq_init
out:
r0 = 0
exit

# case: irq_flag_in_map_value
# expect: reject
# message: arg#0 doesn't point to an irq flag on stack
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
r1 = r0
call bpf_local_irq_save
r1 = r6
call bpf_local_irq_restore
out:
r0 = 0
exit

# case: irq_restore_uninit_flag
# expect: reject
# message: expected an initialized irq flag as arg#0
r1 = r10
r1 += -8
call bpf_local_irq_restore
r0 = 0
exit

# case: irq_save_twice_same_flag
# expect: reject
# message: expected uninitialized irq flag as arg#0
r1 = r10
r1 += -8
call bpf_local_irq_save
r1 = r10
r1 += -8
call bpf_local_irq_save
r1 = r10
r1 += -8
call bpf_local_irq_restore
r1 = r10
r1 += -8
call bpf_local_irq_restore
r0 = 0
exit

# case: irq_flag_overwritten
# expect: reject
# message: expected an initialized irq flag as arg#0
r1 = r10
r1 += -8
call bpf_local_irq_save
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
call bpf_local_irq_restore
r0 = 0
exit

# case: irq_restore_out_of_order
# expect: reject
# message: cannot restore irq state out of order
r1 = r10
r1 += -8
call bpf_local_irq_save
r1 = r10
r1 += -16
call bpf_local_irq_save
r1 = r10
r1 += -8
call bpf_local_irq_restore
r1 = r10
r1 += -16
call bpf_local_irq_restore
r0 = 0
exit

# case: irq_nested_in_order
# expect: accept
r1 = r10
r1 += -8
call bpf_local_irq_save
r1 = r10
r1 += -16
call bpf_local_irq_save
r1 = r10
r1 += -16
call bpf_local_irq_restore
r1 = r10
r1 += -8
call bpf_local_irq_restore
r0 = 0
exit

# case: irq_flag_read
# expect: reject
# message: invalid read from stack R10 off -8\+0 size 8
r1 = r10
r1 += -8
call bpf_local_irq_save
r6 = *(u64 *)(r10 - 8)
r1 = r10
r1 += -8
call bpf_local_irq_restore
r0 = 0
exit

# case: rdonly_cast_uninit_id
# expect: reject
# message: R2 is not a scalar
r1 = r10
call bpf_rdonly_cast
r0 = 0
exit

# case: wq_start_map_value
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[wqmap] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r2 = 0
call bpf_wq_start
out:
r0 = 0
exit

# case: wq_init_other_map
# expect: reject
# message: workqueue pointer in R1 map_uid=0 doesn.t match map pointer in R2 map_uid=0
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[wqmap] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r2 = %[arr] ll
r3 = 0
call bpf_wq_init
out:
r0 = 0
exit

# case: wq_start_off_field
# expect: reject
# message: off 4 doesn't point to 'struct bpf_wq' that is at 0
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[wqmap] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r1 += 4
r2 = 0
call bpf_wq_start
out:
r0 = 0
exit

# case: wq_start_stack
# expect: reject
# message: arg#0 doesn't point to a map value
r1 = r10
r1 += -16
r2 = 0
call bpf_wq_start
r0 = 0
exit

# case: wq_start_no_wq_in_map
# expect: reject
# message: map 'arr' has to have BTF in order to use bpf_wq
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[arr] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r2 = 0
call bpf_wq_start
out:
r0 = 0
exit

# case: irq_save_in_branches
# expect: accept
r6 = *(u32 *)(r1 + 0)
r1 = r10
r1 += -8
call bpf_local_irq_save
if r6 > 5 goto other
r1 = r10
r1 += -16
call bpf_local_irq_save
r1 = r10
r1 += -16
call bpf_local_irq_restore
other:
r1 = r10
r1 += -8
call bpf_local_irq_restore
r0 = 0
exit

# case: stream_args_null
# expect: reject
# message: Possibly NULL pointer passed to trusted arg2
w1 = 1
r2 = %[fmt] ll
r3 = 0
w4 = 0
r5 = 0
call bpf_stream_vprintk_impl
r0 = 0
exit

# case: stream_args_scalar
# expect: reject
# message: R3 type=scalar expected=
w1 = 1
r2 = %[fmt] ll
r3 = 46
w4 = 0
r5 = 0
call bpf_stream_vprintk_impl
r0 = 0
exit

# case: stream_fmt_ctx
# expect: reject
# message: arg#1 doesn't point to a const string
r2 = r1
w1 = 1
r3 = 0
w4 = 0
r5 = 0
call bpf_stream_vprintk_impl
r0 = 0
exit
