/* Resolving user-space probe targets to (file, offset) pairs through libelf.
 * Every ELF read goes through libelf's checked accessors; a symbol, note or
 * address that does not fit the file is reported, never followed. */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cov/uprobe.h"

_Static_assert(sizeof(struct bg_usdt_spec) == 208, "libbpf's struct __bpf_usdt_spec is 208 bytes");

static int fail(char *err, size_t errsz, int rc, const char *fmt, const char *a, const char *b)
{
	snprintf(err, errsz, fmt, a, b);
	return rc;
}

static int try_dir(const char *dir, size_t dlen, const char *name, char *path, size_t pathsz,
		   int mode)
{
	int n = snprintf(path, pathsz, "%.*s/%s", (int)dlen, dir, name);

	return n > 0 && (size_t)n < pathsz && access(path, mode) == 0;
}

int bg_uprobe__find_binary(const char *name, char *path, size_t pathsz, char *err, size_t errsz)
{
	static const char *const libdirs = "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:"
					   "/lib64:/usr/lib64:/lib:/usr/lib:/usr/local/lib";
	static const char *const bindirs = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	const char *dirs, *p;
	bool lib = strstr(name, ".so") != NULL;

	if (!*name)
		return fail(err, errsz, -EINVAL, "empty binary name%s%s", "", "");
	if (strchr(name, '/')) {
		if ((size_t)snprintf(path, pathsz, "%s", name) >= pathsz)
			return fail(err, errsz, -ENAMETOOLONG, "%s: path too long%s", name, "");
		if (access(path, R_OK))
			return fail(err, errsz, -errno, "%s: %s", name, strerror(errno));
		return 0;
	}
	/* the standard program directories, not $PATH: the library reads no
	 * environment (give a path with a '/' for anything else) */
	dirs = lib ? libdirs : bindirs;
	for (p = dirs; p && *p;) {
		const char *e = strchr(p, ':');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len && try_dir(p, len, name, path, pathsz, lib ? R_OK : X_OK))
			return 0;
		p = e ? e + 1 : NULL;
	}
	return fail(err, errsz, -ENOENT, "%s: not found in %s", name,
		    lib ? "the library directories" : "the standard program directories");
}

struct elf_file {
	int fd;
	Elf *elf;
	GElf_Ehdr eh;
};

static int elf_open(const char *path, struct elf_file *f, char *err, size_t errsz)
{
	f->elf = NULL;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return fail(err, errsz, -errno, "%s: %s", path, strerror(errno));
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    !(f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL)) || elf_kind(f->elf) != ELF_K_ELF ||
	    !gelf_getehdr(f->elf, &f->eh)) {
		if (f->elf)
			elf_end(f->elf);
		close(f->fd);
		return fail(err, errsz, -ENOEXEC, "%s: not an ELF file%s", path, "");
	}
	if (f->eh.e_type != ET_EXEC && f->eh.e_type != ET_DYN) {
		elf_end(f->elf);
		close(f->fd);
		return fail(err, errsz, -ENOEXEC, "%s: not an executable or shared object%s", path,
			    "");
	}
	return 0;
}

static void elf_close(struct elf_file *f)
{
	elf_end(f->elf);
	close(f->fd);
}

/* The file offset of a virtual address, through the loadable segment that
 * maps it from the file; 0 with errno when none does. */
static uint64_t vaddr_to_off(struct elf_file *f, uint64_t va)
{
	size_t n = 0;

	if (elf_getphdrnum(f->elf, &n))
		n = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(f->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (va >= ph.p_vaddr && va - ph.p_vaddr < ph.p_filesz)
			return va - ph.p_vaddr + ph.p_offset;
	}
	errno = ERANGE;
	return 0;
}

/* The name of a symbol up to a version suffix ("malloc@@GLIBC_2.2.5"). */
static bool name_matches(const char *sym, const char *want)
{
	size_t n = strlen(want);

	return !strncmp(sym, want, n) && (sym[n] == 0 || sym[n] == '@');
}

struct sym_pick {
	uint64_t off;
	int found, globals, ambiguous;
	const char *glob;       /* multi: every function whose name matches */
	uint64_t *offs;
	size_t max, cnt;
};

