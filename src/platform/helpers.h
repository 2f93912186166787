/* Helper and kfunc prototypes as data (one table: src/platform/helpers.def),
 * the kernel's bpf_func_proto facts restated from public documentation
 * (uapi bpf.h helper docs, man bpf-helpers(7)). The verifier checks calls
 * against these; the interpreter and disassembler take names from them. */
#ifndef BG_PLATFORM_HELPERS_H
#define BG_PLATFORM_HELPERS_H
#include <stdbool.h>
#include <stdint.h>

enum bg_arg_type {
	BG_ARG_NONE = 0,            /* argument not used */
	BG_ARG_ANYTHING,            /* any initialized scalar or pointer value */
	BG_ARG_SCALAR,              /* an initialized scalar (not a pointer) */
	BG_ARG_CONST_MAP_PTR,       /* map pointer from ld_imm64 */
	BG_ARG_MAP_KEY,             /* readable memory of key_size of the map in arg1 */
	BG_ARG_MAP_VALUE,           /* readable memory of value_size of the map in arg1 */
	BG_ARG_MEM,                 /* readable initialized memory, size in the next arg */
	BG_ARG_MEM_OR_NULL,
	BG_ARG_UNINIT_MEM,          /* writable memory (may be uninit), size in the next arg */
	BG_ARG_CONST_SIZE,          /* known-bounded scalar > 0 */
	BG_ARG_CONST_SIZE_OR_ZERO,  /* known-bounded scalar >= 0 */
	BG_ARG_CTX,                 /* the program's ctx pointer, offset 0 */
	BG_ARG_CTX_OR_NULL,
	BG_ARG_SOCK_COMMON,         /* sock_common (or socket / tcp_sock), non-NULL */
	BG_ARG_SOCKET,              /* a referenced socket (acquired), non-NULL */
	BG_ARG_SOCKET_OR_NULL,
	BG_ARG_BTF_ID,              /* pointer to the BTF type named in arg_btf[] */
	BG_ARG_SPIN_LOCK,           /* map value pointer to the bpf_spin_lock field */
	BG_ARG_TIMER,               /* map value pointer to the bpf_timer field */
	BG_ARG_RINGBUF_MEM,         /* a record from bpf_ringbuf_reserve (released) */
	BG_ARG_FUNC,                /* callback: ld_imm64 pseudo func */
	BG_ARG_STACK_OR_NULL,       /* callback ctx: stack pointer or NULL */
	BG_ARG_LONG,                /* writable 8 bytes (aligned) */
	BG_ARG_INT,                 /* writable 4 bytes (aligned) */
	BG_ARG_CONST_STR,           /* pointer into a read-only map value, NUL terminated */
	BG_ARG_DYNPTR,              /* stack slot holding a dynptr */
	BG_ARG_CONST_ALLOC_SIZE_OR_ZERO,
	BG_ARG_PERCPU_BTF_ID,
	/* added by platform (values before __MAX; none of the above moved) */
	BG_ARG_MAP_VALUE_OR_NULL,   /* NULL or value_size bytes (sk/task/inode storage init value) */
	BG_ARG_UNINIT_MAP_VALUE,    /* writable value_size bytes (map_pop/peek_elem) */
	BG_ARG_BTF_ID_SOCK_COMMON,  /* any socket pointer: sock_common/sock/tcp_sock or BTF sock */
	BG_ARG_BTF_ID_OR_NULL,      /* BTF pointer of arg_btf[] type or NULL */
	BG_ARG_KPTR,                /* map value pointer to a kptr field (bpf_kptr_xchg dst) */
	BG_ARG_FIXED_MEM,           /* readable memory of arg_size[] bytes (no size arg) */
	BG_ARG_STACK,               /* pointer to the stack (callback ctx, non-NULL) */
	BG_ARG_BTF_ID_SOCK_COMMON_OR_NULL, /* any socket pointer or NULL (get_socket_cookie in tracing) */
	BG_ARG_GRAPH_ROOT,          /* a bpf_list_head / bpf_rb_root in a map value or local object,
				     * its allocation's bpf_spin_lock held */
	BG_ARG_GRAPH_NODE,          /* a bpf_list_node / bpf_rb_node in a local object (bpf_obj_new) */
	BG_ARG__MAX,
};

