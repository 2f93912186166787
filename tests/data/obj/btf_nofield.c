/* A target BTF for `--btf`: task_struct without the field `tgid` (and a
 * different layout), to test CO-RE relocations that cannot be satisfied.
 * Compiled with -g -target bpf; the loader reads its .BTF section. */
struct task_struct {
	long state;
	int pid;
	char comm[16];
	struct task_struct *real_parent;
};
struct task_struct task_anchor;
