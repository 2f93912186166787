/* Function and relocation stage.
 * Functions: every STT_FUNC symbol of a code section, bounds-checked and
 * sorted; a code section without function symbols is one function named
 * after the section. Relocations of code sections are checked against the
 * instruction they patch (ld_imm64 or call, in range, a valid symbol) and
 * classified (call, callback address, map, global data, extern) so that
 * link.c only has to place them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "obj/internal.h"

#define CODE_LD_IMM64 0x18
#define CODE_CALL 0x85
#ifndef R_BPF_64_64
#define R_BPF_64_64 1
#endif
#ifndef R_BPF_64_32
#define R_BPF_64_32 10
#endif

static int func_cmp(const void *a, const void *b)
{
	const struct obj_func *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* A global function with hidden visibility (libbpf's __hidden, e.g. the
 * helpers of <bpf/usdt.bpf.h>) is static to the kernel, as libbpf makes it:
 * verified in the context of each call, not alone from its prototype. */
static int add_func(struct bg_object *obj, size_t *cap, const char *name, uint32_t sec,
		    size_t start, size_t len, bool global, bool hidden)
{
	if (obj_grow((void **)&obj->funcs, cap, obj->nfuncs, sizeof(*obj->funcs)))
		return -ENOMEM;
	obj->funcs[obj->nfuncs++] =
	    (struct obj_func){name, sec, start, len, global && !hidden, 0, global && hidden};
	return 0;
}

static int check_func_sym(struct bg_object *obj, const struct obj_sym *y, const struct obj_sec *s)
{
	if (y->value % 8 || y->size % 8 || y->value > s->size || y->size > s->size - y->value ||
	    y->value == s->size)
		return obj_err(obj,
			       "section %u (%s): function '%s' at 0x%llx size 0x%llx is outside "
			       "the section or misaligned",
			       s->idx, s->name, y->name, (unsigned long long)y->value,
			       (unsigned long long)y->size);
	return 0;
}

/* Fill len of functions with size 0 (up to the next function), check overlaps. */
static int finish_funcs(struct bg_object *obj)
{
	if (obj->nfuncs)
		qsort(obj->funcs, obj->nfuncs, sizeof(*obj->funcs), func_cmp);
	for (size_t i = 0; i < obj->nfuncs; i++) {
		struct obj_func *f = &obj->funcs[i];
		const struct obj_sec *s = &obj->secs[f->sec];
		size_t end = s->nslots;

		if (i + 1 < obj->nfuncs && obj->funcs[i + 1].sec == f->sec)
			end = obj->funcs[i + 1].start;
		if (!f->len)
			f->len = end - f->start;
		if (!f->len || f->start + f->len > end)
			return obj_err(
			    obj,
			    "section %u (%s): function '%s' at insn %zu overlaps the next function",
			    f->sec, s->name, f->name, f->start);
	}
	return 0;
}

static void set_func_btf_ids(struct bg_object *obj)
{
	for (size_t i = 0; i < obj->nfuncs; i++) {
		struct obj_func *f = &obj->funcs[i];
		const struct ext_sec *e = obj_ext_sec(obj, f->sec);

		for (size_t j = 0; e && j < e->nfuncs; j++)
			if (e->funcs[j].insn == f->start)
				f->btf_id = e->funcs[j].type_id;
		if (f->hidden && f->btf_id && obj->btf) {
			struct btf_type *t = (struct btf_type *)btf__type_by_id(obj->btf, f->btf_id);

			if (t && btf_is_func(t) && btf_vlen(t) == BTF_FUNC_GLOBAL)
				t->info = (uint32_t)BTF_KIND_FUNC << 24 | BTF_FUNC_STATIC; /* kind, vlen = linkage */
		}
	}
}

