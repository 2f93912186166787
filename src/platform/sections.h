/* libbpf's section-name conventions as data: one table maps a section name
 * ("xdp", "kprobe/do_sys_open", "cgroup/connect4") to the program type, the
 * expected attach type, the attach target and load flags. The numeric values
 * are the kernel uapi's (enum bpf_prog_type / bpf_attach_type, 6.18; the
 * attach types after trace_uprobe_session are 7.2's); they
 * are restated here because the installed uapi headers are older. A unit test
 * checks every value against the running kernel's BTF enums. */
#ifndef BG_PLATFORM_SECTIONS_H
#define BG_PLATFORM_SECTIONS_H
#include <stdbool.h>
#include <stdint.h>

/* enum bpf_prog_type: X(NAME, value, "name as bpftool prints it") */
#define BG_PROG_TYPES(X)                                                                           \
	X(UNSPEC, 0, "unspec")                                                                     \
	X(SOCKET_FILTER, 1, "socket_filter")                                                       \
	X(KPROBE, 2, "kprobe")                                                                     \
	X(SCHED_CLS, 3, "sched_cls")                                                               \
	X(SCHED_ACT, 4, "sched_act")                                                               \
	X(TRACEPOINT, 5, "tracepoint")                                                             \
	X(XDP, 6, "xdp")                                                                           \
	X(PERF_EVENT, 7, "perf_event")                                                             \
	X(CGROUP_SKB, 8, "cgroup_skb")                                                             \
	X(CGROUP_SOCK, 9, "cgroup_sock")                                                           \
	X(LWT_IN, 10, "lwt_in")                                                                    \
	X(LWT_OUT, 11, "lwt_out")                                                                  \
	X(LWT_XMIT, 12, "lwt_xmit")                                                                \
	X(SOCK_OPS, 13, "sock_ops")                                                                \
	X(SK_SKB, 14, "sk_skb")                                                                    \
	X(CGROUP_DEVICE, 15, "cgroup_device")                                                      \
	X(SK_MSG, 16, "sk_msg")                                                                    \
	X(RAW_TRACEPOINT, 17, "raw_tracepoint")                                                    \
	X(CGROUP_SOCK_ADDR, 18, "cgroup_sock_addr")                                                \
	X(LWT_SEG6LOCAL, 19, "lwt_seg6local")                                                      \
	X(LIRC_MODE2, 20, "lirc_mode2")                                                            \
	X(SK_REUSEPORT, 21, "sk_reuseport")                                                        \
	X(FLOW_DISSECTOR, 22, "flow_dissector")                                                    \
	X(CGROUP_SYSCTL, 23, "cgroup_sysctl")                                                      \
	X(RAW_TRACEPOINT_WRITABLE, 24, "raw_tracepoint_writable")                                  \
	X(CGROUP_SOCKOPT, 25, "cgroup_sockopt")                                                    \
	X(TRACING, 26, "tracing")                                                                  \
	X(STRUCT_OPS, 27, "struct_ops")                                                            \
	X(EXT, 28, "ext")                                                                          \
	X(LSM, 29, "lsm")                                                                          \
	X(SK_LOOKUP, 30, "sk_lookup")                                                              \
	X(SYSCALL, 31, "syscall")                                                                  \
	X(NETFILTER, 32, "netfilter")

