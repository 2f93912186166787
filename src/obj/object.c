/* bg_object: open, prepare, free, and the getters of object.h.
 * Opening runs the stages of internal.h in order; any failure frees the
 * partial object and returns NULL with errno set and the message in err. */
#define _GNU_SOURCE /* vasprintf */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "platform/helpers.h"
#include "platform/kconfig.h"
#include "obj/internal.h"
#include "core/opts.h"
#include "platform/ctx.h"
#include "platform/sections.h"

#define OBJ_MAX_FILE (512u << 20)

static void obj_verr(struct bg_object *obj, const char *fmt, va_list ap)
{
	int n;

	if (!obj->err || !obj->errsz || obj->err[0])
		return; /* keep the first (innermost) message */
	n = snprintf(obj->err, obj->errsz, "%s: ", obj->path);
	if (n < 0 || (size_t)n >= obj->errsz)
		return;
	vsnprintf(obj->err + n, obj->errsz - n, fmt, ap);
}

int obj_err(struct bg_object *obj, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	obj_verr(obj, fmt, ap);
	va_end(ap);
	return -BG_ERR_FORMAT;
}

int obj_errc(struct bg_object *obj, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	obj_verr(obj, fmt, ap);
	va_end(ap);
	return code;
}

char *obj_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

char *obj_asprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

