/* BTF-typed pointers: the type of a tracing program's ctx argument (tp_btf,
 * fentry/fexit, lsm) from the attach target's prototype in the target BTF,
 * and the type of a field loaded through a typed pointer (BTF walking), so
 * that `task->real_parent->tgid` is a pointer chain, not a scalar. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <bpf/btf.h>
#include <bpfgate/object.h>
#include "analysis/btfarg.h"
#include "platform/ctx.h"
#include "platform/helpers.h"
#include "obj/btftype.h"
#include "obj/tfind.h"

/* Pointer type id -> name of the pointed struct/union, or NULL. */
static const char *ptr_struct_name(const struct btf *b, uint32_t type_id, bool *is_ptr)
{
	const struct btf_type *t = obj_btf_skip_mods(b, type_id, NULL);
	*is_ptr = t && btf_is_ptr(t);
	if (!*is_ptr)
		return NULL;
	const struct btf_type *pt = obj_btf_skip_mods(b, t->type, NULL);
	if (!pt || !btf_is_composite(pt))
		return NULL;
	return btf__name_by_offset(b, pt->name_off);
}

/* struct_ops "STRUCT:MEMBER": the prototype of the member's function pointer. */
static const struct btf_type *member_proto(const struct bg_object *o, const struct btf *b,
					  const char *target)
{
	char sname[256];
	const char *colon = strchr(target, ':');
	if (!colon || (size_t)(colon - target) >= sizeof(sname))
		return NULL;
	memcpy(sname, target, colon - target);
	sname[colon - target] = 0;
	int id = obj_target_lookup(o, sname, BTF_KIND_STRUCT);
	const struct btf_type *st = id > 0 ? btf__type_by_id(b, (uint32_t)id) : NULL;
	if (!st)
		return NULL;
	const struct btf_member *m = btf_members(st);
	for (uint16_t i = 0; i < btf_vlen(st); i++, m++) {
		if (strcmp(btf__name_by_offset(b, m->name_off), colon + 1))
			continue;
		const struct btf_type *t = obj_btf_skip_mods(b, m->type, NULL);
		t = t && btf_is_ptr(t) ? obj_btf_skip_mods(b, t->type, NULL) : NULL;
		return t && btf_is_func_proto(t) ? t : NULL;
	}
	return NULL;
}

static const struct btf_type *func_proto_of(const struct bg_object *o, const struct btf *b,
					    const char *target, uint32_t atype, int *skip)
{
	char name[256];
	*skip = 0;
	if (strchr(target, ':'))
		return member_proto(o, b, target);
	if (atype == BPF_TRACE_RAW_TP) {
		snprintf(name, sizeof(name), "btf_trace_%s", target);
		int id = obj_target_lookup(o, name, BTF_KIND_TYPEDEF);
		if (id <= 0)
			return NULL;
		const struct btf_type *t = obj_btf_skip_mods(b, (uint32_t)id, NULL);
		if (!t || !btf_is_ptr(t))
			return NULL;
		t = obj_btf_skip_mods(b, t->type, NULL);
		*skip = 1; /* void *__data */
		return t && btf_is_func_proto(t) ? t : NULL;
	}
	/* LSM programs attach to the hook's bpf_lsm_ stub (the section names
	 * the hook; libbpf and the kernel's attach_btf_id add the prefix) */
	if ((atype == BPF_LSM_MAC || atype == BPF_LSM_CGROUP) && strncmp(target, "bpf_lsm_", 8)) {
		snprintf(name, sizeof(name), "bpf_lsm_%s", target);
		target = name;
	}
	int id = obj_target_lookup(o, target, BTF_KIND_FUNC);
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
	const struct bg_object *o = bg_program__object(prog);
	const struct btf *b = bg_object__target_btf(o);
	const char *target = bg_program__attach_target(prog);
	uint32_t atype = bg_program__attach_type(prog);
	if (!b || !target || off % 8)
		return false;
	int skip;
	const struct btf_type *fp = func_proto_of(o, b, target, atype, &skip);
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
	*name = btf_stops_promote(prog, ptr_struct_name(b, p[idx].type, is_ptr));
	return true;
}

int btf_target_ret(const struct bg_program *prog, int *nargs)
{
	const struct bg_object *o = bg_program__object(prog);
	const struct btf *b = bg_object__target_btf(o);
	const char *target = bg_program__attach_target(prog);
	int skip;
	const struct btf_type *fp = b && target ? func_proto_of(o, b, target, bg_program__attach_type(prog), &skip)
					       : NULL;
	if (!fp)
		return -1;
	*nargs = btf_vlen(fp) - skip;
	return fp->type ? 1 : 0;
}

/* Member of struct `sid` covering byte `off`: recurse into embedded structs.
 * For a pointer member read whole, *mname gets its name and *pid the type id
 * it points to (modifiers skipped), when those are asked for. */
static int walk_m(const struct btf *b, uint32_t sid, uint32_t off, uint32_t size, const char **name,
		  bool *is_ptr, const char **mname, uint32_t *pid, int depth)
{
	const struct btf_type *t = obj_btf_skip_mods(b, sid, &sid);
	if (!t || !btf_is_composite(t) || depth > 16)
		return -1;
	const struct btf_member *m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
		uint32_t moff = btf_member_bit_offset(t, i) / 8;
		uint32_t mid;
		const struct btf_type *mt = obj_btf_skip_mods(b, m->type, &mid);
		if (!mt)
			continue;
		int64_t msz = btf__resolve_size(b, mid);
		if (msz <= 0 || off < moff || off >= moff + (uint64_t)msz)
			continue;
		if (btf_is_composite(mt) &&
		    walk_m(b, mid, off - moff, size, name, is_ptr, mname, pid, depth + 1) == 0)
			return 0;
		if (btf_is_ptr(mt) && off == moff && size == 8) {
			*name = ptr_struct_name(b, mid, is_ptr);
			if (mname)
				*mname = btf__name_by_offset(b, m->name_off);
			if (pid)
				obj_btf_skip_mods(b, mt->type, pid);
			return 0;
		}
		*is_ptr = false;
		*name = NULL;
		return 0;
	}
	return -1;
}

