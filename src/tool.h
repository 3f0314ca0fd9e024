/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the diskalias commands share: loading, messages, exit codes. */
#ifndef DISKALIAS_TOOL_H
#define DISKALIAS_TOOL_H

#include <getopt.h>
#include <stdio.h>
#include <libsmartcols.h>

#include <diskalias.h>
#include "util.h"
#include "strbuf.h"

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2,
};

/* What a command needs loaded before it runs. */
enum {
	NEED_TABLE = 1 << 0,
	NEED_DEVICES = 1 << 1,
	NEED_MAP = NEED_TABLE | NEED_DEVICES | 1 << 2,
	/*
	 * The lines of the table the devices already in t->list can match,
	 * through the index the udev helper keeps (da_table_load_indexed()).
	 */
	NEED_TABLE_INDEXED = NEED_TABLE | 1 << 3,
	/* The map, devices read as far as naming and finding them needs (da_devlist_scan_for). */
	NEED_MAP_NAMES = NEED_MAP | 1 << 4,
	/* Say nothing of what went wrong: the caller goes on without (and said it before). */
	NEED_QUIET = 1 << 5,
};

struct tool {
	const char *cmd;    /* the command's name, for messages */
	const char *root;   /* --sysroot, or NULL */
	const char *config; /* -c, or NULL for the default */
	char *table_path;
	struct da_ctx *ctx;
	struct da_table *table;
	struct da_devlist *list;
	struct da_map *map;
	struct da_diag table_diag; /* what was wrong with the table, reported when it was loaded */
	size_t table_problems;	   /* of which problems (not warnings): bad lines */
	size_t said;		   /* messages loading the table and devices gave */
	bool may_create;	   /* an edit: a missing -c FILE is created */
	unsigned int details;	   /* what a full scan reads (DA_SCAN_*); 0: everything */
};

/* Global options every command also accepts after its name. */
enum {
	OPT_SYSROOT = 0x100,
	OPT_CONFIG = 'c',
};
/* Brace lists in macros are left as written: clang-format 14 and 19 disagree on them. */
/* clang-format off */
#define GLOBAL_LONG_OPTS \
	{ "config", required_argument, NULL, OPT_CONFIG }, \
	{ "sysroot", required_argument, NULL, OPT_SYSROOT }, \
	{ "help", no_argument, NULL, 'h' }
/* clang-format on */
#define GLOBAL_SHORT_OPTS "c:h"

/*
 * The one output path for tables: libsmartcols, in the formats lsblk
 * has. A command adds TOOL_OUTPUT_LONG_OPTS and TOOL_OUTPUT_SHORT_OPTS to
 * its options and hands each option to tool_output_option().
 */
struct tool_output {
	int format; /* 0 = aligned columns, 'J' JSON, 'P' KEY="value", 'r' raw */
	bool noheadings;
};
/* clang-format off */
#define TOOL_OUTPUT_LONG_OPTS \
	{ "json", no_argument, NULL, 'J' }, \
	{ "pairs", no_argument, NULL, 'P' }, \
	{ "raw", no_argument, NULL, 'r' }, \
	{ "noheadings", no_argument, NULL, 'n' }
/* clang-format on */
#define TOOL_OUTPUT_SHORT_OPTS "JPrn"
#define TOOL_OUTPUT_HELP                                \
	" -J, --json            JSON output\n"          \
	" -P, --pairs           KEY=\"value\" output\n" \
	" -r, --raw             raw output\n"           \
	" -n, --noheadings      don't print headings\n"
/* The output formats exclude each other: a row for a command's exclusion table. */
/* clang-format off */
#define TOOL_OUTPUT_EXCL { 'J', 'P', 'r' }
/* clang-format on */
/* tool_common_option() for a command with output options: -1 when @c was taken, else the exit code.
 */
int tool_output_common_option(struct tool *t, int c, struct tool_output *o, const char *usage);
/*
 * A new table in @o's format, named @name (JSON's top key); NULL without
 * memory. Print it with tool_table_print(), free with scols_unref_table().
 */
struct libscols_table *tool_table_new(const struct tool_output *o, const char *name);
/*
 * Print @tb to stdout: 0 or a negative errno. JSON is the same with every
 * libsmartcols: an array column without a value is [] (2.38 writes [null]).
 */
int tool_table_print(struct libscols_table *tb);
/*
 * One table printed a part at a time, for more lines than a command would
 * hold at once: each part a table of its own with the same columns, which
 * the caller frees once printed. The headings come once, over the first
 * part; JSON is one array. The widths are the caller's to make the same in
 * every part. tool_table_parts_end() ends the output after the last part.
 */
struct tool_table_parts {
	size_t n;	    /* parts printed */
	struct strbuf tail; /* JSON: the end of the array and object, printed last */
};
int tool_table_print_part(struct libscols_table *tb, struct tool_table_parts *p);
int tool_table_parts_end(struct tool_table_parts *p);
/* Add a column: @name, width hint @whint, libsmartcols @flags, JSON type @json. NULL without
 * memory. */
struct libscols_column *tool_table_column(struct libscols_table *tb, const char *name, double whint,
					  int flags, int json);

