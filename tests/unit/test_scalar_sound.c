/* Soundness of the scalar domain by execution: random abstract inputs (constants,
 * small/wide ranges, ranges crossing 0, 2^31, 2^63, random tnums, results of
 * earlier operations), random concrete members, and the check that the concrete
 * result of every ALU op (32/64-bit, K and X operands), byte-order op, cast and
 * branch lies in the abstract result. Also lattice operations (join, meet, widen,
 * narrow) and bg_scalar_cmp decisions. BG_SOUNDNESS_ITERS scales the run. */
/* min-pass: 29 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <stddef.h>
#include <stdint.h>
#include <bpfgate/insn.h>
#include "domain/scalar.h"
#include "isa/exec.h"
#include "scalar_ref.h"
#include "test.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t interesting(void)
{
	static const uint64_t pts[] = {0, 1, 2, 7, 8, 15, 16, 31, 32, 63, 64, 255, 256, 0x7fff,
				       0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
				       0x100000000ULL, 0x7fffffffffffffffULL, 0x8000000000000000ULL,
				       ~0ULL, ~0ULL - 1, ~0ULL - 15, 0xffffffff00000000ULL,
				       0x80000000ffffffffULL};
	uint64_t v = pts[rnd() % (sizeof(pts) / sizeof(pts[0]))];

	switch (rnd() % 4) {
	case 0:
		return v + (rnd() % 5) - 2;
	case 1:
		return v;
	case 2:
		return rnd() % 300;
	default:
		return rnd() >> (rnd() % 64);
	}
}

static struct bg_scalar gen_scalar(int depth);

static struct bg_scalar gen_range(void)
{
	uint64_t a = interesting(), span;

	switch (rnd() % 4) {
	case 0:
		span = rnd() % 16;
		break;
	case 1:
		span = rnd() % 1000;
		break;
	case 2:
		span = rnd() >> (rnd() % 64);
		break;
	default:
		span = 0;
	}
	if (rnd() % 2)
		return bg_scalar_urange(a, a + span < a ? ~0ULL : a + span);
	return bg_scalar_srange((int64_t)a,
				(int64_t)(a + span) < (int64_t)a ? INT64_MAX : (int64_t)(a + span));
}

static struct bg_scalar gen_tnum(void)
{
	struct bg_scalar s = bg_scalar_unknown();
	uint64_t mask = rnd() & rnd();

	if (rnd() % 2)
		mask &= 0xff >> (rnd() % 8);
	s.tn.mask = mask;
	s.tn.value = interesting() & ~mask;
	bg_scalar_reduce(&s);
	return s;
}

static struct bg_scalar gen_scalar(int depth)
{
	struct bg_scalar a, b;
	static const uint8_t ops[] = {BG_ALU_ADD, BG_ALU_SUB, BG_ALU_MUL, BG_ALU_AND, BG_ALU_OR,
				      BG_ALU_XOR, BG_ALU_LSH, BG_ALU_RSH, BG_ALU_ARSH, BG_ALU_MOV};

	switch (rnd() % 7) {
	case 0:
		return bg_scalar_const(interesting());
	case 1:
	case 2:
		return gen_range();
	case 3:
		return gen_tnum();
	case 4:
		a = gen_range(), b = gen_tnum();
		a = bg_scalar_meet(&a, &b);
		return a.bottom ? gen_range() : a;
	case 5:
		if (depth < 2) {
			a = gen_scalar(depth + 1), b = gen_scalar(depth + 1);
			a = bg_scalar_alu(ops[rnd() % 10], rnd() % 2, false, 0, &a, &b);
			if (!a.bottom)
				return a;
		}
		return gen_range();
	default:
		a = gen_range();
		return bg_scalar_alu(BG_ALU_MOV, false, false, 0, &a, &a);
	}
}

/* A random member of a (retrying strategies); false if none found. */
static bool member(const struct bg_scalar *a, uint64_t *x)
{
	for (int i = 0; i < 24; i++) {
		uint64_t v, span;

		switch (rnd() % 6) {
		case 0:
			v = (rnd() & a->tn.mask) | a->tn.value;
			break;
		case 1:
			v = (rnd() % 2) ? a->umin : a->umax;
			break;
		case 2:
			v = (uint64_t)((rnd() % 2) ? a->smin : a->smax);
			break;
		case 3:
			span = a->umax - a->umin;
			v = a->umin + (span == ~0ULL ? rnd() : rnd() % (span + 1));
			break;
		case 4:
			v = (rnd() & a->tn.mask & 0xffffffff00000000ULL) | a->tn.value |
			    ((rnd() % 2) ? a->u32min : a->u32max);
			break;
		default:
			span = a->umax - a->umin;
			v = a->umin + (span == ~0ULL ? rnd() : rnd() % (span + 1));
			v = (v & a->tn.mask) | a->tn.value;
		}
		if (bg_scalar_contains(a, v)) {
			*x = v;
			return true;
		}
	}
	return false;
}

