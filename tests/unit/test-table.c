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
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

#include <diskalias.h>

static const char sample[] = "# Shelf 1 of the lab\n"
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

/*
 * Parse @text expecting exactly one problem, on @line, whose message
 * contains @what; the table still comes back, with @nbound aliases that bind.
 */
static void parse_bad_len(const char *text, size_t len, unsigned int line, const char *what,
			  size_t nbound)
{
	struct da_diag diag = {};
	struct da_table *t = NULL;

	assert_int_equal(da_table_parse("t.conf", text, len, &diag, &t), 0);
	assert_non_null(t);
	if (diag.n != 1)
		fail_msg("%zu problems for %s", diag.n, text);
	assert_string_equal(diag.v[0].file, "t.conf");
	assert_int_equal(diag.v[0].line, line);
	if (!strstr(diag.v[0].msg, what))
		fail_msg("'%s' does not say '%s'", diag.v[0].msg, what);
	assert_int_equal(da_table_problems(t), 1);
	if (da_table_count(t) != nbound)
		fail_msg("%zu aliases bind in %s, not %zu", da_table_count(t), text, nbound);
	da_diag_clear(&diag);
	da_table_free(t);
}

static void parse_bad(const char *text, unsigned int line, const char *what, size_t nbound)
{
	parse_bad_len(text, strlen(text), line, what, nbound);
}

