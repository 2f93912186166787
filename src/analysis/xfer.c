/* Transfer functions and checks for every non-call instruction: ALU (scalar
 * domain and the pointer arithmetic rules), loads and stores per region
 * (stack, ctx, packet, map value, memory, BTF pointers, sockets), atomics,
 * ld_imm64, legacy packet loads, byte swaps, address-space casts, branch
 * refinement (scalar bounds, NULL checks, packet bounds into the zone) and
 * the exit checks (return range, leaked references, held locks).
 * Messages follow the kernel's wording where one exists, so that a user who
 * knows the kernel log recognises them. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpfgate/object.h>
#include <bpf/btf.h>
#include "analysis/names.h"
#include "isa/exec.h"
#include "analysis/btfarg.h"
#include "analysis/fastcall.h"
#include "analysis/graph.h"
#include "analysis/vctx.h"

#define MAX_VAR_OFF (1ll << 29)
#define MAX_PACKET_OFF 0xffff
#define LOST_BASE 0xffffffffu

static inline struct as_reg *R(struct as_state *s, int i)
{
	return &as_cur(s)->r[i];
}

int fmt_reg(struct vctx *v, const struct as_state *s, int reg, char *buf, unsigned sz)
{
	(void)v;
	int k = snprintf(buf, sz, "r%d = ", reg);
	if (k < 0 || (unsigned)k >= sz)
		return k;
	return k + as_reg_fmt(&s->fr[s->nframes - 1].r[reg], s, buf + k, sz - (unsigned)k);
}

int check_reg_init(struct vctx *v, struct as_state *s, size_t pc, int reg)
{
	if (R(s, reg)->type == T_UNINIT)
		return verr(v, s, pc, "uninit_reg", "R%d !read_ok: register r%d is read before it is initialized",
			    reg, reg);
	return 0;
}

void for_each_reg(struct as_state *s, void (*fn)(struct as_reg *, void *), void *arg)
{
	for (uint32_t f = 0; f < s->nframes; f++) {
		struct as_frame *fr = &s->fr[f];
		for (int i = 0; i < 11; i++)
			fn(&fr->r[i], arg);
		if (!fr->nslots || as_frame_own(fr))
			continue; /* no memory: as_oom_take() stops the analysis */
		for (uint32_t k = 0; k < fr->nslots; k++)
			if (fr->slots[k].kind == SK_SPILL)
				fn(&fr->slots[k].spill, arg);
	}
}

/* fn on the registers and spills holding id, in for_each_reg's order; a
 * frame's slot array is made its own only when one of its spills does
 * (for_each_reg copies every shared array: a branch on a linked scalar
 * would copy the whole stack for nothing). */
static void for_each_reg_id(struct as_state *s, uint32_t id, void (*fn)(struct as_reg *, void *), void *arg)
{
	for (uint32_t f = 0; f < s->nframes; f++) {
		struct as_frame *fr = &s->fr[f];
		for (int i = 0; i < 11; i++)
			if (fr->r[i].id == id)
				fn(&fr->r[i], arg);
		uint32_t k = 0;
		while (k < fr->nslots && (fr->slots[k].kind != SK_SPILL || fr->slots[k].spill.id != id))
			k++;
		if (k == fr->nslots || as_frame_own(fr))
			continue; /* no memory: as_oom_take() stops the analysis */
		for (; k < fr->nslots; k++)
			if (fr->slots[k].kind == SK_SPILL && fr->slots[k].spill.id == id)
				fn(&fr->slots[k].spill, arg);
	}
}

struct id_arg {
	uint32_t id;
	void (*fn)(struct as_reg *, void *);
	void *arg;
};

static void id_visit(struct as_reg *r, void *p)
{
	struct id_arg *a = p;
	if (r->id == a->id && !rg_has(r->type, RG_PKT_BASE))
		a->fn(r, a->arg);
}

void mark_regs_id(struct as_state *s, uint32_t id, void (*fn)(struct as_reg *, void *), void *arg)
{
	struct id_arg a = { .id = id, .fn = fn, .arg = arg };
	for_each_reg_id(s, id, id_visit, &a);
}

/* Packet pointers and the slices of skb/xdp dynptrs (they point into the
 * packet: the kernel's clear_all_pkt_pointers) */
static void pkt_inval(struct as_reg *r, void *p)
{
	(void)p;
	if (rg_has(r->type, RG_PKT_PTR) || (r->type == T_MEM && bg_dynptr_kind_is_pkt(r->dkind)))
		as_reg_unknown(r);
}

void invalidate_pkt(struct as_state *s)
{
	for_each_reg(s, pkt_inval, NULL);
	bg_zone_clear(&s->zone);
}

/* A new id is about to be given to a fresh value: older holders of the same id
 * (the previous iteration of a loop) no longer share its facts. */
static void clear_id(struct as_reg *r, void *p)
{
	uint32_t id = *(uint32_t *)p;
	if (r->id != id)
		return;
	if (rg_has(r->type, RG_PKT_BASE)) {
		r->id = LOST_BASE;
		r->delta = 0;
	} else {
		r->id = 0;
	}
}

void as_forget_id(struct as_state *s, uint32_t id)
{
	for_each_reg_id(s, id, clear_id, &id);
}
#define release_id as_forget_id

/* ---------------------------------------------------------------- ALU */

static const char *alu_name(uint8_t op)
{
	static const char *n[16] = { "+=", "-=", "*=", "/=", "|=", "&=", "<<=", ">>=", "neg",
				     "%=", "^=", "=", "s>>=", "endian", "?", "?" };
	return n[op >> 4];
}

static struct bg_scalar imm_scalar(const struct bg_insn *in)
{
	if (in->alu64)
		return bg_scalar_const((uint64_t)(int64_t)in->imm);
	return bg_scalar_const((uint32_t)in->imm);
}

static int pkt_new_base(struct vctx *v, struct as_state *s, size_t pc, struct as_reg *d)
{
	uint32_t id = vid(v, pc, 2);
	release_id(s, id);
	bg_zone_forget(&s->zone, id, d->type == T_PKT_META);
	d->id = id;
	d->delta = 0;
	return 0;
}

/* check_reg_sane_offset(): the kernel's limits on the value added to a
 * pointer (is_ptr false) and on the pointer's own offset (is_ptr true), in its
 * words and order. bpfgate keeps a pointer's fixed and variable offset as one
 * range: a constant offset is the kernel's fixed `off`; of a variable one only
 * the lower bound is checked (the kernel bounds the two parts apart, so a high
 * sum of two in-range parts is no error there). */
static int sane_offset(struct vctx *v, struct as_state *s, size_t pc, const struct bg_scalar *x, bool is_ptr,
		       uint8_t type)
{
	uint64_t c;
	const char *tn = as_type_name(type, 0);
	if (bg_scalar_is_const(x, &c)) {
		if ((int64_t)c < MAX_VAR_OFF && (int64_t)c > -MAX_VAR_OFF)
			return 0;
		if (is_ptr)
			return verr(v, s, pc, "ptr_arith", "%s pointer offset %" PRId64 " is not allowed", tn,
				    (int64_t)c);
		return verr(v, s, pc, "ptr_arith", "math between %s pointer and %" PRId64 " is not allowed", tn,
			    (int64_t)c);
	}
	if (x->smin == INT64_MIN) {
		char ob[160];
		bg_scalar_fmt(x, ob, sizeof(ob));
		return verr(v, s, pc, "ptr_arith",
			    "math between %s pointer and register with unbounded min value is not allowed: %s = %s",
			    tn, is_ptr ? "pointer offset" : "offset", ob);
	}
	if (x->smin <= -MAX_VAR_OFF || (!is_ptr && x->smin >= MAX_VAR_OFF))
		return verr(v, s, pc, "ptr_arith", "value %" PRId64 " makes %s pointer be out of bounds", x->smin, tn);
	return 0;
}

/* pointer OP scalar (adjust_ptr_min_max_vals), in the kernel's order of
 * checks: the operand width, a NULL-able pointer, the region's arithmetic
 * rule, the sanity of both offsets, then the operator. `swapped`: the
 * instruction was scalar OP pointer (d is a copy of the source pointer; the
 * kernel's messages still name the destination register). */
static int ptr_arith(struct vctx *v, struct as_state *s, size_t pc, const struct bg_insn *in, struct as_reg *d,
		     const struct bg_scalar *off, bool swapped)
{
	char buf[200];
	uint8_t op = in->op;
	int dreg = in->dst;
	if (!in->alu64) {
		/* 32-bit ALU on a pointer gives a meaningless scalar; privileged only for SUB */
		if (op == BG_ALU_SUB && v->priv) {
			as_reg_unknown(d);
			d->v = bg_scalar_urange(0, UINT32_MAX);
			return 0;
		}
		return verr(v, s, pc, "ptr_arith", "R%d 32-bit pointer arithmetic prohibited", dreg);
	}
	if (d->flags & RF_NULL) {
		fmt_reg(v, s, swapped ? in->src : dreg, buf, sizeof(buf));
		return verr(v, s, pc, "ptr_arith",
			    "R%d pointer arithmetic on %s prohibited, null-check it first: %s", dreg,
			    as_type_name(d->type, d->flags), buf);
	}
	uint64_t c0;
	/* adjust_ptr_min_max_vals: a map pointer takes the addition of a known
	 * zero, and no other arithmetic */
	if (d->type == T_MAP_PTR && op == BG_ALU_ADD && bg_scalar_is_const(off, &c0) && c0 == 0)
		return 0;
	if (!rg_has(d->type, RG_ARITH) || (rg_has(d->type, RG_ARITH_CONST) && !bg_scalar_is_const(off, &c0))) {
		fmt_reg(v, s, swapped ? in->src : dreg, buf, sizeof(buf));
		return verr(v, s, pc, "ptr_arith", "R%d pointer arithmetic on %s prohibited: %s", dreg,
			    as_type_name(d->type, d->flags), buf);
	}
	if (sane_offset(v, s, pc, off, false, d->type) || sane_offset(v, s, pc, &d->v, true, d->type))
		return -1;
	switch (op) {
	case BG_ALU_ADD:
		break;
	case BG_ALU_SUB:
		if (swapped)
			return verr(v, s, pc, "ptr_arith", "R%d tried to subtract pointer from scalar", dreg);
		/* the kernel allows no subtraction from a stack pointer, not even of a
		 * constant (JITs may not handle it): clang writes r += -K */
		if (d->type == T_STACK)
			return verr(v, s, pc, "ptr_arith", "R%d subtraction from stack pointer prohibited", dreg);
		break;
	case BG_ALU_AND:
	case BG_ALU_OR:
	case BG_ALU_XOR:
		fmt_reg(v, s, swapped ? in->src : dreg, buf, sizeof(buf));
		return verr(v, s, pc, "ptr_arith", "R%d bitwise operator %s on pointer prohibited: %s", dreg,
			    alu_name(op), buf);
	default:
		fmt_reg(v, s, swapped ? in->src : dreg, buf, sizeof(buf));
		return verr(v, s, pc, "ptr_arith", "R%d pointer arithmetic with %s operator prohibited: %s",
			    dreg, alu_name(op), buf);
	}
	uint64_t c;
	bool known = bg_scalar_is_const(off, &c);
	d->v = bg_scalar_alu_kernel(op, true, false, 0, &d->v, off);
	if (rg_has(d->type, RG_PKT_BASE)) {
		if (known)
			d->delta += (int32_t)(op == BG_ALU_ADD ? (int64_t)c : -(int64_t)c);
		else
			pkt_new_base(v, s, pc, d);
	}
	return sane_offset(v, s, pc, &d->v, true, d->type);
}

/* A copy (register move or fill) of a pointer that may be NULL but whose NULL
 * id a join dropped: both copies hold the same value from here on, so a fresh
 * id links them and a NULL check on one refines the other, as the kernel's
 * copies share the id the lookup gave (a pointer written through an argument
 * in a callee, NULL on some return paths: test_xdp_noinline's `dst`). */
static bool null_copy_unlinked(const struct as_reg *r)
{
	return r->type != T_SCALAR && r->type != T_UNINIT && (r->flags & RF_NULL) && !r->id && !r->ref &&
	       rg(r->type)->null_name;
}

static void link_null_copy(struct vctx *v, struct as_state *s, size_t pc, struct as_reg *r)
{
	if (!null_copy_unlinked(r))
		return;
	uint32_t id = vid(v, pc, 2);
	release_id(s, id);
	r->id = id;
}

