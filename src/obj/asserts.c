/* Assertion markers of <bpfgate/assert.h> (docs/ASSERTIONS.md).
 *
 * .bpfgate.asserts holds 32-byte records: u64 marker address (relocated,
 * R_BPF_64_ABS64 against the code section or a symbol in it, the addend in
 * place as BPF objects use REL), u8 version, u8 kind, u8 flags (bits 0-3
 * operand size, bit 4 signed), u8 0, u32 line, s64 a, s64 b.
 * .bpfgate.decl holds the same 24 bytes without the address, one per
 * assertion written in the source (a static the optimizer cannot delete).
 * A record is mapped to a slot of every prepared program that contains its
 * function; a declaration without any record is "lost".
 * Invariants: a site's insn is a marker instruction of the prepared program
 * (`rN = rN` for operand kinds, `goto +0` otherwise), checked here; any
 * inconsistency is bad input (the open fails naming section and offset). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "obj/internal.h"

#define REC_SZ 32
#define DECL_SZ 24
#define ASSERT_VERSION 1
#define R_BPF_64_ABS64_ 2

struct rec {
	uint32_t sec;         /* code section of the marker */
	size_t slot;          /* slot in that section */
	struct bg_assert_site s;
};

static int64_t rd64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return (int64_t)v;
}

/* The 24 bytes after the address (or a declaration) into a site. */
static int parse_body(struct bg_object *obj, const struct obj_sec *s, uint64_t off,
		      struct bg_assert_site *out)
{
	const uint8_t *p = s->data + off;
	uint32_t line;

	if (p[0] != ASSERT_VERSION)
		return obj_err(obj, "section %u (%s) offset 0x%llx: assertion version %u (expected %u)",
			       s->idx, s->name, (unsigned long long)off, p[0], ASSERT_VERSION);
	if (p[1] < BG_ASSERT_RANGE || p[1] > BG_ASSERT_MAX_INSNS)
		return obj_err(obj, "section %u (%s) offset 0x%llx: unknown assertion kind %u", s->idx,
			       s->name, (unsigned long long)off, p[1]);
	memcpy(&line, p + 4, 4);
	memset(out, 0, sizeof(*out));
	out->kind = p[1];
	out->size = p[2] & 0xf;
	out->is_signed = p[2] & 0x10;
	out->line = line;
	out->a = rd64(p + 8);
	out->b = rd64(p + 16);
	out->reg = -1;
	bool has_reg = out->kind <= BG_ASSERT_CONST;
	if (has_reg && out->size != 1 && out->size != 2 && out->size != 4 && out->size != 8)
		return obj_err(obj, "section %u (%s) offset 0x%llx: operand size %u", s->idx, s->name,
			       (unsigned long long)off, out->size);
	return 0;
}

static const struct obj_sec *sec_named(const struct bg_object *obj, const char *name)
{
	int i = obj_find_sec(obj, name);
	return i > 0 ? &obj->secs[i] : NULL;
}

/* The relocation section whose target is section idx, or NULL. */
static const struct obj_sec *rel_for(const struct bg_object *obj, uint32_t idx)
{
	for (size_t i = 1; i < obj->nsecs; i++)
		if (obj->secs[i].kind == SEC_REL && obj->secs[i].info == idx)
			return &obj->secs[i];
	return NULL;
}

