/* Branch hints of bpfgate cc: LLVM's final branch probabilities, matched to
 * the object's conditional jumps and written into .bpfgate.hints (the
 * contract is in hints.h; the section format in docs/HINTS.md). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpfgate/insn.h>
#include "cc/cc_int.h"
#include "cc/hints.h"
#include "cc/irmeta.h"
#include "cc/layout.h"
#include "cc/spawn.h"
#include "bg_json.h"

#define HINTS_SEC ".bpfgate.hints"
#define PROB_ONE 0x80000000u

struct mir_jump {
	uint32_t prob; /* P(taken) * 2^31 */
	char file[256];
	uint32_t line, col;
};

struct mir_fn {
	char name[128];
	struct mir_jump *j;
	size_t n, cap;
};

struct mir {
	struct mir_fn *f;
	size_t n, cap;
};

static void mir_free(struct mir *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->f[i].j);
	free(m->f);
}

/* successors: %bb.26(0x20000000), %bb.1(0x60000000); ... -> prob of bb */
static bool succ_prob(const char *succ, long bb, uint32_t *prob)
{
	const char *end = strchr(succ, ';');

	for (const char *p = succ; (p = strstr(p, "%bb.")) && (!end || p < end); p++) {
		char *e;
		long id = strtol(p + 4, &e, 10);

		if (id == bb && *e == '(') {
			*prob = (uint32_t)strtoul(e + 1, NULL, 16);
			return true;
		}
	}
	return false;
}

/* A conditional jump instruction: J<cond>_ri / _rr, optionally _32. */
static bool is_cond_jump(const char *t)
{
	static const char *const ops[] = {"JEQ_",  "JNE_",  "JSGT_", "JSGE_", "JSLT_", "JSLE_",
					  "JUGT_", "JUGE_", "JULT_", "JULE_", "JSET_"};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(t, ops[i], strlen(ops[i])))
			return true;
	return false;
}

/* "...debug-location !198; /path/bg_net.h:29:6 @[ ... ]" -> file, line, col */
static void jump_loc(const char *line, struct mir_jump *j)
{
	const char *p = strstr(line, "debug-location !");
	const char *semi = p ? strchr(p, ';') : NULL;
	char buf[300];
	char *c1, *c2;

	if (!semi)
		return;
	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(semi + 2, " \n"), semi + 2);
	c2 = strrchr(buf, ':');
	if (!c2)
		return;
	*c2 = 0;
	c1 = strrchr(buf, ':');
	if (c1) { /* file:line:col */
		*c1 = 0;
		j->line = (uint32_t)strtoul(c1 + 1, NULL, 10);
		j->col = (uint32_t)strtoul(c2 + 1, NULL, 10);
	} else { /* file:0 */
		j->line = (uint32_t)strtoul(c2 + 1, NULL, 10);
	}
	snprintf(j->file, sizeof(j->file), "%s", buf);
}

static int push_jump(struct mir_fn *f, const struct mir_jump *j)
{
	if (f->n == f->cap) {
		void *t = realloc(f->j, (f->cap = f->cap ? 2 * f->cap : 16) * sizeof(*j));

		if (!t)
			return -ENOMEM;
		f->j = t;
	}
	f->j[f->n++] = *j;
	return 0;
}

static struct mir_fn *new_fn(struct mir *m, const char *name)
{
	if (m->n == m->cap) {
		void *t = realloc(m->f, (m->cap = m->cap ? 2 * m->cap : 8) * sizeof(*m->f));

		if (!t)
			return NULL;
		m->f = t;
	}
	memset(&m->f[m->n], 0, sizeof(m->f[0]));
	snprintf(m->f[m->n].name, sizeof(m->f[0].name), "%.*s", (int)strcspn(name, ":"), name);
	return &m->f[m->n++];
}