/* A scalar linked with a constant delta (after its r += k) that is copied
 * (move or spill) leaves its link: the kernel keeps one delta per link and
 * assign_scalar_id_before_mov clears such an id, so source and copy start a
 * new link of their own. */
static void unlink_added(struct as_reg *r)
{
	if (r->type != T_SCALAR || !r->id || !(r->delta || (r->flags & RF_LINK32)))
		return;
	r->id = 0;
	r->delta = 0;
	r->flags &= (uint8_t)~RF_LINK32;
}

static int alu_mov(struct vctx *v, struct as_state *s, size_t pc, const struct bg_insn *in)
{
	struct as_reg *d = R(s, in->dst);
	if (!in->src_is_reg) {
		struct bg_scalar k = imm_scalar(in);
		as_reg_scalar(d, k);
		return 0;
	}
	struct as_reg *sr = R(s, in->src);
	if (in->ext_bits) {
		struct bg_scalar r = sr->type == T_SCALAR ? sr->v : bg_scalar_unknown();
		r = bg_scalar_alu_kernel(BG_ALU_MOV, in->alu64, false, in->ext_bits, &r, &r);
		as_reg_scalar(d, r);
		return 0;
	}
	unlink_added(sr);
	if (!in->alu64) {
		if (sr->type != T_SCALAR) {
			as_reg_unknown(d);
			d->v = bg_scalar_urange(0, UINT32_MAX);
			return 0;
		}
		struct bg_scalar r = bg_scalar_alu_kernel(BG_ALU_MOV, false, false, 0, &sr->v, &sr->v);
		uint64_t c;
		/* a 32-bit move of a value known to fit keeps the link (kernel does too) */
		uint32_t keep = (sr->v.umax <= UINT32_MAX && !bg_scalar_is_const(&sr->v, &c)) ? sr->id : 0;
		as_reg_scalar(d, r);
		if (!kf_has(v, BG_KF_MOV32_LINK)) {
			/* before 6.4 a 32-bit move clears the copy's id */
		} else if (keep) {
			d->id = keep;
		} else if (sr->v.umax <= UINT32_MAX && !bg_scalar_is_const(&sr->v, &c)) {
			uint32_t id = vid(v, pc, 1);
			release_id(s, id);
			sr->id = id;
			d->id = id;
		}
		return 0;
	}
	link_null_copy(v, s, pc, sr);
	if (sr->type == T_SCALAR) {
		uint64_t c;
		if (!sr->id && !bg_scalar_is_const(&sr->v, &c)) {
			uint32_t id = vid(v, pc, 1);
			release_id(s, id);
			sr->id = id;
		}
	}
	*d = *sr;
	return 0;
}

/* 7.2 (DIV_RANGES) tracks a division by a constant k: unsigned, the precise
 * [umin/k, umax/k]; signed, of a constant by a constant; an unsigned modulo
 * by k gives the dividend when it is below k, else [0, k-1] (7 % 4 is not
 * decided 3 there). A non-constant divisor, and smod, stay unknown (r). */
static struct bg_scalar divmod_ranges(const struct bg_insn *in, const struct bg_scalar *dst,
				      const struct bg_scalar *src, struct bg_scalar r)
{
	uint64_t m = in->alu64 ? UINT64_MAX : UINT32_MAX, k, c;
	if (dst->bottom || !bg_scalar_is_const(src, &k) || !(k & m))
		return r;
	k &= m;
	if (in->is_signed)
		return in->op == BG_ALU_DIV && bg_scalar_is_const(dst, &c)
			       ? bg_scalar_alu(in->op, in->alu64, true, 0, dst, src)
			       : r;
	if (in->op == BG_ALU_DIV || (in->alu64 ? dst->umax : dst->u32max) < k)
		return bg_scalar_alu(in->op, in->alu64, false, 0, dst, src);
	return bg_scalar_urange(0, k - 1);
}

static int xfer_alu(struct vctx *v, struct as_state *s, size_t pc, const struct bg_insn *in)
{
	char buf[200];
	if (in->op == BG_ALU_MOV)
		return alu_mov(v, s, pc, in);
	struct as_reg *d = R(s, in->dst);
	if (in->op == BG_ALU_NEG) {
		if (d->type != T_SCALAR) {
			/* privileged: the negated pointer is an unknown number (the
			 * kernel's check_alu_op marks the destination unknown) */
			if (v->priv) {
				as_reg_unknown(d);
				return 0;
			}
			fmt_reg(v, s, in->dst, buf, sizeof(buf));
			return verr(v, s, pc, "ptr_arith", "R%d pointer arithmetic prohibited (neg): %s", in->dst,
				    buf);
		}
		struct bg_scalar r = bg_scalar_alu_kernel(BG_ALU_NEG, in->alu64, false, 0, &d->v, &d->v);
		as_reg_scalar(d, r);
		return 0;
	}
	struct as_reg srcv;
	if (in->src_is_reg) {
		srcv = *R(s, in->src);
	} else {
		as_reg_scalar(&srcv, imm_scalar(in));
	}
	if (d->type == T_SCALAR && srcv.type == T_SCALAR) {
		struct bg_scalar r = bg_scalar_alu_kernel(in->op, in->alu64, in->is_signed, 0, &d->v, &srcv.v);
		if ((in->op == BG_ALU_DIV || in->op == BG_ALU_MOD) && kf_has(v, BG_KF_DIV_RANGES))
			r = divmod_ranges(in, &d->v, &srcv.v, r);
		bool shift = in->op == BG_ALU_LSH || in->op == BG_ALU_RSH || in->op == BG_ALU_ARSH;
		if (shift && in->src_is_reg && srcv.cset && srcv.v.umax < (in->alu64 ? 64u : 32u)) {
			/* a shift amount joined from constants of different paths: the
			 * kernel shifts by each path's constant, so the union of those */
			struct bg_scalar u = bg_scalar_bottom();
			for (uint64_t k = srcv.v.umin; k <= srcv.v.umax; k++) {
				struct bg_scalar kc = bg_scalar_const(k), t;
				struct bg_scalar in_k = bg_scalar_meet(&srcv.v, &kc);
				if (in_k.bottom)
					continue;
				t = bg_scalar_alu_kernel(in->op, in->alu64, in->is_signed, 0, &d->v, &kc);
				u = bg_scalar_join(&u, &t);
			}
			if (!u.bottom)
				r = u;
		}
		uint32_t id = d->id;
		bool added = d->delta != 0 || (d->flags & RF_LINK32);
		uint64_t dst_umax = d->v.umax;
		as_reg_scalar(d, r);
		/* r += k keeps the link to its copies, with a constant delta (the
		 * kernel's linked registers): a later test on either refines both.
		 * Once only (the kernel's BPF_ADD_CONST: a second r += k cannot
		 * accumulate into the offset and clears the id), not for -S32_MIN,
		 * and a 32-bit add only of a value that fits 32 bits. */
		if (id && !added && !in->src_is_reg && (in->op == BG_ALU_ADD || in->op == BG_ALU_SUB) &&
		    !(in->op == BG_ALU_SUB && in->imm == INT32_MIN) && (in->alu64 || dst_umax <= UINT32_MAX)) {
			d->id = id;
			d->delta = in->op == BG_ALU_ADD ? in->imm : -in->imm;
			if (!in->alu64)
				d->flags |= RF_LINK32;
		}
		return 0;
	}
	if (d->type == T_ARENA || srcv.type == T_ARENA) {
		/* any arithmetic on an arena pointer keeps it one (adjust_reg_min_max_vals) */
		if (d->type != T_ARENA)
			*d = srcv;
		return 0;
	}
	if (d->type != T_SCALAR && srcv.type == T_SCALAR)
		return ptr_arith(v, s, pc, in, d, &srcv.v, false);
	if (d->type == T_SCALAR) {
		/* scalar op pointer: checked as pointer op scalar, roles swapped */
		struct bg_scalar off = d->v;
		struct as_reg p = srcv;
		if (ptr_arith(v, s, pc, in, &p, &off, true))
			return -1;
		*d = p;
		return 0;
	}
	/* pointer op pointer */
	if (in->op == BG_ALU_SUB && v->priv) {
		if (in->alu64 && rg_has(d->type, RG_PKT_BASE) && srcv.type == d->type &&
		    srcv.id == d->id && d->id != LOST_BASE) {
			as_reg_const(d, (uint64_t)(int64_t)(d->delta - srcv.delta));
			return 0;
		}
		as_reg_unknown(d);
		return 0;
	}
	return verr(v, s, pc, "ptr_arith", "R%d pointer %s pointer prohibited", in->dst, alu_name(in->op));
}

/* --------------------------------------------------------------- stack */

static struct actx *cur_actx(struct vctx *v)
{
	return &v->ctxs[v->cur_ctx];
}

static void note_stack_depth(struct vctx *v, struct as_state *s, int frame, int64_t lo)
{
	if (frame != (int)s->nframes - 1)
		return; /* a caller's frame: accounted in its own context */
	struct actx *c = cur_actx(v);
	if (lo < 0 && (uint64_t)-lo > c->max_stack)
		c->max_stack = (uint32_t)-lo;
}

/* bytes [off, off+size) of frame f (off negative). 0, or -1 after vnomem(). */
static int stack_write_bytes(struct vctx *v, struct as_frame *f, int off, int size, bool zero)
{
	/* slot by slot, from the lowest address: the bytes of [off, off+size)
	 * each slot holds (a slot holds [-8*(idx+1), -8*idx)) as one mask */
	if (size <= 0)
		return 0;
	int ilo = (-(off + size - 1) - 1) / 8, ihi = (-off - 1) / 8;
	struct as_slot *slots = as_slot_range(f, ilo, ihi);
	if (!slots)
		return vnomem(v);
	for (int b = off; b < off + size;) {
		int idx = (-b - 1) / 8, first = b + 8 * (idx + 1);
		int n = off + size - b < 8 - first ? off + size - b : 8 - first;
		uint8_t mask = (uint8_t)(((1u << n) - 1) << first);
		struct as_slot *sl = &slots[idx - ilo];
		if (sl->kind != SK_NONE) {
			/* a spill partly overwritten: the remaining bytes stay
			 * initialized, the value is forgotten */
			sl->kind = SK_NONE;
			sl->spill_size = 0;
			as_reg_uninit(&sl->spill);
		}
		sl->init |= mask;
		if (zero)
			sl->zero |= mask;
		else
			sl->zero &= (uint8_t)~mask;
		b += n;
	}
	return 0;
}

/* What a stack object's slot holds, for a message. */
static const char *slot_obj_name(uint8_t kind)
{
	return kind == SK_ITER ? "an iterator" : kind == SK_IRQ ? "an irq flag" : "a dynptr";
}

static bool reg_is_zero(const struct as_reg *r)
{
	uint64_t c;
	return r->type == T_SCALAR && bg_scalar_is_const(&r->v, &c) && c == 0;
}

/* A write over a dynptr's slots destroys it, and the slices taken from it; a
 * referenced one (a ringbuf reservation) must be released first (the
 * kernel's destroy_if_dynptr_stack_slot). */
int stack_write_objs(struct vctx *v, struct as_state *s, size_t pc, struct as_frame *f, int64_t lo,
		     int64_t end)
{
	for (int idx = (int)((-lo - 1) / 8); idx >= 0 && idx >= (int)((-(end - 1) - 1) / 8); idx--) {
		const struct as_slot *sl = as_slot_find(f, idx);
		int head = sl && sl->kind == SK_OBJ_TAIL ? idx + 1 : idx;
		const struct as_slot *h = head == idx ? sl : as_slot_find(f, head);
		if (!h || h->kind != SK_DYNPTR)
			continue;
		if (h->spill.ref)
			return verr(v, s, pc, "dynptr", "cannot overwrite referenced dynptr (stack off %d)",
				    -8 * (head + 1));
		as_dynptr_kill_slices(s, h->spill.dynptr);
		as_dynptr_forget(f, head);
	}
	return 0;
}