static int walk(const struct btf *b, uint32_t sid, uint32_t off, uint32_t size, const char **name,
		bool *is_ptr, int depth)
{
	return walk_m(b, sid, off, size, name, is_ptr, NULL, NULL, depth);
}

/* btf_struct_walk's refusals of an access of size bytes at off of struct
 * sid: 1 a scalar member (or array of scalars) read past its end, 2 a
 * pointer member read partially; 0 neither, or a case not modelled (holes,
 * bitfields, offsets past the struct). */
static int walk_check(const struct btf *b, uint32_t sid, uint32_t off, uint32_t size, char *why, size_t n,
		      int depth)
{
	const struct btf_type *t = obj_btf_skip_mods(b, sid, &sid);
	if (!t || !btf_is_composite(t) || depth > 16)
		return 0;
	const char *tname = btf__name_by_offset(b, t->name_off);
	const struct btf_member *m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
		uint32_t moff = btf_member_bit_offset(t, i) / 8, mid;
		if (off + size <= moff)
			break;
		if (btf_member_bitfield_size(t, i)) {
			/* covered whole: a scalar; else another member (as the kernel) */
			uint32_t end_bit = btf_member_bit_offset(t, i) + btf_member_bitfield_size(t, i);
			if (off <= moff && (end_bit + 7) / 8 <= off + size)
				return 0;
			continue;
		}
		if (off < moff)
			break;
		const struct btf_type *mt = obj_btf_skip_mods(b, m->type, &mid);
		int64_t msz = mt ? btf__resolve_size(b, mid) : -1;
		if (msz < 0)
			return 0;
		uint32_t end = moff + (uint32_t)msz;
		if (off >= end)
			continue;
		if (btf_is_array(mt)) {
			/* linearised: the element the access starts in, the
			 * member's true end kept (an int array is scratch space) */
			if (moff == end)
				continue;
			uint32_t eid = mid;
			const struct btf_type *et = mt;
			for (int d = 0; et && btf_is_array(et) && d < 8; d++)
				et = obj_btf_skip_mods(b, btf_array(et)->type, &eid);
			int64_t esz = et ? btf__resolve_size(b, eid) : -1;
			if (esz <= 0)
				return 0;
			moff += (off - moff) / (uint32_t)esz * (uint32_t)esz;
			mt = et, mid = eid, msz = esz;
		}
		if (btf_is_composite(mt))
			return off == moff ? walk_check(b, mid, 0, size, why, n, depth + 1)
					   : walk_check(b, mid, off - moff, size, why, n, depth + 1);
		const char *mname = btf__name_by_offset(b, m->name_off);
		if (btf_is_ptr(mt)) {
			if ((uint32_t)msz == size && off == moff)
				return 0;
			snprintf(why, n, "cannot access ptr member %s with moff %u in struct %s with off %u size %u",
				 mname ? mname : "", moff, tname ? tname : "", off, size);
			return 2;
		}
		if (off + size > end) {
			snprintf(why, n, "access beyond the end of member %s (mend:%u) in struct %s with off %u size %u",
				 mname ? mname : "", end, tname ? tname : "", off, size);
			return 1;
		}
		return 0;
	}
	return 0;
}

int btf_field_check(const struct bg_program *prog, const char *sname, int off, int size, char *why, size_t n)
{
	const struct bg_object *o = bg_program__object(prog);
	const struct btf *b = bg_object__target_btf(o);
	if (!b || !sname || off < 0 || size <= 0)
		return 0;
	int id = obj_target_lookup(o, sname, BTF_KIND_STRUCT);
	if (id <= 0)
		id = obj_target_lookup(o, sname, BTF_KIND_UNION);
	if (id <= 0)
		return 0;
	return walk_check(b, (uint32_t)id, (uint32_t)off, (uint32_t)size, why, n, 0);
}

bool btf_field_load(const struct bg_program *prog, const char *sname, int off, int size,
		    const char **name, bool *is_ptr)
{
	*name = NULL;
	*is_ptr = false;
	const struct bg_object *o = bg_program__object(prog);
	const struct btf *b = bg_object__target_btf(o);
	if (!b || !sname || off < 0)
		return false;
	int id = obj_target_lookup(o, sname, BTF_KIND_STRUCT);
	if (id <= 0)
		id = obj_target_lookup(o, sname, BTF_KIND_UNION);
	if (id <= 0)
		return false;
	return walk(b, (uint32_t)id, (uint32_t)off, (uint32_t)size, name, is_ptr, 0) == 0;
}

const char *btf_field_name(const struct bg_program *prog, const char *sname, int off)
{
	const struct bg_object *o = bg_program__object(prog);
	const struct btf *b = bg_object__target_btf(o);
	const char *tn = NULL, *mname = NULL;
	bool isp = false;
	if (!b || !sname || off < 0)
		return NULL;
	int id = obj_target_lookup(o, sname, BTF_KIND_STRUCT);
	if (id <= 0 || walk_m(b, (uint32_t)id, (uint32_t)off, 8, &tn, &isp, &mname, NULL, 0) != 0)
		return NULL;
	return mname;
}

/* The kernel's allow-lists of pointer members that keep their base's trust
 * (BTF_TYPE_SAFE_TRUSTED, _TRUSTED_OR_NULL, _RCU, _RCU_OR_NULL in
 * kernel/bpf/verifier.c) are emitted into the kernel's BTF as structs named
 * "<struct>__safe_trusted" etc., whose pointer members name the fields: read
 * them there, as btf_nested_type_is_trusted does (member name and pointed
 * type both match). */
