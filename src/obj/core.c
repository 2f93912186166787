/* CO-RE stage: .BTF.ext core_relo records applied against a target BTF.
 *
 * For each record: parse the local access string into a spec (the root type,
 * then one accessor per named member or array index, with the bit offset it
 * reaches), find candidate target types (same name once a "___flavor" suffix
 * is removed, same kind), match the spec on each candidate by member names,
 * and compute the value the relocation kind asks for. All matching candidates
 * must agree. The value is written into the instruction (imm of an ALU / ld_imm64,
 * off of a memory access whose size is adjusted when the field size changed).
 * A relocation that cannot be satisfied poisons its instruction the way libbpf
 * does (call 0xbad2310) and is recorded with a reason; existence checks yield 0
 * instead. Also: loading the target BTF (once per object) for externs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "obj/internal.h"
#include "obj/btftype.h"
#include "obj/tfind.h"

#define CORE_MAX_SPEC 64
#define CORE_MAX_DEPTH 32
#define POISON_IMM 0xbad2310
#define CODE_LD_IMM64 0x18

enum core_kind {
	K_FIELD_BYTE_OFFSET = 0,
	K_FIELD_BYTE_SIZE,
	K_FIELD_EXISTS,
	K_FIELD_SIGNED,
	K_FIELD_LSHIFT_U64,
	K_FIELD_RSHIFT_U64,
	K_TYPE_ID_LOCAL,
	K_TYPE_ID_TARGET,
	K_TYPE_EXISTS,
	K_TYPE_SIZE,
	K_ENUMVAL_EXISTS,
	K_ENUMVAL_VALUE,
	K_TYPE_MATCHES,
	K__MAX,
};

static const char *const kind_names[K__MAX] = {
    "field byte offset", "field byte size", "field exists",   "field signed", "field lshift_u64",
    "field rshift_u64",	 "local type id",   "target type id", "type exists",  "type size",
    "enum value exists", "enum value",	    "type matches",
};

static bool kind_is_field(uint32_t k)
{
	return k <= K_FIELD_RSHIFT_U64;
}
static bool kind_is_type(uint32_t k)
{
	return (k >= K_TYPE_ID_LOCAL && k <= K_TYPE_SIZE) || k == K_TYPE_MATCHES;
}
static bool kind_is_enum(uint32_t k)
{
	return k == K_ENUMVAL_EXISTS || k == K_ENUMVAL_VALUE;
}
static bool kind_is_existence(uint32_t k)
{
	return k == K_FIELD_EXISTS || k == K_TYPE_EXISTS || k == K_ENUMVAL_EXISTS ||
	       k == K_TYPE_MATCHES;
}

struct core_acc {
	uint32_t type_id; /* composite containing the member, or the array type */
	uint32_t idx;
	const char *name; /* member name; NULL for an array index */
};

struct core_spec {
	const struct btf *btf;
	uint32_t root_id;
	struct core_acc acc[CORE_MAX_SPEC];
	int len;
	int64_t bit_off;
};

/* ---- target BTF ---- */

static struct cand_index *cand_index(struct bg_object *obj, const struct btf *tb);

/* The target BTF of the object, loaded once, with its name index built at the
 * same time (analysis looks names up through obj_target_lookup). */
int obj_target_btf(struct bg_object *obj, const struct btf **out, const char **why)
{
	const char *path = obj->opts.btf_path ? obj->opts.btf_path : "/sys/kernel/btf/vmlinux";
	libbpf_print_fn_t old;
	struct btf *t;

	*out = NULL;
	if (obj->opts.target_btf) {
		obj->target = (struct btf *)obj->opts.target_btf;
		*out = obj->target;
		if (!cand_index(obj, obj->target))
			return -ENOMEM;
		return 0;
	}
	if (!obj->target_tried) {
		obj->target_tried = true;
		old = libbpf_set_print(NULL);
		t = btf__parse(path, NULL);
		libbpf_set_print(old);
		if (t && obj->opts.btf_path) {
			uint32_t bad = 0;
			const char *why2 = obj_btf_validate(t, &bad);
			if (why2) {
				obj->target_err =
				    obj_asprintf("target BTF %s: type %u: %s", path, bad, why2);
				btf__free(t);
				t = NULL;
			}
		}
		if (t)
			obj->target = t;
		else if (!obj->target_err)
			obj->target_err =
			    obj_asprintf("cannot read target BTF %s: %s", path, strerror(errno));
	}
	*out = obj->target;
	*why = obj->target_err;
	if (obj->target)
		return cand_index(obj, obj->target) ? 0 : -ENOMEM;
	if (obj->opts.btf_path)
		return obj_errc(obj, -BG_ERR_FORMAT, "%s",
				obj->target_err ? obj->target_err : path);
	return -ENOENT;
}