static int stack_write(struct vctx *v, struct as_state *s, size_t pc, int reg,
		       const struct as_reg *p, int64_t lo, int64_t hi, int size,
		       const struct as_reg *val)
{
	struct as_frame *f = &s->fr[p->frame];
	if (stack_write_objs(v, s, pc, f, lo, hi + size))
		return -1;
	if (lo != hi) {
		/* variable offset write: every slot in range may be hit */
		for (int64_t o = lo; o <= hi; o++)
			if (stack_write_bytes(v, f, (int)o, size, false))
				return -1;
		for (int64_t o = lo; o < hi + size; o++) {
			struct as_slot *sl = as_slot_get(f, (int)((-o - 1) / 8), false);
			if (sl)
				sl->zero = 0;
		}
		return 0;
	}
	int off = (int)lo;
	if (val && as_reg_is_ptr(val) && size != 8)
		return verr(v, s, pc, "stack_spill", "invalid size of register spill: r%d, size %d", reg,
			    size);
	/* a 1/2/4-byte spill of a scalar keeps it from 5.16 (BG_KF_SMALL_SPILL) */
	if (val && off % 8 == 0 && (size == 8 || (val->type == T_SCALAR && kf_has(v, BG_KF_SMALL_SPILL)))) {
		int idx = (-off - 1) / 8;
		if (stack_write_bytes(v, f, off, size, reg_is_zero(val)))
			return -1;
		struct as_slot *sl = as_slot_get(f, idx, true);
		if (!sl)
			return vnomem(v);
		sl->kind = SK_SPILL;
		sl->spill_size = (uint8_t)size;
		sl->spill = *val;
		if (val->type == T_SCALAR && size < 8)
			sl->spill.v = bg_scalar_cast(&val->v, (uint8_t)size, false);
		return 0;
	}
	return stack_write_bytes(v, f, off, size, val ? reg_is_zero(val) : false);
}

/* Bits the unsigned value of a scalar may use (the kernel's get_reg_width). */
static int scalar_width(const struct bg_scalar *x)
{
	return x->umax ? 64 - __builtin_clzll(x->umax) : 0;
}

/* May the bytes [lo, hi) of frame f be read uninitialized? Privileged from
 * 5.12 anywhere; on 5.10 (kernel profile BG_KF_UNINIT_STACK_WRITTEN) only
 * within the depth this path has written: the kernel's allocated_stack, which
 * grows on writes only (the deepest slot here; joins keep the slots both
 * sides have, so the depth never exceeds either path's). */
static bool uninit_read_ok(const struct vctx *v, const struct as_frame *f, int64_t lo)
{
	if (v->uninit_stack_ok)
		return true;
	if (!v->uninit_stack_written_ok || !f->nslots)
		return false;
	return (int)((-lo - 1) / 8) <= (int)f->slots[f->nslots - 1].idx;
}

static int stack_read(struct vctx *v, struct as_state *s, size_t pc, int reg,
		      const struct as_reg *p, int64_t lo, int64_t hi, int size, struct as_reg *out,
		      bool sign)
{
	struct as_frame *f = &s->fr[p->frame];
	if (lo == hi && lo % 8 == 0) {
		const struct as_slot *sl = as_slot_find(f, (int)((-lo - 1) / 8));
		if (sl && sl->kind == SK_SPILL) {
			if (as_reg_is_ptr(&sl->spill)) {
				if (size != 8)
					return verr(v, s, pc, "stack_fill",
						    "invalid size of register fill: r%d off=%" PRId64
						    " size %d holds a spilled %s",
						    reg, lo, size, as_type_name(sl->spill.type, sl->spill.flags));
				if (out) {
					/* linking writes the slot: its own copy (as_slot_get) */
					struct as_slot *w = null_copy_unlinked(&sl->spill)
								    ? as_slot_get(f, (int)((-lo - 1) / 8), false)
								    : NULL;
					if (w) {
						link_null_copy(v, s, pc, &w->spill);
						sl = w;
					}
					*out = sl->spill;
				}
				return 0;
			}
			uint64_t z;
			if (sl->spill.type == T_SCALAR && size < sl->spill_size && !kf_has(v, BG_KF_SPILL_LINK) &&
			    !(bg_scalar_is_const(&sl->spill.v, &z) && z == 0)) {
				/* before 6.9 a fill narrower than the spill is unknown */
				if (out)
					as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
				return 0;
			}
			if (sl->spill.type == T_SCALAR && size <= sl->spill_size) {
				if (out) {
					as_reg_scalar(out, bg_scalar_cast(&sl->spill.v, (uint8_t)size, sign));
					/* the fill keeps the spill's link unless it narrows the
					 * value (the kernel's check_stack_read_fixed_off); a sign
					 * extension keeps it only where it cannot change the value */
					int w = scalar_width(&sl->spill.v);
					if (sl->spill.id && (w < 8 * size || (w == 8 * size && !sign))) {
						out->id = sl->spill.id;
						out->delta = sl->spill.delta;
						out->flags = sl->spill.flags;
					}
				}
				return 0;
			}
		}
	}
	/* byte-level: initialized? all zero? */
	bool all_zero = true, all_init = true;
	for (int64_t o = lo; o < hi + size; o++) {
		int idx = (int)((-o - 1) / 8);
		int byte = (int)(o + 8 * (idx + 1));
		const struct as_slot *sl = as_slot_find(f, idx);
		uint8_t init = sl ? sl->init : 0, zero = sl ? sl->zero : 0;
		if (sl && (sl->kind == SK_DYNPTR || sl->kind == SK_ITER || sl->kind == SK_OBJ_TAIL || sl->kind == SK_IRQ))
			return verr(v, s, pc, "stack_obj",
				    "invalid read from stack R%d off %" PRId64 "+0 size %d: the slot at %d holds %s",
				    reg, lo, size, -8 * (idx + 1), slot_obj_name(sl->kind));
		if (sl && sl->kind == SK_SPILL && byte < sl->spill_size) {
			init |= (uint8_t)(1u << byte);
			if (!reg_is_zero(&sl->spill))
				zero &= (uint8_t)~(1u << byte);
		}
		if (!(init & (1u << byte)))
			all_init = false;
		if (!(zero & (1u << byte)))
			all_zero = false;
	}
	if (!all_init && !uninit_read_ok(v, f, lo))
		return verr(v, s, pc, "stack_uninit",
			    "invalid read from stack R%d off %" PRId64 "+0 size %d: bytes not initialized", reg,
			    lo, size);
	if (out) {
		if (all_zero && all_init)
			as_reg_const(out, 0);
		else
			as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
	}
	return 0;
}

static int access_stack(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct as_reg *p,
			int off, int size, bool write, const struct as_reg *val, struct as_reg *out,
			bool sign)
{
	int64_t lo = p->v.smin + off, hi = p->v.smax + off;
	if (p->v.smin < -AS_STACK_SIZE * 8 || p->v.smax > AS_STACK_SIZE * 8 || lo < -AS_STACK_SIZE ||
	    hi + size > 0) {
		char buf[200];
		fmt_reg(v, s, reg, buf, sizeof(buf));
		return verr(v, s, pc, "stack_bounds",
			    "invalid %s stack R%d off=%d size=%d: stack access out of bounds [-512,0): %s",
			    write ? "write to" : "read from", reg, off, size, buf);
	}
	note_stack_depth(v, s, p->frame, lo);
	fastcall_access(v, s, pc, p->frame, lo);
	if (write)
		return stack_write(v, s, pc, reg, p, lo, hi, size, val);
	return stack_read(v, s, pc, reg, p, lo, hi, size, out, sign);
}

/* ----------------------------------------------------------------- ctx */

/* An LSM program reading the hook's return value (the ctx slot after the
 * arguments) gets the range the kernel enforces on its own return (6.12:
 * check_ctx_access's is_retval, __mark_reg_s32_range). */
static void lsm_retval(struct vctx *v, int off, int size, struct as_reg *out)
{
	int nargs;
	int64_t lo, hi;
	if (v->prog_type != BPF_PROG_TYPE_LSM || bg_program__attach_type(v->prog) != BPF_LSM_MAC || size != 8)
		return;
	int kind = btf_target_ret(v->prog, &nargs);
	if (kind != 1 || off != nargs * 8 ||
	    !bg_lsm_ret_range(bg_program__attach_target(v->prog), BPF_LSM_MAC, kind, v->prof ? v->prof->version : 0,
			      &lo, &hi))
		return;
	out->v.s32min = (int32_t)lo;
	out->v.s32max = (int32_t)hi;
	bg_scalar_reduce(&out->v);
}

/* The trust and NULL-ness of the pointer field at off of an iterator's ctx
 * struct sname (iter_ctx.def: the target's ctx_arg_info). A target the table
 * does not list: every field but meta (off 0) may be NULL, all trusted. */
static void iter_ctx_field(struct vctx *v, struct as_state *s, size_t pc, const char *sname, int off,
			   struct as_reg *out)
{
	enum bg_iter_arg k = bg_iter_ctx_arg(bg_program__attach_target(v->prog), btf_field_name(v->prog, sname, off),
					     v->prof ? v->prof->version : 0);
	if (k == BG_ITER_ARG_TRUSTED || (k == BG_ITER_ARG_UNKNOWN && off == 0))
		return;
	if (k == BG_ITER_ARG_PLAIN_OR_NULL)
		out->flags = RF_PLAIN;
	out->flags |= RF_NULL;
	out->id = vid(v, pc, 5);
	release_id(s, out->id);
}

/* Does [off, off+size) touch a field the kernel rewrites into a pointer? A
 * layout read as raw bytes (any_read) still reads such a field whole only
 * (raw_tp.w's arg 0: raw_tp_writable_prog_is_valid_access). */
static bool ctx_ptr_field_in(const struct bg_ctx_layout *l, int off, int size)
{
	for (unsigned i = 0; i < l->nfields; i++) {
		const struct bg_ctx_field *f = &l->fields[i];
		if (off < (int)(f->off + f->size) && off + size > (int)f->off && f->val != BG_CTXV_SCALAR &&
		    f->val != BG_CTXV_CTX_ARG)
			return true;
	}
	return false;
}

