/* The running kernel as oracle for the scalar domain's precision. For each
 * ALU op (32/64-bit, K and X) and each jump op, a small socket-filter
 * program builds two scalars from unknown values (bounds checks, masks,
 * constants), applies the operation and copies the results to marker
 * registers; the verifier log (log_level 2) gives the kernel's abstract
 * input and output. The domain, started from the kernel's input, must give
 * an output at least as precise (result <= kernel's) and must find dead
 * every edge the kernel finds dead. Cases where the domain is strictly more
 * precise are counted per op family (they are where bpfgate could accept
 * what the kernel rejects; the kernel profile functions exist for them).
 * SKIPs when bpf() is refused. */
/* min-pass: 27 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <linux/bpf.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpfgate/insn.h>
#include "domain/scalar.h"
#include "test.h"

#define MAXI 64
static char logbuf[1 << 18];

struct prog {
	struct bpf_insn in[MAXI];
	int n, nout, out[16];
};

static void emit(struct prog *p, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	p->in[p->n++] = (struct bpf_insn){code, dst, src, off, imm};
}

static void ld64(struct prog *p, uint8_t reg, uint64_t v)
{
	emit(p, BPF_LD | BPF_DW | BPF_IMM, reg, 0, 0, (int32_t)(uint32_t)v);
	emit(p, 0, 0, 0, 0, (int32_t)(uint32_t)(v >> 32));
}

/* Conditional jump to the common exit (patched at the end). */
static void jout(struct prog *p, uint8_t cls_op, uint8_t reg, uint64_t v)
{
	ld64(p, BPF_REG_5, v);
	p->out[p->nout++] = p->n;
	emit(p, cls_op | BPF_X, reg, BPF_REG_5, 0, 0);
}

enum kind { R_UNKNOWN, R_CONST, R_URANGE, R_SRANGE, R_U32, R_S32, R_TNUM, R_ZEXT };

struct recipe {
	enum kind k;
	uint64_t a, b;
	const char *name;
};

static void build(struct prog *p, uint8_t reg, const struct recipe *r)
{
	switch (r->k) {
	case R_CONST:
		ld64(p, reg, r->a);
		break;
	case R_URANGE:
		jout(p, BPF_JMP | BPF_JGT, reg, r->b);
		jout(p, BPF_JMP | BPF_JLT, reg, r->a);
		break;
	case R_SRANGE:
		jout(p, BPF_JMP | BPF_JSGT, reg, r->b);
		jout(p, BPF_JMP | BPF_JSLT, reg, r->a);
		break;
	case R_U32:
		jout(p, BPF_JMP32 | BPF_JGT, reg, r->b);
		jout(p, BPF_JMP32 | BPF_JLT, reg, r->a);
		break;
	case R_S32:
		jout(p, BPF_JMP32 | BPF_JSGT, reg, r->b);
		jout(p, BPF_JMP32 | BPF_JSLT, reg, r->a);
		break;
	case R_TNUM:
		ld64(p, BPF_REG_5, r->a);
		emit(p, BPF_ALU64 | BPF_AND | BPF_X, reg, BPF_REG_5, 0, 0);
		ld64(p, BPF_REG_5, r->b);
		emit(p, BPF_ALU64 | BPF_OR | BPF_X, reg, BPF_REG_5, 0, 0);
		break;
	case R_ZEXT:
		emit(p, BPF_ALU | BPF_MOV | BPF_X, reg, reg, 0, 0);
		break;
	default:
		break;
	}
}

