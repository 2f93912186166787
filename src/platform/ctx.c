/* Context layouts (ctx.def, generated from the kernel's answers by
 * scripts/gen_ctx.py) and program-type policies (progtypes.def). The access
 * rule is one: an access (off, size, dir) is allowed iff a field covers
 * [off, off+size), off is a multiple of size, and size is among the field's
 * sizes for that direction. tests/unit/test_platform_kernel.c checks the rule
 * with these tables against every offset of every layout on the running
 * kernel. */
#include "platform/ctx.h"
#include <linux/bpf.h>

#include <stdio.h>
#include <string.h>

#include "platform/helpers.h"
#include "platform/profiles.h"
#include "platform/sections.h"

#define R BG_CTX_R
#define W BG_CTX_W
#define NARROW BG_CTX_NARROW
#define AT_START BG_CTX_NARROW_AT_START

/* pass 1: field arrays */
#define BG_CTX_BEGIN(id) static const struct bg_ctx_field fields_##id[] = {
#define BG_CTX_FIELD(name_, off_, size_, perm_, val_, btf_, rs_, ws_)                             \
	{ .name = name_, .off = off_, .size = size_, .perm = perm_, .val = val_, .btf = btf_,    \
	  .rsizes = rs_, .wsizes = ws_ },
#define BG_CTX_END(id, sname, size_, any_) };
#include "platform/ctx.def"
#undef BG_CTX_BEGIN
#undef BG_CTX_FIELD
#undef BG_CTX_END

