// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The rewrite engine on tricky tokens: word boundaries, partitions of names
 * ending in digits, NVMe, device-mapper, md, SCSI addresses, aliases that
 * are prefixes of each other, NUL bytes, invalid UTF-8, very long lines and
 * streams fed in pieces. The machine is tests/fixtures/mixed.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <cmocka.h>

#include <diskalias.h>

static const char table[] =
	"alias bay07 wwn:0x5000c500a1b2c3d4\n" /* sdc, 2:0:3:0, sdc1 sdc2 */
	"alias dblog wwn:0x5000c500a1b2c3d5\n" /* sdd */
	"alias bay1 wwn:0x5000c500a1b2c300\n"  /* sda, sda1 */
	"alias bay10 wwn:0x5000c500a1b2c326\n" /* sdaa */
	"alias fast serial:S4EVNX0M123456\n"   /* nvme0n1, p1 p2 */
	"alias vm-data serial:VBLK-DATA\n"     /* vdb */
	"alias xen0 path:xen-vbd-51712\n"      /* xvda, xvda1 */
	"alias card serial:0x1234abcd\n"       /* mmcblk0, mmcblk0p1 */
	"alias lvdata id:dm-name-vg0-data\n"   /* dm-3 */
	"alias mirror id:md-uuid-0a1b2c3d:4e5f6071:8293a4b5:c6d7e8f9\n" /* md127 */
	"alias Front wwn:0x5000c500a1b2c3d4\n";				/* a second name of sdc */

struct machine {
	struct da_ctx *ctx;
	struct da_table *table;
	struct da_devlist *list;
	struct da_map *map;
};

static int setup(void **state)
{
	static struct machine m;
	const char *fixtures = getenv("FIXTURES");
	char root[PATH_MAX];

	snprintf(root, sizeof(root), "%s/mixed", fixtures ? fixtures : "tests/fixtures");
	if (da_ctx_new(root, &m.ctx) < 0 || da_devlist_scan(m.ctx, NULL, &m.list) < 0 ||
	    da_table_parse("t", table, strlen(table), NULL, &m.table) < 0 ||
	    da_map_new(m.table, m.list, &m.map) < 0)
		return -1;
	*state = &m;
	return 0;
}

static int teardown(void **state)
{
	struct machine *m = *state;

	da_map_free(m->map);
	da_devlist_free(m->list);
	da_table_free(m->table);
	da_ctx_unref(m->ctx);
	return 0;
}

