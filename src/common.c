// SPDX-License-Identifier: GPL-2.0-or-later
/* Loading the table and the devices, and saying what went wrong. */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>

#include "tool.h"

/*
 * Every message goes through here: text from the table or a device (a
 * serial with an escape sequence or a newline) must not reach the
 * terminal raw or forge a second line.
 */
static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
	_cleanup_free_ char *msg = xvasprintf(fmt, ap);
	_cleanup_free_ char *safe = msg ? str_escape(msg, strlen(msg), 0, false) : NULL;

	fprintf(stderr, "diskalias: %s%s\n", prefix, safe ? safe : "out of memory");
}

void errmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
}

void notemsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("note: ", fmt, ap);
	va_end(ap);
}

/* The hint after every usage error. */
static int usage_hint(const char *cmd)
{
	/* Commands may pass their argv[0], which reads "diskalias CMD". */
	if (cmd && strncmp(cmd, "diskalias ", 10) == 0)
		cmd += 10;
	fprintf(stderr, "Try 'diskalias %s%s--help' for more information.\n", cmd ? cmd : "",
		cmd ? " " : "");
	return EXIT_USAGE;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
	return usage_hint(cmd);
}

void print_diag(const struct da_diag *diag)
{
	for (size_t i = 0; diag && i < diag->n; i++) {
		const struct da_problem *p = &diag->v[i];

		if (p->file && p->line)
			errmsg("%s:%u: %s%s", p->file, p->line, p->warning ? "warning: " : "",
			       p->msg);
		else if (p->file)
			errmsg("%s: %s%s", p->file, p->warning ? "warning: " : "", p->msg);
		else
			errmsg("%s%s", p->warning ? "warning: " : "", p->msg);
	}
}

const char tool_global_help[] =
	" -c, --config <file>   alias table (default /etc/diskalias.conf, or $DISKALIAS_CONFIG)\n"
	"     --sysroot <dir>   read sys/, proc/, dev/, run/ under <dir> ($DISKALIAS_SYSROOT)\n"
	" -h, --help            display this help\n";

void tool_help(const char *usage)
{
	fputs(usage, stdout);
	printf("\nGlobal options:\n%s", tool_global_help);
}

int tool_common_option(struct tool *t, int c, const char *usage)
{
	switch (c) {
	case OPT_CONFIG:
		t->config = optarg;
		return -1;
	case OPT_SYSROOT:
		t->root = optarg;
		return -1;
	case 'h':
		tool_help(usage);
		return EXIT_OK;
	default:
		/* getopt printed what was wrong. */
		return usage_hint(t->cmd);
	}
}

/* "--NAME" of option character @c, or "-c" when it has no long form. */
static int add_option_name(struct strbuf *sb, const struct option *opts, int c)
{
	for (const struct option *o = opts; o->name; o++)
		if (o->val == c && !o->flag)
			return strbuf_addf(sb, "--%s", o->name);
	return strbuf_addf(sb, "-%c", c);
}

int tool_exclusive(struct tool *t, int c, const struct option *opts, const tool_excl_t *excl,
		   int *seen)
{
	for (size_t row = 0; excl[row][0]; row++) {
		struct strbuf names = STRBUF_INIT;
		size_t n = 0;
		bool in = false;

		while (n < TOOL_EXCL_MAX && excl[row][n])
			in |= excl[row][n++] == c;
		if (!in)
			continue;
		if (!seen[row] || seen[row] == c) {
			seen[row] = c;
			continue;
		}
		/* "--json, --pairs and --raw" */
		for (size_t k = 0; k < n; k++) {
			strbuf_addstr(&names, list_sep(k, n, " and "));
			add_option_name(&names, opts, excl[row][k]);
		}
		usage_error(t->cmd, "%s are mutually exclusive", names.buf ? names.buf : "options");
		strbuf_release(&names);
		return EXIT_USAGE;
	}
	return -1;
}

int tool_options(struct tool *t, int argc, char **argv, const char *usage)
{
	static const struct option opts[] = { GLOBAL_LONG_OPTS, {} };
	int c, r;

	while ((c = getopt_long(argc, argv, GLOBAL_SHORT_OPTS, opts, NULL)) != -1) {
		r = tool_common_option(t, c, usage);
		if (r >= 0)
			return r;
	}
	return -1;
}