/* ---- BTF helpers ---- */

const struct btf_type *obj_btf_skip_mods(const struct btf *btf, uint32_t id, uint32_t *res)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	for (int d = 0; t && d < CORE_MAX_DEPTH && (btf_is_mod(t) || btf_is_typedef(t)); d++) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (res)
		*res = id;
	if (t && (btf_is_mod(t) || btf_is_typedef(t)))
		return NULL;
	return t;
}

size_t obj_essential_len(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = n >= 5 ? n - 5 + 1 : 0; i-- > 0;)
		if (name[i] != '_' && name[i + 1] == '_' && name[i + 2] == '_' &&
		    name[i + 3] == '_' && name[i + 4] != '_')
			return i + 1;
	return n;
}

/* Names equal once "___flavor" suffixes are dropped. */
static bool ess_equal(const char *a, const char *b)
{
	size_t la = obj_essential_len(a), lb = obj_essential_len(b);

	return la == lb && !strncmp(a, b, la);
}

/* Steps left for the recursive type comparisons of one relocation: hostile
 * BTF with wide nested structs would otherwise make them exponential. */
static _Thread_local long core_budget;
#define CORE_BUDGET 1000000

static bool kinds_match(const struct btf_type *a, const struct btf_type *b)
{
	if (btf_is_any_enum(a) && btf_is_any_enum(b))
		return true;
	return btf_kind(a) == btf_kind(b);
}

static bool is_composite(const struct btf_type *t)
{
	return t && btf_is_composite(t);
}

/* Types compatible for type-based relocations (names are compared only at the root). */
static bool types_compat(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid,
			 int depth)
{
	if (--core_budget < 0)
		return false;
	const struct btf_type *l = obj_btf_skip_mods(lb, lid, &lid), *t = obj_btf_skip_mods(tb, tid, &tid);

	if (!l || !t || depth > CORE_MAX_DEPTH)
		return false;
	if (lid == 0 || tid == 0)
		return lid == tid;
	if (!kinds_match(l, t))
		return false;
	switch (btf_kind(l)) {
	case BTF_KIND_INT:
		return btf_int_offset(l) == 0 && btf_int_offset(t) == 0;
	case BTF_KIND_PTR:
		return types_compat(lb, l->type, tb, t->type, depth + 1);
	case BTF_KIND_ARRAY:
		return types_compat(lb, btf_array(l)->type, tb, btf_array(t)->type, depth + 1);
	case BTF_KIND_FUNC_PROTO: {
		const struct btf_param *lp = btf_params(l), *tp = btf_params(t);
		if (btf_vlen(l) != btf_vlen(t))
			return false;
		for (uint16_t i = 0; i < btf_vlen(l); i++)
			if (!types_compat(lb, lp[i].type, tb, tp[i].type, depth + 1))
				return false;
		return types_compat(lb, l->type, tb, t->type, depth + 1);
	}
	case BTF_KIND_FLOAT:
		return l->size == t->size;
	default:
		return true;
	}
}

/* A kfunc extern's prototype against the kernel's (libbpf's
 * bpf_core_types_are_compat of the two FUNC_PROTOs): an incompatible weak
 * flavour is left unresolved. */
bool obj_kfunc_compat(const struct btf *lb, uint32_t lfunc, const struct btf *tb, uint32_t tfunc)
{
	const struct btf_type *l = btf__type_by_id(lb, lfunc), *t = btf__type_by_id(tb, tfunc);

	if (!l || !t || !btf_is_func(l) || !btf_is_func(t))
		return false;
	core_budget = CORE_BUDGET;
	return types_compat(lb, l->type, tb, t->type, 0);
}

/* Field types compatible for field relocations. */
static bool fields_compat(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid,
			  int depth)
{
	if (--core_budget < 0)
		return false;
	const struct btf_type *l = obj_btf_skip_mods(lb, lid, NULL), *t = obj_btf_skip_mods(tb, tid, NULL);

	if (!l || !t || depth > CORE_MAX_DEPTH)
		return false;
	if (is_composite(l) && is_composite(t))
		return true;
	if (!kinds_match(l, t))
		return false;
	switch (btf_kind(l)) {
	case BTF_KIND_INT:
		return btf_int_offset(l) == 0 && btf_int_offset(t) == 0;
	case BTF_KIND_ARRAY:
		return fields_compat(lb, btf_array(l)->type, tb, btf_array(t)->type, depth + 1);
	default:
		return true;
	}
}