static const struct recipe dsts[] = {
	{R_UNKNOWN, 0, 0, "x"},
	{R_CONST, 5, 0, "5"},
	{R_CONST, (uint64_t)-3, 0, "-3"},
	{R_CONST, 0x80000000, 0, "0x80000000"},
	{R_URANGE, 0, 100, "[0,100]"},
	{R_URANGE, 10, 20, "[10,20]"},
	{R_URANGE, 0xfffffff0, 0x100000010ULL, "[0xfffffff0,0x100000010]"},
	{R_SRANGE, (uint64_t)-10, 10, "s[-10,10]"},
	{R_SRANGE, (uint64_t)-100, (uint64_t)-5, "s[-100,-5]"},
	{R_SRANGE, 0x7ffffff0, 0x80000010, "s[0x7ffffff0,0x80000010]"},
	{R_U32, 0, 255, "u32[0,255]"},
	{R_S32, (uint64_t)-8, 8, "s32[-8,8]"},
	{R_TNUM, 0xff0, 0x1, "tn(0x1;0xff0)"},
	{R_ZEXT, 0, 0, "zext32"},
	{R_URANGE, 0x7ffffffffffffff0ULL, 0x8000000000000010ULL, "[2^63-16,2^63+16]"},
	{R_SRANGE, (uint64_t)-0x80000010LL, (uint64_t)-0x7ffffff0LL, "s[-2^31-16,-2^31+16]"},
	{R_U32, 0xfffffff0, 0xffffffff, "u32[0xfffffff0,0xffffffff]"},
	{R_TNUM, 0xffffffff0000000fULL, 0x100000000ULL, "tn(0x100000000;0xffffffff0000000f)"},
};

static const struct recipe srcs[] = {
	{R_CONST, 3, 0, "3"},
	{R_CONST, 0, 0, "0"},
	{R_CONST, (uint64_t)-1, 0, "-1"},
	{R_URANGE, 0, 7, "[0,7]"},
	{R_URANGE, 1, 16, "[1,16]"},
	{R_SRANGE, (uint64_t)-4, 4, "s[-4,4]"},
	{R_UNKNOWN, 0, 0, "x"},
	{R_TNUM, 0x3c, 0x2, "tn(0x2;0x3c)"},
	{R_URANGE, 0x100000000ULL, 0x100000010ULL, "[2^32,2^32+16]"},
	{R_SRANGE, (uint64_t)-0x80000000LL, 0x7fffffff, "s[-2^31,2^31-1]"},
};

static const int32_t imms[] = {1, 3, 7, -1, 0x10, 31, 63, 0x7fffffff};

/* ---- the kernel's log ------------------------------------------------- */

static int load(struct prog *p)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (uintptr_t)p->in;
	a.insn_cnt = p->n;
	a.license = (uintptr_t) "GPL";
	a.log_buf = (uintptr_t)logbuf;
	a.log_size = sizeof(logbuf);
	a.log_level = 2;
	logbuf[0] = 0;
	fd = syscall(SYS_bpf, BPF_PROG_LOAD, &a, sizeof(a));
	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : -errno;
}

/* The log line of instruction idx ("idx: (..."), or NULL. */
static const char *insn_line(int idx)
{
	char pfx[16];
	int n = snprintf(pfx, sizeof(pfx), "%d: (", idx);

	for (const char *l = logbuf; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, pfx, n))
			return l;
	return NULL;
}

/* Parse "Rn=..." from a log line into a scalar; false if absent. */
static long fmt_checked, fmt_equal;

static bool parse_reg_raw(const char *line, int reg, struct bg_scalar *out, char *text, size_t tsz);

/* Parse "Rn=..." from a log line into a (reduced) scalar; false if absent.
 * Also checks that bg_scalar_fmt_kernel prints the unreduced value as the
 * kernel did. */
static bool parse_reg(const char *line, int reg, struct bg_scalar *out)
{
	char text[256], mine[256];
	struct bg_scalar raw;

	if (!parse_reg_raw(line, reg, &raw, text, sizeof(text)))
		return false;
	bg_scalar_fmt_kernel(&raw, mine, sizeof(mine));
	fmt_checked++;
	if (!strcmp(mine, text))
		fmt_equal++;
	else if (fmt_checked - fmt_equal <= 5)
		printf("    format differs: kernel %s, ours %s\n", text, mine);
	*out = raw;
	bg_scalar_reduce(out);
	return !out->bottom;
}

