// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * udev's side: the device of one event described by udev's own properties,
 * the mapping record in the kernel log, and change events after an edit.
 *
 * The helper runs once per block device at every boot, inside a udev
 * worker, so it reads nothing of sysfs: udev has already found what the
 * full scan (device.c) would, and hands it over as properties. The names
 * below are the ones Debian's 60-persistent-storage.rules sets; device.c
 * reads the same properties from the udev database, so both agree.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "device.h"
#include "hashmap.h"
#include "internal.h"

/* The value of @key in @env ("KEY=value" strings), or NULL when absent or empty. */
static const char *env_get(char *const *env, const char *key)
{
	size_t n = strlen(key);

	for (; env && *env; env++)
		if (strncmp(*env, key, n) == 0 && (*env)[n] == '=')
			return (*env)[n + 1] ? *env + n + 1 : NULL;
	return NULL;
}

static unsigned int env_uint(char *const *env, const char *key)
{
	const char *s = env_get(env, key);
	unsigned int v;

	return s && parse_uint(s, &v) == 0 ? v : 0;
}

/* The identities among a device's properties (da_udev_props[]): the disk's, or its own. */
static int add_props(struct da_device *d, char *const *env, bool disk)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && da_udev_props[i].key; i++)
		if (da_udev_props[i].disk == disk)
			r = da_device_add_identity(d, da_udev_props[i].kind,
						   env_get(env, da_udev_props[i].key));
	/*
	 * virtio and MMC disks have their label serial as ID_SERIAL and no
	 * ID_SERIAL_SHORT (SCSI and ATA have ID_SERIAL_SHORT; their ID_SERIAL
	 * is model_serial or made from the WWN).
	 */
	if (r >= 0 && disk && !env_get(env, "ID_SERIAL_SHORT") && !env_get(env, "ID_BUS"))
		r = da_device_add_identity(d, DA_ID_SERIAL, env_get(env, "ID_SERIAL"));
	return r;
}

/*
 * The links of one DEVLINKS word, /dev/disk/by-KIND/NAME: an identity of
 * @d and, for by-id and by-path links of partition @partno, of its disk
 * @disk (the same name without "-partN").
 */
static int add_link(struct da_device *d, struct da_device *disk, unsigned int partno,
		    const char *word, size_t len)
{
	_cleanup_free_ char *link = strndup(word, len), *value = NULL;
	const char *rel = link ? da_dev_disk_link(link) : NULL;
	enum da_id_kind kind;
	const char *slash, *name;
	size_t n;
	int r;

	if (!link)
		return -ENOMEM;
	if (!rel)
		return 0;
	slash = strchr(rel, '/');
	name = slash + 1;
	kind = da_id_kind_from_dir(rel, slash - rel);
	if (kind == DA_ID_INVALID || strchr(name, '/') || !*name)
		return 0;
	value = da_id_value_from_link(kind, name);
	if (!value)
		return -ENOMEM;
	r = da_device_add_identity(d, kind, value);
	if (r >= 0)
		r = da_device_add_link(d, da_id_kind_dir(kind), name);
	if (r < 0 || !disk || (kind != DA_ID_ID && kind != DA_ID_PATH))
		return r;
	n = da_link_disk_len(name, partno);
	if (!n)
		return 0;
	value[n] = '\0';
	r = da_device_add_identity(disk, kind, value);
	if (r >= 0)
		r = da_device_add_link(disk, da_id_kind_dir(kind), value);
	return r;
}

static int add_links(struct da_device *d, struct da_device *disk, unsigned int partno,
		     const char *devlinks)
{
	const char *s = devlinks;
	int r = 0;

	while (s && *s && r >= 0) {
		size_t n;

		s += strspn(s, " ");
		n = strcspn(s, " ");
		if (n)
			r = add_link(d, disk, partno, s, n);
		s += n;
	}
	return r;
}

/* The kernel name of a partition's disk: from DEVPATH (.../block/sdc/sdc1), else by the naming
 * rule. */