static bool names_match(const struct btf *lb, const struct btf_type *l, const struct btf *tb,
			const struct btf_type *t)
{
	const char *ln = btf__name_by_offset(lb, l->name_off),
		   *tn = btf__name_by_offset(tb, t->name_off);
	size_t ll, tl;

	if (!ln || !tn)
		return false;
	ll = obj_essential_len(ln), tl = obj_essential_len(tn);
	return ll == tl && !strncmp(ln, tn, ll);
}

/* bpf_core_type_matches semantics: a stricter, name-aware structural match. */
static bool types_match(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid,
			int depth)
{
	if (--core_budget < 0)
		return false;
	const struct btf_type *l = obj_btf_skip_mods(lb, lid, &lid), *t = obj_btf_skip_mods(tb, tid, &tid);

	if (!l || !t || depth > CORE_MAX_DEPTH)
		return false;
	if (lid == 0 || tid == 0)
		return lid == tid;
	if (l->name_off && !names_match(lb, l, tb, t))
		return false;
	if (btf_is_fwd(l) || btf_is_fwd(t))
		return is_composite(l) || is_composite(t) || (btf_is_fwd(l) && btf_is_fwd(t));
	if (!kinds_match(l, t))
		return false;
	switch (btf_kind(l)) {
	case BTF_KIND_INT:
		return l->size == t->size && (btf_int_encoding(l) & BTF_INT_SIGNED) ==
						 (btf_int_encoding(t) & BTF_INT_SIGNED);
	case BTF_KIND_FLOAT:
		return l->size == t->size;
	case BTF_KIND_PTR:
		return types_match(lb, l->type, tb, t->type, depth + 1);
	case BTF_KIND_ARRAY:
		return btf_array(l)->nelems == btf_array(t)->nelems &&
		       types_match(lb, btf_array(l)->type, tb, btf_array(t)->type, depth + 1);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		for (uint16_t i = 0; i < btf_vlen(l); i++) {
			const char *en =
			    btf__name_by_offset(lb, btf_is_enum(l) ? btf_enum(l)[i].name_off
								   : btf_enum64(l)[i].name_off);
			bool found = false;
			for (uint16_t j = 0; en && j < btf_vlen(t) && !found; j++) {
				const char *tn = btf__name_by_offset(
				    tb, btf_is_enum(t) ? btf_enum(t)[j].name_off
						       : btf_enum64(t)[j].name_off);
				found = tn && !strcmp(en, tn);
			}
			if (!found)
				return false;
		}
		return l->size == t->size;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		if (btf_kind(l) != btf_kind(t))
			return false;
		for (uint16_t i = 0; i < btf_vlen(l); i++) {
			const struct btf_member *lm = btf_members(l) + i;
			const char *ln = btf__name_by_offset(lb, lm->name_off);
			bool found = false;
			for (uint16_t j = 0; ln && j < btf_vlen(t) && !found; j++) {
				const struct btf_member *tm = btf_members(t) + j;
				const char *tn = btf__name_by_offset(tb, tm->name_off);
				if (tn && !strcmp(ln, tn))
					found = types_match(lb, lm->type, tb, tm->type, depth + 1);
			}
			if (!found)
				return false;
		}
		return true;
	case BTF_KIND_FUNC_PROTO:
		if (btf_vlen(l) != btf_vlen(t))
			return false;
		for (uint16_t i = 0; i < btf_vlen(l); i++)
			if (!types_match(lb, btf_params(l)[i].type, tb, btf_params(t)[i].type,
					 depth + 1))
				return false;
		return types_match(lb, l->type, tb, t->type, depth + 1);
	default:
		return true;
	}
}

/* ---- specs ---- */

/* Bit offset of element idx of esz-byte elements; false when it overflows. */
static bool elem_bits(uint64_t idx, int64_t esz, int64_t *out)
{
	if (esz < 0 || (esz && idx > (uint64_t)(INT64_MAX / 8 / esz)))
		return false;
	*out = (int64_t)idx * esz * 8;
	return true;
}

