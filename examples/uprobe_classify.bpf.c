/* uprobe_classify: coverage of a user-space function through a uprobe and a
 * uretprobe.
 *
 * Both programs probe `long classify(long x)` of tests/data/cov/uprobe_work.c
 * (x < 0 -> -1; x < 100 -> x % 2; else 2). The entry probe counts arguments
 * per class, the return probe counts results (negative, zero, positive);
 * each arm calls its own non-inlined subprogram so the compiler keeps the
 * branches (tests/cov.test.sh checks exact counts per line and branch). Sections carry no target by default:
 * `bpfgate cov run OBJ --uprobe classify_entry=PATH:classify ...` gives it;
 * built with -DUPROBE_BIN='"/path/to/binary"' the sections name it
 * themselves (`uprobe//path/to/binary:classify`), libbpf's form. Markers
 * name the lines for the test.
 */
#include "bg_trace.h"

#ifdef UPROBE_BIN
#define UPROBE_SEC "uprobe/" UPROBE_BIN ":classify"
#define URETPROBE_SEC "uretprobe/" UPROBE_BIN ":classify"
#else
#define UPROBE_SEC "uprobe"
#define URETPROBE_SEC "uretprobe"
#endif

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} classes SEC(".maps");

static __noinline int bump(__u32 slot)
{
	__u64 *v = bpf_map_lookup_elem(&classes, &slot); /* L:bump-lookup */

	if (v)                                           /* L:bump-check */
		__sync_fetch_and_add(v, 1);              /* L:bump-add */
	return 0;
}

/* One subprogram per class: identical calls in the arms of an if would be
 * merged by the compiler, and the branch turned into a select. */
static __noinline int tally_neg(__u32 slot)
{
	return bump(slot);                               /* L:tally-neg */
}

static __noinline int tally_small(__u32 slot)
{
	return bump(slot);                               /* L:tally-small */
}

static __noinline int tally_big(__u32 slot)
{
	return bump(slot);                               /* L:tally-big */
}

SEC(UPROBE_SEC)
int BPF_KPROBE(classify_entry, long x)
{
	if (x < 0)                                       /* L:arg-neg */
		return tally_neg(0);                     /* L:arg-neg-call */
	if (x < 100)                                     /* L:arg-small */
		return tally_small(1);                   /* L:arg-small-call */
	return tally_big(2);                             /* L:arg-big-call */
}

SEC(URETPROBE_SEC)
int BPF_KRETPROBE(classify_return, long ret)
{
	if (ret < 0)                                     /* L:ret-neg */
		return tally_neg(4);                     /* L:ret-neg-call */
	if (ret == 0)                                    /* L:ret-zero */
		return tally_small(5);                   /* L:ret-zero-call */
	return tally_big(6);                             /* L:ret-other-call */
}

char LICENSE[] SEC("license") = "GPL";
