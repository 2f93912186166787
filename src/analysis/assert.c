/* Assertions: the checks an instruction gets, as data. asrt_build reads
 * each instruction once and lists its assertions (checks.def) in the order
 * the kernel reports them; asrt_check evaluates the list on the state that
 * reaches the instruction, before its transfer function runs. A rule only
 * reads the state: effects (loaded values, locks taken, references
 * released) belong to the transfer functions in xfer.c and call.c.
 * Cost: O(assertions) per analysed instruction, a handful each; the lists
 * take 6 bytes per assertion plus 4 per instruction. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpfgate/object.h>
#include "analysis/assert.h"
#include "analysis/kgate.h"
#include "analysis/vctx.h"
#include "analysis/btfarg.h"
#include "analysis/except.h"
#include "platform/sections.h"

typedef int (*rule_fn)(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a);

static inline struct as_reg *R(struct as_state *s, int i)
{
	return &as_cur(s)->r[i];
}

/* ---------------------------------------------------------- instructions */

static int rule_kernel(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	return kgate_insn(v, s, pc);
}

static int rule_valid_insn(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	const struct bg_insn *in = &v->insns[pc];
	if (in->kind == BG_K_CALLX)
		return verr(v, s, pc, "bad_insn", "indirect calls (callx) are not supported by the kernel");
	if (in->kind == BG_K_LD_IMM64)
		return verr(v, s, pc, "bad_insn", "unsupported ld_imm64 source %u", in->pseudo);
	return verr(v, s, pc, "bad_insn", "invalid instruction (%s)", bg_insn_kind_name(in->kind));
}

static int rule_fp_ro(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	return verr(v, s, pc, "fp_write", "frame pointer is read only: r10 cannot be written");
}

static int rule_reg_init(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	return check_reg_init(v, s, pc, a->reg);
}

static int rule_div_imm(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	if (v->insns[pc].imm == 0)
		return verr(v, s, pc, "div_by_zero", "div by zero");
	return 0;
}

static int rule_shift_imm(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	const struct bg_insn *in = &v->insns[pc];
	int w = in->alu64 ? 64 : 32;
	if (in->imm < 0 || in->imm >= w)
		return verr(v, s, pc, "bad_shift", "invalid shift %d", in->imm);
	return 0;
}

static int rule_scalar(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	/* privileged, a swapped pointer is an unknown number (check_alu_op) */
	if (R(s, a->reg)->type != T_SCALAR && !v->priv)
		return verr(v, s, pc, "ptr_arith", "R%d pointer arithmetic prohibited (byte swap)", a->reg);
	return 0;
}

static int rule_atomic_size(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	const struct bg_insn *in = &v->insns[pc];
	if (in->size != 4 && in->size != 8)
		return verr(v, s, pc, "atomic", "invalid atomic operand size %d", in->size);
	return 0;
}

static int rule_atomic_region(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	uint8_t t = R(s, a->reg)->type;
	if (rg_has(t, RG_NO_ATOMIC))
		return verr(v, s, pc, "atomic", "BPF_ATOMIC %s R%d %s is not allowed",
			    v->insns[pc].atomic_op == BG_ATOMIC_LOAD_ACQ ? "loads from" : "stores into", a->reg,
			    as_type_name(t, 0));
	return 0;
}

static int rule_atomic_leak(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	uint16_t aop = v->insns[pc].atomic_op;
	if (R(s, a->reg)->type != T_SCALAR && aop != BG_ATOMIC_XCHG && aop != BG_ATOMIC_CMPXCHG && !v->priv)
		return verr(v, s, pc, "atomic", "R%d leaks addr into mem", a->reg);
	return 0;
}

/* ------------------------------------------------------------- ld_imm64 */

static int rule_map_fd(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	const struct bg_insn *in = &v->insns[pc];
	/* the loader turns every relocated map reference into a map index
	 * (BG_PSEUDO_MAP_IDX[_VALUE]); a file descriptor the object holds itself
	 * (BPF_PSEUDO_MAP_FD/VALUE with no relocation) names no map of the
	 * object, and the loading process has no map there either */
	if (in->pseudo == BG_PSEUDO_MAP_FD || in->pseudo == BG_PSEUDO_MAP_VALUE ||
	    (uint32_t)in->imm >= bg_object__map_cnt(v->obj))
		return verr(v, s, pc, "bad_map", "fd %d is not pointing to valid bpf_map", in->imm);
	return 0;
}

static int rule_map_lock_type(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	const char *why = NULL;
	const struct bg_map_def *m = bg_object__map(v->obj, (size_t)v->insns[pc].imm);
	/* the special fields of the value some program types may not use
	 * (the kernel refuses the map at load, reached or not) */
	static const struct {
		const char *type;
		uint32_t field;
	} special[] = { { "bpf_spin_lock", BG_MAPF_SPIN_LOCK }, { "bpf_timer", BG_MAPF_TIMER },
			{ "bpf_wq", BG_MAPF_WQ } };
	uint32_t fields = 0;
	for (size_t i = 0; m && i < sizeof(special) / sizeof(special[0]); i++)
		if (map_field_offset(v, m, special[i].type) >= 0)
			fields |= special[i].field;
	if (kf_has(v, BG_KF_TIMER_TRACING))
		fields &= ~BG_MAPF_TIMER; /* 7.2: timers in every program type */
	if (fields && !bg_prog_map_fields_ok(v->prog_type, fields, &why))
		return verr(v, s, pc, "lock", "%s", why);
	return 0;
}

