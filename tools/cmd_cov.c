/* bpfgate cov: placeholder until its issue lands; owned by that work. */
#include "cli.h"

int cmd_cov(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("cov", "not implemented yet");
}
