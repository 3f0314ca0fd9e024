// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /dev/disk/by-alias: which links a device should have, making them where
 * no udev runs (apply), and the old names a forced rename keeps. Where a
 * name is in use is uses.c's.
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

/* One line of DA_FILE_RENAMED: "OLD NEW KNAME". */
struct renamed {
	struct strv old, new, kname;
};

static void renamed_free(struct renamed *rn)
{
	strv_free(&rn->old);
	strv_free(&rn->new);
	strv_free(&rn->kname);
}

static int renamed_load(const struct da_ctx *ctx, struct renamed *rn)
{
	_cleanup_free_ char *path = da_ctx_path(ctx, DA_FILE_RENAMED);
	_cleanup_free_ char *buf = NULL;
	char *line, *save = NULL;
	int r = 0;

	memset(rn, 0, sizeof(*rn));
	if (!path)
		return -ENOMEM;
	if (read_file(path, &buf, NULL) < 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line && r >= 0; line = strtok_r(NULL, "\n", &save)) {
		char *f[3], *fsave = NULL;

		f[0] = strtok_r(line, " \t", &fsave);
		f[1] = strtok_r(NULL, " \t", &fsave);
		f[2] = strtok_r(NULL, " \t", &fsave);
		if (!f[2] || da_name_check(f[0], NULL) < 0 || da_name_check(f[1], NULL) < 0)
			continue;
		r = strv_push(&rn->old, f[0]);
		if (r >= 0)
			r = strv_push(&rn->new, f[1]);
		if (r >= 0)
			r = strv_push(&rn->kname, f[2]);
	}
	if (r < 0)
		renamed_free(rn);
	return r;
}

/* True when @name is among @dev's names in @map. */
static bool has_name(const struct da_map *map, const struct da_device *dev, const char *name)
{
	const char *n;

	for (size_t i = 0; (n = da_map_device_name(map, dev, i)); i++)
		if (strcasecmp(n, name) == 0)
			return true;
	return false;
}

/* Append to @names the old names @rn keeps for @dev, as long as the table does not use them. */
static int kept_names(const struct renamed *rn, const struct da_map *map,
		      const struct da_device *dev, struct strv *names)
{
	const struct da_device *disk = da_device_parent(dev);
	int r = 0;

	for (size_t i = 0; r >= 0 && i < rn->old.n; i++) {
		char *name = NULL;

		if (da_map_find_alias(map, rn->old.v[i], NULL))
			continue;
		if (streq(rn->kname.v[i], da_device_kname(dev)) && has_name(map, dev, rn->new.v[i]))
			name = strdup(rn->old.v[i]);
		else if (disk && streq(rn->kname.v[i], da_device_kname(disk)) &&
			 has_name(map, disk, rn->new.v[i]))
			name = da_partition_name(rn->old.v[i], da_device_partno(dev));
		else
			continue;
		if (!name)
			return -ENOMEM;
		if (strv_contains(names, name))
			free(name);
		else
			r = strv_consume(names, name);
	}
	return r;
}

static int link_names(const struct renamed *rn, const struct da_map *map,
		      const struct da_device *dev, struct strv *names)
{
	const char *n;
	int r = 0;

	for (size_t i = 0; r >= 0 && (n = da_map_device_name(map, dev, i)); i++)
		r = strv_push(names, n);
	if (r >= 0)
		r = kept_names(rn, map, dev, names);
	/* No more than the rules can link: apply makes exactly the links udev does. */
	while (names->n > DA_LINKS_MAX)
		free(names->v[--names->n]);
	if (names->v)
		names->v[names->n] = NULL;
	return r;
}

DA_EXPORT int da_link_names(const struct da_ctx *ctx, const struct da_map *map,
			    const struct da_device *dev, char ***ret_names)
{
	struct strv names = {};
	struct renamed rn;
	int r;

	r = renamed_load(ctx, &rn);
	if (r < 0)
		return r;
	r = link_names(&rn, map, dev, &names);
	renamed_free(&rn);
	if (r < 0) {
		strv_free(&names);
		return r;
	}
	*ret_names = strv_detach(&names);
	if (!*ret_names)
		return -ENOMEM;
	return 0;
}

DA_EXPORT void da_names_free(char **names)
{
	for (char **p = names; p && *p; p++)
		free(*p);
	free(names);
}

DA_EXPORT int da_renamed_keep(const struct da_ctx *ctx, const char *oldname, const char *newname,
			      const char *kname)
{
	_cleanup_free_ char *dir = da_ctx_path(ctx, DA_FILE_RUN_DIR);
	_cleanup_free_ char *path = da_ctx_path(ctx, DA_FILE_RENAMED);
	_cleanup_free_ char *line = xasprintf("%s %s %s\n", oldname, newname, kname);
	int dfd, fd, r = 0;

	if (!dir || !path || !line)
		return -ENOMEM;
	dfd = open_private_dir(dir, true);
	if (dfd < 0)
		return dfd;
	fd = openat(dfd, path_basename(path), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW,
		    0644);
	close(dfd);
	if (fd < 0)
		return -errno;
	/* One short write with O_APPEND: concurrent renames do not mix lines. */
	if (write(fd, line, strlen(line)) != (ssize_t)strlen(line))
		r = errno ? -errno : -EIO;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

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
	struct hashmap want;	/* link name -> target */
	struct strv names, targets;	/* storage of want's keys and values */
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

		r = link_names(rn, a->map, d, &names);
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

/* Keep only the records of DA_FILE_RENAMED whose device is still there under its new name. */
static int prune_renamed(struct apply *a, const struct renamed *rn)
{
	const struct da_devlist *list = da_map_devlist(a->map);
	_cleanup_free_ char *dir = da_ctx_path(a->ctx, DA_FILE_RUN_DIR);
	_cleanup_free_ char *path = da_ctx_path(a->ctx, DA_FILE_RENAMED);
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	FILE *f;
	int dfd, r;

	if (!dir || !path)
		return -ENOMEM;
	if (rn->old.n == 0)
		return 0;
	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < rn->old.n; i++) {
		const struct da_device *d = da_devlist_find_kname(list, rn->kname.v[i]);

		if (!d || !has_name(a->map, d, rn->new.v[i]) || da_map_find_alias(a->map, rn->old.v[i], NULL))
			continue;
		fprintf(f, "%s %s %s\n", rn->old.v[i], rn->new.v[i], rn->kname.v[i]);
	}
	if (fclose(f) != 0)
		return -ENOMEM;
	/* Written inside root's own directory, never through a link planted there. */
	dfd = open_private_dir(dir, false);
	if (dfd < 0)
		return dfd;
	if (len)
		r = replace_file_at(dfd, path_basename(path), text, len, 0644, -1, -1, false);
	else
		r = unlinkat(dfd, path_basename(path), 0) < 0 && errno != ENOENT ? -errno : 0;
	close(dfd);
	return r;
}

DA_EXPORT int da_apply(const struct da_ctx *ctx, const struct da_map *map, da_apply_fn report,
		       void *userdata, struct da_diag *diag)
{
	struct apply a = { .ctx = ctx, .map = map, .report = report, .userdata = userdata,
			   .diag = diag };
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
			da_diag_add(diag, a.dir, 0, false,
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
	if (r >= 0 && (q = prune_renamed(&a, &rn)) < 0)
		r = q;
	renamed_free(&rn);
	hashmap_free(&a.want);
	strv_free(&a.names);
	strv_free(&a.targets);
	free(a.dir);
	return r;
}