enum bg_ret_type {
	BG_RET_INTEGER = 0,         /* unknown scalar (ret_range narrows it when set) */
	BG_RET_VOID,
	BG_RET_MAP_VALUE_OR_NULL,   /* value of the map in arg1 */
	BG_RET_SOCKET_OR_NULL,      /* acquires a reference */
	BG_RET_TCP_SOCK_OR_NULL,
	BG_RET_SOCK_COMMON_OR_NULL,
	BG_RET_ALLOC_MEM_OR_NULL,   /* ringbuf record of the size in arg2 (const), acquires */
	BG_RET_MEM_OR_BTF_ID_OR_NULL,
	BG_RET_BTF_ID_OR_NULL,      /* ret_btf names the type */
	BG_RET_BTF_ID,
	/* added by platform */
	BG_RET_MAP_VALUE,           /* non-NULL map value (bpf_get_local_storage) */
	BG_RET_DYNPTR_MEM_OR_NULL,  /* bpf_dynptr_data: mem of size arg3 (const) or NULL */
	BG_RET_MEM_OR_BTF_ID,       /* bpf_this_cpu_ptr: non-NULL */
	BG_RET_KPTR_OR_NULL,        /* bpf_kptr_xchg: old kptr of the field's type, acquires */
	BG_RET_MEM_U64,             /* 8 writable bytes, non-NULL (bpf_session_cookie: the
				       verifier's special case of a kfunc returning u64 *) */
	BG_RET__MAX,
};

/* flags */
#define BG_HF_GPL_ONLY      (1u << 0)
#define BG_HF_PKT_CHANGING  (1u << 1)  /* invalidates packet pointers */
#define BG_HF_ACQUIRE       (1u << 2)  /* return value carries a new reference */
#define BG_HF_RELEASE       (1u << 3)  /* releases the reference in release_arg */
#define BG_HF_MIGHT_SLEEP   (1u << 4)
#define BG_HF_CALLBACK      (1u << 5)  /* calls a BPF callback (bpf_loop, for_each, timer) */
#define BG_HF_KFUNC         (1u << 6)
/* added by platform */
#define BG_HF_RET_SIZE_BOUND (1u << 7)  /* integer result <= max of the size arg (probe_read_str, get_stack) */
#define BG_HF_RET_NULL      (1u << 8)   /* kfunc: result may be NULL (KF_RET_NULL) */
#define BG_HF_TRUSTED_ARGS  (1u << 9)   /* kfunc: pointer args must be trusted (KF_TRUSTED_ARGS) */
#define BG_HF_ITER_NEW      (1u << 10)  /* kfunc: bpf_iter_*_new, arg1 an uninit iterator on stack */
#define BG_HF_ITER_NEXT     (1u << 11)  /* kfunc: bpf_iter_*_next: NULL ends the loop */
#define BG_HF_ITER_DESTROY  (1u << 12)  /* kfunc: bpf_iter_*_destroy */
#define BG_HF_RCU_LOCK      (1u << 13)  /* kfunc: bpf_rcu_read_lock */
#define BG_HF_RCU_UNLOCK    (1u << 14)  /* kfunc: bpf_rcu_read_unlock */
#define BG_HF_RCU           (1u << 15)  /* kfunc: args may be RCU pointers (KF_RCU) */
#define BG_HF_DESTRUCTIVE   (1u << 16)  /* kfunc: KF_DESTRUCTIVE (needs CAP_SYS_BOOT) */
#define BG_HF_RESTRICTED    (1u << 17)  /* has a per-attach "allowed" check (bpf_d_path): */
					/* "helper call is not allowed in probe" elsewhere */
#define BG_HF_CONFIG        (1u << 18)  /* depends on kernel config/lockdown (override_return, */
					/* probe_write_user): unavailable on the running kernel */
#define BG_HF_SECTION_BEGIN (1u << 19)  /* kfunc: opens a preempt/irq-off section (must end before exit) */
#define BG_HF_SECTION_END   (1u << 20)  /* kfunc: ends it */
#define BG_HF_IRQ           (1u << 21)  /* kfunc: with SECTION_BEGIN/END, the section is irq-off */
					/* (bpf_local_irq_save/restore), else preemption-off */
#define BG_HF_THROW         (1u << 22)  /* kfunc: bpf_throw (ends the program: an exit) */
#define BG_HF_NODE_ARG      (1u << 23)  /* kfunc: the released argument is a graph node inside */
					/* its object (list/rbtree insert): any offset */
#define BG_HF_GRAPH         (1u << 24)  /* kfunc: graph API, callable while holding the lock */
					/* (the kernel's is_bpf_graph_api_kfunc) */
#define BG_HF_RET_TRUSTED   (1u << 26)  /* helper: its BTF pointer result is trusted */
					/* (RET_PTR_TO_BTF_ID_TRUSTED); else it is plain */
