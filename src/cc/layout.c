/* Profile-guided block layout of a compiled BPF object (contract in
 * layout.h). Three stages: the block order of one function (layout_fn, pure:
 * code and counts in, code and slot map out), the section map (functions
 * concatenated; every old slot has a new slot), and the fix-ups of the ELF
 * (calls, relocations, symbols, .BTF.ext, .bpfgate.hints). Any construct not
 * understood leaves its function (or section, or the whole object) as it
 * was; the object is never written half-rewritten. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpfgate/bpfgate.h>
#include "cc/layout.h"
#include "cc/spawn.h"
#include "obj/internal.h"

#define CODE_JA (BG_CLS_JMP | BG_JMP_JA)

/* --- one function ---------------------------------------------------------- */

enum term { T_FALL, T_JA, T_COND, T_EXIT };

struct blk {
	size_t start, end, last; /* slots relative to the function; last: the final insn */
	enum term term;
	int t, f;	  /* taken / fall-through successor blocks, -1 */
	bool inv;	  /* the conditional jump can be inverted */
	uint64_t ct, cnt; /* taken / not taken (conditional jumps) */
	double w;	  /* executions: exact for conditional jumps, else derived */
};

struct fn_in {
	const struct bg_raw_insn *raw;
	size_t len;
	const struct lay_count **cnt; /* per slot: counts of the jump there, or NULL */
};

struct fn_out {
	struct bg_raw_insn *code;
	size_t n;
	size_t *map;		 /* len + 1 entries: old slot -> new slot */
	bool *gone;		 /* len entries: the slot was a removed ja */
	size_t *bs_old, *bs_new; /* block starts */
	size_t nbs;
	bool *flipped; /* n entries: a conditional jump inverted here */
	int inverted, added, removed;
	double before, after;
};

static void fn_out_free(struct fn_out *o)
{
	free(o->code);
	free(o->map);
	free(o->gone);
	free(o->bs_old);
	free(o->bs_new);
	free(o->flipped);
	memset(o, 0, sizeof(*o));
}

