/* bpfgate list: placeholder until its issue lands; owned by that work. */
#include "cli.h"

int cmd_list(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("list", "not implemented yet");
}