/* Parse the machine-code listing printed after funclet-layout. */
static int parse_mir(const char *text, struct mir *m)
{
	struct mir_fn *f = NULL;
	const char *succ = NULL;
	struct mir_jump last = {0}; /* last real location in the block (line-0 jumps take it) */

	for (const char *p = text; p && *p;) {
		const char *e = strchr(p, '\n');
		const char *t = p;

		while (*t == ' ' || *t == '\t')
			t++;
		if (!strncmp(p, "# Machine code for function ", 28)) {
			f = new_fn(m, p + 28);
			if (!f)
				return -ENOMEM;
		} else if (!strncmp(p, "# End machine code", 18)) {
			f = NULL;
		} else if (f && !strncmp(p, "bb.", 3)) {
			succ = NULL;
			memset(&last, 0, sizeof(last));
		} else if (f && !strncmp(t, "successors:", 11)) {
			succ = t;
		} else if (f && is_cond_jump(t)) {
			struct mir_jump j = {PROB_ONE / 2, "", 0, 0};
			const char *bb = strstr(t, "%bb.");
			uint32_t prob;

			if (bb && succ && succ_prob(succ, strtol(bb + 4, NULL, 10), &prob))
				j.prob = prob > PROB_ONE ? PROB_ONE : prob;
			jump_loc(t, &j);
			if (!j.line && last.line) {
				snprintf(j.file, sizeof(j.file), "%s", last.file);
				j.line = last.line;
				j.col = last.col;
			}
			if (push_jump(f, &j))
				return -ENOMEM;
		} else if (f && strstr(t, "debug-location !") && strncmp(t, "DBG_VALUE", 9)) {
			struct mir_jump here = {0};

			jump_loc(t, &here);
			if (here.line)
				last = here;
		}
		p = e ? e + 1 : NULL;
	}
	return 0;
}

/* --- the object ---------------------------------------------------------- */

struct strtab {
	char *b;
	size_t n, cap;
};

static uint32_t str_add(struct strtab *t, const char *s)
{
	size_t l = strlen(s) + 1;

	for (size_t i = 0; i + l <= t->n; i += strlen(t->b + i) + 1)
		if (!strcmp(t->b + i, s))
			return (uint32_t)i;
	if (t->n + l > t->cap) {
		char *nb = realloc(t->b, t->cap = (t->n + l) * 2 + 64);

		if (!nb)
			return 0;
		t->b = nb;
	}
	memcpy(t->b + t->n, s, l);
	t->n += l;
	return (uint32_t)(t->n - l);
}

struct recs {
	uint8_t *b;
	size_t n, cap; /* records */
};

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static int rec_add(struct recs *r, const uint32_t f[7], uint16_t source)
{
	uint8_t *p;

	if (r->n == r->cap) {
		void *t = realloc(r->b, (r->cap = r->cap ? 2 * r->cap : 32) * 28);

		if (!t)
			return -ENOMEM;
		r->b = t;
	}
	p = r->b + r->n++ * 28;
	put32(p, f[0]);	    /* section name */
	put32(p + 4, f[1]); /* insn byte offset */
	put32(p + 8, f[2]); /* P(taken) * 2^31 */
	p[12] = (uint8_t)source;
	p[13] = (uint8_t)(source >> 8);
	p[14] = p[15] = 0;   /* flags */
	put32(p + 16, f[3]); /* file */
	put32(p + 20, f[4]); /* line */
	put32(p + 24, f[5]); /* col */
	return 0;
}

static const struct mir_fn *find_fn(const struct mir *m, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->f[i].name, name))
			return &m->f[i];
	return NULL;
}

static int hint_source(const struct bg_cc_result *s, const struct ir_meta *fe,
		       const struct mir_jump *j)
{
	if (s->prof && j->line && cc_profile_covers(s, j->file, j->line))
		return 2;
	for (size_t i = 0; fe && i < fe->nexpects; i++)
		if (fe->expects[i].line == j->line && ir_same_file(fe->expects[i].file, j->file))
			return 1;
	return 0;
}

struct ctx {
	struct bg_cc_result *s;
	const struct mir *mir;
	const struct ir_meta *fe;
	struct strtab st;
	struct recs r;
	char skipped[256];
};

/* Offsets of the conditional jumps of [off, off+size) in a code section. */
static size_t cond_jumps(const Elf_Data *d, uint64_t off, uint64_t size, uint32_t *out, size_t max)
{
	const struct bg_raw_insn *raw = d->d_buf;
	size_t nslots = d->d_size / 8, n = 0;

	for (size_t k = off / 8; k < nslots && k < (off + size) / 8;) {
		struct bg_insn in;
		int used = bg_insn_decode(raw + k, nslots - k, k, &in, NULL);

		if (used <= 0) {
			k++;
			continue;
		}
		if (in.kind == BG_K_JCOND && n < max)
			out[n] = (uint32_t)(k * 8);
		n += in.kind == BG_K_JCOND;
		k += (size_t)used;
	}
	return n;
}

