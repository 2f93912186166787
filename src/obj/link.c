/* Link stage: one prepared program per entry point.
 * The entry function is placed at slot 0; every function it reaches through
 * BPF-to-BPF calls or callback addresses (ld_imm64 BPF_PSEUDO_FUNC) is
 * appended once, in discovery order, as the kernel expects; call and callback
 * immediates are rewritten to the new relative offsets. Relocations are then
 * applied at the placed copies, CO-RE relocations after them (core.c), and
 * .BTF.ext func_info/line_info are remapped to final slots. Finally the whole
 * program is decoded once (bg_prog_decode), which also validates it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "obj/internal.h"

#define CODE_LD_IMM64 0x18
#define CODE_CALL 0x85
#define POISON_IMM 0xbad2310

static const struct obj_relo *find_relo(const struct obj_sec *s, size_t insn)
{
	size_t lo = 0, hi = s->nrelos;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->relos[mid].insn == insn)
			return &s->relos[mid];
		if (s->relos[mid].insn < insn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Index of the function containing (sec, insn), or -1. */
static int func_at(const struct bg_object *obj, uint32_t sec, size_t insn)
{
	size_t lo = 0, hi = obj->nfuncs;

	/* funcs are sorted by (sec, start) and do not overlap */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct obj_func *f = &obj->funcs[mid];

		if (f->sec < sec || (f->sec == sec && f->start + f->len <= insn))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < obj->nfuncs && obj->funcs[lo].sec == sec && insn >= obj->funcs[lo].start)
		return (int)lo;
	return -1;
}

static int piece_of(const struct bg_program *prog, int func)
{
	return func >= 0 ? prog->piece_of_func[func] : -1;
}

/* Target (sec, insn) of the call or callback at slot k of f, or false. */
static int local_target(struct bg_object *obj, const struct obj_func *f, size_t k, uint32_t *tsec,
			size_t *tinsn)
{
	const struct obj_sec *s = &obj->secs[f->sec];
	const struct bg_raw_insn *in = (const struct bg_raw_insn *)s->data + k;
	const struct obj_relo *r = find_relo(s, k);

	if (r && (r->kind == RELO_CALL || r->kind == RELO_FUNC)) {
		*tsec = r->tsec, *tinsn = r->tinsn;
		return 1;
	}
	if (r || in->code != CODE_CALL || in->src_reg != 1)
		return 0;
	/* a call inside the same section without relocation: pc-relative */
	if ((int64_t)k + in->imm + 1 < 0 || (int64_t)k + in->imm + 1 >= (int64_t)s->nslots)
		return obj_err(obj,
			       "section %u (%s): insn %zu: call target %lld outside the section",
			       f->sec, s->name, k, (long long)k + in->imm + 1);
	*tsec = f->sec, *tinsn = (size_t)((int64_t)k + in->imm + 1);
	return 1;
}