/* pass 2: layouts */
#define BG_CTX_BEGIN(id)
#define BG_CTX_FIELD(name_, off_, size_, perm_, val_, btf_, rs_, ws_)
#define BG_CTX_END(id, sname, size_, any_)                                                       \
	static const struct bg_ctx_layout layout_##id = {                                        \
		.struct_name = sname, .size = size_, .fields = fields_##id,                      \
		.nfields = sizeof(fields_##id) / sizeof(fields_##id[0]), .any_read = any_,       \
		.name = #id };
#include "platform/ctx.def"
#undef BG_CTX_END

/* pass 3: the list of layouts */
#define BG_CTX_END(id, sname, size_, any_) &layout_##id,
static const struct bg_ctx_layout *const layouts[] = {
#include "platform/ctx.def"
};
#undef BG_CTX_BEGIN
#undef BG_CTX_FIELD
#undef BG_CTX_END
#undef R
#undef W
#undef NARROW
#undef AT_START

#define NLAYOUTS (sizeof(layouts) / sizeof(layouts[0]))

const struct bg_ctx_layout *bg_ctx_layout_by_name(const char *name)
{
	for (unsigned i = 0; name && i < NLAYOUTS; i++)
		if (!strcmp(layouts[i]->name, name))
			return layouts[i];
	return NULL;
}

static __thread char why_buf[160];

static bool size_ok(int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

static uint8_t size_bit(int size)
{
	return (uint8_t)(size == 1 ? 1 : size == 2 ? 2 : size == 4 ? 4 : 8);
}

const struct bg_ctx_field *bg_ctx_field_at(const struct bg_ctx_layout *l, int off, int size,
					   bool write, const char **why)
{
	const struct bg_ctx_field *cover = NULL;

	if (!l) {
		if (why)
			*why = "program type has no known context layout";
		return NULL;
	}
	if (off >= 0 && size_ok(size) && off % size == 0 && (uint32_t)off + (uint32_t)size <= l->size) {
		for (unsigned i = 0; i < l->nfields; i++) {
			const struct bg_ctx_field *f = &l->fields[i];
			if (off < f->off || off + size > f->off + f->size)
				continue;
			if ((f->perm & BG_CTX_NARROW_AT_START) && size < f->size && off != f->off)
				continue;
			if ((write ? f->wsizes : f->rsizes) & size_bit(size))
				return f;
			if (!cover)
				cover = f;
		}
	}
	if (why) {
		if (cover)
			snprintf(why_buf, sizeof(why_buf),
				 "invalid bpf_context access off=%d size=%d (%s %s.%s of %d bytes)", off,
				 size, write ? "write to" : "read of", l->struct_name, cover->name, size);
		else
			snprintf(why_buf, sizeof(why_buf), "invalid bpf_context access off=%d size=%d",
				 off, size);
		*why = why_buf;
	}
	return NULL;
}

#define BG_PROG(type_, name_, attach_, specific_, check_, min_, max_, pkt_, pktw_, groups_, ctx_, \
		loadable_, note_)                                                                 \
	{ .prog_type = type_, .name = name_, .ret_min = min_, .ret_max = max_,                    \
	  .check_ret = check_, .pkt_access = pkt_, .pkt_write = pktw_, .helper_groups = groups_,  \
	  .ctx = ctx_, .attach_type = attach_, .attach_specific = specific_,                      \
	  .loadable_here = loadable_, .ret_note = note_ },
#define BG_PROG_MAPF(type_, fields_, who_)
#define BG_PROG_LD_ABS(type_)
#define BG_PROG_UNTRUSTED_ARGS(type_, attach_)
#define BG_PROG_CTX_BTF(type_, name_, under_, conv_)
#define BG_PROG_RET_BEFORE(type_, attach_, feat_, lo_, hi_)
#define L(id) (&layout_##id)
static const struct bg_prog_policy policies[] = {
#include "platform/progtypes.def"
};
#undef L
#undef BG_PROG
#undef BG_PROG_MAPF

#define BG_PROG(...)
#define BG_PROG_MAPF(type_, fields_, who_) { type_, fields_, who_ },
static const struct {
	uint32_t type, fields;
	const char *who;
} map_fields[] = {
#include "platform/progtypes.def"
};
#undef BG_PROG_MAPF
#define BG_PROG_MAPF(...)
#undef BG_PROG_LD_ABS
#define BG_PROG_LD_ABS(type_) type_,
static const uint32_t ld_abs_types[] = {
#include "platform/progtypes.def"
};
#undef BG_PROG_LD_ABS
#define BG_PROG_LD_ABS(type_)
#undef BG_PROG_UNTRUSTED_ARGS
#define BG_PROG_UNTRUSTED_ARGS(type_, attach_) { type_, attach_ },
static const struct {
	uint32_t type, attach;
} untrusted_args[] = {
#include "platform/progtypes.def"
};
#undef BG_PROG_UNTRUSTED_ARGS
#define BG_PROG_UNTRUSTED_ARGS(type_, attach_)
#undef BG_PROG_CTX_BTF
#define BG_PROG_CTX_BTF(type_, name_, under_, conv_) { type_, name_, under_, conv_ },
static const struct {
	uint32_t type;
	const char *name, *under;
	bool converted;
} ctx_btf[] = {
#include "platform/progtypes.def"
};
#undef BG_PROG_CTX_BTF
#define BG_PROG_CTX_BTF(type_, name_, under_, conv_)
#undef BG_PROG_RET_BEFORE
#define BG_PROG_RET_BEFORE(type_, attach_, feat_, lo_, hi_) { type_, attach_, feat_, lo_, hi_ },
static const struct {
	uint32_t type, attach;
	uint64_t feat;
	int64_t lo, hi;
} ret_before[] = {
#include "platform/progtypes.def"
};
#undef BG_PROG_RET_BEFORE
#undef BG_PROG
#undef BG_PROG_MAPF
#undef BG_PROG_LD_ABS
#undef BG_PROG_UNTRUSTED_ARGS
#undef BG_PROG_CTX_BTF

void bg_prog_ret_range(const struct bg_prog_policy *p, uint64_t features, int64_t *lo, int64_t *hi)
{
	*lo = p->ret_min;
	*hi = p->ret_max;
	for (size_t i = 0; i < sizeof(ret_before) / sizeof(ret_before[0]); i++)
		if (ret_before[i].type == p->prog_type && ret_before[i].attach == p->attach_type &&
		    (features & ret_before[i].feat) != ret_before[i].feat) {
			*lo = ret_before[i].lo;
			*hi = ret_before[i].hi;
		}
}

const char *bg_prog_ctx_btf(uint32_t prog_type, const char **under, bool *converted)
{
	for (size_t i = 0; i < sizeof(ctx_btf) / sizeof(ctx_btf[0]); i++)
		if (ctx_btf[i].type == prog_type) {
			if (under)
				*under = ctx_btf[i].under;
			if (converted)
				*converted = ctx_btf[i].converted;
			return ctx_btf[i].name;
		}
	if (under)
		*under = NULL;
	if (converted)
		*converted = false;
	return NULL;
}

/* The kernel structs behind the uapi ctx projections a kfunc or a global
 * function may name (the kernel's bpf_ctx_convert pairs; only those two are
 * modelled). */
static const struct {
	const char *uapi, *kern;
} ctx_kern_structs[] = { { "__sk_buff", "sk_buff" }, { "xdp_md", "xdp_buff" } };

const char *bg_ctx_kernel_struct(const char *uapi_ctx)
{
	for (size_t i = 0; uapi_ctx && i < sizeof(ctx_kern_structs) / sizeof(ctx_kern_structs[0]); i++)
		if (!strcmp(ctx_kern_structs[i].uapi, uapi_ctx))
			return ctx_kern_structs[i].kern;
	return NULL;
}

bool bg_prog_ld_abs_ok(uint32_t prog_type)
{
	for (size_t i = 0; i < sizeof(ld_abs_types) / sizeof(ld_abs_types[0]); i++)
		if (ld_abs_types[i] == prog_type)
			return true;
	return false;
}

/* uapi struct bpf_sock: bound_dev_if 0, family 4, type 8, protocol 12,
 * mark 16, priority 20, src_ip4 24, src_ip6[4] 28, src_port 44, dst_port 48
 * (__be16, then 2 bytes of padding), dst_ip4 52, dst_ip6[4] 56, state 72,
 * rx_queue_mapping 76; 80 bytes. struct bpf_tcp_sock: u32 fields but
 * bytes_received 80 and bytes_acked 88 (u64); icsk_retransmits ends at 112. */
static bool narrow_ok(int size, int field)
{
	return size <= field && (size & (size - 1)) == 0;
}

bool bg_sock_access_ok(enum bg_sock_kind kind, int64_t off, int size)
{
	if (size <= 0)
		return false;
	if (kind == BG_SOCK_TCP) {
		if (off < 0 || off >= 112 || off % size)
			return false;
		return off == 80 || off == 88 ? size == 8 : size == 4;
	}
	if (kind == BG_SOCK_COMMON && off >= 8 && off < 24)
		return false; /* type .. priority: a full socket's fields */
	if (off < 0 || off >= 80 || off % size)
		return false;
	switch (off) {
	case 72: case 4: case 8: case 12: case 44: case 76: /* state family type protocol src_port rx_queue */
		return narrow_ok(size, 4);
	}
	if ((off >= 24 && off < 44) || (off >= 52 && off < 72)) /* src_ip4/6, dst_ip4/6 */
		return narrow_ok(size, 4);
	if (off >= 48 && off < 50) /* dst_port: 4 bytes whole, else as the __be16 */
		return narrow_ok(size, size == 4 ? 4 : 2);
	if (off >= 50 && off < 52)
		return false;
	return size == 4;
}

bool bg_prog_ctx_args_trusted(uint32_t prog_type, uint32_t attach_type)
{
	for (size_t i = 0; i < sizeof(untrusted_args) / sizeof(untrusted_args[0]); i++)
		if (untrusted_args[i].type == prog_type && untrusted_args[i].attach == attach_type)
			return false;
	return true;
}

/* Is LSM hook `hook` (with or without its bpf_lsm_ prefix) one of list[n]? */
static bool lsm_hook_in(const char *hook, const char *const *list, size_t n)
{
	if (!strncmp(hook, "bpf_lsm_", 8))
		hook += 8;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(hook, list[i]))
			return true;
	return false;
}

