/* Branch hints (.bpfgate.hints, written by bpfgate cc) as the CLI shows
 * them: disasm comments, check --json and run --json members. */
#ifndef BG_TOOLS_HINTS_CLI_H
#define BG_TOOLS_HINTS_CLI_H
#include <stddef.h>
#include <bpfgate/object.h>

struct bg_json;

/* The hints of prog, one entry per slot (NULL where none), in a malloc'd
 * array of n pointers into *store (free both). A malformed section is
 * reported on stderr once and yields no hints. */
const struct bg_hint **cli_hints_by_slot(const struct bg_program *prog, size_t n,
					 struct bg_hint **store);
/* "likely taken 0.97 (profile)" */
void cli_hint_text(const struct bg_hint *h, char *buf, size_t sz);
double cli_hint_p(const struct bg_hint *h);
/* "hint": {"taken": 0.97, "source": "profile"} as a member of the open object */
void cli_hint_json(struct bg_json *j, const struct bg_hint *h);
/* "hints": [{"insn", "p_taken", "source", "file", "line", "col"}] of prog as a
 * member of the open object; nothing when the object has no hints. */
void cli_hints_json(struct bg_json *j, const struct bg_program *prog);
#endif
