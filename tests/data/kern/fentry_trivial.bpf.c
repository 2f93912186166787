/* EXPECT: unavailable | EPERM */
/* fentry programs are refused with EPERM before verification on this
 * machine (see /work/shared/FACTS.md): the kernel cannot judge them. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("fentry/do_nanosleep")
int fentry_trivial(void *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
