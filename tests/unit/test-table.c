// SPDX-License-Identifier: LGPL-2.1-or-later
/* The alias table: parsing, problems with lines, edits that keep every byte, saving. */
#include <errno.h>
#include <fcntl.h>
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

static const char sample[] =
	"# Shelf 1 of the lab\n"
	"\n"
	"   # alias  NAME     IDENTITY\n"
	"alias\tbay07    wwn:0x5000c500a1b2c3d4   # front, left\n"
	"alias    dblog    serial:S4EVNX0M123456\n"
	"alias    slot-a3  path:pci-0000:00:1f.2-ata-3\r\n"
	"alias    boot     partuuid:0a1b2c3d-01\n"
	"alias    photos   label:\"My \\\"Photos\\\" \\x23 1\"\n"
	"# trailing comment without newline";

static struct da_table *parse_ok(const char *text)
{
	struct da_diag diag = {};
	struct da_table *t = NULL;

	assert_int_equal(da_table_parse("t.conf", text, strlen(text), &diag, &t), 0);
	assert_int_equal(diag.n, 0);
	return t;
}

/* Parse @text expecting exactly one problem, on @line, whose message contains @what. */
static void parse_bad_len(const char *text, size_t len, unsigned int line, const char *what)
{
	struct da_diag diag = {};
	struct da_table *t = NULL;

	assert_int_equal(da_table_parse("t.conf", text, len, &diag, &t), -EINVAL);
	assert_null(t);
	if (diag.n != 1)
		fail_msg("%zu problems for %s", diag.n, text);
	assert_string_equal(diag.v[0].file, "t.conf");
	assert_int_equal(diag.v[0].line, line);
	if (!strstr(diag.v[0].msg, what))
		fail_msg("'%s' does not say '%s'", diag.v[0].msg, what);
	da_diag_clear(&diag);
}

static void parse_bad(const char *text, unsigned int line, const char *what)
{
	parse_bad_len(text, strlen(text), line, what);
}

static void test_parse(void **state)
{
	struct da_table *t = parse_ok(sample);
	const struct da_alias *a;

	assert_int_equal(da_table_count(t), 5);
	a = da_table_get(t, 0);
	assert_string_equal(da_alias_name(a), "bay07");
	assert_int_equal(da_alias_kind(a), DA_ID_WWN);
	assert_string_equal(da_alias_value(a), "0x5000c500a1b2c3d4");
	assert_int_equal(da_alias_line(a), 4);
	a = da_table_find(t, "SLOT-A3");
	assert_non_null(a);
	assert_string_equal(da_alias_value(a), "pci-0000:00:1f.2-ata-3");
	a = da_table_find(t, "photos");
	assert_string_equal(da_alias_value(a), "My \"Photos\" # 1");
	assert_int_equal(da_alias_line(a), 8);
	da_table_free(t);
}

static void test_parse_errors(void **state)
{
	parse_bad("alias bay07 wwn:1\nfoo bar baz\n", 2, "unknown statement 'foo'");
	parse_bad("\n\nalias bay07\n", 3, "incomplete statement");
	parse_bad("alias bay07 wwn:1 extra\n", 1, "too many words");
	parse_bad("alias bay07 disk:1\n", 1, "invalid identity 'disk:1'");
	parse_bad("alias bay07 wwn:\n", 1, "invalid identity");
	parse_bad("alias sdc wwn:1\n", 1, "invalid alias name 'sdc': looks like a kernel device name");
	parse_bad("alias ../x wwn:1\n", 1, "invalid alias name");
	parse_bad("alias bay07 label:\"open\n", 1, "unterminated quote");
	parse_bad("alias a wwn:1\nalias a wwn:2\n", 2, "alias 'a' is already defined (line 1)");
	parse_bad("alias Bay wwn:1\nalias bay wwn:2\n", 2, "differs from alias 'Bay' (line 1) only in case");
	parse_bad("alias db wwn:1\nalias db1 wwn:2\n", 2, "partition 1 of alias 'db' (line 1)");
	parse_bad("alias bay07p1 wwn:1\nalias bay07 wwn:2\n", 2,
		  "alias 'bay07p1' (line 1) is the name of partition 1 of alias 'bay07'");
	parse_bad_len("alias a wwn:1\nalias b\0 wwn:2\n", 28, 2, "NUL byte");
}

static void test_parse_reports_every_problem(void **state)
{
	static const char text[] = "bogus\nalias ok wwn:1\nalias sda wwn:2\nalias ok serial:3\n";
	struct da_diag diag = {};
	struct da_table *t = NULL;

	assert_int_equal(da_table_parse("t.conf", text, strlen(text), &diag, &t), -EINVAL);
	assert_int_equal(diag.n, 3);
	assert_int_equal(diag.v[0].line, 1);
	assert_int_equal(diag.v[1].line, 3);
	assert_int_equal(diag.v[2].line, 4);
	da_diag_clear(&diag);
}

static void assert_text(const struct da_table *t, const char *want)
{
	size_t len;
	char *s = da_table_format(t, &len);

	assert_int_equal(len, strlen(want));
	assert_string_equal(s, want);
	free(s);
}

