/* The section-name table (libbpf's conventions, restated as data) and the
 * names of program and attach types. Entries are tried in order, so a longer
 * name ("xdp.frags/devmap") precedes its prefix ("xdp.frags", "xdp"). */
#include <string.h>
#include "platform/sections.h"

#define P(t) BG_PROG_##t
#define A(t) BG_ATTACH_##t
#define SLEEP BG_PROG_F_SLEEPABLE
#define FRAGS BG_PROG_F_XDP_FRAGS

/* name, match, prog type, attach type, has_attach, flags, btf_target */
/* clang-format off */
static const struct bg_sec_def sec_defs[] = {
	{"socket", BG_SEC_EXACT, P(SOCKET_FILTER), 0, false, 0, false},
	{"sk_reuseport/migrate", BG_SEC_EXACT, P(SK_REUSEPORT), A(SK_REUSEPORT_SELECT_OR_MIGRATE), true, 0, false},
	{"sk_reuseport", BG_SEC_EXACT, P(SK_REUSEPORT), A(SK_REUSEPORT_SELECT), true, 0, false},
	{"kprobe.multi", BG_SEC_OPT_TARGET, P(KPROBE), A(TRACE_KPROBE_MULTI), true, 0, false},
	{"kretprobe.multi", BG_SEC_OPT_TARGET, P(KPROBE), A(TRACE_KPROBE_MULTI), true, 0, false},
	{"kprobe.session", BG_SEC_OPT_TARGET, P(KPROBE), A(TRACE_KPROBE_SESSION), true, 0, false},
	{"uprobe.session.s", BG_SEC_OPT_TARGET, P(KPROBE), A(TRACE_UPROBE_SESSION), true, SLEEP, false},
	{"uprobe.session", BG_SEC_OPT_TARGET, P(KPROBE), A(TRACE_UPROBE_SESSION), true, 0, false},
	{"uprobe.multi.s", BG_SEC_OPT_TARGET, P(KPROBE), A(TRACE_UPROBE_MULTI), true, SLEEP, false},
	{"uprobe.multi", BG_SEC_OPT_TARGET, P(KPROBE), A(TRACE_UPROBE_MULTI), true, 0, false},
	{"uretprobe.multi.s", BG_SEC_OPT_TARGET, P(KPROBE), A(TRACE_UPROBE_MULTI), true, SLEEP, false},
	{"uretprobe.multi", BG_SEC_OPT_TARGET, P(KPROBE), A(TRACE_UPROBE_MULTI), true, 0, false},
	{"kprobe", BG_SEC_OPT_TARGET, P(KPROBE), 0, false, 0, false},
	{"kretprobe", BG_SEC_OPT_TARGET, P(KPROBE), 0, false, 0, false},
	{"uprobe.s", BG_SEC_OPT_TARGET, P(KPROBE), 0, false, SLEEP, false},
	{"uprobe", BG_SEC_OPT_TARGET, P(KPROBE), 0, false, 0, false},
	{"uretprobe.s", BG_SEC_OPT_TARGET, P(KPROBE), 0, false, SLEEP, false},
	{"uretprobe", BG_SEC_OPT_TARGET, P(KPROBE), 0, false, 0, false},
	{"ksyscall", BG_SEC_OPT_TARGET, P(KPROBE), 0, false, 0, false},
	{"kretsyscall", BG_SEC_OPT_TARGET, P(KPROBE), 0, false, 0, false},
	{"usdt.s", BG_SEC_OPT_TARGET, P(KPROBE), 0, false, SLEEP, false},
	{"usdt", BG_SEC_OPT_TARGET, P(KPROBE), 0, false, 0, false},
	{"tc/ingress", BG_SEC_EXACT, P(SCHED_CLS), A(TCX_INGRESS), true, 0, false},
	{"tc/egress", BG_SEC_EXACT, P(SCHED_CLS), A(TCX_EGRESS), true, 0, false},
	{"tcx/ingress", BG_SEC_EXACT, P(SCHED_CLS), A(TCX_INGRESS), true, 0, false},
	{"tcx/egress", BG_SEC_EXACT, P(SCHED_CLS), A(TCX_EGRESS), true, 0, false},
	{"tc", BG_SEC_EXACT, P(SCHED_CLS), 0, false, 0, false},
	{"classifier", BG_SEC_EXACT, P(SCHED_CLS), 0, false, 0, false},
	{"action", BG_SEC_EXACT, P(SCHED_ACT), 0, false, 0, false},
	{"netkit/primary", BG_SEC_EXACT, P(SCHED_CLS), A(NETKIT_PRIMARY), true, 0, false},
	{"netkit/peer", BG_SEC_EXACT, P(SCHED_CLS), A(NETKIT_PEER), true, 0, false},
	{"tracepoint", BG_SEC_OPT_TARGET, P(TRACEPOINT), 0, false, 0, false},
	{"tp", BG_SEC_OPT_TARGET, P(TRACEPOINT), 0, false, 0, false},
	/* sleepable tracepoints (libbpf of 7.2; kernels before it refuse them) */
	{"tracepoint.s", BG_SEC_OPT_TARGET, P(TRACEPOINT), 0, false, SLEEP, false},
	{"tp.s", BG_SEC_OPT_TARGET, P(TRACEPOINT), 0, false, SLEEP, false},
	{"raw_tracepoint.s", BG_SEC_OPT_TARGET, P(RAW_TRACEPOINT), 0, false, SLEEP, false},
	{"raw_tp.s", BG_SEC_OPT_TARGET, P(RAW_TRACEPOINT), 0, false, SLEEP, false},
	{"raw_tracepoint.w", BG_SEC_OPT_TARGET, P(RAW_TRACEPOINT_WRITABLE), 0, false, 0, false},
	{"raw_tp.w", BG_SEC_OPT_TARGET, P(RAW_TRACEPOINT_WRITABLE), 0, false, 0, false},
	{"raw_tracepoint", BG_SEC_OPT_TARGET, P(RAW_TRACEPOINT), 0, false, 0, false},
	{"raw_tp", BG_SEC_OPT_TARGET, P(RAW_TRACEPOINT), 0, false, 0, false},
	{"tp_btf.s", BG_SEC_TARGET, P(TRACING), A(TRACE_RAW_TP), true, SLEEP, true},
	{"tp_btf", BG_SEC_TARGET, P(TRACING), A(TRACE_RAW_TP), true, 0, true},
	{"fentry.s", BG_SEC_TARGET, P(TRACING), A(TRACE_FENTRY), true, SLEEP, true},
	{"fmod_ret.s", BG_SEC_TARGET, P(TRACING), A(MODIFY_RETURN), true, SLEEP, true},
	{"fexit.s", BG_SEC_TARGET, P(TRACING), A(TRACE_FEXIT), true, SLEEP, true},
	{"fentry", BG_SEC_TARGET, P(TRACING), A(TRACE_FENTRY), true, 0, true},
	{"fmod_ret", BG_SEC_TARGET, P(TRACING), A(MODIFY_RETURN), true, 0, true},
	{"fexit", BG_SEC_TARGET, P(TRACING), A(TRACE_FEXIT), true, 0, true},
	{"fsession.s", BG_SEC_TARGET, P(TRACING), A(TRACE_FSESSION), true, SLEEP, true},
	{"fsession", BG_SEC_TARGET, P(TRACING), A(TRACE_FSESSION), true, 0, true},
	/* libbpf of 7.2: the target is a pattern, no attach BTF id (a kernel
	 * before 7.2: "Tracing programs must provide btf_id") */
	{"fsession.multi.s", BG_SEC_OPT_TARGET, P(TRACING), A(TRACE_FSESSION_MULTI), true, SLEEP, false},
	{"fsession.multi", BG_SEC_OPT_TARGET, P(TRACING), A(TRACE_FSESSION_MULTI), true, 0, false},
	{"fentry.multi.s", BG_SEC_OPT_TARGET, P(TRACING), A(TRACE_FENTRY_MULTI), true, SLEEP, false},
	{"fentry.multi", BG_SEC_OPT_TARGET, P(TRACING), A(TRACE_FENTRY_MULTI), true, 0, false},
	{"fexit.multi.s", BG_SEC_OPT_TARGET, P(TRACING), A(TRACE_FEXIT_MULTI), true, SLEEP, false},
	{"fexit.multi", BG_SEC_OPT_TARGET, P(TRACING), A(TRACE_FEXIT_MULTI), true, 0, false},
	{"freplace", BG_SEC_TARGET, P(EXT), 0, false, 0, true},
	{"lsm.s", BG_SEC_TARGET, P(LSM), A(LSM_MAC), true, SLEEP, true},
	{"lsm_cgroup", BG_SEC_TARGET, P(LSM), A(LSM_CGROUP), true, 0, true},
	{"lsm", BG_SEC_TARGET, P(LSM), A(LSM_MAC), true, 0, true},
	{"iter.s", BG_SEC_TARGET, P(TRACING), A(TRACE_ITER), true, SLEEP, true},
	{"iter", BG_SEC_TARGET, P(TRACING), A(TRACE_ITER), true, 0, true},
	{"syscall", BG_SEC_EXACT, P(SYSCALL), 0, false, SLEEP, false},
	{"xdp.frags/devmap", BG_SEC_EXACT, P(XDP), A(XDP_DEVMAP), true, FRAGS, false},
	{"xdp/devmap", BG_SEC_EXACT, P(XDP), A(XDP_DEVMAP), true, 0, false},
	{"xdp.frags/cpumap", BG_SEC_EXACT, P(XDP), A(XDP_CPUMAP), true, FRAGS, false},
	{"xdp/cpumap", BG_SEC_EXACT, P(XDP), A(XDP_CPUMAP), true, 0, false},
	{"xdp.frags", BG_SEC_EXACT, P(XDP), A(XDP), true, FRAGS, false},
	{"xdp", BG_SEC_EXACT, P(XDP), A(XDP), true, 0, false},
	{"perf_event", BG_SEC_EXACT, P(PERF_EVENT), 0, false, 0, false},
	{"lwt_in", BG_SEC_EXACT, P(LWT_IN), 0, false, 0, false},
	{"lwt_out", BG_SEC_EXACT, P(LWT_OUT), 0, false, 0, false},
	{"lwt_xmit", BG_SEC_EXACT, P(LWT_XMIT), 0, false, 0, false},
	{"lwt_seg6local", BG_SEC_EXACT, P(LWT_SEG6LOCAL), 0, false, 0, false},
	{"sockops", BG_SEC_EXACT, P(SOCK_OPS), A(CGROUP_SOCK_OPS), true, 0, false},
	{"sk_skb/stream_parser", BG_SEC_EXACT, P(SK_SKB), A(SK_SKB_STREAM_PARSER), true, 0, false},
	{"sk_skb/stream_verdict", BG_SEC_EXACT, P(SK_SKB), A(SK_SKB_STREAM_VERDICT), true, 0, false},
	{"sk_skb/verdict", BG_SEC_EXACT, P(SK_SKB), A(SK_SKB_VERDICT), true, 0, false},
	{"sk_skb", BG_SEC_EXACT, P(SK_SKB), 0, false, 0, false},
	{"sk_msg", BG_SEC_EXACT, P(SK_MSG), A(SK_MSG_VERDICT), true, 0, false},
	{"lirc_mode2", BG_SEC_EXACT, P(LIRC_MODE2), A(LIRC_MODE2), true, 0, false},
	{"flow_dissector", BG_SEC_EXACT, P(FLOW_DISSECTOR), A(FLOW_DISSECTOR), true, 0, false},
	{"cgroup_skb/ingress", BG_SEC_EXACT, P(CGROUP_SKB), A(CGROUP_INET_INGRESS), true, 0, false},
	{"cgroup_skb/egress", BG_SEC_EXACT, P(CGROUP_SKB), A(CGROUP_INET_EGRESS), true, 0, false},
	{"cgroup/skb", BG_SEC_EXACT, P(CGROUP_SKB), 0, false, 0, false},
	{"cgroup/sock_create", BG_SEC_EXACT, P(CGROUP_SOCK), A(CGROUP_INET_SOCK_CREATE), true, 0, false},
	{"cgroup/sock_release", BG_SEC_EXACT, P(CGROUP_SOCK), A(CGROUP_INET_SOCK_RELEASE), true, 0, false},
	{"cgroup/sock", BG_SEC_EXACT, P(CGROUP_SOCK), A(CGROUP_INET_SOCK_CREATE), true, 0, false},
	{"cgroup/post_bind4", BG_SEC_EXACT, P(CGROUP_SOCK), A(CGROUP_INET4_POST_BIND), true, 0, false},
	{"cgroup/post_bind6", BG_SEC_EXACT, P(CGROUP_SOCK), A(CGROUP_INET6_POST_BIND), true, 0, false},
	{"cgroup/bind4", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_INET4_BIND), true, 0, false},
	{"cgroup/bind6", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_INET6_BIND), true, 0, false},
	{"cgroup/connect4", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_INET4_CONNECT), true, 0, false},
	{"cgroup/connect6", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_INET6_CONNECT), true, 0, false},
	{"cgroup/connect_unix", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_UNIX_CONNECT), true, 0, false},
	{"cgroup/sendmsg4", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_UDP4_SENDMSG), true, 0, false},
	{"cgroup/sendmsg6", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_UDP6_SENDMSG), true, 0, false},
	{"cgroup/sendmsg_unix", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_UNIX_SENDMSG), true, 0, false},
	{"cgroup/recvmsg4", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_UDP4_RECVMSG), true, 0, false},
	{"cgroup/recvmsg6", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_UDP6_RECVMSG), true, 0, false},
	{"cgroup/recvmsg_unix", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_UNIX_RECVMSG), true, 0, false},
	{"cgroup/getpeername4", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_INET4_GETPEERNAME), true, 0, false},
	{"cgroup/getpeername6", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_INET6_GETPEERNAME), true, 0, false},
	{"cgroup/getpeername_unix", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_UNIX_GETPEERNAME), true, 0, false},
	{"cgroup/getsockname4", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_INET4_GETSOCKNAME), true, 0, false},
	{"cgroup/getsockname6", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_INET6_GETSOCKNAME), true, 0, false},
	{"cgroup/getsockname_unix", BG_SEC_EXACT, P(CGROUP_SOCK_ADDR), A(CGROUP_UNIX_GETSOCKNAME), true, 0, false},
	{"cgroup/sysctl", BG_SEC_EXACT, P(CGROUP_SYSCTL), A(CGROUP_SYSCTL), true, 0, false},
	{"cgroup/getsockopt", BG_SEC_EXACT, P(CGROUP_SOCKOPT), A(CGROUP_GETSOCKOPT), true, 0, false},
	{"cgroup/setsockopt", BG_SEC_EXACT, P(CGROUP_SOCKOPT), A(CGROUP_SETSOCKOPT), true, 0, false},
	{"cgroup/dev", BG_SEC_EXACT, P(CGROUP_DEVICE), A(CGROUP_DEVICE), true, 0, false},
	{"struct_ops.s", BG_SEC_OPT_TARGET, P(STRUCT_OPS), 0, false, SLEEP, false},
	{"struct_ops", BG_SEC_OPT_TARGET, P(STRUCT_OPS), 0, false, 0, false},
	{"sk_lookup", BG_SEC_EXACT, P(SK_LOOKUP), A(SK_LOOKUP), true, 0, false},
	{"netfilter", BG_SEC_EXACT, P(NETFILTER), A(NETFILTER), true, 0, false},
};
/* clang-format on */

