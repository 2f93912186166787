/* Kernel verifier log parsing (klog.c): statistics, the verdict message and
 * where the verifier stopped. Internal to the library but shared: the kernel
 * oracle (src/kern) and the compile driver's judge (src/cc) read logs only
 * through these, so both agree on what "the error" of a log is.
 * Logs are hostile text: any length, any shape; nothing here trusts them. */
#ifndef BG_KERN_KLOG_H
#define BG_KERN_KLOG_H
#include <stdint.h>

/* Last "processed N insns" / "verification time N usec" in log, or -1. */
long bg_klog_processed(const char *log);
long bg_klog_verif_time(const char *log);
/* The verdict message: the last max_lines non-empty lines of log that are
 * not statistics, joined with "\n". Level-2 bookkeeping lines after the
 * message (func#, regs=, state dumps, "Validating f() func#N") are skipped;
 * a statistics line glued to the message ("...tail callverification time
 * 45 usec") and trailing blanks are cut. Returns a malloc'd string, or NULL
 * when the log has no such line. */
char *bg_klog_message(const char *log, int max_lines);
/* 1 when the log holds nothing but statistics (or is empty). */
int bg_klog_is_empty(const char *log);
/* Where the verifier stopped: the last instruction it printed and the last
 * source line comment ("; text @ file:line", line > 0) of a level-1 log. */
struct bg_klog_where {
	long insn;     /* -1 when no instruction was printed */
	uint32_t line; /* 0 when no source line */
	char file[256];
	char source[256];
};
/* Returns 0 when anything was found, -1 otherwise. */
int bg_klog_where(const char *log, struct bg_klog_where *w);
#endif