static int func_hints(struct ctx *c, const char *name, const char *secname, const Elf_Data *d,
		      const GElf_Sym *sym)
{
	const struct mir_fn *f = find_fn(c->mir, name);
	uint32_t offs[4096];
	size_t n;

	if (!f)
		return 0;
	n = cond_jumps(d, sym->st_value, sym->st_size, offs, 4096);
	if (n != f->n || n > 4096) {
		size_t l = strlen(c->skipped);

		snprintf(c->skipped + l, sizeof(c->skipped) - l, "%s%s (%zu jumps, listing %zu)",
			 l ? ", " : "", name, n, f->n);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		const struct mir_jump *j = &f->j[i];
		uint32_t rec[7] = {str_add(&c->st, secname),
				   offs[i],
				   j->prob,
				   str_add(&c->st, j->file),
				   j->line,
				   j->col,
				   0};

		if (rec_add(&c->r, rec, (uint16_t)hint_source(c->s, c->fe, j)))
			return -ENOMEM;
	}
	return 0;
}

static Elf_Scn *symtab_of(Elf *e, GElf_Shdr *sh)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));)
		if (gelf_getshdr(scn, sh) && sh->sh_type == SHT_SYMTAB)
			return scn;
	return NULL;
}

static int walk_functions(struct ctx *c, Elf *e)
{
	GElf_Shdr sh;
	Elf_Scn *ss = symtab_of(e, &sh);
	Elf_Data *sd = ss ? elf_getdata(ss, NULL) : NULL;
	size_t shstr;

	if (!sd || elf_getshdrstrndx(e, &shstr))
		return -EINVAL;
	for (size_t i = 0; i < sh.sh_size / (sh.sh_entsize ? sh.sh_entsize : 24); i++) {
		GElf_Sym sym;
		GElf_Shdr csh;
		Elf_Scn *cs;
		Elf_Data *cd;
		const char *name, *secname;
		int err;

		if (!gelf_getsym(sd, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    !sym.st_shndx || sym.st_shndx >= SHN_LORESERVE || !sym.st_size)
			continue;
		cs = elf_getscn(e, sym.st_shndx);
		if (!cs || !gelf_getshdr(cs, &csh) || !(csh.sh_flags & SHF_EXECINSTR))
			continue;
		cd = elf_getdata(cs, NULL);
		name = elf_strptr(e, sh.sh_link, sym.st_name);
		secname = elf_strptr(e, shstr, csh.sh_name);
		if (!cd || !cd->d_buf || !name || !secname)
			continue;
		err = func_hints(c, name, secname, cd, &sym);
		if (err)
			return err;
	}
	return 0;
}

/* The section's bytes: header, records, strings (docs/HINTS.md). */
static uint8_t *section_bytes(const struct ctx *c, size_t *len)
{
	size_t rl = c->r.n * 28, hl = 24;
	uint8_t *b = calloc(1, hl + rl + c->st.n + 1);

	if (!b)
		return NULL;
	memcpy(b, "BGH1", 4);
	b[4] = 1;	    /* version */
	b[6] = (uint8_t)hl; /* header length */
	put32(b + 8, 28);   /* record size */
	put32(b + 12, (uint32_t)c->r.n);
	put32(b + 16, (uint32_t)(hl + rl)); /* string table offset */
	put32(b + 20, (uint32_t)c->st.n);
	if (rl)
		memcpy(b + hl, c->r.b, rl);
	if (c->st.n)
		memcpy(b + hl + rl, c->st.b, c->st.n);
	*len = hl + rl + c->st.n;
	return b;
}

/* Append a non-allocated SHT_PROGBITS section to the ELF open in e. */
static int add_section(Elf *e, const char *name, uint8_t *bytes, size_t len)
{
	size_t shstr;
	Elf_Scn *ss, *scn;
	Elf_Data *nd, *d;
	GElf_Shdr ssh, sh;

	if (elf_getshdrstrndx(e, &shstr) || !(ss = elf_getscn(e, shstr)) || !gelf_getshdr(ss, &ssh))
		return -EINVAL;
	nd = elf_newdata(ss);
	if (!nd)
		return -ENOMEM;
	nd->d_buf = (void *)name;
	nd->d_size = strlen(name) + 1;
	nd->d_align = 1;
	nd->d_type = ELF_T_BYTE;
	scn = elf_newscn(e);
	d = scn ? elf_newdata(scn) : NULL;
	if (!d || !gelf_getshdr(scn, &sh))
		return -ENOMEM;
	d->d_buf = bytes;
	d->d_size = len;
	d->d_align = 4;
	d->d_type = ELF_T_BYTE;
	sh.sh_name = (uint32_t)ssh.sh_size;
	sh.sh_type = SHT_PROGBITS;
	sh.sh_flags = 0;
	sh.sh_addralign = 4;
	sh.sh_entsize = 0;
	if (!gelf_update_shdr(scn, &sh))
		return -EINVAL;
	return elf_update(e, ELF_C_WRITE) < 0 ? -EIO : 0;
}

static bool has_section(Elf *e, const char *want)
{
	size_t shstr;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(e, &shstr))
		return false;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
		const char *n = gelf_getshdr(scn, &sh) ? elf_strptr(e, shstr, sh.sh_name) : NULL;

		if (n && !strcmp(n, want))
			return true;
	}
	return false;
}

