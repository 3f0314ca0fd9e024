// SPDX-License-Identifier: LGPL-2.1-or-later
/* Alias name rules (SPEC section 2), partition names and the order of kernel names. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <diskalias.h>

#include "device.h"

static void test_accepted(void **state)
{
	static const char *const ok[] = {
		"bay07",     "dblog",
		"slot-a3",   "boot",
		"ssd-cache", "db.log_2+x",
		"A",	     "7bay",
		"sdcard-",   "loop",
		"md",	     "nvme",
		"hdd-01",    "x1",
		"Sda",	     "dm-x",
		"0x5000",    "mmcblk",
		"rbd-pool",  "a234567890123456789012345678901234567890123456789012345678901234",
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (da_name_check(ok[i], NULL) != 0)
			fail_msg("'%s' should be accepted", ok[i]);
	}
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		"",
		".",
		"..",
		"-x",
		"_x",
		".hidden",
		"a b",
		"a/b",
		"a\tb",
		"a\nb",
		"é",
		"a:b:c",
		"sda",
		"sdc1",
		"sdcard",
		"sdaa",
		"hda",
		"vdb2",
		"xvda1",
		"nvme0n1",
		"nvme0n1p2",
		"nvme12n3",
		"mmcblk0",
		"mmcblk0p1",
		"loop7",
		"dm-3",
		"md127",
		"md127p1",
		"sr0",
		"nbd0",
		"zram0",
		"ram0",
		"rbd0",
		"pmem1",
		"8:32",
		"259:0",
		"42",
		"007",
		"a2345678901234567890123456789012345678901234567890123456789012345",
	};
	const char *reason = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		reason = NULL;
		if (da_name_check(bad[i], &reason) != -EINVAL || !reason)
			fail_msg("'%s' should be refused with a reason", bad[i]);
	}
	assert_int_equal(da_name_check("sdcard", &reason), -EINVAL);
	assert_string_equal(reason, "looks like a kernel device name");
}

static void test_partition_names(void **state)
{
	char *s;

	s = da_partition_name("bay07", 1);
	assert_string_equal(s, "bay07p1");
	free(s);
	s = da_partition_name("dblog", 12);
	assert_string_equal(s, "dblog12");
	free(s);
}

static void check_split(const char *name, const char *base, unsigned int partno)
{
	unsigned int p = 0;
	char *b = NULL;

	if (!base) {
		assert_int_equal(da_partition_split(name, &b, &p), -EINVAL);
		assert_null(b);
		return;
	}
	assert_int_equal(da_partition_split(name, &b, &p), 0);
	assert_string_equal(b, base);
	assert_int_equal(p, partno);
	free(b);
}

static void test_partition_split(void **state)
{
	check_split("bay07p1", "bay07", 1);
	check_split("dblog1", "dblog", 1);
	check_split("dblog12", "dblog", 12);
	check_split("top1", "top", 1);
	check_split("x1p2", "x1", 2);
	/* "bay07" is not partition 7 of "bay0" (that is bay0p7), nor 07 of "bay". */
	check_split("bay07", NULL, 0);
	check_split("dblog", NULL, 0);
	check_split("12", NULL, 0);
	check_split("db0", NULL, 0);
}

/* Disks by kernel name (sdz before sdaa, dm-2 before dm-10), partitions after their disk. */
static void test_kernel_order(void **state)
{
	static const char *const want[] = {
		"dm-2", "dm-10", "sda",	 "sda2", "sda10", "sdb",
		"sdz",	"sdz1",	 "sdaa", "sdab", "sdba",  "sdba1",
	};
	struct da_device devs[ARRAY_SIZE(want)] = { 0 }, *v[ARRAY_SIZE(want)];

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		struct da_device *d = &devs[i];
		const char *digits = want[i] + strcspn(want[i], "0123456789");

		d->kname = (char *)want[i];
		/* A partition of an sd disk: its disk is the entry before it. */
		if (!strncmp(want[i], "sd", 2) && *digits) {
			d->partno = (unsigned int)atoi(digits);
			for (size_t k = i; k-- > 0;)
				if (!devs[k].parent &&
				    !strncmp(want[i], want[k], digits - want[i]) &&
				    !want[k][digits - want[i]]) {
					d->parent = &devs[k];
					break;
				}
			assert_non_null(d->parent);
		}
		/* Reversed, then every other pair swapped: no order left. */
		v[ARRAY_SIZE(want) - 1 - i] = d;
	}
	for (size_t i = 0; i + 1 < ARRAY_SIZE(want); i += 2) {
		struct da_device *t = v[i];

		v[i] = v[i + 1];
		v[i + 1] = t;
	}
	qsort(v, ARRAY_SIZE(want), sizeof(*v), device_cmp);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		assert_string_equal(v[i]->kname, want[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),	cmocka_unit_test(test_refused),
		cmocka_unit_test(test_partition_names), cmocka_unit_test(test_partition_split),
		cmocka_unit_test(test_kernel_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