static bool parse_reg_raw(const char *line, int reg, struct bg_scalar *out, char *text, size_t tsz)
{
	char key[8], *e;
	const char *p, *end = strchr(line, '\n');
	struct bg_scalar s = bg_scalar_unknown();

	snprintf(key, sizeof(key), " R%d=", reg);
	p = strstr(line, key);
	if (!p || (end && p > end))
		return false;
	p += strlen(key);
	{
		const char *q = p;
		int depth = 0;

		while (*q && *q != '\n' && (depth || *q != ' ')) {
			depth += (*q == '(') - (*q == ')');
			q++;
		}
		snprintf(text, tsz, "%.*s", (int)(q - p), p);
	}
	if (getenv("BG_KERNEL_DUMP"))
		printf("    raw: %s\n", text);
	if (strncmp(p, "scalar(", 7)) {
		uint64_t v = p[0] == '-' ? (uint64_t)strtoll(p, &e, 0) : strtoull(p, &e, 0);

		if (e == p)
			return false;
		*out = bg_scalar_const(v);
		return true;
	}
	if (!strncmp(text, "scalar(id=", 10)) { /* ids are the kernel's, not values */
		char *q = strpbrk(text + 7, ",)");

		memmove(text + 7, q + (*q == ','), strlen(q + (*q == ',')) + 1);
	}

	p += 7;
	while (*p && *p != ')') {
		const char *names[8];
		int nn = 0;
		uint64_t v, m;

		while (1) { /* a=b=c=VALUE */
			const char *eq = strchr(p, '=');

			if (!eq)
				return false;
			names[nn++] = p;
			p = eq + 1;
			if (!isalpha((unsigned char)*p) || nn == 8)
				break;
		}
		if (!strncmp(names[0], "var_off=", 8)) {
			if (sscanf(p, "(%" SCNx64 "; %" SCNx64 ")", &v, &m) != 2)
				return false;
			s.tn.value = v, s.tn.mask = m;
			p = strchr(p, ')') + 1;
		} else {
			v = p[0] == '-' ? (uint64_t)strtoll(p, &e, 0) : strtoull(p, &e, 0);
			p = e;
			for (int i = 0; i < nn; i++) {
				const char *nm = names[i];
#define IS(x) (!strncmp(nm, x "=", strlen(x) + 1))
				if (IS("smin")) s.smin = (int64_t)v;
				else if (IS("smax")) s.smax = (int64_t)v;
				else if (IS("umin")) s.umin = v;
				else if (IS("umax")) s.umax = v;
				else if (IS("smin32")) s.s32min = (int32_t)v;
				else if (IS("smax32")) s.s32max = (int32_t)v;
				else if (IS("umin32")) s.u32min = (uint32_t)v;
				else if (IS("umax32")) s.u32max = (uint32_t)v;
#undef IS
			}
		}
		if (*p == ',')
			p++;
	}
	*out = s;
	return true;
}

/* ---- cases -------------------------------------------------------------- */

struct stats {
	long cases, tighter, checked, prof_checked, prof_equal;
	int bad;
};

/* The kernel profile: never less precise than the kernel; counts equality. */
static void compare_prof(struct stats *st, const char *what, const struct bg_scalar *ours,
			 const struct bg_scalar *kern)
{
	st->prof_checked++;
	if (!bg_scalar_leq(ours, kern)) {
		char a[200], b[200];

		bg_scalar_fmt(ours, a, sizeof(a));
		bg_scalar_fmt(kern, b, sizeof(b));
		if (st->bad++ < 5)
			printf("    kernel profile less precise than the kernel: %s: ours %s, kernel %s\n",
			       what, a, b);
	} else if (bg_scalar_eq(ours, kern)) {
		st->prof_equal++;
	} else if (getenv("BG_KERNEL_VERBOSE")) {
		char a[200], b[200];

		bg_scalar_fmt(ours, a, sizeof(a));
		bg_scalar_fmt(kern, b, sizeof(b));
		printf("    profile tighter: %s: ours %s, kernel %s\n", what, a, b);
	}
}

