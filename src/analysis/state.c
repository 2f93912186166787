/* Abstract state: construction, lattice operations (leq, join, widen),
 * partition keys and printing. See state.h for the representation.
 * Join over-approximates: a register whose two sides disagree on the region
 * becomes an unknown scalar (any value, unusable as a pointer) or stays
 * uninitialized when either side is; stack bytes stay initialized only when
 * initialized on both sides; references held on either side stay held. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/state.h"
#include "analysis/names.h"

#define LOST_BASE AS_ID_LOST
#define JOIN_PENDING AS_ID_PENDING
#define JOIN_BIT AS_ID_JOIN

const struct region as_regions[T__MAX] = {
#define REGION(id, aval_, name_, null_name_, flags_, access_, size_src_, size_, aux_, align_)          \
	[id] = {.name = name_, .null_name = null_name_, .aval = aval_, .access = access_,          \
		.size_src = size_src_, .aux = aux_, .flags = flags_, .size = size_, .align = align_},
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

/* The unknown scalar and the registers made most often, as constant
 * templates (a register is ~100 bytes: one copy instead of a memset and
 * member stores). */
static const struct bg_scalar unknown_u = BG_SCALAR_UNKNOWN_INIT;
static const struct as_reg uninit_reg = { .type = T_UNINIT, .v = BG_SCALAR_UNKNOWN_INIT };
static const struct as_reg unknown_reg = { .type = T_SCALAR, .v = BG_SCALAR_UNKNOWN_INIT };

static const struct bg_scalar *unknown_scalar(void)
{
	return &unknown_u;
}