static int access_ctx(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct as_reg *p,
		      int off, int size, bool write, struct as_reg *out, bool sign)
{
	uint64_t c;
	if (!bg_scalar_is_const(&p->v, &c) || c != 0) {
		char buf[200];
		fmt_reg(v, s, reg, buf, sizeof(buf));
		return verr(v, s, pc, "ctx_modified", "dereference of modified ctx ptr R%d disallowed: %s",
			    reg, buf);
	}
	const struct bg_ctx_layout *l = v->pol ? v->pol->ctx : NULL;
	if (!l) {
		if (out)
			as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
		return 0;
	}
	if (bg_program__attach_type(v->prog) == BPF_TRACE_ITER && !write &&
	    bg_program__attach_target(v->prog)) {
		char sname[160];
		const char *tn = NULL;
		bool isp = false;
		snprintf(sname, sizeof(sname), "bpf_iter__%s", bg_program__attach_target(v->prog));
		/* a map element's key and value: PTR_TO_BUF (read-only for the key) */
		enum bg_iter_arg bk = size == 8 ? bg_iter_ctx_arg(bg_program__attach_target(v->prog),
								  btf_field_name(v->prog, sname, off), 0)
						: BG_ITER_ARG_UNKNOWN;
		if (bk == BG_ITER_ARG_BUF_OR_NULL || bk == BG_ITER_ARG_RDONLY_BUF_OR_NULL) {
			if (!out)
				return 0;
			as_reg_uninit(out);
			out->type = T_BUF;
			out->flags = RF_NULL | (bk == BG_ITER_ARG_RDONLY_BUF_OR_NULL ? RF_RDONLY : 0);
			out->v = bg_scalar_const(0);
			out->id = vid(v, pc, 5);
			release_id(s, out->id);
			return 0;
		}
		if (btf_field_load(v->prog, sname, off, size, &tn, &isp)) {
			if (!out)
				return 0;
			if (!isp) {
				as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
				return 0;
			}
			as_reg_uninit(out);
			out->type = T_BTF_ID;
			out->btf = tn;
			out->v = bg_scalar_const(0);
			iter_ctx_field(v, s, pc, sname, off, out);
			return 0;
		}
	}
	const char *why = NULL;
	const struct bg_ctx_field *fl = bg_ctx_field_at(l, off, size, write, &why);
	if (!fl) {
		if (l->any_read && !write && off >= 0 && (uint32_t)(off + size) <= l->size &&
		    !ctx_ptr_field_in(l, off, size)) {
			if (out)
				as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
			return 0;
		}
		return verr(v, s, pc, "ctx_access", "invalid bpf_context access off=%d size=%d (%s%s%s)",
			    off, size, l->struct_name, why ? ": " : "", why ? why : "");
	}
	/* a sign-extending load of a field the kernel rewrites into a pointer
	 * load (data, data_end, data_meta, sk, flow_keys...) is refused */
	if (sign && fl->val != BG_CTXV_SCALAR && fl->val != BG_CTXV_CTX_ARG)
		return verr(v, s, pc, "ctx_access",
			    "invalid bpf_context access off=%d size=%d (%s: sign-extending load of pointer field %s)",
			    off, size, l->struct_name, fl->name);
	if (!out)
		return 0;
	as_reg_uninit(out);
	switch (fl->val) {
	case BG_CTXV_PKT:
		out->type = T_PKT;
		break;
	case BG_CTXV_PKT_END:
		out->type = T_PKT_END;
		break;
	case BG_CTXV_PKT_META:
		out->type = T_PKT_META;
		break;
	case BG_CTXV_SOCK_COMMON_OR_NULL:
		out->type = T_SOCK_COMMON;
		out->flags = RF_NULL;
		out->id = vid(v, pc, 5);
		release_id(s, out->id);
		break;
	case BG_CTXV_SOCKET_OR_NULL:
		out->type = T_SOCK;
		out->flags = RF_NULL;
		out->id = vid(v, pc, 5);
		release_id(s, out->id);
		break;
	case BG_CTXV_BTF_ID:
		out->type = T_BTF_ID;
		out->btf = fl->btf;
		break;
	case BG_CTXV_SOCKET:
		out->type = T_SOCK;
		break;
	case BG_CTXV_FLOW_KEYS:
		out->type = T_FLOW_KEYS;
		out->size = BG_FLOW_KEYS_SIZE;
		break;
	case BG_CTXV_TP_BUFFER:
		out->type = T_TP_BUFFER;
		break;
	case BG_CTXV_CTX_ARG: {
		const char *tn = NULL;
		bool isp = false;
		if (size == 8 && btf_ctx_arg(v->prog, off, &tn, &isp) && isp && tn) {
			out->type = T_BTF_ID;
			out->btf = tn;
			if (!bg_prog_ctx_args_trusted(v->prog_type, bg_program__attach_type(v->prog)) ||
			    (v->prog_type == BPF_PROG_TYPE_LSM &&
			     bg_lsm_hook_untrusted(bg_program__attach_target(v->prog))))
				out->flags = RF_PLAIN; /* PTR_TO_BTF_ID without PTR_TRUSTED */
			if (btf_stops_arg_nullable(v->prog, off) ||
			    (v->prog_type == BPF_PROG_TYPE_TRACING &&
			     bg_program__attach_type(v->prog) == BPF_TRACE_RAW_TP &&
			     bg_raw_tp_arg_nullable(bg_program__attach_target(v->prog), off / 8,
						    v->prof ? v->prof->version : 0))) {
				out->flags |= RF_NULL;
				out->id = vid(v, pc, 5);
				release_id(s, out->id);
			}
			break;
		}
		as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
		lsm_retval(v, off, size, out);
		return 0;
	}
	default:
		as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
		return 0;
	}
	if (fl->val == BG_CTXV_BTF_ID && !strcmp(fl->name, "obj")) {
		out->flags |= RF_NULL; /* iterator object: NULL at the end */
		out->id = vid(v, pc, 5);
		release_id(s, out->id);
	}
	out->v = bg_scalar_const(0);
	if (size != 8 && (fl->val == BG_CTXV_PKT || fl->val == BG_CTXV_PKT_END || fl->val == BG_CTXV_PKT_META) &&
	    fl->size != size)
		as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
	return 0;
}

/* -------------------------------------------------------------- packet */

static int access_pkt(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct as_reg *p,
		      int off, int size, bool write, struct as_reg *out, bool sign)
{
	char buf[200];
	if (write && v->pol && !v->pol->pkt_write)
		return verr(v, s, pc, "pkt_write", "cannot write into packet");
	bool meta = p->type == T_PKT_META;
	uint32_t range = p->id == LOST_BASE ? 0 : bg_zone_range(&s->zone, p->id, meta);
	int64_t lo = p->v.smin + off;
	int64_t need = (int64_t)p->delta + off + size;
	if (p->v.smin < 0 && p->id != 0) {
		fmt_reg(v, s, reg, buf, sizeof(buf));
		return verr(v, s, pc, "pkt_bounds",
			    "R%d min value is negative, either use unsigned index or do a if (index >=0) check: %s",
			    reg, buf);
	}
	if (lo < 0 || need > (int64_t)range || (p->id == 0 && p->delta + off < 0) || p->id == LOST_BASE) {
		fmt_reg(v, s, reg, buf, sizeof(buf));
		return verr(v, s, pc, "pkt_bounds",
			    "invalid access to %s, off=%d size=%d: %s out of bounds: %s, needs %s - base >= %" PRId64
			    ", known >= %u",
			    meta ? "packet metadata" : "packet", off, size, meta ? "packet metadata" : "packet",
			    buf, meta ? "data" : "data_end", need, range);
	}
	if (out)
		as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
	return 0;
}

/* ---------------------------------------------------------- map values */

static bool map_readonly(struct vctx *v, int map)
{
	const struct bg_map_def *m = bg_object__map(v->obj, (size_t)map);
	return m && (m->readonly || (m->map_flags & BG_MAP_F_RDONLY_PROG));
}

/* An access of [off, off+size) through p into a region of `limit` bytes.
 * Map values and memory regions follow check_mem_region_access(): a possibly
 * negative variable offset, then the lowest address, then an unbounded
 * variable offset, then the highest address, each with the kernel's words
 * (its last line names the bound that failed). `sock`: socket fields, whose
 * kernel check (check_sock_access) has other words; the same bounds. */
static int bounded_region(struct vctx *v, struct as_state *s, size_t pc, int reg,
			  const struct as_reg *p, int off, int size, uint64_t limit, const char *what,
			  const char *check, bool sock)
{
	char buf[200];
	int64_t lo = p->v.smin + off;
	if (lo < 0 && p->v.smin != p->v.smax) {
		fmt_reg(v, s, reg, buf, sizeof(buf));
		return verr(v, s, pc, check,
			    "R%d min value is negative, either use unsigned index or do a if (index >=0) check: %s",
			    reg, buf);
	}
	if (sock) {
		if (lo < 0 || p->v.umax > (1ull << 40) || (int64_t)p->v.umax + off + size > (int64_t)limit) {
			fmt_reg(v, s, reg, buf, sizeof(buf));
			return verr(v, s, pc, check, "invalid access to %s, size=%" PRIu64 " off=%" PRId64 " size=%d: %s",
				    what, limit, p->v.smin + off, size, buf);
		}
		return 0;
	}
	if (lo < 0 || lo + size > (int64_t)limit) {
		fmt_reg(v, s, reg, buf, sizeof(buf));
		return verr(v, s, pc, check,
			    "invalid access to %s, size=%" PRIu64 " off=%" PRId64
			    " size=%d: R%d min value is outside of the allowed memory range: %s",
			    what, limit, lo, size, reg, buf);
	}
	if (p->v.umax >= (uint64_t)MAX_VAR_OFF) {
		fmt_reg(v, s, reg, buf, sizeof(buf));
		return verr(v, s, pc, check,
			    "R%d unbounded memory access, make sure to bounds check any such access: %s", reg, buf);
	}
	if ((int64_t)p->v.umax + off + size > (int64_t)limit) {
		fmt_reg(v, s, reg, buf, sizeof(buf));
		return verr(v, s, pc, check,
			    "invalid access to %s, size=%" PRIu64 " off=%" PRId64
			    " size=%d: R%d max value is outside of the allowed memory range: %s",
			    what, limit, (int64_t)p->v.umax + off, size, reg, buf);
	}
	return 0;
}


/* check_map_access's rule for a map value's kptr fields: a field is touched
 * only directly (never by a helper or a global function's memory argument),
 * at a constant offset that is the field's, 8 bytes at once. *kf: the field
 * the access is to, if any. */
static int kptr_fields(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct as_reg *p,
		       const struct bg_map_def *m, int off, int size, const struct btf_kptr_field **kf)
{
	const struct btf_kptr_field *f;
	int n = map_kptrs(v, m, &f);
	int64_t lo = p->v.smin + off, hi = (int64_t)p->v.umax + off + size;
	uint8_t kind = v->insns[pc].kind;
	bool direct = kind == BG_K_LDX || kind == BG_K_ST || kind == BG_K_STX || kind == BG_K_ATOMIC;
	uint64_t c;
	*kf = NULL;
	for (int i = 0; i < n; i++) {
		if (!(lo < f[i].off + 8 && f[i].off < hi))
			continue;
		if (!direct)
			return verr(v, s, pc, "kptr_access", "kptr cannot be accessed indirectly by helper (R%d, map %s, kptr at off %d)",
				    reg, m->name ? m->name : "?", f[i].off);
		if (!bg_scalar_is_const(&p->v, &c))
			return verr(v, s, pc, "kptr_access", "kptr access cannot have variable offset (R%d, kptr at off %d)", reg,
				    f[i].off);
		if ((int64_t)c + off != f[i].off)
			return verr(v, s, pc, "kptr_access", "kptr access misaligned expected=%d off=%" PRId64, f[i].off,
				    (int64_t)c + off);
		if (size != 8)
			return verr(v, s, pc, "kptr_access", "kptr access size must be BPF_DW (size %d)", size);
		if (kind == BG_K_ATOMIC)
			return verr(v, s, pc, "kptr_access", "kptr in map can only be accessed using BPF_MEM instruction mode");
		*kf = &f[i];
	}
	return 0;
}

/* check_map_kptr_access: a store to a kptr field. A referenced or percpu
 * kptr is only exchanged (bpf_kptr_xchg); an unreferenced one takes NULL or
 * a kernel object of its struct at offset 0 (map_kptr_match_type: trusted,
 * RCU or untrusted, never a program-local or percpu one). */
static int kptr_store(struct vctx *v, struct as_state *s, size_t pc, const struct btf_kptr_field *kf,
		      const struct as_reg *val)
{
	const struct bg_insn *in = &v->insns[pc];
	if (kf->kind != BTF_KPTR_UNTRUSTED)
		return verr(v, s, pc, "kptr_access", "store to referenced kptr disallowed (kptr at off %d)", kf->off);
	if (in->kind == BG_K_ST) {
		if (in->imm)
			return verr(v, s, pc, "kptr_access", "BPF_ST imm must be 0 when storing to kptr at off=%d", kf->off);
		return 0;
	}
	uint64_t c;
	if (!val || (val->type == T_SCALAR && bg_scalar_is_const(&val->v, &c) && c == 0))
		return 0;
	if (val->type == T_BTF_ID && !(val->flags & (RF_ALLOC | RF_PERCPU)) && !bg_scalar_is_const(&val->v, &c)) {
		char tn[64];
		bg_tnum_fmt(val->v.tn, tn, sizeof(tn));
		struct as_reg nn = *val;
		nn.flags &= (uint8_t)~RF_NULL;
		return verr(v, s, pc, "kptr_access", "R%d variable %s access var_off=%s disallowed", in->src,
			    btf_ptr_name(&nn), tn);
	}
	if (val->type != T_BTF_ID || (val->flags & (RF_ALLOC | RF_PERCPU)) || c != 0 || !val->btf || !kf->name ||
	    strcmp(val->btf, kf->name))
		return verr(v, s, pc, "kptr_access", "invalid kptr access, R%d type=%s%s expected=ptr_%s or untrusted_ptr_%s",
			    in->src, val->type == T_BTF_ID ? btf_ptr_name(val) : as_type_name(val->type, val->flags),
			    val->type == T_BTF_ID && val->btf ? val->btf : "",
			    kf->name ? kf->name : "?", kf->name ? kf->name : "?");
	return 0;
}