static const struct {
	enum da_rewrite_mode mode;
	const char *in, *out;
} cases[] = {
	/* Plain names and the punctuation around them in kernel messages. */
	{ DA_REWRITE_ALIAS, "sdc", "bay07" },
	{ DA_REWRITE_ALIAS, "sd 2:0:3:0: [sdc] Attached SCSI disk",
	  "sd bay07: [bay07] Attached SCSI disk" },
	{ DA_REWRITE_ALIAS, " sdc: sdc1 sdc2", " bay07: bay07p1 bay07p2" },
	{ DA_REWRITE_ALIAS, "I/O error, dev sdc, sector 2048",
	  "I/O error, dev bay07, sector 2048" },
	{ DA_REWRITE_ALIAS, "EXT4-fs (sdc1): mounted", "EXT4-fs (bay07p1): mounted" },
	{ DA_REWRITE_ALIAS, "mount /dev/sdc2 /mnt", "mount /dev/disk/by-alias/bay07p2 /mnt" },
	{ DA_REWRITE_ALIAS, "sdc.", "bay07." },
	{ DA_REWRITE_ALIAS, "\"sdc\"='sdd'", "\"bay07\"='dblog'" },
	/* Whole tokens only. */
	{ DA_REWRITE_ALIAS, "sdca asdc sdc_old sdc-old sdc2x xsdc1 sdcp1 sdc01 sdc0",
	  "sdca asdc sdc_old sdc-old sdc2x xsdc1 sdcp1 sdc01 sdc0" },
	{ DA_REWRITE_ALIAS, "/sys/block/sdc/queue sdc/x", "/sys/block/sdc/queue sdc/x" },
	{ DA_REWRITE_ALIAS, "12:0:3:0 2:0:3:01 2:0:3:0", "12:0:3:0 2:0:3:01 bay07" },
	/* A partition the device list does not have is named by the rule. */
	{ DA_REWRITE_ALIAS, "sdc9 sdd3 /dev/sdd3", "bay07p9 dblog3 /dev/disk/by-alias/dblog3" },
	/* Names that are prefixes of each other: sda, sdaa; bay1, bay10. */
	{ DA_REWRITE_ALIAS, "sda sdaa sda1 sdaa1 sdab", "bay1 bay10 bay1p1 bay10p1 sdab" },
	/* NVMe, virtio, Xen, MMC, device-mapper, md. */
	{ DA_REWRITE_ALIAS, "nvme0n1 nvme0n1p2 nvme0n1p7 nvme0n12 nvme0 nvme nvme0:",
	  "fast fast2 fast7 nvme0n12 fast nvme fast:" },
	/* The controller of one namespace is that namespace; its generic node too. */
	{ DA_REWRITE_ALIAS,
	  "nvme nvme0: I/O 5 QID 1 timeout nvme01 nvme00 nvme0n ng0n1 ng0n2 ng0n1p1",
	  "nvme fast: I/O 5 QID 1 timeout nvme01 nvme00 nvme0n fast ng0n2 ng0n1p1" },
	{ DA_REWRITE_ALIAS, "mmc0: new SDHC card mmc00 mmc0.1 mmc1",
	  "card: new SDHC card mmc00 mmc0.1 mmc1" },
	/* A dot and a digit go on a word. */
	{ DA_REWRITE_ALIAS, "sdc.1 sdc. sdc.x sdc..1", "sdc.1 bay07. bay07.x bay07..1" },
	{ DA_REWRITE_ALIAS, "vdb vdb1 vdbb", "vm-data vm-data1 vdbb" },
	{ DA_REWRITE_ALIAS, "xvda1 xvda", "xen0p1 xen0" },
	{ DA_REWRITE_ALIAS, "mmcblk0p1 mmcblk0 mmcblk01", "card1 card mmcblk01" },
	{ DA_REWRITE_ALIAS, "dm-3 /dev/mapper/vg0-data /dev/dm-3 dm-30 dm-",
	  "lvdata /dev/disk/by-alias/lvdata /dev/disk/by-alias/lvdata dm-30 dm-" },
	{ DA_REWRITE_ALIAS, "md/raid1:md127: Disk failure on sdc1",
	  "md/raid1:mirror: Disk failure on bay07p1" },
	/* Annotations keep the text. */
	{ DA_REWRITE_ANNOTATE, "sd 2:0:3:0: [sdc] sdc1 /dev/sdd",
	  "sd 2:0:3:0(bay07): [sdc(bay07)] sdc1(bay07p1) /dev/sdd(dblog)" },
	{ DA_REWRITE_ANNOTATE, "nvme0n1p9", "nvme0n1p9(fast9)" },
	{ DA_REWRITE_ANNOTATE, "nvme nvme0: reset", "nvme nvme0(fast): reset" },
	/* Reverse: aliases (any case, every alias) and their partitions and links. */
	{ DA_REWRITE_REVERSE, "bay07 BAY07p1 bay07p2 front Front1 bay1 bay10 bay1p1 bay10p1",
	  "sdc sdc1 sdc2 sdc sdc1 sda sdaa sda1 sdaa1" },
	{ DA_REWRITE_REVERSE, "fast2 fast1x card1 dblog /dev/disk/by-alias/xen0p1 mirror.",
	  "nvme0n1p2 fast1x mmcblk0p1 sdd /dev/xvda1 md127." },
	{ DA_REWRITE_REVERSE, "bay070 bay07p0 bay07_ sdc", "bay070 bay07p0 bay07_ sdc" },
};

static char *rewrite(struct da_rewriter *rw, const char *in, size_t len, size_t *ret_len)
{
	char *out = NULL;

	assert_true(da_rewrite_buf(rw, in, len, &out, ret_len) >= 0);
	return out;
}

/*
 * The handles ports and controllers share, on the fixtures that have them:
 * sas-jbod24's boot SSD sdy on libata port ata3 (2:0:0:0), nvme-server's
 * controller nvme0 with two namespaces and its multipath subsystem nvme1,
 * workstation's USB stick sdb on USB device 1-2.
 */
