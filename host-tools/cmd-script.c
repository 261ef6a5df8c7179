/* tinyperf script: placeholder until written */
#include "host-tools/cmd.h"

int cmd_script(int argc, char **argv)
{
	(void)argc; (void)argv;
	return 1;
}
