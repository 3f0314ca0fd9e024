// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Claims: which devices the udev helper found carrying each identity the
 * table binds, so that an identity two devices share names neither.
 *
 * The helper runs once per device and sees only that device's properties:
 * it cannot tell that another disk has the same WWN (disks behind a RAID
 * controller), that a cloned disk has the same partition UUID, or that a
 * USB bridge gives two sticks one serial. So each call records its device
 * against the identities its aliases are bound by, in
 * run/diskalias/claims/ID (ID a hash of the identity), one line a device:
 * "MAJ:MIN KNAME DISKSEQ". A second device finds the first there: it takes
 * no name by that identity, and asks udev for a change event of the first,
 * whose helper then finds the second and drops the name too. The file is
 * read and written under a lock, so two helpers at once see each other.
 *
 * A line is dropped when its device is gone: no such MAJ:MIN, another
 * kernel name on it, another disk sequence number (a new attach), or a
 * udev entry that no longer carries the identity (repartitioned). A device
 * whose udev entry is not written yet counts as carrying it: never a guess
 * towards naming.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/file.h>

#include "device.h"
#include "internal.h"

/* The identity as a file name: a 64-bit FNV-1a hash of "kind:key", the key folded where case does
 * not matter. */
static void claim_name(enum da_id_kind kind, const char *value, char name[17])
{
	const char *key = da_id_value_key(kind, value);
	bool fold = kind == DA_ID_WWN || kind == DA_ID_UUID || kind == DA_ID_PARTUUID;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const char *p = da_id_kind_name(kind); *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	h = (h ^ ':') * 0x100000001b3ULL;
	for (const char *p = key; *p; p++) {
		unsigned char c = *p;

		if (fold && c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		h = (h ^ c) * 0x100000001b3ULL;
	}
	snprintf(name, 17, "%016" PRIx64, h);
}

/* True while device @devnum is still @kname of attach @diskseq and carries the identity. */
static bool claim_live(const struct da_ctx *ctx, unsigned int major, unsigned int minor,
		       const char *kname, uint64_t diskseq, enum da_id_kind kind, const char *value)
{
	_cleanup_free_ char *path = da_ctx_sys(ctx, "class/block/%s/dev", kname);
	_cleanup_free_ char *dev = NULL;
	unsigned int ma, mi;

	if (!path || read_file(path, &dev, NULL) < 0 || sscanf(dev, "%u:%u", &ma, &mi) != 2 ||
	    ma != major || mi != minor)
		return false;
	if (diskseq && read_diskseq(ctx, kname) != diskseq)
		return false;
	/* A bay is no udev property: sysfs says which disk is in it. */
	if (kind == DA_ID_SLOT)
		return slot_device_has(ctx, kname, value) > 0;
	return da_udev_db_has_identity(ctx, major, minor, kind, value) != 0;
}

DA_EXPORT int da_udev_claim(const struct da_ctx *ctx, const struct da_device *dev,
			    enum da_id_kind kind, const char *value, bool record,
			    char ***ret_others, bool *ret_new)
{
	_cleanup_free_ char *dir = da_ctx_path(ctx, DA_FILE_RUN_DIR);
	_cleanup_free_ char *claims = dir ? xasprintf("%s/claims", dir) : NULL;
	_cleanup_free_ char *buf = NULL, *out = NULL, *safe = NULL, *before = NULL;
	struct ctx_batch *batch = da_ctx_batch(ctx);
	struct strv others = {};
	bool mine = false;
	size_t outlen = 0, buflen = 0;
	char name[17], *line, *save = NULL;
	FILE *f = NULL;
	int dfd, fd, n, r = 0;

	if (!claims)
		return -ENOMEM;
	claim_name(kind, value, name);
	/* In a batch the directory stays open from one device to the next. */
	if (batch && !batch->claims_tried) {
		batch->claims_dfd = open_private_dir(claims, true);
		batch->claims_tried = true;
	}
	dfd = batch ? batch->claims_dfd : open_private_dir(claims, true);
	if (dfd < 0)
		return dfd;
	/*
	 * In a batch the last claim file stays open and locked: a disk's
	 * partitions claim its identity right after it. Another helper waits
	 * for it no longer than for the next claim.
	 */
	if (batch && batch->claim_fd >= 0 && streq(batch->claim_name, name)) {
		fd = batch->claim_fd;
		batch->claim_fd = -1;
	} else {
		fd = openat(dfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
		r = fd < 0 ? -errno : 0;
		if (!batch)
			close(dfd);
		if (r < 0)
			return r;
		if (flock(fd, LOCK_EX) < 0) {
			r = -errno;
			goto out;
		}
	}
	if (lseek(fd, 0, SEEK_SET) != 0 || read_small_fd(fd, &buf, &buflen) < 0) {
		r = -errno;
		goto out;
	}
	/* The lines are split below; what was there is compared with what is to be. */
	before = strdup(buf);
	if (!before) {
		r = -ENOMEM;
		goto out;
	}
	f = open_memstream(&out, &outlen);
	safe = str_escape(value, strlen(value), 0, true);
	if (!f || !safe) {
		r = -ENOMEM;
		goto out;
	}
	fprintf(f, "# %s:%s\n", da_id_kind_name(kind), safe);
	for (line = strtok_r(buf, "\n", &save); line && r >= 0;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned int major, minor;
		unsigned long long seq;
		char kname[256];

		if (line[0] == '#' ||
		    sscanf(line, "%u:%u %255s %llu", &major, &minor, kname, &seq) != 4)
			continue;
		/* A partition's helper looks up its disk by kernel name: it has no number for it. */
		if ((major == da_device_major(dev) && minor == da_device_minor(dev)) ||
		    streq(kname, da_device_kname(dev))) {
			mine = true;
			if (!record)
				fprintf(f, "%s\n", line);
			continue;
		}
		if (!claim_live(ctx, major, minor, kname, seq, kind, value))
			continue;
		fprintf(f, "%u:%u %s %llu\n", major, minor, kname, seq);
		r = strv_push(&others, kname);
	}
	if (record)
		fprintf(f, "%u:%u %s %" PRIu64 "\n", da_device_major(dev), da_device_minor(dev),
			da_device_kname(dev), device_diskseq(ctx, dev));
	if (fclose(f) != 0 && r >= 0)
		r = -ENOMEM;
	f = NULL;
	/* An event again on a device already recorded, nobody gone: nothing to write. */
	if (r >= 0 && (outlen != buflen || memcmp(out, before, outlen) != 0) &&
	    (ftruncate(fd, 0) < 0 || pwrite(fd, out, outlen, 0) != (ssize_t)outlen))
		r = -errno;
out:
	if (f)
		fclose(f);
	if (batch && r >= 0) {
		if (batch->claim_fd >= 0)
			close(batch->claim_fd);
		batch->claim_fd = fd;
		memcpy(batch->claim_name, name, sizeof(name));
	} else {
		close(fd);
	}
	if (r < 0) {
		strv_free(&others);
		return r;
	}
	if (ret_new)
		*ret_new = record && !mine;
	n = others.n;
	*ret_others = strv_detach(&others);
	if (!*ret_others)
		return -ENOMEM;
	return n;
}
