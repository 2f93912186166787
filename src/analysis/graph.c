/* Program-local objects and graph data structures, from the object's BTF.
 *
 * bpf_obj_new(T) allocates a struct T of the program's own BTF (the kernel's
 * PTR_TO_BTF_ID | MEM_ALLOC): the program may read and write it, except its
 * special fields (the kernel's btf_record: locks, graph roots and nodes,
 * refcount, timers, kptrs), which only kfuncs and helpers touch. A graph
 * root (bpf_list_head, bpf_rb_root) lives in a map value, a global data
 * section or a local object; its `contains:T:field` declaration tag names the
 * struct its nodes are embedded in. Names returned point into the BTF's
 * string table (they live as long as the object). */
#include <string.h>
#include <bpf/btf.h>
#include <bpfgate/object.h>
#include "analysis/graph.h"
#include "obj/tfind.h"

#define MAX_DEPTH 8

/* Struct types the kernel treats as special fields (btf_field_type_name()
 * spells the field kind as the struct name; kptrs are spelled below). */
static const char *const special_structs[] = {
	"bpf_spin_lock", "bpf_res_spin_lock", "bpf_timer",  "bpf_wq",       "bpf_list_head",
	"bpf_list_node", "bpf_rb_root",       "bpf_rb_node", "bpf_refcount",
};
/* Type tags of kptr fields, with the kernel's name for the field kind. */
static const struct {
	const char *tag, *kind;
} kptr_tags[] = { { "kptr", "kptr" }, { "kptr_untrusted", "kptr" }, { "percpu_kptr", "percpu_kptr" } };

static const struct btf *obj_btf(const struct bg_program *prog)
{
	return prog ? bg_object__btf(bg_program__object(prog)) : NULL;
}

static const struct btf_type *resolve(const struct btf *b, uint32_t id, uint32_t *out)
{
	const struct btf_type *t = btf__type_by_id(b, id);
	while (t && (btf_is_typedef(t) || btf_is_mod(t))) {
		id = t->type;
		t = btf__type_by_id(b, id);
	}
	if (out)
		*out = id;
	return t;
}

static const char *special_name(const struct btf *b, const struct btf_type *t)
{
	if (!t || !btf_is_composite(t))
		return NULL;
	const char *n = btf__name_by_offset(b, t->name_off);
	for (size_t i = 0; n && i < sizeof(special_structs) / sizeof(special_structs[0]); i++)
		if (!strcmp(n, special_structs[i]))
			return special_structs[i];
	return NULL;
}

/* A pointer member tagged as a kptr: the kernel's name of its kind. */
static const char *kptr_kind(const struct btf *b, const struct btf_type *t)
{
	if (!t || !btf_is_ptr(t))
		return NULL;
	const struct btf_type *p = btf__type_by_id(b, t->type);
	for (; p && (btf_is_mod(p) || btf_is_type_tag(p)); p = btf__type_by_id(b, p->type)) {
		if (!btf_is_type_tag(p))
			continue;
		const char *tag = btf__name_by_offset(b, p->name_off);
		for (size_t i = 0; tag && i < sizeof(kptr_tags) / sizeof(kptr_tags[0]); i++)
			if (!strcmp(tag, kptr_tags[i].tag))
				return kptr_tags[i].kind;
	}
	return NULL;
}

static int local_id(const struct btf *b, const char *name)
{
	return name && b ? btf__find_by_name_kind(b, name, BTF_KIND_STRUCT) : -1;
}

const char *graph_local_struct(const struct bg_program *prog, uint64_t type_id, uint32_t *size)
{
	const struct btf *b = obj_btf(prog);
	if (!b || type_id == 0 || type_id >= btf__type_cnt(b))
		return NULL;
	const struct btf_type *t = btf__type_by_id(b, (uint32_t)type_id);
	if (!t || !btf_is_struct(t))
		return NULL;
	if (size)
		*size = t->size;
	return btf__name_by_offset(b, t->name_off);
}

/* __btf_type_is_scalar_struct: members are integers, enums, arrays of them
 * or structs of scalars (at most MAX_DEPTH deep). */
static bool scalar_struct(const struct btf *b, const struct btf_type *t, int depth)
{
	if (depth > MAX_DEPTH)
		return false;
	const struct btf_member *m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
		const struct btf_type *mt = resolve(b, m->type, NULL);
		while (mt && btf_is_array(mt))
			mt = resolve(b, btf_array(mt)->type, NULL);
		if (!mt)
			return false;
		if (btf_is_struct(mt)) {
			if (!scalar_struct(b, mt, depth + 1))
				return false;
		} else if (!btf_is_int(mt) && !btf_is_any_enum(mt)) {
			return false;
		}
	}
	return true;
}