static int access_map(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct as_reg *p,
		      int off, int size, bool write, const struct as_reg *val, struct as_reg *out, bool sign)
{
	const struct bg_map_def *m = bg_object__map(v->obj, (size_t)p->map);
	if (!m)
		return verr(v, s, pc, "map_value", "R%d map value of unknown map %d", reg, p->map);
	if (write && (map_readonly(v, p->map) || (p->flags & RF_RDONLY)))
		return verr(v, s, pc, "map_readonly", "write into map forbidden, value_size=%u off=%d size=%d (map %s is read-only)",
			    m->value_size, off, size, m->name ? m->name : "?");
	if (!write && (m->map_flags & BG_MAP_F_WRONLY_PROG))
		return verr(v, s, pc, "map_writeonly", "read from map forbidden, value_size=%u off=%d size=%d (map %s is write-only)",
			    m->value_size, off, size, m->name ? m->name : "?");
	if (bounded_region(v, s, pc, reg, p, off, size, m->value_size, "map value", "map_bounds", false))
		return -1;
	static const struct {
		const char *t;
		int sz;
	} special[] = { { "bpf_spin_lock", 4 }, { "bpf_timer", 16 } };
	for (size_t k = 0; k < sizeof(special) / sizeof(special[0]); k++) {
		int fo = map_field_offset(v, m, special[k].t);
		if (fo < 0)
			continue;
		int64_t lo = p->v.smin + off, hi = (int64_t)p->v.umax + off + size;
		if (lo < fo + special[k].sz && hi > fo)
			return verr(v, s, pc, "lock_field", "%s cannot be accessed directly by load/store", special[k].t);
	}
	const struct btf_kptr_field *kf = NULL;
	if (kptr_fields(v, s, pc, reg, p, m, off, size, &kf))
		return -1;
	if (kf && write && kf->kind == BTF_KPTR_UPTR)
		return verr(v, s, pc, "kptr_access", "store to uptr disallowed (uptr at off %d)", kf->off);
	if (kf && write)
		return kptr_store(v, s, pc, kf, val);
	if (!out)
		return 0;
	uint64_t c;
	if (kf && kf->kind == BTF_KPTR_UPTR) {
		/* mark_uptr_ld_reg: user memory of the pointee's size, or NULL */
		as_reg_uninit(out);
		out->type = T_MEM;
		out->flags = RF_NULL;
		out->size = kf->size;
		out->id = vid(v, pc, 5);
		release_id(s, out->id);
		out->v = bg_scalar_const(0);
		return 0;
	}
	if (kf) {
		/* a kptr field: the object it holds, or NULL */
		const char *kname = kf->name;
		as_reg_uninit(out);
		out->type = T_BTF_ID;
		out->btf = kname;
		/* btf_ld_kptr_type: RCU-protected inside an RCU read section when
		 * its struct is freed after a grace period (or is the program's
		 * own; a percpu object always is), else untrusted; a percpu
		 * object stays percpu memory (MEM_PERCPU) */
		bool local = kname && vctx_is_local(v, kname);
		bool rcu = kf->kind == BTF_KPTR_PERCPU ||
			   (kf->kind == BTF_KPTR_REF && (local || bg_kptr_rcu_protected(kname)));
		rcu = rcu && in_rcu_cs(v, s);
		out->flags = RF_NULL | (rcu ? RF_RCU : RF_UNTRUSTED);
		if (rcu && kf->kind == BTF_KPTR_PERCPU)
			out->flags |= RF_PERCPU;
		else if (rcu && local)
			out->flags |= RF_ALLOC; /* a stashed local object (MEM_ALLOC | MEM_RCU) */
		out->id = vid(v, pc, 5);
		release_id(s, out->id);
		out->v = bg_scalar_const(0);
		return 0;
	}
	if (map_readonly(v, p->map) && m->init_data && bg_scalar_is_const(&p->v, &c)) {
		uint64_t word = 0;
		memcpy(&word, (const uint8_t *)m->init_data + c + off, (size_t)size);
		as_reg_const(out, bg_extend(word, (uint8_t)size, sign));
		return 0;
	}
	as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
	return 0;
}

/* ------------------------------------ memory, kernel objects, sockets */

static int access_mem(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct as_reg *p,
		      int off, int size, bool write, struct as_reg *out, bool sign)
{
	if (write && (p->flags & RF_RDONLY))
		return verr(v, s, pc, "mem_readonly", "cannot write into rdonly_mem");
	if (bounded_region(v, s, pc, reg, p, off, size, p->size, "memory", "mem_bounds", false))
		return -1;
	if (out)
		as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
	return 0;
}

/* struct bpf_flow_keys of a flow dissector (check_flow_keys_access): the
 * pointer moves by constants only, so the access is at a known offset; its
 * words, not the generic memory ones. */
static int access_flow_keys(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct as_reg *p,
			    int off, int size, struct as_reg *out, bool sign)
{
	uint64_t c = 0;
	int64_t at = bg_scalar_is_const(&p->v, &c) ? (int64_t)c + off : p->v.smin + off;
	if (at < 0 || at + size > (int64_t)p->size || !bg_scalar_is_const(&p->v, &c))
		return verr(v, s, pc, "mem_bounds", "invalid access to flow keys off=%" PRId64 " size=%d (R%d, %u bytes)",
			    at, size, reg, (unsigned)p->size);
	if (out)
		as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
	return 0;
}

/* A buffer whose size the kernel checks at attach (a writable raw
 * tracepoint's, PTR_TO_TP_BUFFER; an iterator's key or value, PTR_TO_BUF):
 * any constant offset >= 0, never a variable one (__check_buffer_access; the
 * kernel records the highest byte); a read-only one is never written. */
static int access_buf(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct as_reg *p, int off,
		      int size, bool write, struct as_reg *out, bool sign)
{
	const char *what = p->type == T_TP_BUFFER ? "tracepoint" : (p->flags & RF_RDONLY) ? "rdonly" : "rdwr";
	if (write && (p->flags & RF_RDONLY))
		return verr(v, s, pc, "mem_readonly", "R%d cannot write into rdonly_buf", reg);
	uint64_t c;
	if (!bg_scalar_is_const(&p->v, &c)) {
		char tn[64];
		bg_tnum_fmt(p->v.tn, tn, sizeof(tn));
		return verr(v, s, pc, "buf_bounds", "R%d invalid variable buffer offset: off=%d, var_off=%s", reg, off,
			    tn);
	}
	int64_t at = (int64_t)c + off;
	if (at < 0)
		return verr(v, s, pc, "buf_bounds", "R%d invalid %s buffer access: off=%" PRId64 ", size=%d", reg,
			    what, at, size);
	if (out)
		as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
	return 0;
}

/* A program-local object (bpf_obj_new): readable and writable inside its
 * struct, except its special fields (btf_struct_access on MEM_ALLOC). */
static int access_local(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct as_reg *p,
			int off, int size, struct as_reg *out, bool sign)
{
	uint64_t c;
	if (!bg_scalar_is_const(&p->v, &c))
		return verr(v, s, pc, "btf_bounds", "R%d is ptr_%s invalid variable offset: off=%d", reg, p->btf, off);
	int64_t at = (int64_t)c + off;
	uint32_t sz = graph_local_size(v->prog, p->btf);
	if (at < 0)
		return verr(v, s, pc, "btf_bounds", "R%d is ptr_%s invalid negative access: off=%" PRId64, reg, p->btf,
			    at);
	if (at + size > (int64_t)sz)
		return verr(v, s, pc, "btf_bounds", "access beyond struct %s at off %" PRId64 " size %d", p->btf, at,
			    size);
	const char *sp = graph_special_in(v->prog, p->btf, at, size);
	if (sp)
		return verr(v, s, pc, "local_field", "direct access to %s is disallowed", sp);
	if (out)
		as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
	return 0;
}


/* A pointer loaded by a BTF field walk (a BTF pointer's or a map pointer's
 * struct): untrusted, as the kernel's PTR_UNTRUSTED walk result; tn names the
 * pointed struct (NULL: unknown). */
static void walked_ptr(struct as_reg *out, const char *tn)
{
	as_reg_uninit(out);
	out->type = T_BTF_ID;
	out->flags = RF_UNTRUSTED;
	out->btf = tn;
	out->v = bg_scalar_const(0);
}

/* The kernel's in_rcu_cs: an RCU read section or a spin lock held, or a
 * program that cannot sleep. A section open on some paths only counts as
 * closed (the pointer is then the least trusted of the two). */
bool in_rcu_cs(struct vctx *v, const struct as_state *s)
{
	return (s->sec[AS_SEC_RCU] && s->sec[AS_SEC_RCU] != AS_SEC_MAYBE) || s->lock != AS_LOCK_NONE ||
	       (s->nres && s->nres != AS_RES_MAYBE) || !prog_sleepable(v);
}

/* check_ptr_to_btf_access (6.18): the trust of the pointer member loaded at
 * off of p's struct. Walked from an untrusted or a plain pointer, or from a
 * trusted/RCU one through a member no allow-list names (btf_field_safety):
 * untrusted. The lists keep the base's trust: fully (trusted, NULL-able or
 * not), or inside an RCU read section and from a pointer known non-NULL as
 * RCU-protected (NULL-able or not). (6.12 gave a plain pointer for an
 * unlisted member in an RCU section and for a plain base: 6.18 does not.) */
static void walked_trust(struct vctx *v, struct as_state *s, size_t pc, const struct as_reg *p, int off,
			 struct as_reg *out)
{
	enum as_trust t = as_btf_trust(p);
	uint64_t c;
	/* a plain base gives plain members before 6.4, on 6.12 ("Old compat")
	 * and again on 7.2; untrusted ones on 6.18 */
	if (t == AS_TRUST_PLAIN && (!kf_has(v, BG_KF_WALK_UNTRUSTED) || !kf_has(v, BG_KF_WALK_PLAIN_UNTRUSTED) ||
				    kf_has(v, BG_KF_WALK_PLAIN_COMPAT))) {
		out->flags = RF_PLAIN;
		return;
	}
	if ((t != AS_TRUST_TRUSTED && t != AS_TRUST_RCU) || !p->btf || !bg_scalar_is_const(&p->v, &c))
		return;
	int safe = btf_field_safety(v->prog, p->btf, (int)(c + (uint64_t)(int64_t)off));
	/* before 6.4 a field without an allow-list entry reads as a plain pointer */
	uint8_t fl = kf_has(v, BG_KF_WALK_UNTRUSTED) ? RF_UNTRUSTED : 0;
	if (safe == BTF_SAFE_TRUSTED)
		fl = 0;
	else if (safe == BTF_SAFE_TRUSTED_OR_NULL)
		fl = RF_NULL;
	else if (in_rcu_cs(v, s) && !(p->flags & RF_NULL) && safe == BTF_SAFE_RCU)
		fl = RF_RCU;
	else if (in_rcu_cs(v, s) && !(p->flags & RF_NULL) && safe == BTF_SAFE_RCU_OR_NULL)
		fl = RF_RCU | RF_NULL;
	out->flags = fl;
	if (fl & RF_NULL) {
		out->id = vid(v, pc, 5);
		release_id(s, out->id);
	}
}
static int access_btf(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct as_reg *p,
		      int off, int size, bool write, struct as_reg *out, bool sign)
{
	uint64_t at;
	/* percpu memory is reached through bpf_per_cpu_ptr / bpf_this_cpu_ptr */
	if (p->flags & RF_PERCPU)
		return verr(v, s, pc, "btf_percpu", "R%d is ptr_%s access percpu memory: off=%" PRId64, reg,
			    p->btf ? p->btf : "", p->v.smin + off);
	if ((p->flags & RF_ALLOC) && !(p->flags & RF_UNTRUSTED) && p->btf)
		return access_local(v, s, pc, reg, p, off, size, out, sign);
	/* check_ptr_to_btf_access(): kernel objects only from GPL-compatible
	 * programs (6.2 on), before any other rule of the access (program-local
	 * objects, above, are exempt) */
	if (kf_has(v, BG_KF_BTF_GPL) && !prog_license_gpl(v))
		return verr(v, s, pc, "gpl", "Cannot access kernel 'struct %s' from non-GPL compatible program",
			    p->btf ? p->btf : "?");
	if (write && !(p->flags & RF_UNTRUSTED) && bg_scalar_is_const(&p->v, &at) &&
	    btf_stops_writable(v->prog, p->btf, (int64_t)at + off, size, v->prof->version))
		return 0; /* a field the struct_ops type lets its programs write */
	if (write && !(p->flags & RF_UNTRUSTED) && bg_scalar_is_const(&p->v, &at)) {
		/* a field the program type's access callback lets it write */
		char why[160];
		int w = btf_prog_writable(v->prog, p->btf, (int64_t)at + off, size, why, sizeof(why));
		if (w == 1)
			return 0;
		if (w == 0)
			return verr(v, s, pc, "btf_write", "%s", why);
	}
	if (write)
		return verr(v, s, pc, "btf_write", "only read is supported: R%d is %s%s", reg,
			    as_type_name(p->type, 0), p->btf ? p->btf : "");
	if (p->v.smin + off < 0)
		return verr(v, s, pc, "btf_bounds", "R%d is ptr_%s invalid negative access: off=%" PRId64,
			    reg, p->btf ? p->btf : "?", p->v.smin + off);
	uint64_t c;
	char why[240];
	int wc = p->btf && bg_scalar_is_const(&p->v, &c)
		     ? btf_field_check(v->prog, p->btf, (int)(c + (uint64_t)(int64_t)off), size, why, sizeof(why))
		     : 0;
	/* btf_struct_walk: a partial read of a pointer member always, a read
	 * past a scalar member's end unless the pointer is PTR_UNTRUSTED */
	if (wc == 2 || (wc == 1 && !(p->flags & RF_UNTRUSTED)))
		return verr(v, s, pc, "btf_bounds", "%s", why);
	if (!out)
		return 0;
	const char *tn = NULL;
	bool isp = false;
	bool known = p->btf && bg_scalar_is_const(&p->v, &c) &&
		     btf_field_load(v->prog, p->btf, (int)(c + (uint64_t)(int64_t)off), size, &tn, &isp);
	if (known && !isp) {
		as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
	} else if (size == 8) {
		walked_ptr(out, tn);
		if (known)
			walked_trust(v, s, pc, p, off, out);
	} else {
		as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
	}
	return 0;
}

