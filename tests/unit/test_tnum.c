/* tnum soundness and precision, exhaustively over small widths: every tnum
 * whose unknown bits lie in a 4-bit window (81 shapes per window, placed at
 * bits 0, 28 (crossing the 32-bit boundary) and 60 (the sign bit)), every
 * pair of them, every member pair: op(x, y) must be in op(A, B). For the
 * bitwise operations, join, meet and range the result must also be the best
 * tnum (the tnum of the exact result set). */
/* min-pass: 15 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <stdint.h>
#include "domain/tnum.h"
#include "test.h"

#define NSHAPE 81
#define MAXM 16

struct shape {
	struct bg_tnum t;
	uint64_t m[MAXM];
	int n;
};

static struct shape shapes[3][NSHAPE];

/* Shape i (base-3 digits: 0 known 0, 1 known 1, 2 unknown) at bit `at`, over
 * a fixed background pattern of known bits. */
static void make_shapes(void)
{
	static const unsigned at[3] = {0, 28, 60};
	static const uint64_t bg[3] = {0x5a5a5a5a5a5a5a50ULL, 0x0000000000000001ULL,
				       0x00000000000000f3ULL};

	for (int w = 0; w < 3; w++)
		for (int i = 0; i < NSHAPE; i++) {
			struct shape *s = &shapes[w][i];
			uint64_t v = bg[w] & ~((uint64_t)0xf << at[w]), m = 0;
			int d = i;

			for (int b = 0; b < 4; b++, d /= 3) {
				if (d % 3 == 1)
					v |= (uint64_t)1 << (at[w] + b);
				if (d % 3 == 2)
					m |= (uint64_t)1 << (at[w] + b);
			}
			s->t = (struct bg_tnum){v, m};
			s->n = 0;
			for (uint64_t sub = m;; sub = (sub - 1) & m) { /* all subsets of m */
				s->m[s->n++] = v | sub;
				if (!sub)
					break;
			}
		}
}

enum { OP_ADD, OP_SUB, OP_MUL, OP_AND, OP_OR, OP_XOR, OP_JOIN, OP_MEET, NOPS };
static const char *opname[NOPS] = {"add", "sub", "mul", "and", "or", "xor", "join", "meet"};

static struct bg_tnum apply(int op, struct bg_tnum a, struct bg_tnum b, bool *empty)
{
	*empty = false;
	switch (op) {
	case OP_ADD: return bg_tnum_add(a, b);
	case OP_SUB: return bg_tnum_sub(a, b);
	case OP_MUL: return bg_tnum_mul(a, b);
	case OP_AND: return bg_tnum_and(a, b);
	case OP_OR: return bg_tnum_or(a, b);
	case OP_XOR: return bg_tnum_xor(a, b);
	case OP_JOIN: return bg_tnum_join(a, b);
	default: return bg_tnum_meet(a, b, empty);
	}
}

static uint64_t conc(int op, uint64_t x, uint64_t y)
{
	switch (op) {
	case OP_ADD: return x + y;
	case OP_SUB: return x - y;
	case OP_MUL: return x * y;
	case OP_AND: return x & y;
	case OP_OR: return x | y;
	default: return x ^ y;
	}
}

/* Best tnum of a concrete set, accumulated: known bits agree everywhere. */
struct acc {
	uint64_t and_, or_;
	bool any;
};

static void acc_add(struct acc *a, uint64_t x)
{
	a->and_ = a->any ? a->and_ & x : x;
	a->or_ = a->any ? a->or_ | x : x;
	a->any = true;
}

static bool exact_op(int op)
{
	return op == OP_AND || op == OP_OR || op == OP_XOR || op == OP_JOIN || op == OP_MEET;
}

