/* src/isa/insn.c - decode, encode and format BPF instructions, all driven by
 * the rows of opcodes.def.
 *
 * A form's template names the raw fields it takes as operands; every other
 * field must hold the form's fixed value (0 for reserved fields). That is the
 * only validity rule: decoding finds the form whose fixed fields match,
 * encoding writes the fields and re-decodes, formatting renders the template.
 * Invariant: encode(decode(x)) == x for every x that decodes.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "isa/table.h"

const struct bg_opform bg_opforms[] = {
#define BG_OP(c, k, s, o, i, sz, e, sg, t, od) \
	{ .code = (c), .kind = (k), .src = (s), .off = (o), .imm = (i), .size = (sz), .ext = (e), .sgn = (sg), .tmpl = (t), .objdump = (od) },
#include "isa/opcodes.def"
};

/* Kernel-log spellings, matched to forms at table_init. */
static const struct ksyn {
	uint8_t code, src;
	int32_t imm;
	const char *tmpl;
} ksyns[] = {
#define BG_OP(...)
#define BG_KSYN(c, s, i, t) { (c), (s), (i), (t) },
#include "isa/opcodes.def"
};
const size_t bg_opform_cnt = sizeof(bg_opforms) / sizeof(bg_opforms[0]);

#define NFORMS (sizeof(bg_opforms) / sizeof(bg_opforms[0]))

static int16_t first_by_code[256];
static int16_t next_form[NFORMS];
static uint8_t form_uses[NFORMS];
static const char *form_kernel[NFORMS];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

/* Operand mask from a template's placeholders. */
static unsigned tmpl_uses(const char *t)
{
	unsigned u = 0;

	for (; *t; t++) {
		if (*t != '%' || !t[1])
			continue;
		switch (*++t) {
		case 'd': case 'D': u |= BG_U_DST; break;
		case 's': case 'S': u |= BG_U_SRC; break;
		case 'o': case 'j': case 'n': u |= BG_U_OFF; break;
		case 'i': case 'J': case 'c': case 'a': case 'b': u |= BG_U_IMM; break;
		case 'L': u |= BG_U_IMM | BG_U_HI; break;
		case 'h': u |= BG_U_HI; break;
		}
	}
	return u;
}

static void table_init(void)
{
	int16_t last[256];

	memset(first_by_code, 0xff, sizeof(first_by_code));
	memset(last, 0xff, sizeof(last));
	for (size_t i = 0; i < NFORMS; i++) {
		uint8_t c = bg_opforms[i].code;

		form_uses[i] = (uint8_t)tmpl_uses(bg_opforms[i].tmpl);
		next_form[i] = -1;
		if (last[c] < 0)
			first_by_code[c] = (int16_t)i;
		else
			next_form[last[c]] = (int16_t)i;
		last[c] = (int16_t)i;
	}
	for (size_t i = 0; i < NFORMS; i++) {
		const struct bg_opform *f = &bg_opforms[i];

		for (size_t k = 0; k < sizeof(ksyns) / sizeof(ksyns[0]) && !form_kernel[i]; k++)
			if (ksyns[k].code == f->code &&
			    ((form_uses[i] & BG_U_SRC) || ksyns[k].src == f->src) &&
			    ((form_uses[i] & BG_U_IMM) || ksyns[k].imm == f->imm))
				form_kernel[i] = ksyns[k].tmpl;
	}
}

unsigned bg_opform_uses(size_t i)
{
	pthread_once(&table_once, table_init);
	return i < NFORMS ? form_uses[i] : 0;
}

const char *bg_opform_kernel(size_t i)
{
	pthread_once(&table_once, table_init);
	if (i >= NFORMS)
		return NULL;
	return form_kernel[i] ? form_kernel[i] : bg_opforms[i].tmpl;
}

int bg_opform_first(uint8_t code)
{
	pthread_once(&table_once, table_init);
	return first_by_code[code];
}

int bg_opform_next(size_t i)
{
	pthread_once(&table_once, table_init);
	return i < NFORMS ? next_form[i] : -1;
}