int obj_grow(void **arr, size_t *cap, size_t n, size_t sz)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	if (ncap <= n)
		ncap = n + 1;
	p = realloc(*arr, ncap * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

void prog_free(struct bg_program *prog)
{
	if (!prog)
		return;
	free(prog->name);
	free(prog->attach_target);
	free(prog->raw);
	free(prog->insns);
	free(prog->decode_error);
	free(prog->asserts);
	free(prog->pieces);
	free(prog->piece_of_func);
	free(prog->lines);
	free(prog->line_of);
	free(prog->kfi);
	free(prog->kli);
	free(prog->funcs);
	for (size_t i = 0; i < prog->nfails; i++)
		free((char *)prog->fails[i].reason);
	free(prog->fails);
	free(prog);
}

void bg_object__free(struct bg_object *obj)
{
	if (!obj)
		return;
	for (size_t i = 0; i < obj->nprogs; i++)
		prog_free(obj->progs[i]);
	free(obj->progs);
	for (size_t i = 0; i < obj->nsecs; i++)
		free(obj->secs[i].relos);
	free(obj->secs);
	free(obj->syms);
	free(obj->sec_by_name);
	free(obj->objsyms);
	free(obj->map_by_def);
	free(obj->funcs);
	for (size_t i = 0; i < obj->nexts; i++)
		free(obj->exts[i].fail), free(obj->exts[i].no_kaddr);
	free(obj->exts);
	free(obj->ext_of_sym);
	for (size_t i = 0; i < obj->nmaps; i++)
		free(obj->map_names[i]);
	free(obj->map_names);
	free(obj->map_sec);
	free(obj->map_vals_off);
	free(obj->map_def_sz);
	for (size_t i = 0; i < obj->nslot_bufs; i++)
		free(obj->slot_bufs[i]);
	free(obj->slot_bufs);
	free(obj->kcfg);
	free(obj->lost_asserts);
	free(obj->maps);
	free(obj->kconfig_data);
	for (size_t i = 0; i < obj->next_secs; i++) {
		free(obj->ext_secs[i].funcs);
		free(obj->ext_secs[i].lines);
		free(obj->ext_secs[i].cores);
	}
	free(obj->ext_secs);
	obj_core_free(obj);
	if (obj->target && obj->target != obj->opts.target_btf)
		btf__free(obj->target);
	free(obj->target_err);
	btf__free(obj->btf);
	if (obj->elf)
		elf_end(obj->elf);
	free(obj->license);
	free(obj->btf_error);
	free(obj->buf);
	free(obj->path);
	free(obj);
}

/* Does p load through a map pointer (`rX = map ll` then `*(rX + off)` in
 * the same straight-line run)? The kernel reads such a load through the
 * map's kernel struct (struct bpf_array, ...) in its BTF. A syntactic
 * scan: a register holds the map from its ld_imm64 until written, a jump,
 * a call or an exit. */
static bool prog_reads_map_ptr(const struct bg_program *p)
{
	uint32_t maps = 0; /* registers holding a map pointer */
	for (size_t i = 0; p->insns && i < p->n; i++) {
		const struct bg_insn *in = &p->insns[i];
		switch (in->kind) {
		case BG_K_LD_IMM64:
			maps &= ~(1u << in->dst);
			if (in->pseudo == BG_PSEUDO_MAP_FD || in->pseudo == BG_PSEUDO_MAP_IDX)
				maps |= 1u << in->dst;
			break;
		case BG_K_LD_IMM64_HI:
		case BG_K_ST:
		case BG_K_STX:
			break;
		case BG_K_LDX:
			if (maps & (1u << in->src))
				return true;
			maps &= ~(1u << in->dst);
			break;
		case BG_K_ALU:
		case BG_K_END:
		case BG_K_ADDR_CAST:
			maps &= ~(1u << in->dst);
			break;
		default:
			maps = 0;
			break;
		}
	}
	return false;
}

/* Programs typed by kernel BTF (tp_btf, fentry, lsm, iter, ...) need the
 * target BTF even where no CO-RE relocation or extern loaded it (an
 * assembly-only object): their ctx arguments are typed from it; so do
 * programs that read a map's kernel struct through a map pointer. */
static int obj_btf_target_progs(struct bg_object *obj)
{
	for (size_t i = 0; i < obj->nprogs && !obj->target && !obj->target_tried; i++) {
		const struct btf *tb = NULL;
		const char *why = NULL;
		int err;

		if ((!obj->progs[i]->def || !obj->progs[i]->def->btf_target) && !prog_reads_map_ptr(obj->progs[i]))
			continue;
		err = obj_target_btf(obj, &tb, &why);
		return err == -ENOENT ? 0 : err; /* no kernel BTF here: untyped, as before */
	}
	return 0;
}

static int obj_prepare(struct bg_object *obj)
{
	int err;

	if ((err = obj_elf_parse(obj)) || (err = obj_btf_parse(obj)) ||
	    (err = obj_funcs_collect(obj)) || (err = obj_maps_collect(obj)) ||
	    (err = obj_relos_collect(obj)) || (err = obj_externs_resolve(obj)) ||
	    (err = obj_progs_build(obj)) || (err = obj_btf_target_progs(obj)) ||
	    (err = obj_struct_ops_bind(obj)) ||
	    (err = obj_map_inits(obj)) ||
	    (err = obj_asserts_collect(obj)))
		return err;
	return 0;
}

/* Open from a buffer the object takes over (freed with it, or on failure). */
/* A program that calls a helper the kernel's config may leave out makes
 * the open read that config (platform/kconfig.h), as it reads vmlinux BTF:
 * platform facts are loaded with the object, not during the analysis. */
static void preload_kconfig(const struct bg_object *obj)
{
	for (size_t i = 0; i < obj->nprogs; i++) {
		const struct bg_program *p = obj->progs[i];

		for (size_t k = 0; p->raw && k < p->n; k++)
			if (p->raw[k].code == (BPF_JMP | BPF_CALL) && p->raw[k].src_reg == 0 &&
			    p->raw[k].imm >= 0 && bg_kconfig_gated_helper((uint32_t)p->raw[k].imm)) {
				bg_kconfig_preload();
				return;
			}
	}
}

static struct bg_object *open_owned(uint8_t *buf, size_t len, const char *name,
				    const struct bg_open_opts *opts, char *err, size_t errsz)
{
	struct bg_object *obj;
	int rc;

	if (err && errsz)
		err[0] = '\0';
	obj = calloc(1, sizeof(*obj));
	if (!obj) {
		free(buf);
		errno = ENOMEM;
		return NULL;
	}
	obj->err = err;
	obj->errsz = errsz;
	obj->btf_sec = obj->btf_ext_sec = -1;
	obj->path = strdup(name ? name : "<memory>");
	obj->buf = buf;
	obj->len = len;
	if (OPTS_COPY(&obj->opts, opts, bg_open_opts)) {
		rc = -EINVAL;
		obj_errc(obj, rc, "invalid struct bg_open_opts (sz, or a field this library does not know)");
		goto fail;
	}
	if (!obj->path || !obj->buf) {
		rc = -ENOMEM;
		goto fail;
	}
	rc = obj_prepare(obj);
	if (!rc) {
		bg_helpers_preload();
		preload_kconfig(obj);
		obj->err = NULL;
		obj->errsz = 0;
		return obj;
	}
fail:
	if (rc == -ENOMEM)
		obj_errc(obj, rc, "out of memory");
	bg_object__free(obj);
	errno = -rc;
	return NULL;
}

struct bg_object *bg_object__open_mem(const void *buf, size_t len, const char *name,
				      const struct bg_open_opts *opts, char *err, size_t errsz)
{
	uint8_t *copy = malloc(len ? len : 1);

	if (copy && len)
		memcpy(copy, buf, len);
	return open_owned(copy, len, name, opts, err, errsz);
}

/* Read all of fd from *done on into buf (size bytes in all). */
static int read_rest(int fd, uint8_t *buf, size_t *done, size_t size)
{
	while (*done < size) {
		ssize_t r = read(fd, buf + *done, size - *done);
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		*done += (size_t)r;
	}
	return 0;
}

/* Read the file, its ELF magic first: anything else is refused before one
 * more byte is read or allocated (a 200 MB non-ELF costs 4 bytes). The
 * buffer read is the one the object keeps (no copy). Returns 0 or a negative
 * errno / -BG_ERR_FORMAT with err filled. */
static int read_file(const char *path, uint8_t **out, size_t *len, char *err, size_t errsz)
{
	uint8_t magic[SELFMAG];
	struct stat st;
	uint8_t *buf;
	size_t done = 0, n;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		e = errno;
		goto out_err;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > OBJ_MAX_FILE) {
		e = S_ISREG(st.st_mode) ? EFBIG : EINVAL;
		goto out_err;
	}
	n = (size_t)st.st_size < SELFMAG ? (size_t)st.st_size : SELFMAG;
	if ((e = -read_rest(fd, magic, &done, n)))
		goto out_err;
	if (n < SELFMAG || memcmp(magic, ELFMAG, SELFMAG)) {
		close(fd);
		if (err && errsz)
			snprintf(err, errsz, "%s: not an ELF file (bad magic at offset 0x0)", path);
		return -BG_ERR_FORMAT;
	}
	buf = malloc((size_t)st.st_size);
	if (!buf) {
		e = ENOMEM;
		goto out_err;
	}
	memcpy(buf, magic, SELFMAG);
	if ((e = -read_rest(fd, buf, &done, (size_t)st.st_size))) {
		free(buf);
		goto out_err;
	}
	close(fd);
	*out = buf;
	*len = done;
	return 0;
out_err:
	if (fd >= 0)
		close(fd);
	if (err && errsz)
		snprintf(err, errsz, "%s: %s", path,
			 e == EINVAL ? "not a regular file" : strerror(e));
	return -e;
}

