/* Abstract state: construction, lattice operations (leq, join, widen),
 * partition keys and printing. See state.h for the representation.
 * Join over-approximates: a register whose two sides disagree on the region
 * becomes an unknown scalar (any value, unusable as a pointer) or stays
 * uninitialized when either side is; stack bytes stay initialized only when
 * initialized on both sides; references held on either side stay held. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/state.h"
#include "analysis/names.h"

#define LOST_BASE 0xffffffffu
#define JOIN_PENDING 0xfffffffeu
#define JOIN_BIT 0x80000000u

const struct region as_regions[T__MAX] = {
#define REGION(id, aval_, name_, null_name_, flags_, access_, size_src_, size_, aux_)                  \
	[id] = {.name = name_, .null_name = null_name_, .aval = aval_, .access = access_,          \
		.size_src = size_src_, .aux = aux_, .flags = flags_, .size = size_},
#include "analysis/regions.def"
#undef REGION
};

const char *as_type_name(uint8_t type, uint8_t flags)
{
	if (type >= T__MAX)
		return "?";
	const struct region *d = rg(type);
	if ((flags & RF_NULL) && d->null_name)
		return d->null_name;
	return d->name;
}

/* The unknown scalar, computed once (pthread_once: analyses run in parallel
 * threads); read-only afterwards. */
static struct bg_scalar unknown_u;
static pthread_once_t unknown_once = PTHREAD_ONCE_INIT;

static void unknown_init(void)
{
	unknown_u = bg_scalar_unknown();
}

static const struct bg_scalar *unknown_scalar(void)
{
	pthread_once(&unknown_once, unknown_init);
	return &unknown_u;
}

void as_reg_uninit(struct as_reg *r)
{
	memset(r, 0, sizeof(*r));
	r->type = T_UNINIT;
	r->v = *unknown_scalar();
}

void as_reg_scalar(struct as_reg *r, struct bg_scalar v)
{
	memset(r, 0, sizeof(*r));
	r->type = T_SCALAR;
	r->v = v;
}

void as_reg_const(struct as_reg *r, uint64_t v)
{
	as_reg_scalar(r, bg_scalar_const(v));
}

void as_reg_unknown(struct as_reg *r)
{
	as_reg_scalar(r, *unknown_scalar());
}

bool as_reg_is_ptr(const struct as_reg *r)
{
	return r->type != T_UNINIT && r->type != T_SCALAR;
}

static bool btf_eq(const char *a, const char *b)
{
	if (a == b)
		return true;
	return a && b && !strcmp(a, b);
}

bool as_reg_eq(const struct as_reg *a, const struct as_reg *b)
{
	return as_reg_leq(a, b) && as_reg_leq(b, a);
}

static bool scalar_top(const struct bg_scalar *v)
{
	return bg_scalar_leq(unknown_scalar(), v);
}

bool as_reg_leq(const struct as_reg *a, const struct as_reg *b)
{
	if (b->type == T_UNINIT)
		return true;
	if (a->type == T_UNINIT)
		return false;
	if (b->type == T_SCALAR && a->type != T_SCALAR)
		return b->id == 0 && scalar_top(&b->v);
	if (a->type != b->type)
		return false;
	if (b->id && a->id != b->id)
		return false;
	/* RF_LINK32 qualifies the link id: without b's id it says nothing */
	uint8_t af = b->id ? a->flags : (uint8_t)(a->flags & ~RF_LINK32);
	if ((af & ~b->flags) != 0)
		return false;
	if (a->type == T_SCALAR)
		return (!b->id || a->delta == b->delta) && bg_scalar_leq(&a->v, &b->v);
	if (a->map != b->map || a->ref != b->ref || a->frame != b->frame)
		return false;
	if ((a->type == T_PKT || a->type == T_PKT_META) && (a->id != b->id || a->delta != b->delta)) {
		/* a base made by a join (no facts of its own beyond the zone's) covers any
		 * pointer whose offset it covers */
		if (!((b->id & JOIN_BIT) && b->id != LOST_BASE && b->delta == 0))
			return false;
	}
	if (a->size < b->size)
		return false;
	if (!btf_eq(a->btf, b->btf) && b->btf)
		return false;
	return bg_scalar_leq(&a->v, &b->v);
}


