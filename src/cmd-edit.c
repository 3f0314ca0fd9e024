// SPDX-License-Identifier: GPL-2.0-or-later
/* diskalias set, unset, rename: edits of the alias table. */
#include <errno.h>
#include <string.h>

#include "tool.h"

struct edit {
	const char *name, *newname;
	char **names; /* unset: every name to remove */
	enum da_id_kind kind;
	const char *value;
	const char *file; /* --file as given: the file to write; NULL: the table */
	bool force;
	struct da_diag diag;
};

/* Parse a command's options; fills @e's force and file, and @by. Returns -1 to go on or an exit
 * code. */
static int parse_edit_opts(struct tool *t, int argc, char **argv, const char *usage, struct edit *e,
			   bool force, enum da_id_kind *by)
{
	static const struct option opts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "by", required_argument, NULL, 'B' },
		{ "file", required_argument, NULL, 'F' },
		GLOBAL_LONG_OPTS,
		{},
	};
	int c, r;

	while ((c = getopt_long(argc, argv, "f" GLOBAL_SHORT_OPTS, opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!force)
				return usage_error(t->cmd, "unrecognized option '--force'");
			e->force = true;
			break;
		case 'F':
			e->file = optarg;
			break;
		case 'B':
			if (!by)
				return usage_error(t->cmd, "unrecognized option '--by'");
			*by = da_id_kind_from_name(optarg);
			if (*by == DA_ID_INVALID)
				return usage_error(
					t->cmd,
					"--by: unknown identity kind '%s' (expected one of %s)",
					optarg, da_id_kinds_text());
			break;
		default:
			r = tool_common_option(t, c, usage);
			if (r >= 0)
				return r;
		}
	}
	return -1;
}

/* Run @fn on the table under its lock and report the outcome. */
static int run_edit(struct tool *t, int (*fn)(struct da_table *, void *), struct edit *e)
{
	_cleanup_free_ char *file = NULL;
	int r;

	if (tool_load(t, NEED_TABLE) < 0)
		return EXIT_FAIL;
	file = e->file ? tool_table_file(t, e->file) : NULL;
	if (e->file && !file) {
		errmsg("out of memory");
		return EXIT_FAIL;
	}
	r = da_table_edit_file(t->table_path, file, fn, e, &e->diag);
	print_diag(&e->diag);
	if (r < 0 && !e->diag.n)
		errmsg("%s: %s", t->table_path, strerror(-r));
	da_diag_clear(&e->diag);
	/* The bad lines were reported when the table was read; the edit kept them. */
	if (r >= 0 && t->table_problems)
		errmsg("%s: warning: the table still has %zu problem%s, left as written (see 'diskalias check')",
		       t->table_path, t->table_problems, t->table_problems == 1 ? "" : "s");
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

static int edit_set(struct da_table *tb, void *data)
{
	struct edit *e = data;
	const struct da_alias *a = da_table_find(tb, e->name);

	if (!a)
		return da_table_add(tb, e->name, e->kind, e->value, &e->diag);
	/* Another alias that differs only in case: refused, with the table's own words. */
	if (!streq(da_alias_name(a), e->name))
		return da_table_add(tb, e->name, e->kind, e->value, &e->diag);
	if (da_alias_kind(a) == e->kind && da_id_value_equal(e->kind, da_alias_value(a), e->value))
		return 0;
	/* A name a chassis rule gives: rebind refuses it, saying so. */
	if (!e->force && !da_alias_chassis(a)) {
		da_diag_add(&e->diag, da_alias_file(a), da_alias_line(a), false,
			    "alias '%s' is already defined as %s; use --force to rebind it",
			    da_alias_name(a), da_alias_identity(a));
		return -EEXIST;
	}
	return da_table_rebind(tb, e->name, e->kind, e->value, &e->diag);
}

/* Devices in @t that carry identity @kind @value. */
static size_t count_matches(const struct tool *t, enum da_id_kind kind, const char *value)
{
	size_t n = 0;

	for (size_t i = 0; i < da_devlist_count(t->list); i++)
		n += da_device_has_identity(da_devlist_get(t->list, i), kind, value);
	return n;
}

/* The index of the first device in @t that carries identity @kind @value. */
static size_t first_match(const struct tool *t, enum da_id_kind kind, const char *value)
{
	size_t i = 0;

	while (i < da_devlist_count(t->list) &&
	       !da_device_has_identity(da_devlist_get(t->list, i), kind, value))
		i++;
	return i;
}

static const char *const kind_description[_DA_ID_MAX] = {
	[DA_ID_WWN] = "WWN",
	[DA_ID_SERIAL] = "serial number",
	[DA_ID_ID] = "/dev/disk/by-id link",
	[DA_ID_PATH] = "/dev/disk/by-path link (no slot)",
	[DA_ID_UUID] = "filesystem UUID",
	[DA_ID_LABEL] = "filesystem label",
	[DA_ID_PARTUUID] = "partition UUID",
	[DA_ID_PARTLABEL] = "partition label",
	[DA_ID_SLOT] = "enclosure bay or PCIe slot",
};

/* The kinds of identity @d has a value of that no other present device shares: "wwn, path". */
static char *unique_kinds(const struct tool *t, const struct da_device *d)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	for (int k = 0, n = 0; k < _DA_ID_MAX; k++) {
		const char *v;

		for (size_t i = 0; (v = da_device_identity(d, k, i)); i++) {
			if (da_identity_check(k, v, NULL) == 0 && count_matches(t, k, v) == 1) {
				fprintf(f, "%s%s", n++ ? ", " : "", da_id_kind_name(k));
				break;
			}
		}
	}
	return fclose(f) == 0 ? s : NULL;
}

