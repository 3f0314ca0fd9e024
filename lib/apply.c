// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * apply: /dev/disk/by-alias links and the kernel's alias attribute made
 * where no udev runs, exactly as the rules would. Which names a device
 * links is renamed.c's (da_link_names()); where a name is in use, uses.c's.
 *
 * Which links are ours: a link in by-alias whose target is "../../NODE",
 * NODE a device node name (no "..", not absolute) - the form udev gives the
 * links our rules ask for and the form apply makes. Anything else in the
 * directory (a file, a link elsewhere) is somebody else's and left alone.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include "hashmap.h"
#include "internal.h"

/* The target of a by-alias link to kernel device @kname: "../../sdc", "../../cciss/c0d0". */
static char *link_target(const char *kname)
{
	_cleanup_free_ char *node = da_devnode(kname);

	return node ? xasprintf("../..%s", node + strlen("/dev")) : NULL;
}

/* True when @target is of the form our links have (see the top of this file). */
static bool target_is_ours(const char *target)
{
	const char *rest = target;

	if (strncmp(rest, "../../", 6) != 0)
		return false;
	rest += 6;
	return *rest && *rest != '/' && !strstr(rest, "..");
}

struct apply {
	const struct da_ctx *ctx;
	const struct da_map *map;
	char *dir;
	struct hashmap want;	    /* link name -> target */
	struct strv names, targets; /* storage of want's keys and values */
	da_apply_fn report;
	void *userdata;
	struct da_diag *diag;
};

static int want_links(struct apply *a, const struct renamed *rn)
{
	const struct da_devlist *list = da_map_devlist(a->map);
	int r = 0;

	for (size_t i = 0; r >= 0 && i < da_devlist_count(list); i++) {
		const struct da_device *d = da_devlist_get(list, i);
		struct strv names = {};

		r = renamed_link_names(rn, a->map, d, &names);
		for (size_t k = 0; r >= 0 && k < names.n; k++) {
			if (hashmap_get(&a->want, names.v[k]))
				continue;
			r = strv_push(&a->names, names.v[k]);
			if (r >= 0)
				r = strv_consume(&a->targets, link_target(da_device_kname(d)));
			if (r >= 0)
				r = hashmap_put(&a->want, a->names.v[a->names.n - 1],
						a->targets.v[a->targets.n - 1]);
		}
		strv_free(&names);
	}
	return r;
}

/* Point link @name at @target: a new link renamed over the old, never a moment without one. */
static int make_link(struct apply *a, const char *name, const char *target)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", a->dir, name);
	_cleanup_free_ char *tmp = xasprintf("%s/.%s.diskalias-new", a->dir, name);
	_cleanup_free_ char *old = NULL;
	struct stat st;
	int r;

	if (!path || !tmp)
		return -ENOMEM;
	old = read_link(path);
	if (streq(old, target))
		return 0;
	if ((!old && lstat(path, &st) == 0) || (old && !target_is_ours(old))) {
		return da_diag_add(a->diag, path, 0, true,
				   "not a link diskalias makes; left alone (alias '%s' has no link)",
				   name);
	}
	unlink(tmp);
	if (symlink(target, tmp) < 0 || rename(tmp, path) < 0) {
		r = -errno;
		unlink(tmp);
		da_diag_add(a->diag, path, 0, false, "cannot make the link: %s", strerror(-r));
		return r;
	}
	if (a->report)
		a->report(a->userdata, old ? DA_APPLY_LINK_UPDATED : DA_APPLY_LINK_CREATED, name,
			  target + strlen("../../"));
	return 0;
}