/* fnmatch on the name without its version suffix. */
static bool glob_matches(const char *sym, const char *glob)
{
	char base[256];
	size_t n = strcspn(sym, "@");

	if (n >= sizeof(base))
		return false;
	memcpy(base, sym, n);
	base[n] = 0;
	return fnmatch(glob, base, 0) == 0;
}

/* multi: record off once. */
static void add_unique(struct sym_pick *pick, uint64_t off)
{
	for (size_t i = 0; i < pick->cnt && i < pick->max; i++)
		if (pick->offs[i] == off)
			return;
	if (pick->cnt < pick->max)
		pick->offs[pick->cnt] = off;
	pick->cnt++;
	pick->found = 1;
}

/* Consider every definition of want in one symbol table. */
static void scan_symtab(struct elf_file *f, Elf_Scn *scn, const GElf_Shdr *sh, const char *want,
			struct sym_pick *pick)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = d && sh->sh_entsize ? d->d_size / sh->sh_entsize : 0;

	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		GElf_Shdr ts;
		const char *name;
		Elf_Scn *tscn;
		uint64_t off;
		int type;
		bool global;

		if (!gelf_getsym(d, (int)i, &s))
			break;
		type = GELF_ST_TYPE(s.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF ||
		    s.st_shndx >= SHN_LORESERVE || !s.st_value)
			continue;
		name = elf_strptr(f->elf, sh->sh_link, s.st_name);
		if (!name || !(pick->glob ? glob_matches(name, pick->glob) : name_matches(name, want)))
			continue;
		tscn = elf_getscn(f->elf, s.st_shndx);
		if (!tscn || !gelf_getshdr(tscn, &ts) || s.st_value < ts.sh_addr ||
		    ts.sh_type == SHT_NOBITS)
			continue;
		off = s.st_value - ts.sh_addr + ts.sh_offset;
		global = GELF_ST_BIND(s.st_info) == STB_GLOBAL;
		if (pick->glob) {
			add_unique(pick, off);
			continue;
		}
		if (pick->found && pick->off == off) {
			continue;
		} else if (!pick->found || (global && !pick->globals)) {
			pick->ambiguous = 0;
			pick->off = off;
		} else if (global || !pick->globals) {
			pick->ambiguous = 1;
		}
		pick->found = 1;
		pick->globals += global;
	}
}

static int find_func(struct elf_file *f, const char *path, const char *want, uint64_t *off,
		     char *err, size_t errsz)
{
	static const uint32_t order[] = {SHT_SYMTAB, SHT_DYNSYM};
	struct sym_pick pick = {0};

	for (size_t k = 0; k < 2 && !pick.found; k++) {
		for (Elf_Scn *scn = elf_nextscn(f->elf, NULL); scn;
		     scn = elf_nextscn(f->elf, scn)) {
			GElf_Shdr sh;

			if (gelf_getshdr(scn, &sh) && sh.sh_type == order[k])
				scan_symtab(f, scn, &sh, want, &pick);
		}
	}
	if (!pick.found)
		return fail(err, errsz, -ENOENT, "%s: no function '%s' in the symbol table", path,
			    want);
	if (pick.ambiguous)
		return fail(err, errsz, -ENOTUNIQ,
			    "%s: function '%s' is defined at several addresses", path, want);
	*off = pick.off;
	return 0;
}

/* Split "PATH:REST" at the first ':' (as libbpf's "%m[^:]:%m[^\n]"): a
 * PATH cannot hold ':'. */
static int split_spec(const char *spec, char *bin, size_t binsz, const char **rest)
{
	const char *c = strchr(spec, ':');

	if (!c || c == spec || !c[1] || (size_t)(c - spec) >= binsz)
		return -EINVAL;
	memcpy(bin, spec, (size_t)(c - spec));
	bin[c - spec] = 0;
	*rest = c + 1;
	return 0;
}