static int rule_map_value_off(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	const struct bg_insn *in = &v->insns[pc];
	const struct bg_map_def *m = bg_object__map(v->obj, (size_t)in->imm);
	uint32_t off = (uint32_t)(in->imm64 >> 32);
	if (m && off >= m->value_size && m->value_size)
		return verr(v, s, pc, "bad_map", "invalid access to map value pointer, value_size=%u off=%u",
			    m->value_size, off);
	return 0;
}

/* --------------------------------------------------------------- ld_abs */

static int rule_ld_abs_type(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	if (!bg_prog_ld_abs_ok(v->prog_type))
		return verr(v, s, pc, "ld_abs", "BPF_LD_[ABS|IND] instructions not allowed for this program type");
	return 0;
}

static int rule_ld_abs_ctx(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	if (R(s, 6)->type != T_CTX)
		return verr(v, s, pc, "ld_abs", "at the time of BPF_LD_ABS|IND R6 != pointer to skb");
	return 0;
}

static int rule_ld_abs_lock(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	if (as_locked(s))
		return verr(v, s, pc, "lock", "BPF_LD_[ABS|IND] cannot be used inside bpf_spin_lock-ed region");
	return 0;
}

static int rule_ld_abs_refs(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	if (s->nrefs)
		return verr(v, s, pc, "ref_leak", "BPF_LD_[ABS|IND] would lead to reference leak");
	return 0;
}

/* ---------------------------------------------------------------- calls */

#define POISONED_HELPER 0xbad2310u /* libbpf's id for a call whose CO-RE relocation failed */

static int rule_helper_known(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	uint32_t id = (uint32_t)v->insns[pc].imm;
	if (id == POISONED_HELPER) {
		/* libbpf poisons the instruction of a CO-RE relocation it could not
		 * resolve; the kernel rejects the program when the poison is reached */
		const char *why = NULL;
		for (size_t i = 0; i < bg_program__core_failure_cnt(v->prog); i++)
			if (bg_program__core_failure(v->prog, i)->insn == pc)
				why = bg_program__core_failure(v->prog, i)->reason;
		return verr(v, s, pc, "core", "failed to resolve CO-RE relocation%s%s (poisoned call, invalid func unknown#%u)",
			    why ? ": " : "", why ? why : "", id);
	}
	if (!bg_helper_by_id(id))
		return verr(v, s, pc, "bad_helper", "invalid func unknown#%u", id);
	return 0;
}

static int rule_helper_type(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	uint32_t id = (uint32_t)v->insns[pc].imm;
	const struct bg_helper_proto *p = bg_helper_by_id(id);
	const char *why = NULL;
	/* some types allow a helper only under some expected attach types
	 * (bpf_get_retval in cgroup/recvmsg4: not) */
	uint32_t at = bg_program__attach_type(v->prog);
	/* an older profile: the kernel's own measured table when there is one
	 * (helper_kavail.def); else the running kernel's per-type availability,
	 * the helper's first release being kgate's (which knows libbpf's rewrites) */
	int lsm = v->prog_type == BPF_PROG_TYPE_LSM ? bg_lsm_helper(id, at, bg_program__attach_target(v->prog)) : -1;
	if (lsm == 1)
		return 0;
	if (lsm == 0)
		return verr(v, s, pc, "helper_not_allowed",
			    "program of this type cannot use helper %s#%u (not with this LSM attach type and hook)",
			    p->name, id);
	uint32_t kv = v->kgate && bg_helper_measured(id, v->prog_type, at, v->prof->version) >= 0
			      ? v->prof->version : 0;
	if (!bg_helper_allowed_attach(id, v->prog_type, at, kv, &why) && !prog_iter_helper(v, id))
		return verr(v, s, pc, "helper_not_allowed", "program of this type cannot use helper %s#%u%s%s",
			    p->name, id, why ? ": " : "", why ? why : "");
	if (!bg_helper_target_allowed(id, v->prog_type, at, bg_program__attach_target(v->prog)))
		return verr(v, s, pc, "helper_not_allowed", "helper call is not allowed in probe (%s from %s)", p->name,
			    bg_program__attach_target(v->prog) ? bg_program__attach_target(v->prog) : "?");
	return 0;
}

const struct bg_helper_proto *prog_iter_helper(struct vctx *v, uint32_t id)
{
	const char *sec = bg_program__section(v->prog);
	if (v->prog_type != BPF_PROG_TYPE_TRACING || bg_program__attach_type(v->prog) != BPF_TRACE_ITER ||
	    !sec)
		return NULL;
	const char *slash = strchr(sec, '/');
	return slash ? bg_helper_iter_proto(id, slash + 1, v->prof->version) : NULL;
}

/* Loaded with BPF_F_SLEEPABLE: a ".s" section ("fentry.s/...", "lsm.s/...")
 * or one libbpf always loads sleepable ("syscall"). */
bool prog_sleepable(struct vctx *v)
{
	const char *sec = bg_program__section(v->prog);
	if (!sec)
		return false;
	/* the section table's flags, found at object open (not its walk again:
	 * ~4k instructions, on every call and memory access of some programs) */
	if (bg_program__prog_flags(v->prog) & BG_PROG_F_SLEEPABLE)
		return true;
	const char *slash = strchr(sec, '/');
	size_t n = slash ? (size_t)(slash - sec) : strlen(sec);
	return n > 2 && sec[n - 2] == '.' && sec[n - 1] == 's';
}

static int rule_sleepable(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	const struct bg_helper_proto *p = bg_helper_by_id((uint32_t)v->insns[pc].imm);
	if ((p->flags & BG_HF_MIGHT_SLEEP) && !prog_sleepable(v))
		return verr(v, s, pc, "sleep", "helper call might sleep in a non-sleepable prog (%s)", p->name);
	return 0;
}

