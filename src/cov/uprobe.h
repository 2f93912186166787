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


/* The declarations are public API: include/bpfgate/cov.h ("User-space probe
 * targets"). */
#include <bpfgate/cov.h>
#endif