/* Remove our links that no name wants any more, in name order. */
static int remove_stale(struct apply *a)
{
	struct strv stale = {};
	struct dirent *de;
	DIR *dp = opendir(a->dir);
	int r = 0;

	if (!dp)
		return -errno;
	while (r >= 0 && (de = readdir(dp))) {
		_cleanup_free_ char *path = NULL, *target = NULL;

		if (streq(de->d_name, ".") || streq(de->d_name, "..") ||
		    hashmap_get(&a->want, de->d_name))
			continue;
		path = xasprintf("%s/%s", a->dir, de->d_name);
		target = path ? read_link(path) : NULL;
		if (target && target_is_ours(target))
			r = strv_push(&stale, de->d_name);
	}
	closedir(dp);
	strv_sort(&stale);
	for (size_t i = 0; r >= 0 && i < stale.n; i++) {
		_cleanup_free_ char *path = xasprintf("%s/%s", a->dir, stale.v[i]);
		_cleanup_free_ char *target = path ? read_link(path) : NULL;

		if (!target)
			continue;
		if (unlink(path) < 0) {
			r = -errno;
			da_diag_add(a->diag, path, 0, false, "cannot remove: %s", strerror(-r));
			continue;
		}
		/* A leftover of an interrupted apply is not worth a line. */
		if (a->report && stale.v[i][0] != '.')
			a->report(a->userdata, DA_APPLY_LINK_REMOVED, stale.v[i],
				  target + strlen("../../"));
	}
	strv_free(&stale);
	return r;
}

/* The kernel's alias attribute of every present disk that has one: its primary name, or empty. */
static int write_attrs(struct apply *a)
{
	const struct da_devlist *list = da_map_devlist(a->map);
	int r = 0;

	for (size_t i = 0; i < da_devlist_count(list); i++) {
		const struct da_device *d = da_devlist_get(list, i);
		const char *name = da_map_device_name(a->map, d, 0);
		_cleanup_free_ char *dir = NULL, *path = NULL, *cur = NULL, *line = NULL;
		int q;

		if (da_device_devtype(d) != DA_DEV_DISK)
			continue;
		dir = da_ctx_sys(a->ctx, "class/block/%s", da_device_kname(d));
		path = dir ? xasprintf("%s/alias", dir) : NULL;
		if (!path)
			return -ENOMEM;
		if (access(path, F_OK) < 0)
			continue;
		cur = read_attr(dir, "alias");
		if (streq(cur ? cur : "", name ? name : ""))
			continue;
		/* The kernel drops a trailing newline; an empty write would not reach it. */
		line = xasprintf("%s\n", name ? name : "");
		q = line ? write_string(path, line) : -ENOMEM;
		if (q < 0) {
			da_diag_add(a->diag, path, 0, false, "cannot write: %s", strerror(-q));
			r = q;
			continue;
		}
		if (a->report)
			a->report(a->userdata, name ? DA_APPLY_ATTR_SET : DA_APPLY_ATTR_CLEARED,
				  name ? name : cur, da_device_kname(d));
	}
	return r;
}

DA_EXPORT int da_apply(const struct da_ctx *ctx, const struct da_map *map, da_apply_fn report,
		       void *userdata, struct da_diag *diag)
{
	struct apply a = {
		.ctx = ctx, .map = map, .report = report, .userdata = userdata, .diag = diag
	};
	struct renamed rn = {};
	int r, q;

	hashmap_init(&a.want, false);
	a.dir = da_ctx_path(ctx, DA_FILE_BY_ALIAS);
	r = a.dir ? renamed_load(ctx, &rn) : -ENOMEM;
	if (r >= 0)
		r = want_links(&a, &rn);
	if (r >= 0) {
		/* Links go into a directory of root's own, never through one planted as a symlink. */
		r = open_private_dir(a.dir, true);
		if (r == -EPERM)
			da_diag_add(
				diag, a.dir, 0, false,
				"a symlink, or a directory others can write; refusing to make links there");
		else if (r < 0)
			da_diag_add(diag, a.dir, 0, false, "cannot create: %s", strerror(-r));
		else
			r = close(r);
	}
	for (size_t i = 0; r >= 0 && i < a.names.n; i++) {
		q = make_link(&a, a.names.v[i], a.targets.v[i]);
		if (q == -ENOMEM)
			r = q;
	}
	if (r >= 0 && (q = remove_stale(&a)) < 0)
		r = q;
	if (r >= 0 && (q = write_attrs(&a)) < 0)
		r = q;
	if (r >= 0 && (q = renamed_prune(ctx, map, &rn)) < 0)
		r = q;
	renamed_free(&rn);
	hashmap_free(&a.want);
	strv_free(&a.names);
	strv_free(&a.targets);
	free(a.dir);
	return r;
}
