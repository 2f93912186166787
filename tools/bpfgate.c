/* bpfgate: one CLI, one subcommand per tool. This file only dispatches; each
 * subcommand lives in tools/cmd_<name>.c and is listed once in cli.h. */
#include <stdio.h>
#include <string.h>
#include <bpfgate/bpfgate.h>
#include "cli.h"

struct command {
	const char *name;
	const char *help;
	int (*fn)(int argc, char **argv);
};

#define BG_CMD_ENTRY(n, h) {#n, h, cmd_##n},
static const struct command commands[] = {BG_COMMANDS(BG_CMD_ENTRY)};
#undef BG_CMD_ENTRY

static void usage(FILE *f)
{
	fprintf(f, "usage: bpfgate <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nbpfgate <command> --help for a command's options; bpfgate --version.\n"
		   "exit status: 0 success/accepted, 1 a program rejected, 2 bad input or usage\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_BAD;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("bpfgate %s\n", BPFGATE_VERSION);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			cli_init(argc - 1, argv + 1);
			return commands[i].fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "bpfgate: unknown command '%s'\n", cli_safe(argv[1]));
	usage(stderr);
	return EXIT_BAD;
}
