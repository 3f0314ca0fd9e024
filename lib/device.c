// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Block device discovery from sysfs, /dev/disk links and the udev database.
 *
 * Nothing here assumes a directory depth: a device's identity is found by
 * following its "device" link and walking up through the parents, asking
 * each what it knows (a SCSI device its VPD serial, an NVMe controller or
 * subsystem its serial, a USB device its serial), nearest first.
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

/* What a scan reads of each device besides its names, numbers, partitions and identities. */
struct scan_want {
	unsigned int details;	 /* DA_SCAN_* */
	const struct strv *pcie; /* the PCIe slots: name, address pairs (slot_pcie_read()) */
};

/*
 * Every string field and every list of @d, for device_pack() and
 * device_unpack(); not its kernel name, which keys its list's hash and
 * stays where it is.
 */
#define DEVICE_STRS(d)                                                                          \
	{                                                                                       \
		&(d)->syspath, &(d)->model, &(d)->serial, &(d)->wwn, &(d)->dm_name, &(d)->hctl, \
			&(d)->ata, &(d)->id_path, &(d)->md_devname                              \
	}
#define DEVICE_LISTS(d)                                                                       \
	{                                                                                     \
		&(d)->handles, &(d)->shared, &(d)->slaves, &(d)->holders, &(d)->links,        \
			&(d)->ids[0], &(d)->ids[1], &(d)->ids[2], &(d)->ids[3], &(d)->ids[4], \
			&(d)->ids[5], &(d)->ids[6], &(d)->ids[7], &(d)->ids[8]                \
	}
_Static_assert(_DA_ID_MAX == 9, "DEVICE_LISTS names every identity kind");

/* A string of the block being packed that @s ends, else NULL. */
static char *packed_suffix(char *const *placed, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		size_t pl = strlen(placed[i]);

		if (pl >= len && memcmp(placed[i] + pl - len, s, len) == 0)
			return placed[i] + pl - len;
	}
	return NULL;
}

int device_pack(struct da_device *d)
{
	char **strs[] = DEVICE_STRS(d);
	struct strv *lists[] = DEVICE_LISTS(d);
	char *placed[256], **ptrs, *text, *block;
	size_t nptr = 0, bytes = 0, n = 0;

	if (d->packed || d->borrowed)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
		bytes += *strs[i] ? strlen(*strs[i]) + 1 : 0;
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		nptr += lists[i]->n ? lists[i]->n + 1 : 0;
		for (size_t k = 0; k < lists[i]->n; k++)
			bytes += strlen(lists[i]->v[k]) + 1;
	}
	block = malloc(nptr * sizeof(char *) + bytes);
	if (!block)
		return -ENOMEM;
	ptrs = (char **)block;
	text = block + nptr * sizeof(char *);
	/* Longest first would share more; the lists' names come first, and end the fields'. */
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		struct strv *v = lists[i];
		char **nv = v->n ? ptrs : NULL;

		for (size_t k = 0; k < v->n; k++) {
			size_t len = strlen(v->v[k]);
			char *at = packed_suffix(placed, n, v->v[k], len);

			if (!at) {
				at = memcpy(text, v->v[k], len + 1);
				text += len + 1;
				if (n < ARRAY_SIZE(placed))
					placed[n++] = at;
			}
			free(v->v[k]);
			ptrs[k] = at;
		}
		if (v->n) {
			ptrs[v->n] = NULL;
			ptrs += v->n + 1;
		}
		free(v->v);
		v->v = nv;
	}
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++) {
		char *s = *strs[i], *at;
		size_t len;

		if (!s)
			continue;
		len = strlen(s);
		at = packed_suffix(placed, n, s, len);
		if (!at) {
			at = memcpy(text, s, len + 1);
			text += len + 1;
			if (n < ARRAY_SIZE(placed))
				placed[n++] = at;
		}
		free(s);
		*strs[i] = at;
	}
	d->packed = block;
	return 0;
}

int device_unpack(struct da_device *d)
{
	char **strs[] = DEVICE_STRS(d);
	struct strv *lists[] = DEVICE_LISTS(d);
	char *copies[ARRAY_SIZE(strs)] = {};
	struct strv fresh[ARRAY_SIZE(lists)] = {};
	int r = 0;

	if (!d->packed)
		return 0;
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(strs); i++)
		if (*strs[i] && !(copies[i] = strdup(*strs[i])))
			r = -ENOMEM;
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(lists); i++)
		for (size_t k = 0; r >= 0 && k < lists[i]->n; k++)
			r = strv_push(&fresh[i], lists[i]->v[k]);
	if (r < 0) {
		for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
			free(copies[i]);
		for (size_t i = 0; i < ARRAY_SIZE(lists); i++)
			strv_free(&fresh[i]);
		return r;
	}
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
		*strs[i] = copies[i];
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++)
		*lists[i] = fresh[i];
	free(d->packed);
	d->packed = NULL;
	return 0;
}

