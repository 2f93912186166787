/* Loading an object's BTF into the kernel for one program load.
 *
 * clang leaves DATASEC sizes and variable offsets at 0 and emits extern
 * linkage for kfuncs/ksyms; the kernel refuses all three. When the BTF as
 * given is refused, a private copy is fixed up (sizes from the object's map
 * definitions, variables laid out in order, extern linkage made static) and
 * loaded instead. The object's BTF itself is never modified. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/btf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpfgate/object.h>
#include "core/log.h"
#include "kern/kern_int.h"

/* The info word of a BTF type (uapi linux/btf.h layout). */
static uint32_t type_info(uint32_t kind, uint32_t vlen)
{
	return (kind << 24) | (vlen & 0xffff);
}

static uint32_t datasec_size_from_maps(const struct bg_object *obj, const char *name)
{
	for (size_t i = 0; name && i < bg_object__map_cnt(obj); i++) {
		const struct bg_map_def *d = bg_object__map(obj, i);

		if (d && d->is_global_data && d->name && !strcmp(d->name, name))
			return d->value_size;
	}
	return 0;
}

/* Give a DATASEC a size and non-overlapping, increasing variable offsets. */
static void fix_datasec(struct btf *btf, struct btf_type *t, const struct bg_object *obj)
{
	struct btf_var_secinfo *v = btf_var_secinfos(t);
	uint16_t vlen = btf_vlen(t);
	uint32_t size = datasec_size_from_maps(obj, btf__name_by_offset(btf, t->name_off));
	uint32_t off = 0, given = size;

	for (uint16_t i = 0; i < vlen; i++) {
		const struct btf_type *vt = btf__type_by_id(btf, v[i].type);
		uint32_t align = 8;

		if (!vt || !btf_is_var(vt)) {
			t->info = type_info(BTF_KIND_DATASEC, 0); /* drop the list */
			vlen = 0;
			break;
		}
		if (v[i].size < 8)
			align = v[i].size >= 4 ? 4 : v[i].size >= 2 ? 2 : 1;
		if (!v[i].size)
			v[i].size = 1;
		off = (off + align - 1) & ~(align - 1);
		if (v[i].offset < off)
			v[i].offset = off;
		off = v[i].offset + v[i].size;
	}
	if (!given)
		size = off ? off : 1;
	if (off > size) /* layout unknown and it does not fit: keep the section, drop its list */
		t->info = type_info(BTF_KIND_DATASEC, 0);
	if (!t->size)
		t->size = size;
}

static void fixup(struct btf *btf, const struct bg_object *obj)
{
	uint32_t n = btf__type_cnt(btf);

	for (uint32_t id = 1; id < n; id++) {
		struct btf_type *t = (struct btf_type *)btf__type_by_id(btf, id);

		if (btf_is_var(t) && btf_var(t)->linkage > BTF_VAR_GLOBAL_ALLOCATED)
			btf_var(t)->linkage = BTF_VAR_GLOBAL_ALLOCATED;
		else if (btf_is_func(t) && btf_vlen(t) > BTF_FUNC_GLOBAL)
			t->info = type_info(BTF_KIND_FUNC, BTF_FUNC_STATIC);
		else if (btf_is_datasec(t))
			fix_datasec(btf, t, obj);
	}
}

static int load_raw(const void *raw, uint32_t size)
{
	int fd = bpf_btf_load(raw, size, NULL);

	return fd < 0 ? -errno : fd;
}

int bg_kbtf_load(const struct bg_object *obj)
{
	const struct btf *btf = obj ? bg_object__btf(obj) : NULL;
	const void *raw;
	uint32_t size;
	struct btf *copy;
	int fd;

	if (!btf)
		return -ENOENT;
	raw = btf__raw_data(btf, &size);
	if (!raw)
		return -ENOMEM;
	fd = load_raw(raw, size);
	if (fd >= 0)
		return fd;
	copy = btf__new(raw, size);
	if (!copy)
		return -EINVAL;
	fixup(copy, obj);
	raw = btf__raw_data(copy, &size);
	fd = raw ? load_raw(raw, size) : -ENOMEM;
	btf__free(copy);
	if (fd < 0)
		pr_debug("kern: object BTF refused by the kernel: %s\n", strerror(-fd));
	return fd;
}
