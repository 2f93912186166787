/* Name lookups in an object's target BTF for the other modules (analysis):
 * through the object's hashed name index, built when the target BTF is
 * loaded, so a lookup costs O(1) expected instead of a scan of the ~150k
 * vmlinux types. */
#ifndef BPFGATE_OBJ_TFIND_H
#define BPFGATE_OBJ_TFIND_H

#include <bpfgate/object.h>

/* Type id of the type named exactly `name` of BTF kind `kind` in the
 * object's target BTF (the lowest such id), or -ENOENT (also without a
 * target BTF). Read-only: safe wherever the object may be read. */
int obj_target_lookup(const struct bg_object *obj, const char *name, int kind);

#endif
