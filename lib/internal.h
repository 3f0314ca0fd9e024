/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the library's files share with each other and not with users. */
#ifndef DA_INTERNAL_H
#define DA_INTERNAL_H

#include <sys/stat.h>

#include "diskalias.h"
#include "util.h"
#include "strbuf.h"

#define DA_EXPORT __attribute__((visibility("default")))

/*
 * Paths under the context's root. Only ctx.c knows where the machine's
 * directories are; everything else asks it. Each returns a string the
 * caller frees, or NULL without memory.
 */
char *da_ctx_sys(const struct da_ctx *ctx, const char *fmt, ...) _printf_(2, 3);
char *da_ctx_dev(const struct da_ctx *ctx, const char *fmt, ...) _printf_(2, 3);
char *da_ctx_udev_db(const struct da_ctx *ctx, unsigned int major, unsigned int minor);
/* udev's database directory, run/udev/data. */
char *da_ctx_udev_data(const struct da_ctx *ctx);
/* Length of the root prefix in paths from the helpers above. */
size_t da_ctx_root_len(const struct da_ctx *ctx);
/*
 * Whether sys/class/@class of @ctx lists a device (true when that cannot
 * be told): without an SES enclosure no disk links to a bay, without the
 * sg driver none has a generic node, and thousands of lookups are spared.
 */
bool da_ctx_class_lists(const struct da_ctx *ctx, const char *class);

/* "/dev/disk/by-KIND/NAME" -> "by-KIND/NAME" (a pointer into @arg), else NULL. */
const char *da_dev_disk_link(const char *arg);
/* "/dev/mapper/NAME" -> "NAME", else NULL. */
const char *da_dev_mapper_name(const char *arg);
/* "/dev/disk/by-alias/NAME" -> "NAME", else NULL. */
const char *da_dev_alias_link(const char *arg);
/* "/dev/NAME" -> "NAME", else NULL. */
const char *da_dev_strip(const char *arg);

/* "/dev/disk/by-alias/NAME", "/dev/mapper/NAME": the paths users write. Caller frees. */
char *da_alias_node(const char *name);
char *da_mapper_node(const char *dm_name);
char *da_md_node(const char *md_devname);

/*
 * The length of the base of partition name @name (@len bytes; bay07p1 -> 5,
 * dblog1 -> 5) and its number in *ret_partno, or 0 when it is none.
 */
size_t da_partition_base_len(const char *name, size_t len, unsigned int *ret_partno);
/* True for a byte an alias name may hold: A-Z a-z 0-9 . _ + - (ASCII, whatever the locale). */
bool da_name_char(char c);
/* The kernel's partition rule: a name ending in a digit takes a 'p' before the number. */
bool da_partition_takes_p(const char *name, size_t len);
/*
 * The length of the name whose partitions are named as those of @name
 * (@len bytes): disk1p and disk1 both have a partition disk1p2, so for
 * disk1p this is 5. 0 when no other name shares its partitions' names.
 */
size_t da_partition_twin_len(const char *name, size_t len);
/* udev's by-id or by-path link of partition @partno of the disk whose link is @disk_link. */
char *da_link_partition(const char *disk_link, unsigned int partno);
/* The length of partition @partno's link @link without its "-partN", or 0 when it has none. */
size_t da_link_disk_len(const char *link, unsigned int partno);
/* True when @name is a partition of @base by the kernel's rule (in any case); its number in
 * *@ret_partno. */
bool da_partition_of(const char *name, const char *base, unsigned int *ret_partno);

/* The device list the map was made from. */
const struct da_devlist *da_map_devlist(const struct da_map *map);

/*
 * The part of identity @value that tells it apart (a pointer into it): two
 * values da_id_value_equal() calls equal have keys equal ignoring case.
 */
const char *da_id_value_key(enum da_id_kind kind, const char *value);

/*
 * The udev properties that are identities, as Debian's
 * 60-persistent-storage.rules sets them; disk: the disk's own, which a
 * partition inherits (IMPORT{parent}). Ends with a NULL key.
 */
struct da_udev_prop {
	const char *key;
	enum da_id_kind kind;
	bool disk;
};
extern const struct da_udev_prop da_udev_props[];

/* Messages quote at most this many bytes of a table's or a device's text. */
#define DA_QUOTE_MAX 80

/* The kind named by the @len bytes at @name, or DA_ID_INVALID. */
enum da_id_kind da_id_kind_from_name_n(const char *name, size_t len);
/*
 * Why @text ("kind:value") is not an identity a table line can hold, as a
 * message the caller frees; NULL when it is one, or without memory
 * (then *ret_oom is set).
 */
char *da_identity_problem(const char *text, bool *ret_oom);

/* The /dev/disk/ directory that holds links of identity @kind ("by-id"), or NULL. */

/*
 * Device lists not read from sysfs (lib/udev.c builds one from udev's
 * properties). The list owns its devices; @parent must be in the list.
 */
int da_devlist_new_empty(struct da_devlist **ret_list);
int da_device_set_devpath(struct da_device *d, const char *devpath);
const char *da_device_md_devname(const struct da_device *d);
int da_devlist_add_device(struct da_devlist *l, const char *kname, unsigned int major,
			  unsigned int minor, unsigned int partno, struct da_device *parent,
			  struct da_device **ret_dev);
/* Add identity @value of @kind (a repeat is ignored); @value may be NULL. */
int da_device_add_identity(struct da_device *d, enum da_id_kind kind, const char *value);
/* Record the link /dev/disk/@kdir/@name ("by-id", "wwn-0x...") as the device's. */
int da_device_add_link(struct da_device *d, const char *kdir, const char *name);

