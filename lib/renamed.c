// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The old names a forced rename keeps (DA_FILE_RENAMED, "OLD NEW KNAME" a
 * line): while the device is there under its new name and the table does
 * not give the old name to another, the old name stays one of its links,
 * so a path in fstab or a script keeps working until the next boot. Which
 * links a device should have is decided here (da_link_names()); making
 * them is apply.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "internal.h"

int renamed_load(const struct da_ctx *ctx, struct renamed *rn)
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
	for (line = strtok_r(buf, "\n", &save); line && r >= 0;
	     line = strtok_r(NULL, "\n", &save)) {
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

int renamed_link_names(const struct renamed *rn, const struct da_map *map,
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
	struct ctx_batch *batch = da_ctx_batch(ctx);
	struct strv names = {};
	struct renamed rn, *kept = batch ? &batch->renamed : &rn;
	int r;

	/* In a batch the records are read for the first device and kept. */
	if (!batch || !batch->renamed_read) {
		r = renamed_load(ctx, kept);
		if (r < 0)
			return r;
		if (batch)
			batch->renamed_read = true;
	}
	r = renamed_link_names(kept, map, dev, &names);
	if (!batch)
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
	fd = openat(dfd, path_basename(path),
		    O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
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

/* Keep only the records of DA_FILE_RENAMED whose device is still there under its new name. */
int renamed_prune(const struct da_ctx *ctx, const struct da_map *map, const struct renamed *rn)
{
	const struct da_devlist *list = da_map_devlist(map);
	_cleanup_free_ char *dir = da_ctx_path(ctx, DA_FILE_RUN_DIR);
	_cleanup_free_ char *path = da_ctx_path(ctx, DA_FILE_RENAMED);
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

		if (!d || !has_name(map, d, rn->new.v[i]) ||
		    da_map_find_alias(map, rn->old.v[i], NULL))
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