void as_reg_uninit(struct as_reg *r)
{
	*r = uninit_reg;
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
	*r = unknown_reg;
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

/* ------------------------------------------------------------ ids */

uint32_t as_id_fresh(uint32_t *next)
{
	if (*next >= AS_ID_LIMIT)
		return AS_ID_LIMIT; /* exhausted: the analysis is stopped (verify.c) */
	return ++*next;
}

/* 0 ("none" / the packet start), lost and pending are not names */
static bool id_special(uint32_t id)
{
	return id == 0 || id >= AS_ID_PENDING;
}

/* A renaming of one state's ids into another's: from -> (to, shift), where
 * shift is to's packet offset minus from's (0 except for packet join bases,
 * see pkt_leq). Room for every id a state can hold: at most three (id, ref,
 * dynptr) per register, callback argument and stack slot of each frame, plus
 * the references and the zone's bases: 8 * (11 + 5 + 64) * 3 + 16 + 16 = 1952.
 * One per thread for leq and one for join (join calls leq). */
#define IDMAP_MAX 2048
struct idmap {
	uint32_t n;
	struct { uint32_t from, to; int32_t shift; } e[IDMAP_MAX];
};

static __thread struct idmap leq_map;

static int map_find(const struct idmap *m, uint32_t from)
{
	for (uint32_t i = 0; i < m->n; i++)
		if (m->e[i].from == from)
			return (int)i;
	return -1;
}

static bool map_is_target(const struct idmap *m, uint32_t to)
{
	for (uint32_t i = 0; i < m->n; i++)
		if (m->e[i].to == to)
			return true;
	return false;
}

/* leq: from must always name the same (to, shift) */
static bool map_bind(struct idmap *m, uint32_t from, uint32_t to, int64_t shift)
{
	int k = map_find(m, from);
	if (k >= 0)
		return m->e[k].to == to && m->e[k].shift == shift;
	if (m->n == IDMAP_MAX || shift < INT32_MIN || shift > INT32_MAX)
		return false;
	m->e[m->n].from = from;
	m->e[m->n].to = to;
	m->e[m->n++].shift = (int32_t)shift;
	return true;
}

/* b's packet base against a's. The packet start (0) and a lost base must be
 * the same in a. Any other base y of b must stand for one base x of a at one
 * shift for all of b's registers on y (their relative offsets are b's facts);
 * a base b made at a join may sit at any shift of a's (the zone check then
 * shifts its range), others at the same offset. */
static bool pkt_leq(const struct as_reg *a, const struct as_reg *b, struct idmap *m)
{
	if (id_special(b->id))
		return a->id == b->id && a->delta == b->delta;
	int64_t shift = (int64_t)a->delta - b->delta;
	if (b->id & JOIN_BIT) {
		if (a->id == LOST_BASE || a->id == JOIN_PENDING)
			return false;
	} else if (id_special(a->id) || shift) {
		return false;
	}
	return map_bind(m, b->id, a->id, shift);
}

static bool is_zero(const struct bg_scalar *v)
{
	uint64_t c;
	return bg_scalar_is_const(v, &c) && c == 0;
}

/* A pointer that may be NULL and holds no reference: NULL joined with it
 * stays it (the kernel walks the NULL path and the pointer's apart; a NULL
 * check then tells them apart again). */
static bool null_or_ptr(const struct as_reg *r)
{
	return r->type != T_SCALAR && r->type != T_UNINIT && (r->flags & RF_NULL) &&
	       rg(r->type)->null_name && !r->ref;
}

/* A slice (or a dynptr slot) names the same dynptr, up to the renaming. */
static bool dynptr_leq(const struct as_reg *a, const struct as_reg *b, struct idmap *m)
{
	if (a->dkind != b->dkind)
		return false;
	return b->dynptr ? a->dynptr && map_bind(m, b->dynptr, a->dynptr, 0) : a->dynptr == 0;
}

/* reg_leq(x, x, m) without the checks that hold for any x: only the ids it
 * binds (and whether one cannot be bound). Most registers and spills of two
 * states reaching one node came unchanged from a common ancestor: the same
 * bytes. */
static bool reg_self_leq(const struct as_reg *x, struct idmap *m)
{
	if (x->type == T_UNINIT)
		return true;
	if (x->type == T_PKT || x->type == T_PKT_META) {
		if (!pkt_leq(x, x, m))
			return false;
	} else if (x->id && (id_special(x->id) || !map_bind(m, x->id, x->id, 0))) {
		return false;
	}
	if (x->type == T_SCALAR)
		return true;
	if (x->ref && !map_bind(m, x->ref, x->ref, 0))
		return false;
	return !x->dynptr || map_bind(m, x->dynptr, x->dynptr, 0);
}

static bool reg_leq(const struct as_reg *a, const struct as_reg *b, struct idmap *m)
{
	if (b->type == T_UNINIT)
		return true;
	if (a->type == b->type && !memcmp(a, b, sizeof(*a)))
		return reg_self_leq(b, m);
	if (a->type == T_UNINIT)
		return false;
	if (b->type == T_SCALAR && a->type != T_SCALAR)
		return b->id == 0 && scalar_top(&b->v);
	if (a->type == T_SCALAR && null_or_ptr(b))
		return !b->id && is_zero(&a->v);
	if (a->type != b->type)
		return false;
	bool pkt = a->type == T_PKT || a->type == T_PKT_META;
	if (pkt) {
		if (!pkt_leq(a, b, m))
			return false;
	} else if (b->id && (id_special(a->id) || !map_bind(m, b->id, a->id, 0))) {
		return false;
	}
	/* RF_LINK32 qualifies the link id: without b's id it says nothing */
	uint8_t af = b->id ? a->flags : (uint8_t)(a->flags & ~RF_LINK32);
	if ((af & ~b->flags) != 0)
		return false;
	if (a->type == T_SCALAR) {
		uint64_t c;
		/* a set of path constants covers only constants and other sets: a
		 * range that is unknown on one path is shifted as the kernel does */
		if (b->cset && !a->cset && !bg_scalar_is_const(&a->v, &c))
			return false;
		return (!b->id || a->delta == b->delta) && bg_scalar_leq(&a->v, &b->v);
	}
	if (a->map != b->map || a->frame != b->frame)
		return false;
	if (b->ref ? !a->ref || !map_bind(m, b->ref, a->ref, 0) : a->ref != 0)
		return false;
	if (!dynptr_leq(a, b, m))
		return false;
	if (a->size < b->size)
		return false;
	if (!btf_eq(a->btf, b->btf) && b->btf)
		return false;
	return bg_scalar_leq(&a->v, &b->v);
}

bool as_reg_leq(const struct as_reg *a, const struct as_reg *b)
{
	leq_map.n = 0;
	return reg_leq(a, b, &leq_map);
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
		    a->ref == b->ref && a->dynptr == b->dynptr && a->dkind == b->dkind;
	if (!same) {
		/* NULL joined with a pointer that may be NULL: the pointer, its
		 * NULL id dropped (the id's other holders are not NULL on the
		 * NULL side) */
		const struct as_reg *p = a->type == T_SCALAR ? b : a, *z = a->type == T_SCALAR ? a : b;
		if (z->type == T_SCALAR && is_zero(&z->v) && p->type != T_SCALAR && !p->ref &&
		    rg(p->type)->null_name) {
			r = *p;
			r.flags |= RF_NULL;
			r.id = 0;
			return r;
		}
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
	r.cset = 0;
	if (a->type == T_SCALAR && !widen && r.v.umax - r.v.umin < AS_CSET_MAX) {
		uint64_t c;
		r.cset = (a->cset || bg_scalar_is_const(&a->v, &c)) &&
			 (b->cset || bg_scalar_is_const(&b->v, &c));
	}
	return r;
}

void as_state_init(struct as_state *s)
{
	memset(s, 0, sizeof(*s));
	s->lock = -1;
	bg_zone_init(&s->zone);
}

/* Stack slot arrays are shared copy-on-write between states (a copy of a
 * state shares its frames' slots; a stored state and the working state made
 * from it share them until one of them writes a slot): the array sits after
 * a header holding its reference count. Every write goes through
 * as_frame_own (as_slot_get does it), reads through as_slot_find. */
/* What a walk of a slot array tells, kept with the array (slot_sum): the
 * masks of as_frame_slot_masks and the spills' part of the partition keys
 * (as_state_keys), each a sum of one hash per spill, so that dropping slots
 * subtracts theirs. */
struct slot_sum {
	uint64_t data, value;   /* as_slot_masks */
	uint64_t kw, kf, kp, km; /* weak, full, pointer, map key parts */
	uint32_t nmap;          /* spilled map pointers (km counts) */
};

struct slot_buf {
	uint32_t refs;
	uint32_t cap;
	/* the slot_sum of the array, valid while sum_ok (as_frame_own clears
	 * it: the caller writes anywhere) except for the slots of the dirty
	 * indexes: as_slot_get took their part out before handing them over
	 * for writing, frame_sum adds what they hold then */
	uint32_t sum_ok;
	uint64_t dirty;
	struct slot_sum sum;
	struct as_slot s[];
};

static struct slot_buf *slot_buf(const struct as_slot *slots)
{
	return (struct slot_buf *)(void *)((char *)(uintptr_t)slots - offsetof(struct slot_buf, s));
}

static __thread bool oom_flag;

bool as_oom_take(void)
{
	bool r = oom_flag;
	oom_flag = false;
	return r;
}

static void slots_release(struct as_slot *slots)
{
	if (!slots)
		return;
	struct slot_buf *b = slot_buf(slots);
	if (--b->refs == 0)
		free(b);
}

/* Bits set in x (inline: without -mpopcnt, __builtin_popcountll is a
 * library call). */
static inline uint32_t popcount64(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

/* as_frame_own; keep: the copy takes the slot_sum along (as_slot_get
 * tracks the slot it hands over), else the caller may write anywhere. */
static int frame_own(struct as_frame *f, bool keep)
{
	if (!f->slots)
		return 0;
	struct slot_buf *old = slot_buf(f->slots);
	if (old->refs == 1) {
		if (!keep)
			old->sum_ok = 0;
		return 0;
	}
	uint32_t cap = f->nslots ? f->nslots : 1;
	struct slot_buf *b = malloc(sizeof(*b) + cap * sizeof(struct as_slot));
	if (!b) {
		oom_flag = true;
		return -ENOMEM;
	}
	b->refs = 1;
	b->cap = cap;
	b->sum_ok = keep && old->sum_ok;
	b->dirty = b->sum_ok ? old->dirty : 0;
	b->sum = old->sum;
	memcpy(b->s, f->slots, f->nslots * sizeof(struct as_slot));
	slots_release(f->slots);
	f->slots = b->s;
	f->cap = cap;
	return 0;
}

int as_frame_own(struct as_frame *f)
{
	return frame_own(f, false);
}

static void slot_sum_add(struct slot_sum *m, const struct as_slot *sl, uint64_t sign);
static const struct slot_sum *frame_sum(const struct as_frame *f);
static inline uint32_t slot_pos(const struct as_frame *f, int idx);

/* The slot of index idx (old: what it holds, NULL for a new one) is handed
 * over for writing: its part of the slot_sum goes until frame_sum adds it
 * again. */
static void sum_touch(struct as_frame *f, int idx, const struct as_slot *old)
{
	struct slot_buf *b = slot_buf(f->slots);
	if (!b->sum_ok)
		return;
	if (idx < 0 || idx >= 64) {
		b->sum_ok = 0;
		return;
	}
	if ((b->dirty >> idx) & 1)
		return;
	if (old) {
		b->sum.data &= ~(1ull << idx);
		b->sum.value &= ~(1ull << idx);
		slot_sum_add(&b->sum, old, (uint64_t)-1);
	}
	b->dirty |= 1ull << idx;
}

int as_frame_drop(struct as_frame *f, uint64_t drop)
{
	drop &= f->present;
	if (!drop)
		return 0;
	struct slot_buf *old = slot_buf(f->slots);
	struct slot_sum sum = old->sum;
	if (old->sum_ok) {
		/* what is left: the dropped slots' part taken out (a dirty
		 * slot's is out already) */
		sum.data &= ~drop;
		sum.value &= ~drop;
		for (uint64_t d = drop & ~old->dirty; d; d &= d - 1)
			slot_sum_add(&sum, &f->slots[slot_pos(f, __builtin_ctzll(d))], (uint64_t)-1);
	}
	struct slot_buf *b = old;
	if (old->refs > 1) {
		/* shared: the kept slots go straight into a copy of its own
		 * (as_frame_own's copy, without the dropped ones) */
		uint32_t cap = f->nslots ? f->nslots : 1;
		b = malloc(sizeof(*b) + cap * sizeof(struct as_slot));
		if (!b) {
			oom_flag = true;
			return -ENOMEM;
		}
		b->refs = 1;
		b->cap = cap;
		b->sum_ok = old->sum_ok;
		f->cap = cap;
	}
	/* the runs of kept slots between the dropped ones, moved down */
	uint32_t w = 0, k = 0;
	for (uint64_t d = drop;; d &= d - 1) {
		uint32_t end = d ? slot_pos(f, __builtin_ctzll(d)) : f->nslots;
		if (end > k && b->s + w != f->slots + k)
			memmove(b->s + w, f->slots + k, (end - k) * sizeof(struct as_slot));
		w += end - k;
		if (!d)
			break;
		k = end + 1;
	}
	b->dirty = old->dirty & ~drop;
	b->sum = sum;
	f->present &= ~drop;
	if (b != old) {
		slots_release(f->slots);
		f->slots = b->s;
	}
	f->nslots = w;
	return 0;
}

void as_frame_slot_masks(const struct as_frame *f, struct as_slot_masks *m)
{
	const struct slot_sum *sum = frame_sum(f);
	m->data = sum->data;
	m->value = sum->value;
}

int as_state_own(struct as_state *s)
{
	for (uint32_t i = 0; i < s->nframes; i++)
		if (as_frame_own(&s->fr[i]))
			return -ENOMEM;
	return 0;
}

static void frame_fini(struct as_frame *f)
{
	free(f->cb_args);
	f->cb_args = NULL;
	slots_release(f->slots);
	f->slots = NULL;
	f->nslots = f->cap = 0;
	f->present = 0;
}

/* Frame arrays of finished states are kept for the next copies: copying a
 * state is the analysis' most frequent allocation (pyperf600: 158k), and a
 * frame (~1.3 KB) is above malloc's per-thread cache, so each malloc/free
 * pair cost ~400 instructions. Per thread, FR_CACHE arrays per frame count
 * (an array in list n holds at least n frames); as_state_cache_drop frees
 * them (bg_verify does at its end). Not under ASan, so that a use after free
 * of a frame array is still caught. */
#define FR_CACHE 32
#if defined(__SANITIZE_ADDRESS__)
#define FR_CACHE_ON 0
#else
#define FR_CACHE_ON 1
#endif

static __thread struct {
	uint32_t n;
	struct as_frame *p[FR_CACHE];
} fr_cache[AS_MAX_FRAMES + 1];

static struct as_frame *fr_alloc(uint32_t nframes)
{
	if (FR_CACHE_ON && nframes <= AS_MAX_FRAMES && fr_cache[nframes].n)
		return fr_cache[nframes].p[--fr_cache[nframes].n];
	return malloc(nframes * sizeof(struct as_frame) + 1);
}

static void fr_free(struct as_frame *fr, uint32_t nframes)
{
	if (FR_CACHE_ON && fr && nframes <= AS_MAX_FRAMES && fr_cache[nframes].n < FR_CACHE)
		fr_cache[nframes].p[fr_cache[nframes].n++] = fr;
	else
		free(fr);
}

void as_state_cache_drop(void)
{
	for (uint32_t k = 0; k <= AS_MAX_FRAMES; k++)
		while (fr_cache[k].n)
			free(fr_cache[k].p[--fr_cache[k].n]);
}

void as_state_fini(struct as_state *s)
{
	for (uint32_t i = 0; i < s->nframes; i++)
		frame_fini(&s->fr[i]);
	fr_free(s->fr, s->nframes);
	s->fr = NULL;
	s->nframes = 0;
}

/* On failure d owns nothing (-ENOMEM). */
static int frame_copy(struct as_frame *d, const struct as_frame *f)
{
	*d = *f;
	d->cb_args = NULL;
	if (f->slots)
		slot_buf(f->slots)->refs++; /* shared until one side writes */
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
	dst->fr = fr_alloc(src->nframes);
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
	f->cb_left = AS_CB_UNCOUNTED;
	f->r[10].type = T_STACK;
	f->r[10].frame = (uint8_t)s->nframes;
	f->r[10].v = bg_scalar_const(0);
	s->nframes++;
	return 0;
}

void as_keep_top_frame(struct as_state *s)
{
	if (s->nframes <= 1)
		return;
	uint32_t top = s->nframes - 1;
	for (uint32_t i = 0; i < top; i++)
		frame_fini(&s->fr[i]);
	s->fr[0] = s->fr[top];
	s->nframes = 1;
	struct as_frame *f = &s->fr[0];
	for (int i = 0; i < 11; i++)
		if (f->r[i].type == T_STACK && f->r[i].frame == top)
			f->r[i].frame = 0;
		else if (f->r[i].type == T_STACK)
			as_reg_unknown(&f->r[i]); /* a caller's stack: gone */
}

void as_pop_frame(struct as_state *s)
{
	frame_fini(&s->fr[s->nframes - 1]);
	s->nframes--;
}

static inline uint32_t slot_pos(const struct as_frame *f, int idx)
{
	if (idx >= 0 && idx < 64)
		return popcount64(f->present & ((1ull << idx) - 1));
	uint32_t lo = 0, hi = f->nslots;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (f->slots[mid].idx < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint32_t as_slot_lower(const struct as_frame *f, int idx)
{
	return slot_pos(f, idx);
}

const struct as_slot *as_slot_find(const struct as_frame *f, int idx)
{
	if (idx >= 0 && idx < 64 && !((f->present >> idx) & 1))
		return NULL;
	uint32_t lo = slot_pos(f, idx);
	return lo < f->nslots && f->slots[lo].idx == idx ? &f->slots[lo] : NULL;
}

struct as_slot *as_slot_get(struct as_frame *f, int idx, bool create)
{
	uint32_t lo = slot_pos(f, idx);
	bool found = lo < f->nslots && f->slots[lo].idx == idx;
	if (!found && !create)
		return NULL;
	if (frame_own(f, true))
		return NULL;
	if (found) {
		sum_touch(f, idx, &f->slots[lo]);
		return &f->slots[lo];
	}
	if (f->nslots == f->cap) {
		uint32_t nc = f->cap ? f->cap * 2 : 4;
		bool fresh = !f->slots;
		struct slot_buf *nb = realloc(f->slots ? slot_buf(f->slots) : NULL,
					      sizeof(*nb) + nc * sizeof(struct as_slot));
		if (!nb) {
			oom_flag = true;
			return NULL;
		}
		nb->refs = 1;
		nb->cap = nc;
		if (fresh) {
			nb->sum_ok = 0;
			nb->dirty = 0;
		}
		f->slots = nb->s;
		f->cap = nc;
	}
	memmove(&f->slots[lo + 1], &f->slots[lo], (f->nslots - lo) * sizeof(*f->slots));
	f->nslots++;
	if (idx >= 0 && idx < 64)
		f->present |= 1ull << idx;
	sum_touch(f, idx, NULL);
	struct as_slot *sl = &f->slots[lo];
	memset(sl, 0, sizeof(*sl));
	sl->idx = (uint8_t)idx;
	as_reg_uninit(&sl->spill);
	return sl;
}

struct as_slot *as_slot_range(struct as_frame *f, int lo, int hi)
{
	if (lo < 0 || hi >= 64 || lo > hi) {
		/* outside the bitmap: slot by slot */
		for (int i = lo; i <= hi; i++)
			if (!as_slot_get(f, i, true))
				return NULL;
		return lo <= hi ? &f->slots[slot_pos(f, lo)] : NULL;
	}
	uint64_t want = (hi == 63 ? ~0ull : (1ull << (hi + 1)) - 1) & ~((1ull << lo) - 1);
	if (frame_own(f, true))
		return NULL;
	for (uint64_t miss = want & ~f->present; miss; miss &= miss - 1)
		if (!as_slot_get(f, __builtin_ctzll(miss), true))
			return NULL;
	struct as_slot *first = &f->slots[slot_pos(f, lo)];
	for (int i = lo; i <= hi; i++)
		sum_touch(f, i, &first[i - lo]);
	return first;
}

void as_dynptr_forget(struct as_frame *f, int idx)
{
	struct as_slot *h = as_slot_get(f, idx, false);
	if (h && h->kind == SK_DYNPTR) {
		h->kind = SK_NONE;
		h->init = 0;
		h->zero = 0;
		as_reg_uninit(&h->spill);
	}
	struct as_slot *t = idx > 0 ? as_slot_get(f, idx - 1, false) : NULL;
	if (t && t->kind == SK_OBJ_TAIL) {
		t->kind = SK_NONE;
		t->init = 0;
		t->zero = 0;
	}
}

static void kill_slice(struct as_reg *r, uint32_t id)
{
	if (r->type == T_MEM && r->dynptr == id)
		as_reg_unknown(r);
}

void as_dynptr_kill_slices(struct as_state *s, uint32_t id)
{
	if (!id)
		return;
	for (uint32_t f = 0; f < s->nframes; f++) {
		struct as_frame *fr = &s->fr[f];
		for (int i = 0; i < 11; i++)
			kill_slice(&fr->r[i], id);
		for (uint32_t k = 0; k < fr->nslots; k++)
			if (fr->slots[k].kind == SK_SPILL && fr->slots[k].spill.type == T_MEM &&
			    fr->slots[k].spill.dynptr == id && !as_frame_own(fr))
				kill_slice(&fr->slots[k].spill, id);
	}
}

void as_slot_del(struct as_frame *f, int idx)
{
	struct as_slot *sl = as_slot_get(f, idx, false);
	if (!sl)
		return;
	uint32_t i = (uint32_t)(sl - f->slots);
	memmove(&f->slots[i], &f->slots[i + 1], (f->nslots - i - 1) * sizeof(*sl));
	f->nslots--;
	if (idx >= 0 && idx < 64)
		f->present &= ~(1ull << idx);
}

static bool slot_leq(const struct as_slot *a, const struct as_slot *b, struct idmap *m)
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
		if (b->kind == SK_SPILL && !reg_leq(&a->spill, &b->spill, m))
			return false;
		/* an iterator unusable outside an RCU section (KF_RCU_PROTECTED)
		 * is not covered by a usable one */
		if (b->kind == SK_ITER && (a->spill.flags & RF_UNTRUSTED) && !(b->spill.flags & RF_UNTRUSTED))
			return false;
		/* an irq flag of one nesting depth */
		if (b->kind == SK_IRQ && b->spill.size != AS_SEC_MAYBE && a->spill.size != b->spill.size)
			return false;
		/* the same dynptr: its kind, id and reference */
		if (b->kind == SK_DYNPTR &&
		    (!dynptr_leq(&a->spill, &b->spill, m) ||
		     (b->spill.ref ? !a->spill.ref || !map_bind(m, b->spill.ref, a->spill.ref, 0) : a->spill.ref != 0)))
			return false;
	}
	return true;
}

static bool cb_args_leq(const struct as_frame *a, const struct as_frame *b, struct idmap *m)
{
	if (a->cb_args && b->cb_args) {
		for (int i = 0; i < 5; i++)
			if (!reg_leq(&a->cb_args[i], &b->cb_args[i], m))
				return false;
	}
	return true;
}

/* Two frames whose slot arrays are one array, or byte for byte the same:
 * the states reaching a node mostly came from one ancestor along paths that
 * did not write these slots (pyperf600: 80% of the inclusion tests). */
static bool slots_same(const struct as_frame *a, const struct as_frame *b)
{
	return a->nslots == b->nslots && (a->slots == b->slots || !a->nslots ||
					  !memcmp(a->slots, b->slots, a->nslots * sizeof(*a->slots)));
}

/* slot_leq(x, x, m): a spill binds its ids (reg_self_leq), a stack object
 * takes slot_leq's checks, plain bytes are covered. */
static bool slot_self_leq(const struct as_slot *x, struct idmap *m)
{
	if (x->kind == SK_NONE)
		return true;
	if (x->kind != SK_SPILL)
		return slot_leq(x, x, m);
	return reg_self_leq(&x->spill, m);
}

static bool frame_leq(const struct as_frame *a, const struct as_frame *b, struct idmap *m)
{
	if (a->callsite != b->callsite || a->cb_left > b->cb_left)
		return false;
	for (int i = 0; i < 11; i++)
		if (!reg_leq(&a->r[i], &b->r[i], m))
			return false;
	if (slots_same(a, b)) {
		/* the same slots: only the ids their objects hold are bound */
		for (uint32_t i = 0; i < b->nslots; i++)
			if (!slot_self_leq(&b->slots[i], m))
				return false;
		return cb_args_leq(a, b, m);
	}
	/* both slot lists are sorted by index: one merge walk */
	uint32_t j = 0;
	for (uint32_t i = 0; i < b->nslots; i++) {
		const struct as_slot *sb = &b->slots[i];
		while (j < a->nslots && a->slots[j].idx < sb->idx)
			j++;
		const struct as_slot *sa = j < a->nslots && a->slots[j].idx == sb->idx ? &a->slots[j] : NULL;
		if (!sa) {
			if (sb->init || sb->kind != SK_NONE)
				return false;
			continue;
		}
		if (!slot_leq(sa, sb, m))
			return false;
	}
	return cb_args_leq(a, b, m);
}

/* The same references are held: each of b's is one of a's, one to one
 * (through the map when a register names it, else paired by acquiring insn). */
static bool refs_leq(const struct as_state *a, const struct as_state *b, struct idmap *m)
{
	if (a->nrefs != b->nrefs)
		return false;
	bool used[AS_MAX_REFS] = { false };
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < b->nrefs; i++) {
			const struct as_ref *rb = &b->refs[i];
			int k = map_find(m, rb->id);
			if ((k >= 0) != (pass == 0))
				continue;
			uint32_t j;
			for (j = 0; j < a->nrefs; j++) {
				const struct as_ref *ra = &a->refs[j];
				if (used[j])
					continue;
				if (k >= 0 ? ra->id == m->e[k].to
					   : ra->insn == rb->insn && ra->type == rb->type && !map_is_target(m, ra->id))
					break;
			}
			if (j == a->nrefs || (k < 0 && !map_bind(m, rb->id, a->refs[j].id, 0)))
				return false;
			used[j] = true;
		}
	}
	return true;
}

/* Every zone fact of b holds in a for the base a names it by. A base of b
 * that no register of b holds is not in the map: its fact is about no value
 * (ids are never reused) and needs nothing of a. */
static bool zone_leq(const struct as_state *a, const struct as_state *b, const struct idmap *m)
{
	for (uint32_t i = 0; i < b->zone.n; i++) {
		const struct bg_zone_ent *e = &b->zone.e[i];
		uint32_t x = e->base;
		int64_t shift = 0;
		if (x != 0) {
			int k = map_find(m, x);
			if (k < 0)
				continue;
			x = m->e[k].to;
			shift = m->e[k].shift;
		}
		if (x == LOST_BASE) {
			if (e->range)
				return false;
			continue;
		}
		if ((int64_t)bg_zone_range(&a->zone, x, e->meta) - shift < (int64_t)e->range)
			return false;
	}
	return true;
}

/* The same resilient locks held, in the same order (ids not renamed, as
 * the spin lock's). */
static bool res_eq(const struct as_state *a, const struct as_state *b)
{
	if (a->nres != b->nres)
		return false;
	for (unsigned i = 0; a->nres != AS_RES_MAYBE && i < a->nres; i++)
		if (a->res[i].lock != b->res[i].lock || a->res[i].id != b->res[i].id ||
		    a->res[i].cond != b->res[i].cond || a->res[i].irq != b->res[i].irq)
			return false;
	return true;
}

static bool state_leq(const struct as_state *a, const struct as_state *b, struct idmap *m)
{
	/* lock ids are not renamed: a different one is only covered by a
	 * joined one (which claims nothing about which value is locked) */
	if (a->nframes != b->nframes || a->lock != b->lock || a->niter != b->niter ||
	    (a->lock_id != b->lock_id && b->lock_id != AS_LOCK_ID_JOINED) ||
	    memcmp(a->sec, b->sec, sizeof(a->sec)))
		return false;
	if (memcmp(a->iter, b->iter, a->niter * sizeof(a->iter[0])))
		return false;
	if (b->nres != AS_RES_MAYBE && !res_eq(a, b))
		return false;
	for (uint32_t i = 0; i < a->nframes; i++)
		if (!frame_leq(&a->fr[i], &b->fr[i], m))
			return false;
	return refs_leq(a, b, m) && zone_leq(a, b, m);
}

bool as_state_leq(const struct as_state *a, const struct as_state *b)
{
	if (a->bottom)
		return true;
	if (b->bottom)
		return false;
	leq_map.n = 0;
	return state_leq(a, b, &leq_map);
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
	} else if (a->kind == SK_IRQ) {
		if (a->spill.size != b->spill.size)
			a->spill.size = AS_SEC_MAYBE;
	} else if (a->kind == SK_ITER) {
		/* usable only if usable on both paths */
		if ((a->spill.flags | b->spill.flags) & RF_UNTRUSTED)
			a->spill.flags = (uint8_t)((a->spill.flags & ~RF_RCU) | RF_UNTRUSTED);
	} else if (a->kind == SK_DYNPTR &&
		   (a->spill.dkind != b->spill.dkind || a->spill.dynptr != b->spill.dynptr ||
		    a->spill.ref != b->spill.ref)) {
		/* two different dynptrs: neither is usable (nor readable) here */
		a->kind = SK_NONE;
		a->init = a->zero = 0;
		as_reg_uninit(&a->spill);
	}
}

