// SPDX-License-Identifier: GPL-2.0-or-later
/* diskalias: persistent names for disks. The dispatcher and global options. */
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static const struct command {
	const char *name;
	int (*fn)(struct tool *t, int argc, char **argv);
	const char *help;
} commands[] = {
	{ "list", cmd_list, "list disks and partitions with their aliases" },
	{ "set", cmd_set, "give a disk or partition an alias" },
	{ "unset", cmd_unset, "remove an alias" },
	{ "rename", cmd_rename, "rename an alias" },
	{ "resolve", cmd_resolve, "print the device node of aliases" },
	{ "name", cmd_name, "print the alias of devices" },
	{ "check", cmd_check, "check the alias table against this system" },
	{ "filter", cmd_filter, "copy text with kernel names replaced by aliases" },
	{ "dmesg", cmd_dmesg, "the kernel log with aliases" },
	{ "partitions", cmd_partitions, "/proc/partitions with aliases" },
	{ "diskstats", cmd_diskstats, "/proc/diskstats with aliases, or rates by alias" },
	{ "run", cmd_run, "run a command with aliases in its arguments and output" },
	{ "udev", cmd_udev, "for udev rules: the aliases of a device, from udev's properties" },
	{ "apply", cmd_apply, "make /dev/disk/by-alias links where no udev runs" },
};

static void usage(void)
{
	printf("Usage:\n"
	       " diskalias [options] <command> [<args>]\n"
	       "\n"
	       "Give disks persistent names of your choosing, bound to their WWN, serial\n"
	       "or slot, and use them everywhere.\n"
	       "\n"
	       "Commands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		printf(" %-10s %s\n", commands[i].name, commands[i].help);
	printf("\n"
	       "Options:\n"
	       " -c, --config <file>   alias table (default /etc/diskalias.conf, or $DISKALIAS_CONFIG)\n"
	       "     --sysroot <dir>   read sys/, proc/, dev/, run/udev/ under <dir> ($DISKALIAS_SYSROOT)\n"
	       " -h, --help            display this help\n"
	       " -V, --version         display version\n"
	       "\n"
	       "Run 'diskalias <command> --help' for a command's options; see diskalias(8).\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		GLOBAL_LONG_OPTS,
		{ "version", no_argument, NULL, 'V' },
		{},
	};
	struct tool t = {};
	char *cmdline;
	int c, r;

	/* getopt names the program by argv[0]: say "diskalias", not its path. */
	argv[0] = (char *)"diskalias";
	t.root = getenv("DISKALIAS_SYSROOT");
	if (t.root && !*t.root)
		t.root = NULL;
	/* '+': stop at the command; its own options are its business. */
	while ((c = getopt_long(argc, argv, "+" GLOBAL_SHORT_OPTS "V", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage();
			return EXIT_OK;
		case 'V':
			printf("diskalias %s\n", PACKAGE_VERSION);
			return EXIT_OK;
		default:
			r = tool_common_option(&t, c, "");
			if (r >= 0)
				return r;
		}
	}
	if (optind >= argc)
		return usage_error(NULL, "no command given");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!streq(commands[i].name, argv[optind]))
			continue;
		argc -= optind;
		argv += optind;
		optind = 0;
		t.cmd = commands[i].name;
		cmdline = xasprintf("diskalias %s", t.cmd);
		if (cmdline)
			argv[0] = cmdline;
		r = commands[i].fn(&t, argc, argv);
		tool_done(&t);
		free(cmdline);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			errmsg("write error on standard output");
			return EXIT_FAIL;
		}
		return r;
	}
	return usage_error(NULL, "unknown command '%s'", argv[optind]);
}