/*
 * The udev database entry of block device @major:@minor as lines
 * "E:KEY=VALUE" and "S:LINK" (udevdb.c): through libudev on the machine
 * itself, from run/udev/data under a sysroot (or when libudev cannot be
 * loaded, or DISKALIAS_UDEV_DB is set: the files, for comparing the two).
 * The files are read relative to @dbfd, run/udev/data open (a scan opens
 * it once), or by their path when it is -1. 0 and the text (caller
 * frees), -ENOENT when udev has no entry, or -errno.
 */
int da_udev_db_read(const struct da_ctx *ctx, int dbfd, unsigned int major, unsigned int minor,
		    char **ret_text);
/*
 * Whether the udev database entry of device @major:@minor carries identity
 * @kind @value (as a property or a link it claims): 1 or 0; -ENOENT when
 * udev has no entry for it (yet).
 */
int da_udev_db_has_identity(const struct da_ctx *ctx, unsigned int major, unsigned int minor,
			    enum da_id_kind kind, const char *value);

/*
 * Open table @path for da_table_load_opened(), refusing a directory and, when
 * root, unsafe ownership; *ret_fd is -1 when there is no table (an empty one).
 */
struct stat;
int da_table_open(const char *path, int *ret_fd, struct stat *st, struct da_diag *diag);
/* Parse the table opened by da_table_open(); @fd stays the caller's. */
int da_table_load_opened(const char *path, int fd, const struct stat *st, struct da_diag *diag,
			 struct da_table **ret_table);
/*
 * A stamp of the drop-ins of table @path as they are now: the directory,
 * and each drop-in's name, inode, size and times. Any change to them
 * (a drop-in added, removed, edited, its mode changed) changes it.
 */
int da_table_dropins_stamp(const char *path, uint64_t *ret_stamp);
/*
 * A stamp of table @path and its drop-ins as they are now: which files,
 * their times and their bytes (an edit within one tick of the clock keeps
 * a file's times). 0, or a negative errno when they could not all be read
 * or the table is no regular file.
 */
int da_table_stamp(const char *path, uint64_t *ret_stamp);
/* rwcache.c's state in @ctx (a malloc()ed block, freed with it). */
void **da_ctx_rwcache(struct da_ctx *ctx);
/* The records of DA_FILE_RENAMED (renamed.c), one "OLD NEW KNAME" line each. */
struct renamed {
	struct strv old, new, kname;
};
static inline void renamed_free(struct renamed *rn)
{
	strv_free(&rn->old);
	strv_free(&rn->new);
	strv_free(&rn->kname);
}
/*
 * What a context in batch mode (da_ctx_set_batch()) keeps open between
 * devices; NULL when it is not in batch mode. A descriptor is opened when
 * first needed (its _tried set); one that could not be is -errno, which
 * every later use returns as the first did.
 */
struct ctx_batch {
	int claims_dfd; /* run/diskalias/claims */
	int kmsg_fd;	/* dev/kmsg */
	int claim_fd;	/* the last claim file, locked (claims.c), and its name */
	char claim_name[17];
	bool claims_tried, kmsg_tried, renamed_read;
	struct renamed renamed; /* DA_FILE_RENAMED, read once: nothing renames during a batch */
	void *index_map;	/* the table's index, mapped, as index_read() last found it good */
	size_t index_len;
	/* The table that index answered for: its path, file and drop-ins' stamp. */
	char *table_path;
	struct stat table_st;
	uint64_t table_dropins;
};
struct ctx_batch *da_ctx_batch(const struct da_ctx *ctx);
/*
 * File @name of directory @dir, mapped read-only and whole, if only the
 * caller or root can have written both, it is a regular file reached
 * without a link, and of @min to @max bytes; NULL otherwise. Its length
 * in *ret_len.
 */
void *map_private_file(const char *dir, const char *name, size_t min, size_t max, size_t *ret_len);
/* Rewriter @rw as rewriter_from_image() reads it back, added to @sb. */
int rewriter_image(const struct da_rewriter *rw, struct strbuf *sb);
/*
 * The rewriter whose image is at @off (8-aligned) of the @map_len bytes
 * @map (mapped, handed over: unmapped on failure or when it is freed), for
 * @mode: 0, -EINVAL when it is no whole, consistent image, or -ENOMEM.
 */
int rewriter_from_image(void *map, size_t map_len, size_t off, enum da_rewrite_mode mode,
			da_rewrite_write_fn write, void *userdata, struct da_rewriter **ret_rw);
enum da_rewrite_mode rewriter_mode(const struct da_rewriter *rw);
/* What the whole of @s becomes (a name, or one with a partition suffix), or NULL. Caller frees. */
char *rewriter_lookup(const struct da_rewriter *rw, const char *s);
/* Mix what stat() says of @path into @h: which file, its size and times (or that it is missing). */
uint64_t da_stamp_file(uint64_t h, const char *path);
/* The statement named @name when it conflicts with another and binds nothing, else NULL. */
const struct da_alias *da_table_conflicting(const struct da_table *t, const char *name);
/* The bytes of alias @a's name and identity tokens as its line in @t has them, quotes and all. */
void da_alias_raw(const struct da_table *t, const struct da_alias *a, const char **ret_name,
		  size_t *ret_name_len, const char **ret_id, size_t *ret_id_len);

/* Read the records; none when the file is missing. 0 or -ENOMEM. */
int renamed_load(const struct da_ctx *ctx, struct renamed *rn);
/* The names @dev links (@map's, then the old names @rn keeps), at most DA_LINKS_MAX, into @names. */
int renamed_link_names(const struct renamed *rn, const struct da_map *map,
		       const struct da_device *dev, struct strv *names);
/* Rewrite the records, keeping those whose device still carries the new name. */
int renamed_prune(const struct da_ctx *ctx, const struct da_map *map, const struct renamed *rn);

#endif