int btf_field_safety(const struct bg_program *prog, const char *sname, int off)
{
	static const char *const sfx[] = { NULL, "__safe_trusted", "__safe_trusted_or_null", "__safe_rcu",
					   "__safe_rcu_or_null" };
	const struct bg_object *o = bg_program__object(prog);
	const struct btf *b = bg_object__target_btf(o);
	const char *tn = NULL, *mname = NULL;
	bool isp = false;
	uint32_t pid = 0;
	if (!b || !sname || off < 0)
		return BTF_SAFE_NONE;
	int id = obj_target_lookup(o, sname, BTF_KIND_STRUCT);
	if (id <= 0 || walk_m(b, (uint32_t)id, (uint32_t)off, 8, &tn, &isp, &mname, &pid, 0) != 0 || !isp ||
	    !mname || !pid)
		return BTF_SAFE_NONE;
	for (int k = BTF_SAFE_TRUSTED; k <= BTF_SAFE_RCU_OR_NULL; k++) {
		char safe[160];
		if ((size_t)snprintf(safe, sizeof(safe), "%s%s", sname, sfx[k]) >= sizeof(safe))
			continue;
		int sid = obj_target_lookup(o, safe, BTF_KIND_STRUCT);
		const struct btf_type *st = sid > 0 ? btf__type_by_id(b, (uint32_t)sid) : NULL;
		if (!st || !btf_is_composite(st))
			continue;
		const struct btf_member *m = btf_members(st);
		for (uint16_t i = 0; i < btf_vlen(st); i++, m++) {
			const struct btf_type *mt = btf__type_by_id(b, m->type);
			uint32_t want = 0;
			if (!mt || !btf_is_ptr(mt))
				continue;
			obj_btf_skip_mods(b, mt->type, &want);
			if (want == pid && !strcmp(btf__name_by_offset(b, m->name_off), mname))
				return k;
		}
	}
	return BTF_SAFE_NONE;
}

/* The struct (or union) `name` of the target BTF, or 0. */
static uint32_t target_struct(const struct bg_object *o, const char *name)
{
	int id = obj_target_lookup(o, name, BTF_KIND_STRUCT);
	if (id <= 0)
		id = obj_target_lookup(o, name, BTF_KIND_UNION);
	return id > 0 ? (uint32_t)id : 0;
}

/* The type of the member at byte 0 of composite sid when it is a struct or
 * union (an array of them: the element type), as btf_struct_walk finds it
 * for a one-byte access at offset 0 (WALK_STRUCT); 0 otherwise. */
static uint32_t first_struct_member(const struct btf *b, uint32_t sid)
{
	const struct btf_type *t = obj_btf_skip_mods(b, sid, &sid);
	if (!t || !btf_is_composite(t))
		return 0;
	const struct btf_member *m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
		uint32_t moff = btf_member_bit_offset(t, i) / 8;
		if (moff > 0)
			return 0;
		if (btf_member_bitfield_size(t, i)) {
			if ((btf_member_bit_offset(t, i) + btf_member_bitfield_size(t, i) + 7) / 8 <= 1)
				return 0; /* WALK_SCALAR */
			continue;
		}
		int64_t msz = btf__resolve_size(b, m->type);
		if (msz <= 0)
			continue; /* empty: no overlap with byte 0 */
		uint32_t mid;
		const struct btf_type *mt = obj_btf_skip_mods(b, m->type, &mid);
		while (mt && btf_is_array(mt))
			mt = obj_btf_skip_mods(b, btf_array(mt)->type, &mid);
		return mt && btf_is_composite(mt) ? mid : 0;
	}
	return 0;
}

int btf_struct_match(const struct bg_program *prog, const char *have, const char *want, bool strict)
{
	const struct bg_object *o = bg_program__object(prog);
	const struct btf *b = bg_object__target_btf(o);
	if (!b || !have || !want)
		return -1;
	uint32_t hid = target_struct(o, have), wid = target_struct(o, want);
	if (!hid || !wid)
		return -1;
	if (hid == wid)
		return 1;
	if (strict)
		return 0;
	for (int depth = 0; depth < 32; depth++) {
		hid = first_struct_member(b, hid);
		if (!hid)
			return 0;
		if (hid == wid)
			return 1;
	}
	return -1;
}

bool btf_nocast_alias(const char *a, const char *b)
{
	static const char sfx[] = "___init";
	size_t la = strlen(a), lb = strlen(b), k = sizeof(sfx) - 1;
	if (la + k == lb)
		return !strncmp(a, b, la) && !strcmp(b + la, sfx);
	if (lb + k == la)
		return !strncmp(a, b, lb) && !strcmp(a + lb, sfx);
	return false;
}

/* The kernel's btf_is_prog_ctx_type: is the pointer type ptr (object BTF)
 * the ctx of prog_type by name? */
static bool is_prog_ctx_type(const struct btf *b, const struct btf_type *ptr, uint32_t prog_type)
{
	const char *under;
	const char *ctx = bg_prog_ctx_btf(prog_type, &under, NULL);
	const struct btf_type *t = btf__type_by_id(b, ptr->type);
	if (prog_type == BPF_PROG_TYPE_KPROBE) {
		while (t && btf_is_mod(t))
			t = btf__type_by_id(b, t->type);
		if (t && btf_is_typedef(t)) {
			const char *n = btf__name_by_offset(b, t->name_off);
			if (n && !strcmp(n, "bpf_user_pt_regs_t"))
				return true;
		}
	}
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(b, t->type);
	if (!t || !btf_is_composite(t) || !ctx)
		return false;
	const char *n = btf__name_by_offset(b, t->name_off);
	if (!n)
		return false;
	const char *kern = bg_ctx_kernel_struct(ctx);
	if (kern && !strcmp(kern, n))
		return true;
	return !strcmp(ctx, n) || (under && !strcmp(under, n));
}

