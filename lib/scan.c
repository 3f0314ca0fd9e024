// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Block device discovery from sysfs, /dev/disk links and the udev database,
 * answered from the last scan's snapshot while nothing has changed.
 *
 * Nothing here assumes a directory depth: a device's identity is found by
 * following its "device" link and walking up through the parents, asking
 * each what it knows (a SCSI device its VPD serial, an NVMe controller or
 * subsystem its serial, a USB device its serial), nearest first.
 *
 * This file sits on top of the device model (device.c), the bays
 * (slot.c) and the snapshot (devcache.c); none of them calls back here.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "device.h"

/*
 * What a scan read besides names, numbers, partitions and sysfs's
 * identities, as a snapshot records it: the details, and udev's database
 * and links unless DA_SCAN_NO_UDEV (a bit of its own, set when they were
 * read, so that a snapshot answers only a scan that asks for no more).
 */
#define SCAN_UDEV (1U << 31)

static unsigned int scan_reads(unsigned int details)
{
	return (details & DA_SCAN_DETAILS) | (details & DA_SCAN_NO_UDEV ? 0 : SCAN_UDEV);
}

/* What a scan reads of each device besides its names, numbers, partitions and identities. */
struct scan_want {
	unsigned int details;	 /* scan_reads() */
	const struct strv *pcie; /* the PCIe slots: name, address pairs (slot_pcie_read()) */
	bool ses; /* the machine has SES enclosures (sys/class/enclosure lists one) */
	bool sg;  /* and SCSI generic nodes (sys/class/scsi_generic lists one) */
	/* sys/devices under the root, normalized: the top of every walk up. */
	const char *top;
	size_t toplen;
};

/* The last disk read, its directory kept open: its partitions are directories in it. */
struct scan_disk {
	const struct da_device *d;
	int fd;
};

/*
 * The files of a directory not opened, read from one that is: @sub is
 * "PART/" (a partition in its disk's directory), "device/" (a disk's
 * parent), or "" (the directory itself).
 */
#define SUB_PATH_MAX (NAME_MAX + 32)

/* @sub then @name in @path (SUB_PATH_MAX bytes), or NULL when it is longer. */
static const char *sub_path(char *path, const char *sub, const char *name)
{
	size_t a = strlen(sub), b = strlen(name);

	if (a + b >= SUB_PATH_MAX)
		return NULL;
	memcpy(path, sub, a);
	memcpy(path + a, name, b + 1);
	return path;
}

static char *read_attr_in(int dfd, const char *sub, const char *name, bool trim_front)
{
	char path[SUB_PATH_MAX];

	return sub_path(path, sub, name) ? read_attr_at(dfd, path, trim_front) : NULL;
}

/* SCSI VPD page 0x80 of the device (@sub under @dfd): 4 header bytes, then the serial, blank
 * padded. */
static char *serial_from_vpd80(int dfd, const char *sub)
{
	_cleanup_free_ char *buf = NULL;
	char path[SUB_PATH_MAX];
	size_t len, n, start = 4;

	if (!sub_path(path, sub, "vpd_pg80") || read_small_at(dfd, path, &buf, &len) < 0 ||
	    len < 5 || (unsigned char)buf[1] != 0x80)
		return NULL;
	n = ((unsigned char)buf[2] << 8 | (unsigned char)buf[3]) + 4;
	if (n > len)
		n = len;
	while (n > start && (isspace((unsigned char)buf[n - 1]) || buf[n - 1] == '\0'))
		n--;
	while (start < n && isspace((unsigned char)buf[start]))
		start++;
	for (size_t i = start; i < n; i++)
		if (!isprint((unsigned char)buf[i]))
			return NULL;
	return n > start ? strndup(buf + start, n - start) : NULL;
}

static char *subsystem_of(int dfd)
{
	_cleanup_free_ char *target = read_link_at(dfd, "subsystem");

	return target ? strdup(path_basename(target)) : NULL;
}

