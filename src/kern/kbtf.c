/* Loading an object's BTF into the kernel for one program load.
 *
 * clang leaves DATASEC sizes and variable offsets at 0 and emits extern
 * linkage for kfuncs/ksyms; the kernel refuses all three. When the BTF as
 * given is refused, a private copy is fixed up (sizes from the object's map
 * definitions, variables laid out in order or read as a union, extern
 * functions turned into typedefs of their prototypes), the kinds the kernel
 * lacks rewritten (kbtfcompat.c: DECL_TAG, TYPE_TAG, FLOAT, ENUM64 on older
 * kernels), and loaded instead. The object's BTF itself is never modified. */
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

/* Any INT type id, for union members that stand in for non-variables. */
static uint32_t some_int(const struct btf *btf)
{
	for (uint32_t id = 1; id < btf__type_cnt(btf); id++)
		if (btf_is_int(btf__type_by_id(btf, id)))
			return id;
	return 0;
}

/* Last resort: the same bytes read as a UNION of the variables' types, all at
 * offset 0 (btf_member and btf_var_secinfo are both three u32). The map value
 * type then has the right size (size, or the largest member when 0) and no
 * layout claims. */
static void datasec_to_union(const struct btf *btf, struct btf_type *t, uint32_t size)
{
	struct btf_var_secinfo *v = btf_var_secinfos(t);
	struct btf_member *m = (struct btf_member *)v;
	uint16_t vlen = btf_vlen(t);
	uint32_t fallback = some_int(btf), types[vlen ? vlen : 1], max = 1;

	for (uint16_t i = 0; i < vlen; i++) {
		const struct btf_type *vt = btf__type_by_id(btf, v[i].type);
		uint32_t type = vt && btf_is_var(vt) ? vt->type : fallback;
		int64_t tsz = btf__resolve_size(btf, type);

		if (tsz <= 0 || (size && (uint64_t)tsz > size)) {
			type = fallback;
			tsz = btf__resolve_size(btf, type);
		}
		types[i] = type;
		if (tsz > 0 && (uint64_t)tsz > max)
			max = (uint32_t)tsz;
	}
	for (uint16_t i = 0; i < vlen; i++) {
		m[i].name_off = 0;
		m[i].type = types[i];
		m[i].offset = 0;
	}
	t->info = type_info(BTF_KIND_UNION, vlen);
	t->size = size ? size : max;
}

/* Give a DATASEC a size and increasing, aligned variable offsets in
 * declaration order (the real offsets are in the ELF symbol table, which the
 * object does not lend); if that layout does not fit, make it a union. */
static void fix_datasec(struct btf *btf, struct btf_type *t, const struct bg_object *obj)
{
	struct btf_var_secinfo *v = btf_var_secinfos(t);
	uint16_t vlen = btf_vlen(t);
	uint32_t mapsize = datasec_size_from_maps(obj, btf__name_by_offset(btf, t->name_off));
	uint32_t size = mapsize, off = 0;

	for (uint16_t i = 0; i < vlen; i++) {
		const struct btf_type *vt = btf__type_by_id(btf, v[i].type);
		int align = vt && btf_is_var(vt) ? btf__align_of(btf, vt->type) : 0;

		if (align <= 0 || !v[i].size) {
			off = UINT32_MAX;
			break;
		}
		off = (off + (uint32_t)align - 1) & ~((uint32_t)align - 1);
		if (v[i].offset < off)
			v[i].offset = off;
		off = v[i].offset + v[i].size;
	}
	if (!size) /* a section without a map (license, .maps): as laid out */
		size = off != UINT32_MAX && off ? off : 1;
	if (off == UINT32_MAX || off > size) {
		datasec_to_union(btf, t, mapsize);
		return;
	}
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
			/* an extern kfunc declaration: the kernel refuses extern linkage and
			 * unnamed parameters; a typedef of the prototype says the same */
			t->info = type_info(BTF_KIND_TYPEDEF, 0);
		else if (btf_is_datasec(t) && !t->size)
			fix_datasec(btf, t, obj);
	}
}

/* Load raw BTF; on failure, reload with a log and pass the kernel's reason
 * to the debug print callback. */
static int load_raw(const void *raw, uint32_t size)
{
	char log[1024] = "";
	LIBBPF_OPTS(bpf_btf_load_opts, o, .log_buf = log, .log_size = sizeof(log), .log_level = 1);
	int fd = bpf_btf_load(raw, size, NULL), e;

	if (fd >= 0)
		return fd;
	e = -errno;
	fd = bpf_btf_load(raw, size, &o);
	if (fd >= 0)
		return fd;
	pr_debug("kern: BTF refused (%s): %s\n", strerror(-e), log);
	return e;
}

int bg_kbtf_load(const struct bg_object *obj)
{
	const struct btf *btf = obj ? bg_object__btf(obj) : NULL;
	const void *raw;
	uint32_t size;
	struct btf *copy;
	unsigned have;
	int fd, n;

	if (!btf)
		return -ENOENT;
	raw = btf__raw_data(btf, &size);
	if (!raw)
		return -ENOMEM;
	have = bg_kbtf_features();
	if (have == BG_KBTF_ALL) { /* a kernel lacking a kind refuses the object's BTF as is */
		fd = load_raw(raw, size);
		if (fd >= 0)
			return fd;
	}
	copy = btf__new(raw, size);
	if (!copy)
		return -EINVAL;
	fixup(copy, obj);
	n = bg_kbtf_downgrade(copy, have);
	if (n < 0) {
		btf__free(copy);
		return n;
	}
	if (n)
		pr_debug("kern: %d BTF types rewritten for this kernel's BTF support\n", n);
	raw = btf__raw_data(copy, &size);
	fd = raw ? load_raw(raw, size) : -ENOMEM;
	btf__free(copy);
	if (fd < 0)
		pr_debug("kern: object BTF refused by the kernel: %s\n", strerror(-fd));
	return fd;
}
