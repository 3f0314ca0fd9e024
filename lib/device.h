/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A block device as discovery knows it: device.c reads it, devcache.c keeps it between runs. */
#ifndef DA_DEVICE_H
#define DA_DEVICE_H

#include "hashmap.h"
#include "internal.h"

/*
 * A device's lists, by their place among them (device_list()): its own
 * handles, those it shares, what it is made of and what holds it, its
 * identities of each kind, and its links.
 */
enum device_list {
	DEV_HANDLES,
	DEV_SHARED,
	DEV_SLAVES,			  /* kernel names: what a dm or md device is made of */
	DEV_HOLDERS,			  /* and back */
	DEV_IDS,			  /* DEV_IDS + kind: its identities of that kind */
	DEV_LINKS = DEV_IDS + _DA_ID_MAX, /* "by-id/NAME" for each /dev/disk link */
	_DEV_LIST_MAX,
};

struct da_device {
	char *kname;
	/*
	 * The device's real directory under sys/devices; a scanned partition
	 * has none (its disk's, and its name, are its place).
	 */
	char *syspath;
	unsigned int major, minor;
	enum da_devtype devtype;
	unsigned int partno;
	const char *type;
	uint64_t size;
	/* The disk's sequence number from its uevent (DISKSEQ=), 0 where it said none. */
	uint64_t diskseq;
	struct da_device *parent;
	char *model, *serial, *wwn, *dm_name;
	char *hctl;	  /* SCSI address H:C:T:L, from the scsi_device on the parent walk */
	const char *tran; /* how it is attached, as lsblk's TRAN: sata, sas, nvme, usb, ... */
	char *ata;	  /* the libata device, ataN.DD */
	char *id_path;	  /* udev's ID_PATH: the slot's primary by-path name */
	char *md_devname; /* udev's MD_DEVNAME: the array is also /dev/md/NAME */
	/*
	 * The lists (enum device_list). The handles are the other names the
	 * kernel gives this disk in its log: its own (ata3.00, sg2,
	 * nvme0c1n1, ng0n1); the shared ones those of the disks of the same
	 * port or controller (ata3, nvme0, mmc0).
	 *
	 * While the device is made or changed, each list is its own array in
	 * @edit (device_edit()). Packed or read from a snapshot, they are one
	 * array of pointers: list k is lv[lend[k - 1]] up to lv[lend[k]], a
	 * tenth of the room fourteen arrays of their own take.
	 */
	struct strv *edit;
	char **lv;
	uint16_t lend[_DEV_LIST_MAX];
	bool removable, ro; /* after the list ends: where their padding would be */
	/*
	 * Read from a snapshot: the device, its strings and lists are in
	 * blocks its list owns, and nothing may change them.
	 */
	bool borrowed;
	/*
	 * Packed (device_pack()): its strings and lists are in this one block,
	 * which a change must first undo (device_unpack()).
	 */
	void *packed;
	size_t pos; /* its place in its list */
};

/* List @k of @d, to read: valid until @d changes. */
static inline struct strv device_list(const struct da_device *d, unsigned int k)
{
	unsigned int start = k ? d->lend[k - 1] : 0;

	if (d->edit)
		return d->edit[k];
	return (struct strv){ .v = d->lv ? d->lv + start : NULL, .n = d->lend[k] - start };
}

/*
 * The list a packer places @j-th: the links first, as their names end the
 * identities' values and the fields' ("by-id/wwn-0x5000..." holds the WWN
 * "0x5000..."), then the others in their order.
 */
static inline unsigned int device_place_order(unsigned int j)
{
	_Static_assert(DEV_LINKS == _DEV_LIST_MAX - 1, "the links are the last list");
	return j ? j - 1 : DEV_LINKS;
}

/* Whether list @k of @d holds @s. */
static inline bool device_list_has(const struct da_device *d, unsigned int k, const char *s)
{
	struct strv v = device_list(d, k);

	return strv_contains(&v, s);
}