int obj_funcs_collect(struct bg_object *obj)
{
	size_t cap = 0;
	int err;

	bool *has = calloc(obj->nsecs, sizeof(bool));

	if (!has)
		return -ENOMEM;
	for (size_t i = 0; i < obj->nsyms; i++) {
		const struct obj_sym *y = &obj->syms[i];
		const struct obj_sec *s = y->shndx < obj->nsecs ? &obj->secs[y->shndx] : NULL;

		if (y->type != STT_FUNC || !s || s->kind != SEC_CODE || !s->nslots)
			continue;
		err = check_func_sym(obj, y, s);
		if (!err)
			err = add_func(obj, &cap, y->name, y->shndx, y->value / 8, y->size / 8,
				       y->bind != STB_LOCAL, y->vis == STV_HIDDEN);
		if (err) {
			free(has);
			return err;
		}
		has[y->shndx] = true;
	}
	for (size_t si = 1; si < obj->nsecs; si++) {
		const struct obj_sec *s = &obj->secs[si];

		/* a code section without function symbols is one function */
		if (s->kind == SEC_CODE && s->nslots && !has[si] &&
		    (err = add_func(obj, &cap, s->name, si, 0, s->nslots, true, false))) {
			free(has);
			return err;
		}
	}
	free(has);
	if ((err = finish_funcs(obj)))
		return err;
	set_func_btf_ids(obj);
	return 0;
}

/* The extern's declaration in the object's BTF, as libbpf's
 * find_extern_btf_id: a FUNC of extern linkage is a kfunc whatever the use
 * (bpf_ksym_exists() takes its address with an ld_imm64), a VAR of extern
 * linkage is a ksym, typeless when its type is void. 0: not declared. */
static int ext_btf_kind(const struct bg_object *obj, const char *name, bool *typeless,
			uint32_t *local_id)
{
	uint32_t n = obj->btf ? btf__type_cnt(obj->btf) : 0;

	*typeless = false;
	for (uint32_t i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(obj->btf, i);
		const char *tn;

		if (!t || (!btf_is_var(t) && !btf_is_func(t)))
			continue;
		tn = btf__name_by_offset(obj->btf, t->name_off);
		if (!tn || strcmp(tn, name))
			continue;
		*local_id = i;
		if (btf_is_func(t))
			return btf_vlen(t) == BTF_FUNC_EXTERN ? EXT_KFUNC : 0;
		if (btf_var(t)->linkage != BTF_VAR_GLOBAL_EXTERN)
			return 0;
		{
			uint32_t id = t->type;
			const struct btf_type *vt = id ? btf__type_by_id(obj->btf, id) : NULL;

			for (int d = 0; vt && d < 32 && (btf_is_mod(vt) || btf_is_typedef(vt)); d++)
				vt = (id = vt->type) ? btf__type_by_id(obj->btf, id) : NULL;
			*typeless = !id;
		}
		return EXT_KSYM;
	}
	return 0;
}

static int find_ext(struct bg_object *obj, const struct obj_sym *y, bool is_call, const char **why)
{
	struct obj_extern *e;
	enum ext_kind kind = is_call ? EXT_KFUNC : EXT_KSYM;
	int64_t kcfg_off = -1;
	uint32_t kcfg_size = 0;
	size_t symi = (size_t)(y - obj->syms);

	if (!y->name[0]) {
		*why = "relocation against an unnamed undefined symbol";
		return -1;
	}
	if (!obj->ext_of_sym) {
		obj->ext_of_sym = malloc(obj->nsyms * sizeof(int));
		if (!obj->ext_of_sym)
			return -2;
		memset(obj->ext_of_sym, 0xff, obj->nsyms * sizeof(int)); /* -1 */
	}
	int kcfg = -1;

	for (size_t i = 0; !is_call && i < obj->nkcfg; i++)
		if (!strcmp(obj->kcfg[i].name, y->name))
			kind = EXT_KCONFIG, kcfg_off = obj->kcfg[i].off,
			kcfg_size = obj->kcfg[i].size, kcfg = (int)i;
	bool typeless = false;
	uint32_t local_id = 0;
	int bkind = kind == EXT_KCONFIG ? 0 : ext_btf_kind(obj, y->name, &typeless, &local_id);

	if (bkind)
		kind = (enum ext_kind)bkind;
	if (bkind == EXT_KSYM && is_call) {
		*why = "extern variable used as a function";
		return -1;
	}
	if (obj->ext_of_sym[symi] >= 0) {
		struct obj_extern *old = &obj->exts[obj->ext_of_sym[symi]];

		/* without a BTF declaration, a symbol that is called is a function
		 * wherever its address is also taken */
		if (!old->from_btf && old->kind != kind && old->kind != EXT_KCONFIG &&
		    kind != EXT_KCONFIG) {
			old->kind = EXT_KFUNC;
			return obj->ext_of_sym[symi];
		}
		if (old->kind != kind) {
			*why = "extern used both as a function and as a variable";
			return -1;
		}
		return obj->ext_of_sym[symi];
	}
	obj->ext_of_sym[symi] = (int)obj->nexts;
	e = realloc(obj->exts, (obj->nexts + 1) * sizeof(*e));
	if (!e)
		return -2;
	obj->exts = e;
	e = &e[obj->nexts];
	memset(e, 0, sizeof(*e));
	e->name = y->name;
	e->kind = kind;
	e->weak = y->bind == STB_WEAK;
	e->from_btf = bkind != 0;
	e->typeless = typeless;
	e->local_id = bkind ? local_id : 0;
	e->kcfg_off = kcfg_off;
	e->kcfg_size = kcfg_size;
	e->resolved = kind == EXT_KCONFIG && (obj->kcfg[kcfg].found || e->weak);
	if (kind == EXT_KCONFIG && !e->resolved &&
	    !(e->fail = obj_asprintf("kconfig %s: no value in the kernel configuration", y->name)))
		return -2;
	return (int)obj->nexts++;
}