/* "FUNC", "FUNC+OFF" (decimal or 0x hex) or "0xOFF". */
static int parse_func(const char *s, char *func, size_t funcsz, uint64_t *add, bool *raw)
{
	const char *plus = strchr(s, '+');
	size_t len = plus ? (size_t)(plus - s) : strlen(s);
	char *end;

	*add = 0;
	*raw = s[0] >= '0' && s[0] <= '9';
	if (*raw) {
		if (plus)
			return -EINVAL;
		errno = 0;
		*add = strtoull(s, &end, 0);
		return errno || *end ? -EINVAL : 0;
	}
	if (!len || len >= funcsz)
		return -EINVAL;
	memcpy(func, s, len);
	func[len] = 0;
	for (size_t i = 0; i < len; i++)
		if (!(func[i] == '_' || func[i] == '.' || (func[i] >= '0' && func[i] <= '9') ||
		      ((func[i] | 32) >= 'a' && (func[i] | 32) <= 'z')))
			return -EINVAL;
	if (plus) {
		errno = 0;
		*add = strtoull(plus + 1, &end, 0);
		if (errno || end == plus + 1 || *end)
			return -EINVAL;
	}
	return 0;
}

int bg_uprobe__resolve(const char *spec, struct bg_uprobe_target *t, char *err, size_t errsz)
{
	char bin[PATH_MAX], func[256];
	const char *rest;
	struct elf_file f;
	uint64_t add, off = 0;
	bool raw;
	int rc;

	memset(t, 0, sizeof(*t));
	if (split_spec(spec, bin, sizeof(bin), &rest) ||
	    parse_func(rest, func, sizeof(func), &add, &raw))
		return fail(err, errsz, -EINVAL,
			    "uprobe target '%s': want PATH:FUNC[+OFFSET] or PATH:0xOFFSET%s", spec,
			    "");
	rc = bg_uprobe__find_binary(bin, t->path, sizeof(t->path), err, errsz);
	if (rc)
		return rc;
	rc = elf_open(t->path, &f, err, errsz);
	if (rc)
		return rc;
	if (!raw)
		rc = find_func(&f, t->path, func, &off, err, errsz);
	elf_close(&f);
	t->offset = off + add;
	return rc;
}

int bg_uprobe__resolve_multi(const char *spec, char *path, size_t pathsz, uint64_t *offs, size_t max,
			     char *err, size_t errsz)
{
	static const uint32_t order[] = {SHT_SYMTAB, SHT_DYNSYM};
	char bin[PATH_MAX];
	const char *glob;
	struct sym_pick pick = {.offs = offs, .max = max};
	struct elf_file f;
	int rc;

	if (split_spec(spec, bin, sizeof(bin), &glob) || strlen(glob) >= 256)
		return fail(err, errsz, -EINVAL, "uprobe.multi target '%s': want PATH:PATTERN%s", spec, "");
	pick.glob = glob;
	rc = bg_uprobe__find_binary(bin, path, pathsz, err, errsz);
	if (rc || (rc = elf_open(path, &f, err, errsz)))
		return rc;
	for (size_t k = 0; k < 2 && !pick.found; k++)
		for (Elf_Scn *scn = elf_nextscn(f.elf, NULL); scn; scn = elf_nextscn(f.elf, scn)) {
			GElf_Shdr sh;

			if (gelf_getshdr(scn, &sh) && sh.sh_type == order[k])
				scan_symtab(&f, scn, &sh, NULL, &pick);
		}
	elf_close(&f);
	if (!pick.cnt)
		return fail(err, errsz, -ENOENT, "%s: no function matches '%s'", path, glob);
	return pick.cnt > (size_t)INT_MAX ? INT_MAX : (int)pick.cnt;
}

/* One stapsdt note: pc, base, semaphore (8 bytes each, as the ELF class
 * says), then "provider\0name\0args\0". */
struct sdt_note {
	uint64_t pc, base, sema;
	const char *provider, *name, *args;
};

static bool parse_sdt(const char *desc, size_t len, bool is64, struct sdt_note *n)
{
	size_t w = is64 ? 8 : 4, at = 3 * w;
	uint64_t v[3] = {0};
	const void *nul;

	if (len < at + 2)
		return false;
	for (int i = 0; i < 3; i++) {
		uint32_t v32;

		if (is64) {
			memcpy(&v[i], desc + i * w, 8);
		} else {
			memcpy(&v32, desc + i * w, 4);
			v[i] = v32;
		}
	}
	n->pc = v[0], n->base = v[1], n->sema = v[2];
	n->provider = desc + at;
	nul = memchr(n->provider, 0, len - at);
	if (!nul)
		return false;
	n->name = (const char *)nul + 1;
	if ((size_t)(n->name - desc) >= len || !(nul = memchr(n->name, 0, len - (size_t)(n->name - desc))))
		return false;
	n->args = (const char *)nul + 1; /* absent in notes of probes without arguments */
	if ((size_t)(n->args - desc) >= len || !memchr(n->args, 0, len - (size_t)(n->args - desc)))
		n->args = "";
	return true;
}