struct as_reg as_reg_join(const struct as_reg *a, const struct as_reg *b, bool widen,
			  const uint64_t *thr, unsigned nthr)
{
	struct as_reg r;
	if (a->type == T_UNINIT || b->type == T_UNINIT) {
		as_reg_uninit(&r);
		return r;
	}
	bool same = a->type == b->type && a->map == b->map && a->frame == b->frame &&
		    a->ref == b->ref;
	if (!same) {
		as_reg_unknown(&r);
		return r;
	}
	r = *a;
	r.flags = a->flags | b->flags;
	if (a->id != b->id || (a->type == T_SCALAR && a->delta != b->delta)) {
		r.id = 0;
		if (a->type == T_SCALAR) {
			r.delta = 0;
			r.flags &= (uint8_t)~RF_LINK32;
		}
	}
	if (a->type == T_PKT || a->type == T_PKT_META) {
		if (a->id == LOST_BASE || b->id == LOST_BASE) {
			r.id = LOST_BASE;
			r.delta = 0;
		} else if (a->id != b->id || a->delta != b->delta) {
			r.id = JOIN_PENDING;
			r.delta = 0;
		}
	}
	if (b->size < r.size)
		r.size = b->size;
	if (!btf_eq(a->btf, b->btf))
		r.btf = NULL;
	r.v = widen ? bg_scalar_widen(&a->v, &b->v, thr, nthr) : bg_scalar_join(&a->v, &b->v);
	return r;
}

void as_state_init(struct as_state *s)
{
	memset(s, 0, sizeof(*s));
	s->lock = -1;
	bg_zone_init(&s->zone);
}

static void frame_fini(struct as_frame *f)
{
	free(f->cb_args);
	f->cb_args = NULL;
	free(f->slots);
	f->slots = NULL;
	f->nslots = f->cap = 0;
}

void as_state_fini(struct as_state *s)
{
	for (uint32_t i = 0; i < s->nframes; i++)
		frame_fini(&s->fr[i]);
	free(s->fr);
	s->fr = NULL;
	s->nframes = 0;
}

/* On failure d owns nothing (-ENOMEM). */
static int frame_copy(struct as_frame *d, const struct as_frame *f)
{
	*d = *f;
	d->cap = f->nslots;
	d->slots = NULL;
	d->cb_args = NULL;
	if (f->nslots) {
		d->slots = malloc(f->nslots * sizeof(*d->slots));
		if (!d->slots)
			return -ENOMEM;
		memcpy(d->slots, f->slots, f->nslots * sizeof(*d->slots));
	}
	if (f->cb_args) {
		d->cb_args = malloc(5 * sizeof(*d->cb_args));
		if (!d->cb_args) {
			frame_fini(d);
			return -ENOMEM;
		}
		memcpy(d->cb_args, f->cb_args, 5 * sizeof(*d->cb_args));
	}
	return 0;
}

int as_state_copy(struct as_state *dst, const struct as_state *src)
{
	*dst = *src;
	dst->fr = malloc(src->nframes * sizeof(*dst->fr) + 1);
	dst->nframes = 0;
	if (!dst->fr)
		return -ENOMEM;
	for (uint32_t i = 0; i < src->nframes; i++) {
		if (frame_copy(&dst->fr[i], &src->fr[i])) {
			as_state_fini(dst);
			return -ENOMEM;
		}
		dst->nframes = i + 1;
	}
	return 0;
}

void as_state_move(struct as_state *dst, struct as_state *src)
{
	*dst = *src;
	src->fr = NULL;
	src->nframes = 0;
}

int as_push_frame(struct as_state *s, int32_t callsite)
{
	if (s->nframes >= AS_MAX_FRAMES)
		return -E2BIG;
	struct as_frame *nf = realloc(s->fr, (s->nframes + 1) * sizeof(*s->fr));
	if (!nf)
		return -ENOMEM;
	s->fr = nf;
	struct as_frame *f = &s->fr[s->nframes];
	memset(f, 0, sizeof(*f));
	for (int i = 0; i < 11; i++)
		as_reg_uninit(&f->r[i]);
	f->callsite = callsite;
	f->iter_base = s->niter;
	f->r[10].type = T_STACK;
	f->r[10].frame = (uint8_t)s->nframes;
	f->r[10].v = bg_scalar_const(0);
	s->nframes++;
	return 0;
}

