/* The subcommands of bpfgate cov (tools/cov_run.c, tools/cov_report.c). */
#ifndef BG_TOOLS_COV_CLI_H
#define BG_TOOLS_COV_CLI_H
int cov_cmd_run(int argc, char **argv);
int cov_cmd_stats(int argc, char **argv);
int cov_cmd_report(int argc, char **argv);
int cov_cmd_show(int argc, char **argv);
int cov_cmd_html(int argc, char **argv);
int cov_cmd_merge(int argc, char **argv);
#endif
