/* struct_ops: which struct member each struct_ops program implements.
 *
 * A `SEC(".struct_ops[.link]") struct tcp_congestion_ops x = { .init = (void *)prog }`
 * variable is a struct in a data section whose function-pointer members are
 * R_BPF_64_ABS64 relocations against program symbols. The loader resolves each
 * relocation to (struct type name, member name) and records it as the
 * program's attach target "STRUCT:MEMBER": the verifier types the program's
 * arguments from that member's prototype in the target BTF, and the kernel
 * oracle loads the program with attach_btf_id = the struct's id and
 * expected_attach_type = the member's index, as libbpf does.
 * Invariants: only relocations that land exactly on a member of a variable of
 * the section bind a program; a program bound twice keeps the first binding
 * (the kernel needs one member per program load). Malformed relocations are
 * ignored here (the section is data the verifier does not read). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include "obj/internal.h"

static bool is_stops_sec(const char *name)
{
	return name && (!strcmp(name, ".struct_ops") || !strcmp(name, ".struct_ops.link"));
}

static const struct obj_sec *rel_of(const struct bg_object *obj, uint32_t idx)
{
	for (size_t i = 1; i < obj->nsecs; i++)
		if (obj->secs[i].kind == SEC_REL && obj->secs[i].info == idx)
			return &obj->secs[i];
	return NULL;
}

/* The variable of section sec covering offset off: its struct type (object BTF). */
static const struct btf_type *var_struct_at(const struct bg_object *obj, const struct obj_sec *sec,
					    uint64_t off, uint64_t *var_off)
{
	for (size_t i = 0; i < obj->nsyms; i++) {
		const struct obj_sym *y = &obj->syms[i];
		if (y->shndx != sec->idx || y->type != STT_OBJECT || !y->name || off < y->value ||
		    off >= y->value + y->size)
			continue;
		int id = btf__find_by_name_kind(obj->btf, y->name, BTF_KIND_VAR);
		const struct btf_type *t = id > 0 ? btf__type_by_id(obj->btf, (uint32_t)id) : NULL;
		uint32_t tid = t ? t->type : 0;
		t = tid ? btf__type_by_id(obj->btf, tid) : NULL;
		while (t && (btf_is_mod(t) || btf_is_typedef(t)))
			t = btf__type_by_id(obj->btf, t->type);
		if (!t || !btf_is_struct(t))
			return NULL;
		*var_off = y->value;
		return t;
	}
	return NULL;
}

static struct bg_program *prog_at(struct bg_object *obj, const struct obj_sym *sym)
{
	for (size_t i = 0; i < obj->nprogs; i++)
		if (!strcmp(obj->progs[i]->name, sym->name))
			return obj->progs[i];
	return NULL;
}

static int bind_one(struct bg_object *obj, const struct obj_sec *sec, const GElf_Rel *rel)
{
	uint32_t symi = GELF_R_SYM(rel->r_info);
	uint64_t var_off;
	if (symi >= obj->nsyms || rel->r_offset >= sec->size)
		return 0;
	struct bg_program *prog = prog_at(obj, &obj->syms[symi]);
	const struct btf_type *st = prog ? var_struct_at(obj, sec, rel->r_offset, &var_off) : NULL;
	/* a name after "struct_ops/" in the section is only a label (libbpf binds
	 * through this section); a "struct:member" target is bound already */
	if (!st || (prog->attach_target && strchr(prog->attach_target, ':')) ||
	    bg_program__type(prog) != BPF_PROG_TYPE_STRUCT_OPS)
		return 0;
	const struct btf_member *m = btf_members(st);
	for (uint16_t i = 0; i < btf_vlen(st); i++, m++) {
		if (btf_member_bit_offset(st, i) != (rel->r_offset - var_off) * 8)
			continue;
		const char *sn = btf__name_by_offset(obj->btf, st->name_off);
		const char *mn = btf__name_by_offset(obj->btf, m->name_off);
		if (!sn || !*sn || !mn || !*mn)
			return 0;
		size_t len = strlen(sn) + strlen(mn) + 2;
		char *t = malloc(len);
		if (!t)
			return -ENOMEM;
		snprintf(t, len, "%s:%s", sn, mn);
		free(prog->attach_target);
		prog->attach_target = t;
		return 0;
	}
	return 0;
}

int obj_struct_ops_bind(struct bg_object *obj)
{
	if (!obj->btf)
		return 0;
	for (size_t i = 1; i < obj->nsecs; i++) {
		const struct obj_sec *sec = &obj->secs[i];
		const struct obj_sec *rs = is_stops_sec(sec->name) ? rel_of(obj, sec->idx) : NULL;
		Elf_Data *d = rs ? elf_getdata(elf_getscn(obj->elf, rs->idx), NULL) : NULL;
		if (!d || rs->link != obj->symtab_idx)
			continue;
		for (size_t k = 0; k < rs->size / sizeof(Elf64_Rel); k++) {
			GElf_Rel rel;
			int err;
			if (!gelf_getrel(d, (int)k, &rel))
				break;
			if ((err = bind_one(obj, sec, &rel)))
				return err;
		}
	}
	return 0;
}
