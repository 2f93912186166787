/* EXPECT: unavailable | kfunc */
/* Calls a kfunc the running kernel does not export (as with kfuncs of a test
 * module that is not loaded): the kernel cannot judge the program. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int bpfgate_no_such_kfunc(int x) __ksym;

SEC("tc")
int kfunc_missing(struct __sk_buff *skb)
{
	return bpfgate_no_such_kfunc(skb->len);
}

char LICENSE[] SEC("license") = "GPL";
