/* The platform tables checked against the running kernel, which is the
 * oracle: for every (program type, helper) pair, every ctx offset/size/
 * direction and every return value of a small set, load a tiny program and
 * compare the kernel's verdict with the table's answer.
 *
 *   test_platform_kernel                 run the checks (SKIP without bpf())
 *   test_platform_kernel --dump-helpers  print the helper matrix (input of
 *                                        scripts/gen_helpers.py)
 *   test_platform_kernel --dump-ctx      print ctx access matrices (input of
 *                                        scripts/gen_ctx.py)
 *   test_platform_kernel --dump-fields   print ctx struct members from BTF
 *   test_platform_kernel --dump-kfunc-types  kfunc availability per program
 *                                        type (input of scripts/gen_kfunc_types.py)
 *
 * Only "cannot use helper"/"unknown func" rejections count as "not allowed"
 * for helpers: the programs pass no arguments, so any other rejection means
 * the helper itself was accepted for the type. */
/* min-pass: 130 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <errno.h>
#include <stddef.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform/ctx.h"
#include "platform/helpers.h"
#include "platform/sections.h"
#include "test.h"

static char vlog[1 << 16];
static uint32_t log_level = 1;
static int tp_btf_id, iter_btf_id;

/* A loadable (type, expected attach) pair and the struct its ctx is. */
struct probe_target {
	const char *layout; /* name used in scripts/data/ctx-6.18/ */
	uint32_t type, attach;
	const char *ctx_struct; /* BTF struct, NULL: no fixed struct */
	int limit;              /* offsets probed: [0, limit) */
};