bool bg_raw_tp_arg_nullable(const char *tp, int arg, uint32_t kver)
{
	static const struct {
		const char *tp;
		uint64_t mask;
		uint32_t since;
	} rows[] = {
#define BG_RAW_TP_NULL(tp_, mask_, since_) { tp_, mask_, since_ },
#include "platform/raw_tp_null.def"
#undef BG_RAW_TP_NULL
	};
	if (!tp || arg < 0 || arg >= 16)
		return false;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(rows[i].tp, tp))
			return (!kver || kver >= rows[i].since) && (rows[i].mask & (0x1ull << (arg * 4)));
	return false;
}

bool bg_lsm_hook_untrusted(const char *hook)
{
	static const char *const untrusted[] = { "bpf_map_free", "bpf_prog_free", "file_alloc_security",
						 "file_free_security", "sk_alloc_security", "sk_free_security",
						 "task_free" };
	return hook && lsm_hook_in(hook, untrusted, sizeof(untrusted) / sizeof(untrusted[0]));
}

int bg_lsm_helper(uint32_t helper_id, uint32_t attach_type, const char *hook)
{
	/* bpf_lsm_locked_sockopt_hooks and bpf_lsm_unlocked_sockopt_hooks */
	static const char *const sockopt_hooks[] = { "sock_graft", "inet_csk_clone", "inet_conn_established",
						     "socket_post_create", "socket_socketpair" };
	if (helper_id == BPF_FUNC_get_local_storage)
		return attach_type == BPF_LSM_CGROUP ? 1 : -1;
	if (helper_id != BPF_FUNC_setsockopt && helper_id != BPF_FUNC_getsockopt)
		return -1;
	if (attach_type != BPF_LSM_CGROUP || !hook)
		return 0;
	return lsm_hook_in(hook, sockopt_hooks, sizeof(sockopt_hooks) / sizeof(sockopt_hooks[0]));
}