/* The global options, as every help lists them. */
extern const char tool_global_help[];
/* A command's help: @usage, then the global options. */
void tool_help(const char *usage);
/*
 * Every command parses its options in one shape:
 *
 *	while ((c = getopt_long(argc, argv, SHORT, opts, NULL)) != -1) {
 *		r = tool_exclusive(t, c, opts, excl, excl_seen);	(if it has any)
 *		if (r >= 0)
 *			return r;
 *		switch (c) {
 *		case 'x':
 *			...
 *			break;
 *		default:
 *			r = tool_common_option(t, c, usage);
 *			if (r >= 0)
 *				return r;
 *		}
 *	}
 *
 * Options that cannot go together are rows of an exclusion table, as in
 * util-linux: each row lists their option characters (at most
 * TOOL_EXCL_MAX), the table ends with an empty row, and @seen has one
 * int per row, zeroed. tool_exclusive() returns EXIT_USAGE (said) when
 * @c and an earlier option share a row, else -1.
 */
#define TOOL_EXCL_MAX 4
typedef int tool_excl_t[TOOL_EXCL_MAX];
int tool_exclusive(struct tool *t, int c, const struct option *opts, const tool_excl_t *excl,
		   int *seen);
/*
 * Handle a global option or an unknown one for a command's getopt loop.
 * Returns -1 when the option was consumed, else the exit code to leave with.
 */
int tool_common_option(struct tool *t, int c, const char *usage);
/* Parse a command with no options of its own: -1 to go on, else the exit code to leave with. */
int tool_options(struct tool *t, int argc, char **argv, const char *usage);
/* The usage error: "diskalias: MSG" and a hint; returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) _printf_(2, 3);
void print_diag(const struct da_diag *diag);
/* Print "diskalias: " + message to stderr, control bytes and invalid UTF-8 escaped. */
void errmsg(const char *fmt, ...) _printf_(1, 2);
/* The same as "diskalias: note: ...". */
void notemsg(const char *fmt, ...) _printf_(1, 2);

/* A da_rewrite_write_fn writing to the file descriptor *(int *)@userdata, all of it. */
int tool_write_fd(void *userdata, const struct iovec *iov, int iovcnt);
/* Make the pipe @fd (if it is one) hold 1 MB, so its two ends take turns less often. */
void tool_widen_pipe(int fd);
/*
 * Load the map and make a rewriter in @mode writing to *@fd (which must
 * outlive it; NULL: one only asked, da_rewriter_query()). @alone: the caller needs nothing else
 * loaded, so the rewriter the last run kept will do while nothing it was built from has changed;
 * one built is kept when loading said nothing (a kept one must not hide a bad line). On failure the
 * reason is printed; returns -1.
 */
int tool_rewriter(struct tool *t, enum da_rewrite_mode mode, bool alone, int *fd,
		  struct da_rewriter **ret);
/* How many names @d has in the map (0 for NULL). */
size_t tool_name_count(const struct tool *t, const struct da_device *d);
/* The primary name of the device with kernel name @kname, or NULL (map loaded). */
const char *tool_name_of(const struct tool *t, const char *kname);
/* Read @file of the machine into a NUL-terminated buffer (caller frees); says why not. */
int tool_read_file(struct tool *t, enum da_ctx_file file, char **ret_buf, size_t *ret_len);

/* Load what @need says. On failure the reason is printed; returns -1. */
int tool_load(struct tool *t, unsigned int need);
/* Free what tool_load() read (map, devices, table), so that the next tool_load() reads it anew. */
void tool_unload(struct tool *t);
void tool_done(struct tool *t);

/* The kernel names of the devices that carry identity @kind @value, "sdc, sdd" (caller frees). */
char *tool_matching_devices(const struct tool *t, enum da_id_kind kind, const char *value);

/* Add to @knames the kernel names of @d and its partitions (they are named after it). */
int tool_affected_dev(struct tool *t, const struct da_device *d, struct strv *knames);
/* The same for the device alias @name names now, if any (best effort: loads what it can). */
int tool_affected(struct tool *t, const char *name, struct strv *knames);
/*
 * The file an edit's --file @arg names: a bare NAME.conf is a drop-in of
 * the table (/etc/diskalias.d/NAME.conf), anything else a path. Caller frees.
 */
char *tool_table_file(const struct tool *t, const char *arg);
/* After an edit: a change uevent for each of @knames where udev runs, else a note pointing at
 * apply. */
void tool_notify(struct tool *t, const struct strv *knames);

/* A size as lsblk prints it: powers of 1024, one rounded decimal, "3.6T". Caller frees. */
char *tool_human_size(uint64_t bytes);

int cmd_list(struct tool *t, int argc, char **argv);
int cmd_map(struct tool *t, int argc, char **argv);
int cmd_chassis(struct tool *t, int argc, char **argv);
int cmd_locate(struct tool *t, int argc, char **argv);
int cmd_fault(struct tool *t, int argc, char **argv);
int cmd_set(struct tool *t, int argc, char **argv);
int cmd_unset(struct tool *t, int argc, char **argv);
int cmd_rename(struct tool *t, int argc, char **argv);
int cmd_resolve(struct tool *t, int argc, char **argv);
int cmd_name(struct tool *t, int argc, char **argv);
int cmd_check(struct tool *t, int argc, char **argv);
int cmd_filter(struct tool *t, int argc, char **argv);
int cmd_dmesg(struct tool *t, int argc, char **argv);
int cmd_partitions(struct tool *t, int argc, char **argv);
int cmd_diskstats(struct tool *t, int argc, char **argv);
int cmd_run(struct tool *t, int argc, char **argv);
int cmd_udev(struct tool *t, int argc, char **argv);
int cmd_apply(struct tool *t, int argc, char **argv);
int cmd_metrics(struct tool *t, int argc, char **argv);
int cmd_history(struct tool *t, int argc, char **argv);
int cmd_import(struct tool *t, int argc, char **argv);

#endif