/* The kernel's btf_validate_prog_ctx_type for an `arg:ctx` argument. */
static const char *validate_ctx_tag(const struct btf *b, const struct btf_type *ptr, uint32_t prog_type,
				    uint32_t atype)
{
	static __thread char why[160]; /* per thread: verifications run in parallel threads */
	const struct btf_type *t = btf__type_by_id(b, ptr->type);
	if (prog_type == BPF_PROG_TYPE_KPROBE || prog_type == BPF_PROG_TYPE_PERF_EVENT) {
		while (t && btf_is_mod(t))
			t = btf__type_by_id(b, t->type);
		const char *n = t && btf_is_typedef(t) ? btf__name_by_offset(b, t->name_off) : NULL;
		if (n && !strcmp(n, "bpf_user_pt_regs_t"))
			return NULL;
	}
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(b, t->type);
	if (!t || btf_kind(t) == BTF_KIND_UNKN) /* void */
		return NULL;
	const char *n = btf__name_by_offset(b, t->name_off);
	if (!n || !*n)
		return "arg type doesn't have a name";
	bool st = btf_is_struct(t), u64 = btf_is_int(t) && t->size == 8;
	switch (prog_type) {
	case BPF_PROG_TYPE_KPROBE:
	case BPF_PROG_TYPE_PERF_EVENT: /* x86-64: bpf_user_pt_regs_t is struct pt_regs */
		if (st && !strcmp(n, "pt_regs"))
			return NULL;
		break;
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE:
	case BPF_PROG_TYPE_LSM:
	case BPF_PROG_TYPE_STRUCT_OPS:
		if (u64)
			return NULL;
		break;
	case BPF_PROG_TYPE_TRACING:
		if (atype == BPF_TRACE_RAW_TP && ((st && !strcmp(n, "bpf_raw_tracepoint_args")) || u64))
			return NULL;
		if (atype == BPF_TRACE_ITER && st && !strncmp(n, "bpf_iter__", 10))
			return NULL;
		if ((atype == BPF_TRACE_FENTRY || atype == BPF_TRACE_FEXIT || atype == BPF_MODIFY_RETURN) && u64)
			return NULL;
		break;
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_SYSCALL:
	case BPF_PROG_TYPE_EXT:
		return NULL; /* anything goes */
	default:
		break;
	}
	const char *under;
	const char *ctx = bg_prog_ctx_btf(prog_type, &under, NULL);
	if (under)
		ctx = under;
	if (!ctx)
		return "arg should be void pointer";
	if (!st || strcmp(ctx, n)) {
		snprintf(why, sizeof(why), "arg should be `struct %s *`", ctx);
		return why;
	}
	return NULL;
}

/* The kernel struct a program's struct type stands for (CO-RE: its name
 * without a ___flavour suffix), named by the target BTF's string; NULL when
 * the kernel has none. */
static const char *kernel_struct(const struct bg_program *prog, const struct btf_type *pt, const char *pn)
{
	const struct bg_object *o = bg_program__object(prog);
	const struct btf *kb = bg_object__target_btf(o);
	char name[128];
	if (!kb || !pt || !btf_is_composite(pt) || !pn || !*pn)
		return NULL;
	const char *fl = strstr(pn, "___");
	size_t len = fl ? (size_t)(fl - pn) : strlen(pn);
	if (len >= sizeof(name))
		return NULL;
	memcpy(name, pn, len);
	name[len] = 0;
	int id = obj_target_lookup(o, name, btf_kind(pt));
	const struct btf_type *kt = id > 0 ? btf__type_by_id(kb, (uint32_t)id) : NULL;
	return kt ? btf__name_by_offset(kb, kt->name_off) : NULL;
}

enum { TAG_CTX = 1, TAG_NONNULL = 2, TAG_TRUSTED = 4, TAG_NULLABLE = 8, TAG_ARENA = 16, TAG_BAD = 32, TAG_UNTRUSTED = 64 };

/* `arg:` decl tags of parameter idx of FUNC fid ("untrusted" only when the
 * kernel knows it). */
static unsigned arg_tags(const struct btf *b, uint32_t fid, int idx, bool untrusted)
{
	unsigned tags = 0;
	for (uint32_t i = 1; i < btf__type_cnt(b); i++) {
		const struct btf_type *t = btf__type_by_id(b, i);
		if (!btf_is_decl_tag(t) || t->type != fid || btf_decl_tag(t)->component_idx != idx)
			continue;
		const char *n = btf__name_by_offset(b, t->name_off);
		if (!n || strncmp(n, "arg:", 4))
			continue;
		n += 4;
		tags |= !strcmp(n, "ctx") ? TAG_CTX
			: !strcmp(n, "nonnull") ? TAG_NONNULL
			: !strcmp(n, "trusted") ? TAG_TRUSTED
			: !strcmp(n, "nullable") ? TAG_NULLABLE
			: !strcmp(n, "arena") ? TAG_ARENA
			: !strcmp(n, "untrusted") && untrusted ? TAG_UNTRUSTED : TAG_BAD;
	}
	return tags;
}

