/* uprobe.multi / uretprobe.multi coverage test (tests/cov.test.sh): both
 * programs attach to every function matching step_* of
 * tests/data/cov/uprobe_work.c (step_odd, step_even; 2 calls each per round).
 * The entry program branches on the argument's parity, the return program
 * on the result (x & 1): each arm only runs if its function was probed.
 * Markers name the lines. */
#define __TARGET_ARCH_x86
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

__u64 odd_args, even_args, odd_rets, even_rets;

static __noinline int count_odd(__u64 *c)
{
	__sync_fetch_and_add(c, 1);                      /* L:multi-odd-add */
	return 0;
}

static __noinline int count_even(__u64 *c)
{
	__sync_fetch_and_add(c, 1);                      /* L:multi-even-add */
	return 0;
}

SEC("uprobe.multi")
int BPF_KPROBE(step_entry, long x)
{
	if (x & 1)                                       /* L:multi-arg */
		return count_odd(&odd_args);             /* L:multi-arg-odd */
	return count_even(&even_args);                   /* L:multi-arg-even */
}

SEC("uretprobe.multi")
int BPF_KRETPROBE(step_return, long ret)
{
	if (ret)                                         /* L:multi-ret */
		return count_odd(&odd_rets);             /* L:multi-ret-odd */
	return count_even(&even_rets);                   /* L:multi-ret-even */
}

char LICENSE[] SEC("license") = "GPL";