void device_free(struct da_device *d)
{
	/* A snapshot's device is part of its list's blocks (devcache.c). */
	if (!d || d->borrowed)
		return;
	if (d->packed) {
		free(d->packed);
		free(d->kname);
		free(d);
		return;
	}
	free(d->kname);
	free(d->syspath);
	free(d->model);
	free(d->serial);
	free(d->wwn);
	free(d->dm_name);
	free(d->id_path);
	free(d->md_devname);
	free(d->hctl);
	free(d->ata);
	strv_free(&d->handles);
	strv_free(&d->shared);
	strv_free(&d->slaves);
	strv_free(&d->holders);
	for (int k = 0; k < _DA_ID_MAX; k++)
		strv_free(&d->ids[k]);
	strv_free(&d->links);
	free(d);
}

DA_EXPORT void da_devlist_free(struct da_devlist *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		device_free(l->v[i]);
	free(l->v);
	hashmap_free(&l->bykname);
	devcache_release(l);
	free(l);
}

/* Add @value to identity @kind of @d unless it is there already. */
static int add_identity(struct da_device *d, enum da_id_kind kind, const char *value)
{
	if (!value || !*value)
		return 0;
	for (size_t i = 0; i < d->ids[kind].n; i++)
		if (da_id_value_equal(kind, d->ids[kind].v[i], value))
			return 0;
	if (device_unpack(d) < 0)
		return -ENOMEM;
	return strv_push(&d->ids[kind], value);
}

/* The WWN users see, from a kernel wwid: naa.X -> 0xX; NVMe ids as they are; t10 vendor ids are
 * none. */
static char *wwn_from_wwid(const char *wwid, bool nvme)
{
	if (strncmp(wwid, "naa.", 4) == 0)
		return xasprintf("0x%s", wwid + 4);
	if (strncmp(wwid, "eui.", 4) == 0 || nvme)
		return strdup(wwid);
	return NULL;
}