static long iters(long dflt)
{
	const char *e = getenv("BG_SOUNDNESS_ITERS");

	return e ? atol(e) : dflt;
}

static void show(const char *what, const struct bg_scalar *a)
{
	char buf[256];

	bg_scalar_fmt(a, buf, sizeof(buf));
	printf("    %s = %s (u=[%#llx,%#llx] s=[%lld,%lld] u32=[%#x,%#x] s32=[%d,%d])\n", what, buf,
	       (unsigned long long)a->umin, (unsigned long long)a->umax, (long long)a->smin,
	       (long long)a->smax, a->u32min, a->u32max, a->s32min, a->s32max);
}

struct alu_case {
	const char *name;
	uint8_t op;
	bool is_signed;
	uint8_t ext;
};

static const struct alu_case alu_cases[] = {
	{"add", BG_ALU_ADD, 0, 0},   {"sub", BG_ALU_SUB, 0, 0},    {"mul", BG_ALU_MUL, 0, 0},
	{"div", BG_ALU_DIV, 0, 0},   {"sdiv", BG_ALU_DIV, 1, 0},   {"mod", BG_ALU_MOD, 0, 0},
	{"smod", BG_ALU_MOD, 1, 0},  {"or", BG_ALU_OR, 0, 0},      {"and", BG_ALU_AND, 0, 0},
	{"xor", BG_ALU_XOR, 0, 0},   {"lsh", BG_ALU_LSH, 0, 0},    {"rsh", BG_ALU_RSH, 0, 0},
	{"arsh", BG_ALU_ARSH, 0, 0}, {"neg", BG_ALU_NEG, 0, 0},    {"mov", BG_ALU_MOV, 0, 0},
	{"movsx8", BG_ALU_MOV, 0, 8}, {"movsx16", BG_ALU_MOV, 0, 16}, {"movsx32", BG_ALU_MOV, 0, 32},
};

/* Shift amounts as the verifier sees them most: small constants or ranges. */
static struct bg_scalar gen_src(const struct alu_case *c, bool k)
{
	if (k) {
		uint64_t v = interesting();

		if ((c->op == BG_ALU_LSH || c->op == BG_ALU_RSH || c->op == BG_ALU_ARSH) && rnd() % 4)
			v = rnd() % 64;
		return bg_scalar_const((uint64_t)(int64_t)(int32_t)v);
	}
	if ((c->op == BG_ALU_LSH || c->op == BG_ALU_RSH || c->op == BG_ALU_ARSH) && rnd() % 2) {
		uint64_t lo = rnd() % 64;

		return bg_scalar_urange(lo, lo + rnd() % 8);
	}
	return gen_scalar(0);
}

