/* Exceptions (bpf_throw) and exception callbacks: the kernel's checks on
 * the program's call graph and BTF, made once after the analysis found the
 * program safe (see except.c). */
#ifndef BG_ANALYSIS_EXCEPT_H
#define BG_ANALYSIS_EXCEPT_H
struct vctx;
/* 0, or -1 with the error recorded (verr). */
int except_check(struct vctx *v);
/* The cfg function of the program's exception callback (appended by the
 * loader), or -1 when it has none. */
int except_cb_func(const struct vctx *v);
#endif
