/* bpfgate cov run ... -- COMMAND: attach instrumented tracing programs while
 * COMMAND runs, then read their counters. */
#ifndef BG_TOOLS_COV_ATTACH_H
#define BG_TOOLS_COV_ATTACH_H
#include <bpfgate/cov.h>
int cov_attach_run(struct bg_cov **covs, size_t n, char **cmd, char errbuf[][512], const char **errs);
#endif