static const struct {
	const char *fixture, *table;
	enum da_rewrite_mode mode;
	const char *in, *out;
} handle_cases[] = {
	{ "sas-jbod24", "alias boot serial:S6PTNM0R123456\n", DA_REWRITE_ALIAS,
	  "ata3.00: failed command: READ FPDMA QUEUED; ata3: hard resetting link",
	  "boot: failed command: READ FPDMA QUEUED; boot: hard resetting link" },
	{ "sas-jbod24", "alias boot serial:S6PTNM0R123456\n", DA_REWRITE_ALIAS,
	  "ata30.00 ata13.00 ata3.01 ata3.001 ata3.0 xata3 ata3.00x ata3.00p1 ata31 ata",
	  "ata30.00 ata13.00 ata3.01 ata3.001 ata3.0 xata3 ata3.00x ata3.00p1 ata31 ata" },
	{ "sas-jbod24", "alias boot serial:S6PTNM0R123456\n", DA_REWRITE_ANNOTATE,
	  "ata3.00: status: { DRDY ERR }", "ata3.00(boot): status: { DRDY ERR }" },
	/* Reverse gives the disk's kernel name: which handle it was is not kept. */
	{ "sas-jbod24", "alias boot serial:S6PTNM0R123456\n", DA_REWRITE_REVERSE, "boot: x",
	  "sdy: x" },
	{ "nvme-server",
	  "alias db-a wwn:eui.0025388b71b2c3d4\nalias fab wwn:eui.36344730522001040025384500000001\n",
	  DA_REWRITE_ALIAS,
	  "nvme nvme0: I/O 9 QID 2 timeout; nvme nvme1: reset nvme1c1n1 ng1n1 ng0n2",
	  "nvme {db-a,nvme0n2}: I/O 9 QID 2 timeout; nvme fab: reset fab fab ng0n2" },
	{ "nvme-server",
	  "alias db-a wwn:eui.0025388b71b2c3d4\nalias db-b wwn:eui.0025388b71b2c3e5\n",
	  DA_REWRITE_REVERSE, "nvme {db-a,db-b}: x {db-a,db-b} {DB-A,db-b}: {db-b,db-a}",
	  "nvme nvme0: x nvme0 nvme0: {nvme0n2,nvme0n1}" },
	/* An md array by mdadm's /dev/md/NAME (udev's MD_DEVNAME), and its members. */
	{ "vm-virtio", "alias mirror id:md-uuid-3a7b2c1d:4e5f6071:8293a4b5:c6d7e8f9\n",
	  DA_REWRITE_ALIAS, "mount /dev/md/data /srv; /dev/md/data1 /dev/md/dat md127",
	  "mount /dev/disk/by-alias/mirror /srv; /dev/md/data1 /dev/md/dat mirror" },
	/*
	 * A USB device is a name only after "usb ", which stays; a hub's
	 * port below it (1-2.1), another bus or port (11-2, 1-21) is not it.
	 */
	{ "workstation", "alias stick serial:4C530001234567891234\n", DA_REWRITE_ALIAS,
	  "usb 1-2: new high-speed USB device number 3 using xhci_hcd; usb 1-2: USB disconnect",
	  "usb stick: new high-speed USB device number 3 using xhci_hcd; usb stick: USB disconnect" },
	{ "workstation", "alias stick serial:4C530001234567891234\n", DA_REWRITE_ALIAS,
	  "usb 1-2.1: x usb 11-2: usb 1-21: 1-2: usb-storage 1-2:1.0: xusb 1-2: usb  1-2: usb 1-2-x",
	  "usb 1-2.1: x usb 11-2: usb 1-21: 1-2: usb-storage 1-2:1.0: xusb 1-2: usb  1-2: usb 1-2-x" },
	{ "workstation", "alias stick serial:4C530001234567891234\n", DA_REWRITE_ANNOTATE,
	  "usb 1-2: reset", "usb 1-2(stick): reset" },
	{ "workstation", "alias stick serial:4C530001234567891234\n", DA_REWRITE_REVERSE,
	  "usb stick: reset", "usb sdb: reset" },
	/* No alias on the controller's namespaces: nothing to say. */
	{ "nvme-server", "alias fab wwn:eui.36344730522001040025384500000001\n", DA_REWRITE_ALIAS,
	  "nvme nvme0: x", "nvme nvme0: x" },
};