static int write_hints(struct ctx *c, const char *path)
{
	int fd = open(path, O_RDWR), err;
	Elf *e;
	uint8_t *bytes = NULL;
	size_t len;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_RDWR, NULL);
	if (!e) {
		close(fd);
		return -EINVAL;
	}
	err = has_section(e, HINTS_SEC) ? -EEXIST : walk_functions(c, e);
	if (!err && c->r.n) {
		bytes = section_bytes(c, &len);
		err = bytes ? add_section(e, HINTS_SEC, bytes, len) : -ENOMEM;
	}
	elf_end(e);
	close(fd);
	free(bytes);
	return err;
}

/* Hints of a laid-out object: the profile's own counts (source "profile"). */
int cc_hints_write_counts(struct bg_cc_result *s, const char *path, const struct lay_hint *h,
			  size_t n)
{
	struct ctx c = {.s = s};
	int fd = open(path, O_RDWR), err = 0;
	uint8_t *bytes = NULL;
	size_t len;
	Elf *e;

	if (fd < 0)
		return -errno;
	for (size_t i = 0; i < n && !err; i++) {
		uint64_t all = h[i].taken + h[i].not_taken;
		uint32_t rec[7] = {str_add(&c.st, h[i].sec), h[i].off, 0, str_add(&c.st, h[i].file ? h[i].file : ""),
				   h[i].line, h[i].col, 0};

		if (!all)
			continue; /* never reached on the profile's runs: no probability */
		rec[2] = (uint32_t)((double)h[i].taken / (double)all * PROB_ONE + 0.5);
		err = rec_add(&c.r, rec, 2);
	}
	elf_version(EV_CURRENT);
	e = err ? NULL : elf_begin(fd, ELF_C_RDWR, NULL);
	if (e && c.r.n && !has_section(e, HINTS_SEC)) {
		bytes = section_bytes(&c, &len);
		err = bytes ? add_section(e, HINTS_SEC, bytes, len) : -ENOMEM;
	}
	if (e)
		elf_end(e);
	close(fd);
	free(bytes);
	free(c.st.b);
	free(c.r.b);
	return err ? err : (int)c.r.n;
}

/* --- the hint build ------------------------------------------------------ */

/* Are the code sections of a and b equal? (the hint build is the object) */
static bool same_code(const char *a, const char *b)
{
	char *const argv[] = {"cmp", "-s", (char *)a, (char *)b, NULL};

	/* clang is deterministic: the hint build equals the user build byte for
	 * byte unless the written object came from a fix */
	return bg_spawn(argv, NULL, NULL, 30) == 0;
}

static int hint_build(struct bg_cc_result *s, char **mir, char *obj, size_t osz)
{
	struct cc_variant v = {
	    .bisect_limit = -1, .nextra = 2, .extra = {"-mllvm", "-print-after=funclet-layout"}};

	snprintf(obj, osz, "%s/hints.o", s->tmpdir);
	return cc_compile(s, &v, obj, mir);
}

static int fe_build(struct bg_cc_result *s, struct ir_meta *fe)
{
	struct cc_variant v = {.bisect_limit = -1,
			       .nextra = 2,
			       .emit_ir = true,
			       .extra = {"-Xclang", "-disable-llvm-passes"}};
	char out[96];

	snprintf(out, sizeof(out), "%s/fe.ll", s->tmpdir);
	if (cc_compile(s, &v, out, NULL))
		return -EINVAL;
	return ir_meta_load(fe, out);
}

