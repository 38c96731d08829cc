/* TEMPORARY weak stubs for commands not written yet; delete when all exist. */
#include <stdio.h>
#include "commands.h"
#define STUB_CMD(name) __attribute__((weak)) int name(int argc, char **argv) \
	{ (void)argc; (void)argv; fprintf(stderr, "kso: not implemented yet\n"); return 2; }
STUB_CMD(cmd_validate)
STUB_CMD(cmd_dump)
STUB_CMD(cmd_explain)
STUB_CMD(cmd_schedule)