/* SCSI VPD page 0x80 of the device open as @dfd: 4 header bytes, then the serial, blank padded. */
static char *serial_from_vpd80(int dfd)
{
	_cleanup_free_ char *buf = NULL;
	size_t len, n, start = 4;

	if (read_file_at(dfd, "vpd_pg80", &buf, &len) < 0 || len < 5 ||
	    (unsigned char)buf[1] != 0x80)
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

/* "2:0:3:0" when @dir is a SCSI device's directory (its name is its address), else NULL. */
char *hctl_of(const char *dir)
{
	const char *base = path_basename(dir);
	unsigned int h, c, t, l;
	int n = 0;

	if (sscanf(base, "%u:%u:%u:%u%n", &h, &c, &t, &l, &n) != 4 || base[n])
		return NULL;
	return strdup(base);
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

/* The SCSI generic node of the scsi_device open as @fd: "Attached scsi generic sg2". */
static void read_sg(struct da_device *d, int fd)
{
	read_dir_names(fd, "scsi_generic", "sg", &d->handles);
}

/*
 * Walk from the parent of the device (@dfd, its directory) up to
 * sys/devices, nearest first. Each level is opened from the one below
 * ("device", then ".."), so every lookup is of one name, not of a path
 * from the root. False when the device has no parent.
 */
static bool read_parents(const struct da_ctx *ctx, struct da_device *d, int dfd,
			 const struct scan_want *w)
{
	_cleanup_free_ char *target = read_link_at(dfd, "device");
	/* Both sides folded alike, so any --sysroot compares as written. */
	_cleanup_free_ char *top = da_ctx_sys(ctx, "devices");
	_cleanup_free_ char *dir = target ? path_join_normalized(d->syspath, target) : NULL;
	size_t toplen = top ? strlen(path_normalize(top)) : 0;
	int fd = dir ? openat(dfd, "device", O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;

	if (fd < 0)
		return false;
	for (bool first = true; top && strncmp(dir, top, toplen) == 0 && strlen(dir) > toplen;
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
		subsys = subsystem_of(fd);
		usb = streq(subsys, "usb");
		scsi = streq(subsys, "scsi");
		if (want_model)
			d->model = read_attr_at(fd, usb ? "product" : "model", true);
		if (want_model && !d->model && streq(subsys, "mmc"))
			d->model = read_attr_at(fd, "name", true);
		if (want_wwn && scsi) {
			_cleanup_free_ char *wwid = read_attr_at(fd, "wwid", false);

			d->wwn = wwid ? wwn_from_wwid(wwid, false) : NULL;
		}
		if (want_serial && scsi)
			d->serial = serial_from_vpd80(fd);
		if (first && scsi) {
			d->hctl = hctl_of(dir);
			read_sg(d, fd);
			if (slot_ses_identities(d, fd) < 0)
				return false;
		}
		/* NVMe controllers and subsystems, MMC cards and USB devices carry "serial". */
		if (want_serial && !d->serial)
			d->serial = read_attr_at(fd, "serial", true);
		slash = strrchr(dir, '/');
		/* Nothing left to find above (a disk's scsi_device has it all): no level more. */
		if (!slash || ((d->model || !(w->details & DA_SCAN_MODEL)) && d->wwn && d->serial))
			break;
		*slash = '\0';
		up = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		fd = up;
		if (fd < 0)
			break;
	}
	close_fdp(&fd);
	return true;
}

/* Whether @s is @prefix and a number (ata3, nvme10): the number in @ret. */
static bool numbered(const char *s, const char *prefix, unsigned int *ret)
{
	size_t n = strlen(prefix);

	return strncmp(s, prefix, n) == 0 && is_number(s + n) && parse_uint(s + n, ret) == 0;
}

static int push_fmt(struct strv *v, char *s)
{
	return s ? strv_consume(v, s) : -ENOMEM;
}

/*
 * The NVMe names of namespace @d besides its own: under a controller
 * (.../nvme/nvmeC/nvmeSnN), that controller and its generic node ngCnN; a
 * multipath head (under nvme-subsystem) its own generic node ngSnN (its
 * paths are added by nvme_path_handles()).
 */
static int nvme_handles(struct da_device *d, const char *ctrl)
{
	unsigned int s, n, c;
	int r;

	if (sscanf(d->kname, "nvme%un%u", &s, &n) != 2)
		return 0;
	if (!ctrl)
		return push_fmt(&d->handles, xasprintf("ng%un%u", s, n));
	if (!numbered(ctrl, "nvme", &c))
		return 0;
	r = strv_push(&d->shared, ctrl);
	return r < 0 ? r : push_fmt(&d->handles, xasprintf("ng%un%u", c, n));
}

/*
 * A multipath head's path through controller C, the hidden disk nvmeScCnN:
 * its name, its generic node ngCnN and the controller are the head's.
 */
static int nvme_path_handles(struct da_devlist *l, const char *path)
{
	unsigned int s, c, n;
	_cleanup_free_ char *head = NULL;
	struct da_device *d;
	int r;

	if (sscanf(path, "nvme%uc%un%u", &s, &c, &n) != 3)
		return 0;
	head = xasprintf("nvme%un%u", s, n);
	if (!head)
		return -ENOMEM;
	d = hashmap_get(&l->bykname, head);
	if (!d)
		return 0;
	r = device_unpack(d);
	if (r >= 0)
		r = strv_push(&d->handles, path);
	if (r >= 0)
		r = push_fmt(&d->handles, xasprintf("ng%un%u", c, n));
	if (r >= 0)
		r = push_fmt(&d->shared, xasprintf("nvme%u", c));
	return r;
}

/* Whether @s names a USB device as the kernel does: bus-port, then .port for each hub ("2-1.3"). */
static bool usb_device_name(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (!n || s[n] != '-')
		return false;
	do {
		s += n + 1;
		n = strspn(s, "0123456789");
	} while (n && s[n] == '.');
	return n && !s[n];
}

/*
 * What the place of disk @d under sys/devices tells: how it
 * is attached (lsblk's TRAN: the component nearest the disk decides) and
 * the handles of its port or controller. libata's port ataN holds
 * hostM/targetM:C:T/M:C:T:L: its device is ataN.%02u of C + T, as libata
 * names it (C is the port multiplier link, T the device number), and the
 * multiplier itself is ataN.15. A USB device (a stick, a card reader with
 * several disks) is "usb 2-1" as the USB core prints it: its name alone is
 * no name, only after "usb ".
 */
static int path_handles(struct da_device *d)
{
	_cleanup_free_ char *copy = strdup(d->syspath);
	const char *prev = "", *ctrl = NULL, *usb = NULL;
	char *save = NULL, *c;
	unsigned int n, ch, t;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	for (c = strtok_r(copy, "/", &save); c && r >= 0;
	     prev = c, c = strtok_r(NULL, "/", &save)) {
		if (numbered(c, "ata", &n)) {
			d->tran = "sata";
			if (d->ata || !d->hctl || sscanf(d->hctl, "%*u:%u:%u", &ch, &t) != 2)
				continue;
			d->ata = xasprintf("ata%u.%02u", n, ch + t);
			r = d->ata ? strv_push(&d->shared, c) : -ENOMEM;
			if (r >= 0 && ch)
				r = push_fmt(&d->shared, xasprintf("ata%u.15", n));
		} else if (strncmp(c, "end_device-", 11) == 0) {
			d->tran = "sas";
		} else if (numbered(c, "usb", &n)) {
			d->tran = "usb";
		} else if (usb_device_name(c)) {
			usb = c;
		} else if (numbered(c, "virtio", &n)) {
			d->tran = "virtio";
		} else if (strncmp(c, "rport-", 6) == 0) {
			d->tran = "fc";
		} else if (numbered(c, "session", &n)) {
			d->tran = "iscsi";
		} else if (streq(prev, "mmc_host") && numbered(c, "mmc", &n)) {
			d->tran = "mmc";
			r = strv_push(&d->shared, c);
		} else if ((streq(prev, "nvme") && numbered(c, "nvme", &n)) ||
			   strncmp(c, "nvme-subsys", 11) == 0) {
			d->tran = "nvme";
			ctrl = streq(prev, "nvme") ? c : NULL;
		}
	}
	if (r >= 0 && streq(d->tran, "nvme"))
		r = nvme_handles(d, ctrl);
	if (r >= 0 && usb && streq(d->tran, "usb"))
		r = push_fmt(&d->shared, xasprintf("usb %s", usb));
	return r;
}

/* lsblk's type of a dm device by its uuid's prefix. */
static const struct {
	const char *prefix, *type;
} dm_types[] = {
	{ "LVM-", "lvm" },
	{ "CRYPT-", "crypt" },
	{ "mpath-", "mpath" },
	{ "part", "part" },
};

/* lsblk-style type names for md levels, kept as static strings. */
static const char *const md_levels[] = {
	"raid0", "raid1", "raid4", "raid5", "raid6", "raid10", "linear", "multipath",
};

/* The other type and transport names a device points at. */
static const char *const static_names[] = {
	"disk", "part", "loop",	  "rom", "dm",	  "md",	 "sata",
	"sas",	"usb",	"virtio", "fc",	 "iscsi", "mmc", "nvme",
};

const char *device_static_name(const char *s)
{
	for (size_t i = 0; s && i < ARRAY_SIZE(static_names); i++)
		if (streq(s, static_names[i]))
			return static_names[i];
	for (size_t i = 0; s && i < ARRAY_SIZE(dm_types); i++)
		if (streq(s, dm_types[i].type))
			return dm_types[i].type;
	for (size_t i = 0; s && i < ARRAY_SIZE(md_levels); i++)
		if (streq(s, md_levels[i]))
			return md_levels[i];
	return NULL;
}

static const char *dm_type(const char *uuid)
{
	for (size_t i = 0; uuid && i < ARRAY_SIZE(dm_types); i++)
		if (strncmp(uuid, dm_types[i].prefix, strlen(dm_types[i].prefix)) == 0)
			return dm_types[i].type;
	return "dm";
}

static const char *md_type(const char *level)
{
	for (size_t i = 0; level && i < ARRAY_SIZE(md_levels); i++)
		if (streq(level, md_levels[i]))
			return md_levels[i];
	return "md";
}

/* The fixed majors of sd (SCSI_DISK0-15_MAJOR) and sr (SCSI_CDROM_MAJOR). */
static bool scsi_block_major(unsigned int major)
{
	return major == 8 || major == 11 || (major >= 65 && major <= 71) ||
	       (major >= 128 && major <= 135);
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
			d->wwn = wwn_from_wwid(wwid, strncmp(d->kname, "nvme", 4) == 0);
		d->serial = read_attr_at(dfd, "serial", true);
	}
	/* Device-mapper and md devices are virtual: they have no parent device. */
	if (read_parents(ctx, d, dfd, w)) {
		int r = path_handles(d);

		if (r >= 0 && streq(d->tran, "nvme") && w->pcie)
			r = slot_pcie_identities(d, dfd, w->pcie);
		if (r < 0)
			return r;
	} else {
		d->dm_name = read_attr_at(dfd, "dm/name", false);
		if (w->details & DA_SCAN_STACK)
			read_dir_names(dfd, "slaves", "", &d->slaves);
		if (d->dm_name)
			dm_uuid = read_attr_at(dfd, "dm/uuid", false);
		else if (w->details & DA_SCAN_STACK)
			md_level = read_attr_at(dfd, "md/level", false);
	}
	if (d->dm_name)
		d->type = dm_type(dm_uuid);
	else if (md_level)
		d->type = md_type(md_level);
	else if (d->major == 7)
		d->type = "loop";
	else if (d->major == 11)
		d->type = "rom";
	else
		d->type = "disk";
	return 0;
}

static int read_uint_attr(int dfd, const char *name, uint64_t *ret)
{
	_cleanup_free_ char *s = read_attr_at(dfd, name, false);
	unsigned long long v;
	char *end;

	if (!s)
		return -ENOENT;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*ret = v;
	return 0;
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
static int read_uevent(int dfd, struct da_device *d)
{
	_cleanup_free_ char *buf = read_attr_at(dfd, "uevent", false);
	unsigned int major = 0, minor = 0, partno = 0;
	bool have_major = false, have_minor = false, have_type = false, part = false;
	char *line, *save = NULL;

	if (!buf)
		return -ENOENT;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "MAJOR=", 6) == 0)
			have_major = parse_uint(line + 6, &major) == 0;
		else if (strncmp(line, "MINOR=", 6) == 0)
			have_minor = parse_uint(line + 6, &minor) == 0;
		else if (strncmp(line, "PARTN=", 6) == 0 && parse_uint(line + 6, &partno) < 0)
			return -ENOENT;
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

/*
 * Read one device; @entry is its sys/class/block path. Returns 0, 1 when it
 * is to be skipped (hidden), or a negative errno with a warning in @diag.
 */
static int device_load(const struct da_ctx *ctx, const char *entry, const char *kname,
		       const struct scan_want *w, struct da_diag *diag, struct da_device **ret)
{
	struct da_device *d = calloc(1, sizeof(*d));
	_cleanup_free_ char *dev = NULL;
	_cleanup_(close_fdp) int dfd = -1;
	uint64_t v;
	int r;

	if (!d)
		return -ENOMEM;
	d->kname = strdup(kname);
	/*
	 * The link's target by its letters, not realpath(): that reads every
	 * component of the path back as a link, a dozen calls per device.
	 */
	d->syspath = resolve_link(entry);
	/* Opened once: each attribute is then a lookup of one name, not of the whole path. */
	if (d->syspath)
		dfd = open(d->syspath, O_PATH | O_DIRECTORY | O_CLOEXEC);
	r = -ENOMEM;
	if (!d->kname)
		goto fail;
	if (dfd < 0) {
		r = -errno;
		da_diag_add(diag, entry, 0, true, "skipped: cannot resolve the link: %s",
			    strerror(-r));
		goto fail;
	}
	if (read_uevent(dfd, d) < 0) {
		dev = read_attr_at(dfd, "dev", false);
		if (!dev || sscanf(dev, "%u:%u", &d->major, &d->minor) != 2) {
			r = -EINVAL;
			da_diag_add(diag, d->syspath, 0, true,
				    "skipped: no readable 'dev' attribute");
			goto fail;
		}
		if (read_uint_attr(dfd, "partition", &v) == 0)
			set_partition(d, v);
	}
	/*
	 * A partition has neither "hidden" nor "removable": they are its disk's
	 * (scan_sysfs()). Only NVMe hides disks (a multipath namespace's paths);
	 * SCSI disks, by far the most, never: no lookup that cannot succeed.
	 */
	if (d->devtype == DA_DEV_DISK && !scsi_block_major(d->major) &&
	    read_uint_attr(dfd, "hidden", &v) == 0 && v) {
		device_free(d);
		return 1;
	}
	if ((w->details & DA_SCAN_SIZE) && read_uint_attr(dfd, "size", &v) == 0)
		d->size = v * 512;
	d->removable = (w->details & DA_SCAN_REMOVABLE) && d->devtype == DA_DEV_DISK &&
		       read_uint_attr(dfd, "removable", &v) == 0 && v;
	d->ro = (w->details & DA_SCAN_READONLY) && read_uint_attr(dfd, "ro", &v) == 0 && v;
	if (d->devtype == DA_DEV_DISK) {
		r = read_disk(ctx, d, dfd, w);
		if (r < 0)
			goto fail;
	}
	*ret = d;
	return 0;
fail:
	device_free(d);
	return r;
}

/*
 * Record the link /dev/disk/@kdir/@name (of identity @kind) as @d's, once:
 * from the directory, where the link points at one device, and from the
 * udev database, where every device that claims it says so.
 */
static int add_link_identity(struct da_device *d, enum da_id_kind kind, const char *kdir,
			     const char *name)
{
	_cleanup_free_ char *value = da_id_value_from_link(kind, name);
	_cleanup_free_ char *link = xasprintf("%s/%s", kdir, name);
	int r;

	if (!value || !link)
		return -ENOMEM;
	r = add_identity(d, kind, value);
	if (r >= 0 && !strv_contains(&d->links, link)) {
		r = device_unpack(d);
		if (r >= 0)
			r = strv_consume(&d->links, link);
		link = NULL;
	}
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
	return add_link_identity(d, k, da_id_kind_dir(k), slash + 1);
}

/*
 * Read the udev database entry of @d, where udev runs: properties and links.
 * -ENOENT when there is none (yet), -ENOMEM, else 0.
 */
static int read_udev_db(const struct da_ctx *ctx, struct da_device *d)
{
	_cleanup_free_ char *buf = NULL;
	char *line, *save = NULL;
	int r = da_udev_db_read(ctx, d->major, d->minor, &buf);

	if (r == -ENOENT || r == -ENOMEM)
		return r;
	if (r < 0) /* unreadable: what sysfs says stands */
		return 0;
	for (line = strtok_r(buf, "\n", &save); line && r >= 0;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "E:ID_PATH=", 10) == 0 && !d->id_path) {
			d->id_path = strdup(line + 10);
			if (!d->id_path)
				r = -ENOMEM;
		}
		/* mdadm's rules make /dev/md/NAME of it; a name with a '/' is no such link. */
		if (strncmp(line, "E:MD_DEVNAME=", 13) == 0 && !d->md_devname && line[13] &&
		    !strchr(line + 13, '/') && strcmp(line + 13, ".") && strcmp(line + 13, "..")) {
			d->md_devname = strdup(line + 13);
			if (!d->md_devname)
				r = -ENOMEM;
		}
		if (strncmp(line, "S:", 2) == 0)
			r = add_db_link(d, line);
		if (strncmp(line, "E:", 2) == 0) {
			for (size_t i = 0; da_udev_props[i].key; i++) {
				size_t n = strlen(da_udev_props[i].key);

				if (strncmp(line + 2, da_udev_props[i].key, n) != 0 ||
				    line[2 + n] != '=')
					continue;
				/* A partition inherits its disk's: they are not its own. */
				if (da_udev_props[i].disk && d->devtype != DA_DEV_DISK)
					continue;
				r = add_identity(d, da_udev_props[i].kind, line + 3 + n);
			}
		}
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
				r = add_link_identity(d, k, kdir, de->d_name);
		}
		closedir(dp);
	}
	return r;
}

