/* bpf_fastcall: the kernel inlines some calls (on x86-64:
 * bpf_get_smp_processor_id with the JIT; the kfuncs bpf_cast_to_kern_ctx and
 * bpf_rdonly_cast) so that they keep every r0-r5 they do not use. A compiler
 * that knows it spills the live ones around the call anyway, to the lowest
 * stack slots of the function, for kernels that do not inline; a kernel that
 * does removes those spill/fill pairs after verification, before it checks
 * the combined stack depth (mark_fastcall_patterns, check_fastcall_stack_
 * contract, remove_fastcall_spills_fills). The function's depth is then the
 * top of the pattern area, as long as nothing but the patterns touched that
 * area. Internal to src/analysis. */
#ifndef BG_ANALYSIS_FASTCALL_H
#define BG_ANALYSIS_FASTCALL_H
#include <stddef.h>
#include <stdint.h>

struct vctx;
struct as_state;

/* Find the patterns of every function (from the instructions alone, as the
 * kernel does before verifying). 0, or -ENOMEM. No-op for a kernel profile
 * without bpf_fastcall (before 6.12). */
int fastcall_prepare(struct vctx *v);
/* A stack access at insn pc to bytes from off of frame `frame` of s: outside
 * a pattern and inside the frame's function's pattern area, it breaks the
 * contract (the function keeps its spills and its depth). */
void fastcall_access(struct vctx *v, const struct as_state *s, size_t pc, int frame, int64_t off);
/* The stack depth the kernel charges function f after removing the pairs
 * (depth: the deepest byte the analysis saw). */
uint32_t fastcall_depth(const struct vctx *v, uint32_t f, uint32_t depth);
void fastcall_free(struct vctx *v);
#endif
