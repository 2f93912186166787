/* The section table (src/platform/sections.c): enough entries, lookups of
 * libbpf's conventions, and every numeric program/attach type checked against
 * the running kernel's BTF (enum bpf_prog_type / bpf_attach_type by name), so
 * the restated uapi values cannot drift. */
/* min-pass: 138 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <ctype.h>
#include <bpf/btf.h>
#include "platform/sections.h"
#include "test.h"

static void lookup(const char *sec, const char *type, const char *target, uint32_t flags)
{
	const char *t = NULL;
	const struct bg_sec_def *d = bg_sec_def_find(sec, &t);
	char name[160];

	snprintf(name, sizeof(name), "sec-%s", sec);
	T_CHECK(d && !strcmp(bg_prog_type_name(d->prog_type), type) &&
			((!target && !t) || (target && t && !strcmp(t, target))) && d->prog_flags == flags,
		name, "got %s target %s flags %u", d ? bg_prog_type_name(d->prog_type) : "none", t ? t : "-",
		d ? d->prog_flags : 0);
}

/* Value of enumerator "PREFIX" + upper(name) in enum ename of btf, or -1. */
static long enum_val(const struct btf *btf, const char *ename, const char *prefix, const char *name)
{
	int id = btf__find_by_name_kind(btf, ename, BTF_KIND_ENUM);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	char want[128];
	size_t n = snprintf(want, sizeof(want), "%s", prefix);

	for (const char *c = name; *c && n + 1 < sizeof(want); c++)
		want[n++] = (char)toupper((unsigned char)*c);
	want[n] = '\0';
	for (uint16_t i = 0; t && i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, btf_enum(t)[i].name_off), want))
			return btf_enum(t)[i].val;
	return -1;
}

