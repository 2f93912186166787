/* Stack-slot liveness of each function's own frame (slive.c): which slots
 * a path from a block's entry may read before overwriting them whole. */
#ifndef BG_ANALYSIS_SLIVE_H
#define BG_ANALYSIS_SLIVE_H
struct vctx;
/* Fill cfg_block.slive of every block (all ones where the frame's address
 * escapes). After cfg_build. 0 or -ENOMEM. */
int slive_compute(struct vctx *v);
#endif