static int why(char *buf, size_t sz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int why(char *buf, size_t sz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sz, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Decode the function; mark block leaders. */
static int fn_decode(const struct fn_in *in, struct bg_insn *d, bool *lead, char *w, size_t wsz)
{
	lead[0] = true;
	for (size_t k = 0; k < in->len;) {
		const char *bad = NULL;
		int used = bg_insn_decode(in->raw + k, in->len - k, k, &d[k], &bad);
		bool jump = d[k].kind == BG_K_JCOND || d[k].kind == BG_K_MAY_GOTO ||
			    (d[k].kind == BG_K_JA && d[k].target != (int32_t)k + 1);

		if (used <= 0)
			return why(w, wsz, "insn %zu does not decode (%s)", k, bad ? bad : "?");
		if (used == 2)
			d[k + 1].kind = BG_K_LD_IMM64_HI;
		if (jump) {
			if (d[k].target < 0 || (size_t)d[k].target >= in->len)
				return why(w, wsz, "insn %zu jumps out of the function", k);
			lead[d[k].target] = true;
		}
		if (jump || d[k].kind == BG_K_EXIT)
			lead[k + (size_t)used] = true;
		k += (size_t)used;
	}
	for (size_t k = 0; k < in->len; k++)
		if (lead[k] && d[k].kind == BG_K_LD_IMM64_HI)
			return why(w, wsz, "a jump lands in the middle of the ld_imm64 at %zu",
				   k - 1);
	return 0;
}

static int block_of(const struct blk *b, int nb, size_t slot)
{
	for (int i = 0; i < nb; i++)
		if (b[i].start == slot)
			return i;
	return -1;
}

/* Blocks, their successors and counts. */
static int fn_blocks(const struct fn_in *in, const struct bg_insn *d, const bool *lead,
		     struct blk *b, int *nb, char *w, size_t wsz)
{
	int n = 0;

	for (size_t k = 0; k < in->len; k++) {
		if (lead[k]) {
			if (n)
				b[n - 1].end = k;
			b[n++] = (struct blk){.start = k, .t = -1, .f = -1};
		}
		if (d[k].kind != BG_K_LD_IMM64_HI)
			b[n - 1].last = k;
	}
	b[n - 1].end = in->len;
	for (int i = 0; i < n; i++) {
		const struct bg_insn *x = &d[b[i].last];

		if (x->kind == BG_K_EXIT) {
			b[i].term = T_EXIT;
		} else if (x->kind == BG_K_JA && x->target != (int32_t)b[i].last + 1) {
			b[i].term = T_JA;
			b[i].t = block_of(b, n, (size_t)x->target);
		} else if (x->kind == BG_K_JCOND || x->kind == BG_K_MAY_GOTO) {
			b[i].term = T_COND;
			b[i].t = block_of(b, n, (size_t)x->target);
			b[i].f = i + 1 < n ? i + 1 : -1;
			b[i].inv = x->kind == BG_K_JCOND && bg_jmp_inverse(x->op);
			if (in->cnt[b[i].last]) {
				b[i].ct = in->cnt[b[i].last]->taken;
				b[i].cnt = in->cnt[b[i].last]->not_taken;
			}
		} else {
			b[i].term = T_FALL;
			b[i].f = i + 1 < n ? i + 1 : -1;
		}
		if ((b[i].term == T_FALL || b[i].term == T_COND) && b[i].f < 0)
			return why(w, wsz, "the last block falls off the end of the function");
		if ((b[i].term == T_JA || b[i].term == T_COND) && b[i].t < 0)
			return why(w, wsz, "insn %zu: jump target is not a block", b[i].last);
	}
	*nb = n;
	return 0;
}

/* Executions per block: conditional jumps are exact; other blocks sum their
 * incoming edges in program order (back edges are not counted); the entry
 * runs as often as the most executed conditional jump. */
static void fn_weights(struct blk *b, int nb)
{
	double entry = 0;

	for (int i = 0; i < nb; i++)
		if (b[i].term == T_COND && (double)(b[i].ct + b[i].cnt) > entry)
			entry = (double)(b[i].ct + b[i].cnt);
	for (int i = 0; i < nb; i++)
		b[i].w = i == 0 ? entry : 0;
	for (int i = 0; i < nb; i++) {
		if (b[i].term == T_COND)
			b[i].w = (double)(b[i].ct + b[i].cnt);
		for (int s = 0; s < 2; s++) {
			int to = s ? b[i].f : b[i].t;
			double ew = b[i].term == T_COND ? (double)(s ? b[i].cnt : b[i].ct) : b[i].w;

			if (to > i && b[to].term != T_COND)
				b[to].w += ew;
		}
	}
}

/* Taken jumps on the profile's runs for a block order (pos: block -> place). */
static double fn_cost(const struct blk *b, int nb, const int *order)
{
	double c = 0;

	for (int p = 0; p < nb; p++) {
		const struct blk *x = &b[order[p]];
		int nx = p + 1 < nb ? order[p + 1] : -1;

		if (x->term == T_COND)
			c += nx == x->f		      ? (double)x->ct
			     : (nx == x->t && x->inv) ? (double)x->cnt
						      : (double)(x->ct + x->cnt);
		else if ((x->term == T_FALL && nx != x->f) || (x->term == T_JA && nx != x->t))
			c += x->w;
	}
	return c;
}

/* Greedy chains: from each placed block go on with its hotter unplaced
 * successor; when there is none, the first unplaced block in program order. */
static void fn_order(const struct blk *b, int nb, int *order)
{
	bool *placed = calloc(nb > 0 ? (size_t)nb : 1, 1);
	int cur = 0;

	for (int np = 0; np < nb && placed; np++) {
		const struct blk *x = &b[cur];
		int nx = -1;

		order[np] = cur;
		placed[cur] = true;
		if (x->term == T_COND) {
			bool hot_t = x->inv && x->ct > x->cnt;
			int pref = hot_t ? x->t : x->f, oth = hot_t ? x->f : x->t;

			if (!placed[pref])
				nx = pref;
			else if (!placed[oth] && (oth == x->f || x->inv))
				nx = oth;
		} else if (x->term == T_FALL && !placed[x->f]) {
			nx = x->f;
		} else if (x->term == T_JA && !placed[x->t]) {
			nx = x->t;
		}
		for (int i = 0; nx < 0 && i < nb; i++)
			if (!placed[i])
				nx = i;
		cur = nx < 0 ? 0 : nx;
	}
	if (!placed)
		for (int i = 0; i < nb; i++)
			order[i] = i;
	free(placed);
}

struct patch {
	size_t at; /* new slot of the jump */
	int to;	   /* target block */
	bool wide; /* gotol: offset in imm */
};

static int fn_emit(const struct fn_in *in, const struct bg_insn *d, const struct blk *b, int nb,
		   const int *order, struct fn_out *o, char *w, size_t wsz)
{
	size_t cap = in->len + (size_t)nb + 1, *bnew = calloc((size_t)nb, sizeof(size_t));
	struct patch *pt = calloc(2 * (size_t)nb + 1, sizeof(*pt));
	int np = 0, err = 0;

	o->code = calloc(cap, sizeof(*o->code));
	o->flipped = calloc(cap, sizeof(bool));
	o->map = calloc(in->len + 1, sizeof(size_t));
	o->gone = calloc(in->len + 1, sizeof(bool));
	o->bs_old = calloc((size_t)nb, sizeof(size_t));
	o->bs_new = calloc((size_t)nb, sizeof(size_t));
	if (!bnew || !pt || !o->code || !o->flipped || !o->map || !o->gone || !o->bs_old ||
	    !o->bs_new) {
		free(bnew);
		free(pt);
		return -ENOMEM;
	}
	for (int p = 0; p < nb; p++) {
		const struct blk *x = &b[order[p]];
		int nx = p + 1 < nb ? order[p + 1] : -1;
		size_t body = x->term == T_FALL || x->term == T_EXIT ? x->end : x->last;

		bnew[order[p]] = o->n;
		o->bs_old[o->nbs] = x->start;
		o->bs_new[o->nbs++] = o->n;
		for (size_t k = x->start; k < body; k++) {
			o->map[k] = o->n;
			o->code[o->n++] = in->raw[k];
		}
		if (x->term == T_COND) {
			struct bg_raw_insn j = in->raw[x->last];
			int to = x->t;

			o->map[x->last] = o->n;
			if (nx != x->f && nx == x->t && x->inv && x->t != x->f) {
				j.code = (uint8_t)((j.code & 0x0f) | bg_jmp_inverse(d[x->last].op));
				to = x->f;
				o->flipped[o->n] = true;
				o->inverted++;
			}
			pt[np++] = (struct patch){o->n, to, false};
			o->code[o->n++] = j;
			if (nx != x->f && !o->flipped[o->n - 1]) { /* the fall-through is lost */
				pt[np++] = (struct patch){o->n, x->f, false};
				o->code[o->n++] = (struct bg_raw_insn){.code = CODE_JA};
				o->added++;
			}
		} else if (x->term == T_JA) {
			o->map[x->last] = o->n;
			if (nx == x->t) {
				o->gone[x->last] = true;
				o->removed++;
			} else {
				pt[np++] =
				    (struct patch){o->n, x->t, in->raw[x->last].code != CODE_JA};
				o->code[o->n++] = in->raw[x->last];
			}
		} else if (x->term == T_FALL && nx != x->f) {
			pt[np++] = (struct patch){o->n, x->f, false};
			o->code[o->n++] = (struct bg_raw_insn){.code = CODE_JA};
			o->added++;
		}
	}
	o->map[in->len] = o->n;
	for (int i = 0; i < np && !err; i++) {
		long off = (long)bnew[pt[i].to] - (long)pt[i].at - 1;

		if (pt[i].wide)
			o->code[pt[i].at].imm = (int32_t)off;
		else if (off < INT16_MIN || off > INT16_MAX)
			err = why(w, wsz, "a jump offset no longer fits 16 bits");
		else
			o->code[pt[i].at].off = (int16_t)off;
	}
	free(bnew);
	free(pt);
	return err;
}

/* Lay out one function. Returns 1 rewritten, 0 unchanged (no gain), or a
 * negative errno with the reason in w. */
static int layout_fn(const struct fn_in *in, struct fn_out *o, char *w, size_t wsz)
{
	struct bg_insn *d = calloc(in->len + 1, sizeof(*d));
	bool *lead = calloc(in->len + 1, sizeof(bool));
	struct blk *b = calloc(in->len + 1, sizeof(*b));
	int *order = calloc(in->len + 1, sizeof(int)), *ident = calloc(in->len + 1, sizeof(int));
	int nb = 0, rc = -ENOMEM;
	bool same = true;

	memset(o, 0, sizeof(*o));
	if (!d || !lead || !b || !order || !ident)
		goto out;
	rc = fn_decode(in, d, lead, w, wsz);
	rc = rc ?: fn_blocks(in, d, lead, b, &nb, w, wsz);
	if (rc)
		goto out;
	fn_weights(b, nb);
	fn_order(b, nb, order);
	for (int i = 0; i < nb; i++) {
		ident[i] = i;
		same &= order[i] == i;
	}
	o->before = fn_cost(b, nb, ident);
	o->after = fn_cost(b, nb, order);
	if (same || o->after >= o->before) {
		rc = 0;
		goto out;
	}
	rc = fn_emit(in, d, b, nb, order, o, w, wsz);
	rc = rc ?: 1;
out:
	if (rc <= 0) {
		double bf = o->before, af = o->after;

		fn_out_free(o);
		o->before = bf;
		o->after = af;
	}
	free(d);
	free(lead);
	free(b);
	free(order);
	free(ident);
	return rc;
}

/* --- the object ------------------------------------------------------------ */

struct lsym {
	GElf_Sym s;
	const char *name;
};

struct lsec {
	Elf_Scn *scn;
	GElf_Shdr sh;
	const char *name;
	Elf_Data *data;
	bool code, pinned, changed;
	size_t n; /* slots (code) */
	int rel;  /* index of its SHT_REL section, or 0 */
	/* the rewrite */
	struct bg_raw_insn *ncode;
	size_t nn;
	size_t *map;   /* n + 1 */
	bool *gone;    /* n */
	bool *flipped; /* nn */
	size_t *bs_old, *bs_new, nbs;
};

struct extblk {			     /* one section block of a .BTF.ext info subsection */
	size_t old_start, new_start; /* byte offsets of its first record in .BTF.ext */
	uint32_t old_cnt, new_cnt, rs;
};

struct lobj {
	struct extblk *xb;
	size_t nxb;
	void *relbuf; /* the rewritten .rel.BTF.ext entries */
	Elf *e;
	size_t nsec;
	struct lsec *s;
	struct lsym *sym;
	size_t nsym;
	int symtab;
	const struct lay_count *c;
	size_t nc;
	struct cc_layout *res;
};

static void note(struct cc_layout *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct cc_layout *r, const char *fmt, ...)
{
	size_t l = strlen(r->note);
	va_list ap;

	if (l + 3 >= sizeof(r->note))
		return;
	if (l)
		l += (size_t)snprintf(r->note + l, sizeof(r->note) - l, "; ");
	va_start(ap, fmt);
	vsnprintf(r->note + l, sizeof(r->note) - l, fmt, ap);
	va_end(ap);
}

static int lobj_read(struct lobj *o)
{
	size_t shstr;

	if (elf_getshdrnum(o->e, &o->nsec) || elf_getshdrstrndx(o->e, &shstr))
		return -EINVAL;
	o->s = calloc(o->nsec, sizeof(*o->s));
	if (!o->s)
		return -ENOMEM;
	for (size_t i = 1; i < o->nsec; i++) {
		struct lsec *s = &o->s[i];

		s->scn = elf_getscn(o->e, i);
		if (!s->scn || !gelf_getshdr(s->scn, &s->sh))
			return -EINVAL;
		s->name = elf_strptr(o->e, shstr, s->sh.sh_name);
		s->data = s->sh.sh_type == SHT_NOBITS ? NULL : elf_getdata(s->scn, NULL);
		if (!s->name)
			return -EINVAL;
		if (s->sh.sh_type == SHT_RELA || !strncmp(s->name, ".debug_", 7) ||
		    !strncmp(s->name, ".rel.debug_", 11))
			return note(o->res, "the object has %s (strip DWARF first)", s->name),
			       -ENOTSUP;
		if (s->sh.sh_type == SHT_SYMTAB)
			o->symtab = (int)i;
		s->code = s->sh.sh_type == SHT_PROGBITS && (s->sh.sh_flags & SHF_EXECINSTR) &&
			  s->data && s->data->d_buf && s->data->d_size == s->sh.sh_size &&
			  s->sh.sh_size && !(s->sh.sh_size % 8);
		s->n = s->code ? s->sh.sh_size / 8 : 0;
	}
	for (size_t i = 1; i < o->nsec; i++)
		if (o->s[i].sh.sh_type == SHT_REL && o->s[i].sh.sh_info < o->nsec && o->s[i].data)
			o->s[o->s[i].sh.sh_info].rel = (int)i;
	return 0;
}

static int lobj_syms(struct lobj *o)
{
	struct lsec *st = o->symtab ? &o->s[o->symtab] : NULL;

	if (!st || !st->data)
		return -EINVAL;
	o->nsym = st->sh.sh_size / (st->sh.sh_entsize ? st->sh.sh_entsize : sizeof(Elf64_Sym));
	o->sym = calloc(o->nsym + 1, sizeof(*o->sym));
	if (!o->sym)
		return -ENOMEM;
	for (size_t i = 0; i < o->nsym; i++) {
		if (!gelf_getsym(st->data, (int)i, &o->sym[i].s))
			return -EINVAL;
		o->sym[i].name = elf_strptr(o->e, st->sh.sh_link, o->sym[i].s.st_name);
	}
	return 0;
}

static struct lsec *code_sec_of(struct lobj *o, const GElf_Sym *y)
{
	if (!y->st_shndx || y->st_shndx >= o->nsec || !o->s[y->st_shndx].code)
		return NULL;
	return &o->s[y->st_shndx];
}

/* Sections that other sections reach by offset in ways not rewritten here:
 * data relocations against anything but a function symbol (assertion
 * markers, section-relative pointers), code relocations on instructions other
 * than calls and callback loads. */
static int lobj_pins(struct lobj *o)
{
	for (size_t r = 1; r < o->nsec; r++) {
		struct lsec *rs = &o->s[r];
		struct lsec *tgt;
		size_t nrel;

		if (rs->sh.sh_type != SHT_REL || !rs->data || rs->sh.sh_info >= o->nsec)
			continue;
		tgt = &o->s[rs->sh.sh_info];
		if (!strcmp(tgt->name, ".BTF.ext"))
			continue; /* rewritten with .BTF.ext (fix_ext_rels) */
		nrel = rs->sh.sh_size / (rs->sh.sh_entsize ? rs->sh.sh_entsize : sizeof(Elf64_Rel));
		for (size_t i = 0; i < nrel; i++) {
			GElf_Rel rel;
			size_t si;
			struct lsec *to;

			if (!gelf_getrel(rs->data, (int)i, &rel) ||
			    (si = GELF_R_SYM(rel.r_info)) >= o->nsym)
				return -EINVAL;
			to = code_sec_of(o, &o->sym[si].s);
			if (tgt->code) {
				const struct bg_raw_insn *x;

				if (rel.r_offset % 8 || rel.r_offset / 8 >= tgt->n)
					return note(o->res,
						    "%s: relocation offset 0x%llx not on an "
						    "instruction",
						    rs->name, (unsigned long long)rel.r_offset),
					       -ENOTSUP;
				x = (const struct bg_raw_insn *)tgt->data->d_buf + rel.r_offset / 8;
				if (to &&
				    !(x->code == (BG_CLS_JMP | BG_JMP_CALL) && x->src_reg == 1) &&
				    x->code != (BG_CLS_LD |
						0x18)) { /* ld_imm64 of a function: a callback */
					note(o->res,
					     "%s keeps its layout: %s+0x%llx refers to its code",
					     to->name, tgt->name, (unsigned long long)rel.r_offset);
					to->pinned = true;
				}
			} else if (to && GELF_ST_TYPE(o->sym[si].s.st_info) != STT_FUNC) {
				if (!to->pinned)
					note(o->res,
					     "%s keeps its layout: %s refers to it by offset",
					     to->name, tgt->name);
				to->pinned = true;
			}
		}
	}
	return 0;
}

static const struct lay_count *count_at(const struct lobj *o, const char *sec, size_t off)
{
	for (size_t i = 0; i < o->nc; i++)
		if (o->c[i].off == off && !strcmp(o->c[i].sec, sec))
			return &o->c[i];
	return NULL;
}

struct fnrange {
	size_t start, len;
	const char *name;
};

static int range_cmp(const void *a, const void *b)
{
	const struct fnrange *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The functions of a code section, in order; they must tile it. */
static int sec_funcs(struct lobj *o, size_t si, struct fnrange **out, size_t *nout)
{
	struct lsec *s = &o->s[si];
	struct fnrange *f = calloc(o->nsym + 1, sizeof(*f));
	size_t n = 0, at = 0;

	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < o->nsym; i++) {
		const GElf_Sym *y = &o->sym[i].s;

		if (y->st_shndx != si || GELF_ST_TYPE(y->st_info) != STT_FUNC)
			continue;
		if (y->st_value % 8 || y->st_size % 8 || !y->st_size)
			goto bad;
		f[n++] = (struct fnrange){y->st_value / 8, y->st_size / 8, o->sym[i].name};
	}
	qsort(f, n, sizeof(*f), range_cmp);
	for (size_t i = 0; i < n; at += f[i].len, i++)
		if (f[i].start != at)
			goto bad;
	if (at != s->n)
		goto bad;
	*out = f;
	*nout = n;
	return 0;
bad:
	free(f);
	note(o->res, "%s keeps its layout: its functions do not tile it", s->name);
	return -ENOTSUP;
}

static int sec_alloc(struct lsec *s, size_t cap)
{
	s->ncode = calloc(cap, sizeof(*s->ncode));
	s->map = calloc(s->n + 1, sizeof(size_t));
	s->gone = calloc(s->n + 1, sizeof(bool));
	s->flipped = calloc(cap, sizeof(bool));
	s->bs_old = calloc(cap, sizeof(size_t));
	s->bs_new = calloc(cap, sizeof(size_t));
	return s->ncode && s->map && s->gone && s->flipped && s->bs_old && s->bs_new ? 0 : -ENOMEM;
}

/* Append one function's result (or its unchanged code) to the section. */
static void sec_append(struct lsec *s, const struct fnrange *f, const struct fn_out *fo)
{
	const struct bg_raw_insn *raw = (const struct bg_raw_insn *)s->data->d_buf + f->start;
	size_t base = s->nn;

	if (!fo->code) {
		for (size_t k = 0; k < f->len; k++) {
			s->map[f->start + k] = s->nn;
			s->ncode[s->nn++] = raw[k];
		}
		return;
	}
	for (size_t k = 0; k < f->len; k++) {
		s->map[f->start + k] = base + fo->map[k];
		s->gone[f->start + k] = fo->gone[k];
	}
	for (size_t k = 0; k < fo->n; k++) {
		s->flipped[base + k] = fo->flipped[k];
		s->ncode[s->nn++] = fo->code[k];
	}
	for (size_t i = 0; i < fo->nbs; i++) {
		s->bs_old[s->nbs] = f->start + fo->bs_old[i];
		s->bs_new[s->nbs++] = base + fo->bs_new[i];
	}
}

static int sec_layout(struct lobj *o, size_t si)
{
	struct lsec *s = &o->s[si];
	struct fnrange *f = NULL;
	size_t nf = 0;
	int err = sec_funcs(o, si, &f, &nf);

	if (err)
		return err == -ENOTSUP ? 0 : err;
	err = sec_alloc(s, 2 * s->n + 2);
	for (size_t i = 0; i < nf && !err; i++) {
		const struct lay_count **cnt = calloc(f[i].len, sizeof(*cnt));
		struct fn_in in = {(const struct bg_raw_insn *)s->data->d_buf + f[i].start,
				   f[i].len, cnt};
		struct fn_out fo = {0};
		char w[200] = "";
		bool any = false;
		int rc = 0;

		if (!cnt) {
			err = -ENOMEM;
			break;
		}
		for (size_t k = 0; k < f[i].len; k++)
			any |= (cnt[k] = count_at(o, s->name, (f[i].start + k) * 8)) != NULL;
		if (any && !s->pinned)
			rc = layout_fn(&in, &fo, w, sizeof(w));
		if (rc < 0 && rc != -ENOMEM)
			note(o->res, "%s (%s) unchanged: %s", f[i].name, s->name, w);
		if (rc == -ENOMEM)
			err = rc;
		if (rc == 1) {
			o->res->funcs++;
			o->res->inverted += fo.inverted;
			o->res->ja_added += fo.added;
			o->res->ja_removed += fo.removed;
			s->changed = true;
		}
		o->res->taken_before += (uint64_t)(fo.before + 0.5);
		o->res->taken_after += (uint64_t)((rc == 1 ? fo.after : fo.before) + 0.5);
		sec_append(s, &f[i], rc == 1 ? &fo : &(struct fn_out){0});
		fn_out_free(&fo);
		free(cnt);
	}
	s->map[s->n] = s->nn;
	free(f);
	return err;
}

/* --- fix-ups --------------------------------------------------------------- */

static size_t map_slot(const struct lsec *s, size_t slot)
{
	return s->changed ? s->map[slot] : slot;
}

static const GElf_Rel *rel_at(const struct lobj *o, const struct lsec *s, size_t off, GElf_Rel *buf)
{
	const struct lsec *rs = s->rel ? &o->s[s->rel] : NULL;
	size_t n =
	    rs ? rs->sh.sh_size / (rs->sh.sh_entsize ? rs->sh.sh_entsize : sizeof(Elf64_Rel)) : 0;

	for (size_t i = 0; i < n; i++)
		if (gelf_getrel(rs->data, (int)i, buf) && buf->r_offset == off)
			return buf;
	return NULL;
}

/* New immediate of the call or callback load at slot i of code section c. */
static int fix_call(struct lobj *o, struct lsec *c, size_t i, const struct bg_raw_insn *x,
		    int32_t *imm)
{
	bool call = x->code == (BG_CLS_JMP | BG_JMP_CALL);
	GElf_Rel rb;
	const GElf_Rel *r = rel_at(o, c, i * 8, &rb);
	const struct lsec *t = c;
	long tgt, base_old = (long)i + 1, base_new = (long)map_slot(c, i) + 1, scale = 1;

	if (r) {
		const GElf_Sym *y =
		    GELF_R_SYM(r->r_info) < o->nsym ? &o->sym[GELF_R_SYM(r->r_info)].s : NULL;

		if (!y || !(t = code_sec_of(o, y)))
			return 0; /* an extern or not code: nothing to move */
		if (y->st_value % 8)
			return -ENOTSUP;
		base_old = (long)(y->st_value / 8) + (call ? 1 : 0);
		base_new = (long)map_slot(t, y->st_value / 8) + (call ? 1 : 0);
		scale = call ? 1 : 8;
	} else if (!call && x->src_reg == BG_PSEUDO_FUNC) {
		base_old = (long)i + 1, base_new = (long)map_slot(c, i) + 1;
	}
	if (!call && r && x->imm % 8)
		return -ENOTSUP;
	tgt = base_old + x->imm / scale;
	if (tgt < 0 || (size_t)tgt >= t->n)
		return -ENOTSUP;
	*imm = (int32_t)(((long)map_slot(t, (size_t)tgt) - base_new) * scale);
	return 0;
}

static int fix_calls(struct lobj *o)
{
	for (size_t si = 1; si < o->nsec; si++) {
		struct lsec *c = &o->s[si];
		const struct bg_raw_insn *raw = c->code ? c->data->d_buf : NULL;

		for (size_t i = 0; raw && i < c->n; i++) {
			bool call =
			    raw[i].code == (BG_CLS_JMP | BG_JMP_CALL) && raw[i].src_reg == 1;
			bool cb = raw[i].code == (BG_CLS_LD | 0x18) && i + 1 < c->n;
			int32_t imm = raw[i].imm;
			GElf_Rel rb;
			const GElf_Rel *r = cb ? rel_at(o, c, i * 8, &rb) : NULL;

			/* a callback: BPF_PSEUDO_FUNC, or (before libbpf marks it) relocated
			 * against a symbol of a code section */
			cb = cb && (raw[i].src_reg == BG_PSEUDO_FUNC ||
				    (r && GELF_R_SYM(r->r_info) < o->nsym &&
				     code_sec_of(o, &o->sym[GELF_R_SYM(r->r_info)].s)));

			if (!call && !cb)
				continue;
			if (fix_call(o, c, i, &raw[i], &imm))
				return note(o->res, "%s+0x%zx: call target not understood", c->name,
					    i * 8),
				       -ENOTSUP;
			if (imm != raw[i].imm &&
			    !c->changed) { /* the callee moved: copy the code */
				if (sec_alloc(c, c->n + 1))
					return -ENOMEM;
				for (size_t k = 0; k <= c->n; k++)
					c->map[k] = k;
				memcpy(c->ncode, raw, c->n * 8);
				c->nn = c->n;
				c->changed = true;
			}
			if (c->changed)
				c->ncode[map_slot(c, i)].imm = imm;
		}
	}
	return 0;
}

static void fix_rels(struct lobj *o)
{
	for (size_t si = 1; si < o->nsec; si++) {
		struct lsec *c = &o->s[si], *rs = c->rel ? &o->s[c->rel] : NULL;
		size_t n = rs ? rs->sh.sh_size /
				    (rs->sh.sh_entsize ? rs->sh.sh_entsize : sizeof(Elf64_Rel))
			      : 0;

		if (!c->changed)
			continue;
		for (size_t i = 0; i < n; i++) {
			GElf_Rel r;

			if (!gelf_getrel(rs->data, (int)i, &r))
				continue;
			r.r_offset = map_slot(c, r.r_offset / 8) * 8 + r.r_offset % 8;
			gelf_update_rel(rs->data, (int)i, &r);
		}
		if (rs)
			elf_flagdata(rs->data, ELF_C_SET, ELF_F_DIRTY);
	}
}

static void fix_syms(struct lobj *o)
{
	struct lsec *st = &o->s[o->symtab];

	for (size_t i = 0; i < o->nsym; i++) {
		GElf_Sym y = o->sym[i].s;
		struct lsec *c = code_sec_of(o, &y);
		size_t a, b;

		if (!c || !c->changed || y.st_value / 8 > c->n)
			continue;
		a = y.st_value / 8;
		b = a + y.st_size / 8;
		y.st_value = map_slot(c, a) * 8 + y.st_value % 8;
		if (GELF_ST_TYPE(y.st_info) == STT_FUNC && b <= c->n)
			y.st_size = (map_slot(c, b) - map_slot(c, a)) * 8;
		gelf_update_sym(st->data, (int)i, &y);
	}
	elf_flagdata(st->data, ELF_C_SET, ELF_F_DIRTY);
}

/* --- .BTF.ext ------------------------------------------------------------ */

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

struct buf {
	uint8_t *b;
	size_t n, cap;
};

static int put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = (b->n + n) * 2 + 64;
		uint8_t *t = realloc(b->b, cap);

		if (!t)
			return -ENOMEM;
		b->b = t;
		b->cap = cap;
	}
	memcpy(b->b + b->n, p, n);
	b->n += n;
	return 0;
}

