/* Scalar domain: printing, in a short form ("42", "[0,255]") and in the
 * kernel verifier log's notation (bg_scalar_fmt_kernel), which the kernel
 * oracle test checks on the kernel's own log. */
#include <stdio.h>
#include <string.h>
#include <bpfgate/insn.h>
#include "domain/scalar.h"
#include "domain/scalar_impl.h"

/* ---- printing ---------------------------------------------------------- */

static int fmt_num(char *buf, unsigned sz, int64_t v)
{
	if (v >= -(1LL << 31) && v < (1LL << 32))
		return snprintf(buf, sz, "%lld", (long long)v);
	return snprintf(buf, sz, "%#llx", (unsigned long long)v);
}

struct fmt_buf {
	char *p;
	unsigned sz, len;
	bool sep;
};

/* Short forms for constants and plain ranges, else the kernel's bound list. */
int bg_scalar_fmt(const struct bg_scalar *a, char *buf, unsigned sz)
{
	struct bg_scalar plain;
	uint64_t v;
	int n;

	if (sz)
		buf[0] = 0;
	if (a->bottom)
		return snprintf(buf, sz, "bottom");
	if (bg_scalar_is_const(a, &v))
		return fmt_num(buf, sz, (int64_t)v);
	plain = bg_scalar_unknown();
	if (bg_scalar_eq(&plain, a))
		return snprintf(buf, sz, "unknown");
	plain = bg_scalar_urange(a->umin, a->umax);
	if (bg_scalar_eq(&plain, a))
		return snprintf(buf, sz, "[%llu,%llu]", (unsigned long long)a->umin,
				(unsigned long long)a->umax);
	plain = bg_scalar_srange(a->smin, a->smax);
	if (bg_scalar_eq(&plain, a))
		return snprintf(buf, sz, "[%lld,%lld]", (long long)a->smin, (long long)a->smax);
	n = bg_scalar_fmt_kernel(a, buf, sz);
	if (n >= 8 && sz > (unsigned)n) { /* drop the "scalar(" ... ")" wrapper */
		memmove(buf, buf + 7, n - 7);
		buf[n - 8] = 0;
		n -= 8;
	}
	return n;
}

/* ---- the kernel's log format ------------------------------------------------ */

/* The kernel prints small numbers (|v| < 2^15) in decimal, others in hex of
 * their bit pattern at the field's width (32 or 64). */
static void put_num(struct fmt_buf *f, bool is_signed, uint64_t v, unsigned width)
{
	unsigned room = f->len < f->sz ? f->sz - f->len : 0;
	int64_t sv = (int64_t)v;
	bool dec = is_signed ? sv >= -32768 && sv <= 32767 : v <= 32767;
	int n;

	if (!dec && width == 32)
		v = (uint32_t)v;
	n = snprintf(f->p + (room ? f->len : 0), room, dec ? (is_signed ? "%lld" : "%llu") : "%#llx",
		     (unsigned long long)v);
	f->len += n > 0 ? n : 0;
}

static void put_str(struct fmt_buf *f, const char *s)
{
	unsigned room = f->len < f->sz ? f->sz - f->len : 0;
	int n = snprintf(f->p + (room ? f->len : 0), room, "%s", s);

	f->len += n > 0 ? n : 0;
}

/* The eight bounds in the kernel's order; a bound at its type's extreme is
 * omitted, and a later bound of the same kind (min with min, max with max)
 * that prints the same number with the same sign is listed with it:
 * "smin=smin32=0". (Sign: a negative 64-bit signed bound, or a 32-bit one
 * printed with a minus; measured against the kernel's log.) */
static void put_bounds(struct fmt_buf *f, const struct bg_scalar *a)
{
	struct {
		const char *name;
		uint64_t v;
		bool omit;
		char text[24];
	} b[8] = {
		{"smin", (uint64_t)a->smin, a->smin == INT64_MIN, ""},
		{"smax", (uint64_t)a->smax, a->smax == INT64_MAX, ""},
		{"umin", a->umin, a->umin == 0, ""},
		{"umax", a->umax, a->umax == UINT64_MAX, ""},
		{"smin32", (uint64_t)(int64_t)a->s32min, a->s32min == INT32_MIN, ""},
		{"smax32", (uint64_t)(int64_t)a->s32max, a->s32max == INT32_MAX, ""},
		{"umin32", a->u32min, a->u32min == 0, ""},
		{"umax32", a->u32max, a->u32max == UINT32_MAX, ""},
	};
	bool neg[8];

	for (int i = 0; i < 8; i++) {
		struct fmt_buf t = {b[i].text, sizeof(b[i].text), 0, false};

		put_num(&t, b[i].name[0] == 's', b[i].v, i >= 4 ? 32 : 64);
		neg[i] = b[i].name[0] == 's' && (i < 4 ? (int64_t)b[i].v < 0 : b[i].text[0] == '-');
	}
	for (int i = 0; i < 8; i++) {
		if (b[i].omit)
			continue;
		put_str(f, f->sep ? "," : "");
		f->sep = true;
		put_str(f, b[i].name);
		put_str(f, "=");
		for (int j = i + 2; j < 8; j += 2) {
			if (!b[j].omit && neg[i] == neg[j] && !strcmp(b[i].text, b[j].text)) {
				put_str(f, b[j].name);
				put_str(f, "=");
				b[j].omit = true;
			}
		}
		put_str(f, b[i].text);
	}
}

/* As the kernel's verifier log prints a scalar register's value: a constant
 * as a number, else "scalar(" bounds ",var_off=(v; m))". */
int bg_scalar_fmt_kernel(const struct bg_scalar *a, char *buf, unsigned sz)
{
	struct fmt_buf f = {buf, sz, 0, false};
	char t[48];

	if (sz)
		buf[0] = 0;
	if (a->bottom)
		return snprintf(buf, sz, "bottom");
	if (bg_tnum_is_const(a->tn)) {
		put_num(&f, true, a->tn.value, 64);
		return (int)f.len;
	}
	put_str(&f, "scalar(");
	put_bounds(&f, a);
	if (~a->tn.mask) {
		bg_tnum_fmt(a->tn, t, sizeof(t));
		put_str(&f, f.sep ? ",var_off=" : "var_off=");
		put_str(&f, t);
	}
	put_str(&f, ")");
	return (int)f.len;
}

