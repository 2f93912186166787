/* EXPECT: unavailable | not found in vmlinux BTF */
/* A BTF tracepoint that the running kernel does not have. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("tp_btf/bpfgate_no_such_tracepoint")
int no_attach_target(void *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