#define BG_HF_CAST_RET      (1u << 27)  /* kfunc: returns arg1 as an untrusted pointer to the */
					/* struct whose target BTF id is arg2 (bpf_rdonly_cast; */
					/* id 0, void: read-only untrusted memory) */
#define BG_HF_FASTCALL      (1u << 28)  /* bpf_fastcall and inlined on x86-64 (helpers: allow_fastcall */
					/* and verifier_inlines_helper_call with the JIT; kfuncs: */
					/* KF_FASTCALL): a call keeps the r0-r5 it does not use, so the */
					/* spill/fill pairs around it are removed (analysis/fastcall.c) */
#define BG_HF_RCU_PROTECTED (1u << 29)  /* kfunc: KF_RCU_PROTECTED iterator constructor: the */
					/* iterator is usable only inside an RCU read section */
					/* (created outside one or after its end: "expected an */
					/* RCU CS when using bpf_iter_*_next/destroy") */
#define BG_HF_LSM_ITER_SLEEPABLE (1u << 31) /* kfunc: only in LSM, iterator or sleepable programs */
					/* (bpf_iter_css_task_new: check_css_task_iter_allowlist) */
#define BG_HF_PERCPU        (1u << 30)  /* kfunc: its local object is percpu memory (MEM_PERCPU): */
					/* bpf_percpu_obj_new / bpf_percpu_obj_drop */
#define BG_HF_LOCAL_RET     (1u << 25)  /* kfunc: returns a program-local object: of the type */
					/* id in arg1 (obj_new), of the object in arg1 (refcount */
					/* acquire), or the root's `contains:` type (pop/remove/first) */

/* Groups of program types a helper is available in (bitmask). */
#define BG_PG_BASE      (1u << 0)  /* every program type (bpf_base_func_proto) */
#define BG_PG_TRACING   (1u << 1)  /* kprobe, tracepoint, raw_tp, perf_event, fentry... */
#define BG_PG_SKB       (1u << 2)  /* tc (sched_cls/act) */
#define BG_PG_XDP       (1u << 3)
#define BG_PG_SOCKFILT  (1u << 4)  /* socket_filter */
#define BG_PG_CGSKB     (1u << 5)  /* cgroup_skb */
#define BG_PG_CGSOCK    (1u << 6)  /* cgroup/sock, sock_addr, sockopt, sysctl, dev */
#define BG_PG_SOCKOPS   (1u << 7)  /* sock_ops, sk_msg, sk_skb */
#define BG_PG_LSM       (1u << 8)
#define BG_PG_SYSCALL   (1u << 9)
#define BG_PG_OTHER     (1u << 10) /* flow_dissector, lwt, sk_lookup, struct_ops, ... */
#define BG_PG_ALL       0xffffffffu

struct bg_helper_proto {
	uint32_t id;                    /* helper id (imm of the call); kfuncs: 0 */
	const char *name;               /* "bpf_map_lookup_elem" */
	enum bg_ret_type ret;
	uint8_t args[5];                /* enum bg_arg_type per r1..r5 */
	const char *arg_btf[5];         /* BTF type names for BG_ARG_BTF_ID args */
	const char *ret_btf;            /* for BG_RET_BTF_ID(_OR_NULL) */
	int64_t ret_min, ret_max;       /* known range of an integer result (min > max: unknown) */
	uint8_t release_arg;            /* 1..5 with BG_HF_RELEASE */
	uint32_t flags;                 /* BG_HF_* */
	uint32_t groups;                /* BG_PG_* where available */
	uint32_t since;                 /* kernel version KERNEL_VERSION(a,b,0) it appeared in */
	/* added by platform */
	uint64_t prog_types;            /* bit (1 << enum bpf_prog_type): callable from that type */
	uint16_t arg_size[5];           /* bytes for BG_ARG_FIXED_MEM / LONG (8) / INT (4) */
	uint8_t nargs;                  /* number of arguments used (r1..r<nargs>) */
	uint8_t size_arg;               /* 1..5: the size arg bounding BG_HF_RET_SIZE_BOUND / allocs */
};

const struct bg_helper_proto *bg_helper_by_id(uint32_t id);       /* NULL: unknown */
const struct bg_helper_proto *bg_helper_by_name(const char *name);
const struct bg_helper_proto *bg_kfunc_by_name(const char *name); /* kfuncs the corpus uses */
/* Is helper `id` callable from prog_type (enum bpf_prog_type) on a kernel of
 * version kver (0: the running profile)? *why gets a reason when not. */
