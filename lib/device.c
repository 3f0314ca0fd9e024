// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A block device and a list of them, as discovery (scan.c), a snapshot
 * (devcache.c) or udev's properties (udev.c) make them: what a device is,
 * what its place tells (its handles from its path), how its list is kept
 * and ordered, and the accessors. Nothing here reads the machine: the
 * files that do sit above this one (see HACKING.md, "Layers").
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "device.h"

/*
 * Every string field of @d, for device_pack() and device_unpack(); not its
 * kernel name, which keys its list's hash and stays where it is.
 */
/* clang-format 14 and 19 lay out a brace list in a macro each their own way. */
/* clang-format off */
#define DEVICE_STRS(d)                                                                   \
	{ &(d)->syspath, &(d)->model, &(d)->serial, &(d)->wwn, &(d)->dm_name, &(d)->hctl, \
	  &(d)->ata, &(d)->id_path, &(d)->md_devname }
/* clang-format on */

const char *packer_place(struct packer *p, const char *s)
{
	const char *at = NULL;
	size_t len = strlen(s);

	for (size_t i = 0; i < p->n && !at; i++) {
		size_t pl = p->placed_len[i];

		if (pl >= len && memcmp(p->placed[i] + pl - len, s, len) == 0)
			at = p->placed[i] + pl - len;
	}
	if (at)
		return at;
	at = s;
	if (p->text) {
		at = memcpy(p->text, s, len + 1);
		p->text += len + 1;
	}
	p->bytes += len + 1;
	if (p->n < ARRAY_SIZE(p->placed)) {
		p->placed_len[p->n] = len;
		p->placed[p->n++] = at;
	}
	return at;
}

/* Place string *@sp with @p; when @p has text, *@sp becomes its place there (the original freed). */
static void pack_string(struct packer *p, char **sp)
{
	const char *at = packer_place(p, *sp);

	if (p->text) {
		free(*sp);
		*sp = (char *)at;
	}
}

/* Place every string of @d with @p: its lists' (device_place_order()), then its fields'. */
static void pack_all(struct da_device *d, struct packer *p)
{
	char **strs[] = DEVICE_STRS(d);

	for (unsigned int j = 0; d->edit && j < _DEV_LIST_MAX; j++) {
		struct strv *v = &d->edit[device_place_order(j)];

		for (size_t i = 0; i < v->n; i++)
			pack_string(p, &v->v[i]);
		p->nptr += v->n;
	}
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
		if (*strs[i])
			pack_string(p, strs[i]);
}

int device_pack(struct da_device *d)
{
	/* Not zeroed whole: only the first n of placed[] are read, and this runs per device. */
	struct packer count, place;
	char **ptrs;
	char *block;

	if (d->packed || d->borrowed)
		return 0;
	count.n = count.bytes = count.nptr = 0;
	count.text = NULL;
	place = count;
	pack_all(d, &count);
	/* A device of more than 65,535 names in its lists stays as it is. */
	if (count.nptr > UINT16_MAX)
		return 0;
	block = malloc(count.nptr * sizeof(char *) + count.bytes);
	if (!block)
		return -ENOMEM;
	place.text = block + count.nptr * sizeof(char *);
	pack_all(d, &place);
	/* The lists' pointers, in their order, ahead of the strings. */
	ptrs = (char **)block;
	for (unsigned int k = 0; d->edit && k < _DEV_LIST_MAX; k++) {
		struct strv *v = &d->edit[k];

		if (v->n)
			memcpy(ptrs, v->v, v->n * sizeof(*ptrs));
		ptrs += v->n;
		d->lend[k] = ptrs - (char **)block;
		free(v->v);
	}
	free(d->edit);
	d->edit = NULL;
	d->lv = (char **)block;
	d->packed = block;
	return 0;
}

