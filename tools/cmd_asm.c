/* bpfgate asm: assemble text (bg_asm syntax, see include/bpfgate/insn.h) into
 * raw instruction bytes or a minimal relocatable BPF ELF object that libbpf
 * and `bpfgate kload` open: the program in one executable section (default
 * "xdp"), a global FUNC symbol for it, and a "license" section ("GPL").
 * Every local call target becomes a GLOBAL FUNC symbol named by its label, so
 * loaders see subprograms. Limits: no BTF, no maps section (map_idx
 * references load only with an fd_array).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpfgate/bpfgate.h>
#include "cli.h"
#include "bg_json.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif

struct asm_opts {
	const char *in, *out, *section, *name, *license;
	bool raw, json;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpfgate asm FILE -o OUT [--raw] [--section NAME] [--type TYPE] [--name PROG] [--json]\n"
		"  FILE          assembly text, one instruction per line ('-' reads stdin);\n"
		"                syntax as `bpfgate disasm` prints it, labels 'name:', comments ; # //\n"
		"  -o OUT        output file\n"
		"  --raw         write raw 8-byte instructions instead of an ELF object\n"
		"  --section S   program section (default: xdp; libbpf derives the type from it)\n"
		"  --type T      same as --section T (e.g. xdp, socket, tc, kprobe/do_sys_open)\n"
		"  --name P      program symbol name (default: the section name with '/' -> '_')\n"
		"  --license L   license string (default: GPL)\n"
		"  --json        print {\"object\", \"insns\", ...} instead of nothing\n");
}

static char *read_text(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 4096, n = 0;
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		size_t k = fread(buf + n, 1, cap - n - 1, f);

		n += k;
		if (k == 0)
			break;
		if (n + 1 == cap) {
			char *nb = cap < (256u << 20) ? realloc(buf, cap * 2) : NULL;

			if (!nb) {
				free(buf);
				buf = NULL;
				errno = EFBIG;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	if (f != stdin)
		fclose(f);
	if (buf) {
		buf[n] = 0;
		if (memchr(buf, 0, n)) {
			free(buf);
			errno = EINVAL;
			return NULL;
		}
		*len = n;
	}
	return buf;
}

static int write_raw(const char *out, const struct bg_raw_insn *insns, size_t n)
{
	FILE *f = fopen(out, "wb");
	int ok;

	if (!f)
		return -errno;
	ok = fwrite(insns, sizeof(*insns), n, f) == n;
	if (fclose(f) || !ok)
		return -EIO;
	return 0;
}

/* A growing string table. */
struct strtab {
	char *p;
	size_t len, cap;
};

/* Append s (with its NUL); returns its offset, or (size_t)-1 without memory. */
static size_t strtab_add(struct strtab *t, const char *s)
{
	size_t n = strlen(s) + 1, off = t->len;

	if (t->len + n > t->cap) {
		size_t nc = (t->cap ? t->cap * 2 : 256) + n;
		char *q = realloc(t->p, nc);

		if (!q)
			return (size_t)-1;
		t->p = q;
		t->cap = nc;
	}
	memcpy(t->p + off, s, n);
	t->len += n;
	return off;
}

/* Slots that local calls (and func ld_imm64) target: they start functions,
 * which need a FUNC symbol for loaders (libbpf, bg_object) to accept the call.
 * Returns the number of targets written to tgt (sorted, unique, in (0, n)). */
static size_t call_targets(const struct bg_raw_insn *in, size_t n, size_t *tgt)
{
	size_t k = 0;
	char *is = calloc(n, 1);

	if (!is)
		return 0;
	for (size_t i = 0; i < n; i++) {
		int64_t t;

		if (!((in[i].code == 0x85 && in[i].src_reg == BG_CALL_LOCAL) ||
		      (in[i].code == 0x18 && in[i].src_reg == BG_PSEUDO_FUNC)))
			continue;
		t = (int64_t)i + 1 + in[i].imm;
		if (t > 0 && t < (int64_t)n)
			is[t] = 1;
	}
	for (size_t i = 1; i < n; i++)
		if (is[i])
			tgt[k++] = i;
	free(is);
	return k;
}

static Elf_Scn *add_scn(Elf *e, const char *what, void *buf, size_t size, size_t align, int type)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d = scn ? elf_newdata(scn) : NULL;

	if (!d) {
		cli_error("asm", "libelf: %s section: %s", what, elf_errmsg(-1));
		return NULL;
	}
	d->d_buf = buf;
	d->d_size = size;
	d->d_align = align;
	d->d_type = type;
	d->d_version = EV_CURRENT;
	return scn;
}