int cc_hints_record(struct bg_cc_result *s)
{
	struct ctx c = {.s = s};
	struct mir m = {0};
	struct ir_meta fe = {0};
	char *text = NULL, obj[96];
	int err;

	s->nhints = -1;
	if (hint_build(s, &text, obj, sizeof(obj)) != 0) {
		snprintf(s->hints_note, sizeof(s->hints_note),
			 "no hints: the listing build failed");
		free(text);
		return -EINVAL;
	}
	if (!same_code(obj, s->written)) {
		snprintf(s->hints_note, sizeof(s->hints_note),
			 "no hints: the written object is not the plain build (%s)",
			 s->fix[0] ? s->fix : "differs");
		free(text);
		return -ESTALE;
	}
	err = parse_mir(text ? text : "", &m);
	free(text);
	if (!err && fe_build(s, &fe) == 0)
		c.fe = &fe;
	c.mir = &m;
	err = err ?: write_hints(&c, s->output);
	if (err)
		snprintf(s->hints_note, sizeof(s->hints_note), "no hints: %s", strerror(-err));
	else if (c.skipped[0])
		snprintf(s->hints_note, sizeof(s->hints_note),
			 "no hints for %s: jump counts differ (inline asm?)", c.skipped);
	s->nhints = err ? -1 : (int)c.r.n;
	mir_free(&m);
	ir_meta_free(&fe);
	free(c.st.b);
	free(c.r.b);
	return err ? err : s->nhints;
}

void cc_hints_print(const struct bg_cc_result *s, FILE *f, struct bg_json *j)
{
	if (f) {
		if (s->profile)
			fprintf(
			    f,
			    "bpfgate cc: profile %s: %d function(s) in the sample profile%s%s%s\n",
			    s->profile, s->profile_funcs,
			    s->profile_stale ? "; STALE, left out: " : "",
			    s->profile_stale ? s->profile_note : "", "");
		if (s->profile && s->sample_failed[0])
			fprintf(f,
				"bpfgate cc: profile: clang fails with the sample profile (%s); built "
				"without it\n",
				s->sample_failed);
		if (s->profile && s->laid_out)
			fprintf(f,
				"bpfgate cc: layout: %d function(s) of the %s laid out by the "
				"profile: %d jump(s) inverted, %d ja added, %d removed; taken "
				"jumps on the profile's runs %llu -> %llu%s%s\n",
				s->layout_funcs, s->layout_base, s->layout_inverted,
				s->layout_ja_added, s->layout_ja_removed, s->layout_before,
				s->layout_after, s->layout_note[0] ? "; " : "", s->layout_note);
		else if (s->profile && !s->no_layout)
			fprintf(f, "bpfgate cc: layout %s\n", s->layout_note);
		if (s->nhints >= 0)
			fprintf(f,
				"bpfgate cc: %d branch hint(s) written to %s (section "
				".bpfgate.hints)%s%s\n",
				s->nhints, s->output, s->hints_note[0] ? "; " : "", s->hints_note);
		else if (s->hints_note[0])
			fprintf(f, "bpfgate cc: %s\n", s->hints_note);
		return;
	}
	bg_json_key(j, "hints");
	bg_json_obj_begin(j);
	bg_json_kint(j, "written", s->nhints);
	bg_json_kstr(j, "note", s->hints_note[0] ? s->hints_note : NULL);
	bg_json_obj_end(j);
	bg_json_key(j, "profile");
	if (!s->profile) {
		bg_json_null(j);
		return;
	}
	bg_json_obj_begin(j);
	bg_json_kstr(j, "file", s->profile);
	bg_json_kint(j, "functions", s->profile_funcs);
	bg_json_kint(j, "stale", s->profile_stale);
	bg_json_kstr(j, "stale_entries", s->profile_stale ? s->profile_note : NULL);
	bg_json_kstr(j, "sample_profile_error", s->sample_failed[0] ? s->sample_failed : NULL);
	bg_json_key(j, "layout");
	bg_json_obj_begin(j);
	bg_json_kbool(j, "applied", s->laid_out);
	bg_json_kstr(j, "base", s->laid_out ? s->layout_base : NULL);
	bg_json_kint(j, "functions", s->layout_funcs);
	bg_json_kint(j, "inverted", s->layout_inverted);
	bg_json_kint(j, "ja_added", s->layout_ja_added);
	bg_json_kint(j, "ja_removed", s->layout_ja_removed);
	bg_json_kuint(j, "taken_before", s->layout_before);
	bg_json_kuint(j, "taken_after", s->layout_after);
	bg_json_kstr(j, "note", s->layout_note[0] ? s->layout_note : NULL);
	bg_json_obj_end(j);
	bg_json_obj_end(j);
}