static void start(struct prog *p, const struct recipe *d, const struct recipe *s)
{
	p->n = 0, p->nout = 0;
	emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_prandom_u32);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_0, 0, 0);
	emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_prandom_u32);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_7, BPF_REG_0, 0, 0);
	build(p, BPF_REG_6, d);
	if (s)
		build(p, BPF_REG_7, s);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_8, BPF_REG_6, 0, 0);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_9, BPF_REG_7, 0, 0);
}

static void finish(struct prog *p)
{
	int out = p->n;

	emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	for (int i = 0; i < p->nout; i++)
		p->in[p->out[i]].off = (int16_t)(out - p->out[i] - 1);
}

static void report(struct stats *st, const char *what, const struct bg_scalar *ours,
		   const struct bg_scalar *kern)
{
	char a[200], b[200];

	bg_scalar_fmt(ours, a, sizeof(a));
	bg_scalar_fmt(kern, b, sizeof(b));
	if (st->bad++ < 5)
		printf("    less precise than the kernel: %s: ours %s, kernel %s\n", what, a, b);
}

static void compare(struct stats *st, const char *what, const struct bg_scalar *ours,
		    const struct bg_scalar *kern)
{
	st->checked++;
	if (!bg_scalar_leq(ours, kern))
		report(st, what, ours, kern);
	else if (!bg_scalar_eq(ours, kern)) {
		st->tighter++;
		if (getenv("BG_KERNEL_VERBOSE")) {
			char a[200], b[200];

			bg_scalar_fmt(ours, a, sizeof(a));
			bg_scalar_fmt(kern, b, sizeof(b));
			printf("    tighter: %s: ours %s, kernel %s\n", what, a, b);
		}
	}
}

static const struct {
	const char *name;
	uint8_t op, off, ext;
	bool sg;
} alu[] = {
	{"add", BPF_ADD, 0, 0, 0},  {"sub", BPF_SUB, 0, 0, 0},   {"mul", BPF_MUL, 0, 0, 0},
	{"div", BPF_DIV, 0, 0, 0},  {"sdiv", BPF_DIV, 1, 0, 1},  {"mod", BPF_MOD, 0, 0, 0},
	{"smod", BPF_MOD, 1, 0, 1}, {"or", BPF_OR, 0, 0, 0},     {"and", BPF_AND, 0, 0, 0},
	{"xor", BPF_XOR, 0, 0, 0},  {"lsh", BPF_LSH, 0, 0, 0},   {"rsh", BPF_RSH, 0, 0, 0},
	{"arsh", BPF_ARSH, 0, 0, 0}, {"neg", BPF_NEG, 0, 0, 0},  {"mov", BPF_MOV, 0, 0, 0},
	{"movsx8", BPF_MOV, 8, 8, 0}, {"movsx16", BPF_MOV, 16, 16, 0}, {"movsx32", BPF_MOV, 32, 32, 0},
};

static bool imm_ok(uint8_t op, bool w64, int32_t imm)
{
	if ((op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) && (uint32_t)imm >= (w64 ? 64u : 32u))
		return false;
	return true;
}