struct bg_object *bg_object__open(const char *path, const struct bg_open_opts *opts, char *err,
				  size_t errsz)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc;

	if (!path) {
		errno = EINVAL;
		return NULL;
	}
	rc = read_file(path, &buf, &len, err, errsz);
	if (rc) {
		errno = rc == -BG_ERR_FORMAT ? BG_ERR_FORMAT : -rc;
		return NULL;
	}
	return open_owned(buf, len, path, opts, err, errsz);
}

/* ---- getters ---- */

const char *bg_object__path(const struct bg_object *obj)
{
	return obj ? obj->path : NULL;
}
size_t bg_object__prog_cnt(const struct bg_object *obj)
{
	return obj ? obj->nprogs : 0;
}
size_t bg_object__map_cnt(const struct bg_object *obj)
{
	return obj ? obj->nmaps : 0;
}
const struct btf *bg_object__btf(const struct bg_object *obj)
{
	return obj ? obj->btf : NULL;
}
const char *bg_object__btf_error(const struct bg_object *obj)
{
	return obj ? obj->btf_error : NULL;
}
const char *bg_object__license(const struct bg_object *obj)
{
	return obj ? obj->license : NULL;
}
uint32_t bg_object__kversion(const struct bg_object *obj)
{
	return obj ? obj->kversion : 0;
}
int bg_object__has_btf_ext(const struct bg_object *obj)
{
	return obj && obj->btf_ext_sec >= 0 && !obj->btf_error;
}

const struct btf *bg_object__target_btf(const struct bg_object *obj)
{
	return obj ? obj->target : NULL;
}

struct bg_program *bg_object__prog(const struct bg_object *obj, size_t i)
{
	return obj && i < obj->nprogs ? obj->progs[i] : NULL;
}

struct bg_program *bg_object__find_prog(const struct bg_object *obj, const char *name)
{
	for (size_t i = 0; obj && name && i < obj->nprogs; i++)
		if (!strcmp(obj->progs[i]->name, name))
			return obj->progs[i];
	return NULL;
}