static long check_pair(int op, const struct shape *a, const struct shape *b, int *bad)
{
	bool empty;
	struct bg_tnum r = apply(op, a->t, b->t, &empty);
	struct acc best = {0, 0, false};
	long n = 0;

	if (op == OP_JOIN || op == OP_MEET) {
		for (int i = 0; i < a->n; i++) {
			bool in_b = bg_tnum_contains(b->t, a->m[i]);

			if (op == OP_JOIN || in_b)
				acc_add(&best, a->m[i]);
		}
		for (int i = 0; op == OP_JOIN && i < b->n; i++)
			acc_add(&best, b->m[i]);
		n = a->n + b->n;
		if (op == OP_MEET && empty != !best.any)
			(*bad)++;
	} else {
		for (int i = 0; i < a->n; i++)
			for (int j = 0; j < b->n; j++, n++) {
				uint64_t z = conc(op, a->m[i], b->m[j]);

				acc_add(&best, z);
				if (!bg_tnum_contains(r, z))
					(*bad)++;
			}
	}
	if (best.any && (r.value & r.mask))
		(*bad)++;
	if (best.any && exact_op(op) &&
	    !(r.value == best.and_ && r.mask == (best.and_ ^ best.or_)))
		(*bad)++;
	if (best.any && !bg_tnum_contains(r, best.and_) && op >= OP_JOIN)
		(*bad)++;
	return n;
}

static void test_binary(void)
{
	char name[64];

	for (int op = 0; op < NOPS; op++) {
		long checks = 0;
		int bad = 0;

		for (int w = 0; w < 3; w++)
			for (int i = 0; i < NSHAPE; i++)
				for (int j = 0; j < NSHAPE; j++)
					checks += check_pair(op, &shapes[w][i], &shapes[w][j], &bad);
		snprintf(name, sizeof(name), "tnum-exhaustive-%s", opname[op]);
		T_CHECK(!bad, name, "%d violations in %ld checks", bad, checks);
		printf("    %s: %ld checks%s\n", name, checks,
		       exact_op(op) ? " (soundness and optimality)" : "");
	}
}

/* Unary ops: shifts, arsh at both widths, casts, sext, bswap, neg. */
static void test_unary(void)
{
	long checks = 0;
	int bad = 0;

	for (int w = 0; w < 3; w++)
		for (int i = 0; i < NSHAPE; i++) {
			const struct shape *s = &shapes[w][i];

			for (int k = 0; k < 64; k++)
				for (int m = 0; m < s->n; m++, checks += 5) {
					uint64_t x = s->m[m];

					bad += !bg_tnum_contains(bg_tnum_lsh(s->t, k), x << k);
					bad += !bg_tnum_contains(bg_tnum_rsh(s->t, k), x >> k);
					bad += !bg_tnum_contains(bg_tnum_arsh(s->t, k, 64),
								 (uint64_t)((int64_t)x >> k));
					bad += !bg_tnum_contains(bg_tnum_arsh(s->t, k, 32),
								 (uint32_t)((int32_t)x >> (k & 31)));
					bad += !bg_tnum_contains(bg_tnum_neg(s->t), -x);
				}
			for (int m = 0; m < s->n; m++, checks += 8) {
				uint64_t x = s->m[m];

				bad += !bg_tnum_contains(bg_tnum_cast(s->t, 1), (uint8_t)x);
				bad += !bg_tnum_contains(bg_tnum_cast(s->t, 2), (uint16_t)x);
				bad += !bg_tnum_contains(bg_tnum_subreg(s->t), (uint32_t)x);
				bad += !bg_tnum_contains(bg_tnum_sext(s->t, 1), (uint64_t)(int8_t)x);
				bad += !bg_tnum_contains(bg_tnum_sext(s->t, 4), (uint64_t)(int32_t)x);
				bad += !bg_tnum_contains(bg_tnum_bswap(s->t, 16), __builtin_bswap16(x));
				bad += !bg_tnum_contains(bg_tnum_bswap(s->t, 32), __builtin_bswap32(x));
				bad += !bg_tnum_contains(bg_tnum_bswap(s->t, 64), __builtin_bswap64(x));
			}
		}
	T_CHECK(!bad, "tnum-exhaustive-unary", "%d violations in %ld checks", bad, checks);
	printf("    tnum-exhaustive-unary: %ld checks\n", checks);
}