static const struct {
	uint32_t v;
	const char *name;
} prog_names[] =
    {
#define BG_PT_NAME(n, v, s) {v, s},
	BG_PROG_TYPES(BG_PT_NAME)
#undef BG_PT_NAME
},
  attach_names[] = {
#define BG_AT_NAME(n, v, s) {v, s},
      BG_ATTACH_TYPES(BG_AT_NAME)
#undef BG_AT_NAME
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Does entry d match sec? *target gets what follows "name/". */
static bool sec_matches(const struct bg_sec_def *d, const char *sec, const char **target)
{
	size_t n = strlen(d->name);

	*target = NULL;
	if (d->match == BG_SEC_EXACT)
		return !strcmp(sec, d->name);
	if (strncmp(sec, d->name, n))
		return false;
	if (sec[n] == '\0')
		return d->match == BG_SEC_OPT_TARGET;
	if (sec[n] != '/')
		return false;
	*target = sec[n + 1] ? sec + n + 1 : NULL;
	return d->match == BG_SEC_OPT_TARGET || *target;
}

const struct bg_sec_def *bg_sec_def_find(const char *sec, const char **target)
{
	const char *dummy, *slash;
	char base[64];

	if (!target)
		target = &dummy;
	*target = NULL;
	if (!sec)
		return NULL;
	/* libbpf: a leading '?' only turns autoload off ("?kprobe/x" is a kprobe) */
	if (sec[0] == '?')
		sec++;
	for (size_t i = 0; i < ARRAY_SIZE(sec_defs); i++)
		if (sec_matches(&sec_defs[i], sec, target))
			return &sec_defs[i];
	/* legacy "xdp/name", "classifier/name", "socket/name": match the base */
	slash = strchr(sec, '/');
	if (!slash || (size_t)(slash - sec) >= sizeof(base))
		return NULL;
	memcpy(base, sec, slash - sec);
	base[slash - sec] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(sec_defs); i++) {
		if (sec_defs[i].match != BG_SEC_EXACT || strcmp(sec_defs[i].name, base))
			continue;
		*target = slash[1] ? slash + 1 : NULL;
		return &sec_defs[i];
	}
	return NULL;
}

const struct bg_sec_def *bg_sec_defs(unsigned *n)
{
	*n = ARRAY_SIZE(sec_defs);
	return sec_defs;
}

const char *bg_prog_type_name(uint32_t prog_type)
{
	for (size_t i = 0; i < ARRAY_SIZE(prog_names); i++)
		if (prog_names[i].v == prog_type)
			return prog_names[i].name;
	return "unknown";
}

const char *bg_attach_type_name(uint32_t attach_type)
{
	for (size_t i = 0; i < ARRAY_SIZE(attach_names); i++)
		if (attach_names[i].v == attach_type)
			return attach_names[i].name;
	return "unknown";
}

int bg_prog_type_by_name(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(prog_names); i++)
		if (!strcmp(prog_names[i].name, name))
			return (int)prog_names[i].v;
	return -1;
}
