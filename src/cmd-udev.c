// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * diskalias udev: the helper udev rules import, once per block device and
 * event. diskalias apply: the same links where no udev runs. And what the
 * table edits share with them: telling udev which devices changed.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

extern char **environ;

static const char udev_usage[] =
	"Usage:\n"
	" diskalias udev <device>\n"
	"\n"
	"For udev rules (IMPORT{program}): print DISKALIAS=<primary alias>,\n"
	"DISKALIAS_ALL=<every alias> and DISKALIAS_1=<alias>, DISKALIAS_2=... each\n"
	"of the kernel device <device> (sdc, sdc1), found from the ID_* properties\n"
	"udev passes in the environment; nothing when it has no alias. Writes the\n"
	"record \"diskalias: sdc is bay07 (wwn:...)\" to the kernel log.\n";

/*
 * The names of @dev that an identity it shares with another present device
 * gives it: the helper sees one device, the claims see them all (see
 * da_udev_claim()). Each refused name is said in the kernel log; a device
 * that was first to have the name is asked to look again.
 */
static int refuse_shared(struct tool *t, const struct da_device *dev, struct strv *refused)
{
	const struct da_alias *a;
	int r = 0;

	for (size_t i = 0; r >= 0 && (a = da_map_device_alias(t->map, dev, i)); i++) {
		/* A partition named after its disk: its disk is the one that carries the identity. */
		const char *name = da_map_device_name(t->map, dev, i);
		bool own = streq(name, da_alias_name(a));
		const struct da_device *carrier = own ? dev : da_device_parent(dev);
		_cleanup_free_ char *others = NULL, *text = NULL;
		char **v = NULL;
		bool fresh = false;
		int n;

		n = da_udev_claim(t->ctx, carrier, da_alias_kind(a), da_alias_value(a), own, &v,
				  &fresh);
		if (n < 0) {
			/* Where run/ cannot be written nothing can be compared: say so, name as
			 * before. */
			errmsg("%s: cannot compare %s with other devices: %s", da_device_kname(dev),
			       da_alias_identity(a), strerror(-n));
			continue;
		}
		for (size_t k = 0; fresh && v[k]; k++)
			da_udev_trigger_disk(t->ctx, v[k], "change");
		others = strv_join(v, ", ");
		da_names_free(v);
		if (n == 0)
			continue;
		r = strv_push(refused, name);
		text = xasprintf("%s is not named %s: %s is also on %s", da_device_kname(dev), name,
				 da_alias_identity(a), others ? others : "?");
		if (text) {
			errmsg("%s", text);
			da_udev_log(t->ctx, text);
		}
	}
	return r;
}

/*
 * What the record says a disk is bound to: the alias's identity, then the
 * other names the kernel's log uses for the disk, its own and after "; "
 * those of its port or controller ("wwn:0x...; ata3.00, 2:0:0:0; ata3"),
 * so a log read later maps those lines too.
 */
static char *record_identity(const struct da_device *dev, const char *identity)
{
	struct strv own = {}, shared = {};
	_cleanup_free_ char *o = NULL, *s = NULL;
	const char *h;
	bool is_shared;
	int r = 0;

	if (da_device_ata(dev))
		r = strv_push(&own, da_device_ata(dev));
	if (r >= 0 && da_device_hctl(dev))
		r = strv_push(&own, da_device_hctl(dev));
	for (size_t i = da_device_ata(dev) ? 1 : 0;
	     r >= 0 && (h = da_device_handle(dev, i, &is_shared)); i++)
		r = strv_push(is_shared ? &shared : &own, h);
	o = r >= 0 ? strv_join(own.v, ", ") : NULL;
	s = r >= 0 ? strv_join(shared.v, ", ") : NULL;
	strv_free(&own);
	strv_free(&shared);
	if (!o || !s)
		return NULL;
	return *s   ? xasprintf("%s; %s; %s", identity, o, s)
	       : *o ? xasprintf("%s; %s", identity, o)
		    : strdup(identity);
}

