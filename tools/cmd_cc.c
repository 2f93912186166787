/* bpfgate cc: placeholder until its issue lands; owned by that work. */
#include "cli.h"

int cmd_cc(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("cc", "not implemented yet");
}
