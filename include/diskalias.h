/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libdiskalias - persistent, administrator-chosen names for block devices.
 *
 * Conventions, for every function below:
 * - Functions returning int return >= 0 on success and a negative errno on
 *   failure. Constructors return the object through a ret_ out-parameter,
 *   which is set only on success.
 * - The library never prints and never exits. Where a failure has detail a
 *   user should see (a table's file and line, an unknown name), it is added
 *   to a struct da_diag the caller passes (which may be NULL).
 * - Objects are reference counted (ref/unref) or owned by their container as
 *   stated; every unref/free function accepts NULL.
 * - Strings returned as "const char *" belong to the object they came from
 *   and live as long as it does. Strings returned as "char *" are the
 *   caller's to free().
 *
 * ABI (the shared library libdiskalias.so.0, symbols in lib/libdiskalias.sym):
 * - Objects are opaque: their layout is the library's and may change.
 * - The structs a caller allocates (struct da_problem, da_diag, da_kmsg) keep
 *   their size and fields for as long as the soname is .so.0. A field that
 *   must be added comes as a new struct with new functions, never as a
 *   change to these.
 * - Enum values never change. New values are added at the end: identity
 *   kinds before _DA_ID_MAX (which grows: a program built against an older
 *   header may meet kinds at or past its own _DA_ID_MAX from the library,
 *   and must treat them as kinds it does not know, naming them with
 *   da_id_kind_name()); new DA_FILE_* values go at the end of enum da_ctx_file.
 * - A new function goes into a new version node of lib/libdiskalias.sym
 *   (LIBDISKALIAS_0.2 for the release that adds it); a released node is
 *   never changed. Until the first release (0.1.0) everything is in
 *   LIBDISKALIAS_0. make check fails when the exported symbols and the
 *   version script differ.
 */
#ifndef DISKALIAS_H
#define DISKALIAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* -------------------------------------------------------------------------
 * Diagnostics
 */

/* One problem: where (file and line, either may be absent) and what. */
struct da_problem {
	char *file;	   /* NULL when not about a file */
	unsigned int line; /* 0 when not about a line */
	bool warning;	   /* true: worth saying, not a failure */
	char *msg;
};

/* A list of problems, filled by the library, owned and cleared by the caller. */
struct da_diag {
	struct da_problem *v;
	size_t n;
};

/* Free every problem in @diag and leave it empty; NULL is accepted. */
void da_diag_clear(struct da_diag *diag);
/* Add a problem (file and line may be NULL/0). Returns 0 or -ENOMEM; @diag may be NULL. */
int da_diag_add(struct da_diag *diag, const char *file, unsigned int line, bool warning,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Number of problems that are not warnings. */
size_t da_diag_errors(const struct da_diag *diag);

/* -------------------------------------------------------------------------
 * Context: the root under which sys/, proc/, dev/, run/ and etc/ are read.
 */
struct da_ctx;

/*
 * Create a context reading the machine under @root ("/" or NULL for this
 * machine, or a recorded sysroot directory). Returns -ENOENT/-ENOTDIR when
 * @root is not a readable directory.
 */
int da_ctx_new(const char *root, struct da_ctx **ret_ctx);
struct da_ctx *da_ctx_ref(struct da_ctx *ctx);
struct da_ctx *da_ctx_unref(struct da_ctx *ctx);
/* The root as given, without a trailing slash ("" for "/"). */
const char *da_ctx_get_root(const struct da_ctx *ctx);
/* The default table of this root: ROOT/etc/diskalias.conf. Caller frees. */
char *da_ctx_default_table(const struct da_ctx *ctx);
/*
 * For a process that names many devices in a row as the udev helper
 * would, one after the other (udev --boot): with @on, @ctx keeps the
 * claims directory and the kernel log open, the table's index mapped and
 * the forced renames' records read from one device to the next, instead
 * of opening them for each. Nothing may replace run/diskalias or the
 * table meanwhile. Off again closes them.
 */
void da_ctx_set_batch(struct da_ctx *ctx, bool on);
/* The device node of kernel name @kname as the machine names it ("/dev/sdc"). Caller frees. */
char *da_devnode(const char *kname);

/* Files of the machine a context reads. */
enum da_ctx_file {
	DA_FILE_PARTITIONS,	    /* proc/partitions */
	DA_FILE_DISKSTATS,	    /* proc/diskstats */
	DA_FILE_UPTIME,		    /* proc/uptime */
	DA_FILE_KMSG,		    /* dev/kmsg, the kernel log */
	DA_FILE_UDEV_CONTROL,	    /* run/udev/control: exists while udev runs */
	DA_FILE_MOUNTINFO,	    /* proc/self/mountinfo */
	DA_FILE_FSTAB,		    /* etc/fstab */
	DA_FILE_CRYPTTAB,	    /* etc/crypttab */
	DA_FILE_MDADM_CONF,	    /* etc/mdadm/mdadm.conf */
	DA_FILE_SMARTD_CONF,	    /* etc/smartd.conf */
	DA_FILE_BY_ALIAS,	    /* dev/disk/by-alias, the links' directory */
	DA_FILE_RENAMED,	    /* run/diskalias/renamed: old names a forced rename keeps */
	DA_FILE_TABLE_INDEX,	    /* run/diskalias/table.index: see da_table_load_indexed() */
	DA_FILE_RUN_DIR,	    /* run/diskalias: the files above, private to root */
	DA_FILE_PROBLEMS_LOGGED,    /* run/diskalias/problems.logged: see da_udev_log_problems() */
	DA_FILE_VDEV_ID_CONF,	    /* etc/zfs/vdev_id.conf, OpenZFS's names (import) */
	DA_FILE_MULTIPATH_BINDINGS, /* etc/multipath/bindings (import) */
	DA_FILE_MULTIPATH_CONF,	    /* etc/multipath.conf (import) */
	DA_FILE_DEVICES,  /* run/diskalias/devices: the last scan's devices, while they stand */
	DA_FILE_REWRITER, /* run/diskalias/rewriter: da_rewriter_keep() adds "-MODE" */
	DA_FILE_BOOT_DIR, /* run/diskalias/boot: names for the coldplug, see da_udev_boot_env() */
};

/* The path of @file under the context's root. Caller frees; NULL without memory. */
char *da_ctx_path(const struct da_ctx *ctx, enum da_ctx_file file);

/* -------------------------------------------------------------------------
 * Alias names (SPEC section 2)
 */

/*
 * Check @name against the alias name rules. Returns 0 or -EINVAL and, when
 * @ret_reason is not NULL, a static English reason.
 */
int da_name_check(const char *name, const char **ret_reason);
/* True when @name looks like a kernel block device name (sdc, nvme0n1p2, 8:32, ...). */
bool da_name_is_kernel_like(const char *name);
/* The name of partition @partno of @alias (bay07 -> bay07p1, dblog -> dblog1). Caller frees. */
char *da_partition_name(const char *alias, unsigned int partno);
/*
 * Split a partition name into its base and number following the kernel rule
 * (bay07p1 -> bay07, 1; dblog1 -> dblog, 1). Returns 0, or -EINVAL when @name
 * has no partition suffix. *ret_base (caller frees) and *ret_partno are set on success.
 */
int da_partition_split(const char *name, char **ret_base, unsigned int *ret_partno);

/* -------------------------------------------------------------------------
 * Identities: what an alias is bound to.
 */
enum da_id_kind {
	DA_ID_WWN,
	DA_ID_SERIAL,
	DA_ID_ID,   /* a /dev/disk/by-id/ link name */
	DA_ID_PATH, /* a /dev/disk/by-path/ link name: follows the slot */
	DA_ID_UUID,
	DA_ID_LABEL,
	DA_ID_PARTUUID,
	DA_ID_PARTLABEL,
	/* a bay: ENCLOSURE_ID/SLOT (an SES enclosure's logical id and slot number) or pcie/NAME */
	DA_ID_SLOT,
	_DA_ID_MAX,
	DA_ID_INVALID = -1,
};

/* "wwn", "serial", ...; NULL for an invalid kind. */
const char *da_id_kind_name(enum da_id_kind kind);
/* Every kind's name in order, as a message lists them: "wwn, serial, id, ...". Static. */
const char *da_id_kinds_text(void);
/* The kind named @name (exactly, lower case), or DA_ID_INVALID. */
enum da_id_kind da_id_kind_from_name(const char *name);
/* The /dev/disk/ directory with links of @kind ("by-id"); NULL for kinds without (wwn, serial). */
const char *da_id_kind_dir(enum da_id_kind kind);
/* The kind whose /dev/disk/ directory is the @len bytes at @dir ("by-path"), or DA_ID_INVALID. */
enum da_id_kind da_id_kind_from_dir(const char *dir, size_t len);
/* The value of @kind a /dev/disk link named @name stands for (a label's \xNN decoded). Caller
 * frees. */
char *da_id_value_from_link(enum da_id_kind kind, const char *name);
/*
 * Parse "kind:value". Returns 0 and sets *ret_kind and *ret_value (a pointer
 * into @s), -EINVAL when the kind is unknown or the value empty.
 */
int da_identity_parse(const char *s, enum da_id_kind *ret_kind, const char **ret_value);
/* The longest identity value a table holds. */
#define DA_ID_VALUE_MAX 255
/*
 * Check that @value is one a table line of @kind can hold: not empty, at
 * most DA_ID_VALUE_MAX bytes, no control bytes, no blank at either end and
 * none inside but in serials and labels, and for a WWN one of the forms the
 * system shows (0x..., naa., eui., nvme., t10.). Returns 0 or -EINVAL and, when @ret_reason is not
 * NULL, a static English reason.
 */
int da_identity_check(enum da_id_kind kind, const char *value, const char **ret_reason);
/* True when two values of @kind name the same thing (WWN forms, case of hex digits). */
bool da_id_value_equal(enum da_id_kind kind, const char *a, const char *b);

/* -------------------------------------------------------------------------
 * The alias table (SPEC section 3)
 */
struct da_table;
struct da_alias;
struct da_devlist;

/*
 * Read the table at @path and its drop-ins: the files NAME.conf (not
 * hidden) of the directory da_table_dropin_dir() names, in lexical order
 * after @path, as if they followed it (a drop-in that is a link to
 * /dev/null is masked: not read). A missing file is an empty table. A bad line
 * binds nothing and the others still apply: every syntax error, invalid
 * name or identity, and every conflict (a name defined twice, in any case,
 * or one that is another alias's partition name: both lines bind nothing)
 * is added to @diag with file and line, and the table is returned all the
 * same (da_table_problems() counts them). Returns -EPERM when running as
 * root and the file is not owned by root or is writable by group or
 * others; -EINVAL when it is not a regular file (a FIFO is never waited on).
 * Such a drop-in (or, as root, a drop-in directory others could write) is
 * a problem of its own and binds nothing; the rest of the table applies.
 * Each problem names its own file and line; names are unique across all
 * the files.
 */
int da_table_load(const char *path, struct da_diag *diag, struct da_table **ret_table);
/* The drop-in directory of table @path: "/etc/diskalias.d" for "/etc/diskalias.conf". Caller frees.
 */
char *da_table_dropin_dir(const char *path);
/* da_table_load_indexed() flags */
enum {
	/* Write a new index when there is none or it is stale (the table changed). */
	DA_INDEX_WRITE = 1 << 0,
};
/*
 * The aliases of table @path that the devices of @list can match, as a table
 * of those lines alone (numbered 1, 2, ... in it), for a caller that looks up
 * a few devices in a table of thousands: the udev helper, run once per
 * device at every boot. The index of the table, DA_FILE_TABLE_INDEX under
 * @ctx's root, answers when it is current (keyed by the table's path,
 * inode, size and times); else the table is parsed whole (and returned
 * whole), and with DA_INDEX_WRITE in @flags a new index is written, owned
 * by the caller: the one side effect, asked for, of reading here (a failed
 * write only means the next call parses again). Problems in the table are
 * reported by the call that parses it. While a
 * forced rename keeps old names (DA_FILE_RENAMED), the table is parsed
 * whole: the old names are checked against all of it. When the table
 * cannot be used (da_table_load() fails: not root's, writable by others,
 * unreadable), the last good index answers if there is one: 0 is returned
 * with the reason in @diag, saying so. The index and its directory
 * (DA_FILE_RUN_DIR) are trusted only when they are the caller's and no one
 * else can write them; symlinks there are never followed.
 */
int da_table_load_indexed(const struct da_ctx *ctx, const char *path, const struct da_devlist *list,
			  unsigned int flags, struct da_diag *diag, struct da_table **ret_table);
/* As da_table_load() on @len bytes of @buf; @path names them in problems. */
int da_table_parse(const char *path, const char *buf, size_t len, struct da_diag *diag,
		   struct da_table **ret_table);
void da_table_free(struct da_table *table);
/* The number of problems (bad or conflicting lines) the table was read with. */
size_t da_table_problems(const struct da_table *table);

size_t da_table_count(const struct da_table *table);
/* The @i-th alias statement in table order, or NULL. Owned by the table. */
const struct da_alias *da_table_get(const struct da_table *table, size_t i);
/* The alias named @name (case does not matter), or NULL. */
const struct da_alias *da_table_find(const struct da_table *table, const char *name);
const char *da_table_path(const struct da_table *table);

const char *da_alias_name(const struct da_alias *alias);
enum da_id_kind da_alias_kind(const struct da_alias *alias);
const char *da_alias_value(const struct da_alias *alias);
/* The identity as written in a table ("wwn:0x5000c500a1b2c3d4"). */
const char *da_alias_identity(const struct da_alias *alias);
/* Line of the statement in its file (0 for one added since loading). */
unsigned int da_alias_line(const struct da_alias *alias);
/* The file of the statement: the table's path, or one of its drop-ins. Owned by the table. */
const char *da_alias_file(const struct da_alias *alias);
/* Position of @alias in table order. */
size_t da_alias_index(const struct da_alias *alias);

/*
 * Edits. Each checks the name and identity rules and collisions with the
 * rest of the table (lines that conflict still claim their names) and
 * changes nothing on failure (-EINVAL, -EEXIST or -ENOENT, with a problem
 * in @diag). Comments, bad lines and every other line are kept byte for
 * byte. A statement that conflicts with another cannot be renamed or
 * rebound; removing a name removes every line of it.
 */
int da_table_add(struct da_table *table, const char *name, enum da_id_kind kind, const char *value,
		 struct da_diag *diag);
/* Rebind an existing alias to another identity, in place. */
int da_table_rebind(struct da_table *table, const char *name, enum da_id_kind kind,
		    const char *value, struct da_diag *diag);
int da_table_remove(struct da_table *table, const char *name, struct da_diag *diag);
int da_table_rename(struct da_table *table, const char *oldname, const char *newname,
		    struct da_diag *diag);
/* The table as text, as it would be saved. Caller frees; *ret_len may be NULL. */
char *da_table_format(const struct da_table *table, size_t *ret_len);

/*
 * Lock the table at @path against other editors, read it, call @edit, and
 * if @edit returns >= 0 save the result atomically (temporary file, fsync,
 * rename, fsync of the directory), keeping the file's owner and mode. A
 * missing table starts empty; a table that is a symlink is edited where it
 * points. The lock is the file ".NAME.lock" beside the table, private to
 * its user; an editor waits DISKALIAS_LOCK_TIMEOUT seconds (default 10) for
 * another, then fails with -ETIMEDOUT naming the holder's process. The
 * temporary files of an editor killed mid-way are removed. The table's own
 * problems are not reported here (see da_table_load()). Returns @edit's
 * value or a negative errno; on any failure the file on disk is left as it was.
 */
int da_table_edit(const char *path, int (*edit)(struct da_table *table, void *data), void *data,
		  struct da_diag *diag);
/*
 * As da_table_edit(), writing @file: the table @path itself (or NULL) or a
 * drop-in of it, DIR/NAME.conf, created when missing (and DIR with it).
 * @edit sees the whole table, so names stay unique across files, and may
 * change only statements of @file (others fail with -EXDEV, naming their
 * file). The lock is the main table's, whatever file is written. A file
 * that is not the table nor a drop-in of it is refused (-EINVAL), as is a
 * masked drop-in or one that could not be read (-EPERM).
 */
int da_table_edit_file(const char *path, const char *file,
		       int (*edit)(struct da_table *table, void *data), void *data,
		       struct da_diag *diag);

/* -------------------------------------------------------------------------
 * Block devices, discovered from sysfs (and /dev/disk, the udev database).
 */
struct da_device;
struct da_devlist;

enum da_devtype {
	DA_DEV_DISK,
	DA_DEV_PART,
};

/*
 * Every block device and partition under the context's root: disks in
 * kernel-name order, each followed by its partitions. They are read from
 * sys/class/block, or where a tree has none (a kernel before 2.6.25, a
 * sysfs dump) from sys/block and each disk's partition directories; a
 * root with neither is an error (-ENOENT, with a problem in @diag). A
 * device whose sysfs entry cannot be read is skipped with a warning in @diag.
 */
int da_devlist_scan(struct da_ctx *ctx, struct da_diag *diag, struct da_devlist **ret_list);
/*
 * As da_devlist_scan(), reading of each device only what naming it and
 * finding it needs: names, numbers, partitions, SCSI addresses and other
 * handles, device-mapper and md names, every identity and /dev/disk link.
 * A map made from it names and looks up every device as one made from
 * da_devlist_scan() does; model, size, removable, read-only, md members
 * and holders are missing. While no device has changed since the last
 * such scan of the machine (the kernel's uevent count and udev's entries
 * and links are as they were), it is answered from that scan's snapshot
 * in run/diskalias: without reading sysfs. @table is not used (it was once
 * the identity kinds to read). For tools that name or find a few disks
 * (filter, dmesg, name, resolve): 15 ms instead of 300 at 1,000 SAS disks.
 */
int da_devlist_scan_for(struct da_ctx *ctx, const struct da_table *table, struct da_diag *diag,
			struct da_devlist **ret_list);
/* What of each device a scan reads besides what naming and finding it needs. */
enum da_scan_detail {
	DA_SCAN_SIZE = 1 << 0,
	DA_SCAN_MODEL = 1 << 1,
	DA_SCAN_REMOVABLE = 1 << 2,
	DA_SCAN_READONLY = 1 << 3,
	DA_SCAN_STACK = 1 << 4, /* md level, the devices a dm or md device is made of, holders */
	DA_SCAN_DETAILS = (1 << 5) - 1,
	/*
	 * Less, not more: no udev database entry or /dev/disk link is read,
	 * so a device has only what sysfs shows (its WWN, serial, bay, kernel
	 * names). Enough for tables that bind by wwn: and slot: alone, as
	 * `udev --boot` requires.
	 */
	DA_SCAN_NO_UDEV = 1 << 5,
};
/*
 * As da_devlist_scan(), reading only the @details (DA_SCAN_*) asked for
 * besides names and identities: what is not asked is missing (no model,
 * size 0, not removable, not read-only, no members). As lsblk reads what
 * its columns show: `list -o NAME,SIZE` reads no model, removable or ro
 * file. @details 0 is da_devlist_scan_for(), DA_SCAN_DETAILS da_devlist_scan().
 * With DA_SCAN_NO_UDEV, udev's database and links are not read either.
 */
int da_devlist_scan_with(struct da_ctx *ctx, unsigned int details, struct da_diag *diag,
			 struct da_devlist **ret_list);
void da_devlist_free(struct da_devlist *list);
size_t da_devlist_count(const struct da_devlist *list);
struct da_device *da_devlist_get(const struct da_devlist *list, size_t i);
struct da_device *da_devlist_find_kname(const struct da_devlist *list, const char *kname);
struct da_device *da_devlist_find_devnum(const struct da_devlist *list, unsigned int major,
					 unsigned int minor);
/*
 * The device a /dev/disk/by-KIND/NAME link points at (@link is the path as
 * a user writes it, "/dev/disk/by-id/wwn-0x..."), or NULL.
 */
struct da_device *da_devlist_find_link(const struct da_devlist *list, const char *link);
/* The place of @dev in its list: da_devlist_get(list, da_device_pos(dev)) is @dev. */
size_t da_device_pos(const struct da_device *dev);

const char *da_device_kname(const struct da_device *dev);
unsigned int da_device_major(const struct da_device *dev);
unsigned int da_device_minor(const struct da_device *dev);
enum da_devtype da_device_devtype(const struct da_device *dev);
/* lsblk-style type: disk, part, lvm, crypt, mpath, dm, raid1, ..., loop, rom. */
const char *da_device_type(const struct da_device *dev);
uint64_t da_device_size(const struct da_device *dev);	    /* bytes */
unsigned int da_device_partno(const struct da_device *dev); /* 0 for a disk */
/* The disk a partition belongs to; NULL for a disk. */
struct da_device *da_device_parent(const struct da_device *dev);
bool da_device_removable(const struct da_device *dev);
bool da_device_readonly(const struct da_device *dev);
/* Model (vendor and model for SCSI), or NULL. */
const char *da_device_model(const struct da_device *dev);
/* The serial on the disk's label (SCSI VPD 0x80, NVMe, virtio, MMC, USB), or NULL. */
const char *da_device_serial(const struct da_device *dev);
/* The WWN as users see it (0x5000c500a1b2c3d4, eui.0025...), or NULL. */
const char *da_device_wwn(const struct da_device *dev);
/* The device-mapper name (vg0-data), or NULL. */
const char *da_device_dm_name(const struct da_device *dev);
/* The SCSI address H:C:T:L of a SCSI disk ("2:0:3:0", as in "sd 2:0:3:0: [sdc]"), or NULL. */
const char *da_device_hctl(const struct da_device *dev);
/*
 * The kernel name of the @i-th device a device-mapper or md device is made
 * of (sysfs "slaves"), and of the @i-th device made of @dev (its holders),
 * or NULL past the last; read by da_devlist_scan() only.
 */
const char *da_device_slave(const struct da_device *dev, size_t i);
const char *da_device_holder(const struct da_device *dev, size_t i);
/* How the disk is attached, as lsblk's TRAN: "sata", "sas", "nvme", "usb", "virtio", "mmc",
 * "fc", "iscsi", or NULL. */
const char *da_device_tran(const struct da_device *dev);
/* The libata device of a disk on libata ("ata3.00", as in "ata3.00: failed command"), or NULL. */
const char *da_device_ata(const struct da_device *dev);
/*
 * The @i-th other name the kernel's log uses for disk @dev, or NULL past
 * the last: its own first (ata3.00, sg2, NVMe path devices nvme0c1n1 and
 * generic nodes ng0n1), then those it shares with the other disks of its
 * port or controller (the libata port ata3, a port multiplier ata3.15, the
 * NVMe controller nvme0, the MMC host mmc0, the USB device "usb 2-1"),
 * @ret_shared true for those. A handle with a space is a name only after
 * the word before it, which stays: "usb 2-1:" becomes "usb stick:".
 */
const char *da_device_handle(const struct da_device *dev, size_t i, bool *ret_shared);
/*
 * A rewriter names a port's or controller's name by the list of its disks
 * ("{db-a,db-b}") up to this many; one more disks share is left as it is.
 */
#define DA_SHARED_NAMES_MAX 16
/*
 * The @i-th value the device has for identity @kind (several for id and
 * path), or NULL past the last. Owned by the device.
 */
const char *da_device_identity(const struct da_device *dev, enum da_id_kind kind, size_t i);
/* True when the device has identity @kind with value @value. */
bool da_device_has_identity(const struct da_device *dev, enum da_id_kind kind, const char *value);
/*
 * Read the slot identities of the disks of @list whose place is known (a
 * list from da_devlist_from_udev(): a scan reads them itself): the SES bay
 * each SCSI disk is in, the PCIe slot of each NVMe controller.
 */
int da_devlist_read_slots(const struct da_ctx *ctx, struct da_devlist *list);

/* -------------------------------------------------------------------------
 * Slots: SES enclosure bays and PCIe slots, empty ones included
 */
enum da_slot_kind {
	DA_SLOT_SES,
	DA_SLOT_PCIE,
};
enum da_led {
	DA_LED_LOCATE,
	DA_LED_FAULT,
	_DA_LED_MAX,
};
/* A PCIe slot's attention indicator: locate blinks it, fault lights it. */
enum {
	DA_ATTENTION_OFF = 0,
	DA_ATTENTION_ON = 1,
	DA_ATTENTION_BLINK = 2,
};
/* One bay, as da_slots_scan() found it. Owned by its list; NULL where unknown. */
struct da_slot {
	enum da_slot_kind kind;
	const char *identity;	  /* the slot: value: ENCLOSURE_ID/SLOT or pcie/NAME */
	const char *enclosure;	  /* SES: the enclosure (its SCSI device, H:C:T:L); PCIe: "pcie" */
	const char *enclosure_id; /* SES: the enclosure's logical id (0x...) */
	const char *label;   /* its directory: the SES descriptor or number, the PCIe slot name */
	const char *number;  /* the slot number (SES), the slot name (PCIe) */
	const char *status;  /* SES: OK, not installed, critical, ...; PCIe: OK or empty */
	const char *hctl;    /* SES: the SCSI device in the bay; NULL when empty */
	const char *pci;     /* PCIe: the slot's address (0000:01:00) */
	const char *syspath; /* its sysfs directory */
	const char *led_file[_DA_LED_MAX]; /* what drives each LED; NULL: no control */
	int led[_DA_LED_MAX];		   /* each LED: 1 on, 0 off, -1 unknown or none */
	bool attention;			   /* both LEDs are the PCIe slot's attention indicator */
	bool shared_id; /* another enclosure reports the same id: its slot: identities bind nothing */
};
struct da_slotlist;
/*
 * Every SES enclosure's bays (sys/class/enclosure) then every PCIe slot
 * (sys/bus/pci/slots), in name order. A component that cannot be read is a
 * warning in @diag. Returns 0 or -ENOMEM.
 */
int da_slots_scan(const struct da_ctx *ctx, struct da_diag *diag, struct da_slotlist **ret_list);
void da_slotlist_free(struct da_slotlist *list);
size_t da_slotlist_count(const struct da_slotlist *list);
const struct da_slot *da_slotlist_get(const struct da_slotlist *list, size_t i);
/* The @i-th slot whose identity is @identity (several when enclosures share an id), or NULL. */
const struct da_slot *da_slotlist_find(const struct da_slotlist *list, const char *identity,
				       size_t i);
/*
 * Switch LED @led of @slot on or off and read it back. Returns 0,
 * -EOPNOTSUPP when the bay has no such LED control, -EIO when it reads
 * back otherwise, or -errno of the write. Switching off a PCIe attention
 * indicator that the other LED lit leaves it lit.
 */
int da_slot_set_led(const struct da_slot *slot, enum da_led led, bool on);

/* -------------------------------------------------------------------------
 * Chassis (SPEC section 3): how the bays of an SES enclosure or of a group
 * of PCIe slots sit in the panel an administrator looks at, and the rule
 * that names every bay, as the table's chassis lines describe them: one
 * part of a chassis a line, the lines of one name its parts, top to
 * bottom. A line decides everything alone: its R x C cells, numbered from
 * a corner along the rows or down the columns, hold the enclosure's slots
 * from the first slot's number on (or the PCIe slots it names, in order).
 */
enum da_corner {
	DA_CORNER_TOP_LEFT,
	DA_CORNER_TOP_RIGHT,
	DA_CORNER_BOTTOM_LEFT,
	DA_CORNER_BOTTOM_RIGHT,
};
struct da_chassis;

/* The chassis lines of @table that apply (not bad, not claiming another's bays), in table order. */
size_t da_table_chassis_count(const struct da_table *table);
const struct da_chassis *da_table_chassis_get(const struct da_table *table, size_t i);
/*
 * The chassis line whose naming rule gave @alias its name (a slot: alias
 * with no line of its own: its file and line are the chassis line's), or
 * NULL for an alias line.
 */
const struct da_chassis *da_alias_chassis(const struct da_alias *alias);
/* The chassis's name (lines of one name are the parts of one chassis). */
const char *da_chassis_name(const struct da_chassis *chassis);
/* The enclosure as written: an SES logical id ("0x5003..."), or "pcie:A,B,...". */
const char *da_chassis_enclosure(const struct da_chassis *chassis);
enum da_slot_kind da_chassis_kind(const struct da_chassis *chassis);
unsigned int da_chassis_rows(const struct da_chassis *chassis);
unsigned int da_chassis_columns(const struct da_chassis *chassis);
/* The corner bay 1 is in, and whether the numbering goes down the columns (else along the rows). */
enum da_corner da_chassis_first(const struct da_chassis *chassis);
bool da_chassis_by_columns(const struct da_chassis *chassis);
/* "top-left", ...; NULL for no corner. Static. */
const char *da_chassis_corner_name(enum da_corner corner);
/* Whether the layout is the rear panel's (as seen from the rear), not the front's. */
bool da_chassis_rear(const struct da_chassis *chassis);
/* The SES slot number of bay 1 (the first cell in numbering order). */
unsigned int da_chassis_first_slot(const struct da_chassis *chassis);
/* The naming rule ("shelf1-bay{slot:02}"), or NULL. */
const char *da_chassis_pattern(const struct da_chassis *chassis);
const char *da_chassis_file(const struct da_chassis *chassis);
unsigned int da_chassis_line(const struct da_chassis *chassis);
/* The number of bays: the cells of an SES part, the slots named of a PCIe one. */
unsigned int da_chassis_cells(const struct da_chassis *chassis);
/*
 * Bay @bay (from 0, in numbering order): its slot: value in *ret_identity
 * (the caller frees) and its row and column (from 0, top and left as the
 * panel is seen). -ENOENT past the last, -ENOMEM.
 */
int da_chassis_bay(const struct da_chassis *chassis, unsigned int bay, char **ret_identity,
		   unsigned int *ret_row, unsigned int *ret_col);
/* The bay (from 0) that slot: value @identity is in this chassis part: 0, or -ENOENT. */
int da_chassis_find(const struct da_chassis *chassis, const char *identity, unsigned int *ret_bay);
/*
 * Describe a part of chassis @name: the line "chassis NAME ENCLOSURE
 * OPTIONS" (OPTIONS the KEY=VALUE words, "rows=4 columns=6 ...") takes the
 * place of the line of that name claiming that enclosure, or is added.
 * -EEXIST when another chassis claims the enclosure (or a PCIe slot of it),
 * -EINVAL when the line would be a bad one, with the reason in @diag.
 * Every other line is kept byte for byte.
 */
int da_table_chassis_set(struct da_table *table, const char *name, const char *enclosure,
			 const char *options, struct da_diag *diag);
/* Remove every line of chassis @name: -ENOENT when there is none. */
int da_table_chassis_unset(struct da_table *table, const char *name, struct da_diag *diag);

/* -------------------------------------------------------------------------
 * The table joined with the devices present.
 */
struct da_map;

enum da_alias_state {
	DA_ALIAS_PRESENT,   /* exactly one device has the identity */
	DA_ALIAS_MISSING,   /* none has it */
	DA_ALIAS_AMBIGUOUS, /* several have it: never a guess */
};

/*
 * Join @table and @list. Both must outlive the map. For every alias, find
 * the devices that carry its identity.
 */
int da_map_new(const struct da_table *table, const struct da_devlist *list,
	       struct da_map **ret_map);
void da_map_free(struct da_map *map);

/* State of the alias at table index @i and, when present, its device. */
enum da_alias_state da_map_alias_state(const struct da_map *map, size_t i,
				       struct da_device **ret_dev);
/* Number of devices matching the alias at index @i. */
size_t da_map_alias_matches(const struct da_map *map, size_t i);
/*
 * The @i-th name of @dev, primary first: its own aliases in table order,
 * then, for a partition, the partition names of its disk's aliases
 * (bay07p1). NULL past the last. Owned by the map.
 */
const char *da_map_device_name(const struct da_map *map, const struct da_device *dev, size_t i);
/* The alias statement that gave @dev its @i-th name, or NULL. */
const struct da_alias *da_map_device_alias(const struct da_map *map, const struct da_device *dev,
					   size_t i);

/*
 * Find the device a user means by @arg: /dev/sdc, sdc, 8:32, a
 * /dev/disk/by-* path, /dev/mapper/NAME, an alias or an alias's partition
 * name. Returns 0 with *ret_dev set; -ENOENT when nothing is known by that
 * name, -ENODEV when it is an alias whose device is not present (or has no
 * such partition), -ENOTUNIQ when the alias's identity matches several
 * devices. A problem explaining the failure is added to @diag.
 */
int da_map_lookup(const struct da_map *map, const char *arg, struct da_diag *diag,
		  struct da_device **ret_dev);
/* The alias @name names (an alias, or for a partition name its disk's alias); NULL if none. */
const struct da_alias *da_map_find_alias(const struct da_map *map, const char *name,
					 unsigned int *ret_partno);

/* -------------------------------------------------------------------------
 * Kernel log records, as /dev/kmsg gives them (the kernel's
 * Documentation/ABI/testing/dev-kmsg): a line "PRI,SEQ,USEC,FLAGS;TEXT",
 * then metadata lines " SUBSYSTEM=scsi", " DEVICE=+scsi:2:0:3:0".
 */
struct da_kmsg {
	unsigned int level;    /* 0 (emerg) to 7 (debug) */
	unsigned int facility; /* 0 kern, 1 user, ... */
	uint64_t seq;
	uint64_t usec; /* since boot */
	bool cont;     /* flag 'c': continues an earlier record's line */
	char *text;    /* the message with \xNN decoded: any bytes, NUL-terminated */
	size_t text_len;
	char *subsystem; /* SUBSYSTEM=, or NULL */
	char *device;	 /* DEVICE= ("b8:32", "+scsi:2:0:3:0", "+block:sdc"), or NULL */
};

/* True when the @len bytes at @line start a record ("6,1234,5678901,-;"). */
bool da_kmsg_is_record(const char *line, size_t len);
/*
 * Parse one record: its first line and the metadata lines after it.
 * Returns 0 and fills *@ret (the caller clears it with da_kmsg_clear()),
 * -EINVAL when @buf is not a record, or -ENOMEM.
 */
int da_kmsg_parse(const char *buf, size_t len, struct da_kmsg *ret);
/* Free what a parsed record holds and zero it; NULL is accepted. */
void da_kmsg_clear(struct da_kmsg *rec);
/* The device a record's DEVICE= value names (b8:32, +block:sdc, +scsi:H:C:T:L), or NULL. */
struct da_device *da_kmsg_device(const struct da_devlist *list, const char *device);

/* -------------------------------------------------------------------------
 * Rewriting text: kernel names to aliases, and back.
 *
 * Names are found as whole tokens: a disk's or partition's kernel name
 * (sdc, sdc1, nvme0n1p2, dm-3, md127), its node (/dev/sdc, and for
 * device-mapper /dev/mapper/NAME) and a SCSI disk's address (2:0:3:0); "sdc"
 * is left alone inside "sdca", "asdc", "sdc_old" or a path like
 * /sys/block/sdc. A disk's name with a partition suffix names that
 * partition (by the SPEC's rule: sdc1 -> bay07p1) even when the partition
 * is not present. Every other byte passes through unchanged, NUL bytes and
 * invalid UTF-8 included; lines may be of any length; memory does not
 * depend on the input.
 */
struct da_rewriter;
struct iovec;

enum da_rewrite_mode {
	DA_REWRITE_ALIAS,    /* sdc -> bay07, /dev/sdc -> /dev/disk/by-alias/bay07 */
	DA_REWRITE_ANNOTATE, /* sdc -> sdc(bay07): both names */
	DA_REWRITE_REVERSE, /* bay07 (any case), bay07p1 -> sdc, sdc1; by-alias paths -> /dev/sdc */
};

/*
 * Where rewritten text goes: @iovcnt pieces in order, as writev(2) takes
 * them (they point into the text fed and into the rewriter, valid only
 * during the call). Returns >= 0, or a negative errno that stops the stream
 * and is returned by the call feeding it.
 */
typedef int (*da_rewrite_write_fn)(void *userdata, const struct iovec *iov, int iovcnt);

/*
 * Build a rewriter for the devices of @map that have a name (for
 * DA_REWRITE_REVERSE: the aliases of devices present), writing through
 * @write (which may be NULL when only da_rewrite_buf() is used). The
 * rewriter copies what it needs of the map's names; the map may be freed
 * after. Free with da_rewriter_free().
 */
int da_rewriter_new(const struct da_map *map, enum da_rewrite_mode mode, da_rewrite_write_fn write,
		    void *userdata, struct da_rewriter **ret_rw);
/* A name a kernel name stood for at some time, as a saved log's mapping records give it. */
struct da_rename {
	const char *kname; /* "sdc" */
	const char *name;  /* "bay07" */
	bool disk;	   /* its partitions are named after it: sdc1 -> bay07p1 */
};
/*
 * As da_rewriter_new(), for the @n names of @v instead of a map's (names
 * the devices had at another time, not looked up on this machine): each
 * kernel name and its /dev node (back, with DA_REWRITE_REVERSE).
 */
int da_rewriter_new_names(const struct da_rename *v, size_t n, enum da_rewrite_mode mode,
			  da_rewrite_write_fn write, void *userdata, struct da_rewriter **ret_rw);
void da_rewriter_free(struct da_rewriter *rw);
/*
 * A new rewriter with @rw's names and mode, writing through @write: the two
 * share their tables, which nothing changes, and each has a stream of its
 * own (empty), so each may be fed by its own thread at the same time (one
 * rewriter is never fed by two threads at once, nor cloned while fed).
 * Either may be freed first. Returns 0 or -ENOMEM.
 */
int da_rewriter_clone(const struct da_rewriter *rw, da_rewrite_write_fn write, void *userdata,
		      struct da_rewriter **ret_rw);
/*
 * The rewriter da_rewriter_new() builds for table file @table_path and the
 * devices of @ctx, as the last da_rewriter_keep() left it in run/diskalias,
 * if nothing it was built from can have changed since: the devices (the
 * kernel's uevent count, udev's entries and links, as for the snapshot of
 * DA_FILE_DEVICES), the table's files (their times and their bytes), the
 * caller, @mode and this library's version. Returns 1 and *ret_rw, 0 when
 * there is none (then build one from the table and devices loaded after
 * this call, and keep it), -EINVAL for an unknown @mode, or -ENOMEM.
 */
int da_rewriter_open_kept(struct da_ctx *ctx, const char *table_path, enum da_rewrite_mode mode,
			  da_rewrite_write_fn write, void *userdata, struct da_rewriter **ret_rw);
/*
 * Keep @rw for the next da_rewriter_open_kept(): @rw was built, after the
 * last such call on @ctx said 0 for the same table and mode, from a table
 * and devices loaded without a problem (a kept rewriter must not hide a bad
 * line). It is kept under what that call saw, so a change since makes it
 * unused, never wrong. Best effort, as a cache is; nothing when run/diskalias
 * is not the caller's own.
 */
void da_rewriter_keep(struct da_ctx *ctx, const struct da_rewriter *rw);
/*
 * Answer a query from rewriter @rw alone, as da_map_lookup() would with
 * the map it was built from: in DA_REWRITE_ALIAS mode the primary name of
 * kernel name or node @arg ("sdc", "/dev/sdc1" -> "bay07", "bay07p1"); in
 * DA_REWRITE_REVERSE the node of alias @arg ("bay07p1" -> "/dev/sdc1").
 * Returns 1 and *ret (caller frees), 0 when @rw cannot tell (anything else
 * @arg may be: ask the map, which also says what is wrong), or -ENOMEM.
 */
int da_rewriter_query(const struct da_ctx *ctx, const struct da_rewriter *rw, const char *arg,
		      char **ret);
/*
 * Feed @len bytes of a stream. Everything is written out before it returns
 * except a short tail that may be the start of a name (at most the longest
 * name and a partition number). Returns 0 or the write function's error.
 */
int da_rewriter_feed(struct da_rewriter *rw, const void *buf, size_t len);
/* End the stream: write the tail out. The rewriter is then ready for a new stream. */
int da_rewriter_finish(struct da_rewriter *rw);
/* Names rewritten in the current stream so far. */
size_t da_rewriter_count(const struct da_rewriter *rw);
/*
 * Rewrite @len bytes as one whole stream into a new NUL-terminated buffer
 * (*ret_buf, the caller frees; its length in *ret_len, which may be NULL).
 * Returns the number of names rewritten, -EBUSY in the middle of a stream,
 * or -ENOMEM.
 */
int da_rewrite_buf(struct da_rewriter *rw, const void *buf, size_t len, char **ret_buf,
		   size_t *ret_len);

/* -------------------------------------------------------------------------
 * udev and /dev/disk/by-alias (SPEC section 5)
 */

/*
 * The device of one udev event, described by udev's properties alone, with
 * no sysfs scan (the helper runs in a udev worker once per device and
 * boot). @env holds "KEY=value" strings, NULL terminated, as the helper's
 * environment does; used are DEVPATH, DEVTYPE, PARTN, MAJOR, MINOR,
 * DEVLINKS (the links earlier rules made: by-id, by-path, by-uuid, ...),
 * ID_WWN_WITH_EXTENSION, ID_WWN, ID_SCSI_SERIAL, ID_SERIAL_SHORT (ID_SERIAL
 * where a disk has no ID_SERIAL_SHORT nor ID_BUS: virtio, MMC), ID_FS_UUID,
 * ID_FS_LABEL, ID_PART_ENTRY_UUID, ID_PART_ENTRY_NAME. For a partition the
 * list also holds its disk, described by what a partition inherits from it
 * (its ID_WWN, serials, and its by-id and by-path links without "-partN"),
 * so a map made of the list names the partition as da_map_new() does on a
 * full scan: its own aliases, then its disk's (bay07p1). Find the device
 * with da_devlist_find_kname(*ret_list, @kname). Returns -EINVAL for an
 * empty @kname or one with a '/'.
 */
int da_devlist_from_udev(const char *kname, char *const *env, struct da_devlist **ret_list);

/*
 * Write "diskalias: @text" to the kernel log (DA_FILE_KMSG under the root,
 * never through a symlink) as one record, control bytes and invalid UTF-8
 * in @text escaped, so nothing read from a device or a table forges a line.
 */
int da_udev_log(const struct da_ctx *ctx, const char *text);
/*
 * Write the mapping record "diskalias: KNAME is NAME (IDENTITY)" to the
 * kernel log (DA_FILE_KMSG under the root), so each boot's log says which
 * kernel name was which alias. A missing log is -ENOENT.
 */
int da_udev_record(const struct da_ctx *ctx, const char *kname, const char *name,
		   const char *identity);
/*
 * Write each problem of @diag (from reading table @path) to the kernel log
 * as "diskalias: FILE:LINE: what", text escaped, at most 8 of them and a
 * count of the rest; once per version of the table (its path, inode, size
 * and times, kept in DA_FILE_PROBLEMS_LOGGED), however many devices are
 * named with it. Returns 1 when written, 0 when already written for this
 * version, or a negative errno.
 */
int da_udev_log_problems(const struct da_ctx *ctx, const char *path, const struct da_diag *diag);
/*
 * Record that @dev (of the udev helper's list: kernel name and MAJ:MIN)
 * carries identity @kind @value that an alias is bound by, when @record (a
 * partition named after its disk only looks), and find the other present
 * devices recorded with it: an identity they share names none of them.
 * Kept in DA_FILE_RUN_DIR/claims, under a lock; a device gone, attached
 * anew (diskseq) or whose udev entry no longer has the identity is dropped.
 * *ret_others is the others' kernel names, NULL terminated (free with
 * da_names_free()); *ret_new (may be NULL) says @dev was not recorded
 * before, so the others should be asked to look again (a change event).
 * Returns the number of others, or a negative errno.
 */
int da_udev_claim(const struct da_ctx *ctx, const struct da_device *dev, enum da_id_kind kind,
		  const char *value, bool record, char ***ret_others, bool *ret_new);
/*
 * What udev's add event of disk or partition @dev, from a sysfs scan, will
 * bring the helper, told from sysfs before udev has seen it ("diskalias
 * udev --boot", run before the coldplug): DEVTYPE, PARTN, MAJOR, MINOR,
 * DEVPATH, a disk's DISKSEQ and the disk's WWN as scsi_id and ata_id give
 * it (ID_WWN, the first 16 hex digits of an NAA designator, and
 * ID_WWN_WITH_EXTENSION, all of it), as "KEY=value" strings in *ret_env
 * (NULL terminated; free with da_names_free()), and *ret_key, the name of
 * its file in DA_FILE_BOOT_DIR: "DISKSEQ_IDWWN_IDWWNWITHEXTENSION", and
 * "_pPARTN" after it for a partition (DISKSEQ its disk's). The rules import
 * that file only when the event's own values spell the same name: the same
 * attach, seen by udev as it was told here; anything else runs the helper.
 * Returns 1, 0 when it cannot be told (not a SCSI or ATA disk or a
 * partition of one, no NAA WWN in sysfs, a kernel without diskseq), or
 * -ENOMEM.
 */
int da_udev_boot_env(const struct da_ctx *ctx, const struct da_device *dev, char ***ret_env,
		     char **ret_key);
/*
 * Remove DA_FILE_BOOT_DIR: what it says was true of the table, the claims
 * and the disks when it was written, and one of them has changed (a new
 * table, an identity found shared). Returns 0 or a negative errno.
 */
int da_udev_boot_forget(const struct da_ctx *ctx);
/* True when udev runs on the context's machine (DA_FILE_UDEV_CONTROL exists). */
bool da_udev_running(const struct da_ctx *ctx);
/* Ask the kernel for a uevent (@action "change") of block device @kname, as udevadm trigger does. */
int da_udev_trigger(const struct da_ctx *ctx, const char *kname, const char *action);
/* The same for a disk and each of its partitions (they are named after it). */
int da_udev_trigger_disk(const struct da_ctx *ctx, const char *kname, const char *action);

/* The most names one device has links for: the udev rules' DISKALIAS_1 to DISKALIAS_16. */
#define DA_LINKS_MAX 16

/*
 * Every name @dev has a /dev/disk/by-alias link for (DA_LINKS_MAX at most, as udev): its names in
 * @map, primary first, then old names a forced rename keeps for it (recorded in DA_FILE_RENAMED by
 * da_renamed_keep(), as long as the table does not give them to another). *ret_names is NULL
 * terminated (maybe at once); the caller frees it with da_names_free().
 */
int da_link_names(const struct da_ctx *ctx, const struct da_map *map, const struct da_device *dev,
		  char ***ret_names);
void da_names_free(char **names);
/*
 * Keep the link of @oldname on kernel device @kname while it is named
 * @newname: after a forced rename, so what was opened or mounted through
 * the old link keeps working until the device goes away (or is named
 * otherwise) or the machine reboots (the record is under run/).
 */
int da_renamed_keep(const struct da_ctx *ctx, const char *oldname, const char *newname,
		    const char *kname);

enum da_apply_action {
	DA_APPLY_LINK_CREATED, /* name, the kernel name it points at */
	DA_APPLY_LINK_UPDATED,
	DA_APPLY_LINK_REMOVED,
	DA_APPLY_ATTR_SET,     /* name, the disk whose alias attribute now holds it */
	DA_APPLY_ATTR_CLEARED, /* the old name, the disk */
};
typedef void (*da_apply_fn)(void *userdata, enum da_apply_action action, const char *name,
			    const char *kname);

/*
 * Make the by-alias links (DA_FILE_BY_ALIAS under the root) match @map:
 * each link made as a new link renamed over the old one, so a name never
 * disappears while it is repointed; links of names no device has are
 * removed. Only links of the form "../../NODE" are touched (the form our
 * udev rules give them); anything else there is left alone with a warning.
 * Where the kernel has the attribute, each present disk's alias is set to
 * its primary name (or cleared). Idempotent: a second run changes nothing
 * and reports nothing. Each change goes to @report (may be NULL).
 */
int da_apply(const struct da_ctx *ctx, const struct da_map *map, da_apply_fn report, void *userdata,
	     struct da_diag *diag);

/* A place a name is used: @file, @line, and what is there. Return < 0 to stop. */
typedef int (*da_use_fn)(void *userdata, const char *file, unsigned int line, const char *what);
/*
 * Where alias @name (or a partition name of it) is in use through its
 * link /dev/disk/by-alias/NAME: mounts whose source is the link
 * (DA_FILE_MOUNTINFO), and lines of DA_FILE_FSTAB, DA_FILE_CRYPTTAB,
 * DA_FILE_MDADM_CONF, DA_FILE_SMARTD_CONF. Missing files are no uses.
 * Returns the number of uses, each given to @fn, or a negative errno.
 */
int da_name_find_uses(const struct da_ctx *ctx, const char *name, da_use_fn fn, void *userdata);

#ifdef __cplusplus
}
#endif
#endif