bool bg_helper_allowed(uint32_t id, uint32_t prog_type, uint32_t kver, const char **why);
const char *bg_arg_type_name(enum bg_arg_type t);
/* How the kernel's verifier checks a kfunc parameter by its BTF name or
 * struct, whatever the kfunc (kfunc_params.def). */
enum bg_kparam {
	BG_KP_NONE = 0,   /* no such rule: the row (kfuncs.def) and the BTF type decide */
	BG_KP_IGNORE,     /* __ign, __prog: the register is not looked at */
	BG_KP_CONST,      /* __k, __szk: a known constant scalar */
	BG_KP_CONST_STR,  /* __str: a NUL-terminated string in a read-only map value */
	BG_KP_MAP,        /* __map: a map pointer */
	BG_KP_IRQ_FLAG,   /* __irq_flag: an irq flag slot on the stack */
	BG_KP_MAP_FIELD,  /* struct bpf_wq / bpf_task_work: that field of a map value */
	BG_KP_RES_LOCK,   /* struct bpf_res_spin_lock: a resilient lock in a map value or object */
};
/* The rule for a kfunc parameter named name pointing to struct sname (NULL:
 * not a struct pointer); *word (word may be NULL) gets the kernel's name of
 * that struct in its messages, or NULL. */
enum bg_kparam bg_kfunc_param_kind(const char *name, const char *sname, const char **word);
const char *bg_ret_type_name(enum bg_ret_type t);

/* added by platform */
#define BG_KVER(a, b) (((uint32_t)(a) << 16) | ((uint32_t)(b) << 8))
/* Every helper of the table, in id order (kfuncs excluded); *n gets the count. */
const struct bg_helper_proto *bg_helpers(unsigned *n);
/* Every kfunc of the table. */
const struct bg_helper_proto *bg_kfuncs(unsigned *n);
/* bg_helper_allowed for one expected attach type: some helpers are
 * available to a program type only under some of its attach types (bpf_bind
 * in cgroup/connect4|6, bpf_get_retval in some cgroup hooks...). */
bool bg_helper_allowed_attach(uint32_t id, uint32_t prog_type, uint32_t attach_type, uint32_t kver,
			      const char **why);
/* Helper availability measured on the real kernel of version kver (5.10, 6.1,
 * 6.12, 7.2: src/platform/helper_kavail.def) for (prog_type, attach_type):
 * 1 the kernel lets the type call helper id, 0 it does not ("unknown func" /
 * "program of this type cannot use helper"), -1 not measured (no such kernel
 * or target). bg_helper_allowed_attach decides by it when it answers. */
int bg_helper_measured(uint32_t id, uint32_t prog_type, uint32_t attach_type, uint32_t kver);
/* The prototype of helper id as program type prog_type sees it: some
 * helpers have per-type variants (bpf_get_socket_cookie takes the ctx in
 * tc but a socket pointer in tracing). NULL when id is unknown. */
const struct bg_helper_proto *bg_helper_proto_for(uint32_t id, uint32_t prog_type);

/* The kernel refuses a packet pointer as an argument (other than an
 * ARG_ANYTHING one) of helper `id` in this program type: "helper access to
 * the packet is not allowed" (the prototype lacks pkt_access, or the type
 * lets no helper take one). Measured on 6.18 (generated: helper_pkt.def). */
bool bg_helper_pkt_arg_refused(uint32_t id, uint32_t prog_type);
/* Helpers an iterator target adds for BPF_TRACE_ITER programs (the kernel's
 * bpf_iter_reg.get_func_proto, asked after the tracing set): the tcp (5.14)
 * and unix (6.4) socket iterators offer bpf_setsockopt / bpf_getsockopt on
 * the socket (bpf_sk_setsockopt_proto). target is the iterator name after
 * "iter/" ("tcp"); kver the profile's version. NULL when it adds none. */
const struct bg_helper_proto *bg_helper_iter_proto(uint32_t id, const char *target, uint32_t kver);
/* May a map of map_type (enum bpf_map_type) be passed to helper id? The
 * kernel refuses some pairs whatever the arguments ("cannot pass map_type 27
 * into func bpf_map_lookup_elem#1"); *why gets that message. Pairs not
 * measured (map types not probed) are allowed. */
bool bg_map_helper_ok(uint32_t map_type, uint32_t id, const char **why);
/* The kernel struct a map of map_type is (its ops' map_btf_id: bpf_array,
 * bpf_htab, ...): what a load through a map pointer walks
 * (check_ptr_to_map_access). NULL: "map_ptr access not supported". */