/* The kernel's license_is_gpl_compatible() list. */
bool prog_license_gpl(struct vctx *v)
{
	const char *l = bg_object__license(v->obj);
	if (!l)
		return false;
	static const char *ok[] = { "GPL", "GPL v2", "GPL and additional rights", "Dual BSD/GPL",
				    "Dual MIT/GPL", "Dual MPL/GPL" };
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(l, ok[i]))
			return true;
	return false;
}

static int rule_gpl(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	const struct bg_helper_proto *p = bg_helper_by_id((uint32_t)v->insns[pc].imm);
	if ((p->flags & BG_HF_GPL_ONLY) && !prog_license_gpl(v))
		return verr(v, s, pc, "gpl", "cannot call GPL-restricted function %s from non-GPL compatible program",
			    p->name);
	return 0;
}

/* The kernel's check_func_arg: a packet pointer in an argument that is not
 * ARG_ANYTHING, to a helper whose prototype lacks pkt_access (or in a type
 * where no helper may take one). */
static int rule_helper_pkt(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	uint32_t id = (uint32_t)v->insns[pc].imm;
	const struct bg_helper_proto *p = bg_helper_proto_for(id, v->prog_type);
	for (int i = 0; p && i < 5; i++) {
		uint8_t at = p->args[i];
		const struct as_reg *r = R(s, i + 1);
		if (at == BG_ARG_NONE || at == BG_ARG_ANYTHING || !rg_has(r->type, RG_PKT_BASE))
			continue;
		if (bg_helper_pkt_arg_refused(id, v->prog_type))
			return verr(v, s, pc, "helper_pkt",
				    "helper access to the packet is not allowed: R%d (%s) to %s, which takes no packet pointer",
				    i + 1, as_type_name(r->type, r->flags), p->name);
		return 0;
	}
	return 0;
}

/* Given only to a may_goto whose jump leads back to it without a branch
 * (may_goto_cycles): reaching it is the rejection. */
static int rule_may_goto_cycle(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	return verr(v, s, pc, "loop_bound",
		    "infinite loop detected at insn %zu: may_goto jumps back to itself through code without a "
		    "branch (the kernel follows a may_goto's jump first, keeping its iteration count, and so never "
		    "leaves this cycle)",
		    pc);
}

static int rule_call_lock(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	const struct bg_insn *in = &v->insns[pc];
	if (in->pseudo == BG_CALL_LOCAL) {
		/* a static subprogram sees the caller's lock from 6.9 */
		char since[16];
		if (as_locked(s) && !kf_has(v, BG_KF_LOCK_SUBPROG))
			return verr(v, s, pc, "lock", "function calls are not allowed while holding a lock "
				    "(bpf-to-bpf call; %s is not available before %s)",
				    bg_feature_name(BG_KF_LOCK_SUBPROG),
				    bg_kver_str(bg_feature_since(BG_KF_LOCK_SUBPROG), since));
		return 0;
	}
	if (in->pseudo == BG_CALL_KFUNC) {
		const char *name = kfunc_name(v, in);
		const struct bg_helper_proto *p = name ? bg_kfunc_by_name(name) : NULL;
		/* the kernel's kfunc_spin_allowed: the graph API, the resilient
		 * locks, and (6.15) the numeric iterator of bpf_for / bpf_repeat */
		bool lock_ok = (p && ((p->flags & BG_HF_GRAPH) || (kf_has(v, BG_KF_LOCK_ITER_NUM) && bg_kfunc_iter_num(p)))) ||
			       call_is_res_lock(v, pc);
		if (as_locked(s) && !lock_ok) {
			return verr(v, s, pc, "lock", "function calls are not allowed while holding a lock (kfunc %s)",
				    name ? name : "?");
		}
		return 0;
	}
	if (in->imm == BPF_FUNC_spin_lock) {
		if (s->lock != -1)
			return verr(v, s, pc, "lock", "Locking two bpf_spin_locks are not allowed");
		return 0;
	}
	if (in->imm == BPF_FUNC_spin_unlock) {
		if (s->lock == -1)
			return verr(v, s, pc, "lock", "bpf_spin_unlock without taking a lock");
		if (s->lock == -2)
			return verr(v, s, pc, "lock", "bpf_spin_unlock: lock may not be held on every path here");
		uint32_t id;
		if (s->lock != as_lock_of(R(s, 1), &id) || (id != s->lock_id && s->lock_id != AS_LOCK_ID_JOINED))
			return verr(v, s, pc, "lock", "bpf_spin_unlock of different lock");
		return 0;
	}
	if (as_locked(s))
		return verr(v, s, pc, "lock", "function calls are not allowed while holding a lock (%s)",
			    bg_helper_by_id((uint32_t)in->imm)->name);
	return 0;
}

