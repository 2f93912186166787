/* cov/uprobe.h - user-space probe targets: "PATH:FUNC[+OFF]" (libbpf's
 * uprobe section syntax) resolved to a binary and a file offset through the
 * ELF symbol table, and USDT probes found in .note.stapsdt.
 *
 * The uprobe PMU wants the probed file and an offset into it, not a virtual
 * address: a symbol's st_value is translated through the section that holds
 * it (offset = st_value - sh_addr + sh_offset), which is right for both
 * ET_EXEC and ET_DYN (PIE, shared libraries). */
#ifndef BG_COV_UPROBE_H
#define BG_COV_UPROBE_H

#include <limits.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

/* libbpf's USDT argument spec: the value layout of the __bpf_usdt_specs map
 * that programs built with <bpf/usdt.bpf.h> read (struct __bpf_usdt_spec,
 * the attach cookie is its index). x86-64 operands only. */
enum bg_usdt_arg_type { BG_USDT_ARG_CONST, BG_USDT_ARG_REG, BG_USDT_ARG_REG_DEREF };
#define BG_USDT_MAX_ARGS 12
struct bg_usdt_arg {
	uint64_t val_off;  /* the constant, or the offset added to the register */
	uint32_t type;     /* enum bg_usdt_arg_type */
	int16_t reg_off;   /* offsetof(struct pt_regs, reg) */
	uint8_t is_signed; /* "-4@..." */
	int8_t bitshift;   /* 64 - 8 * size */
};
struct bg_usdt_spec {
	struct bg_usdt_arg args[BG_USDT_MAX_ARGS];
	uint64_t cookie;
	int16_t arg_cnt;
};
_Static_assert(sizeof(struct bg_usdt_spec) == 208, "libbpf's struct __bpf_usdt_spec is 208 bytes");

struct bg_uprobe_target {
	char path[PATH_MAX]; /* the file as the kernel will open it */
	uint64_t offset;     /* file offset of the probed instruction */
	uint64_t ref_ctr;    /* USDT semaphore file offset, 0 when none */
	struct bg_usdt_spec spec; /* USDT: where the arguments are */
};

/* A binary named without a '/' is looked up: shared objects (".so" in the
 * name) in the usual library directories, others in the standard program
 * directories (/usr/local/sbin ... /bin; not $PATH: the library reads no
 * environment). Returns 0, or -errno with a reason in err. */
int bg_uprobe__find_binary(const char *name, char *path, size_t pathsz, char *err, size_t errsz);

/* Resolve "PATH:FUNC[+OFF]" or "PATH:0xOFF" (a raw file offset). FUNC must
 * be a defined function symbol (.symtab first, then .dynsym); several
 * definitions at different addresses are refused as ambiguous unless exactly
 * one is global. Returns 0, or -errno with a reason in err. */
int bg_uprobe__resolve(const char *spec, struct bg_uprobe_target *t, char *err, size_t errsz);

/* uprobe.multi: "PATH:PATTERN" (fnmatch glob over function names, as
 * libbpf) to the distinct file offsets of every matching function. Fills up
 * to max offsets into offs and the binary into path; returns how many match
 * (may exceed max), or -errno with a reason in err. */
int bg_uprobe__resolve_multi(const char *spec, char *path, size_t pathsz, uint64_t *offs, size_t max,
			     char *err, size_t errsz);

/* Resolve "PATH:PROVIDER:NAME" to the USDT probe sites recorded in the
 * binary's .note.stapsdt. Fills up to max targets; returns how many sites
 * exist (may exceed max), or -errno with a reason in err. */
int bg_usdt__resolve(const char *spec, struct bg_uprobe_target *t, size_t max, char *err,
		     size_t errsz);

/* Parse a stapsdt argument string ("-4@%esi 8@-16(%rbp) 4@$7") into spec.
 * Returns 0, or -EINVAL with the operand that is not understood in err. */
int bg_usdt__parse_args(const char *args, struct bg_usdt_spec *spec, char *err, size_t errsz);

#endif
