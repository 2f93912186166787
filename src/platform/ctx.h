/* Program-type facts as data: the context struct layout each program type
 * sees (offsets, sizes, what a load yields, read/write permission), the
 * return-value range the kernel enforces, and whether packet access is
 * allowed. One table per fact, in src/platform/ctx.def and progtypes.def. */
#ifndef BG_PLATFORM_CTX_H
#define BG_PLATFORM_CTX_H
#include <stdbool.h>
#include <stdint.h>

/* What a load from a ctx field produces. */
enum bg_ctx_val {
	BG_CTXV_SCALAR = 0,
	BG_CTXV_PKT,          /* packet start (xdp_md->data, __sk_buff->data) */
	BG_CTXV_PKT_END,
	BG_CTXV_PKT_META,
	BG_CTXV_SOCK_COMMON_OR_NULL, /* __sk_buff->sk */
	BG_CTXV_SOCKET_OR_NULL,
	BG_CTXV_BTF_ID,       /* typed kernel pointer (tracing args), btf names the type */
	BG_CTXV_CTX_ARG,      /* raw tracepoint / fentry argument (u64) */
	/* added by platform */
	BG_CTXV_SOCKET,       /* non-NULL full socket (bpf_sock_addr->sk, sk_msg_md->sk) */
	BG_CTXV_FLOW_KEYS,    /* __sk_buff->flow_keys in flow dissectors */
	BG_CTXV_TP_BUFFER,    /* writable raw tracepoint buffer (arg 0) */
};

#define BG_CTX_R     1u
#define BG_CTX_W     2u
#define BG_CTX_NARROW 4u  /* narrower loads (1/2 bytes, any offset inside) are allowed */
#define BG_CTX_NARROW_AT_START 8u /* added by platform: narrower loads only at the field's first
				   * byte (bpf_sock family/type/protocol, sock_ops skb_tcp_flags) */

struct bg_ctx_field {
	const char *name;     /* "data", "cb[0]" */
	uint16_t off, size;   /* as the program sees the struct (uapi layout) */
	uint8_t perm;         /* BG_CTX_R | BG_CTX_W | BG_CTX_NARROW */
	uint8_t val;          /* enum bg_ctx_val */
	const char *btf;      /* BTF type name for BG_CTXV_BTF_ID */
	/* added by platform */
	uint8_t rsizes, wsizes; /* access sizes allowed: bit 0 = 1 byte, 1 = 2, 2 = 4, 3 = 8 */
};

struct bg_ctx_layout {
	const char *struct_name;     /* "xdp_md", "__sk_buff", "pt_regs", "bpf_sock_addr" */
	uint32_t size;               /* accesses beyond it are invalid */
	const struct bg_ctx_field *fields;
	unsigned nfields;
	bool any_read;               /* any aligned read inside size is allowed (pt_regs, tp args) */
	/* added by platform */
	const char *name;            /* layout id: "skb_tc", "xdp", "sock_addr_connect4" */
};

struct bg_prog_policy {
	uint32_t prog_type;          /* enum bpf_prog_type */
	const char *name;            /* "xdp" */
	int64_t ret_min, ret_max;    /* range the return value must be in (r0 at exit) */
	bool check_ret;              /* whether the kernel checks the return value */
	bool pkt_access, pkt_write;  /* direct packet access allowed / writable */
	uint32_t helper_groups;      /* BG_PG_* this type may call */
	const struct bg_ctx_layout *ctx;
	/* added by platform */
	uint32_t attach_type;        /* enum bpf_attach_type this entry is for */
	bool attach_specific;        /* entry differs by attach type (else any attach) */
	bool loadable_here;          /* loads on the running kernel (fentry/lsm: EPERM) */
	const char *ret_note;        /* why the range is what it is, for messages */
};

/* Policy for a program type and expected attach type (cgroup_skb ingress vs
 * egress, etc.). Never NULL: unknown types get a permissive, unchecked entry
 * with check_ret false and ctx NULL. */
const struct bg_prog_policy *bg_prog_policy(uint32_t prog_type, uint32_t attach_type);
/* Find the field covering [off, off+size) in a layout; NULL when the access is
 * not allowed, with *why set ("invalid bpf_context access off=.. size=.."). */
const struct bg_ctx_field *bg_ctx_field_at(const struct bg_ctx_layout *l, int off, int size,
					   bool write, const char **why);

/* added by platform */
/* (program type names: bg_prog_type_name / bg_prog_type_by_name in platform/sections.h) */
/* Layout by id (struct bg_ctx_layout.name); NULL when unknown. */
const struct bg_ctx_layout *bg_ctx_layout_by_name(const char *name);
/* Special fields of a map value a program type may not reference (the
 * kernel rejects the program at load when it uses such a map at all). */
