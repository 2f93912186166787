/* ELF stage: sections and symbols of a relocatable BPF object, through
 * libelf/gelf. Every section's extent is checked against the file before its
 * bytes are used; names and symbol names must resolve in their string tables.
 * After this stage obj->secs[i].data points at size valid bytes (or is NULL),
 * and every symbol's section index is valid or special. */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "obj/internal.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif
#define OBJ_MAX_SECS 65280u
#define OBJ_MAX_SYMS (1u << 22)

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static enum sec_kind classify(const struct obj_sec *s)
{
	if (s->type == SHT_REL)
		return SEC_REL;
	if (s->type == SHT_SYMTAB)
		return SEC_SYMTAB;
	if (s->type == SHT_PROGBITS && (s->flags & SHF_EXECINSTR))
		return SEC_CODE;
	if (s->type == SHT_NOBITS && (!strcmp(s->name, ".bss") || has_prefix(s->name, ".bss.")))
		return SEC_BSS;
	if (s->type != SHT_PROGBITS)
		return SEC_OTHER;
	if (!strcmp(s->name, ".data") || has_prefix(s->name, ".data."))
		return SEC_DATA;
	if (!strcmp(s->name, ".rodata") || has_prefix(s->name, ".rodata."))
		return SEC_RODATA;
	if (!strcmp(s->name, ".maps"))
		return SEC_MAPS;
	if (!strcmp(s->name, "maps"))
		return SEC_LEGACY_MAPS;
	return SEC_OTHER;
}