const struct bg_map_def *bg_object__map(const struct bg_object *obj, size_t i)
{
	return obj && i < obj->nmaps ? &obj->maps[i] : NULL;
}

const char *bg_program__name(const struct bg_program *p)
{
	return p ? p->name : NULL;
}
const char *bg_program__section(const struct bg_program *p)
{
	return p ? p->sec_name : NULL;
}
const struct bg_object *bg_program__object(const struct bg_program *p)
{
	return p ? p->obj : NULL;
}
const char *bg_program__attach_target(const struct bg_program *p)
{
	return p ? p->attach_target : NULL;
}
uint32_t bg_program__prog_flags(const struct bg_program *p)
{
	return p ? p->prog_flags : 0;
}

uint32_t bg_program__type(const struct bg_program *p)
{
	return p && p->def ? p->def->prog_type : 0;
}

uint32_t bg_program__attach_type(const struct bg_program *p)
{
	return p && p->def && p->def->has_attach ? p->def->attach_type : 0;
}

const char *bg_program__type_name(const struct bg_program *p)
{
	return p && p->def ? bg_prog_type_name(p->def->prog_type) : "unknown";
}

const char *bg_program__attach_type_name(const struct bg_program *p)
{
	return bg_attach_type_name(bg_program__attach_type(p));
}

int bg_program__takes_packet(const struct bg_program *p)
{
	const struct bg_prog_policy *pol = bg_prog_policy(bg_program__type(p), bg_program__attach_type(p));
	const char *st = pol && pol->ctx ? pol->ctx->struct_name : NULL;
	return st && (!strcmp(st, "xdp_md") || !strcmp(st, "__sk_buff"));
}

const char *bg_program__exception_cb(const struct bg_program *p, size_t *insn, int *ntags)
{
	if (insn)
		*insn = p ? p->exc_cb_insn : SIZE_MAX;
	if (ntags)
		*ntags = p ? p->exc_cb_tags : 0;
	return p ? p->exc_cb_name : NULL;
}

const struct bg_raw_insn *bg_program__raw(const struct bg_program *p, size_t *n)
{
	if (n)
		*n = p ? p->n : 0;
	return p ? p->raw : NULL;
}

const struct bg_insn *bg_program__insns(const struct bg_program *p, size_t *n)
{
	if (n)
		*n = p && p->insns ? p->n : 0;
	return p ? p->insns : NULL;
}

const char *bg_program__decode_error(const struct bg_program *p)
{
	return p ? p->decode_error : NULL;
}

const struct bg_line *bg_program__line(const struct bg_program *p, size_t i)
{
	if (!p || i >= p->n || !p->line_of || p->line_of[i] < 0)
		return NULL;
	return &p->lines[p->line_of[i]];
}

size_t bg_program__func_cnt(const struct bg_program *p)
{
	return p ? p->nfuncs : 0;
}

const struct bg_func_info *bg_program__func(const struct bg_program *p, size_t i)
{
	return p && i < p->nfuncs ? &p->funcs[i] : NULL;
}

size_t bg_program__core_failure_cnt(const struct bg_program *p)
{
	return p ? p->nfails : 0;
}

const struct bg_core_failure *bg_program__core_failure(const struct bg_program *p, size_t i)
{
	return p && i < p->nfails ? &p->fails[i] : NULL;
}

const void *bg_program__btf_func_info(const struct bg_program *p, size_t *cnt, uint32_t *rec_size)
{
	if (cnt)
		*cnt = p && p->kfi ? p->nkfi : 0;
	if (rec_size)
		*rec_size = sizeof(struct bpf_func_info);
	return p && p->nkfi ? p->kfi : NULL;
}

const void *bg_program__btf_line_info(const struct bg_program *p, size_t *cnt, uint32_t *rec_size)
{
	if (cnt)
		*cnt = p && p->kli ? p->nkli : 0;
	if (rec_size)
		*rec_size = sizeof(struct bpf_line_info);
	return p && p->nkli ? p->kli : NULL;
}

int prog_add_failure(struct bg_program *prog, size_t insn, char *reason)
{
	struct bg_core_failure *f;

	if (!reason)
		return -ENOMEM;
	f = realloc(prog->fails, (prog->nfails + 1) * sizeof(*f));
	if (!f) {
		free(reason);
		return -ENOMEM;
	}
	prog->fails = f;
	f[prog->nfails].insn = insn;
	f[prog->nfails].reason = reason;
	prog->nfails++;
	return 0;
}