#define BG_MAPF_SPIN_LOCK 1u  /* struct bpf_spin_lock / bpf_res_spin_lock */
#define BG_MAPF_TIMER     2u  /* struct bpf_timer */
#define BG_MAPF_GRAPH     4u  /* bpf_list_head, bpf_rb_root */
#define BG_MAPF_WQ        8u  /* struct bpf_wq */
/* May prog_type use a map whose value has these BG_MAPF_* fields? When not,
 * *why gets the kernel's message ("tracing progs cannot use bpf_timer yet"). */
bool bg_prog_map_fields_ok(uint32_t prog_type, uint32_t fields, const char **why);
/* check_attach_btf_id: why a program of (prog_type, attach_type) may not be
 * loaded sleepable (BPF_F_SLEEPABLE) on a kernel with feature bits features
 * (the kernel's message), or NULL when it may. */
const char *bg_prog_sleep_refusal(uint32_t prog_type, uint32_t attach_type, uint64_t features);
/* check_map_prog_compatibility: may a sleepable program use a map of
 * map_type (also as the inner map of a map of maps) on that kernel? */
bool bg_sleepable_map_ok(uint32_t map_type, uint64_t features);
/* May prog_type use BPF_LD_[ABS|IND]? */
bool bg_prog_ld_abs_ok(uint32_t prog_type);
/* Are the BTF-typed ctx arguments of (prog_type, attach_type) trusted
 * pointers? (fentry/fexit/fmod_ret: no.) */
bool bg_prog_ctx_args_trusted(uint32_t prog_type, uint32_t attach_type);
/* May argument arg (0-based, after the tracepoint's hidden first) of raw
 * tracepoint tp be NULL for a tp_btf program on kernel version kver (0: the
 * newest)? (btf_ctx_access's raw_tp_null_args, platform/raw_tp_null.def) */
bool bg_raw_tp_arg_nullable(const char *tp, int arg, uint32_t kver);
/* LSM hooks (the name after "lsm/", without the bpf_lsm_ prefix) whose
 * arguments the kernel does not trust (bpf_lsm.c untrusted_lsm_hooks: objects
 * being freed or not yet set up). */
bool bg_lsm_hook_untrusted(const char *hook);
/* The return value range the kernel enforces on an LSM program (check_return_code,
 * bpf_lsm_get_retval_range) for kernel version kver: hook_ret is the hook's
 * return (0 void, 1 int, -1 unknown). False: any value (no check): BPF_LSM_MAC
 * before 6.12 or on a void hook. BPF_LSM_CGROUP: [0, 1], on a void hook [1, 1];
 * BPF_LSM_MAC from 6.12: [0, 1] on the bool hooks, else [-MAX_ERRNO, 0]. */
/* Helpers an LSM program's attach type and hook decide (bpf_lsm_func_proto):
 * BPF_LSM_CGROUP adds get_local_storage and, on the hooks where the socket is
 * locked or not yet visible, setsockopt/getsockopt (elsewhere refused).
 * 1 allowed, 0 refused, -1 not decided here (the program type's table). */
int bg_lsm_helper(uint32_t helper_id, uint32_t attach_type, const char *hook);
/* How the kernel of version kver (0: the running one) types the pointer
 * field `field` of an iterator program's ctx, struct bpf_iter__TARGET
 * (iter_ctx.def, the targets' ctx_arg_info): */
enum bg_iter_arg {
	BG_ITER_ARG_UNKNOWN = 0,     /* a target iter_ctx.def does not list */
	BG_ITER_ARG_TRUSTED,         /* no ctx_arg_info: trusted, not NULL (meta) */
	BG_ITER_ARG_TRUSTED_OR_NULL, /* PTR_TO_BTF_ID_OR_NULL | PTR_TRUSTED */
	BG_ITER_ARG_PLAIN_OR_NULL,   /* PTR_TO_BTF_ID_OR_NULL: the legacy plain pointer */
	BG_ITER_ARG_BUF_OR_NULL,     /* PTR_TO_BUF | PTR_MAYBE_NULL (a map element's value) */
	BG_ITER_ARG_RDONLY_BUF_OR_NULL, /* the same | MEM_RDONLY (a map element's key) */
};
enum bg_iter_arg bg_iter_ctx_arg(const char *target, const char *field, uint32_t kver);
/* LSM hooks no BPF program may attach to on kernel kver (bpf_lsm.c
 * bpf_lsm_disabled_hooks; the kernel refuses at load: "attach_btf_id N points
 * to disabled hook"; measured: Debian's 5.10 has no such list, 6.1 has). */
