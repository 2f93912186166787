/* bpfgate kload: placeholder until its issue lands; owned by that work. */
#include "cli.h"

int cmd_kload(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("kload", "not implemented yet");
}
