/* bpfgate kernels: the cache of Debian kernel images that `kload --kernel`
 * and `corpus --verifier kernel@VER` boot under QEMU (src/kvm). */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <bpfgate/kvm.h>
#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpfgate kernels list\n"
		"       bpfgate kernels fetch VER...     (e.g. 5.10 6.1 6.12 7.2)\n"
		"       bpfgate kernels remove VER...\n"
		"       bpfgate kernels btf VER...       (the image's vmlinux BTF: its path)\n\n"
		"Kernel images from Debian's package registry, fetched with a private apt\n"
		"configuration (nothing is installed on this machine) into the cache\n"
		"$XDG_CACHE_HOME/bpfgate (default ~/.cache/bpfgate). VER is a series; fetch takes\n"
		"the newest plain amd64 image of it. QEMU boots them for kload --kernel VER.\n"
		"fetch also extracts the image's vmlinux BTF (kernels/VER/vmlinux.btf), which\n"
		"check --kernel VER relocates CO-RE and resolves kfuncs and ksyms against.\n"
		"exit: 0 done, 2 bad usage, unknown version, or registry unreachable\n");
}

static int list(void)
{
	const char *force = cli_kvm_accel_force(), *why, *accel = bg_kvm_accel(force, &why);
	char root[4096] = "?";
	struct bg_kcache_opts o = {.sz = sizeof(o)};
	const char *r = cli_kcache_root(root, sizeof(root));
	struct bg_kcache *c = r ? bg_kcache__open(r, &o) : NULL;
	size_t n = bg_kcache__image_cnt(c);

	if (!r)
		snprintf(root, sizeof(root), "? (set XDG_CACHE_HOME or HOME)");
	printf("cache: %s\nqemu accelerator: %s (%s%s)\n", root, accel,
	       force && !strcmp(force, accel) ? "BG_KVM_ACCEL=" : "", force && !strcmp(force, accel) ? force : why);
	if (!n)
		printf("no kernel fetched (bpfgate kernels fetch 5.10 6.1 6.12 7.2)\n");
	for (size_t i = 0; i < n; i++) {
		const struct bg_kimage *k = bg_kcache__image(c, i);

		printf("%-6s %-28s %-40s %s\n", bg_kimage__version(k), bg_kimage__release(k),
		       bg_kimage__package(k), bg_kimage__package_version(k));
	}
	bg_kcache__free(c);
	return EXIT_OK;
}

static int fetch(int argc, char **argv)
{
	struct bg_kcache *c = cli_kcache_open("kernels");
	int rc = EXIT_OK;

	for (int i = 2; c && i < argc; i++) {
		const struct bg_kimage *k;
		char err[1024];
		int e = bg_kcache__fetch(c, argv[i], &k, err, sizeof(err));

		if (e) {
			rc = cli_error("kernels", "fetch %s: %s", argv[i], *err ? err : bg_strerror(e));
			if (e == -BG_ERR_UNREACHABLE)
				break;
			continue;
		}
		printf("%-6s %-28s %s\n", bg_kimage__version(k), bg_kimage__release(k), bg_kimage__path(k));
		char path[4096 + 64];
		if (bg_kcache__btf(c, argv[i], path, sizeof(path), err, sizeof(err)))
			fprintf(stderr, "bpfgate kernels: warning: %s: no vmlinux BTF: %s\n", argv[i], err);
	}
	bg_kcache__free(c);
	return c ? rc : EXIT_BAD;
}

static int btf(int argc, char **argv)
{
	struct bg_kcache *c = cli_kcache_open("kernels");
	int rc = EXIT_OK;

	for (int i = 2; c && i < argc; i++) {
		char path[4096 + 64], err[1024] = "";
		int e = bg_kcache__btf(c, argv[i], path, sizeof(path), err, sizeof(err));

		if (e)
			rc = cli_error("kernels", "btf %s: %s", argv[i], *err ? err : strerror(-e));
		else
			printf("%-6s %s\n", argv[i], path);
	}
	bg_kcache__free(c);
	return c ? rc : EXIT_BAD;
}

static int remove_(int argc, char **argv)
{
	struct bg_kcache *c = cli_kcache_open("kernels");
	int rc = EXIT_OK;

	for (int i = 2; c && i < argc; i++) {
		int e = bg_kcache__remove(c, argv[i]);

		if (e == -ENOENT)
			rc = cli_error("kernels", "remove %s: not in the cache", argv[i]);
		else if (e)
			rc = cli_error("kernels", "remove %s: %s", argv[i], strerror(-e));
		else
			printf("removed %s\n", argv[i]);
	}
	bg_kcache__free(c);
	return c ? rc : EXIT_BAD;
}

int cmd_kernels(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc < 2 || !strcmp(argv[1], "list"))
		return argc > 2 ? cli_error("kernels", "list takes no argument") : list();
	if ((!strcmp(argv[1], "fetch") || !strcmp(argv[1], "remove") || !strcmp(argv[1], "btf")) && argc < 3)
		return cli_error("kernels", "%s needs at least one version (like 6.1)", argv[1]);
	if (!strcmp(argv[1], "fetch"))
		return fetch(argc, argv);
	if (!strcmp(argv[1], "remove"))
		return remove_(argc, argv);
	if (!strcmp(argv[1], "btf"))
		return btf(argc, argv);
	return cli_error("kernels", "unknown action '%s' (list, fetch, remove, btf)", argv[1]);
}
