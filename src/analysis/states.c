/* The analysis' claims per instruction (bg_verify_states, verifier.h).
 *
 * An observer of the fixpoint engine (verify_observed) converts every state
 * stepped through into the public form: the current frame's registers
 * (struct bg_astate) and the stack slots of every frame that claim something
 * (known-zero bytes or a spilled register: struct bg_aslot, kept in one pool).
 * Per instruction it keeps the distinct ones (an FNV hash per stored state
 * makes the duplicate test cheap). Invariants: stored structs have zeroed
 * padding (they are hashed and compared as bytes); an instruction holds at
 * most max_per_insn states, later ones are joined into a stored one (whose
 * stack claims are then dropped), so the union of an instruction's states
 * only grows and still covers every state the analysis visited there.
 * Cost: per analysis step one conversion + hash of ~1 KiB plus the stack
 * claims, and a compare against the instruction's states (<= max_per_insn);
 * memory O(distinct states). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfgate/verifier.h>
#include "analysis/state.h"
#include "analysis/vctx.h"
#include "domain/scalar.h"
#include "core/opts.h"

#define LOST_BASE 0xffffffffu
#define DEFAULT_PER_INSN 64


struct vs_slot {
	uint32_t n, cap;
	struct bg_astate *st;
	uint64_t *h;
	uint32_t *soff, *sn; /* stack claims of state i: pool[soff[i] .. + sn[i]) */
};

struct bg_verify_states {
	struct bg_verify_result res;
	size_t ninsn;
	struct vs_slot *at;
	size_t max_per, merged;
	int err;
	struct bg_aslot *pool; /* stack claims of all stored states */
	size_t npool, cappool;
	struct bg_aslot *cur; /* the state being observed */
	size_t ncur, capcur;
};

/* ---------------------------------------------------------- conversion */

static void put_scalar(struct bg_aval *o, const struct bg_scalar *v)
{
	if (v->bottom) { /* empty: make every interval empty */
		o->umin = 1;
		o->smin = 1;
		o->u32min = 1;
		o->s32min = 1;
		return;
	}
	o->umin = v->umin;
	o->umax = v->umax;
	o->smin = v->smin;
	o->smax = v->smax;
	o->u32min = v->u32min;
	o->u32max = v->u32max;
	o->s32min = v->s32min;
	o->s32max = v->s32max;
	o->tn_value = v->tn.value;
	o->tn_mask = v->tn.mask;
}

static struct bg_scalar get_scalar(const struct bg_aval *a)
{
	struct bg_scalar v = {.umin = a->umin,
			      .umax = a->umax,
			      .smin = a->smin,
			      .smax = a->smax,
			      .u32min = a->u32min,
			      .u32max = a->u32max,
			      .s32min = a->s32min,
			      .s32max = a->s32max,
			      .tn = {.value = a->tn_value, .mask = a->tn_mask}};
	v.bottom = a->umin > a->umax || a->smin > a->smax || a->u32min > a->u32max ||
		   a->s32min > a->s32max;
	return v;
}

static void conv_reg(const struct as_state *s, const struct as_reg *r, struct bg_aval *o)
{
	memset(o, 0, sizeof(*o));
	const struct region *d = rg(r->type);
	o->kind = d->aval;
	o->flags = r->flags & RF_PUBLIC;
	o->map = -1;
	if (r->type == T_UNINIT)
		return;
	put_scalar(o, &r->v);
	switch (d->aux) {
	case AUX_FRAME:
		o->frame = r->frame;
		break;
	case AUX_MAP:
		o->map = r->map;
		break;
	case AUX_SIZE:
		o->mem_size = r->size;
		break;
	case AUX_LINK:
		o->base = r->id;
		o->delta = r->id ? r->delta : 0;
		break;
	case AUX_PKT:
		o->base = r->id;
		o->delta = r->delta;
		o->pkt_range = r->id == LOST_BASE
				   ? -1
				   : (int64_t)bg_zone_range(&s->zone, r->id, r->type == T_PKT_META);
		break;
	default:
		break;
	}
}

static void conv_state(const struct as_state *s, bool global_root, struct bg_astate *o)
{
	const struct as_frame *f = &s->fr[s->nframes - 1];

	memset(o, 0, sizeof(*o));
	o->frame = s->nframes - 1;
	o->flags = global_root ? BG_ASTATE_GLOBAL_ROOT : 0;
	for (int i = 0; i < 11; i++)
		conv_reg(s, &f->r[i], &o->r[i]);
}

