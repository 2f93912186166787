/* The environment knobs of real-kernel runs. src/kvm reads no environment
 * variable: the CLI reads them here and passes them as arguments and
 * bg_kvm_opts fields. */
#include <stdlib.h>
#include "kvm/kvm.h"
#include "cli.h"

const char *cli_kcache_root(char *root, size_t n)
{
	return bg_kcache_root(getenv("XDG_CACHE_HOME"), getenv("HOME"), root, n) ? NULL : root;
}

const char *cli_kcache_mirror(void)
{
	return getenv("BPFGATE_DEBIAN_MIRROR");
}

const char *cli_kvm_accel_force(void)
{
	return getenv("BG_KVM_ACCEL");
}

void cli_kvm_opts(struct bg_kvm_opts *o, char *root, size_t n)
{
	const char *e;

	o->cache_dir = cli_kcache_root(root, n);
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
