/* Region (pointer) type descriptors: everything the analysis needs to know
 * about a kind of pointer, in one row of regions.def, so that the transfer
 * functions, the call checks, the printing and the public states read the
 * same facts instead of restating them in switches. Internal to
 * src/analysis. */
#ifndef BG_ANALYSIS_REGION_H
#define BG_ANALYSIS_REGION_H
#include <stdbool.h>
#include <stdint.h>
#include <bpfgate/verifier.h>
#include "platform/ctx.h"

/* Row flags. */
#define RG_ARITH            (1u << 0) /* pointer arithmetic (add/sub a scalar) allowed */
#define RG_NOT_NULL         (1u << 1) /* never NULL once checked: `p == 0` is decided (kernel reg_not_null) */
#define RG_NOT_NULL_TRUSTED (1u << 2) /* as RG_NOT_NULL when trusted (BTF pointers: as_btf_trust) */
#define RG_NO_ATOMIC        (1u << 3) /* BPF_ATOMIC stores into it are refused */
#define RG_MEM_ARG          (1u << 4) /* accepted as a helper's memory argument (ARG_PTR_TO_MEM) */
#define RG_KEY_ARG          (1u << 5) /* accepted as a map key/value argument */
#define RG_SOCK_ARG         (1u << 6) /* accepted as a socket argument (sock_common / sock) */
#define RG_KOBJ_ARG         (1u << 7) /* accepted as a BTF-typed kernel object argument */
#define RG_PKT_BASE         (1u << 8) /* the register's id is a packet base (zone.h), not a NULL id */
#define RG_PKT_PTR          (1u << 9) /* invalidated by helpers that change the packet */
#define RG_ALIGN_ALWAYS     (1u << 10) /* accesses are always checked for alignment (the stack) */
#define RG_ALIGN_IP         (1u << 11) /* alignment counts NET_IP_ALIGN (2) before the offset */
#define RG_ARITH_CONST      (1u << 12) /* RG_ARITH by a constant only (flow keys) */

/* Which handler checks a load or store through the pointer (xfer.c). */
enum rg_access {
	ACC_NONE = 0, ACC_STACK, ACC_CTX, ACC_PKT, ACC_MAP, ACC_MEM, ACC_BTF, ACC_SOCK, ACC_ARENA, ACC_MAP_PTR,
	ACC_BUF, /* a buffer of a size known at attach only: constant offsets >= 0 (check_buffer_access) */
	ACC_FLOW_KEYS, /* struct bpf_flow_keys: constant offsets within it (check_flow_keys_access) */
};
/* Where the accessible size comes from. */
enum rg_size {
	SZ_NONE = 0,  /* not memory, or unbounded (arena) */
	SZ_FRAME,     /* the 512-byte stack frame */
	SZ_LAYOUT,    /* the program type's ctx layout (src/platform/ctx.def) */
	SZ_ZONE,      /* the packet zone: proven room before data_end */
	SZ_MAP_VALUE, /* the map's value_size */
	SZ_REG,       /* as_reg.size, set by whoever made the pointer */
	SZ_BTF,       /* the BTF struct of as_reg.btf */
	SZ_CONST,     /* the row's constant size */
};
/* Which extra register field the public state (bg_aval) carries. */
enum rg_aux { AUX_NONE = 0, AUX_LINK, AUX_FRAME, AUX_PKT, AUX_MAP, AUX_SIZE };

struct region {
	const char *name;      /* as the kernel prints it ("map_value", "ptr_") */
	const char *null_name; /* its _or_null form, NULL when the type is never NULL-able */
	uint8_t aval;          /* enum bg_aval_kind */
	uint8_t access;        /* enum rg_access */
	uint8_t size_src;      /* enum rg_size */
	uint8_t aux;           /* enum rg_aux */
	uint32_t flags;        /* RG_* */
	uint32_t size;         /* SZ_CONST: accessible bytes */
	const char *align;     /* "value ": how a misaligned access is named; NULL: not checked */
};

enum as_type {
#define REGION(id, aval, name, null_name, flags, access, size_src, size, aux, align) id,
#include "analysis/regions.def"
#undef REGION
	T__MAX,
};

extern const struct region as_regions[T__MAX];

/* The descriptor of a type (out of range: uninit's, which allows nothing). */
static inline const struct region *rg(uint8_t type)
{
	return &as_regions[type < T__MAX ? type : 0];
}

static inline bool rg_has(uint8_t type, uint32_t flag)
{
	return (rg(type)->flags & flag) != 0;
}
#endif