/* Why form i does not accept these fields, or NULL when it does. */
static const char *form_mismatch(size_t i, uint8_t dst, uint8_t src, int16_t off, int32_t imm,
				 int32_t hi)
{
	const struct bg_opform *f = &bg_opforms[i];
	unsigned u = form_uses[i];

	if (!(u & BG_U_SRC) && src != f->src)
		return f->src ? "unknown src_reg value" : "reserved field src_reg is not 0";
	if (!(u & BG_U_OFF) && off != f->off)
		return f->off ? "unknown off value" : "reserved field off is not 0";
	if (!(u & BG_U_IMM) && imm != f->imm)
		return f->imm ? "unknown imm value" : "reserved field imm is not 0";
	if (!(u & BG_U_DST) && dst != 0)
		return "reserved field dst_reg is not 0";
	if (!(u & BG_U_HI) && hi != 0)
		return "ld_imm64 second imm must be 0 for this src_reg";
	if ((u & BG_U_DST) && dst > 10)
		return "invalid dst register (> r10)";
	if ((u & BG_U_SRC) && src > 10)
		return "invalid src register (> r10)";
	return NULL;
}

int bg_opform_find(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm, int32_t hi,
		   const char **why)
{
	const char *first_why = NULL;
	int i = bg_opform_first(code);

	if (i < 0) {
		if (why)
			*why = "unknown opcode";
		return -1;
	}
	for (; i >= 0; i = next_form[i]) {
		const char *w = form_mismatch((size_t)i, dst, src, off, imm, hi);

		if (!w)
			return i;
		if (!first_why)
			first_why = w;
	}
	if (why)
		*why = first_why;
	return -1;
}

static void fill_insn(struct bg_insn *o, const struct bg_opform *f, const struct bg_raw_insn *r,
		      int32_t hi, size_t pc)
{
	uint8_t cls = r->code & 7;

	memset(o, 0, sizeof(*o));
	o->kind = (enum bg_insn_kind)f->kind;
	o->code = r->code;
	o->cls = cls;
	if (cls == BG_CLS_ALU || cls == BG_CLS_ALU64 || cls == BG_CLS_JMP || cls == BG_CLS_JMP32) {
		o->op = r->code & 0xf0;
		o->alu64 = cls == BG_CLS_ALU64 || cls == BG_CLS_JMP;
		o->src_is_reg = f->kind != BG_K_END && (r->code & 0x08);
	} else {
		o->src_is_reg = (form_uses[f - bg_opforms] & BG_U_SRC) != 0;
	}
	o->is_signed = f->sgn;
	o->size = f->size;
	o->ext_bits = f->ext;
	o->dst = r->dst_reg;
	o->src = r->src_reg;
	o->off = r->off;
	o->imm = r->imm;
	o->slots = 1;
	o->target = -1;
	switch (f->kind) {
	case BG_K_LD_IMM64:
		o->imm64 = (uint32_t)r->imm | (uint64_t)(uint32_t)hi << 32;
		o->pseudo = r->src_reg;
		o->slots = 2;
		if (r->src_reg == BG_PSEUDO_FUNC)
			o->target = (int32_t)((int64_t)pc + 1 + r->imm);
		break;
	case BG_K_ATOMIC:
		o->atomic_op = (uint16_t)r->imm;
		break;
	case BG_K_CALL:
		o->pseudo = r->src_reg;
		if (r->src_reg == BG_CALL_LOCAL)
			o->target = (int32_t)((int64_t)pc + 1 + r->imm);
		break;
	case BG_K_JA:
		o->target = (int32_t)((int64_t)pc + 1 + (cls == BG_CLS_JMP32 ? r->imm : r->off));
		break;
	case BG_K_JCOND:
	case BG_K_MAY_GOTO:
		o->target = (int32_t)((int64_t)pc + 1 + r->off);
		break;
	}
}

int bg_insn_decode(const struct bg_raw_insn *raw, size_t n, size_t pc, struct bg_insn *out,
		   const char **why)
{
	const char *w = NULL;
	int32_t hi = 0;
	int i;

	if (!raw || !out || n == 0) {
		if (why)
			*why = "no instruction";
		return -EINVAL;
	}
	if (raw[0].code == (BG_CLS_LD | 0x18)) {
		if (n < 2) {
			w = "truncated ld_imm64 (second slot missing)";
			goto bad;
		}
		if (raw[1].code || raw[1].dst_reg || raw[1].src_reg || raw[1].off) {
			w = "ld_imm64 second slot: code, registers and off must be 0";
			goto bad;
		}
		hi = raw[1].imm;
	}
	i = bg_opform_find(raw[0].code, raw[0].dst_reg, raw[0].src_reg, raw[0].off, raw[0].imm, hi, &w);
	if (i < 0)
		goto bad;
	fill_insn(out, &bg_opforms[i], raw, hi, pc);
	return out->slots;
bad:
	memset(out, 0, sizeof(*out));
	out->target = -1;
	if (why)
		*why = w;
	return -EINVAL;
}