static int check_alu(const struct alu_case *c, bool alu64, bool k, long n, long *checks)
{
	for (long i = 0; i < n; i++) {
		struct bg_scalar a = gen_scalar(0), b = gen_src(c, k), r, rk;

		if (c->ext == 32 && !alu64)
			continue;
		r = bg_scalar_alu(c->op, alu64, c->is_signed, c->ext, &a, &b);
		rk = bg_scalar_alu_kernel(c->op, alu64, c->is_signed, c->ext, &a, &b);
		for (int j = 0; j < 8; j++) {
			uint64_t x, y, z;

			if (!member(&a, &x) || !member(&b, &y))
				break;
			z = bg_alu_exec(c->op, alu64, c->is_signed, c->ext, x, y);
			++*checks;
			if (!bg_scalar_contains(&r, z) || !bg_scalar_contains(&rk, z)) {
				printf("FAIL alu-%s%s-%s: %#llx op %#llx = %#llx not in result\n", c->name,
				       alu64 ? "64" : "32", k ? "K" : "X", (unsigned long long)x,
				       (unsigned long long)y, (unsigned long long)z);
				show("dst", &a), show("src", &b), show("res", &r), show("kernel profile", &rk);
				return 1;
			}
		}
	}
	return 0;
}

static const struct {
	const char *name;
	uint8_t op;
} jmp_cases[] = {
	{"jeq", BG_JMP_JEQ},   {"jne", BG_JMP_JNE},   {"jgt", BG_JMP_JGT},   {"jge", BG_JMP_JGE},
	{"jlt", BG_JMP_JLT},   {"jle", BG_JMP_JLE},   {"jsgt", BG_JMP_JSGT}, {"jsge", BG_JMP_JSGE},
	{"jslt", BG_JMP_JSLT}, {"jsle", BG_JMP_JSLE}, {"jset", BG_JMP_JSET},
};

/* Operands of a compare: often related (overlapping ranges, equal constants). */
static void gen_pair(struct bg_scalar *a, struct bg_scalar *b)
{
	*a = gen_scalar(0);
	switch (rnd() % 4) {
	case 0: {
		uint64_t v;

		*b = member(a, &v) ? bg_scalar_const(v) : gen_scalar(0);
		break;
	}
	case 1:
		*b = bg_scalar_const((uint64_t)(int64_t)(int32_t)interesting());
		break;
	default:
		*b = gen_scalar(0);
	}
	if (rnd() % 2) {
		struct bg_scalar t = *a;

		*a = *b, *b = t;
	}
}

static int check_jmp(uint8_t op, const char *name, bool alu64, long n, long *checks)
{
	for (long i = 0; i < n; i++) {
		struct bg_scalar a, b, ta, tb, fa, fb, ka, kb, kfa, kfb;
		bool tok, fok, ktok, kfok;
		int cmp, kcmp;

		gen_pair(&a, &b);
		ta = a, tb = b, fa = a, fb = b;
		tok = bg_scalar_refine(op, alu64, true, &ta, &tb);
		fok = bg_scalar_refine(op, alu64, false, &fa, &fb);
		cmp = bg_scalar_cmp(op, alu64, &a, &b);
		ka = a, kb = b, kfa = a, kfb = b;
		ktok = bg_scalar_refine_kernel(op, alu64, true, &ka, &kb);
		kfok = bg_scalar_refine_kernel(op, alu64, false, &kfa, &kfb);
		kcmp = bg_scalar_cmp_kernel(op, alu64, &a, &b);
		for (int j = 0; j < 8; j++) {
			uint64_t x, y;
			bool c, ok;

			if (!member(&a, &x) || !member(&b, &y))
				break;
			c = bg_jmp_exec(op, alu64, x, y);
			ok = c ? tok && bg_scalar_contains(&ta, x) && bg_scalar_contains(&tb, y)
			       : fok && bg_scalar_contains(&fa, x) && bg_scalar_contains(&fb, y);
			ok = ok && !(cmp == 1 && !c) && !(cmp == 0 && c);
			ok = ok && (c ? ktok && bg_scalar_contains(&ka, x) && bg_scalar_contains(&kb, y)
				      : kfok && bg_scalar_contains(&kfa, x) && bg_scalar_contains(&kfb, y));
			ok = ok && !(kcmp == 1 && !c) && !(kcmp == 0 && c);
			++*checks;
			if (!ok) {
				printf("FAIL jmp-%s%s: x=%#llx y=%#llx cond=%d lost (cmp %d)\n", name,
				       alu64 ? "64" : "32", (unsigned long long)x,
				       (unsigned long long)y, c, cmp);
				show("dst", &a), show("src", &b);
				show(c ? "dst'" : "dst'(false)", c ? &ta : &fa);
				show(c ? "src'" : "src'(false)", c ? &tb : &fb);
				return 1;
			}
		}
	}
	return 0;
}

