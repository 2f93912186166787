/* Tracing helpers in the interpreter (not comparable with the kernel's test
 * run): probe_read_kernel_str from supplied memory, get_current_comm,
 * bpf_printk, ringbuf reserve/submit and output, perf_event_output, an
 * uninitialized padding read guarded by the sanitizer option. */
#include <linux/bpf.h>
#include <asm/ptrace.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} pe SEC(".maps");

struct ev {
	__u32 pid;
	char name[16];
};

SEC("kprobe/do_sys_openat2")
int kp_helpers(struct pt_regs *ctx)
{
	char name[32], comm[16];
	struct ev *e;
	long n;

	n = bpf_probe_read_kernel_str(name, sizeof(name), (void *)ctx->rsi);
	bpf_get_current_comm(comm, sizeof(comm));
	bpf_printk("open %s by %s n=%ld", name, comm, n);
	e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (e) {
		e->pid = bpf_get_current_pid_tgid() >> 32;
		__builtin_memcpy(e->name, name, sizeof(e->name));
		bpf_ringbuf_submit(e, 0);
	}
	bpf_ringbuf_output(&rb, &n, sizeof(n), 0);
	bpf_perf_event_output(ctx, &pe, BPF_F_CURRENT_CPU, &n, sizeof(n));
	return n;
}
char LICENSE[] SEC("license") = "GPL";
