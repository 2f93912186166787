/* Precision of the scalar domain: a table of expected results, each line one
 * case. The result must be at least as precise as the expected value
 * (result <= expected); soundness is test_scalar_sound's job.
 *   alu64|alu32 DST OP SRC -> RES        (OP: add sub mul div sdiv mod smod or and
 *                                         xor lsh rsh arsh neg mov movsx8/16/32)
 *   jmp64|jmp32 OP DST SRC T|F -> DST' SRC' | dead
 *   cmp64|cmp32 OP DST SRC -> 1|0|-1
 *   end16/32/64 be|le|bswap X -> RES;  join A B -> RES;  widen A B -> RES (threshold 100)
 * Values: N (decimal/0x, may be negative), [lo,hi] (u64 range, or s64 when lo < 0),
 * u32[lo,hi] / s32[lo,hi] (low half only), tn(value;mask), x (unknown), and
 * A&B for the meet of two of these. */
/* min-pass: 94 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <ctype.h>
#include <stdint.h>
#include <bpfgate/insn.h>
#include "domain/scalar.h"
#include "test.h"

static const char *cases[] = {
	/* bitwise: AND with a constant is bounded by the mask */
	"alu64 [0,255] and 0xf -> [0,15]",
	"alu64 x and 0xff -> [0,255]",
	"alu32 x and 0xffff -> [0,65535]",
	"alu64 [0,7] or 8 -> [8,15]",
	"alu64 x or 0x10 -> tn(0x10;0xffffffffffffffef)",
	"alu64 [0,7] xor 7 -> [0,7]",
	"alu64 [-8,-1] and 0x7 -> [0,7]",
	/* additive, with and without wraparound */
	"alu32 [0,10] add 5 -> [5,15]",
	"alu64 [0,10] add 5 -> [5,15]",
	"alu64 [0,10] add [0,10] -> [0,20]",
	"alu64 [0,10] sub 20 -> [-20,-10]",
	"alu32 [0,10] sub 20 -> [0xffffffec,0xfffffff6]",
	"alu64 [0xfffffffffffffff0,0xffffffffffffffff] add 0x20 -> [0x10,0x1f]",
	"alu64 [0x7ffffffffffffff0,0x7fffffffffffffff] add 0x20 -> [0x8000000000000010,0x800000000000001f]",
	"alu32 [0xfffffff0,0xffffffff] add 0x20 -> [0x10,0x1f]",
	"alu64 5 neg x -> -5",
	"alu64 [1,10] neg x -> [-10,-1]",
	"alu64 [0,100] mul 3 -> [0,300]",
	"alu64 [-4,3] mul [-2,5] -> [-20,15]",
	"alu32 [0,0xffff] mul 0x10000 -> [0,0xffff0000]",
	/* division per RFC 9669 */
	"alu64 [0,100] div 0 -> 0",
	"alu64 [10,100] mod 0 -> [10,100]",
	"alu64 [10,100] div [2,5] -> [2,50]",
	"alu64 [10,100] mod 7 -> [0,6]",
	"alu64 [3,5] mod 7 -> [3,5]",
	"alu64 [-7,-3] sdiv 2 -> [-3,-1]",
	"alu64 [-7,7] smod 4 -> [-3,3]",
	"alu64 0x8000000000000000 sdiv -1 -> 0x8000000000000000",
	"alu64 0x8000000000000000 smod -1 -> 0",
	"alu32 0x80000000 sdiv -1 -> 0x80000000",
	"alu64 [0,1000] div [0,10] -> [0,1000]",
	/* shifts */
	"alu64 x rsh 60 -> [0,15]",
	"alu64 [0,1000] rsh 3 -> [0,125]",
	"alu64 [0,1000] lsh 2 -> [0,4000]",
	"alu64 [-5,5] arsh 1 -> [-3,2]",
	"alu64 [-16,-1] arsh 63 -> -1",
	"alu32 x rsh 24 -> [0,255]",
	"alu32 s32[-128,127] arsh 4 -> s32[-8,7]&[0,0xffffffff]",
	"alu64 s32[-5,5] lsh 32 -> [-0x500000000,0x500000000]",
	"alu64 1 lsh [0,3] -> [1,8]",
	"alu64 [0,255] lsh [0,3] -> [0,2040]",
	"alu64 [0,0xffff] rsh [8,9] -> [0,255]",
	"alu64 x rsh 64 -> x",
	/* moves */
	"alu32 x mov x -> [0,0xffffffff]",
	"alu32 x mov [-1,-1] -> 0xffffffff",
	"alu64 x movsx8 x -> [-128,127]",
	"alu64 x movsx16 x -> [-32768,32767]",
	"alu64 x movsx8 0xff -> -1",
	"alu64 x movsx8 [0,0x7f] -> [0,127]",
	"alu64 x movsx32 x -> [-0x80000000,0x7fffffff]",
	/* 32-bit ops give exact 32-bit bounds and zero the upper half */
	"alu32 [0x100000000,0x10000000a] add 1 -> [1,11]",
	"alu64 u32[0,10] add 1 -> u32[1,11]",
	/* byte order */
	"end16 be x -> [0,0xffff]",
	"end32 le [0x100000000,0x1000000ff] -> [0,255]",
	"end16 bswap 0x1234 -> 0x3412",
	"end64 bswap 0x1 -> 0x0100000000000000",
	/* branches: both sides refined, dead edges reported */
	"jmp64 jgt [0,100] 50 T -> [51,100] 50",
	"jmp64 jgt [0,100] 50 F -> [0,50] 50",
	"jmp64 jgt [0,100] 200 T -> dead",
	"jmp64 jsgt [-10,10] 0 T -> [1,10] 0",
	"jmp64 jslt x 0 F -> [0,0x7fffffffffffffff] 0",
	"jmp64 jlt [0,100] [10,20] T -> [0,19] [10,20]",
	"jmp64 jge [0,100] [10,20] T -> [10,100] [10,20]",
	"jmp64 jle x [0,20] T -> [0,20] [0,20]",
	"jmp64 jgt [0,10] [5,100] T -> [6,10] [5,9]",
	"jmp64 jeq [0,100] [50,200] T -> [50,100] [50,100]",
	"jmp64 jne [0,100] 0 T -> [1,100] 0",
	"jmp64 jne 5 5 T -> dead",
	"jmp64 jeq 5 6 T -> dead",
	"jmp64 jset x 8 F -> tn(0x0;0xfffffffffffffff7) 8",
	"jmp64 jset [0,7] 8 T -> dead",
	"jmp64 jset x 8 T -> tn(0x8;0xfffffffffffffff7) 8",
	"jmp32 jgt [0,0xffffffff] 10 F -> [0,10] 10",
	"jmp32 jlt x 10 T -> u32[0,9] 10",
	"jmp32 jsgt [0,0xffffffff] -1 T -> [0,0x7fffffff] -1",
	"jmp32 jeq [0,0xffffffff] 7 T -> 7 7",
	"jmp32 jeq x 7 T -> u32[7,7] 7",
	"jmp64 jsle [0,0xffffffffffffffff] 10 T -> [-0x8000000000000000,10] 10",
	/* decided comparisons */
	"cmp64 jgt [10,20] 5 -> 1",
	"cmp64 jgt [10,20] 20 -> 0",
	"cmp64 jeq [1,3] 0 -> 0",
	"cmp64 jset [8,15] 8 -> 1",
	"cmp64 jsgt [0,5] -1 -> 1",
	"cmp32 jlt tn(0x100000000;0xf) 16 -> 1",
	"cmp64 jlt tn(0x100000000;0xf) 16 -> 0",
	"cmp64 jgt [0,20] 5 -> -1",
	/* lattice */
	"join [0,5] [10,20] -> [0,20]",
	"join 0 [-3,-1] -> [-3,0]",
	"widen [0,1] [0,2] -> [0,100]",
	"widen [0,1] [0,200] -> [0,0x7fffffffffffffff]",
	"widen [0,1] [0,0x1000] -> [0,0x7fffffffffffffff]",
	"widen u32[0,1]&[0,0xffffffff] u32[0,2]&[0,0xffffffff] -> [0,0xffffffff]",
	"widen [0,1] [0,2] -> [0,100]",
	"widen [5,10] [4,10] -> [0,10]",
};