static void close_fdp(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

/* The names in directory @name of @fd that start with @prefix, into list @k of @d. */
static void read_names_into(struct da_device *d, unsigned int k, int fd, const char *name,
			    const char *prefix)
{
	struct strv *v = device_edit(d, k);

	if (v)
		read_dir_names(fd, name, prefix, v);
}

/* The SCSI generic node of the scsi_device open as @fd: "Attached scsi generic sg2". */
static void read_sg(struct da_device *d, int fd)
{
	read_names_into(d, DEV_HANDLES, fd, "scsi_generic", "sg");
}

/* The fixed majors of sd (SCSI_DISK0-15_MAJOR) and sr (SCSI_CDROM_MAJOR). */
static bool scsi_block_major(unsigned int major)
{
	return major == 8 || major == 11 || (major >= 65 && major <= 71) ||
	       (major >= 128 && major <= 135);
}

/*
 * Walk from the parent of the device (@dfd, its directory) up to
 * sys/devices, nearest first. Each level is opened from the one below
 * ("device", then ".."), so every lookup is of one name, not of a path
 * from the root. False when the device has no parent.
 */
static bool read_parents(struct da_device *d, int dfd, const struct scan_want *w)
{
	/*
	 * An sd or sr disk's parent is its scsi_device, the directory its
	 * "block" is in: no link to read, and no "subsystem" either. Its
	 * files are read as "device/NAME" from the disk's directory, and it
	 * is opened only to be listed or left for the level above.
	 */
	bool sd = scsi_block_major(d->major) && d->syspath;
	const char *block = sd ? strrchr(d->syspath, '/') : NULL;
	const char *sub = "device/";
	_cleanup_free_ char *dir = NULL;
	int fd = -1, at = dfd;

	if (block && block - d->syspath > 6 && memcmp(block - 6, "/block", 6) == 0)
		dir = strndup(d->syspath, block - 6 - d->syspath);
	else
		sd = false;
	if (!dir) {
		_cleanup_free_ char *target = read_link_at(dfd, "device");

		dir = target ? path_join_normalized(d->syspath, target) : NULL;
	}
	if (!dir || !w->top)
		return false;
	if (!sd) {
		fd = at = openat(dfd, "device", O_PATH | O_DIRECTORY | O_CLOEXEC);
		sub = "";
		if (fd < 0)
			return false;
	}
	for (bool first = true; strncmp(dir, w->top, w->toplen) == 0 && strlen(dir) > w->toplen;
	     first = false) {
		bool want_model = (w->details & DA_SCAN_MODEL) && !d->model, want_wwn = !d->wwn;
		bool want_serial = !d->serial;
		_cleanup_free_ char *subsys = NULL;
		bool usb, scsi;
		char *slash;
		int up;

		/* The SCSI address is the name of the disk's own parent, the scsi_device. */
		if (!first && !want_model && !want_wwn && !want_serial)
			break;
		subsys = first && sd ? NULL : subsystem_of(at);
		usb = streq(subsys, "usb");
		scsi = (first && sd) || streq(subsys, "scsi");
		if (want_model)
			d->model = read_attr_in(at, sub, usb ? "product" : "model", true);
		if (want_model && !d->model && streq(subsys, "mmc"))
			d->model = read_attr_in(at, sub, "name", true);
		if (want_wwn && scsi) {
			_cleanup_free_ char *wwid = read_attr_in(at, sub, "wwid", false);

			d->wwn = wwid ? device_wwn_from_wwid(wwid, false) : NULL;
		}
		if (want_serial && scsi)
			d->serial = serial_from_vpd80(at, sub);
		if (first && scsi) {
			d->hctl = hctl_of(dir);
			/* Listed only where a node or bay can be (scan_sysfs()). */
			if ((w->sg || w->ses) && fd < 0) {
				fd = at = openat(dfd, "device", O_PATH | O_DIRECTORY | O_CLOEXEC);
				sub = "";
			}
			if (w->sg && fd >= 0)
				read_sg(d, fd);
			if (w->ses && fd >= 0 && slot_ses_identities(d, fd) < 0) {
				close(fd);
				return false;
			}
		}
		/* NVMe controllers and subsystems, MMC cards and USB devices carry "serial". */
		if (want_serial && !d->serial)
			d->serial = read_attr_in(at, sub, "serial", true);
		slash = strrchr(dir, '/');
		/* Nothing left to find above (a disk's scsi_device has it all): no level more. */
		if (!slash || ((d->model || !(w->details & DA_SCAN_MODEL)) && d->wwn && d->serial))
			break;
		*slash = '\0';
		up = openat(at, *sub ? "device/.." : "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		close_fdp(&fd);
		fd = at = up;
		sub = "";
		if (fd < 0)
			break;
	}
	close_fdp(&fd);
	return true;
}

static int read_disk(const struct da_ctx *ctx, struct da_device *d, int dfd,
		     const struct scan_want *w)
{
	_cleanup_free_ char *wwid = NULL, *dm_uuid = NULL, *md_level = NULL;

	/*
	 * NVMe namespaces carry wwid and virtio disks serial on the disk
	 * itself; SCSI disks and CD-ROMs never do (their scsi_device has them),
	 * and there are thousands of them: no lookup that cannot succeed.
	 */
	if (!scsi_block_major(d->major)) {
		wwid = read_attr_at(dfd, "wwid", false);
		if (wwid)
			d->wwn = device_wwn_from_wwid(wwid, strncmp(d->kname, "nvme", 4) == 0);
		d->serial = read_attr_at(dfd, "serial", true);
	}
	/* Device-mapper and md devices are virtual: they have no parent device. */
	if (read_parents(d, dfd, w)) {
		int r = device_path_handles(d);

		if (r >= 0 && streq(d->tran, "nvme") && w->pcie)
			r = slot_pcie_identities(d, dfd, w->pcie);
		if (r < 0)
			return r;
	} else {
		d->dm_name = read_attr_at(dfd, "dm/name", false);
		if (w->details & DA_SCAN_STACK)
			read_names_into(d, DEV_SLAVES, dfd, "slaves", "");
		if (d->dm_name)
			dm_uuid = read_attr_at(dfd, "dm/uuid", false);
		else if (w->details & DA_SCAN_STACK)
			md_level = read_attr_at(dfd, "md/level", false);
	}
	if (d->dm_name)
		d->type = device_dm_type(dm_uuid);
	else if (md_level)
		d->type = device_md_type(md_level);
	else if (d->major == 7)
		d->type = "loop";
	else if (d->major == 11)
		d->type = "rom";
	else
		d->type = "disk";
	return 0;
}

/* @sub: "" or "PART/", a partition's directory under its disk's (@dfd). */
static int read_uint_attr(int dfd, const char *sub, const char *name, uint64_t *ret)
{
	_cleanup_free_ char *s = read_attr_in(dfd, sub, name, false);

	return s ? parse_u64(s, ret) : -ENOENT;
}

static void set_partition(struct da_device *d, unsigned int partno)
{
	d->devtype = DA_DEV_PART;
	d->partno = partno;
	d->type = "part";
}

/*
 * The numbers of the device open as @dfd and, for a partition, its number,
 * from its uevent file: one read where "dev" and "partition" are two, a
 * third of the calls for each of thousands of partitions. -ENOENT where
 * the file is missing or says less (a recorded tree may have none): then
 * the attributes are read.
 */
static int read_uevent(int dfd, const char *sub, struct da_device *d)
{
	char buf[1024], path[SUB_PATH_MAX];
	ssize_t n = sub_path(path, sub, "uevent") ? read_into_at(dfd, path, buf, sizeof(buf)) : -1;
	unsigned int major = 0, minor = 0, partno = 0;
	uint64_t seq;
	bool have_major = false, have_minor = false, have_type = false, part = false;
	char *line, *save = NULL;

	/* A block device's is a few short lines: one that fills the buffer is no such file. */
	if (n <= 0 || (size_t)n == sizeof(buf) - 1)
		return -ENOENT;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "MAJOR=", 6) == 0)
			have_major = parse_uint(line + 6, &major) == 0;
		else if (strncmp(line, "MINOR=", 6) == 0)
			have_minor = parse_uint(line + 6, &minor) == 0;
		else if (strncmp(line, "PARTN=", 6) == 0 && parse_uint(line + 6, &partno) < 0)
			return -ENOENT;
		else if (strncmp(line, "DISKSEQ=", 8) == 0 && parse_u64(line + 8, &seq) == 0)
			d->diskseq = seq;
		else if (strncmp(line, "DEVTYPE=", 8) == 0) {
			have_type = true;
			part = streq(line + 8, "partition");
		}
	}
	if (!have_major || !have_minor || !have_type || (part && !partno))
		return -ENOENT;
	d->major = major;
	d->minor = minor;
	if (part)
		set_partition(d, partno);
	return 0;
}

