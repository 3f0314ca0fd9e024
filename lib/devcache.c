// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The devices of the last scan, kept in run/diskalias/devices, so that a
 * command that names a few disks (filter, name, resolve) does not read the
 * place and udev entry of every disk first: at 1,000 SAS disks that is
 * 50,000 calls and a quarter of a second before the first byte.
 *
 * A snapshot is used only while nothing it was made of can have changed,
 * and that is told in two reads, however many disks there are:
 *
 * - the kernel's uevent count (sys/kernel/uevent_seqnum). The kernel sends
 *   a uevent, and counts it, for every device it adds or removes and every
 *   change of one: a disk or partition, a new path to a WWN, a dm table or
 *   name, a size, a medium (whose new diskseq comes with a uevent too).
 *   Checking each disk's diskseq instead would cost a read per disk and
 *   still miss a disk that comes back under a name another had (a second
 *   path to the same WWN makes the first bind nothing: that must be seen).
 * - udev's view: the database directory and the /dev/disk link
 *   directories, whose times change whenever udev writes or removes an
 *   entry or a link (it replaces files by renaming them into place).
 *
 * Both are read before the scan the snapshot is made of: a change during
 * the scan leaves the snapshot stale (and so unused), never wrong. Where
 * the kernel has no count (or a recorded machine has none) every command
 * scans, as before.
 *
 * A snapshot says which details (DA_SCAN_*) its scan read, and whether it
 * read udev's database (not under DA_SCAN_NO_UDEV): it answers a scan that
 * asks for no more. What `list` shows besides names comes with
 * a uevent too when it changes (a new size since Linux 5.11, a read-only
 * flag since 5.12, a dm table), except the members of an md array, which
 * mdadm can add or remove without one: a scan for them is not answered
 * from a snapshot that holds an array.
 *
 * The file is the caller's own, or root's when read by another user, in a
 * directory only its owner can write; anything else is not read. It is in
 * host byte order: it never leaves the machine that made it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "device.h"

/* The format's version is in its magic: a new format does not read an old file. */
static const char devcache_magic[8] = "DADEV06";

/* Larger snapshots are not kept (a machine of a million block devices scans). */
#define DEVCACHE_MAX_LEN (256UL << 20)

int devcache_stamp(const struct da_ctx *ctx, struct devcache_stamp *ret)
{
	_cleanup_free_ char *seqpath = da_ctx_sys(ctx, "kernel/uevent_seqnum");
	_cleanup_free_ char *data = da_ctx_udev_data(ctx);
	_cleanup_free_ char *disk = da_ctx_dev(ctx, "disk");
	_cleanup_free_ char *text = NULL;
	uint64_t h = 0xcbf29ce484222325ULL;
	char *end;
	size_t len;

	if (!seqpath || !data || !disk || read_file(seqpath, &text, &len) < 0)
		return -ENOENT;
	errno = 0;
	ret->seqnum = strtoull(text, &end, 10);
	if (errno || end == text || (*end && *end != '\n'))
		return -ENOENT;
	h = da_stamp_file(h, data);
	h = da_stamp_file(h, disk);
	for (int k = 0; k < _DA_ID_MAX; k++) {
		const char *kdir = da_id_kind_dir(k);
		_cleanup_free_ char *p = kdir ? da_ctx_dev(ctx, "disk/%s", kdir) : NULL;

		if (kdir && !p)
			return -ENOENT;
		if (p)
			h = da_stamp_file(h, p);
	}
	ret->udev = h;
	return 0;
}

/*
 * Writing: numbers as they are in memory; a device's strings as offsets
 * into its text, each string once and none that ends one already there
 * (device.c's packer), so that the devices read back point into the file
 * itself: at 10,000 SAS disks the file is a third smaller than with each
 * string on its own. The records come first, the texts after them from a
 * page of their own: once the records are read, their pages are unmapped
 * (a third of the file), and only the texts the devices point into stay.
 */

#define NO_STRING UINT32_MAX