enum bg_iter_arg bg_iter_ctx_arg(const char *target, const char *field, uint32_t kver)
{
	enum { BG_ITER_OR_NULL, BG_ITER_BUF, BG_ITER_RDONLY_BUF };
	static const struct {
		const char *target, *field;
		int kind;
		uint32_t trusted_since;
	} rows[] = {
#define BG_ITER_FIELD(t, f, k, since) { t, f, k, since },
#include "platform/iter_ctx.def"
#undef BG_ITER_FIELD
	};
	bool known = false;
	for (size_t i = 0; target && i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (strcmp(rows[i].target, target))
			continue;
		known = true;
		if (!field || strcmp(rows[i].field, field))
			continue;
		if (rows[i].kind == BG_ITER_BUF)
			return BG_ITER_ARG_BUF_OR_NULL;
		if (rows[i].kind == BG_ITER_RDONLY_BUF)
			return BG_ITER_ARG_RDONLY_BUF_OR_NULL;
		return rows[i].trusted_since && (!kver || kver >= rows[i].trusted_since) ? BG_ITER_ARG_TRUSTED_OR_NULL
											 : BG_ITER_ARG_PLAIN_OR_NULL;
	}
	return known ? BG_ITER_ARG_TRUSTED : BG_ITER_ARG_UNKNOWN;
}

bool bg_lsm_hook_disabled(const char *hook, uint32_t kver)
{
	static const char *const disabled[] = { "vm_enough_memory", "inode_need_killpriv", "inode_getsecurity",
						"inode_listsecurity", "inode_copy_up_xattr", "getselfattr",
						"getprocattr", "setprocattr", "key_getsecurity", "audit_rule_match",
						"xfrm_decode_session", "ismaclabel" };
	if (!hook || (kver && kver < BG_KVER(6, 1)))
		return false;
	return lsm_hook_in(hook, disabled, sizeof(disabled) / sizeof(disabled[0]));
}

/* The functions registered as fmod_ret targets (register_btf_fmodret_id_set;
 * KF_SLEEPABLE: a sleepable program may attach too): net/bpf/test_run.c's
 * (measured: Debian's 6.1 refuses them, "bpf_modify_return_test() is not
 * modifiable", 6.12 takes them: 6.12 here, first seen) and net/mptcp's
 * update_socket_protocol (6.6, with the function; 6.12 takes it). */
static const struct {
	const char *name;
	bool sleepable;
	uint32_t since;
} fmodret_set[] = {
	{ "bpf_modify_return_test", false, BG_KVER(6, 12) },
	{ "bpf_modify_return_test2", false, BG_KVER(6, 12) },
	{ "bpf_modify_return_test_tp", false, BG_KVER(6, 12) },
	{ "bpf_fentry_test1", true, BG_KVER(6, 12) },
	{ "update_socket_protocol", false, BG_KVER(6, 6) },
};
/* Debian's 7.x images take every function (their error-injection list, or
 * its absence, is not known here) */