/* FNV-style over 64-bit words (the hashed structs are multiples of 8 bytes). */
static uint64_t hash_bytes(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;

	for (size_t i = 0; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 1099511628211ull;
		h ^= h >> 29;
	}
	return h;
}

_Static_assert(sizeof(struct bg_astate) % 8 == 0 && sizeof(struct bg_aslot) % 8 == 0,
	       "hashed as 64-bit words");

static uint64_t hash_state(const struct bg_astate *a, const struct bg_aslot *sl, size_t n)
{
	return hash_bytes(hash_bytes(1469598103934665603ull, a, sizeof(*a)), sl, n * sizeof(*sl));
}

/* Slots with a claim (known-zero bytes or a spilled register) of every frame. */
static int conv_slots(struct bg_verify_states *st, const struct as_state *s)
{
	st->ncur = 0;
	for (uint32_t f = 0; f < s->nframes; f++) {
		const struct as_frame *fr = &s->fr[f];
		for (uint32_t k = 0; k < fr->nslots; k++) {
			const struct as_slot *sl = &fr->slots[k];
			bool spill = sl->kind == SK_SPILL && sl->spill_size;
			if (!sl->zero && !spill)
				continue;
			if (st->ncur == st->capcur) {
				size_t cap = st->capcur ? st->capcur * 2 : 16;
				struct bg_aslot *n = realloc(st->cur, cap * sizeof(*n));
				if (!n)
					return -ENOMEM;
				st->cur = n;
				st->capcur = cap;
			}
			struct bg_aslot *o = &st->cur[st->ncur++];
			memset(o, 0, sizeof(*o));
			o->frame = (uint8_t)f;
			o->init = sl->init;
			o->zero = sl->zero;
			o->off = -8 * ((int32_t)sl->idx + 1);
			if (spill) {
				o->spill_size = sl->spill_size;
				conv_reg(s, &sl->spill, &o->spill);
			} else {
				o->spill.map = -1;
			}
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- join */

static bool aval_compat(const struct bg_aval *a, const struct bg_aval *b)
{
	return a->kind == b->kind && a->frame == b->frame && a->map == b->map;
}

/* a := a join b (over-approximates both). */
static void aval_join(struct bg_aval *a, const struct bg_aval *b)
{
	if (a->kind == BG_AVAL_UNINIT || a->kind == BG_AVAL_ANY)
		return;
	if (b->kind == BG_AVAL_UNINIT) {
		memset(a, 0, sizeof(*a));
		a->map = -1;
		return;
	}
	if (!aval_compat(a, b)) {
		memset(a, 0, sizeof(*a));
		a->kind = BG_AVAL_ANY;
		a->map = -1;
		return;
	}
	struct bg_scalar x = get_scalar(a), y = get_scalar(b);
	struct bg_scalar j = bg_scalar_join(&x, &y);
	put_scalar(a, &j);
	a->flags |= b->flags;
	if (b->mem_size < a->mem_size)
		a->mem_size = b->mem_size;
	if (a->base != b->base || a->delta != b->delta) {
		bool pkt = a->kind == BG_AVAL_PKT || a->kind == BG_AVAL_PKT_META;
		a->base = pkt ? LOST_BASE : 0;
		a->delta = 0;
		a->pkt_range = pkt ? -1 : 0;
		a->flags &= (uint8_t)~BG_AVAL_LINK32;
	} else if (b->pkt_range < a->pkt_range) {
		a->pkt_range = b->pkt_range;
	}
}

static bool state_compat(const struct bg_astate *a, const struct bg_astate *b)
{
	if (a->frame != b->frame || a->flags != b->flags)
		return false;
	for (int i = 0; i < 11; i++)
		if (!aval_compat(&a->r[i], &b->r[i]))
			return false;
	return true;
}

/* -------------------------------------------------------------- storage */

static int grow(void **p, size_t cap, size_t elem)
{
	void *n = realloc(*p, cap * elem);
	if (!n)
		return -ENOMEM;
	*p = n;
	return 0;
}

static int slot_push(struct bg_verify_states *st, struct vs_slot *sl, const struct bg_astate *a,
		     uint64_t h)
{
	if (sl->n == sl->cap) {
		uint32_t cap = sl->cap ? sl->cap * 2 : 2;
		if (grow((void **)&sl->st, cap, sizeof(*sl->st)) ||
		    grow((void **)&sl->h, cap, sizeof(*sl->h)) ||
		    grow((void **)&sl->soff, cap, sizeof(*sl->soff)) ||
		    grow((void **)&sl->sn, cap, sizeof(*sl->sn)))
			return -ENOMEM;
		sl->cap = cap;
	}
	if (st->npool + st->ncur > st->cappool) {
		size_t cap = st->cappool ? st->cappool : 256;
		while (cap < st->npool + st->ncur)
			cap *= 2;
		if (grow((void **)&st->pool, cap, sizeof(*st->pool)))
			return -ENOMEM;
		st->cappool = cap;
	}
	if (st->ncur)
		memcpy(st->pool + st->npool, st->cur, st->ncur * sizeof(*st->cur));
	sl->st[sl->n] = *a;
	sl->h[sl->n] = h;
	sl->soff[sl->n] = (uint32_t)st->npool;
	sl->sn[sl->n++] = (uint32_t)st->ncur;
	st->npool += st->ncur;
	return 0;
}

static void slot_merge(struct bg_verify_states *st, struct vs_slot *sl, const struct bg_astate *a)
{
	uint32_t k = sl->n - 1;

	for (uint32_t i = 0; i < sl->n; i++)
		if (state_compat(&sl->st[i], a)) {
			k = i;
			break;
		}
	struct bg_astate *d = &sl->st[k];
	if (d->frame != a->frame || d->flags != a->flags) {
		/* frames differ: keep the slot's stored states, join nothing that
		 * would mix frames; replace the last one's registers by "no claim" */
		for (int i = 0; i < 11; i++) {
			memset(&d->r[i], 0, sizeof(d->r[i]));
			d->r[i].kind = BG_AVAL_ANY;
			d->r[i].map = -1;
		}
	} else {
		for (int i = 0; i < 11; i++)
			aval_join(&d->r[i], &a->r[i]);
	}
	sl->sn[k] = 0; /* a joined state makes no stack claims */
	sl->h[k] = hash_state(d, NULL, 0);
	st->merged++;
}

static void observe(void *arg, size_t pc, const struct as_state *s, bool global_root)
{
	struct bg_verify_states *st = arg;
	struct bg_astate a;

	if (pc >= st->ninsn || st->err || !s->nframes)
		return;
	conv_state(s, global_root, &a);
	if (conv_slots(st, s)) {
		st->err = -ENOMEM;
		return;
	}
	uint64_t h = hash_state(&a, st->cur, st->ncur);
	struct vs_slot *sl = &st->at[pc];
	for (uint32_t i = 0; i < sl->n; i++)
		if (sl->h[i] == h && !memcmp(&sl->st[i], &a, sizeof(a)) && sl->sn[i] == st->ncur &&
		    (!st->ncur ||
		     !memcmp(st->pool + sl->soff[i], st->cur, st->ncur * sizeof(*st->cur))))
			return;
	if (sl->n >= st->max_per) {
		slot_merge(st, sl, &a);
		return;
	}
	if (slot_push(st, sl, &a, h))
		st->err = -ENOMEM;
}

/* ------------------------------------------------------------------ API */

struct bg_verify_states *bg_verify_states__new(const struct bg_program *prog,
					       const struct bg_verify_states_opts *opts)
{
	struct bg_verify_opts vo = {.sz = sizeof(vo)};
	struct bg_verify_states_opts so;
	struct bg_verify_states *st;
	size_t n = 0;

	if (!prog || OPTS_COPY(&so, opts, bg_verify_states_opts)) {
		errno = EINVAL;
		return NULL;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		errno = ENOMEM;
		return NULL;
	}
	vo.profile = so.profile;
	vo.unprivileged = so.unprivileged;
	vo.max_steps = so.max_steps;
	vo.max_disjuncts = so.max_disjuncts;
	st->max_per = so.max_per_insn;
	if (!st->max_per)
		st->max_per = DEFAULT_PER_INSN;
	bg_program__insns(prog, &n);
	st->ninsn = n;
	st->at = calloc(n ? n : 1, sizeof(*st->at));
	if (!st->at) {
		free(st);
		errno = ENOMEM;
		return NULL;
	}
	int err = verify_observed(prog, &vo, &st->res, observe, st);
	if (!err)
		err = st->err;
	if (err) {
		bg_verify_states__free(st);
		errno = -err;
		return NULL;
	}
	return st;
}

void bg_verify_states__free(struct bg_verify_states *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->ninsn; i++) {
		free(st->at[i].st);
		free(st->at[i].h);
		free(st->at[i].soff);
		free(st->at[i].sn);
	}
	free(st->at);
	free(st->pool);
	free(st->cur);
	bg_verify_result__fini(&st->res);
	free(st);
}

const struct bg_verify_result *bg_verify_states__result(const struct bg_verify_states *st)
{
	return st ? &st->res : NULL;
}

size_t bg_verify_states__insn_cnt(const struct bg_verify_states *st)
{
	return st ? st->ninsn : 0;
}

size_t bg_verify_states__cnt(const struct bg_verify_states *st, size_t pc)
{
	return st && pc < st->ninsn ? st->at[pc].n : 0;
}

const struct bg_astate *bg_verify_states__get(const struct bg_verify_states *st, size_t pc,
					      size_t i)
{
	if (!st || pc >= st->ninsn || i >= st->at[pc].n)
		return NULL;
	return &st->at[pc].st[i];
}

const struct bg_aslot *bg_verify_states__slots(const struct bg_verify_states *st, size_t pc,
					       size_t i, size_t *n)
{
	if (n)
		*n = 0;
	if (!st || pc >= st->ninsn || i >= st->at[pc].n)
		return NULL;
	if (n)
		*n = st->at[pc].sn[i];
	return st->pool + st->at[pc].soff[i];
}

size_t bg_verify_states__merged(const struct bg_verify_states *st)
{
	return st ? st->merged : 0;
}

bool bg_aval__contains(const struct bg_aval *a, uint64_t x)
{
	if (!a || a->kind == BG_AVAL_UNINIT || a->kind == BG_AVAL_ANY)
		return true;
	struct bg_scalar v = get_scalar(a);
	return bg_scalar_contains(&v, x);
}

static const char *const kind_names[] = {
    [BG_AVAL_UNINIT] = "uninit",
    [BG_AVAL_SCALAR] = "scalar",
    [BG_AVAL_CTX] = "ctx",
    [BG_AVAL_STACK] = "fp",
    [BG_AVAL_PKT] = "pkt",
    [BG_AVAL_PKT_META] = "pkt_meta",
    [BG_AVAL_PKT_END] = "pkt_end",
    [BG_AVAL_MAP_PTR] = "map_ptr",
    [BG_AVAL_MAP_VALUE] = "map_value",
    [BG_AVAL_MEM] = "mem",
    [BG_AVAL_RINGBUF_MEM] = "ringbuf_mem",
    [BG_AVAL_BTF_ID] = "btf_ptr",
    [BG_AVAL_SOCK] = "sock",
    [BG_AVAL_SOCK_COMMON] = "sock_common",
    [BG_AVAL_TCP_SOCK] = "tcp_sock",
    [BG_AVAL_FUNC] = "func",
    [BG_AVAL_ARENA] = "arena",
    [BG_AVAL_ANY] = "any",
};

const char *bg_aval_kind_str(unsigned kind)
{
	return kind <= BG_AVAL_ANY ? kind_names[kind] : "?";
}

int bg_aval__fmt(const struct bg_aval *a, char *buf, size_t sz)
{
	char num[200];
	const char *k;

	if (!a || !buf)
		return -EINVAL;
	k = bg_aval_kind_str(a->kind);
	if (a->kind == BG_AVAL_UNINIT || a->kind == BG_AVAL_ANY)
		return snprintf(buf, sz, "%s", k);
	struct bg_scalar v = get_scalar(a);
	bg_scalar_fmt(&v, num, sizeof(num));
	int n = snprintf(buf, sz, "%s%s%s%s", k, (a->flags & BG_AVAL_MAYBE_NULL) ? "_or_null" : "",
			 a->kind == BG_AVAL_SCALAR ? " " : "+", num);
	if (n < 0 || (size_t)n >= sz)
		return n;
	switch (a->kind) {
	case BG_AVAL_STACK:
		n += snprintf(buf + n, sz - (size_t)n, " frame %u", a->frame);
		break;
	case BG_AVAL_MAP_PTR:
	case BG_AVAL_MAP_VALUE:
		n += snprintf(buf + n, sz - (size_t)n, " map %d", a->map);
		break;
	case BG_AVAL_MEM:
	case BG_AVAL_RINGBUF_MEM:
		n += snprintf(buf + n, sz - (size_t)n, " size %u", a->mem_size);
		break;
	case BG_AVAL_PKT:
	case BG_AVAL_PKT_META:
		if (a->pkt_range >= 0)
			n += snprintf(buf + n, sz - (size_t)n, " base %u delta %d range %" PRId64,
				      a->base, a->delta, a->pkt_range);
		else
			n += snprintf(buf + n, sz - (size_t)n, " (base lost)");
		break;
	case BG_AVAL_SCALAR:
		if (a->base)
			n += snprintf(buf + n, sz - (size_t)n, " link %u%+d%s", a->base, a->delta,
				      (a->flags & BG_AVAL_LINK32) ? "/32" : "");
		break;
	default:
		break;
	}
	return n;
}
