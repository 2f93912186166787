/* bpfgate cc: a clang drop-in that verifies what it compiled. Our options
 * start with --clang/--verifier/--strict/--report/--budget/--no-sidecar and
 * may stand anywhere; every other argument goes to clang unchanged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfgate/bpfgate.h>
#include <bpfgate/cc.h>
#include <bpfgate/kvm.h>
#include "cli.h"

static void usage(void)
{
	printf("usage: bpfgate cc [bpfgate options] [clang arguments] -c prog.c -o prog.o\n\n"
	       "Compiles with clang (-target bpf added when missing), verifies every program of\n"
	       "the object and, when one is rejected, finds the LLVM pass that broke it and\n"
	       "rebuilds without it. Usable as CC in a Makefile.\n\n"
	       "  --clang PATH        clang to use (default $BPFGATE_CLANG or the newest installed)\n"
	       "  --verifier LIST     kernel,bpfgate (default: both where available; where the\n"
	       "                      kernel judges it decides, a bpfgate disagreement warns;\n"
	       "                      where it cannot, a bpfgate rejection warns and keeps\n"
	       "                      clang's object; a failed bg_assert_* always rejects)\n"
	       "  --strict            fail on a rejection instead of backing out; a bpfgate\n"
	       "                      rejection no kernel could judge rejects too\n"
	       "  --kernel LIST       also judge in these kernels (5.10,6.1: cached Debian images\n"
	       "                      booted under QEMU, one boot per kernel and build: slow under\n"
	       "                      software emulation, raise --budget)\n"
	       "  --report json       print the whole search as JSON on stdout\n"
	       "  --budget SECONDS    time budget of the search (default 120)\n"
	       "  --no-sidecar        do not read or write OUT.bpfgate\n"
	       "  --fix-route R       how a pass run is backed out: plugin (clang -fpass-plugin),\n"
	       "                      pipeline (opt -passes= the -O2 pipeline minus entries, llc),\n"
	       "                      auto (default: the plugin when built, else the pipeline)\n"
	       "  --profile FILE      build with the branch profile of `bpfgate cov run --profile`\n"
	       "                      (as an LLVM sample profile; stale lines/functions reported, left out)\n"
	       "  --hints             record branch hints (.bpfgate.hints section); on with --profile.\n"
	       "                      Off by default: the drop-in writes clang's object byte for byte\n"
	       "  --no-hints          no hints, even with --profile\n"
	       "  --no-layout         with --profile: no profile-guided block layout of the object\n"
	       "                      (hot successors fall through; docs/HINTS.md)\n"
	       "  -v                  progress lines on stderr\n"
	       "exit: 0 object written and accepted, 1 rejected, 2 bad usage or compile error\n");
}

static int parse_verifiers(const char *s, unsigned *out)
{
	char buf[128], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", s);
	*out = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "kernel"))
			*out |= BG_CC_VERIFIER_KERNEL;
		else if (!strncmp(tok, "bpfgate", 7))
			*out |= BG_CC_VERIFIER_BPFGATE;
		else
			return -1;
	}
	return *out ? 0 : -1;
}

/* Every kernel of --kernel must be a fetched image. */
static int check_kernels(const char *root, const char *list)
{
	char buf[128], *tok, *save;
	struct bg_kcache_opts co = {.sz = sizeof(co)};
	struct bg_kcache *c = root ? bg_kcache__open(root, &co) : NULL;
	int n = 0, rc = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save), n++)
		if (!bg_kcache_valid_ver(tok))
			rc = cli_error("cc", "--kernel: '%s' is not a kernel series (like 6.1)", tok);
		else if (!bg_kcache__find(c, tok))
			rc = cli_error("cc", "kernel %s is not in the cache (bpfgate kernels fetch %s)",
				       tok, tok);
	bg_kcache__free(c);
	return rc ? rc : n ? 0 : cli_error("cc", "--kernel needs a list of versions (like 5.10,6.1)");
}