static int check_header(struct bg_object *obj, GElf_Ehdr *eh)
{
	if (obj->len < 4 || memcmp(obj->buf, ELFMAG, SELFMAG))
		return obj_err(obj, "not an ELF file (bad magic at offset 0x0)");
	if (obj->len < sizeof(Elf64_Ehdr))
		return obj_err(obj, "truncated ELF header: %zu bytes, need %zu", obj->len,
			       sizeof(Elf64_Ehdr));
	if (obj->buf[EI_CLASS] != ELFCLASS64)
		return obj_err(obj, "offset 0x%x: not a 64-bit ELF object", EI_CLASS);
	if (obj->buf[EI_DATA] != ELFDATA2LSB)
		return obj_errc(obj, -BG_ERR_UNSUPPORTED,
				"offset 0x%x: big-endian BPF objects are not supported", EI_DATA);
	obj->elf = elf_memory((char *)obj->buf, obj->len);
	if (!obj->elf || elf_kind(obj->elf) != ELF_K_ELF || !gelf_getehdr(obj->elf, eh))
		return obj_err(obj, "malformed ELF: %s", elf_errmsg(-1));
	if (eh->e_machine != EM_BPF)
		return obj_err(obj, "offset 0x12: e_machine %u is not EM_BPF (247)", eh->e_machine);
	if (eh->e_type != ET_REL)
		return obj_err(obj, "offset 0x10: e_type %u is not ET_REL (a relocatable object)",
			       eh->e_type);
	if (eh->e_shentsize != sizeof(Elf64_Shdr))
		return obj_err(obj, "offset 0x3a: section header entry size %u is not %zu",
			       eh->e_shentsize, sizeof(Elf64_Shdr));
	/* clang puts the section header table last: a cut file loses it first */
	if (eh->e_shoff > obj->len ||
	    (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > obj->len - eh->e_shoff)
		return obj_err(obj,
			       "truncated: the section header table at offset 0x%llx (%u entries) "
			       "ends past the end of the file (%zu bytes)",
			       (unsigned long long)eh->e_shoff, eh->e_shnum, obj->len);
	return 0;
}

static int read_section(struct bg_object *obj, size_t i, size_t shstrndx)
{
	struct obj_sec *s = &obj->secs[i];
	Elf_Scn *scn = elf_getscn(obj->elf, i);
	GElf_Shdr sh;
	Elf_Data *d;

	if (!scn || !gelf_getshdr(scn, &sh))
		return obj_err(obj, "section %zu: cannot read header: %s", i, elf_errmsg(-1));
	s->idx = i;
	s->map = -1;
	s->type = sh.sh_type;
	s->flags = sh.sh_flags;
	s->off = sh.sh_offset;
	s->size = sh.sh_size;
	s->link = sh.sh_link;
	s->info = sh.sh_info;
	s->name = elf_strptr(obj->elf, shstrndx, sh.sh_name);
	if (!s->name)
		return obj_err(obj, "section %zu: bad name offset 0x%x in the section name table",
			       i, sh.sh_name);
	if (sh.sh_type != SHT_NOBITS && sh.sh_type != SHT_NULL &&
	    (sh.sh_offset > obj->len || sh.sh_size > obj->len - sh.sh_offset))
		return obj_err(
		    obj,
		    "truncated: section %zu (%s) at offset 0x%llx size 0x%llx ends past the end of "
		    "the file (%zu bytes)",
		    i, s->name, (unsigned long long)sh.sh_offset, (unsigned long long)sh.sh_size,
		    obj->len);
	s->kind = classify(s);
	if (sh.sh_type == SHT_NOBITS || sh.sh_type == SHT_NULL || !sh.sh_size)
		return 0;
	d = elf_getdata(scn, NULL);
	if (!d || d->d_size != sh.sh_size || !d->d_buf)
		return obj_err(obj, "section %zu (%s) at offset 0x%llx: cannot read data: %s", i,
			       s->name, (unsigned long long)sh.sh_offset, elf_errmsg(-1));
	s->data = d->d_buf;
	if (s->kind == SEC_CODE) {
		if ((uintptr_t)s->data % 8)
			return obj_err(obj, "section %zu (%s): offset 0x%llx is not 8-byte aligned",
				       i, s->name, (unsigned long long)sh.sh_offset);
		if (sh.sh_size % sizeof(struct bg_raw_insn))
			return obj_err(
			    obj,
			    "section %zu (%s) at offset 0x%llx: size %llu is not a multiple of 8",
			    i, s->name, (unsigned long long)sh.sh_offset,
			    (unsigned long long)sh.sh_size);
		s->nslots = sh.sh_size / sizeof(struct bg_raw_insn);
	}
	return 0;
}

static int read_symbols(struct bg_object *obj)
{
	struct obj_sec *st = &obj->secs[obj->symtab_idx];
	Elf_Data *d = elf_getdata(elf_getscn(obj->elf, st->idx), NULL);
	size_t n;

	if (st->link == 0 || st->link >= obj->nsecs || obj->secs[st->link].type != SHT_STRTAB)
		return obj_err(obj, "section %u (%s): sh_link %u is not a string table", st->idx,
			       st->name, st->link);
	if (!d || st->size % sizeof(Elf64_Sym))
		return obj_err(obj, "section %u (%s): size %llu is not a multiple of %zu", st->idx,
			       st->name, (unsigned long long)st->size, sizeof(Elf64_Sym));
	n = st->size / sizeof(Elf64_Sym);
	if (n > OBJ_MAX_SYMS)
		return obj_errc(obj, -BG_ERR_LIMIT, "%zu symbols: too many", n);
	obj->syms = calloc(n ? n : 1, sizeof(*obj->syms));
	if (!obj->syms)
		return -ENOMEM;
	obj->nsyms = n;
	for (size_t i = 0; i < n; i++) {
		struct obj_sym *y = &obj->syms[i];
		GElf_Sym sym;

		if (!gelf_getsym(d, i, &sym))
			return obj_err(obj, "symbol %zu: cannot read: %s", i, elf_errmsg(-1));
		y->name = elf_strptr(obj->elf, st->link, sym.st_name);
		if (!y->name)
			return obj_err(
			    obj,
			    "section %u (%s): symbol %zu at offset 0x%llx: bad name offset 0x%x",
			    st->idx, st->name, i,
			    (unsigned long long)(st->off + i * sizeof(Elf64_Sym)), sym.st_name);
		y->value = sym.st_value;
		y->size = sym.st_size;
		y->shndx = sym.st_shndx;
		y->type = GELF_ST_TYPE(sym.st_info);
		y->bind = GELF_ST_BIND(sym.st_info);
		y->vis = GELF_ST_VISIBILITY(sym.st_other);
		if (y->shndx >= obj->nsecs && y->shndx != SHN_ABS && y->shndx != SHN_COMMON)
			return obj_err(obj, "symbol %zu (%s): section index %u out of range", i,
				       y->name, y->shndx);
	}
	return 0;
}

static int read_license_version(struct bg_object *obj, const struct obj_sec *s)
{
	if (!strcmp(s->name, "license")) {
		size_t n = s->data ? strnlen((const char *)s->data, s->size) : 0;
		free(obj->license);
		obj->license = strndup(s->data ? (const char *)s->data : "", n);
		return obj->license ? 0 : -ENOMEM;
	}
	if (!strcmp(s->name, "version")) {
		if (s->size != 4 || !s->data)
			return obj_err(
			    obj, "section %u (version) at offset 0x%llx: size %llu, expected 4",
			    s->idx, (unsigned long long)s->off, (unsigned long long)s->size);
		memcpy(&obj->kversion, s->data, 4);
	}
	return 0;
}

/* qsort_r comparators; ctx is the object (no global state: opens run in parallel) */
static int sec_name_cmp(const void *a, const void *b, void *ctx)
{
	const struct bg_object *sort_obj = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(sort_obj->secs[x].name, sort_obj->secs[y].name);

	return c ? c : (x < y ? -1 : x > y);
}

static int objsym_cmp(const void *a, const void *b, void *ctx)
{
	const struct bg_object *sort_obj = ctx;
	const struct obj_sym *x = &sort_obj->syms[*(const uint32_t *)a];
	const struct obj_sym *y = &sort_obj->syms[*(const uint32_t *)b];

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Name and symbol indexes, so that lookups stay O(log n) on hostile sizes. */
static int build_indexes(struct bg_object *obj)
{
	obj->sec_by_name = malloc(obj->nsecs * sizeof(uint32_t));
	obj->objsyms = malloc((obj->nsyms ? obj->nsyms : 1) * sizeof(uint32_t));
	if (!obj->sec_by_name || !obj->objsyms)
		return -ENOMEM;
	for (uint32_t i = 0; i < obj->nsecs; i++)
		obj->sec_by_name[i] = i;
	for (uint32_t i = 0; i < obj->nsyms; i++)
		if (obj->syms[i].type == STT_OBJECT)
			obj->objsyms[obj->nobjsyms++] = i;
	qsort_r(obj->sec_by_name, obj->nsecs, sizeof(uint32_t), sec_name_cmp, obj);
	if (obj->nobjsyms)
		qsort_r(obj->objsyms, obj->nobjsyms, sizeof(uint32_t), objsym_cmp, obj);
	for (size_t i = 1; i < obj->nsecs; i++) {
		const struct obj_sec *a = &obj->secs[obj->sec_by_name[i - 1]];
		const struct obj_sec *b = &obj->secs[obj->sec_by_name[i]];

		if (!strcmp(a->name, b->name) &&
		    (a->kind == SEC_MAPS || a->kind == SEC_LEGACY_MAPS ||
		     !strcmp(a->name, ".BTF") || !strcmp(a->name, ".BTF.ext")))
			return obj_err(obj, "sections %u and %u are both named '%s'", a->idx,
				       b->idx, a->name);
	}
	return 0;
}

int obj_find_sec(const struct bg_object *obj, const char *name)
{
	size_t lo = 0, hi = obj->nsecs;

	if (!name)
		return -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(obj->secs[obj->sec_by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < obj->nsecs && !strcmp(obj->secs[obj->sec_by_name[lo]].name, name) &&
	    obj->sec_by_name[lo])
		return (int)obj->sec_by_name[lo];
	return -1;
}

const struct obj_sym *obj_find_obj_sym(const struct bg_object *obj, uint32_t sec, const char *name)
{
	size_t lo = 0, hi = obj->nobjsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct obj_sym *y = &obj->syms[obj->objsyms[mid]];
		int c = y->shndx != sec ? (y->shndx < sec ? -1 : 1) : strcmp(y->name, name);

		if (!c)
			return y;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int obj_elf_parse(struct bg_object *obj)
{
	GElf_Ehdr eh;
	size_t shnum, shstrndx;
	int err;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return obj_err(obj, "libelf initialization failed: %s", elf_errmsg(-1));
	if ((err = check_header(obj, &eh)))
		return err;
	if (elf_getshdrnum(obj->elf, &shnum) || elf_getshdrstrndx(obj->elf, &shstrndx))
		return obj_err(obj, "malformed section header table: %s", elf_errmsg(-1));
	if (shnum > OBJ_MAX_SECS || (uint64_t)shnum * sizeof(Elf64_Shdr) > obj->len - eh.e_shoff)
		return obj_err(
		    obj, "section header table at 0x%llx: %zu sections do not fit in the file",
		    (unsigned long long)eh.e_shoff, shnum);
	if (shstrndx >= shnum)
		return obj_err(obj, "section name table index %zu out of range", shstrndx);
	obj->secs = calloc(shnum ? shnum : 1, sizeof(*obj->secs));
	if (!obj->secs)
		return -ENOMEM;
	obj->nsecs = shnum;
	obj->secs[0].name = "";
	obj->secs[0].map = -1;
	for (size_t i = 1; i < shnum; i++) {
		if ((err = read_section(obj, i, shstrndx)))
			return err;
		if (obj->secs[i].kind == SEC_SYMTAB) {
			if (obj->symtab_idx)
				return obj_err(obj, "section %zu: more than one symbol table", i);
			obj->symtab_idx = i;
		}
		if ((err = read_license_version(obj, &obj->secs[i])))
			return err;
		if (!strcmp(obj->secs[i].name, ".BTF"))
			obj->btf_sec = i;
		else if (!strcmp(obj->secs[i].name, ".BTF.ext"))
			obj->btf_ext_sec = i;
	}
	if (!obj->symtab_idx)
		return obj_err(obj, "no symbol table (.symtab)");
	if ((err = read_symbols(obj)))
		return err;
	return build_indexes(obj);
}
