// SPDX-License-Identifier: GPL-2.0-or-later
/* diskalias dmesg: the kernel log with aliases, from /dev/kmsg or a saved log. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "history.h"
#include "jsonw.h"
#include "tool.h"

/* How the udev helper's lines naming a disk begin. */
#define OWN_PREFIX "diskalias: "

/* Larger than any record /dev/kmsg returns (text and metadata). */
#define RECORD_MAX (16 * 1024)

static const char dmesg_usage[] =
	"Usage:\n"
	" diskalias dmesg [options]\n"
	"\n"
	"Print the kernel log with kernel names replaced by aliases. A record's DEVICE=\n"
	"metadata names its disk even when its text does not.\n"
	"\n"
	"Options:\n"
	" -w, --follow          wait for new messages\n"
	" -T, --ctime           human-readable timestamps\n"
	" -l, --level <list>    only these levels (emerg,alert,crit,err,warn,notice,info,debug)\n"
	" -J, --json            JSON, as util-linux dmesg -J (with -w: a record a line)\n"
	" -F, --file <file>     read a saved log ('-': standard input): /dev/kmsg records,\n"
	"                       or plain lines, which are only filtered; a log that\n"
	"                       carries mapping records (\"diskalias: sdc is bay07\") is\n"
	"                       named by them, boot by boot, not by today's table\n";

static const char *const levels[] = { "emerg", "alert",	 "crit", "err",
				      "warn",  "notice", "info", "debug" };
static const char *const facilities[] = {
	"kern",	  "user",   "mail",	"daemon", "auth",   "syslog", "lpr",	"news",
	"uucp",	  "cron",   "authpriv", "ftp",	  "res0",   "res1",   "res2",	"res3",
	"local0", "local1", "local2",	"local3", "local4", "local5", "local6", "local7",
};

struct dmesg {
	struct tool *t;
	struct da_rewriter *rw;
	unsigned int levels; /* bit per level shown */
	bool json, ctime;
	double boot; /* wall-clock time of boot, for -T */
	struct jsonw json_out;
	unsigned long line;	   /* of a saved log, for messages */
	const char *what;	   /* the saved log's name */
	struct history_walk *walk; /* a saved log named by its own records, or NULL */
	size_t off;		   /* where the record being printed starts in the saved log */
};

/* The rewriter for the record being printed; NULL when no names are in force there. */
static struct da_rewriter *rewriter(struct dmesg *m, int *ret)
{
	*ret = m->walk ? history_walk_to(m->walk, m->off) : 0;
	return m->walk ? m->walk->rw : m->rw;
}

/* A line that ties two names ("diskalias: sdc is bay07"), printed as it is. */
static bool keep_as_is(struct dmesg *m, const char *text)
{
	return strncmp(text, OWN_PREFIX, strlen(OWN_PREFIX)) == 0 ||
	       (m->walk && history_record_at(m->walk, m->off));
}

/* @len bytes of @s rewritten by @rw (NULL: copied). Returns the names rewritten or -errno. */
static int rewrite(struct da_rewriter *rw, const char *s, size_t len, char **ret, size_t *ret_len)
{
	if (rw)
		return da_rewrite_buf(rw, s, len, ret, ret_len);
	*ret = strndup(s, len);
	*ret_len = len;
	return *ret ? 0 : -ENOMEM;
}

static int parse_levels(const char *list, unsigned int *ret)
{
	_cleanup_free_ char *copy = strdup(list);
	char *tok, *save = NULL;
	unsigned int mask = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(levels); i++)
			if (streq(tok, levels[i]) || (tok[0] == '0' + (int)i && !tok[1]))
				break;
		if (i == ARRAY_SIZE(levels))
			return -EINVAL;
		mask |= 1u << i;
	}
	if (!mask)
		return -EINVAL;
	*ret = mask;
	return 0;
}

/* @len bytes as dmesg shows text: control bytes and invalid UTF-8 as \xNN. */
static void print_escaped(const char *s, size_t len)
{
	_cleanup_free_ char *safe = str_escape(s, len, 0, false);

	fputs(safe ? safe : "", stdout);
}