static int read_records(struct bg_object *obj, const struct obj_sec *s, struct rec **out, size_t *n)
{
	const struct obj_sec *rs = rel_for(obj, s->idx);
	size_t cnt = s->size / REC_SZ;
	Elf_Data *d;

	if (s->size % REC_SZ || !s->data)
		return obj_err(obj, "section %u (%s): size %llu is not a multiple of %d", s->idx, s->name,
			       (unsigned long long)s->size, REC_SZ);
	if (!rs || rs->link != obj->symtab_idx || rs->size % sizeof(Elf64_Rel) ||
	    rs->size / sizeof(Elf64_Rel) != cnt)
		return obj_err(obj, "section %u (%s): needs one relocation per record (%zu records)",
			       s->idx, s->name, cnt);
	d = elf_getdata(elf_getscn(obj->elf, rs->idx), NULL);
	*out = calloc(cnt ? cnt : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	*n = cnt;
	for (size_t i = 0; i < cnt; i++) {
		GElf_Rel rel;
		if (!d || !gelf_getrel(d, i, &rel))
			return obj_err(obj, "section %u (%s): relocation %zu: %s", rs->idx, rs->name, i,
				       elf_errmsg(-1));
		uint32_t symi = GELF_R_SYM(rel.r_info);
		if (GELF_R_TYPE(rel.r_info) != R_BPF_64_ABS64_ || rel.r_offset % REC_SZ ||
		    rel.r_offset >= s->size || symi >= obj->nsyms)
			return obj_err(obj, "section %u (%s): relocation %zu (offset 0x%llx): not an "
					    "R_BPF_64_ABS64 at a record start", rs->idx, rs->name, i,
				       (unsigned long long)rel.r_offset);
		const struct obj_sym *sym = &obj->syms[symi];
		uint64_t off = rel.r_offset, at = sym->value + (uint64_t)rd64(s->data + off);
		if (sym->shndx == 0 || sym->shndx >= obj->nsecs ||
		    obj->secs[sym->shndx].kind != SEC_CODE || at % 8 ||
		    at / 8 >= obj->secs[sym->shndx].nslots)
			return obj_err(obj, "section %u (%s) offset 0x%llx: marker address is not an "
					    "instruction of a code section", s->idx, s->name,
				       (unsigned long long)off);
		struct rec *r = &(*out)[rel.r_offset / REC_SZ];
		int err = parse_body(obj, s, off + 8, &r->s);
		if (err)
			return err;
		r->sec = sym->shndx;
		r->slot = at / 8;
	}
	return 0;
}

/* The marker at r: `rN = rN` (operand kinds) or `goto +0`; sets the register. */
static int check_marker(struct bg_object *obj, const struct obj_sec *s, struct rec *r)
{
	const struct obj_sec *cs = &obj->secs[r->sec];
	const struct bg_raw_insn *in = (const struct bg_raw_insn *)cs->data + r->slot;
	bool has_reg = r->s.kind <= BG_ASSERT_CONST;
	bool ok = has_reg ? in->code == (BG_CLS_ALU64 | BG_ALU_MOV | 0x08) && in->dst_reg == in->src_reg &&
				in->dst_reg < 10 && !in->off && !in->imm
			  : in->code == (BG_CLS_JMP | BG_JMP_JA) && !in->off && !in->imm;
	if (!ok)
		return obj_err(obj, "section %u (%s): assertion at line %u: insn %zu of %s is not an "
				    "assertion marker", s->idx, s->name, r->s.line, r->slot, cs->name);
	r->s.reg = has_reg ? in->dst_reg : -1;
	return 0;
}

static bool same_site(const struct bg_assert_site *x, const struct bg_assert_site *y)
{
	return x->kind == y->kind && x->size == y->size && x->is_signed == y->is_signed &&
	       x->line == y->line && x->a == y->a && x->b == y->b;
}

static int site_cmp(const void *a, const void *b)
{
	const struct bg_assert_site *x = a, *y = b;
	return x->insn < y->insn ? -1 : x->insn > y->insn;
}

/* Copy every record whose function is part of prog, at its program slot. */
static int place(struct bg_object *obj, struct bg_program *prog, const struct rec *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < prog->npieces; k++) {
			const struct obj_func *f = &obj->funcs[prog->pieces[k].func];
			if (f->sec != recs[i].sec || recs[i].slot < f->start ||
			    recs[i].slot >= f->start + f->len)
				continue;
			void *p = realloc(prog->asserts, (prog->nasserts + 1) * sizeof(*prog->asserts));
			if (!p)
				return -ENOMEM;
			prog->asserts = p;
			prog->asserts[prog->nasserts] = recs[i].s;
			prog->asserts[prog->nasserts++].insn = prog->pieces[k].at + recs[i].slot - f->start;
		}
	if (prog->nasserts > 1)
		qsort(prog->asserts, prog->nasserts, sizeof(*prog->asserts), site_cmp);
	return 0;
}

/* The function whose static declared the assertion: symbol "func.bg__decl[.N]". */
static const char *decl_func(const struct bg_object *obj, uint32_t shndx, uint64_t off)
{
	for (size_t i = 0; i < obj->nsyms; i++) {
		const struct obj_sym *y = &obj->syms[i];
		if (y->shndx != shndx || y->value != off || !y->name)
			continue;
		const char *dot = strstr(y->name, ".bg__decl");
		if (!dot || dot == y->name)
			continue;
		for (size_t f = 0; f < obj->nfuncs; f++)
			if (!strncmp(obj->funcs[f].name, y->name, (size_t)(dot - y->name)) &&
			    !obj->funcs[f].name[dot - y->name])
				return obj->funcs[f].name;
	}
	return NULL;
}

static int read_decls(struct bg_object *obj, const struct obj_sec *s, const struct rec *recs,
		      size_t nrecs)
{
	if (s->size % DECL_SZ || !s->data)
		return obj_err(obj, "section %u (%s): size %llu is not a multiple of %d", s->idx, s->name,
			       (unsigned long long)s->size, DECL_SZ);
	for (uint64_t off = 0; off < s->size; off += DECL_SZ) {
		struct bg_assert_site d;
		int err = parse_body(obj, s, off, &d);
		bool found = false;
		if (err)
			return err;
		for (size_t i = 0; i < nrecs && !found; i++)
			found = same_site(&d, &recs[i].s);
		if (found)
			continue;
		void *p = realloc(obj->lost_asserts, (obj->nlost_asserts + 1) * sizeof(d));
		if (!p)
			return -ENOMEM;
		obj->lost_asserts = p;
		d.insn = SIZE_MAX;
		d.func = decl_func(obj, s->idx, off);
		obj->lost_asserts[obj->nlost_asserts++] = d;
	}
	return 0;
}

int obj_asserts_collect(struct bg_object *obj)
{
	const struct obj_sec *rs = sec_named(obj, ".bpfgate.asserts");
	const struct obj_sec *ds = sec_named(obj, ".bpfgate.decl");
	struct rec *recs = NULL;
	size_t n = 0;
	int err = 0;

	if (!rs && !ds)
		return 0;
	obj->has_asserts = true;
	if (rs && (err = read_records(obj, rs, &recs, &n)))
		goto out;
	for (size_t i = 0; i < n && !err; i++)
		err = check_marker(obj, rs, &recs[i]);
	for (size_t p = 0; p < obj->nprogs && !err; p++)
		err = place(obj, obj->progs[p], recs, n);
	if (!err && ds)
		err = read_decls(obj, ds, recs, n);
out:
	free(recs);
	return err;
}

const struct bg_assert_site *bg_program__asserts(const struct bg_program *prog, size_t *n)
{
	*n = prog ? prog->nasserts : 0;
	return prog ? prog->asserts : NULL;
}

const struct bg_assert_site *bg_object__lost_asserts(const struct bg_object *obj, size_t *n)
{
	*n = obj ? obj->nlost_asserts : 0;
	return obj ? obj->lost_asserts : NULL;
}

int bg_object__has_asserts(const struct bg_object *obj)
{
	return obj && obj->has_asserts;
}
