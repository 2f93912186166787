/* EXPECT: rejected | CO-RE */
/* Reads a task_struct field that no kernel has: the CO-RE relocation cannot
 * be satisfied, the instruction is poisoned (as libbpf does), and the verifier
 * rejects the program at the poisoned call: a verdict of this kernel, the one
 * libbpf's loader (corpus/kjudge.c) and `bpfgate check` give too. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct task_struct {
	int bpfgate_no_such_field;
} __attribute__((preserve_access_index));

SEC("kprobe/do_nanosleep")
int core_missing_field(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();

	return BPF_CORE_READ(t, bpfgate_no_such_field);
}

char LICENSE[] SEC("license") = "GPL";
