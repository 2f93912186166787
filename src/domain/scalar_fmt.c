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

/* The kernel's number notation: signed values in [-2^15, 2^15) and unsigned
 * values <= 2^16 - 1 in decimal, everything else in hex of the 64-bit word
 * given (see put_bounds for what that word is for 32-bit bounds). */
static bool snum_decimal(int64_t v)
{
	return v >= -32768 && v <= 32767;
}

static void put_num(struct fmt_buf *f, bool is_signed, uint64_t v)
{
	unsigned room = f->len < f->sz ? f->sz - f->len : 0;
	bool dec = is_signed ? snum_decimal((int64_t)v) : v <= 65535;
	int n = snprintf(f->p + (room ? f->len : 0), room,
			 dec ? (is_signed ? "%lld" : "%llu") : "%#llx", (unsigned long long)v);

	f->len += n > 0 ? n : 0;
}

static void put_str(struct fmt_buf *f, const char *s)
{
	unsigned room = f->len < f->sz ? f->sz - f->len : 0;
	int n = snprintf(f->p + (room ? f->len : 0), room, "%s", s);

	f->len += n > 0 ? n : 0;
}

/* A signed 32-bit bound as the kernel words it: sign-extended when it will
 * print in decimal, else its 32-bit pattern (so hex never shows a
 * sign-extension). */
static uint64_t s32_word(int32_t v)
{
	return snum_decimal(v) ? (uint64_t)(int64_t)v : (uint32_t)v;
}

/* The eight bounds in the kernel's order; a bound at its type's extreme is
 * omitted, and a later bound of the same kind (min with min, max with max)
 * with the same word and sign is listed with it and printed once, in the
 * first one's notation: "smin=smin32=0", "smax=umax=0xffffffff". */
static void put_bounds(struct fmt_buf *f, const struct bg_scalar *a)
{
	struct {
		const char *name;
		uint64_t v;
		bool omit;
	} b[8] = {
	    {"smin", (uint64_t)a->smin, a->smin == INT64_MIN},
	    {"smax", (uint64_t)a->smax, a->smax == INT64_MAX},
	    {"umin", a->umin, a->umin == 0},
	    {"umax", a->umax, a->umax == UINT64_MAX},
	    {"smin32", s32_word(a->s32min), a->s32min == INT32_MIN},
	    {"smax32", s32_word(a->s32max), a->s32max == INT32_MAX},
	    {"umin32", a->u32min, a->u32min == 0},
	    {"umax32", a->u32max, a->u32max == UINT32_MAX},
	};

	for (int i = 0; i < 8; i++) {
		bool sg = b[i].name[0] == 's', neg = sg && (int64_t)b[i].v < 0;

		if (b[i].omit)
			continue;
		put_str(f, f->sep ? "," : "");
		f->sep = true;
		put_str(f, b[i].name);
		put_str(f, "=");
		for (int j = i + 2; j < 8; j += 2) {
			bool neg2 = b[j].name[0] == 's' && (int64_t)b[j].v < 0;

			if (!b[j].omit && neg == neg2 && b[j].v == b[i].v) {
				put_str(f, b[j].name);
				put_str(f, "=");
				b[j].omit = true;
			}
		}
		put_num(f, sg, b[i].v);
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
		put_num(&f, true, a->tn.value);
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