/* The identities of @d of @kind. */
static inline struct strv device_ids(const struct da_device *d, enum da_id_kind kind)
{
	return device_list(d, DEV_IDS + kind);
}

struct da_devlist {
	struct da_device **v;
	size_t n;
	struct hashmap bykname;
	/* The blocks of a snapshot's devices (devcache.c), freed with the list. */
	struct da_device *snap_devices;
	char **snap_strv;
	void *snap_map;
	size_t snap_len;
};

void device_free(struct da_device *d);
/* Free what @d holds but its kernel name, not @d itself (a device of the caller's making). */
void device_release(struct da_device *d);
/*
 * Move the strings and lists of @d into one block, a string that ends
 * another (a link's name in its "by-id/NAME") kept once: a scanned device
 * is then three allocations (itself, its kernel name, the block), not
 * thirty. 0, or -ENOMEM (@d as it was).
 */
int device_pack(struct da_device *d);
/*
 * Where device_pack() and a snapshot (devcache.c) put strings: each once,
 * and none that ends one already placed (a link's name in its
 * "by-id/NAME", a WWN in its link). With no @text it only counts, the
 * placed strings being the originals: the same decisions, so a block is
 * allocated to the byte. Set n, bytes and nptr to 0 to start.
 */
struct packer {
	const char *placed[256];
	size_t placed_len[256];
	size_t n;
	char *text;   /* where the next string goes; NULL: count only */
	size_t bytes; /* what the strings placed take */
	size_t nptr;  /* the lists' pointers */
};

/* Place @s with @p: where an equal string, or one that @s ends, is; else at p->text (or @s). */
const char *packer_place(struct packer *p, const char *s);
/* Give @d its own allocations again, to change it: 0 or -ENOMEM (@d as it was). */
int device_unpack(struct da_device *d);
/*
 * List @k of @d, to change: @d is unpacked first. NULL on -ENOMEM, and
 * for a snapshot's device, which nothing may change.
 */
struct strv *device_edit(struct da_device *d, unsigned int k);
/* Take @s into list @k of @d, unpacked first; @s is freed when that fails. 0 or -ENOMEM. */
int device_take(struct da_device *d, unsigned int k, char *s);
/* Add a copy of @s to list @k of @d. 0 or -ENOMEM. */
int device_push(struct da_device *d, unsigned int k, const char *s);
/* Append @d to @l and index it by kernel name. Returns 0 or -ENOMEM (@d may then be in l->v). */
int device_list_add(struct da_devlist *l, struct da_device *d);
/* The static string equal to @s among the type and transport names a device uses, else NULL. */
const char *device_static_name(const char *s);
/* Devices in lsblk's order: disks by major and minor, each followed by its partitions. */
int device_cmp(const void *pa, const void *pb);

/* What a device's names and place tell, without reading the machine. */

/* The WWN users see, from a kernel wwid (naa.X: 0xX; NVMe ids as they are), or NULL. */
char *device_wwn_from_wwid(const char *wwid, bool nvme);
/* An NVMe namespace's generic node and controller, @ctrl its controller's name (or NULL). */
int device_nvme_handles(struct da_device *d, const char *ctrl);
/* A multipath head's hidden path @path of @l (nvmeScCnN): its handles are the head's. */
int device_nvme_path_handles(struct da_devlist *l, const char *path);
/* The handles @d's path under sys/devices names: its ata port, USB device, MMC host. */
int device_path_handles(struct da_device *d);
/* The type lsblk shows of a dm device by its uuid, of an md device by its level. */
const char *device_dm_type(const char *uuid);
const char *device_md_type(const char *level);
/* Record /dev/disk/@kdir/@name (of identity @kind) as @d's, once. */
int device_add_link_identity(struct da_device *d, enum da_id_kind kind, const char *kdir,
			     const char *name);