/* Whether @kname is the name the kernel gives a partition of disk @disk: "sda1", "nvme0n1p1". */
static bool partition_name_of(const char *disk, const char *kname)
{
	size_t n = strlen(disk);
	const char *p = kname + n;

	if (!n || strncmp(kname, disk, n) != 0)
		return false;
	/* A "p" between the disk's digits and the partition's (disk_name() in the kernel). */
	if (isdigit((unsigned char)disk[n - 1]) && *p++ != 'p')
		return false;
	return *p && strspn(p, "0123456789") == strlen(p);
}

/*
 * Whether @kname is a partition of @disk, read from its directory: @sub
 * becomes "PART/", the prefix of its files there, and @d has its numbers.
 */
static bool partition_in_disk(const struct scan_disk *disk, const char *kname, char *sub,
			      struct da_device *d)
{
	size_t n = strlen(kname);

	if (!disk->d || n >= NAME_MAX || !partition_name_of(disk->d->kname, kname))
		return false;
	memcpy(sub, kname, n);
	memcpy(sub + n, "/", 2);
	return read_uevent(disk->fd, sub, d) == 0 && d->devtype == DA_DEV_PART;
}

/*
 * Read one device; @rel is its entry in directory @dir (sys/class/block,
 * or sys/block: "DISK/PART"), @disk the last disk read (a disk read here
 * becomes it). Returns 0, 1 when it is to be skipped (hidden), or a
 * negative errno with a warning in @diag.
 */
