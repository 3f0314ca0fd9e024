// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Paths by their letters: discovery resolves sysfs links with
 * resolve_link(), not realpath(), so the folding must be exact. Text made
 * safe to show, and files written where nothing planted can steer them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "util.h"
#include "strbuf.h"

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
	snprintf(p, sizeof(p),
		 "cd %s && mkdir -p sys/class/block "
		 "sys/devices/pci0000:00/host0/target0:0:0/0:0:0:0/block/sda",
		 root);
	assert_int_equal(system(p), 0);
	snprintf(p, sizeof(p), "%s/sys/class/block/sda", root);
	assert_int_equal(symlink("../../devices/pci0000:00/host0/target0:0:0/0:0:0:0/block/sda", p),
			 0);
	snprintf(p, sizeof(p),
		 "%s/sys/devices/pci0000:00/host0/target0:0:0/0:0:0:0/block/sda/device", root);
	assert_int_equal(symlink("../..", p), 0);

	snprintf(p, sizeof(p), "%s/sys/class/block/sda", root);
	snprintf(want, sizeof(want),
		 "%s/sys/devices/pci0000:00/host0/target0:0:0/0:0:0:0/block/sda", root);
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

static void expect_escape(const char *in, size_t len, size_t max, bool backslash, const char *want)
{
	char *got = str_escape(in, len, max, backslash);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_escape(void **state)
{
	expect_escape("plain é ü 名", strlen("plain é ü 名"), 0, true, "plain é ü 名");
	expect_escape("a\x1b[2Jb\nc\td\x7f", 11, 0, true, "a\\x1b[2Jb\\x0ac\\x09d\\x7f");
	/* Invalid UTF-8: a lone continuation, a surrogate, an overlong form, a cut sequence. */
	expect_escape("\x80 \xed\xa0\x80 \xc0\xaf \xe2\x82", 11, 0, true,
		      "\\x80 \\xed\\xa0\\x80 \\xc0\\xaf \\xe2\\x82");
	/* C1 controls are controls to a terminal. */
	expect_escape("\xc2\x9b"
		      "31m",
		      5, 0, true, "\\xc2\\x9b31m");
	expect_escape("\xef\xbb\xbf"
		      "alias",
		      8, 0, true, "<U+FEFF>alias");
	expect_escape("a\\b", 3, 0, true, "a\\x5cb");
	expect_escape("a\\b", 3, 0, false, "a\\b");
	expect_escape("abcdef", 6, 4, true, "abcd...");
	expect_escape("a\0b", 3, 0, true, "a\\x00b");
}

static void test_utf8_replace(void **state)
{
	char *s = utf8_replace_invalid("ok \xff end \xed\xa0\x80");

	assert_null(utf8_replace_invalid("all good é"));
	assert_non_null(s);
	assert_string_equal(s, "ok \xef\xbf\xbd end \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	free(s);
}

/* replace_file_at() never writes through a link and leaves no temporary file; stale ones go. */
static void test_replace_file(void **state)
{
	char dir[] = "/tmp/da-util-XXXXXX", path[96], *buf = NULL;
	int dfd;

	assert_non_null(mkdtemp(dir));
	dfd = open_private_dir(dir, false);
	assert_true(dfd >= 0);
	snprintf(path, sizeof(path), "%s/victim", dir);
	assert_int_equal(symlink("/etc/passwd", path), 0);
	/* The link itself is replaced, its target untouched. */
	assert_int_equal(replace_file_at(dfd, "victim", "new\n", 4, 0644, -1, -1, true), 0);
	assert_int_equal(read_file(path, &buf, NULL), 0);
	assert_string_equal(buf, "new\n");
	free(buf);
	snprintf(path, sizeof(path), "%s/.victim.tmp-AbC123", dir);
	assert_int_equal(symlink("/etc/passwd", path), 0);
	remove_stale_temps_at(dfd, "victim");
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(access("/etc/passwd", F_OK), 0);
	close(dfd);
	/* A directory others can write, or a symlink to one, is not private. */
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(open_private_dir(dir, false), -EPERM);
	assert_int_equal(chmod(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/link", dir);
	assert_int_equal(symlink(dir, path), 0);
	assert_int_equal(open_private_dir(path, false), -EPERM);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/*
 * remove_dir_at() removes a directory and its files but never follows a
 * link planted in its place; a directory temp_dir_at() left is a stale
 * temporary that remove_stale_temps_at() removes.
 */
static void test_remove_dir(void **state)
{
	char dir[] = "/tmp/da-util-XXXXXX", victim[] = "/tmp/da-victim-XXXXXX", path[128];
	char *tmp = NULL;
	int dfd, fd;

	assert_non_null(mkdtemp(dir));
	assert_non_null(mkdtemp(victim));
	dfd = open_private_dir(dir, false);
	assert_true(dfd >= 0);
	/* A link where the directory should be: the link goes, what it points at stays. */
	snprintf(path, sizeof(path), "%s/victim-file", victim);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	snprintf(path, sizeof(path), "%s/boot", dir);
	assert_int_equal(symlink(victim, path), 0);
	assert_int_equal(remove_dir_at(dfd, "boot"), 0);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/victim-file", victim);
	assert_int_equal(access(path, F_OK), 0);
	/* A missing one is gone already. */
	assert_int_equal(remove_dir_at(dfd, "boot"), 0);
	/* A new temporary directory, private, filled, then left stale and removed. */
	assert_int_equal(temp_dir_at(dfd, "boot", &tmp), 0);
	assert_int_equal(strncmp(tmp, ".boot.tmp-", 10), 0);
	assert_int_equal(strlen(tmp), 16);
	fd = openat(dfd, tmp, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	for (int i = 0; i < 300; i++) {
		int f;

		snprintf(path, sizeof(path), "file-%d", i);
		f = openat(fd, path, O_WRONLY | O_CREAT, 0644);
		assert_true(f >= 0);
		close(f);
	}
	close(fd);
	remove_stale_temps_at(dfd, "boot");
	assert_int_equal(faccessat(dfd, tmp, F_OK, 0), -1);
	free(tmp);
	close(dfd);
	snprintf(path, sizeof(path), "rm -rf '%s' '%s'", dir, victim);
	assert_int_equal(system(path), 0);
}

/* read_small_at() gives a small file whole in one read and a large one whole as well. */
static void test_read_small(void **state)
{
	char dir[] = "/tmp/da-util-XXXXXX", path[96], *buf = NULL, *big;
	size_t len = 0, n = 10000;
	int fd;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write_all(fd, "MAJOR=8\n", 8), 0);
	close(fd);
	assert_int_equal(read_small_at(AT_FDCWD, path, &buf, &len), 0);
	assert_int_equal(len, 8);
	assert_string_equal(buf, "MAJOR=8\n");
	free(buf);
	/* More than the page read first: the rest is read too, not cut. */
	big = malloc(n);
	assert_non_null(big);
	for (size_t i = 0; i < n; i++)
		big[i] = 'a' + i % 26;
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write_all(fd, big, n), 0);
	close(fd);
	assert_int_equal(read_small_at(AT_FDCWD, path, &buf, &len), 0);
	assert_int_equal(len, n);
	assert_memory_equal(buf, big, n);
	free(buf);
	free(big);
	assert_int_equal(read_small_at(AT_FDCWD, "/nonexistent/f", &buf, &len), -ENOENT);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/* Bytes with NULs, formatted text and many appends all come back whole. */
static void test_strjoin(void **state)
{
	char num[16], *s;

	s = strjoin("by-id", "/", "wwn-0x5000c500a1b20001", NULL);
	assert_string_equal(s, "by-id/wwn-0x5000c500a1b20001");
	free(s);
	s = strjoin("", NULL);
	assert_string_equal(s, "");
	free(s);
	assert_string_equal(uint_str(num, sizeof(num), 0), "0");
	assert_string_equal(uint_str(num, sizeof(num), 7), "7");
	assert_string_equal(uint_str(num, sizeof(num), 4294967295u), "4294967295");
}

static void test_strbuf(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	char *s;

	s = strbuf_detach(&sb, &len);
	assert_string_equal(s, "");
	assert_int_equal(len, 0);
	free(s);
	assert_int_equal(strbuf_add(&sb, "a\0b", 3), 0);
	assert_int_equal(strbuf_addf(&sb, "-%d-%s", 42, "x"), 0);
	assert_int_equal(sb.len, 8);
	assert_memory_equal(sb.buf, "a\0b-42-x", 9);
	strbuf_reset(&sb);
	assert_string_equal(sb.buf, "");
	for (int i = 0; i < 10000; i++)
		assert_int_equal(strbuf_addstr(&sb, "0123456789"), 0);
	assert_int_equal(sb.len, 100000);
	assert_int_equal(sb.buf[sb.len], '\0');
	assert_int_equal(strbuf_grow(&sb, SIZE_MAX - 10), -ENOMEM);
	assert_int_equal(sb.len, 100000);
	strbuf_release(&sb);
	assert_null(sb.buf);
}

/* An array grown one element at a time, with removals between, keeps every element. */
static void test_array_grow(void **state)
{
	size_t *v = NULL, n = 0;
	struct strv l = {};

	for (size_t i = 0; i < 5000; i++) {
		assert_int_equal(ARRAY_GROW(v, n), 0);
		v[n++] = i;
		if (i % 7 == 6)
			n -= 3; /* removed at the end; the room stays */
	}
	for (size_t i = 0; i < n; i++)
		assert_true(v[i] < 5000);
	assert_int_equal(v[n - 1], 4999);
	free(v);
	assert_null(array_grow(NULL, 0, SIZE_MAX / 4, 8));
	for (int i = 0; i < 100; i++)
		assert_int_equal(strv_push(&l, "x"), 0);
	assert_null(l.v[l.n]);
	{
		char **d = strv_detach(&l);
		size_t k = 0;

		assert_null(l.v);
		for (; d[k]; k++)
			free(d[k]);
		assert_int_equal(k, 100);
		free(d);
		d = strv_detach(&l);
		assert_non_null(d);
		assert_null(d[0]);
		free(d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),    cmocka_unit_test(test_resolve_link),
		cmocka_unit_test(test_escape),	     cmocka_unit_test(test_utf8_replace),
		cmocka_unit_test(test_replace_file), cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_array_grow),   cmocka_unit_test(test_remove_dir),
		cmocka_unit_test(test_read_small),   cmocka_unit_test(test_strjoin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