static int load_ctx(struct tool *t)
{
	int r;

	if (t->ctx)
		return 0;
	r = da_ctx_new(t->root, &t->ctx);
	if (r < 0) {
		errmsg("%s: cannot use as root: %s", t->root ? t->root : "/", strerror(-r));
		return -1;
	}
	if (t->config) {
		/* A table named on the command line that is not there is a mistake, not an empty
		 * table. */
		if (!t->may_create && access(t->config, F_OK) < 0 && errno == ENOENT) {
			errmsg("%s: no such file", t->config);
			return -1;
		}
		t->table_path = strdup(t->config);
	} else if (getenv("DISKALIAS_CONFIG") && *getenv("DISKALIAS_CONFIG"))
		t->table_path = strdup(getenv("DISKALIAS_CONFIG"));
	else
		t->table_path = da_ctx_default_table(t->ctx);
	if (!t->table_path) {
		errmsg("out of memory");
		return -1;
	}
	return 0;
}

int tool_load(struct tool *t, unsigned int need)
{
	struct da_diag diag = {};
	bool quiet = need & NEED_QUIET;
	int r = 0;

	if (load_ctx(t) < 0)
		return -1;
	if ((need & NEED_TABLE) && !t->table) {
		da_diag_clear(&t->table_diag);
		r = (need & NEED_TABLE_INDEXED) == NEED_TABLE_INDEXED
			    ? da_table_load_indexed(t->ctx, t->table_path, t->list, DA_INDEX_WRITE,
						    &t->table_diag, &t->table)
			    : da_table_load(t->table_path, &t->table_diag, &t->table);
		if (r < 0 && !t->table_diag.n && !quiet)
			errmsg("%s: %s", t->table_path, strerror(-r));
		if (!quiet)
			print_diag(&t->table_diag);
		if (r >= 0)
			t->table_problems = da_diag_errors(&t->table_diag);
	}
	if (r >= 0 && (need & NEED_DEVICES) && !t->list) {
		r = (need & NEED_MAP_NAMES) == NEED_MAP_NAMES
			    ? da_devlist_scan_for(t->ctx, t->table, &diag, &t->list)
			    : da_devlist_scan_with(t->ctx, t->details ?: DA_SCAN_DETAILS, &diag,
						   &t->list);
		if (r < 0 && !diag.n && !quiet)
			errmsg("cannot read block devices: %s", strerror(-r));
	}
	if (r >= 0 && (need & NEED_MAP) == NEED_MAP && !t->map) {
		r = da_map_new(t->table, t->list, &t->map);
		if (r < 0 && !quiet)
			errmsg("%s", strerror(-r));
	}
	if (!quiet)
		print_diag(&diag);
	t->said += diag.n + ((need & NEED_TABLE) ? t->table_diag.n : 0);
	da_diag_clear(&diag);
	return r < 0 ? -1 : 0;
}

void tool_unload(struct tool *t)
{
	da_map_free(t->map);
	da_devlist_free(t->list);
	da_table_free(t->table);
	da_diag_clear(&t->table_diag);
	t->map = NULL;
	t->list = NULL;
	t->table = NULL;
}

void tool_done(struct tool *t)
{
	tool_unload(t);
	da_ctx_unref(t->ctx);
	free(t->table_path);
}

int tool_write_fd(void *userdata, const struct iovec *iov, int iovcnt)
{
	int fd = *(int *)userdata;
	size_t skip = 0; /* bytes of iov[0] written already */

	while (iovcnt > 0) {
		/* After a short write inside a piece, the rest of that piece on its own. */
		ssize_t n =
			skip ? write(fd, (const char *)iov->iov_base + skip, iov->iov_len - skip)
			     : writev(fd, iov, iovcnt);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		n += skip;
		while (iovcnt > 0 && (size_t)n >= iov->iov_len) {
			n -= iov->iov_len;
			iov++;
			iovcnt--;
		}
		skip = n;
	}
	return 0;
}

void tool_widen_pipe(int fd)
{
	/*
	 * A pipe holds 64 kB: a filter writing (or reading) a log through one
	 * takes turns with the other end that often. At 1 MB (pipe-max-size's
	 * default) the 200 MB bench log goes through `| cat` in 168 ms, not
	 * 203 ms. Nothing to do, and an error to ignore, when @fd is no pipe
	 * or the user's pipe memory is spent.
	 */
	fcntl(fd, F_SETPIPE_SZ, 1 << 20);
}