void as_pop_frame(struct as_state *s)
{
	frame_fini(&s->fr[s->nframes - 1]);
	s->nframes--;
}

struct as_slot *as_slot_get(struct as_frame *f, int idx, bool create)
{
	uint32_t lo = 0, hi = f->nslots;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (f->slots[mid].idx < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->nslots && f->slots[lo].idx == idx)
		return &f->slots[lo];
	if (!create)
		return NULL;
	if (f->nslots == f->cap) {
		uint32_t nc = f->cap ? f->cap * 2 : 4;
		struct as_slot *ns = realloc(f->slots, nc * sizeof(*ns));
		if (!ns)
			return NULL;
		f->slots = ns;
		f->cap = nc;
	}
	memmove(&f->slots[lo + 1], &f->slots[lo], (f->nslots - lo) * sizeof(*f->slots));
	f->nslots++;
	struct as_slot *sl = &f->slots[lo];
	memset(sl, 0, sizeof(*sl));
	sl->idx = (uint8_t)idx;
	as_reg_uninit(&sl->spill);
	return sl;
}

void as_slot_del(struct as_frame *f, int idx)
{
	struct as_slot *sl = as_slot_get(f, idx, false);
	if (!sl)
		return;
	uint32_t i = (uint32_t)(sl - f->slots);
	memmove(&f->slots[i], &f->slots[i + 1], (f->nslots - i - 1) * sizeof(*sl));
	f->nslots--;
}

static bool slot_leq(const struct as_slot *a, const struct as_slot *b)
{
	/* b's facts must hold in a */
	if ((b->init & ~(a ? a->init : 0)) != 0)
		return false;
	if (!b->init && b->kind == SK_NONE)
		return true;
	if ((b->zero & ~a->zero) != 0)
		return false;
	if (b->kind != SK_NONE) {
		if (a->kind != b->kind || a->spill_size != b->spill_size)
			return false;
		if (b->kind == SK_SPILL && !as_reg_leq(&a->spill, &b->spill))
			return false;
	}
	return true;
}

static bool frame_leq(const struct as_frame *a, const struct as_frame *b)
{
	if (a->callsite != b->callsite)
		return false;
	for (int i = 0; i < 11; i++)
		if (!as_reg_leq(&a->r[i], &b->r[i]))
			return false;
	for (uint32_t i = 0; i < b->nslots; i++) {
		const struct as_slot *sb = &b->slots[i];
		const struct as_slot *sa = as_slot_get((struct as_frame *)a, sb->idx, false);
		if (!sa) {
			if (sb->init || sb->kind != SK_NONE)
				return false;
			continue;
		}
		if (!slot_leq(sa, sb))
			return false;
	}
	if (a->cb_args && b->cb_args) {
		for (int i = 0; i < 5; i++)
			if (!as_reg_leq(&a->cb_args[i], &b->cb_args[i]))
				return false;
	}
	return true;
}

static bool refs_eq(const struct as_state *a, const struct as_state *b)
{
	if (a->nrefs != b->nrefs)
		return false;
	for (uint32_t i = 0; i < a->nrefs; i++)
		if (!as_ref_held(b, a->refs[i].id))
			return false;
	return true;
}

bool as_state_leq(const struct as_state *a, const struct as_state *b)
{
	if (a->bottom)
		return true;
	if (b->bottom)
		return false;
	if (a->nframes != b->nframes || a->lock != b->lock || a->niter != b->niter ||
	    memcmp(a->sec, b->sec, sizeof(a->sec)))
		return false;
	if (memcmp(a->iter, b->iter, a->niter * sizeof(a->iter[0])))
		return false;
	if (!refs_eq(a, b))
		return false;
	if (!bg_zone_leq(&a->zone, &b->zone))
		return false;
	for (uint32_t i = 0; i < a->nframes; i++)
		if (!frame_leq(&a->fr[i], &b->fr[i]))
			return false;
	return true;
}

