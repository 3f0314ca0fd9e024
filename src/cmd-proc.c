// SPDX-License-Identifier: GPL-2.0-or-later
/* diskalias partitions and diskstats: the kernel's /proc views with aliases. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libsmartcols.h>

#include "tool.h"

static const char partitions_usage[] =
	"Usage:\n"
	" diskalias partitions [--column] [-J|-P|-r] [-n]\n"
	"\n"
	"Print /proc/partitions with each device's name replaced by its alias, or as a\n"
	"table with the kernel names and an ALIAS column.\n"
	"\n"
	"Options:\n"
	"     --column          the table, kernel names kept, an ALIAS column added\n" TOOL_OUTPUT_HELP
	"                       (each of these prints the table too)\n";

static const char diskstats_usage[] =
	"Usage:\n"
	" diskalias diskstats [-w <seconds> [-n <count>]] [-J|-P|-r] [--noheadings]\n"
	"\n"
	"Print /proc/diskstats with each device's name replaced by its alias. With -w,\n"
	"show rates per disk every <seconds> instead, by alias, as iostat does.\n"
	"\n"
	"Options:\n"
	" -w, --watch <seconds> interval (may be fractional)\n"
	" -n, --count <count>   stop after this many reports (default: never)\n"
	" -J, --json            JSON output\n"
	" -P, --pairs           KEY=\"value\" output\n"
	" -r, --raw             raw output\n"
	"     --noheadings      don't print headings\n"
	"                       (without -w each of these prints the counters as a table,\n"
	"                       kernel names kept and an ALIAS column added)\n";

/* One line of a /proc table: where its name field is. */
struct field {
	const char *line; /* the line, not NUL-terminated */
	size_t len;
	size_t name, namelen; /* the name field's offset and length */
};

/* Find field number @nr (from 0, blank separated) of the line at @s; false if it has fewer. */
static bool find_field(const char *s, size_t len, unsigned int nr, struct field *f)
{
	size_t i = 0;

	for (unsigned int k = 0;; k++) {
		size_t start;

		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		start = i;
		while (i < len && s[i] != ' ' && s[i] != '\t')
			i++;
		if (start == i)
			return false;
		if (k == nr) {
			*f = (struct field){ s, len, start, i - start };
			return true;
		}
	}
}

/* Lines of a /proc table that describe a device start with its major number. */
static bool is_device_line(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && p[i] == ' ')
		i++;
	return i < n && p[i] >= '0' && p[i] <= '9';
}

/*
 * Call @fn for each line of @buf; on a device's line, its name field (number
 * @nr) is located and @name is the device's alias, if it has one.
 */
static void for_each_line(struct tool *t, const char *buf, size_t len, unsigned int nr,
			  void (*fn)(struct tool *t, const struct field *f, const char *name,
				     void *data),
			  void *data)
{
	for (const char *p = buf, *end = buf + len; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct field f = { p, n, 0, 0 };
		const char *name = NULL;

		if (is_device_line(p, n) && find_field(p, n, nr, &f)) {
			_cleanup_free_ char *kname = strndup(p + f.name, f.namelen);

			name = kname ? tool_name_of(t, kname) : NULL;
		}
		fn(t, &f, name, data);
		p += n + 1;
	}
}

/* The line with its name field replaced by @name (or as it is). */
static void print_replaced(struct tool *t, const struct field *f, const char *name, void *data)
{
	if (!name) {
		printf("%.*s\n", (int)f->len, f->line);
		return;
	}
	printf("%.*s%s%.*s\n", (int)f->name, f->line, name, (int)(f->len - f->name - f->namelen),
	       f->line + f->name + f->namelen);
}

/* Fields of a /proc table's device line, blank separated: at most @max into @v. */
static size_t split_fields(const struct field *f, char **v, size_t max)
{
	_cleanup_free_ char *line = strndup(f->line, f->len);
	char *save = NULL, *tok;
	size_t n = 0;

	for (tok = line ? strtok_r(line, " \t", &save) : NULL; tok && n < max;
	     tok = strtok_r(NULL, " \t", &save))
		v[n++] = strdup(tok);
	return n;
}