/* The .BTF string at off (names the sections in .BTF.ext), or NULL. */
static const char *btf_str(const struct lobj *o, uint32_t off)
{
	for (size_t i = 1; i < o->nsec; i++) {
		const struct lsec *s = &o->s[i];
		const uint8_t *d;
		uint32_t hl, so, sl;

		if (strcmp(s->name, ".BTF") || !s->data || s->data->d_size < 24)
			continue;
		d = s->data->d_buf;
		hl = rd32(d + 4), so = rd32(d + 16), sl = rd32(d + 20);
		if ((uint64_t)hl + so + sl > s->data->d_size || off >= sl ||
		    !memchr(d + hl + so + off, 0, sl - off))
			return NULL;
		return (const char *)d + hl + so + off;
	}
	return NULL;
}

static struct lsec *sec_named(struct lobj *o, const char *name)
{
	for (size_t i = 1; o && name && i < o->nsec; i++)
		if (o->s[i].code && !strcmp(o->s[i].name, name))
			return &o->s[i];
	return NULL;
}

struct lrec {
	uint32_t newoff;
	int added;
	uint8_t *rec;
};

static int lrec_cmp(const void *a, const void *b)
{
	const struct lrec *x = a, *y = b;

	if (x->newoff != y->newoff)
		return x->newoff < y->newoff ? -1 : 1;
	return x->added - y->added;
}

