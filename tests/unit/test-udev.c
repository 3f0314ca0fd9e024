// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The udev hot path: a device described by udev's properties alone, named
 * as a full scan names it (partitions after their disk, a partition's own
 * binding first), and the links apply makes on a small tree built here.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include <diskalias.h>

static const char table_text[] = "alias bay07 wwn:naa.5000c500a1b2c3d4\n"
				 "alias boot partuuid:0a1b2c3d-02\n"
				 "alias slot3 path:pci-0000:00:05.0-scsi-0:0:3:0\n"
				 "alias data serial:VBLK-1\n"
				 "alias logs label:log\\x20files\n"
				 "alias \"log-label\" \"label:log files\"\n";

/* The names @t gives the device @kname of @l, space separated, in a static buffer. */
static char *names_in(struct da_table *t, struct da_devlist *l, const char *kname)
{
	static char out[512];
	struct da_map *m = NULL;
	const char *n;

	assert_int_equal(da_map_new(t, l, &m), 0);
	out[0] = '\0';
	for (size_t i = 0; (n = da_map_device_name(m, da_devlist_find_kname(l, kname), i)); i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", i ? " " : "", n);
	da_map_free(m);
	return out;
}

/* The names the table gives kernel device @kname with properties @env, space separated. */
static char *names_of(const char *kname, char **env)
{
	struct da_table *t = NULL;
	struct da_devlist *l = NULL;
	char *out;

	assert_int_equal(da_table_parse("t", table_text, strlen(table_text), NULL, &t), 0);
	assert_int_equal(da_devlist_from_udev(kname, env, &l), 0);
	out = names_in(t, l, kname);
	da_devlist_free(l);
	da_table_free(t);
	return out;
}

static void test_disk_by_wwn(void **state)
{
	char *env[] = { "DEVTYPE=disk", "ID_WWN=0x5000C500A1B2C3D4", "ID_BUS=scsi",
			"ID_SERIAL=35000c500a1b2c3d4", NULL };

	assert_string_equal(names_of("sdc", env), "bay07");
}

static void test_partition(void **state)
{
	char *p1[] = { "DEVTYPE=partition",
		       "PARTN=1",
		       "DEVPATH=/devices/x/block/sdc/sdc1",
		       "ID_WWN=0x5000c500a1b2c3d4",
		       "ID_PART_ENTRY_UUID=0a1b2c3d-01",
		       NULL };
	char *p2[] = { "DEVTYPE=partition",
		       "PARTN=2",
		       "DEVPATH=/devices/x/block/sdc/sdc2",
		       "ID_WWN=0x5000c500a1b2c3d4",
		       "ID_PART_ENTRY_UUID=0a1b2c3d-02",
		       NULL };
	/* No DEVPATH: the disk's name by the kernel's rule. */
	char *p3[] = { "DEVTYPE=partition", "PARTN=3", "ID_WWN=0x5000c500a1b2c3d4", NULL };

	assert_string_equal(names_of("sdc1", p1), "bay07p1");
	assert_string_equal(names_of("sdc2", p2), "boot bay07p2");
	assert_string_equal(names_of("sdc3", p3), "bay07p3");
}

static void test_links(void **state)
{
	char *disk[] = {
		"DEVTYPE=disk",
		"DEVLINKS=/dev/disk/by-id/scsi-0QEMU_X /dev/disk/by-path/pci-0000:00:05.0-scsi-0:0:3:0",
		NULL
	};
	char *part[] = {
		"DEVTYPE=partition", "PARTN=1",
		"DEVLINKS=/dev/disk/by-path/pci-0000:00:05.0-scsi-0:0:3:0-part1 /dev/disk/by-label/log\\x20files",
		NULL
	};
	/* A by-path link of another partition number is not the disk's. */
	char *other[] = { "DEVTYPE=partition", "PARTN=2",
			  "DEVLINKS=/dev/disk/by-path/pci-0000:00:05.0-scsi-0:0:3:0-part1", NULL };

	assert_string_equal(names_of("sdf", disk), "slot3");
	/* udev escapes a blank in a label link as \x20; the table names the label itself. */
	assert_string_equal(names_of("sdf1", part), "log-label slot3p1");
	assert_string_equal(names_of("sdf2", other), "");
}

static void test_serials(void **state)
{
	/* virtio: ID_SERIAL is the label serial. SCSI: ID_SERIAL is made from the WWN. */
	char *virtio[] = { "DEVTYPE=disk", "ID_SERIAL=VBLK-1", NULL };
	char *scsi[] = { "DEVTYPE=disk", "ID_BUS=scsi", "ID_SERIAL=VBLK-1", NULL };
	char *scsi80[] = { "DEVTYPE=disk", "ID_BUS=scsi", "ID_SCSI_SERIAL=VBLK-1", NULL };

	assert_string_equal(names_of("vda", virtio), "data");
	assert_string_equal(names_of("sdd", scsi), "");
	assert_string_equal(names_of("sdd", scsi80), "data");
}

static void test_bad_names(void **state)
{
	char *env[] = { NULL };
	struct da_devlist *l = NULL;

	assert_int_equal(da_devlist_from_udev("", env, &l), -EINVAL);
	assert_int_equal(da_devlist_from_udev("sdc/x", env, &l), -EINVAL);
	assert_null(l);
}

static int counted[5];

static void count(void *userdata, enum da_apply_action action, const char *name, const char *kname)
{
	counted[action]++;
}

/* apply on a tree with one disk: links made once, then nothing to do; foreign files kept. */
static void test_apply(void **state)
{
	char root[] = "/tmp/diskalias-test-udev.XXXXXX", path[PATH_MAX + 64], target[64];
	struct da_table *t = NULL;
	struct da_devlist *l = NULL;
	struct da_map *m = NULL;
	struct da_ctx *ctx = NULL;
	char *env[] = { "DEVTYPE=disk", "ID_WWN=0x5000c500a1b2c3d4", NULL };
	ssize_t n;

	assert_non_null(mkdtemp(root));
	assert_int_equal(da_ctx_new(root, &ctx), 0);
	assert_int_equal(da_table_parse("t", table_text, strlen(table_text), NULL, &t), 0);
	assert_int_equal(da_devlist_from_udev("sdc", env, &l), 0);
	assert_int_equal(da_map_new(t, l, &m), 0);
	snprintf(path, sizeof(path), "%s/dev/disk/by-alias", root);
	assert_int_equal(da_apply(ctx, m, count, NULL, NULL), 0);
	assert_int_equal(counted[DA_APPLY_LINK_CREATED], 1);
	snprintf(path, sizeof(path), "%s/dev/disk/by-alias/bay07", root);
	n = readlink(path, target, sizeof(target) - 1);
	assert_true(n > 0);
	target[n] = '\0';
	assert_string_equal(target, "../../sdc");
	snprintf(path, sizeof(path), "%s/dev/disk/by-alias/notes", root);
	assert_int_equal(symlink("/elsewhere", path), 0);
	memset(counted, 0, sizeof(counted));
	assert_int_equal(da_apply(ctx, m, count, NULL, NULL), 0);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(counted[i], 0);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/dev/disk/by-alias/bay07", root);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	assert_int_equal(system(path), 0);
	da_map_free(m);
	da_devlist_free(l);
	da_table_free(t);
	da_ctx_unref(ctx);
}

/* Write @text as @root's table, replacing it by rename as diskalias saves it. */
static void put_table(const char *root, const char *text)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f;

	snprintf(path, sizeof(path), "%s/etc/diskalias.conf", root);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(rename(tmp, path), 0);
}

