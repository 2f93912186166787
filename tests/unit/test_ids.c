/* Abstract identities are fresh (src/analysis/state.h): two different values
 * never share an id, and states are compared and joined up to a renaming of
 * ids (the kernel's check_ids idmap).
 *
 * ids_join_bases_distinct builds the collision of the old scheme, where a
 * join base was named by hashing (salt, frame, location):
 *     JOIN | ((salt * 131 + frame * 2048 + loc * 2) & 0x7ffffffe) | 1
 * A join at salt S+16 of frame 0's r6 (loc 6) and a later join at salt S of
 * frame 1's stack slot 14 (loc 16 + 14 = 30) give the same number
 * (131 * 16 = 2048 + 2 * 24). The first join proves r6 has 100 bytes of room;
 * the second makes a base for the slot's pointer, whose room nobody checked:
 * with the shared id the slot's pointer gets r6's 100 bytes. With fresh ids
 * it must get none. (Built against the old as_state_join(..., salt) when
 * AS_ID_LIMIT is not defined, so the same test shows the old failure.)
 *
 * The others check the renaming: states equal up to renaming are below each
 * other, a relation one state claims and the other lacks is not, and a join
 * keeps links and packet ranges that the two sides hold under different ids. */
/* min-pass: 8 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "analysis/state.h"
#include "test.h"

#ifdef AS_ID_LIMIT
static uint32_t counter = 1000; /* the analysis' counter; hand-made ids stay below */
#define JOIN(a, b, salt) as_state_join((a), (b), false, NULL, 0, ((void)(salt), &counter))
#define LOST 0xffffffffu
#else
#define JOIN(a, b, salt) as_state_join((a), (b), false, NULL, 0, (salt))
#define LOST 0xffffffffu
#endif

static void two_frames(struct as_state *s)
{
	as_state_init(s);
	if (as_push_frame(s, -1) || as_push_frame(s, 7)) {
		printf("FAIL ids: no memory\n");
		exit(1);
	}
}

static void pkt(struct as_reg *r, uint32_t base, int32_t delta)
{
	as_reg_uninit(r);
	r->type = T_PKT;
	r->id = base;
	r->delta = delta;
	r->v = bg_scalar_const((uint64_t)(int64_t)delta);
}

static struct as_reg *slot_reg(struct as_state *s, uint32_t frame, int idx)
{
	struct as_slot *sl = as_slot_get(&s->fr[frame], idx, true);
	if (!sl) {
		printf("FAIL ids: no memory\n");
		exit(1);
	}
	sl->init = 0xff;
	sl->kind = SK_SPILL;
	sl->spill_size = 8;
	return &sl->spill;
}

static int64_t room(const struct as_state *s, const struct as_reg *r)
{
	if (r->id == LOST)
		return 0;
	return (int64_t)bg_zone_range(&s->zone, r->id, false) - r->delta;
}

static int copy(struct as_state *d, const struct as_state *s)
{
	if (as_state_copy(d, s)) {
		printf("FAIL ids: no memory\n");
		exit(1);
	}
	return 0;
}

static void join_bases_distinct(void)
{
	const uint32_t S = 1000;
	struct as_state x, y, w;
	two_frames(&x);
	two_frames(&y);
	/* r6 of frame 0: packet pointers of two different bases, each with 100
	 * bytes proven; frame 1's slot 14: the same unchecked pointer on both */
	pkt(&x.fr[0].r[6], 11, 0);
	pkt(&y.fr[0].r[6], 12, 0);
	bg_zone_learn(&x.zone, 11, false, 100);
	bg_zone_learn(&y.zone, 12, false, 100);
	pkt(slot_reg(&x, 1, 14), 13, 0);
	pkt(slot_reg(&y, 1, 14), 13, 0);
	int c = JOIN(&x, &y, S + 16);
	const struct as_reg *r6 = &x.fr[0].r[6];
	T_CHECK(c >= 0 && room(&x, r6) == 100, "ids_first_join_keeps_range",
		"join of two 100-byte bases: changed %d, r6 base %u room %lld (want 100)", c, r6->id,
		(long long)room(&x, r6));

	/* the other side of the second join: the same, but the slot's pointer is
	 * 4 bytes further along another base */
	copy(&w, &x);
	pkt(slot_reg(&w, 1, 14), 14, 4);
	c = JOIN(&x, &w, S);
	r6 = &x.fr[0].r[6];
	const struct as_reg *sp = &as_slot_get(&x.fr[1], 14, false)->spill;
	T_CHECK(c >= 0 && r6->id != sp->id, "ids_join_bases_distinct",
		"two join points, two values, one id %u (r6 at +%d, slot at +%d)", sp->id, r6->delta,
		sp->delta);
	T_CHECK(c >= 0 && room(&x, sp) <= 0 && room(&x, r6) == 100, "ids_no_borrowed_range",
		"the slot's never-checked pointer has %lld bytes of room (r6: %lld): the join gave it r6's",
		(long long)room(&x, sp), (long long)room(&x, r6));
	as_state_fini(&x);
	as_state_fini(&y);
	as_state_fini(&w);
}

