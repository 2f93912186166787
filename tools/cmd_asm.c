/* bpfgate asm: assemble text (bg_asm syntax, see include/bpfgate/insn.h) into
 * raw instruction bytes or a minimal relocatable BPF ELF object that libbpf
 * and `bpfgate kload` open: the program in one executable section (default
 * "xdp"), a global FUNC symbol for it, and a "license" section ("GPL").
 * Limits: no BTF, no maps section (map_idx references load only with an
 * fd_array), local calls stay inside the one program section.
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
#include "core/json.h"

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

/* Append s (with its NUL) to a string table; returns its offset. */
static size_t strtab_add(char *tab, size_t *len, const char *s)
{
	size_t off = *len;

	memcpy(tab + off, s, strlen(s) + 1);
	*len += strlen(s) + 1;
	return off;
}

static Elf_Scn *add_scn(Elf *e, const char *what, void *buf, size_t size, size_t align, int type)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d = scn ? elf_newdata(scn) : NULL;

	if (!d) {
		fprintf(stderr, "bpfgate asm: libelf: %s section: %s\n", what, elf_errmsg(-1));
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

/* Sections: 1 program, 2 license, 3 .symtab, 4 .strtab, 5 .shstrtab. */
static int write_elf(const struct asm_opts *o, struct bg_raw_insn *insns, size_t n)
{
	char shstr[512], str[512], lic[256];
	size_t shlen = 1, slen = 1, lic_len = strlen(o->license) + 1;
	size_t n_prog, n_lic, n_sym, n_str, n_shs, s_prog, s_lic;
	Elf64_Sym syms[3];
	Elf64_Ehdr *eh;
	Elf_Scn *sp, *sl, *ss, *st, *sh;
	Elf *e;
	int fd, rc = -1;

	if (strlen(o->section) > 200 || strlen(o->name) > 200 || lic_len > sizeof(lic))
		return cli_error("asm", "section, program name or license too long");
	memcpy(lic, o->license, lic_len);
	shstr[0] = str[0] = 0;
	n_prog = strtab_add(shstr, &shlen, o->section);
	n_lic = strtab_add(shstr, &shlen, "license");
	n_sym = strtab_add(shstr, &shlen, ".symtab");
	n_str = strtab_add(shstr, &shlen, ".strtab");
	n_shs = strtab_add(shstr, &shlen, ".shstrtab");
	s_prog = strtab_add(str, &slen, o->name);
	s_lic = strtab_add(str, &slen, "LICENSE");
	memset(syms, 0, sizeof(syms));
	syms[1] = (Elf64_Sym){ .st_name = (uint32_t)s_prog, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
			       .st_shndx = 1, .st_size = n * sizeof(*insns) };
	syms[2] = (Elf64_Sym){ .st_name = (uint32_t)s_lic, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
			       .st_shndx = 2, .st_size = lic_len };

	fd = open(o->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return cli_error("asm", "%s: %s", o->out, strerror(errno));
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e || !(eh = elf64_newehdr(e)))
		goto out;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_type = ET_REL;
	eh->e_machine = EM_BPF;
	eh->e_version = EV_CURRENT;
	if (!(sp = add_scn(e, "program", insns, n * sizeof(*insns), 8, ELF_T_BYTE)) ||
	    !(sl = add_scn(e, "license", lic, lic_len, 1, ELF_T_BYTE)) ||
	    !(ss = add_scn(e, "symtab", syms, sizeof(syms), 8, ELF_T_SYM)) ||
	    !(st = add_scn(e, "strtab", str, slen, 1, ELF_T_BYTE)) ||
	    !(sh = add_scn(e, "shstrtab", shstr, shlen, 1, ELF_T_BYTE)))
		goto out;
	if (set_shdr(sp, (uint32_t)n_prog, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 0, 8, 0) ||
	    set_shdr(sl, (uint32_t)n_lic, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0, 0, 1, 0) ||
	    set_shdr(ss, (uint32_t)n_sym, SHT_SYMTAB, 0, 4, 1, 8, sizeof(Elf64_Sym)) ||
	    set_shdr(st, (uint32_t)n_str, SHT_STRTAB, 0, 0, 0, 1, 0) ||
	    set_shdr(sh, (uint32_t)n_shs, SHT_STRTAB, 0, 0, 0, 1, 0))
		goto out;
	eh->e_shstrndx = (Elf64_Half)elf_ndxscn(sh);
	if (elf_update(e, ELF_C_WRITE) < 0)
		goto out;
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "bpfgate asm: %s: libelf: %s\n", o->out, elf_errmsg(-1));
	if (e)
		elf_end(e);
	if (close(fd))
		rc = -1;
	return rc ? EXIT_BAD : EXIT_OK;
}

/* "line N: msg" from bg_asm -> "FILE:N: msg" on stderr. */
static int report_asm_error(const char *file, const char *err)
{
	int line = 0, k = 0;

	if (sscanf(err, "line %d: %n", &line, &k) == 1 && k > 0)
		fprintf(stderr, "%s:%d: %s\n", file, line, err + k);
	else
		fprintf(stderr, "%s: %s\n", file, err);
	return EXIT_BAD;
}

static int parse_args(int argc, char **argv, struct asm_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool more = i + 1 < argc;

		if (!strcmp(a, "-o") && more)
			o->out = argv[++i];
		else if ((!strcmp(a, "--section") || !strcmp(a, "--type")) && more)
			o->section = argv[++i];
		else if (!strcmp(a, "--name") && more)
			o->name = argv[++i];
		else if (!strcmp(a, "--license") && more)
			o->license = argv[++i];
		else if (!strcmp(a, "--raw"))
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
	n = bg_asm(text, &insns, err, sizeof(err));
	free(text);
	if (n < 0)
		return report_asm_error(o.in, err);
	if (n == 0) {
		free(insns);
		fprintf(stderr, "%s:1: no instructions\n", o.in);
		return EXIT_BAD;
	}
	if (o.raw) {
		rc = write_raw(o.out, insns, (size_t)n);
		if (rc)
			rc = cli_error("asm", "%s: %s", o.out, strerror(-rc));
	} else {
		rc = write_elf(&o, insns, (size_t)n);
	}
	free(insns);
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
