// SPDX-License-Identifier: GPL-2.0-or-later
/* diskalias resolve and name: from aliases to device nodes and back. */
#include <stdlib.h>

#include "tool.h"

static int parse_query_opts(struct tool *t, int argc, char **argv, const char *usage)
{
	int r = tool_options(t, argc, argv, usage);

	if (r >= 0)
		return r;
	if (optind >= argc)
		return usage_error(t->cmd, "expected at least one name");
	return -1;
}

/*
 * Answer every argument from @rw (da_rewriter_query()): true when all
 * were answered, and printed.
 */
static bool answer_all(struct tool *t, const struct da_rewriter *rw, int argc, char **argv)
{
	struct strv answers = {};
	int r = 1;

	for (int i = optind; r > 0 && i < argc; i++) {
		char *s;

		r = da_rewriter_query(t->ctx, rw, argv[i], &s);
		if (r > 0 && strv_consume(&answers, s) < 0)
			r = 0;
	}
	for (size_t i = 0; r > 0 && i < answers.n; i++)
		puts(answers.v[i]);
	strv_free(&answers);
	return r > 0;
}

/*
 * Look up every argument and print what @show makes of its device, one
 * line each, in order: an argument that fails is reported on stderr and
 * gets an empty line, so the output still lines up with the arguments.
 * A rewriter in @mode answers the same (da_rewriter_query()) faster.
 */
static int query(struct tool *t, int argc, char **argv, const char *usage,
		 int (*show)(struct tool *t, const char *arg, struct da_device *d),
		 enum da_rewrite_mode mode)
{
	struct da_rewriter *rw = NULL;
	int r, ret = EXIT_OK;
	bool answered;

	r = parse_query_opts(t, argc, argv, usage);
	if (r >= 0)
		return r;
	/* The rewriter the last run kept answers most without the table and the devices. */
	if (tool_rewriter(t, mode, true, NULL, &rw) < 0)
		return EXIT_FAIL;
	answered = answer_all(t, rw, argc, argv);
	da_rewriter_free(rw);
	if (answered)
		return EXIT_OK;
	/* Finding a disk needs its names and identities, not its size: a snapshot may answer. */
	if (tool_load(t, NEED_MAP_NAMES) < 0)
		return EXIT_FAIL;
	for (int i = optind; i < argc; i++) {
		struct da_diag diag = {};
		struct da_device *d;

		r = da_map_lookup(t->map, argv[i], &diag, &d);
		print_diag(&diag);
		da_diag_clear(&diag);
		if (r < 0 || show(t, argv[i], d) < 0) {
			putchar('\n');
			ret = EXIT_FAIL;
		}
	}
	return ret;
}

static int show_node(struct tool *t, const char *arg, struct da_device *d)
{
	char *node = da_devnode(da_device_kname(d));

	if (!node)
		return -1;
	puts(node);
	free(node);
	return 0;
}

static int show_name(struct tool *t, const char *arg, struct da_device *d)
{
	const char *name = da_map_device_name(t->map, d, 0);

	if (!name) {
		errmsg("%s: no alias", arg);
		return -1;
	}
	puts(name);
	return 0;
}

int cmd_resolve(struct tool *t, int argc, char **argv)
{
	return query(t, argc, argv,
		     "Usage:\n"
		     " diskalias resolve <name>...\n"
		     "\n"
		     "Print the device node (/dev/sdc, /dev/sdc1) of each alias or partition name.\n",
		     show_node, DA_REWRITE_REVERSE);
}

int cmd_name(struct tool *t, int argc, char **argv)
{
	return query(t, argc, argv,
		     "Usage:\n"
		     " diskalias name <device>...\n"
		     "\n"
		     "Print the primary alias of each device (/dev/sdc, sdc, 8:32, a /dev/disk/by-*\n"
		     "path); partitions get their disk's alias with the partition suffix (bay07p1).\n",
		     show_name, DA_REWRITE_ALIAS);
}
