/* src/isa/asm.c - the assembler: parses the text bg_insn_format prints, using
 * the same templates (opcodes.def) in reverse, plus labels.
 *
 * A line is: [INDEX:] [label:]... [instruction] [<objdump suffix>] [comment].
 * Each form's template is matched against the instruction; the first form that
 * consumes the whole line wins (forms are ordered so that fixed-field rows
 * come first). Label references are resolved in a second pass. Input is
 * untrusted: numbers are range-checked, lines and label names bounded.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/table.h"

#define MAX_LINE 1024
#define MAX_LABEL 128

#define label bg_asm_label
_Static_assert(sizeof(((struct bg_asm_label *)0)->name) == MAX_LABEL, "label size");

/* A parse of one instruction against one template. */
struct parse {
	int dst, src; /* -1 until seen */
	int16_t off;
	int32_t imm, hi;
	char label[MAX_LABEL]; /* referenced label, "" if none */
	char label_field;      /* 'o' (off) or 'i' (imm) */
	const char *stop;      /* where matching failed */
	const char *why;
	bool strong;           /* failed on a recognizable but invalid operand */
	char want[2];          /* expected literal character */
	char msg[64];
};

struct pending {
	size_t slot;
	int line;
	char field;
	char name[MAX_LABEL];
};

struct asm_state {
	struct bg_raw_insn *insns;
	size_t n, cap;
	struct label *labels;
	size_t nlabels, cap_labels;
	struct pending *refs;
	size_t nrefs, cap_refs;
	char *err;
	size_t errsz;
};

static int fail(struct asm_state *st, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct asm_state *st, int line, const char *fmt, ...)
{
	va_list ap;
	int k = 0;

	if (st->err && st->errsz) {
		k = snprintf(st->err, st->errsz, "line %d: ", line);
		if (k >= 0 && (size_t)k < st->errsz) {
			va_start(ap, fmt);
			vsnprintf(st->err + k, st->errsz - (size_t)k, fmt, ap);
			va_end(ap);
		}
	}
	return -EINVAL;
}

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
	size_t nc = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return p;
	while (nc < need)
		nc *= 2;
	q = realloc(p, nc * elem);
	if (q)
		*cap = nc;
	return q;
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