const char *graph_percpu_refused(const struct bg_program *prog, uint64_t type_id)
{
	const struct btf *b = obj_btf(prog);
	uint32_t size = 0;
	const char *name = graph_local_struct(prog, type_id, &size);
	if (!name)
		return NULL;
	if (size > GRAPH_PERCPU_MAX_SIZE)
		return "size";
	if (!scalar_struct(b, btf__type_by_id(b, (uint32_t)type_id), 0))
		return "scalars";
	if (graph_special_in(prog, name, 0, (int)size))
		return "special";
	return NULL;
}

/* Through the target BTF's name index (obj_target_lookup): a libbpf name
 * search would scan the ~150k vmlinux types, ~1 ms per program that calls a
 * kptr or object helper. */
bool graph_is_local(const struct bg_program *prog, const char *name)
{
	const struct bg_object *o = prog ? bg_program__object(prog) : NULL;
	return local_id(obj_btf(prog), name) > 0 && obj_target_lookup(o, name, BTF_KIND_STRUCT) <= 0;
}

uint32_t graph_local_size(const struct bg_program *prog, const char *name)
{
	const struct btf *b = obj_btf(prog);
	int id = local_id(b, name);
	const struct btf_type *t = id > 0 ? btf__type_by_id(b, (uint32_t)id) : NULL;
	return t ? t->size : 0;
}

/* Special fields of composite `id` overlapping [off, off+size). */
static const char *special_overlap(const struct btf *b, uint32_t id, int64_t off, int size, int depth)
{
	const struct btf_type *t = resolve(b, id, &id);
	if (!t || depth > MAX_DEPTH)
		return NULL;
	const char *sp = special_name(b, t);
	if (sp)
		return sp;
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		int64_t esz = btf__resolve_size(b, a->type);
		if (esz <= 0)
			return NULL;
		for (int64_t i = off < 0 ? 0 : off / esz; i < a->nelems && i * esz < off + size; i++) {
			const char *r = special_overlap(b, a->type, off - i * esz, size, depth + 1);
			if (r)
				return r;
		}
		return NULL;
	}
	if (!btf_is_composite(t))
		return kptr_kind(b, t);
	const struct btf_member *m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
		int64_t moff = btf_member_bit_offset(t, i) / 8, msz = btf__resolve_size(b, m->type);
		if (msz <= 0 || off >= moff + msz || off + size <= moff)
			continue;
		const char *r = special_overlap(b, m->type, off - moff, size, depth + 1);
		if (r)
			return r;
	}
	return NULL;
}

const char *graph_special_in(const struct bg_program *prog, const char *name, int64_t off, int size)
{
	const struct btf *b = obj_btf(prog);
	int id = local_id(b, name);
	return id > 0 ? special_overlap(b, (uint32_t)id, off, size, 0) : NULL;
}

/* The `contains:T:field` tag of member comp of holder (a VAR: comp -1). */
static void contains_tag(const struct btf *b, uint32_t holder, int comp, struct graph_field *out)
{
	static const char pfx[] = "contains:";
	uint32_t n = btf__type_cnt(b);
	for (uint32_t i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(b, i);
		if (!btf_is_decl_tag(t) || t->type != holder || btf_decl_tag(t)->component_idx != comp)
			continue;
		const char *v = btf__name_by_offset(b, t->name_off);
		if (!v || strncmp(v, pfx, sizeof(pfx) - 1))
			continue;
		char sname[128];
		const char *c = v + sizeof(pfx) - 1, *colon = strchr(c, ':');
		if (!colon || (size_t)(colon - c) >= sizeof(sname))
			return;
		memcpy(sname, c, (size_t)(colon - c));
		sname[colon - c] = 0;
		int sid = local_id(b, sname);
		const struct btf_type *st = sid > 0 ? btf__type_by_id(b, (uint32_t)sid) : NULL;
		if (!st)
			return;
		out->contains = btf__name_by_offset(b, st->name_off);
		const struct btf_member *m = btf_members(st);
		for (uint16_t k = 0; k < btf_vlen(st); k++, m++)
			if (!strcmp(btf__name_by_offset(b, m->name_off), colon + 1))
				out->node_off = (int32_t)(btf_member_bit_offset(st, k) / 8);
		return;
	}
}

/* The special field starting at off in type id (base: its offset in the
 * allocation); holder/comp: where a declaration tag on it would hang. */