static const struct {
	const char *name;
	uint8_t op;
	bool sg;
	uint8_t ext;
} alu_ops[] = {
	{"add", BG_ALU_ADD, 0, 0},   {"sub", BG_ALU_SUB, 0, 0},      {"mul", BG_ALU_MUL, 0, 0},
	{"div", BG_ALU_DIV, 0, 0},   {"sdiv", BG_ALU_DIV, 1, 0},     {"mod", BG_ALU_MOD, 0, 0},
	{"smod", BG_ALU_MOD, 1, 0},  {"or", BG_ALU_OR, 0, 0},        {"and", BG_ALU_AND, 0, 0},
	{"xor", BG_ALU_XOR, 0, 0},   {"lsh", BG_ALU_LSH, 0, 0},      {"rsh", BG_ALU_RSH, 0, 0},
	{"arsh", BG_ALU_ARSH, 0, 0}, {"neg", BG_ALU_NEG, 0, 0},      {"mov", BG_ALU_MOV, 0, 0},
	{"movsx8", BG_ALU_MOV, 0, 8}, {"movsx16", BG_ALU_MOV, 0, 16}, {"movsx32", BG_ALU_MOV, 0, 32},
};

static const struct {
	const char *name;
	uint8_t op;
} jmp_ops[] = {
	{"jeq", BG_JMP_JEQ},   {"jne", BG_JMP_JNE},   {"jgt", BG_JMP_JGT},   {"jge", BG_JMP_JGE},
	{"jlt", BG_JMP_JLT},   {"jle", BG_JMP_JLE},   {"jsgt", BG_JMP_JSGT}, {"jsge", BG_JMP_JSGE},
	{"jslt", BG_JMP_JSLT}, {"jsle", BG_JMP_JSLE}, {"jset", BG_JMP_JSET},
};