int main(void)
{
	unsigned n;
	const struct bg_sec_def *defs = bg_sec_defs(&n);
	struct btf *vm;

	T_CHECK(n >= 30, "sec-table-size", "%u entries", n);
	lookup("xdp", "xdp", NULL, 0);
	lookup("xdp.frags", "xdp", NULL, BG_PROG_F_XDP_FRAGS);
	lookup("tc", "sched_cls", NULL, 0);
	lookup("classifier", "sched_cls", NULL, 0);
	lookup("tcx/ingress", "sched_cls", NULL, 0);
	lookup("action", "sched_act", NULL, 0);
	lookup("socket", "socket_filter", NULL, 0);
	lookup("kprobe/do_sys_open", "kprobe", "do_sys_open", 0);
	lookup("kretprobe/vfs_read", "kprobe", "vfs_read", 0);
	lookup("kprobe", "kprobe", NULL, 0);
	/* libbpf: a leading "?" only disables autoload */
	lookup("?kprobe/do_sys_open", "kprobe", "do_sys_open", 0);
	lookup("?fentry.s/do_sys_open", "tracing", "do_sys_open", BG_PROG_F_SLEEPABLE);
	lookup("ksyscall/openat", "kprobe", "openat", 0);
	lookup("uprobe//bin/sh:main", "kprobe", "/bin/sh:main", 0);
	lookup("uretprobe.s/x", "kprobe", "x", BG_PROG_F_SLEEPABLE);
	lookup("usdt/a:b:c", "kprobe", "a:b:c", 0);
	lookup("tracepoint/syscalls/sys_enter_openat", "tracepoint", "syscalls/sys_enter_openat", 0);
	lookup("tp/sched/sched_switch", "tracepoint", "sched/sched_switch", 0);
	lookup("raw_tracepoint/sched_switch", "raw_tracepoint", "sched_switch", 0);
	lookup("raw_tp/sys_enter", "raw_tracepoint", "sys_enter", 0);
	lookup("raw_tp.w/x", "raw_tracepoint_writable", "x", 0);
	lookup("tp_btf/sched_process_fork", "tracing", "sched_process_fork", 0);
	lookup("fentry/tcp_v4_connect", "tracing", "tcp_v4_connect", 0);
	lookup("fexit/tcp_v4_connect", "tracing", "tcp_v4_connect", 0);
	lookup("fmod_ret/x", "tracing", "x", 0);
	lookup("fentry.s/x", "tracing", "x", BG_PROG_F_SLEEPABLE);
	lookup("lsm/file_open", "lsm", "file_open", 0);
	lookup("lsm.s/bpf", "lsm", "bpf", BG_PROG_F_SLEEPABLE);
	lookup("iter/task", "tracing", "task", 0);
	lookup("syscall", "syscall", NULL, BG_PROG_F_SLEEPABLE);
	lookup("cgroup_skb/ingress", "cgroup_skb", NULL, 0);
	lookup("cgroup_skb/egress", "cgroup_skb", NULL, 0);
	lookup("cgroup/skb", "cgroup_skb", NULL, 0);
	lookup("cgroup/sock_create", "cgroup_sock", NULL, 0);
	lookup("cgroup/connect4", "cgroup_sock_addr", NULL, 0);
	lookup("cgroup/connect6", "cgroup_sock_addr", NULL, 0);
	lookup("cgroup/sendmsg4", "cgroup_sock_addr", NULL, 0);
	lookup("cgroup/getsockopt", "cgroup_sockopt", NULL, 0);
	lookup("cgroup/sysctl", "cgroup_sysctl", NULL, 0);
	lookup("cgroup/dev", "cgroup_device", NULL, 0);
	lookup("sockops", "sock_ops", NULL, 0);
	lookup("sk_msg", "sk_msg", NULL, 0);
	lookup("sk_skb/stream_parser", "sk_skb", NULL, 0);
	lookup("sk_skb/stream_verdict", "sk_skb", NULL, 0);
	lookup("sk_lookup", "sk_lookup", NULL, 0);
	lookup("flow_dissector", "flow_dissector", NULL, 0);
	lookup("perf_event", "perf_event", NULL, 0);
	lookup("struct_ops/tcp_init", "struct_ops", "tcp_init", 0);
	lookup("lwt_in", "lwt_in", NULL, 0);
	lookup("lwt_xmit", "lwt_xmit", NULL, 0);
	lookup("sk_reuseport", "sk_reuseport", NULL, 0);
	lookup("netfilter", "netfilter", NULL, 0);
	lookup("xdp/legacy_name", "xdp", "legacy_name", 0);
	T_CHECK(!bg_sec_def_find("fentry", NULL) && !bg_sec_def_find("no_such_section", NULL) &&
			!bg_sec_def_find(".text", NULL) && !bg_sec_def_find("xdpfoo", NULL),
		"sec-unknown", "an unknown or incomplete name matched");
	T_CHECK(bg_prog_type_by_name("sched_cls") == 3 && bg_prog_type_by_name("nope") == -1 &&
			!strcmp(bg_attach_type_name(46), "tcx_ingress"),
		"sec-names", "name tables inconsistent");

	vm = btf__parse("/sys/kernel/btf/vmlinux", NULL);
	if (!vm) {
		T_SKIP("sec-values-vs-kernel", "no /sys/kernel/btf/vmlinux");
		T_EXIT();
	}
	/* attach types after the running kernel's (7.2's multi-function tracing)
	 * are absent from its enum */
	long at_max = enum_val(vm, "bpf_attach_type", "__MAX_BPF_ATTACH_TYPE", "");
	for (unsigned i = 0; i < n; i++) {
		const struct bg_sec_def *d = &defs[i];
		long pt = enum_val(vm, "bpf_prog_type", "BPF_PROG_TYPE_", bg_prog_type_name(d->prog_type));
		long at = d->has_attach ? enum_val(vm, "bpf_attach_type", "BPF_", bg_attach_type_name(d->attach_type))
					: (long)d->attach_type;
		if (at == -1 && at_max > 0 && (long)d->attach_type >= at_max)
			at = (long)d->attach_type;
		char name[128];

		snprintf(name, sizeof(name), "sec-kernel-%s", d->name);
		T_CHECK(pt == (long)d->prog_type && at == (long)d->attach_type, name,
			"prog type %u (kernel %ld), attach %u (kernel %ld)", d->prog_type, pt, d->attach_type, at);
	}
	btf__free(vm);
	T_EXIT();
}