static int check_lattice(long n, long *checks)
{
	uint64_t thr[] = {0, 1, 16, 255, 1000, 0xffffffff, 0x8000000000000000ULL};

	for (long i = 0; i < n; i++) {
		struct bg_scalar a = gen_scalar(0), b = gen_scalar(0), j = bg_scalar_join(&a, &b);
		struct bg_scalar m = bg_scalar_meet(&a, &b), w = bg_scalar_widen(&a, &j, thr, 7);
		struct bg_scalar nw = bg_scalar_narrow(&w, &j);
		uint64_t x;

		for (int s = 0; s < 2; s++) {
			const struct bg_scalar *src = s ? &b : &a, *oth = s ? &a : &b;

			if (!member(src, &x))
				continue;
			++*checks;
			if (!bg_scalar_contains(&j, x) || !bg_scalar_contains(&w, x) ||
			    !bg_scalar_contains(&nw, x) ||
			    (bg_scalar_contains(oth, x) && !bg_scalar_contains(&m, x)) ||
			    !bg_scalar_leq(src, &j)) {
				printf("FAIL lattice: %#llx lost\n", (unsigned long long)x);
				show("a", &a), show("b", &b), show("join", &j), show("meet", &m);
				show("widen", &w), show("narrow", &nw);
				return 1;
			}
		}
	}
	return 0;
}

static int check_end_cast(long n, long *checks)
{
	static const uint8_t widths[] = {16, 32, 64};

	for (long i = 0; i < n; i++) {
		struct bg_scalar a = gen_scalar(0);
		uint8_t w = widths[rnd() % 3], bytes = (uint8_t)(1u << (rnd() % 4));
		bool swap = rnd() % 2, sx = rnd() % 2;
		struct bg_scalar e = bg_scalar_end(&a, w, swap), c = bg_scalar_cast(&a, bytes, sx);
		uint64_t x;

		for (int j = 0; j < 8 && member(&a, &x); j++) {
			++*checks;
			if (!bg_scalar_contains(&e, bg_end_exec(x, w, swap)) ||
			    !bg_scalar_contains(&c, bg_extend(x, bytes, sx))) {
				printf("FAIL end/cast: x=%#llx width %u swap %d bytes %u sext %d\n",
				       (unsigned long long)x, w, swap, bytes, sx);
				show("a", &a), show("end", &e), show("cast", &c);
				return 1;
			}
		}
	}
	return 0;
}

/* The concrete semantics (src/isa/exec.c) against this test's own reading of
 * the RFC (scalar_ref.h): two independent statements must agree. */
static void check_exec_ref(long n)
{
	long checks = 0;

	for (long i = 0; i < n; i++) {
		uint64_t x = interesting(), y = (rnd() % 2) ? interesting() : rnd();
		const struct alu_case *c = &alu_cases[rnd() % (sizeof(alu_cases) / sizeof(alu_cases[0]))];
		bool w = rnd() % 2;
		uint8_t op = jmp_cases[rnd() % 11].op, width = (uint8_t)(16 << (rnd() % 3));

		if (c->ext == 32 && !w)
			continue;
		checks++;
		if (bg_alu_exec(c->op, w, c->is_signed, c->ext, x, y) !=
			    ref_alu(c->op, w, c->is_signed, c->ext, x, y) ||
		    bg_jmp_exec(op, w, x, y) != ref_jmp(op, w, x, y) ||
		    bg_end_exec(x, width, w) != ref_end(x, width, w)) {
			T_FAIL("exec-agrees-with-reference", "%s%s %#llx %#llx or jmp %#x differs", c->name,
			       w ? "64" : "32", (unsigned long long)x, (unsigned long long)y, op);
			return;
		}
	}
	printf("PASS exec-agrees-with-reference (%ld checks)\n", checks);
}

