// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Discovery and matching on a small machine tree built here with the shapes
 * a real kernel shows (SCSI disks under a PCI HBA, VPD pages, udev links and
 * database). Linked against the shared library, so it also proves the
 * exported symbols are enough for a tool.
 */
#include <errno.h>
#include <inttypes.h>
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

static char root[PATH_MAX];

#define HBA "sys/devices/pci0000:00/0000:00:10.0/host2"

static void mkparents(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
}

static void put(const char *rel, const char *content, size_t len)
{
	char path[2 * PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkparents(path);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(content, 1, len, f), len);
	fclose(f);
}

static void attr(const char *dir, const char *name, const char *value)
{
	char rel[PATH_MAX], line[512];

	snprintf(rel, sizeof(rel), "%s/%s", dir, name);
	snprintf(line, sizeof(line), "%s\n", value);
	put(rel, line, strlen(line));
}

/* A relative symlink at @rel pointing at @target (both relative to the root), as sysfs makes them. */
static void link_to(const char *rel, const char *target)
{
	char path[2 * PATH_MAX], up[PATH_MAX] = "";
	const char *a = rel, *b = target;

	/* Skip the directories both share, then climb out of the rest of @rel's. */
	for (;;) {
		const char *sa = strchr(a, '/'), *sb = strchr(b, '/');

		if (!sa || !sb || sa - a != sb - b || strncmp(a, b, sa - a) != 0)
			break;
		a = sa + 1;
		b = sb + 1;
	}
	for (const char *p = a; (p = strchr(p, '/')); p++)
		strcat(up, "../");
	strcat(up, b);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkparents(path);
	assert_int_equal(symlink(up, path), 0);
}

static void scsi_disk(unsigned int target, const char *kname, unsigned int minor, const char *wwid,
		      const char *serial, int parts)
{
	char sdev[256], blk[256], part[256], pname[32], dev[32], vpd[64];
	size_t n = strlen(serial);

	snprintf(sdev, sizeof(sdev), HBA "/target2:0:%u/2:0:%u:0", target, target);
	attr(sdev, "vendor", "SEAGATE ");
	attr(sdev, "model", "ST4000NM0023    ");
	attr(sdev, "wwid", wwid);
	vpd[0] = 0;
	vpd[1] = (char)0x80;
	vpd[2] = 0;
	vpd[3] = (char)(n + 4);
	memcpy(vpd + 4, "    ", 4);
	memcpy(vpd + 8, serial, n);
	snprintf(blk, sizeof(blk), "%s/vpd_pg80", sdev);
	put(blk, vpd, n + 8);
	snprintf(blk, sizeof(blk), "%s/subsystem", sdev);
	link_to(blk, "sys/bus/scsi");
	snprintf(blk, sizeof(blk), "%s/block/%s", sdev, kname);
	snprintf(dev, sizeof(dev), "8:%u", minor);
	attr(blk, "dev", dev);
	attr(blk, "size", "7814037168");
	attr(blk, "removable", "0");
	attr(blk, "ro", "0");
	snprintf(part, sizeof(part), "%s/device", blk);
	link_to(part, sdev);
	snprintf(part, sizeof(part), "%s/subsystem", blk);
	link_to(part, "sys/class/block");
	snprintf(part, sizeof(part), "sys/class/block/%s", kname);
	link_to(part, blk);
	for (int i = 1; i <= parts; i++) {
		snprintf(pname, sizeof(pname), "%s%d", kname, i);
		snprintf(part, sizeof(part), "%s/%s", blk, pname);
		snprintf(dev, sizeof(dev), "8:%u", minor + i);
		attr(part, "dev", dev);
		attr(part, "partition", i == 1 ? "1" : "2");
		attr(part, "size", "2048");
		snprintf(sdev, sizeof(sdev), "sys/class/block/%s", pname);
		link_to(sdev, part);
	}
}