/* A device's record before its offsets and text. */
struct snap_device {
	uint32_t major, minor, devtype, partno;
	uint32_t flags;	 /* 1: removable, 2: read-only */
	uint32_t parent; /* by its place, 1-based (0: none): the list has it before its partitions */
	uint64_t size;
	uint32_t text;		      /* bytes of its text, the last a NUL */
	uint16_t lend[_DEV_LIST_MAX]; /* as struct da_device's */
	uint32_t strs[12];	      /* place_device()'s fields: offsets, or NO_STRING */
};

/*
 * Place every string of @d with @p: its lists' into @lists (list k from
 * lend[k - 1]), in device_pack()'s order; then its fields into @strs, in
 * the order get_device() reads them.
 */
static void place_device(struct packer *p, const struct da_device *d, const uint16_t *lend,
			 const char **lists, const char **strs)
{
	const char *const fields[] = { d->kname,   d->syspath,	  d->model, d->serial,
				       d->wwn,	   d->dm_name,	  d->hctl,  d->ata,
				       d->id_path, d->md_devname, d->type,  d->tran };

	for (unsigned int j = 0; j < _DEV_LIST_MAX; j++) {
		unsigned int k = device_place_order(j);
		struct strv v = device_list(d, k);

		for (size_t i = 0; i < v.n; i++)
			lists[(k ? lend[k - 1] : 0) + i] = packer_place(p, v.v[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		strs[i] = fields[i] ? packer_place(p, fields[i]) : NULL;
}

static int put(struct strbuf *sb, const void *p, size_t n)
{
	return strbuf_add(sb, p, n);
}

/* Where each list of @d ends among all its names, in @lend: their count, or -EFBIG past 16 bits. */
static ssize_t list_ends(const struct da_device *d, uint16_t *lend)
{
	size_t nlist = 0;

	for (unsigned int k = 0; k < _DEV_LIST_MAX; k++) {
		nlist += device_list(d, k).n;
		if (nlist > UINT16_MAX)
			return -EFBIG;
		lend[k] = nlist;
	}
	return nlist;
}

/*
 * A device: its record and its lists' offsets into @sb, its text into
 * @text_sb. get_device() reads the same order.
 */
static int put_device(struct strbuf *sb, struct strbuf *text_sb, const struct da_device *d,
		      uint64_t *nstrv)
{
	struct snap_device rec = {
		.major = d->major,
		.minor = d->minor,
		.devtype = d->devtype,
		.partno = d->partno,
		.flags = d->removable | (uint32_t)d->ro << 1,
		.parent = d->parent ? d->parent->pos + 1 : 0,
		.size = d->size,
	};
	ssize_t nlist = list_ends(d, rec.lend);
	struct packer count, place;
	const char **lists;
	const char *strs[ARRAY_SIZE(rec.strs)];
	size_t at;
	char *text;

	if (nlist < 0)
		return nlist;
	lists = malloc((nlist + 1) * sizeof(*lists));
	if (!lists)
		return -ENOMEM;
	count.n = count.bytes = count.nptr = 0;
	count.text = NULL;
	place = count;
	place_device(&count, d, rec.lend, lists, strs);
	if (count.bytes >= NO_STRING || strbuf_grow(sb, sizeof(rec) + nlist * 4) < 0 ||
	    strbuf_grow(text_sb, count.bytes) < 0) {
		free(lists);
		return count.bytes >= NO_STRING ? -EFBIG : -ENOMEM;
	}
	rec.text = count.bytes;
	at = sb->len;
	text = text_sb->buf + text_sb->len;
	place.text = text;
	place_device(&place, d, rec.lend, lists, strs);
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
		rec.strs[i] = strs[i] ? (uint32_t)(strs[i] - text) : NO_STRING;
	memcpy(sb->buf + at, &rec, sizeof(rec));
	for (ssize_t i = 0; i < nlist; i++) {
		uint32_t off = lists[i] - text;

		memcpy(sb->buf + at + sizeof(rec) + i * sizeof(off), &off, sizeof(off));
	}
	sb->len = at + sizeof(rec) + nlist * sizeof(uint32_t);
	sb->buf[sb->len] = '\0';
	text_sb->len += count.bytes;
	text_sb->buf[text_sb->len] = '\0';
	*nstrv += nlist;
	free(lists);
	return 0;
}

int devcache_image(const struct devcache_stamp *stamp, unsigned int details,
		   const struct da_devlist *list, struct strbuf *sb, int fd)
{
	struct devcache_header h = {
		.seqnum = stamp->seqnum,
		.udev = stamp->udev,
		.id_max = _DA_ID_MAX,
		.details = details,
		.ndev = list->n,
	};
	long page = sysconf(_SC_PAGESIZE);
	struct strbuf text = STRBUF_INIT;
	uint64_t rec_pos = 0, text_pos;
	size_t start = sb->len;
	int r = 0;

	if (list->n >= UINT32_MAX)
		return -EFBIG;
	/* Where the texts start: after every record, on a page of their own. */
	h.text_at = sizeof(h);
	for (size_t i = 0; i < list->n; i++) {
		uint16_t lend[_DEV_LIST_MAX];
		ssize_t n = list_ends(list->v[i], lend);

		if (n < 0)
			return n;
		h.text_at += sizeof(struct snap_device) + n * sizeof(uint32_t);
	}
	if (page > 0)
		h.text_at = (h.text_at + page - 1) / page * page;
	text_pos = h.text_at;
	memcpy(h.magic, devcache_magic, sizeof(h.magic));
	r = put(sb, &h, sizeof(h));
	for (size_t i = 0; r >= 0 && i < list->n; i++) {
		r = put_device(sb, &text, list->v[i], &h.nstrv);
		if (r >= 0 && text_pos + text.len >= DEVCACHE_MAX_LEN)
			r = -EFBIG;
		if (r >= 0 && fd >= 0)
			r = strbuf_spill(sb, fd, &rec_pos, 64 << 10);
		if (r >= 0 && fd >= 0)
			r = strbuf_spill(&text, fd, &text_pos, 64 << 10);
	}
	if (r >= 0 && fd >= 0)
		r = strbuf_spill(sb, fd, &rec_pos, 0);
	if (r >= 0 && fd >= 0)
		r = strbuf_spill(&text, fd, &text_pos, 0);
	/* In memory: the records, zeros up to the texts, the texts. */
	if (r >= 0 && fd < 0) {
		size_t pad = h.text_at - (sb->len - start);

		r = strbuf_grow(sb, pad);
		if (r >= 0) {
			memset(sb->buf + sb->len, 0, pad);
			sb->len += pad;
			r = put(sb, text.buf, text.len);
		}
		text_pos = sb->len - start;
	}
	strbuf_release(&text);
	if (r < 0)
		return r;
	/* The header, its counts and length known now, goes in last. */
	h.len = text_pos;
	if (fd < 0)
		memcpy(sb->buf + start, &h, sizeof(h));
	else if (pwrite(fd, &h, sizeof(h), 0) != sizeof(h))
		return -EIO;
	return 0;
}

/*
 * The file is written as it is made, 64 kB at a time: at 10,000 disks a
 * snapshot is 12 MB, which a command that just scanned should not hold
 * twice.
 */
void devcache_write(const struct da_ctx *ctx, const struct devcache_stamp *stamp,
		    unsigned int details, const struct da_devlist *list)
{
	_cleanup_free_ char *dir = da_ctx_path(ctx, DA_FILE_RUN_DIR);
	_cleanup_free_ char *path = da_ctx_path(ctx, DA_FILE_DEVICES);
	struct strbuf sb = STRBUF_INIT;
	char *tmp = NULL;
	int dfd, fd, r;

	if (!dir || !path)
		return;
	/* Where run/ cannot be written, or is not the caller's own, there is no snapshot. */
	dfd = open_private_dir(dir, true);
	if (dfd < 0)
		return;
	fd = temp_file_at(dfd, path_basename(path), &tmp);
	if (fd < 0) {
		close(dfd);
		return;
	}
	r = devcache_image(stamp, details, list, &sb, fd);
	temp_file_commit(dfd, fd, tmp, path_basename(path), 0644, -1, -1, false, r < 0 ? r : 0);
	strbuf_release(&sb);
	close(dfd);
}

/*
 * Reading: every length checked against what is left; any misfit and the
 * file is not used. The devices point into the mapped file, their lists
 * into one block of pointers, and they are one block themselves: a
 * thousand disks are three allocations, not a hundred thousand.
 */

struct reader {
	const char *p, *end;	     /* the records */
	const char *text, *text_end; /* the texts, one device's after another's */
	char **strv;		     /* the next free pointers of the lists' block */
	size_t strv_left;
};

static bool get(struct reader *rd, void *out, size_t n)
{
	if ((size_t)(rd->end - rd->p) < n)
		return false;
	memcpy(out, rd->p, n);
	rd->p += n;
	return true;
}

/* The string at @off of @text (@len bytes, the last a NUL), or NULL: false when spoiled. */
static bool text_str(const char *text, uint32_t len, uint32_t off, const char **ret)
{
	bool ok = off == NO_STRING || off < len;

	*ret = ok && off != NO_STRING ? text + off : NULL;
	return ok;
}

static bool get_device(struct reader *rd, struct da_devlist *l, struct da_device *d)
{
	char **strs[] = { &d->kname,   &d->syspath, &d->model, &d->serial,  &d->wwn,
			  &d->dm_name, &d->hctl,    &d->ata,   &d->id_path, &d->md_devname };
	const char *type = NULL, *tran = NULL, *offs, *text;
	struct snap_device rec;
	size_t nlist;
	bool ok = true;

	d->borrowed = true;
	if (!get(rd, &rec, sizeof(rec)))
		return false;
	nlist = rec.lend[_DEV_LIST_MAX - 1];
	offs = rd->p;
	if (nlist > rd->strv_left || (size_t)(rd->end - offs) / sizeof(uint32_t) < nlist)
		return false;
	rd->p = offs + nlist * sizeof(uint32_t);
	text = rd->text;
	if (!rec.text || (size_t)(rd->text_end - text) < rec.text || text[rec.text - 1])
		return false;
	rd->text = text + rec.text;
	d->major = rec.major;
	d->minor = rec.minor;
	d->devtype = rec.devtype;
	d->partno = rec.partno;
	d->removable = rec.flags & 1;
	d->ro = rec.flags & 2;
	d->size = rec.size;
	/* A parent is one of the devices before. */
	if ((d->devtype != DA_DEV_DISK && d->devtype != DA_DEV_PART) || rec.parent > l->n)
		return false;
	d->parent = rec.parent ? l->v[rec.parent - 1] : NULL;
	for (size_t i = 0; ok && i < ARRAY_SIZE(strs); i++)
		ok = text_str(text, rec.text, rec.strs[i], (const char **)strs[i]);
	ok = ok && text_str(text, rec.text, rec.strs[10], &type) &&
	     text_str(text, rec.text, rec.strs[11], &tran);
	/* Type and transport are device.c's static names: an unknown one spoils the file. */
	d->type = type ? device_static_name(type) : NULL;
	d->tran = tran ? device_static_name(tran) : NULL;
	ok = ok && d->type && (!tran || d->tran);
	/* The lists, one after another in the block of pointers (device.h). */
	for (unsigned int k = 0; ok && k < _DEV_LIST_MAX; k++)
		ok = rec.lend[k] >= (k ? rec.lend[k - 1] : 0);
	d->lv = rd->strv;
	memcpy(d->lend, rec.lend, sizeof(d->lend));
	for (size_t i = 0; ok && i < nlist; i++) {
		uint32_t off;

		memcpy(&off, offs + i * sizeof(off), sizeof(off));
		ok = off != NO_STRING && text_str(text, rec.text, off, (const char **)&rd->strv[i]);
	}
	rd->strv += nlist;
	rd->strv_left -= nlist;
	/* One name once: the hash of names would otherwise hide one. */
	return ok && d->kname && !hashmap_get(&l->bykname, d->kname);
}

/* Whether @l holds an md array (its members can change without a uevent). */
static bool has_array(const struct da_devlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i]->devtype == DA_DEV_DISK && strncmp(l->v[i]->kname, "md", 2) == 0)
			return true;
	return false;
}

int devcache_parse(void *map, size_t len, const struct devcache_stamp *stamp, unsigned int details,
		   struct da_devlist **ret_list)
{
	struct reader rd = { .p = map, .end = (char *)map + len };
	long page = sysconf(_SC_PAGESIZE);
	struct devcache_header h;
	struct da_devlist *l;
	bool ok = true;
	int r;

	if (!get(&rd, &h, sizeof(h)) || memcmp(h.magic, devcache_magic, sizeof(h.magic)) ||
	    h.seqnum != stamp->seqnum || h.udev != stamp->udev || h.id_max != _DA_ID_MAX ||
	    (h.details & details) != details || h.len != len || h.ndev > len / 8 ||
	    h.nstrv > len / 8 || h.text_at < sizeof(h) || h.text_at > len) {
		munmap(map, len);
		return 0;
	}
	rd.end = (char *)map + h.text_at;
	rd.text = rd.end;
	rd.text_end = (char *)map + len;
	r = da_devlist_new_empty(&l);
	if (r < 0) {
		munmap(map, len);
		return r;
	}
	l->snap_map = map;
	l->snap_len = len;
	l->snap_devices = calloc(h.ndev + 1, sizeof(*l->snap_devices));
	l->snap_strv = malloc((h.nstrv + 1) * sizeof(*l->snap_strv));
	rd.strv = l->snap_strv;
	rd.strv_left = h.nstrv;
	r = l->snap_devices && l->snap_strv ? hashmap_reserve(&l->bykname, h.ndev) : -ENOMEM;
	for (uint32_t i = 0; r >= 0 && ok && i < h.ndev; i++) {
		struct da_device *d = &l->snap_devices[i];

		ok = get_device(&rd, l, d);
		if (ok)
			r = device_list_add(l, d);
	}
	/* Between the records and the texts, zeros up to a page. */
	while (ok && rd.p < rd.end)
		ok = !*rd.p++;
	if (r >= 0 && (!ok || rd.text != rd.text_end || rd.strv_left))
		r = -EINVAL;
	if (r >= 0 && (details & DA_SCAN_STACK) && has_array(l))
		r = -EAGAIN;
	if (r < 0) {
		da_devlist_free(l);
		return r == -ENOMEM ? r : 0;
	}
	/* The records are read: their pages go, the texts the devices point into stay. */
	if (page > 0 && h.text_at % page == 0 && h.text_at < len) {
		munmap(map, h.text_at);
		l->snap_map = (char *)map + h.text_at;
		l->snap_len = len - h.text_at;
	}
	*ret_list = l;
	return 1;
}

/* Whether @fd (or @fd's directory) is one only the caller, or root, can have written. */
static bool trusted(int fd, bool dir)
{
	struct stat st;

	return fstat(fd, &st) == 0 && (dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode)) &&
	       (st.st_uid == geteuid() || st.st_uid == 0) && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

void *map_private_file(const char *dir, const char *name, size_t min, size_t max, size_t *ret_len)
{
	struct stat st;
	void *map;
	int dfd, fd;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return NULL;
	fd = trusted(dfd, true) ? openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
				: -1;
	close(dfd);
	if (fd < 0)
		return NULL;
	if (!trusted(fd, false) || fstat(fd, &st) < 0 || st.st_size < (off_t)min ||
	    (uint64_t)st.st_size >= max) {
		close(fd);
		return NULL;
	}
	/* Every page is read: mapped in one call, not one fault at a time. */
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	*ret_len = st.st_size;
	return map;
}

int devcache_read(const struct da_ctx *ctx, const struct devcache_stamp *stamp,
		  unsigned int details, struct da_devlist **ret_list)
{
	_cleanup_free_ char *dir = da_ctx_path(ctx, DA_FILE_RUN_DIR);
	_cleanup_free_ char *path = da_ctx_path(ctx, DA_FILE_DEVICES);
	size_t len;
	void *map;

	if (!dir || !path)
		return -ENOMEM;
	map = map_private_file(dir, path_basename(path), sizeof(struct devcache_header),
			       DEVCACHE_MAX_LEN, &len);
	return map ? devcache_parse(map, len, stamp, details, ret_list) : 0;
}