static bool field_walk(const struct btf *b, uint32_t id, int64_t off, int64_t base, uint32_t holder, int comp,
		       struct graph_field *out, int depth)
{
	const struct btf_type *t = resolve(b, id, &id);
	if (!t || depth > MAX_DEPTH)
		return false;
	const char *sp = special_name(b, t);
	if (sp) {
		if (off != 0)
			return false;
		out->type = sp;
		out->off = (int32_t)base;
		contains_tag(b, holder, comp, out);
		return true;
	}
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		int64_t esz = btf__resolve_size(b, a->type);
		if (esz <= 0 || off < 0 || off / esz >= a->nelems)
			return false;
		int64_t i = off / esz;
		return field_walk(b, a->type, off - i * esz, base + i * esz, holder, comp, out, depth + 1);
	}
	if (btf_is_datasec(t)) {
		const struct btf_var_secinfo *vs = btf_var_secinfos(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++, vs++) {
			if (off < vs->offset || off >= (int64_t)vs->offset + vs->size)
				continue;
			const struct btf_type *var = btf__type_by_id(b, vs->type);
			return var && btf_is_var(var) &&
			       field_walk(b, var->type, off - vs->offset, base + vs->offset, vs->type, -1, out,
					  depth + 1);
		}
		return false;
	}
	if (!btf_is_composite(t))
		return false;
	const struct btf_member *m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
		int64_t moff = btf_member_bit_offset(t, i) / 8, msz = btf__resolve_size(b, m->type);
		if (msz > 0 && off >= moff && off < moff + msz)
			return field_walk(b, m->type, off - moff, base + moff, id, i, out, depth + 1);
	}
	return false;
}

static uint32_t alloc_type(const struct btf *b, uint32_t value_type_id, const char *sname)
{
	if (sname) {
		int id = local_id(b, sname);
		return id > 0 ? (uint32_t)id : 0;
	}
	return value_type_id;
}

bool graph_field_at(const struct bg_program *prog, uint32_t value_type_id, const char *sname, int64_t off,
		    struct graph_field *out)
{
	memset(out, 0, sizeof(*out));
	out->node_off = -1;
	const struct btf *b = obj_btf(prog);
	uint32_t id = b ? alloc_type(b, value_type_id, sname) : 0;
	return id && off >= 0 && field_walk(b, id, off, 0, 0, -2, out, 0);
}

/* A graph root's `contains:` names a struct of the object BTF with a node
 * of the root's kind (else the kernel refuses the whole record). */
static bool root_valid(const struct btf *b, const char *root, uint32_t holder, int comp)
{
	struct graph_field g = { .node_off = -1 };
	contains_tag(b, holder, comp, &g);
	if (!g.contains || g.node_off < 0)
		return false;
	struct graph_field n;
	memset(&n, 0, sizeof(n));
	int id = local_id(b, g.contains);
	if (id <= 0 || !field_walk(b, (uint32_t)id, g.node_off, 0, 0, -2, &n, 0))
		return false;
	return !strcmp(root, "bpf_list_head") ? !strcmp(n.type, "bpf_list_node") : !strcmp(n.type, "bpf_rb_node");
}

struct count {
	const char *tname;
	int n;
	int64_t first;
	bool bad; /* a graph root with an invalid `contains:` */
};

/* Count the fields of struct c->tname in type id (base: its offset);
 * holder/comp: where a declaration tag on it would hang. */
static void count_fields(const struct btf *b, uint32_t id, int64_t base, uint32_t holder, int comp, struct count *c,
			 int depth)
{
	const struct btf_type *t = resolve(b, id, &id);
	if (!t || depth > MAX_DEPTH)
		return;
	const char *sp = special_name(b, t);
	if (sp) {
		if (!strcmp(sp, c->tname) && c->n++ == 0)
			c->first = base;
		if ((!strcmp(sp, "bpf_list_head") || !strcmp(sp, "bpf_rb_root")) && !root_valid(b, sp, holder, comp))
			c->bad = true;
		return;
	}
	if (btf_is_array(t)) {
		/* one element counted, times the number of elements */
		const struct btf_array *a = btf_array(t);
		struct count e = { .tname = c->tname, .first = -1 };
		count_fields(b, a->type, base, holder, comp, &e, depth + 1);
		if (e.n && a->nelems) {
			if (c->n == 0)
				c->first = e.first;
			c->n += a->nelems > 1 ? 2 : e.n; /* more than one: no valid one */
		}
		c->bad |= e.bad;
		return;
	}
	if (btf_is_datasec(t)) {
		const struct btf_var_secinfo *vs = btf_var_secinfos(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++, vs++) {
			const struct btf_type *var = btf__type_by_id(b, vs->type);
			if (var && btf_is_var(var))
				count_fields(b, var->type, base + vs->offset, vs->type, -1, c, depth + 1);
		}
		return;
	}
	if (!btf_is_composite(t))
		return;
	const struct btf_member *m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++)
		count_fields(b, m->type, base + btf_member_bit_offset(t, i) / 8, id, i, c, depth + 1);
}

int graph_find_field(const struct bg_program *prog, uint32_t value_type_id, const char *sname,
		     const char *tname)
{
	const struct btf *b = obj_btf(prog);
	uint32_t id = b ? alloc_type(b, value_type_id, sname) : 0;
	if (!id)
		return -2;
	struct count c = { .tname = tname, .first = -1 };
	count_fields(b, id, 0, 0, -2, &c, 0);
	return c.n == 1 && !c.bad ? (int)c.first : -1;
}
