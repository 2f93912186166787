/* Kernel version profiles: what a given kernel release's verifier offers
 * (instruction set level, loops, iterators, kfuncs...) and its limits. A
 * helper newer than the profile's version is "invalid func" there
 * (bg_helper_allowed). Facts from public kernel changelogs and docs, checked
 * against Debian's 5.10/6.1/6.12/7.2 images under QEMU (tests/data/check/
 * kernels.t); a profile "5.10" is the newest 5.10 LTS as Debian ships it,
 * whose stable backports can predate a feature's upstream release. The
 * default profile is the running machine's kernel, 6.18. */
#ifndef BG_PLATFORM_PROFILES_H
#define BG_PLATFORM_PROFILES_H
#include <stdbool.h>
#include <stdint.h>
#include <bpfgate/profile.h>

/* feature bits: masks of the public bit numbers, one per row of
 * platform/kfeatures.def (which holds each feature's first release, its name
 * in messages and the evidence): BG_KF_BOUNDED_LOOPS = 1 << BG_KFEAT_BOUNDED_LOOPS */
enum bg_kfeat {
#define BG_KFEATURE(name_, since_, desc_) BG_KF_##name_ = 1ull << BG_KFEAT_##name_,
#include "platform/kfeatures.def"
#undef BG_KFEATURE
};
/* every feature bit */
#define BG_KF_ALL (~0ull >> (64 - BG_KFEAT__CNT))

struct bg_kernel_profile {
	const char *name;            /* "6.18" */
	uint32_t version;            /* BG_KVER(6, 18) */
	uint64_t features;           /* enum bg_kfeat bits */
	uint32_t max_processed_insns;/* verifier complexity limit (privileged) */
	uint32_t max_prog_insns;     /* program size limit (privileged) */
	uint32_t max_call_depth;     /* bpf-to-bpf frames */
	uint32_t stack_size;         /* bytes per frame */
	uint32_t max_tail_calls;     /* MAX_TAIL_CALL_CNT */
};

/* "7.2", "6.18", "6.12", "6.6", "6.1", "5.15", "5.10", "5.4", "4.19" (also "default",
 * "running"); NULL when unknown. */
const struct bg_kernel_profile *bg_profile_by_name(const char *name);
/* The newest profile not newer than version (never NULL: the oldest one). */
const struct bg_kernel_profile *bg_profile_by_version(uint32_t version);
/* The profile bpfgate checks against by default (6.18, the running kernel). */
const struct bg_kernel_profile *bg_profile_default(void);
/* All profiles, newest first. */
const struct bg_kernel_profile *bg_profiles(unsigned *n);
/* added by s2prof: what a profile changes besides feature bits, as tables
 * (src/platform/kversions.def). 0: the id is unknown to bpfgate. */
uint32_t bg_prog_type_since(uint32_t prog_type);     /* enum bpf_prog_type */
uint32_t bg_attach_type_since(uint32_t attach_type); /* enum bpf_attach_type */
uint32_t bg_map_type_since(uint32_t map_type);       /* enum bpf_map_type */
const char *bg_map_type_name(uint32_t map_type);     /* "ringbuf", or NULL */
/* Does the kernel of version kver (0: any) check the expected attach type of
 * prog_type at load? (For the other types libbpf drops it when the kernel
 * does not know it.) */
bool bg_attach_type_required(uint32_t prog_type, uint32_t kver);
/* The ctx field of prog_type's uapi ctx struct (__sk_buff, xdp_md, bpf_sock)
 * that [off, off+size) touches, when it is newer than the oldest profile:
 * returns its first release and sets *name ("__sk_buff.gso_size"); 0 when
 * the access touches no such field. */
uint32_t bg_ctx_field_since(uint32_t prog_type, int64_t off, uint32_t size, const char **name);
/* The release that introduced a feature bit (one bit), 0 if unknown. */
uint32_t bg_feature_since(uint64_t feat);
/* A short name of a feature bit for messages ("bounded loops", "ISA v4"...). */
const char *bg_feature_name(uint64_t feat);
/* "5.17" for BG_KVER(5, 17) into buf (at least 16 bytes); returns buf. */
const char *bg_kver_str(uint32_t kver, char *buf);
/* Parse a comma-separated list of profile names ("5.10,6.1", "all": every
 * profile, newest first) into out[max]; returns the count, or -1 with *bad
 * pointing at the first unknown name (copied into bad_buf[64]). Duplicates
 * are dropped. */
int bg_profile_parse_list(const char *spec, const struct bg_kernel_profile **out, unsigned max,
			  char *bad_buf);
static inline bool bg_profile_has(const struct bg_kernel_profile *p, uint64_t feat)
{
	return p && (p->features & feat) == feat;
}
#endif
