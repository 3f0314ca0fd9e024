// SPDX-License-Identifier: GPL-2.0-or-later
#include "tool.h"
int cmd_dmesg(struct tool *t, int argc, char **argv)
{
	return EXIT_FAIL;
}