struct proc_table {
	struct libscols_table *tb;
	const char *const *cols; /* the fields' column names, then NAME and ALIAS */
	size_t ncols, name_col;	 /* fields in a line; which one is the name */
	int err;
};

/* A device line of a /proc table as a row: its fields, the name's alias after them. */
static void add_row(struct tool *t, const struct field *f, const char *name, void *data)
{
	struct proc_table *pt = data;
	struct libscols_line *ln;
	char *v[32] = {};
	size_t n;

	if (!f->namelen || pt->err)
		return;
	n = split_fields(f, v, ARRAY_SIZE(v));
	ln = scols_table_new_line(pt->tb, NULL);
	for (size_t i = 0; i < n; i++) {
		if (!ln || i >= pt->ncols || scols_line_refer_data(ln, i, v[i]) < 0) {
			free(v[i]);
			continue;
		}
	}
	if (!ln || (name && scols_line_set_data(ln, pt->ncols, name) < 0))
		pt->err = -ENOMEM;
}

/* Print the device lines of @buf as a table of @cols and an ALIAS column. */
static int print_proc_table(struct tool *t, const struct tool_output *o, const char *what,
			    const char *buf, size_t len, const char *const *cols, size_t ncols,
			    size_t name_col)
{
	struct proc_table pt = { tool_table_new(o, what), cols, ncols, name_col, 0 };
	int r = -ENOMEM;

	if (!pt.tb)
		goto out;
	for (size_t i = 0; i < ncols; i++)
		if (!tool_table_column(pt.tb, cols[i], 1, i == name_col ? 0 : SCOLS_FL_RIGHT,
				       i == name_col ? SCOLS_JSON_STRING : SCOLS_JSON_NUMBER))
			goto out;
	if (!tool_table_column(pt.tb, "ALIAS", 1, 0, SCOLS_JSON_STRING))
		goto out;
	for_each_line(t, buf, len, name_col, add_row, &pt);
	r = pt.err ? pt.err : tool_table_print(pt.tb);
out:
	scols_unref_table(pt.tb);
	if (r < 0)
		errmsg("%s", strerror(-r));
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

int cmd_partitions(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		GLOBAL_LONG_OPTS,
		TOOL_OUTPUT_LONG_OPTS,
		{ "column", no_argument, NULL, 'C' },
		{},
	};
	static const char *const cols[] = { "MAJOR", "MINOR", "BLOCKS", "NAME" };
	_cleanup_free_ char *buf = NULL;
	struct tool_output o = {};
	bool column = false;
	size_t len;
	static const tool_excl_t excl[] = { TOOL_OUTPUT_EXCL, {} };
	int excl_seen[ARRAY_SIZE(excl)] = {};
	int c, r;

	while ((c = getopt_long(argc, argv, GLOBAL_SHORT_OPTS TOOL_OUTPUT_SHORT_OPTS, opts,
				NULL)) != -1) {
		r = tool_exclusive(t, c, opts, excl, excl_seen);
		if (r >= 0)
			return r;
		switch (c) {
		case 'C':
			column = true;
			break;
		default:
			r = tool_output_common_option(t, c, &o, partitions_usage);
			if (r >= 0)
				return r;
		}
	}
	if (optind < argc)
		return usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
	if (tool_load(t, NEED_MAP_NAMES) < 0 ||
	    tool_read_file(t, DA_FILE_PARTITIONS, &buf, &len) < 0)
		return EXIT_FAIL;
	if (len > 0 && buf[len - 1] == '\n')
		len--;
	/* As the kernel prints it, names replaced; or a table with an alias column, in any format. */
	if (!column && !o.format && !o.noheadings) {
		for_each_line(t, buf, len, 3, print_replaced, NULL);
		return EXIT_OK;
	}
	return print_proc_table(t, &o, "partitions", buf, len, cols, ARRAY_SIZE(cols), 3);
}

/* The counters of one device in /proc/diskstats that rates are made of. */
struct stat_line {
	char *kname;
	unsigned long long rd, rsect, rticks, wr, wsect, wticks, ioticks;
};

struct sample {
	struct stat_line *v;
	size_t n;
	double when;
};