/* enum bpf_attach_type: X(NAME, value, "name") */
#define BG_ATTACH_TYPES(X)                                                                         \
	X(CGROUP_INET_INGRESS, 0, "cgroup_inet_ingress")                                           \
	X(CGROUP_INET_EGRESS, 1, "cgroup_inet_egress")                                             \
	X(CGROUP_INET_SOCK_CREATE, 2, "cgroup_inet_sock_create")                                   \
	X(CGROUP_SOCK_OPS, 3, "cgroup_sock_ops")                                                   \
	X(SK_SKB_STREAM_PARSER, 4, "sk_skb_stream_parser")                                         \
	X(SK_SKB_STREAM_VERDICT, 5, "sk_skb_stream_verdict")                                       \
	X(CGROUP_DEVICE, 6, "cgroup_device")                                                       \
	X(SK_MSG_VERDICT, 7, "sk_msg_verdict")                                                     \
	X(CGROUP_INET4_BIND, 8, "cgroup_inet4_bind")                                               \
	X(CGROUP_INET6_BIND, 9, "cgroup_inet6_bind")                                               \
	X(CGROUP_INET4_CONNECT, 10, "cgroup_inet4_connect")                                        \
	X(CGROUP_INET6_CONNECT, 11, "cgroup_inet6_connect")                                        \
	X(CGROUP_INET4_POST_BIND, 12, "cgroup_inet4_post_bind")                                    \
	X(CGROUP_INET6_POST_BIND, 13, "cgroup_inet6_post_bind")                                    \
	X(CGROUP_UDP4_SENDMSG, 14, "cgroup_udp4_sendmsg")                                          \
	X(CGROUP_UDP6_SENDMSG, 15, "cgroup_udp6_sendmsg")                                          \
	X(LIRC_MODE2, 16, "lirc_mode2")                                                            \
	X(FLOW_DISSECTOR, 17, "flow_dissector")                                                    \
	X(CGROUP_SYSCTL, 18, "cgroup_sysctl")                                                      \
	X(CGROUP_UDP4_RECVMSG, 19, "cgroup_udp4_recvmsg")                                          \
	X(CGROUP_UDP6_RECVMSG, 20, "cgroup_udp6_recvmsg")                                          \
	X(CGROUP_GETSOCKOPT, 21, "cgroup_getsockopt")                                              \
	X(CGROUP_SETSOCKOPT, 22, "cgroup_setsockopt")                                              \
	X(TRACE_RAW_TP, 23, "trace_raw_tp")                                                        \
	X(TRACE_FENTRY, 24, "trace_fentry")                                                        \
	X(TRACE_FEXIT, 25, "trace_fexit")                                                          \
	X(MODIFY_RETURN, 26, "modify_return")                                                      \
	X(LSM_MAC, 27, "lsm_mac")                                                                  \
	X(TRACE_ITER, 28, "trace_iter")                                                            \
	X(CGROUP_INET4_GETPEERNAME, 29, "cgroup_inet4_getpeername")                                \
	X(CGROUP_INET6_GETPEERNAME, 30, "cgroup_inet6_getpeername")                                \
	X(CGROUP_INET4_GETSOCKNAME, 31, "cgroup_inet4_getsockname")                                \
	X(CGROUP_INET6_GETSOCKNAME, 32, "cgroup_inet6_getsockname")                                \
	X(XDP_DEVMAP, 33, "xdp_devmap")                                                            \
	X(CGROUP_INET_SOCK_RELEASE, 34, "cgroup_inet_sock_release")                                \
	X(XDP_CPUMAP, 35, "xdp_cpumap")                                                            \
	X(SK_LOOKUP, 36, "sk_lookup")                                                              \
	X(XDP, 37, "xdp")                                                                          \
	X(SK_SKB_VERDICT, 38, "sk_skb_verdict")                                                    \
	X(SK_REUSEPORT_SELECT, 39, "sk_reuseport_select")                                          \
	X(SK_REUSEPORT_SELECT_OR_MIGRATE, 40, "sk_reuseport_select_or_migrate")                    \
	X(PERF_EVENT, 41, "perf_event")                                                            \
	X(TRACE_KPROBE_MULTI, 42, "trace_kprobe_multi")                                            \
	X(LSM_CGROUP, 43, "lsm_cgroup")                                                            \
	X(STRUCT_OPS, 44, "struct_ops")                                                            \
	X(NETFILTER, 45, "netfilter")                                                              \
	X(TCX_INGRESS, 46, "tcx_ingress")                                                          \
	X(TCX_EGRESS, 47, "tcx_egress")                                                            \
	X(TRACE_UPROBE_MULTI, 48, "trace_uprobe_multi")                                            \
	X(CGROUP_UNIX_CONNECT, 49, "cgroup_unix_connect")                                          \
	X(CGROUP_UNIX_SENDMSG, 50, "cgroup_unix_sendmsg")                                          \
	X(CGROUP_UNIX_RECVMSG, 51, "cgroup_unix_recvmsg")                                          \
	X(CGROUP_UNIX_GETPEERNAME, 52, "cgroup_unix_getpeername")                                  \
	X(CGROUP_UNIX_GETSOCKNAME, 53, "cgroup_unix_getsockname")                                  \
	X(NETKIT_PRIMARY, 54, "netkit_primary")                                                    \
	X(NETKIT_PEER, 55, "netkit_peer")                                                          \
	X(TRACE_KPROBE_SESSION, 56, "trace_kprobe_session")                                        \
	X(TRACE_UPROBE_SESSION, 57, "trace_uprobe_session")                                        \
	X(TRACE_FSESSION, 58, "trace_fsession")                                                    \
	X(TRACE_FENTRY_MULTI, 59, "trace_fentry_multi")                                            \
	X(TRACE_FEXIT_MULTI, 60, "trace_fexit_multi")                                              \
	X(TRACE_FSESSION_MULTI, 61, "trace_fsession_multi")

