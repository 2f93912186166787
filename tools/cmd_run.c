/* bpfgate run: placeholder until its issue lands; owned by that work. */
#include "cli.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("run", "not implemented yet");
}
