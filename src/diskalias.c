// SPDX-License-Identifier: GPL-2.0-or-later
/* diskalias: persistent names for disks. The dispatcher and global options. */
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static int cmd_help(struct tool *t, int argc, char **argv);

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
	{ "map", cmd_map, "every bay (SES enclosures, PCIe slots) with its disk and LEDs" },
	{ "chassis", cmd_chassis, "describe a chassis's panel and name its bays by one rule" },
	{ "locate", cmd_locate, "switch the locate LED of the bays of disks or aliases" },
	{ "fault", cmd_fault, "switch the fault LED of the bays of disks or aliases" },
	{ "import", cmd_import, "aliases from vdev_id.conf or multipath, as table lines" },
	{ "metrics", cmd_metrics, "the aliases as Prometheus metrics, for node_exporter" },
	{ "history", cmd_history,
	  "which kernel name was which alias, boot by boot, in a saved log" },
	{ "help", cmd_help, "this help, or a command's (help <command>)" },
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
	printf("\nOptions:\n%s"
	       " -V, --version         display version\n"
	       "\n"
	       "Run 'diskalias help <command>' for a command's options; see diskalias(8).\n",
	       tool_global_help);
}

/* The number of single-byte edits from @a to @b, up to 3 (more is "far"). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[32][32];

	if (la >= 31 || lb >= 31)
		return 3;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			/* A swap of two neighbours is one slip of the fingers. */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb] < 3 ? d[la][lb] : 3;
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (streq(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	const struct command *best = NULL;
	size_t dist = 3;

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		size_t d = edit_distance(name, commands[i].name);

		if (d < dist) {
			dist = d;
			best = &commands[i];
		}
	}
	if (best)
		return usage_error(NULL, "unknown command '%s'; did you mean '%s'?", name,
				   best->name);
	return usage_error(NULL, "unknown command '%s'", name);
}

/* diskalias help [COMMAND]: the tool's help, or the command's. */
static int cmd_help(struct tool *t, int argc, char **argv)
{
	const struct command *c;
	char *help_argv[] = { NULL, (char *)"--help", NULL };

	if (argc < 2) {
		usage();
		return EXIT_OK;
	}
	if (argc > 2)
		return usage_error("help", "expected one command");
	c = find_command(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	if (c->fn == cmd_help) {
		usage();
		return EXIT_OK;
	}
	help_argv[0] = argv[0];
	optind = 0;
	return c->fn(t, 2, help_argv);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		GLOBAL_LONG_OPTS,
		{ "version", no_argument, NULL, 'V' },
		{},
	};
	const struct command *cmd;
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
	cmd = find_command(argv[optind]);
	if (!cmd)
		return unknown_command(argv[optind]);
	argc -= optind;
	argv += optind;
	optind = 0;
	t.cmd = cmd->name;
	cmdline = xasprintf("diskalias %s", t.cmd);
	if (cmdline)
		argv[0] = cmdline;
	r = cmd->fn(&t, argc, argv);
	tool_done(&t);
	free(cmdline);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		errmsg("write error on standard output");
		return EXIT_FAIL;
	}
	return r;
}