int btf_global_params(const struct bg_program *prog, size_t insn, unsigned flags, struct gparam *out,
		      const char **why)
{
	static __thread char buf[200]; /* per thread, as why above */
	const struct btf *b = bg_object__btf(bg_program__object(prog));
	uint32_t tid = 0;
	*why = NULL;
	for (size_t i = 0; i < bg_program__func_cnt(prog); i++)
		if (bg_program__func(prog, i)->insn == insn)
			tid = bg_program__func(prog, i)->btf_type_id;
	if (!b || !tid)
		return -1;
	const struct btf_type *f = btf__type_by_id(b, tid);
	const struct btf_type *fp = f ? btf__type_by_id(b, f->type) : NULL;
	if (!fp || !btf_is_func_proto(fp))
		return -1;
	const char *fname = btf__name_by_offset(b, f->name_off);
	uint32_t ptype = bg_program__type(prog), atype = bg_program__attach_type(prog);
	int n = btf_vlen(fp);
	const struct btf_param *p = btf_params(fp);
	if (n > 5) {
		snprintf(buf, sizeof(buf), "Global function %s() with %d > 5 args. Buggy compiler.", fname, n);
		*why = buf;
		return -2;
	}
	const struct btf_type *rt = obj_btf_skip_mods(b, fp->type, NULL);
	bool tagged = flags & GP_TAGGED;
	if (!(fp->type == 0 && (flags & GP_VOID_RET)) && (!rt || !(btf_is_int(rt) || btf_is_any_enum(rt)))) {
		snprintf(buf, sizeof(buf), "Global function %s() doesn't return scalar. Only those are supported.",
			 fname);
		*why = buf;
		return -2;
	}
	for (int i = 0; i < n; i++) {
		/* before 6.8: by type alone */
		unsigned tags = tagged ? arg_tags(b, tid, i, flags & GP_UNTRUSTED_TAG) : 0;
		const char *bad = NULL;
		memset(&out[i], 0, sizeof(out[i]));
		uint32_t id;
		const struct btf_type *t = obj_btf_skip_mods(b, p[i].type, &id);
		if (tags & TAG_BAD)
			bad = "has unsupported set of tags";
		else if (t && btf_is_ptr(t)) {
			uint32_t pid;
			const struct btf_type *pt = obj_btf_skip_mods(b, t->type, &pid);
			const char *pn = pt ? btf__name_by_offset(b, pt->name_off) : NULL;
			if ((tags & TAG_CTX) || is_prog_ctx_type(b, t, ptype)) {
				if (tags & ~TAG_CTX)
					bad = "has invalid combination of tags";
				else if (tags & TAG_CTX)
					bad = validate_ctx_tag(b, t, ptype, atype);
				out[i].kind = GP_CTX;
			} else if (pt && btf_is_struct(pt) && pn && !strcmp(pn, "bpf_dynptr")) {
				if (tags)
					bad = "has invalid combination of tags";
				out[i].kind = GP_DYNPTR;
			} else if (tags & TAG_UNTRUSTED) {
				/* void or primitive pointee: read-only untrusted memory */
				bool prim = !pt || btf_is_void(pt) || btf_is_int(pt) || btf_is_any_enum(pt) ||
					    btf_is_float(pt) || pid == 0;
				if (tags & ~TAG_UNTRUSTED)
					bad = "untrusted cannot be combined with any other tags";
				else if (!prim && !(out[i].name = kernel_struct(prog, pt, pn)))
					bad = "reference type has no matches";
				out[i].kind = GP_UNTRUSTED;
			} else if (tags & TAG_TRUSTED) {
				if (tags & TAG_NONNULL)
					bad = "has invalid combination of tags";
				else if (!(out[i].name = kernel_struct(prog, pt, pn)))
					bad = "reference type has no matches";
				out[i].kind = GP_BTF;
				out[i].nullable = tags & TAG_NULLABLE;
			} else if (tags & TAG_ARENA) {
				if (tags & ~TAG_ARENA)
					bad = "arena cannot be combined with any other tags";
				out[i].kind = GP_ARENA;
			} else if (tags & TAG_NULLABLE) {
				bad = "has invalid combination of tags";
			} else {
				/* void *: no bytes (btf_resolve_size gives void size 0) */
				int64_t sz = pid == 0 ? 0 : pt ? btf__resolve_size(b, pid) : -1;
				if (sz < 0)
					bad = "reference type size cannot be determined";
				out[i].kind = GP_MEM;
				/* before 6.8 btf_resolve_size refuses void (no size) */
				out[i].unsized = pid == 0 && !tagged;
				out[i].nullable = !(tags & TAG_NONNULL);
				out[i].name = pt && btf_is_composite(pt) ? pn : NULL;
				out[i].size = sz > 0 ? (uint32_t)sz : 0;
			}
		} else if (tags) {
			bad = "has pointer tag, but is not a pointer type";
		} else if (!t || !(btf_is_int(t) || btf_is_any_enum(t))) {
			snprintf(buf, sizeof(buf), "Arg#%d type %s in %s() is not supported yet.", i,
				 t && btf_is_composite(t) ? "STRUCT" : "?", fname);
			*why = buf;
			return -2;
		}
		if (bad) {
			snprintf(buf, sizeof(buf), "arg#%d %s", i, bad);
			*why = buf;
			return -2;
		}
	}
	return n;
}

/* The BTF prototype of the subprogram starting at insn (its func_info), or
 * NULL; *bp: the object's BTF. */
static const struct btf_type *subprog_proto(const struct bg_program *prog, size_t insn, const struct btf **bp)
{
	const struct btf *b = bg_object__btf(bg_program__object(prog));
	uint32_t tid = 0;
	for (size_t i = 0; i < bg_program__func_cnt(prog); i++)
		if (bg_program__func(prog, i)->insn == insn)
			tid = bg_program__func(prog, i)->btf_type_id;
	const struct btf_type *f = b && tid ? btf__type_by_id(b, tid) : NULL;
	const struct btf_type *fp = f ? btf__type_by_id(b, f->type) : NULL;
	*bp = b;
	return fp && btf_is_func_proto(fp) ? fp : NULL;
}

int btf_func_ret_scalar(const struct bg_program *prog, size_t insn)
{
	const struct btf *b;
	const struct btf_type *fp = subprog_proto(prog, insn, &b);
	if (!fp)
		return -1;
	const struct btf_type *rt = obj_btf_skip_mods(b, fp->type, NULL);
	return rt && ((btf_is_int(rt) && rt->size <= 8) || btf_is_any_enum(rt));
}

bool btf_func_ret_void(const struct bg_program *prog, size_t insn)
{
	const struct btf *b;
	const struct btf_type *fp = subprog_proto(prog, insn, &b);
	return fp && fp->type == 0;
}

/* ------------------------------------------------------------ kptr fields */

/* typedefs, const, volatile, restrict: not type tags (they carry "kptr") */
static const struct btf_type *skip_quals(const struct btf *b, uint32_t *id)
{
	const struct btf_type *t = btf__type_by_id(b, *id);
	while (t && (btf_is_typedef(t) || btf_is_const(t) || btf_is_volatile(t) || btf_is_restrict(t))) {
		*id = t->type;
		t = btf__type_by_id(b, *id);
	}
	return t;
}

enum { KPTR_NONE = BTF_KPTR_NONE, KPTR_REF = BTF_KPTR_REF, KPTR_UNTRUSTED = BTF_KPTR_UNTRUSTED,
       KPTR_PERCPU = BTF_KPTR_PERCPU, KPTR_UPTR = BTF_KPTR_UPTR };

