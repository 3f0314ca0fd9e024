// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * diskalias udev: the helper udev rules import, once per block device and
 * event. diskalias apply: the same links where no udev runs. And what the
 * table edits share with them: telling udev which devices changed.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "hashmap.h"
#include "tool.h"

extern char **environ;

static const char udev_usage[] =
	"Usage:\n"
	" diskalias udev <device>\n"
	" diskalias udev --boot\n"
	"\n"
	"For udev rules (IMPORT{program}): print DISKALIAS=<primary alias>,\n"
	"DISKALIAS_ALL=<every alias> and DISKALIAS_1=<alias>, DISKALIAS_2=... each\n"
	"of the kernel device <device> (sdc, sdc1), found from the ID_* properties\n"
	"udev passes in the environment; nothing when it has no alias. Writes the\n"
	"record \"diskalias: sdc is bay07 (wwn:...)\" to the kernel log.\n"
	"\n"
	"Options:\n"
	"     --boot  before the coldplug (diskalias-boot.service): the same for every\n"
	"             disk and partition whose add event sysfs tells (a WWN, where the\n"
	"             table binds only by wwn: and slot:), in run/diskalias/boot for\n"
	"             the rules, so that no helper runs for it\n";

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
		/* Names told before the coldplug did not know of the other device. */
		da_udev_boot_forget(t->ctx);
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

/*
 * What the helper does for kernel device @kname, udev's properties in
 * @env: print its names to @out (DISKALIAS=...), none of an identity
 * another device shares, and log the naming in the kernel log unless the
 * event is the kernel's announcement of it (@marker is its
 * DISK_ALIAS_CHANGE, @kalias its ALIAS). Fills t->list, t->table and t->map
 * for this device; *@ret_refused says a name was refused (an identity
 * found shared). Its bay is read unless @no_slots (the table binds none).
 * Returns EXIT_OK or EXIT_FAIL (said).
 */
static int name_device(struct tool *t, const char *kname, char **env, const char *marker,
		       const char *kalias, FILE *out, bool no_slots, bool *ret_refused)
{
	const char *name;
	const struct da_alias *a;
	struct da_device *dev;
	struct strv refused = {}, keep = {};
	_cleanup_free_ char *all = NULL;
	char **names = NULL;
	int r;

	r = da_devlist_from_udev(kname, env, &t->list);
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
	if (r >= 0 && !no_slots && da_devlist_read_slots(t->ctx, t->list) < 0)
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
		fprintf(out, "DISKALIAS=%s\nDISKALIAS_ALL=%s\n", keep.v[0], all);
		/* One variable per name: the rules make a link of each. */
		for (size_t i = 0; i < keep.n; i++)
			fprintf(out, "DISKALIAS_%zu=%s\n", i + 1, keep.v[i]);
	}
	strv_free(&keep);
	da_names_free(names);

	for (size_t i = 0; (name = da_map_device_name(t->map, dev, i)); i++) {
		if (strv_contains(&refused, name))
			continue;
		a = da_map_device_alias(t->map, dev, i);
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
	*ret_refused = refused.n > 0;
	strv_free(&refused);
	return EXIT_OK;
}

/*
 * The table binds every name by a WWN or a bay, both told from sysfs
 * before udev runs: a line of another kind needs what only udev finds (a
 * serial from the disk, a filesystem UUID, a by-id link), so no name can
 * be told ahead. Returns the first such line's alias, or NULL;
 * *@ret_slots says whether a line before it binds a bay.
 */
static const struct da_alias *udev_only_line(const struct da_table *table, bool *ret_slots)
{
	*ret_slots = false;
	for (size_t i = 0; i < da_table_count(table); i++) {
		const struct da_alias *a = da_table_get(table, i);

		*ret_slots |= da_alias_kind(a) == DA_ID_SLOT;
		if (da_alias_kind(a) != DA_ID_WWN && da_alias_kind(a) != DA_ID_SLOT)
			return a;
	}
	return NULL;
}

/* The first 16 hex digits of the WWN of every disk of @list: a WWN that two disks share. */
static int count_wwns(const struct da_devlist *list, struct hashmap *seen)
{
	for (size_t i = 0; i < da_devlist_count(list); i++) {
		const struct da_device *d = da_devlist_get(list, i);
		const char *w = da_device_wwn(d);
		size_t n = w ? strnlen(w, 18) : 0;
		uintptr_t c;

		if (!n || da_device_devtype(d) != DA_DEV_DISK)
			continue;
		c = (uintptr_t)hashmap_getn(seen, w, n);
		if (hashmap_putn(seen, w, n, (void *)(c + 1)) < 0)
			return -ENOMEM;
	}
	return 0;
}

