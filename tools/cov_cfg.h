/* The CFG view of coverage: cov run --cfg DIR writes per program a dot graph
 * with counts (bg_cov__write_dot) and its SVG (Graphviz `dot`), plus
 * DIR/index.html; cov html --cfg DIR copies the SVGs next to the genhtml
 * report (OUT/cfg/) and links them from OUT/index.html. */
#ifndef BG_TOOLS_COV_CFG_H
#define BG_TOOLS_COV_CFG_H
#include <stddef.h>
#include <bpfgate/cov.h>

int cov_cfg_write(const char *dir, struct bg_cov *const *covs, size_t n);
int cov_cfg_link(const char *out, const char *dir);
#endif
