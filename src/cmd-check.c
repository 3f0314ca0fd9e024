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
	"status 1), and aliases whose disk is not present (warnings); chassis\n"
	"layouts that do not fit their enclosure (errors). Every other command\n"
	"reports a bad line too, and applies the lines that are good.\n";

/*
 * Why slot alias @a names no single disk: its bay empty or holding a drive
 * of several namespaces, its enclosure or slot absent, or its enclosure's
 * id reported by several enclosures.
 */
static char *slot_why(const struct da_slotlist *slots, const struct da_alias *a)
{
	const char *v = da_alias_value(a), *slash = strchr(v, '/');
	const struct da_slot *s = da_slotlist_find(slots, v, 0), *other;

	if (s && (other = da_slotlist_find(slots, v, 1)))
		return xasprintf(
			"enclosures %s and %s report the same id %s: their bays cannot be told apart",
			s->enclosure, other->enclosure, s->enclosure_id);
	if (s && s->kind == DA_SLOT_PCIE && !streq(s->status, "empty"))
		return xasprintf("the drive in PCIe slot %s (%s) has several namespaces: "
				 "bind each by wwn: or serial:",
				 s->label, s->pci);
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

/*
 * Whether the chassis lines fit the enclosures this machine shows: every
 * bay of an SES enclosure a line describes has a cell (its slot number
 * from the first slot's on, no more bays than cells), and the enclosure or
 * the PCIe slots are there. Misfits are errors, at the line; an enclosure
 * not attached is a warning. Returns the number of errors.
 */
static size_t check_chassis(const struct tool *t, const struct da_slotlist *slots,
			    struct da_diag *diag)
{
	size_t errors = 0;

	for (size_t i = 0; i < da_table_chassis_count(t->table); i++) {
		const struct da_chassis *ch = da_table_chassis_get(t->table, i);
		const char *file = da_chassis_file(ch), *name = da_chassis_name(ch);
		unsigned int line = da_chassis_line(ch), bays = 0, outside = 0, absent = 0, k;
		struct strbuf out = STRBUF_INIT;
		const char *enc = NULL;

		if (da_chassis_kind(ch) == DA_SLOT_PCIE) {
			for (k = 0; k < da_chassis_cells(ch); k++) {
				_cleanup_free_ char *id = NULL;
				unsigned int row, col;

				if (da_chassis_bay(ch, k, &id, &row, &col) == 0 &&
				    !da_slotlist_find(slots, id, 0))
					absent++;
			}
			if (absent)
				da_diag_add(diag, file, line, true,
					    "chassis '%s': %u of its PCIe slots are not on this machine",
					    name, absent);
			continue;
		}
		for (size_t j = 0; j < da_slotlist_count(slots); j++) {
			const struct da_slot *s = da_slotlist_get(slots, j);

			if (s->kind != DA_SLOT_SES || !s->enclosure_id ||
			    strcasecmp(s->enclosure_id, da_chassis_enclosure(ch)) != 0)
				continue;
			enc = s->enclosure;
			bays++;
			if (s->identity && da_chassis_find(ch, s->identity, &k) == 0)
				continue;
			outside++;
			strbuf_addf(&out, "%s%s", out.len ? ", " : "",
				    s->number ? s->number : s->label);
		}
		if (!enc) {
			da_diag_add(diag, file, line, true,
				    "chassis '%s': no enclosure with id %s is attached", name,
				    da_chassis_enclosure(ch));
		} else if (bays > da_chassis_cells(ch)) {
			errors++;
			da_diag_add(diag, file, line, false,
				    "chassis '%s': enclosure %s has %u bays, more than the %u cells of %u rows of %u",
				    name, enc, bays, da_chassis_cells(ch), da_chassis_rows(ch),
				    da_chassis_columns(ch));
		} else if (outside) {
			errors++;
			da_diag_add(diag, file, line, false,
				    "chassis '%s': slot%s %s of enclosure %s %s in no cell (the cells hold slots %u to %u: slots=)",
				    name, outside == 1 ? "" : "s", out.buf, enc,
				    outside == 1 ? "is" : "are", da_chassis_first_slot(ch),
				    da_chassis_first_slot(ch) + da_chassis_cells(ch) - 1);
		}
		strbuf_release(&out);
	}
	return errors;
}

int cmd_check(struct tool *t, int argc, char **argv)
{
	struct da_slotlist *slots = NULL;
	size_t present = 0, missing = 0, ambiguous = 0, crowded = 0, misfits = 0, problems;
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
			/* A rule names every bay, empty ones too: that is no news. */
			if (da_alias_chassis(a) && why && strncmp(why, "the bay is empty", 16) == 0)
				break;
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
	if (da_table_chassis_count(t->table)) {
		if (!slots && da_slots_scan(t->ctx, &diag, &slots) < 0) {
			errmsg("out of memory");
			return EXIT_FAIL;
		}
		misfits = check_chassis(t, slots, &diag);
	}
	da_slotlist_free(slots);
	print_diag(&diag);
	da_diag_clear(&diag);
	problems = da_table_problems(t->table) + crowded + misfits;
	printf("%s: %zu aliases: %zu present, %zu missing, %zu ambiguous; %zu problem%s\n",
	       t->table_path, da_table_count(t->table), present, missing, ambiguous, problems,
	       problems == 1 ? "" : "s");
	return ambiguous || problems ? EXIT_FAIL : EXIT_OK;
}
