/* bpfgate/text.h - untrusted strings on their way to a reader. Object files
 * name their own programs, sections, maps, license and source lines, and the
 * library hands those bytes out unchanged (bg_program__name...): any of them
 * may hold terminal escapes (ESC, OSC, BEL), newlines that forge output
 * lines, or bytes that are not UTF-8. A program that prints or logs them, or
 * writes them into JSON, escapes them here, the way bpfgate's own reports
 * do, so both agree on what is text: well-formed UTF-8 (shortest form, no
 * surrogates, <= U+10FFFF) without control characters (C0, DEL, C1).
 *
 * Thread safety: pure functions over the caller's buffers and streams. */
#ifndef BPFGATE_TEXT_H
#define BPFGATE_TEXT_H

#include <stddef.h>
#include <stdio.h>
#include <bpfgate/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BG_TEXT_KEEP_TAB 1u /* source lines keep their tabs */

/* Terminal-safe copy of s: newline, CR and tab as \n \r \t, other C0
 * controls and DEL as \xNN, C1 controls as \u0080..\u009f, and each byte
 * that is not part of well-formed UTF-8 as \xNN. Writes at most dsz bytes
 * including the NUL (dst may be NULL when dsz is 0); returns the length the
 * whole escaped text needs (like snprintf), so a caller can size a buffer.
 * Unknown flag bits are ignored. */
BG_API size_t bg_text_escape(char *dst, size_t dsz, const char *s, unsigned flags);

/* s as an RFC 8259 string literal (quotes included) on f: well-formed UTF-8
 * copied, '"' and '\' escaped, controls as \n \r \t or \uXXXX (so the
 * output is also terminal-safe), each byte that is not part of well-formed
 * UTF-8 as \ufffd (the replacement character): the output is always valid
 * UTF-8 JSON. NULL writes null. 0, or -EIO when f reports an error. */
BG_API int bg_text_write_json(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif
#endif