static int set_shdr(Elf_Scn *scn, uint32_t name, uint32_t type, uint64_t flags, uint32_t link,
		    uint32_t info, uint64_t align, uint64_t entsize)
{
	GElf_Shdr sh;

	if (!gelf_getshdr(scn, &sh))
		return -1;
	sh.sh_name = name;
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_link = link;
	sh.sh_info = info;
	sh.sh_addralign = align;
	sh.sh_entsize = entsize;
	return gelf_update_shdr(scn, &sh) ? 0 : -1;
}

/* The object's layout, as clang lays out a program with subprograms: the entry
 * function (slots [0, first call target)) in the program section, the
 * functions that local calls target in ".text", each with a GLOBAL FUNC
 * symbol named by its label; calls from the entry into .text carry an
 * R_BPF_64_32 relocation against the callee's symbol (imm -1). */
struct layout {
	size_t *tgt, nt;    /* function starts (slot), tgt[0] = 0 */
	size_t split;       /* first slot in .text (n when there is none) */
	Elf64_Sym *syms;
	size_t nsyms;
	Elf64_Rel *rels;
	size_t nrels;
	struct strtab str;
};

static void layout_free(struct layout *l)
{
	free(l->tgt);
	free(l->syms);
	free(l->rels);
	free(l->str.p);
}

/* Index of the function holding slot i. */
static size_t func_of(const struct layout *l, size_t i)
{
	size_t f = 0;

	while (f + 1 < l->nt && l->tgt[f + 1] <= i)
		f++;
	return f;
}

/* Check that control stays inside functions and the entry only calls into
 * .text; rewrite entry -> .text calls to imm -1 + relocation. */
static int layout_relocate(const struct asm_opts *o, struct layout *l, struct bg_raw_insn *in, size_t n)
{
	l->rels = calloc(n, sizeof(*l->rels));
	if (!l->rels)
		return cli_error("asm", "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct bg_insn d;
		size_t fi = func_of(l, i), ft;
		int k = bg_insn_decode(in + i, n - i, i, &d, NULL);

		if (k < 0 || d.target < 0 || (size_t)d.target >= n) {
			i += k == 2;
			continue;
		}
		ft = func_of(l, (size_t)d.target);
		if (d.kind == BG_K_LD_IMM64 && ft != fi)
			return cli_error("asm", "%s: insn %zu: func() reference to another function is only "
				    "supported with --raw", o->in, i);
		if (d.kind != BG_K_CALL) {
			if (ft != fi)
				return cli_error("asm", "%s: insn %zu: jump from one function into another "
					    "(slot %d)", o->in, i, d.target);
			i += k == 2;
			continue;
		}
		if (fi != 0 && ft == 0)
			return cli_error("asm", "%s: insn %zu: call from a subprogram into the entry "
				    "program", o->in, i);
		if (fi == 0 && ft != 0) {
			in[i].imm = -1;
			l->rels[l->nrels++] = (Elf64_Rel){ .r_offset = i * 8,
							   .r_info = ELF64_R_INFO(1 + ft, 10 /* R_BPF_64_32 */) };
		}
	}
	return 0;
}

/* Symbols: null, one GLOBAL FUNC per function, LICENSE. Section indexes:
 * 1 program, 2 .text (when split < n), then license. */
static int layout_build(const struct asm_opts *o, struct layout *l, struct bg_raw_insn *in, size_t n,
			const struct bg_asm_label *labels, size_t nlabels, size_t lic_len)
{
	unsigned text_idx = 2, lic_idx;

	l->tgt = calloc(n + 1, sizeof(*l->tgt));
	if (!l->tgt)
		return cli_error("asm", "out of memory");
	l->nt = 1 + call_targets(in, n, l->tgt + 1);
	l->split = l->nt > 1 ? l->tgt[1] : n;
	lic_idx = l->nt > 1 ? 3 : 2;
	l->syms = calloc(l->nt + 2, sizeof(*l->syms));
	if (!l->syms || strtab_add(&l->str, "") == (size_t)-1)
		return cli_error("asm", "out of memory");
	l->nsyms = 1;
	for (size_t f = 0; f < l->nt; f++) {
		const char *name = f ? NULL : o->name;
		char buf[160];
		size_t end = f + 1 < l->nt ? l->tgt[f + 1] : n, off;

		for (size_t k = 0; !name && k < nlabels; k++)
			if (labels[k].slot == l->tgt[f])
				name = labels[k].name;
		if (!name) {
			snprintf(buf, sizeof(buf), "%s_sub%zu", o->name, l->tgt[f]);
			name = buf;
		}
		off = strtab_add(&l->str, name);
		if (off == (size_t)-1)
			return cli_error("asm", "out of memory");
		l->syms[l->nsyms++] = (Elf64_Sym){
			.st_name = (uint32_t)off, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
			.st_shndx = (Elf64_Half)(f ? text_idx : 1),
			.st_value = (f ? l->tgt[f] - l->split : 0) * 8, .st_size = (end - l->tgt[f]) * 8 };
	}
	{
		size_t off = strtab_add(&l->str, "LICENSE");

		if (off == (size_t)-1)
			return cli_error("asm", "out of memory");
		l->syms[l->nsyms++] = (Elf64_Sym){ .st_name = (uint32_t)off,
						   .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
						   .st_shndx = (Elf64_Half)lic_idx, .st_size = lic_len };
	}
	return layout_relocate(o, l, in, n);
}