static void sample_free(struct sample *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].kname);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Read the counters of every disk. Returns 0 or -1 (said). */
static int sample_read(struct tool *t, struct sample *s)
{
	_cleanup_free_ char *buf = NULL;
	char *line, *save = NULL;
	if (tool_read_file(t, DA_FILE_DISKSTATS, &buf, NULL) < 0)
		return -1;
	s->when = now();
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct stat_line l = {};
		const struct da_device *d;

		if (sscanf(line, "%*u %*u %ms %llu %*u %llu %llu %llu %*u %llu %llu %*u %llu",
			   &l.kname, &l.rd, &l.rsect, &l.rticks, &l.wr, &l.wsect, &l.wticks,
			   &l.ioticks) != 8) {
			free(l.kname);
			continue;
		}
		d = da_devlist_find_kname(t->list, l.kname);
		if (!d || da_device_devtype(d) != DA_DEV_DISK) {
			free(l.kname);
			continue;
		}
		if (ARRAY_GROW(s->v, s->n) < 0) {
			free(l.kname);
			errmsg("out of memory");
			return -1;
		}
		s->v[s->n++] = l;
	}
	return 0;
}

static const struct stat_line *sample_find(const struct sample *s, const char *kname)
{
	for (size_t i = 0; i < s->n; i++)
		if (streq(s->v[i].kname, kname))
			return &s->v[i];
	return NULL;
}

/* Add a cell printed with @fmt to @ln; false without memory. */
static bool cell_printf(struct libscols_line *ln, size_t col, const char *fmt, ...) _printf_(3, 4);
static bool cell_printf(struct libscols_line *ln, size_t col, const char *fmt, ...)
{
	va_list ap;
	char *v;

	va_start(ap, fmt);
	v = xvasprintf(fmt, ap);
	va_end(ap);
	if (v && scols_line_refer_data(ln, col, v) == 0)
		return true;
	free(v);
	return false;
}

/* One iostat-style report of what happened between @a and @b. */
static int print_rates(struct tool *t, const struct tool_output *o, const struct sample *a,
		       const struct sample *b)
{
	static const char *const cols[] = { "DEVICE", "R/S",   "RKB/S",	  "R_AWAIT",
					    "W/S",    "WKB/S", "W_AWAIT", "%UTIL" };
	struct libscols_table *tb = tool_table_new(o, "diskstats");
	double dt = b->when - a->when;
	int r = -ENOMEM;

	if (!tb)
		return r;
	if (dt <= 0)
		dt = 1e-9;
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		if (!tool_table_column(tb, cols[i], i ? 8 : 16, i ? SCOLS_FL_RIGHT : 0,
				       i ? SCOLS_JSON_NUMBER : SCOLS_JSON_STRING))
			goto out;
	for (size_t i = 0; i < b->n; i++) {
		const struct stat_line *y = &b->v[i], *x = sample_find(a, y->kname);
		const char *name = tool_name_of(t, y->kname);
		struct libscols_line *ln;
		unsigned long long rd, wr;
		double util;

		if (!x)
			continue;
		/* io_ticks are milliseconds busy: per cent of the interval. */
		util = (y->ioticks - x->ioticks) / (dt * 10.0);
		rd = y->rd - x->rd;
		wr = y->wr - x->wr;
		ln = scols_table_new_line(tb, NULL);
		if (!ln || scols_line_set_data(ln, 0, name ? name : y->kname) < 0 ||
		    !cell_printf(ln, 1, "%.2f", rd / dt) ||
		    !cell_printf(ln, 2, "%.2f", (y->rsect - x->rsect) / 2.0 / dt) ||
		    !cell_printf(ln, 3, "%.2f", rd ? (double)(y->rticks - x->rticks) / rd : 0.0) ||
		    !cell_printf(ln, 4, "%.2f", wr / dt) ||
		    !cell_printf(ln, 5, "%.2f", (y->wsect - x->wsect) / 2.0 / dt) ||
		    !cell_printf(ln, 6, "%.2f", wr ? (double)(y->wticks - x->wticks) / wr : 0.0) ||
		    !cell_printf(ln, 7, "%.2f", util > 100.0 ? 100.0 : util))
			goto out;
	}
	r = tool_table_print(tb);
	fflush(stdout);
out:
	scols_unref_table(tb);
	return r;
}