static int add_piece(struct bg_object *obj, struct bg_program *prog, int func, size_t *total)
{
	struct prog_piece *p;

	if (prog->npieces >= OBJ_MAX_FUNCS || *total + obj->funcs[func].len > OBJ_MAX_INSNS)
		return obj_errc(obj, -BG_ERR_LIMIT,
				"program %s: more than %u functions or %u insns", prog->name,
				OBJ_MAX_FUNCS, OBJ_MAX_INSNS);
	p = realloc(prog->pieces, (prog->npieces + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	prog->pieces = p;
	prog->piece_of_func[func] = (int)prog->npieces;
	p[prog->npieces++] = (struct prog_piece){func, *total};
	*total += obj->funcs[func].len;
	return 0;
}

/* Next call/callback target of f at or after *k (advanced past it).
 * Returns 1 with *tf set, 0 at the end of f, or a negative error. */
static int next_target(struct bg_object *obj, const struct obj_func *f, size_t *k, int *tf)
{
	const struct obj_sec *s = &obj->secs[f->sec];

	for (; *k < f->start + f->len; (*k)++) {
		size_t at = *k;
		bool wide = ((const struct bg_raw_insn *)s->data)[at].code == CODE_LD_IMM64;
		uint32_t tsec;
		size_t tinsn;
		int rc;

		if (wide && at + 1 >= f->start + f->len)
			return obj_err(
			    obj,
			    "section %u (%s): insn %zu: ld_imm64 crosses the end of function '%s'",
			    f->sec, s->name, at, f->name);
		rc = local_target(obj, f, at, &tsec, &tinsn);
		if (wide)
			(*k)++;
		if (rc <= 0) {
			if (rc < 0)
				return rc;
			continue;
		}
		*tf = func_at(obj, tsec, tinsn);
		if (*tf < 0 || obj->funcs[*tf].start != tinsn)
			return obj_err(obj,
				       "section %u (%s): insn %zu: target %s+%zu is not the start "
				       "of a function",
				       f->sec, s->name, at, obj->secs[tsec].name, tinsn);
		(*k)++;
		return 1;
	}
	return 0;
}

/* Discover every function reachable from function `from` (a piece already),
 * depth first in instruction order, which is the order libbpf appends
 * subprograms in. */
static int collect_pieces(struct bg_object *obj, struct bg_program *prog, int from, size_t *total)
{
	struct frame {
		int func;
		size_t k;
	} * stack;
	size_t sp = 0;
	int rc = 0;

	stack = malloc(OBJ_MAX_FUNCS * sizeof(*stack));
	if (!stack)
		return -ENOMEM;
	stack[sp++] = (struct frame){from, obj->funcs[from].start};
	while (sp && !rc) {
		struct frame *fr = &stack[sp - 1];
		int tf = -1;

		rc = next_target(obj, &obj->funcs[fr->func], &fr->k, &tf);
		if (rc == 0) {
			sp--;
			continue;
		}
		if (rc < 0 || piece_of(prog, tf) >= 0) {
			rc = rc < 0 ? rc : 0;
			continue;
		}
		if ((rc = add_piece(obj, prog, tf, total)))
			break;
		stack[sp++] = (struct frame){tf, obj->funcs[tf].start};
	}
	free(stack);
	return rc;
}

static int poison(struct bg_program *prog, size_t pos, char *reason)
{
	struct bg_raw_insn *in = &prog->raw[pos];
	bool wide = in->code == CODE_LD_IMM64 && pos + 1 < prog->n;

	*in = (struct bg_raw_insn){.code = CODE_CALL, .imm = POISON_IMM};
	if (wide)
		in[1] = (struct bg_raw_insn){.code = CODE_CALL, .imm = POISON_IMM};
	return prog_add_failure(prog, pos, reason);
}

static int apply_extern(struct bg_object *obj, struct bg_program *prog, size_t pos,
			const struct obj_extern *e)
{
	struct bg_raw_insn *in = &prog->raw[pos];

	if (e->kind == EXT_KCONFIG && e->resolved) {
		in[1].imm = (int32_t)(in[0].imm + e->kcfg_off);
		in[0].src_reg = BG_PSEUDO_MAP_IDX_VALUE;
		in[0].imm = obj->kcfg_map;
		return 0;
	}
	bool ld = in->code == CODE_LD_IMM64;

	/* an unresolved weak ksym, or a weak kfunc's address (bpf_ksym_exists),
	 * is 0 as libbpf loads it */
	if (!e->resolved && e->weak && (e->kind == EXT_KSYM || ld)) {
		in[0].src_reg = 0, in[0].imm = 0, in[1].imm = 0;
		return 0;
	}
	if (!e->resolved)
		return poison(prog, pos, obj_strdup(e->fail ? e->fail : "unresolved extern"));
	if (ld && e->typeless) {
		in[0].src_reg = 0;
		in[0].imm = (int32_t)(uint32_t)e->addr;
		in[1].imm = (int32_t)(uint32_t)(e->addr >> 32);
		return 0;
	}
	if (ld && e->no_kaddr) {
		/* loaded as libbpf does; the kernel refuses it before verification
		 * and the analysis reports the recorded reason */
		int rc = prog_add_failure(prog, pos, obj_strdup(e->no_kaddr));

		if (rc)
			return rc;
	}
	if (e->kind == EXT_KFUNC && !ld) {
		in->src_reg = 2; /* BPF_PSEUDO_KFUNC_CALL */
		in->imm = (int32_t)e->btf_id;
		in->off = 0;
	} else {
		in[0].src_reg = BG_PSEUDO_BTF_ID;
		in[0].imm = (int32_t)e->btf_id;
		in[1].imm = 0;
	}
	return 0;
}

static int apply_relocs(struct bg_object *obj, struct bg_program *prog)
{
	for (size_t pi = 0; pi < prog->npieces; pi++) {
		const struct obj_func *f = &obj->funcs[prog->pieces[pi].func];
		const struct obj_sec *s = &obj->secs[f->sec];
		size_t at = prog->pieces[pi].at;

		for (size_t k = f->start; k < f->start + f->len; k++) {
			size_t pos = at + (k - f->start);
			struct bg_raw_insn *in = &prog->raw[pos];
			const struct obj_relo *r = find_relo(s, k);
			bool wide = in->code == CODE_LD_IMM64;
			uint32_t tsec;
			size_t tinsn;
			int rc = 0;

			if (r && r->kind == RELO_EXTERN)
				rc = apply_extern(obj, prog, pos, &obj->exts[r->ext]);
			else if (r && r->kind == RELO_MAP)
				in[0].src_reg = BG_PSEUDO_MAP_IDX, in[0].imm = r->map,
				in[1].imm = 0;
			else if (r && r->kind == RELO_DATA)
				in[0].src_reg = BG_PSEUDO_MAP_IDX_VALUE, in[0].imm = r->map,
				in[1].imm = (int32_t)r->off;
			else if (local_target(obj, f, k, &tsec, &tinsn) > 0) {
				int tp = piece_of(prog, func_at(obj, tsec, tinsn));
				in->imm =
				    (int32_t)((int64_t)prog->pieces[tp].at - (int64_t)pos - 1);
				if (in->code == CODE_LD_IMM64)
					in[0].src_reg = BG_PSEUDO_FUNC, in[1].imm = 0;
			}
			if (rc)
				return rc;
			if (wide)
				k++;
		}
	}
	return 0;
}

static int build_func_info(struct bg_object *obj, struct bg_program *prog)
{
	bool all_btf = obj->btf != NULL;

	prog->funcs = calloc(prog->npieces, sizeof(*prog->funcs));
	if (!prog->funcs)
		return -ENOMEM;
	prog->nfuncs = prog->npieces;
	for (size_t i = 0; i < prog->npieces; i++) {
		const struct obj_func *f = &obj->funcs[prog->pieces[i].func];
		const struct btf_type *t = f->btf_id ? btf__type_by_id(obj->btf, f->btf_id) : NULL;

		if (f->btf_id && (!t || !btf_is_func(t)))
			return obj_err(obj, ".BTF.ext: func_info of '%s' names type %u, not a FUNC",
				       f->name, f->btf_id);
		prog->funcs[i] = (struct bg_func_info){prog->pieces[i].at, f->name, f->btf_id,
						       t ? btf_vlen(t) : (f->global ? 1 : 0)};
		all_btf &= f->btf_id != 0;
	}
	if (!all_btf)
		return 0;
	prog->kfi = calloc(prog->npieces, sizeof(*prog->kfi));
	if (!prog->kfi)
		return -ENOMEM;
	prog->nkfi = prog->npieces;
	for (size_t i = 0; i < prog->npieces; i++)
		prog->kfi[i] = (struct bpf_func_info){(uint32_t)prog->pieces[i].at,
						      prog->funcs[i].btf_type_id};
	return 0;
}

static int kli_cmp(const void *a, const void *b)
{
	const struct bpf_line_info *x = a, *y = b;

	return x->insn_off < y->insn_off ? -1 : x->insn_off > y->insn_off;
}

static int build_line_info(struct bg_object *obj, struct bg_program *prog)
{
	size_t n = 0, cap = 0;
	int32_t cur = -1;

	for (size_t pi = 0; pi < prog->npieces; pi++) {
		const struct obj_func *f = &obj->funcs[prog->pieces[pi].func];
		const struct ext_sec *e = obj_ext_sec(obj, f->sec);

		for (size_t j = e ? obj_ext_lower(e->lines, e->nlines, sizeof(*e->lines), f->start)
				  : 0;
		     e && j < e->nlines && e->lines[j].insn < f->start + f->len; j++) {
			const struct ext_line *l = &e->lines[j];

			if (l->insn < f->start || l->insn >= f->start + f->len)
				continue;
			if (obj_grow((void **)&prog->kli, &cap, n, sizeof(*prog->kli)))
				return -ENOMEM;
			prog->kli[n++] = (struct bpf_line_info){
			    (uint32_t)(prog->pieces[pi].at + l->insn - f->start), l->file_off,
			    l->line_off, l->line_col};
		}
	}
	prog->nkli = n;
	if (!n)
		return 0;
	qsort(prog->kli, n, sizeof(*prog->kli), kli_cmp);
	prog->lines = calloc(n, sizeof(*prog->lines));
	prog->line_of = malloc(prog->n * sizeof(*prog->line_of));
	if (!prog->lines || !prog->line_of)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *file = btf__name_by_offset(obj->btf, prog->kli[i].file_name_off);
		const char *text = btf__name_by_offset(obj->btf, prog->kli[i].line_off);

		prog->lines[i] =
		    (struct bg_line){file ? file : "", text ? text : "",
				     prog->kli[i].line_col >> 10, prog->kli[i].line_col & 0x3ff};
	}
	for (size_t s = 0, i = 0; s < prog->n; s++) {
		while (i < n && prog->kli[i].insn_off <= s)
			cur = (int32_t)i++;
		prog->line_of[s] = cur;
	}
	return 0;
}

/* Where slot `slot` of prog comes from: the section of the function piece
 * holding it and the byte offset there (subprograms may live elsewhere). */
static void slot_origin(const struct bg_object *obj, const struct bg_program *prog, size_t slot,
			const char **sec, size_t *off)
{
	*sec = prog->sec_name;
	*off = slot * sizeof(struct bg_raw_insn);
	for (size_t i = 0; i < prog->npieces; i++) {
		const struct obj_func *f = &obj->funcs[prog->pieces[i].func];

		if (slot >= prog->pieces[i].at && slot - prog->pieces[i].at < f->len) {
			*sec = obj->secs[f->sec].name;
			*off = (f->start + slot - prog->pieces[i].at) * sizeof(struct bg_raw_insn);
			return;
		}
	}
}

/* Decode the final code. A slot that does not decode fails the open with
 * "FILE: program P (section S): insn N (section T offset 0xO, opcode 0xC): why";
 * with keep_malformed the open goes on and the program keeps, as its decode
 * error, "FILE: insn N (section T offset 0xO, opcode 0xC): why" and its raw
 * code only (the kernel oracle can still load it). */
static int decode(struct bg_object *obj, struct bg_program *prog)
{
	const char *why = NULL, *sec;
	size_t bad = 0, off;
	char *where;
	int err;

	prog->insns = calloc(prog->n, sizeof(*prog->insns));
	if (!prog->insns)
		return -ENOMEM;
	if (!bg_prog_decode(prog->raw, prog->n, prog->insns, &bad, &why))
		return 0;
	free(prog->insns);
	prog->insns = NULL;
	if (bad >= prog->n) /* the decoder names a slot of the program */
		bad = prog->n ? prog->n - 1 : 0;
	slot_origin(obj, prog, bad, &sec, &off);
	where = obj_asprintf("insn %zu (section %s offset 0x%zx, opcode 0x%02x): %s", bad, sec, off,
			     prog->n ? prog->raw[bad].code : 0, why ? why : "invalid instruction");
	if (!where)
		return -ENOMEM;
	if (obj->opts.keep_malformed) {
		prog->decode_error = obj_asprintf("%s: %s", obj->path, where);
		err = prog->decode_error ? 0 : -ENOMEM;
	} else {
		err = obj_err(obj, "program %s (section %s): %s", prog->name, prog->sec_name, where);
	}
	free(where);
	return err;
}

static const char *exception_cb(const struct bg_object *obj, const struct obj_func *f, int *ntags);

static int build_prog(struct bg_object *obj, int entry)
{
	const struct obj_func *f = &obj->funcs[entry];
	struct bg_program *prog, **progs;
	const char *target = NULL;
	size_t total = 0;
	int err;

	prog = calloc(1, sizeof(*prog));
	progs = realloc(obj->progs, (obj->nprogs + 1) * sizeof(*progs));
	if (!prog || !progs) {
		free(prog);
		return -ENOMEM;
	}
	obj->progs = progs;
	obj->progs[obj->nprogs++] = prog;
	prog->obj = obj;
	prog->name = strdup(f->name);
	prog->sec_name = obj->secs[f->sec].name;
	prog->def = bg_sec_def_find(prog->sec_name, &target);
	prog->prog_flags = prog->def ? prog->def->prog_flags : 0;
	prog->piece_of_func = malloc(obj->nfuncs * sizeof(int));
	if (!prog->name || !prog->piece_of_func ||
	    (target && !(prog->attach_target = strdup(target))))
		return -ENOMEM;
	memset(prog->piece_of_func, 0xff, obj->nfuncs * sizeof(int)); /* -1 */
	if ((err = add_piece(obj, prog, entry, &total)) ||
	    (err = collect_pieces(obj, prog, entry, &total)))
		return err;
	/* the exception callback named by the entry's BTF decl tag
	 * "exception_callback:NAME" is appended after the called subprograms,
	 * as libbpf does: the kernel finds it through func_info */
	int cb = -1;
	prog->exc_cb_name = exception_cb(obj, f, &prog->exc_cb_tags);
	prog->exc_cb_insn = SIZE_MAX;
	for (size_t i = 0; prog->exc_cb_name && i < obj->nfuncs; i++)
		if (!strcmp(obj->funcs[i].name, prog->exc_cb_name))
			cb = (int)i;
	if (cb >= 0 && piece_of(prog, cb) < 0 &&
	    ((err = add_piece(obj, prog, cb, &total)) || (err = collect_pieces(obj, prog, cb, &total))))
		return err;
	if (cb >= 0)
		prog->exc_cb_insn = prog->pieces[piece_of(prog, cb)].at;
	prog->n = total;
	prog->raw = calloc(total, sizeof(*prog->raw));
	if (!prog->raw)
		return -ENOMEM;
	for (size_t i = 0; i < prog->npieces; i++) {
		const struct obj_func *pf = &obj->funcs[prog->pieces[i].func];
		memcpy(prog->raw + prog->pieces[i].at,
		       obj->secs[pf->sec].data + pf->start * sizeof(struct bg_raw_insn),
		       pf->len * sizeof(struct bg_raw_insn));
	}
	if ((err = apply_relocs(obj, prog)) || (err = obj_core_apply(obj, prog)) ||
	    (err = build_func_info(obj, prog)) || (err = build_line_info(obj, prog)))
		return err;
	return decode(obj, prog);
}

/* The callback an entry's "exception_callback:NAME" decl tags name (the
 * last one; *ntags: how many there are), or NULL. */
static const char *exception_cb(const struct bg_object *obj, const struct obj_func *f, int *ntags)
{
	static const char tag[] = "exception_callback:";
	const struct btf *btf = obj->btf;
	const char *name = NULL;

	*ntags = 0;
	if (!btf || !f->btf_id)
		return NULL;
	for (uint32_t id = 1, n = btf__type_cnt(btf); id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *v;

		if (!t || !btf_is_decl_tag(t) || t->type != f->btf_id || btf_decl_tag(t)->component_idx != -1)
			continue;
		v = btf__name_by_offset(btf, t->name_off);
		if (!v || strncmp(v, tag, sizeof(tag) - 1))
			continue;
		name = v + sizeof(tag) - 1;
		(*ntags)++;
	}
	return name;
}

int obj_progs_build(struct bg_object *obj)
{
	for (size_t i = 0; i < obj->nfuncs; i++) {
		int err;

		if (!strcmp(obj->secs[obj->funcs[i].sec].name, ".text"))
			continue;
		if ((err = build_prog(obj, (int)i)))
			return err;
	}
	return 0;
}
