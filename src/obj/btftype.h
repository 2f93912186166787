/* BTF type helpers shared by the loader (maps, CO-RE) and the analysis
 * (BTF field walks, global-function and kfunc prototypes). */
#ifndef BPFGATE_OBJ_BTFTYPE_H
#define BPFGATE_OBJ_BTFTYPE_H

#include <stdint.h>
#include <bpf/btf.h>

/* The type id names once typedefs and modifiers (const, volatile, restrict,
 * type tags) are skipped; its id in *res when res is not NULL. NULL for an
 * id BTF does not have, or a chain longer than 32 (a loop in hostile BTF). */
const struct btf_type *obj_btf_skip_mods(const struct btf *btf, uint32_t id, uint32_t *res);

#endif
