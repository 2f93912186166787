/* bpfgate disasm: print the instructions of BPF programs in llvm-objdump syntax.
 *
 * Three inputs:
 *  - an object (default): the prepared programs of bg_object__open, i.e. final
 *    instructions with subprograms appended and maps as map_idx references;
 *  - --sections: the object's executable sections as stored in the ELF file,
 *    one block per function symbol, unrelocated - what llvm-objdump -d shows
 *    (index = slot in the section, calls printed as objdump prints them);
 *  - --raw: a file of raw 8-byte instructions.
 * Output per program: "NAME (SECTION):" then "  IDX: TEXT" lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpfgate/bpfgate.h>
#include "cli.h"
#include "hints_cli.h"
#include "bg_json.h"


struct dis_opts {
	const char *path;
	const char *prog;
	bool source, json, raw, sections, hex;
	unsigned flags;
	struct bg_json j;
	int begun; /* the JSON document is open */
	int shown;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpfgate disasm OBJ [--prog NAME] [--source] [--json] [--hex]\n"
		"       bpfgate disasm --sections OBJ [--prog NAME]   (ELF sections as stored, like llvm-objdump -d)\n"
		"       bpfgate disasm --raw FILE                      (raw 8-byte instructions)\n"
		"  --prog NAME  only this program (repeatable: no; last wins)\n"
		"  --source     interleave source lines (\"; file:line: text\") from BTF line info\n"
		"  --hex        immediates in hex, as llvm-objdump >= 15 prints them\n"
		"  --objdump    calls exactly as llvm-objdump prints them (\"call N\" for local calls)\n"
		"  --kernel     the kernel verifier log's syntax (\"(61) r0 = *(u32 *)(r1 +4)\")\n"
		"  --json       {\"object\", \"programs\": [{object, program, section, type, verdict, insns}]}\n");
}

/* The JSON document opens with the first program, so an input that cannot
 * be read gets the one error object instead (cli_error). */
static void json_doc_begin(struct dis_opts *o)
{
	if (o->begun++)
		return;
	bg_json_init(&o->j, stdout, true);
	bg_json_obj_begin(&o->j);
	bg_json_kstr(&o->j, "object", o->path);
	bg_json_key(&o->j, "programs");
	bg_json_arr_begin(&o->j);
	cli_json_sink(&o->j);
}

static void json_prog_begin(struct dis_opts *o, const char *name, const char *sec, const char *type)
{
	json_doc_begin(o);
	bg_json_obj_begin(&o->j);
	bg_json_kstr(&o->j, "object", o->path);
	bg_json_kstr(&o->j, "program", name);
	bg_json_kstr(&o->j, "section", sec);
	bg_json_kstr(&o->j, "type", type);
	bg_json_kstr(&o->j, "verdict", "unavailable");
	bg_json_kstr(&o->j, "verdict_reason", "disasm does not verify");
	bg_json_key(&o->j, "insns");
	bg_json_arr_begin(&o->j);
}

static void json_prog_end(struct dis_opts *o)
{
	bg_json_arr_end(&o->j);
	bg_json_obj_end(&o->j);
}