int device_unpack(struct da_device *d)
{
	char **strs[] = DEVICE_STRS(d);
	char *copies[ARRAY_SIZE(strs)] = {};
	struct strv *fresh;
	int r = 0;

	if (!d->packed)
		return 0;
	fresh = calloc(_DEV_LIST_MAX, sizeof(*fresh));
	if (!fresh)
		return -ENOMEM;
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(strs); i++)
		if (*strs[i] && !(copies[i] = strdup(*strs[i])))
			r = -ENOMEM;
	for (unsigned int k = 0; r >= 0 && k < _DEV_LIST_MAX; k++) {
		struct strv v = device_list(d, k);

		for (size_t i = 0; r >= 0 && i < v.n; i++)
			r = strv_push(&fresh[k], v.v[i]);
	}
	if (r < 0) {
		for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
			free(copies[i]);
		for (unsigned int k = 0; k < _DEV_LIST_MAX; k++)
			strv_free(&fresh[k]);
		free(fresh);
		return r;
	}
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
		*strs[i] = copies[i];
	d->edit = fresh;
	d->lv = NULL;
	memset(d->lend, 0, sizeof(d->lend));
	free(d->packed);
	d->packed = NULL;
	return 0;
}

struct strv *device_edit(struct da_device *d, unsigned int k)
{
	if (d->borrowed || device_unpack(d) < 0)
		return NULL;
	if (!d->edit)
		d->edit = calloc(_DEV_LIST_MAX, sizeof(*d->edit));
	return d->edit ? &d->edit[k] : NULL;
}

void device_release(struct da_device *d)
{
	for (unsigned int k = 0; d->edit && k < _DEV_LIST_MAX; k++)
		strv_free(&d->edit[k]);
	free(d->edit);
	d->edit = NULL;
	/* Packed, its strings are in its block. */
	if (!d->packed) {
		char **strs[] = DEVICE_STRS(d);

		for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
			free(*strs[i]);
	}
	free(d->packed);
	d->packed = NULL;
}

void device_free(struct da_device *d)
{
	/* A snapshot's device is part of its list's blocks (devcache.c). */
	if (!d || d->borrowed)
		return;
	device_release(d);
	free(d->kname);
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
	/* A snapshot's devices and lists are blocks of their own, and the file mapped (devcache.c).
	 */
	free(l->snap_devices);
	free(l->snap_strv);
	if (l->snap_map)
		munmap(l->snap_map, l->snap_len);
	free(l);
}

/* Whether @d has @value (as da_id_value_equal() compares) among its identities @kind. */
static bool has_identity(const struct da_device *d, enum da_id_kind kind, const char *value)
{
	struct strv ids = device_ids(d, kind);

	for (size_t i = 0; i < ids.n; i++)
		if (da_id_value_equal(kind, ids.v[i], value))
			return true;
	return false;
}

int device_take(struct da_device *d, unsigned int k, char *s)
{
	struct strv *v = s ? device_edit(d, k) : NULL;

	if (!v) {
		free(s);
		return -ENOMEM;
	}
	return strv_consume(v, s);
}

int device_push(struct da_device *d, unsigned int k, const char *s)
{
	return device_take(d, k, strdup(s));
}

/* Add @value to identity @kind of @d unless it is there already. */
static int add_identity(struct da_device *d, enum da_id_kind kind, const char *value)
{
	if (!value || !*value || has_identity(d, kind, value))
		return 0;
	return device_push(d, DEV_IDS + kind, value);
}

/* The WWN users see, from a kernel wwid: naa.X -> 0xX; NVMe ids as they are; t10 vendor ids are
 * none. */
