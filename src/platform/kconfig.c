/* The target kernel's config (kconfig.h): loaded once; only the options
 * helper_kconfig.def names are kept (a flag per row). */
#include "platform/kconfig.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "platform/helpers.h"
#include "platform/profiles.h"
#include "platform/sections.h"

static const struct {
	uint32_t id;
	const char *option;
	uint64_t types;
} gates[] = {
#define BG_HELPER_KCONFIG(id_, opt_, types_) { (id_), (opt_), (types_) },
#include "platform/helper_kconfig.def"
#undef BG_HELPER_KCONFIG
};
#define NGATES (sizeof(gates) / sizeof(gates[0]))

/* Only the options some row asks about are kept: one bit per row (rows that
 * share an option get the same answer). */
static struct {
	bool on[NGATES];
	uint32_t kver;      /* the release the config belongs to; 0: none */
	char source[300];
} cfg;
static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;

static int scan_file(const char *path, bg_kconfig_line_fn fn, void *arg)
{
	gzFile f = gzopen(path, "rb");
	char line[512];
	int n = 0;

	if (!f)
		return 0;
	while (gzgets(f, line, sizeof(line))) {
		char *eq = strchr(line, '=');

		if (strncmp(line, "CONFIG_", 7) || !eq)
			continue;
		n++;
		*eq = '\0';
		eq[1 + strcspn(eq + 1, "\n")] = '\0';
		fn(line, eq + 1, arg);
	}
	gzclose(f);
	return n;
}

int bg_kconfig_scan(const char *path, bg_kconfig_line_fn fn, void *arg, const char **used)
{
	static __thread char boot[300];
	struct utsname u;
	int n;

	if (path) {
		if (used)
			*used = path;
		return scan_file(path, fn, arg);
	}
	if (used)
		*used = "/proc/config.gz";
	n = scan_file("/proc/config.gz", fn, arg);
	if (n || uname(&u))
		return n;
	snprintf(boot, sizeof(boot), "/boot/config-%s", u.release);
	if (used)
		*used = boot;
	return scan_file(boot, fn, arg);
}

/* Keeps the options some row of helper_kconfig.def asks about. */
static void keep_option(const char *name, const char *value, void *arg)
{
	(void)arg;
	if (value[0] != 'y' && value[0] != 'm')
		return;
	for (size_t i = 0; i < NGATES; i++)
		if (!strcmp(name + 7, gates[i].option))
			cfg.on[i] = true;
}

static bool read_config(const char *path)
{
	const char *used;

	if (!bg_kconfig_scan(path, keep_option, NULL, &used))
		return false;
	snprintf(cfg.source, sizeof(cfg.source), "%s", used);
	return true;
}

static void load(void)
{
	const char *env = getenv("BG_KCONFIG");
	uint32_t def = bg_profile_default()->version;
	struct utsname u;
	unsigned maj, min;

	if (env && *env) {
		if (strcmp(env, "none") && read_config(env))
			cfg.kver = def;
		return;
	}
	if (uname(&u) || sscanf(u.release, "%u.%u", &maj, &min) != 2)
		return;
	/* the host's config speaks for the profile of the host's release */
	if (bg_profile_by_version(BG_KVER(maj, min))->version != BG_KVER(maj, min))
		return;
	if (read_config(NULL))
		cfg.kver = BG_KVER(maj, min);
}

static bool applies(uint32_t kver)
{
	pthread_once(&cfg_once, load);
	if (!kver)
		kver = bg_profile_default()->version;
	return cfg.kver && cfg.kver == kver;
}

int bg_kconfig_enabled(uint32_t kver, const char *name)
{
	if (!applies(kver) || !name)
		return -1;
	for (size_t i = 0; i < NGATES; i++)
		if (!strcmp(gates[i].option, name))
			return cfg.on[i];
	return -1; /* not an option bpfgate keeps */
}

bool bg_kconfig_gated_helper(uint32_t id)
{
	for (size_t i = 0; i < NGATES; i++)
		if (gates[i].id == id)
			return true;
	return false;
}

void bg_kconfig_preload(void)
{
	pthread_once(&cfg_once, load);
}

const char *bg_kconfig_source(uint32_t kver)
{
	return applies(kver) ? cfg.source : NULL;
}


int bg_helper_kconfig(uint32_t id, uint32_t prog_type, uint32_t kver, const char **option)
{
	for (size_t i = 0; i < NGATES; i++) {
		int on;

		if (gates[i].id != id || prog_type >= 64 || !(gates[i].types >> prog_type & 1))
			continue;
		on = applies(kver) ? cfg.on[i] : -1;
		if (on == 0 && option)
			*option = gates[i].option;
		return on;
	}
	return -1;
}