/*
 * The names @root's table gives @kname through da_table_load_indexed(), and in
 * *ret_lines how many lines of the table it read (all of them: it parsed the
 * table; fewer: it read the index).
 */
static char *indexed_names(struct da_ctx *ctx, const char *root, const char *kname, char **env,
			   size_t *ret_lines)
{
	char path[PATH_MAX];
	struct da_table *t = NULL;
	struct da_devlist *l = NULL;
	char *out;

	snprintf(path, sizeof(path), "%s/etc/diskalias.conf", root);
	assert_int_equal(da_devlist_from_udev(kname, env, &l), 0);
	assert_int_equal(da_table_load_indexed(ctx, path, l, DA_INDEX_WRITE, NULL, &t), 0);
	*ret_lines = da_table_count(t);
	out = names_in(t, l, kname);
	da_devlist_free(l);
	da_table_free(t);
	return out;
}

/* Overwrite the index at @path: @len bytes of 0xff from @off, or cut it there (@len 0). */
static void spoil(const char *path, off_t off, size_t len)
{
	char junk[4096];
	FILE *f = fopen(path, "r+");

	assert_non_null(f);
	memset(junk, 0xff, sizeof(junk));
	assert_int_equal(fseeko(f, off, SEEK_SET), 0);
	if (len)
		assert_int_equal(fwrite(junk, 1, len, f), len);
	else
		assert_int_equal(ftruncate(fileno(f), off), 0);
	assert_int_equal(fclose(f), 0);
}

