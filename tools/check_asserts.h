/* bpfgate check: assertions (tools/check_asserts.c). */
#ifndef BG_TOOLS_CHECK_ASSERTS_H
#define BG_TOOLS_CHECK_ASSERTS_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <bpfgate/verifier.h>
#include "bg_json.h"

/* Check p's assertions (markers + lost declarations) with the analysis at
 * profile; *out malloc'd; *bad counts failed + lost. Returns the count or a
 * negative errno. */
int check_asserts_eval(const struct bg_program *p, const char *profile, int unpriv,
		       uint64_t max_steps, struct bg_assert_result **out, int *bad);
void check_asserts_line(FILE *f, const struct bg_assert_result *r);
void check_asserts_text(const struct bg_assert_result *r, int n, bool verbose, bool rejected);
void check_asserts_json(struct bg_json *j, const struct bg_assert_result *r, int n);
void check_asserts_sarif(struct bg_json *j, const char *path, const struct bg_program *p,
			 const struct bg_assert_result *r, int n);
#endif