static int rule_kfunc_type(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	const char *name = kfunc_name(v, &v->insns[pc]);
	if (name && bg_kfunc_devbound(name))
		return verr(v, s, pc, "kfunc_not_allowed", "metadata kfuncs require device-bound program (%s)", name);
	int at = name ? bg_kfunc_attach_allowed(name, v->prog_type, bg_program__attach_type(v->prog)) : -1;
	/* 7.2: a raw_tp program has the tracepoint programs' kfunc sets */
	uint32_t kt = v->prog_type == BPF_PROG_TYPE_RAW_TRACEPOINT && kf_has(v, BG_KF_KFUNC_RAW_TP)
			      ? BPF_PROG_TYPE_TRACEPOINT
			      : v->prog_type;
	if (at == 0 || (at < 0 && name && bg_kfunc_type_allowed(name, kt, NULL) == 0))
		return verr(v, s, pc, "kfunc_not_allowed", "calling kernel function %s is not allowed", name);
	/* an older kernel registers some sets for fewer program types (6.12:
	 * no sock_ops in the cgroup hook, key kfuncs for tracing only) */
	uint32_t kver = v->prof ? v->prof->version : 0;
	if (at < 0 && name && kver < BG_KVER(6, 18) && bg_kfunc_type_allowed_kver(name, v->prog_type, kver) == 0) {
		char rel[16];
		return verr(v, s, pc, "kfunc_not_allowed",
			    "calling kernel function %s is not allowed (kernel %s registers it for other program types)", name,
			    bg_kver_str(kver, rel));
	}
	const struct bg_helper_proto *p = name ? bg_kfunc_by_name(name) : NULL;
	if (p && (p->flags & BG_HF_LSM_ITER_SLEEPABLE) && v->prog_type != BPF_PROG_TYPE_LSM &&
	    !(v->prog_type == BPF_PROG_TYPE_TRACING && bg_program__attach_type(v->prog) == BPF_TRACE_ITER) &&
	    !prog_sleepable(v))
		return verr(v, s, pc, "kfunc_not_allowed",
			    "css_task_iter is only allowed in bpf_lsm, bpf_iter and sleepable progs (kernel function %s)", name);
	return 0;
}

static int rule_kfunc_sleepable(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	const char *name = kfunc_name(v, &v->insns[pc]);
	bool sleepable = false;
	if (name && bg_kfunc_type_allowed(name, v->prog_type, &sleepable) != 0 && sleepable &&
	    !prog_sleepable(v))
		return verr(v, s, pc, "sleep", "program must be sleepable to call sleepable kfunc %s", name);
	return 0;
}

/* ------------------------------------------------- critical sections */

static const char *const sec_region[AS_SEC__MAX] = { "bpf_rcu_read_lock", "bpf_preempt_disable",
						     "bpf_local_irq_save" };

static int rule_section_helper(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	static const char *const where[AS_SEC__MAX] = { "rcu_read_lock", "non-preemptible", "IRQ-disabled" };
	uint32_t id = (uint32_t)v->insns[pc].imm;
	const struct bg_helper_proto *p = bg_helper_by_id(id);
	if (!(p->flags & BG_HF_MIGHT_SLEEP))
		return 0;
	for (int k = 0; k < AS_SEC__MAX; k++)
		if (s->sec[k])
			return verr(v, s, pc, "section", "sleepable helper %s#%u in %s region", p->name, id, where[k]);
	return 0;
}

/* The section kind a kfunc opens (+1) or closes (-1), in *kind. */
static int section_op(const struct bg_helper_proto *p, int *kind)
{
	if (p->flags & (BG_HF_RCU_LOCK | BG_HF_RCU_UNLOCK)) {
		*kind = AS_SEC_RCU;
		return (p->flags & BG_HF_RCU_LOCK) ? 1 : -1;
	}
	if (p->flags & (BG_HF_SECTION_BEGIN | BG_HF_SECTION_END)) {
		*kind = (p->flags & BG_HF_IRQ) ? AS_SEC_IRQ : AS_SEC_PREEMPT;
		return (p->flags & BG_HF_SECTION_BEGIN) ? 1 : -1;
	}
	return 0;
}

static int ret_in_range(struct vctx *v, struct as_state *s, size_t pc, int reg);

static int rule_section_kfunc(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	static const char *const unmatched[AS_SEC__MAX] = { "unmatched rcu read unlock",
							    "unmatched attempt to enable preemption",
							    "unmatched attempt to restore irq state" };
	static const char *const within[AS_SEC__MAX] = { "rcu_read_lock", "non-preemptible", "IRQ-disabled" };
	const char *name = kfunc_name(v, &v->insns[pc]);
	const struct bg_helper_proto *p = name ? bg_kfunc_by_name(name) : NULL;
	if (p && (p->flags & BG_HF_THROW)) {
		if (as_locked(s))
			return verr(v, s, pc, "section", "bpf_throw cannot be used inside bpf_spin_lock-ed region");
		for (int k = 0; k < AS_SEC__MAX; k++)
			if (s->sec[k])
				return verr(v, s, pc, "section", "bpf_throw cannot be used inside %s-ed region", sec_region[k]);
		/* the default exception callback returns the cookie */
		return except_cb_func(v) < 0 ? ret_in_range(v, s, pc, 1) : 0;
	}
	int kind = 0, op = p ? section_op(p, &kind) : 0;
	if (op > 0 && kind == AS_SEC_RCU && s->sec[kind]) /* RCU sections do not nest (6.18) */
		return verr(v, s, pc, "section", "nested rcu read lock (kernel function %s)", name);
	/* (an irq restore: its flag argument says more, call.c irq_flag_op) */
	if (op < 0 && !s->sec[kind] && kind != AS_SEC_IRQ)
		return verr(v, s, pc, "section", "%s (kernel function %s)", unmatched[kind], name);
	if (op < 0 && s->sec[kind] == AS_SEC_MAYBE)
		return verr(v, s, pc, "section", "%s: the %s-ed region may not be open on every path here", name,
			    sec_region[kind]);
	bool sleepable = false;
	if (op || !name || bg_kfunc_type_allowed(name, v->prog_type, &sleepable) < 0 || !sleepable)
		return 0;
	for (int k = 0; k < AS_SEC__MAX; k++)
		if (s->sec[k])
			return verr(v, s, pc, "section", "kernel func %s is sleepable within %s region", name, within[k]);
	return 0;
}