/* Parse a decimal/hex number, possibly negative. */
static unsigned long long num(const char *s, char **end)
{
	return s[0] == '-' ? (unsigned long long)strtoll(s, end, 0) : strtoull(s, end, 0);
}

/* "PFX<a>,<b>SFX" with numbers a, b. */
static bool two(const char *s, const char *pfx, char sep, char sfx, unsigned long long *a,
		unsigned long long *b)
{
	char *e;
	size_t n = strlen(pfx);

	if (strncmp(s, pfx, n))
		return false;
	*a = num(s + n, &e);
	if (*e != sep)
		return false;
	*b = num(e + 1, &e);
	return e[0] == sfx && e[1] == 0;
}

static bool parse_one(const char *s, struct bg_scalar *out)
{
	unsigned long long a, b;
	struct bg_scalar r = bg_scalar_unknown();
	char *end;

	if (!strcmp(s, "x")) {
		*out = r;
		return true;
	}
	if (two(s, "tn(", ';', ')', &a, &b)) {
		r.tn.value = a, r.tn.mask = b;
	} else if (two(s, "u32[", ',', ']', &a, &b)) {
		r.u32min = (uint32_t)a, r.u32max = (uint32_t)b;
	} else if (two(s, "s32[", ',', ']', &a, &b)) {
		r.s32min = (int32_t)a, r.s32max = (int32_t)b;
	} else if (two(s, "[", ',', ']', &a, &b)) {
		r = s[1] == '-' ? bg_scalar_srange((int64_t)a, (int64_t)b) : bg_scalar_urange(a, b);
	} else {
		a = num(s, &end);
		if (*end)
			return false;
		r = bg_scalar_const(a);
	}
	bg_scalar_reduce(&r);
	*out = r;
	return true;
}

/* "A&B" is the meet of A and B. */
static bool parse_val(char *s, struct bg_scalar *out)
{
	char *amp = strchr(s, '&');
	struct bg_scalar b;

	if (!amp)
		return parse_one(s, out);
	*amp = 0;
	if (!parse_one(s, out) || !parse_val(amp + 1, &b))
		return false;
	*out = bg_scalar_meet(out, &b);
	return true;
}

