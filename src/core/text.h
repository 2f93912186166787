/* Untrusted strings on their way to a reader: object files name their own
 * programs, sections, maps, license and source lines, so any of those may
 * hold terminal escapes, newlines or bytes that are not UTF-8. One place
 * decides what is printed as-is: valid UTF-8 without control characters.
 * Thread-safe (pure functions over the caller's buffers). */
#ifndef BG_CORE_TEXT_H
#define BG_CORE_TEXT_H
#include <stddef.h>
#include <bpfgate/text.h>

/* Length (1..4) of the well-formed UTF-8 sequence starting at p (shortest
 * form, no surrogates, <= U+10FFFF), 0 when p does not start one. Reads at
 * most up to the first NUL. */
int bg_utf8_seq(const unsigned char *p);
/* True for a code point a terminal acts on: C0 (< 0x20), DEL, C1 (U+0080..U+009F). */
int bg_is_control(unsigned cp);
/* The code point of the well-formed sequence at p of length n (from bg_utf8_seq). */
unsigned bg_utf8_decode(const unsigned char *p, int n);

/* bg_text_escape, bg_text_write_json, BG_TEXT_KEEP_TAB: bpfgate/text.h */
#endif