/* Parse "0:1:2" against the local BTF; fills spec and a printable path. */
static const char *parse_spec(const struct btf *btf, uint32_t root, const char *access,
			      uint32_t kind, struct core_spec *spec, char *path, size_t psz)
{
	const struct btf_type *t;
	uint32_t id = root;
	size_t pl;
	int n = 0;

	memset(spec, 0, sizeof(*spec));
	spec->btf = btf;
	spec->root_id = root;
	t = btf__type_by_id(btf, root);
	if (!t || root == 0)
		return "bad local type id";
	snprintf(path, psz, "%s", btf__name_by_offset(btf, t->name_off) ?: "?");
	if (!access || !*access)
		return "empty access string";
	for (const char *p = access; *p;) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);

		if (end == p || v > UINT32_MAX || n >= CORE_MAX_SPEC || (*end && *end != ':'))
			return "malformed access string";
		if (n == 0 && (kind_is_type(kind) || kind_is_field(kind))) {
			int64_t sz = btf__resolve_size(btf, root);
			if (kind_is_type(kind) && v)
				return "type relocation with a non-zero access index";
			if (sz < 0 && v)
				return "cannot size the root type";
			if (sz > 0 && !elem_bits(v, sz, &spec->bit_off))
				return "array index overflows";
			spec->acc[spec->len++] = (struct core_acc){root, (uint32_t)v, NULL};
		} else if (n == 0) { /* enum value: index of the enumerator */
			t = obj_btf_skip_mods(btf, root, NULL);
			if (!t || !btf_is_any_enum(t) || v >= btf_vlen(t))
				return "enumerator index out of range";
			spec->acc[spec->len++] = (struct core_acc){
			    root, (uint32_t)v,
			    btf__name_by_offset(btf, btf_is_enum(t) ? btf_enum(t)[v].name_off
								    : btf_enum64(t)[v].name_off)};
			pl = strlen(path);
			snprintf(path + pl, psz - pl, "::%s", spec->acc[0].name ?: "?");
		} else {
			uint32_t pid;
			t = obj_btf_skip_mods(btf, id, &pid);
			if (is_composite(t)) {
				const struct btf_member *m;
				const char *mn;
				if (v >= btf_vlen(t))
					return "member index out of range";
				m = btf_members(t) + v;
				mn = btf__name_by_offset(btf, m->name_off);
				spec->bit_off += btf_member_bit_offset(t, v);
				if (mn && *mn) {
					spec->acc[spec->len++] =
					    (struct core_acc){pid, (uint32_t)v, mn};
					pl = strlen(path);
					snprintf(path + pl, psz - pl, ".%s", mn);
				}
				id = m->type;
			} else if (t && btf_is_array(t)) {
				int64_t esz = btf__resolve_size(btf, btf_array(t)->type);
				if (esz < 0)
					return "cannot size an array element";
				int64_t bits;
				if (!elem_bits(v, esz, &bits) ||
				    bits > INT64_MAX / 2 - spec->bit_off)
					return "array index overflows";
				spec->bit_off += bits;
				spec->acc[spec->len++] = (struct core_acc){pid, (uint32_t)v, NULL};
				pl = strlen(path);
				snprintf(path + pl, psz - pl, "[%lu]", v);
				id = btf_array(t)->type;
			} else {
				return "access through a type that is not a struct, union or array";
			}
		}
		n++;
		p = *end ? end + 1 : end;
	}
	if (kind_is_enum(kind) && n != 1)
		return "enum relocation with a nested access string";
	return NULL;
}

/* Find member `name` in composite tid (looking into anonymous members). */
static bool match_member(const struct btf *tb, uint32_t tid, const char *name, int64_t *bit_off,
			 struct core_acc *out, int depth)
{
	uint32_t pid;
	const struct btf_type *t = obj_btf_skip_mods(tb, tid, &pid);

	if (!is_composite(t) || depth > CORE_MAX_DEPTH)
		return false;
	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		const struct btf_member *m = btf_members(t) + i;
		const char *mn = btf__name_by_offset(tb, m->name_off);
		int64_t off = btf_member_bit_offset(t, i);

		if (mn && *mn) {
			if (strcmp(mn, name))
				continue;
			*bit_off += off;
			*out = (struct core_acc){pid, i, mn};
			return true;
		}
		if (match_member(tb, m->type, name, &off, out, depth + 1)) {
			*bit_off += off;
			return true;
		}
	}
	return false;
}

/* Type id an accessor leads to (member type, array element type). */
static uint32_t acc_target_type(const struct btf *btf, const struct core_acc *a, bool root)
{
	const struct btf_type *t = obj_btf_skip_mods(btf, a->type_id, NULL);

	if (root)
		return a->type_id;
	if (!t)
		return 0;
	if (a->name)
		return btf_members(t)[a->idx].type;
	return btf_is_array(t) ? btf_array(t)->type : 0;
}

/* Match the local field spec on target candidate cand; fills ts. */
static bool match_field_spec(const struct core_spec *ls, const struct btf *tb, uint32_t cand,
			     struct core_spec *ts)
{
	int64_t rsz = btf__resolve_size(tb, cand);
	uint32_t id = cand;