static int tokenize(char *line, char **tok, int max)
{
	int n = 0;

	for (char *p = strtok(line, " "); p && n < max; p = strtok(NULL, " "))
		tok[n++] = p;
	return n;
}

static bool expect(const char *line, const char *what, const struct bg_scalar *got, char *want_s)
{
	struct bg_scalar want;
	char g[256];

	if (!parse_val(want_s, &want)) {
		T_FAIL(line, "bad expected value %s", want_s);
		return false;
	}
	if (bg_scalar_leq(got, &want))
		return true;
	bg_scalar_fmt(got, g, sizeof(g));
	T_FAIL(line, "%s = %s (u=[%#llx,%#llx] s=[%lld,%lld] u32=[%#x,%#x] s32=[%d,%d]) not within expected", what, g,
	       (unsigned long long)got->umin, (unsigned long long)got->umax, (long long)got->smin,
	       (long long)got->smax, got->u32min, got->u32max, got->s32min, got->s32max);
	return false;
}

static void run_alu(const char *line, char **t, int n)
{
	struct bg_scalar d, s, r;

	for (unsigned i = 0; i < sizeof(alu_ops) / sizeof(alu_ops[0]); i++) {
		if (strcmp(t[2], alu_ops[i].name))
			continue;
		if (n != 6 || !parse_val(t[1], &d) || !parse_val(t[3], &s)) {
			T_FAIL(line, "bad case");
			return;
		}
		r = bg_scalar_alu(alu_ops[i].op, t[0][3] == '6', alu_ops[i].sg, alu_ops[i].ext, &d, &s);
		if (expect(line, "result", &r, t[5]))
			T_PASS(line);
		return;
	}
	T_FAIL(line, "unknown op %s", t[2]);
}

static int jmp_op(const char *name)
{
	for (unsigned i = 0; i < sizeof(jmp_ops) / sizeof(jmp_ops[0]); i++)
		if (!strcmp(name, jmp_ops[i].name))
			return jmp_ops[i].op;
	return -1;
}

static void run_jmp(const char *line, char **t, int n)
{
	struct bg_scalar d, s;
	int op = jmp_op(t[1]);
	bool live;

	if (op < 0 || n < 7 || !parse_val(t[2], &d) || !parse_val(t[3], &s)) {
		T_FAIL(line, "bad case");
		return;
	}
	live = bg_scalar_refine(op, t[0][3] == '6', t[4][0] == 'T', &d, &s);
	if (!strcmp(t[6], "dead")) {
		T_CHECK(!live, line, "edge not found dead");
		return;
	}
	if (!live) {
		T_FAIL(line, "edge reported dead");
		return;
	}
	if (n == 8 && expect(line, "dst", &d, t[6]) && expect(line, "src", &s, t[7]))
		T_PASS(line);
}

static void run_cmp(const char *line, char **t, int n)
{
	struct bg_scalar d, s;
	int op = jmp_op(t[1]), got;

	if (op < 0 || n != 6 || !parse_val(t[2], &d) || !parse_val(t[3], &s)) {
		T_FAIL(line, "bad case");
		return;
	}
	got = bg_scalar_cmp(op, t[0][3] == '6', &d, &s);
	T_CHECK(got == atoi(t[5]), line, "got %d", got);
}

static void run_misc(const char *line, char **t, int n)
{
	struct bg_scalar a, b, r;
	uint64_t thr[] = {100};

	if (!strncmp(t[0], "end", 3)) {
		if (n != 5 || !parse_val(t[2], &a)) {
			T_FAIL(line, "bad case");
			return;
		}
		r = bg_scalar_end(&a, atoi(t[0] + 3), strcmp(t[1], "le") != 0);
		if (expect(line, "result", &r, t[4]))
			T_PASS(line);
		return;
	}
	if (n != 5 || !parse_val(t[1], &a) || !parse_val(t[2], &b)) {
		T_FAIL(line, "bad case");
		return;
	}
	if (!strcmp(t[0], "join"))
		r = bg_scalar_join(&a, &b);
	else
		r = bg_scalar_widen(&a, &b, thr, 1);
	if (expect(line, "result", &r, t[4]))
		T_PASS(line);
}