/* check_ptr_to_map_access: a map pointer reads as the kernel struct of its
 * map type (struct bpf_array for an array, ...), at a non-negative offset,
 * read only; the field walk is the BTF pointer's. */
static int access_map_ptr(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct as_reg *p,
			  int off, int size, bool write, struct as_reg *out, bool sign)
{
	const struct bg_map_def *m = p->map >= 0 ? bg_object__map(v->obj, (size_t)p->map) : NULL;
	const char *sn = m ? bg_map_kernel_struct(m->type) : NULL;
	uint64_t c = 0;

	if (!sn)
		return verr(v, s, pc, "map_ptr", "map_ptr access not supported for map type %u",
			    m ? m->type : 0);
	if (!v->priv)
		return verr(v, s, pc, "map_ptr",
			    "'struct %s' access is allowed only to CAP_PERFMON and CAP_SYS_ADMIN", sn);
	bool known = bg_scalar_is_const(&p->v, &c);
	if (p->v.smin + off < 0)
		return verr(v, s, pc, "map_ptr", "R%d is %s invalid negative access: off=%" PRId64, reg, sn,
			    p->v.smin + off);
	if (write)
		return verr(v, s, pc, "map_ptr", "only read from %s is supported", sn);
	/* the kernel reads it through btf_struct_access: a partial read of a
	 * pointer member or a read past a scalar member's end is refused */
	char why[240];
	if (known && btf_field_check(v->prog, sn, (int)(c + (uint64_t)(int64_t)off), size, why, sizeof(why)))
		return verr(v, s, pc, "btf_bounds", "%s", why);
	if (!out)
		return 0;
	const char *tn = NULL;
	bool isp = false;
	bool walked = known && btf_field_load(v->prog, sn, (int)(c + (uint64_t)(int64_t)off), size, &tn, &isp);
	if (walked && isp && size == 8) {
		walked_ptr(out, tn);
	} else {
		as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
	}
	return 0;
}

static int access_sock(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct as_reg *p,
		       int off, int size, bool write, struct as_reg *out, bool sign)
{
	if (write)
		return verr(v, s, pc, "sock_write", "cannot write into %s", as_type_name(p->type, 0));
	if (bounded_region(v, s, pc, reg, p, off, size, rg(p->type)->size, as_type_name(p->type, 0),
			   "sock_access", true))
		return -1;
	/* check_sock_access: the uapi struct's per-field rules */
	uint64_t c;
	enum bg_sock_kind k = p->type == T_TCP_SOCK ? BG_SOCK_TCP
			      : p->type == T_SOCK_COMMON ? BG_SOCK_COMMON : BG_SOCK_FULL;
	if (bg_scalar_is_const(&p->v, &c) && !bg_sock_access_ok(k, (int64_t)c + off, size))
		return verr(v, s, pc, "sock_access", "R%d invalid %s access off=%" PRId64 " size=%d", reg,
			    as_type_name(p->type, 0), (int64_t)c + off, size);
	if (out)
		as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
	return 0;
}

/* --------------------------------------------------------------- memory */

int check_align(struct vctx *v, struct as_state *s, size_t pc, int reg, int off, int size, bool strict)
{
	const struct as_reg *p = R(s, reg);
	const struct region *d = rg(p->type);
	if (!d->align || (p->flags & RF_NULL))
		return 0;
	if (d->flags & RG_ALIGN_ALWAYS)
		strict = true;
	if (!strict || size <= 1)
		return 0;
	int ip = (d->flags & RG_ALIGN_IP) ? 2 : 0;
	struct bg_tnum t = bg_tnum_add(p->v.tn, bg_tnum_const((uint64_t)(int64_t)(off + ip)));
	if (!((t.value | t.mask) & (uint64_t)(size - 1)))
		return 0;
	/* the kernel prints var_off + the constant offset + the insn's offset */
	char tn[64];
	uint64_t c;
	if (bg_scalar_is_const(&p->v, &c)) {
		snprintf(tn, sizeof(tn), "0+%" PRId64, (int64_t)c);
	} else {
		bg_tnum_fmt(p->v.tn, tn, sizeof(tn));
		strncat(tn, "+0", sizeof(tn) - strlen(tn) - 1);
	}
	if (ip)
		return verr(v, s, pc, "align", "misaligned %saccess off %d+%s+%d size %d", d->align, ip, tn,
			    off, size);
	return verr(v, s, pc, "align", "misaligned %saccess off %s+%d size %d", d->align, tn, off, size);
}

int check_mem(struct vctx *v, struct as_state *s, size_t pc, int reg, int off, int size, bool write,
	      const struct as_reg *val, struct as_reg *out, bool sign)
{
	char buf[200];
	if (check_reg_init(v, s, pc, reg))
		return -1;
	struct as_reg p = *R(s, reg);
	if (p.flags & RF_NULL) {
		fmt_reg(v, s, reg, buf, sizeof(buf));
		return verr(v, s, pc, "null_deref", "R%d invalid mem access '%s': NULL check missing: %s", reg,
			    as_type_name(p.type, p.flags), buf);
	}
	if (check_align(v, s, pc, reg, off, size, false))
		return -1;
	const struct region *d = rg(p.type);
	switch (d->access) {
	case ACC_STACK:
		return access_stack(v, s, pc, reg, &p, off, size, write, val, out, sign);
	case ACC_CTX:
		return access_ctx(v, s, pc, reg, &p, off, size, write, out, sign);
	case ACC_PKT:
		return access_pkt(v, s, pc, reg, &p, off, size, write, out, sign);
	case ACC_MAP:
		return access_map(v, s, pc, reg, &p, off, size, write, val, out, sign);
	case ACC_MEM:
		return access_mem(v, s, pc, reg, &p, off, size, write, out, sign);
	case ACC_FLOW_KEYS:
		return access_flow_keys(v, s, pc, reg, &p, off, size, out, sign);
	case ACC_BTF:
		return access_btf(v, s, pc, reg, &p, off, size, write, out, sign);
	case ACC_SOCK:
		return access_sock(v, s, pc, reg, &p, off, size, write, out, sign);
	case ACC_MAP_PTR:
		return access_map_ptr(v, s, pc, reg, &p, off, size, write, out, sign);
	case ACC_ARENA:
		if (out)
			as_reg_scalar(out, bg_scalar_load((uint8_t)size, sign));
		return 0;
	case ACC_BUF:
		return access_buf(v, s, pc, reg, &p, off, size, write, out, sign);
	default:
		fmt_reg(v, s, reg, buf, sizeof(buf));
		return verr(v, s, pc, "bad_mem", "R%d invalid mem access '%s': %s", reg,
			    as_type_name(p.type, p.flags), buf);
	}
}

int check_mem_range(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct bg_scalar *size,
		    bool write, bool zero_ok, const char *what)
{
	char buf[200];
	struct as_reg *p = R(s, reg);
	if (size->umax == 0) {
		if (!zero_ok)
			return verr(v, s, pc, "helper_arg", "R%d invalid zero-sized %s", reg, what);
		/* even an empty range must start inside the stack and end at
		 * its top at most (the kernel's check_stack_access_within_bounds:
		 * first byte in [-512, -1], end <= 0, over the whole variable part) */
		if (p->type == T_STACK && !(p->flags & RF_NULL) &&
		    (p->v.smin < -AS_STACK_SIZE || p->v.smin > -1 || p->v.smax > 0)) {
			fmt_reg(v, s, reg, buf, sizeof(buf));
			return verr(v, s, pc, "stack_bounds",
				    "invalid indirect access to stack R%d off=[%" PRId64 ", %" PRId64 "] size=0: %s (%s)", reg,
				    p->v.smin, p->v.smax, buf, what);
		}
		/* so must an empty range in a map value, a memory region or the
		 * packet: its offsets within [0, size] (check_mem_region_access /
		 * check_packet_access with size 0: off + 0 <= size) */
		enum rg_access acc = rg(p->type)->access;
		if (!(p->flags & RF_NULL) && (acc == ACC_MAP || acc == ACC_MEM || acc == ACC_PKT))
			return check_mem(v, s, pc, reg, 0, 0, write, NULL, NULL, false);
		return 0;
	}
	if (size->umin == 0 && !zero_ok)
		return verr(v, s, pc, "helper_arg", "R%d invalid zero-sized read: size may be 0 (%s)", reg + 1,
			    what);
	if (size->umax >= (1u << 29)) {
		char sb[160];
		bg_scalar_fmt(size, sb, sizeof(sb));
		return verr(v, s, pc, "helper_arg",
			    "R%d unbounded memory access, use 'var &= const' or 'if (var < const)': size = %s",
			    reg + 1, sb);
	}
	int sz = (int)size->umax;
	if (p->type == T_STACK && !(p->flags & RF_NULL)) {
		int64_t lo = p->v.smin, hi = p->v.smax + sz;
		if (lo < -AS_STACK_SIZE || hi > 0) {
			fmt_reg(v, s, reg, buf, sizeof(buf));
			return verr(v, s, pc, "stack_bounds",
				    "invalid indirect access to stack R%d off=%" PRId64 " size=%d: %s (%s)", reg, lo, sz,
				    buf, what);
		}
		note_stack_depth(v, s, p->frame, lo);
		fastcall_access(v, s, pc, p->frame, lo);
		struct as_frame *f = &s->fr[p->frame];
		/* the slots present in the range, from the lowest address (the
		 * highest index): a slot holds [-8*(idx+1), -8*idx), o is the
		 * range's first byte in it */
		int ihi = (int)((-lo - 1) / 8), ilo = (int)(-hi / 8);
		for (uint32_t k = as_slot_lower(f, ihi + 1); k-- > 0 && f->slots[k].idx >= ilo;) {
			/* a helper neither reads a dynptr or iterator as bytes nor
			 * writes over one (the kernel's check_stack_range_initialized) */
			const struct as_slot *sl = &f->slots[k];
			if (sl->kind != SK_DYNPTR && sl->kind != SK_ITER && sl->kind != SK_OBJ_TAIL && sl->kind != SK_IRQ)
				continue;
			int64_t o = -8 * ((int64_t)sl->idx + 1) > lo ? -8 * ((int64_t)sl->idx + 1) : lo;
			if (write && sl->kind != SK_ITER)
				return verr(v, s, pc, "stack_obj", "potential write to dynptr at off=%" PRId64 " disallowed (%s)",
					    o, what);
			if (!write)
				return verr(v, s, pc, "stack_obj",
					    "invalid read from stack R%d off %" PRId64 "+0 size %d: the slot at %d holds %s (%s)",
					    reg, lo, sz, -8 * (sl->idx + 1), slot_obj_name(sl->kind), what);
		}
		if (write) {
			return stack_write_bytes(v, f, (int)lo, (int)(hi - lo), false) ? -1 : 0;
		}
		if (!uninit_read_ok(v, f, lo)) {
			const struct as_slot *sl = NULL;
			for (int64_t o = lo; o < hi; o++) {
				int idx = (int)((-o - 1) / 8);
				if (o == lo || o == -8 * (idx + 1))
					sl = as_slot_find(f, idx); /* first byte here of a slot */
				int byte = (int)(o + 8 * (idx + 1));
				bool ok = sl && ((sl->init >> byte) & 1);
				if (!ok)
					return verr(v, s, pc, "stack_uninit",
						    "invalid indirect read from stack R%d off %" PRId64 "+0 size %d (%s)",
						    reg, o, sz, what);
			}
		}
		return 0;
	}
	/* other regions: check the first and last byte through check_mem */
	int last = sz - 1;
	if (check_mem(v, s, pc, reg, 0, 1, write, NULL, NULL, false))
		return -1;
	return check_mem(v, s, pc, reg, last, 1, write, NULL, NULL, false);
}