	memset(ts, 0, sizeof(*ts));
	ts->btf = tb;
	ts->root_id = cand;
	if (rsz < 0 && ls->acc[0].idx)
		return false;
	ts->acc[0] = (struct core_acc){cand, ls->acc[0].idx, NULL};
	if (rsz > 0 && !elem_bits(ls->acc[0].idx, rsz, &ts->bit_off))
		return false;
	ts->len = 1;
	for (int i = 1; i < ls->len; i++) {
		const struct core_acc *la = &ls->acc[i];
		uint32_t lt = acc_target_type(ls->btf, la, false);
		struct core_acc ta;

		if (la->name) {
			if (!match_member(tb, id, la->name, &ts->bit_off, &ta, 0))
				return false;
			if (!fields_compat(
				ls->btf, lt, tb,
				btf_members(obj_btf_skip_mods(tb, ta.type_id, NULL))[ta.idx].type, 0))
				return false;
		} else {
			uint32_t aid;
			const struct btf_type *a = obj_btf_skip_mods(tb, id, &aid);
			int64_t esz;

			if (!a || !btf_is_array(a))
				return false;
			if (btf_array(a)->nelems && la->idx >= btf_array(a)->nelems)
				return false;
			esz = btf__resolve_size(tb, btf_array(a)->type);
			if (esz < 0)
				return false;
			int64_t bits;
			if (!elem_bits(la->idx, esz, &bits) || bits > INT64_MAX / 2 - ts->bit_off)
				return false;
			ts->bit_off += bits;
			ta = (struct core_acc){aid, la->idx, NULL};
		}
		ts->acc[ts->len++] = ta;
		id = acc_target_type(tb, &ta, false);
	}
	return true;
}

/* Value of a field relocation for a (local or target) spec. */
static const char *calc_field(const struct core_spec *s, uint32_t kind, uint64_t *val, uint32_t *sz)
{
	const struct core_acc *a = &s->acc[s->len - 1];
	uint32_t fid = acc_target_type(s->btf, a, s->len == 1), bit_sz = 0;
	const struct btf_type *ft, *parent = obj_btf_skip_mods(s->btf, a->type_id, NULL);
	int64_t byte_sz, byte_off, bit_off = s->bit_off;

	if (s->len > 1 && a->name && parent && is_composite(parent))
		bit_sz = btf_member_bitfield_size(parent, a->idx);
	ft = obj_btf_skip_mods(s->btf, fid, NULL);
	byte_sz = btf__resolve_size(s->btf, fid);
	/* size 0 is a flexible or zero-length array: its offset is still known */
	if (!ft || byte_sz < 0 || byte_sz > 0xffffffffll)
		return "cannot size the field";
	if (bit_sz) {
		if (!byte_sz)
			return "cannot size the field";
		if (!btf_is_int(ft) && !btf_is_any_enum(ft))
			return "bitfield of a non-integer type";
		byte_off = bit_off / 8 / byte_sz * byte_sz;
		while (bit_off + bit_sz - byte_off * 8 > byte_sz * 8) {
			if (byte_sz >= 8)
				return "bitfield does not fit in 8 bytes";
			byte_sz *= 2;
			byte_off = bit_off / 8 / byte_sz * byte_sz;
		}
	} else {
		if (bit_off % 8)
			return "field is not byte-aligned";
		byte_off = bit_off / 8;
		bit_sz = (uint32_t)byte_sz * 8;
	}
	*sz = (uint32_t)byte_sz;
	switch (kind) {
	case K_FIELD_BYTE_OFFSET:
		*val = (uint64_t)byte_off;
		break;
	case K_FIELD_BYTE_SIZE:
		*val = (uint64_t)byte_sz;
		break;
	case K_FIELD_EXISTS:
		*val = 1;
		break;
	case K_FIELD_SIGNED:
		*val = (btf_is_any_enum(ft) && btf_kflag(ft)) ||
		       (btf_is_int(ft) && (btf_int_encoding(ft) & BTF_INT_SIGNED));
		break;
	case K_FIELD_LSHIFT_U64:
		*val = 64 - (bit_off + bit_sz - byte_off * 8);
		break;
	case K_FIELD_RSHIFT_U64:
		*val = 64 - bit_sz;
		break;
	}
	return NULL;
}

/* ---- candidates (a hashed name index of the target BTF, built once) ----
 * Entries are bucketed by a hash of the essential name (counting sort: O(n)
 * to build, no comparison sort of ~150k vmlinux names); inside a bucket they
 * are in type id order, so a lookup meets the candidates of one essential
 * name in id order (the first of a kind is btf__find_by_name_kind's answer). */