static void alu_case(unsigned k, bool w64, const struct recipe *d, const struct recipe *s,
		     int32_t imm, struct stats *st)
{
	struct prog p;
	struct bg_scalar kd, ks, kr, ours, src;
	int opi, idx;
	uint8_t cls = w64 ? BPF_ALU64 : BPF_ALU;
	bool x = s != NULL || alu[k].op == BPF_MOV;
	char what[160];

	start(&p, d, s);
	idx = p.n - 2;
	opi = p.n;
	if (alu[k].op == BPF_NEG)
		emit(&p, cls | BPF_NEG, BPF_REG_6, 0, 0, 0);
	else if (alu[k].op == BPF_MOV)
		emit(&p, cls | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_8, alu[k].off, 0);
	else
		emit(&p, cls | alu[k].op | (x ? BPF_X : BPF_K), BPF_REG_6, x ? BPF_REG_7 : 0, alu[k].off, imm);
	emit(&p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_8, BPF_REG_6, 0, 0);
	finish(&p);
	if (load(&p)) {
		printf("    load failed (%s %s): %.200s\n", alu[k].name, d->name, logbuf);
		st->bad++;
		return;
	}
	if (!parse_reg(insn_line(idx) ? insn_line(idx) : "", 8, &kd) ||
	    !parse_reg(insn_line(opi + 1) ? insn_line(opi + 1) : "", 8, &kr))
		return;
	ks = bg_scalar_const((uint64_t)(int64_t)imm);
	if (x && alu[k].op != BPF_MOV && !parse_reg(insn_line(idx + 1) ? insn_line(idx + 1) : "", 9, &ks))
		return;
	src = alu[k].op == BPF_MOV ? kd : ks;
	ours = bg_scalar_alu(alu[k].op, w64, alu[k].sg, alu[k].ext, &kd, &src);
	snprintf(what, sizeof(what), "%s%s %s, %s", alu[k].name, w64 ? "64" : "32", d->name,
		 s ? s->name : "imm");
	compare(st, what, &ours, &kr);
	ours = bg_scalar_alu_kernel(alu[k].op, w64, alu[k].sg, alu[k].ext, &kd, &src);
	compare_prof(st, what, &ours, &kr);
	st->cases++;
}

static void alu_family(unsigned k)
{
	struct stats st = {0};
	char name[64];

	for (int w = 0; w < 2; w++) {
		if (alu[k].ext == 32 && !w)
			continue;
		for (unsigned d = 0; d < sizeof(dsts) / sizeof(dsts[0]); d++) {
			if (alu[k].op == BPF_NEG || alu[k].op == BPF_MOV) {
				alu_case(k, w, &dsts[d], NULL, 0, &st);
				continue;
			}
			for (unsigned s = 0; s < sizeof(srcs) / sizeof(srcs[0]); s++)
				alu_case(k, w, &dsts[d], &srcs[s], 0, &st);
			for (unsigned i = 0; i < sizeof(imms) / sizeof(imms[0]); i++)
				if (imm_ok(alu[k].op, w, imms[i]))
					alu_case(k, w, &dsts[d], NULL, imms[i], &st);
		}
	}
	snprintf(name, sizeof(name), "scalar-vs-kernel-%s", alu[k].name);
	T_CHECK(!st.bad && st.checked, name, "%d of %ld results less precise than the kernel's", st.bad,
		st.checked);
	printf("    %s: %ld programs, %ld compared, %ld strictly more precise than the kernel; "
	       "kernel profile equal in %ld of %ld\n",
	       name, st.cases, st.checked, st.tighter, st.prof_equal, st.prof_checked);
}