static void test_edit_keeps_bytes(void **state)
{
	struct da_table *t = parse_ok(sample);
	struct da_diag diag = {};
	char want[4096];

	assert_text(t, sample);
	assert_int_equal(da_table_rename(t, "bay07", "front-left", &diag), 0);
	assert_int_equal(da_table_add(t, "scratch", DA_ID_SERIAL, "SER 9\"x", &diag), 0);
	assert_int_equal(da_table_remove(t, "dblog", &diag), 0);
	assert_int_equal(da_table_rebind(t, "boot", DA_ID_LABEL, "EFI", &diag), 0);
	assert_int_equal(diag.n, 0);
	snprintf(want, sizeof(want), "%s",
		 "# Shelf 1 of the lab\n"
		 "\n"
		 "   # alias  NAME     IDENTITY\n"
		 "alias\tfront-left    wwn:0x5000c500a1b2c3d4   # front, left\n"
		 "alias    slot-a3  path:pci-0000:00:1f.2-ata-3\r\n"
		 "alias    boot     label:EFI\n"
		 "alias    photos   label:\"My \\\"Photos\\\" \\x23 1\"\n"
		 "# trailing comment without newline\n"
		 "alias scratch serial:\"SER 9\\\"x\"\n");
	assert_text(t, want);
	assert_string_equal(da_alias_value(da_table_find(t, "scratch")), "SER 9\"x");
	/* What was written parses back to the same aliases. */
	{
		struct da_table *again = parse_ok(want);

		assert_int_equal(da_table_count(again), da_table_count(t));
		da_table_free(again);
	}
	da_table_free(t);
}

static void test_edit_refusals_change_nothing(void **state)
{
	struct da_table *t = parse_ok(sample);
	struct da_diag diag = {};

	assert_int_equal(da_table_add(t, "bay07", DA_ID_WWN, "0x1", &diag), -EEXIST);
	assert_int_equal(da_table_add(t, "BAY07", DA_ID_WWN, "0x1", &diag), -EEXIST);
	assert_int_equal(da_table_add(t, "bay07p2", DA_ID_WWN, "0x1", &diag), -EEXIST);
	assert_int_equal(da_table_add(t, "dblog3", DA_ID_WWN, "0x1", &diag), -EEXIST);
	assert_int_equal(da_table_add(t, "sdz", DA_ID_WWN, "0x1", &diag), -EINVAL);
	assert_int_equal(da_table_rename(t, "bay07", "dblog", &diag), -EEXIST);
	assert_int_equal(da_table_rename(t, "nope", "other", &diag), -ENOENT);
	assert_int_equal(da_table_remove(t, "nope", &diag), -ENOENT);
	assert_int_equal(diag.n, 8);
	assert_string_equal(diag.v[2].msg,
			    "alias 'bay07p2' is the name of partition 2 of alias 'bay07' (line 4)");
	assert_text(t, sample);
	/* A change of case only is a rename of the alias to itself. */
	assert_int_equal(da_table_rename(t, "bay07", "Bay07", NULL), 0);
	da_diag_clear(&diag);
	da_table_free(t);
}

struct add_args {
	const char *name;
	struct da_diag *diag;
};

static int add_one(struct da_table *t, void *data)
{
	struct add_args *a = data;

	return da_table_add(t, a->name, DA_ID_SERIAL, "S1", a->diag);
}

static void test_edit_file(void **state)
{
	char dir[] = "/tmp/da-table-XXXXXX", path[64], *buf;
	struct da_diag diag = {};
	struct add_args args = { "disk1", &diag };
	struct da_table *t;
	struct stat st;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/diskalias.conf", dir);
	/* A missing table is empty, and the first edit creates it. */
	assert_int_equal(da_table_load(path, &diag, &t), 0);
	assert_int_equal(da_table_count(t), 0);
	da_table_free(t);
	assert_int_equal(da_table_edit(path, add_one, &args, &diag), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);

	/* A failing edit leaves the file as it was. */
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(da_table_edit(path, add_one, &args, &diag), -EEXIST);
	assert_int_equal(diag.n, 1);
	da_diag_clear(&diag);
	args.name = "disk2";
	assert_int_equal(da_table_edit(path, add_one, &args, &diag), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	f = fopen(path, "r");
	buf = calloc(1, 4096);
	assert_int_equal(fread(buf, 1, 4095, f), strlen("alias disk1 serial:S1\nalias disk2 serial:S1\n"));
	assert_string_equal(buf, "alias disk1 serial:S1\nalias disk2 serial:S1\n");
	fclose(f);
	free(buf);

	/* A broken table is not edited: the problem is reported with its line. */
	f = fopen(path, "a");
	fputs("garbage here\n", f);
	fclose(f);
	args.name = "disk3";
	assert_int_equal(da_table_edit(path, add_one, &args, &diag), -EINVAL);
	assert_int_equal(diag.v[0].line, 3);
	da_diag_clear(&diag);

	/* Root refuses a table others could have written. */
	if (geteuid() == 0) {
		assert_int_equal(chmod(path, 0666), 0);
		assert_int_equal(da_table_load(path, &diag, &t), -EPERM);
		assert_non_null(strstr(diag.v[0].msg, "writable by group or others"));
		da_diag_clear(&diag);
		assert_int_equal(chmod(path, 0644), 0);
		assert_int_equal(chown(path, 1000, 0), 0);
		assert_int_equal(da_table_load(path, &diag, &t), -EPERM);
		assert_non_null(strstr(diag.v[0].msg, "not owned by root"));
		da_diag_clear(&diag);
	}
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_reports_every_problem),
		cmocka_unit_test(test_edit_keeps_bytes),
		cmocka_unit_test(test_edit_refusals_change_nothing),
		cmocka_unit_test(test_edit_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