/* True, with a message, when a device of @knames has as many names as the udev rules link. */
static bool names_full(const struct tool *t, const struct strv *knames)
{
	for (size_t i = 0; i < knames->n; i++) {
		size_t n = tool_name_count(t, da_devlist_find_kname(t->list, knames->v[i]));

		if (n >= DA_LINKS_MAX) {
			errmsg("%s already has %zu names, as many as the udev rules make links for; unset one first",
			       knames->v[i], n);
			return true;
		}
	}
	return false;
}

/*
 * The identity to bind @d by: the first kind in order (or @by) with a value
 * no other present device shares. Disks: wwn > serial > id > path;
 * partitions: partuuid > id > path.
 */
static int pick_identity(const struct tool *t, const struct da_device *d, enum da_id_kind by,
			 struct edit *e)
{
	static const enum da_id_kind disk_order[] = { DA_ID_WWN, DA_ID_SERIAL, DA_ID_ID,
						      DA_ID_PATH };
	static const enum da_id_kind part_order[] = { DA_ID_PARTUUID, DA_ID_ID, DA_ID_PATH };
	bool part = da_device_devtype(d) == DA_DEV_PART;
	const enum da_id_kind *order = part ? part_order : disk_order;
	size_t n = part ? ARRAY_SIZE(part_order) : ARRAY_SIZE(disk_order);
	const char *shared = NULL, *unfit = NULL, *why = NULL;

	if (by != DA_ID_INVALID) {
		order = &by;
		n = 1;
	}
	for (size_t k = 0; k < n; k++) {
		const char *v;

		for (size_t i = 0; (v = da_device_identity(d, order[k], i)); i++) {
			/* A wwn- link is the WWN again; bind by the WWN itself. */
			if (order[k] == DA_ID_ID && by == DA_ID_INVALID &&
			    strncmp(v, "wwn-", 4) == 0)
				continue;
			/* A value no table line can hold (a serial with control bytes): the next
			 * one. */
			if (da_identity_check(order[k], v, &why) < 0) {
				unfit = unfit ? unfit : v;
				continue;
			}
			if (count_matches(t, order[k], v) == 1) {
				e->kind = order[k];
				e->value = v;
				return 0;
			}
			shared = shared ? shared : v;
		}
	}
	if (by != DA_ID_INVALID && shared) {
		_cleanup_free_ char *devs = tool_matching_devices(t, by, shared);
		_cleanup_free_ char *unique = unique_kinds(t, d);

		errmsg("%s: its %s '%s' is shared by %s; an alias bound to it would name none of them%s%s",
		       da_device_kname(d), da_id_kind_name(by), shared, devs ? devs : "?",
		       unique && *unique ? "; unique to it: --by " : "", unique ? unique : "");
	} else if (by != DA_ID_INVALID && unfit)
		errmsg("%s: its %s '%.80s' cannot be bound: %s", da_device_kname(d),
		       da_id_kind_name(by), unfit, why);
	else if (by != DA_ID_INVALID)
		errmsg("%s: has no %s", da_device_kname(d), kind_description[by]);
	else {
		/* The kinds tried, in order: "wwn, serial, id or path". */
		struct strbuf kinds = STRBUF_INIT;

		for (size_t k = 0; k < n; k++)
			strbuf_addf(&kinds, "%s%s", list_sep(k, n, " or "),
				    da_id_kind_name(order[k]));
		errmsg("%s: has no identity of its own to bind to (%s); name one with --by or give an IDENTITY",
		       da_device_kname(d), kinds.buf ? kinds.buf : "");
		strbuf_release(&kinds);
	}
	return -1;
}