/* The address .stapsdt.base actually has: notes record the one it had when
 * the note was written, and prelinking may have moved it. */
static uint64_t sdt_base(struct elf_file *f)
{
	size_t shstrndx;

	if (elf_getshdrstrndx(f->elf, &shstrndx))
		return 0;
	for (Elf_Scn *scn = elf_nextscn(f->elf, NULL); scn; scn = elf_nextscn(f->elf, scn)) {
		GElf_Shdr sh;
		const char *nm;

		if (gelf_getshdr(scn, &sh) && (nm = elf_strptr(f->elf, shstrndx, sh.sh_name)) &&
		    !strcmp(nm, ".stapsdt.base"))
			return sh.sh_addr;
	}
	return 0;
}

struct sdt_want {
	const char *provider, *name;
	struct bg_uprobe_target *t;
	size_t max, cnt;
	int bad;     /* 1: malformed note or address, 2: arguments not understood (err) */
	char *err;
	size_t errsz;
};

static void scan_notes(struct elf_file *f, Elf_Scn *scn, uint64_t base, struct sdt_want *w)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	while (d && (next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		struct sdt_note n;

		off = next;
		if (nh.n_type != 3 || nh.n_namesz != 8 ||
		    memcmp((char *)d->d_buf + name_off, "stapsdt", 8))
			continue;
		if (!parse_sdt((char *)d->d_buf + desc_off, nh.n_descsz,
			       f->eh.e_ident[EI_CLASS] == ELFCLASS64, &n)) {
			w->bad = 1;
			continue;
		}
		if (strcmp(n.provider, w->provider) || strcmp(n.name, w->name))
			continue;
		if (w->cnt < w->max) {
			struct bg_uprobe_target *t = &w->t[w->cnt];
			uint64_t pc = base && n.base ? n.pc + base - n.base : n.pc;

			t->offset = vaddr_to_off(f, pc);
			t->ref_ctr = n.sema ? vaddr_to_off(f, n.sema) : 0;
			if (!t->offset || (n.sema && !t->ref_ctr))
				w->bad = 1;
			else if (!w->bad && bg_usdt__parse_args(n.args, &t->spec, w->err, w->errsz))
				w->bad = 2;
		}
		w->cnt++;
	}
}

int bg_usdt__resolve(const char *spec, struct bg_uprobe_target *t, size_t max, char *err,
		     size_t errsz)
{
	char bin[PATH_MAX], path[PATH_MAX], prov[256];
	const char *rest, *c;
	struct sdt_want w = {.t = t, .max = max, .err = err, .errsz = errsz};
	struct elf_file f;
	uint64_t base;
	int rc;

	if (split_spec(spec, bin, sizeof(bin), &rest) || !(c = strchr(rest, ':')) || c == rest ||
	    !c[1] || (size_t)(c - rest) >= sizeof(prov))
		return fail(err, errsz, -EINVAL, "usdt target '%s': want PATH:PROVIDER:NAME%s",
			    spec, "");
	memcpy(prov, rest, (size_t)(c - rest));
	prov[c - rest] = 0;
	w.provider = prov, w.name = c + 1;
	rc = bg_uprobe__find_binary(bin, path, sizeof(path), err, errsz);
	if (rc || (rc = elf_open(path, &f, err, errsz)))
		return rc;
	base = sdt_base(&f);
	for (Elf_Scn *scn = elf_nextscn(f.elf, NULL); scn; scn = elf_nextscn(f.elf, scn)) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE)
			scan_notes(&f, scn, base, &w);
	}
	elf_close(&f);
	for (size_t i = 0; i < w.cnt && i < max; i++)
		memcpy(t[i].path, path, sizeof(path));
	if (w.bad)
		return fail(err, errsz, -ENOEXEC,
			    "%s: malformed .note.stapsdt or probe outside the file%s", path, "");
	if (!w.cnt)
		return fail(err, errsz, -ENOENT, "%s: no USDT probe %s", path, rest);
	return (int)w.cnt;
}