static void slot_join(struct as_slot *a, const struct as_slot *b, bool widen, const uint64_t *thr,
		      unsigned nthr)
{
	a->init &= b->init;
	a->zero &= b->zero;
	if (a->kind != b->kind || a->spill_size != b->spill_size) {
		a->kind = SK_NONE;
		a->spill_size = 0;
		as_reg_uninit(&a->spill);
	} else if (a->kind == SK_SPILL) {
		a->spill = as_reg_join(&a->spill, &b->spill, widen, thr, nthr);
		if (a->spill.type == T_UNINIT)
			a->kind = SK_NONE;
	}
}

static void frame_join(struct as_frame *a, const struct as_frame *b, bool widen,
		       const uint64_t *thr, unsigned nthr)
{
	for (int i = 0; i < 11; i++)
		a->r[i] = as_reg_join(&a->r[i], &b->r[i], widen, thr, nthr);
	if (a->cb_args && b->cb_args)
		for (int i = 0; i < 5; i++)
			a->cb_args[i] = as_reg_join(&a->cb_args[i], &b->cb_args[i], widen, thr, nthr);
	uint32_t w = 0;
	for (uint32_t i = 0; i < a->nslots; i++) {
		struct as_slot *sa = &a->slots[i];
		const struct as_slot *sb = as_slot_get((struct as_frame *)b, sa->idx, false);
		if (!sb)
			continue;
		slot_join(sa, sb, widen, thr, nthr);
		if (!sa->init && sa->kind == SK_NONE)
			continue;
		a->slots[w++] = *sa;
	}
	a->nslots = w;
}

/* Pointers joined from different packet bases get a fresh base named by
 * the join point and their location, so later bounds checks on them work;
 * the new base inherits the weaker of the two sides' known ranges. */
static uint32_t join_base_id(uint32_t salt, uint32_t f, uint32_t loc)
{
	return JOIN_BIT | ((salt * 131u + f * 2048u + loc * 2u) & 0x7ffffffeu) | 1u;
}

static int64_t pkt_room(const struct as_state *s, const struct as_reg *r)
{
	if (r->id == LOST_BASE)
		return 0;
	return (int64_t)bg_zone_range(&s->zone, r->id, r->type == T_PKT_META) - r->delta;
}

/* Registers that share a base on both sides, with the same delta shift,
 * keep sharing one (new) base after the join, so relations such as
 * "r4 = r3 + 1" survive: the group's first member defines the base. */
struct join_plan {
	uint32_t f, loc;
	uint32_t aid, bid;
	int64_t shift;    /* a.delta - b.delta */
	int32_t adelta;
	uint32_t id;      /* the joined base */
	int32_t delta;    /* delta from it */
	bool meta, lead;
	int64_t room;
};

static const struct as_reg *loc_reg(const struct as_state *s, uint32_t f, uint32_t loc)
{
	const struct as_frame *fr = &s->fr[f];
	if (loc < 11)
		return &fr->r[loc];
	const struct as_slot *sl = as_slot_get((struct as_frame *)fr, (int)(loc - 16), false);
	return sl && sl->kind == SK_SPILL ? &sl->spill : NULL;
}

static void plan_one(const struct as_state *a, const struct as_state *b, uint32_t f, uint32_t loc,
		     uint32_t salt, struct join_plan *pl, uint32_t *n)
{
	const struct as_reg *ra = loc_reg(a, f, loc), *rb = loc_reg(b, f, loc);
	if (!ra || !rb || ra->type != rb->type || (ra->type != T_PKT && ra->type != T_PKT_META))
		return;
	if ((ra->id == rb->id && ra->delta == rb->delta) || ra->id == LOST_BASE || rb->id == LOST_BASE)
		return;
	if (*n >= 64)
		return;
	struct join_plan *p = &pl[*n];
	*p = (struct join_plan){ .f = f, .loc = loc, .aid = ra->id, .bid = rb->id,
				 .shift = (int64_t)ra->delta - rb->delta, .adelta = ra->delta,
				 .meta = ra->type == T_PKT_META };
	for (uint32_t i = 0; i < *n; i++) {
		struct join_plan *q = &pl[i];
		if (q->lead && q->aid == p->aid && q->bid == p->bid && q->shift == p->shift && q->meta == p->meta) {
			p->id = q->id;
			p->delta = ra->delta - q->adelta;
			(*n)++;
			return;
		}
	}
	int64_t x = pkt_room(a, ra), y = pkt_room(b, rb);
	p->lead = true;
	p->id = join_base_id(salt, f, loc);
	p->delta = 0;
	p->room = x < y ? x : y;
	(*n)++;
}