static int rule_section_tail_call(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	for (int k = 0; k < AS_SEC__MAX; k++)
		if (s->sec[k])
			return verr(v, s, pc, "section", "tail_call cannot be used inside %s-ed region", sec_region[k]);
	return 0;
}

static int rule_tail_call_refs(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	if (s->nrefs)
		return verr(v, s, pc, "ref_leak", "tail_call would lead to reference leak");
	return 0;
}

/* ----------------------------------------------------------------- exit */

static uint8_t ctx_kind(const struct vctx *v)
{
	return v->ctxs[v->cur_ctx].kind;
}

static int rule_exit_stack(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	const struct as_reg *r0 = R(s, 0);
	if (ctx_kind(v) == CTX_CALL && r0->type == T_STACK && r0->frame == s->nframes - 1)
		return verr(v, s, pc, "stack_escape", "cannot return stack pointer to the caller");
	return 0;
}

static int rule_exit_r0(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	uint8_t k = ctx_kind(v);
	if (k == CTX_MAIN && btf_stops_void_ret(v->prog))
		return 0; /* a void struct_ops member: r0 is not read */
	int nargs;
	if (k == CTX_MAIN && v->prog_type == BPF_PROG_TYPE_LSM &&
	    bg_program__attach_type(v->prog) == BPF_LSM_MAC && (!v->prof || v->prof->version >= BG_KVER(6, 1)) &&
	    btf_target_ret(v->prog, &nargs) == 0)
		return 0; /* nor of an LSM program on a void hook (6.1 and later, as measured) */
	if (k == CTX_MAIN || k == CTX_CB_SYNC || k == CTX_CB_ASYNC)
		return check_reg_init(v, s, pc, 0);
	return 0;
}

static int rule_exit_r0_scalar(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	const struct as_reg *r0 = R(s, 0);
	if (ctx_kind(v) == CTX_GLOBAL && kf_has(v, BG_KF_VOID_GLOBAL) &&
	    btf_func_ret_void(v->prog, v->g.funcs[v->ctxs[v->cur_ctx].func].start))
		return 0; /* 7.2: a void global function's r0 is not read */
	if (ctx_kind(v) == CTX_GLOBAL && r0->type != T_SCALAR)
		return verr(v, s, pc, "ret_type", "At subprogram exit the register R0 is not a scalar value (%s)",
			    as_type_name(r0->type, r0->flags));
	return 0;
}

static int rule_exit_lock(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	if (s->lock == -1 && s->nres && (ctx_kind(v) == CTX_MAIN || ctx_kind(v) == CTX_GLOBAL))
		return verr(v, s, pc, "lock_held", "BPF_EXIT instruction in %s cannot be used inside bpf_spin_lock-ed region "
			    "(a bpf_res_spin_lock is held%s)", ctx_kind(v) == CTX_MAIN ? "main prog" : "global function",
			    s->nres == AS_RES_MAYBE ? " on some path" : "");
	if (s->lock == -1)
		return 0;
	if (ctx_kind(v) == CTX_MAIN)
		return verr(v, s, pc, "lock_held", "bpf_spin_unlock is missing: exiting with a bpf_spin_lock held");
	if (ctx_kind(v) == CTX_GLOBAL)
		return verr(v, s, pc, "lock_held", "bpf_spin_unlock is missing at global function exit");
	if (!kf_has(v, BG_KF_LOCK_SUBPROG)) {
		char since[16];
		return verr(v, s, pc, "lock_held", "bpf_spin_unlock is missing: a function exits with a "
			    "bpf_spin_lock held (%s is not available before %s)", bg_feature_name(BG_KF_LOCK_SUBPROG),
			    bg_kver_str(bg_feature_since(BG_KF_LOCK_SUBPROG), since));
	}
	return 0;
}

static int rule_exit_cb_range(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	const struct actx *c = &v->ctxs[v->cur_ctx];
	const struct as_reg *r0 = R(s, 0);
	if (c->kind != CTX_CB_SYNC && c->kind != CTX_CB_ASYNC)
		return 0;
	if (r0->type != T_SCALAR || r0->v.smin < c->ret_min || r0->v.smax > c->ret_max) {
		char buf[200];
		fmt_reg(v, s, 0, buf, sizeof(buf));
		return verr(v, s, pc, "ret_range",
			    "At callback return the register R0 has %s should have been in [%" PRId64 ", %" PRId64 "]",
			    buf, c->ret_min, c->ret_max);
	}
	return 0;
}

static int rule_exit_refs(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	if (!s->nrefs)
		return 0;
	switch (ctx_kind(v)) {
	case CTX_MAIN:
		return verr(v, s, pc, "ref_leak", "Unreleased reference id=%u alloc_insn=%u: %s acquired at insn %u is never released",
			    s->refs[0].id, s->refs[0].insn, as_type_name(s->refs[0].type, 0), s->refs[0].insn);
	case CTX_GLOBAL:
		return verr(v, s, pc, "ref_leak", "Unreleased reference id=%u alloc_insn=%u (global function)",
			    s->refs[0].id, s->refs[0].insn);
	case CTX_CB_ASYNC:
		return verr(v, s, pc, "ref_leak", "Unreleased reference id=%u alloc_insn=%u (async callback)",
			    s->refs[0].id, s->refs[0].insn);
	default:
		return 0;
	}
}

static int rule_exit_sections(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	static const int order[AS_SEC__MAX] = { AS_SEC_IRQ, AS_SEC_RCU, AS_SEC_PREEMPT };
	if (ctx_kind(v) != CTX_MAIN && ctx_kind(v) != CTX_GLOBAL)
		return 0;
	for (int i = 0; i < AS_SEC__MAX; i++)
		if (s->sec[order[i]])
			return verr(v, s, pc, "section", "BPF_EXIT instruction in main prog cannot be used inside %s-ed region",
				    sec_region[order[i]]);
	return 0;
}

