/* Packet zone: see zone.h. Entries are kept sorted so that join/leq are
 * linear merges; capacity overflow drops the smallest range (sound: a
 * dropped constraint only loses precision). */
#include <stdio.h>
#include <string.h>
#include "domain/zone.h"

static int ent_cmp(uint32_t b1, uint8_t m1, uint32_t b2, uint8_t m2)
{
	if (m1 != m2)
		return m1 < m2 ? -1 : 1;
	if (b1 != b2)
		return b1 < b2 ? -1 : 1;
	return 0;
}

void bg_zone_init(struct bg_zone *z)
{
	z->n = 0;
}

static int find(const struct bg_zone *z, uint32_t base, bool meta)
{
	for (uint32_t i = 0; i < z->n; i++)
		if (z->e[i].base == base && z->e[i].meta == (uint8_t)meta)
			return (int)i;
	return -1;
}

uint32_t bg_zone_range(const struct bg_zone *z, uint32_t base, bool meta)
{
	int i = find(z, base, meta);
	return i < 0 ? 0 : z->e[i].range;
}

static void drop_at(struct bg_zone *z, uint32_t i)
{
	memmove(&z->e[i], &z->e[i + 1], (z->n - i - 1) * sizeof(z->e[0]));
	z->n--;
}

static void drop_smallest(struct bg_zone *z)
{
	uint32_t m = 0;
	for (uint32_t i = 1; i < z->n; i++)
		if (z->e[i].range < z->e[m].range)
			m = i;
	drop_at(z, m);
}

void bg_zone_learn(struct bg_zone *z, uint32_t base, bool meta, uint32_t range)
{
	int i = find(z, base, meta);
	if (range == 0)
		return;
	if (i >= 0) {
		if (z->e[i].range < range)
			z->e[i].range = range;
		return;
	}
	if (z->n == BG_ZONE_MAX)
		drop_smallest(z);
	uint32_t pos = 0;
	while (pos < z->n && ent_cmp(z->e[pos].base, z->e[pos].meta, base, meta) < 0)
		pos++;
	memmove(&z->e[pos + 1], &z->e[pos], (z->n - pos) * sizeof(z->e[0]));
	z->e[pos] = (struct bg_zone_ent){ .base = base, .meta = meta, .range = range };
	z->n++;
}

void bg_zone_forget(struct bg_zone *z, uint32_t base, bool meta)
{
	int i = find(z, base, meta);
	if (i >= 0)
		drop_at(z, (uint32_t)i);
}

void bg_zone_clear(struct bg_zone *z)
{
	z->n = 0;
}

bool bg_zone_leq(const struct bg_zone *a, const struct bg_zone *b)
{
	/* a <= b (a more precise): every fact of b holds in a with a range >= */
	for (uint32_t i = 0; i < b->n; i++)
		if (bg_zone_range(a, b->e[i].base, b->e[i].meta) < b->e[i].range)
			return false;
	return true;
}

struct bg_zone bg_zone_join(const struct bg_zone *a, const struct bg_zone *b)
{
	struct bg_zone r;
	r.n = 0;
	for (uint32_t i = 0; i < a->n; i++) {
		uint32_t rb = bg_zone_range(b, a->e[i].base, a->e[i].meta);
		uint32_t m = rb < a->e[i].range ? rb : a->e[i].range;
		if (m) {
			r.e[r.n] = a->e[i];
			r.e[r.n++].range = m;
		}
	}
	return r;
}

struct bg_zone bg_zone_widen(const struct bg_zone *old, const struct bg_zone *next)
{
	struct bg_zone r;
	r.n = 0;
	for (uint32_t i = 0; i < old->n; i++) {
		uint32_t rn = bg_zone_range(next, old->e[i].base, old->e[i].meta);
		if (rn >= old->e[i].range)
			r.e[r.n++] = old->e[i];
	}
	return r;
}

int bg_zone_fmt(const struct bg_zone *z, char *buf, unsigned sz)
{
	int n = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < z->n && (unsigned)n < sz; i++)
		n += snprintf(buf + n, sz - n, "%s%s%u>=%u", i ? " " : "",
			      z->e[i].meta ? "data-meta" : "end-pkt", z->e[i].base, z->e[i].range);
	return n;
}