static char *disk_kname(const char *kname, const char *devpath)
{
	unsigned int partno;
	size_t end;

	if (devpath) {
		const char *last = strrchr(devpath, '/');
		const char *prev = last;

		while (prev && prev > devpath && prev[-1] != '/')
			prev--;
		if (last && prev && prev < last && streq(last + 1, kname))
			return strndup(prev, last - prev);
	}
	end = da_partition_base_len(kname, strlen(kname), &partno);
	return end ? strndup(kname, end) : NULL;
}

DA_EXPORT int da_devlist_from_udev(const char *kname, char *const *env,
				   struct da_devlist **ret_list)
{
	const char *devtype = env_get(env, "DEVTYPE");
	unsigned int partno = env_uint(env, "PARTN");
	bool part = streq(devtype, "partition") || (!devtype && partno);
	struct da_device *disk = NULL, *d;
	struct da_devlist *l;
	int r;

	if (!kname || !*kname || strchr(kname, '/'))
		return -EINVAL;
	r = da_devlist_new_empty(&l);
	if (r < 0)
		return r;
	if (part) {
		_cleanup_free_ char *dk = disk_kname(kname, env_get(env, "DEVPATH"));

		/* A partition whose disk would have its own name is no partition (sdc with
		 * PARTN=1). */
		r = dk && !streq(dk, kname) ? 0 : -EINVAL;
		if (r >= 0)
			r = da_devlist_add_device(l, dk, 0, 0, 0, NULL, &disk);
		if (r >= 0)
			r = add_props(disk, env, true);
	}
	if (r >= 0)
		r = da_devlist_add_device(l, kname, env_uint(env, "MAJOR"), env_uint(env, "MINOR"),
					  partno, disk, &d);
	if (r >= 0 && !part)
		r = add_props(d, env, true);
	/* The kernel sends a disk's with its event: the claims need not read it back. */
	if (r >= 0 && !part && env_get(env, "DISKSEQ"))
		(void)parse_u64(env_get(env, "DISKSEQ"), &d->diskseq); /* else 0: read back */
	if (r >= 0 && !part && env_get(env, "DEVPATH"))
		r = da_device_set_devpath(d, env_get(env, "DEVPATH"));
	if (r >= 0)
		r = add_props(d, env, false);
	if (r >= 0)
		r = add_links(d, disk, partno, env_get(env, "DEVLINKS"));
	if (r < 0) {
		da_devlist_free(l);
		return r;
	}
	*ret_list = l;
	return 0;
}

/*
 * The kernel log at @path opened for writing, never through a link (under
 * a sysroot, one could point a root write anywhere): its fd, or -errno.
 */
static int open_kmsg(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);

	return fd < 0 ? -errno : fd;
}

DA_EXPORT int da_udev_log(const struct da_ctx *ctx, const char *text)
{
	_cleanup_free_ char *path = da_ctx_path(ctx, DA_FILE_KMSG);
	_cleanup_free_ char *safe = str_escape(text, strlen(text), 0, true);
	_cleanup_free_ char *rec = NULL;
	struct ctx_batch *batch = da_ctx_batch(ctx);
	ssize_t n;
	int fd, r = 0;

	/* <14>: facility user, level info, as syslog(3) would. */
	rec = safe ? xasprintf("<14>diskalias: %s\n", safe) : NULL;
	if (!path || !rec)
		return -ENOMEM;
	/* In a batch the log stays open from one device to the next. */
	if (batch && !batch->kmsg_tried) {
		batch->kmsg_fd = open_kmsg(path);
		batch->kmsg_tried = true;
	}
	fd = batch ? batch->kmsg_fd : open_kmsg(path);
	if (fd < 0)
		return fd;
	/* /dev/kmsg takes one record per write. */
	n = write(fd, rec, strlen(rec));
	if (n < 0)
		r = -errno;
	if (!batch)
		close(fd);
	return r;
}

DA_EXPORT int da_udev_record(const struct da_ctx *ctx, const char *kname, const char *name,
			     const char *identity)
{
	_cleanup_free_ char *text = xasprintf("%s is %s (%s)", kname, name, identity);

	return text ? da_udev_log(ctx, text) : -ENOMEM;
}

/* Problems logged per table version: more would flood the log at boot. */
#define LOG_PROBLEMS_MAX 8