/* The disk's own identities, first: they win the order da_device_identity() reports. */
static int disk_identities(struct da_device *d)
{
	int r = 0;

	if (d->devtype != DA_DEV_DISK)
		return 0;
	r = add_identity(d, DA_ID_WWN, d->wwn);
	if (r >= 0)
		r = add_identity(d, DA_ID_SERIAL, d->serial);
	return r;
}

/* udev's ID_PATH names the slot; its link leads the by-path names (sas-phyN before sas-exp...). */
static void primary_path_first(struct da_device *d)
{
	struct strv *p = &d->ids[DA_ID_PATH];
	_cleanup_free_ char *want = NULL;

	if (!d->id_path)
		return;
	/* A partition's links carry its disk's ID_PATH with a -partN suffix. */
	want = d->partno ? da_link_partition(d->id_path, d->partno) : strdup(d->id_path);
	for (size_t i = 1; want && i < p->n; i++) {
		if (streq(p->v[i], want)) {
			char *s = p->v[i];

			memmove(p->v + 1, p->v, i * sizeof(*p->v));
			p->v[0] = s;
			break;
		}
	}
}

/*
 * Kernel names in the order people expect: letters after the family prefix
 * compare by length first (sdz before sdaa), digits as numbers.
 */
static int kname_cmp(const char *a, const char *b)
{
	static const char *const families[] = { "xvd", "sd", "hd", "vd" };

	for (size_t i = 0; i < ARRAY_SIZE(families); i++) {
		size_t n = strlen(families[i]);

		if (strncmp(a, families[i], n) == 0 && strncmp(b, families[i], n) == 0) {
			a += n;
			b += n;
			break;
		}
	}
	while (*a && *b) {
		size_t la, lb;
		int c;

		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			unsigned long long x = strtoull(a, NULL, 10), y = strtoull(b, NULL, 10);

			if (x != y)
				return x < y ? -1 : 1;
			while (isdigit((unsigned char)*a))
				a++;
			while (isdigit((unsigned char)*b))
				b++;
			continue;
		}
		la = strcspn(a, "0123456789");
		lb = strcspn(b, "0123456789");
		if (la && lb && la != lb && islower((unsigned char)*a) &&
		    islower((unsigned char)*b) && strspn(a, "abcdefghijklmnopqrstuvwxyz") == la &&
		    strspn(b, "abcdefghijklmnopqrstuvwxyz") == lb)
			return la < lb ? -1 : 1;
		c = (unsigned char)*a - (unsigned char)*b;
		if (c)
			return c;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

/* Disks by kernel name; each partition right after its disk, by number. */
static int device_cmp(const void *pa, const void *pb)
{
	const struct da_device *a = *(struct da_device *const *)pa;
	const struct da_device *b = *(struct da_device *const *)pb;
	const struct da_device *da = a->parent ? a->parent : a;
	const struct da_device *db = b->parent ? b->parent : b;
	int c = kname_cmp(da->kname, db->kname);

	if (c)
		return c;
	if (!a->parent || !b->parent)
		return a->parent ? 1 : b->parent ? -1 : 0;
	return a->partno < b->partno ? -1 : a->partno > b->partno;
}

int device_list_add(struct da_devlist *l, struct da_device *d)
{
	if (ARRAY_GROW(l->v, l->n) < 0)
		return -ENOMEM;
	d->pos = l->n;
	l->v[l->n++] = d;
	return hashmap_put(&l->bykname, d->kname, d);
}

/* @d is a holder of each of its slaves. */
static int add_holders(struct da_devlist *l, struct da_device *d)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < d->slaves.n; i++) {
		struct da_device *s = hashmap_get(&l->bykname, d->slaves.v[i]);

		if (s && s != d && !strv_contains(&s->holders, d->kname)) {
			r = device_unpack(s);
			if (r >= 0)
				r = strv_push(&s->holders, d->kname);
		}
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
	_cleanup_free_ char *dir = NULL;
	struct strv entries = {};
	struct strv hidden = {}; /* NVMe multipath paths, hidden disks */
	struct strv pcie = {};
	size_t unseen = 0; /* devices udev has no database entry of */
	struct scan_want wp = *want, *w = &wp;
	struct da_devlist *l;
	int r = 0;

	if (slot_pcie_read(ctx, &pcie) < 0) {
		strv_free(&pcie);
		return -ENOMEM;
	}
	wp.pcie = &pcie;
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
	for (size_t i = 0; i < entries.n; i++) {
		_cleanup_free_ char *entry = xasprintf("%s/%s", dir, entries.v[i]);
		const char *kname = path_basename(entries.v[i]);
		struct da_device *d = NULL;

		if (!entry) {
			r = -ENOMEM;
			break;
		}
		r = device_load(ctx, entry, kname, w, diag, &d);
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
	strv_free(&entries);
	strv_free(&pcie);
	for (size_t i = 0; r >= 0 && i < l->n; i++) {
		struct da_device *d = l->v[i];

		if (d->devtype == DA_DEV_PART) {
			_cleanup_free_ char *up = strdup(d->syspath);
			char *slash = up ? strrchr(up, '/') : NULL;

			if (slash)
				*slash = '\0';
			d->parent = up ? hashmap_get(&l->bykname, path_basename(up)) : NULL;
			if (d->parent)
				d->removable = d->parent->removable;
		}
		r = disk_identities(d);
		/* A device udev has not seen (yet) is named by what sysfs says. */
		if (r >= 0 && (r = read_udev_db(ctx, d)) == -ENOENT) {
			unseen++;
			r = 0;
		}
		/* All it reads is read: 30,000 devices are 60,000 allocations, not a million. */
		if (r >= 0)
			r = device_pack(d);
	}
	for (size_t i = 0; r >= 0 && i < hidden.n; i++)
		r = nvme_path_handles(l, hidden.v[i]);
	for (size_t i = 0; r >= 0 && i < l->n; i++)
		r = add_holders(l, l->v[i]);
	strv_free(&hidden);
	/*
	 * Every link udev made under /dev/disk is in the database entry of each
	 * device that claims it, read above: the directories add something only
	 * for a device udev has no entry of (no udev, or not seen yet).
	 */
	if (r >= 0 && (unseen || !l->n))
		r = read_links(ctx, l);
	if (r < 0) {
		da_devlist_free(l);
		return r;
	}
	qsort(l->v, l->n, sizeof(*l->v), device_cmp);
	for (size_t i = 0; i < l->n; i++) {
		l->v[i]->pos = i;
		strv_sort(&l->v[i]->ids[DA_ID_ID]);
		strv_sort(&l->v[i]->ids[DA_ID_PATH]);
		strv_sort(&l->v[i]->ids[DA_ID_SLOT]);
		strv_sort(&l->v[i]->handles);
		strv_sort(&l->v[i]->shared);
		strv_sort(&l->v[i]->slaves);
		strv_sort(&l->v[i]->holders);
		primary_path_first(l->v[i]);
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
	const struct scan_want w = { .details = details & DA_SCAN_DETAILS };

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

/*
 * Devices described by someone else (udev's properties for one event),
 * without a sysfs scan: an empty list, then devices added one by one.
 */
int da_devlist_new_empty(struct da_devlist **ret_list)
{
	struct da_devlist *l = calloc(1, sizeof(*l));

	if (!l)
		return -ENOMEM;
	hashmap_init(&l->bykname, false);
	*ret_list = l;
	return 0;
}

/*
 * What a disk's place tells without reading sysfs, from udev's DEVPATH
 * (/devices/.../ata3/host2/target2:0:0/2:0:0:0/block/sdc): its SCSI
 * address (the directory above block/) and the handles of its port or
 * controller.
 */
int da_device_set_devpath(struct da_device *d, const char *devpath)
{
	const char *end = strstr(devpath, "/block/");
	const char *start = end;

	if (d->syspath)
		return 0;
	d->syspath = strdup(devpath);
	if (!d->syspath)
		return -ENOMEM;
	while (start && start > devpath && start[-1] != '/')
		start--;
	if (start && start < end) {
		_cleanup_free_ char *dir = strndup(start, end - start);

		d->hctl = dir ? hctl_of(dir) : NULL;
	}
	return path_handles(d);
}

int da_devlist_add_device(struct da_devlist *l, const char *kname, unsigned int major,
			  unsigned int minor, unsigned int partno, struct da_device *parent,
			  struct da_device **ret_dev)
{
	struct da_device *d = calloc(1, sizeof(*d));
	int r;

	if (!d)
		return -ENOMEM;
	d->kname = strdup(kname);
	if (!d->kname) {
		device_free(d);
		return -ENOMEM;
	}
	d->major = major;
	d->minor = minor;
	d->devtype = parent ? DA_DEV_PART : DA_DEV_DISK;
	d->type = parent ? "part" : "disk";
	d->partno = partno;
	d->parent = parent;
	r = device_list_add(l, d);
	if (r < 0) {
		/* list_add() may have kept the device in the array: take it out. */
		if (l->n && l->v[l->n - 1] == d)
			l->n--;
		device_free(d);
		return r;
	}
	*ret_dev = d;
	return 0;
}

int da_device_add_identity(struct da_device *d, enum da_id_kind kind, const char *value)
{
	return add_identity(d, kind, value);
}

int da_device_add_link(struct da_device *d, const char *kdir, const char *name)
{
	return strv_consume(&d->links, xasprintf("%s/%s", kdir, name));
}

DA_EXPORT size_t da_devlist_count(const struct da_devlist *l)
{
	return l->n;
}

DA_EXPORT struct da_device *da_devlist_get(const struct da_devlist *l, size_t i)
{
	return i < l->n ? l->v[i] : NULL;
}

DA_EXPORT struct da_device *da_devlist_find_kname(const struct da_devlist *l, const char *kname)
{
	return hashmap_get(&l->bykname, kname);
}

DA_EXPORT struct da_device *da_devlist_find_devnum(const struct da_devlist *l, unsigned int major,
						   unsigned int minor)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i]->major == major && l->v[i]->minor == minor)
			return l->v[i];
	return NULL;
}