static uint32_t plan_join(const struct as_state *a, const struct as_state *b, uint32_t salt,
			  struct join_plan *pl)
{
	uint32_t n = 0;
	for (uint32_t f = 0; f < a->nframes && f < b->nframes; f++) {
		for (uint32_t i = 0; i < 11; i++)
			plan_one(a, b, f, i, salt, pl, &n);
		for (uint32_t k = 0; k < a->fr[f].nslots; k++)
			plan_one(a, b, f, 16u + a->fr[f].slots[k].idx, salt, pl, &n);
	}
	return n;
}

static void apply_plan(struct as_state *s, const struct join_plan *pl, uint32_t n, bool widen)
{
	for (uint32_t i = 0; i < n; i++) {
		struct as_reg *r = (struct as_reg *)loc_reg(s, pl[i].f, pl[i].loc);
		if (!r || r->id != JOIN_PENDING)
			continue;
		r->id = pl[i].id;
		r->delta = pl[i].delta;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (!pl[i].lead || pl[i].room <= 0 || pl[i].room > 0xffff)
			continue;
		uint32_t have = bg_zone_range(&s->zone, pl[i].id, pl[i].meta);
		if (widen && have > (uint32_t)pl[i].room)
			bg_zone_forget(&s->zone, pl[i].id, pl[i].meta);
		else if (!widen || have)
			bg_zone_learn(&s->zone, pl[i].id, pl[i].meta, (uint32_t)pl[i].room);
	}
	/* anything left pending had no plan (capacity): lose it */
	for (uint32_t f = 0; f < s->nframes; f++) {
		for (uint32_t i = 0; i < 11; i++)
			if (s->fr[f].r[i].id == JOIN_PENDING)
				s->fr[f].r[i].id = LOST_BASE;
		for (uint32_t k = 0; k < s->fr[f].nslots; k++)
			if (s->fr[f].slots[k].spill.id == JOIN_PENDING)
				s->fr[f].slots[k].spill.id = LOST_BASE;
	}
}

static bool base_used(const struct as_state *s, uint32_t id, bool meta)
{
	uint8_t t = meta ? T_PKT_META : T_PKT;
	for (uint32_t f = 0; f < s->nframes; f++) {
		const struct as_frame *fr = &s->fr[f];
		for (int i = 0; i < 11; i++)
			if (fr->r[i].type == t && fr->r[i].id == id)
				return true;
		for (uint32_t k = 0; k < fr->nslots; k++)
			if (fr->slots[k].kind == SK_SPILL && fr->slots[k].spill.type == t &&
			    fr->slots[k].spill.id == id)
				return true;
	}
	return false;
}

void as_zone_gc(struct as_state *s)
{
	for (uint32_t i = 0; i < s->zone.n;) {
		const struct bg_zone_ent *e = &s->zone.e[i];
		if (e->base != 0 && !base_used(s, e->base, e->meta)) {
			bg_zone_forget(&s->zone, e->base, e->meta);
			continue;
		}
		i++;
	}
}