#define ANY_TARGET_SINCE BG_KVER(7, 0)

static int fmodret_find(const char *target)
{
	for (size_t i = 0; target && i < sizeof(fmodret_set) / sizeof(fmodret_set[0]); i++)
		if (!strcmp(target, fmodret_set[i].name))
			return (int)i;
	return -1;
}

bool bg_tracing_sleepable_ok(const char *target, uint32_t kver)
{
	if (kver >= ANY_TARGET_SINCE)
		return true;
	int i = fmodret_find(target);
	return i >= 0 && fmodret_set[i].sleepable && (!kver || kver >= fmodret_set[i].since);
}

bool bg_tracing_modify_ok(const char *target, uint32_t kver)
{
	if (kver >= ANY_TARGET_SINCE || (target && !strncmp(target, "security_", 9)))
		return true;
	int i = fmodret_find(target);
	return i >= 0 && (!kver || kver >= fmodret_set[i].since);
}

/* bpf_trace.c btf_allowlist_d_path: the functions a tracing program may call
 * bpf_d_path from (their path argument is safe to walk) */
static const char *const d_path_targets[] = { "security_file_permission", "security_inode_getattr",
					      "security_file_open", "security_path_truncate", "vfs_truncate",
					      "vfs_fallocate", "dentry_open", "vfs_getattr", "filp_close" };

int bg_helper_target_allowed(uint32_t helper_id, uint32_t prog_type, uint32_t attach_type, const char *target)
{
	if (prog_type != BPF_PROG_TYPE_TRACING)
		return -1;
	switch (helper_id) {
	case BPF_FUNC_d_path: /* bpf_d_path_allowed (LSM: by hook, not decided here) */
		if (attach_type == BPF_TRACE_ITER)
			return 1;
		for (size_t i = 0; target && i < sizeof(d_path_targets) / sizeof(d_path_targets[0]); i++)
			if (!strcmp(target, d_path_targets[i]))
				return 1;
		return 0;
	case BPF_FUNC_sk_storage_get:
	case BPF_FUNC_sk_storage_delete: /* bpf_sk_storage_tracing_allowed */
		if (attach_type == BPF_TRACE_ITER || attach_type == BPF_TRACE_RAW_TP)
			return 1;
		if (attach_type != BPF_TRACE_FENTRY && attach_type != BPF_TRACE_FEXIT)
			return 0;
		return !target || strncmp(target, "bpf_sk_storage", 14);
	default:
		return -1;
	}
}

bool bg_lsm_ret_range(const char *hook, uint32_t attach_type, int hook_ret, uint32_t kver, int64_t *lo,
		      int64_t *hi)
{
	/* bpf_lsm.c bool_lsm_hooks: hooks returning 0 or 1 */
	static const char *const bool_hooks[] = { "xfrm_state_pol_flow_match", "audit_rule_known",
						  "inode_xattr_skipcap" };
	if (attach_type == BPF_LSM_CGROUP) {
		*lo = hook_ret == 0 ? 1 : 0;
		*hi = 1;
		return true;
	}
	if (kver && kver < BG_KVER(6, 12))
		return false;
	if (hook_ret == 0)
		return false;
	if (hook && !strncmp(hook, "bpf_lsm_", 8))
		hook += 8;
	for (size_t i = 0; hook && i < sizeof(bool_hooks) / sizeof(bool_hooks[0]); i++)
		if (!strcmp(hook, bool_hooks[i])) {
			*lo = 0;
			*hi = 1;
			return true;
		}
	*lo = -4095;
	*hi = 0;
	return true;
}

bool bg_prog_map_fields_ok(uint32_t prog_type, uint32_t fields, const char **why)
{
	static const char *const what[] = { "bpf_spin_lock", "bpf_timer", "bpf_{list_head,rb_root}",
					    "bpf_wq" };
	for (size_t i = 0; i < sizeof(map_fields) / sizeof(map_fields[0]); i++) {
		uint32_t bad = map_fields[i].fields & fields;
		if (map_fields[i].type != prog_type || !bad)
			continue;
		if (why) {
			unsigned b = 0;
			while (!(bad & (1u << b)))
				b++;
			snprintf(why_buf, sizeof(why_buf), "%s cannot use %s yet", map_fields[i].who, what[b]);
			*why = why_buf;
		}
		return false;
	}
	if (why)
		*why = NULL;
	return true;
}

