/* bpfgate asm: placeholder until its issue lands; owned by that work. */
#include "cli.h"

int cmd_asm(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("asm", "not implemented yet");
}
