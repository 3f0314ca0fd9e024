// SPDX-License-Identifier: GPL-2.0-or-later
/* diskalias partitions and diskstats: the kernel's /proc views with aliases. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool.h"

static const char partitions_usage[] =
	"Usage:\n"
	" diskalias partitions [--column]\n"
	"\n"
	"Print /proc/partitions with each device's name replaced by its alias, or with\n"
	"an added alias column.\n"
	"\n"
	"Options:\n"
	"     --column   keep the kernel names and add an \"alias\" column\n";

static const char diskstats_usage[] =
	"Usage:\n"
	" diskalias diskstats [-w <seconds> [-n <count>]]\n"
	"\n"
	"Print /proc/diskstats with each device's name replaced by its alias. With -w,\n"
	"show rates per disk every <seconds> instead, by alias, as iostat does.\n"
	"\n"
	"Options:\n"
	" -w, --watch <seconds>   interval (may be fractional)\n"
	" -n, --count <count>     stop after this many reports (default: never)\n";

/* One line of a /proc table: where its name field is. */
struct field {
	const char *line;	/* the line, not NUL-terminated */
	size_t len;
	size_t name, namelen;	/* the name field's offset and length */
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
			  void (*fn)(struct tool *t, const struct field *f, const char *name, void *data),
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
	printf("%.*s%s%.*s\n", (int)f->name, f->line, name,
	       (int)(f->len - f->name - f->namelen), f->line + f->name + f->namelen);
}

struct columns {
	int width;	/* up to the end of the name column */
	bool print;
};

/* First measure, then print: the lines up to the name padded, then the alias. */
static void print_column(struct tool *t, const struct field *f, const char *name, void *data)
{
	struct columns *c = data;
	int w = (int)(f->namelen ? f->name + f->namelen : f->len);

	if (!c->print) {
		if (w > c->width)
			c->width = w;
	} else if (f->namelen) {
		printf("%-*.*s  %s\n", c->width, w, f->line, name ? name : "-");
	} else if (f->len) {
		printf("%-*.*s  alias\n", c->width, w, f->line);
	} else {
		printf("\n");
	}
}

int cmd_partitions(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		GLOBAL_LONG_OPTS,
		{ "column", no_argument, NULL, 'C' },
		{},
	};
	_cleanup_free_ char *buf = NULL;
	struct columns cols = {};
	bool column = false;
	size_t len;
	int c, r;

	while ((c = getopt_long(argc, argv, GLOBAL_SHORT_OPTS, opts, NULL)) != -1) {
		if (c == 'C') {
			column = true;
			continue;
		}
		r = tool_common_option(t, c, partitions_usage);
		if (r >= 0)
			return r;
	}
	if (optind < argc)
		return usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
	if (tool_load(t, NEED_MAP_NAMES) < 0 || tool_read_file(t, DA_FILE_PARTITIONS, &buf, &len) < 0)
		return EXIT_FAIL;
	if (len > 0 && buf[len - 1] == '\n')
		len--;
	if (!column) {
		for_each_line(t, buf, len, 3, print_replaced, NULL);
		return EXIT_OK;
	}
	for_each_line(t, buf, len, 3, print_column, &cols);
	cols.print = true;
	for_each_line(t, buf, len, 3, print_column, &cols);
	return EXIT_OK;
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
		struct stat_line *v;

		if (sscanf(line, "%*u %*u %ms %llu %*u %llu %llu %llu %*u %llu %llu %*u %llu", &l.kname,
			   &l.rd, &l.rsect, &l.rticks, &l.wr, &l.wsect, &l.wticks, &l.ioticks) != 8) {
			free(l.kname);
			continue;
		}
		d = da_devlist_find_kname(t->list, l.kname);
		if (!d || da_device_devtype(d) != DA_DEV_DISK) {
			free(l.kname);
			continue;
		}
		v = realloc(s->v, (s->n + 1) * sizeof(*v));
		if (!v) {
			free(l.kname);
			errmsg("out of memory");
			return -1;
		}
		s->v = v;
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

/* One iostat-style report of what happened between @a and @b. */
static void print_rates(struct tool *t, const struct sample *a, const struct sample *b)
{
	double dt = b->when - a->when;

	if (dt <= 0)
		dt = 1e-9;
	printf("%-16s %9s %10s %8s %9s %10s %8s %7s\n", "Device", "r/s", "rkB/s", "r_await",
	       "w/s", "wkB/s", "w_await", "%util");
	for (size_t i = 0; i < b->n; i++) {
		const struct stat_line *y = &b->v[i], *x = sample_find(a, y->kname);
		const char *name = tool_name_of(t, y->kname);
		unsigned long long rd, wr;
		double util;

		if (!x)
			continue;
		/* io_ticks are milliseconds busy: per cent of the interval. */
		util = (y->ioticks - x->ioticks) / (dt * 10.0);
		rd = y->rd - x->rd;
		wr = y->wr - x->wr;
		printf("%-16s %9.2f %10.2f %8.2f %9.2f %10.2f %8.2f %7.2f\n", name ? name : y->kname,
		       rd / dt, (y->rsect - x->rsect) / 2.0 / dt,
		       rd ? (double)(y->rticks - x->rticks) / rd : 0.0, wr / dt,
		       (y->wsect - x->wsect) / 2.0 / dt,
		       wr ? (double)(y->wticks - x->wticks) / wr : 0.0,
		       util > 100.0 ? 100.0 : util);
	}
	fflush(stdout);
}

static int watch(struct tool *t, double interval, long count)
{
	struct sample a = {}, b = {};
	int ret = EXIT_OK;

	if (sample_read(t, &a) < 0)
		return EXIT_FAIL;
	for (long i = 0; count < 0 || i < count; i++) {
		struct timespec ts = { (time_t)interval, (long)((interval - (time_t)interval) * 1e9) };

		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		if (sample_read(t, &b) < 0) {
			ret = EXIT_FAIL;
			break;
		}
		if (i > 0)
			printf("\n");
		print_rates(t, &a, &b);
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
		{ "count", required_argument, NULL, 'n' },
		{},
	};
	_cleanup_free_ char *buf = NULL;
	double interval = 0;
	long count = -1;
	char *end;
	size_t len;
	int c, r;

	while ((c = getopt_long(argc, argv, GLOBAL_SHORT_OPTS "w:n:", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			errno = 0;
			interval = strtod(optarg, &end);
			if (errno || *end || !(interval > 0) || interval > 86400)
				return usage_error(argv[0], "invalid interval '%s'", optarg);
			continue;
		case 'n':
			errno = 0;
			count = strtol(optarg, &end, 10);
			if (errno || *end || count < 1)
				return usage_error(argv[0], "invalid count '%s'", optarg);
			continue;
		}
		r = tool_common_option(t, c, diskstats_usage);
		if (r >= 0)
			return r;
	}
	if (optind < argc)
		return usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
	if (count > 0 && interval == 0)
		return usage_error(argv[0], "--count needs --watch");
	if (tool_load(t, NEED_MAP_NAMES) < 0)
		return EXIT_FAIL;
	if (interval > 0)
		return watch(t, interval, count);
	if (tool_read_file(t, DA_FILE_DISKSTATS, &buf, &len) < 0)
		return EXIT_FAIL;
	if (len > 0 && buf[len - 1] == '\n')
		len--;
	for_each_line(t, buf, len, 2, print_replaced, NULL);
	return EXIT_OK;
}