int tool_rewriter(struct tool *t, enum da_rewrite_mode mode, bool alone, int *fd,
		  struct da_rewriter **ret)
{
	bool kept_ok = alone && !t->list && !t->table;
	da_rewrite_write_fn write = fd ? tool_write_fd : NULL;
	int r;

	if (tool_load(t, 0) < 0)
		return -1;
	if (fd)
		tool_widen_pipe(*fd);
	r = kept_ok ? da_rewriter_open_kept(t->ctx, t->table_path, mode, write, fd, ret) : 0;
	if (r > 0)
		return 0;
	if (r == 0) {
		if (tool_load(t, NEED_MAP_NAMES) < 0)
			return -1;
		r = da_rewriter_new(t->map, mode, write, fd, ret);
	}
	if (r < 0) {
		errmsg("cannot build the rewriter: %s",
		       r == -E2BIG ? "more names, or longer, than it can hold" : strerror(-r));
		return -1;
	}
	if (kept_ok && !t->said)
		da_rewriter_keep(t->ctx, *ret);
	return 0;
}

size_t tool_name_count(const struct tool *t, const struct da_device *d)
{
	size_t n = 0;

	while (d && da_map_device_name(t->map, d, n))
		n++;
	return n;
}

const char *tool_name_of(const struct tool *t, const char *kname)
{
	const struct da_device *d = da_devlist_find_kname(t->list, kname);

	return d ? da_map_device_name(t->map, d, 0) : NULL;
}

int tool_read_file(struct tool *t, enum da_ctx_file file, char **ret_buf, size_t *ret_len)
{
	_cleanup_free_ char *path = NULL;
	int r;

	if (tool_load(t, 0) < 0)
		return -1;
	path = da_ctx_path(t->ctx, file);
	if (!path) {
		errmsg("out of memory");
		return -1;
	}
	r = read_file(path, ret_buf, ret_len);
	if (r < 0) {
		errmsg("%s: %s", path, strerror(-r));
		return -1;
	}
	return 0;
}

char *tool_matching_devices(const struct tool *t, enum da_id_kind kind, const char *value)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	for (size_t i = 0, n = 0; i < da_devlist_count(t->list); i++) {
		const struct da_device *d = da_devlist_get(t->list, i);

		if (da_device_has_identity(d, kind, value))
			fprintf(f, "%s%s", n++ ? ", " : "", da_device_kname(d));
	}
	return fclose(f) == 0 ? s : NULL;
}

int tool_output_common_option(struct tool *t, int c, struct tool_output *o, const char *usage)
{
	switch (c) {
	case 'J':
	case 'P':
	case 'r':
		o->format = c;
		return -1;
	case 'n':
		o->noheadings = true;
		return -1;
	default:
		return tool_common_option(t, c, usage);
	}
}

struct libscols_table *tool_table_new(const struct tool_output *o, const char *name)
{
	struct libscols_table *tb = scols_new_table();

	if (!tb)
		return NULL;
	scols_table_set_name(tb, name);
	scols_table_enable_noheadings(tb, o->noheadings);
	scols_table_enable_json(tb, o->format == 'J');
	scols_table_enable_export(tb, o->format == 'P');
	scols_table_enable_raw(tb, o->format == 'r');
	return tb;
}

/*
 * libsmartcols before 2.39 (Debian 12's 2.38) prints an array column with
 * no value as an array holding one null, and a table without lines as an
 * array of blank lines, where later versions print []: "[", a newline,
 * blanks, maybe "null" and blanks, "]". The same bytes from either: [].
 * JSON strings hold no raw newline, so this is never inside one. The
 * output is mended as it goes to standard output, not held whole: at
 * 30,000 devices it is 17 MB.
 */
struct json_mend {
	struct strbuf held; /* a "[" and what followed it, while it may be an empty array */
	int state;	    /* 0: none held; 1: "["; 2: and a newline, blanks; 3-6: "null" so far */
	bool failed;
	struct strbuf *to; /* where the mended JSON goes; NULL: standard output */
};

/* The blanks libsmartcols writes between JSON tokens. */
static bool json_blank(char c)
{
	return c == ' ' || c == '\n';
}