/*
 * Point every entry of the index at @path (@after_path: where its buckets
 * start) at the first as the next of its bucket: every chain loops.
 */
static void loop_chains(const char *path, size_t after_path)
{
	uint32_t counts[2], one = 1; /* nbuckets, nentries: at 80 in the header */
	FILE *f = fopen(path, "r+");

	assert_non_null(f);
	assert_int_equal(fseeko(f, 80, SEEK_SET), 0);
	assert_int_equal(fread(counts, sizeof(counts[0]), 2, f), 2);
	for (uint32_t i = 0; i < counts[1]; i++) {
		/* Entries of six words (hash, next, ...) after the buckets. */
		off_t next = after_path + 4 * (off_t)counts[0] + 24 * (off_t)i + 4;

		assert_int_equal(fseeko(f, next, SEEK_SET), 0);
		assert_int_equal(fwrite(&one, sizeof(one), 1, f), 1);
	}
	assert_int_equal(fclose(f), 0);
}

/*
 * The table's index: the same names as the whole table gives, for every
 * device of the tests above; a changed table is read again at once; a
 * spoiled, foreign or unsafe index is ignored and replaced.
 */
static void test_index(void **state)
{
	char root[] = "/tmp/diskalias-test-index.XXXXXX", path[PATH_MAX + 64], index[PATH_MAX + 64];
	char *disk[] = { "DEVTYPE=disk", "ID_WWN=0x5000C500A1B2C3D4", "ID_BUS=scsi", NULL };
	char *p2[] = { "DEVTYPE=partition",
		       "PARTN=2",
		       "DEVPATH=/devices/x/block/sdc/sdc2",
		       "ID_WWN=0x5000c500a1b2c3d4",
		       "ID_PART_ENTRY_UUID=0A1B2C3D-02",
		       NULL };
	char *slot[] = {
		"DEVTYPE=partition", "PARTN=1",
		"DEVLINKS=/dev/disk/by-path/pci-0000:00:05.0-scsi-0:0:3:0-part1 /dev/disk/by-label/log\\x20files",
		NULL
	};
	char *virtio[] = { "DEVTYPE=disk", "ID_SERIAL=VBLK-1", NULL };
	char *none[] = { "DEVTYPE=disk", "ID_WWN=0x5000c50000000001", NULL };
	struct {
		const char *kname;
		char **env;
		size_t lines;
	} dev[] = {
		{ "sdc", disk, 1 },   { "sdc2", p2, 2 },  { "sdf1", slot, 2 },
		{ "vda", virtio, 1 }, { "sdx", none, 0 },
	};
	const size_t all = 6;
	struct da_ctx *ctx = NULL;
	struct stat st;
	size_t n, after_path;

	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/etc", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(index, sizeof(index), "%s/run/diskalias/table.index", root);
	assert_int_equal(da_ctx_new(root, &ctx), 0);
	put_table(root, table_text);

	/* Without DA_INDEX_WRITE a reader parses the table and writes nothing. */
	{
		struct da_devlist *l = NULL;
		struct da_table *t = NULL;

		snprintf(path, sizeof(path), "%s/etc/diskalias.conf", root);
		assert_int_equal(da_devlist_from_udev("sdc", disk, &l), 0);
		assert_int_equal(da_table_load_indexed(ctx, path, l, 0, NULL, &t), 0);
		assert_int_equal(da_table_count(t), all);
		assert_int_equal(stat(index, &st), -1);
		assert_int_equal(errno, ENOENT);
		da_table_free(t);
		da_devlist_free(l);
	}

	/* The first call parses the table and leaves the index; the others read it. */
	assert_string_equal(indexed_names(ctx, root, "sdc", disk, &n), "bay07");
	assert_int_equal(n, all);
	assert_int_equal(stat(index, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	for (size_t i = 0; i < sizeof(dev) / sizeof(dev[0]); i++) {
		char *want = strdup(names_of(dev[i].kname, dev[i].env));

		assert_string_equal(indexed_names(ctx, root, dev[i].kname, dev[i].env, &n), want);
		assert_int_equal(n, dev[i].lines);
		free(want);
	}

	/* A new table is read at once, even one of the same size. */
	put_table(root, "alias bay08 wwn:0x5000c500a1b2c3d4\nalias other serial:X\n");
	assert_string_equal(indexed_names(ctx, root, "sdc", disk, &n), "bay08");
	assert_int_equal(n, 2);
	put_table(root, "alias bay09 wwn:0x5000c500a1b2c3d4\nalias other serial:X\n");
	assert_string_equal(indexed_names(ctx, root, "sdc", disk, &n), "bay09");
	assert_int_equal(n, 2);
	assert_string_equal(indexed_names(ctx, root, "sdc", disk, &n), "bay09");
	assert_int_equal(n, 1);

	/*
	 * Spoiled: cut short; its buckets, entries and tokens overwritten (they
	 * follow a 96-byte header and the table's path); the name of the line
	 * looked up overwritten; every chain made a loop (only the chains a lookup
	 * walks are checked, as it walks them: it must end). Each time the table
	 * is parsed again, and the index rebuilt.
	 */
	snprintf(path, sizeof(path), "%s/etc/diskalias.conf", root);
	after_path = 96 + ((strlen(path) + 3) & ~(size_t)3);
	for (int spoiled = 0; spoiled < 4; spoiled++) {
		assert_int_equal(stat(index, &st), 0);
		if (spoiled == 0)
			spoil(index, 100, 0);
		else if (spoiled == 1)
			spoil(index, after_path, st.st_size - after_path);
		else if (spoiled == 2) /* "bay09", at the start of the last 40 bytes: the tokens */
			spoil(index, st.st_size - 40, 3);
		else
			loop_chains(index, after_path);
		assert_string_equal(indexed_names(ctx, root, "sdc", disk, &n), "bay09");
		assert_int_equal(n, 2);
		assert_string_equal(indexed_names(ctx, root, "sdc", disk, &n), "bay09");
		assert_int_equal(n, 1);
	}

	/* Writable by others: not trusted. */
	assert_int_equal(chmod(index, 0666), 0);
	assert_string_equal(indexed_names(ctx, root, "sdc", disk, &n), "bay09");
	assert_int_equal(n, 2);

	/* While a forced rename keeps old names, the whole table is read: they are checked against
	 * it. */
	assert_int_equal(da_renamed_keep(ctx, "bay07", "bay09", "sdc"), 0);
	assert_string_equal(indexed_names(ctx, root, "sdc", disk, &n), "bay09");
	assert_int_equal(n, 2);

	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	assert_int_equal(system(path), 0);
	da_ctx_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disk_by_wwn), cmocka_unit_test(test_partition),
		cmocka_unit_test(test_links),	    cmocka_unit_test(test_serials),
		cmocka_unit_test(test_bad_names),   cmocka_unit_test(test_apply),
		cmocka_unit_test(test_index),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
