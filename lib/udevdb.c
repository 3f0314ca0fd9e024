// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * udev's database entry of a block device: its properties and the links it
 * claims. On the machine itself it is asked of libudev, as lsblk does: the
 * files under /run/udev/data are udev's private business and their format
 * is udev's to change. libudev is loaded when first needed (dlopen), so
 * the udev helper does not pay for it at every event and an initramfs
 * without it still works: then, and under a sysroot (a recorded machine,
 * whose database is only files), the file is read.
 *
 * Both give the entry in the file's own line form, "E:KEY=VALUE" and
 * "S:LINK" (LINK relative to /dev), so one parser (device.c) reads either.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <pthread.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "internal.h"

struct udev;
struct udev_device;
struct udev_list_entry;

/* The libudev calls used, as libudev.h declares them. */
static struct {
	struct udev *(*new)(void);
	struct udev *(*unref)(struct udev *udev);
	struct udev_device *(*device_new_from_devnum)(struct udev *udev, char type, dev_t devnum);
	struct udev_device *(*device_unref)(struct udev_device *dev);
	int (*device_get_is_initialized)(struct udev_device *dev);
	struct udev_list_entry *(*device_get_properties_list_entry)(struct udev_device *dev);
	struct udev_list_entry *(*device_get_devlinks_list_entry)(struct udev_device *dev);
	struct udev_list_entry *(*list_entry_get_next)(struct udev_list_entry *entry);
	const char *(*list_entry_get_name)(struct udev_list_entry *entry);
	const char *(*list_entry_get_value)(struct udev_list_entry *entry);
	bool loaded;
} lu;

static pthread_once_t lu_once = PTHREAD_ONCE_INIT;

static void lu_load(void)
{
	static const char *const names[] = {
		"udev_new",
		"udev_unref",
		"udev_device_new_from_devnum",
		"udev_device_unref",
		"udev_device_get_is_initialized",
		"udev_device_get_properties_list_entry",
		"udev_device_get_devlinks_list_entry",
		"udev_list_entry_get_next",
		"udev_list_entry_get_name",
		"udev_list_entry_get_value",
	};
	void **fn[] = {
		(void **)&lu.new,
		(void **)&lu.unref,
		(void **)&lu.device_new_from_devnum,
		(void **)&lu.device_unref,
		(void **)&lu.device_get_is_initialized,
		(void **)&lu.device_get_properties_list_entry,
		(void **)&lu.device_get_devlinks_list_entry,
		(void **)&lu.list_entry_get_next,
		(void **)&lu.list_entry_get_name,
		(void **)&lu.list_entry_get_value,
	};
	void *h = dlopen("libudev.so.1", RTLD_NOW | RTLD_LOCAL);

	_Static_assert(ARRAY_SIZE(names) == ARRAY_SIZE(fn), "one name per call");
	if (!h)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(fn); i++) {
		*fn[i] = dlsym(h, names[i]);
		if (!*fn[i]) {
			dlclose(h);
			return;
		}
	}
	lu.loaded = true;
}

/* The entry through libudev: 0, -ENOENT when udev has none (yet), -ENOSYS without libudev. */
static int lu_read(unsigned int major, unsigned int minor, struct strbuf *sb)
{
	struct udev *udev;
	struct udev_device *dev;
	struct udev_list_entry *e;
	int r = 0;

	pthread_once(&lu_once, lu_load);
	if (!lu.loaded)
		return -ENOSYS;
	udev = lu.new();
	if (!udev)
		return -ENOMEM;
	dev = lu.device_new_from_devnum(udev, 'b', makedev(major, minor));
	if (!dev || !lu.device_get_is_initialized(dev)) {
		r = dev || errno == ENOENT || errno == ENODEV ? -ENOENT : -errno;
		goto out;
	}
	for (e = lu.device_get_properties_list_entry(dev); e && r >= 0;
	     e = lu.list_entry_get_next(e))
		r = strbuf_addf(sb, "E:%s=%s\n", lu.list_entry_get_name(e),
				lu.list_entry_get_value(e) ? lu.list_entry_get_value(e) : "");
	for (e = lu.device_get_devlinks_list_entry(dev); e && r >= 0;
	     e = lu.list_entry_get_next(e)) {
		const char *link = lu.list_entry_get_name(e);

		if (strncmp(link, "/dev/", 5) == 0)
			r = strbuf_addf(sb, "S:%s\n", link + 5);
	}
out:
	if (dev)
		lu.device_unref(dev);
	lu.unref(udev);
	return r;
}

int da_udev_db_read(const struct da_ctx *ctx, int dbfd, unsigned int major, unsigned int minor,
		    char **ret_text)
{
	struct strbuf sb = STRBUF_INIT;
	_cleanup_free_ char *path = NULL;
	char name[32], maj[12], min[12];
	int r;

	if (!*da_ctx_get_root(ctx) && getenv("DISKALIAS_UDEV_DB") == NULL) {
		r = lu_read(major, minor, &sb);
		if (r != -ENOSYS) {
			if (r >= 0 && !(*ret_text = strbuf_detach(&sb, NULL)))
				r = -ENOMEM;
			strbuf_release(&sb);
			return r;
		}
	}
	if (dbfd >= 0) {
		/* "bMAJ:MIN", built by hand: once per device on the cold path. */
		stpcpy(stpcpy(stpcpy(stpcpy(name, "b"), uint_str(maj, sizeof(maj), major)), ":"),
		       uint_str(min, sizeof(min), minor));
		r = read_small_at(dbfd, name, ret_text, NULL);
	} else {
		path = da_ctx_udev_db(ctx, major, minor);
		if (!path)
			return -ENOMEM;
		r = read_small_at(AT_FDCWD, path, ret_text, NULL);
	}
	return r == -ENOTDIR ? -ENOENT : r;
}
