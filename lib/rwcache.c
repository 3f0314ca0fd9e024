// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The rewriter of the last filter, kept in run/diskalias/rewriter-MODE, so
 * that the next one starts without reading the table and the devices and
 * building the rewriter from them: at 10,000 disks that is a tenth of a
 * second before the first byte, where mapping the kept one back is a few
 * milliseconds. A dmesg-sized input is all start-up.
 *
 * A kept rewriter is used only while nothing it was built from can have
 * changed, and that is read before the table and the devices are (a change
 * in between leaves it stale, never wrong):
 *
 * - the devices, by the stamp of the device snapshot (devcache.c): the
 *   kernel's uevent count and udev's entries and links;
 * - the table: which files (the table and its drop-ins), their times and
 *   their bytes, for an edit within one tick of the clock keeps a file's
 *   times;
 * - who reads (a table root may not trust is one its owner may), the mode,
 *   and the library's version and this format's.
 *
 * Only a rewriter built from a table and a scan that said nothing wrong is
 * kept (the caller's promise to da_rewriter_keep()), so a kept one never
 * hides a bad line: a table with a problem is read, and told, every time.
 * The file is checked as the snapshot is (the caller's or root's, in a
 * directory only its owner can write, no link) and every offset in it
 * before use (rewrite.c). Host byte order: it never leaves the machine.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "device.h"

/*
 * The format's version is in its magic: a new format does not read an old
 * file. The key has the package's version too; a change to what names a
 * map yields (rewrite.c's add_*()) that is not released yet changes the
 * magic, so no build reads a rewriter an older build kept.
 */
static const char rwcache_magic[8] = "DARWC02";

struct rwcache_header {
	char magic[8];
	uint64_t seqnum, udev; /* the devices' stamp, devcache_stamp() */
	uint64_t table;	       /* da_table_stamp() */
	uint64_t len;	       /* of the whole file */
	uint32_t euid, mode;
	char version[16]; /* PACKAGE_VERSION */
};

_Static_assert(sizeof(struct rwcache_header) == 64,
	       "the header is compared with memcmp() and the image after it is 8-aligned");

/* Larger rewriters are built each time. */
#define RWCACHE_MAX_LEN (256UL << 20)

static const char *const mode_names[] = {
	[DA_REWRITE_ALIAS] = "alias",
	[DA_REWRITE_ANNOTATE] = "annotate",
	[DA_REWRITE_REVERSE] = "reverse",
};

/* The header a rewriter of @mode for table @table_path kept now would have; len 0. */
static int key(const struct da_ctx *ctx, const char *table_path, enum da_rewrite_mode mode,
	       struct rwcache_header *h)
{
	struct devcache_stamp stamp;
	int r;

	memset(h, 0, sizeof(*h));
	memcpy(h->magic, rwcache_magic, sizeof(h->magic));
	/* The devices first: the table is read before them, so its stamp may come later. */
	r = devcache_stamp(ctx, &stamp);
	if (r < 0)
		return r;
	r = da_table_stamp(table_path, &h->table);
	if (r < 0)
		return r;
	h->seqnum = stamp.seqnum;
	h->udev = stamp.udev;
	h->euid = geteuid();
	h->mode = mode;
	strncpy(h->version, PACKAGE_VERSION, sizeof(h->version) - 1);
	return 0;
}

/* The file's directory and name for @mode. */
static int paths(const struct da_ctx *ctx, enum da_rewrite_mode mode, char **ret_dir,
		 char **ret_name)
{
	_cleanup_free_ char *path = da_ctx_path(ctx, DA_FILE_REWRITER);

	*ret_dir = da_ctx_path(ctx, DA_FILE_RUN_DIR);
	*ret_name = path ? xasprintf("%s-%s", path_basename(path), mode_names[mode]) : NULL;
	return *ret_dir && *ret_name ? 0 : -ENOMEM;
}

DA_EXPORT int da_rewriter_open_kept(struct da_ctx *ctx, const char *table_path,
				    enum da_rewrite_mode mode, da_rewrite_write_fn write,
				    void *userdata, struct da_rewriter **ret_rw)
{
	struct rwcache_header **pending = (struct rwcache_header **)da_ctx_rwcache(ctx);
	_cleanup_free_ char *dir = NULL, *name = NULL;
	struct rwcache_header want, h;
	size_t len;
	void *map;
	int r;

	free(*pending);
	*pending = NULL;
	if ((unsigned int)mode >= ARRAY_SIZE(mode_names))
		return -EINVAL;
	r = key(ctx, table_path, mode, &want);
	/* Nothing to check a kept rewriter by (no uevent count): built each time. */
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	*pending = malloc(sizeof(want));
	if (!*pending || paths(ctx, mode, &dir, &name) < 0)
		return -ENOMEM;
	**pending = want;
	map = map_private_file(dir, name, sizeof(h), RWCACHE_MAX_LEN, &len);
	if (!map)
		return 0;
	memcpy(&h, map, sizeof(h));
	want.len = len;
	if (memcmp(&h, &want, sizeof(h))) {
		munmap(map, len);
		return 0;
	}
	r = rewriter_from_image(map, len, sizeof(h), mode, write, userdata, ret_rw);
	return r == 0 ? 1 : r == -ENOMEM ? r : 0;
}

DA_EXPORT void da_rewriter_keep(struct da_ctx *ctx, const struct da_rewriter *rw)
{
	struct rwcache_header **pending = (struct rwcache_header **)da_ctx_rwcache(ctx);
	_cleanup_free_ struct rwcache_header *h = *pending;
	_cleanup_free_ char *dir = NULL, *name = NULL;
	struct strbuf sb = STRBUF_INIT;
	int dfd;

	*pending = NULL;
	if (!h || h->mode != rewriter_mode(rw) || paths(ctx, h->mode, &dir, &name) < 0)
		return;
	/* Where run/ cannot be written, or is not the caller's own, nothing is kept. */
	dfd = open_private_dir(dir, true);
	if (dfd < 0)
		return;
	if (strbuf_add(&sb, h, sizeof(*h)) >= 0 && rewriter_image(rw, &sb) >= 0 &&
	    sb.len < RWCACHE_MAX_LEN) {
		h->len = sb.len;
		memcpy(sb.buf, h, sizeof(*h));
		replace_file_at(dfd, name, sb.buf, sb.len, 0644, -1, -1, false);
	}
	strbuf_release(&sb);
	close(dfd);
}

/* Whether @kname is the name of a block device now. */
static bool is_block(const struct da_ctx *ctx, const char *kname)
{
	_cleanup_free_ char *path = NULL;
	struct stat st;

	if (!*kname || strchr(kname, '/') || streq(kname, ".") || streq(kname, ".."))
		return false;
	path = da_ctx_sys(ctx, "class/block/%s", kname);
	return path && lstat(path, &st) == 0;
}

/*
 * Only what da_map_lookup() would take the same way: a block device's
 * kernel name or node (not a handle, a SCSI address or a partition that is
 * not there), and an alias that is no kernel name whose device is a block
 * device now (not a list of a controller's disks).
 */
DA_EXPORT int da_rewriter_query(const struct da_ctx *ctx, const struct da_rewriter *rw,
				const char *arg, char **ret)
{
	const char *kname = da_dev_strip(arg) ?: arg;
	_cleanup_free_ char *to = NULL;

	*ret = NULL;
	if (rewriter_mode(rw) == DA_REWRITE_ALIAS) {
		if (!is_block(ctx, kname) || !(to = rewriter_lookup(rw, kname)))
			return 0;
		*ret = to;
		to = NULL;
		return 1;
	}
	if (rewriter_mode(rw) != DA_REWRITE_REVERSE || strchr(arg, '/') || is_block(ctx, arg) ||
	    !(to = rewriter_lookup(rw, arg)) || !is_block(ctx, to))
		return 0;
	*ret = da_devnode(to);
	return *ret ? 1 : -ENOMEM;
}