/* The line records of one section block, mapped; moved blocks get a record
 * of the line in force at their old place. Writes the block to out. */
static int line_block(struct lsec *s, uint32_t name, const uint8_t *recs, uint32_t cnt, uint32_t rs,
		      struct buf *out)
{
	struct lrec *v = calloc((size_t)cnt + s->nbs + 1, sizeof(*v));
	uint8_t *extra = calloc(s->nbs + 1, rs);
	size_t n = 0, kept = 0;
	uint8_t hdr[8];
	int err = 0;

	if (!v || !extra) {
		free(v);
		free(extra);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < cnt; i++) {
		uint32_t old = rd32(recs + (size_t)i * rs) / 8;

		if (old < s->n && s->gone[old])
			continue;
		v[n++] = (struct lrec){(uint32_t)map_slot(s, old > s->n ? s->n : old) * 8, 0,
				       (uint8_t *)recs + (size_t)i * rs};
	}
	for (size_t b = 0; b < s->nbs; b++) {
		const uint8_t *in_force = NULL;

		for (uint32_t i = 0; i < cnt; i++)
			if (rd32(recs + (size_t)i * rs) / 8 <= s->bs_old[b])
				in_force = recs + (size_t)i * rs;
		if (!in_force)
			continue;
		memcpy(extra + b * rs, in_force, rs);
		v[n++] = (struct lrec){(uint32_t)s->bs_new[b] * 8, 1, extra + b * rs};
	}
	qsort(v, n, sizeof(*v), lrec_cmp);
	for (size_t i = 0; i < n; i++)
		if (!i || v[i].newoff != v[kept - 1].newoff)
			v[kept++] = v[i];
	wr32(hdr, name);
	wr32(hdr + 4, (uint32_t)kept);
	err = put(out, hdr, 8);
	for (size_t i = 0; i < kept && !err; i++) {
		wr32(v[i].rec, v[i].newoff);
		err = put(out, v[i].rec, rs);
	}
	free(v);
	free(extra);
	return err;
}

