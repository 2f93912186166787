/* BTF-typed pointers: the type of a tracing program's ctx argument (tp_btf,
 * fentry/fexit, lsm) from the attach target's prototype in the target BTF,
 * and the type of a field loaded through a typed pointer (BTF walking), so
 * that `task->real_parent->tgid` is a pointer chain, not a scalar. */
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/btf.h>
#include <bpfgate/object.h>
#include "analysis/btfarg.h"

static const struct btf_type *skip_mods(const struct btf *b, uint32_t id, uint32_t *out_id)
{
	const struct btf_type *t = btf__type_by_id(b, id);
	while (t && (btf_is_typedef(t) || btf_is_mod(t))) {
		id = t->type;
		t = btf__type_by_id(b, id);
	}
	if (out_id)
		*out_id = id;
	return t;
}

/* Pointer type id -> name of the pointed struct/union, or NULL. */
static const char *ptr_struct_name(const struct btf *b, uint32_t type_id, bool *is_ptr)
{
	const struct btf_type *t = skip_mods(b, type_id, NULL);
	*is_ptr = t && btf_is_ptr(t);
	if (!*is_ptr)
		return NULL;
	const struct btf_type *pt = skip_mods(b, t->type, NULL);
	if (!pt || !btf_is_composite(pt))
		return NULL;
	return btf__name_by_offset(b, pt->name_off);
}

static const struct btf_type *func_proto_of(const struct btf *b, const char *target, uint32_t atype,
					    int *skip)
{
	char name[256];
	*skip = 0;
	if (atype == BPF_TRACE_RAW_TP) {
		snprintf(name, sizeof(name), "btf_trace_%s", target);
		int id = btf__find_by_name_kind(b, name, BTF_KIND_TYPEDEF);
		if (id <= 0)
			return NULL;
		const struct btf_type *t = skip_mods(b, (uint32_t)id, NULL);
		if (!t || !btf_is_ptr(t))
			return NULL;
		t = skip_mods(b, t->type, NULL);
		*skip = 1; /* void *__data */
		return t && btf_is_func_proto(t) ? t : NULL;
	}
	int id = btf__find_by_name_kind(b, target, BTF_KIND_FUNC);
	if (id <= 0)
		return NULL;
	const struct btf_type *f = btf__type_by_id(b, (uint32_t)id);
	const struct btf_type *t = f ? btf__type_by_id(b, f->type) : NULL;
	return t && btf_is_func_proto(t) ? t : NULL;
}

bool btf_ctx_arg(const struct bg_program *prog, int off, const char **name, bool *is_ptr)
{
	*name = NULL;
	*is_ptr = false;
	const struct btf *b = bg_object__target_btf(bg_program__object(prog));
	const char *target = bg_program__attach_target(prog);
	uint32_t atype = bg_program__attach_type(prog);
	if (!b || !target || off % 8)
		return false;
	int skip;
	const struct btf_type *fp = func_proto_of(b, target, atype, &skip);
	if (!fp)
		return false;
	int idx = off / 8 + skip;
	const struct btf_param *p = btf_params(fp);
	if (idx >= btf_vlen(fp)) {
		if ((atype == BPF_TRACE_FEXIT || atype == BPF_MODIFY_RETURN) && idx == btf_vlen(fp)) {
			*name = ptr_struct_name(b, fp->type, is_ptr);
			return true;
		}
		return false;
	}
	*name = ptr_struct_name(b, p[idx].type, is_ptr);
	return true;
}

/* Member of struct `sid` covering byte `off`: recurse into embedded structs. */
static int walk(const struct btf *b, uint32_t sid, uint32_t off, uint32_t size, const char **name,
		bool *is_ptr, int depth)
{
	const struct btf_type *t = skip_mods(b, sid, &sid);
	if (!t || !btf_is_composite(t) || depth > 16)
		return -1;
	const struct btf_member *m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
		uint32_t moff = btf_member_bit_offset(t, i) / 8;
		uint32_t mid;
		const struct btf_type *mt = skip_mods(b, m->type, &mid);
		if (!mt)
			continue;
		int64_t msz = btf__resolve_size(b, mid);
		if (msz <= 0 || off < moff || off >= moff + (uint64_t)msz)
			continue;
		if (btf_is_composite(mt) && walk(b, mid, off - moff, size, name, is_ptr, depth + 1) == 0)
			return 0;
		if (btf_is_ptr(mt) && off == moff && size == 8) {
			*name = ptr_struct_name(b, mid, is_ptr);
			return 0;
		}
		*is_ptr = false;
		*name = NULL;
		return 0;
	}
	return -1;
}

bool btf_field_load(const struct bg_program *prog, const char *sname, int off, int size,
		    const char **name, bool *is_ptr)
{
	*name = NULL;
	*is_ptr = false;
	const struct btf *b = bg_object__target_btf(bg_program__object(prog));
	if (!b || !sname || off < 0)
		return false;
	int id = btf__find_by_name_kind(b, sname, BTF_KIND_STRUCT);
	if (id <= 0)
		id = btf__find_by_name_kind(b, sname, BTF_KIND_UNION);
	if (id <= 0)
		return false;
	return walk(b, (uint32_t)id, (uint32_t)off, (uint32_t)size, name, is_ptr, 0) == 0;
}

int btf_global_params(const struct bg_program *prog, size_t insn, struct gparam *out)
{
	const struct btf *b = bg_object__btf(bg_program__object(prog));
	uint32_t tid = 0;
	for (size_t i = 0; i < bg_program__func_cnt(prog); i++)
		if (bg_program__func(prog, i)->insn == insn)
			tid = bg_program__func(prog, i)->btf_type_id;
	if (!b || !tid)
		return -1;
	const struct btf_type *f = btf__type_by_id(b, tid);
	const struct btf_type *fp = f ? btf__type_by_id(b, f->type) : NULL;
	if (!fp || !btf_is_func_proto(fp))
		return -1;
	int n = btf_vlen(fp);
	const struct btf_param *p = btf_params(fp);
	for (int i = 0; i < n && i < 5; i++) {
		uint32_t id;
		const struct btf_type *t = skip_mods(b, p[i].type, &id);
		out[i].kind = GP_SCALAR;
		out[i].size = 0;
		out[i].name = NULL;
		if (!t || !btf_is_ptr(t))
			continue;
		uint32_t pid;
		const struct btf_type *pt = skip_mods(b, t->type, &pid);
		out[i].kind = GP_MEM;
		out[i].name = pt && btf_is_composite(pt) ? btf__name_by_offset(b, pt->name_off) : NULL;
		int64_t sz = pt ? btf__resolve_size(b, pid) : -1;
		out[i].size = sz > 0 ? (uint32_t)sz : 0;
	}
	return n > 5 ? 5 : n;
}