static const struct probe_target targets[] = {
	{ "skb_filter", BPF_PROG_TYPE_SOCKET_FILTER, 0, "__sk_buff", 200 },
	{ "pt_regs", BPF_PROG_TYPE_KPROBE, 0, "pt_regs", 176 },
	{ "skb_tc", BPF_PROG_TYPE_SCHED_CLS, 0, "__sk_buff", 200 },
	{ "skb_tc_act", BPF_PROG_TYPE_SCHED_ACT, 0, "__sk_buff", 200 },
	{ "tracepoint", BPF_PROG_TYPE_TRACEPOINT, 0, NULL, 64 },
	{ "xdp", BPF_PROG_TYPE_XDP, 0, "xdp_md", 32 },
	{ "xdp_devmap", BPF_PROG_TYPE_XDP, BPF_XDP_DEVMAP, "xdp_md", 32 },
	{ "perf_event", BPF_PROG_TYPE_PERF_EVENT, 0, "bpf_perf_event_data", 192 },
	{ "skb_cgroup", BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_INGRESS, "__sk_buff", 200 },
	{ "skb_cgroup_egress", BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_EGRESS, "__sk_buff", 200 },
	{ "sock_create", BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET_SOCK_CREATE, "bpf_sock", 88 },
	{ "sock_post_bind4", BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET4_POST_BIND, "bpf_sock", 88 },
	{ "sock_post_bind6", BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET6_POST_BIND, "bpf_sock", 88 },
	{ "sock_release", BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET_SOCK_RELEASE, "bpf_sock", 88 },
	{ "skb_lwt_in", BPF_PROG_TYPE_LWT_IN, 0, "__sk_buff", 200 },
	{ "skb_lwt_out", BPF_PROG_TYPE_LWT_OUT, 0, "__sk_buff", 200 },
	{ "skb_lwt_xmit", BPF_PROG_TYPE_LWT_XMIT, 0, "__sk_buff", 200 },
	{ "sock_ops", BPF_PROG_TYPE_SOCK_OPS, BPF_CGROUP_SOCK_OPS, "bpf_sock_ops", 232 },
	{ "skb_sk_parser", BPF_PROG_TYPE_SK_SKB, BPF_SK_SKB_STREAM_PARSER, "__sk_buff", 200 },
	{ "skb_sk", BPF_PROG_TYPE_SK_SKB, BPF_SK_SKB_STREAM_VERDICT, "__sk_buff", 200 },
	{ "cgroup_dev", BPF_PROG_TYPE_CGROUP_DEVICE, BPF_CGROUP_DEVICE, "bpf_cgroup_dev_ctx", 16 },
	{ "sk_msg", BPF_PROG_TYPE_SK_MSG, BPF_SK_MSG_VERDICT, "sk_msg_md", 88 },
	{ "raw_tp", BPF_PROG_TYPE_RAW_TRACEPOINT, 0, NULL, 104 },
	{ "sock_addr_bind4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_BIND, "bpf_sock_addr", 80 },
	{ "sock_addr_bind6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_BIND, "bpf_sock_addr", 80 },
	{ "sock_addr_connect4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_CONNECT, "bpf_sock_addr", 80 },
	{ "sock_addr_connect6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_CONNECT, "bpf_sock_addr", 80 },
	{ "sock_addr_sendmsg4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP4_SENDMSG, "bpf_sock_addr", 80 },
	{ "sock_addr_sendmsg6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP6_SENDMSG, "bpf_sock_addr", 80 },
	{ "sock_addr_recvmsg4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP4_RECVMSG, "bpf_sock_addr", 80 },
	{ "sock_addr_recvmsg6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP6_RECVMSG, "bpf_sock_addr", 80 },
	{ "sock_addr_getpeername4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_GETPEERNAME, "bpf_sock_addr", 80 },
	{ "sock_addr_getpeername6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_GETPEERNAME, "bpf_sock_addr", 80 },
	{ "sock_addr_getsockname4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_GETSOCKNAME, "bpf_sock_addr", 80 },
	{ "sock_addr_getsockname6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_GETSOCKNAME, "bpf_sock_addr", 80 },
	{ "sock_addr_unix", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 49 /* BPF_CGROUP_UNIX_CONNECT */, "bpf_sock_addr", 80 },
	{ "sock_addr_unix_sendmsg", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 50 /* BPF_CGROUP_UNIX_SENDMSG */, "bpf_sock_addr", 80 },
	{ "sock_addr_unix_recvmsg", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 51 /* BPF_CGROUP_UNIX_RECVMSG */, "bpf_sock_addr", 80 },
	{ "sock_addr_unix_getpeername", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 52 /* BPF_CGROUP_UNIX_GETPEERNAME */, "bpf_sock_addr", 80 },
	{ "sock_addr_unix_getsockname", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, 53 /* BPF_CGROUP_UNIX_GETSOCKNAME */, "bpf_sock_addr", 80 },
	{ "skb_lwt_seg6", BPF_PROG_TYPE_LWT_SEG6LOCAL, 0, "__sk_buff", 200 },
	{ "sk_reuseport", BPF_PROG_TYPE_SK_REUSEPORT, BPF_SK_REUSEPORT_SELECT, "sk_reuseport_md", 64 },
	{ "sk_reuseport_migrate", BPF_PROG_TYPE_SK_REUSEPORT, BPF_SK_REUSEPORT_SELECT_OR_MIGRATE, "sk_reuseport_md", 64 },
	{ "skb_flow", BPF_PROG_TYPE_FLOW_DISSECTOR, BPF_FLOW_DISSECTOR, "__sk_buff", 200 },
	{ "sysctl", BPF_PROG_TYPE_CGROUP_SYSCTL, BPF_CGROUP_SYSCTL, "bpf_sysctl", 16 },
	{ "raw_tp_w", BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0, NULL, 104 },
	{ "sockopt_get", BPF_PROG_TYPE_CGROUP_SOCKOPT, BPF_CGROUP_GETSOCKOPT, "bpf_sockopt", 48 },
	{ "sockopt_set", BPF_PROG_TYPE_CGROUP_SOCKOPT, BPF_CGROUP_SETSOCKOPT, "bpf_sockopt", 48 },
	{ "tp_btf", BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, NULL, 40 },
	{ "iter", BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, NULL, 16 },
	{ "sk_lookup", BPF_PROG_TYPE_SK_LOOKUP, BPF_SK_LOOKUP, "bpf_sk_lookup", 72 },
	{ "syscall", BPF_PROG_TYPE_SYSCALL, 0, NULL, 64 },
	{ "netfilter", 32 /* BPF_PROG_TYPE_NETFILTER */, 45 /* BPF_NETFILTER */, "bpf_nf_ctx", 24 },
};
#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

#define NPROG_TYPES 33u /* enum bpf_prog_type up to netfilter */

enum verdict { V_OK, V_NO_HELPER, V_INVALID_FUNC, V_GPL, V_SLEEP, V_RESTRICTED, V_OTHER };

static struct bpf_insn insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	struct bpf_insn i = { .code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm };
	return i;
}

/* Load; classify the verdict from errno and the log. */
static enum verdict load(uint32_t type, uint32_t attach, const struct bpf_insn *in, int n,
			 const char *license)
{
	LIBBPF_OPTS(bpf_prog_load_opts, o, .log_buf = vlog, .log_size = sizeof(vlog), .log_level = log_level);
	int fd;

	o.expected_attach_type = attach;
	if (type == BPF_PROG_TYPE_SYSCALL)
		o.prog_flags = BPF_F_SLEEPABLE;
	if (type == BPF_PROG_TYPE_TRACING)
		o.attach_btf_id = attach == BPF_TRACE_ITER ? iter_btf_id : tp_btf_id;
	vlog[0] = 0;
	fd = bpf_prog_load(type, NULL, license, in, n, &o);
	if (fd >= 0) {
		close(fd);
		return V_OK;
	}
	if (strstr(vlog, "cannot use helper") || strstr(vlog, "unknown func"))
		return V_NO_HELPER;
	if (strstr(vlog, "invalid func"))
		return V_INVALID_FUNC;
	if (strstr(vlog, "GPL-restricted"))
		return V_GPL;
	if (strstr(vlog, "might sleep"))
		return V_SLEEP;
	if (strstr(vlog, "not allowed in probe"))
		return V_RESTRICTED;
	return V_OTHER;
}

/* r0 = ret; exit -- the smallest program of a type. */
static enum verdict load_ret(uint32_t type, uint32_t attach, int64_t ret)
{
	struct bpf_insn in[3] = {
		insn(BPF_LD | BPF_DW | BPF_IMM, 0, 0, 0, (int32_t)ret),
		insn(0, 0, 0, 0, (int32_t)((uint64_t)ret >> 32)),
		insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	return load(type, attach, in, 3, "GPL");
}

static int ok_ret(uint32_t type, uint32_t attach)
{
	for (int r = 0; r <= 1; r++)
		if (load_ret(type, attach, r) == V_OK)
			return r;
	return -1;
}

static enum verdict load_call(uint32_t type, uint32_t attach, int32_t id, const char *license,
			      int ret)
{
	struct bpf_insn in[3] = {
		insn(BPF_JMP | BPF_CALL, 0, 0, 0, id),
		insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, ret),
		insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	return load(type, attach, in, 3, license);
}

static enum verdict load_access(uint32_t type, uint32_t attach, int off, int size, bool wr, int ret)
{
	static const uint8_t szc[9] = { [1] = BPF_B, [2] = BPF_H, [4] = BPF_W, [8] = BPF_DW };
	struct bpf_insn w[4] = {
		insn(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, 0),
		insn(BPF_STX | BPF_MEM | szc[size], 1, 2, (int16_t)off, 0),
		insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, ret),
		insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	struct bpf_insn r[3] = {
		insn(BPF_LDX | BPF_MEM | szc[size], 0, 1, (int16_t)off, 0),
		insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, ret),
		insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	return wr ? load(type, attach, w, 4, "GPL") : load(type, attach, r, 3, "GPL");
}

static void init_btf_ids(void)
{
	struct btf *vm = btf__load_vmlinux_btf();
	if (!vm)
		return;
	tp_btf_id = btf__find_by_name_kind(vm, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
	iter_btf_id = btf__find_by_name_kind(vm, "bpf_iter_task", BTF_KIND_FUNC);
	btf__free(vm);
}

static bool kernel_ok(const char **why)
{
	if (ok_ret(BPF_PROG_TYPE_SOCKET_FILTER, 0) < 0) {
		*why = errno == EPERM ? "EPERM" : strerror(errno);
		return false;
	}
	return true;
}

/* Does the kernel let type t call helper h under some expected attach type
 * of the targets (the table answers per type: the union over attach types)?
 * *gpl: GPL-only there; *flag: might sleep / restricted. -1: not loadable. */
static int kernel_helper(uint32_t t, uint32_t h, bool *gpl, enum verdict *flag)
{
	int any_loadable = 0, allowed = 0;
	*gpl = false;
	*flag = V_OK;
	for (unsigned i = 0; i <= NTARGETS; i++) {
		uint32_t attach;
		int ret;
		enum verdict v;
		if (i < NTARGETS && targets[i].type != t)
			continue;
		if (i == NTARGETS && any_loadable)
			break;
		attach = i < NTARGETS ? targets[i].attach : 0;
		ret = ok_ret(t, attach);
		if (ret < 0)
			continue;
		any_loadable = 1;
		v = load_call(t, attach, (int32_t)h, "GPL", ret);
		if (v == V_NO_HELPER || v == V_INVALID_FUNC)
			continue;
		allowed = 1;
		if (v == V_SLEEP || v == V_RESTRICTED)
			*flag = v;
		*gpl = load_call(t, attach, (int32_t)h, "Proprietary", ret) == V_GPL;
		break;
	}
	return any_loadable ? allowed : -1;
}

/* ---- kfunc availability per program type ----
 * Every kfunc of vmlinux (a FUNC carrying the "bpf_kfunc" decl tag) called
 * with no arguments from each loadable (type, attach) target: the kernel
 * answers "calling kernel function X is not allowed" before it looks at the
 * arguments, and "program must be sleepable to call sleepable kfunc X" right
 * after, so any other outcome means the kfunc is callable from the type. */
struct kfunc_name {
	const char *name;
	int id;
};

static int cmp_kfunc_name(const void *a, const void *b)
{
	return strcmp(((const struct kfunc_name *)a)->name, ((const struct kfunc_name *)b)->name);
}

/* The kfuncs of vmlinux sorted by name; *n gets the count. NULL on error. */
static struct kfunc_name *vmlinux_kfuncs(const struct btf *vm, unsigned *n)
{
	unsigned cnt = btf__type_cnt(vm), k = 0;
	struct kfunc_name *out = calloc(cnt, sizeof(*out));
	if (!out)
		return NULL;
	for (unsigned id = 1; id < cnt; id++) {
		const struct btf_type *t = btf__type_by_id(vm, id);
		if (!btf_is_decl_tag(t) || btf_decl_tag(t)->component_idx != -1 ||
		    strcmp(btf__name_by_offset(vm, t->name_off), "bpf_kfunc"))
			continue;
		const struct btf_type *f = btf__type_by_id(vm, t->type);
		if (!f || !btf_is_func(f))
			continue;
		out[k].name = btf__name_by_offset(vm, f->name_off);
		out[k].id = (int)t->type;
		k++;
	}
	qsort(out, k, sizeof(*out), cmp_kfunc_name);
	*n = k;
	return out;
}

/* 1 callable from type t (under some target of t), 0 not allowed, -1 no
 * target of t loads here. *sleep: the kernel asked for a sleepable program;
 * *devbound: for a device-bound one (XDP metadata kfuncs, refused before
 * verification in every program that is not). */
static int kernel_kfunc(uint32_t t, int btf_id, bool *sleep, bool *devbound)
{
	struct bpf_insn in[3] = {
		insn(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, btf_id),
		insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	int loadable = 0;
	*sleep = false;
	*devbound = false;
	for (unsigned i = 0; i < NTARGETS; i++) {
		if (targets[i].type != t || ok_ret(t, targets[i].attach) < 0)
			continue;
		loadable = 1;
		(void)load(t, targets[i].attach, in, 3, "GPL");
		if (strstr(vlog, "is not allowed") && strstr(vlog, "calling kernel function"))
			continue;
		*sleep = strstr(vlog, "program must be sleepable") != NULL;
		*devbound = strstr(vlog, "require device-bound program") != NULL;
		return 1;
	}
	return loadable ? 0 : -1;
}

/* "kfunc type yes|no [sleep]" per kfunc and loadable type (input of
 * scripts/gen_kfunc_types.py, kept in scripts/data/kfunc-types-6.18.txt). */
static int dump_kfunc_types(void)
{
	struct btf *vm = btf__load_vmlinux_btf();
	unsigned n = 0;
	struct kfunc_name *ks = vm ? vmlinux_kfuncs(vm, &n) : NULL;
	if (!ks) {
		fprintf(stderr, "no vmlinux BTF\n");
		btf__free(vm);
		return 1;
	}
	for (unsigned i = 0; i < n; i++) {
		for (uint32_t t = 1; t < NPROG_TYPES; t++) {
			bool sleep, devbound;
			int a = kernel_kfunc(t, ks[i].id, &sleep, &devbound);
			if (a >= 0)
				printf("%s %s %s%s%s\n", ks[i].name, bg_prog_type_name(t), a ? "yes" : "no",
				       sleep ? " sleep" : "", devbound ? " devbound" : "");
		}
	}
	free(ks);
	btf__free(vm);
	return 0;
}

/* Every kfunc's availability per type, and its sleepable-only flag, as the
 * table (kfunc_types.def) says. */
static void check_kfunc_types(void)
{
	struct btf *vm = btf__load_vmlinux_btf();
	unsigned n = 0, agree = 0, total = 0, refused = 0;
	struct kfunc_name *ks = vm ? vmlinux_kfuncs(vm, &n) : NULL;
	char bad[400] = "";
	if (!ks || !n) {
		T_SKIP("platform/kernel/kfunc_types", "no kfuncs in vmlinux BTF");
		free(ks);
		btf__free(vm);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		for (uint32_t t = 1; t < NPROG_TYPES; t++) {
			bool sleep, tsleep = false, devbound;
			int a = kernel_kfunc(t, ks[i].id, &sleep, &devbound);
			if (a < 0)
				continue;
			int ta = bg_kfunc_type_allowed(ks[i].name, t, &tsleep);
			if (a && devbound != bg_kfunc_devbound(ks[i].name))
				ta = -2;
			total++;
			refused += !a;
			/* syscall programs load sleepable: the kernel never asks there */
			if (ta == a && (!a || tsleep == sleep || (t == BPF_PROG_TYPE_SYSCALL && !sleep))) {
				agree++;
				continue;
			}
			size_t l = strlen(bad);
			if (l < sizeof(bad) - 80)
				snprintf(bad + l, sizeof(bad) - l, " %s/%s(kernel %s%s, table %d%s)", ks[i].name,
					 bg_prog_type_name(t), a ? "yes" : "no", sleep ? " sleep" : "", ta,
					 tsleep ? " sleep" : "");
		}
	}
	free(ks);
	btf__free(vm);
	printf("# kfunc availability: %u/%u (kfunc, type) pairs agree, %u refused by the kernel\n", agree,
	       total, refused);
	T_CHECK(agree == total && refused > 0, "platform/kernel/kfunc_types", "%s", bad);
}

/* ---- dumps (generator inputs) ---- */

static void dump_helpers(void)
{
	for (uint32_t t = 1; t < NPROG_TYPES; t++) {
		for (uint32_t h = 1; h <= bg_helper_max_id(); h++) {
			bool gpl;
			enum verdict flag;
			int a = kernel_helper(t, h, &gpl, &flag);
			if (a < 0)
				break;
			printf("%s %u %s%s%s\n", bg_prog_type_name(t), h, a ? "yes" : "no", gpl ? " gpl" : "",
			       flag == V_SLEEP ? " sleep" : flag == V_RESTRICTED ? " restricted" : "");
		}
	}
}

/* Helpers the table allows because an attach type that cannot load here
 * allows them (fentry/fexit/fmod_ret: EPERM before verification). */
static bool unverifiable_here(uint32_t t, uint32_t h)
{
	return t == BPF_PROG_TYPE_TRACING &&
	       (h == BPF_FUNC_get_func_arg || h == BPF_FUNC_get_func_ret ||
		h == BPF_FUNC_get_func_arg_cnt);
}

/* One line per loadable target: "target type attach id id ..." (allowed ids). */
static void dump_helpers_attach(void)
{
	for (unsigned i = 0; i < NTARGETS; i++) {
		const struct probe_target *p = &targets[i];
		int ret = ok_ret(p->type, p->attach);
		if (ret < 0)
			continue;
		printf("%s %u %u", p->layout, p->type, p->attach);
		for (uint32_t h = 1; h <= bg_helper_max_id(); h++) {
			enum verdict v = load_call(p->type, p->attach, (int32_t)h, "GPL", ret);
			if (v != V_NO_HELPER && v != V_INVALID_FUNC)
				printf(" %u", h);
		}
		printf("\n");
	}
}

/* Where the packet's bounds sit in a target's context (data, data_end and
 * the load size), or false: no packet pointers in this program type. */
static bool pkt_fields(const struct probe_target *p, int *data, int *end, uint8_t *size)
{
	if (!p->ctx_struct || p->type == BPF_PROG_TYPE_SOCKET_FILTER)
		return false;
	if (!strcmp(p->ctx_struct, "__sk_buff")) {
		*data = 76, *end = 80, *size = BPF_W;
		return true;
	}
	if (!strcmp(p->ctx_struct, "xdp_md")) {
		*data = 0, *end = 4, *size = BPF_W;
		return true;
	}
	if (!strcmp(p->ctx_struct, "sk_msg_md") || !strcmp(p->ctx_struct, "sk_reuseport_md")) {
		*data = 0, *end = 8, *size = BPF_DW;
		return true;
	}
	if (!strcmp(p->ctx_struct, "bpf_sock_ops")) {
		*data = 192, *end = 200, *size = BPF_DW; /* skb_data, skb_data_end */
		return true;
	}
	if (!strcmp(p->ctx_struct, "bpf_sockopt")) {
		*data = 8, *end = 16, *size = BPF_DW; /* optval, optval_end */
		return true;
	}
	return false;
}

/* Does the kernel refuse a (bounds-checked) packet pointer as an argument
 * of helper h in this target?  r1-r5 all hold one: the verifier checks the
 * first argument that is not ARG_ANYTHING against the helper prototype's
 * pkt_access ("helper access to the packet is not allowed") before its
 * type.  -1: the helper is not callable here. */
static int pkt_refused(const struct probe_target *p, int ret, uint32_t h)
{
	int data, end;
	uint8_t sz;
	if (!pkt_fields(p, &data, &end, &sz))
		return -1;
	struct bpf_insn in[] = {
		insn(BPF_LDX | BPF_MEM | sz, 2, 1, (int16_t)data, 0),
		insn(BPF_LDX | BPF_MEM | sz, 3, 1, (int16_t)end, 0),
		insn(BPF_ALU64 | BPF_MOV | BPF_X, 4, 2, 0, 0),
		insn(BPF_ALU64 | BPF_ADD | BPF_K, 4, 0, 0, 64),
		insn(BPF_JMP | BPF_JGT | BPF_X, 4, 3, 6, 0),
		insn(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 0, 0),
		insn(BPF_ALU64 | BPF_MOV | BPF_X, 3, 2, 0, 0),
		insn(BPF_ALU64 | BPF_MOV | BPF_X, 4, 2, 0, 0),
		insn(BPF_ALU64 | BPF_MOV | BPF_X, 5, 2, 0, 0),
		insn(BPF_JMP | BPF_CALL, 0, 0, 0, (int32_t)h),
		insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, ret),
		insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, ret),
		insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	enum verdict v = load(p->type, p->attach, in, (int)(sizeof(in) / sizeof(in[0])), "GPL");
	if (v == V_NO_HELPER || v == V_INVALID_FUNC)
		return -1;
	return strstr(vlog, "helper access to the packet is not allowed") != NULL;
}

/* Calls fn for every loadable target with packet pointers (ret: a return
 * value it accepts), the walk both the dump and the check make. */
static void each_pkt_target(void (*fn)(void *arg, const struct probe_target *p, int ret), void *arg)
{
	int d, e;
	uint8_t sz;
	for (unsigned i = 0; i < NTARGETS; i++) {
		const struct probe_target *p = &targets[i];
		int ret = ok_ret(p->type, p->attach);
		if (ret >= 0 && pkt_fields(p, &d, &e, &sz))
			fn(arg, p, ret);
	}
}

/* One line per loadable target with packet pointers: "target type attach
 * id id ..." (the callable helpers that refuse a packet pointer). */
static void dump_pkt_target(void *arg, const struct probe_target *p, int ret)
{
	(void)arg;
	printf("%s %u %u", p->layout, p->type, p->attach);
	for (uint32_t h = 1; h <= bg_helper_max_id(); h++)
		if (pkt_refused(p, ret, h) == 1)
			printf(" %u", h);
	printf("\n");
}

static void dump_helpers_pkt(void)
{
	each_pkt_target(dump_pkt_target, NULL);
}

struct pkt_agree {
	unsigned agree, total;
	char first[200];
};

static void check_pkt_target(void *arg, const struct probe_target *p, int ret)
{
	struct pkt_agree *a = arg;
	for (uint32_t h = 1; h <= bg_helper_max_id(); h++) {
		int k = pkt_refused(p, ret, h);
		if (k < 0)
			continue;
		a->total++;
		if ((k == 1) == bg_helper_pkt_arg_refused(h, p->type)) {
			a->agree++;
		} else if (a->total - a->agree <= 3) {
			size_t l = strlen(a->first);
			snprintf(a->first + l, sizeof(a->first) - l, " %s/%s(kernel %s)", p->layout,
				 bg_helper_by_id(h)->name, k ? "refuses" : "takes");
		}
	}
}

/* Per packet-pointer target: bg_helper_pkt_arg_refused against the kernel. */
static void check_helpers_pkt(void)
{
	struct pkt_agree a = { 0 };
	each_pkt_target(check_pkt_target, &a);
	printf("# packet pointer arguments: %u/%u (target, helper) pairs agree\n", a.agree, a.total);
	T_CHECK(a.total > 0 && a.agree == a.total, "platform/kernel/helpers-pkt", "%u disagreements:%s",
		a.total - a.agree, a.first);
}

/* Per (type, attach): bg_helper_allowed_attach against the kernel. */
static void check_helpers_attach(void)
{
	unsigned agree = 0, total = 0, bad_t = 0;
	for (unsigned i = 0; i < NTARGETS; i++) {
		const struct probe_target *p = &targets[i];
		int ret = ok_ret(p->type, p->attach);
		unsigned bad = 0;
		char first[200] = "";
		if (ret < 0)
			continue;
		for (uint32_t h = 1; h <= bg_helper_max_id(); h++) {
			enum verdict v = load_call(p->type, p->attach, (int32_t)h, "GPL", ret);
			bool kernel = v != V_NO_HELPER && v != V_INVALID_FUNC;
			bool ours = bg_helper_allowed_attach(h, p->type, p->attach, 0, NULL);
			total++;
			if (kernel == ours || (!kernel && unverifiable_here(p->type, h))) {
				agree++;
			} else if (bad++ < 3) {
				size_t l = strlen(first);
				snprintf(first + l, sizeof(first) - l, " %s(kernel %s)", bg_helper_by_id(h)->name,
					 kernel ? "allows" : "refuses");
			}
		}
		if (bad) {
			char name[96];
			snprintf(name, sizeof(name), "platform/kernel/helpers-attach/%s", p->layout);
			T_FAIL(name, "%u disagreements:%s", bad, first);
			bad_t++;
		}
	}
	printf("# helper availability per attach type: %u/%u (target, helper) pairs agree\n", agree, total);
	T_CHECK(bad_t == 0, "platform/kernel/helpers-attach", "%u targets disagree", bad_t);
}

/* One line per offset with any accepted access: reads of 1,2,4,8 bytes then
 * writes; ' ' misaligned (not tried), '.' rejected, size digit / 'W' accepted. */
static void dump_ctx_target(const struct probe_target *p)
{
	int ret = ok_ret(p->type, p->attach);
	printf("# %s %u %u %s\n", p->layout, p->type, p->attach, ret < 0 ? "unloadable" : "");
	for (int off = 0; ret >= 0 && off < p->limit; off++) {
		char line[16], *c = line;
		bool any = false;
		for (int wr = 0; wr < 2; wr++)
			for (int sz = 1; sz <= 8; sz *= 2) {
				bool ok;
				if (off % sz) {
					*c++ = ' ';
					continue;
				}
				ok = load_access(p->type, p->attach, off, sz, wr, ret) == V_OK;
				*c++ = ok ? (wr ? 'W' : (char)('0' + sz)) : '.';
				any |= ok;
			}
		*c = 0;
		if (any)
			printf("%3d %s\n", off, line);
	}
}

static void dump_fields_of(const struct btf *vm, const char *sname, int id, int base)
{
	const struct btf_type *t = btf__type_by_id(vm, id);
	const struct btf_member *m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		int off = base + (int)btf_member_bit_offset(t, i) / 8;
		const char *n = btf__name_by_offset(vm, m->name_off);
		int mt = btf__resolve_type(vm, m->type);
		const struct btf_type *mtt = btf__type_by_id(vm, mt);
		if (!n || !*n) {
			if (btf_is_composite(mtt))
				dump_fields_of(vm, sname, mt, off);
			continue;
		}
		if (btf_member_bitfield_size(t, i))
			continue;
		if (btf_is_array(mtt)) {
			const struct btf_array *a = btf_array(mtt);
			int es = (int)btf__resolve_size(vm, a->type);
			for (unsigned j = 0; j < a->nelems; j++)
				printf("%s %s[%u] %d %d\n", sname, n, j, off + (int)j * es, es);
		} else {
			printf("%s %s %d %d\n", sname, n, off, (int)btf__resolve_size(vm, mt));
		}
	}
}

static int dump_fields(void)
{
	struct btf *vm = btf__load_vmlinux_btf();
	const char *done[NTARGETS] = { 0 };
	unsigned nd = 0;
	if (!vm)
		return 1;
	for (unsigned i = 0; i < NTARGETS; i++) {
		const char *s = targets[i].ctx_struct;
		bool seen = false;
		if (!s)
			continue;
		for (unsigned j = 0; j < nd; j++)
			seen |= !strcmp(done[j], s);
		if (seen)
			continue;
		done[nd++] = s;
		int id = btf__find_by_name_kind(vm, s, BTF_KIND_STRUCT);
		if (id < 0)
			continue;
		printf("%s - 0 %d\n", s, (int)btf__resolve_size(vm, id));
		dump_fields_of(vm, s, id, 0);
	}
	btf__free(vm);
	return 0;
}

/* ---- checks ---- */

static void check_helpers(void)
{
	unsigned agree = 0, total = 0, gpl_agree = 0, gpl_total = 0, types = 0, xfail = 0;
	for (uint32_t t = 1; t < NPROG_TYPES; t++) {
		uint32_t bad = 0;
		bool loadable = true;
		char name[64], first[256] = "";
		snprintf(name, sizeof(name), "platform/kernel/helpers/%s", bg_prog_type_name(t));
		for (uint32_t h = 1; h <= bg_helper_max_id(); h++) {
			bool g;
			enum verdict flag;
			int a = kernel_helper(t, h, &g, &flag);
			bool kernel = a > 0;
			bool ours = bg_helper_allowed(h, t, 0, NULL);
			const struct bg_helper_proto *p = bg_helper_by_id(h);
			if (a < 0) {
				T_SKIP(name, "program type not loadable here");
				loadable = false;
				break;
			}
			if (h == 1)
				types++;
			total++;
			if (kernel == ours) {
				agree++;
			} else if (!kernel && unverifiable_here(t, h)) {
				xfail++;
			} else if (bad++ < 4) {
				size_t l = strlen(first);
				snprintf(first + l, sizeof(first) - l, " %s(kernel %s)", p ? p->name : "?",
					 kernel ? "allows" : "refuses");
			}
			if (kernel && p) {
				bool ours_g = (p->flags & BG_HF_GPL_ONLY) != 0;
				gpl_total++;
				if (g == ours_g)
					gpl_agree++;
				else
					printf("# gpl_only differs: %s in %s (kernel %s)\n", p->name,
					       bg_prog_type_name(t), g ? "GPL-only" : "any license");
			}
		}
		if (loadable)
			T_CHECK(bad == 0, name, "%u disagreements:%s", bad, first);
	}
	printf("# helper availability: %u/%u (type, helper) pairs agree over %u program types "
	       "(%u allowed only under fentry/fexit, which cannot load here)\n", agree, total, types,
	       xfail);
	if (xfail)
		T_XFAIL("platform/kernel/helpers/fentry-only", "%u helpers of fentry/fexit programs "
			"(get_func_arg/ret/arg_cnt) unverifiable: fentry loads fail with EPERM here", xfail);
	total -= xfail;
	printf("# gpl_only: %u/%u available pairs agree\n", gpl_agree, gpl_total);
	T_CHECK(agree == total, "platform/kernel/helpers/agreement", "%u/%u", agree, total);
	/* bpf_get_stackid has a non-GPL variant for perf_event programs: one
	 * flag per helper cannot say that (the table keeps the stricter one). */
	if (gpl_agree + 1 == gpl_total)
		T_XFAIL("platform/kernel/helpers/gpl_only", "%u/%u: gpl_only is per helper, the kernel "
			"has a per-type variant of bpf_get_stackid", gpl_agree, gpl_total);
	else
		T_CHECK(gpl_agree == gpl_total, "platform/kernel/helpers/gpl_only", "%u/%u", gpl_agree,
			gpl_total);
}

/* Named spot checks the brief asks for, independent of the matrix above. */
static void check_spots(void)
{
	static const struct {
		uint32_t type, helper;
		bool allowed;
	} spots[] = {
		{ BPF_PROG_TYPE_SOCKET_FILTER, BPF_FUNC_redirect, false },
		{ BPF_PROG_TYPE_SOCKET_FILTER, BPF_FUNC_skb_load_bytes, true },
		{ BPF_PROG_TYPE_SOCKET_FILTER, BPF_FUNC_get_socket_cookie, true },
		{ BPF_PROG_TYPE_SOCKET_FILTER, BPF_FUNC_skb_store_bytes, false },
		{ BPF_PROG_TYPE_XDP, BPF_FUNC_skb_load_bytes, false },
		{ BPF_PROG_TYPE_XDP, BPF_FUNC_xdp_adjust_head, true },
		{ BPF_PROG_TYPE_SCHED_CLS, BPF_FUNC_xdp_adjust_head, false },
		{ BPF_PROG_TYPE_SCHED_CLS, BPF_FUNC_skb_store_bytes, true },
		{ BPF_PROG_TYPE_KPROBE, BPF_FUNC_skb_load_bytes, false },
		{ BPF_PROG_TYPE_KPROBE, BPF_FUNC_get_stackid, true },
		{ BPF_PROG_TYPE_CGROUP_SKB, BPF_FUNC_redirect, false },
		{ BPF_PROG_TYPE_TRACEPOINT, BPF_FUNC_perf_event_output, true },
	};
	for (unsigned i = 0; i < sizeof(spots) / sizeof(spots[0]); i++) {
		const struct bg_helper_proto *h = bg_helper_by_id(spots[i].helper);
		char name[96];
		int ret = ok_ret(spots[i].type, 0);
		enum verdict v = load_call(spots[i].type, 0, (int32_t)spots[i].helper, "GPL", ret);
		bool kernel = v != V_NO_HELPER;
		bool ours = bg_helper_allowed(spots[i].helper, spots[i].type, 0, NULL);
		snprintf(name, sizeof(name), "platform/kernel/spot/%s/%s", bg_prog_type_name(spots[i].type),
			 h ? h->name : "?");
		T_CHECK(kernel == spots[i].allowed && ours == spots[i].allowed, name,
			"expected %s, kernel %s, table %s", spots[i].allowed ? "allowed" : "refused",
			kernel ? "allows" : "refuses", ours ? "allows" : "refuses");
	}
}

static bool btf_typed(const struct probe_target *p)
{
	return p->type == BPF_PROG_TYPE_TRACING;
}

static void check_ctx(void)
{
	unsigned agree_all = 0, total_all = 0;
	for (unsigned i = 0; i < NTARGETS; i++) {
		const struct probe_target *p = &targets[i];
		const struct bg_prog_policy *pol = bg_prog_policy(p->type, p->attach);
		unsigned agree = 0, total = 0;
		char name[96], first[256] = "";
		int ret = ok_ret(p->type, p->attach);
		snprintf(name, sizeof(name), "platform/kernel/ctx/%s", p->layout);
		if (ret < 0) {
			T_SKIP(name, "not loadable here");
			continue;
		}
		if (!pol->ctx) {
			T_FAIL(name, "no ctx layout in the table");
			continue;
		}
		for (int off = 0; off < p->limit; off++)
			for (int wr = 0; wr < 2; wr++)
				for (int sz = 1; sz <= 8; sz *= 2) {
					bool kernel, ours;
					if (off % sz)
						continue;
					kernel = load_access(p->type, p->attach, off, sz, wr, ret) == V_OK;
					ours = bg_ctx_field_at(pol->ctx, off, sz, wr, NULL) != NULL;
					total++;
					/* BTF-typed contexts (tracing): the generic layout
					 * must allow what the kernel allows; the target's
					 * BTF narrows it further during analysis. */
					if (kernel == ours || (btf_typed(p) && ours)) {
						agree++;
					} else if (total - agree <= 4) {
						size_t l = strlen(first);
						snprintf(first + l, sizeof(first) - l, " %s%d@%d(kernel %s)",
							 wr ? "w" : "r", sz, off, kernel ? "ok" : "rejects");
					}
				}
		agree_all += agree;
		total_all += total;
		T_CHECK(agree == total, name, "%u/%u accesses agree:%s", agree, total, first);
	}
	/* the far end of the tracepoint context (8192 bytes; a syscall ctx ends past
	 * what an instruction offset can reach) */
	{
		static const struct {
			uint32_t type;
			int lo, hi;
		} ends[] = { { BPF_PROG_TYPE_TRACEPOINT, 8176, 8208 } };
		unsigned agree = 0, total = 0;
		char bad[200] = "";
		for (unsigned e = 0; e < sizeof(ends) / sizeof(ends[0]); e++) {
			const struct bg_prog_policy *pol = bg_prog_policy(ends[e].type, 0);
			int ret = ok_ret(ends[e].type, 0);
			if (ret < 0 || !pol->ctx)
				continue;
			for (int off = ends[e].lo; off < ends[e].hi; off++)
				for (int sz = 1; sz <= 8; sz *= 2) {
					bool kernel, ours;
					if (off % sz)
						continue;
					kernel = load_access(ends[e].type, 0, off, sz, false, ret) == V_OK;
					ours = bg_ctx_field_at(pol->ctx, off, sz, false, NULL) != NULL;
					total++;
					if (kernel == ours) {
						agree++;
					} else {
						size_t l = strlen(bad);
						snprintf(bad + l, sizeof(bad) - l, " %s r%d@%d(kernel %s)", pol->name, sz,
							 off, kernel ? "ok" : "rejects");
					}
				}
		}
		agree_all += agree;
		total_all += total;
		T_CHECK(agree == total && total > 0, "platform/kernel/ctx/large-ends", "%u/%u:%s", agree, total,
			bad);
	}
	printf("# ctx accesses: %u/%u (layout, offset, size, direction) agree\n", agree_all, total_all);
}

/* ---- helper argument kinds ----
 * For each helper and each argument i: fill args 1..i-1 with a value the
 * table says the argument accepts, args i..5 with one probe value (the ctx
 * pointer, the scalar 0, an initialized stack pointer, a map pointer) and
 * see which register the kernel complains about. A complaint about arg i
 * means the kind refuses the probe value, none (or a later arg) means it
 * accepts it; a complaint about an earlier arg means the table's "valid"
 * value was refused. The table's kind must predict the same. */
enum probe_val { PV_CTX, PV_ZERO, PV_FP, PV_MAP, PV_EIGHT, PV__N, PV_NONE = -1 };
static const char *const pv_names[] = { "ctx", "0", "stack pointer", "map pointer", "8" };

/* Does an argument of kind k accept v?  1 yes, 0 no, -1 unknown. */
static int kind_accepts(uint8_t k, enum probe_val v)
{
	switch (k) {
	case BG_ARG_ANYTHING:
		return 1;
	case BG_ARG_SCALAR:
	case BG_ARG_CONST_SIZE_OR_ZERO:
	case BG_ARG_CONST_ALLOC_SIZE_OR_ZERO:
		return v == PV_ZERO || v == PV_EIGHT;
	case BG_ARG_CONST_SIZE:
		return v == PV_EIGHT;
	case BG_ARG_CONST_MAP_PTR:
		return v == PV_MAP;
	case BG_ARG_CTX:
		return v == PV_CTX;
	case BG_ARG_CTX_OR_NULL:
		return v == PV_CTX || v == PV_ZERO;
	case BG_ARG_MEM:
	case BG_ARG_UNINIT_MEM:
	case BG_ARG_MAP_KEY:
	case BG_ARG_MAP_VALUE:
	case BG_ARG_UNINIT_MAP_VALUE:
	case BG_ARG_LONG:
	case BG_ARG_INT:
	case BG_ARG_FIXED_MEM:
	case BG_ARG_STACK:
		return v == PV_FP;
	case BG_ARG_MEM_OR_NULL:
	case BG_ARG_MAP_VALUE_OR_NULL:
	case BG_ARG_STACK_OR_NULL:
		return v == PV_FP || v == PV_ZERO;
	case BG_ARG_SOCKET_OR_NULL:
	case BG_ARG_BTF_ID_OR_NULL:
	case BG_ARG_BTF_ID_SOCK_COMMON_OR_NULL:
		return v == PV_ZERO;
	case BG_ARG_DYNPTR:
		return v == PV_FP ? -1 : 0;
	default: /* sockets, BTF pointers, locks, timers, callbacks, kptrs, const strings */
		return 0;
	}
}

/* A value the table says arg kind k accepts (PV_NONE: none we can build). */
static enum probe_val valid_for(uint8_t k)
{
	static const enum probe_val order[] = { PV_EIGHT, PV_CTX, PV_MAP, PV_FP, PV_ZERO };
	for (unsigned i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (kind_accepts(k, order[i]) == 1)
			return order[i];
	return PV_NONE;
}

static int probe_map_fd = -1;

static int set_reg(struct bpf_insn *in, int n, int reg, enum probe_val v)
{
	switch (v) {
	case PV_CTX:
		in[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)reg, 6, 0, 0);
		break;
	case PV_ZERO:
	case PV_EIGHT:
		in[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, (uint8_t)reg, 0, 0, v == PV_EIGHT ? 8 : 0);
		break;
	case PV_FP:
		in[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, (uint8_t)reg, 10, 0, 0);
		in[n++] = insn(BPF_ALU64 | BPF_ADD | BPF_K, (uint8_t)reg, 0, 0, -64);
		break;
	case PV_MAP:
		in[n++] = insn(BPF_LD | BPF_DW | BPF_IMM, (uint8_t)reg, BPF_PSEUDO_MAP_FD, 0, probe_map_fd);
		in[n++] = insn(0, 0, 0, 0, 0);
		break;
	default:
		break;
	}
	return n;
}

/* Load "args = vals; call h" in type t; return the 1-based argument the
 * kernel complains about, 0 when none, -1 when the log names none. */
static int arg_complaint(uint32_t t, uint32_t attach, int ret, uint32_t h, const enum probe_val *vals)
{
	struct bpf_insn in[40];
	int n = 0;
	enum verdict v;
	const char *call, *m;

	in[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0);
	for (int off = -64; off < 0; off += 8)
		in[n++] = insn(BPF_ST | BPF_MEM | BPF_DW, 10, 0, (int16_t)off, 0);
	for (int r = 1; r <= 5; r++)
		n = set_reg(in, n, r, vals[r - 1]);
	in[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, (int32_t)h);
	in[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, ret);
	in[n++] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	v = load(t, attach, in, n, "GPL");
	if (v == V_OK)
		return 0;
	if (v == V_NO_HELPER || v == V_INVALID_FUNC)
		return -1;
	call = strstr(vlog, ") call ");
	if (!call)
		return -1;
	call = strchr(call, '\n');
	if (!call)
		return -1;
	call++;
	if (!strncmp(call, "processed", 9) || strstr(call, "cannot pass map_type") ||
	    strstr(call, "Unreleased reference") || strstr(call, "unreleased") ||
	    strstr(call, "R0 ") == call)
		return 0;
	if ((m = strstr(call, "arg #")) && m[5] >= '1' && m[5] <= '5')
		return m[5] - '0';
	if ((m = strstr(call, "arg#")) && m[4] >= '0' && m[4] <= '4')
		return m[4] - '0' + 1;
	for (m = call; *m && *m != '\n'; m++)
		if (m[0] == 'R' && m[1] >= '1' && m[1] <= '5' && (m[2] == ' ' || m[2] == '='))
			return m[1] - '0';
	return -1;
}

static int first_type_of(const struct bg_helper_proto *h, uint32_t *attach)
{
	/* tc first: several base helpers have a ctx-less variant elsewhere
	 * (bpf_get_cgroup_classid) and the table keeps the skb form */
	static const uint32_t pref[] = { BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_KPROBE,
					 BPF_PROG_TYPE_SOCKET_FILTER };
	for (unsigned i = 0; i < sizeof(pref) / sizeof(pref[0]); i++)
		if (h->prog_types & (1ull << pref[i])) {
			*attach = 0;
			return (int)pref[i];
		}
	for (unsigned i = 0; i < NTARGETS; i++)
		if ((h->prog_types & (1ull << targets[i].type)) && ok_ret(targets[i].type, targets[i].attach) >= 0) {
			*attach = targets[i].attach;
			return (int)targets[i].type;
		}
	return -1;
}

/* Probe every argument of h (as the table describes it: p) in program type
 * t; returns the number of contradictions, appending the first to *first. */
static int probe_args(const struct bg_helper_proto *h, const struct bg_helper_proto *p, uint32_t t,
		      uint32_t attach, int ret, unsigned *agree, unsigned *total, unsigned *unknown,
		      char *first, size_t firstsz)
{
	enum probe_val vals[5];
	int bad = 0;
	for (int i = 0; i < p->nargs; i++) {
		bool stop = false;
		for (int x = 0; x < PV__N; x++) {
			int want = kind_accepts(p->args[i], (enum probe_val)x), got;
			for (int j = 0; j < 5; j++)
				vals[j] = j < i ? valid_for(p->args[j]) : (enum probe_val)x;
			got = arg_complaint(t, attach, ret, h->id, vals);
			if (got < 0 || want < 0) {
				(*unknown)++;
				continue;
			}
			(*total)++;
			if (got > 0 && got <= i) { /* an earlier, "valid" argument was refused */
				if (!bad++) {
					size_t l = strlen(first);
					snprintf(first + l, firstsz - l, " %s in %s: arg%d(%s) refuses %s;", h->name,
						 bg_prog_type_name(t), got, bg_arg_type_name(p->args[got - 1]),
						 pv_names[vals[got - 1]]);
				}
				stop = true;
				break;
			}
			if ((got == i + 1) == !want) {
				(*agree)++;
			} else if (!bad++) {
				size_t l = strlen(first);
				snprintf(first + l, firstsz - l, " %s in %s: arg%d(%s) kernel %s %s;", h->name,
					 bg_prog_type_name(t), i + 1, bg_arg_type_name(p->args[i]),
					 got == i + 1 ? "refuses" : "accepts", pv_names[x]);
			}
		}
		if (stop || valid_for(p->args[i]) == PV_NONE)
			break;
	}
	return bad;
}

static void check_args(void)
{
	unsigned n, agree = 0, total = 0, unknown = 0, bad_h = 0;
	const struct bg_helper_proto *tab = bg_helpers(&n);
	char first[512] = "";

	probe_map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bg_probe", 4, 64, 1, NULL);
	if (probe_map_fd < 0) {
		T_SKIP("platform/kernel/args", "cannot create a map: %s", strerror(errno));
		return;
	}
	for (unsigned hi = 0; hi < n; hi++) {
		const struct bg_helper_proto *h = &tab[hi];
		int bad = 0;
		uint64_t done = 0; /* program types probed */
		for (unsigned ti = 0; ti < NTARGETS; ti++) {
			uint32_t t = targets[ti].type, attach = targets[ti].attach;
			int ret;
			if ((done >> t) & 1 || !bg_helper_allowed_attach(h->id, t, attach, 0, NULL))
				continue;
			if (unverifiable_here(t, h->id) || (ret = ok_ret(t, attach)) < 0)
				continue;
			done |= 1ull << t;
			bad += probe_args(h, bg_helper_proto_for(h->id, t), t, attach, ret, &agree, &total,
					  &unknown, first, sizeof(first));
		}
		bad_h += bad > 0;
		if (bad) {
			char name[96];
			snprintf(name, sizeof(name), "platform/kernel/args/%s", h->name);
			T_FAIL(name, "%s", first);
			first[0] = 0;
		}
	}
	close(probe_map_fd);
	printf("# helper argument kinds: %u/%u probes agree (%u undetermined), %u helpers disagree\n",
	       agree, total, unknown, bad_h);
	T_CHECK(bad_h == 0, "platform/kernel/args", "%u helpers with argument kinds the kernel contradicts",
		bad_h);
}

/* ---- flags: packet-changing and acquiring helpers ----
 * A helper called with arguments the table says are valid:
 *  - acquire: exiting right after the call leaks a reference;
 *  - pkt_changing: a packet pointer checked before the call is unusable
 *    after it ("R7 invalid mem access"). */
static int ringbuf_fd = -1;
static bool keep_map; /* map-type probes: use probe_map_fd even for ringbuf helpers */

static enum verdict flag_probe(uint32_t t, uint32_t attach, int ret, const struct bg_helper_proto *h,
			       bool use_pkt)
{
	struct bpf_insn in[48];
	int n = 0, skip_at;
	bool wide = t == BPF_PROG_TYPE_SK_MSG;
	int d = wide ? 0 : offsetof(struct __sk_buff, data), de = wide ? 8 : offsetof(struct __sk_buff, data_end);
	int saved = probe_map_fd;

	if (t == BPF_PROG_TYPE_XDP)
		d = 0, de = 4;
	if (strstr(h->name, "ringbuf") && !keep_map)
		probe_map_fd = ringbuf_fd;
	in[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0);
	if (use_pkt) {
		in[n++] = insn(BPF_LDX | BPF_MEM | (wide ? BPF_DW : BPF_W), 7, 6, (int16_t)d, 0);
		in[n++] = insn(BPF_LDX | BPF_MEM | (wide ? BPF_DW : BPF_W), 8, 6, (int16_t)de, 0);
		in[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, 9, 7, 0, 0);
		in[n++] = insn(BPF_ALU64 | BPF_ADD | BPF_K, 9, 0, 0, 1);
		skip_at = n;
		in[n++] = insn(BPF_JMP | BPF_JGT | BPF_X, 9, 8, 0, 0); /* patched below */
	}
	for (int off = -64; off < 0; off += 8)
		in[n++] = insn(BPF_ST | BPF_MEM | BPF_DW, 10, 0, (int16_t)off, 0);
	for (int r = 1; r <= h->nargs; r++)
		n = set_reg(in, n, r, valid_for(h->args[r - 1]));
	in[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, (int32_t)h->id);
	if (use_pkt) {
		in[n++] = insn(BPF_LDX | BPF_MEM | BPF_B, 0, 7, 0, 0);
		in[skip_at].off = (int16_t)(n - skip_at - 1);
	}
	in[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, ret);
	in[n++] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	probe_map_fd = saved;
	return load(t, attach, in, n, "GPL");
}

static char last_r0[64];

/* Does the r0 the verifier shows after the call (log level 2: "call
 * bpf_x#n ; R0=map_value_or_null(...)") match the table's result kind?
 * 1 yes, 0 no, -1 not shown. */
static int ret_kind_agrees(const struct bg_helper_proto *h)
{
	static const struct {
		const char *prefix;
		uint8_t kinds[3];
	} map[] = {
		{ "map_value_or_null", { BG_RET_MAP_VALUE_OR_NULL, BG_RET__MAX, BG_RET__MAX } },
		{ "map_value(", { BG_RET_MAP_VALUE, BG_RET__MAX, BG_RET__MAX } },
		{ "sock_or_null", { BG_RET_SOCKET_OR_NULL, BG_RET__MAX, BG_RET__MAX } },
		{ "sock_common_or_null", { BG_RET_SOCK_COMMON_OR_NULL, BG_RET__MAX, BG_RET__MAX } },
		{ "tcp_sock_or_null", { BG_RET_TCP_SOCK_OR_NULL, BG_RET__MAX, BG_RET__MAX } },
		{ "ringbuf_mem_or_null", { BG_RET_ALLOC_MEM_OR_NULL, BG_RET__MAX, BG_RET__MAX } },
		{ "ptr_or_null_", { BG_RET_BTF_ID_OR_NULL, BG_RET_MEM_OR_BTF_ID_OR_NULL, BG_RET_KPTR_OR_NULL } },
		{ "trusted_ptr_", { BG_RET_BTF_ID, BG_RET_MEM_OR_BTF_ID, BG_RET__MAX } },
		{ "ptr_", { BG_RET_BTF_ID, BG_RET_MEM_OR_BTF_ID, BG_RET__MAX } },
		{ "scalar", { BG_RET_INTEGER, BG_RET__MAX, BG_RET__MAX } },
	};
	const char *c = NULL, *e, *r0;
	/* the last "call" line: log level 2 lists the program once before the states */
	for (const char *x = strstr(vlog, ") call "); x; x = strstr(x + 1, ") call "))
		c = x;
	last_r0[0] = 0;
	if (!c)
		return -1;
	e = strchr(c, '\n');
	r0 = strstr(c, " R0=");
	if (!r0 || (e && r0 > e))
		return h->ret == BG_RET_VOID ? 1 : -1;
	r0 += 4;
	snprintf(last_r0, sizeof(last_r0), "%.*s", (int)strcspn(r0, " \n"), r0);
	if (*r0 >= '0' && *r0 <= '9')
		return h->ret == BG_RET_INTEGER;
	for (unsigned i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strncmp(r0, map[i].prefix, strlen(map[i].prefix)))
			return h->ret == map[i].kinds[0] || h->ret == map[i].kinds[1] || h->ret == map[i].kinds[2];
	return -1;
}

static bool constructible(const struct bg_helper_proto *h)
{
	for (int i = 0; i < h->nargs; i++)
		if (valid_for(h->args[i]) == PV_NONE)
			return false;
	return true;
}

static void check_flags(void)
{
	static const uint32_t pkt_types[] = { BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_LWT_XMIT,
					      BPF_PROG_TYPE_LWT_IN, BPF_PROG_TYPE_LWT_SEG6LOCAL,
					      BPF_PROG_TYPE_SK_MSG };
	unsigned n, pkt_agree = 0, pkt_total = 0, acq_agree = 0, acq_total = 0, pkt_yes = 0, acq_yes = 0;
	unsigned ret_agree = 0, ret_total = 0;
	const struct bg_helper_proto *tab = bg_helpers(&n);
	char bad[400] = "";

	probe_map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bg_probe", 4, 64, 1, NULL);
	ringbuf_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "bg_probe_rb", 0, 0, 4096, NULL);
	if (probe_map_fd < 0 || ringbuf_fd < 0) {
		T_SKIP("platform/kernel/flags", "cannot create maps: %s", strerror(errno));
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct bg_helper_proto *h = &tab[i];
		uint32_t attach = 0;
		int t;
		if (!constructible(h))
			continue;
		for (unsigned k = 0; k < sizeof(pkt_types) / sizeof(pkt_types[0]); k++) {
			uint32_t pt = pkt_types[k], pa = pt == BPF_PROG_TYPE_SK_MSG ? BPF_SK_MSG_VERDICT : 0;
			int ret = ok_ret(pt, pa);
			enum verdict v, plain;
			if (!(h->prog_types & (1ull << pt)) || ret < 0)
				continue;
			plain = flag_probe(pt, pa, ret, h, false);
			if (plain != V_OK)
				break; /* arguments not good enough to decide */
			v = flag_probe(pt, pa, ret, h, true);
			if (v == V_OK || strstr(vlog, "R7 invalid mem access")) {
				bool kernel = v != V_OK, ours = (h->flags & BG_HF_PKT_CHANGING) != 0;
				pkt_total++;
				pkt_yes += kernel;
				if (kernel == ours) {
					pkt_agree++;
				} else {
					size_t l = strlen(bad);
					snprintf(bad + l, sizeof(bad) - l, " %s pkt_changing (kernel %s)", h->name,
						 kernel ? "yes" : "no");
				}
			}
			break;
		}
		t = first_type_of(h, &attach);
		if (t >= 0) {
			int ret = ok_ret((uint32_t)t, attach);
			enum verdict v;
			log_level = 2; /* the state after the call shows r0 */
			v = ret < 0 ? V_OTHER : flag_probe((uint32_t)t, attach, ret, h, false);
			log_level = 1;
			if (ret >= 0 && (v == V_OK || strstr(vlog, "Unreleased reference"))) {
				int k = ret_kind_agrees(h);
				if (k >= 0) {
					ret_total++;
					if (k) {
						ret_agree++;
					} else {
						size_t l = strlen(bad);
						snprintf(bad + l, sizeof(bad) - l, " %s returns %s (kernel %.24s)",
							 h->name, bg_ret_type_name(h->ret), last_r0);
					}
				}
			}
			bool leak = strstr(vlog, "Unreleased reference") != NULL;
			if (ret >= 0 && (v == V_OK || leak)) {
				bool ours = (h->flags & BG_HF_ACQUIRE) != 0;
				acq_total++;
				acq_yes += leak;
				if (leak == ours) {
					acq_agree++;
				} else {
					size_t l = strlen(bad);
					snprintf(bad + l, sizeof(bad) - l, " %s acquire (kernel %s)", h->name,
						 leak ? "yes" : "no");
				}
			}
		}
	}
	printf("# pkt_changing: %u/%u helpers agree (%u changing); acquire: %u/%u helpers agree (%u "
	       "acquiring)\n", pkt_agree, pkt_total, pkt_yes, acq_agree, acq_total, acq_yes);
	printf("# result kinds: %u/%u helpers agree with the verifier's r0 after the call\n", ret_agree,
	       ret_total);
	T_CHECK(pkt_agree == pkt_total && acq_agree == acq_total && pkt_yes >= 10 && acq_yes >= 3 &&
			ret_agree == ret_total && ret_total >= 50,
		"platform/kernel/flags", "%s", bad);
out:
	if (probe_map_fd >= 0)
		close(probe_map_fd);
	if (ringbuf_fd >= 0)
		close(ringbuf_fd);
}

/* ---- kfunc roles ----
 * Kfuncs whose arguments can be built are called from a tp_btf program:
 *  - exiting right after the call must leak a reference iff BG_HF_ACQUIRE
 *    (or an iterator: BG_HF_ITER_NEW), and leave an RCU/preemption section
 *    open iff BG_HF_RCU_LOCK;
 *  - the verifier's state after the call shows r0 as "ptr_or_null_..."
 *    iff BG_HF_RET_NULL. */
static enum verdict kfunc_probe(const struct bg_helper_proto *k, int btf_id)
{
	struct bpf_insn in[40];
	int n = 0;
	in[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0);
	for (int off = -64; off < 0; off += 8)
		in[n++] = insn(BPF_ST | BPF_MEM | BPF_DW, 10, 0, (int16_t)off, 0);
	for (int r = 1; r <= k->nargs; r++)
		n = set_reg(in, n, r, valid_for(k->args[r - 1]));
	in[n++] = insn(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, btf_id);
	in[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	in[n++] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return load(BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, in, n, "GPL");
}

static void check_kfuncs(void)
{
	unsigned n, agree = 0, total = 0, acq = 0, nul = 0, locks = 0;
	const struct bg_helper_proto *tab = bg_kfuncs(&n);
	struct btf *vm = btf__load_vmlinux_btf();
	char bad[300] = "";

	if (!vm || tp_btf_id <= 0 || ok_ret(BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP) < 0) {
		T_SKIP("platform/kernel/kfuncs", "no vmlinux BTF or tp_btf programs");
		btf__free(vm);
		return;
	}
	probe_map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bg_probe", 4, 64, 1, NULL);
	for (unsigned i = 0; i < n; i++) {
		const struct bg_helper_proto *k = &tab[i];
		int id = btf__find_by_name_kind(vm, k->name, BTF_KIND_FUNC);
		enum verdict v;
		bool leak, open, ours;
		if (id < 0 || !constructible(k) || (k->flags & BG_HF_RELEASE))
			continue;
		v = kfunc_probe(k, id);
		leak = strstr(vlog, "Unreleased reference") != NULL;
		open = strstr(vlog, "-ed region") != NULL;
		if (v == V_OK || leak || open) {
			ours = (k->flags & (BG_HF_ACQUIRE | BG_HF_ITER_NEW)) != 0;
			total++;
			acq += leak;
			if (leak == ours) {
				agree++;
			} else {
				size_t l = strlen(bad);
				snprintf(bad + l, sizeof(bad) - l, " %s acquire(kernel %s)", k->name, leak ? "yes" : "no");
			}
			ours = (k->flags & (BG_HF_RCU_LOCK | BG_HF_SECTION_BEGIN)) != 0;
			total++;
			locks += open;
			if (open == ours) {
				agree++;
			} else {
				size_t l = strlen(bad);
				snprintf(bad + l, sizeof(bad) - l, " %s lock(kernel %s)", k->name, open ? "yes" : "no");
			}
		}
		/* the state after the call says what r0 is: "R0=ptr_or_null_task_struct(...)" */
		const char *call = strstr(vlog, ") call ");
		const char *eol = call ? strchr(call, '\n') : NULL;
		const char *r0 = call ? strstr(call, "R0=") : NULL;
		if (k->ret != BG_RET_INTEGER && k->ret != BG_RET_VOID && r0 && (!eol || r0 < eol) &&
		    strncmp(r0, "R0=scalar", 9)) {
			bool maybe_null = !strncmp(r0, "R0=ptr_or_null", 14) || !strncmp(r0, "R0=mem_or_null", 14) ||
					  !strncmp(r0, "R0=rdonly_mem_or_null", 21);
			ours = (k->flags & BG_HF_RET_NULL) != 0;
			total++;
			nul += maybe_null;
			if (maybe_null == ours) {
				agree++;
			} else {
				size_t l = strlen(bad);
				snprintf(bad + l, sizeof(bad) - l, " %s ret_null(kernel %s)", k->name,
					 maybe_null ? "yes" : "no");
			}
		}
	}
	if (probe_map_fd >= 0)
		close(probe_map_fd);
	btf__free(vm);
	printf("# kfunc roles: %u/%u probes agree (%u acquiring, %u open sections, %u NULL-able results "
	       "confirmed)\n", agree, total, acq, locks, nul);
	T_CHECK(agree == total && acq >= 2 && locks >= 1, "platform/kernel/kfuncs", "%s", bad);
}

/* ---- map value fields per program type ----
 * An array map whose BTF value holds a bpf_spin_lock (or a bpf_timer);
 * a program of each type that merely references it. */
static int special_map(bool timer, struct btf **keep)
{
	struct btf *b = btf__new_empty();
	int i32, u64, f, v, fd;
	if (!b)
		return -1;
	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	u64 = btf__add_int(b, "unsigned long long", 8, 0);
	if (!timer) {
		f = btf__add_struct(b, "bpf_spin_lock", 4);
		btf__add_field(b, "val", i32, 0, 0);
		v = btf__add_struct(b, "val", 8);
		btf__add_field(b, "lock", f, 0, 0);
		btf__add_field(b, "x", i32, 32, 0);
	} else {
		int arr = btf__add_array(b, i32, u64, 2);
		f = btf__add_struct(b, "bpf_timer", 16);
		btf__add_field(b, "__opaque", arr, 0, 0);
		v = btf__add_struct(b, "val", 16);
		btf__add_field(b, "t", f, 0, 0);
	}
	if (btf__load_into_kernel(b)) {
		btf__free(b);
		return -1;
	}
	LIBBPF_OPTS(bpf_map_create_opts, o, .btf_fd = btf__fd(b), .btf_key_type_id = (uint32_t)i32,
		    .btf_value_type_id = (uint32_t)v);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, timer ? "bg_timer" : "bg_lock", 4, timer ? 16 : 8, 1, &o);
	*keep = b;
	return fd;
}

static void check_map_fields(void)
{
	struct btf *b1 = NULL, *b2 = NULL;
	int fds[2] = { special_map(false, &b1), special_map(true, &b2) };
	static const uint32_t fields[2] = { BG_MAPF_SPIN_LOCK, BG_MAPF_TIMER };
	unsigned agree = 0, total = 0, refused = 0;
	char bad[256] = "";
	if (fds[0] < 0 || fds[1] < 0) {
		T_SKIP("platform/kernel/map-fields", "cannot create maps with BTF: %s", strerror(errno));
		goto out;
	}
	for (unsigned i = 0; i < NTARGETS; i++) {
		const struct probe_target *p = &targets[i];
		int ret = ok_ret(p->type, p->attach);
		if (ret < 0 || (i > 0 && targets[i - 1].type == p->type))
			continue;
		for (int k = 0; k < 2; k++) {
			struct bpf_insn in[4] = {
				insn(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, fds[k]),
				insn(0, 0, 0, 0, 0),
				insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, ret),
				insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
			};
			bool kernel = load(p->type, p->attach, in, 4, "GPL") == V_OK;
			const char *why = NULL;
			bool ours = bg_prog_map_fields_ok(p->type, fields[k], &why);
			total++;
			refused += !kernel;
			if (kernel == ours && (kernel || (why && strstr(vlog, why)))) {
				agree++;
			} else {
				size_t l = strlen(bad);
				snprintf(bad + l, sizeof(bad) - l, " %s/%s(kernel %s)", p->layout,
					 k ? "timer" : "spin_lock", kernel ? "ok" : "refuses");
			}
		}
	}
	printf("# map value fields: %u/%u (type, field) pairs agree (%u refused)\n", agree, total, refused);
	T_CHECK(agree == total && refused >= 5, "platform/kernel/map-fields", "%s", bad);
out:
	for (int k = 0; k < 2; k++)
		if (fds[k] >= 0)
			close(fds[k]);
	btf__free(b1);
	btf__free(b2);
}

/* ---- map type / helper compatibility ----
 * The kernel refuses some (map type, helper) pairs whatever the arguments
 * ("cannot pass map_type 27 into func bpf_map_lookup_elem#1"). One map of
 * each easily created type; each helper taking a map is called with it and
 * otherwise valid arguments. */
static const struct {
	uint32_t type, key, value, entries, flags;
} map_kinds[] = {
	{ BPF_MAP_TYPE_HASH, 4, 8, 1, 0 },           { BPF_MAP_TYPE_ARRAY, 4, 64, 1, 0 },
	{ BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 1, 0 },     { BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 1, 0 },
	{ BPF_MAP_TYPE_PERCPU_HASH, 4, 8, 1, 0 },    { BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1, 0 },
	{ BPF_MAP_TYPE_STACK_TRACE, 4, 64, 1, 0 },   { BPF_MAP_TYPE_CGROUP_ARRAY, 4, 4, 1, 0 },
	{ BPF_MAP_TYPE_LRU_HASH, 4, 8, 1, 0 },       { BPF_MAP_TYPE_LRU_PERCPU_HASH, 4, 8, 1, 0 },
	{ BPF_MAP_TYPE_LPM_TRIE, 8, 8, 1, BPF_F_NO_PREALLOC },
	{ BPF_MAP_TYPE_DEVMAP, 4, 4, 1, 0 },         { BPF_MAP_TYPE_SOCKMAP, 4, 4, 1, 0 },
	{ BPF_MAP_TYPE_CPUMAP, 4, 4, 1, 0 },         { BPF_MAP_TYPE_XSKMAP, 4, 4, 1, 0 },
	{ BPF_MAP_TYPE_SOCKHASH, 4, 4, 1, 0 },       { BPF_MAP_TYPE_CGROUP_STORAGE, 12, 8, 0, 0 },
	{ BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, 4, 8, 1, 0 },
	{ BPF_MAP_TYPE_QUEUE, 0, 8, 1, 0 },          { BPF_MAP_TYPE_STACK, 0, 8, 1, 0 },
	{ BPF_MAP_TYPE_DEVMAP_HASH, 4, 4, 1, 0 },    { BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0 },
	{ BPF_MAP_TYPE_BLOOM_FILTER, 0, 8, 1, 0 },   { BPF_MAP_TYPE_USER_RINGBUF, 0, 0, 4096, 0 },
};
#define NMAP_KINDS (sizeof(map_kinds) / sizeof(map_kinds[0]))

static int map_arg_of(const struct bg_helper_proto *h)
{
	for (int i = 0; i < h->nargs; i++)
		if (h->args[i] == BG_ARG_CONST_MAP_PTR)
			return i;
	return -1;
}

/* 1 compatible, 0 refused for the map type, -1 undetermined. */
static int map_helper_kernel(const struct bg_helper_proto *h, int map_fd)
{
	uint32_t attach = 0;
	int t = first_type_of(h, &attach), ret, saved = probe_map_fd;
	enum verdict v;
	if (t < 0 || (ret = ok_ret((uint32_t)t, attach)) < 0 || !constructible(h))
		return -1;
	probe_map_fd = map_fd;
	keep_map = true;
	v = flag_probe((uint32_t)t, attach, ret, h, false);
	keep_map = false;
	probe_map_fd = saved;
	if (v == V_OK || strstr(vlog, "Unreleased reference"))
		return 1;
	if (strstr(vlog, "cannot pass map_type") || strstr(vlog, "expected prog array map"))
		return 0;
	return -1;
}

static int create_map_kind(unsigned i)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = map_kinds[i].flags);
	return bpf_map_create(map_kinds[i].type, "bg_kind", map_kinds[i].key, map_kinds[i].value,
			      map_kinds[i].entries, &o);
}

static void dump_map_helpers(void)
{
	unsigned n;
	const struct bg_helper_proto *tab = bg_helpers(&n);
	ringbuf_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "bg_probe_rb", 0, 0, 4096, NULL);
	for (unsigned m = 0; m < NMAP_KINDS; m++) {
		int fd = create_map_kind(m);
		if (fd < 0)
			continue;
		for (unsigned i = 0; i < n; i++) {
			int k;
			if (map_arg_of(&tab[i]) < 0)
				continue;
			k = map_helper_kernel(&tab[i], fd);
			printf("%u %u %s\n", map_kinds[m].type, tab[i].id, k > 0 ? "ok" : k == 0 ? "no" : "?");
		}
		close(fd);
	}
	close(ringbuf_fd);
}

static void check_map_helpers(void)
{
	unsigned n, agree = 0, total = 0, refused = 0, kinds = 0;
	const struct bg_helper_proto *tab = bg_helpers(&n);
	char bad[256] = "";
	ringbuf_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "bg_probe_rb", 0, 0, 4096, NULL);
	for (unsigned m = 0; m < NMAP_KINDS; m++) {
		int fd = create_map_kind(m);
		if (fd < 0)
			continue;
		kinds++;
		for (unsigned i = 0; i < n; i++) {
			int k;
			bool ours;
			if (map_arg_of(&tab[i]) < 0 || (k = map_helper_kernel(&tab[i], fd)) < 0)
				continue;
			ours = bg_map_helper_ok(map_kinds[m].type, tab[i].id, NULL);
			total++;
			refused += k == 0;
			if ((k == 1) == ours) {
				agree++;
			} else {
				size_t l = strlen(bad);
				snprintf(bad + l, sizeof(bad) - l, " map_type %u + %s (kernel %s)", map_kinds[m].type,
					 tab[i].name, k ? "ok" : "refuses");
			}
		}
		close(fd);
	}
	close(ringbuf_fd);
	printf("# map types x helpers: %u/%u decided pairs agree (%u refused) over %u map types\n", agree,
	       total, refused, kinds);
	T_CHECK(agree == total && refused >= 50, "platform/kernel/map-helpers", "%s", bad);
}

static void check_ret(void)
{
	static const int64_t ks[] = { -1, 0, 1, 2, 3, 4, 5, 7, 8, 100, 0x100000000ll };
	unsigned agree_all = 0, total_all = 0;
	for (unsigned i = 0; i < NTARGETS; i++) {
		const struct probe_target *p = &targets[i];
		const struct bg_prog_policy *pol = bg_prog_policy(p->type, p->attach);
		char name[96], bad[128] = "";
		unsigned agree = 0;
		snprintf(name, sizeof(name), "platform/kernel/ret/%s", p->layout);
		if (ok_ret(p->type, p->attach) < 0) {
			T_SKIP(name, "not loadable here");
			continue;
		}
		for (unsigned k = 0; k < sizeof(ks) / sizeof(ks[0]); k++) {
			bool kernel = load_ret(p->type, p->attach, ks[k]) == V_OK;
			bool ours = !pol->check_ret || (ks[k] >= pol->ret_min && ks[k] <= pol->ret_max);
			if (kernel == ours) {
				agree++;
			} else {
				size_t l = strlen(bad);
				snprintf(bad + l, sizeof(bad) - l, " %lld(kernel %s)", (long long)ks[k],
					 kernel ? "ok" : "rejects");
			}
		}
		agree_all += agree;
		total_all += sizeof(ks) / sizeof(ks[0]);
		T_CHECK(agree == sizeof(ks) / sizeof(ks[0]), name, "range [%lld,%lld] check=%d:%s",
			(long long)pol->ret_min, (long long)pol->ret_max, pol->check_ret, bad);
	}
	printf("# return values: %u/%u (type/attach, value) agree\n", agree_all, total_all);
}

int main(int argc, char **argv)
{
	const char *why = NULL;
	init_btf_ids();
	if (argc > 1 && !strcmp(argv[1], "--dump-fields"))
		return dump_fields();
	if (!kernel_ok(&why)) {
		if (argc > 1) {
			fprintf(stderr, "bpf() unavailable: %s\n", why);
			return 1;
		}
		T_SKIP("platform/kernel", "bpf() unavailable: %s", why);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--dump-helpers")) {
		dump_helpers();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--dump-helpers-attach")) {
		dump_helpers_attach();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--dump-helpers-pkt")) {
		dump_helpers_pkt();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--dump-kfunc-types"))
		return dump_kfunc_types();
	if (argc > 1 && !strcmp(argv[1], "--dump-map-helpers")) {
		dump_map_helpers();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--dump-ctx")) {
		for (unsigned i = 0; i < NTARGETS; i++)
			dump_ctx_target(&targets[i]);
		return 0;
	}
	check_spots();
	check_helpers();
	check_helpers_attach();
	check_helpers_pkt();
	check_ctx();
	check_ret();
	check_args();
	check_flags();
	check_kfuncs();
	check_kfunc_types();
	check_map_fields();
	check_map_helpers();
	T_EXIT();
}