/* One info subsection (func, line or CO-RE) rewritten into out. */
static int ext_block(struct lobj *o, size_t old_start, size_t new_start, uint32_t old_cnt,
		     uint32_t new_cnt, uint32_t rs)
{
	struct extblk *t = realloc(o->xb, (o->nxb + 1) * sizeof(*t));

	if (!t)
		return -ENOMEM;
	o->xb = t;
	t[o->nxb++] = (struct extblk){old_start, new_start, old_cnt, new_cnt, rs};
	return 0;
}

static int ext_sub(struct lobj *o, const uint8_t *p, size_t pbase, uint32_t len, bool line,
		   struct buf *out)
{
	uint32_t rs, at = 4;
	uint8_t *copy;
	int err;

	if (!len)
		return 0;
	if (len < 4 || (rs = rd32(p)) < 4 || rs > 1024)
		return -EINVAL;
	copy = malloc(len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, p, len);
	err = put(out, copy, 4);
	while (!err && at < len) {
		uint32_t name, cnt;
		struct lsec *s;
		uint8_t *recs;
		size_t start;

		if (len - at < 8)
			err = -EINVAL;
		name = err ? 0 : rd32(copy + at), cnt = err ? 0 : rd32(copy + at + 4);
		if (err || (uint64_t)cnt * rs > len - at - 8) {
			err = -EINVAL;
			break;
		}
		recs = copy + at + 8;
		s = sec_named(o, btf_str(o, name));
		start = out->n + 8;
		if (s && s->changed && line) {
			err = line_block(s, name, recs, cnt, rs, out);
		} else {
			for (uint32_t i = 0; s && s->changed && i < cnt; i++) {
				uint32_t off = rd32(recs + (size_t)i * rs);

				wr32(recs + (size_t)i * rs,
				     (uint32_t)map_slot(s, off / 8 > s->n ? s->n : off / 8) * 8);
			}
			err = put(out, copy + at, 8 + (size_t)cnt * rs);
		}
		if (!err)
			err =
			    ext_block(o, pbase + at + 8, start, cnt, rd32(out->b + start - 4), rs);
		at += 8 + cnt * rs;
	}
	free(copy);
	return err;
}

