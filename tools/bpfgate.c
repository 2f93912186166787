/* bpfgate: one CLI, one subcommand per tool. This file only dispatches; each
 * subcommand lives in tools/cmd_<name>.c and is listed once in cli.h. */
#include <stdarg.h>
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

int cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bpfgate %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_BAD;
}

int cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	}
	return 0;
}

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
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "bpfgate: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_BAD;
}