static int device_load(const struct da_ctx *ctx, const char *dir, const char *rel,
		       const struct scan_want *w, struct scan_disk *disk, struct da_diag *diag,
		       struct da_device **ret)
{
	struct da_device *d = calloc(1, sizeof(*d));
	const char *kname = path_basename(rel);
	_cleanup_free_ char *dev = NULL, *entry = NULL;
	_cleanup_(close_fdp) int dfd = -1;
	char sub[NAME_MAX + 2]; /* "PART/" when read from its disk's directory, else "" */
	int at;			/* the directory its files are read from */
	uint64_t v;
	int r = -ENOMEM;

	if (!d)
		return -ENOMEM;
	d->kname = strdup(kname);
	/*
	 * A partition is a directory in its disk's: its files are read as
	 * "PART/uevent" from the disk's, not its link read and a path of a
	 * dozen components walked, nor a directory of its own opened
	 * (entries are sorted, so a disk's partitions follow it).
	 */
	if (d->kname && partition_in_disk(disk, kname, sub, d)) {
		at = disk->fd;
		d->syspath = strjoin(disk->d->syspath, "/", kname, NULL);
		if (!d->syspath)
			goto fail;
	} else {
		sub[0] = '\0';
		/*
		 * The link's target by its letters, not realpath(): that reads every
		 * component of the path back as a link, a dozen calls per device.
		 */
		entry = strjoin(dir, "/", rel, NULL);
		d->syspath = entry ? resolve_link(entry) : NULL;
		/* Opened once: each attribute is then a lookup of one name, not of the whole path. */
		if (d->syspath)
			dfd = open(d->syspath, O_PATH | O_DIRECTORY | O_CLOEXEC);
		at = dfd;
		if (!d->kname || (dfd >= 0 && !d->syspath) || (dfd < 0 && !entry))
			goto fail;
		if (dfd < 0) {
			r = -errno;
			da_diag_add(diag, entry, 0, true, "skipped: cannot resolve the link: %s",
				    strerror(-r));
			goto fail;
		}
		if (read_uevent(dfd, "", d) < 0) {
			dev = read_attr_at(dfd, "dev", false);
			if (!dev || sscanf(dev, "%u:%u", &d->major, &d->minor) != 2) {
				r = -EINVAL;
				da_diag_add(diag, d->syspath, 0, true,
					    "skipped: no readable 'dev' attribute");
				goto fail;
			}
			if (read_uint_attr(dfd, "", "partition", &v) == 0)
				set_partition(d, v);
		}
	}
	/*
	 * A partition has neither "hidden" nor "removable": they are its disk's
	 * (scan_sysfs()). Only NVMe hides disks (a multipath namespace's paths);
	 * SCSI disks, by far the most, never: no lookup that cannot succeed.
	 */
	if (d->devtype == DA_DEV_DISK && !scsi_block_major(d->major) &&
	    read_uint_attr(at, sub, "hidden", &v) == 0 && v) {
		device_free(d);
		return 1;
	}
	if ((w->details & DA_SCAN_SIZE) && read_uint_attr(at, sub, "size", &v) == 0)
		d->size = v * 512;
	d->removable = (w->details & DA_SCAN_REMOVABLE) && d->devtype == DA_DEV_DISK &&
		       read_uint_attr(at, sub, "removable", &v) == 0 && v;
	d->ro = (w->details & DA_SCAN_READONLY) && read_uint_attr(at, sub, "ro", &v) == 0 && v;
	if (d->devtype == DA_DEV_DISK) {
		r = read_disk(ctx, d, dfd, w);
		if (r < 0)
			goto fail;
		close_fdp(&disk->fd);
		disk->d = d;
		disk->fd = dfd;
		dfd = -1;
	}
	*ret = d;
	return 0;
fail:
	device_free(d);
	return r;
}