static void run_case(const char *c)
{
	char buf[256], *t[10];
	int n;

	snprintf(buf, sizeof(buf), "%s", c);
	n = tokenize(buf, t, 10);
	if (n < 4) {
		T_FAIL(c, "bad case");
		return;
	}
	if (!strncmp(t[0], "alu", 3))
		run_alu(c, t, n);
	else if (!strncmp(t[0], "jmp", 3))
		run_jmp(c, t, n);
	else if (!strncmp(t[0], "cmp", 3))
		run_cmp(c, t, n);
	else
		run_misc(c, t, n);
}

/* Formatting in the kernel log's style. */
static void test_fmt(void)
{
	struct bg_scalar f0 = bg_scalar_unknown(), f1 = bg_scalar_const(~0xfULL);
	struct { struct bg_scalar v; const char *want; } f[] = {
		{bg_scalar_const(42), "42"},
		{bg_scalar_const((uint64_t)-1), "-1"},
		{bg_scalar_urange(0, 255), "[0,255]"},
		{bg_scalar_srange(-3, 7), "[-3,7]"},
		{bg_scalar_unknown(), "unknown"},
		{bg_scalar_load(4, true), "[-2147483648,2147483647]"},
		{bg_scalar_alu(BG_ALU_AND, true, false, 0, &f0, &f1), "smax=0x7ffffffffffffff0,umax=0xfffffffffffffff0,smax32=0x7ffffff0,umax32=0xfffffff0,var_off=(0x0; 0xfffffffffffffff0)"},
	};
	char buf[128], name[160];

	for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		bg_scalar_fmt(&f[i].v, buf, sizeof(buf));
		snprintf(name, sizeof(name), "scalar-fmt %s", f[i].want);
		T_CHECK(!strcmp(buf, f[i].want), name, "got %s", buf);
	}
}

/* A counting loop "for (i = 0; i < n; i += step)" analysed as an engine
 * would: head = widen(head, join(head, body(head))) until stable, then one
 * narrowing step. Widening must stabilize in a few steps (thresholds: the
 * program's constant), and the result must hold exactly the loop's values. */
static void loop_case(uint64_t n, uint64_t step, bool with_thr, uint64_t want_hi)
{
	struct bg_scalar head = bg_scalar_const(0), k = bg_scalar_const(n), one = bg_scalar_const(step);
	uint64_t thr[1] = {n};
	char name[96];
	int steps = 0;

	for (; steps < 100; steps++) {
		struct bg_scalar i = head, c = k, body, next;

		if (!bg_scalar_refine(BG_JMP_JLT, true, true, &i, &c))
			break;
		body = bg_scalar_alu(BG_ALU_ADD, true, false, 0, &i, &one);
		next = bg_scalar_join(&head, &body);
		if (bg_scalar_leq(&next, &head))
			break;
		head = bg_scalar_widen(&head, &next, thr, with_thr ? 1 : 0);
	}
	{ /* one narrowing step: head = narrow(head, join(init, body(head))) */
		struct bg_scalar i = head, c = k, init = bg_scalar_const(0), body, next;

		bg_scalar_refine(BG_JMP_JLT, true, true, &i, &c);
		body = bg_scalar_alu(BG_ALU_ADD, true, false, 0, &i, &one);
		next = bg_scalar_join(&init, &body);
		head = bg_scalar_narrow(&head, &next);
		bg_scalar_reduce(&head);
	}
	snprintf(name, sizeof(name), "loop i<%llu step %llu %s: stable in %d widenings, head [0,%llu]",
		 (unsigned long long)n, (unsigned long long)step, with_thr ? "thresholds" : "no thresholds",
		 steps, (unsigned long long)want_hi);
	T_CHECK(steps <= 4 && head.umin == 0 && head.umax == want_hi, name, "got %d steps, [%llu,%llu]",
		steps, (unsigned long long)head.umin, (unsigned long long)head.umax);
}

int main(void)
{
	loop_case(100, 1, true, 100);
	loop_case(100, 1, false, 100);
	loop_case(1000, 4, true, 1000);
	loop_case(0x10000, 3, false, 0x10002);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(cases[i]);
	test_fmt();
	T_EXIT();
}