static void frame_join(struct as_frame *a, const struct as_frame *b, bool widen,
		       const uint64_t *thr, unsigned nthr)
{
	for (int i = 0; i < 11; i++)
		a->r[i] = as_reg_join(&a->r[i], &b->r[i], widen, thr, nthr);
	if (b->cb_left > a->cb_left)
		a->cb_left = b->cb_left;
	if (b->cb_calls > a->cb_calls)
		a->cb_calls = b->cb_calls;
	if (a->cb_args && b->cb_args)
		for (int i = 0; i < 5; i++)
			a->cb_args[i] = as_reg_join(&a->cb_args[i], &b->cb_args[i], widen, thr, nthr);
	/* both slot lists are sorted by index: one merge walk */
	if (as_frame_own(a))
		return; /* as_oom_take() reports it */
	uint32_t w = 0, j = 0;
	uint64_t present = 0;
	for (uint32_t i = 0; i < a->nslots; i++) {
		struct as_slot *sa = &a->slots[i];
		while (j < b->nslots && b->slots[j].idx < sa->idx)
			j++;
		if (j >= b->nslots || b->slots[j].idx != sa->idx)
			continue;
		const struct as_slot *sb = &b->slots[j];
		slot_join(sa, sb, widen, thr, nthr);
		if (!sa->init && sa->kind == SK_NONE)
			continue;
		if (w != i)
			a->slots[w] = *sa;
		w++;
		if (sa->idx < 64)
			present |= 1ull << sa->idx;
	}
	a->nslots = w;
	a->present = present;
}

