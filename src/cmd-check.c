// SPDX-License-Identifier: GPL-2.0-or-later
/* diskalias check: the table against this system. */
#include <string.h>

#include "tool.h"

static const char check_usage[] =
	"Usage:\n"
	" diskalias check\n"
	"\n"
	"Check the alias table: syntax, names, identities, duplicates, collisions\n"
	"with partition names, identities that match several devices (errors, exit\n"
	"status 1), and aliases whose disk is not present (warnings). Every other\n"
	"command reports a bad line too, and applies the lines that are good.\n";

int cmd_check(struct tool *t, int argc, char **argv)
{
	size_t present = 0, missing = 0, ambiguous = 0, crowded = 0;
	struct da_diag diag = {};
	int r = tool_options(t, argc, argv, check_usage);

	if (r >= 0)
		return r;
	if (optind < argc)
		return usage_error("check", "unexpected argument '%s'", argv[optind]);
	if (tool_load(t, NEED_MAP) < 0)
		return EXIT_FAIL;
	for (size_t i = 0; i < da_table_count(t->table); i++) {
		const struct da_alias *a = da_table_get(t->table, i);
		_cleanup_free_ char *devs = NULL;

		switch (da_map_alias_state(t->map, i, NULL)) {
		case DA_ALIAS_PRESENT:
			present++;
			break;
		case DA_ALIAS_MISSING:
			missing++;
			da_diag_add(&diag, da_alias_file(a), da_alias_line(a), true,
				    "alias '%s' (%s): no such disk present", da_alias_name(a),
				    da_alias_identity(a));
			break;
		case DA_ALIAS_AMBIGUOUS:
			ambiguous++;
			devs = tool_matching_devices(t, da_alias_kind(a), da_alias_value(a));
			da_diag_add(&diag, da_alias_file(a), da_alias_line(a), false,
				    "alias '%s' (%s) matches %zu devices (%s) and names none of them; bind it by something unique",
				    da_alias_name(a), da_alias_identity(a),
				    da_map_alias_matches(t->map, i), devs ? devs : "");
			break;
		}
	}
	/* A device with more names than the udev rules link: the rest would have no link. */
	for (size_t i = 0; i < da_devlist_count(t->list); i++) {
		const struct da_device *d = da_devlist_get(t->list, i);
		size_t n = tool_name_count(t, d);

		if (n > DA_LINKS_MAX) {
			crowded++;
			da_diag_add(&diag, t->table_path, 0, false,
				    "%s has %zu names; the udev rules make links for the first %d ('%s' and after have none)",
				    da_device_kname(d), n, DA_LINKS_MAX,
				    da_map_device_name(t->map, d, DA_LINKS_MAX));
		}
	}
	print_diag(&diag);
	da_diag_clear(&diag);
	printf("%s: %zu aliases: %zu present, %zu missing, %zu ambiguous; %zu problem%s\n",
	       t->table_path, da_table_count(t->table), present, missing, ambiguous,
	       da_table_problems(t->table), da_table_problems(t->table) == 1 ? "" : "s");
	return ambiguous || crowded || da_table_problems(t->table) ? EXIT_FAIL : EXIT_OK;
}