int as_state_join(struct as_state *a, const struct as_state *b, bool widen, const uint64_t *thr,
		  unsigned nthr, uint32_t salt)
{
	if (b->bottom || as_state_leq(b, a))
		return 0;
	if (a->bottom) {
		struct as_state c;
		if (as_state_copy(&c, b))
			return -ENOMEM;
		as_state_fini(a);
		as_state_move(a, &c);
		return 1;
	}
	struct join_plan plan[64];
	uint32_t np = plan_join(a, b, salt, plan);
	/* only a join that renames packet bases can leave the state unchanged
	 * although b is not below a: keep a copy to tell */
	struct as_state before;
	bool check = np > 0;
	if (check && as_state_copy(&before, a))
		check = false; /* no memory for the copy: report a change (safe) */
	for (uint32_t i = 0; i < a->nframes && i < b->nframes; i++)
		frame_join(&a->fr[i], &b->fr[i], widen, thr, nthr);
	a->zone = widen ? bg_zone_widen(&a->zone, &b->zone) : bg_zone_join(&a->zone, &b->zone);
	apply_plan(a, plan, np, widen);
	for (uint32_t i = 0; i < b->nrefs; i++)
		if (!as_ref_held(a, b->refs[i].id))
			as_ref_add(a, b->refs[i].id, b->refs[i].insn, b->refs[i].type);
	if (a->lock != b->lock)
		a->lock = -2; /* maybe held: any lock operation or exit is an error */
	for (int k = 0; k < AS_SEC__MAX; k++)
		if (a->sec[k] != b->sec[k])
			a->sec[k] = AS_SEC_MAYBE; /* depth unknown: closing it or exiting is an error */
	as_zone_gc(a);
	/* a join that only renamed packet bases changes nothing */
	if (!check)
		return 1;
	bool changed = !as_state_leq(a, &before);
	as_state_fini(&before);
	return changed;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

static uint64_t reg_key(const struct as_reg *r, bool weak)
{
	uint64_t h = r->type * 4u + (r->flags & RF_NULL);
	uint64_t c;
	if (!weak && r->type == T_SCALAR && bg_scalar_is_const(&r->v, &c) && c < 256)
		h = mix(h, c + 1);
	if (!weak && r->type == T_MAP_VALUE)
		h = mix(h, (uint64_t)r->map);
	return h;
}

uint64_t as_state_key(const struct as_state *s, bool weak, uint16_t live)
{
	uint64_t h = mix(s->nframes, (uint64_t)(int64_t)s->lock);
	h = mix(h, (uint64_t)s->sec[0] | (uint64_t)s->sec[1] << 8 | (uint64_t)s->sec[2] << 16);
	for (uint32_t i = 0; i < s->nrefs; i++)
		h = mix(h, s->refs[i].id);
	for (uint32_t f = 0; f < s->nframes; f++) {
		const struct as_frame *fr = &s->fr[f];
		for (int i = 0; i < 10; i++)
			if (weak || f + 1 < s->nframes || (live >> i) & 1)
				h = mix(h, reg_key(&fr->r[i], weak));
		for (uint32_t k = 0; k < fr->nslots; k++)
			if (fr->slots[k].kind == SK_SPILL)
				h = mix(h, fr->slots[k].idx * 1024u + reg_key(&fr->slots[k].spill, weak));
	}
	return h;
}

int as_ref_add(struct as_state *s, uint32_t id, uint32_t insn, uint8_t type)
{
	for (uint32_t i = 0; i < s->nrefs; i++)
		if (s->refs[i].id == id) {
			s->refs[i].many = 1;
			return 0;
		}
	if (s->nrefs == AS_MAX_REFS)
		return -E2BIG;
	s->refs[s->nrefs++] = (struct as_ref){ .id = id, .insn = insn, .type = type };
	return 0;
}

bool as_ref_del(struct as_state *s, uint32_t id)
{
	for (uint32_t i = 0; i < s->nrefs; i++)
		if (s->refs[i].id == id) {
			if (s->refs[i].many)
				return true; /* one of several: stays held */
			s->refs[i] = s->refs[--s->nrefs];
			return true;
		}
	return false;
}

bool as_ref_held(const struct as_state *s, uint32_t id)
{
	for (uint32_t i = 0; i < s->nrefs; i++)
		if (s->refs[i].id == id)
			return true;
	return false;
}

static int fmt_off(const struct bg_scalar *v, char *buf, unsigned sz)
{
	uint64_t c;
	if (bg_scalar_is_const(v, &c))
		return snprintf(buf, sz, "%" PRId64, (int64_t)c);
	return bg_scalar_fmt(v, buf, sz);
}

int as_reg_fmt(const struct as_reg *r, const struct as_state *s, char *buf, unsigned sz)
{
	char off[160];
	if (r->type == T_UNINIT)
		return snprintf(buf, sz, "uninit");
	if (r->type == T_SCALAR) {
		bg_scalar_fmt(&r->v, off, sizeof(off));
		return snprintf(buf, sz, "%s", off);
	}
	fmt_off(&r->v, off, sizeof(off));
	const char *tn = as_type_name(r->type, r->flags);
	switch (r->type) {
	case T_STACK:
		return snprintf(buf, sz, "fp%s%s", r->v.smin >= 0 && r->v.smax >= 0 ? "+" : "", off);
	case T_PKT:
	case T_PKT_META: {
		uint32_t rng = s ? bg_zone_range(&s->zone, r->id, r->type == T_PKT_META) : 0;
		if (r->id == 0)
			return snprintf(buf, sz, "%s(off=%s,r=%u)", tn, off, rng);
		return snprintf(buf, sz, "%s(off=%s,base=%u%+d,r=%u)", tn, off, r->id, r->delta, rng);
	}
	case T_MAP_PTR:
	case T_MAP_VALUE:
		return snprintf(buf, sz, "%s(map=%s,off=%s)", tn, as_map_name(r->map), off);
	case T_MEM:
	case T_RINGBUF_MEM:
		return snprintf(buf, sz, "%s(size=%u,off=%s%s)", tn, r->size, off, r->ref ? ",ref" : "");
	case T_BTF_ID:
		return snprintf(buf, sz, "%s%s(off=%s)", tn, r->btf ? r->btf : "?", off);
	case T_FUNC:
		return snprintf(buf, sz, "func(insn %d)", r->map);
	default:
		return snprintf(buf, sz, "%s(off=%s)", tn, off);
	}
}

void as_state_print(const struct as_state *s, void *file)
{
	FILE *f = file;
	char buf[256];
	if (s->bottom) {
		fprintf(f, "  (unreachable)\n");
		return;
	}
	for (uint32_t k = 0; k < s->nframes; k++) {
		const struct as_frame *fr = &s->fr[k];
		fprintf(f, "  frame%u:", k);
		for (int i = 0; i < 11; i++) {
			if (fr->r[i].type == T_UNINIT)
				continue;
			as_reg_fmt(&fr->r[i], s, buf, sizeof(buf));
			fprintf(f, " r%d=%s", i, buf);
		}
		for (uint32_t i = 0; i < fr->nslots; i++) {
			const struct as_slot *sl = &fr->slots[i];
			int off = -8 * (sl->idx + 1);
			if (sl->kind == SK_SPILL) {
				as_reg_fmt(&sl->spill, s, buf, sizeof(buf));
				fprintf(f, " fp%d=%s", off, buf);
			} else {
				fprintf(f, " fp%d=%s", off,
					sl->zero == 0xff ? "0" : sl->init == 0xff ? "misc" : "partial");
			}
		}
		fprintf(f, "\n");
	}
	if (s->zone.n) {
		bg_zone_fmt(&s->zone, buf, sizeof(buf));
		fprintf(f, "  zone: %s\n", buf);
	}
	if (s->nrefs) {
		fprintf(f, "  refs:");
		for (uint32_t i = 0; i < s->nrefs; i++)
			fprintf(f, " %u(insn %u)", s->refs[i].id, s->refs[i].insn);
		fprintf(f, "\n");
	}
	if (s->lock != -1)
		fprintf(f, "  lock: %s\n", s->lock == -2 ? "maybe held" : as_map_name(s->lock));
	static const char *const sec_names[AS_SEC__MAX] = { "rcu_read_lock", "preempt_disable",
							    "local_irq_save" };
	for (int k = 0; k < AS_SEC__MAX; k++)
		if (s->sec[k] == AS_SEC_MAYBE)
			fprintf(f, "  %s: maybe held\n", sec_names[k]);
		else if (s->sec[k])
			fprintf(f, "  %s: %u deep\n", sec_names[k], s->sec[k]);
}

size_t as_state_bytes(const struct as_state *s)
{
	size_t n = sizeof(*s) + s->nframes * sizeof(struct as_frame);
	for (uint32_t i = 0; i < s->nframes; i++)
		n += s->fr[i].cap * sizeof(struct as_slot);
	return n;
}
