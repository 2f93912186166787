/* EXPECT: rejected | GPL */
/* bpf_probe_read_kernel is GPL-only; the license says otherwise. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("kprobe/do_nanosleep")
int gpl_only_helper(void *ctx)
{
	long v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), ctx);
	return v == 1;
}

char LICENSE[] SEC("license") = "Proprietary";