#define BG_PT_ENUM(n, v, s) BG_PROG_##n = v,
enum bg_prog_type_id { BG_PROG_TYPES(BG_PT_ENUM) BG_PROG__MAX };
#undef BG_PT_ENUM
#define BG_AT_ENUM(n, v, s) BG_ATTACH_##n = v,
enum bg_attach_type_id { BG_ATTACH_TYPES(BG_AT_ENUM) BG_ATTACH__MAX };
#undef BG_AT_ENUM

/* Load flags (BPF_PROG_LOAD prog_flags) implied by a section name. */
#define BG_PROG_F_SLEEPABLE (1u << 4) /* BPF_F_SLEEPABLE: "fentry.s/", "lsm.s/", ... */
#define BG_PROG_F_XDP_FRAGS (1u << 5) /* BPF_F_XDP_HAS_FRAGS: "xdp.frags" */

/* How a table entry's name matches a section name. */
enum bg_sec_match {
	BG_SEC_EXACT = 0,  /* the whole name ("xdp", "sockops") */
	BG_SEC_OPT_TARGET, /* the name, or name "/" target ("kprobe", "kprobe/do_sys_open") */
	BG_SEC_TARGET,	   /* name "/" target required ("fentry/tcp_v4_connect") */
};

struct bg_sec_def {
	const char *name; /* "kprobe", "cgroup/connect4", "xdp.frags" */
	enum bg_sec_match match;
	uint32_t prog_type;   /* enum bpf_prog_type */
	uint32_t attach_type; /* expected attach type (0 when none: check has_attach) */
	bool has_attach;      /* attach_type is meaningful for BPF_PROG_LOAD */
	uint32_t prog_flags;  /* BG_PROG_F_* */
	bool btf_target; /* the target names a kernel BTF function/type (tp_btf, fentry, lsm, iter)
			  */
};

/* The entry a section name maps to, or NULL when unknown. *target gets the part
 * after "/" (pointer into sec, NULL when none). Legacy names with a suffix that
 * libbpf no longer accepts ("xdp/foo", "classifier/bar") match their base entry. */
const struct bg_sec_def *bg_sec_def_find(const char *sec, const char **target);
/* All entries (for tests and `bpfgate list --types`). */
const struct bg_sec_def *bg_sec_defs(unsigned *n);
/* "xdp", "kprobe", "sched_cls"; "unknown" for values outside the table. */
const char *bg_prog_type_name(uint32_t prog_type);
const char *bg_attach_type_name(uint32_t attach_type);
/* Inverse of the above; returns -1 when unknown. */
int bg_prog_type_by_name(const char *name);
#endif