/* Unsigned number, decimal or 0x-hex; returns the end or NULL. */
static const char *parse_uint(const char *s, uint64_t *v)
{
	int base = 10, digits = 0;
	uint64_t x = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (;; s++, digits++) {
		int d;

		if (isdigit((unsigned char)*s))
			d = *s - '0';
		else if (base == 16 && isxdigit((unsigned char)*s))
			d = tolower((unsigned char)*s) - 'a' + 10;
		else
			break;
		if (x > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return NULL;
		x = x * (uint64_t)base + (uint64_t)d;
	}
	if (!digits || ident_char(*s))
		return NULL;
	*v = x;
	return s;
}

/* Signed number in [lo, hi]; also accepts an unsigned value up to umax (wraps). */
static const char *parse_int(const char *s, int64_t lo, int64_t hi, uint64_t umax, int64_t *v)
{
	bool neg = false;
	uint64_t m;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	s = parse_uint(s, &m);
	if (!s)
		return NULL;
	if (neg) {
		if (m > (uint64_t)(-(lo + 1)) + 1)
			return NULL;
		*v = m == (uint64_t)(-(lo + 1)) + 1 ? lo : -(int64_t)m;
		return s;
	}
	if (m > (uint64_t)hi && m > umax)
		return NULL;
	*v = (int64_t)m; /* two's complement wrap for values above hi */
	return s;
}

static const char *parse_label(const char *s, struct parse *p, char field)
{
	size_t n = 0;

	if (!ident_start(*s))
		return NULL;
	while (ident_char(s[n]))
		n++;
	if (n >= MAX_LABEL)
		return NULL;
	memcpy(p->label, s, n);
	p->label[n] = 0;
	p->label_field = field;
	return s + n;
}

static const char *parse_reg(const char *s, char prefix, int *slot)
{
	uint64_t r;
	const char *e;

	if (*s != prefix || !isdigit((unsigned char)s[1]))
		return NULL;
	e = parse_uint(s + 1, &r);
	if (!e || r > 10)
		return NULL;
	if (*slot >= 0 && *slot != (int)r)
		return NULL;
	*slot = (int)r;
	return e;
}

/* A relative target "+N"/"-N" (or a label) into an int of [lo, hi]. */
static const char *parse_rel(const char *s, struct parse *p, char field, int64_t lo, int64_t hi,
			     int64_t *v)
{
	if (s[0] == 'p' && s[1] == 'c' && (s[2] == '+' || s[2] == '-'))
		s += 2; /* the kernel log's "goto pc+3" */
	if (*s == '+' || *s == '-')
		return parse_int(s, lo, hi, 0, v);
	return parse_label(s, p, field);
}

/* Parse one placeholder at s. */
static const char *parse_ph(char ph, const char *s, struct parse *p)
{
	int64_t v = 0;
	uint64_t a, b;

	switch (ph) {
	case 'd': return parse_reg(s, 'r', &p->dst);
	case 'D': return parse_reg(s, 'w', &p->dst);
	case 's': return parse_reg(s, 'r', &p->src);
	case 'S': return parse_reg(s, 'w', &p->src);
	case 'i':
		s = parse_int(s, INT32_MIN, INT32_MAX, UINT32_MAX, &v);
		p->imm = (int32_t)(uint32_t)v;
		return s;
	case 'h':
		s = parse_int(s, INT32_MIN, INT32_MAX, UINT32_MAX, &v);
		p->hi = (int32_t)(uint32_t)v;
		return s;
	case 'n':
		s = parse_int(s, INT16_MIN, INT16_MAX, 0, &v);
		p->off = (int16_t)v;
		return s;
	case 'L':
		s = parse_int(s, INT64_MIN, INT64_MAX, UINT64_MAX, &v);
		p->imm = (int32_t)(uint32_t)(uint64_t)v;
		p->hi = (int32_t)(uint32_t)((uint64_t)v >> 32);
		return s;
	case 'o':
		if (*s != '+' && *s != '-')
			return NULL;
		{
			bool neg = *s == '-';

			s = parse_uint(skip_ws(s + 1), &a);
			if (!s || a > (neg ? 32768u : 32767u))
				return NULL;
			p->off = (int16_t)(neg ? -(int64_t)a : (int64_t)a);
		}
		return s;
	case 'j':
		s = parse_rel(s, p, 'o', INT16_MIN, INT16_MAX, &v);
		p->off = (int16_t)v;
		return s;
	case 'J':
		s = parse_rel(s, p, 'i', INT32_MIN, INT32_MAX, &v);
		p->imm = (int32_t)v;
		return s;
	case 'c':
		if (s[0] == 'p' && s[1] == 'c' && (s[2] == '+' || s[2] == '-')) {
			s = parse_int(s + 2, INT32_MIN, INT32_MAX, 0, &v);
			p->imm = (int32_t)v;
			return s;
		}
		return parse_label(s, p, 'i');
	case 'a':
		s = parse_uint(s, &a);
		if (!s || a > 0xffff)
			return NULL;
		p->imm = (int32_t)(uint32_t)(((uint32_t)a << 16) | ((uint32_t)p->imm & 0xffff));
		return s;
	case 'b':
		s = parse_uint(s, &b);
		if (!s || b > 0xffff)
			return NULL;
		p->imm = (int32_t)(((uint32_t)p->imm & 0xffff0000u) | (uint32_t)b);
		return s;
	default: return NULL;
	}
}

/* Why placeholder ph failed at s: an invalid register or a number out of
 * range is a "strong" reason, reported in preference to a syntax mismatch. */
static void explain_operand(char ph, const char *s, struct parse *p)
{
	const char *q = s;

	p->stop = s;
	p->why = "bad operand";
	if (strchr("dDsS", ph)) {
		char want = ph == 'd' || ph == 's' ? 'r' : 'w';

		if ((*q == 'r' || *q == 'w') && isdigit((unsigned char)q[1])) {
			if (*q != want) {
				p->why = want == 'r' ? "expected a 64-bit register rN"
						     : "expected a 32-bit register wN";
			} else {
				p->why = "invalid register (r0..r10 / w0..w10)";
				p->strong = true;
			}
		}
		return;
	}
	if (*q == '+' || *q == '-')
		q = skip_ws(q + 1);
	if (ph == 'c' && s[0] == 'p' && s[1] == 'c')
		q = s + 3;
	if (isdigit((unsigned char)*q)) {
		p->why = ph == 'o' || ph == 'j' || ph == 'n' ? "offset out of range (16 bits)"
			 : ph == 'a' || ph == 'b'	 ? "address space out of range (16 bits)"
							 : "number out of range";
		p->strong = true;
	}
}

/* Match template t against s entirely; false with p->stop/p->why on failure. */
static bool match(const char *t, const char *s, struct parse *p)
{
	for (; *t; t++) {
		if (*t == ' ')
			continue;
		s = skip_ws(s);
		if (*t == '%' && t[1] != '%') {
			const char *e = parse_ph(*++t, s, p);

			if (!e) {
				explain_operand(*t, s, p);
				return false;
			}
			s = e;
			continue;
		}
		if (*t == '%')
			t++;
		if (*s != *t) {
			p->stop = s;
			snprintf(p->msg, sizeof(p->msg), "%s (expected '%c')",
				 *s ? "unexpected text" : "incomplete instruction", *t);
			p->why = p->msg;
			return false;
		}
		s++;
	}
	s = skip_ws(s);
	if (*s) {
		p->stop = s;
		p->why = "unexpected text";
		return false;
	}
	return true;
}

static int add_label(struct asm_state *st, const char *name, size_t len, int line)
{
	struct label *l;

	if (len >= MAX_LABEL)
		return fail(st, line, "label too long");
	l = grow(st->labels, &st->cap_labels, st->nlabels + 1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	st->labels = l;
	l = &st->labels[st->nlabels++];
	memcpy(l->name, name, len);
	l->name[len] = 0;
	l->slot = st->n;
	l->line = line;
	return 0;
}

static int label_cmp(const void *a, const void *b)
{
	const struct label *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Sort labels by name (O(n log n)) and reject duplicates. */
static int sort_labels(struct asm_state *st)
{
	if (st->nlabels > 1)
		qsort(st->labels, st->nlabels, sizeof(*st->labels), label_cmp);
	for (size_t i = 1; i < st->nlabels; i++)
		if (!strcmp(st->labels[i].name, st->labels[i - 1].name))
			return fail(st, st->labels[i].line, "label '%s' already defined on line %d",
				    st->labels[i].name, st->labels[i - 1].line);
	return 0;
}

/* The template form i is matched with: the kernel log's when the line came
 * with a "(op) " prefix (kern), whose ld_imm64 has no "ll" suffix. */
static const char *asm_template(size_t i, bool kern, char *buf, size_t sz)
{
	const char *t = kern ? bg_opform_kernel(i) : bg_opforms[i].tmpl;
	size_t n = strlen(t);

	if (!kern || bg_opforms[i].kind != BG_K_LD_IMM64 || bg_opforms[i].src != BG_PSEUDO_NONE ||
	    n < 3 || n >= sz || strcmp(t + n - 3, " ll"))
		return t;
	memcpy(buf, t, n - 3);
	buf[n - 3] = 0;
	return buf;
}

/* Assemble one instruction text (already stripped) at the current slot.
 * code >= 0 restricts the forms to that opcode (kernel log "(op) " prefix). */
static int asm_insn(struct asm_state *st, const char *s, int line, int code)
{
	char tbuf[128];
	const char *best = s, *best_why = NULL;
	bool best_strong = false;
	char why[64];

	for (size_t i = 0; i < bg_opform_cnt; i++) {
		const struct bg_opform *f = &bg_opforms[i];
		struct parse p = { .dst = -1, .src = -1, .off = f->off, .imm = f->imm };
		unsigned u = bg_opform_uses(i);
		struct bg_raw_insn *r;
		size_t k = f->kind == BG_K_LD_IMM64 ? 2 : 1;

		if (code >= 0 && f->code != code)
			continue;
		if (!match(asm_template(i, code >= 0, tbuf, sizeof(tbuf)), s, &p)) {
			if ((p.strong && !best_strong) ||
			    (p.strong == best_strong && (p.stop > best || (p.strong && !best_why)))) {
				best = p.stop;
				best_strong = p.strong;
				snprintf(why, sizeof(why), "%s", p.why);
				best_why = why;
			}
			continue;
		}
		r = grow(st->insns, &st->cap, st->n + k, sizeof(*r));
		if (!r)
			return -ENOMEM;
		st->insns = r;
		r += st->n;
		memset(r, 0, k * sizeof(*r));
		r[0].code = f->code;
		r[0].dst_reg = p.dst > 0 ? (uint8_t)p.dst : 0;
		r[0].src_reg = u & BG_U_SRC ? (uint8_t)(p.src > 0 ? p.src : 0) : f->src;
		r[0].off = p.off;
		r[0].imm = p.imm;
		if (k == 2)
			r[1].imm = p.hi;
		if (p.label[0]) {
			struct pending *q = grow(st->refs, &st->cap_refs, st->nrefs + 1, sizeof(*q));

			if (!q)
				return -ENOMEM;
			st->refs = q;
			q += st->nrefs++;
			q->slot = st->n;
			q->line = line;
			q->field = p.label_field;
			memcpy(q->name, p.label, sizeof(q->name));
		}
		st->n += k;
		return 0;
	}
	if (best_why && (best > s || best_strong))
		return fail(st, line, "%s at '%.40s' in '%.80s'", best_why, best, s);
	return fail(st, line, "cannot parse instruction '%.80s'", s);
}

static int label_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct label *)a)->name, ((const struct label *)b)->name);
}