struct rel_where {
	const struct obj_sec *rs; /* the relocation section */
	const struct obj_sec *ts; /* the code section it patches */
	size_t i;		  /* relocation number */
	uint64_t off;		  /* r_offset */
};

#define RELERR(obj, w, fmt, ...)                                                                   \
	obj_err(obj, "section %u (%s): relocation %zu at offset 0x%llx: " fmt, (w)->rs->idx,       \
		(w)->rs->name, (w)->i, (unsigned long long)(w)->off, ##__VA_ARGS__)

/* Classify a relocation of a call instruction. */
static int classify_call(struct bg_object *obj, const struct rel_where *w, const struct obj_sym *y,
			 const struct bg_raw_insn *insn, struct obj_relo *r)
{
	const struct obj_sec *t;
	int64_t tinsn;

	if (y->shndx == SHN_UNDEF) {
		const char *why = NULL;
		int e = find_ext(obj, y, true, &why);

		if (e == -2)
			return -ENOMEM;
		if (e < 0)
			return RELERR(obj, w, "%s ('%s')", why, y->name);
		r->kind = RELO_EXTERN, r->ext = e;
		return 0;
	}
	if (insn->src_reg != 1 /* BPF_PSEUDO_CALL */)
		return RELERR(obj, w, "call with src_reg %u is not a BPF-to-BPF call",
			      insn->src_reg);
	if (y->shndx >= obj->nsecs || obj->secs[y->shndx].kind != SEC_CODE)
		return RELERR(obj, w, "call to symbol '%s' outside a code section", y->name);
	t = &obj->secs[y->shndx];
	if (y->value % 8)
		return RELERR(obj, w, "call to symbol '%s' at misaligned offset 0x%llx", y->name,
			      (unsigned long long)y->value);
	tinsn = (int64_t)(y->value / 8) + insn->imm + 1;
	if (tinsn < 0 || (uint64_t)tinsn >= t->nslots)
		return RELERR(obj, w, "call target %lld outside section %s (%zu insns)",
			      (long long)tinsn, t->name, t->nslots);
	r->kind = RELO_CALL, r->tsec = y->shndx, r->tinsn = (size_t)tinsn;
	return 0;
}

/* Classify a relocation of an ld_imm64 instruction. */
static int classify_ld(struct bg_object *obj, const struct rel_where *w, const struct obj_sym *y,
		       const struct bg_raw_insn *insn, struct obj_relo *r)
{
	const struct obj_sec *t;

	if (y->shndx == SHN_UNDEF) {
		const char *why = NULL;
		int e = find_ext(obj, y, false, &why);

		if (e == -2)
			return -ENOMEM;
		if (e < 0)
			return RELERR(obj, w, "%s ('%s')", why, y->name);
		r->kind = RELO_EXTERN, r->ext = e;
		return 0;
	}
	if (y->shndx >= obj->nsecs)
		return RELERR(obj, w, "symbol '%s' has no section", y->name);
	t = &obj->secs[y->shndx];
	if (t->kind == SEC_CODE) {
		int64_t tb = (int64_t)y->value + insn->imm;

		if (tb < 0 || tb % 8 || (uint64_t)tb / 8 >= t->nslots)
			return RELERR(obj, w, "function address 0x%llx outside section %s",
				      (long long unsigned)tb, t->name);
		r->kind = RELO_FUNC, r->tsec = y->shndx, r->tinsn = (size_t)tb / 8;
		return 0;
	}
	if (t->kind == SEC_MAPS || t->kind == SEC_LEGACY_MAPS) {
		r->map = obj_find_map_by_sym(obj, y->shndx, y->value);
		if (r->map < 0)
			return RELERR(obj, w, "symbol '%s' at %s+0x%llx defines no map", y->name,
				      t->name, (unsigned long long)y->value);
		r->kind = RELO_MAP;
		return 0;
	}
	if (t->map >= 0) {
		int64_t off = (int64_t)y->value + insn->imm;

		if (off < 0 || (uint64_t)off > t->size)
			return RELERR(obj, w, "offset %lld outside %s (%llu bytes)", (long long)off,
				      t->name, (unsigned long long)t->size);
		r->kind = RELO_DATA, r->map = t->map, r->off = off;
		return 0;
	}
	return RELERR(obj, w, "symbol '%s' in section %s is not a map, global data or code",
		      y->name, t->name);
}

static int relo_cmp(const void *a, const void *b)
{
	const struct obj_relo *x = a, *y = b;

	return x->insn < y->insn ? -1 : x->insn > y->insn;
}

static int collect_section(struct bg_object *obj, struct obj_sec *rs)
{
	struct obj_sec *ts = &obj->secs[rs->info];
	Elf_Data *d = elf_getdata(elf_getscn(obj->elf, rs->idx), NULL);
	size_t n;

	if (rs->link != obj->symtab_idx)
		return obj_err(obj, "section %u (%s): sh_link %u is not the symbol table", rs->idx,
			       rs->name, rs->link);
	if (!d || rs->size % sizeof(Elf64_Rel))
		return obj_err(
		    obj, "section %u (%s) at offset 0x%llx: size %llu is not a multiple of %zu",
		    rs->idx, rs->name, (unsigned long long)rs->off, (unsigned long long)rs->size,
		    sizeof(Elf64_Rel));
	n = rs->size / sizeof(Elf64_Rel);
	ts->relos = calloc(n ? n : 1, sizeof(*ts->relos));
	if (!ts->relos)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct bg_raw_insn *insn;
		struct rel_where w = {rs, ts, i, 0};
		struct obj_relo *r = &ts->relos[ts->nrelos];
		uint32_t symi, type;
		GElf_Rel rel;
		int err;

		if (!gelf_getrel(d, i, &rel))
			return obj_err(obj, "section %u (%s): relocation %zu: %s", rs->idx,
				       rs->name, i, elf_errmsg(-1));
		w.off = rel.r_offset;
		symi = GELF_R_SYM(rel.r_info);
		type = GELF_R_TYPE(rel.r_info);
		if (type == 0)
			continue;
		if (symi >= obj->nsyms)
			return RELERR(obj, &w, "symbol index %u out of range (%zu symbols)", symi,
				      obj->nsyms);
		if (rel.r_offset % 8 || rel.r_offset / 8 >= ts->nslots)
			return RELERR(obj, &w, "outside section %s (%llu bytes) or misaligned",
				      ts->name, (unsigned long long)ts->size);
		insn = (const struct bg_raw_insn *)(ts->data + rel.r_offset);
		memset(r, 0, sizeof(*r));
		r->insn = rel.r_offset / 8;
		if (type == R_BPF_64_64) {
			if (insn->code != CODE_LD_IMM64 || r->insn + 1 >= ts->nslots)
				return RELERR(obj, &w, "not an ld_imm64 instruction");
			err = classify_ld(obj, &w, &obj->syms[symi], insn, r);
		} else if (type == R_BPF_64_32) {
			if (insn->code != CODE_CALL)
				return RELERR(obj, &w, "not a call instruction");
			err = classify_call(obj, &w, &obj->syms[symi], insn, r);
		} else {
			return RELERR(obj, &w, "relocation type %u is not supported in code", type);
		}
		if (err)
			return err;
		ts->nrelos++;
	}
	qsort(ts->relos, ts->nrelos, sizeof(*ts->relos), relo_cmp);
	for (size_t i = 1; i < ts->nrelos; i++)
		if (ts->relos[i].insn == ts->relos[i - 1].insn)
			return obj_err(obj, "section %u (%s): two relocations of insn %zu", rs->idx,
				       rs->name, ts->relos[i].insn);
	return 0;
}