DA_EXPORT int da_udev_log_problems(const struct da_ctx *ctx, const char *path,
				   const struct da_diag *diag)
{
	_cleanup_free_ char *dir = da_ctx_path(ctx, DA_FILE_RUN_DIR);
	_cleanup_free_ char *logged = da_ctx_path(ctx, DA_FILE_PROBLEMS_LOGGED);
	_cleanup_free_ char *version = NULL, *seen = NULL;
	struct stat st = {};
	unsigned int said = 0;
	int dfd, fd, r = 1;

	if (!diag || !diag->n)
		return 0;
	if (!dir || !logged)
		return -ENOMEM;
	/* The table's version, and what was said of it: the same file can go from used to refused. */
	for (size_t i = 0; i < diag->n; i++)
		said = said * 31 + hashmap_hash(diag->v[i].msg, strlen(diag->v[i].msg), false);
	stat(path, &st);
	version = xasprintf("%s %llu %llu %lld %lld.%09ld %lld.%09ld %08x\n", path,
			    (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
			    (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
			    (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec, said);
	if (!version)
		return -ENOMEM;
	/* One helper per device runs at once at boot: the first one logs, under the lock. */
	dfd = open_private_dir(dir, true);
	fd = dfd < 0 ? dfd
		     : openat(dfd, path_basename(logged), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
			      0600);
	if (dfd >= 0)
		close(dfd);
	if (fd >= 0 && flock(fd, LOCK_EX) == 0 && read_fd(fd, &seen, NULL) == 0 &&
	    streq(seen, version)) {
		close(fd);
		return 0;
	}
	for (size_t i = 0; i < diag->n && i < LOG_PROBLEMS_MAX && r >= 0; i++) {
		const struct da_problem *p = &diag->v[i];
		_cleanup_free_ char *text = NULL;

		if (p->line)
			text = xasprintf("%s:%u: %s", p->file ? p->file : path, p->line, p->msg);
		else
			text = xasprintf("%s: %s", p->file ? p->file : path, p->msg);
		r = text ? da_udev_log(ctx, text) : -ENOMEM;
	}
	if (r >= 0 && diag->n > LOG_PROBLEMS_MAX) {
		_cleanup_free_ char *text = xasprintf("%s: %zu more problems (diskalias check)",
						      path, diag->n - LOG_PROBLEMS_MAX);

		r = text ? da_udev_log(ctx, text) : -ENOMEM;
	}
	/* Where run/ cannot be written, every helper logs: better than none. */
	if (fd >= 0) {
		if (r >= 0 && ftruncate(fd, 0) == 0)
			(void)!pwrite(fd, version, strlen(version), 0);
		close(fd);
	}
	return r < 0 ? r : 1;
}

/* True when @s is @n lowercase hex digits, as scsi_id and ata_id print them. */
static bool lower_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return i == n && !s[i];
}

DA_EXPORT int da_udev_boot_env(const struct da_ctx *ctx, const struct da_device *dev,
			       char ***ret_env, char **ret_key)
{
	_cleanup_free_ char *top = da_ctx_sys(ctx, "devices"), *id_wwn = NULL;
	const struct da_device *disk = dev->devtype == DA_DEV_PART ? dev->parent : dev;
	const char *wwn = disk ? disk->wwn : NULL;
	bool part = dev != disk;
	/* A scanned partition keeps no path: it is its disk's and its name. */
	const char *syspath = dev->syspath ?: (part && disk ? disk->syspath : NULL);
	const char *below = dev->syspath ? "" : dev->kname;
	struct strv env = {};
	unsigned long long seq;
	size_t toplen;
	int r = 0;

	if (!top)
		return -ENOMEM;
	toplen = strlen(top);
	/*
	 * A disk behind a SCSI device (sd: SAS, SATA through libata, virtio-scsi), or
	 * a partition of one: sysfs's wwid is the VPD page 0x83 designator scsi_id reads,
	 * and for ATA the IDENTIFY WWN ata_id reads (a partition's ID_WWN is its disk's,
	 * imported by the persistent-storage rules). NAA only: 16 hex digits (types 2, 3,
	 * 5) or 32 (type 6, whose last 16 are the vendor extension). A USB disk's
	 * properties come from usb_id, with no ID_WWN: its file, if any, is never read.
	 */
	if (!disk || disk->devtype != DA_DEV_DISK || (part && !dev->partno) || !disk->hctl ||
	    !streq(disk->type, "disk") || !wwn || strncmp(wwn, "0x", 2) != 0 ||
	    !(lower_hex(wwn + 2, 16) || lower_hex(wwn + 2, 32)) || !syspath ||
	    strncmp(syspath, top, toplen) != 0 || syspath[toplen] != '/')
		return 0;
	seq = device_diskseq(ctx, disk);
	if (!seq)
		return 0;
	id_wwn = strndup(wwn, 18);
	if (!id_wwn)
		return -ENOMEM;
	r = strv_push(&env, part ? "DEVTYPE=partition" : "DEVTYPE=disk");
	if (r >= 0 && part)
		r = strv_consume(&env, xasprintf("PARTN=%u", dev->partno));
	if (r >= 0)
		r = strv_consume(&env, xasprintf("MAJOR=%u", dev->major));
	if (r >= 0)
		r = strv_consume(&env, xasprintf("MINOR=%u", dev->minor));
	if (r >= 0)
		r = strv_consume(&env, xasprintf("DEVPATH=/devices%s%s%s", syspath + toplen,
						 *below ? "/" : "", below));
	/* The kernel sends a partition's event without it: the rules read its disk's. */
	if (r >= 0 && !part)
		r = strv_consume(&env, xasprintf("DISKSEQ=%llu", seq));
	if (r >= 0)
		r = strv_consume(&env, xasprintf("ID_WWN=%s", id_wwn));
	if (r >= 0)
		r = strv_consume(&env, xasprintf("ID_WWN_WITH_EXTENSION=%s", wwn));
	*ret_key = r < 0  ? NULL
		   : part ? xasprintf("%llu_%s_%s_p%u", seq, id_wwn, wwn, dev->partno)
			  : xasprintf("%llu_%s_%s", seq, id_wwn, wwn);
	if (!*ret_key) {
		strv_free(&env);
		return -ENOMEM;
	}
	*ret_env = env.v;
	return 1;
}

DA_EXPORT int da_udev_boot_forget(const struct da_ctx *ctx)
{
	_cleanup_free_ char *dir = da_ctx_path(ctx, DA_FILE_BOOT_DIR);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	int dfd, r;

	if (!slash)
		return -ENOMEM;
	*slash = '\0';
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return errno == ENOENT ? 0 : -errno;
	/* A run killed while it wrote left its names in a directory of its own. */
	remove_stale_temps_at(dfd, slash + 1);
	r = remove_dir_at(dfd, slash + 1);
	close(dfd);
	return r;
}

DA_EXPORT bool da_udev_running(const struct da_ctx *ctx)
{
	_cleanup_free_ char *path = da_ctx_path(ctx, DA_FILE_UDEV_CONTROL);

	return path && access(path, F_OK) == 0;
}

DA_EXPORT int da_udev_trigger(const struct da_ctx *ctx, const char *kname, const char *action)
{
	_cleanup_free_ char *path = da_ctx_sys(ctx, "class/block/%s/uevent", kname);

	return path ? write_string(path, action) : -ENOMEM;
}

DA_EXPORT int da_udev_trigger_disk(const struct da_ctx *ctx, const char *kname, const char *action)
{
	_cleanup_free_ char *dir = da_ctx_sys(ctx, "class/block/%s", kname);
	struct dirent *de;
	DIR *dp;
	int r;

	if (!dir)
		return -ENOMEM;
	r = da_udev_trigger(ctx, kname, action);
	dp = opendir(dir);
	/* Every partition, even past one that fails: the first failure is returned. */
	while (dp && (de = readdir(dp))) {
		_cleanup_free_ char *part = NULL;
		int q;

		if (de->d_name[0] == '.')
			continue;
		part = xasprintf("%s/%s/partition", dir, de->d_name);
		if (!part) {
			r = -ENOMEM;
			break;
		}
		if (access(part, F_OK) == 0 && (q = da_udev_trigger(ctx, de->d_name, action)) < 0 &&
		    r >= 0)
			r = q;
	}
	if (dp)
		closedir(dp);
	return r;
}