/* struct pt_regs of x86-64, by register name (64/32/16/8-bit names). */
static const struct {
	const char *names[4];
	int16_t off;
} x86_regs[] = {
	{{"r15", "r15d", "r15w", "r15b"}, 0}, {{"r14", "r14d", "r14w", "r14b"}, 8},
	{{"r13", "r13d", "r13w", "r13b"}, 16}, {{"r12", "r12d", "r12w", "r12b"}, 24},
	{{"rbp", "ebp", "bp", "bpl"}, 32},	{{"rbx", "ebx", "bx", "bl"}, 40},
	{{"r11", "r11d", "r11w", "r11b"}, 48}, {{"r10", "r10d", "r10w", "r10b"}, 56},
	{{"r9", "r9d", "r9w", "r9b"}, 64},	{{"r8", "r8d", "r8w", "r8b"}, 72},
	{{"rax", "eax", "ax", "al"}, 80},	{{"rcx", "ecx", "cx", "cl"}, 88},
	{{"rdx", "edx", "dx", "dl"}, 96},	{{"rsi", "esi", "si", "sil"}, 104},
	{{"rdi", "edi", "di", "dil"}, 112},	{{"rip", "eip", NULL, NULL}, 128},
	{{"rsp", "esp", "sp", "spl"}, 152},
};

static int reg_offset(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(x86_regs) / sizeof(x86_regs[0]); i++)
		for (int k = 0; k < 4; k++)
			if (x86_regs[i].names[k] && strlen(x86_regs[i].names[k]) == len &&
			    !strncmp(x86_regs[i].names[k], name, len))
				return x86_regs[i].off;
	return -1;
}

/* One operand: "$IMM", "%REG", "OFF(%REG)" or "(%REG)". */
static int parse_operand(const char *op, size_t len, struct bg_usdt_arg *a)
{
	char buf[64], *end;
	const char *paren;
	long long v = 0;
	int r;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, op, len);
	buf[len] = 0;
	if (buf[0] == '$') {
		errno = 0;
		v = strtoll(buf + 1, &end, 0);
		if (errno || end == buf + 1 || *end)
			return -EINVAL;
		a->type = BG_USDT_ARG_CONST;
		a->val_off = (uint64_t)v;
		return 0;
	}
	if (buf[0] == '%') {
		r = reg_offset(buf + 1, len - 1);
		a->type = BG_USDT_ARG_REG;
	} else {
		paren = strchr(buf, '(');
		if (!paren || paren[1] != '%' || buf[len - 1] != ')')
			return -EINVAL;
		if (paren != buf) {
			errno = 0;
			v = strtoll(buf, &end, 0);
			if (errno || end != paren)
				return -EINVAL;
		}
		r = reg_offset(paren + 2, (size_t)(buf + len - 1 - (paren + 2)));
		a->type = BG_USDT_ARG_REG_DEREF;
		a->val_off = (uint64_t)v;
	}
	if (r < 0 || r == 128) /* %rip-relative operands need the load address */
		return -EINVAL;
	a->reg_off = (int16_t)r;
	return 0;
}

int bg_usdt__parse_args(const char *args, struct bg_usdt_spec *spec, char *err, size_t errsz)
{
	const char *p = args;

	memset(spec, 0, sizeof(*spec));
	while (*p) {
		struct bg_usdt_arg *a = &spec->args[spec->arg_cnt];
		const char *start, *at;
		size_t len;
		long size;
		char *end;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		start = p;
		len = strcspn(p, " ");
		p += len;
		if (spec->arg_cnt == BG_USDT_MAX_ARGS) {
			snprintf(err, errsz, "USDT probe with more than %d arguments", BG_USDT_MAX_ARGS);
			return -EINVAL;
		}
		size = strtol(start, &end, 10);
		at = end;
		if (at >= p || *at != '@' || !(labs(size) == 1 || labs(size) == 2 || labs(size) == 4 || labs(size) == 8) ||
		    parse_operand(at + 1, (size_t)(p - at - 1), a)) {
			snprintf(err, errsz, "USDT argument '%.*s' not understood (x86-64 SIZE@$IMM, SIZE@%%REG, SIZE@OFF(%%REG))",
				 (int)len, start);
			return -EINVAL;
		}
		a->is_signed = size < 0;
		a->bitshift = (int8_t)(64 - 8 * labs(size));
		spec->arg_cnt++;
	}
	return 0;
}