static const struct {
	const char *tag;
	int kind;
	uint32_t since, until;
} kptr_tags[] = {
#define BG_KPTR_TAG(t, k, s, u) {t, k, s, u},
#include "platform/kptr_tags.def"
#undef BG_KPTR_TAG
};

/* A kptr tag of another release: btf_find_kptr refuses the value's BTF
 * (-EINVAL), the map is made without it (libbpf's retry) and has no kptr. */
#define KPTR_BAD (-1)

/* What a type tag makes of a pointer field on kernel kver (0: the newest). */
static int kptr_tag_kind(const char *tn, uint32_t kver)
{
	bool known = false;
	for (size_t i = 0; tn && i < sizeof(kptr_tags) / sizeof(kptr_tags[0]); i++) {
		if (strcmp(tn, kptr_tags[i].tag))
			continue;
		known = true;
		if ((!kver || kver >= kptr_tags[i].since) && (!kptr_tags[i].until || (kver && kver < kptr_tags[i].until)))
			return kptr_tags[i].kind;
	}
	return known && (!kver || kver >= BG_KVER(5, 19)) ? KPTR_BAD : KPTR_NONE;
}

/* The kind of kptr field at off (KPTR_*) on kernel kver, its struct in *name. */
static int kptr_in(const struct btf *b, uint32_t id, int64_t off, int depth, const char **name, uint32_t kver)
{
	const struct btf_type *t = skip_quals(b, &id);
	if (!t || depth > 8 || off < 0)
		return KPTR_NONE;
	if (btf_is_ptr(t)) {
		const struct btf_type *tag = btf__type_by_id(b, t->type);
		if (off != 0 || !tag || !btf_is_type_tag(tag))
			return KPTR_NONE;
		const char *tn = btf__name_by_offset(b, tag->name_off);
		int kind = kptr_tag_kind(tn, kver);
		const struct btf_type *st = obj_btf_skip_mods(b, tag->type, NULL);
		if (kind == KPTR_BAD)
			return KPTR_BAD;
		if (!kind || !st || !btf_is_composite(st))
			return KPTR_NONE;
		*name = btf__name_by_offset(b, st->name_off);
		return kind;
	}
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		int64_t esz = btf__resolve_size(b, a->type);
		if (esz <= 0 || off / esz >= a->nelems)
			return KPTR_NONE;
		return kptr_in(b, a->type, off % esz, depth + 1, name, kver);
	}
	if (btf_is_composite(t)) {
		const struct btf_member *m = btf_members(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
			int64_t mo = btf_member_bit_offset(t, i) / 8, msz = btf__resolve_size(b, m->type);
			if (msz > 0 && off >= mo && off < mo + msz)
				return kptr_in(b, m->type, off - mo, depth + 1, name, kver);
		}
		return KPTR_NONE;
	}
	if (btf_is_datasec(t)) {
		const struct btf_var_secinfo *vs = btf_var_secinfos(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++, vs++) {
			const struct btf_type *var = btf__type_by_id(b, vs->type);
			if (var && btf_is_var(var) && off >= vs->offset && off < (int64_t)vs->offset + vs->size)
				return kptr_in(b, var->type, off - vs->offset, depth + 1, name, kver);
		}
	}
	return KPTR_NONE;
}

/* Number of kptr fields in a type (arrays count each element), capped. */
static unsigned kptr_count(const struct btf *b, uint32_t id, int depth, uint32_t kver)
{
	const struct btf_type *t = skip_quals(b, &id);
	const char *name = NULL;
	if (!t || depth > 8)
		return 0;
	if (btf_is_ptr(t)) {
		int k = kptr_in(b, id, 0, depth, &name, kver);
		return k == KPTR_BAD ? 1000 : k != KPTR_NONE; /* a bad tag: more than any value may hold */
	}
	if (btf_is_array(t)) {
		unsigned n = kptr_count(b, btf_array(t)->type, depth + 1, kver);
		return n ? n * (btf_array(t)->nelems < 1000 ? btf_array(t)->nelems : 1000) : 0;
	}
	unsigned n = 0;
	if (btf_is_composite(t)) {
		const struct btf_member *m = btf_members(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++, m++)
			n += kptr_count(b, m->type, depth + 1, kver);
	} else if (btf_is_datasec(t)) {
		const struct btf_var_secinfo *vs = btf_var_secinfos(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++, vs++) {
			const struct btf_type *var = btf__type_by_id(b, vs->type);
			if (var && btf_is_var(var))
				n += kptr_count(b, var->type, depth + 1, kver);
		}
	}
	return n;
}

/* The kernel records at most this many special fields of a map value
 * (BTF_FIELDS_MAX); a value with more has none recorded: no kptr is valid. */
#define MAP_FIELDS_MAX 11

static int map_kptr_kind(const struct btf *b, uint32_t value_type_id, int off, const char **name, uint32_t kver)
{
	if (kptr_count(b, value_type_id, 0, kver) > MAP_FIELDS_MAX)
		return KPTR_NONE;
	return kptr_in(b, value_type_id, off, 0, name, kver);
}

/* Every kptr field of type id at base (arrays: each element), appended to
 * out up to max; the count found (may exceed max). */