/* .rel.BTF.ext: clang relocates every record's insn_off against its code
 * section (one symbol and type per block); the blocks were rewritten, so
 * are their relocations: one per record of each block that had them. */
static int fix_ext_rels(struct lobj *o, struct lsec *x)
{
	struct lsec *rs = x->rel ? &o->s[x->rel] : NULL;
	size_t n =
	    rs ? rs->sh.sh_size / (rs->sh.sh_entsize ? rs->sh.sh_entsize : sizeof(Elf64_Rel)) : 0;
	size_t total = 0, used = 0, k = 0;
	GElf_Rel *nr;

	if (!rs)
		return 0;
	for (size_t b = 0; b < o->nxb; b++)
		total += o->xb[b].new_cnt;
	nr = calloc(total + 1, sizeof(*nr));
	if (!nr)
		return -ENOMEM;
	for (size_t b = 0; b < o->nxb; b++) {
		const struct extblk *xb = &o->xb[b];
		size_t end = xb->old_start + (size_t)xb->old_cnt * xb->rs, here = 0;
		GElf_Rel t = {0}, r;

		for (size_t i = 0; i < n; i++) {
			if (!gelf_getrel(rs->data, (int)i, &r) || r.r_offset < xb->old_start ||
			    r.r_offset >= end)
				continue;
			if ((r.r_offset - xb->old_start) % xb->rs || (here && r.r_info != t.r_info))
				goto bad;
			t = r;
			here++;
		}
		if (here && here != xb->old_cnt)
			goto bad;
		used += here;
		for (uint32_t i = 0; here && i < xb->new_cnt; i++)
			nr[k++] = (GElf_Rel){xb->new_start + (size_t)i * xb->rs, t.r_info};
	}
	if (used != n)
		goto bad;
	o->relbuf = calloc(k + 1, sizeof(Elf64_Rel));
	if (!o->relbuf) {
		free(nr);
		return -ENOMEM;
	}
	rs->data->d_buf = o->relbuf;
	rs->data->d_size = k * sizeof(Elf64_Rel);
	for (size_t i = 0; i < k; i++)
		gelf_update_rel(rs->data, (int)i, &nr[i]);
	elf_flagdata(rs->data, ELF_C_SET, ELF_F_DIRTY);
	free(nr);
	return 0;
bad:
	free(nr);
	note(o->res, "%s: relocations not one per record", rs->name);
	return -ENOTSUP;
}