static int write_elf(const struct asm_opts *o, struct bg_raw_insn *insns, size_t n,
		     const struct bg_asm_label *labels, size_t nlabels)
{
	struct strtab shstr = { 0 };
	struct layout l = { 0 };
	size_t lic_len = strlen(o->license) + 1;
	size_t n_prog, n_text, n_lic, n_sym, n_str, n_shs, n_rel;
	char relname[300];
	Elf64_Ehdr *eh;
	Elf_Scn *sp, *sx = NULL, *sl, *ss, *st, *sh, *sr = NULL;
	Elf *e = NULL;
	char *lic = strdup(o->license);
	int fd = -1, rc;

	rc = layout_build(o, &l, insns, n, labels, nlabels, lic_len);
	if (rc)
		goto done;
	snprintf(relname, sizeof(relname), ".rel%s", o->section);
	if (!lic || strtab_add(&shstr, "") == (size_t)-1)
		goto nomem;
	n_prog = strtab_add(&shstr, o->section);
	n_text = strtab_add(&shstr, ".text");
	n_lic = strtab_add(&shstr, "license");
	n_sym = strtab_add(&shstr, ".symtab");
	n_str = strtab_add(&shstr, ".strtab");
	n_shs = strtab_add(&shstr, ".shstrtab");
	n_rel = strtab_add(&shstr, relname);
	if (n_rel == (size_t)-1 || n_shs == (size_t)-1 || n_prog == (size_t)-1)
		goto nomem;

	fd = open(o->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		rc = cli_error("asm", "%s: %s", o->out, strerror(errno));
		goto done;
	}
	rc = -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e || !(eh = elf64_newehdr(e)))
		goto out;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_type = ET_REL;
	eh->e_machine = EM_BPF;
	eh->e_version = EV_CURRENT;
	if (!(sp = add_scn(e, "program", insns, l.split * sizeof(*insns), 8, ELF_T_BYTE)) ||
	    (l.split < n && !(sx = add_scn(e, ".text", insns + l.split, (n - l.split) * sizeof(*insns), 8,
					   ELF_T_BYTE))) ||
	    !(sl = add_scn(e, "license", lic, lic_len, 1, ELF_T_BYTE)) ||
	    !(ss = add_scn(e, "symtab", l.syms, l.nsyms * sizeof(*l.syms), 8, ELF_T_SYM)) ||
	    !(st = add_scn(e, "strtab", l.str.p, l.str.len, 1, ELF_T_BYTE)) ||
	    !(sh = add_scn(e, "shstrtab", shstr.p, shstr.len, 1, ELF_T_BYTE)) ||
	    (l.nrels && !(sr = add_scn(e, "rel", l.rels, l.nrels * sizeof(*l.rels), 8, ELF_T_REL))))
		goto out;
	if (set_shdr(sp, (uint32_t)n_prog, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 0, 8, 0) ||
	    (sx && set_shdr(sx, (uint32_t)n_text, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 0, 8, 0)) ||
	    set_shdr(sl, (uint32_t)n_lic, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0, 0, 1, 0) ||
	    set_shdr(ss, (uint32_t)n_sym, SHT_SYMTAB, 0, (uint32_t)elf_ndxscn(st), 1, 8, sizeof(Elf64_Sym)) ||
	    set_shdr(st, (uint32_t)n_str, SHT_STRTAB, 0, 0, 0, 1, 0) ||
	    set_shdr(sh, (uint32_t)n_shs, SHT_STRTAB, 0, 0, 0, 1, 0) ||
	    (sr && set_shdr(sr, (uint32_t)n_rel, SHT_REL, 0, (uint32_t)elf_ndxscn(ss), (uint32_t)elf_ndxscn(sp),
			    8, sizeof(Elf64_Rel))))
		goto out;
	eh->e_shstrndx = (Elf64_Half)elf_ndxscn(sh);
	if (elf_update(e, ELF_C_WRITE) < 0)
		goto out;
	rc = 0;