/* check_return_code: the program type's return range on register reg
 * (R0 at the exit of the main program or of the exception callback; R1, the
 * cookie, at bpf_throw when the default exception callback returns it). */
static int ret_in_range(struct vctx *v, struct as_state *s, size_t pc, int reg)
{
	const struct bg_prog_policy *p = v->pol;
	if (!p || !p->check_ret)
		return 0;
	int64_t lo, hi;
	bg_prog_ret_range(p, v->prof ? v->prof->features : ~0ull, &lo, &hi);
	bool lsm32 = false;
	if (v->prog_type == BPF_PROG_TYPE_LSM) {
		/* per hook and kernel: void hooks and pre-6.12 LSM_MAC unchecked */
		int nargs, kind = btf_target_ret(v->prog, &nargs);
		if (!bg_lsm_ret_range(bg_program__attach_target(v->prog), bg_program__attach_type(v->prog), kind,
				      v->prof ? v->prof->version : 0, &lo, &hi))
			return 0;
		lsm32 = bg_program__attach_type(v->prog) == BPF_LSM_MAC; /* return_32bit */
	}
	struct as_reg *r = R(s, reg);
	if (r->type != T_SCALAR)
		return verr(v, s, pc, "ret_range", "At program exit the register R%d is not a known value (%s)", reg,
			    as_type_name(r->type, r->flags));
	if (r->v.smin < lo || r->v.smax > hi) {
		/* the kernel compares the 32-bit subregister for most types
		 * (LSM_MAC: whatever the upper half holds) */
		if (r->v.s32min >= lo && r->v.s32max <= hi && lo >= INT32_MIN && hi <= INT32_MAX &&
		    (lsm32 || r->v.umax <= UINT32_MAX))
			return 0;
		char buf[200];
		fmt_reg(v, s, reg, buf, sizeof(buf));
		return verr(v, s, pc, "ret_range",
			    "At program exit the register R%d has %s should have been in [%" PRId64 ", %" PRId64 "]", reg,
			    buf, lo, hi);
	}
	return 0;
}

static int rule_exit_range(struct vctx *v, struct as_state *s, size_t pc, const struct assertion *a)
{
	(void)a;
	/* the exception callback's result is the program's (in_exception_callback_fn) */
	bool exc_cb = ctx_kind(v) == CTX_GLOBAL && (int)v->ctxs[v->cur_ctx].func == except_cb_func(v);
	if (ctx_kind(v) != CTX_MAIN && !exc_cb)
		return 0;
	return ret_in_range(v, s, pc, 0);
}

/* ---------------------------------------------------------------- table */

static const struct {
	const char *name;
	rule_fn fn;
} rules[A__MAX] = {
#define CHECK(id, name_, fn_, what) [id] = {.name = name_, .fn = fn_},
#include "analysis/checks.def"
#undef CHECK
};

const char *asrt_name(unsigned id)
{
	return id < A__MAX ? rules[id].name : "?";
}

/* ---------------------------------------------------------------- build */

struct builder {
	struct assertion *a;
	size_t n, cap;
	bool oom;
};

static __attribute__((noinline)) bool grow(struct builder *b)
{
	size_t cap = b->cap ? 2 * b->cap : 64;
	struct assertion *na = realloc(b->a, cap * sizeof(*na));
	if (!na) {
		b->oom = true;
		return false;
	}
	b->a = na;
	b->cap = cap;
	return true;
}

/* inline: a few hundred per program (the growth apart) */
static inline void put(struct builder *b, uint8_t id, int reg, int off, int size, uint8_t flags)
{
	if (b->n == b->cap && !grow(b))
		return;
	b->a[b->n++] = (struct assertion){ .id = id, .reg = (uint8_t)reg, .size = (uint8_t)size,
					   .flags = flags, .off = (int16_t)off };
}

static bool writes_dst(const struct bg_insn *in)
{
	switch (in->kind) {
	case BG_K_ALU:
	case BG_K_END:
	case BG_K_ADDR_CAST:
	case BG_K_LD_IMM64:
	case BG_K_LDX:
		return true;
	case BG_K_ATOMIC:
		return in->atomic_op == BG_ATOMIC_LOAD_ACQ;
	default:
		return false;
	}
}

static void build_alu(struct builder *b, const struct bg_insn *in)
{
	if (in->op == BG_ALU_MOV) {
		if (in->src_is_reg)
			put(b, A_REG_INIT, in->src, 0, 0, 0);
		return;
	}
	if (!in->src_is_reg && (in->op == BG_ALU_DIV || in->op == BG_ALU_MOD))
		put(b, A_DIV_IMM, in->dst, 0, 0, 0);
	if (!in->src_is_reg && (in->op == BG_ALU_LSH || in->op == BG_ALU_RSH || in->op == BG_ALU_ARSH))
		put(b, A_SHIFT_IMM, in->dst, 0, 0, 0);
	put(b, A_REG_INIT, in->dst, 0, 0, 0);
	if (in->src_is_reg && in->op != BG_ALU_NEG)
		put(b, A_REG_INIT, in->src, 0, 0, 0);
	put(b, A_PTR_ARITH, in->dst, 0, 0, 0);
}

