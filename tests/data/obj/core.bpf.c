/* Loader test: CO-RE relocations of every kind against the target BTF.
 * Local types are flavors (___local) with preserve_access_index, so only the
 * fields named here matter and their local offsets are deliberately wrong. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct task_struct___local {
	int pad;
	int pid;
	int tgid;
	char comm[16];
	struct task_struct___local *real_parent;
	int field_not_in_kernel;
} __attribute__((preserve_access_index));

struct sk_buff___local {
	unsigned char pkt_type : 3;
} __attribute__((preserve_access_index));

enum bpf_map_type___local { BPF_MAP_TYPE_RINGBUF___local = 27, BPF_MAP_TYPE_NOPE___local = 9999 };

struct no_such_type___local { int x; };

int out[16];

SEC("kprobe/do_nanosleep")
int core_reads(void *ctx)
{
	struct task_struct___local *t = (void *)bpf_get_current_task();

	out[0] = BPF_CORE_READ(t, pid);
	out[1] = BPF_CORE_READ(t, real_parent, tgid);
	out[2] = bpf_core_field_exists(t->field_not_in_kernel);
	out[3] = bpf_core_field_size(t->comm);
	out[4] = bpf_core_type_exists(struct no_such_type___local);
	out[5] = bpf_core_type_size(struct task_struct___local);
	out[6] = bpf_core_enum_value_exists(enum bpf_map_type___local, BPF_MAP_TYPE_RINGBUF___local);
	out[7] = bpf_core_enum_value(enum bpf_map_type___local, BPF_MAP_TYPE_RINGBUF___local);
	out[8] = bpf_core_type_id_local(struct task_struct___local);
	out[9] = bpf_core_type_id_kernel(struct task_struct___local);
	out[10] = bpf_core_field_exists(t->pid);
	out[11] = bpf_core_enum_value_exists(enum bpf_map_type___local, BPF_MAP_TYPE_NOPE___local);
	/* type-based relocations of a type the target lacks: 0, as libbpf */
	out[14] = bpf_core_type_size(struct no_such_type___local);
	out[15] = bpf_core_type_id_kernel(struct no_such_type___local);
	return 0;
}

SEC("kprobe/do_nanosleep")
int core_bitfield(void *ctx)
{
	struct sk_buff___local *skb = (void *)bpf_get_current_task();

	out[12] = BPF_CORE_READ_BITFIELD_PROBED(skb, pkt_type);
	return 0;
}

SEC("kprobe/do_nanosleep")
int core_missing(void *ctx)
{
	struct task_struct___local *t = (void *)bpf_get_current_task();

	out[13] = BPF_CORE_READ(t, field_not_in_kernel);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