/*
 * A link line of the udev database, "S:disk/by-id/NAME": every device that
 * claims a link has it in its entry, though the link itself points at only
 * one of them. Two namespaces of an NVMe controller both claim
 * nvme-MODEL_SERIAL: an alias bound to it must see both, and bind neither.
 */
static int add_db_link(struct da_device *d, const char *line)
{
	const char *rel = line + strlen("S:disk/"), *slash = strchr(rel, '/');
	enum da_id_kind k;

	if (strncmp(line, "S:disk/", 7) != 0 || !slash || !slash[1] || strchr(slash + 1, '/'))
		return 0;
	k = da_id_kind_from_dir(rel, slash - rel);
	if (k == DA_ID_INVALID)
		return 0;
	return device_add_link_identity(d, k, da_id_kind_dir(k), slash + 1);
}

/* Property line @kv ("KEY=VALUE") of @d's udev database entry: 0 or -ENOMEM. */
static int add_db_property(struct da_device *d, const char *kv)
{
	const char *eq = strchr(kv, '='), *value = eq ? eq + 1 : NULL;
	size_t n = eq ? (size_t)(eq - kv) : 0;
	int r = 0;

	if (!eq)
		return 0;
	if (n == 7 && memcmp(kv, "ID_PATH", 7) == 0 && !d->id_path)
		return (d->id_path = strdup(value)) ? 0 : -ENOMEM;
	/* mdadm's rules make /dev/md/NAME of it; a name with a '/' is no such link. */
	if (n == 10 && memcmp(kv, "MD_DEVNAME", 10) == 0) {
		if (d->md_devname || !*value || strchr(value, '/') || streq(value, ".") ||
		    streq(value, ".."))
			return 0;
		return (d->md_devname = strdup(value)) ? 0 : -ENOMEM;
	}
	if (strncmp(kv, "ID_", 3) != 0)
		return 0;
	for (size_t i = 0; da_udev_props[i].key && r >= 0; i++) {
		const struct da_udev_prop *p = &da_udev_props[i];

		/*
		 * The keys differ from their fourth letter (ID_W, ID_S, ...): one
		 * compare of a letter for most lines. A partition inherits its
		 * disk's: they are not its own.
		 */
		if (p->key[3] == kv[3] && strncmp(p->key, kv, n) == 0 && !p->key[n] &&
		    (!p->disk || d->devtype == DA_DEV_DISK))
			r = da_device_add_identity(d, p->kind, value);
	}
	return r;
}

/*
 * Read the udev database entry of @d, where udev runs: properties and links.
 * -ENOENT when there is none (yet), -ENOMEM, else 0.
 */