static void build_atomic(struct builder *b, const struct bg_insn *in)
{
	/* check_atomic_load refuses the region before the access, check_atomic_store
	 * after it (the store's alignment first: xfer_atomic) */
	if (in->atomic_op == BG_ATOMIC_LOAD_ACQ) {
		put(b, A_REG_INIT, in->src, 0, 0, 0);
		put(b, A_ATOMIC_REGION, in->src, 0, 0, 0);
		put(b, A_MEM, in->src, in->off, in->size, AF_READ);
		return;
	}
	if (in->atomic_op == BG_ATOMIC_STORE_REL) {
		put(b, A_REG_INIT, in->src, 0, 0, 0);
		put(b, A_REG_INIT, in->dst, 0, 0, 0);
		put(b, A_MEM, in->dst, in->off, in->size, AF_WRITE);
		put(b, A_ATOMIC_REL_REGION, in->dst, 0, 0, 0);
		return;
	}
	put(b, A_ATOMIC_SIZE, in->dst, 0, 0, 0);
	put(b, A_REG_INIT, in->src, 0, 0, 0);
	put(b, A_REG_INIT, in->dst, 0, 0, 0);
	if (in->atomic_op == BG_ATOMIC_CMPXCHG)
		put(b, A_REG_INIT, 0, 0, 0, 0);
	put(b, A_ATOMIC_REGION, in->dst, 0, 0, 0);
	put(b, A_ATOMIC_LEAK, in->src, 0, 0, 0);
	put(b, A_MEM, in->dst, in->off, in->size, AF_READ | AF_WRITE);
}

static void build_ld_imm64(struct builder *b, const struct bg_insn *in)
{
	switch (in->pseudo) {
	case BG_PSEUDO_NONE:
	case BG_PSEUDO_FUNC:
	case BG_PSEUDO_BTF_ID:
		return;
	case BG_PSEUDO_MAP_IDX:
	case BG_PSEUDO_MAP_FD:
		put(b, A_MAP_FD, in->dst, 0, 0, 0);
		put(b, A_MAP_LOCK_TYPE, in->dst, 0, 0, 0);
		return;
	case BG_PSEUDO_MAP_IDX_VALUE:
	case BG_PSEUDO_MAP_VALUE:
		put(b, A_MAP_FD, in->dst, 0, 0, 0);
		put(b, A_MAP_VALUE_OFF, in->dst, 0, 0, 0);
		return;
	default:
		put(b, A_VALID_INSN, in->dst, 0, 0, 0);
		return;
	}
}

static void build_call(struct builder *b, const struct bg_insn *in)
{
	switch (in->pseudo) {
	case BG_CALL_LOCAL:
		put(b, A_CALL_FRAME, 0, 0, 0, 0);
		put(b, A_CALL_LOCK, 0, 0, 0, 0);
		return;
	case BG_CALL_KFUNC:
		put(b, A_CALL_LOCK, 0, 0, 0, 0);
		put(b, A_KFUNC_TYPE, 0, 0, 0, 0);
		put(b, A_KFUNC_SLEEPABLE, 0, 0, 0, 0);
		put(b, A_SECTION_KFUNC, 0, 0, 0, 0);
		put(b, A_ARGS, 0, 0, 0, 0);
		return;
	default:
		put(b, A_HELPER_KNOWN, 0, 0, 0, 0);
		put(b, A_HELPER_TYPE, 0, 0, 0, 0);
		put(b, A_SLEEPABLE, 0, 0, 0, 0);
		put(b, A_GPL, 0, 0, 0, 0);
		put(b, A_CALL_LOCK, 0, 0, 0, 0);
		put(b, A_SECTION_HELPER, 0, 0, 0, 0);
		put(b, A_HELPER_PKT, 0, 0, 0, 0);
		if (in->imm == BPF_FUNC_tail_call) {
			put(b, A_TAIL_CALL_REFS, 0, 0, 0, 0);
			put(b, A_SECTION_TAIL_CALL, 0, 0, 0, 0);
		}
		put(b, A_ARGS, 0, 0, 0, 0);
		return;
	}
}

static void build_exit(struct builder *b)
{
	static const uint8_t ids[] = { A_EXIT_STACK, A_EXIT_R0, A_EXIT_R0_SCALAR, A_EXIT_LOCK,
				       A_EXIT_CB_RANGE, A_EXIT_REFS, A_EXIT_SECTIONS, A_EXIT_RANGE };
	for (size_t i = 0; i < sizeof(ids); i++)
		put(b, ids[i], 0, 0, 0, 0);
}

/* Does the may_goto at pc jump back to itself through code without a
 * branch?  The kernel's walk takes a may_goto's jump first with the same
 * may_goto depth (the fall-through, one deeper, is explored later), as it
 * takes every unconditional jump and the jump of every other may_goto: on
 * such a cycle it never reaches an exit, and stops on an exactly repeated
 * state ("infinite loop detected") or a complexity limit. Calls and
 * conditional jumps end the search (no claim). */
static bool may_goto_cycles(const struct vctx *v, size_t pc)
{
	size_t at = (size_t)v->insns[pc].target;
	for (size_t steps = 0; steps <= v->n && at < v->n; steps++) {
		const struct bg_insn *in = &v->insns[at];
		switch (in->kind) {
		case BG_K_MAY_GOTO:
			if (at == pc)
				return true;
			/* fallthrough */
		case BG_K_JA:
			if (in->target < 0)
				return false;
			at = (size_t)in->target;
			break;
		case BG_K_JCOND:
		case BG_K_CALL:
		case BG_K_EXIT:
		case BG_K_LD_IMM64_HI:
			return false;
		case BG_K_LD_IMM64:
			at += 2;
			break;
		default:
			at++;
			break;
		}
	}
	return false;
}

