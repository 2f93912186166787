/* bpfgate disasm: placeholder until its issue lands; owned by that work. */
#include "cli.h"

int cmd_disasm(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("disasm", "not implemented yet");
}