int bg_insn_encode(const struct bg_insn *in, struct bg_raw_insn out[2])
{
	struct bg_raw_insn r[2] = {{0}};
	struct bg_insn chk;
	int n = 1;

	if (!in || !out || in->dst > 15 || in->src > 15)
		return -EINVAL;
	r[0].code = in->code;
	r[0].dst_reg = in->dst & 0xf;
	r[0].src_reg = in->src & 0xf;
	r[0].off = in->off;
	r[0].imm = in->imm;
	if (in->code == (BG_CLS_LD | 0x18)) {
		r[0].imm = (int32_t)(uint32_t)in->imm64;
		r[1].imm = (int32_t)(uint32_t)(in->imm64 >> 32);
		n = 2;
	}
	if (bg_insn_decode(r, (size_t)n, 0, &chk, NULL) != n)
		return -EINVAL;
	memcpy(out, r, sizeof(r[0]) * (size_t)n);
	return n;
}

int bg_prog_decode(const struct bg_raw_insn *raw, size_t n, struct bg_insn *out, size_t *bad_pc,
		   const char **why)
{
	size_t i;

	for (i = 0; i < n;) {
		int k = bg_insn_decode(raw + i, n - i, i, &out[i], why);

		if (k < 0)
			goto bad;
		if (k == 2) {
			memset(&out[i + 1], 0, sizeof(out[i + 1]));
			out[i + 1].kind = BG_K_LD_IMM64_HI;
			out[i + 1].imm = raw[i + 1].imm;
			out[i + 1].slots = 1;
			out[i + 1].target = -1;
		}
		i += (size_t)k;
	}
	for (i = 0; i < n; i++) {
		int32_t t = out[i].target;

		if (out[i].kind == BG_K_LD_IMM64_HI || t == -1)
			continue;
		if (t < 0 || (size_t)t >= n) {
			if (why)
				*why = "jump or call target outside the program";
			goto bad;
		}
		if (out[t].kind == BG_K_LD_IMM64_HI) {
			if (why)
				*why = "jump or call target is the second slot of an ld_imm64";
			goto bad;
		}
	}
	return 0;
bad:
	if (bad_pc)
		*bad_pc = i;
	return -EINVAL;
}

/* ---- formatting ---- */

struct outbuf {
	char *p;
	size_t sz, len;
};

static void put(struct outbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct outbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(b->len < b->sz ? b->p + b->len : NULL, b->len < b->sz ? b->sz - b->len : 0,
		      fmt, ap);
	va_end(ap);
	if (k > 0)
		b->len += (size_t)k;
}

static void put_char(struct outbuf *b, char c)
{
	if (b->len + 1 < b->sz) {
		b->p[b->len] = c;
		b->p[b->len + 1] = 0;
	}
	b->len++;
}

static void put_reg(struct outbuf *b, char prefix, unsigned r)
{
	put_char(b, prefix);
	if (r >= 10)
		put_char(b, (char)('0' + r / 10));
	put_char(b, (char)('0' + r % 10));
}

/* A signed number, decimal or (hex) as "0x10" / "-0x10"; sign forces "+". */
static void put_num(struct outbuf *b, int64_t v, bool hex, bool sign)
{
	uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	const char *s = v < 0 ? "-" : sign ? "+" : "";

	if (hex)
		put(b, "%s0x%" PRIx64, s, mag);
	else
		put(b, "%s%" PRIu64, s, mag);
}

