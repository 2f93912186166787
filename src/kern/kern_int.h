/* Internal pieces of the kernel oracle (src/kern), split by concern:
 * klog.c parses verifier logs, kmaps.c creates an object's maps in the
 * kernel, kattach.c finds attach targets in vmlinux BTF, kern.c drives one
 * program load and classifies the verdict. */
#ifndef BG_KERN_KERN_INT_H
#define BG_KERN_KERN_INT_H
#include <stddef.h>
#include <stdint.h>
#include <bpfgate/kern.h>
#include "kern/klog.h"

/* --- klog.c: see kern/klog.h --- */

/* --- kmaps.c --- */
/* The maps one program needs, created in the kernel. fds is indexed like
 * bg_object__map (-1 for maps not needed). */
struct bg_kmaps {
	int *fds;
	size_t cnt;
	int btf_fd; /* object BTF loaded in the kernel, or -1 */
};
/* Create the maps prog references (and inner map templates of those). On
 * failure returns a negative errno and writes why into err. */
int bg_kmaps_create(const struct bg_program *prog, int btf_fd, struct bg_kmaps *m, char *err,
		    size_t errsz);
void bg_kmaps_close(struct bg_kmaps *m);
/* Kernel object name from any string: [A-Za-z0-9_.], at most 15 chars. */
void bg_kern_objname(char *dst, size_t dstsz, const char *src);

/* --- kattach.c --- */
/* BTF id in vmlinux of the attach target of prog (tp_btf, fentry/fexit,
 * fmod_ret, lsm, iter), 0 when the type needs none. Negative errno when the
 * target cannot be found; err says which. */
int bg_kern_attach_btf_id(const struct bg_program *prog, char *err, size_t errsz);
/* struct_ops program bound to "STRUCT:MEMBER": the struct's vmlinux BTF id
 * (attach_btf_id) and the member's index (expected_attach_type), or -ENOENT. */
int bg_kern_struct_ops_target(const struct bg_program *prog, uint32_t *member_idx, char *err,
			      size_t errsz);
/* Extra BPF_PROG_LOAD flags implied by the section name (sleepable ".s",
 * xdp frags). */
uint32_t bg_kern_prog_flags(const char *section);
/* --- kbtf.c --- */
/* Load the object's BTF into the kernel (fixed up in a copy when refused as
 * is). Returns the BTF fd or a negative errno. */
int bg_kbtf_load(const struct bg_object *obj);

/* --- kbtfcompat.c: BTF features an older kernel lacks, rewritten away --- */
enum {
	BG_KBTF_DATASEC = 1u << 0,     /* VAR and DATASEC, 5.2 */
	BG_KBTF_FUNC_GLOBAL = 1u << 1, /* FUNC with global linkage, 5.6 */
	BG_KBTF_FLOAT = 1u << 2,       /* 5.13 */
	BG_KBTF_DECL_TAG = 1u << 3,    /* 5.16 */
	BG_KBTF_TYPE_TAG = 1u << 4,    /* 5.17 */
	BG_KBTF_ENUM64 = 1u << 5,      /* ENUM64 and signed ENUM (kind_flag), 6.0 */
	BG_KBTF_ALL = (1u << 6) - 1,
};
struct btf;
/* The features the running kernel loads (probed once per process), minus
 * those $BG_KBTF_MISSING names. */
unsigned bg_kbtf_features(void);
/* Rewrite in btf every type that needs a feature not in have (may append one
 * INT type; ids of existing types are kept). Returns the number of types
 * rewritten, or a negative errno. */
int bg_kbtf_downgrade(struct btf *btf, unsigned have);
/* "decl_tag,float" -> mask ("all": every feature; unknown names ignored). */
unsigned bg_kbtf_parse_features(const char *list);
/* The name of one feature bit. */
const char *bg_kbtf_feature_name(unsigned bit);
#endif