static int fix_btf_ext(struct lobj *o, uint8_t **keep)
{
	struct lsec *x = NULL;
	const uint8_t *d;
	uint32_t hl, off[3] = {0}, len[3] = {0};
	struct buf out = {0};
	int err = 0, order[3] = {0, 1, 2};

	for (size_t i = 1; i < o->nsec; i++)
		if (!strcmp(o->s[i].name, ".BTF.ext"))
			x = &o->s[i];
	if (!x || !x->data || x->data->d_size < 24)
		return x ? -EINVAL : 0;
	d = x->data->d_buf;
	hl = rd32(d + 4);
	if (rd32(d) % 65536 != 0xeB9F || hl < 24 || hl > x->data->d_size)
		return -EINVAL;
	for (int k = 0; k < 3 && 8 + 8 * k + 8 <= (int)hl; k++) {
		off[k] = rd32(d + 8 + 8 * k);
		len[k] = rd32(d + 12 + 8 * k);
		if ((uint64_t)hl + off[k] + len[k] > x->data->d_size)
			return -EINVAL;
	}
	for (int a = 0; a < 3; a++) /* subsections in their order in the file */
		for (int b = a + 1; b < 3; b++)
			if (off[order[b]] < off[order[a]]) {
				int t = order[a];

				order[a] = order[b];
				order[b] = t;
			}
	err = put(&out, d, hl);
	for (int i = 0; i < 3 && !err; i++) {
		int k = order[i];
		size_t start = out.n;

		if (8 + 8 * k + 8 > (int)hl)
			continue;
		err = ext_sub(o, d + hl + off[k], hl + off[k], len[k], k == 1, &out);
		wr32(out.b + 8 + 8 * k, (uint32_t)(start - hl));
		wr32(out.b + 12 + 8 * k, (uint32_t)(out.n - start));
	}
	if (err) {
		free(out.b);
		return err;
	}
	err = fix_ext_rels(o, x);
	if (err) {
		free(out.b);
		return err;
	}
	x->data->d_buf = out.b;
	x->data->d_size = out.n;
	*keep = out.b;
	elf_flagdata(x->data, ELF_C_SET, ELF_F_DIRTY);
	return 0;
}

/* .bpfgate.hints (docs/HINTS.md): offsets mapped, P(taken) flipped where the
 * jump was inverted. */
static int fix_hints(struct lobj *o)
{
	for (size_t i = 1; i < o->nsec; i++) {
		struct lsec *h = &o->s[i];
		uint8_t *d;
		uint32_t hl, rs, n, so, sl;

		if (strcmp(h->name, ".bpfgate.hints") || !h->data || h->data->d_size < 24)
			continue;
		d = h->data->d_buf;
		hl = (uint32_t)d[6] | (uint32_t)d[7] << 8;
		rs = rd32(d + 8), n = rd32(d + 12), so = rd32(d + 16), sl = rd32(d + 20);
		if (memcmp(d, "BGH1", 4) || rs < 28 ||
		    (uint64_t)hl + (uint64_t)rs * n > h->data->d_size ||
		    (uint64_t)so + sl > h->data->d_size)
			return -EINVAL;
		for (uint32_t r = 0; r < n; r++) {
			uint8_t *rec = d + hl + (size_t)r * rs;
			uint32_t name = rd32(rec), off = rd32(rec + 4);
			struct lsec *s = name < sl && memchr(d + so + name, 0, sl - name)
					     ? sec_named(o, (const char *)d + so + name)
					     : NULL;
			size_t ns;

			if (!s || !s->changed || off / 8 >= s->n)
				continue;
			ns = map_slot(s, off / 8);
			wr32(rec + 4, (uint32_t)ns * 8);
			if (ns < s->nn && s->flipped[ns])
				wr32(rec + 8, 0x80000000u - rd32(rec + 8));
		}
		elf_flagdata(h->data, ELF_C_SET, ELF_F_DIRTY);
	}
	return 0;
}

/* The profile's counts at their new places, in the rewritten jumps' sense. */
static int collect_hints(struct lobj *o)
{
	struct cc_layout *r = o->res;

	r->hints = calloc(o->nc + 1, sizeof(*r->hints));
	if (!r->hints)
		return -ENOMEM;
	for (size_t i = 0; i < o->nc; i++) {
		const struct lay_count *c = &o->c[i];
		struct lsec *s = sec_named(o, c->sec);
		struct lay_hint *h = &r->hints[r->nhints];
		size_t ns;

		if (!s || c->off / 8 >= s->n)
			continue;
		ns = map_slot(s, c->off / 8);
		snprintf(h->sec, sizeof(h->sec), "%s", c->sec);
		h->off = (uint32_t)ns * 8;
		h->taken = c->taken, h->not_taken = c->not_taken;
		if (s->changed && ns < s->nn && s->flipped[ns])
			h->taken = c->not_taken, h->not_taken = c->taken;
		h->file = c->file, h->line = c->line, h->col = c->col;
		r->nhints++;
	}
	return 0;
}

static void lobj_free(struct lobj *o)
{
	for (size_t i = 0; o->s && i < o->nsec; i++) {
		struct lsec *s = &o->s[i];

		free(s->ncode);
		free(s->map);
		free(s->gone);
		free(s->flipped);
		free(s->bs_old);
		free(s->bs_new);
	}
	free(o->s);
	free(o->sym);
	free(o->xb);
	free(o->relbuf);
}

static int copy_file(const char *from, const char *to)
{
	size_t len;
	char *b = bg_read_file(from, &len);
	FILE *f;
	int ok;

	if (!b)
		return -errno;
	f = fopen(to, "wb");
	ok = f && fwrite(b, 1, len, f) == len;
	if (f)
		ok &= fclose(f) == 0;
	free(b);
	return ok ? 0 : -EIO;
}

