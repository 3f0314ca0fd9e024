// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The context, and the one place that knows where a machine keeps sys/,
 * dev/, run/udev/ and etc/: every other file builds its paths here, so a
 * --sysroot reaches every read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "internal.h"

struct da_ctx {
	int refcount;
	char *root;    /* "" for the machine itself, never with a trailing slash */
	void *rwcache; /* rwcache.c's */
	struct ctx_batch *batch;
};

DA_EXPORT int da_ctx_new(const char *root, struct da_ctx **ret_ctx)
{
	struct da_ctx *ctx;
	struct stat st;
	size_t len;

	if (!root)
		root = "/";
	if (stat(root, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->refcount = 1;
	ctx->root = strdup(root);
	if (!ctx->root) {
		free(ctx);
		return -ENOMEM;
	}
	len = strlen(ctx->root);
	while (len > 0 && ctx->root[len - 1] == '/')
		ctx->root[--len] = '\0';
	*ret_ctx = ctx;
	return 0;
}

DA_EXPORT struct da_ctx *da_ctx_ref(struct da_ctx *ctx)
{
	if (ctx)
		ctx->refcount++;
	return ctx;
}

DA_EXPORT struct da_ctx *da_ctx_unref(struct da_ctx *ctx)
{
	if (!ctx || --ctx->refcount > 0)
		return NULL;
	da_ctx_set_batch(ctx, false);
	free(ctx->root);
	free(ctx->rwcache);
	free(ctx);
	return NULL;
}

void **da_ctx_rwcache(struct da_ctx *ctx)
{
	return &ctx->rwcache;
}

DA_EXPORT void da_ctx_set_batch(struct da_ctx *ctx, bool on)
{
	struct ctx_batch *b = ctx->batch;

	if (on && !b) {
		b = calloc(1, sizeof(*b));
		if (!b)
			return; /* without a batch, every device opens what it needs */
		b->claims_dfd = b->kmsg_fd = b->claim_fd = -1;
		ctx->batch = b;
	} else if (!on && b) {
		if (b->claims_dfd >= 0)
			close(b->claims_dfd);
		if (b->kmsg_fd >= 0)
			close(b->kmsg_fd);
		if (b->claim_fd >= 0)
			close(b->claim_fd);
		if (b->index_map)
			munmap(b->index_map, b->index_len);
		renamed_free(&b->renamed);
		free(b->table_path);
		free(b);
		ctx->batch = NULL;
	}
}

struct ctx_batch *da_ctx_batch(const struct da_ctx *ctx)
{
	return ctx->batch;
}

DA_EXPORT const char *da_ctx_get_root(const struct da_ctx *ctx)
{
	return ctx->root;
}

size_t da_ctx_root_len(const struct da_ctx *ctx)
{
	return strlen(ctx->root);
}

bool da_ctx_class_lists(const struct da_ctx *ctx, const char *class)
{
	_cleanup_free_ char *dir = da_ctx_sys(ctx, "class/%s", class);
	struct strv names = {};
	int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	bool any;

	/* When it cannot be told, as if there were one: every device is asked. */
	if (dfd < 0)
		return !dir || errno != ENOENT;
	read_dir_names(dfd, ".", "", &names);
	close(dfd);
	any = names.n > 0;
	strv_free(&names);
	return any;
}

DA_EXPORT char *da_ctx_default_table(const struct da_ctx *ctx)
{
	return xasprintf("%s/etc/diskalias.conf", ctx->root);
}

static char *ctx_path(const struct da_ctx *ctx, const char *dir, const char *fmt, va_list ap)
{
	_cleanup_free_ char *rel = xvasprintf(fmt, ap);

	if (!rel)
		return NULL;
	return xasprintf("%s%s%s", ctx->root, dir, rel);
}

char *da_ctx_sys(const struct da_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = ctx_path(ctx, "/sys/", fmt, ap);
	va_end(ap);
	return p;
}

char *da_ctx_dev(const struct da_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = ctx_path(ctx, "/dev/", fmt, ap);
	va_end(ap);
	return p;
}

char *da_ctx_udev_db(const struct da_ctx *ctx, unsigned int major, unsigned int minor)
{
	return xasprintf("%s/run/udev/data/b%u:%u", ctx->root, major, minor);
}

char *da_ctx_udev_data(const struct da_ctx *ctx)
{
	return xasprintf("%s/run/udev/data", ctx->root);
}

DA_EXPORT char *da_devnode(const char *kname)
{
	char *s = strjoin("/dev/", kname, NULL);

	/* sysfs spells a '/' in a device name as '!' (cciss!c0d0). */
	for (char *p = s; p && *p; p++)
		if (*p == '!')
			*p = '/';
	return s;
}

char *da_alias_node(const char *name)
{
	return strjoin("/dev/disk/by-alias/", name, NULL);
}

char *da_mapper_node(const char *dm_name)
{
	return strjoin("/dev/mapper/", dm_name, NULL);
}

char *da_md_node(const char *md_devname)
{
	return strjoin("/dev/md/", md_devname, NULL);
}

DA_EXPORT char *da_ctx_path(const struct da_ctx *ctx, enum da_ctx_file file)
{
	static const char *const rel[] = {
		[DA_FILE_PARTITIONS] = "/proc/partitions",
		[DA_FILE_DISKSTATS] = "/proc/diskstats",
		[DA_FILE_UPTIME] = "/proc/uptime",
		[DA_FILE_KMSG] = "/dev/kmsg",
		[DA_FILE_UDEV_CONTROL] = "/run/udev/control",
		[DA_FILE_MOUNTINFO] = "/proc/self/mountinfo",
		[DA_FILE_FSTAB] = "/etc/fstab",
		[DA_FILE_CRYPTTAB] = "/etc/crypttab",
		[DA_FILE_MDADM_CONF] = "/etc/mdadm/mdadm.conf",
		[DA_FILE_SMARTD_CONF] = "/etc/smartd.conf",
		[DA_FILE_BY_ALIAS] = "/dev/disk/by-alias",
		[DA_FILE_RENAMED] = "/run/diskalias/renamed",
		[DA_FILE_TABLE_INDEX] = "/run/diskalias/table.index",
		[DA_FILE_RUN_DIR] = "/run/diskalias",
		[DA_FILE_PROBLEMS_LOGGED] = "/run/diskalias/problems.logged",
		[DA_FILE_VDEV_ID_CONF] = "/etc/zfs/vdev_id.conf",
		[DA_FILE_MULTIPATH_BINDINGS] = "/etc/multipath/bindings",
		[DA_FILE_MULTIPATH_CONF] = "/etc/multipath.conf",
		[DA_FILE_DEVICES] = "/run/diskalias/devices",
		[DA_FILE_REWRITER] = "/run/diskalias/rewriter",
		[DA_FILE_BOOT_DIR] = "/run/diskalias/boot",
	};

	if ((unsigned int)file >= ARRAY_SIZE(rel))
		return NULL;
	return xasprintf("%s%s", ctx->root, rel[file]);
}

static const char *strip_prefix(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(s, prefix, n) == 0 && s[n] ? s + n : NULL;
}

const char *da_dev_disk_link(const char *arg)
{
	const char *s = strip_prefix(arg, "/dev/disk/");

	return s && strncmp(s, "by-", 3) == 0 && strchr(s, '/') ? s : NULL;
}

const char *da_dev_mapper_name(const char *arg)
{
	return strip_prefix(arg, "/dev/mapper/");
}

const char *da_dev_alias_link(const char *arg)
{
	return strip_prefix(arg, "/dev/disk/by-alias/");
}

const char *da_dev_strip(const char *arg)
{
	return strip_prefix(arg, "/dev/");
}

DA_EXPORT void da_diag_clear(struct da_diag *diag)
{
	if (!diag)
		return;
	for (size_t i = 0; i < diag->n; i++) {
		free(diag->v[i].file);
		free(diag->v[i].msg);
	}
	free(diag->v);
	diag->v = NULL;
	diag->n = 0;
}

DA_EXPORT size_t da_diag_errors(const struct da_diag *diag)
{
	size_t n = 0;

	for (size_t i = 0; diag && i < diag->n; i++)
		n += !diag->v[i].warning;
	return n;
}

DA_EXPORT int da_diag_add(struct da_diag *diag, const char *file, unsigned int line, bool warning,
			  const char *fmt, ...)
{
	struct da_problem *p;
	va_list ap;

	if (!diag)
		return 0;
	if (ARRAY_GROW(diag->v, diag->n) < 0)
		return -ENOMEM;
	p = &diag->v[diag->n];
	memset(p, 0, sizeof(*p));
	va_start(ap, fmt);
	p->msg = xvasprintf(fmt, ap);
	va_end(ap);
	p->file = file ? strdup(file) : NULL;
	p->line = line;
	p->warning = warning;
	if (!p->msg || (file && !p->file)) {
		free(p->msg);
		free(p->file);
		return -ENOMEM;
	}
	diag->n++;
	return 0;
}