/* Hostile inputs: raw structs with arbitrary (inconsistent) fields and odd
 * widths go through every function; under UBSan/ASan nothing may misbehave,
 * and a reduced value is either bottom or holds its tnum's value if that is
 * in every interval. */
static void check_robust(long n)
{
	long calls = 0;

	for (long i = 0; i < n; i++) {
		struct bg_scalar a, b, r;
		uint64_t *f = (uint64_t *)&a;
		uint64_t thr[2] = {rnd(), rnd()};
		char buf[300];

		for (unsigned k = 0; k < offsetof(struct bg_scalar, bottom) / 8; k++)
			f[k] = (rnd() % 2) ? rnd() : interesting();
		a.bottom = rnd() % 8 == 0;
		b = gen_scalar(0);
		r = a;
		bg_scalar_reduce(&r);
		r = bg_scalar_alu(alu_cases[rnd() % 18].op, rnd() % 2, rnd() % 2, (uint8_t)(rnd() % 40), &a, &b);
		r = bg_scalar_alu(BG_ALU_LSH + (rnd() % 3) * 0x10, rnd() % 2, 0, 0, &b, &a);
		r = bg_scalar_cast(&a, (uint8_t)(rnd() % 10), rnd() % 2);
		r = bg_scalar_end(&a, (uint8_t)(rnd() % 70), rnd() % 2);
		r = bg_scalar_load((uint8_t)(rnd() % 10), rnd() % 2);
		r = bg_scalar_join(&a, &b), r = bg_scalar_meet(&a, &b);
		r = bg_scalar_widen(&a, &b, thr, 2), r = bg_scalar_narrow(&a, &b);
		(void)bg_scalar_leq(&a, &b), (void)bg_scalar_eq(&a, &b);
		(void)bg_scalar_cmp(jmp_cases[rnd() % 11].op, rnd() % 2, &a, &b);
		r = b;
		(void)bg_scalar_refine((uint8_t)(rnd() % 256), rnd() % 2, rnd() % 2, &a, &r);
		bg_scalar_fmt(&a, buf, (unsigned)(rnd() % sizeof(buf)));
		bg_scalar_fmt_kernel(&a, buf, (unsigned)(rnd() % sizeof(buf)));
		calls += 17;
	}
	printf("PASS scalar-robust-hostile-inputs (%ld calls)\n", calls);
}

int main(void)
{
	long n = iters(4000);
	unsigned ncase = sizeof(alu_cases) / sizeof(alu_cases[0]);
	char name[64];

	for (unsigned i = 0; i < ncase; i++) {
		long checks = 0;
		int bad = 0;

		for (int w = 0; w < 2; w++)
			for (int k = 0; k < 2; k++)
				bad |= check_alu(&alu_cases[i], w, k, n, &checks);
		snprintf(name, sizeof(name), "scalar-sound-alu-%s", alu_cases[i].name);
		if (!bad)
			printf("PASS %s (%ld checks)\n", name, checks);
		bg_test_failed += bad;
	}
	for (unsigned i = 0; i < sizeof(jmp_cases) / sizeof(jmp_cases[0]); i++) {
		long checks = 0;
		int bad = check_jmp(jmp_cases[i].op, jmp_cases[i].name, true, n, &checks) ||
			  check_jmp(jmp_cases[i].op, jmp_cases[i].name, false, n, &checks);

		snprintf(name, sizeof(name), "scalar-sound-jmp-%s", jmp_cases[i].name);
		if (!bad)
			printf("PASS %s (%ld checks)\n", name, checks);
		bg_test_failed += bad;
	}
	{
		long checks = 0;
		int bad = check_lattice(n * 4, &checks);

		if (!bad)
			printf("PASS scalar-sound-lattice (%ld checks)\n", checks);
		bg_test_failed += bad;
		checks = 0;
		bad = check_end_cast(n * 4, &checks);
		if (!bad)
			printf("PASS scalar-sound-end-cast (%ld checks)\n", checks);
		bg_test_failed += bad;
	}
	check_exec_ref(n * 20);
	check_robust(n * 2);
	T_EXIT();
}
