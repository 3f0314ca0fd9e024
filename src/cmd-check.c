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

/*
 * Why slot alias @a names no single disk: its bay empty, its enclosure or
 * slot absent, or its enclosure's id reported by several enclosures.
 */
static char *slot_why(const struct da_slotlist *slots, const struct da_alias *a)
{
	const char *v = da_alias_value(a), *slash = strchr(v, '/');
	const struct da_slot *s = da_slotlist_find(slots, v, 0), *other;

	if (s && (other = da_slotlist_find(slots, v, 1)))
		return xasprintf(
			"enclosures %s and %s report the same id %s: their bays cannot be told apart",
			s->enclosure, other->enclosure, s->enclosure_id);
	if (s)
		return xasprintf("the bay is empty (%s %s, %s)",
				 s->kind == DA_SLOT_PCIE ? "PCIe slot" : "enclosure",
				 s->kind == DA_SLOT_PCIE ? s->label : s->enclosure,
				 s->kind == DA_SLOT_PCIE ? s->pci : s->label);
	if (!slash)
		return NULL;
	if (slash - v == 4 && strncmp(v, "pcie", 4) == 0)
		return xasprintf("no PCIe slot '%s' on this machine", slash + 1);
	for (size_t i = 0; (s = da_slotlist_get(slots, i)); i++)
		if (s->enclosure_id && strlen(s->enclosure_id) == (size_t)(slash - v) &&
		    strncasecmp(s->enclosure_id, v, slash - v) == 0)
			return xasprintf("enclosure %s has no slot %s", s->enclosure, slash + 1);
	return xasprintf("no enclosure with id %.*s is attached", (int)(slash - v), v);
}

int cmd_check(struct tool *t, int argc, char **argv)
{
	struct da_slotlist *slots = NULL;
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
		_cleanup_free_ char *devs = NULL, *why = NULL;

		if (da_alias_kind(a) == DA_ID_SLOT &&
		    da_map_alias_state(t->map, i, NULL) != DA_ALIAS_PRESENT) {
			if (!slots && da_slots_scan(t->ctx, &diag, &slots) < 0) {
				errmsg("out of memory");
				return EXIT_FAIL;
			}
			why = slot_why(slots, a);
		}

		switch (da_map_alias_state(t->map, i, NULL)) {
		case DA_ALIAS_PRESENT:
			present++;
			break;
		case DA_ALIAS_MISSING:
			missing++;
			da_diag_add(&diag, da_alias_file(a), da_alias_line(a), true,
				    "alias '%s' (%s): %s", da_alias_name(a), da_alias_identity(a),
				    why ? why : "no such disk present");
			break;
		case DA_ALIAS_AMBIGUOUS:
			ambiguous++;
			devs = tool_matching_devices(t, da_alias_kind(a), da_alias_value(a));
			da_diag_add(&diag, da_alias_file(a), da_alias_line(a), false,
				    "alias '%s' (%s) matches %zu devices (%s) and names none of them; %s",
				    da_alias_name(a), da_alias_identity(a),
				    da_map_alias_matches(t->map, i), devs ? devs : "",
				    why ? why : "bind it by something unique");
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
	da_slotlist_free(slots);
	print_diag(&diag);
	da_diag_clear(&diag);
	printf("%s: %zu aliases: %zu present, %zu missing, %zu ambiguous; %zu problem%s\n",
	       t->table_path, da_table_count(t->table), present, missing, ambiguous,
	       da_table_problems(t->table), da_table_problems(t->table) == 1 ? "" : "s");
	return ambiguous || crowded || da_table_problems(t->table) ? EXIT_FAIL : EXIT_OK;
}