/*
 * Write the names of the disk of @env to file @key of the directory open
 * as @dfd, which becomes DA_FILE_BOOT_DIR once whole (none is an answer
 * too: no helper runs for it). Returns 2 when it has a name, 1 when
 * written without, 0 when a name was refused (an identity, a bay most
 * often, found on a device told before), or a negative errno.
 */
static int boot_disk(struct tool *t, int dfd, const char *kname, char **env, const char *key,
		     bool no_slots)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool refused = false;
	int r;

	if (!f) {
		errmsg("out of memory");
		return -ENOMEM;
	}
	r = name_device(t, kname, env, NULL, NULL, f, no_slots, &refused);
	if (fclose(f) != 0 && r == EXIT_OK) {
		errmsg("out of memory");
		r = EXIT_FAIL;
	}
	/* The next device is looked up on its own, as by a helper of its own. */
	tool_unload(t);
	if (r != EXIT_OK)
		return -EIO;
	if (refused)
		return 0;
	/* A new file in a directory no reader sees yet: no temporary file and rename for it. */
	r = openat(dfd, key, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (r >= 0) {
		int fd = r;

		r = write_all(fd, buf, len);
		if (close(fd) < 0 && r >= 0)
			r = -errno;
	} else {
		r = -errno;
	}
	if (r < 0) {
		errmsg("%s: cannot write its names for udev: %s", kname, strerror(-r));
		return r;
	}
	return len ? 2 : 1;
}

/*
 * diskalias udev --boot: before the coldplug, the names of every present
 * disk whose add event can be told from sysfs, each in a file the rules
 * import instead of running the helper (da_udev_boot_env()).
 */