/* Mend byte @c of the JSON into @out. */
static int json_mend_byte(struct json_mend *m, struct strbuf *out, char c)
{
	bool blank = json_blank(c);
	int r;

	switch (m->state) {
	case 0:
		if (c != '[')
			return strbuf_add(out, &c, 1);
		m->state = 1;
		return strbuf_add(&m->held, &c, 1);
	case 1:
		if (c == '\n') {
			m->state = 2;
			return strbuf_add(&m->held, &c, 1);
		}
		break;
	case 2:
	case 6:
		if (blank)
			return strbuf_add(&m->held, &c, 1);
		if (c == ']') {
			strbuf_reset(&m->held);
			m->state = 0;
			return strbuf_addstr(out, "[]");
		}
		if (m->state == 2 && c == 'n') {
			m->state = 3;
			return strbuf_add(&m->held, &c, 1);
		}
		break;
	default:
		if (c == "null"[m->state - 2]) {
			m->state++;
			return strbuf_add(&m->held, &c, 1);
		}
		break;
	}
	/* No empty array: what was held goes out as it was, and @c is looked at afresh. */
	r = strbuf_add(out, m->held.buf, m->held.len);
	strbuf_reset(&m->held);
	m->state = 0;
	return r < 0 ? r : json_mend_byte(m, out, c);
}

/* @len mended bytes at @buf to where the JSON goes. */
static int json_mend_out(struct json_mend *m, const char *buf, size_t len)
{
	if (m->to)
		return strbuf_add(m->to, buf, len);
	return len && fwrite(buf, 1, len, stdout) != len ? -EIO : 0;
}

static ssize_t json_mend_write(void *cookie, const char *buf, size_t size)
{
	struct json_mend *m = cookie;
	struct strbuf out = STRBUF_INIT;
	int r = 0;

	for (size_t i = 0; r >= 0 && i < size; i++)
		r = json_mend_byte(m, &out, buf[i]);
	if (r >= 0)
		r = json_mend_out(m, out.buf, out.len);
	strbuf_release(&out);
	if (r < 0) {
		m->failed = true;
		return -1;
	}
	return size;
}

/* Print @tb, a JSON table, mended, to @to (NULL: standard output). */
static int json_print(struct libscols_table *tb, struct strbuf *to)
{
	static const cookie_io_functions_t mend = { .write = json_mend_write };
	struct json_mend m = { .held = STRBUF_INIT, .to = to };
	FILE *f;
	int r;

	f = fopencookie(&m, "w", mend);
	if (!f)
		return -ENOMEM;
	scols_table_set_stream(tb, f);
	r = scols_print_table(tb);
	scols_table_set_stream(tb, stdout);
	if (fclose(f) != 0 || m.failed || r < 0)
		r = -EIO;
	/* Held at the end: no empty array, as it was. */
	else
		r = json_mend_out(&m, m.held.buf, m.held.len);
	strbuf_release(&m.held);
	return r;
}

int tool_table_print(struct libscols_table *tb)
{
	if (!scols_table_is_json(tb))
		return scols_print_table(tb) < 0 ? -EIO : 0;
	return json_print(tb, NULL);
}

/*
 * A part's JSON is a whole document, {"name": [ELEMENT, ...]}. The first
 * part prints its opening, every part its elements, a comma between two
 * parts, and the end of the array and the object wait for the last.
 */
static int json_part(struct tool_table_parts *p, const struct strbuf *json)
{
	const char *s = json->buf, *end = s + json->len, *cut = end;

	while (cut > s && json_blank(cut[-1]))
		cut--;
	if (cut == s || *--cut != '}')
		return -EIO;
	while (cut > s && json_blank(cut[-1]))
		cut--;
	if (cut == s || *--cut != ']')
		return -EIO;
	while (cut > s && json_blank(cut[-1]))
		cut--;
	if (p->n) {
		s = memchr(s, '[', cut - s);
		if (!s)
			return -EIO;
		for (s++; s < cut && json_blank(*s); s++)
			;
		if (s < cut && putchar(',') == EOF)
			return -EIO;
	}
	strbuf_reset(&p->tail);
	if (strbuf_add(&p->tail, cut, end - cut) < 0)
		return -ENOMEM;
	return fwrite(s, 1, cut - s, stdout) != (size_t)(cut - s) ? -EIO : 0;
}

