/* The environment knobs of real-kernel runs. The library (bpfgate/kvm.h)
 * reads no environment variable: the CLI reads them here and passes them as
 * arguments and bg_kvm_opts / bg_kcache_opts fields. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpfgate/kvm.h>
#include "cli.h"

const char *cli_kcache_root(char *root, size_t n)
{
	return bg_kcache_default_root(getenv("XDG_CACHE_HOME"), getenv("HOME"), root, n) ? NULL
											 : root;
}

struct bg_kcache *cli_kcache_open(const char *cmd)
{
	struct bg_kcache_opts o = {.sz = sizeof(o), .mirror = getenv("BPFGATE_DEBIAN_MIRROR")};
	char root[4096];
	struct bg_kcache *c;

	if (!cli_kcache_root(root, sizeof(root))) {
		cli_error(cmd, "no kernel image cache: set XDG_CACHE_HOME or HOME");
		return NULL;
	}
	c = bg_kcache__open(root, &o);
	if (!c)
		cli_error(cmd, "%s: %s", root, strerror(errno));
	return c;
}

const char *cli_kvm_accel_force(void)
{
	return getenv("BG_KVM_ACCEL");
}

void cli_kvm_opts(struct bg_kvm_opts *o)
{
	const char *e;

	if (!o->loader && (e = getenv("BG_KVM_LOADER")) && *e)
		o->loader = e;
	if (!o->timeout_s && (e = getenv("BG_KVM_TIMEOUT")))
		o->timeout_s = atoi(e);
	if (!o->mem_mb && (e = getenv("BG_KVM_MEM")))
		o->mem_mb = atoi(e);
	o->accel = cli_kvm_accel_force();
	o->append = getenv("BG_KVM_APPEND");
	o->keep = getenv("BG_KVM_KEEP") != NULL;
}