static void print_insn(struct dis_opts *o, size_t idx, const struct bg_insn *in,
		       const struct bg_raw_insn *raw, const struct bg_line *ln, const char *core,
		       const struct bg_hint *hint)
{
	char text[160], ht[64];

	if (in->kind == BG_K_LD_IMM64_HI)
		return;
	bg_insn_format_opts(in, text, sizeof(text), o->flags);
	if (!o->json) {
		if (hint)
			cli_hint_text(hint, ht, sizeof(ht));
		if (hint && !core)
			printf("%6zu: %s\t; %s\n", idx, text, ht);
		else if (core)
			printf("%6zu: %s\t; CO-RE relocation failed: %s\n", idx, text, cli_safe(core));
		else
			printf("%6zu: %s\n", idx, text);
		return;
	}
	bg_json_obj_begin(&o->j);
	bg_json_kuint(&o->j, "idx", idx);
	bg_json_kstr(&o->j, "text", text);
	if (raw) {
		char hex[40];
		const uint8_t *b = (const uint8_t *)raw;
		size_t nb = in->slots == 2 ? 16 : 8;

		for (size_t k = 0; k < nb; k++)
			snprintf(hex + 2 * k, 3, "%02x", b[k]);
		bg_json_kstr(&o->j, "raw", hex);
	}
	if (ln) {
		bg_json_kstr(&o->j, "file", ln->file);
		bg_json_kuint(&o->j, "line", ln->line);
		bg_json_kuint(&o->j, "col", ln->col);
	}
	if (core)
		bg_json_kstr(&o->j, "core_failure", core);
	if (hint)
		cli_hint_json(&o->j, hint);
	bg_json_obj_end(&o->j);
}

/* Decode and print raw instructions; base is the index of raw[0]. Invalid
 * instructions are reported and make the result EXIT_BAD. */
static int print_raw(struct dis_opts *o, const char *name, const char *sec,
		     const struct bg_raw_insn *raw, size_t n, size_t base)
{
	int rc = EXIT_OK;

	if (o->json)
		json_prog_begin(o, name, sec, NULL);
	else
		printf("%s%s (%s):\n", o->shown ? "\n" : "", cli_safe(name), cli_safe(sec));
	o->shown++;
	for (size_t i = 0; i < n;) {
		struct bg_insn in;
		const char *why = NULL;
		int k = bg_insn_decode(raw + i, n - i, base + i, &in, &why);

		if (k < 0) {
			fprintf(stderr, "%s: %s: insn %zu (file offset in section 0x%zx): %s\n",
				cli_safe(o->path), cli_safe(name), base + i, (base + i) * 8, why);
			if (!o->json) {
				printf("%6zu: <invalid: %s>\n", base + i, why);
			} else {
				bg_json_obj_begin(&o->j);
				bg_json_kuint(&o->j, "idx", base + i);
				bg_json_kstr(&o->j, "invalid", why);
				bg_json_obj_end(&o->j);
			}
			rc = EXIT_BAD;
			i++;
			continue;
		}
		print_insn(o, base + i, &in, raw + i, NULL, NULL, NULL);
		i += (size_t)k;
	}
	if (o->json)
		json_prog_end(o);
	return rc;
}

static int read_file(const char *path, void **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	int rc = -errno;

	if (!f)
		return rc;
	if (fstat(fileno(f), &st) || st.st_size < 0 || st.st_size > (1 << 30)) {
		fclose(f);
		return -EFBIG;
	}
	*len = (size_t)st.st_size;
	*buf = malloc(*len ? *len : 1);
	if (!*buf || fread(*buf, 1, *len, f) != *len) {
		free(*buf);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	return 0;
}

static int dis_raw(struct dis_opts *o)
{
	void *buf = NULL;
	size_t len = 0;
	int rc = read_file(o->path, &buf, &len);

	if (rc)
		return cli_error("disasm", "%s: %s", o->path, strerror(-rc));
	if (len % 8) {
		free(buf);
		return cli_error("disasm", "%s: size %zu is not a multiple of 8 (offset %zu)", o->path,
				 len, len - len % 8);
	}
	rc = print_raw(o, "raw", o->path, buf, len / 8, 0);
	free(buf);
	return rc;
}

struct fsym {
	const char *name;
	GElf_Sym sym;
};

static int fsym_cmp(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;

	return x->sym.st_value < y->sym.st_value ? -1 : x->sym.st_value > y->sym.st_value;
}

/* Function symbols of section shndx, sorted by address. */
static size_t section_funcs(Elf *elf, Elf_Scn *symscn, size_t shndx, struct fsym **out)
{
	GElf_Shdr sh;
	Elf_Data *d;
	size_t n = 0, cnt;
	struct fsym *v;

	*out = NULL;
	if (!symscn || !gelf_getshdr(symscn, &sh) || !(d = elf_getdata(symscn, NULL)) || !sh.sh_entsize)
		return 0;
	cnt = d->d_size / sh.sh_entsize;
	v = calloc(cnt ? cnt : 1, sizeof(*v));
	if (!v)
		return 0;
	for (size_t i = 0; i < cnt; i++) {
		GElf_Sym s;
		const char *nm;

		if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
		    s.st_shndx != shndx)
			continue;
		nm = elf_strptr(elf, sh.sh_link, s.st_name);
		v[n].name = nm ? nm : "?";
		v[n++].sym = s;
	}
	qsort(v, n, sizeof(*v), fsym_cmp);
	*out = v;
	return n;
}

