/* usdt_step: coverage of a USDT probe whose arguments drive the branches.
 *
 * Probes bgwork:step of tests/data/cov/usdt_work.c, fired as
 * STAP_PROBE3(bgwork, step, x, k, 7) behind a semaphore: the probe site only
 * runs while something is attached (the uprobe's ref_ctr_offset raises the
 * semaphore). Arguments come from <bpf/usdt.bpf.h> (BPF_USDT): the attaching
 * side writes one argument spec per probe site into __bpf_usdt_specs and
 * passes its index as the BPF cookie. The section names no target:
 * `bpfgate cov run OBJ --usdt usdt_step=PATH:bgwork:step -- PATH`. One
 * subprogram per branch arm so the compiler keeps the branches; markers name
 * the lines for tests/cov.test.sh.
 */
#include "bg_trace.h"
#include <bpf/usdt.bpf.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} steps SEC(".maps");

static __noinline int bump(__u32 slot)
{
	__u64 *v = bpf_map_lookup_elem(&steps, &slot);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

static __noinline int tally_down(void)
{
	return bump(0);
}

static __noinline int tally_low(void)
{
	return bump(1);
}

static __noinline int tally_other(void)
{
	return bump(2);
}

SEC("usdt")
int BPF_USDT(usdt_step, long x, int k, int c)
{
	if (c != 7)                                      /* L:usdt-const */
		return 0;                                /* L:usdt-const-bad */
	if (k < 0)                                       /* L:usdt-k-neg */
		return tally_down();                     /* L:usdt-down */
	if (x < -2)                                      /* L:usdt-x-low */
		return tally_low();                      /* L:usdt-low */
	return tally_other();                            /* L:usdt-other */
}

char LICENSE[] SEC("license") = "GPL";