/* Byte-order ops: to_le/to_be (BPF_ALU|BPF_END) and bswap (BPF_ALU64|BPF_END). */
static void end_family(void)
{
	static const struct {
		const char *name;
		uint8_t code;
		bool swap;
	} kinds[] = {
		{"le", BPF_ALU | BPF_END | BPF_TO_LE, false},
		{"be", BPF_ALU | BPF_END | BPF_TO_BE, true},
		{"bswap", BPF_ALU64 | BPF_END, true},
	};
	struct stats st = {0};
	char what[160];

	for (unsigned k = 0; k < 3; k++)
		for (int width = 16; width <= 64; width *= 2)
			for (unsigned d = 0; d < sizeof(dsts) / sizeof(dsts[0]); d++) {
				struct prog p;
				struct bg_scalar kd, kr, ours;
				int idx, opi;

				start(&p, &dsts[d], NULL);
				idx = p.n - 2;
				opi = p.n;
				emit(&p, kinds[k].code, BPF_REG_6, 0, 0, width);
				emit(&p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_8, BPF_REG_6, 0, 0);
				finish(&p);
				if (load(&p)) {
					printf("    load failed (%s%d %s)\n", kinds[k].name, width, dsts[d].name);
					st.bad++;
					continue;
				}
				if (!parse_reg(insn_line(idx) ? insn_line(idx) : "", 8, &kd) ||
				    !parse_reg(insn_line(opi + 1) ? insn_line(opi + 1) : "", 8, &kr))
					continue;
				ours = bg_scalar_end(&kd, width, kinds[k].swap);
				snprintf(what, sizeof(what), "%s%d %s", kinds[k].name, width, dsts[d].name);
				compare(&st, what, &ours, &kr);
				compare_prof(&st, what, &ours, &kr);
				st.cases++;
			}
	T_CHECK(!st.bad && st.checked, "scalar-vs-kernel-end", "%d of %ld less precise than the kernel",
		st.bad, st.checked);
	printf("    scalar-vs-kernel-end: %ld programs, %ld strictly more precise than the kernel\n",
	       st.cases, st.tighter);
}

static const struct {
	const char *name;
	uint8_t op;
} jmp[] = {
	{"jeq", BPF_JEQ},   {"jne", BPF_JNE},   {"jgt", BPF_JGT},   {"jge", BPF_JGE},
	{"jlt", BPF_JLT},   {"jle", BPF_JLE},   {"jsgt", BPF_JSGT}, {"jsge", BPF_JSGE},
	{"jslt", BPF_JSLT}, {"jsle", BPF_JSLE}, {"jset", BPF_JSET},
};

/* One edge: the kernel's refined pair at lines t and t+1 (absent: dead). */
static void edge_prof(struct stats *st, const char *what, bool live, int t, bool x,
		      const struct bg_scalar *od, const struct bg_scalar *os)
{
	const char *l = insn_line(t), *l2 = insn_line(t + 1);
	struct bg_scalar kd, ks;

	if (!l || !live) {
		st->prof_checked++;
		st->prof_equal += !l == !live;
		if (!l && live && st->bad++ < 5)
			printf("    kernel profile less precise: %s: edge live, kernel: dead\n", what);
		return;
	}
	if (parse_reg(l, 8, &kd))
		compare_prof(st, what, od, &kd);
	if (x && l2 && parse_reg(l2, 9, &ks))
		compare_prof(st, what, os, &ks);
}

static void edge(struct stats *st, const char *what, bool live, int t, bool x,
		 const struct bg_scalar *od, const struct bg_scalar *os)
{
	const char *l = insn_line(t), *l2 = insn_line(t + 1);
	struct bg_scalar kd, ks;

	if (!l) { /* the kernel found the edge dead */
		st->checked++;
		if (live) {
			if (st->bad++ < 5)
				printf("    less precise than the kernel: %s: edge live, kernel: dead\n", what);
		}
		return;
	}
	if (!live) {
		st->tighter++;
		if (getenv("BG_KERNEL_VERBOSE"))
			printf("    tighter: %s: dead, kernel live\n", what);
		return;
	}
	if (parse_reg(l, 8, &kd))
		compare(st, what, od, &kd);
	if (x && l2 && parse_reg(l2, 9, &ks))
		compare(st, what, os, &ks);
}