struct cand_ent {
	const char *name;
	uint32_t len;
	uint32_t id;
};
struct cand_index {
	const struct btf *btf;
	struct cand_ent *e;
	uint32_t *bstart; /* bucket b holds e[bstart[b] .. bstart[b + 1]) */
	uint32_t mask;    /* buckets - 1 (a power of two) */
	size_t n;
};

static uint32_t cand_hash(const char *name, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	return h ^ (h >> 15);
}

static bool same_name(const struct cand_ent *e, const char *name, size_t len)
{
	return e->len == len && !memcmp(e->name, name, len);
}

static void cand_free(struct cand_index *ci)
{
	if (ci) {
		free(ci->e);
		free(ci->bstart);
	}
	free(ci);
}

static struct cand_index *cand_build(const struct btf *tb)
{
	uint32_t n = btf__type_cnt(tb), nb = 64, *bucket = NULL;
	struct cand_index *ci = calloc(1, sizeof(*ci));

	while (nb < n && nb < (1u << 30))
		nb <<= 1;
	if (!ci || !(ci->e = calloc(n ? n : 1, sizeof(*ci->e))) ||
	    !(ci->bstart = calloc((size_t)nb + 1, sizeof(*ci->bstart))) ||
	    !(bucket = malloc((n ? n : 1) * sizeof(*bucket)))) {
		cand_free(ci);
		return NULL;
	}
	ci->btf = tb;
	ci->mask = nb - 1;
	/* pass 1: names, buckets, bucket sizes (entries kept in id order in e) */
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(tb, id);
		const char *name = t ? btf__name_by_offset(tb, t->name_off) : NULL;
		size_t len;

		if (!name || !*name)
			continue;
		len = obj_essential_len(name);
		bucket[ci->n] = cand_hash(name, len) & ci->mask;
		ci->bstart[bucket[ci->n] + 1]++;
		ci->e[ci->n++] = (struct cand_ent){name, (uint32_t)len, id};
	}
	for (uint32_t b = 0; b < nb; b++)
		ci->bstart[b + 1] += ci->bstart[b];
	/* pass 2: a stable counting sort by bucket */
	struct cand_ent *sorted = malloc((ci->n ? ci->n : 1) * sizeof(*sorted));
	uint32_t *fill = malloc((size_t)nb * sizeof(*fill));
	if (!sorted || !fill) {
		free(sorted);
		free(fill);
		free(bucket);
		cand_free(ci);
		return NULL;
	}
	memcpy(fill, ci->bstart, (size_t)nb * sizeof(*fill));
	for (size_t i = 0; i < ci->n; i++)
		sorted[fill[bucket[i]]++] = ci->e[i];
	free(fill);
	free(bucket);
	free(ci->e);
	ci->e = sorted;
	return ci;
}

static struct cand_index *cand_index(struct bg_object *obj, const struct btf *tb)
{
	struct cand_index *ci = obj->core_cache;

	if (ci && ci->btf == tb)
		return ci;
	ci = cand_build(tb);
	if (!ci)
		return NULL;
	obj_core_free(obj);
	obj->core_cache = ci;
	return ci;
}

void obj_core_free(struct bg_object *obj)
{
	cand_free(obj->core_cache);
	obj->core_cache = NULL;
}

/* The bucket [*lo, *hi) of entries that may have the essential name (name, len). */
static void cand_range(const struct cand_index *ci, const char *name, size_t len, size_t *lo,
		       size_t *hi)
{
	uint32_t b = cand_hash(name, len) & ci->mask;

	*lo = ci->bstart[b];
	*hi = ci->bstart[b + 1];
}

static int cand_find(const struct cand_index *ci, const char *name, int kind)
{
	size_t len = obj_essential_len(name), lo, hi;

	cand_range(ci, name, len, &lo, &hi);
	for (size_t i = lo; i < hi; i++) {
		const struct btf_type *t;

		if (!same_name(&ci->e[i], name, len))
			continue;
		t = btf__type_by_id(ci->btf, ci->e[i].id);
		if (t && btf_kind(t) == kind && !strcmp(ci->e[i].name, name))
			return (int)ci->e[i].id;
	}
	return -ENOENT;
}

/* Type id of the type named exactly name of kind in the target, or -ENOENT
 * (O(1) expected through the candidate index, unlike btf__find_by_name_kind). */
int obj_target_find(struct bg_object *obj, const struct btf *tb, const char *name, int kind)
{
	struct cand_index *ci = cand_index(obj, tb);

	if (!ci)
		return -ENOMEM;
	return cand_find(ci, name, kind);
}