static void test_parse(void **state)
{
	struct da_table *t = parse_ok(sample);
	const struct da_alias *a;

	assert_int_equal(da_table_count(t), 5);
	assert_int_equal(da_table_problems(t), 0);
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

#define W1 "wwn:0x5000c500a1b2c301"
#define W2 "wwn:0x5000c500a1b2c302"

/* Each bad line is reported with its line and binds nothing; every good line still binds. */
static void test_parse_errors(void **state)
{
	parse_bad("alias bay07 " W1 "\nfoo bar baz\n", 2, "unknown statement 'foo'", 1);
	parse_bad("\n\nalias bay07\n", 3, "incomplete statement", 0);
	parse_bad("alias bay07 " W1 " extra\n", 1, "too many words", 0);
	parse_bad("alias bay07 disk:1\n", 1,
		  "unknown identity kind 'disk' (expected one of wwn, serial, id, path, uuid, label, partuuid, partlabel, slot)",
		  0);
	parse_bad("alias bay07 wwn:\n", 1, "invalid identity", 0);
	parse_bad("alias bay07 wwn:12\n", 1, "a WWN is hex digits", 0);
	parse_bad("alias bay07 wwn:0x5000c500a1b2c3zz\n", 1, "a WWN is hex digits", 0);
	parse_bad("alias bay07 id:\"ata-S1 2\"\n", 1, "blanks are not allowed", 0);
	parse_bad("alias bay07 serial:\"S1 \"\n", 1, "does not start or end with a blank", 0);
	parse_bad("alias bay07 serial:\"S1\\x0a2\"\n", 1, "control characters", 0);
	parse_bad("alias sdc " W1 "\n", 1,
		  "invalid alias name 'sdc': looks like a kernel device name", 0);
	parse_bad("alias ../x " W1 "\n", 1, "invalid alias name", 0);
	parse_bad("alias bay07 label:\"open\n", 1, "unterminated quote", 0);
	/* Two lines that conflict: neither binds, the later names the earlier. */
	parse_bad("alias a " W1 "\nalias a " W2 "\nalias b " W2 "\n", 2,
		  "alias 'a' is also defined on line 1; neither line applies", 1);
	parse_bad("alias Bay " W1 "\nalias bay " W2 "\n", 2,
		  "alias 'bay' differs only in case from alias 'Bay' (line 1)", 0);
	parse_bad("alias db " W1 "\nalias db1 " W2 "\n", 2,
		  "alias 'db1' is the name of partition 1 of alias 'db' (line 1)", 0);
	parse_bad("alias bay07p1 " W1 "\nalias bay07 " W2 "\n", 2,
		  "the name of partition 1 of alias 'bay07' is alias 'bay07p1' (line 1)", 0);
	parse_bad_len("alias a " W1 "\nalias b\0 " W2 "\n", 61, 2, "NUL byte", 1);
	/* Long or hostile text is quoted short and escaped. */
	parse_bad("alias bay07 serial:\"\\x1b[2J\"\n", 1, "'serial:\\x1b[2J'", 0);
	{
		char text[400];

		snprintf(text, sizeof(text), "alias x %0300d\n", 0);
		parse_bad(text, 1,
			  "'00000000000000000000000000000000000000000000000000000000000000000000000000000000...'",
			  0);
	}
}

/* An editor's byte order mark before the first statement is accepted. */
static void test_parse_bom(void **state)
{
	struct da_table *t = parse_ok("\xef\xbb\xbf"
				      "alias bay07 " W1 "\n");

	assert_int_equal(da_table_count(t), 1);
	assert_string_equal(da_alias_name(da_table_get(t, 0)), "bay07");
	da_table_free(t);
	/* Anywhere else it is a problem, and shown so that it can be seen. */
	parse_bad("alias a " W1 "\n\xef\xbb\xbf"
		  "alias b " W2 "\n",
		  2, "'<U+FEFF>alias'", 1);
}

static void test_parse_reports_every_problem(void **state)
{
	static const char text[] = "bogus\nalias ok " W1 "\nalias sda " W1
				   "\nalias ok serial:3\nalias fine serial:4\n";
	struct da_diag diag = {};
	struct da_table *t = NULL;

	assert_int_equal(da_table_parse("t.conf", text, strlen(text), &diag, &t), 0);
	assert_int_equal(diag.n, 3);
	assert_int_equal(diag.v[0].line, 1);
	assert_int_equal(diag.v[1].line, 3);
	assert_int_equal(diag.v[2].line, 4);
	assert_int_equal(da_table_count(t), 1);
	assert_string_equal(da_alias_name(da_table_get(t, 0)), "fine");
	assert_int_equal(da_alias_index(da_table_get(t, 0)), 0);
	assert_null(da_table_find(t, "ok"));
	da_diag_clear(&diag);
	da_table_free(t);
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

	assert_int_equal(da_table_add(t, "bay07", DA_ID_WWN, "0x5000000000000001", &diag), -EEXIST);
	assert_int_equal(da_table_add(t, "BAY07", DA_ID_WWN, "0x5000000000000001", &diag), -EEXIST);
	assert_int_equal(da_table_add(t, "bay07p2", DA_ID_WWN, "0x5000000000000001", &diag),
			 -EEXIST);
	assert_int_equal(da_table_add(t, "dblog3", DA_ID_WWN, "0x5000000000000001", &diag),
			 -EEXIST);
	assert_int_equal(da_table_add(t, "sdz", DA_ID_WWN, "0x5000000000000001", &diag), -EINVAL);
	assert_int_equal(da_table_rename(t, "bay07", "dblog", &diag), -EEXIST);
	assert_int_equal(da_table_rename(t, "nope", "other", &diag), -ENOENT);
	assert_int_equal(da_table_remove(t, "nope", &diag), -ENOENT);
	assert_int_equal(da_table_add(t, "new", DA_ID_WWN, "0x1", &diag), -EINVAL);
	assert_int_equal(da_table_add(t, "new", DA_ID_SERIAL, "a\nb", &diag), -EINVAL);
	assert_int_equal(diag.n, 10);
	assert_string_equal(
		diag.v[9].msg,
		"invalid identity 'serial:a\\x0ab': control characters are not allowed in a value");
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

static void assert_file(const char *path, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	assert_int_equal(getdelim(&buf, &len, '\0', f) >= 0, 1);
	assert_string_equal(buf, want);
	free(buf);
	fclose(f);
}

/* A test's directory goes whole, with the lock files and drop-ins its edits made. */
static void remove_dir(const char *dir)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
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
	assert_int_equal(fread(buf, 1, 4095, f),
			 strlen("alias disk1 serial:S1\nalias disk2 serial:S1\n"));
	assert_string_equal(buf, "alias disk1 serial:S1\nalias disk2 serial:S1\n");
	fclose(f);
	free(buf);

	/* A table with a bad line is still edited, and the bad line kept byte for byte. */
	f = fopen(path, "a");
	fputs("garbage \x1b here\n", f);
	fclose(f);
	args.name = "disk3";
	assert_int_equal(da_table_edit(path, add_one, &args, &diag), 0);
	assert_int_equal(diag.n, 0);
	assert_file(path, "alias disk1 serial:S1\nalias disk2 serial:S1\ngarbage \x1b here\n"
			  "alias disk3 serial:S1\n");

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
	remove_dir(dir);
}

static int remove_dup(struct da_table *t, void *data)
{
	return da_table_remove(t, "dup", data);
}

static int rename_dup(struct da_table *t, void *data)
{
	return da_table_rename(t, "dup", "other", data);
}

/* Names that conflict: neither binds; they cannot be renamed; removing the name removes both. */
static void test_edit_conflicts(void **state)
{
	char dir[] = "/tmp/da-table-XXXXXX", path[64];
	struct da_diag diag = {};
	struct add_args args = { "DUP", &diag };
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/diskalias.conf", dir);
	f = fopen(path, "w");
	fputs("alias dup serial:A\nalias keep serial:B\nalias dup serial:C\n", f);
	fclose(f);
	assert_int_equal(da_table_edit(path, add_one, &args, &diag), -EEXIST);
	assert_int_equal(da_table_edit(path, rename_dup, &diag, &diag), -ENOENT);
	assert_int_equal(diag.n, 2);
	assert_string_equal(
		diag.v[1].msg,
		"alias 'dup' conflicts with another line and applies nowhere; fix that first (diskalias check)");
	da_diag_clear(&diag);
	assert_int_equal(da_table_edit(path, remove_dup, &diag, &diag), 0);
	assert_file(path, "alias keep serial:B\n");
	remove_dir(dir);
}

/* Write @text to @path (created or truncated). */
static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * What editing does to the file system: a symlinked table is edited where it
 * points; the lock is a private file and a waiting editor names its holder;
 * the temporary files of a killed editor go; a FIFO is never waited on.
 */
static void test_edit_files_around(void **state)
{
	char dir[] = "/tmp/da-table-XXXXXX", path[64], real[64], lock[80], orphan[96];
	struct da_diag diag = {};
	struct add_args args = { "disk1", &diag };
	struct da_table *t;
	struct stat st;
	int p[2];
	pid_t pid;
	char c;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/diskalias.conf", dir);
	snprintf(real, sizeof(real), "%s/real.conf", dir);
	snprintf(lock, sizeof(lock), "%s/.real.conf.lock", dir);
	snprintf(orphan, sizeof(orphan), "%s/.real.conf.tmp-AbC123", dir);
	write_text(real, "# mine\n");
	assert_int_equal(symlink("real.conf", path), 0);
	write_text(orphan, "left by a killed editor");
	assert_int_equal(da_table_edit(path, add_one, &args, &diag), 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_file(real, "# mine\nalias disk1 serial:S1\n");
	assert_int_equal(access(orphan, F_OK), -1);
	assert_int_equal(stat(lock, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);

	/* Another editor holds the lock: wait, then fail naming it. */
	assert_int_equal(pipe(p), 0);
	pid = fork();
	if (pid == 0) {
		int lfd = open(lock, O_RDWR);

		flock(lfd, LOCK_EX);
		dprintf(lfd, "%d\n", (int)getpid());
		(void)!write(p[1], "x", 1);
		sleep(30);
		_exit(0);
	}
	assert_int_equal(read(p[0], &c, 1), 1);
	setenv("DISKALIAS_LOCK_TIMEOUT", "1", 1);
	args.name = "disk2";
	assert_int_equal(da_table_edit(path, add_one, &args, &diag), -ETIMEDOUT);
	assert_int_equal(diag.n, 1);
	{
		char want[128];

		snprintf(want, sizeof(want),
			 "cannot lock it (held by process %d): another edit is still running",
			 (int)pid);
		assert_string_equal(diag.v[0].msg, want);
	}
	da_diag_clear(&diag);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	unsetenv("DISKALIAS_LOCK_TIMEOUT");
	assert_int_equal(da_table_edit(path, add_one, &args, &diag), 0);

	/* A lock file that is a planted symlink is refused, never followed. */
	unlink(lock);
	assert_int_equal(symlink("/etc/passwd", lock), 0);
	assert_int_equal(da_table_edit(path, add_one, &args, &diag), -ELOOP);
	da_diag_clear(&diag);
	unlink(lock);

	/* A FIFO where the table was: refused at once, not waited on. */
	unlink(path);
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(da_table_load(path, &diag, &t), -EINVAL);
	assert_string_equal(diag.v[0].msg, "not a regular file (a FIFO); refusing to read it");
	da_diag_clear(&diag);
	remove_dir(dir);
	close(p[0]);
	close(p[1]);
}

static int remove_one(struct da_table *t, void *data)
{
	struct add_args *a = data;

	return da_table_remove(t, a->name, a->diag);
}

/* Drop-ins: one text in file order, problems per file, edits of one file only. */
static void test_dropins(void **state)
{
	char dir[] = "/tmp/da-table-XXXXXX", path[64], d[64], f10[96], f20[96];
	struct da_diag diag = {};
	struct add_args args = { "third", &diag };
	struct da_table *t;
	struct stat st;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.conf", dir);
	snprintf(d, sizeof(d), "%s/t.d", dir);
	snprintf(f10, sizeof(f10), "%s/10-a.conf", d);
	snprintf(f20, sizeof(f20), "%s/20-b.conf", d);
	assert_int_equal(mkdir(d, 0755), 0);
	write_text(path, "alias main serial:M\nalias dup serial:D1\n");
	/* The later drop-in is read later, whatever order the directory lists them in. */
	write_text(f20, "alias second serial:S2\nalias dup serial:D2\nbroken\n");
	write_text(f10, "alias first serial:S1"); /* no newline at the end */
	assert_int_equal(da_table_load(path, &diag, &t), 0);
	assert_int_equal(da_table_count(t), 3);
	assert_string_equal(da_alias_name(da_table_get(t, 1)), "first");
	assert_string_equal(da_alias_file(da_table_get(t, 1)), f10);
	assert_int_equal(da_alias_line(da_table_get(t, 2)), 1);
	assert_string_equal(da_alias_file(da_table_get(t, 0)), path);
	assert_int_equal(diag.n, 2);
	assert_string_equal(diag.v[0].file, f20);
	assert_int_equal(diag.v[0].line, 2);
	assert_non_null(strstr(diag.v[0].msg, "also defined on "));
	assert_non_null(strstr(diag.v[0].msg, "t.conf:2"));
	assert_int_equal(diag.v[1].line, 3);
	da_diag_clear(&diag);
	da_table_free(t);

	/* The main table is written; a name of a drop-in is taken there too. */
	assert_int_equal(da_table_edit(path, add_one, &args, &diag), 0);
	assert_file(path, "alias main serial:M\nalias dup serial:D1\nalias third serial:S1\n");
	args.name = "first";
	assert_int_equal(da_table_edit(path, add_one, &args, &diag), -EEXIST);
	da_diag_clear(&diag);
	/* A drop-in's line is changed only through that drop-in; nothing is written else. */
	assert_int_equal(da_table_edit(path, remove_one, &args, &diag), -EXDEV);
	assert_int_equal(diag.n, 1);
	assert_non_null(strstr(diag.v[0].msg, "10-a.conf:1"));
	da_diag_clear(&diag);
	args.name = "dup"; /* in two files: neither is removed */
	assert_int_equal(da_table_edit_file(path, f20, remove_one, &args, &diag), -EXDEV);
	da_diag_clear(&diag);
	assert_file(f20, "alias second serial:S2\nalias dup serial:D2\nbroken\n");
	args.name = "first";
	assert_int_equal(da_table_edit_file(path, f10, remove_one, &args, &diag), 0);
	assert_int_equal(stat(f10, &st), 0);
	assert_int_equal(st.st_size, 0);
	/* A new drop-in is made; one elsewhere is refused. */
	snprintf(f10, sizeof(f10), "%s/30-new.conf", d);
	args.name = "fourth";
	assert_int_equal(da_table_edit_file(path, f10, add_one, &args, &diag), 0);
	assert_file(f10, "alias fourth serial:S1\n");
	snprintf(f10, sizeof(f10), "%s/30-new.conf", dir);
	assert_int_equal(da_table_edit_file(path, f10, add_one, &args, &diag), -EINVAL);
	assert_int_equal(diag.n, 1);
	da_diag_clear(&diag);
	remove_dir(dir);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_bom),
		cmocka_unit_test(test_parse_reports_every_problem),
		cmocka_unit_test(test_edit_keeps_bytes),
		cmocka_unit_test(test_edit_refusals_change_nothing),
		cmocka_unit_test(test_edit_file),
		cmocka_unit_test(test_dropins),
		cmocka_unit_test(test_edit_conflicts),
		cmocka_unit_test(test_edit_files_around),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
