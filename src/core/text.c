/* Escaping of untrusted names for terminals and JSON (bpfgate/text.h): one
 * UTF-8 validator, so both outputs agree on what is text. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "core/text.h"

int bg_utf8_seq(const unsigned char *p)
{
	unsigned c = p[0];
	int n;
	unsigned min, cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, min = 0x80, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, min = 0x800, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, min = 0x10000, cp = c & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80) /* also stops at the NUL */
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

unsigned bg_utf8_decode(const unsigned char *p, int n)
{
	static const unsigned char lead_mask[5] = {0, 0x7f, 0x1f, 0x0f, 0x07};
	unsigned cp = p[0] & lead_mask[n];

	for (int i = 1; i < n; i++)
		cp = cp << 6 | (p[i] & 0x3f);
	return cp;
}

int bg_is_control(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

struct sink {
	char *dst;
	size_t dsz, at;  /* at: length the whole text needs so far */
	size_t filled;   /* bytes written to dst: whole pieces only */
};

static void put(struct sink *k, const char *s, size_t n)
{
	if (k->filled == k->at && k->at + n < k->dsz) {
		memcpy(k->dst + k->at, s, n);
		k->filled += n;
	}
	k->at += n;
}

size_t bg_text_escape(char *dst, size_t dsz, const char *s, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	struct sink k = {dst, dsz, 0, 0};
	char esc[8];

	while (*p) {
		int n = bg_utf8_seq(p);
		unsigned cp = n ? bg_utf8_decode(p, n) : 0;

		if (!n) {
			snprintf(esc, sizeof(esc), "\\x%02x", *p);
			put(&k, esc, 4);
			n = 1;
		} else if (cp == '\n' || cp == '\r' || (cp == '\t' && !(flags & BG_TEXT_KEEP_TAB))) {
			put(&k, cp == '\n' ? "\\n" : cp == '\r' ? "\\r" : "\\t", 2);
		} else if (bg_is_control(cp) && cp != '\t') {
			snprintf(esc, sizeof(esc), cp < 0x80 ? "\\x%02x" : "\\u%04x", cp);
			put(&k, esc, strlen(esc));
		} else {
			put(&k, (const char *)p, (size_t)n);
		}
		p += n;
	}
	if (dsz)
		dst[k.filled] = '\0';
	return k.at;
}

/* The JSON twin of bg_text_escape (bpfgate/text.h): same validator, so a
 * name is text in both or in neither. */
int bg_text_write_json(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		fputs("null", f);
		return ferror(f) ? -EIO : 0;
	}
	fputc('"', f);
	while (*p) {
		int n = bg_utf8_seq(p);
		unsigned cp = n ? bg_utf8_decode(p, n) : 0xfffd;

		if (!n)
			fputs("\\ufffd", f), n = 1;
		else if (cp == '"')
			fputs("\\\"", f);
		else if (cp == '\\')
			fputs("\\\\", f);
		else if (cp == '\n')
			fputs("\\n", f);
		else if (cp == '\t')
			fputs("\\t", f);
		else if (cp == '\r')
			fputs("\\r", f);
		else if (bg_is_control(cp))
			fprintf(f, "\\u%04x", cp);
		else
			fwrite(p, 1, (size_t)n, f);
		p += n;
	}
	fputc('"', f);
	return ferror(f) ? -EIO : 0;
}
