/* Internal logging through the user's print callback (see bg_set_print). */
#ifndef BG_CORE_LOG_H
#define BG_CORE_LOG_H
#include <bpfgate/bpfgate.h>

void bg_pr(enum bg_print_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define pr_warn(...) bg_pr(BG_WARN, __VA_ARGS__)
#define pr_info(...) bg_pr(BG_INFO, __VA_ARGS__)
#define pr_debug(...) bg_pr(BG_DEBUG, __VA_ARGS__)
#endif