/* A disk's own identities (WWN, serial) first among its identities. */
int device_disk_identities(struct da_device *d);
/* The primary by-path name (udev's ID_PATH) first among @d's path identities. */
void device_primary_path_first(struct da_device *d);
/* @d is a holder of each of its slaves in @l. */
int device_add_holders(struct da_devlist *l, struct da_device *d);

/* The slot identity of SCSI disk @d from its scsi_device, open as @sdev_fd (slot.c). */
int slot_ses_identities(struct da_device *d, int sdev_fd);
/* The PCIe slots of @ctx, as name, address pairs pushed to @ret. 0 or -ENOMEM. */
int slot_pcie_read(const struct da_ctx *ctx, struct strv *ret);
/* The PCIe slot identities of NVMe namespace @d (its directory open as @dfd), from @pcie. */
int slot_pcie_identities(struct da_device *d, int dfd, const struct strv *pcie);

/* "2:0:3:0" when @dir is a SCSI device's directory (its name is its address), else NULL. */
char *hctl_of(const char *dir);
/* Whether disk @kname of @ctx is in bay @value (a slot identity): 1, 0, or -ENOMEM. */
int slot_device_has(const struct da_ctx *ctx, const char *kname, const char *value);
/* The disk sequence number of @kname (a partition's is its disk's), or 0 where the kernel has none.
 */
uint64_t read_diskseq(const struct da_ctx *ctx, const char *kname);
/*
 * The diskseq of @dev's disk: what its scan read from the uevent, else
 * read_diskseq(). A claim of another device is checked with read_diskseq():
 * that one must be read now.
 */
uint64_t device_diskseq(const struct da_ctx *ctx, const struct da_device *dev);

/* A snapshot of the devices of a scan, valid while the machine's devices are as they were. */
struct devcache_stamp {
	uint64_t seqnum; /* the kernel's uevent count */
	uint64_t udev;	 /* udev's database and /dev/disk links: their directories' times */
};

/* A snapshot file (devcache.c) starts with this; a device's records follow. */
struct devcache_header {
	char magic[8];
	uint64_t seqnum, udev;
	uint32_t id_max;  /* _DA_ID_MAX of the writer */
	uint32_t details; /* the DA_SCAN_* its scan read */
	uint32_t ndev;
	uint32_t pad;
	uint64_t nstrv;	  /* strings in lists, all devices together */
	uint64_t len;	  /* of the whole file */
	uint64_t text_at; /* where the devices' texts start: a page after their records */
};

/* Read @ctx's stamp: 0, or -ENOENT where there is nothing to check a snapshot by. */
int devcache_stamp(const struct da_ctx *ctx, struct devcache_stamp *ret);
/*
 * The snapshot of @ctx if it was made at @stamp reading at least @details
 * (DA_SCAN_*): 1 and *ret_list, 0 when there is none, -ENOMEM.
 */
int devcache_read(const struct da_ctx *ctx, const struct devcache_stamp *stamp,
		  unsigned int details, struct da_devlist **ret_list);
/*
 * The snapshot of @list, made at @stamp reading @details, added to @sb and
 * written out to @fd as it is made; with @fd -1, kept whole in @sb. 0 or
 * -errno.
 */
int devcache_image(const struct devcache_stamp *stamp, unsigned int details,
		   const struct da_devlist *list, struct strbuf *sb, int fd);
/*
 * The list in snapshot @map (@len bytes, mapped, handed over: unmapped
 * with the list, or at once) if it was made at @stamp with at least
 * @details read: 1 and *ret_list, 0 when it is not to be used, -ENOMEM.
 */
int devcache_parse(void *map, size_t len, const struct devcache_stamp *stamp, unsigned int details,
		   struct da_devlist **ret_list);
/* Keep @list as @ctx's snapshot, made at @stamp reading @details; best effort, as a cache is. */
void devcache_write(const struct da_ctx *ctx, const struct devcache_stamp *stamp,
		    unsigned int details, const struct da_devlist *list);

#endif
