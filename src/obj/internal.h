/* Internal model of an opened object (src/obj only).
 *
 * Stages, each validating its input before the next one trusts it:
 *   elf.c     ELF sections and symbols (bounds-checked against the file)
 *   btfext.c  .BTF via libbpf, .BTF.ext (func/line/CO-RE records) by hand
 *   maps.c    map definitions (.maps, legacy maps, global data, .kconfig)
 *   reloc.c   relocations of code sections, classified per instruction
 *   link.c    one prepared program per entry point: subprograms appended,
 *             relocations applied, func/line info remapped
 *   core.c    CO-RE relocations and kfunc/ksym resolution (target BTF)
 * Every error goes through obj_err(), which formats "file: where: what". */
#ifndef BG_OBJ_INTERNAL_H
#define BG_OBJ_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gelf.h>
#include <linux/bpf.h>
#include <bpf/btf.h>
#include <bpfgate/bpfgate.h>
#include "platform/sections.h"

#define OBJ_MAX_INSNS (1u << 20)   /* slots per prepared program */
#define OBJ_MAX_FUNCS 4096         /* functions per program (subprograms incl.) */

enum sec_kind {
	SEC_OTHER = 0,
	SEC_CODE,       /* executable PROGBITS */
	SEC_DATA,       /* .data, .data.* */
	SEC_RODATA,     /* .rodata, .rodata.* */
	SEC_BSS,        /* .bss, .bss.* (NOBITS) */
	SEC_MAPS,       /* .maps (BTF-defined) */
	SEC_LEGACY_MAPS,/* maps (struct bpf_map_def) */
	SEC_REL,
	SEC_SYMTAB,
};

/* What a relocated instruction refers to. */
enum relo_kind {
	RELO_NONE = 0,
	RELO_CALL,      /* pseudo call to (tsec, tinsn) */
	RELO_FUNC,      /* ld_imm64 of a function address (callback) */
	RELO_MAP,       /* ld_imm64 of a map: imm = map */
	RELO_DATA,      /* ld_imm64 into global data: map, off */
	RELO_EXTERN,    /* kfunc call or ksym/kconfig ld_imm64: ext */
};

struct obj_relo {
	size_t insn;          /* slot in the section */
	enum relo_kind kind;
	uint32_t tsec;        /* RELO_CALL/FUNC: target section */
	size_t tinsn;         /* RELO_CALL/FUNC: target slot in tsec */
	int map;              /* RELO_MAP/DATA */
	int64_t off;          /* RELO_DATA: offset in the map value */
	int ext;              /* RELO_EXTERN: index in obj->exts */
};

struct obj_sec {
	const char *name;
	uint32_t idx, type, link, info;
	uint64_t flags, off, size;
	const uint8_t *data;  /* NULL for NOBITS or empty */
	enum sec_kind kind;
	int map;              /* map index of a global data section, or -1 */
	struct obj_relo *relos; /* code sections: sorted by insn */
	size_t nrelos;
	size_t nslots;        /* code: size / 8 */
};

struct obj_sym {
	const char *name;
	uint64_t value, size;
	uint32_t shndx;
	uint8_t type, bind;
	uint8_t vis;          /* STV_*: hidden globals are static to the kernel (libbpf) */
};

/* A function (program or subprogram) of a code section. */
struct obj_func {
	const char *name;
	uint32_t sec;
	size_t start, len;    /* slots */
	bool global;
	uint32_t btf_id;      /* FUNC type id from .BTF.ext func_info, 0 when none */
	bool hidden;          /* a global with STV_HIDDEN: treated as static (global false) */
};

enum ext_kind { EXT_KFUNC = 1, EXT_KSYM, EXT_KCONFIG };