int obj_target_lookup(const struct bg_object *obj, const char *name, int kind)
{
	const struct cand_index *ci = obj ? obj->core_cache : NULL;
	int id;

	if (!obj || !obj->target || !name)
		return -ENOENT;
	if (ci && ci->btf == obj->target)
		return cand_find(ci, name, kind);
	id = btf__find_by_name_kind(obj->target, name, kind);
	return id > 0 ? id : -ENOENT;
}

/* ---- one relocation ---- */

struct core_res {
	uint64_t val;
	uint32_t orig_sz, new_sz; /* field sizes, for memory access size adjustment */
	bool poison;
	const char *why;
};

/* Compute the result over all candidates. */
static void resolve(struct bg_object *obj, const struct btf *tb, const struct core_spec *ls,
		    uint32_t kind, struct core_res *res)
{
	const struct btf_type *lt = btf__type_by_id(ls->btf, ls->root_id);
	const char *lname = btf__name_by_offset(ls->btf, lt->name_off);
	struct cand_index *ci;
	bool found = false;
	size_t len, i, hi;

	if (!lname || !*lname) {
		res->poison = true, res->why = "local type has no name";
		return;
	}
	ci = cand_index(obj, tb);
	if (!ci) {
		res->poison = true, res->why = "out of memory";
		return;
	}
	core_budget = CORE_BUDGET;
	len = obj_essential_len(lname);
	cand_range(ci, lname, len, &i, &hi);
	for (; i < hi; i++) {
		uint32_t cid = ci->e[i].id;

		if (!same_name(&ci->e[i], lname, len))
			continue;
		const struct btf_type *ct = btf__type_by_id(tb, cid);
		struct core_spec ts;
		uint64_t v = 0;
		uint32_t sz = 0;

		if (!ct || !kinds_match(lt, ct))
			continue;
		if (kind_is_field(kind)) {
			if (!match_field_spec(ls, tb, cid, &ts) || calc_field(&ts, kind, &v, &sz))
				continue;
		} else if (kind_is_type(kind)) {
			if (kind == K_TYPE_MATCHES
				? !types_match(ls->btf, ls->root_id, tb, cid, 0)
				: !types_compat(ls->btf, ls->root_id, tb, cid, 0))
				continue;
			v = kind == K_TYPE_ID_TARGET ? cid
			    : kind == K_TYPE_SIZE    ? (uint64_t)btf__resolve_size(tb, cid)
						     : 1;
		} else {
			const struct btf_type *e = obj_btf_skip_mods(tb, cid, NULL);
			bool hit = false;
			for (uint16_t j = 0; e && btf_is_any_enum(e) && j < btf_vlen(e) && !hit;
			     j++) {
				const char *en = btf__name_by_offset(
				    tb, btf_is_enum(e) ? btf_enum(e)[j].name_off
						       : btf_enum64(e)[j].name_off);
				if (!en || !ess_equal(en, ls->acc[0].name ?: ""))
					continue;
				hit = true;
				v = kind == K_ENUMVAL_EXISTS ? 1
				    : btf_is_enum(e)	     ? (uint64_t)(int64_t)btf_enum(e)[j].val
							     : btf_enum64_value(btf_enum64(e) + j);
			}
			if (!hit)
				continue;
		}
		if (found && v != res->val) {
			res->poison = true,
			res->why = "ambiguous: candidates give different values";
			return;
		}
		found = true;
		res->val = v;
		res->new_sz = sz;
	}
	if (!found) {
		/* libbpf: existence relocations, and type-based ones (type id,
		 * size, exists, matches), give 0 when no target type matches
		 * (a program guards them with bpf_core_type_exists); field
		 * offsets and enum values poison the instruction */
		if (kind_is_existence(kind) || kind_is_type(kind))
			res->val = 0;
		else
			res->poison = true,
			res->why = kind_is_field(kind)	? "no matching field in target BTF"
				   : kind_is_enum(kind) ? "no matching enum value in target BTF"
							: "no matching type in target BTF";
	}
}

static int size_code(uint32_t sz)
{
	switch (sz) {
	case 1:
		return 0x10; /* BPF_B */
	case 2:
		return 0x08; /* BPF_H */
	case 4:
		return 0x00; /* BPF_W */
	case 8:
		return 0x18; /* BPF_DW */
	default:
		return -1;
	}
}