static int resolve(struct asm_state *st)
{
	int rc = sort_labels(st);

	if (rc)
		return rc;
	for (size_t i = 0; i < st->nrefs; i++) {
		struct pending *q = &st->refs[i];
		struct label key;
		const struct label *l;
		int64_t d;

		memcpy(key.name, q->name, sizeof(key.name));
		l = st->nlabels ? bsearch(&key, st->labels, st->nlabels, sizeof(*l), label_name_cmp) : NULL;
		if (!l)
			return fail(st, q->line, "undefined label '%s'", q->name);
		d = (int64_t)l->slot - (int64_t)q->slot - 1;
		if (q->field == 'o') {
			if (d < INT16_MIN || d > INT16_MAX)
				return fail(st, q->line, "jump to '%s' too far for a 16-bit offset (%lld)",
					    q->name, (long long)d);
			st->insns[q->slot].off = (int16_t)d;
		} else {
			st->insns[q->slot].imm = (int32_t)d;
		}
	}
	return 0;
}

/* Strip comments, an objdump "<...>" suffix and surrounding blanks, in place. */
static char *clean_line(char *s)
{
	char *c, *e;

	for (c = s; *c; c++) {
		/* '#' inside "call name#1" / "call #1" (kernel log) is not a comment */
		bool hash = *c == '#' && (c == s || isspace((unsigned char)c[-1])) &&
			    !isdigit((unsigned char)c[1]);

		if (*c == ';' || hash || (c[0] == '/' && c[1] == '/')) {
			*c = 0;
			break;
		}
	}
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	if (e > s && e[-1] == '>' && (c = strrchr(s, '<')) && c > s && isspace((unsigned char)c[-1]))
		*c = 0;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return (char *)skip_ws(s);
}