DA_EXPORT struct da_device *da_devlist_find_link(const struct da_devlist *l, const char *link)
{
	const char *rel = da_dev_disk_link(link);

	for (size_t i = 0; rel && i < l->n; i++)
		if (strv_contains(&l->v[i]->links, rel))
			return l->v[i];
	return NULL;
}

size_t da_device_pos(const struct da_device *d)
{
	return d->pos;
}

DA_EXPORT const char *da_device_kname(const struct da_device *d)
{
	return d->kname;
}

DA_EXPORT unsigned int da_device_major(const struct da_device *d)
{
	return d->major;
}

DA_EXPORT unsigned int da_device_minor(const struct da_device *d)
{
	return d->minor;
}

DA_EXPORT enum da_devtype da_device_devtype(const struct da_device *d)
{
	return d->devtype;
}

DA_EXPORT const char *da_device_type(const struct da_device *d)
{
	return d->type;
}

DA_EXPORT uint64_t da_device_size(const struct da_device *d)
{
	return d->size;
}

DA_EXPORT unsigned int da_device_partno(const struct da_device *d)
{
	return d->partno;
}

DA_EXPORT struct da_device *da_device_parent(const struct da_device *d)
{
	return d->parent;
}

DA_EXPORT bool da_device_removable(const struct da_device *d)
{
	return d->removable;
}

