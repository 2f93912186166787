/* bpfgate/types.h - vocabulary shared by the public headers: the export
 * macro, verdicts (static verifier and kernel oracle use the same three) and
 * the project's error codes. No functions beyond the names of these values;
 * every other public header includes this one, none includes a sibling only
 * for a shared type.
 *
 * Thread safety: pure functions. */
#ifndef BPFGATE_TYPES_H
#define BPFGATE_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

#ifndef BG_API
#define BG_API __attribute__((visibility("default")))
#endif

enum bg_verdict {
	BG_VERDICT_ACCEPTED = 0,
	BG_VERDICT_REJECTED = 1,
	BG_VERDICT_UNAVAILABLE = 2, /* could not be judged: EPERM before verification,
				       missing attach target / kfunc / ksym, CO-RE failure,
				       bpf() refused */
};
BG_API const char *bg_verdict_name(enum bg_verdict v); /* "accepted", "rejected", "unavailable" */

/* Project-specific error codes, returned negated like errno values. */
enum bg_error {
	BG_ERR_START = 4000,
	BG_ERR_FORMAT = BG_ERR_START, /* malformed input (ELF, BTF, relocation, assembly) */
	BG_ERR_UNSUPPORTED,           /* valid input we do not handle */
	BG_ERR_LIMIT,                 /* a resource limit was hit ("too complex") */
	BG_ERR_NOT_FOUND,             /* a registry has no such thing (a kernel version) */
	BG_ERR_UNREACHABLE,           /* a registry cannot be reached */
	BG_ERR_END,
};
/* Like strerror(), for negative errno or bg_error codes. */
BG_API const char *bg_strerror(int err);

#ifdef __cplusplus
}
#endif
#endif
