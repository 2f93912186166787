/* Map stage: every map the object defines, in a stable order: BTF-defined
 * maps (.maps, with inner-map templates right after their outer map), legacy
 * `maps` (struct bpf_map_def), global data sections (.data*, .rodata*, .bss*)
 * as single-entry arrays, and .kconfig (extern __kconfig variables).
 * A map index is what prepared programs reference (BG_PSEUDO_MAP_IDX[_VALUE]). */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <linux/bpf.h>
#include "obj/internal.h"
#include "obj/btftype.h"
#include "platform/kconfig.h"

int add_map(struct bg_object *obj, const char *name, uint32_t sec, struct bg_map_def **out)
{
	struct bg_map_def *m;
	uint32_t *ms;
	char **names;

	ms = realloc(obj->map_sec, (obj->nmaps + 1) * sizeof(*ms));
	if (!ms)
		return -ENOMEM;
	obj->map_sec = ms;
	ms[obj->nmaps] = sec;
	ms = realloc(obj->map_def_sz, (obj->nmaps + 1) * sizeof(*ms));
	if (!ms)
		return -ENOMEM;
	obj->map_def_sz = ms;
	ms[obj->nmaps] = 0;
	ms = realloc(obj->map_vals_off, (obj->nmaps + 1) * sizeof(*ms));
	if (!ms)
		return -ENOMEM;
	obj->map_vals_off = (int32_t *)ms;
	obj->map_vals_off[obj->nmaps] = -1;

	m = realloc(obj->maps, (obj->nmaps + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	obj->maps = m;
	names = realloc(obj->map_names, (obj->nmaps + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	obj->map_names = names;
	names[obj->nmaps] = strdup(name ? name : "");
	if (!names[obj->nmaps])
		return -ENOMEM;
	m = &obj->maps[obj->nmaps];
	memset(m, 0, sizeof(*m));
	m->name = names[obj->nmaps];
	m->inner_map = -1;
	m->inner_of = -1;
	obj->nmaps++;
	*out = m;
	return 0;
}

/* __uint(name, val) is `int (*name)[val]`. */
static bool member_uint(const struct btf *btf, const struct btf_member *m, uint32_t *val)
{
	const struct btf_type *t = obj_btf_skip_mods(btf, m->type, NULL);

	if (!t || !btf_is_ptr(t))
		return false;
	t = obj_btf_skip_mods(btf, t->type, NULL);
	if (!t || !btf_is_array(t))
		return false;
	*val = btf_array(t)->nelems;
	return true;
}

struct map_ctx {
	struct bg_object *obj;
	const char *map_name;
	size_t off;
};

static int map_member(struct map_ctx *c, int mi, const struct btf_member *m, int depth);

/* Fill map mi from the STRUCT type `def` of a BTF map definition. */
static int parse_btf_map_def(struct map_ctx *c, int mi, const struct btf_type *def, int depth)
{
	const struct btf_member *m = btf_members(def);

	for (uint16_t i = 0; i < btf_vlen(def); i++, m++) {
		int err = map_member(c, mi, m, depth);
		if (err)
			return err;
	}
	return 0;
}

static int parse_inner(struct map_ctx *c, int mi, const struct btf_member *m, int depth)
{
	struct bg_object *obj = c->obj;
	const struct btf_type *t = obj_btf_skip_mods(obj->btf, m->type, NULL);
	struct bg_map_def *inner;
	char name[256];
	int err, ii;

	/* __array(values, T) is `T *values[]` */
	if (!t || !btf_is_array(t))
		return obj_err(obj, "map '%s' at .maps+0x%zx: 'values' is not an array",
			       c->map_name, c->off);
	t = obj_btf_skip_mods(obj->btf, btf_array(t)->type, NULL);
	if (!t || !btf_is_ptr(t))
		return obj_err(obj, "map '%s' at .maps+0x%zx: 'values' is not an array of pointers",
			       c->map_name, c->off);
	t = obj_btf_skip_mods(obj->btf, t->type, NULL);
	if (!t)
		return obj_err(obj, "map '%s' at .maps+0x%zx: bad 'values' element type",
			       c->map_name, c->off);
	/* the outer map (or prog array) stores 4-byte fds/ids, as libbpf defines it */
	if (obj->maps[mi].value_size && obj->maps[mi].value_size != 4)
		return obj_err(obj, "map '%s' at .maps+0x%zx: value_size %u, 'values' needs 4",
			       c->map_name, c->off, obj->maps[mi].value_size);
	obj->maps[mi].value_size = 4;
	if (btf_is_func_proto(t))
		return 0; /* prog array: values are programs */
	if (!btf_is_struct(t))
		return obj_err(obj,
			       "map '%s' at .maps+0x%zx: 'values' must point to a map definition",
			       c->map_name, c->off);
	if (depth > 0)
		return obj_err(obj, "map '%s' at .maps+0x%zx: nested inner maps are not supported",
			       c->map_name, c->off);
	snprintf(name, sizeof(name), "%s.inner", c->map_name);
	if ((err = add_map(obj, name, 0, &inner)))
		return err;
	ii = (int)obj->nmaps - 1;
	inner->inner_of = mi;
	inner->sec_off = c->off;
	obj->maps[mi].inner_map = ii;
	return parse_btf_map_def(c, ii, t, depth + 1);
}

static int map_member(struct map_ctx *c, int mi, const struct btf_member *m, int depth)
{
	struct bg_object *obj = c->obj;
	struct bg_map_def *d = &obj->maps[mi];
	const char *mn = btf__name_by_offset(obj->btf, m->name_off);
	uint32_t v = 0, *slot = NULL;
	int64_t sz;

	if (!mn)
		return obj_err(obj, "map '%s' at .maps+0x%zx: bad member name offset", c->map_name,
			       c->off);
	if (!strcmp(mn, "key") || !strcmp(mn, "value")) {
		const struct btf_type *t = obj_btf_skip_mods(obj->btf, m->type, NULL);
		uint32_t id;

		if (!t || !btf_is_ptr(t))
			return obj_err(obj,
				       "map '%s' at .maps+0x%zx: '%s' is not a __type() pointer",
				       c->map_name, c->off, mn);
		id = t->type;
		sz = btf__resolve_size(obj->btf, id);
		if (sz < 0 || sz > UINT32_MAX)
			return obj_err(obj, "map '%s' at .maps+0x%zx: cannot size the '%s' type",
				       c->map_name, c->off, mn);
		if (mn[0] == 'k')
			d->key_size = (uint32_t)sz, d->btf_key_type_id = id;
		else
			d->value_size = (uint32_t)sz, d->btf_value_type_id = id;
		return 0;
	}
	if (!strcmp(mn, "values"))
		return parse_inner(c, mi, m, depth);
	if (!strcmp(mn, "type"))
		slot = &d->type;
	else if (!strcmp(mn, "key_size"))
		slot = &d->key_size;
	else if (!strcmp(mn, "value_size"))
		slot = &d->value_size;
	else if (!strcmp(mn, "max_entries"))
		slot = &d->max_entries;
	else if (!strcmp(mn, "map_flags"))
		slot = &d->map_flags;
	else if (!strcmp(mn, "numa_node"))
		slot = &d->numa_node;
	else if (!strcmp(mn, "map_extra"))
		slot = &d->map_extra;
	else if (!strcmp(mn, "pinning"))
		slot = &d->pinning;
	else
		return obj_err(obj, "map '%s' at .maps+0x%zx: unknown attribute '%s'", c->map_name,
			       c->off, mn);
	if (!member_uint(obj->btf, m, &v))
		return obj_err(obj, "map '%s' at .maps+0x%zx: '%s' is not a __uint()", c->map_name,
			       c->off, mn);
	if ((slot == &d->key_size && d->btf_key_type_id && v != d->key_size) ||
	    (slot == &d->value_size && d->btf_value_type_id && v != d->value_size))
		return obj_err(obj,
			       "map '%s' at .maps+0x%zx: '%s' %u conflicts with the __type() size",
			       c->map_name, c->off, mn, v);
	*slot = v;
	return 0;
}

static int collect_btf_maps(struct bg_object *obj, int sec)
{
	const struct obj_sec *s = &obj->secs[sec];
	const struct btf_type *ds;
	const struct btf_var_secinfo *v;
	int id;

	if (!obj->btf)
		return obj_err(
		    obj,
		    "section %d (.maps) at offset 0x%llx: BTF-defined maps need a .BTF section%s%s",
		    sec, (unsigned long long)s->off, obj->btf_error ? ", and it is unusable: " : "",
		    obj->btf_error ? obj->btf_error : "");
	id = btf__find_by_name_kind(obj->btf, ".maps", BTF_KIND_DATASEC);
	if (id <= 0)
		return obj_err(obj, "section %d (.maps): no DATASEC '.maps' in BTF", sec);
	ds = btf__type_by_id(obj->btf, id);
	v = btf_var_secinfos(ds);
	for (uint16_t i = 0; i < btf_vlen(ds); i++, v++) {
		const struct btf_type *var = btf__type_by_id(obj->btf, v->type), *def;
		struct map_ctx c = {obj, NULL, v->offset};
		struct bg_map_def *m;
		int err, mi;

		if (!var || !btf_is_var(var))
			return obj_err(
			    obj, "section %d (.maps): DATASEC entry %u is not a variable", sec, i);
		c.map_name = btf__name_by_offset(obj->btf, var->name_off);
		if (!c.map_name || !c.map_name[0])
			return obj_err(obj, "section %d (.maps): map %u has no name", sec, i);
		def = obj_btf_skip_mods(obj->btf, var->type, NULL);
		if (!def || !btf_is_struct(def))
			return obj_err(obj, "map '%s' at .maps+0x%x: definition is not a struct",
				       c.map_name, v->offset);
		if ((uint64_t)v->offset + v->size > s->size)
			return obj_err(obj,
				       "map '%s': offset 0x%x size %u outside .maps (%llu bytes)",
				       c.map_name, v->offset, v->size, (unsigned long long)s->size);
		if ((err = add_map(obj, c.map_name, sec, &m)))
			return err;
		m->sec_off = v->offset;
		mi = (int)obj->nmaps - 1;
		obj->map_def_sz[mi] = v->size;
		for (uint16_t k = 0; k < btf_vlen(def); k++)
			if (!strcmp(btf__name_by_offset(obj->btf, btf_members(def)[k].name_off)
					?: "",
				    "values"))
				obj->map_vals_off[mi] =
				    (int32_t)(btf_member_bit_offset(def, k) / 8);
		if ((err = parse_btf_map_def(&c, mi, def, 0)))
			return err;
		m = &obj->maps[mi]; /* parsing may have added an inner map (realloc) */
		if (m->type == BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
			m->key_size = m->key_size ? m->key_size : 4;
			m->value_size = m->value_size ? m->value_size : 4;
		}
	}
	return 0;
}

/* struct bpf_map_def: type, key_size, value_size, max_entries, map_flags[, ...] */
static int collect_legacy_maps(struct bg_object *obj, int sec)
{
	const struct obj_sec *s = &obj->secs[sec];
	size_t nsyms = 0, def_sz;

	for (size_t i = 0; i < obj->nsyms; i++)
		if (obj->syms[i].shndx == (uint32_t)sec && obj->syms[i].type != STT_SECTION &&
		    obj->syms[i].name[0])
			nsyms++;
	if (!nsyms || !s->data || s->size % nsyms)
		return obj_err(obj,
			       "section %d (maps) at offset 0x%llx: %llu bytes for %zu map symbols",
			       sec, (unsigned long long)s->off, (unsigned long long)s->size, nsyms);
	def_sz = s->size / nsyms;
	if (def_sz < 5 * sizeof(uint32_t))
		return obj_err(
		    obj, "section %d (maps): map definition of %zu bytes is too small (need 20)",
		    sec, def_sz);
	for (size_t i = 0; i < obj->nsyms; i++) {
		const struct obj_sym *y = &obj->syms[i];
		struct bg_map_def *m;
		uint32_t w[5];
		int err;

		if (y->shndx != (uint32_t)sec || y->type == STT_SECTION || !y->name[0])
			continue;
		if (y->value > s->size || def_sz > s->size - y->value)
			return obj_err(obj,
				       "section %d (maps): map '%s' at 0x%llx outside the section",
				       sec, y->name, (unsigned long long)y->value);
		memcpy(w, s->data + y->value, sizeof(w));
		if ((err = add_map(obj, y->name, sec, &m)))
			return err;
		m->type = w[0], m->key_size = w[1], m->value_size = w[2];
		m->max_entries = w[3], m->map_flags = w[4];
		m->sec_off = y->value;
	}
	return 0;
}

static int collect_data_map(struct bg_object *obj, int sec)
{
	struct obj_sec *s = &obj->secs[sec];
	struct bg_map_def *m;
	int err, id;

	if (!s->size)
		return 0;
	if (s->size > UINT32_MAX)
		return obj_err(obj, "section %d (%s): %llu bytes is too large for a map value", sec,
			       s->name, (unsigned long long)s->size);
	if ((err = add_map(obj, s->name, sec, &m)))
		return err;
	s->map = (int)obj->nmaps - 1;
	m->type = BPF_MAP_TYPE_ARRAY;
	m->key_size = 4;
	m->value_size = (uint32_t)s->size;
	m->max_entries = 1;
	m->is_global_data = 1;
	m->readonly = s->kind == SEC_RODATA;
	m->map_flags = m->readonly ? BPF_F_RDONLY_PROG : 0;
	m->init_data = s->data;
	m->sec_off = s->off;
	id = obj->btf ? btf__find_by_name_kind(obj->btf, s->name, BTF_KIND_DATASEC) : -1;
	m->btf_value_type_id = id > 0 ? (uint32_t)id : 0;
	return 0;
}

static uint32_t kernel_version_code(void)
{
	struct utsname u;
	unsigned a = 0, b = 0, c = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u.%u", &a, &b, &c) < 2)
		return 0;
	return (a << 16) + (b << 8) + (c > 255 ? 255 : c);
}

/* Store one kconfig value ("y", "m", "n", a number or a "string") into var v. */
static bool kcfg_store(struct bg_object *obj, struct kcfg_var *v, const char *val)
{
	const struct btf_type *t = btf__type_by_id(obj->btf, v->type_id);
	uint8_t *dst = obj->kconfig_data + v->off;
	int64_t num;
	char *end;

	for (int d = 0; t && d < 32 && (btf_is_mod(t) || btf_is_typedef(t)); d++)
		t = btf__type_by_id(obj->btf, t->type);
	if (!t)
		return false;
	if (btf_is_array(t)) { /* char[N]: the string without quotes */
		size_t n = strlen(val);
		if (n >= 2 && val[0] == '"' && val[n - 1] == '"')
			val++, n -= 2;
		memcpy(dst, val, n < v->size ? n : v->size - 1);
		return true;
	}
	if ((val[0] == 'y' || val[0] == 'm' || val[0] == 'n') && !val[1]) {
		/* bool/char: y=1; enum libbpf_tristate: n=0, y=1, m=2 */
		dst[0] = val[0] == 'y' ? 1 : val[0] == 'm' ? (btf_is_any_enum(t) ? 2 : 1) : 0;
		return true;
	}
	num = strtoll(val, &end, 0);
	if (end == val || *end)
		return false;
	memcpy(dst, &num, v->size < 8 ? v->size : 8); /* little-endian */
	return true;
}

/* A CONFIG_ line of the host's config for the .kconfig externs that name it. */
static void kcfg_line(const char *name, const char *value, void *arg)
{
	struct bg_object *obj = arg;

	for (size_t i = 0; i < obj->nkcfg; i++)
		if (!obj->kcfg[i].found && !strcmp(obj->kcfg[i].name, name))
			obj->kcfg[i].found = kcfg_store(obj, &obj->kcfg[i], value);
}

/* Values for .kconfig externs: LINUX_* facts, CONFIG_* from the host's config
 * (bg_kconfig_scan). Unset ones stay 0 (found = false). */
static void fill_kconfig(struct bg_object *obj)
{
	bool want_config = false;
	uint32_t kv = obj->opts.kernel_version ? obj->opts.kernel_version : kernel_version_code();

	for (size_t i = 0; i < obj->nkcfg; i++) {
		struct kcfg_var *v = &obj->kcfg[i];
		char num[32];

		if (!strcmp(v->name, "LINUX_KERNEL_VERSION"))
			snprintf(num, sizeof(num), "%u", kv);
		else if (!strcmp(v->name, "LINUX_HAS_BPF_COOKIE"))
			/* libbpf probes bpf_get_attach_cookie: 5.15 and later (a
			 * 5.10 guest gives 0, and the code it guards is dead) */
			snprintf(num, sizeof(num), "%d", kv >= (5u << 16 | 15u << 8));
		else if (!strcmp(v->name, "LINUX_HAS_SYSCALL_WRAPPER"))
			snprintf(num, sizeof(num), "1");
		else {
			want_config |= !strncmp(v->name, "CONFIG_", 7);
			continue;
		}
		v->found = kcfg_store(obj, v, num);
	}
	if (want_config)
		bg_kconfig_scan(NULL, kcfg_line, obj, NULL);
}

/* .kconfig: extern __kconfig variables laid out in DATASEC order, each aligned
 * to its natural alignment; LINUX_KERNEL_VERSION is filled in, others stay 0. */
static int collect_kconfig(struct bg_object *obj)
{
	const struct btf_type *ds;
	const struct btf_var_secinfo *v;
	struct bg_map_def *m;
	uint32_t off = 0;
	int id, err;

	obj->kcfg_map = -1;
	id = obj->btf ? btf__find_by_name_kind(obj->btf, ".kconfig", BTF_KIND_DATASEC) : -1;
	if (id <= 0)
		return 0;
	ds = btf__type_by_id(obj->btf, id);
	if (btf_vlen(ds) > 1024)
		return obj_err(obj, ".kconfig: %u variables, at most 1024 are supported",
			       btf_vlen(ds));
	obj->kcfg = calloc(btf_vlen(ds) + 1, sizeof(*obj->kcfg));
	if (!obj->kcfg)
		return -ENOMEM;
	v = btf_var_secinfos(ds);
	for (uint16_t i = 0; i < btf_vlen(ds); i++, v++) {
		const struct btf_type *var = btf__type_by_id(obj->btf, v->type);
		int64_t sz;
		int al;

		if (!var || !btf_is_var(var))
			return obj_err(obj, ".kconfig: DATASEC entry %u is not a variable", i);
		sz = btf__resolve_size(obj->btf, var->type);
		al = btf__align_of(obj->btf, var->type);
		if (sz <= 0 || sz > 4096 || al <= 0 || al > 8)
			return obj_err(obj, ".kconfig: variable %u has a bad size or alignment", i);
		off = (off + al - 1) / al * al;
		obj->kcfg[obj->nkcfg++] =
		    (struct kcfg_var){btf__name_by_offset(obj->btf, var->name_off) ?: "", off,
				      (uint32_t)sz, var->type, false};
		off += sz;
	}
	if (!off)
		return 0;
	off = (off + 7) / 8 * 8;
	obj->kconfig_data = calloc(1, off);
	if (!obj->kconfig_data || (err = add_map(obj, ".kconfig", 0, &m)))
		return -ENOMEM;
	obj->kcfg_map = (int)obj->nmaps - 1;
	m->type = BPF_MAP_TYPE_ARRAY;
	m->key_size = 4;
	m->value_size = off;
	m->max_entries = 1;
	m->is_global_data = 1;
	m->readonly = 1;
	m->map_flags = BPF_F_RDONLY_PROG;
	m->init_data = obj->kconfig_data;
	m->btf_value_type_id = id;
	fill_kconfig(obj);
	return 0;
}

/* qsort_r comparator; ctx is the object (no global state) */
static int map_def_cmp(const void *a, const void *b, void *ctx)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct bg_object *o = ctx;

	if (o->map_sec[x] != o->map_sec[y])
		return o->map_sec[x] < o->map_sec[y] ? -1 : 1;
	if (o->maps[x].sec_off != o->maps[y].sec_off)
		return o->maps[x].sec_off < o->maps[y].sec_off ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Index of the maps defined in .maps / maps, by (section, offset). */
static int index_map_defs(struct bg_object *obj)
{
	obj->map_by_def = malloc((obj->nmaps ? obj->nmaps : 1) * sizeof(uint32_t));
	if (!obj->map_by_def)
		return -ENOMEM;
	for (uint32_t i = 0; i < obj->nmaps; i++)
		if (!obj->maps[i].is_global_data && obj->maps[i].inner_of < 0)
			obj->map_by_def[obj->nmap_by_def++] = i;
	if (obj->nmap_by_def)
		qsort_r(obj->map_by_def, obj->nmap_by_def, sizeof(uint32_t), map_def_cmp, obj);
	return 0;
}

int obj_maps_collect(struct bg_object *obj)
{
	int err;

	obj->kcfg_map = -1;
	for (size_t i = 1; i < obj->nsecs; i++) {
		enum sec_kind k = obj->secs[i].kind;

		if (k == SEC_MAPS)
			err = collect_btf_maps(obj, (int)i);
		else if (k == SEC_LEGACY_MAPS)
			err = collect_legacy_maps(obj, (int)i);
		else
			continue;
		if (err)
			return err;
	}
	for (size_t i = 1; i < obj->nsecs; i++) {
		enum sec_kind k = obj->secs[i].kind;

		if ((k == SEC_DATA || k == SEC_RODATA || k == SEC_BSS) &&
		    (err = collect_data_map(obj, (int)i)))
			return err;
	}
	if ((err = collect_kconfig(obj)))
		return err;
	return index_map_defs(obj);
}

/* The map a symbol at (shndx, value) defines: BTF .maps by offset, legacy maps by offset. */
int obj_find_map_by_sym(const struct bg_object *obj, uint32_t shndx, uint64_t value)
{
	size_t lo = 0, hi = obj->nmap_by_def;

	if (!shndx || shndx >= obj->nsecs)
		return -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t m = obj->map_by_def[mid];

		if (obj->map_sec[m] < shndx ||
		    (obj->map_sec[m] == shndx && obj->maps[m].sec_off < value))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < obj->nmap_by_def && obj->map_sec[obj->map_by_def[lo]] == shndx &&
	    obj->maps[obj->map_by_def[lo]].sec_off == value)
		return (int)obj->map_by_def[lo];
	return -1;
}

/* Program index of the entry function sym, or -1. */
static int prog_of_sym(const struct bg_object *obj, const struct obj_sym *y)
{
	for (size_t i = 0; i < obj->nprogs; i++)
		if (!strcmp(obj->progs[i]->name, y->name) &&
		    !strcmp(obj->progs[i]->sec_name, obj->secs[y->shndx].name))
			return (int)i;
	return -1;
}

/* Record one `.values` slot initializer (a relocation of .maps at off). */
static int map_init_one(struct bg_object *obj, const struct obj_sec *rs, size_t ri, uint64_t off,
			const struct obj_sym *y)
{
	int mi = -1, val;
	uint64_t slot;
	int32_t *slots;

	for (size_t i = 0; i < obj->nmaps && mi < 0; i++)
		if (obj->map_sec[i] == rs->info && obj->maps[i].inner_of < 0 &&
		    obj->map_vals_off[i] >= 0 &&
		    off >= obj->maps[i].sec_off + obj->map_vals_off[i] &&
		    off < obj->maps[i].sec_off + obj->map_def_sz[i])
			mi = (int)i;
	if (mi < 0 || (off - obj->maps[mi].sec_off - obj->map_vals_off[mi]) % 8)
		return obj_err(obj,
			       "section %u (%s): relocation %zu at offset 0x%llx: not a 'values' "
			       "slot of a map",
			       rs->idx, rs->name, ri, (unsigned long long)off);
	slot = (off - obj->maps[mi].sec_off - obj->map_vals_off[mi]) / 8;
	if (y->shndx < obj->nsecs && obj->secs[y->shndx].kind == SEC_CODE)
		val = prog_of_sym(obj, y);
	else
		val = obj_find_map_by_sym(obj, y->shndx, y->value);
	if (val < 0 || slot >= obj->maps[mi].max_entries)
		return obj_err(obj,
			       "section %u (%s): relocation %zu: map '%s' slot %llu: '%s' is not a "
			       "program or map, or the slot is out of range",
			       rs->idx, rs->name, ri, obj->maps[mi].name, (unsigned long long)slot,
			       y->name);
	if (!obj->maps[mi].init_slots) {
		uint32_t cnt = (obj->map_def_sz[mi] - obj->map_vals_off[mi]) / 8;
		int32_t **bufs = realloc(obj->slot_bufs, (obj->nslot_bufs + 1) * sizeof(*bufs));

		if (!bufs)
			return -ENOMEM;
		obj->slot_bufs = bufs;
		slots = malloc((cnt ? cnt : 1) * sizeof(*slots));
		if (!slots)
			return -ENOMEM;
		bufs[obj->nslot_bufs++] = slots;
		memset(slots, 0xff, (cnt ? cnt : 1) * sizeof(*slots)); /* -1 */
		obj->maps[mi].init_slots = slots;
		obj->maps[mi].init_slot_cnt = cnt;
	}
	slots = (int32_t *)obj->maps[mi].init_slots;
	if (slot < obj->maps[mi].init_slot_cnt)
		slots[slot] = val;
	return 0;
}

/* `.values = { [i] = &prog_or_map }` initializers: relocations of .maps. */
int obj_map_inits(struct bg_object *obj)
{
	for (size_t i = 1; i < obj->nsecs; i++) {
		const struct obj_sec *rs = &obj->secs[i];
		Elf_Data *d;

		if (rs->kind != SEC_REL || rs->info >= obj->nsecs ||
		    obj->secs[rs->info].kind != SEC_MAPS)
			continue;
		d = elf_getdata(elf_getscn(obj->elf, rs->idx), NULL);
		if (rs->link != obj->symtab_idx || !d || rs->size % sizeof(Elf64_Rel))
			return obj_err(obj, "section %zu (%s): malformed relocation section", i,
				       rs->name);
		for (size_t k = 0; k < rs->size / sizeof(Elf64_Rel); k++) {
			GElf_Rel rel;
			uint32_t symi;
			int err;

			if (!gelf_getrel(d, k, &rel))
				return obj_err(obj, "section %zu (%s): relocation %zu: %s", i,
					       rs->name, k, elf_errmsg(-1));
			symi = GELF_R_SYM(rel.r_info);
			if (GELF_R_TYPE(rel.r_info) == 0)
				continue;
			if (symi >= obj->nsyms)
				return obj_err(obj,
					       "section %zu (%s): relocation %zu: symbol index %u "
					       "out of range",
					       i, rs->name, k, symi);
			if ((err = map_init_one(obj, rs, k, rel.r_offset, &obj->syms[symi])))
				return err;
		}
	}
	return 0;
}