out:
	if (rc)
		rc = cli_error("asm", "%s: libelf: %s", o->out, elf_errmsg(-1));
	goto done;
nomem:
	rc = cli_error("asm", "out of memory");
done:
	if (e)
		elf_end(e);
	if (fd >= 0 && close(fd) && !rc)
		rc = cli_error("asm", "%s: %s", o->out, strerror(errno));
	layout_free(&l);
	free(lic);
	free(shstr.p);
	return rc ? EXIT_BAD : EXIT_OK;
}

/* "line N: msg" from bg_asm -> "FILE:N: msg" on stderr. */
static int report_asm_error(const char *file, const char *err)
{
	int line = 0, k = 0;

	if (cli_json_mode()) /* the one JSON error shape (and the text on stderr) */
		return cli_error("asm", "%s: %s", file, err);
	if (sscanf(err, "line %d: %n", &line, &k) == 1 && k > 0)
		fprintf(stderr, "%s:%d: %s\n", cli_safe(file), line, cli_safe(err + k));
	else
		fprintf(stderr, "%s: %s\n", cli_safe(file), cli_safe(err));
	return EXIT_BAD;
}

static int parse_args(int argc, char **argv, struct asm_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **dst = !strcmp(a, "-o") ? &o->out
				   : !strcmp(a, "--section") || !strcmp(a, "--type") ? &o->section
				   : !strcmp(a, "--name") ? &o->name
				   : !strcmp(a, "--license") ? &o->license : NULL;

		if (dst) {
			if (!(*dst = cli_value("asm", argc, argv, &i)))
				return EXIT_BAD;
		} else if (!strcmp(a, "--raw"))
			o->raw = true;
		else if (!strcmp(a, "--json"))
			o->json = true;
		else if (a[0] == '-' && a[1])
			return cli_error("asm", "unknown option or missing value '%s' (see --help)", a);
		else if (!o->in)
			o->in = a;
		else
			return cli_error("asm", "more than one input file ('%s')", a);
	}
	if (!o->in || !o->out) {
		usage(stderr);
		return EXIT_BAD;
	}
	return EXIT_OK;
}

int cmd_asm(int argc, char **argv)
{
	struct asm_opts o = { .section = "xdp", .license = "GPL" };
	struct bg_raw_insn *insns = NULL;
	struct bg_asm_label *labels = NULL;
	size_t nlabels = 0;
	char err[512], name[256];
	size_t len;
	char *text;
	int n, rc;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc;
	if (!o.name) {
		snprintf(name, sizeof(name), "%s", o.section);
		for (char *p = name; *p; p++)
			if (*p == '/' || *p == '.' || *p == '-' || *p == ':')
				*p = '_';
		o.name = name;
	}
	text = read_text(o.in, &len);
	if (!text)
		return cli_error("asm", "%s: %s", o.in, strerror(errno));
	n = bg_asm_labels(text, &insns, &labels, &nlabels, err, sizeof(err));
	free(text);
	if (n < 0)
		return report_asm_error(o.in, err);
	if (n == 0) {
		free(insns);
		return report_asm_error(o.in, "line 1: no instructions");
	}
	if (o.raw) {
		rc = write_raw(o.out, insns, (size_t)n);
		if (rc)
			rc = cli_error("asm", "%s: %s", o.out, strerror(-rc));
	} else {
		rc = write_elf(&o, insns, (size_t)n, labels, nlabels);
	}
	free(insns);
	free(labels);
	if (!rc && o.json) {
		struct bg_json j;

		bg_json_init(&j, stdout, true);
		bg_json_obj_begin(&j);
		bg_json_kstr(&j, "object", o.out);
		bg_json_kstr(&j, "input", o.in);
		bg_json_kstr(&j, "format", o.raw ? "raw" : "elf");
		bg_json_kstr(&j, "section", o.raw ? NULL : o.section);
		bg_json_kstr(&j, "program", o.raw ? NULL : o.name);
		bg_json_kint(&j, "insns", n);
		bg_json_obj_end(&j);
		printf("\n");
	}
	return rc;
}
