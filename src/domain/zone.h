/* Packet zone: a difference-bound store over symbolic packet positions.
 *
 * Variables are packet "bases": base 0 is the packet start (data), any other
 * base b is data + V_b for a variable offset V_b created by adding an unknown
 * scalar to a packet pointer. A packet pointer register is base_b + delta with
 * a constant delta, so every register derived from the same base shares its
 * facts (copies, constant arithmetic). The store keeps, per base and per end
 * (data_end for packet bases, data for packet_meta bases), the constraint
 *
 *     end - base_b >= range_b            (range_b >= 0, "range" below)
 *
 * i.e. one row of a DBM whose other entries are unknown. This is exactly the
 * fact a `if (p + n > data_end) goto drop` check proves on its fall-through,
 * and it is closed by construction (no transitive constraints to derive).
 * Join keeps a base's constraint with the smaller range (absent = 0); widening
 * drops any range that decreased; leq is pointwise >=.
 * Pure value module: a fixed-capacity struct passed by value. */
#ifndef BG_DOMAIN_ZONE_H
#define BG_DOMAIN_ZONE_H
#include <stdbool.h>
#include <stdint.h>

#define BG_ZONE_MAX 16

struct bg_zone_ent {
	uint32_t base;  /* base id; 0 is the packet start */
	uint8_t meta;   /* 1: a packet_meta base, its end is data */
	uint32_t range; /* end - base >= range */
};

struct bg_zone {
	uint32_t n;
	struct bg_zone_ent e[BG_ZONE_MAX]; /* sorted by (meta, base) */
};

void bg_zone_init(struct bg_zone *z);
/* Known range of a base (0 when nothing is known). */
uint32_t bg_zone_range(const struct bg_zone *z, uint32_t base, bool meta);
/* Learn end - base >= range (keeps the larger of old and new). */
void bg_zone_learn(struct bg_zone *z, uint32_t base, bool meta, uint32_t range);
/* Forget every fact about a base (the base is reallocated, or invalidated). */
void bg_zone_forget(struct bg_zone *z, uint32_t base, bool meta);
/* Forget everything (a helper changed the packet). */
void bg_zone_clear(struct bg_zone *z);
bool bg_zone_leq(const struct bg_zone *a, const struct bg_zone *b);
struct bg_zone bg_zone_join(const struct bg_zone *a, const struct bg_zone *b);
struct bg_zone bg_zone_widen(const struct bg_zone *old, const struct bg_zone *next);
int bg_zone_fmt(const struct bg_zone *z, char *buf, unsigned sz);
#endif