static int dis_section(struct dis_opts *o, Elf *elf, Elf_Scn *scn, Elf_Scn *symscn, const char *sec)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	struct fsym *fs;
	size_t nf, nslots;
	int rc = EXIT_OK;

	if (!d || !d->d_size)
		return EXIT_OK;
	if (!d->d_buf || d->d_size % 8)
		return cli_error("disasm", "%s: section %s: size not a multiple of 8", o->path, sec);
	nslots = d->d_size / 8;
	nf = section_funcs(elf, symscn, elf_ndxscn(scn), &fs);
	if (!nf && !o->prog)
		rc = print_raw(o, sec, sec, d->d_buf, nslots, 0);
	for (size_t i = 0; i < nf; i++) {
		uint64_t start = fs[i].sym.st_value, size = fs[i].sym.st_size;
		int r;

		if (o->prog && strcmp(o->prog, fs[i].name))
			continue;
		if (start % 8 || size % 8 || start > d->d_size || size > d->d_size - start) {
			rc = cli_error("disasm", "%s: symbol %s: value 0x%llx size 0x%llx outside section %s",
				       o->path, fs[i].name, (unsigned long long)start,
				       (unsigned long long)size, sec);
			continue;
		}
		r = print_raw(o, fs[i].name, sec, (const struct bg_raw_insn *)d->d_buf + start / 8,
			      size / 8, start / 8);
		if (r)
			rc = r;
	}
	free(fs);
	return rc;
}

static int dis_sections(struct dis_opts *o)
{
	int fd = open(o->path, O_RDONLY), rc = EXIT_OK;
	Elf *elf;
	Elf_Scn *scn = NULL, *symscn = NULL;
	size_t shstrndx;
	GElf_Ehdr eh;

	if (fd < 0)
		return cli_error("disasm", "%s: %s", o->path, strerror(errno));
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    elf_getshdrstrndx(elf, &shstrndx)) {
		rc = cli_error("disasm", "%s: offset 0: not an ELF object (%s)", o->path, elf_errmsg(-1));
		goto out;
	}
	if (eh.e_machine != EM_BPF) {
		rc = cli_error("disasm", "%s: offset 18: e_machine %u is not EM_BPF", o->path, eh.e_machine);
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			symscn = scn;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		int r;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		r = dis_section(o, elf, scn, symscn, name ? name : "?");
		if (r)
			rc = r;
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return rc;
}

static void print_source(struct dis_opts *o, const struct bg_line *ln, const struct bg_line **last)
{
	const char *t;

	if (!ln || !ln->line || (*last && (*last)->line == ln->line && !strcmp((*last)->file, ln->file)))
		return;
	*last = ln;
	t = ln->text ? ln->text : "";
	while (*t == ' ' || *t == '\t')
		t++;
	if (!o->json)
		printf("; %s:%u: %s\n", cli_safe(ln->file), ln->line, cli_safe_src(t));
}