const char *bg_map_kernel_struct(uint32_t map_type);
/* Kernel structs whose objects are freed after an RCU grace period, so a
 * kptr to one loaded from a map value inside an RCU read section is an RCU
 * pointer (verifier.c rcu_protected_types); a kptr to any other kernel
 * struct loads as PTR_UNTRUSTED (rcu_safe_kptr). */
bool bg_kptr_rcu_protected(const char *kernel_struct);
/* Helpers whose result is a view of their socket argument (the kernel's
 * is_ptr_cast_function: bpf_sk_fullsock, bpf_tcp_sock, bpf_skc_to_*): the
 * result shares the argument's reference and dies with its release. */
bool bg_helper_ptr_cast(uint32_t id);
/* May a program of prog_type (expected attach type attach_type) update or
 * delete sockmap/sockhash entries with bpf_map_update_elem / delete_elem
 * (the kernel's may_update_sockmap: "cannot update sockmap in this
 * context")? Other helpers: false. */
bool bg_sockmap_update_ok(uint32_t prog_type, uint32_t attach_type, uint32_t helper_id);
/* May a program of prog_type call kfunc `name`? 1 yes, 0 no (the kernel
 * says "calling kernel function X is not allowed"), -1 not known (a kfunc
 * not in vmlinux, or a type that cannot be loaded here: lsm, struct_ops,
 * ext, lirc_mode2). *sleepable (may be NULL): the kfunc needs a sleepable
 * program (KF_SLEEPABLE). Measured on the running kernel: kfunc_types.def. */
int bg_kfunc_type_allowed(const char *name, uint32_t prog_type, bool *sleepable);
/* The same on a kernel of version kver up to a release whose source the
 * table records (kfunc_kver.def: 6.12): 1 / 0 as that release registers the
 * kfunc's sets, -1 no record (a newer kernel, or a kfunc not in it). */
int bg_kfunc_type_allowed_kver(const char *name, uint32_t prog_type, uint32_t kver);
/* Kfuncs a program type registers but whose set's filter allows only under
 * some expected attach types: 1 allowed, 0 refused, -1 no such rule. */
int bg_kfunc_attach_allowed(const char *name, uint32_t prog_type, uint32_t attach_type);
/* Does kfunc `name` need a device-bound program (XDP metadata kfuncs)? The
 * kernel refuses it in any other ("metadata kfuncs require device-bound
 * program"); bpfgate never judges device-bound programs. */
bool bg_kfunc_devbound(const char *name);
/* Is p one of the numeric iterator's kfuncs (bpf_iter_num_new/next/destroy:
 * the kernel's is_bpf_iter_num_api_kfunc)? */
bool bg_kfunc_iter_num(const struct bg_helper_proto *p);
/* Is p __bpf_trap, which the compiler emits for undefined behaviour (an
 * uninitialized variable)? The kernel refuses any reachable call of it. */
bool bg_kfunc_trap(const struct bg_helper_proto *p);
/* Dynptr kinds (the kernel's enum bpf_dynptr_type) and the functions that
 * make a dynptr: which argument is the new (uninitialized) dynptr and of
 * which kind (the kernel's arg_to_dynptr_type: bpf_dynptr_from_mem makes a
 * local dynptr, bpf_ringbuf_reserve_dynptr a ringbuf one, which holds a
 * reference; bpf_dynptr_clone's second argument takes its first's kind). */
enum bg_dynptr_kind {
	BG_DYNPTR_NONE = 0,
	BG_DYNPTR_LOCAL,
	BG_DYNPTR_RINGBUF,
	BG_DYNPTR_SKB,
	BG_DYNPTR_XDP,
	BG_DYNPTR_SKB_META,
	BG_DYNPTR_PARENT, /* a clone: the kind of the dynptr argument before it */
};
/* 0 when `name` makes no dynptr; else the 1-based argument it initializes,
 * and *kind gets its kind. */
int bg_dynptr_ctor(const char *name, enum bg_dynptr_kind *kind);
/* Slices of this kind point into packet data: a packet-changing helper
 * invalidates them (the kernel's reg_is_dynptr_slice_pkt). */
bool bg_dynptr_kind_is_pkt(unsigned kind);
/* Highest helper id known (BPF_FUNC_cgrp_storage_delete = 211 on 6.18). */
uint32_t bg_helper_max_id(void);
/* Build the lookup indexes now (once per process; they are built on first
 * use otherwise): the object's open calls it, so that the first analysis of
 * a process does not pay for the platform tables' setup. */
void bg_helpers_preload(void);
#endif