int tool_table_print_part(struct libscols_table *tb, struct tool_table_parts *p)
{
	struct strbuf json = STRBUF_INIT;
	int r;

	if (!scols_table_is_json(tb)) {
		/* The headings once, over the first part. */
		if (p->n)
			scols_table_enable_noheadings(tb, 1);
		r = scols_print_table(tb) < 0 ? -EIO : 0;
	} else {
		r = json_print(tb, &json);
		if (r >= 0)
			r = json_part(p, &json);
		strbuf_release(&json);
	}
	p->n++;
	return r;
}

int tool_table_parts_end(struct tool_table_parts *p)
{
	int r = 0;

	if (p->tail.len && fwrite(p->tail.buf, 1, p->tail.len, stdout) != p->tail.len)
		r = -EIO;
	strbuf_release(&p->tail);
	return r;
}

struct libscols_column *tool_table_column(struct libscols_table *tb, const char *name, double whint,
					  int flags, int json)
{
	struct libscols_column *cl = scols_table_new_column(tb, name, whint, flags);

	if (cl)
		scols_column_set_json_type(cl, json);
	return cl;
}

int tool_affected_dev(struct tool *t, const struct da_device *d, struct strv *knames)
{
	int r = 0;

	if (!d || strv_contains(knames, da_device_kname(d)))
		return 0;
	r = strv_push(knames, da_device_kname(d));
	/* A disk's partitions are named after it: they change with it. */
	for (size_t i = 0; r >= 0 && i < da_devlist_count(t->list); i++)
		if (da_device_parent(da_devlist_get(t->list, i)) == d)
			r = tool_affected_dev(t, da_devlist_get(t->list, i), knames);
	return r;
}

char *tool_table_file(const struct tool *t, const char *arg)
{
	_cleanup_free_ char *dir = NULL;

	if (strchr(arg, '/'))
		return strdup(arg);
	dir = da_table_dropin_dir(t->table_path);
	return dir ? xasprintf("%s/%s", dir, arg) : NULL;
}

int tool_affected(struct tool *t, const char *name, struct strv *knames)
{
	const struct da_alias *a;
	struct da_device *d = NULL;

	/* Best effort: without devices or a table there is nobody to tell. */
	if (tool_load(t, NEED_MAP | NEED_QUIET) < 0)
		return 0;
	a = da_table_find(t->table, name);
	if (!a || da_map_alias_state(t->map, da_alias_index(a), &d) != DA_ALIAS_PRESENT)
		return 0;
	return tool_affected_dev(t, d, knames);
}

void tool_notify(struct tool *t, const struct strv *knames)
{
	_cleanup_free_ char *control = NULL;

	if (!knames->n)
		return;
	if (!da_udev_running(t->ctx)) {
		control = da_ctx_path(t->ctx, DA_FILE_UDEV_CONTROL);
		notemsg("udev is not running here (no %s); run 'diskalias apply' to update /dev/disk/by-alias",
			control ? control : "");
		return;
	}
	for (size_t i = 0; i < knames->n; i++) {
		int r = da_udev_trigger(t->ctx, knames->v[i], "change");

		if (r < 0)
			errmsg("%s: cannot ask udev to rename its links: %s", knames->v[i],
			       strerror(-r));
	}
}

/* Sizes as lsblk prints them: powers of 1024, one rounded decimal, "3.6T". */
char *tool_human_size(uint64_t bytes)
{
	static const char letters[] = "BKMGTPE";
	uint64_t frac = 0, dec = bytes;
	int exp;

	for (exp = 10; exp <= 60; exp += 10)
		if (bytes < (1ULL << exp))
			break;
	exp -= 10;
	if (exp) {
		dec = bytes >> exp;
		frac = bytes & ((1ULL << exp) - 1);
		frac = frac >= UINT64_MAX / 1000 ? ((frac / 1024) * 1000) / (1ULL << (exp - 10))
						 : (frac * 1000) / (1ULL << exp);
		frac = (frac + 50) / 100;
		if (frac == 10) {
			dec++;
			frac = 0;
		}
	}
	if (frac)
		return xasprintf("%" PRIu64 ".%" PRIu64 "%c", dec, frac, letters[exp / 10]);
	return xasprintf("%" PRIu64 "%c", dec, letters[exp / 10]);
}