static int read_udev_db(const struct da_ctx *ctx, int dbfd, struct da_device *d)
{
	_cleanup_free_ char *buf = NULL;
	char *line, *next;
	int r = da_udev_db_read(ctx, dbfd, d->major, d->minor, &buf);

	if (r == -ENOENT || r == -ENOMEM)
		return r;
	if (r < 0) /* unreadable: what sysfs says stands */
		return 0;
	for (line = buf; *line && r >= 0; line = next) {
		char *nl = strchr(line, '\n');

		next = nl ? nl + 1 : line + strlen(line);
		if (nl)
			*nl = '\0';
		if (line[0] == 'S' && line[1] == ':')
			r = add_db_link(d, line);
		else if (line[0] == 'E' && line[1] == ':')
			r = add_db_property(d, line + 2);
	}
	return r;
}

/* Record every /dev/disk/by-KIND link under the root against the device it points at. */
static int read_links(const struct da_ctx *ctx, struct da_devlist *l)
{
	int r = 0;

	for (int k = 0; k < _DA_ID_MAX && r >= 0; k++) {
		const char *kdir = da_id_kind_dir(k);
		_cleanup_free_ char *dir = kdir ? da_ctx_dev(ctx, "disk/%s", kdir) : NULL;
		struct dirent *de;
		DIR *dp;

		if (!kdir)
			continue;
		if (!dir)
			return -ENOMEM;
		dp = opendir(dir);
		if (!dp)
			continue;
		while (r >= 0 && (de = readdir(dp))) {
			_cleanup_free_ char *p = xasprintf("%s/%s", dir, de->d_name);
			_cleanup_free_ char *target = p ? read_link(p) : NULL;
			struct da_device *d;

			if (!target)
				continue;
			d = hashmap_get(&l->bykname, path_basename(target));
			if (d)
				r = device_add_link_identity(d, k, kdir, de->d_name);
		}
		closedir(dp);
	}
	return r;
}

/*
 * The entries of the block devices, as "NAME" relative to @dir: the class
 * directory sys/class/block lists disks and partitions alike. A tree
 * without it (a kernel before 2.6.25, or a sysfs dump as other tools
 * record one, which keeps sys/block alone) lists the disks in sys/block,
 * and each disk's partitions are the directories in its own that have a
 * "partition" file: those entries are "DISK/PART". 0, or -errno when
 * neither directory can be read (*ret_dir names the one tried).
 */