int cmd_cc(int argc, char **argv)
{
	struct bg_cc_opts o = {.sz = sizeof(o)};
	char kroot[4096];
	int hints = -1; /* --hints / --no-hints; default: only with --profile */
	struct bg_cc_result *res = NULL;
	char **rest = calloc(argc + 1, sizeof(char *));
	int n = 0, json = 0, verbose = 0, rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool has_val = i + 1 < argc;

		if (!strcmp(a, "--help")) {
			usage();
			free(rest);
			return EXIT_OK;
		} else if (!strcmp(a, "--clang") && has_val) {
			o.clang = argv[++i];
		} else if (!strcmp(a, "--verifier") && has_val) {
			if (parse_verifiers(argv[++i], &o.verifiers)) {
				free(rest);
				return cli_error("cc", "unknown verifier list '%s' (kernel,bpfgate)", argv[i]);
			}
		} else if (!strcmp(a, "--kernel") && has_val) {
			o.kernels = argv[++i];
			o.kernel_cache = cli_kcache_root(kroot, sizeof(kroot));
			if (check_kernels(o.kernel_cache, o.kernels)) {
				free(rest);
				return EXIT_BAD;
			}
		} else if (!strcmp(a, "--strict")) {
			o.strict = 1;
		} else if ((!strcmp(a, "--report") && has_val) || !strncmp(a, "--report=", 9)) {
			const char *v = a[8] == '=' ? a + 9 : argv[++i];

			if (strcmp(v, "json")) {
				free(rest);
				return cli_error("cc", "--report takes 'json'");
			}
			json = 1;
		} else if (!strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "--budget") && has_val) {
			o.budget_s = atof(argv[++i]);
		} else if ((!strcmp(a, "--fix-route") && has_val) || !strncmp(a, "--fix-route=", 12)) {
			const char *v = a[11] == '=' ? a + 12 : argv[++i];

			if (!strcmp(v, "auto")) {
				o.fix_route = BG_CC_ROUTE_AUTO;
			} else if (!strcmp(v, "plugin")) {
				o.fix_route = BG_CC_ROUTE_PLUGIN;
			} else if (!strcmp(v, "pipeline")) {
				o.fix_route = BG_CC_ROUTE_PIPELINE;
			} else {
				free(rest);
				return cli_error("cc", "--fix-route takes pipeline, plugin or auto (not '%s')", v);
			}
		} else if ((!strcmp(a, "--profile") && has_val) || !strncmp(a, "--profile=", 10)) {
			o.profile = a[9] == '=' ? a + 10 : argv[++i];
		} else if (!strcmp(a, "--no-layout")) {
			o.no_layout = 1;
		} else if (!strcmp(a, "--no-hints")) {
			hints = 0;
		} else if (!strcmp(a, "--hints")) {
			hints = 1;
		} else if (!strcmp(a, "--no-sidecar")) {
			o.no_sidecar = 1;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			verbose = 1;
		} else if (!strcmp(a, "--clang") || !strcmp(a, "--verifier") || !strcmp(a, "--budget") ||
			   !strcmp(a, "--fix-route") || !strcmp(a, "--profile") ||
			   !strcmp(a, "--kernel")) {
			free(rest);
			return cli_error("cc", "%s needs a value", a);
		} else {
			rest[n++] = argv[i];
		}
	}
	if (n == 0) {
		free(rest);
		usage();
		return EXIT_BAD;
	}
	o.progress = verbose ? stderr : NULL;
	/* the environment knobs are the CLI's; the library reads no variables */
	if (!o.clang)
		o.clang = getenv("BPFGATE_CLANG");
	o.plugin_dir = getenv("BPFGATE_PLUGIN_DIR");
	o.keep_tmp = getenv("BPFGATE_CC_KEEP") != NULL;
	if (getenv("BG_KVM_LOADER") && *getenv("BG_KVM_LOADER"))
		o.kernel_loader = getenv("BG_KVM_LOADER");
	if (getenv("BG_KVM_TIMEOUT"))
		o.kernel_timeout_s = atoi(getenv("BG_KVM_TIMEOUT"));
	o.no_hints = hints < 0 ? !o.profile : !hints;
	rc = bg_cc_build(n, rest, &o, &res);
	if (rc < 0) {
		bg_cc_result__free(res);
		free(rest);
		return cli_error("cc", "%s", rc == -2 ? "no clang found (--clang or BPFGATE_CLANG)" : bg_strerror(rc));
	}
	bg_cc_result__print(res, json ? stdout : stderr, json);
	rc = bg_cc_result__status(res);
	bg_cc_result__free(res);
	free(rest);
	return rc;
}
