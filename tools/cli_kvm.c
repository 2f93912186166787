/* The environment knobs of real-kernel runs. The library (bpfgate/kvm.h)
 * reads no environment variable: the CLI reads them here and passes them as
 * arguments and bg_kvm_opts / bg_kcache_opts fields. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpfgate/kvm.h>
#include <bpfgate/profile.h>
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

/* "6.12.118+deb12-amd64" -> KERNEL_VERSION(6, 12, 118) (sublevel capped at 255) */
static uint32_t release_code(const char *rel)
{
	unsigned x = 0, y = 0, z = 0;
	if (!rel || sscanf(rel, "%u.%u.%u", &x, &y, &z) < 2)
		return 0;
	return (x << 16) | (y << 8) | (z > 255 ? 255 : z);
}

void cli_kernel_view(const char *tool, const char *profile, bool btf_given, struct btf **btf,
		     uint32_t *kver)
{
	const struct bg_kernel_profile *p = bg_kernel_profile__by_name(profile);
	struct bg_kcache_opts o = {.sz = sizeof(o)};
	char root[4096], path[4096 + 64], err[512];
	const struct bg_kimage *img;
	struct bg_kcache *c;

	*btf = NULL;
	*kver = 0;
	if (!p || p == bg_kernel_profile__default())
		return;
	*kver = bg_kernel_profile__version(p);
	if (!cli_kcache_root(root, sizeof(root)) || !(c = bg_kcache__open(root, &o)))
		return;
	img = bg_kcache__find(c, bg_kernel_profile__name(p));
	if (img && release_code(bg_kimage__release(img)))
		*kver = release_code(bg_kimage__release(img));
	if (img && !btf_given) {
		if (bg_kcache__btf(c, bg_kernel_profile__name(p), path, sizeof(path), err, sizeof(err)))
			fprintf(stderr, "bpfgate %s: warning: kernel %s: %s; CO-RE uses the host's BTF\n", tool,
				bg_kernel_profile__name(p), err);
		else if (!(*btf = btf__parse(path, NULL)))
			fprintf(stderr, "bpfgate %s: warning: kernel %s: cannot read %s; CO-RE uses the host's "
				"BTF\n", tool, bg_kernel_profile__name(p), path);
	}
	bg_kcache__free(c);
}