static int watch(struct tool *t, const struct tool_output *o, double interval, long count)
{
	struct sample a = {}, b = {};
	int ret = EXIT_OK;

	if (sample_read(t, &a) < 0)
		return EXIT_FAIL;
	for (long i = 0; count < 0 || i < count; i++) {
		struct timespec ts = { (time_t)interval,
				       (long)((interval - (time_t)interval) * 1e9) };

		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		if (sample_read(t, &b) < 0) {
			ret = EXIT_FAIL;
			break;
		}
		if (i > 0 && o->format != 'J')
			printf("\n");
		if (print_rates(t, o, &a, &b) < 0) {
			errmsg("out of memory");
			ret = EXIT_FAIL;
			break;
		}
		sample_free(&a);
		a = b;
		b = (struct sample){};
	}
	sample_free(&a);
	sample_free(&b);
	return ret;
}

int cmd_diskstats(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		GLOBAL_LONG_OPTS,
		{ "watch", required_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'J' },
		{ "pairs", no_argument, NULL, 'P' },
		{ "raw", no_argument, NULL, 'r' },
		{ "noheadings", no_argument, NULL, 'N' },
		{},
	};
	/* The fields of a line, as Documentation/admin-guide/iostats.rst names them. */
	static const char *const cols[] = {
		"MAJOR",
		"MINOR",
		"NAME",
		"READS",
		"READS_MERGED",
		"SECTORS_READ",
		"READ_MS",
		"WRITES",
		"WRITES_MERGED",
		"SECTORS_WRITTEN",
		"WRITE_MS",
		"IOS_IN_PROGRESS",
		"IO_MS",
		"WEIGHTED_IO_MS",
		"DISCARDS",
		"DISCARDS_MERGED",
		"SECTORS_DISCARDED",
		"DISCARD_MS",
		"FLUSHES",
		"FLUSH_MS",
	};
	_cleanup_free_ char *buf = NULL;
	struct tool_output o = {};
	double interval = 0;
	long count = -1;
	struct field f;
	char *end;
	size_t len, nfields;
	static const tool_excl_t excl[] = { TOOL_OUTPUT_EXCL, {} };
	int excl_seen[ARRAY_SIZE(excl)] = {};
	int c, r;

	/* -n is the count, as it always was here: --noheadings has no short form. */
	while ((c = getopt_long(argc, argv, GLOBAL_SHORT_OPTS "w:n:JPr", opts, NULL)) != -1) {
		r = tool_exclusive(t, c, opts, excl, excl_seen);
		if (r >= 0)
			return r;
		switch (c) {
		case 'w':
			errno = 0;
			interval = strtod(optarg, &end);
			if (errno || *end || !(interval > 0) || interval > 86400)
				return usage_error(argv[0], "invalid interval '%s'", optarg);
			break;
		case 'n':
		case 'C':
			errno = 0;
			count = strtol(optarg, &end, 10);
			if (errno || *end || count < 1)
				return usage_error(argv[0], "invalid count '%s'", optarg);
			break;
		case 'N':
			o.noheadings = true;
			break;
		default:
			r = tool_output_common_option(t, c, &o, diskstats_usage);
			if (r >= 0)
				return r;
		}
	}
	if (optind < argc)
		return usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
	if (count > 0 && interval == 0)
		return usage_error(argv[0], "--count needs --watch");
	if (tool_load(t, NEED_MAP_NAMES) < 0)
		return EXIT_FAIL;
	if (interval > 0)
		return watch(t, &o, interval, count);
	if (tool_read_file(t, DA_FILE_DISKSTATS, &buf, &len) < 0)
		return EXIT_FAIL;
	if (len > 0 && buf[len - 1] == '\n')
		len--;
	if (!o.format && !o.noheadings) {
		for_each_line(t, buf, len, 2, print_replaced, NULL);
		return EXIT_OK;
	}
	/* As many counters as this kernel writes (11, 15 or 17): the first line says. */
	for (nfields = 0;
	     nfields < ARRAY_SIZE(cols) && find_field(buf, strcspn(buf, "\n"), nfields, &f);)
		nfields++;
	return print_proc_table(t, &o, "diskstats", buf, len, cols, nfields, 2);
}