int cmd_udev(struct tool *t, int argc, char **argv)
{
	const char *kname, *name, *marker, *kalias;
	const struct da_alias *a;
	struct da_device *dev;
	struct strv refused = {}, keep = {};
	_cleanup_free_ char *all = NULL;
	char **names = NULL;
	int r;

	r = tool_options(t, argc, argv, udev_usage);
	if (r >= 0)
		return r;
	if (argc - optind != 1)
		return usage_error("udev", "expected one device");
	kname = argv[optind];
	if (strncmp(kname, "/dev/", 5) == 0)
		kname += 5;
	if (!*kname || strchr(kname, '/'))
		return usage_error("udev", "'%s' is not a kernel device name (sdc, sdc1)",
				   argv[optind]);
	r = da_devlist_from_udev(kname, environ, &t->list);
	if (r < 0) {
		errmsg("%s: %s", kname, strerror(-r));
		return EXIT_FAIL;
	}
	/*
	 * Only the lines this device can match: through the table's index, once
	 * it has one. What is wrong with the table goes to the kernel log too,
	 * once per version of it: udev keeps a helper's stderr to itself.
	 */
	/* Its bay: an SES slot or PCIe slot is no udev property. */
	r = tool_load(t, 0);
	if (r >= 0 && da_devlist_read_slots(t->ctx, t->list) < 0)
		r = -1;
	if (r >= 0)
		r = tool_load(t, NEED_TABLE_INDEXED);
	da_udev_log_problems(t->ctx, t->table_path, &t->table_diag);
	if (r < 0)
		return EXIT_FAIL;
	r = da_map_new(t->table, t->list, &t->map);
	dev = da_devlist_find_kname(t->list, kname);
	if (r >= 0)
		r = da_link_names(t->ctx, t->map, dev, &names);
	if (r >= 0)
		r = refuse_shared(t, dev, &refused);
	if (r < 0) {
		errmsg("%s: %s", kname, strerror(-r));
		da_names_free(names);
		return EXIT_FAIL;
	}
	for (char **n = names; r >= 0 && *n; n++)
		if (!strv_contains(&refused, *n))
			r = strv_push(&keep, *n);
	all = r >= 0 ? strv_join(keep.v, " ") : NULL;
	if (!all) {
		errmsg("out of memory");
		da_names_free(names);
		strv_free(&keep);
		strv_free(&refused);
		return EXIT_FAIL;
	}
	if (keep.n) {
		printf("DISKALIAS=%s\nDISKALIAS_ALL=%s\n", keep.v[0], all);
		/* One variable per name: the rules make a link of each. */
		for (size_t i = 0; i < keep.n; i++)
			printf("DISKALIAS_%zu=%s\n", i + 1, keep.v[i]);
	}
	strv_free(&keep);
	da_names_free(names);

	for (size_t i = 0; (name = da_map_device_name(t->map, dev, i)); i++) {
		if (strv_contains(&refused, name))
			continue;
		a = da_map_device_alias(t->map, dev, i);
		marker = getenv("DISK_ALIAS_CHANGE");
		kalias = getenv("ALIAS");
		/*
		 * The kernel's announcement of the alias it was just given (only that
		 * event carries the marker): the kernel logged that naming itself. Any
		 * other event, a change asked for by hand included, is a naming.
		 */
		if (!(streq(marker, "1") && streq(kalias, name))) {
			_cleanup_free_ char *id = record_identity(dev, da_alias_identity(a));

			da_udev_record(t->ctx, kname, name, id ? id : da_alias_identity(a));
		}
		break;
	}
	strv_free(&refused);
	return EXIT_OK;
}

static void print_action(void *userdata, enum da_apply_action action, const char *name,
			 const char *kname)
{
	switch (action) {
	case DA_APPLY_LINK_CREATED:
		printf("link %s -> %s: created\n", name, kname);
		break;
	case DA_APPLY_LINK_UPDATED:
		printf("link %s -> %s: updated\n", name, kname);
		break;
	case DA_APPLY_LINK_REMOVED:
		printf("link %s -> %s: removed\n", name, kname);
		break;
	case DA_APPLY_ATTR_SET:
		printf("alias of %s: %s\n", kname, name);
		break;
	case DA_APPLY_ATTR_CLEARED:
		printf("alias of %s: cleared (was %s)\n", kname, name);
		break;
	}
}

static const char apply_usage[] =
	"Usage:\n"
	" diskalias apply\n"
	"\n"
	"Where no udev runs: make /dev/disk/by-alias match the table and the disks\n"
	"present (links created, repointed and removed), and set the kernel's alias\n"
	"attribute of each disk where the kernel has one. Prints each change.\n";

int cmd_apply(struct tool *t, int argc, char **argv)
{
	struct da_diag diag = {};
	int r;

	r = tool_options(t, argc, argv, apply_usage);
	if (r >= 0)
		return r;
	if (optind != argc)
		return usage_error("apply", "unexpected argument '%s'", argv[optind]);
	if (tool_load(t, NEED_MAP) < 0)
		return EXIT_FAIL;
	r = da_apply(t->ctx, t->map, print_action, NULL, &diag);
	print_diag(&diag);
	if (r < 0 && !da_diag_errors(&diag))
		errmsg("apply: %s", strerror(-r));
	da_diag_clear(&diag);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}