/* ------------------------------------------------------- loads/stores */

static int xfer_ldx(struct vctx *v, struct as_state *s, size_t pc, const struct bg_insn *in)
{
	struct as_reg out;
	as_reg_unknown(&out);
	if (check_mem(v, s, pc, in->src, in->off, in->size, false, NULL, &out, in->is_signed))
		return -1;
	*R(s, in->dst) = out;
	return 0;
}

/* A scalar register spilled to the start of a stack slot links with the
 * slot's copy as a move does, when its value fits the spill (the kernel's
 * check_stack_write_fixed_off: assign_scalar_id_before_mov, privileged
 * only); a narrowing spill breaks the link. A register linked with a
 * constant delta starts a new link (the kernel keeps one delta per link). */
static void spill_link(struct vctx *v, struct as_state *s, size_t pc, const struct bg_insn *in,
		       struct as_reg *val)
{
	struct as_reg *src = R(s, in->src);
	struct as_reg *p = R(s, in->dst);
	uint64_t c;
	if (src->type != T_SCALAR || p->type != T_STACK || (p->flags & RF_NULL) ||
	    !bg_scalar_is_const(&p->v, &c) || ((int64_t)c + in->off) % 8 != 0)
		return;
	if (!v->priv || scalar_width(&src->v) > 8 * in->size) {
		val->id = 0;
		val->delta = 0;
		val->flags &= (uint8_t)~RF_LINK32;
		return;
	}
	if (!kf_has(v, BG_KF_SPILL_LINK)) {
		/* before 6.9 the spill copies the register, id included, but
		 * gives none, and an unbounded scalar spills as unknown data */
		struct bg_scalar u = bg_scalar_unknown();
		if (bg_scalar_eq(&src->v, &u)) {
			val->id = 0;
			val->delta = 0;
			val->flags &= (uint8_t)~RF_LINK32;
		}
		return;
	}
	unlink_added(src);
	if (!src->id && !bg_scalar_is_const(&src->v, &c)) {
		uint32_t id = vid(v, pc, 1);
		release_id(s, id);
		src->id = id;
	}
	val->id = src->id;
	val->delta = src->delta;
	val->flags = src->flags;
}

static int xfer_st(struct vctx *v, struct as_state *s, size_t pc, const struct bg_insn *in)
{
	struct as_reg val;
	if (in->kind == BG_K_STX) {
		val = *R(s, in->src);
		spill_link(v, s, pc, in, &val);
	} else {
		as_reg_const(&val, (uint64_t)(int64_t)in->imm);
	}
	if (val.type == T_SCALAR && in->size < 8)
		val.v = bg_scalar_cast(&val.v, in->size, false);
	return check_mem(v, s, pc, in->dst, in->off, in->size, true, &val, NULL, false);
}

static int xfer_atomic(struct vctx *v, struct as_state *s, size_t pc, const struct bg_insn *in)
{
	uint16_t aop = in->atomic_op;
	/* atomics are aligned even where plain accesses need not be (the
	 * kernel's strict_alignment_once for every BPF_ATOMIC) */
	if (check_align(v, s, pc, aop == BG_ATOMIC_LOAD_ACQ ? in->src : in->dst, in->off, in->size, true))
		return -1;
	if (aop == BG_ATOMIC_LOAD_ACQ) {
		struct as_reg out;
		if (check_mem(v, s, pc, in->src, in->off, in->size, false, NULL, &out, false))
			return -1;
		*R(s, in->dst) = out;
		return 0;
	}
	if (aop == BG_ATOMIC_STORE_REL) {
		/* A_ATOMIC_REL_REGION: check_atomic_store judges the region after the store */
		struct as_reg val = *R(s, in->src);
		uint8_t t = R(s, in->dst)->type;
		if (check_mem(v, s, pc, in->dst, in->off, in->size, true, &val, NULL, false))
			return -1;
		if (rg_has(t, RG_NO_ATOMIC))
			return verr(v, s, pc, "atomic", "BPF_ATOMIC stores into R%d %s is not allowed", in->dst,
				    as_type_name(t, 0));
		return 0;
	}
	struct as_reg old;
	if (check_mem(v, s, pc, in->dst, in->off, in->size, false, NULL, &old, false))
		return -1;
	struct as_reg unk;
	as_reg_scalar(&unk, bg_scalar_load(in->size, false));
	if (check_mem(v, s, pc, in->dst, in->off, in->size, true, &unk, NULL, false))
		return -1;
	if (aop == BG_ATOMIC_CMPXCHG)
		as_reg_scalar(R(s, 0), bg_scalar_load(in->size, false));
	else if (aop & BG_ATOMIC_FETCH)
		as_reg_scalar(R(s, in->src), bg_scalar_load(in->size, false));
	return 0;
}

/* Is VAR id of the kernel BTF a percpu variable (in the ".data..percpu"
 * DATASEC: check_pseudo_btf_id's percpu test)? */
static bool ksym_percpu(struct vctx *v, const struct btf *kb, uint32_t id)
{
	if (!v->pcpu_sec) /* the lookup is linear in the kernel BTF: once */
		v->pcpu_sec = btf__find_by_name_kind(kb, ".data..percpu", BTF_KIND_DATASEC);
	const struct btf_type *t = v->pcpu_sec > 0 ? btf__type_by_id(kb, (uint32_t)v->pcpu_sec) : NULL;
	if (!t)
		return false;
	const struct btf_var_secinfo *vs = btf_var_secinfos(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++, vs++)
		if (vs->type == id)
			return true;
	return false;
}

static int xfer_ld_imm64(struct vctx *v, struct as_state *s, size_t pc, const struct bg_insn *in)
{
	struct as_reg *d = R(s, in->dst);
	as_reg_uninit(d);
	switch (in->pseudo) {
	case BG_PSEUDO_NONE:
		as_reg_const(d, in->imm64);
		return 0;
	case BG_PSEUDO_MAP_IDX:
	case BG_PSEUDO_MAP_FD:
		d->type = T_MAP_PTR;
		d->map = in->imm;
		d->v = bg_scalar_const(0);
		return 0;
	case BG_PSEUDO_MAP_IDX_VALUE:
	case BG_PSEUDO_MAP_VALUE: {
		uint32_t off = (uint32_t)(in->imm64 >> 32);
		d->type = T_MAP_VALUE;
		d->map = in->imm;
		d->v = bg_scalar_const(off);
		if (map_readonly(v, in->imm))
			d->flags |= RF_RDONLY;
		return 0;
	}
	case BG_PSEUDO_FUNC:
		d->type = T_FUNC;
		d->map = (int32_t)(pc + 1 + (int64_t)in->imm);
		d->v = bg_scalar_const(0);
		return 0;
	case BG_PSEUDO_BTF_ID: {
		/* check_pseudo_btf_id: a FUNC (bpf_ksym_exists of a kfunc) is
		 * read-only memory of size 0 */
		const struct btf *kb = bg_object__target_btf(v->obj);
		const struct btf_type *kt = kb ? btf__type_by_id(kb, (uint32_t)in->imm) : NULL;

		d->v = bg_scalar_const(0);
		if (kt && btf_is_var(kt) && ksym_percpu(v, kb, (uint32_t)in->imm)) {
			/* a percpu variable (PTR_TO_BTF_ID | MEM_PERCPU): only
			 * bpf_per_cpu_ptr / bpf_this_cpu_ptr take it */
			uint32_t tid = kt->type;
			const struct btf_type *vt = btf__type_by_id(kb, tid);
			while (vt && (btf_is_typedef(vt) || btf_is_mod(vt)))
				vt = btf__type_by_id(kb, vt->type);
			int64_t sz = btf__resolve_size(kb, tid);
			d->type = T_BTF_ID;
			d->flags = RF_PERCPU | RF_PLAIN;
			d->btf = vt && btf_is_struct(vt) ? btf__name_by_offset(kb, vt->name_off) : NULL;
			d->size = sz > 0 && sz < (1 << 29) ? (uint32_t)sz : 0;
			return 0;
		}
		d->type = T_MEM;
		d->size = kt && btf_is_func(kt) ? 0 : 8;
		d->flags = RF_RDONLY;
		return 0;
	}
	default:
		return 0; /* refused by its assertion (A_VALID_INSN) */
	}
}

static int xfer_ld_abs(struct vctx *v, struct as_state *s, size_t pc, const struct bg_insn *in)
{
	(void)v;
	(void)pc;
	for (int i = 1; i <= 5; i++)
		as_reg_uninit(R(s, i));
	as_reg_scalar(R(s, 0), bg_scalar_load(in->size, false));
	return 0;
}

static int xfer_end(struct vctx *v, struct as_state *s, size_t pc, const struct bg_insn *in)
{
	(void)v;
	(void)pc;
	struct as_reg *d = R(s, in->dst);
	if (d->type != T_SCALAR) {
		as_reg_unknown(d); /* a pointer, privileged (rule_scalar): an unknown number */
		return 0;
	}
	bool swap = in->alu64 || (in->code & 0x08); /* bswap, or to_be on this little-endian host */
	struct bg_scalar r = bg_scalar_end(&d->v, in->ext_bits, swap);
	as_reg_scalar(d, r);
	return 0;
}

static int xfer_addr_cast(struct vctx *v, struct as_state *s, size_t pc, const struct bg_insn *in)
{
	(void)v;
	(void)pc;
	struct as_reg *d = R(s, in->dst);
	uint32_t dst_as = (uint32_t)in->imm >> 16;
	if (dst_as == 0) {
		as_reg_scalar(d, bg_scalar_urange(0, UINT32_MAX));
	} else {
		as_reg_uninit(d);
		d->type = T_ARENA;
		d->v = bg_scalar_const(0);
	}
	return 0;
}

int xfer_insn(struct vctx *v, struct as_state *s, size_t pc)
{
	const struct bg_insn *in = &v->insns[pc];
	switch (in->kind) {
	case BG_K_ALU:
		return xfer_alu(v, s, pc, in);
	case BG_K_END:
		return xfer_end(v, s, pc, in);
	case BG_K_ADDR_CAST:
		return xfer_addr_cast(v, s, pc, in);
	case BG_K_LD_IMM64:
		return xfer_ld_imm64(v, s, pc, in);
	case BG_K_LD_IMM64_HI:
		return 0;
	case BG_K_LD_ABS:
	case BG_K_LD_IND:
		return xfer_ld_abs(v, s, pc, in);
	case BG_K_LDX:
		return xfer_ldx(v, s, pc, in);
	case BG_K_ST:
	case BG_K_STX:
		return xfer_st(v, s, pc, in);
	case BG_K_ATOMIC:
		return xfer_atomic(v, s, pc, in);
	default:
		/* jumps and exit have no effect here; callx and invalid
		 * instructions are refused by their assertion (A_VALID_INSN) */
		return 0;
	}
}

/* ---------------------------------------------------------- branches */

/* The kernel's reg_not_null(): only for these does it decide a comparison
 * with 0. ctx, stack and packet pointers are never NULL at run time, but the
 * kernel still explores the "== 0" outcome (and rejects what is wrong
 * there), so must we; pointers walked from BTF pointers and the arguments of
 * fentry/fexit programs (not trusted) may really be NULL. */
static bool ptr_not_null(const struct as_reg *r)
{
	if (rg_has(r->type, RG_NOT_NULL))
		return true;
	if (rg_has(r->type, RG_NOT_NULL_TRUSTED)) /* is_trusted_reg: not RCU, plain, untrusted */
		return as_btf_trust(r) == AS_TRUST_TRUSTED;
	return false;
}

struct null_arg {
	bool is_null;
	struct as_state *s;
};

static void null_mark(struct as_reg *r, void *p)
{
	struct null_arg *a = p;
	if (!(r->flags & RF_NULL))
		return;
	if (a->is_null) {
		as_reg_const(r, 0);
	} else {
		r->flags &= (uint8_t)~RF_NULL;
	}
}