static void render(struct outbuf *b, const char *t, const struct bg_insn *in, unsigned flags)
{
	bool hex = flags & BG_FMT_HEX, kern = flags & BG_FMT_KERNEL;
	int32_t hi = (int32_t)(uint32_t)(in->imm64 >> 32);

	for (; *t; t++) {
		if (*t != '%') {
			put_char(b, *t);
			continue;
		}
		switch (*++t) {
		case 'd': put_reg(b, 'r', in->dst); break;
		case 'D': put_reg(b, 'w', in->dst); break;
		case 's': put_reg(b, 'r', in->src); break;
		case 'S': put_reg(b, 'w', in->src); break;
		case 'i':
			if (kern && in->kind == BG_K_JCOND)
				put(b, "0x%x", (uint32_t)in->imm); /* the kernel's jump immediates */
			else
				put_num(b, in->imm, hex, false);
			break;
		case 'n': put_num(b, in->off, hex, false); break;
		case 'h': put_num(b, hi, hex, false); break;
		case 'L':
			if (kern)
				put(b, "0x%" PRIx64, in->imm64);
			else
				put_num(b, (int64_t)in->imm64, hex, false);
			break;
		case 'o':
			if (kern) {
				put(b, " %+d", in->off);
				break;
			}
			put(b, " %c ", in->off < 0 ? '-' : '+');
			put_num(b, in->off < 0 ? -(int64_t)in->off : in->off, hex, false);
			break;
		case 'j':
			put(b, kern ? "pc" : "");
			put_num(b, in->off, hex, true);
			break;
		case 'J':
			put(b, kern ? "pc" : "");
			put_num(b, in->imm, hex, true);
			break;
		case 'c': put(b, "pc"); put_num(b, in->imm, hex, true); break;
		case 'a': put_num(b, (uint32_t)in->imm >> 16, hex, false); break;
		case 'b': put_num(b, (uint32_t)in->imm & 0xffff, hex, false); break;
		case '%': put_char(b, '%'); break;
		default: return;
		}
	}
}

int bg_insn_format_opts(const struct bg_insn *in, char *buf, size_t sz, unsigned flags)
{
	struct outbuf b = { .p = buf, .sz = sz };
	const struct bg_opform *f;
	int i;

	if (buf && sz)
		buf[0] = 0;
	if (!in)
		return 0;
	if (in->kind == BG_K_LD_IMM64_HI)
		return 0;
	i = bg_opform_find(in->code, in->dst, in->src, in->off, in->imm,
			   (int32_t)(uint32_t)(in->imm64 >> 32), NULL);
	if (i < 0) {
		put(&b, "<invalid 0x%02x>", in->code);
		return (int)b.len;
	}
	f = &bg_opforms[i];
	if (flags & BG_FMT_KERNEL) {
		put(&b, "(%02x) ", in->code);
		render(&b, form_kernel[i] ? form_kernel[i] : f->tmpl, in, flags);
		/* the kernel's ld_imm64 has no "ll" suffix */
		if (in->kind == BG_K_LD_IMM64 && in->pseudo == BG_PSEUDO_NONE && b.len >= 3) {
			b.len -= 3;
			if (b.len < b.sz)
				b.p[b.len] = 0;
		}
		return (int)b.len;
	}
	render(&b, (flags & BG_FMT_OBJDUMP) && f->objdump ? f->objdump : f->tmpl, in, flags);
	return (int)b.len;
}

int bg_insn_format(const struct bg_insn *in, char *buf, size_t sz)
{
	return bg_insn_format_opts(in, buf, sz, 0);
}

uint8_t bg_jmp_inverse(uint8_t op)
{
	static const uint8_t pairs[][2] = {
	    {BG_JMP_JEQ, BG_JMP_JNE},   {BG_JMP_JGT, BG_JMP_JLE},   {BG_JMP_JGE, BG_JMP_JLT},
	    {BG_JMP_JSGT, BG_JMP_JSLE}, {BG_JMP_JSGE, BG_JMP_JSLT},
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (op == pairs[i][0])
			return pairs[i][1];
		if (op == pairs[i][1])
			return pairs[i][0];
	}
	return 0;
}

const char *bg_insn_kind_name(enum bg_insn_kind k)
{
	static const char *const names[BG_K__MAX] = {
		[BG_K_INVALID] = "invalid", [BG_K_ALU] = "alu", [BG_K_END] = "end",
		[BG_K_ADDR_CAST] = "addr_space_cast", [BG_K_LD_IMM64] = "ld_imm64",
		[BG_K_LD_IMM64_HI] = "ld_imm64_hi", [BG_K_LD_ABS] = "ld_abs",
		[BG_K_LD_IND] = "ld_ind", [BG_K_LDX] = "ldx", [BG_K_ST] = "st", [BG_K_STX] = "stx",
		[BG_K_ATOMIC] = "atomic", [BG_K_JA] = "ja", [BG_K_JCOND] = "jcond",
		[BG_K_MAY_GOTO] = "may_goto", [BG_K_CALL] = "call", [BG_K_CALLX] = "callx",
		[BG_K_EXIT] = "exit",
	};

	return (unsigned)k < BG_K__MAX && names[k] ? names[k] : "unknown";
}