/* The reason a CO-RE relocation poisoned slot i, or NULL. */
static const char *core_reason(const struct bg_program *prog, size_t i)
{
	for (size_t k = 0; k < bg_program__core_failure_cnt(prog); k++) {
		const struct bg_core_failure *f = bg_program__core_failure(prog, k);

		if (f && f->insn == i)
			return f->reason;
	}
	return NULL;
}

static int dis_object(struct dis_opts *o)
{
	char err[512] = "";
	struct bg_object *obj;
	int rc = EXIT_OK, found = 0;

	obj = bg_object__open(o->path, NULL, err, sizeof(err));
	if (!obj)
		return cli_error("disasm", "%s", err[0] ? err : strerror(errno));
	cli_object_warnings("disasm", obj);
	for (size_t p = 0; p < bg_object__prog_cnt(obj); p++) {
		struct bg_program *prog = bg_object__prog(obj, p);
		const char *name = bg_program__name(prog);
		const struct bg_line *last = NULL;
		const struct bg_insn *in;
		const struct bg_raw_insn *raw;
		const struct bg_hint **hints;
		struct bg_hint *hstore = NULL;
		size_t n, nr;

		if (o->prog && strcmp(o->prog, name))
			continue;
		found++;
		in = bg_program__insns(prog, &n);
		raw = bg_program__raw(prog, &nr);
		hints = cli_hints_by_slot(prog, n, &hstore);
		if (o->json)
			json_prog_begin(o, name, bg_program__section(prog), bg_program__type_name(prog));
		else
			printf("%s%s (%s):\n", o->shown ? "\n" : "", cli_safe(name),
			       cli_safe(bg_program__section(prog)));
		o->shown++;
		for (size_t i = 0; i < n; i++) {
			const struct bg_line *ln = o->source || o->json ? bg_program__line(prog, i) : NULL;

			if (o->source)
				print_source(o, ln, &last);
			print_insn(o, i, &in[i], raw && i < nr ? raw + i : NULL, ln, core_reason(prog, i),
				   hints ? hints[i] : NULL);
		}
		free(hints);
		free(hstore);
		if (o->json)
			json_prog_end(o);
	}
	bg_object__free(obj);
	if (o->prog && !found)
		rc = cli_error("disasm", "%s: no program named '%s'", o->path, o->prog);
	return rc;
}

int cmd_disasm(int argc, char **argv)
{
	struct dis_opts o = { 0 };
	int rc;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--prog")) {
			if (!(o.prog = cli_value("disasm", argc, argv, &i)))
				return EXIT_BAD;
		}
		else if (!strcmp(a, "--source"))
			o.source = true;
		else if (!strcmp(a, "--json"))
			o.json = true;
		else if (!strcmp(a, "--raw"))
			o.raw = true;
		else if (!strcmp(a, "--sections"))
			o.sections = true;
		else if (!strcmp(a, "--hex"))
			o.flags |= BG_FMT_HEX;
		else if (!strcmp(a, "--objdump"))
			o.flags |= BG_FMT_OBJDUMP;
		else if (!strcmp(a, "--kernel"))
			o.flags |= BG_FMT_KERNEL;
		else if (a[0] == '-' && a[1])
			return cli_error("disasm", "unknown option '%s' (see --help)", a);
		else if (!o.path)
			o.path = a;
		else
			return cli_error("disasm", "more than one input file ('%s')", a);
	}
	if (!o.path) {
		usage(stderr);
		return EXIT_BAD;
	}
	if (o.sections)
		o.flags |= BG_FMT_OBJDUMP;
	if (o.raw)
		rc = dis_raw(&o);
	else if (o.sections)
		rc = dis_sections(&o);
	else
		rc = dis_object(&o);
	if (o.json && (o.begun || rc == EXIT_OK)) {
		json_doc_begin(&o);
		cli_json_sink(NULL);
		bg_json_arr_end(&o.j);
		bg_json_obj_end(&o.j);
		printf("\n");
	}
	return rc;
}