static int kptr_walk(const struct btf *b, uint32_t id, int64_t base, int depth, struct btf_kptr_field *out,
		     int n, int max, uint32_t kver)
{
	const struct btf_type *t = skip_quals(b, &id);
	if (!t || depth > 8 || n > max)
		return n;
	if (btf_is_ptr(t)) {
		const char *name = NULL;
		int k = kptr_in(b, id, 0, depth, &name, kver);
		if (k == KPTR_BAD)
			return max + 1; /* the value has no kptr on kver */
		if (k != KPTR_NONE) {
			/* the pointee: past the type tag and modifiers */
			const struct btf_type *tag = btf__type_by_id(b, t->type);
			int64_t sz = tag ? btf__resolve_size(b, tag->type) : -1;
			if (n < max)
				out[n] = (struct btf_kptr_field){ (int)base, k, name, sz > 0 ? (uint32_t)sz : 0 };
			n++;
		}
		return n;
	}
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		int64_t esz = btf__resolve_size(b, a->type);
		for (uint32_t i = 0; esz > 0 && i < a->nelems && n <= max; i++) {
			int before = n;
			n = kptr_walk(b, a->type, base + (int64_t)i * esz, depth + 1, out, n, max, kver);
			if (n == before)
				break; /* no kptr in the element type */
		}
		return n;
	}
	if (btf_is_composite(t)) {
		const struct btf_member *m = btf_members(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++, m++)
			n = kptr_walk(b, m->type, base + btf_member_bit_offset(t, i) / 8, depth + 1, out, n, max, kver);
	} else if (btf_is_datasec(t)) {
		const struct btf_var_secinfo *vs = btf_var_secinfos(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++, vs++) {
			const struct btf_type *var = btf__type_by_id(b, vs->type);
			if (var && btf_is_var(var))
				n = kptr_walk(b, var->type, base + vs->offset, depth + 1, out, n, max, kver);
		}
	}
	return n;
}

int btf_map_kptr_fields(const struct bg_program *prog, uint32_t value_type_id, struct btf_kptr_field *out, int max,
			uint32_t kver)
{
	const struct btf *b = bg_object__btf(bg_program__object(prog));
	if (!b || !value_type_id)
		return 0;
	int n = kptr_walk(b, value_type_id, 0, 0, out, 0, max, kver);
	return n > MAP_FIELDS_MAX || n > max ? 0 : n;
}

int btf_map_kptr_kind(const struct bg_program *prog, uint32_t value_type_id, int off, const char **name,
		      uint32_t kver)
{
	const struct btf *b = bg_object__btf(bg_program__object(prog));
	if (!b || !value_type_id)
		return KPTR_NONE;
	return map_kptr_kind(b, value_type_id, off, name, kver);
}

int btf_map_is_kptr(const struct bg_program *prog, uint32_t value_type_id, int off, uint32_t kver)
{
	const struct btf *b = bg_object__btf(bg_program__object(prog));
	const char *name = NULL;
	if (!b || !value_type_id)
		return -1;
	return map_kptr_kind(b, value_type_id, off, &name, kver) != KPTR_NONE;
}

/* ---- struct_ops access rules (src/platform/stops.def) */
struct stops_arg {
	const char *ops, *from, *to;
};
struct stops_write {
	const char *ops, *ptr, *holder, *field;
	uint32_t since;
};
struct stops_member {
	const char *ops, *member;
};
#define STOPS_UNSUPPORTED(o, m)
#define STOPS_SLEEPABLE(o, m)
static const struct stops_arg stops_args[] = {
#define STOPS_ARG(o, f, t) {o, f, t},
#define STOPS_WRITE(o, p, h, f, v)
#include "platform/stops.def"
#undef STOPS_ARG
#undef STOPS_WRITE
};
static const struct stops_write stops_writes[] = {
#define STOPS_ARG(o, f, t)
#define STOPS_WRITE(o, p, h, f, v) {o, p, h, f, v},
#include "platform/stops.def"
#undef STOPS_ARG
#undef STOPS_WRITE
};
#undef STOPS_UNSUPPORTED
#undef STOPS_SLEEPABLE
#define STOPS_ARG(o, f, t)
#define STOPS_WRITE(o, p, h, f, v)
static const struct stops_member stops_unsupported[] = {
#define STOPS_UNSUPPORTED(o, m) {o, m},
#define STOPS_SLEEPABLE(o, m)
#include "platform/stops.def"
#undef STOPS_UNSUPPORTED
#undef STOPS_SLEEPABLE
};
static const struct stops_member stops_sleepable[] = {
#define STOPS_UNSUPPORTED(o, m)
#define STOPS_SLEEPABLE(o, m) {o, m},
#include "platform/stops.def"
#undef STOPS_UNSUPPORTED
#undef STOPS_SLEEPABLE
};
#undef STOPS_ARG
#undef STOPS_WRITE

bool btf_stops_member_ok(const struct bg_program *prog, bool sleepable)
{
	const char *t = bg_program__attach_target(prog);
	const char *colon = t ? strchr(t, ':') : NULL;
	if (bg_program__type(prog) != BPF_PROG_TYPE_STRUCT_OPS || !colon)
		return true;
	size_t n = (size_t)(colon - t);
	const char *m = colon + 1;
	for (size_t i = 0; i < sizeof(stops_unsupported) / sizeof(stops_unsupported[0]); i++)
		if (strlen(stops_unsupported[i].ops) == n && !strncmp(stops_unsupported[i].ops, t, n) &&
		    !strcmp(stops_unsupported[i].member, m))
			return false;
	if (!sleepable)
		return true;
	bool listed = false;
	for (size_t i = 0; i < sizeof(stops_sleepable) / sizeof(stops_sleepable[0]); i++) {
		if (strlen(stops_sleepable[i].ops) != n || strncmp(stops_sleepable[i].ops, t, n))
			continue;
		listed = true;
		if (!strcmp(stops_sleepable[i].member, m))
			return true;
	}
	return !listed;
}

/* The struct_ops type a program implements ("tcp_congestion_ops:init" -> its
 * first part, compared without copying). */
static bool stops_is(const struct bg_program *prog, const char *ops)
{
	const char *t = bg_program__attach_target(prog);
	size_t n = strlen(ops);
	return bg_program__type(prog) == BPF_PROG_TYPE_STRUCT_OPS && t && !strncmp(t, ops, n) &&
	       t[n] == ':';
}

const char *btf_stops_promote(const struct bg_program *prog, const char *name)
{
	for (size_t i = 0; name && i < sizeof(stops_args) / sizeof(stops_args[0]); i++)
		if (!strcmp(stops_args[i].from, name) && stops_is(prog, stops_args[i].ops))
			return stops_args[i].to;
	return name;
}

/* The byte range [lo, hi) of member `field` of struct `holder`; `field` may
 * name a member of a nested struct as "outer.inner" (icsk_ack.pending), or
 * be "" for the whole struct. *array: the member is an array or the whole
 * struct (a write may start at any byte of it). */