static void print_time(const struct dmesg *m, uint64_t usec)
{
	char buf[64];
	time_t when;
	struct tm tm;

	if (!m->ctime) {
		printf("[%5llu.%06llu] ", (unsigned long long)(usec / 1000000),
		       (unsigned long long)(usec % 1000000));
		return;
	}
	when = (time_t)(m->boot + usec / 1e6);
	if (localtime_r(&when, &tm) && strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", &tm))
		printf("[%s] ", buf);
}

/* One record, its text rewritten; the alias of its DEVICE= said when the text does not. */
static int print_record(struct dmesg *m, const struct da_kmsg *rec)
{
	/* A saved log named by its own records: today's devices say nothing of it. */
	const struct da_device *d = m->walk ? NULL : da_kmsg_device(m->t->list, rec->device);
	const char *name = d ? da_map_device_name(m->t->map, d, 0) : NULL;
	const char *kname = d ? da_device_kname(d) : NULL;
	_cleanup_free_ char *text = NULL;
	struct da_rewriter *rw;
	size_t len;
	int n;

	if (!(m->levels & (1u << rec->level)))
		return 0;
	rw = rewriter(m, &n);
	if (n < 0)
		return n;
	if (m->walk)
		name = history_device_name(m->walk, rec->device, &kname);
	/* diskalias's own "sdc is bay07" lines tie the two names: keep both. */
	if (keep_as_is(m, rec->text)) {
		text = strdup(rec->text);
		len = rec->text_len;
		n = 1;
		if (!text)
			return -ENOMEM;
	} else {
		n = rewrite(rw, rec->text, rec->text_len, &text, &len);
		if (n < 0)
			return n;
	}
	if (m->json) {
		struct jsonw *w = &m->json_out;

		/* util-linux dmesg -J's keys (pri, time, msg), then what only we know. */
		jsonw_open_object(w);
		jsonw_key(w, "pri");
		jsonw_uint(w, rec->facility << 3 | rec->level);
		jsonw_key(w, "time");
		jsonw_usec(w, rec->usec);
		jsonw_key(w, "msg");
		jsonw_string(w, text, len);
		jsonw_key(w, "facility");
		jsonw_string(w,
			     rec->facility < ARRAY_SIZE(facilities) ? facilities[rec->facility]
								    : "unknown",
			     rec->facility < ARRAY_SIZE(facilities)
				     ? strlen(facilities[rec->facility])
				     : 7);
		jsonw_key(w, "level");
		jsonw_string(w, levels[rec->level], strlen(levels[rec->level]));
		jsonw_key(w, "seq");
		jsonw_uint(w, rec->seq);
		if (rec->subsystem) {
			jsonw_key(w, "subsystem");
			jsonw_string(w, rec->subsystem, strlen(rec->subsystem));
		}
		if (rec->device) {
			jsonw_key(w, "device");
			jsonw_string(w, rec->device, strlen(rec->device));
		}
		if (kname) {
			jsonw_key(w, "kname");
			jsonw_string(w, kname, strlen(kname));
		}
		if (name) {
			jsonw_key(w, "alias");
			jsonw_string(w, name, strlen(name));
		}
		jsonw_close_object(w);
	} else {
		/* A message of several lines: each printed as a line of its own, as dmesg does. */
		for (size_t i = 0; i <= len;) {
			const char *nl = memchr(text + i, '\n', len - i);
			size_t n_line = nl ? (size_t)(nl - text) - i : len - i;

			print_time(m, rec->usec);
			/* The kernel names its disk only in metadata: say which disk it is. */
			if (name && n == 0 && i == 0)
				printf("%s: ", name);
			print_escaped(text + i, n_line);
			putchar('\n');
			i += n_line + 1;
		}
	}
	return 0;
}

/*
 * The level of a plain line of a saved log, from a "<N>" prefix as
 * dmesg -r and syslog write it (moved past in *@text), or -1 without one.
 */
static int plain_level(const char **text, size_t *len)
{
	const char *s = *text;
	size_t i = 1;
	unsigned int pri = 0;

	if (*len < 3 || s[0] != '<')
		return -1;
	while (i < *len && i < 5 && s[i] >= '0' && s[i] <= '9')
		pri = pri * 10 + (s[i++] - '0');
	if (i == 1 || i >= *len || s[i] != '>')
		return -1;
	*text += i + 1;
	*len -= i + 1;
	return pri & 7;
}

/* A line of a saved log that is not a /dev/kmsg record: filtered as it is. */
static int handle_plain(struct dmesg *m, const char *buf, size_t len)
{
	_cleanup_free_ char *text = NULL;
	const char *body = buf;
	size_t blen = len;
	int level = plain_level(&body, &blen), r;

	if (m->levels != 0xff && level < 0) {
		errmsg("%s:%lu: no priority to filter by (--level needs /dev/kmsg records or lines with a <N> prefix, as dmesg -r writes them)",
		       m->what, m->line);
		return -EINVAL;
	}
	struct da_rewriter *rw;

	if (level >= 0 && !(m->levels & (1u << level)))
		return 0;
	rw = rewriter(m, &r);
	if (r < 0)
		return r;
	r = m->walk && history_record_at(m->walk, m->off) ? rewrite(NULL, buf, len, &text, &len)
							  : rewrite(rw, buf, len, &text, &len);
	if (r < 0)
		return r;
	if (len > 0 && text[len - 1] == '\n')
		len--;
	if (!m->json) {
		print_escaped(text, len);
		putchar('\n');
		return 0;
	}
	jsonw_open_object(&m->json_out);
	if (level >= 0) {
		jsonw_key(&m->json_out, "pri");
		jsonw_uint(&m->json_out, level);
	}
	jsonw_key(&m->json_out, "msg");
	jsonw_string(&m->json_out, text, len);
	jsonw_close_object(&m->json_out);
	return 0;
}

static int handle_record(struct dmesg *m, const char *buf, size_t len)
{
	struct da_kmsg rec;
	int r = da_kmsg_parse(buf, len, &rec);

	if (r == -EINVAL)
		return handle_plain(m, buf, len);
	if (r < 0)
		return r;
	r = print_record(m, &rec);
	da_kmsg_clear(&rec);
	return r;
}

/* A saved stream: a record is its first line and the " KEY=value" lines after it. */
static int read_stream(struct dmesg *m, FILE *f, const char *what)
{
	_cleanup_free_ char *line = NULL;
	struct strbuf rec = STRBUF_INIT;
	size_t size = 0, off = 0;
	ssize_t n;
	int r = 0;

	m->what = what;
	while (r >= 0) {
		n = getline(&line, &size, f);
		m->line++;
		if (n > 0 && line[0] == ' ' && rec.len > 0) {
			/* Metadata of the record gathered so far. */
		} else if (rec.len > 0) {
			r = handle_record(m, rec.buf, rec.len);
			strbuf_reset(&rec);
			fflush(stdout);
		}
		if (n <= 0 || r < 0)
			break;
		if (!rec.len)
			m->off = off;
		off += n;
		r = strbuf_add(&rec, line, n);
		/* Plain lines are handled one by one, records when the next line starts. */
		if (r >= 0 && !da_kmsg_is_record(rec.buf, rec.len)) {
			r = handle_record(m, rec.buf, rec.len);
			strbuf_reset(&rec);
		}
	}
	strbuf_release(&rec);
	if (r >= 0 && ferror(f))
		r = -errno;
	/* -EINVAL: the line was named already. */
	if (r < 0 && r != -EPIPE && r != -EINVAL)
		errmsg("%s: %s", what, strerror(-r));
	return r < 0 ? -1 : 0;
}

/* /dev/kmsg itself: each read() returns one whole record. */
/*
 * A saved log, read whole: when it carries mapping records, each boot of it
 * is named by its own (history.c), else by today's table.
 */
static int read_saved(struct dmesg *m, const char *file)
{
	const char *what = streq(file, "-") ? "standard input" : file;
	_cleanup_free_ char *text = NULL;
	struct history_walk walk;
	struct history h;
	size_t len;
	FILE *f;
	int r;

	r = streq(file, "-") ? read_fd(STDIN_FILENO, &text, &len) : read_file(file, &text, &len);
	if (r < 0) {
		errmsg("%s: %s", what, strerror(-r));
		return -1;
	}
	if (!len)
		return 0;
	r = history_scan(&h, text, len);
	if (r < 0) {
		errmsg("out of memory");
		return -1;
	}
	history_walk_init(&walk, &h, DA_REWRITE_ALIAS, NULL, NULL);
	m->walk = h.nrecs ? &walk : NULL;
	f = fmemopen(text, len, "r");
	r = f ? read_stream(m, f, what) : -1;
	if (f)
		fclose(f);
	else
		errmsg("%s: %s", what, strerror(errno));
	m->walk = NULL;
	history_walk_done(&walk);
	history_free(&h);
	return r;
}

static int read_kmsg(struct dmesg *m, int fd, const char *path, bool follow)
{
	_cleanup_free_ char *buf = malloc(RECORD_MAX);

	if (!buf) {
		errmsg("out of memory");
		return -1;
	}
	if (follow && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		errmsg("%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		ssize_t n = read(fd, buf, RECORD_MAX);
		int r;

		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue; /* EPIPE: older records were overwritten; go on */
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0) {
			errmsg("%s: %s", path, strerror(errno));
			return -1;
		}
		if (n == 0)
			return 0;
		r = handle_record(m, buf, n);
		if (r < 0) {
			errmsg("%s", strerror(-r));
			return -1;
		}
		if (follow)
			fflush(stdout);
	}
}

/* The wall-clock time the machine booted, from its uptime. */
static int boot_time(struct tool *t, double *ret)
{
	_cleanup_free_ char *buf = NULL;
	struct timespec ts;
	double up;

	if (tool_read_file(t, DA_FILE_UPTIME, &buf, NULL) < 0)
		return -1;
	if (sscanf(buf, "%lf", &up) != 1) {
		errmsg("cannot read the uptime");
		return -1;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	*ret = ts.tv_sec + ts.tv_nsec / 1e9 - up;
	return 0;
}

static int open_kmsg(struct tool *t, bool follow, char **ret_path)
{
	char *path = da_ctx_path(t->ctx, DA_FILE_KMSG);
	int fd;

	if (!path) {
		errmsg("out of memory");
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;

		if (e == EPERM || e == EACCES)
			errmsg("cannot read the kernel log (%s): %s; reading it needs root or "
			       "CAP_SYSLOG while kernel.dmesg_restrict is 1",
			       path, strerror(e));
		else
			errmsg("%s: %s", path, strerror(e));
		free(path);
		return -1;
	}
	*ret_path = path;
	return fd;
}

int cmd_dmesg(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		GLOBAL_LONG_OPTS,
		{ "follow", no_argument, NULL, 'w' },
		{ "ctime", no_argument, NULL, 'T' },
		{ "level", required_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'J' },
		{ "file", required_argument, NULL, 'F' },
		{},
	};
	struct dmesg m = { .t = t, .levels = 0xff, .what = "the kernel log" };
	_cleanup_free_ char *path = NULL;
	const char *file = NULL;
	int out = STDOUT_FILENO, c, r, fd;
	bool follow = false;
	struct stat st;

	while ((c = getopt_long(argc, argv, GLOBAL_SHORT_OPTS "wTl:JF:", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			follow = true;
			break;
		case 'T':
			m.ctime = true;
			break;
		case 'J':
			m.json = true;
			break;
		case 'F':
			file = optarg;
			break;
		case 'l':
			if (parse_levels(optarg, &m.levels) < 0)
				return usage_error(argv[0], "unknown level in '%s'", optarg);
			break;
		default:
			r = tool_common_option(t, c, dmesg_usage);
			if (r >= 0)
				return r;
		}
	}
	if (optind < argc)
		return usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
	if (file && follow)
		return usage_error(argv[0], "--follow reads the kernel's log, not a file");
	/* A saved log does not say when its machine booted: -T would be a guess. */
	if (file && m.ctime)
		return usage_error(
			argv[0],
			"--ctime needs the boot time of the machine that wrote the log, which a saved log does not carry");
	if (tool_rewriter(t, DA_REWRITE_ALIAS, false, &out, &m.rw) < 0)
		return EXIT_FAIL;
	r = -1;
	if (m.ctime && boot_time(t, &m.boot) < 0)
		goto out;
	/*
	 * JSON as util-linux dmesg -J prints it: one object, the records in
	 * its "dmesg" array. Following, a record a line, each whole when it
	 * is printed (JSON Lines): the array would never close.
	 */
	jsonw_init(&m.json_out, stdout, !follow);
	if (m.json && !follow) {
		jsonw_open_object(&m.json_out);
		jsonw_key(&m.json_out, "dmesg");
		jsonw_open_array(&m.json_out);
	}
	if (file) {
		r = read_saved(&m, file);
		goto out;
	}
	fd = open_kmsg(t, follow, &path);
	if (fd < 0)
		goto out;
	/* A sysroot may hold a saved record stream in place of the device. */
	if (fstat(fd, &st) == 0 && !S_ISCHR(st.st_mode)) {
		FILE *f = fdopen(fd, "r");

		r = f ? read_stream(&m, f, path) : -1;
		if (f)
			fclose(f);
		else
			close(fd);
	} else {
		r = read_kmsg(&m, fd, path, follow);
		close(fd);
	}
out:
	if (m.json && !follow) {
		jsonw_close_array(&m.json_out);
		jsonw_close_object(&m.json_out);
	}
	da_rewriter_free(m.rw);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}
