// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Paths by their letters: discovery resolves sysfs links with
 * resolve_link(), not realpath(), so the folding must be exact.
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

#include "util.h"

static void test_normalize(void **state)
{
	static const char *const cases[][2] = {
		{ "/", "/" },
		{ "", "" },
		{ ".", "." },
		{ "..", ".." },
		{ "/..", "/" },
		{ "a/b/../c", "a/c" },
		{ "../a/../..", "../.." },
		{ "/a//b/./c/", "/a/b/c" },
		{ "root/sys/class/block/../../devices/pci0000:00/block/sda",
		  "root/sys/devices/pci0000:00/block/sda" },
		{ "./sys/class/block/../../devices", "sys/devices" },
		{ "../x/sys/class/../../y", "../x/y" },
		{ "a/..", "." },
		{ "a/../..", ".." },
		{ "/a/b/c/../../..", "/" },
		{ "/a/b/c/../../../..", "/" },
		{ "a/./b/.", "a/b" },
		{ "a/...", "a/..." },
		{ "..a/b", "..a/b" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = strdup(cases[i][0]);

		assert_non_null(s);
		assert_string_equal(path_normalize(s), cases[i][1]);
		free(s);
	}
}

/* As discovery meets them: sysfs's relative links, a directory, nothing. */
static void test_resolve_link(void **state)
{
	char root[] = "/tmp/diskalias-test-util.XXXXXX", p[PATH_MAX], want[PATH_MAX];
	char *got;

	assert_non_null(mkdtemp(root));
	snprintf(p, sizeof(p), "cd %s && mkdir -p sys/class/block "
		 "sys/devices/pci0000:00/host0/target0:0:0/0:0:0:0/block/sda", root);
	assert_int_equal(system(p), 0);
	snprintf(p, sizeof(p), "%s/sys/class/block/sda", root);
	assert_int_equal(symlink("../../devices/pci0000:00/host0/target0:0:0/0:0:0:0/block/sda", p), 0);
	snprintf(p, sizeof(p), "%s/sys/devices/pci0000:00/host0/target0:0:0/0:0:0:0/block/sda/device", root);
	assert_int_equal(symlink("../..", p), 0);

	snprintf(p, sizeof(p), "%s/sys/class/block/sda", root);
	snprintf(want, sizeof(want), "%s/sys/devices/pci0000:00/host0/target0:0:0/0:0:0:0/block/sda", root);
	got = resolve_link(p);
	assert_string_equal(got, want);
	/* The device link, from the real directory (its own directory must hold no link). */
	snprintf(p, sizeof(p), "%s/device", got);
	free(got);
	snprintf(want, sizeof(want), "%s/sys/devices/pci0000:00/host0/target0:0:0/0:0:0:0", root);
	got = resolve_link(p);
	assert_string_equal(got, want);
	free(got);
	/* A directory is itself; nothing is an error. */
	snprintf(p, sizeof(p), "%s/sys/./class/block/", root);
	snprintf(want, sizeof(want), "%s/sys/class/block", root);
	got = resolve_link(p);
	assert_string_equal(got, want);
	free(got);
	snprintf(p, sizeof(p), "%s/sys/class/block/sdz", root);
	errno = 0;
	assert_null(resolve_link(p));
	assert_int_equal(errno, ENOENT);

	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	assert_int_equal(system(p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_resolve_link),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