/* Write the result into the instruction at pos; returns a reason when it cannot. */
static const char *patch(struct bg_program *prog, size_t pos, uint32_t kind,
			 const struct core_res *r)
{
	struct bg_raw_insn *in = &prog->raw[pos];
	uint8_t cls = in->code & 7;

	if (in->code == CODE_LD_IMM64) {
		if (pos + 1 >= prog->n)
			return "ld_imm64 at the end of the program";
		in[0].imm = (int32_t)(uint32_t)r->val;
		in[1].imm = (int32_t)(uint32_t)(r->val >> 32);
		return NULL;
	}
	if (cls == BG_CLS_ALU || cls == BG_CLS_ALU64) {
		if (in->code & 0x08)
			return "ALU instruction with a register source";
		if (r->val > UINT32_MAX && (int64_t)r->val < INT32_MIN)
			return "value does not fit in imm";
		in->imm = (int32_t)r->val;
		return NULL;
	}
	if (cls == BG_CLS_LDX || cls == BG_CLS_ST || cls == BG_CLS_STX) {
		if (kind != K_FIELD_BYTE_OFFSET)
			return "memory access patched by a non-offset relocation";
		if (r->val > INT16_MAX)
			return "field offset does not fit in a 16-bit insn offset";
		in->off = (int16_t)r->val;
		if (r->new_sz && r->orig_sz && r->new_sz != r->orig_sz &&
		    (in->code & 0xe0) == 0x60) {
			static const uint32_t bytes[4] = {4, 2, 1, 8};
			int code = size_code(r->new_sz);
			if (bytes[(in->code >> 3) & 3] != r->orig_sz || code < 0)
				return "memory access size does not match the field";
			in->code = (uint8_t)((in->code & ~0x18) | code);
		}
		return NULL;
	}
	return "instruction cannot carry a CO-RE value";
}

static int core_fail(struct bg_program *prog, size_t pos, uint32_t kind, const char *path,
		     const char *why)
{
	struct bg_raw_insn *in = &prog->raw[pos];
	bool wide = in->code == CODE_LD_IMM64 && pos + 1 < prog->n;

	*in = (struct bg_raw_insn){.code = 0x85, .imm = POISON_IMM};
	if (wide)
		in[1] = (struct bg_raw_insn){.code = 0x85, .imm = POISON_IMM};
	return prog_add_failure(prog, pos,
				obj_asprintf("CO-RE %s of %s: %s",
					     kind < K__MAX ? kind_names[kind] : "relocation", path,
					     why));
}

static int apply_one(struct bg_object *obj, struct bg_program *prog, size_t pos,
		     const struct ext_core *c)
{
	const char *access = btf__name_by_offset(obj->btf, c->access_off), *err, *why = NULL;
	struct core_spec ls;
	struct core_res res = {0};
	const struct btf *tb = NULL;
	char path[256] = "?";
	uint32_t lsz = 0;
	uint64_t lval = 0;

	if (c->kind >= K__MAX)
		return core_fail(prog, pos, c->kind, "?", "unknown relocation kind");
	err = parse_spec(obj->btf, c->type_id, access, c->kind, &ls, path, sizeof(path));
	if (err)
		return core_fail(prog, pos, c->kind, path, err);
	if (kind_is_field(c->kind) && (err = calc_field(&ls, c->kind, &lval, &lsz)))
		return core_fail(prog, pos, c->kind, path, err);
	if (c->kind == K_TYPE_ID_LOCAL) {
		res.val = c->type_id;
	} else if (obj->opts.no_core) {
		return core_fail(prog, pos, c->kind, path, "CO-RE relocations disabled");
	} else if (obj_target_btf(obj, &tb, &why) < 0 || !tb) {
		return core_fail(prog, pos, c->kind, path, why ? why : "no target BTF");
	} else {
		resolve(obj, tb, &ls, c->kind, &res);
		res.orig_sz = lsz;
		if (res.poison)
			return core_fail(prog, pos, c->kind, path, res.why);
	}
	err = patch(prog, pos, c->kind, &res);
	return err ? core_fail(prog, pos, c->kind, path, err) : 0;
}

int obj_core_apply(struct bg_object *obj, struct bg_program *prog)
{
	for (size_t pi = 0; pi < prog->npieces; pi++) {
		const struct obj_func *f = &obj->funcs[prog->pieces[pi].func];
		const struct ext_sec *e = obj_ext_sec(obj, f->sec);

		for (size_t j = e ? obj_ext_lower(e->cores, e->ncores, sizeof(*e->cores), f->start)
				  : 0;
		     e && j < e->ncores && e->cores[j].insn < f->start + f->len; j++) {
			const struct ext_core *c = &e->cores[j];
			int err;

			if (c->insn < f->start || c->insn >= f->start + f->len)
				continue;
			err = apply_one(obj, prog, prog->pieces[pi].at + c->insn - f->start, c);
			if (err)
				return err;
		}
	}
	return 0;
}
