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

struct bg_uprobe_target {
	char path[PATH_MAX]; /* the file as the kernel will open it */
	uint64_t offset;     /* file offset of the probed instruction */
	uint64_t ref_ctr;    /* USDT semaphore file offset, 0 when none */
};

/* A binary named without a '/' is looked up like libbpf does: shared
 * objects (".so" in the name) in the usual library directories, others
 * along $PATH. Returns 0, or -errno with a reason in err. */
int bg_uprobe__find_binary(const char *name, char *path, size_t pathsz, char *err, size_t errsz);

/* Resolve "PATH:FUNC[+OFF]" or "PATH:0xOFF" (a raw file offset). FUNC must
 * be a defined function symbol (.symtab first, then .dynsym); several
 * definitions at different addresses are refused as ambiguous unless exactly
 * one is global. Returns 0, or -errno with a reason in err. */
int bg_uprobe__resolve(const char *spec, struct bg_uprobe_target *t, char *err, size_t errsz);

/* Resolve "PATH:PROVIDER:NAME" to the USDT probe sites recorded in the
 * binary's .note.stapsdt. Fills up to max targets; returns how many sites
 * exist (may exceed max), or -errno with a reason in err. */
int bg_usdt__resolve(const char *spec, struct bg_uprobe_target *t, size_t max, char *err,
		     size_t errsz);

#endif