static int rewrite(struct lobj *o, uint8_t **ext)
{
	int err = lobj_read(o);

	err = err ?: lobj_syms(o);
	err = err ?: lobj_pins(o);
	for (size_t i = 1; !err && i < o->nsec; i++)
		if (o->s[i].code)
			err = sec_layout(o, i);
	if (err || !o->res->funcs)
		return err;
	err = fix_calls(o);
	if (err)
		return err;
	fix_rels(o);
	fix_syms(o);
	err = fix_btf_ext(o, ext);
	err = err ?: fix_hints(o);
	err = err ?: collect_hints(o);
	for (size_t i = 1; !err && i < o->nsec; i++) {
		struct lsec *s = &o->s[i];

		if (!s->changed)
			continue;
		s->data->d_buf = s->ncode;
		s->data->d_size = s->nn * 8;
		elf_flagdata(s->data, ELF_C_SET, ELF_F_DIRTY);
	}
	return err;
}

int cc_layout_rewrite(const char *in, const char *out, const struct lay_count *c, size_t n,
		      struct cc_layout *res)
{
	struct lobj o = {.c = c, .nc = n, .res = res};
	uint8_t *ext = NULL;
	int fd, err;

	memset(res, 0, sizeof(*res));
	err = copy_file(in, out);
	if (err)
		return err;
	elf_version(EV_CURRENT);
	fd = open(out, O_RDWR);
	if (fd < 0)
		return -errno;
	o.e = elf_begin(fd, ELF_C_RDWR, NULL);
	err = o.e ? rewrite(&o, &ext) : -EINVAL;
	if (!err && res->funcs && elf_update(o.e, ELF_C_WRITE) < 0)
		err = -EIO;
	if (o.e)
		elf_end(o.e);
	close(fd);
	lobj_free(&o);
	free(ext);
	if (err || !res->funcs)
		unlink(out);
	if (err == -ENOTSUP) {
		res->funcs = 0;
		return 0;
	}
	return err ? err : res->funcs;
}

void cc_layout_free(struct cc_layout *res)
{
	free(res->hints);
	res->hints = NULL;
	res->nhints = 0;
}

/* --- the profile on the object --------------------------------------------- */

/* Section and byte offset of slot `slot` of program p (its function piece). */
static bool slot_place(const struct bg_program *p, size_t slot, const char **sec, uint32_t *off)
{
	for (size_t i = 0; i < p->npieces; i++) {
		const struct obj_func *f = &p->obj->funcs[p->pieces[i].func];

		if (slot >= p->pieces[i].at && slot - p->pieces[i].at < f->len) {
			*sec = p->obj->secs[f->sec].name;
			*off = (uint32_t)((f->start + slot - p->pieces[i].at) * 8);
			return true;
		}
	}
	return false;
}

static int add_count(struct lay_count **v, size_t *n, const char *sec, uint32_t off,
		     const struct cc_branch *b)
{
	struct lay_count *t;

	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].off == off && !strcmp((*v)[i].sec, sec)) {
			(*v)[i].taken += b->taken;
			(*v)[i].not_taken += b->not_taken;
			return 0;
		}
	t = realloc(*v, (*n + 1) * sizeof(**v));
	if (!t)
		return -ENOMEM;
	*v = t;
	t = &t[(*n)++];
	memset(t, 0, sizeof(*t));
	snprintf(t->sec, sizeof(t->sec), "%s", sec);
	snprintf(t->file, sizeof(t->file), "%s", b->file);
	t->off = off;
	t->taken = b->taken, t->not_taken = b->not_taken;
	t->line = b->line, t->col = b->col;
	return 0;
}

/* The records of program p against its code: every record on a conditional
 * jump at its line and column, every conditional jump with a record. */
static int prog_counts(const struct bg_program *p, const struct cc_branch *b, size_t n,
		       struct lay_count **v, size_t *nv, char *w, size_t wsz)
{
	size_t ni = 0, njc = 0, nrec = 0;
	const struct bg_insn *in = bg_program__insns(p, &ni);

	for (size_t i = 0; in && i < ni; i++)
		njc += in[i].kind == BG_K_JCOND;
	for (size_t i = 0; i < n; i++) {
		const struct bg_line *l;
		const char *sec;
		uint32_t off;

		if (strcmp(b[i].prog, p->name))
			continue;
		nrec++;
		l = b[i].insn < ni ? bg_program__line(p, b[i].insn) : NULL;
		if (!in || b[i].insn >= ni || in[b[i].insn].kind != BG_K_JCOND)
			return why(
			    w, wsz,
			    "program %s: insn %u of the profile is not a conditional jump here",
			    p->name, b[i].insn);
		if (l && l->line &&
		    (l->line != b[i].line ||
		     l->col != b[i].col)) /* line 0: cov names the block's line */
			return why(
			    w, wsz,
			    "program %s: insn %u is at line %u:%u here, %u:%u in the profile",
			    p->name, b[i].insn, l ? l->line : 0, l ? l->col : 0, b[i].line,
			    b[i].col);
		if (!slot_place(p, b[i].insn, &sec, &off))
			return why(w, wsz, "program %s: insn %u is in no function", p->name,
				   b[i].insn);
		if (add_count(v, nv, sec, off, &b[i]))
			return -ENOMEM;
	}
	if (nrec && nrec != njc)
		return why(w, wsz, "program %s: %zu conditional jumps here, %zu in the profile",
			   p->name, njc, nrec);
	return 0;
}

int cc_layout_counts(const char *path, const struct cc_branch *b, size_t n, struct lay_count **out,
		     size_t *nout, char *w, size_t wsz)
{
	struct bg_object *obj = bg_object__open(path, NULL, w, wsz);
	int err = 0;

	*out = NULL;
	*nout = 0;
	if (!obj)
		return -EINVAL;
	for (size_t i = 0; i < n && !err; i++)
		if (!bg_object__find_prog(obj, b[i].prog))
			err = why(w, wsz, "program %s of the profile is not in the object",
				  b[i].prog);
	for (size_t i = 0; i < bg_object__prog_cnt(obj) && !err; i++)
		err = prog_counts(bg_object__prog(obj, i), b, n, out, nout, w, wsz);
	bg_object__free(obj);
	if (err) {
		free(*out);
		*out = NULL;
		*nout = 0;
		return err == -ENOMEM ? err : -ESTALE;
	}
	return 0;
}