/* Pointers joined from different packet bases get a fresh base (a new id,
 * flagged AS_ID_JOIN), so later bounds checks on them work; the new base
 * inherits the weaker of the two sides' known ranges. */

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
	const struct as_slot *sl = as_slot_find(fr, (int)(loc - 16));
	return sl && sl->kind == SK_SPILL ? &sl->spill : NULL;
}

static void plan_one(const struct as_state *a, const struct as_state *b, uint32_t f, uint32_t loc,
		     const struct as_reg *ra, const struct as_reg *rb, uint32_t *ids, struct join_plan *pl,
		     uint32_t *n)
{
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
	p->id = JOIN_BIT | as_id_fresh(ids);
	p->delta = 0;
	p->room = x < y ? x : y;
	(*n)++;
}

static uint32_t plan_join(const struct as_state *a, const struct as_state *b, uint32_t *ids,
			  struct join_plan *pl)
{
	uint32_t n = 0;
	for (uint32_t f = 0; f < a->nframes && f < b->nframes; f++) {
		const struct as_frame *fa = &a->fr[f], *fb = &b->fr[f];
		for (uint32_t i = 0; i < 11; i++)
			plan_one(a, b, f, i, &fa->r[i], &fb->r[i], ids, pl, &n);
		/* spills at the same slot: one merge walk of the sorted lists */
		uint32_t j = 0;
		for (uint32_t k = 0; k < fa->nslots; k++) {
			const struct as_slot *sa = &fa->slots[k];
			while (j < fb->nslots && fb->slots[j].idx < sa->idx)
				j++;
			if (j == fb->nslots)
				break;
			const struct as_slot *sb = &fb->slots[j];
			if (sb->idx == sa->idx && sa->kind == SK_SPILL && sb->kind == SK_SPILL)
				plan_one(a, b, f, 16u + sa->idx, &sa->spill, &sb->spill, ids, pl, &n);
		}
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
			if (s->fr[f].slots[k].spill.id == JOIN_PENDING && !as_frame_own(&s->fr[f]))
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

/* ---- renaming b's ids into a's before a join */

/* join: bind from -> to only when both are free (first place wins) */
static void map_try(struct idmap *m, uint32_t from, uint32_t to)
{
	if (id_special(from) || id_special(to) || m->n == IDMAP_MAX || map_find(m, from) >= 0 ||
	    map_is_target(m, to))
		return;
	m->e[m->n].from = from;
	m->e[m->n].to = to;
	m->e[m->n++].shift = 0;
}

/* T_UNINIT registers hold no ids, but the spill of a stack object (a
 * dynptr's id and reference, an iterator's reference) does. */
static bool reg_has_ids(const struct as_reg *r)
{
	return r->type != T_UNINIT || r->ref || r->dynptr;
}

static void pair_regs(struct idmap *m, const struct as_reg *ra, const struct as_reg *rb)
{
	if (ra->type != rb->type || !reg_has_ids(ra))
		return;
	map_try(m, rb->id, ra->id);
	map_try(m, rb->ref, ra->ref);
	map_try(m, rb->dynptr, ra->dynptr);
}

/* Walk the places both states have (registers, common stack slots, callback
 * arguments, then references by acquiring insn). */
static void rename_map(const struct as_state *a, const struct as_state *b, struct idmap *m)
{
	for (uint32_t f = 0; f < a->nframes && f < b->nframes; f++) {
		const struct as_frame *fa = &a->fr[f], *fb = &b->fr[f];
		for (int i = 0; i < 11; i++)
			pair_regs(m, &fa->r[i], &fb->r[i]);
		uint32_t j = 0; /* both slot lists are sorted by index: one merge walk */
		for (uint32_t k = 0; k < fb->nslots; k++) {
			while (j < fa->nslots && fa->slots[j].idx < fb->slots[k].idx)
				j++;
			if (j == fa->nslots)
				break;
			const struct as_slot *sa = &fa->slots[j];
			if (sa->idx == fb->slots[k].idx && sa->kind == fb->slots[k].kind && sa->kind != SK_NONE)
				pair_regs(m, &sa->spill, &fb->slots[k].spill);
		}
		if (fa->cb_args && fb->cb_args)
			for (int i = 0; i < 5; i++)
				pair_regs(m, &fa->cb_args[i], &fb->cb_args[i]);
	}
	for (uint32_t i = 0; i < b->nrefs; i++) {
		if (map_find(m, b->refs[i].id) >= 0)
			continue;
		for (uint32_t j = 0; j < a->nrefs; j++)
			if (a->refs[j].insn == b->refs[i].insn && a->refs[j].type == b->refs[i].type &&
			    !map_is_target(m, a->refs[j].id)) {
				map_try(m, b->refs[i].id, a->refs[j].id);
				break;
			}
	}
}

typedef void (*id_fn)(uint32_t *id, void *arg);

static void reg_ids(struct as_reg *r, id_fn fn, void *arg)
{
	/* every id_fn leaves 0 ("none") alone */
	if (!reg_has_ids(r) || !(r->id | r->ref | r->dynptr))
		return;
	fn(&r->id, arg);
	fn(&r->ref, arg);
	fn(&r->dynptr, arg);
}

/* Every id a state holds: registers, spills, callback arguments, references,
 * zone bases (the zone is re-sorted by the caller when ids change). */
static void state_ids(struct as_state *s, id_fn fn, void *arg)
{
	for (uint32_t f = 0; f < s->nframes; f++) {
		struct as_frame *fr = &s->fr[f];
		for (int i = 0; i < 11; i++)
			reg_ids(&fr->r[i], fn, arg);
		for (uint32_t k = 0; k < fr->nslots; k++)
			if (fr->slots[k].kind != SK_NONE)
				reg_ids(&fr->slots[k].spill, fn, arg);
		if (fr->cb_args)
			for (int i = 0; i < 5; i++)
				reg_ids(&fr->cb_args[i], fn, arg);
	}
	for (uint32_t i = 0; i < s->nrefs; i++)
		fn(&s->refs[i].id, arg);
	for (uint32_t i = 0; i < s->zone.n; i++)
		fn(&s->zone.e[i].base, arg);
}

struct idset {
	uint32_t n;
	bool full;
	uint32_t v[IDMAP_MAX];
};

static void collect_id(uint32_t *id, void *arg)
{
	struct idset *set = arg;
	if (id_special(*id))
		return;
	for (uint32_t i = 0; i < set->n; i++)
		if (set->v[i] == *id)
			return;
	if (set->n == IDMAP_MAX)
		set->full = true;
	else
		set->v[set->n++] = *id;
}

struct rename {
	struct idmap *m;
	const struct as_state *a;
	struct idset *a_ids; /* a's ids, collected when first needed */
	bool collected;
	uint32_t *ids;
	bool full;
};

/* b's id y becomes: its partner in a; else, when a also uses the number y
 * for something else, a fresh id (y's own map entry, so all of y's places
 * agree); else y. The result is one to one, so b's relations are kept
 * exactly and none of a's is forged. */
static void rename_plan_id(uint32_t *id, void *arg)
{
	struct rename *r = arg;
	if (id_special(*id) || map_find(r->m, *id) >= 0)
		return;
	if (!r->collected) {
		/* most joins pair every id of b with one of a's place by place
		 * (rename_map): a's id set is only needed for the others */
		state_ids((struct as_state *)r->a, collect_id, r->a_ids);
		r->collected = true;
	}
	bool clash = r->a_ids->full;
	for (uint32_t i = 0; !clash && i < r->a_ids->n; i++)
		clash = r->a_ids->v[i] == *id;
	if (!clash)
		return;
	if (r->m->n == IDMAP_MAX) {
		r->full = true; /* cannot happen (IDMAP_MAX); the join then fails */
		return;
	}
	r->m->e[r->m->n].from = *id;
	r->m->e[r->m->n].to = (*id & JOIN_BIT) | as_id_fresh(r->ids);
	r->m->e[r->m->n++].shift = 0;
}

static void rename_apply_id(uint32_t *id, void *arg)
{
	struct rename *r = arg;
	int k = id_special(*id) ? -1 : map_find(r->m, *id);
	if (k >= 0)
		*id = r->m->e[k].to;
}

static __thread struct idmap join_map;
static __thread struct idset join_ids;

/* b renamed into a's names in *out (a copy), or 0 with *use_b when no id
 * changes. Returns -ENOMEM. */
static int rename_into(const struct as_state *a, const struct as_state *b, uint32_t *ids,
		       struct as_state *out, bool *use_b)
{
	struct idmap *m = &join_map;
	struct idset *a_ids = &join_ids;
	int err;
	m->n = 0;
	a_ids->n = 0;
	a_ids->full = false;
	rename_map(a, b, m);
	struct rename r = { .m = m, .a = a, .a_ids = a_ids, .ids = ids };
	state_ids((struct as_state *)b, rename_plan_id, &r);
	if (r.full)
		return -ENOMEM;
	bool identity = true;
	for (uint32_t i = 0; identity && i < m->n; i++)
		identity = m->e[i].from == m->e[i].to;
	*use_b = identity;
	if (identity)
		return 0;
	err = as_state_copy(out, b);
	if (!err && as_state_own(out)) {
		as_state_fini(out);
		err = -ENOMEM;
	}
	if (err)
		return err;
	state_ids(out, rename_apply_id, &r);
	/* the renamed zone re-sorted (learn inserts in order) */
	struct bg_zone z = out->zone;
	bg_zone_init(&out->zone);
	for (uint32_t i = 0; i < z.n; i++)
		bg_zone_learn(&out->zone, z.e[i].base, z.e[i].meta, z.e[i].range);
	return 0;
}

int as_state_join(struct as_state *a, const struct as_state *b_in, bool widen, const uint64_t *thr,
		  unsigned nthr, uint32_t *ids)
{
	const struct as_state *b = b_in;
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
	struct as_state renamed;
	bool use_b;
	if (rename_into(a, b_in, ids, &renamed, &use_b))
		return -ENOMEM;
	if (!use_b)
		b = &renamed;
	uint32_t np = plan_join(a, b, ids, plan);
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
	else if (a->lock_id != b->lock_id)
		a->lock_id = AS_LOCK_ID_JOINED;
	for (int k = 0; k < AS_SEC__MAX; k++)
		if (a->sec[k] != b->sec[k])
			a->sec[k] = AS_SEC_MAYBE; /* depth unknown: closing it or exiting is an error */
	if (!res_eq(a, b))
		a->nres = AS_RES_MAYBE; /* different locks held: any lock operation or exit is an error */
	as_zone_gc(a);
	if (!use_b)
		as_state_fini(&renamed);
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

/* The region part of a register's key: what the weak key and the pointer
 * key read. */
static inline uint64_t reg_wkey(const struct as_reg *r)
{
	return r->type * 4u + (r->flags & RF_NULL);
}

/* The full key of a register whose weak key is w (reg_key(r, false)). */
static inline uint64_t reg_fkey(const struct as_reg *r, uint64_t w)
{
	if (r->type == T_SCALAR && !r->v.bottom && !r->v.tn.mask && r->v.tn.value < 256)
		return mix(w, r->v.tn.value + 1);
	/* which map: a pointer to one map's value (or the map itself) joined
	 * with another map's is no pointer at all; so is a function pointer
	 * (a callback chosen on a branch: the kernel walks each) */
	if (r->type == T_MAP_VALUE || r->type == T_MAP_PTR || r->type == T_FUNC)
		return mix(w, (uint64_t)r->map);
	return w;
}

static inline bool key_is_ptr(const struct as_reg *r)
{
	return r->type != T_SCALAR && r->type != T_UNINIT;
}

/* A strong 64-bit mix (murmur3's finalizer): the spills' key parts are sums
 * of one such hash per spill, which collide no more than one chained hash. */
static uint64_t fmix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* Add (sign 1) or take out (sign -1) slot sl's part of a slot_sum. */
static void slot_sum_add(struct slot_sum *m, const struct as_slot *sl, uint64_t sign)
{
	if (sl->idx < 64 && sign == 1) {
		if (as_slot_data(sl))
			m->data |= 1ull << sl->idx;
		if (as_slot_value(sl))
			m->value |= 1ull << sl->idx;
	}
	if (sl->kind != SK_SPILL)
		return;
	const struct as_reg *r = &sl->spill;
	uint64_t w = reg_wkey(r), at = sl->idx * 1024u;
	m->kw += sign * fmix(at + w);
	m->kf += sign * fmix((at + reg_fkey(r, w)) ^ 0x1f1f1f1f00000000ull);
	if (key_is_ptr(r) && w)
		m->kp += sign * fmix((at + w) ^ 0x2e2e2e2e00000000ull);
	if (r->type == T_MAP_PTR) {
		m->km += sign * fmix(((uint64_t)(512 + sl->idx) << 32 | (uint32_t)r->map) ^ 0x3d3d3d3d00000000ull);
		m->nmap += (uint32_t)sign;
	}
}

/* The slot_sum of f's slots: kept in the slot array's header from one walk
 * to the next write (or updated by as_frame_drop). */
static const struct slot_sum *frame_sum(const struct as_frame *f)
{
	static const struct slot_sum none;
	if (!f->slots)
		return &none;
	struct slot_buf *b = slot_buf(f->slots);
	if (b->sum_ok) {
		for (uint64_t d = b->dirty & f->present; d; d &= d - 1) {
			int idx = __builtin_ctzll(d);
			slot_sum_add(&b->sum, &f->slots[slot_pos(f, idx)], 1);
		}
		b->dirty = 0;
		return &b->sum;
	}
	memset(&b->sum, 0, sizeof(b->sum));
	for (uint32_t k = 0; k < f->nslots; k++)
		slot_sum_add(&b->sum, &f->slots[k], 1);
	b->dirty = 0;
	b->sum_ok = 1;
	return &b->sum;
}

/* All five keys in one walk of the registers; the spills' parts come from
 * the frame's slot_sum. Each accumulator mixes exactly what its own
 * definition (state.h) names. */
void as_state_keys(const struct as_state *s, uint16_t live, bool weak_only, struct as_keys *k)
{
	uint64_t h = mix(s->nframes, (uint64_t)(int64_t)s->lock);
	uint64_t hp = h, hm = 0, hl = 0;
	h = mix(h, (uint64_t)s->sec[0] | (uint64_t)s->sec[1] << 8 | (uint64_t)s->sec[2] << 16 |
		       (uint64_t)s->nres << 24);
	/* references by acquiring insn: ids are names local to the state */
	uint64_t refs = 0;
	for (uint32_t i = 0; i < s->nrefs; i++)
		refs += mix(s->refs[i].insn, s->refs[i].type);
	h = mix(h, refs);
	uint64_t hw = h, hf = h;
	for (uint32_t f = 0; f < s->nframes; f++) {
		const struct as_frame *fr = &s->fr[f];
		bool below = f + 1 < s->nframes;
		for (int i = 0; i < 10; i++) {
			const struct as_reg *r = &fr->r[i];
			uint64_t w = reg_wkey(r);
			hw = mix(hw, w);
			if (!below && !((live >> i) & 1))
				continue;
			uint64_t full = reg_fkey(r, w);
			hf = mix(hf, full);
			if (!below)
				hl = mix(hl, full);
			hp = mix(hp, key_is_ptr(r) ? w : 0);
			if (r->type == T_MAP_PTR)
				hm = mix(hm, (uint64_t)(f * 16 + i) << 32 | (uint32_t)r->map);
		}
		const struct slot_sum *sum = frame_sum(fr);
		hw = mix(hw, sum->kw);
		hf = mix(hf, sum->kf);
		hp = mix(hp, sum->kp);
		if (sum->nmap)
			hm = mix(hm, fmix(sum->km ^ f));
	}
	k->wkey = hw;
	k->key = weak_only ? hw : hf;
	k->lkey = weak_only ? 0 : hl;
	k->pkey = hp;
	k->mkey = hm;
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
		return snprintf(buf, sz, "%s(size=%u,off=%s%s%s)", tn, r->size, off, r->ref ? ",ref" : "",
				r->dynptr ? ",dynptr slice" : "");
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
		if (fr->cb_left != AS_CB_UNCOUNTED)
			fprintf(f, " calls_left=%u", fr->cb_left);
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
	if (s->nres)
		fprintf(f, "  resilient locks: %s\n", s->nres == AS_RES_MAYBE ? "joined" : "held");
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
		n += s->fr[i].cap * sizeof(struct as_slot); /* counted by every sharer (an upper bound;
							    * the count of a state depends on it alone) */
	return n;
}