static int block_entries(const struct da_ctx *ctx, struct strv *ret, char **ret_dir)
{
	_cleanup_free_ char *class = da_ctx_sys(ctx, "class/block");
	char *dir = NULL;
	struct strv disks = {};
	int dfd, r;

	if (!class)
		return -ENOMEM;
	dfd = open(class, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		*ret_dir = class;
		class = NULL;
		read_dir_names(dfd, ".", "", ret);
		close(dfd);
		return 0;
	}
	r = -errno;
	dir = da_ctx_sys(ctx, "block");
	if (!dir)
		return -ENOMEM;
	dfd = r == -ENOENT ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (dfd < 0) {
		free(dir);
		*ret_dir = class;
		class = NULL;
		return r;
	}
	*ret_dir = dir;
	read_dir_names(dfd, ".", "", &disks);
	r = 0;
	for (size_t i = 0; r >= 0 && i < disks.n; i++) {
		struct strv subs = {};
		int sfd = openat(dfd, disks.v[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		r = strv_push(ret, disks.v[i]);
		if (sfd < 0)
			continue;
		read_dir_names(sfd, ".", "", &subs);
		for (size_t k = 0; r >= 0 && k < subs.n; k++) {
			_cleanup_free_ char *pfile = xasprintf("%s/partition", subs.v[k]);

			if (!pfile)
				r = -ENOMEM;
			else if (faccessat(sfd, pfile, F_OK, 0) == 0)
				r = strv_consume(ret, xasprintf("%s/%s", disks.v[i], subs.v[k]));
		}
		strv_free(&subs);
		close(sfd);
	}
	strv_free(&disks);
	close(dfd);
	return r;
}

static int scan_sysfs(struct da_ctx *ctx, const struct scan_want *want, struct da_diag *diag,
		      struct da_devlist **ret_list)
{
	_cleanup_free_ char *dir = NULL, *top = NULL;
	struct strv entries = {};
	struct strv hidden = {}; /* NVMe multipath paths, hidden disks */
	struct strv pcie = {};
	size_t unseen = 0; /* devices udev has no database entry of */
	struct scan_want wp = *want, *w = &wp;
	struct scan_disk disk = { .fd = -1 };
	_cleanup_free_ char *data = da_ctx_udev_data(ctx);
	_cleanup_(close_fdp) int dbfd = -1;
	struct da_devlist *l;
	int r = 0;

	if (slot_pcie_read(ctx, &pcie) < 0) {
		strv_free(&pcie);
		return -ENOMEM;
	}
	wp.pcie = &pcie;
	wp.ses = da_ctx_class_lists(ctx, "enclosure");
	wp.sg = da_ctx_class_lists(ctx, "scsi_generic");
	top = da_ctx_sys(ctx, "devices");
	wp.top = top ? path_normalize(top) : NULL;
	wp.toplen = top ? strlen(top) : 0;
	r = block_entries(ctx, &entries, &dir);
	if (r < 0) {
		strv_free(&pcie);
		strv_free(&entries);
		if (r != -ENOMEM)
			da_diag_add(diag, dir, 0, false, "cannot list block devices: %s",
				    strerror(-r));
		return r;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		strv_free(&entries);
		strv_free(&pcie);
		return -ENOMEM;
	}
	hashmap_init(&l->bykname, false);
	strv_sort(&entries);
	for (size_t i = 0; i < entries.n; i++) {
		const char *kname = path_basename(entries.v[i]);
		struct da_device *d = NULL;

		r = device_load(ctx, dir, entries.v[i], w, &disk, diag, &d);
		if (r == -ENOMEM)
			break;
		if (r == 1 && strncmp(kname, "nvme", 4) == 0)
			r = strv_push(&hidden, kname);
		if (r == -ENOMEM)
			break;
		r = 0;
		if (!d)
			continue;
		r = device_list_add(l, d);
		if (r < 0) {
			device_free(d);
			break;
		}
	}
	close_fdp(&disk.fd);
	strv_free(&entries);
	strv_free(&pcie);
	/* Under a sysroot the entries are files in one directory, opened once. */
	if (data && (w->details & SCAN_UDEV))
		dbfd = open(data, O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (size_t i = 0; r >= 0 && i < l->n; i++) {
		struct da_device *d = l->v[i];

		if (d->devtype == DA_DEV_PART) {
			_cleanup_free_ char *up = strdup(d->syspath);
			char *slash = up ? strrchr(up, '/') : NULL;

			if (slash)
				*slash = '\0';
			d->parent = up ? hashmap_get(&l->bykname, path_basename(up)) : NULL;
			if (d->parent) {
				d->removable = d->parent->removable;
				/*
				 * Its place is its disk's and its name: not
				 * kept (a tenth of the scan's memory).
				 */
				free(d->syspath);
				d->syspath = NULL;
			}
		}
		r = device_disk_identities(d);
		/* A device udev has not seen (yet) is named by what sysfs says. */
		if (r >= 0 && (w->details & SCAN_UDEV) &&
		    (r = read_udev_db(ctx, dbfd, d)) == -ENOENT) {
			unseen++;
			r = 0;
		}
		/* All it reads is read: 30,000 devices are 60,000 allocations, not a million. */
		if (r >= 0)
			r = device_pack(d);
	}
	for (size_t i = 0; r >= 0 && i < hidden.n; i++)
		r = device_nvme_path_handles(l, hidden.v[i]);
	for (size_t i = 0; r >= 0 && i < l->n; i++)
		r = device_add_holders(l, l->v[i]);
	strv_free(&hidden);
	/*
	 * Every link udev made under /dev/disk is in the database entry of each
	 * device that claims it, read above: the directories add something only
	 * for a device udev has no entry of (no udev, or not seen yet).
	 */
	if (r >= 0 && (w->details & SCAN_UDEV) && (unseen || !l->n))
		r = read_links(ctx, l);
	if (r < 0) {
		da_devlist_free(l);
		return r;
	}
	qsort(l->v, l->n, sizeof(*l->v), device_cmp);
	for (size_t i = 0; i < l->n; i++) {
		/* Sorted where they are: a packed device stays packed. */
		const unsigned int sorted[] = { DEV_IDS + DA_ID_ID,   DEV_IDS + DA_ID_PATH,
						DEV_IDS + DA_ID_SLOT, DEV_HANDLES,
						DEV_SHARED,	      DEV_SLAVES,
						DEV_HOLDERS };

		l->v[i]->pos = i;
		for (size_t k = 0; k < ARRAY_SIZE(sorted); k++) {
			struct strv v = device_list(l->v[i], sorted[k]);

			strv_sort(&v);
		}
		device_primary_path_first(l->v[i]);
	}
	*ret_list = l;
	return 0;
}

/*
 * A scan is answered from the last one's snapshot while nothing has
 * changed since and it read what this one asks for (devcache.c): reading
 * every disk's place and udev entry is what start-up would otherwise cost.
 * A scan that met a problem leaves no snapshot, so the problem is told
 * again next time.
 */
static int scan(struct da_ctx *ctx, const struct scan_want *w, struct da_diag *diag,
		struct da_devlist **ret_list)
{
	struct devcache_stamp stamp;
	struct da_diag local = {};
	struct da_diag *dg = diag ? diag : &local;
	size_t before = dg->n;
	bool cache = devcache_stamp(ctx, &stamp) == 0;
	int r;

	if (cache) {
		r = devcache_read(ctx, &stamp, w->details, ret_list);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	r = scan_sysfs(ctx, w, dg, ret_list);
	if (r == 0 && cache && dg->n == before)
		devcache_write(ctx, &stamp, w->details, *ret_list);
	da_diag_clear(&local);
	return r;
}

DA_EXPORT int da_devlist_scan_with(struct da_ctx *ctx, unsigned int details, struct da_diag *diag,
				   struct da_devlist **ret_list)
{
	const struct scan_want w = { .details = scan_reads(details) };

	return scan(ctx, &w, diag, ret_list);
}

DA_EXPORT int da_devlist_scan(struct da_ctx *ctx, struct da_diag *diag,
			      struct da_devlist **ret_list)
{
	return da_devlist_scan_with(ctx, DA_SCAN_DETAILS, diag, ret_list);
}

DA_EXPORT int da_devlist_scan_for(struct da_ctx *ctx, const struct da_table *table,
				  struct da_diag *diag, struct da_devlist **ret_list)
{
	return da_devlist_scan_with(ctx, 0, diag, ret_list);
}

/* The disk sequence number of @kname (a partition's is its disk's), or 0 where the kernel has none.
 */
uint64_t read_diskseq(const struct da_ctx *ctx, const char *kname)
{
	static const char *const where[] = { "", "../" };
	unsigned long long v = 0;

	for (size_t i = 0; i < ARRAY_SIZE(where) && !v; i++) {
		_cleanup_free_ char *path =
			da_ctx_sys(ctx, "class/block/%s/%sdiskseq", kname, where[i]);
		_cleanup_free_ char *buf = NULL;

		if (path && read_file(path, &buf, NULL) == 0)
			v = strtoull(buf, NULL, 10);
	}
	return v;
}

uint64_t device_diskseq(const struct da_ctx *ctx, const struct da_device *dev)
{
	const struct da_device *disk = dev->devtype == DA_DEV_PART ? dev->parent : dev;

	return disk && disk->diskseq ? disk->diskseq : read_diskseq(ctx, dev->kname);
}

int da_udev_db_has_identity(const struct da_ctx *ctx, unsigned int major, unsigned int minor,
			    enum da_id_kind kind, const char *value)
{
	struct da_device d = { .devtype = DA_DEV_DISK, .major = major, .minor = minor };
	int r = read_udev_db(ctx, -1, &d);

	if (r >= 0)
		r = da_device_has_identity(&d, kind, value);
	device_release(&d);
	return r;
}