static int null_refine(struct vctx *v, struct as_state *s, int reg, bool is_null)
{
	(void)v;
	struct as_reg *r = R(s, reg);
	/* a dynptr slice carries its ringbuf dynptr's reference, which a NULL
	 * slice does not release (the kernel releases only when ref_obj_id == id) */
	uint32_t id = r->id, ref = r->dynptr ? 0 : r->ref;
	struct null_arg a = { .is_null = is_null, .s = s };
	if (id)
		mark_regs_id(s, id, null_mark, &a);
	else
		null_mark(r, &a);
	/* mark_ptr_or_null_regs: NULL drops the reference only of the pointer
	 * that acquired it (ref_obj_id == id), not of one derived from it
	 * (bpf_sk_fullsock / bpf_tcp_sock of a referenced socket) */
	if (is_null && ref && ref == id)
		as_ref_del(s, ref);
	return 0;
}

static uint8_t swap_op(uint8_t op)
{
	switch (op) {
	case BG_JMP_JGT: return BG_JMP_JLT;
	case BG_JMP_JLT: return BG_JMP_JGT;
	case BG_JMP_JGE: return BG_JMP_JLE;
	case BG_JMP_JLE: return BG_JMP_JGE;
	case BG_JMP_JSGT: return BG_JMP_JSLT;
	case BG_JMP_JSLT: return BG_JMP_JSGT;
	case BG_JMP_JSGE: return BG_JMP_JSLE;
	case BG_JMP_JSLE: return BG_JMP_JSGE;
	default: return op;
	}
}

static uint8_t negate_op(uint8_t op)
{
	switch (op) {
	case BG_JMP_JGT: return BG_JMP_JLE;
	case BG_JMP_JLE: return BG_JMP_JGT;
	case BG_JMP_JGE: return BG_JMP_JLT;
	case BG_JMP_JLT: return BG_JMP_JGE;
	case BG_JMP_JEQ: return BG_JMP_JNE;
	case BG_JMP_JNE: return BG_JMP_JEQ;
	default: return 0xff;
	}
}

/* p <rel> end holds on this edge (p packet-like, e its end) */
static void pkt_refine(struct as_state *s, const struct as_reg *p, uint8_t rel)
{
	if (p->id == LOST_BASE || p->delta <= 0 || p->delta > MAX_PACKET_OFF)
		return;
	if (p->id != 0 && p->v.umax > MAX_PACKET_OFF)
		return;
	uint32_t range;
	if (rel == BG_JMP_JLE)
		range = (uint32_t)p->delta;
	else if (rel == BG_JMP_JLT)
		range = (uint32_t)p->delta + 1;
	else
		return;
	bg_zone_learn(&s->zone, p->id, p->type == T_PKT_META, range);
}

static bool is_end_of(const struct as_reg *p, const struct as_reg *e)
{
	if (p->type == T_PKT && e->type == T_PKT_END)
		return true;
	/* data_meta + n <= data: the end of a meta pointer is the packet start */
	uint64_t c;
	return p->type == T_PKT_META && e->type == T_PKT && e->id == 0 && bg_scalar_is_const(&e->v, &c) &&
	       c == 0;
}

struct eq_arg {
	uint32_t id;
	int32_t delta;
	bool link32;
	struct bg_scalar v;
	const struct as_reg *src;
};

/* A register linked to the refined one (same id): its value is the refined
 * value shifted by the delta difference, met with what it knew. */
static void eq_set(struct as_reg *r, void *p)
{
	struct eq_arg *a = p;
	if (r->type != T_SCALAR || r->id != a->id || r == a->src)
		return;
	if (r->delta == a->delta) {
		struct bg_scalar m = bg_scalar_meet(&r->v, &a->v);
		if (!m.bottom)
			r->v = m;
		return;
	}
	bool w32 = a->link32 || (r->flags & RF_LINK32);
	if (w32 && (r->v.umax > UINT32_MAX || a->v.umax > UINT32_MAX))
		return;
	struct bg_scalar k = bg_scalar_const((uint64_t)((int64_t)r->delta - a->delta));
	struct bg_scalar shifted = bg_scalar_alu(BG_ALU_ADD, !w32, false, 0, &a->v, &k);
	struct bg_scalar m = bg_scalar_meet(&r->v, &shifted);
	if (!m.bottom)
		r->v = m;
}

/* Is x one value at the jump's width (the kernel's tnum_is_const of the
 * register or of its subregister)? */
static bool const_at(const struct bg_scalar *x, bool alu64, uint64_t *k)
{
	if (alu64)
		return bg_scalar_is_const(x, k);
	*k = x->u32min;
	return !x->bottom && x->u32min == x->u32max;
}

/* The decision c (-1: both edges) of a comparison of two scalars by a
 * verifier older than 6.8 (profile without BG_KF_BRANCH_RANGES): only a
 * constant operand decides (the source; from 6.4, BG_KF_BRANCH_CONST_DST,
 * either), by the other's ranges; ==/!= only when both are constants (from
 * 6.4, BG_KF_BRANCH_JEQ_RANGE, also a constant outside the other's unsigned
 * range). Two non-constant operands refine nothing but 64-bit ==/!= (its
 * reg_combine_min_max): *refine is cleared otherwise. */
static int legacy_branch(const struct vctx *v, const struct bg_insn *in, const struct bg_scalar *d,
			 const struct bg_scalar *s, int c, bool *refine)
{
	uint64_t kd, ks;
	bool dk = const_at(d, in->alu64, &kd), sk = const_at(s, in->alu64, &ks);
	bool eqne = in->op == BG_JMP_JEQ || in->op == BG_JMP_JNE;
	if (kf_has(v, BG_KF_BRANCH_RANGES))
		return c;
	if (!dk && !sk) {
		*refine = in->alu64 && eqne;
		return -1;
	}
	if (!sk && !kf_has(v, BG_KF_BRANCH_CONST_DST))
		return -1;
	if (!eqne || (dk && sk))
		return c;
	if (!kf_has(v, BG_KF_BRANCH_JEQ_RANGE))
		return -1;
	const struct bg_scalar *o = sk ? d : s;
	uint64_t k = sk ? ks : kd;
	uint64_t lo = in->alu64 ? o->umin : o->u32min, hi = in->alu64 ? o->umax : o->u32max;
	if (k < lo || k > hi)
		return in->op == BG_JMP_JNE;
	return -1;
}

static int scalar_branch(struct vctx *v, struct as_state *s, size_t pc, const struct bg_insn *in,
			 bool taken, bool *dead)
{
	struct as_reg *d = R(s, in->dst);
	struct as_reg tmp, *sr = &tmp;
	if (in->src_is_reg) {
		sr = R(s, in->src);
	} else {
		as_reg_const(&tmp, in->alu64 ? (uint64_t)(int64_t)in->imm : (uint64_t)(uint32_t)in->imm);
		if (!in->alu64)
			tmp.v = bg_scalar_const((uint64_t)(int64_t)in->imm);
	}
	/* the outcome decided in advance only for an older verifier (legacy_branch):
	 * otherwise an impossible outcome is the refinement's empty result, which
	 * is what bg_scalar_cmp_kernel would compute (by two more refinements) */
	int c = -1;
	bool refine = true;
	if (!kf_has(v, BG_KF_BRANCH_RANGES | BG_KF_BRANCH_JEQ_RANGE | BG_KF_BRANCH_CONST_DST)) {
		c = bg_scalar_cmp_kernel(in->op, in->alu64, &d->v, &sr->v);
		c = legacy_branch(v, in, &d->v, &sr->v, c, &refine);
	}
	if (c >= 0 && (c == 1) != taken) {
		*dead = true;
		return 0;
	}
	struct bg_scalar dv = d->v, sv = sr->v;
	if (refine && !bg_scalar_refine_kernel(in->op, in->alu64, taken, &dv, &sv)) {
		if (c >= 0 ||
		    kf_has(v, BG_KF_BRANCH_RANGES | BG_KF_BRANCH_JEQ_RANGE | BG_KF_BRANCH_CONST_DST)) {
			*dead = true;
			return 0;
		}
		/* an older verifier that cannot decide the jump walks this
		 * edge, its reg_set_min_max applying the constant's bound to
		 * the other register even where the two cross (umin > umax):
		 * its later checks see the new bound, so does this state (the
		 * bound met with an unknown value; `if r == K` makes r K) */
		struct bg_scalar u = bg_scalar_unknown(), d2, s2;
		uint64_t k;
		d2 = d->v, s2 = sr->v;
		if (const_at(&s2, in->alu64, &k))
			d2 = u;
		else if (const_at(&d2, in->alu64, &k))
			s2 = u;
		if (bg_scalar_refine_kernel(in->op, in->alu64, taken, &d2, &s2)) {
			dv = d2, sv = s2;
		} else {
			dv = d->v, sv = sr->v;
		}
	}
	d->v = dv;
	if (in->src_is_reg && in->src != in->dst)
		sr->v = sv;
	if (d->id) {
		struct eq_arg a = { .id = d->id, .delta = d->delta, .link32 = d->flags & RF_LINK32,
				    .v = d->v, .src = d };
		for_each_reg_id(s, a.id, eq_set, &a);
	}
	if (in->src_is_reg && sr->id && sr->id != d->id) {
		struct eq_arg a = { .id = sr->id, .delta = sr->delta, .link32 = sr->flags & RF_LINK32,
				    .v = sr->v, .src = sr };
		for_each_reg_id(s, a.id, eq_set, &a);
	}
	if (s->nres)
		call_res_branch(s, in, taken, d);
	(void)v;
	(void)pc;
	return 0;
}

int xfer_branch(struct vctx *v, struct as_state *s, size_t pc, bool taken, bool *dead)
{
	const struct bg_insn *in = &v->insns[pc];
	*dead = false;
	if (in->kind == BG_K_MAY_GOTO || in->kind == BG_K_JA)
		return 0;
	struct as_reg *d = R(s, in->dst);
	struct as_reg zero, *sr = &zero;
	if (in->src_is_reg)
		sr = R(s, in->src);
	else
		as_reg_const(&zero, (uint64_t)(int64_t)in->imm);
	if (d->type == T_SCALAR && sr->type == T_SCALAR)
		return scalar_branch(v, s, pc, in, taken, dead);
	uint8_t op = in->op;
	/* NULL checks: ptr ==/!= 0 */
	bool eqne = op == BG_JMP_JEQ || op == BG_JMP_JNE;
	const struct as_reg *ptr = NULL, *other = NULL;
	int preg = -1;
	if (as_reg_is_ptr(d) && sr->type == T_SCALAR) {
		ptr = d;
		other = sr;
		preg = in->dst;
	} else if (as_reg_is_ptr(sr) && d->type == T_SCALAR) {
		ptr = sr;
		other = d;
		preg = in->src;
	}
	if (ptr && eqne && in->alu64) {
		uint64_t c;
		if (bg_scalar_is_const(&other->v, &c) && c == 0) {
			bool eq_holds = (op == BG_JMP_JEQ) == taken;
			/* the kernel refines a maybe-NULL pointer only on the
			 * immediate form `if rX == 0` (check_cond_jmp_op: BPF_K,
			 * the pointer in dst); against a register holding 0 it
			 * stays maybe-NULL on both branches */
			if (ptr->flags & RF_NULL)
				return in->src_is_reg ? 0 : null_refine(v, s, preg, eq_holds);
			if (eq_holds && ptr_not_null(ptr))
				*dead = true; /* a non-NULL pointer is never 0 */
			return 0;
		}
	}
	if (ptr || !in->alu64)
		return 0;
	/* two pointers, one maybe NULL and the other not, neither a BTF
	 * pointer: where they are equal the first is not NULL either (only
	 * that register, as mark_ptr_not_null_reg) */
	if (eqne && in->src_is_reg && kf_has(v, BG_KF_PTR_EQ_NOT_NULL) && as_reg_is_ptr(d) && as_reg_is_ptr(sr) &&
	    !(d->flags & RF_NULL) != !(sr->flags & RF_NULL) && d->type != T_BTF_ID && sr->type != T_BTF_ID) {
		if ((op == BG_JMP_JEQ) == taken) {
			struct as_reg *n = (d->flags & RF_NULL) ? d : sr;
			n->flags &= (uint8_t)~RF_NULL;
		}
		return 0;
	}
	/* packet pointer vs its end */
	uint8_t rel = taken ? op : negate_op(op);
	if (rel == 0xff)
		return 0;
	if (is_end_of(d, sr))
		pkt_refine(s, d, rel);
	else if (is_end_of(sr, d))
		pkt_refine(s, sr, swap_op(rel));
	return 0;
}