struct obj_extern {
	const char *name;
	enum ext_kind kind;
	bool resolved;
	bool weak;
	uint32_t btf_id;      /* target BTF id (kfunc FUNC, ksym VAR) */
	uint32_t local_id;    /* VAR/FUNC id in the object's BTF, 0 when none */
	int64_t kcfg_off;     /* EXT_KCONFIG: offset in the .kconfig map */
	uint32_t kcfg_size;
	bool from_btf;        /* kind taken from the object's BTF (FUNC or VAR), not the use */
	bool typeless;        /* EXT_KSYM of type void: resolved through kallsyms to addr */
	uint64_t addr;        /* typeless: the kallsyms address */
	char *no_kaddr;       /* typed ksym the running kernel's kallsyms lacks: the
				 verifier's refusal, recorded at each ld_imm64 (malloc'd) */
	char *fail;           /* why unresolved (malloc'd) */
};

/* .BTF.ext records of one section, insn offsets converted to slots. */
struct ext_func { size_t insn; uint32_t type_id; };
struct ext_line { size_t insn; uint32_t file_off, line_off, line_col; };
struct ext_core { size_t insn; uint32_t type_id, access_off, kind; };
struct ext_sec {
	uint32_t sec;         /* ELF section index */
	struct ext_func *funcs; size_t nfuncs;
	struct ext_line *lines; size_t nlines;
	struct ext_core *cores; size_t ncores;
};

/* A function placed in a prepared program. */
struct prog_piece {
	int func;             /* index in obj->funcs */
	size_t at;            /* first slot in the program */
};

struct bg_program {
	struct bg_object *obj;
	char *name;
	const char *sec_name;
	const struct bg_sec_def *def;
	char *attach_target;
	uint32_t prog_flags;
	struct bg_raw_insn *raw;
	struct bg_insn *insns;
	size_t n;
	struct prog_piece *pieces;
	size_t npieces;
	int *piece_of_func;         /* obj->funcs index -> pieces index or -1 (while linking) */
	struct bg_line *lines;      /* distinct source positions */
	size_t nlines;
	int32_t *line_of;           /* per slot: index in lines or -1 */
	struct bpf_func_info *kfi;  /* kernel load format */
	size_t nkfi;
	struct bpf_line_info *kli;
	size_t nkli;
	struct bg_func_info *funcs;
	size_t nfuncs;
	struct bg_core_failure *fails;
	size_t nfails;
	char *decode_error;         /* with opts.keep_malformed: why insns is NULL */
	struct bg_assert_site *asserts; /* asserts.c: markers in this program */
	size_t nasserts;
	const char *exc_cb_name;    /* link.c: "exception_callback:NAME" of the entry (BTF string) or NULL */
	size_t exc_cb_insn;         /* its first slot, SIZE_MAX when not appended */
	int exc_cb_tags;            /* how many such tags the entry has */
};

struct bg_object {
	char *path;
	uint8_t *buf;
	size_t len;
	Elf *elf;
	struct bg_open_opts opts;
	char *err;                  /* caller's buffer */
	size_t errsz;
	struct obj_sec *secs;
	size_t nsecs;
	struct obj_sym *syms;
	size_t nsyms;
	uint32_t symtab_idx;
	uint32_t *sec_by_name;      /* section indexes sorted by (name, index) */
	uint32_t *objsyms;          /* STT_OBJECT symbol indexes sorted by (section, name) */
	size_t nobjsyms;
	uint32_t *map_by_def;       /* indexes of non-global-data maps sorted by (section, offset) */
	size_t nmap_by_def;
	struct obj_func *funcs;
	size_t nfuncs;
	struct obj_extern *exts;
	size_t nexts;
	int *ext_of_sym;            /* symbol index -> exts index, -1 (while collecting) */
	struct bg_map_def *maps;
	size_t nmaps;
	char **map_names;           /* owned names of maps (parallel to maps) */
	uint32_t *map_sec;          /* section each map is defined in (parallel to maps) */
	int32_t *map_vals_off;      /* offset of the `values` member in a .maps definition, or -1 */
	uint32_t *map_def_sz;       /* size of a .maps definition (its variable) */
	int32_t **slot_bufs;        /* owned init_slots arrays */
	size_t nslot_bufs;
	uint8_t *kconfig_data;
	struct kcfg_var { const char *name; uint32_t off, size, type_id; bool found; } *kcfg;
	size_t nkcfg;
	int kcfg_map;               /* index of the .kconfig map, or -1 */
	struct bg_program **progs;
	size_t nprogs;
	char *license;
	char *btf_error;   /* why .BTF was set aside (malformed): the object is read without it */
	uint32_t kversion;
	int btf_sec, btf_ext_sec;   /* section indexes, or -1 */
	struct btf *btf;
	struct ext_sec *ext_secs;
	size_t next_secs;
	uint32_t ext_func_rec, ext_line_rec;
	struct btf *target;         /* owned unless opts->target_btf */
	bool target_tried;
	char *target_err;
	void *core_cache;           /* core.c: name index of the target BTF */
	struct bg_assert_site *lost_asserts; /* asserts.c: declared, no marker left */
	size_t nlost_asserts;
	bool has_asserts;
};

