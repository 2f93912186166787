/* Branch hints recorded by bpfgate cc in the non-allocated section
 * `.bpfgate.hints` (format: docs/HINTS.md), mapped onto a prepared
 * program's slots. The section is read only here; loaders (libbpf, the
 * kernel) skip it. Every offset and length of the section is validated
 * before use; a record is kept only when it names a conditional jump of a
 * function placed in the program. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "obj/internal.h"

#define HDR_LEN 24
#define REC_MIN 28

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

const char *bg_hint_source_name(int source)
{
	switch (source) {
	case BG_HINT_EXPECT:
		return "expect";
	case BG_HINT_PROFILE:
		return "profile";
	default:
		return "static";
	}
}

struct hsec {
	const uint8_t *d;
	size_t size;
	uint32_t rec_size, nrec, str_off, str_len;
};

static int bad(const struct bg_program *p, char *err, size_t errsz, const char *fmt,
	       const char *what, size_t at)
{
	char msg[160];

	snprintf(msg, sizeof(msg), fmt, what);
	if (err && errsz)
		snprintf(err, errsz, "%s: section .bpfgate.hints offset 0x%zx: %s", p->obj->path,
			 at, msg);
	errno = BG_ERR_FORMAT;
	return -BG_ERR_FORMAT;
}

/* A NUL-terminated string at off of the string table, or NULL. */
static const char *str_at(const struct hsec *h, uint32_t off)
{
	const char *s = (const char *)h->d + h->str_off;

	if (off >= h->str_len || !memchr(s + off, 0, h->str_len - off))
		return NULL;
	return s + off;
}

static int read_header(const struct bg_program *p, const struct obj_sec *sec, struct hsec *h,
		       char *err, size_t errsz)
{
	h->d = sec->data;
	h->size = sec->size;
	if (!h->d || h->size < HDR_LEN || memcmp(h->d, "BGH1", 4))
		return bad(p, err, errsz, "%s", "bad header (want magic BGH1 and 24 bytes)", 0);
	if (le16(h->d + 4) != 1 || le16(h->d + 6) < HDR_LEN || le16(h->d + 6) > h->size)
		return bad(p, err, errsz, "%s", "unknown version or header length", 4);
	h->rec_size = le32(h->d + 8);
	h->nrec = le32(h->d + 12);
	h->str_off = le32(h->d + 16);
	h->str_len = le32(h->d + 20);
	if (h->rec_size < REC_MIN || h->rec_size > 4096)
		return bad(p, err, errsz, "%s", "record size out of range", 8);
	if ((uint64_t)le16(h->d + 6) + (uint64_t)h->rec_size * h->nrec > h->size)
		return bad(p, err, errsz, "%s", "records extend past the section", 12);
	if ((uint64_t)h->str_off + h->str_len > h->size)
		return bad(p, err, errsz, "%s", "string table extends past the section", 16);
	return le16(h->d + 6);
}

/* The slot of (section name, byte offset) in p, or -1 when not placed. */
static long slot_of(const struct bg_program *p, const char *secname, uint32_t off)
{
	for (size_t i = 0; i < p->npieces; i++) {
		const struct obj_func *f = &p->obj->funcs[p->pieces[i].func];
		size_t k = off / 8;

		if (strcmp(p->obj->secs[f->sec].name, secname) || k < f->start ||
		    k >= f->start + f->len)
			continue;
		return (long)(p->pieces[i].at + (k - f->start));
	}
	return -1;
}

static int hint_cmp(const void *a, const void *b)
{
	const struct bg_hint *x = a, *y = b;

	return x->insn < y->insn ? -1 : x->insn > y->insn;
}

int bg_program__hints(const struct bg_program *p, struct bg_hint **out, char *err, size_t errsz)
{
	struct hsec h;
	struct bg_hint *v;
	size_t n = 0;
	int si, hdr;

	if (!p || !out)
		return -EINVAL;
	*out = NULL;
	si = obj_find_sec(p->obj, ".bpfgate.hints");
	if (si < 0)
		return 0;
	hdr = read_header(p, &p->obj->secs[si], &h, err, errsz);
	if (hdr < 0)
		return hdr;
	v = calloc(h.nrec ? h.nrec : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (uint32_t r = 0; r < h.nrec; r++) {
		const uint8_t *rec = h.d + hdr + (size_t)r * h.rec_size;
		size_t at = (size_t)(rec - h.d);
		const char *secname = str_at(&h, le32(rec)), *file = str_at(&h, le32(rec + 16));
		uint32_t prob = le32(rec + 8);
		long slot;

		if (!secname || !file || prob > 0x80000000u || (le32(rec + 4) & 7) ||
		    le16(rec + 12) > 2) {
			free(v);
			return bad(p, err, errsz, "%s",
				   "bad record (string, probability, offset or source)", at);
		}
		slot = slot_of(p, secname, le32(rec + 4));
		if (slot < 0)
			continue; /* a function of another program */
		if (!p->insns || p->insns[slot].kind != BG_K_JCOND) {
			free(v);
			return bad(p, err, errsz, "%s",
				   "record names an instruction that is not a conditional jump",
				   at);
		}
		v[n++] = (struct bg_hint){(size_t)slot, prob,		le16(rec + 12),
					  file,		le32(rec + 20), le32(rec + 24)};
	}
	qsort(v, n, sizeof(*v), hint_cmp);
	if (!n) {
		free(v);
		v = NULL;
	}
	*out = v;
	return (int)n;
}