/* range: smallest tnum; next_ge / prev_le: exact, against a linear scan over
 * all 8-bit ranges and all 8-bit tnums (3^8 = 6561, checked against 256 x). */
static void test_range_next(void)
{
	long checks = 0;
	int bad = 0;

	for (unsigned lo = 0; lo < 256; lo++)
		for (unsigned hi = lo; hi < 256; hi++, checks++) {
			struct bg_tnum r = bg_tnum_range(lo, hi);
			struct acc best = {0, 0, false};

			for (unsigned x = lo; x <= hi; x++)
				acc_add(&best, x);
			bad += !(r.value == best.and_ && r.mask == (best.and_ ^ best.or_));
		}
	T_CHECK(!bad, "tnum-range-optimal-8bit", "%d of %ld ranges not optimal", bad, checks);
	checks = 0, bad = 0;
	for (int i = 0; i < 6561; i++) {
		uint64_t v = 0, m = 0;

		for (int b = 0, d = i; b < 8; b++, d /= 3) {
			v |= (uint64_t)(d % 3 == 1) << b;
			m |= (uint64_t)(d % 3 == 2) << b;
		}
		for (unsigned x = 0; x < 256; x++, checks++) {
			struct bg_tnum t = {v, m};
			uint64_t got, want = ~0ULL;
			bool ok;

			for (unsigned y = x; y < 256 && want == ~0ULL; y++)
				if (bg_tnum_contains(t, y))
					want = y;
			ok = bg_tnum_next_ge(t, x, &got);
			bad += ok != (want != ~0ULL) || (ok && got != want);
			want = ~0ULL;
			for (int y = x; y >= 0 && want == ~0ULL; y--)
				if (bg_tnum_contains(t, y))
					want = y;
			ok = bg_tnum_prev_le(t, x, &got);
			bad += ok != (want != ~0ULL) || (ok && got != want);
		}
	}
	T_CHECK(!bad, "tnum-next-prev-exact-8bit", "%d wrong of %ld", bad, checks);
}

static void test_examples(void)
{
	char buf[64];
	struct bg_tnum t = bg_tnum_range(0, 255);

	T_CHECK(t.value == 0 && t.mask == 0xff, "tnum-range-0-255", "got %llx/%llx",
		(unsigned long long)t.value, (unsigned long long)t.mask);
	t = bg_tnum_and(bg_tnum_unknown(), bg_tnum_const(0xf));
	T_CHECK(t.value == 0 && t.mask == 0xf, "tnum-and-mask", "mask %llx", (unsigned long long)t.mask);
	t = bg_tnum_add(bg_tnum_const(3), bg_tnum_const(4));
	T_CHECK(bg_tnum_is_const(t) && t.value == 7, "tnum-add-const", "not 7");
	bg_tnum_fmt(bg_tnum_range(0, 7), buf, sizeof(buf));
	T_CHECK(!strcmp(buf, "(0x0; 0x7)"), "tnum-fmt", "got %s", buf);
	T_CHECK(bg_tnum_leq(bg_tnum_const(5), bg_tnum_range(0, 7)) &&
			!bg_tnum_leq(bg_tnum_range(0, 7), bg_tnum_const(5)),
		"tnum-leq", "wrong");
	t = bg_tnum_arsh(bg_tnum_const(0x80000000), 4, 32);
	T_CHECK(t.value == 0xf8000000 && !t.mask, "tnum-arsh32-zext", "got %llx",
		(unsigned long long)t.value);
}

int main(void)
{
	make_shapes();
	test_examples();
	test_binary();
	test_unary();
	test_range_next();
	T_EXIT();
}