static void test_handles(void **state)
{
	const char *fixtures = getenv("FIXTURES");

	(void)state;
	for (size_t i = 0; i < sizeof(handle_cases) / sizeof(handle_cases[0]); i++) {
		struct da_ctx *ctx = NULL;
		struct da_devlist *list = NULL;
		struct da_table *tab = NULL;
		struct da_map *map = NULL;
		struct da_rewriter *rw = NULL;
		char root[PATH_MAX], *out;

		snprintf(root, sizeof(root), "%s/%s", fixtures ? fixtures : "tests/fixtures",
			 handle_cases[i].fixture);
		assert_int_equal(da_ctx_new(root, &ctx), 0);
		assert_int_equal(da_devlist_scan(ctx, NULL, &list), 0);
		assert_int_equal(da_table_parse("t", handle_cases[i].table,
						strlen(handle_cases[i].table), NULL, &tab),
				 0);
		assert_int_equal(da_map_new(tab, list, &map), 0);
		assert_int_equal(da_rewriter_new(map, handle_cases[i].mode, NULL, NULL, &rw), 0);
		out = rewrite(rw, handle_cases[i].in, strlen(handle_cases[i].in), NULL);
		if (strcmp(out, handle_cases[i].out) != 0)
			fail_msg("%s mode %d: '%s'\n  gave '%s'\n  want '%s'",
				 handle_cases[i].fixture, handle_cases[i].mode, handle_cases[i].in,
				 out, handle_cases[i].out);
		free(out);
		da_rewriter_free(rw);
		da_map_free(map);
		da_table_free(tab);
		da_devlist_free(list);
		da_ctx_unref(ctx);
	}
}

static void test_tokens(void **state)
{
	struct machine *m = *state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct da_rewriter *rw = NULL;
		char *out;

		assert_int_equal(da_rewriter_new(m->map, cases[i].mode, NULL, NULL, &rw), 0);
		/*
		 * As it is (a short text is searched byte by byte), and between 5
		 * and 40 blanks (then the 32-byte search finds the names); by the
		 * rewriter, then by its clone, which outlives it.
		 */
		for (int k = 0; k < 4; k++) {
			int pad = k % 2 ? 5 : 0, tail = pad ? 40 : 0, clone = k / 2;
			struct da_rewriter *c = NULL;
			char *in = NULL, *want = NULL;

			if (k == 2) {
				assert_int_equal(da_rewriter_clone(rw, NULL, NULL, &c), 0);
				da_rewriter_free(rw);
				rw = c;
			}

			assert_true(asprintf(&in, "%*s%s%*s", pad, "", cases[i].in, tail, "") > 0);
			assert_true(asprintf(&want, "%*s%s%*s", pad, "", cases[i].out, tail, "") >
				    0);
			out = rewrite(rw, in, strlen(in), NULL);
			if (strcmp(out, want) != 0)
				fail_msg("mode %d%s: '%s'\n  gave '%s'\n  want '%s'", cases[i].mode,
					 clone ? " (clone)" : "", in, out, want);
			free(out);
			free(in);
			free(want);
		}
		da_rewriter_free(rw);
	}
}

static void test_count(void **state)
{
	struct machine *m = *state;
	struct da_rewriter *rw = NULL;
	char *out = NULL;

	assert_int_equal(da_rewriter_new(m->map, DA_REWRITE_ALIAS, NULL, NULL, &rw), 0);
	assert_int_equal(da_rewrite_buf(rw, "sdc sdx sdd", 11, &out, NULL), 2);
	free(out);
	assert_int_equal(da_rewrite_buf(rw, "nothing", 7, &out, NULL), 0);
	assert_string_equal(out, "nothing");
	free(out);
	da_rewriter_free(rw);
	assert_int_equal(da_rewriter_new(m->map, 42, NULL, NULL, &rw), -EINVAL);
}

/* The rewriter keeps what it needs: the map it was made from may go first. */
static void test_outlives_map(void **state)
{
	struct machine *m = *state;
	enum da_rewrite_mode modes[] = { DA_REWRITE_ALIAS, DA_REWRITE_REVERSE };
	const char *in[] = { "sdc1 /dev/sdd", "bay07p1 /dev/disk/by-alias/dblog" };
	const char *want[] = { "bay07p1 /dev/disk/by-alias/dblog", "sdc1 /dev/sdd" };

	for (int i = 0; i < 2; i++) {
		struct da_rewriter *rw = NULL;
		struct da_map *map = NULL;
		char *out;

		assert_int_equal(da_map_new(m->table, m->list, &map), 0);
		assert_int_equal(da_rewriter_new(map, modes[i], NULL, NULL, &rw), 0);
		da_map_free(map);
		out = rewrite(rw, in[i], strlen(in[i]), NULL);
		assert_string_equal(out, want[i]);
		free(out);
		da_rewriter_free(rw);
	}
}

/* Bytes that are not text pass through unchanged; bytes of 0x80 and above are letters of some
 * script. */