static int udev_boot(struct tool *t)
{
	_cleanup_free_ char *dir = NULL, *tmp = NULL;
	char *base = NULL;
	struct hashmap seen;
	struct da_devlist *scan = NULL;
	const struct da_alias *other;
	struct da_diag diag = {};
	bool slots, no_slots;
	size_t told = 0, named = 0, left = 0;
	bool shared = false;
	int rundfd = -1, dfd = -1, r;
	mode_t mask;

	if (tool_load(t, NEED_TABLE) < 0)
		return EXIT_FAIL;
	da_udev_log_problems(t->ctx, t->table_path, &t->table_diag);
	/* Whatever is there is of another table or another boot. */
	r = da_udev_boot_forget(t->ctx);
	if (r < 0) {
		errmsg("cannot remove the names of a previous run: %s", strerror(-r));
		return EXIT_FAIL;
	}
	other = udev_only_line(t->table, &slots);
	no_slots = !slots;
	if (other) {
		printf("boot: %s binds %s, which only udev finds: every disk is named at its own "
		       "event\n",
		       da_alias_name(other), da_alias_identity(other));
		return EXIT_OK;
	}
	hashmap_init(&seen, true);
	/* What the table binds by (wwn:, slot:) is in sysfs: udev's database is not read. */
	r = da_devlist_scan_with(t->ctx, DA_SCAN_NO_UDEV, &diag, &scan);
	/* A device sysfs does not show whole is not told: its helper says why. */
	print_diag(&diag);
	da_diag_clear(&diag);
	if (r >= 0)
		r = count_wwns(scan, &seen);
	/*
	 * The index the helpers read, made now if it is missing or stale: making
	 * it removes the names told from an older table, which must not be the
	 * ones written below.
	 */
	if (r >= 0) {
		struct da_table *indexed = NULL;

		/* Its problems were said when the table was read above. */
		r = da_table_load_indexed(t->ctx, t->table_path, scan, DA_INDEX_WRITE, &diag,
					  &indexed);
		da_table_free(indexed);
		da_diag_clear(&diag);
	}
	/*
	 * The names are written in a new directory beside DA_FILE_BOOT_DIR,
	 * renamed to it once whole: udev, which may already be running, sees
	 * every file whole or none, without a temporary file for each.
	 */
	dir = r >= 0 ? da_ctx_path(t->ctx, DA_FILE_BOOT_DIR) : NULL;
	base = dir ? strrchr(dir, '/') : NULL;
	if (r >= 0 && !base)
		r = -ENOMEM;
	if (r >= 0) {
		*base++ = '\0';
		r = rundfd = open_private_dir(dir, true);
		if (r >= 0)
			r = temp_dir_at(rundfd, base, &tmp);
		if (r >= 0) {
			dfd = openat(rundfd, tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			r = dfd < 0 ? -errno : 0;
		}
		if (r < 0) {
			errmsg("%s: %s", dir, strerror(-r));
			r = -EIO;
		}
	}
	tool_unload(t);
	/* One device after another, as their helpers would: what they all open stays open. */
	da_ctx_set_batch(t->ctx, true);
	mask = umask(022);
	for (size_t i = 0; r >= 0 && !shared && i < da_devlist_count(scan); i++) {
		const struct da_device *d = da_devlist_get(scan, i);
		const struct da_device *disk = da_device_parent(d) ? da_device_parent(d) : d;
		const char *w = da_device_wwn(disk);
		_cleanup_free_ char *key = NULL;
		char **env = NULL;
		int k;

		k = da_udev_boot_env(t->ctx, d, &env, &key);
		if (k > 0 && (uintptr_t)hashmap_getn(&seen, w, strnlen(w, 18)) == 1) {
			k = boot_disk(t, dfd, da_device_kname(d), env, key, no_slots);
			shared = k == 0;
		} else if (k > 0) {
			k = 0;
		}
		da_names_free(env);
		if (k < 0)
			r = k;
		told += k > 0;
		named += k > 1;
		left += k == 0;
	}
	umask(mask);
	da_ctx_set_batch(t->ctx, false);
	/* Whole: it becomes the directory the rules read, in one rename. */
	if (r >= 0 && !shared &&
	    (fchmod(dfd, 0755) < 0 || remove_dir_at(rundfd, base) < 0 ||
	     renameat(rundfd, tmp, rundfd, base) < 0)) {
		r = -errno;
		errmsg("%s/%s: %s", dir, base, strerror(-r));
		r = -EIO;
	}
	/* Half a set would do no harm (each file stands alone), but say it all or nothing. */
	if (tmp && (r < 0 || shared))
		remove_dir_at(rundfd, tmp);
	if (dfd >= 0)
		close(dfd);
	if (rundfd >= 0)
		close(rundfd);
	hashmap_free(&seen);
	da_devlist_free(scan);
	if (r < 0) {
		if (r != -EIO)
			errmsg("boot: %s", strerror(-r));
		return EXIT_FAIL;
	}
	/*
	 * An identity two devices share, which the WWNs did not show (two
	 * enclosures reporting one id give two disks one bay): a device told
	 * before may carry it too, so none is told, and each helper says why.
	 */
	if (shared) {
		printf("boot: an identity is on more than one device (see the kernel log): every "
		       "disk is named at its own event\n");
		return EXIT_OK;
	}
	printf("boot: %zu disks and partitions told for the coldplug (%zu with a name), %zu left "
	       "to the helper\n",
	       told, named, left);
	return EXIT_OK;
}

int cmd_udev(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "boot", no_argument, NULL, 'B' },
		GLOBAL_LONG_OPTS,
		{},
	};
	const char *kname;
	bool boot = false, refused;
	int c, r;

	while ((c = getopt_long(argc, argv, GLOBAL_SHORT_OPTS, opts, NULL)) != -1) {
		switch (c) {
		case 'B':
			boot = true;
			break;
		default:
			r = tool_common_option(t, c, udev_usage);
			if (r >= 0)
				return r;
		}
	}
	if (boot) {
		if (optind != argc)
			return usage_error("udev", "--boot takes no device");
		return udev_boot(t);
	}
	if (argc - optind != 1)
		return usage_error("udev", "expected one device");
	kname = argv[optind];
	if (strncmp(kname, "/dev/", 5) == 0)
		kname += 5;
	if (!*kname || strchr(kname, '/'))
		return usage_error("udev", "'%s' is not a kernel device name (sdc, sdc1)",
				   argv[optind]);
	return name_device(t, kname, environ, getenv("DISK_ALIAS_CHANGE"), getenv("ALIAS"), stdout,
			   false, &refused);
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