/* The assertions of one instruction, in the order they are checked. */
static void build_insn(const struct vctx *v, struct builder *b, const struct bg_insn *in)
{
	if (v->kgate)
		put(b, A_KERNEL, 0, 0, 0, 0);
	if (in->dst == 10 && writes_dst(in))
		put(b, A_FP_RO, 10, 0, 0, 0);
	switch (in->kind) {
	case BG_K_ALU:
		build_alu(b, in);
		return;
	case BG_K_END:
		put(b, A_REG_INIT, in->dst, 0, 0, 0);
		put(b, A_SCALAR, in->dst, 0, 0, 0);
		return;
	case BG_K_ADDR_CAST:
		put(b, A_REG_INIT, in->src, 0, 0, 0);
		return;
	case BG_K_LD_IMM64:
		build_ld_imm64(b, in);
		return;
	case BG_K_LD_ABS:
	case BG_K_LD_IND:
		put(b, A_LD_ABS_TYPE, 0, 0, 0, 0);
		put(b, A_LD_ABS_CTX, 6, 0, 0, 0);
		put(b, A_LD_ABS_LOCK, 0, 0, 0, 0);
		if (in->kind == BG_K_LD_IND)
			put(b, A_REG_INIT, in->src, 0, 0, 0);
		put(b, A_LD_ABS_REFS, 0, 0, 0, 0);
		return;
	case BG_K_LDX:
		put(b, A_REG_INIT, in->src, 0, 0, 0);
		put(b, A_MEM, in->src, in->off, in->size, AF_READ);
		return;
	case BG_K_ST:
	case BG_K_STX:
		if (in->kind == BG_K_STX)
			put(b, A_REG_INIT, in->src, 0, 0, 0);
		put(b, A_REG_INIT, in->dst, 0, 0, 0);
		put(b, A_MEM, in->dst, in->off, in->size, AF_WRITE);
		return;
	case BG_K_ATOMIC:
		build_atomic(b, in);
		return;
	case BG_K_JCOND:
		put(b, A_REG_INIT, in->dst, 0, 0, 0);
		if (in->src_is_reg)
			put(b, A_REG_INIT, in->src, 0, 0, 0);
		return;
	case BG_K_CALL:
		build_call(b, in);
		return;
	case BG_K_EXIT:
		build_exit(b);
		return;
	case BG_K_MAY_GOTO:
		if (may_goto_cycles(v, (size_t)(in - v->insns)))
			put(b, A_MAY_GOTO_CYCLE, 0, 0, 0, 0);
		return;
	case BG_K_JA:
	case BG_K_LD_IMM64_HI:
		return;
	default:
		put(b, A_VALID_INSN, 0, 0, 0, 0);
		return;
	}
}

int asrt_build(struct vctx *v)
{
	struct builder b = { 0 };
	uint32_t *at = malloc((v->n + 1) * sizeof(*at));
	if (!at)
		return -ENOMEM;
	for (size_t pc = 0; pc < v->n; pc++) {
		at[pc] = (uint32_t)b.n;
		build_insn(v, &b, &v->insns[pc]);
	}
	at[v->n] = (uint32_t)b.n;
	if (b.oom) {
		free(b.a);
		free(at);
		return -ENOMEM;
	}
	v->asrt = b.a;
	v->asrt_at = at;
	return 0;
}

void asrt_free(struct vctx *v)
{
	free(v->asrt);
	free(v->asrt_at);
	v->asrt = NULL;
	v->asrt_at = NULL;
}

/* Rules whose answer depends on the instruction and the program only, never
 * on the state: once one holds at an instruction it holds on every state
 * reaching it, so it is evaluated once there (a helper call's type,
 * license and sleepable rules cost ~600 instructions per call). */
static bool rule_static(uint8_t id)
{
	switch (id) {
	case A_VALID_INSN: case A_DIV_IMM: case A_SHIFT_IMM: case A_MAP_FD: case A_MAP_LOCK_TYPE:
	case A_LD_ABS_TYPE: case A_HELPER_KNOWN: case A_HELPER_TYPE: case A_SLEEPABLE: case A_GPL:
		return true;
	default:
		return false;
	}
}

int asrt_check(struct vctx *v, struct as_state *s, size_t pc)
{
	if (!v->asrt_at)
		return 0;
	for (uint32_t i = v->asrt_at[pc]; i < v->asrt_at[pc + 1]; i++) {
		struct assertion *a = &v->asrt[i];
		rule_fn fn = rules[a->id].fn;
		if (!fn || a->passed)
			continue;
		if (fn(v, s, pc, a))
			return -1;
		a->passed = rule_static(a->id);
	}
	return 0;
}

void asrt_print(const struct vctx *v, size_t pc, FILE *f)
{
	if (!v->asrt_at || v->asrt_at[pc] == v->asrt_at[pc + 1])
		return;
	fprintf(f, "  checks:");
	for (uint32_t i = v->asrt_at[pc]; i < v->asrt_at[pc + 1]; i++) {
		const struct assertion *a = &v->asrt[i];
		const char *n = rules[a->id].name;
		switch (a->id) {
		case A_REG_INIT:
		case A_SCALAR:
		case A_PTR_ARITH:
		case A_ATOMIC_REGION:
		case A_ATOMIC_REL_REGION:
		case A_ATOMIC_LEAK:
		case A_LD_ABS_CTX:
			fprintf(f, " %s(r%u)", n, a->reg);
			break;
		case A_MEM:
			fprintf(f, " %s(r%u%+d,%u,%s)", n, a->reg, a->off, a->size,
				a->flags == (AF_READ | AF_WRITE) ? "rmw" : (a->flags & AF_WRITE) ? "write" : "read");
			break;
		default:
			fprintf(f, " %s", n);
			break;
		}
	}
	fprintf(f, "\n");
}