DA_EXPORT bool da_device_readonly(const struct da_device *d)
{
	return d->ro;
}

DA_EXPORT const char *da_device_model(const struct da_device *d)
{
	return d->model;
}

DA_EXPORT const char *da_device_serial(const struct da_device *d)
{
	return d->serial;
}

DA_EXPORT const char *da_device_wwn(const struct da_device *d)
{
	return d->wwn;
}

DA_EXPORT const char *da_device_dm_name(const struct da_device *d)
{
	return d->dm_name;
}

DA_EXPORT const char *da_device_hctl(const struct da_device *d)
{
	return d->hctl;
}

DA_EXPORT const char *da_device_slave(const struct da_device *d, size_t i)
{
	return i < d->slaves.n ? d->slaves.v[i] : NULL;
}

DA_EXPORT const char *da_device_holder(const struct da_device *d, size_t i)
{
	return i < d->holders.n ? d->holders.v[i] : NULL;
}

const char *da_device_md_devname(const struct da_device *d)
{
	return d->md_devname;
}

DA_EXPORT const char *da_device_tran(const struct da_device *d)
{
	return d->tran;
}

DA_EXPORT const char *da_device_ata(const struct da_device *d)
{
	return d->ata;
}

DA_EXPORT const char *da_device_handle(const struct da_device *d, size_t i, bool *ret_shared)
{
	bool shared = i >= d->handles.n + (d->ata ? 1 : 0);
	const char *h;

	if (d->ata && i == 0)
		h = d->ata;
	else if (!shared)
		h = d->handles.v[i - (d->ata ? 1 : 0)];
	else if (i - d->handles.n - (d->ata ? 1 : 0) < d->shared.n)
		h = d->shared.v[i - d->handles.n - (d->ata ? 1 : 0)];
	else
		return NULL;
	if (ret_shared)
		*ret_shared = shared;
	return h;
}

DA_EXPORT const char *da_device_identity(const struct da_device *d, enum da_id_kind kind, size_t i)
{
	if (kind < 0 || kind >= _DA_ID_MAX || i >= d->ids[kind].n)
		return NULL;
	return d->ids[kind].v[i];
}

DA_EXPORT bool da_device_has_identity(const struct da_device *d, enum da_id_kind kind,
				      const char *value)
{
	if (kind < 0 || kind >= _DA_ID_MAX)
		return false;
	for (size_t i = 0; i < d->ids[kind].n; i++)
		if (da_id_value_equal(kind, d->ids[kind].v[i], value))
			return true;
	return false;
}

int da_udev_db_has_identity(const struct da_ctx *ctx, unsigned int major, unsigned int minor,
			    enum da_id_kind kind, const char *value)
{
	struct da_device d = { .devtype = DA_DEV_DISK, .major = major, .minor = minor };
	int r = read_udev_db(ctx, &d);

	if (r >= 0)
		r = da_device_has_identity(&d, kind, value);
	for (int k = 0; k < _DA_ID_MAX; k++)
		strv_free(&d.ids[k]);
	strv_free(&d.links);
	free(d.id_path);
	return r;
}