static const char set_usage[] =
	"Usage:\n"
	" diskalias set [options] <name> <device>|<identity>\n"
	"\n"
	"Give a disk or partition the alias <name>. <device> is /dev/sdc, sdc, 8:32,\n"
	"a /dev/disk/by-* path, an alias or an alias's partition name; the alias is\n"
	"bound to its WWN, else its serial, else a by-id link, else its slot\n"
	"(by-path). An <identity> (wwn:..., serial:..., id:..., path:..., uuid:...,\n"
	"label:..., partuuid:..., partlabel:...) names a disk that is not there yet.\n"
	"\n"
	"Options:\n"
	"     --by <kind>   bind by this kind of identity (path: the name follows the slot)\n"
	"     --file <file> write the line into this drop-in (NAME.conf: one in the\n"
	"                   table's NAME.d directory), not into the table itself\n"
	" -f, --force       rebind an alias that is already defined\n";

int cmd_set(struct tool *t, int argc, char **argv)
{
	enum da_id_kind by = DA_ID_INVALID;
	const struct da_device *bound = NULL;
	struct strv knames = {};
	struct edit e = {};
	const char *reason, *arg;
	bool identity;
	size_t n = 0;
	int r;

	r = parse_edit_opts(t, argc, argv, set_usage, &e, true, &by);
	if (r >= 0)
		return r;
	if (argc - optind != 2)
		return usage_error("set", "expected a name and a device");
	e.name = argv[optind];
	arg = argv[optind + 1];
	identity = da_identity_parse(arg, &e.kind, &e.value) == 0;
	if (identity && by != DA_ID_INVALID)
		return usage_error("set", "--by goes with a device, not an identity");
	if (da_name_check(e.name, &reason) < 0) {
		errmsg("invalid alias name '%s': %s", e.name, reason);
		return EXIT_FAIL;
	}
	if (identity && da_identity_check(e.kind, e.value, &reason) < 0) {
		errmsg("invalid identity '%s': %s", arg, reason);
		return EXIT_FAIL;
	}
	t->may_create = true;
	if (tool_load(t, NEED_MAP) < 0)
		return EXIT_FAIL;
	if (identity) {
		n = count_matches(t, e.kind, e.value);
		if (n > 1) {
			_cleanup_free_ char *devs = tool_matching_devices(t, e.kind, e.value);
			_cleanup_free_ char *one = devs ? strndup(devs, strcspn(devs, ",")) : NULL;

			errmsg("%s matches %zu present devices (%s); an alias bound to it would name none of them: name the device instead (diskalias set %s %s) to bind it by what is its own",
			       arg, n, devs ? devs : "?", e.name, one ? one : "DEVICE");
			return EXIT_FAIL;
		}
		for (size_t i = 0; i < da_devlist_count(t->list); i++)
			if (da_device_has_identity(da_devlist_get(t->list, i), e.kind, e.value))
				tool_affected_dev(t, da_devlist_get(t->list, i), &knames);
	} else {
		struct da_device *d;
		struct da_diag diag = {};

		r = da_map_lookup(t->map, arg, &diag, &d);
		print_diag(&diag);
		da_diag_clear(&diag);
		if (r < 0 || pick_identity(t, d, by, &e) < 0)
			return EXIT_FAIL;
		tool_affected_dev(t, d, &knames);
		bound = d;
	}
	/* A new name must get its link on each device it names. */
	if (!da_table_find(t->table, e.name) && names_full(t, &knames)) {
		strv_free(&knames);
		return EXIT_FAIL;
	}
	/* Rebinding moves the name: the device it named changes too. */
	tool_affected(t, e.name, &knames);
	r = run_edit(t, edit_set, &e);
	/* Say what the name now stands for: the user chose a device, the tool chose how to find it.
	 */
	if (r == EXIT_OK && identity && n == 1)
		bound = da_devlist_get(t->list, first_match(t, e.kind, e.value));
	if (r == EXIT_OK && bound)
		printf("%s -> %s (%s:%s)\n", e.name, da_device_kname(bound),
		       da_id_kind_name(e.kind), e.value);
	/* Before the notes on stderr, as a terminal shows them. */
	fflush(stdout);
	if (r == EXIT_OK && identity && n == 0)
		notemsg("no device with %s is present now; '%s' applies when one appears", arg,
			e.name);
	if (r == EXIT_OK)
		tool_notify(t, &knames);
	strv_free(&knames);
	return r;
}