char *device_wwn_from_wwid(const char *wwid, bool nvme)
{
	if (strncmp(wwid, "naa.", 4) == 0)
		return xasprintf("0x%s", wwid + 4);
	if (strncmp(wwid, "eui.", 4) == 0 || nvme)
		return strdup(wwid);
	return NULL;
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
/* Whether @s is @prefix and a number (ata3, nvme10): the number in @ret. */
static bool numbered(const char *s, const char *prefix, unsigned int *ret)
{
	size_t n = strlen(prefix);

	return strncmp(s, prefix, n) == 0 && is_number(s + n) && parse_uint(s + n, ret) == 0;
}

/*
 * The NVMe names of namespace @d besides its own: under a controller
 * (.../nvme/nvmeC/nvmeSnN), that controller and its generic node ngCnN; a
 * multipath head (under nvme-subsystem) its own generic node ngSnN (its
 * paths are added by device_nvme_path_handles()).
 */
int device_nvme_handles(struct da_device *d, const char *ctrl)
{
	unsigned int s, n, c;
	int r;

	if (sscanf(d->kname, "nvme%un%u", &s, &n) != 2)
		return 0;
	if (!ctrl)
		return device_take(d, DEV_HANDLES, xasprintf("ng%un%u", s, n));
	if (!numbered(ctrl, "nvme", &c))
		return 0;
	r = device_push(d, DEV_SHARED, ctrl);
	return r < 0 ? r : device_take(d, DEV_HANDLES, xasprintf("ng%un%u", c, n));
}

/*
 * A multipath head's path through controller C, the hidden disk nvmeScCnN:
 * its name, its generic node ngCnN and the controller are the head's.
 */
int device_nvme_path_handles(struct da_devlist *l, const char *path)
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
	r = device_push(d, DEV_HANDLES, path);
	if (r >= 0)
		r = device_take(d, DEV_HANDLES, xasprintf("ng%un%u", c, n));
	if (r >= 0)
		r = device_take(d, DEV_SHARED, xasprintf("nvme%u", c));
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
int device_path_handles(struct da_device *d)
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
		/*
		 * Each name below starts with one of these; most of a path
		 * (pci0000:00, host2, port-2:0, target2:0:0, block) with none.
		 */
		if (!strchr("aemnrsuv0123456789", *c))
			continue;
		if (numbered(c, "ata", &n)) {
			d->tran = "sata";
			if (d->ata || !d->hctl || sscanf(d->hctl, "%*u:%u:%u", &ch, &t) != 2)
				continue;
			d->ata = xasprintf("ata%u.%02u", n, ch + t);
			r = d->ata ? device_push(d, DEV_SHARED, c) : -ENOMEM;
			if (r >= 0 && ch)
				r = device_take(d, DEV_SHARED, xasprintf("ata%u.15", n));
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
			r = device_push(d, DEV_SHARED, c);
		} else if ((streq(prev, "nvme") && numbered(c, "nvme", &n)) ||
			   strncmp(c, "nvme-subsys", 11) == 0) {
			d->tran = "nvme";
			ctrl = streq(prev, "nvme") ? c : NULL;
		}
	}
	if (r >= 0 && streq(d->tran, "nvme"))
		r = device_nvme_handles(d, ctrl);
	if (r >= 0 && usb && streq(d->tran, "usb"))
		r = device_take(d, DEV_SHARED, xasprintf("usb %s", usb));
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

const char *device_dm_type(const char *uuid)
{
	for (size_t i = 0; uuid && i < ARRAY_SIZE(dm_types); i++)
		if (strncmp(uuid, dm_types[i].prefix, strlen(dm_types[i].prefix)) == 0)
			return dm_types[i].type;
	return "dm";
}

const char *device_md_type(const char *level)
{
	for (size_t i = 0; level && i < ARRAY_SIZE(md_levels); i++)
		if (streq(level, md_levels[i]))
			return md_levels[i];
	return "md";
}

/*
 * Record the link /dev/disk/@kdir/@name (of identity @kind) as @d's, once:
 * from the directory, where the link points at one device, and from the
 * udev database, where every device that claims it says so.
 */
int device_add_link_identity(struct da_device *d, enum da_id_kind kind, const char *kdir,
			     const char *name)
{
	_cleanup_free_ char *value = da_id_value_from_link(kind, name);
	_cleanup_free_ char *link = strjoin(kdir, "/", name, NULL);
	int r = 0;

	if (!value || !link)
		return -ENOMEM;
	/* Moved into the lists, not copied: one of each per link of every device. */
	if (*value && !has_identity(d, kind, value)) {
		r = device_take(d, DEV_IDS + kind, value);
		value = NULL;
	}
	if (r >= 0 && !device_list_has(d, DEV_LINKS, link)) {
		r = device_take(d, DEV_LINKS, link);
		link = NULL;
	}
	return r;
}