/* Format "objname: msg" into obj->err; returns -BG_ERR_FORMAT. */
int obj_err(struct bg_object *obj, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Same with a given negative code. */
int obj_errc(struct bg_object *obj, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
char *obj_strdup(const char *s);
char *obj_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Grow *arr (elements of size sz) to hold at least n+1; returns 0 or -ENOMEM. */
int obj_grow(void **arr, size_t *cap, size_t n, size_t sz);

int obj_elf_parse(struct bg_object *obj);
int obj_btf_parse(struct bg_object *obj);
int obj_btf_ext_parse(struct bg_object *obj);
const char *obj_btf_validate(const struct btf *btf, uint32_t *bad_id);
int obj_maps_collect(struct bg_object *obj);
int obj_map_inits(struct bg_object *obj);
int obj_funcs_collect(struct bg_object *obj);
int obj_relos_collect(struct bg_object *obj);
int obj_externs_resolve(struct bg_object *obj);
int obj_progs_build(struct bg_object *obj);
/* stops.c: struct_ops programs get attach target "STRUCT:MEMBER" from the
 * relocations of .struct_ops[.link] (their variables' members). */
int obj_struct_ops_bind(struct bg_object *obj);
int obj_asserts_collect(struct bg_object *obj);
int obj_core_apply(struct bg_object *obj, struct bg_program *prog);
void obj_core_free(struct bg_object *obj);
int obj_target_find(struct bg_object *obj, const struct btf *tb, const char *name, int kind);
int obj_target_btf(struct bg_object *obj, const struct btf **out, const char **why);
const struct ext_sec *obj_ext_sec(const struct bg_object *obj, uint32_t sec);
/* First record of a sorted ext_func/ext_line/ext_core array with insn >= insn. */
size_t obj_ext_lower(const void *arr, size_t n, size_t rec, size_t insn);
int obj_find_map_by_sym(const struct bg_object *obj, uint32_t shndx, uint64_t value);
int obj_find_sec(const struct bg_object *obj, const char *name);
const struct obj_sym *obj_find_obj_sym(const struct bg_object *obj, uint32_t sec, const char *name);
void prog_free(struct bg_program *prog);
int prog_add_failure(struct bg_program *prog, size_t insn, char *reason);
/* kallsyms.c: the running kernel's /proc/kallsyms; 1 found (addr set when
 * non-NULL), 0 not listed, -1 unreadable. */
int obj_kallsyms_find(const char *name, uint64_t *addr);
/* Length of name without a "___flavor" suffix (core.c). */
size_t obj_essential_len(const char *name);
bool obj_kfunc_compat(const struct btf *lb, uint32_t lfunc, const struct btf *tb, uint32_t tfunc);
/* maps.c: append a map definition (zeroed, named) to the object. */
int add_map(struct bg_object *obj, const char *name, uint32_t sec, struct bg_map_def **out);

#endif