/* r1, r2 share one link / base in each state, under different names */
static void renaming(void)
{
	struct as_state a, b, c;
	two_frames(&a);
	two_frames(&b);
	struct as_reg *ra = a.fr[1].r, *rb = b.fr[1].r;
	as_reg_unknown(&ra[1]);
	ra[1].id = 21;
	ra[2] = ra[1];
	ra[2].delta = 3;
	as_reg_unknown(&rb[1]);
	rb[1].id = 31;
	rb[2] = rb[1];
	rb[2].delta = 3;
	pkt(&ra[3], 22, 0);
	pkt(&ra[4], 22, 8);
	bg_zone_learn(&a.zone, 22, false, 40);
	pkt(&rb[3], 32, 0);
	pkt(&rb[4], 32, 8);
	bg_zone_learn(&b.zone, 32, false, 40);
	T_CHECK(as_state_leq(&a, &b) && as_state_leq(&b, &a), "ids_leq_up_to_renaming",
		"two states equal but for their ids are not below each other");

	/* c: r2 no longer linked to r1 (its own link), r4 on another base: b's
	 * relations do not hold in c */
	copy(&c, &b);
	c.fr[1].r[2].id = 33;
	T_CHECK(!as_state_leq(&c, &a), "ids_leq_link_needed", "a state without a's link r2 = r1 + 3 is below a");
	c.fr[1].r[2].id = 31;
	pkt(&c.fr[1].r[4], 34, 8);
	bg_zone_learn(&c.zone, 34, false, 48);
	T_CHECK(!as_state_leq(&c, &a), "ids_leq_base_needed",
		"a state where r4 is not r3 + 8 is below one where it is");
	as_state_fini(&c);

	/* b's own names also appear in a, for other values: the join must not
	 * read them as a's */
	copy(&c, &b);
	c.fr[1].r[5] = a.fr[1].r[1];       /* r5: a scalar with a's link name 21... */
	c.fr[1].r[5].id = 21;
	as_reg_unknown(&a.fr[1].r[5]);     /* ...while a's r5 is unlinked */
	int j = JOIN(&a, &c, 77);
	T_CHECK(j >= 0 && a.fr[1].r[1].id && a.fr[1].r[1].id == a.fr[1].r[2].id && a.fr[1].r[2].delta == 3 &&
			a.fr[1].r[5].id != a.fr[1].r[1].id,
		"ids_join_keeps_link", "link r2 = r1 + 3 lost or forged by the join: ids %u %u %u",
		a.fr[1].r[1].id, a.fr[1].r[2].id, a.fr[1].r[5].id);
	T_CHECK(j >= 0 && a.fr[1].r[3].id == a.fr[1].r[4].id && a.fr[1].r[4].delta == 8 &&
			room(&a, &a.fr[1].r[3]) == 40,
		"ids_join_keeps_range", "packet base or its 40 bytes lost: ids %u %u room %lld", a.fr[1].r[3].id,
		a.fr[1].r[4].id, (long long)room(&a, &a.fr[1].r[3]));
	as_state_fini(&a);
	as_state_fini(&b);
	as_state_fini(&c);
}

int main(void)
{
	join_bases_distinct();
	renaming();
	T_EXIT();
}