/* check_attach_btf_id's can_be_sleepable, per kernel: tracing programs of
 * the trampoline kinds and iterators, LSM hooks (not lsm_cgroup), uprobes
 * (6.0), struct_ops; tracepoints and the newer tracing kinds from 7.2
 * (BG_KF_SLEEPABLE_TP). */
static bool can_be_sleepable(uint32_t prog_type, uint32_t attach_type, uint64_t features)
{
	bool tp = features & BG_KF_SLEEPABLE_TP;
	switch (prog_type) {
	case BPF_PROG_TYPE_TRACING:
		switch (attach_type) {
		case BG_ATTACH_TRACE_FENTRY:
		case BG_ATTACH_TRACE_FEXIT:
		case BG_ATTACH_MODIFY_RETURN:
		case BG_ATTACH_TRACE_ITER:
			return true;
		case BG_ATTACH_TRACE_RAW_TP:
		case BG_ATTACH_TRACE_FSESSION:
		case BG_ATTACH_TRACE_FENTRY_MULTI:
		case BG_ATTACH_TRACE_FEXIT_MULTI:
		case BG_ATTACH_TRACE_FSESSION_MULTI:
			return tp;
		default:
			return false;
		}
	case BPF_PROG_TYPE_LSM:
		return attach_type != BG_ATTACH_LSM_CGROUP;
	case BPF_PROG_TYPE_KPROBE:
		return features & BG_KF_SLEEPABLE_KPROBE;
	case BPF_PROG_TYPE_STRUCT_OPS:
	case BPF_PROG_TYPE_SYSCALL: /* always sleepable (check_attach_btf_id) */
		return true;
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
		return tp;
	default:
		return false;
	}
}

const char *bg_prog_sleep_refusal(uint32_t prog_type, uint32_t attach_type, uint64_t features)
{
	if (can_be_sleepable(prog_type, attach_type, features))
		return NULL;
	if (features & BG_KF_SLEEPABLE_TP)
		return "Program of this type cannot be sleepable";
	if (features & BG_KF_SLEEPABLE_KPROBE)
		return "Only fentry/fexit/fmod_ret, lsm, iter, uprobe, and struct_ops programs can be sleepable";
	return "Only fentry/fexit/fmod_ret and lsm programs can be sleepable";
}

bool bg_sleepable_map_ok(uint32_t map_type, uint64_t features)
{
	switch (map_type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
	case 32: /* BPF_MAP_TYPE_CGRP_STORAGE (newer than the installed uapi) */
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
	case 33: /* BPF_MAP_TYPE_ARENA */
		return true;
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_LPM_TRIE:
		return features & BG_KF_SLEEPABLE_TP;
	default:
		/* 7.2's rhash and insn_array: after every profile's kernel but 7.2 */
		return map_type > 33 && (features & BG_KF_SLEEPABLE_TP);
	}
}
#define NPOLICIES (sizeof(policies) / sizeof(policies[0]))

const struct bg_prog_policy *bg_prog_policies(unsigned *n)
{
	if (n)
		*n = NPOLICIES;
	return policies;
}

/* An attach-specific row wins; else the type's first row; else the
 * permissive fallback (never NULL, as the contract says). */
const struct bg_prog_policy *bg_prog_policy(uint32_t prog_type, uint32_t attach_type)
{
	static const struct bg_prog_policy unknown = { .name = "unknown", .ret_min = INT64_MIN,
						       .ret_max = INT64_MAX, .helper_groups = BG_PG_ALL };
	const struct bg_prog_policy *general = NULL, *first = NULL;

	for (unsigned i = 0; i < NPOLICIES; i++) {
		if (policies[i].prog_type != prog_type)
			continue;
		if (policies[i].attach_specific && policies[i].attach_type == attach_type)
			return &policies[i];
		if (!policies[i].attach_specific && !general)
			general = &policies[i];
		if (!first)
			first = &policies[i];
	}
	return general ? general : first ? first : &unknown;
}