/* The disk's own identities, first: they win the order da_device_identity() reports. */
int device_disk_identities(struct da_device *d)
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
void device_primary_path_first(struct da_device *d)
{
	/* Reordered where the list is: no device changes its size for it. */
	struct strv p = device_ids(d, DA_ID_PATH);
	_cleanup_free_ char *want = NULL;

	if (!d->id_path)
		return;
	/* A partition's links carry its disk's ID_PATH with a -partN suffix. */
	want = d->partno ? da_link_partition(d->id_path, d->partno) : strdup(d->id_path);
	for (size_t i = 1; want && i < p.n; i++) {
		if (streq(p.v[i], want)) {
			char *s = p.v[i];

			memmove(p.v + 1, p.v, i * sizeof(*p.v));
			p.v[0] = s;
			break;
		}
	}
}

/* Where the lower-case letters that end the first @len characters of @s start. */
static size_t lower_tail(const char *s, size_t len)
{
	while (len && islower((unsigned char)s[len - 1]))
		len--;
	return len;
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
		size_t la, lb, ta, tb, n;

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
		/*
		 * A run of non-digits each: from where what is left of both runs
		 * is lower-case letters (ta, tb), the shorter run sorts first;
		 * before, the first differing character decides.
		 */
		la = strcspn(a, "0123456789");
		lb = strcspn(b, "0123456789");
		ta = lower_tail(a, la);
		tb = lower_tail(b, lb);
		n = la < lb ? la : lb;
		if (!n)
			return (unsigned char)*a - (unsigned char)*b;
		for (size_t i = 0; i < n; i++) {
			if (la != lb && i >= ta && i >= tb)
				return la < lb ? -1 : 1;
			if (a[i] != b[i])
				return (unsigned char)a[i] - (unsigned char)b[i];
		}
		a += n;
		b += n;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

/* Disks by kernel name; each partition right after its disk, by number. */
int device_cmp(const void *pa, const void *pb)
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
int device_add_holders(struct da_devlist *l, struct da_device *d)
{
	struct strv slaves = device_list(d, DEV_SLAVES);
	int r = 0;

	for (size_t i = 0; r >= 0 && i < slaves.n; i++) {
		struct da_device *s = hashmap_get(&l->bykname, slaves.v[i]);

		if (s && s != d && !device_list_has(s, DEV_HOLDERS, d->kname))
			r = device_push(s, DEV_HOLDERS, d->kname);
	}
	return r;
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
	return device_path_handles(d);
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
	return device_take(d, DEV_LINKS, strjoin(kdir, "/", name, NULL));
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
		if (device_list_has(l->v[i], DEV_LINKS, rel))
			return l->v[i];
	return NULL;
}

DA_EXPORT size_t da_device_pos(const struct da_device *d)
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
	struct strv v = device_list(d, DEV_SLAVES);

	return i < v.n ? v.v[i] : NULL;
}

DA_EXPORT const char *da_device_holder(const struct da_device *d, size_t i)
{
	struct strv v = device_list(d, DEV_HOLDERS);

	return i < v.n ? v.v[i] : NULL;
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
	struct strv own = device_list(d, DEV_HANDLES), others = device_list(d, DEV_SHARED);
	bool shared = i >= own.n + (d->ata ? 1 : 0);
	const char *h;

	if (d->ata && i == 0)
		h = d->ata;
	else if (!shared)
		h = own.v[i - (d->ata ? 1 : 0)];
	else if (i - own.n - (d->ata ? 1 : 0) < others.n)
		h = others.v[i - own.n - (d->ata ? 1 : 0)];
	else
		return NULL;
	if (ret_shared)
		*ret_shared = shared;
	return h;
}

DA_EXPORT const char *da_device_identity(const struct da_device *d, enum da_id_kind kind, size_t i)
{
	struct strv ids;

	if (kind < 0 || kind >= _DA_ID_MAX)
		return NULL;
	ids = device_ids(d, kind);
	return i < ids.n ? ids.v[i] : NULL;
}

DA_EXPORT bool da_device_has_identity(const struct da_device *d, enum da_id_kind kind,
				      const char *value)
{
	return kind >= 0 && kind < _DA_ID_MAX && has_identity(d, kind, value);
}