/* bpfgate cov run ... -- COMMAND: attach instrumented tracing programs while
 * COMMAND runs, then read their counters. */
#ifndef BG_TOOLS_COV_ATTACH_H
#define BG_TOOLS_COV_ATTACH_H
#include <stdbool.h>
#include <bpfgate/cov.h>
/* targets (may be NULL): per program, a probe target given on the command
 * line ("PATH:FUNC[+OFF]" for uprobes, "PATH:PROVIDER:NAME" for usdt), NULL
 * to take it from the section. command_only: user probes (uprobe, usdt,
 * uprobe.multi) count only COMMAND's own process (its threads, not the
 * processes it forks); otherwise every process. */
int cov_attach_run(struct bg_cov **covs, size_t n, const char **targets, bool command_only, char **cmd,
		   char errbuf[][512], const char **errs);
#endif