int obj_relos_collect(struct bg_object *obj)
{
	for (size_t i = 1; i < obj->nsecs; i++) {
		struct obj_sec *rs = &obj->secs[i];
		int err;

		if (rs->kind != SEC_REL)
			continue;
		if (rs->info == 0 || rs->info >= obj->nsecs)
			return obj_err(obj, "section %zu (%s): target section %u out of range", i,
				       rs->name, rs->info);
		if (obj->secs[rs->info].kind != SEC_CODE)
			continue; /* .rel.BTF, .rel.BTF.ext, .rel.maps, data: not needed to load
				     code */
		if (obj->secs[rs->info].relos)
			return obj_err(obj, "section %zu (%s): second relocation section for %s", i,
				       rs->name, obj->secs[rs->info].name);
		if ((err = collect_section(obj, rs)))
			return err;
	}
	return 0;
}

/* Resolve kfuncs and ksyms against the target BTF. An unresolved one is not
 * an error here: the programs using it record a failure (like CO-RE). */
int obj_externs_resolve(struct bg_object *obj)
{
	const struct btf *target = NULL;
	const char *why = NULL;
	int err;

	if (obj->opts.btf_path && !obj->opts.target_btf &&
	    (err = obj_target_btf(obj, &target, &why)))
		return err; /* an explicit --btf that cannot be read is bad input */
	for (size_t i = 0; i < obj->nexts; i++) {
		struct obj_extern *e = &obj->exts[i];
		const char *what = e->kind == EXT_KFUNC ? "kfunc" : "ksym";
		int id;

		if (e->kind == EXT_KCONFIG)
			continue;
		if (e->typeless) {
			/* libbpf: typeless ksyms come from /proc/kallsyms; with an
			 * explicit target (--btf) or no kallsyms, assume present */
			uint64_t addr = 0;
			int k = obj->opts.btf_path || obj->opts.target_btf
				    ? -1
				    : obj_kallsyms_find(e->name, &addr);

			if (k == 0) {
				if (!(e->fail = obj_asprintf("ksym %s not found in kallsyms", e->name)))
					return -ENOMEM;
				continue;
			}
			e->addr = addr ? addr : 0xffffffff81000000ull; /* hidden by kptr_restrict */
			e->resolved = true;
			continue;
		}
		if (obj_target_btf(obj, &target, &why) < 0 || !target) {
			e->fail = obj_asprintf("%s %s: no target BTF (%s)", what, e->name,
					       why ? why : "unavailable");
			continue;
		}
		if (e->kind == EXT_KFUNC) {
			/* libbpf looks kfuncs up by their essential name
			 * ("bpf_task_acquire___one" is bpf_task_acquire) */
			char *ess = strndup(e->name, obj_essential_len(e->name));

			if (!ess)
				return -ENOMEM;
			id = obj_target_find(obj, target, ess, BTF_KIND_FUNC);
			free(ess);
		} else {
			id = obj_target_find(obj, target, e->name, BTF_KIND_VAR);
		}
		if (id == -ENOMEM)
			return id;
		/* a weak kfunc whose prototype differs from the kernel's stays
		 * unresolved (0), as libbpf leaves it: how "___flavour" externs pick
		 * the kernel's variant. (libbpf refuses a strong one outright; not
		 * modelled: its calls are checked against the kernel's prototype.) */
		if (id > 0 && e->kind == EXT_KFUNC && e->weak && e->local_id &&
		    !obj_kfunc_compat(obj->btf, e->local_id, target, (uint32_t)id)) {
			if (!(e->fail = obj_asprintf("kfunc %s: prototype incompatible with the "
						     "kernel's",
						     e->name)))
				return -ENOMEM;
			continue;
		}
		if (id > 0) {
			e->btf_id = (uint32_t)id;
			e->resolved = true;
			if (e->kind == EXT_KSYM && !obj->opts.btf_path && !obj->opts.target_btf &&
			    obj_kallsyms_find(e->name, NULL) == 0 &&
			    !(e->no_kaddr = obj_asprintf("ldimm64 failed to find the address for "
							 "kernel symbol '%s'.",
							 e->name)))
				return -ENOMEM;
		} else {
			e->fail = obj_asprintf("%s %s not found in target BTF", what, e->name);
		}
		if (!e->resolved && !e->fail)
			return -ENOMEM;
	}
	return 0;
}