static int edit_unset(struct da_table *tb, void *data)
{
	struct edit *e = data;

	return da_table_remove(tb, e->name, &e->diag);
}

static const char unset_usage[] =
	"Usage:\n"
	" diskalias unset [options] <name>...\n"
	"\n"
	"Remove aliases from the table.\n"
	"\n"
	"Options:\n"
	"     --file <file>  remove them from this drop-in (NAME.conf: one in the\n"
	"                    table's NAME.d directory), not from the table itself\n";

static int edit_unset_all(struct da_table *tb, void *data)
{
	struct edit *e = data;
	/* All or nothing: the table is saved only if every name was there. */
	for (char **names = e->names; *names; names++) {
		int r;

		e->name = *names;
		r = edit_unset(tb, e);
		if (r < 0)
			return r;
	}
	return 0;
}

int cmd_unset(struct tool *t, int argc, char **argv)
{
	struct strv knames = {};
	struct edit e = {};
	int r;

	r = parse_edit_opts(t, argc, argv, unset_usage, &e, false, NULL);
	if (r >= 0)
		return r;
	if (optind >= argc)
		return usage_error("unset", "expected an alias name");
	e.names = argv + optind;
	if (tool_load(t, NEED_TABLE) < 0)
		return EXIT_FAIL;
	for (char **names = e.names; *names; names++)
		tool_affected(t, *names, &knames);
	r = run_edit(t, edit_unset_all, &e);
	if (r == EXIT_OK)
		tool_notify(t, &knames);
	strv_free(&knames);
	return r;
}

static int edit_rename(struct da_table *tb, void *data)
{
	struct edit *e = data;

	return da_table_rename(tb, e->name, e->newname, &e->diag);
}

static const char rename_usage[] =
	"Usage:\n"
	" diskalias rename [options] <old> <new>\n"
	"\n"
	"Rename an alias, keeping what it is bound to.\n"
	"\n"
	"Options:\n"
	"     --file <file>  rename it in this drop-in (NAME.conf: one in the table's\n"
	"                    NAME.d directory), not in the table itself\n"
	" -f, --force        rename even while the old name is in use (mounted through\n"
	"                    its link, named in fstab, crypttab, mdadm.conf or\n"
	"                    smartd.conf); the old link is kept until the device goes\n"
	"                    away or the next boot\n";

static int print_use(void *userdata, const char *file, unsigned int line, const char *what)
{
	errmsg("%s:%u: '%s' is in use: %s", file, line, (const char *)userdata, what);
	return 0;
}

int cmd_rename(struct tool *t, int argc, char **argv)
{
	const struct da_alias *a;
	struct strv knames = {};
	struct edit e = {};
	int r, uses = 0;

	r = parse_edit_opts(t, argc, argv, rename_usage, &e, true, NULL);
	if (r >= 0)
		return r;
	if (argc - optind != 2)
		return usage_error("rename", "expected the old and the new name");
	e.name = argv[optind];
	e.newname = argv[optind + 1];
	if (tool_load(t, NEED_TABLE) < 0)
		return EXIT_FAIL;
	a = da_table_find(t->table, e.name);
	if (a) {
		/* The link is spelt as the table spells the name. */
		e.name = da_alias_name(a);
		uses = da_name_find_uses(t->ctx, e.name, print_use, (void *)e.name);
		if (uses > 0 && !e.force) {
			errmsg("refusing to rename '%s' while it is in use; with --force the old link is kept until the device goes away or the next boot",
			       e.name);
			return EXIT_FAIL;
		}
		tool_affected(t, e.name, &knames);
	}
	r = run_edit(t, edit_rename, &e);
	if (r == EXIT_OK && uses > 0 && knames.n) {
		int q = da_renamed_keep(t->ctx, e.name, e.newname, knames.v[0]);

		if (q < 0)
			errmsg("cannot keep the link of '%s': %s", e.name, strerror(-q));
		else
			notemsg("/dev/disk/by-alias/%s stays on %s until it goes away or the next boot",
				e.name, knames.v[0]);
	}
	if (r == EXIT_OK)
		tool_notify(t, &knames);
	strv_free(&knames);
	return r;
}
