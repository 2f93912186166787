/* Internal pieces of the kernel oracle (src/kern), split by concern:
 * klog.c parses verifier logs, kmaps.c creates an object's maps in the
 * kernel, kattach.c finds attach targets in vmlinux BTF, kern.c drives one
 * program load and classifies the verdict. */
#ifndef BG_KERN_KERN_INT_H
#define BG_KERN_KERN_INT_H
#include <stddef.h>
#include <stdint.h>
#include <bpfgate/kern.h>

/* --- klog.c --- */
/* Last "processed N insns" / "verification time N usec" in log, or -1. */
long bg_klog_processed(const char *log);
long bg_klog_verif_time(const char *log);
/* The verdict message: the last max_lines non-empty lines of log that are
 * not statistics, joined with "\n". Returns a malloc'd string, or NULL when
 * the log has no such line. */
char *bg_klog_message(const char *log, int max_lines);
/* 1 when the log holds nothing but statistics (or is empty). */
int bg_klog_is_empty(const char *log);
/* Where the verifier stopped: the last instruction it printed and the last
 * source line comment ("; text @ file:line") of a level-1 log. */
struct bg_klog_where {
	long insn;     /* -1 when no instruction was printed */
	uint32_t line; /* 0 when no source line */
	char file[256];
	char source[256];
};
/* Returns 0 when anything was found, -1 otherwise. */
int bg_klog_where(const char *log, struct bg_klog_where *w);

/* --- kmaps.c --- */
/* The maps one program needs, created in the kernel. fds is indexed like
 * bg_object__map (-1 for maps not needed). */
struct bg_kmaps {
	int *fds;
	size_t cnt;
	int btf_fd; /* object BTF loaded in the kernel, or -1 */
};
/* Create the maps prog references (and inner map templates of those). On
 * failure returns a negative errno and writes why into err. */
int bg_kmaps_create(const struct bg_program *prog, int btf_fd, struct bg_kmaps *m, char *err,
		    size_t errsz);
void bg_kmaps_close(struct bg_kmaps *m);
/* Kernel object name from any string: [A-Za-z0-9_.], at most 15 chars. */
void bg_kern_objname(char *dst, size_t dstsz, const char *src);

/* --- kattach.c --- */
/* BTF id in vmlinux of the attach target of prog (tp_btf, fentry/fexit,
 * fmod_ret, lsm, iter), 0 when the type needs none. Negative errno when the
 * target cannot be found; err says which. */
int bg_kern_attach_btf_id(const struct bg_program *prog, char *err, size_t errsz);
/* Extra BPF_PROG_LOAD flags implied by the section name (sleepable ".s",
 * xdp frags). */
uint32_t bg_kern_prog_flags(const char *section);
/* --- kbtf.c --- */
/* Load the object's BTF into the kernel (fixed up in a copy when refused as
 * is). Returns the BTF fd or a negative errno. */
int bg_kbtf_load(const struct bg_object *obj);
#endif