static void test_binary(void **state)
{
	static const char in[] = "\0sdc\0\xff\xfesdc\xff sdc\xc3\xa9 \xc3\xa9sdc\n";
	static const char want[] = "\0bay07\0\xff\xfesdc\xff sdc\xc3\xa9 \xc3\xa9sdc\n";
	struct machine *m = *state;
	struct da_rewriter *rw = NULL;
	size_t len;
	char *out;

	assert_int_equal(da_rewriter_new(m->map, DA_REWRITE_ALIAS, NULL, NULL, &rw), 0);
	out = rewrite(rw, in, sizeof(in) - 1, &len);
	assert_int_equal(len, sizeof(want) - 1);
	assert_memory_equal(out, want, len);
	free(out);
	da_rewriter_free(rw);
}

struct sink {
	char *buf;
	size_t len, size;
};

static int sink_write(void *userdata, const struct iovec *iov, int iovcnt)
{
	struct sink *s = userdata;

	for (int i = 0; i < iovcnt; i++) {
		if (s->len + iov[i].iov_len > s->size) {
			s->size = (s->len + iov[i].iov_len) * 2;
			s->buf = realloc(s->buf, s->size);
			assert_non_null(s->buf);
		}
		memcpy(s->buf + s->len, iov[i].iov_base, iov[i].iov_len);
		s->len += iov[i].iov_len;
	}
	return 0;
}

/* A long line fed in pieces of every size, split inside names: same result as at once. */
static void test_stream(void **state)
{
	static const char unit[] = "sd 2:0:3:0: [sdc] nvme0n1p2 /dev/mapper/vg0-data sdaa1 x";
	static const char want[] = "sd bay07: [bay07] fast2 /dev/disk/by-alias/lvdata bay10p1 x";
	const size_t reps = (1 << 20) / (sizeof(unit) - 1) + 2;
	struct machine *m = *state;
	struct da_rewriter *rw = NULL;
	struct sink s = {};
	size_t len = reps * (sizeof(unit) - 1);
	char *in = malloc(len);

	assert_non_null(in);
	for (size_t i = 0; i < reps; i++)
		memcpy(in + i * (sizeof(unit) - 1), unit, sizeof(unit) - 1);
	assert_int_equal(da_rewriter_new(m->map, DA_REWRITE_ALIAS, sink_write, &s, &rw), 0);
	for (size_t step = 1; step <= 4099; step = step * 3 + 1) {
		size_t fed = 0;

		s.len = 0;
		/* Small pieces for the first part, where names straddle every cut. */
		while (fed < len) {
			size_t n = fed < 8192 ? step : 1 << 17;

			if (n > len - fed)
				n = len - fed;
			assert_int_equal(da_rewriter_feed(rw, in + fed, n), 0);
			fed += n;
		}
		assert_int_equal(da_rewriter_finish(rw), 0);
		assert_int_equal(s.len, reps * (sizeof(want) - 1));
		for (size_t i = 0; i < reps; i++)
			assert_memory_equal(s.buf + i * (sizeof(want) - 1), want, sizeof(want) - 1);
	}
	/* What is fed is written out before feed returns, but for a possible name at the end. */
	s.len = 0;
	assert_int_equal(da_rewriter_feed(rw, "line sdc\nnext sd", 16), 0);
	assert_int_equal(s.len, 16);
	assert_memory_equal(s.buf, "line bay07\nnext ", 16);
	assert_int_equal(da_rewriter_finish(rw), 0);
	assert_memory_equal(s.buf, "line bay07\nnext sd", 18);
	free(s.buf);
	free(in);
	da_rewriter_free(rw);
}

static int failing_write(void *userdata, const struct iovec *iov, int iovcnt)
{
	return -EPIPE;
}

static void test_write_error(void **state)
{
	struct machine *m = *state;
	struct da_rewriter *rw = NULL;

	assert_int_equal(da_rewriter_new(m->map, DA_REWRITE_ALIAS, failing_write, NULL, &rw), 0);
	assert_int_equal(da_rewriter_feed(rw, "sdc\n", 4), -EPIPE);
	assert_int_equal(da_rewriter_finish(rw), -EPIPE);
	da_rewriter_free(rw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tokens),	    cmocka_unit_test(test_handles),
		cmocka_unit_test(test_count),	    cmocka_unit_test(test_outlives_map),
		cmocka_unit_test(test_binary),	    cmocka_unit_test(test_stream),
		cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