static bool member_range(const struct bg_object *o, const struct btf *b, const char *holder,
			 const char *field, uint32_t *lo, uint32_t *hi, bool *array)
{
	int id = obj_target_lookup(o, holder, BTF_KIND_STRUCT);
	const struct btf_type *st = id > 0 ? btf__type_by_id(b, (uint32_t)id) : NULL;
	uint32_t base = 0;
	if (st && !*field) { /* the whole struct */
		*array = true;
		*lo = 0;
		*hi = st->size;
		return true;
	}
	while (st && btf_is_composite(st)) {
		const char *dot = strchr(field, '.');
		size_t len = dot ? (size_t)(dot - field) : strlen(field);
		const struct btf_member *m = btf_members(st);
		uint16_t i = 0;
		for (; i < btf_vlen(st); i++, m++) {
			const char *mn = btf__name_by_offset(b, m->name_off);
			if (mn && strlen(mn) == len && !strncmp(mn, field, len))
				break;
		}
		if (i == btf_vlen(st) || btf_member_bitfield_size(st, i))
			return false;
		base += btf_member_bit_offset(st, i) / 8;
		if (dot) {
			field = dot + 1;
			int mt = btf__resolve_type(b, m->type);
			st = mt > 0 ? btf__type_by_id(b, (uint32_t)mt) : NULL;
			continue;
		}
		int64_t sz = btf__resolve_size(b, m->type);
		if (sz <= 0)
			return false;
		int mt = btf__resolve_type(b, m->type);
		const struct btf_type *t = mt > 0 ? btf__type_by_id(b, (uint32_t)mt) : NULL;
		*array = t && btf_is_array(t);
		*lo = base;
		*hi = base + (uint32_t)sz;
		return true;
	}
	return false;
}

bool btf_stops_writable(const struct bg_program *prog, const char *ptr, int64_t off, int size, uint32_t kver)
{
	const struct bg_object *o = bg_program__object(prog);
	const struct btf *b = bg_object__target_btf(o);
	uint32_t lo, hi;
	bool array;
	for (size_t i = 0; b && ptr && off >= 0 && i < sizeof(stops_writes) / sizeof(stops_writes[0]);
	     i++) {
		const struct stops_write *w = &stops_writes[i];
		if (strcmp(w->ptr, ptr) || !stops_is(prog, w->ops) || (kver && w->since > kver) ||
		    !member_range(o, b, w->holder, w->field, &lo, &hi, &array))
			continue;
		/* the kernel matches the start of the field exactly, except for an
		 * array (icsk_ca_priv, a range case), then bounds the end */
		if ((array ? (uint64_t)off >= lo : (uint64_t)off == lo) && (uint64_t)off + (uint64_t)size <= hi)
			return true;
	}
	return false;
}

/* ---- writes a program type's access callback allows (src/platform/btfwrite.def) */
static const struct {
	uint32_t prog_type;
	const char *ptr, *holder, *field;
} btf_writes[] = {
#define BTF_WRITE(t, p, h, f) {t, p, h, f},
#include "platform/btfwrite.def"
#undef BTF_WRITE
};

int btf_prog_writable(const struct bg_program *prog, const char *ptr, int64_t off, int size, char *why, size_t n)
{
	const struct bg_object *o = bg_program__object(prog);
	const struct btf *b = bg_object__target_btf(o);
	uint32_t lo, hi;
	bool array;
	for (size_t i = 0; b && ptr && i < sizeof(btf_writes) / sizeof(btf_writes[0]); i++) {
		if (btf_writes[i].prog_type != bg_program__type(prog) || strcmp(btf_writes[i].ptr, ptr))
			continue;
		const char *h = btf_writes[i].holder;
		if (!member_range(o, b, h, btf_writes[i].field, &lo, &hi, &array) || off != (int64_t)lo) {
			snprintf(why, n, "no write support to %s at off %" PRId64, h, off);
			return 0;
		}
		if (off + size > (int64_t)hi) {
			snprintf(why, n, "write access at off %" PRId64 " with size %d beyond the member of %s ended at %u",
				 off, size, h, hi);
			return 0;
		}
		return 1;
	}
	return -1;
}

bool btf_stops_arg_nullable(const struct bg_program *prog, int off)
{
	const struct bg_object *o = bg_program__object(prog);
	const struct btf *b = bg_object__target_btf(o);
	const char *t = bg_program__attach_target(prog);
	const char *colon = t ? strchr(t, ':') : NULL;
	char name[256];
	if (!b || !colon || off < 0 || off % 8 || bg_program__type(prog) != BPF_PROG_TYPE_STRUCT_OPS)
		return false;
	/* the kernel reads the flag from the ops' stub "STRUCT__MEMBER" */
	snprintf(name, sizeof(name), "%.*s__%s", (int)(colon - t), t, colon + 1);
	int id = obj_target_lookup(o, name, BTF_KIND_FUNC);
	const struct btf_type *f = id > 0 ? btf__type_by_id(b, (uint32_t)id) : NULL;
	const struct btf_type *fp = f ? btf__type_by_id(b, f->type) : NULL;
	if (!fp || !btf_is_func_proto(fp) || off / 8 >= btf_vlen(fp))
		return false;
	const char *pn = btf__name_by_offset(b, btf_params(fp)[off / 8].name_off);
	size_t n = pn ? strlen(pn) : 0, sn = strlen("__nullable");
	return n > sn && !strcmp(pn + n - sn, "__nullable");
}

bool btf_stops_void_ret(const struct bg_program *prog)
{
	const struct bg_object *o = bg_program__object(prog);
	const struct btf *b = bg_object__target_btf(o);
	const char *t = bg_program__attach_target(prog);
	if (!b || !t || bg_program__type(prog) != BPF_PROG_TYPE_STRUCT_OPS || !strchr(t, ':'))
		return false;
	const struct btf_type *fp = member_proto(o, b, t);
	return fp && fp->type == 0;
}