static int setup(void **state)
{
	snprintf(root, sizeof(root), "/tmp/da-map-XXXXXX");
	assert_non_null(mkdtemp(root));
	put("sys/bus/scsi/.keep", "", 0);
	put("sys/bus/pci/.keep", "", 0);
	link_to("sys/devices/pci0000:00/0000:00:10.0/subsystem", "sys/bus/pci");
	scsi_disk(3, "sdc", 32, "naa.5000c500a1b2c3d4", "Z1Z2ABCD", 2);
	scsi_disk(4, "sdd", 48, "naa.5000c500a1b2c3d5", "DUP", 0);
	scsi_disk(5, "sde", 64, "naa.5000c500a1b2c3d6", "DUP", 0);
	link_to("dev/disk/by-id/wwn-0x5000c500a1b2c3d4", "dev/sdc");
	link_to("dev/disk/by-path/pci-0000:00:10.0-scsi-0:0:3:0", "dev/sdc");
	link_to("dev/disk/by-partuuid/1234-02", "dev/sdc2");
	put("run/udev/data/b8:34",
	    "S:disk/by-partuuid/1234-02\nE:ID_PART_ENTRY_UUID=1234-02\nE:ID_FS_LABEL=data\n",
	    strlen("S:disk/by-partuuid/1234-02\nE:ID_PART_ENTRY_UUID=1234-02\nE:ID_FS_LABEL=data\n"));
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static struct da_devlist *scan(struct da_diag *diag)
{
	struct da_devlist *l = NULL;
	struct da_ctx *ctx;

	assert_int_equal(da_ctx_new(root, &ctx), 0);
	assert_int_equal(da_devlist_scan(ctx, diag, &l), 0);
	da_ctx_unref(ctx);
	return l;
}

static const char *const machines[] = { "sas-jbod24", "nvme-server", "workstation", "vm-virtio",
					"xen-guest",  "host-virtio", "mixed" };
#define NMACHINES (sizeof(machines) / sizeof(machines[0]))

/*
 * The full scan of fixture machine @i (past the last: this test's own
 * tree), its context in *@ctx and its root in @dir.
 */
static struct da_devlist *machine_scan(size_t i, char dir[PATH_MAX], struct da_ctx **ctx)
{
	const char *fixtures = getenv("FIXTURES");
	struct da_devlist *full = NULL;

	assert_non_null(fixtures);
	if (i < NMACHINES)
		snprintf(dir, PATH_MAX, "%s/%s", fixtures, machines[i]);
	else
		snprintf(dir, PATH_MAX, "%s", root);
	assert_int_equal(da_ctx_new(dir, ctx), 0);
	assert_int_equal(da_devlist_scan(*ctx, NULL, &full), 0);
	return full;
}

/*
 * Each device of @l, one line each: with map @m, what a rewriting tool
 * sees of it (numbers, handles and names); the details (DA_SCAN_*) in
 * @details, or with @blank what a scan that did not read them has:
 * nothing. The type too with SIG_TYPE (an md device's is its level, read
 * with DA_SCAN_STACK).
 */
#define SIG_TYPE (1u << 31)
static char *signature(const struct da_devlist *l, const struct da_map *m, unsigned int details,
		       bool blank)
{
	size_t size = 0;
	char *out = NULL;
	FILE *f = open_memstream(&out, &size);

	assert_non_null(f);
	for (size_t i = 0; i < da_devlist_count(l); i++) {
		const struct da_device *d = da_devlist_get(l, i);
		const char *n;

		fprintf(f, "%s:", da_device_kname(d));
		if (m) {
			fprintf(f, " %u:%u part %u of %s hctl %s dm %s:", da_device_major(d),
				da_device_minor(d), da_device_partno(d),
				da_device_parent(d) ? da_device_kname(da_device_parent(d)) : "-",
				da_device_hctl(d) ?: "-", da_device_dm_name(d) ?: "-");
			for (size_t k = 0; (n = da_map_device_name(m, d, k)); k++)
				fprintf(f, " %s", n);
		}
		if (details & DA_SCAN_SIZE)
			fprintf(f, " size %" PRIu64, blank ? 0 : da_device_size(d));
		if (details & DA_SCAN_MODEL)
			fprintf(f, " model %s", blank ? "-" : da_device_model(d) ?: "-");
		if (details & DA_SCAN_REMOVABLE)
			fprintf(f, " rm %d", !blank && da_device_removable(d));
		if (details & DA_SCAN_READONLY)
			fprintf(f, " ro %d", !blank && da_device_readonly(d));
		if ((details & DA_SCAN_STACK) && (details & SIG_TYPE))
			fprintf(f, " type %s", da_device_type(d));
		if (details & DA_SCAN_STACK) {
			fputs(" slaves", f);
			for (size_t k = 0; !blank && (n = da_device_slave(d, k)); k++)
				fprintf(f, " %s", n);
			fputs(" holders", f);
			for (size_t k = 0; !blank && (n = da_device_holder(d, k)); k++)
				fprintf(f, " %s", n);
		}
		fputc('\n', f);
	}
	assert_int_equal(fclose(f), 0);
	return out;
}

/*
 * A scan with some details reads those as the full scan does and leaves
 * the others out, for every set of them, on every fixture machine and on
 * a disk both read-only and removable (no fixture has one).
 */
static void test_scan_with(void **state)
{
	attr(HBA "/target2:0:5/2:0:5:0/block/sde", "ro", "1");
	attr(HBA "/target2:0:5/2:0:5:0/block/sde", "removable", "1");
	/* The fixture machines, then this test's own. */
	for (size_t mi = 0; mi <= NMACHINES; mi++) {
		char dir[PATH_MAX];
		struct da_ctx *ctx = NULL;
		struct da_devlist *full = machine_scan(mi, dir, &ctx);

		for (unsigned int details = 0; details <= DA_SCAN_DETAILS; details++) {
			struct da_devlist *lean = NULL;
			char *want, *got;

			assert_int_equal(da_devlist_scan_with(ctx, details, NULL, &lean), 0);
			want = signature(full, NULL, details | SIG_TYPE, false);
			got = signature(lean, NULL, details | SIG_TYPE, false);
			if (strcmp(want, got) != 0)
				fail_msg("%s, details %#x read\n%s\nnot\n%s", dir, details, got,
					 want);
			free(want);
			free(got);
			want = signature(lean, NULL, DA_SCAN_DETAILS & ~details, true);
			got = signature(lean, NULL, DA_SCAN_DETAILS & ~details, false);
			if (strcmp(want, got) != 0)
				fail_msg("%s, details %#x: read more\n%s", dir, details, got);
			free(want);
			free(got);
			da_devlist_free(lean);
		}
		da_devlist_free(full);
		da_ctx_unref(ctx);
	}
	attr(HBA "/target2:0:5/2:0:5:0/block/sde", "ro", "0");
	attr(HBA "/target2:0:5/2:0:5:0/block/sde", "removable", "0");
}

static void test_discovery(void **state)
{
	struct da_diag diag = {};
	struct da_devlist *l = scan(&diag);
	struct da_device *d;

	assert_int_equal(diag.n, 0);
	assert_int_equal(da_devlist_count(l), 5);
	assert_string_equal(da_device_kname(da_devlist_get(l, 0)), "sdc");
	assert_string_equal(da_device_kname(da_devlist_get(l, 1)), "sdc1");
	assert_string_equal(da_device_kname(da_devlist_get(l, 2)), "sdc2");
	assert_string_equal(da_device_kname(da_devlist_get(l, 3)), "sdd");
	d = da_devlist_find_kname(l, "sdc");
	assert_string_equal(da_device_model(d), "ST4000NM0023");
	assert_string_equal(da_device_serial(d), "Z1Z2ABCD");
	assert_string_equal(da_device_wwn(d), "0x5000c500a1b2c3d4");
	assert_string_equal(da_device_type(d), "disk");
	assert_true(da_device_size(d) == 7814037168ULL * 512);
	assert_string_equal(da_device_identity(d, DA_ID_PATH, 0), "pci-0000:00:10.0-scsi-0:0:3:0");
	d = da_devlist_find_kname(l, "sdc2");
	assert_ptr_equal(da_device_parent(d), da_devlist_find_kname(l, "sdc"));
	assert_int_equal(da_device_partno(d), 2);
	assert_string_equal(da_device_type(d), "part");
	assert_true(da_device_has_identity(d, DA_ID_PARTUUID, "1234-02"));
	assert_true(da_device_has_identity(d, DA_ID_LABEL, "data"));
	/* A partition is never its disk's WWN or serial. */
	assert_null(da_device_identity(d, DA_ID_WWN, 0));
	assert_ptr_equal(da_devlist_find_devnum(l, 8, 33), da_devlist_find_kname(l, "sdc1"));
	assert_ptr_equal(da_devlist_find_link(l, "/dev/disk/by-partuuid/1234-02"), d);
	da_devlist_free(l);
}

static const char table[] = "alias bay07 wwn:naa.5000C500A1B2C3D4\n"
			    "alias dup serial:DUP\n"
			    "alias gone wwn:0x5000000000000001\n"
			    "alias data partuuid:1234-02\n"
			    "alias front path:pci-0000:00:10.0-scsi-0:0:3:0\n";

static void expect(const struct da_map *m, const char *arg, int err, const char *kname)
{
	struct da_diag diag = {};
	struct da_device *d = NULL;
	int r = da_map_lookup(m, arg, &diag, &d);

	if (r != err)
		fail_msg("%s: %d, want %d", arg, r, err);
	if (kname)
		assert_string_equal(da_device_kname(d), kname);
	else
		assert_int_equal(diag.n, 1);
	da_diag_clear(&diag);
}

static void test_matching(void **state)
{
	struct da_devlist *l = scan(NULL);
	struct da_table *t = NULL;
	struct da_device *d = NULL;
	struct da_map *m = NULL;

	assert_int_equal(da_table_parse("t", table, strlen(table), NULL, &t), 0);
	assert_int_equal(da_map_new(t, l, &m), 0);
	assert_int_equal(da_map_alias_state(m, 0, &d), DA_ALIAS_PRESENT);
	assert_string_equal(da_device_kname(d), "sdc");
	assert_int_equal(da_map_alias_state(m, 1, NULL), DA_ALIAS_AMBIGUOUS);
	assert_int_equal(da_map_alias_matches(m, 1), 2);
	assert_int_equal(da_map_alias_state(m, 2, NULL), DA_ALIAS_MISSING);

	/* Names of a device: its own aliases in table order, then its disk's partition names. */
	d = da_devlist_find_kname(l, "sdc");
	assert_string_equal(da_map_device_name(m, d, 0), "bay07");
	assert_string_equal(da_map_device_name(m, d, 1), "front");
	assert_null(da_map_device_name(m, d, 2));
	d = da_devlist_find_kname(l, "sdc2");
	assert_string_equal(da_map_device_name(m, d, 0), "data");
	assert_string_equal(da_map_device_name(m, d, 1), "bay07p2");
	assert_string_equal(da_map_device_name(m, d, 2), "front2");
	assert_null(da_map_device_name(m, da_devlist_find_kname(l, "sdd"), 0));

	expect(m, "/dev/sdc", 0, "sdc");
	expect(m, "sdc1", 0, "sdc1");
	expect(m, "8:33", 0, "sdc1");
	expect(m, "/dev/disk/by-id/wwn-0x5000c500a1b2c3d4", 0, "sdc");
	expect(m, "bay07", 0, "sdc");
	expect(m, "BAY07", 0, "sdc");
	expect(m, "bay07p2", 0, "sdc2");
	expect(m, "front1", 0, "sdc1");
	expect(m, "/dev/disk/by-alias/bay07p1", 0, "sdc1");
	expect(m, "data", 0, "sdc2");
	expect(m, "bay07p9", -ENODEV, NULL);
	expect(m, "gone", -ENODEV, NULL);
	expect(m, "gone1", -ENODEV, NULL);
	expect(m, "dup", -ENOTUNIQ, NULL);
	expect(m, "nothing", -ENOENT, NULL);
	expect(m, "/dev/sdz", -ENOENT, NULL);
	expect(m, "9:9", -ENOENT, NULL);
	expect(m, "/dev/disk/by-id/none", -ENOENT, NULL);
	da_map_free(m);
	da_table_free(t);
	da_devlist_free(l);
}

static void test_broken_tree(void **state)
{
	char path[PATH_MAX + 64];
	struct da_devlist *l = NULL;
	struct da_diag diag = {};
	struct da_ctx *ctx;

	/* An entry without a readable dev attribute is skipped, with a warning. */
	snprintf(path, sizeof(path), "%s/" HBA "/target2:0:4/2:0:4:0/block/sdd/dev", root);
	assert_int_equal(unlink(path), 0);
	l = scan(&diag);
	assert_int_equal(da_devlist_count(l), 4);
	assert_int_equal(diag.n, 1);
	assert_true(diag.v[0].warning);
	assert_non_null(strstr(diag.v[0].msg, "no readable 'dev' attribute"));
	da_diag_clear(&diag);
	da_devlist_free(l);

	/* A root with no block class at all is an error that says where. */
	assert_int_equal(da_ctx_new("/tmp", &ctx), 0);
	l = NULL;
	assert_int_equal(da_devlist_scan(ctx, &diag, &l), -ENOENT);
	assert_null(l);
	assert_string_equal(diag.v[0].file, "/tmp/sys/class/block");
	da_diag_clear(&diag);
	da_ctx_unref(ctx);
	assert_int_equal(da_ctx_new("/nonexistent-root", &ctx), -ENOENT);
}

/*
 * The lean scan of the rewriting tools names every device of every fixture
 * machine as the full scan does: for tables of each identity kind alone
 * (so it reads only that kind) and of all kinds, made of every identity
 * the full scan found.
 */
static void test_scan_for(void **state)
{
	for (size_t mi = 0; mi < NMACHINES; mi++) {
		char dir[PATH_MAX];
		struct da_ctx *ctx = NULL;
		struct da_devlist *full = machine_scan(mi, dir, &ctx);
		/* kind == _DA_ID_MAX: every kind at once. */
		for (int kind = 0; kind <= _DA_ID_MAX; kind++) {
			struct da_table *t = NULL;
			struct da_devlist *lean = NULL;
			struct da_map *mf = NULL, *ml = NULL;
			char *want, *got;
			unsigned int n = 0;

			assert_int_equal(da_table_parse("t", "", 0, NULL, &t), 0);
			for (size_t i = 0; i < da_devlist_count(full); i++) {
				const struct da_device *d = da_devlist_get(full, i);

				for (int k = 0; k < _DA_ID_MAX; k++) {
					const char *v;

					if (kind != _DA_ID_MAX && k != kind)
						continue;
					for (size_t j = 0; (v = da_device_identity(d, k, j)); j++) {
						char name[32];

						snprintf(name, sizeof(name), "a%u", ++n);
						assert_int_equal(da_table_add(t, name, k, v, NULL),
								 0);
					}
				}
			}
			assert_int_equal(da_devlist_scan_for(ctx, t, NULL, &lean), 0);
			assert_int_equal(da_map_new(t, full, &mf), 0);
			assert_int_equal(da_map_new(t, lean, &ml), 0);
			want = signature(full, mf, 0, false);
			got = signature(lean, ml, 0, false);
			if (strcmp(want, got) != 0)
				fail_msg("%s, kind %d: full scan\n%s\nlean scan\n%s", machines[mi],
					 kind, want, got);
			free(want);
			free(got);
			da_map_free(mf);
			da_map_free(ml);
			da_devlist_free(lean);
			da_table_free(t);
		}
		da_devlist_free(full);
		da_ctx_unref(ctx);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_discovery),   cmocka_unit_test(test_matching),
		cmocka_unit_test(test_broken_tree), cmocka_unit_test(test_scan_for),
		cmocka_unit_test(test_scan_with),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