bool bg_lsm_hook_disabled(const char *hook, uint32_t kver);
/* May a sleepable fentry/fexit/fmod_ret program attach to function target on
 * kernel kver (0: the running one)? The kernel wants the target in the
 * error-injection list (ALLOW_ERROR_INJECTION: syscalls, ...) or in the
 * fmod_ret set with KF_SLEEPABLE (bpf_fentry_test1, 6.12 on). Measured: the
 * running 6.18 has no CONFIG_FUNCTION_ERROR_INJECTION and Debian's 5.10, 6.1
 * and 6.12 refuse syscalls ("__x64_sys_getpgid is not sleepable"); Debian's
 * 7.2 accepts them (its list is not known: every target is taken there). */
bool bg_tracing_sleepable_ok(const char *target, uint32_t kver);
/* May a BPF_MODIFY_RETURN program attach to function target on kernel kver
 * (0: the running one)? The kernel's check_attach_modify_return: a security_
 * function, one in the error-injection list, or one of the fmod_ret set
 * (net/bpf/test_run.c: bpf_modify_return_test..., 6.12 on as measured; net/mptcp:
 * update_socket_protocol, 6.6);
 * else "target() is not modifiable". Measured: Debian's 5.10 and 6.1 refuse
 * bpf_modify_return_test, 6.12 refuses __x64_sys_nanosleep, 7.2 takes both;
 * the running 6.18 has no error-injection list. */
bool bg_tracing_modify_ok(const char *target, uint32_t kver);
bool bg_lsm_ret_range(const char *hook, uint32_t attach_type, int hook_ret, uint32_t kver, int64_t *lo,
		      int64_t *hi);
/* A helper's per-program "allowed" callback (bpf_func_proto.allowed: "helper
 * call is not allowed in probe") for a tracing program attached to function
 * target: bpf_d_path only from the functions of btf_allowlist_d_path (and
 * iterators); bpf_sk_storage_get/delete from fentry/fexit except on the
 * bpf_sk_storage* functions themselves, and from tp_btf and iterators (not
 * fmod_ret). 1 allowed, 0 refused, -1 no such rule. */
int bg_helper_target_allowed(uint32_t helper_id, uint32_t prog_type, uint32_t attach_type, const char *target);

/* The struct name a program type's BTF prototypes give its ctx
 * (progtypes.def BG_PROG_CTX_BTF), NULL when it has none; *under: the struct
 * a typedef name stands for (kprobe), *converted: the type rewrites ctx
 * accesses (convert_ctx_access). */
const char *bg_prog_ctx_btf(uint32_t prog_type, const char **under, bool *converted);
/* The kernel struct a uapi ctx projection stands for ("__sk_buff" ->
 * "sk_buff", "xdp_md" -> "xdp_buff"), NULL for any other name or NULL. */
const char *bg_ctx_kernel_struct(const char *uapi_ctx);

/* Kernel ABI facts the analysis needs as numbers (uapi linux/bpf.h). */
#define BG_TCP_SOCK_SIZE 112        /* sizeof(struct bpf_tcp_sock) */
#define BG_FLOW_KEYS_SIZE 56        /* sizeof(struct bpf_flow_keys) */
/* Reads through bpf_sock / bpf_sock_common pointers are bounded at 96 bytes;
 * sizeof(struct bpf_sock) is 80 (uapi, 6.18), so this bound is looser than
 * the kernel's per-field rule (kept as the analysis has always had it). */
#define BG_SOCK_READ_LIMIT 96
#define BG_MAP_F_RDONLY_PROG 0x80u  /* BPF_F_RDONLY_PROG: the program may not write the map */
#define BG_MAP_F_WRONLY_PROG 0x100u /* BPF_F_WRONLY_PROG: the program may not read the map */

/* Socket pointers a helper returns or a ctx field holds (PTR_TO_SOCKET,
 * PTR_TO_SOCK_COMMON, PTR_TO_TCP_SOCK): which reads the kernel allows
 * (net/core/filter.c bpf_sock_is_valid_access, bpf_sock_common_is_valid_access,
 * bpf_tcp_sock_is_valid_access; uapi struct bpf_sock / bpf_tcp_sock). */
enum bg_sock_kind { BG_SOCK_FULL = 0, BG_SOCK_COMMON, BG_SOCK_TCP };
bool bg_sock_access_ok(enum bg_sock_kind kind, int64_t off, int size);

/* The return range policy p enforces on a kernel with feature bits features
 * (platform/profiles.h BG_KF_*; a profile's .features): the row's range, or
 * an older kernel's (progtypes.def BG_PROG_RET_BEFORE: cgroup bind [0, 1]
 * before 5.12). */
void bg_prog_ret_range(const struct bg_prog_policy *p, uint64_t features, int64_t *lo, int64_t *hi);

/* Every policy row (for listings and tests). */
const struct bg_prog_policy *bg_prog_policies(unsigned *n);
#endif