static void jmp_case(unsigned k, bool w64, const struct recipe *d, const struct recipe *s,
		     int32_t imm, struct stats *st)
{
	struct prog p;
	struct bg_scalar kd, ks, td, ts, fd, fs;
	int idx, ji, f, t;
	bool x = s != NULL, tl, fl;
	char what[160];

	start(&p, d, s);
	idx = p.n - 2;
	ji = p.n;
	emit(&p, (w64 ? BPF_JMP : BPF_JMP32) | jmp[k].op | (x ? BPF_X : BPF_K), BPF_REG_6,
	     x ? BPF_REG_7 : 0, 3, imm);
	f = p.n;
	emit(&p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_8, BPF_REG_6, 0, 0);
	emit(&p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_9, BPF_REG_7, 0, 0);
	p.out[p.nout++] = p.n;
	emit(&p, BPF_JMP | BPF_JA, 0, 0, 0, 0);
	t = p.n;
	emit(&p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_8, BPF_REG_6, 0, 0);
	emit(&p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_9, BPF_REG_7, 0, 0);
	finish(&p);
	(void)ji;
	if (load(&p)) {
		printf("    load failed (%s %s): %.200s\n", jmp[k].name, d->name, logbuf);
		st->bad++;
		return;
	}
	if (!parse_reg(insn_line(idx) ? insn_line(idx) : "", 8, &kd))
		return;
	ks = bg_scalar_const((uint64_t)(int64_t)imm);
	if (x && !parse_reg(insn_line(idx + 1) ? insn_line(idx + 1) : "", 9, &ks))
		return;
	td = kd, ts = ks, fd = kd, fs = ks;
	tl = bg_scalar_refine(jmp[k].op, w64, true, &td, &ts);
	fl = bg_scalar_refine(jmp[k].op, w64, false, &fd, &fs);
	snprintf(what, sizeof(what), "%s%s %s, %s taken", jmp[k].name, w64 ? "64" : "32", d->name,
		 s ? s->name : "imm");
	edge(st, what, tl, t, x, &td, &ts);
	what[strlen(what) - 5] = 0;
	strcat(what, "fall");
	edge(st, what, fl, f, x, &fd, &fs);
	td = kd, ts = ks, fd = kd, fs = ks;
	tl = bg_scalar_refine_kernel(jmp[k].op, w64, true, &td, &ts);
	fl = bg_scalar_refine_kernel(jmp[k].op, w64, false, &fd, &fs);
	edge_prof(st, what, fl, f, x, &fd, &fs);
	what[strlen(what) - 4] = 0;
	strcat(what, "taken");
	edge_prof(st, what, tl, t, x, &td, &ts);
	st->cases++;
}

static void jmp_family(unsigned k)
{
	struct stats st = {0};
	char name[64];

	for (int w = 0; w < 2; w++)
		for (unsigned d = 0; d < sizeof(dsts) / sizeof(dsts[0]); d++) {
			for (unsigned s = 0; s < sizeof(srcs) / sizeof(srcs[0]); s++)
				jmp_case(k, w, &dsts[d], &srcs[s], 0, &st);
			for (unsigned i = 0; i < sizeof(imms) / sizeof(imms[0]); i++)
				jmp_case(k, w, &dsts[d], NULL, imms[i], &st);
		}
	snprintf(name, sizeof(name), "scalar-vs-kernel-%s", jmp[k].name);
	T_CHECK(!st.bad && st.checked, name, "%d of %ld less precise than the kernel", st.bad, st.checked);
	printf("    %s: %ld programs, %ld compared, %ld strictly more precise than the kernel; "
	       "kernel profile equal in %ld of %ld\n",
	       name, st.cases, st.checked, st.tighter, st.prof_equal, st.prof_checked);
}

int main(void)
{
	struct prog p = {0};

	emit(&p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	emit(&p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	if (load(&p)) {
		T_SKIP("scalar-vs-kernel", "bpf() unavailable: %s", strerror(errno));
		return 0;
	}
	for (unsigned k = 0; k < sizeof(alu) / sizeof(alu[0]); k++)
		alu_family(k);
	end_family();
	for (unsigned k = 0; k < sizeof(jmp) / sizeof(jmp[0]); k++)
		jmp_family(k);
	T_CHECK(fmt_checked && fmt_equal == fmt_checked, "scalar-fmt-kernel-notation",
		"%ld of %ld values printed differently from the kernel", fmt_checked - fmt_equal,
		fmt_checked);
	printf("    scalar-fmt-kernel-notation: %ld of %ld kernel log values reprinted identically\n",
	       fmt_equal, fmt_checked);
	T_EXIT();
}
