/* bpfgate check: placeholder until its issue lands; owned by that work. */
#include "cli.h"

int cmd_check(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("check", "not implemented yet");
}