/* The kernel log names helpers ("call bpf_map_lookup_elem#1"): drop the name. */
static void kernel_call_name(char *s)
{
	char *p, *h;

	if (strncmp(s, "call ", 5))
		return;
	p = (char *)skip_ws(s + 5);
	h = p;
	while (ident_char(*h))
		h++;
	if (*h == '#' && h > p && strncmp(p, "kfunc", 5))
		memmove(p, h, strlen(h) + 1);
}

/* Handle "[INDEX:] [(op)] [label:]... insn" of one line. */
static int asm_line(struct asm_state *st, char *s, int line)
{
	s = clean_line(s);
	if (isdigit((unsigned char)*s)) { /* objdump / disasm index "  12:" */
		char *e = s;

		while (isdigit((unsigned char)*e))
			e++;
		if (*e == ':')
			s = (char *)skip_ws(e + 1);
	}
	while (ident_start(*s)) {
		char *e = s;
		int rc;

		while (ident_char(*e))
			e++;
		if (*e != ':')
			break;
		rc = add_label(st, s, (size_t)(e - s), line);
		if (rc)
			return rc;
		s = (char *)skip_ws(e + 1);
	}
	if (s[0] == '(' && isxdigit((unsigned char)s[1]) && isxdigit((unsigned char)s[2]) && s[3] == ')') {
		int code = (int)strtol(s + 1, NULL, 16);

		s = (char *)skip_ws(s + 4);
		kernel_call_name(s);
		return asm_insn(st, s, line, code);
	}
	return *s ? asm_insn(st, s, line, -1) : 0;
}

int bg_asm(const char *text, struct bg_raw_insn **out, char *err, size_t errsz)
{
	return bg_asm_labels(text, out, NULL, NULL, err, errsz);
}

int bg_asm_labels(const char *text, struct bg_raw_insn **out, struct bg_asm_label **labels,
		  size_t *nlabels, char *err, size_t errsz)
{
	struct asm_state st = { .err = err, .errsz = errsz };
	const char *p = text;
	char buf[MAX_LINE];
	int line = 0, rc = 0;

	if (err && errsz)
		err[0] = 0;
	if (!text || !out)
		return -EINVAL;
	*out = NULL;
	if (labels) {
		*labels = NULL;
		*nlabels = 0;
	}
	while (*p && !rc) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		line++;
		if (len >= sizeof(buf)) {
			rc = fail(&st, line, "line longer than %d characters", MAX_LINE - 1);
			break;
		}
		memcpy(buf, p, len);
		buf[len] = 0;
		if (memchr(buf, 0, len))
			rc = fail(&st, line, "NUL byte in text");
		else
			rc = asm_line(&st, buf, line);
		p += len + (nl ? 1 : 0);
	}
	if (!rc)
		rc = resolve(&st);
	if (!rc && st.n > INT32_MAX)
		rc = fail(&st, line, "program too large");
	if (!rc && labels) {
		*labels = st.labels;
		*nlabels = st.nlabels;
		st.labels = NULL;
	}
	free(st.labels);
	free(st.refs);
	if (rc) {
		if (rc == -ENOMEM)
			fail(&st, line, "out of memory");
		free(st.insns);
		return -EINVAL;
	}
	*out = st.insns;
	return (int)st.n;
}
