# Helper prototypes as the kernel checks them (argument kinds per helper).
# prog-type: socket

# case: trace_printk_two_args
# expect: accept
# bpf_trace_printk's prototype names only fmt and fmt_size: r3-r5 are not
# checked (bpf_printk("x") leaves them uninitialized)
r1 = 0x0a78
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
r2 = 3
call bpf_trace_printk
r0 = 0
exit

# case: trace_printk_fmt_uninit
# expect: accept
# privileged: an uninitialized stack buffer may be passed as readable memory
r1 = r10
r1 += -8
r2 = 3
call bpf_trace_printk
r0 = 0
exit
