/* bpfgate corpus: placeholder until its issue lands; owned by that work. */
#include "cli.h"

int cmd_corpus(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("corpus", "not implemented yet");
}
