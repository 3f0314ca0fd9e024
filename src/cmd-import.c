// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * diskalias import: the names an admin already has, from OpenZFS's
 * vdev_id.conf (alias NAME LINK) and multipath's bindings and
 * multipath.conf (an alias per WWID), as table lines. What cannot be
 * translated is listed with its file and line, never dropped.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "tool.h"

static const char import_usage[] =
	"Usage:\n"
	" diskalias import [options] vdev_id [<file>]\n"
	" diskalias import [options] multipath [<file>...]\n"
	"\n"
	"Translate the names of another tool into table lines: the alias lines of\n"
	"OpenZFS's vdev_id.conf (default /etc/zfs/vdev_id.conf; a by-id, by-path or\n"
	"other /dev/disk link becomes the identity of that kind), or multipath's\n"
	"bindings and multipath.conf aliases (default /etc/multipath/bindings and\n"
	"/etc/multipath.conf; a WWID becomes the map's dm-uuid-mpath- link).\n"
	"Print the lines, or add them to the table with --write. Every line that\n"
	"cannot be translated is listed with its file and line; the exit status is\n"
	"then 1.\n"
	"\n"
	"Options:\n"
	"     --write       add the lines to the table (in one locked edit)\n"
	"     --file <file> with --write, add them to this drop-in instead (NAME.conf:\n"
	"                   one in the table's NAME.d directory)\n";

struct source {
	const char *file;
	unsigned int line;
};

struct import {
	struct tool *t;
	struct da_table *lines; /* what was translated, as a table of its own */
	struct source *src;	/* where line i + 1 of it came from */
	const char *target;	/* the file --write writes */
	size_t skipped, written;
};

static void skip(struct import *im, const char *file, unsigned int line, const char *fmt, ...)
	_printf_(4, 5);
static void skip(struct import *im, const char *file, unsigned int line, const char *fmt, ...)
{
	_cleanup_free_ char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	errmsg("%s:%u: not imported: %s", file, line, msg ? msg : "out of memory");
	im->skipped++;
}

/*
 * A conflict message of the table of what was imported, its "(line N)"
 * (a line of that table) made the file and line the alias came from.
 */
static void skip_conflict(struct import *im, const char *file, unsigned int line, const char *msg)
{
	const char *at = strstr(msg, "(line ");
	unsigned int n;

	if (at && sscanf(at, "(line %u)", &n) == 1 && n >= 1 && n <= da_table_count(im->lines))
		skip(im, file, line, "%.*s(%s:%u)%s", (int)(at - msg), msg, im->src[n - 1].file,
		     im->src[n - 1].line, strchr(at, ')') + 1);
	else
		skip(im, file, line, "%s", msg);
}

/* Why a file to import cannot be read. */
static const char *source_error(int r)
{
	if (r == -EINVAL)
		return "not a regular file";
	if (r == -EILSEQ)
		return "not a text file (it holds a NUL byte)";
	return strerror(-r);
}

/* Add NAME bound to KIND:VALUE, or say why not. */
static void add(struct import *im, const char *file, unsigned int line, const char *name,
		enum da_id_kind kind, const char *value)
{
	size_t n = da_table_count(im->lines);
	struct da_diag diag = {};
	const char *reason;

	if (da_name_check(name, &reason) < 0)
		skip(im, file, line, "'%s' is no alias name: %s", name, reason);
	else if (da_identity_check(kind, value, &reason) < 0)
		skip(im, file, line, "%s:%s: %s", da_id_kind_name(kind), value, reason);
	else if (ARRAY_GROW(im->src, n) < 0)
		skip(im, file, line, "out of memory");
	else if (da_table_add(im->lines, name, kind, value, &diag) < 0)
		skip_conflict(im, file, line, diag.n ? diag.v[0].msg : "out of memory");
	else
		im->src[n] = (struct source){ file, line };
	da_diag_clear(&diag);
}

/* udev's by-path names start with the bus of the controller; by-id names never do. */
static bool looks_like_path(const char *name)
{
	static const char *const buses[] = { "pci-", "platform-", "acpi-", "ccw-", "xen-",
					     "ip-",  "fc-",	  "sas-",  "ap-",  "scm-" };

	for (size_t i = 0; i < ARRAY_SIZE(buses); i++)
		if (strncmp(name, buses[i], strlen(buses[i])) == 0)
			return true;
	return false;
}

/* vdev_id's "alias NAME LINK": LINK a /dev/disk link, or its last component. */
static void vdev_alias(struct import *im, const char *file, unsigned int line, const char *name,
		       const char *link)
{
	enum da_id_kind kind = DA_ID_INVALID, found = DA_ID_INVALID;
	_cleanup_free_ char *value = NULL;
	size_t nfound = 0;

	if (strncmp(link, "/dev/disk/", 10) == 0) {
		const char *dir = link + 10, *slash = strchr(dir, '/');

		if (slash && !strchr(slash + 1, '/'))
			kind = da_id_kind_from_dir(dir, slash - dir);
		if (kind == DA_ID_INVALID) {
			skip(im, file, line, "%s is no /dev/disk/by-KIND link diskalias knows",
			     link);
			return;
		}
		link = slash + 1;
	} else if (strchr(link, '/')) {
		skip(im, file, line,
		     "%s names a device node, which moves: bind it by a /dev/disk link", link);
		return;
	} else {
		/* A bare name matches a link of that name in any directory: the one present. */
		for (int k = 0; k < _DA_ID_MAX; k++) {
			_cleanup_free_ char *p = NULL;

			if (!da_id_kind_dir(k))
				continue;
			p = xasprintf("/dev/disk/%s/%s", da_id_kind_dir(k), link);
			if (p && da_devlist_find_link(im->t->list, p))
				found = nfound++ ? found : (enum da_id_kind)k;
		}
		if (nfound > 1) {
			skip(im, file, line, "%s is a link in more than one /dev/disk directory",
			     link);
			return;
		}
		kind = nfound ? found : looks_like_path(link) ? DA_ID_PATH : DA_ID_ID;
		if (!nfound && da_identity_check(kind, link, NULL) == 0)
			notemsg("%s:%u: %s is not present: taken as a %s link", file, line, link,
				da_id_kind_dir(kind));
	}
	value = da_id_value_from_link(kind, link);
	if (value)
		add(im, file, line, name, kind, value);
}

static int import_vdev_id(struct import *im, const char *file)
{
	_cleanup_free_ char *buf = NULL;
	char *line, *next;
	unsigned int nr = 0;
	int r = read_text_file(file, &buf, NULL);

	if (r < 0) {
		errmsg("%s: %s", file, source_error(r));
		return -1;
	}
	for (line = buf; line; line = next) {
		char *f[3] = {}, *save = NULL;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		nr++;
		*strchrnul(line, '#') = '\0';
		f[0] = strtok_r(line, " \t", &save);
		if (!f[0])
			continue;
		f[1] = strtok_r(NULL, " \t", &save);
		f[2] = strtok_r(NULL, " \t", &save);
		if (strcmp(f[0], "alias") != 0)
			skip(im, file, nr,
			     "'%s' (vdev_id's topology rules name bays by their SAS path: bind each with set --by path)",
			     f[0]);
		else if (!f[2])
			skip(im, file, nr, "an alias line needs a name and a link");
		else
			vdev_alias(im, file, nr, f[1], f[2]);
	}
	return 0;
}

/* multipath's alias for @wwid: the map's by-id link, which udev makes from its dm UUID. */
static void mpath_alias(struct import *im, const char *file, unsigned int line, const char *name,
			const char *wwid)
{
	_cleanup_free_ char *value = xasprintf("dm-uuid-mpath-%s", wwid);

	if (value)
		add(im, file, line, name, DA_ID_ID, value);
}

/* /etc/multipath/bindings: "ALIAS WWID" a line. */
static int import_bindings(struct import *im, const char *file, char *buf)
{
	unsigned int nr = 0;

	for (char *line = buf, *next; line; line = next) {
		char *f[3], *save = NULL;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		nr++;
		*strchrnul(line, '#') = '\0';
		f[0] = strtok_r(line, " \t", &save);
		f[1] = strtok_r(NULL, " \t", &save);
		f[2] = strtok_r(NULL, " \t", &save);
		if (!f[0])
			continue;
		if (!f[1] || f[2])
			skip(im, file, nr, "a binding is an alias and a WWID");
		else
			mpath_alias(im, file, nr, f[0], f[1]);
	}
	return 0;
}

/* A word of multipath.conf: bare, or in double quotes. */
static char *conf_word(char **p)
{
	char *s = *p + strspn(*p, " \t"), *end;

	if (*s == '"') {
		end = strchr(++s, '"');
		if (!end)
			end = s + strlen(s);
	} else {
		end = s + strcspn(s, " \t");
	}
	*p = *end ? end + 1 : end;
	*end = '\0';
	return *s || **p ? s : NULL;
}

/* multipath.conf: the wwid and alias of each "multipath { }" inside "multipaths { }". */
static int import_multipath_conf(struct import *im, const char *file, char *buf)
{
	_cleanup_free_ char *wwid = NULL, *alias = NULL;
	unsigned int nr = 0, start = 0, depth = 0;
	bool in_multipaths = false, in_multipath = false;

	for (char *line = buf, *next; line; line = next) {
		char *p, *key, *val;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		nr++;
		*strchrnul(line, '#') = '\0';
		*strchrnul(line, '!') = '\0';
		p = line;
		key = conf_word(&p);
		if (!key || !*key)
			continue;
		val = conf_word(&p);
		if (streq(key, "}")) {
			if (in_multipath && depth == 2) {
				if (wwid && alias)
					mpath_alias(im, file, start, alias, wwid);
				else if (alias || wwid)
					skip(im, file, start,
					     "a multipath section needs both wwid and alias");
				free(wwid);
				free(alias);
				wwid = alias = NULL;
				in_multipath = false;
			} else if (in_multipaths && depth == 1) {
				in_multipaths = false;
			}
			depth -= depth > 0;
			continue;
		}
		if (val && streq(val, "{")) {
			depth++;
			if (depth == 1 && streq(key, "multipaths"))
				in_multipaths = true;
			if (depth == 2 && in_multipaths && streq(key, "multipath")) {
				in_multipath = true;
				start = nr;
			}
			continue;
		}
		if (in_multipath && depth == 2 && val && streq(key, "wwid"))
			free(wwid), wwid = strdup(val);
		if (in_multipath && depth == 2 && val && streq(key, "alias"))
			free(alias), alias = strdup(val);
	}
	return 0;
}

static int import_multipath(struct import *im, char **files, int nfiles)
{
	_cleanup_free_ char *bindings = NULL, *conf = NULL;
	char *defaults[2];
	int ret = 0;

	if (nfiles == 0) {
		bindings = da_ctx_path(im->t->ctx, DA_FILE_MULTIPATH_BINDINGS);
		conf = da_ctx_path(im->t->ctx, DA_FILE_MULTIPATH_CONF);
		if (!bindings || !conf)
			return -1;
		defaults[0] = bindings;
		defaults[1] = conf;
		files = defaults;
		nfiles = 2;
	}
	for (int i = 0; i < nfiles; i++) {
		_cleanup_free_ char *buf = NULL;
		int r = read_text_file(files[i], &buf, NULL);

		/* Of the two default files a machine may have either. */
		if (r == -ENOENT && files == defaults)
			continue;
		if (r < 0) {
			errmsg("%s: %s", files[i], source_error(r));
			ret = -1;
			continue;
		}
		/* multipath.conf has sections; a bindings file never has a brace. */
		if (strchr(buf, '{'))
			import_multipath_conf(im, files[i], buf);
		else
			import_bindings(im, files[i], buf);
	}
	return ret;
}

/* The translated lines, added to the real table under its lock. */
static int add_all(struct da_table *tb, void *data)
{
	struct import *im = data;
	struct da_diag diag = {};

	for (size_t i = 0; i < da_table_count(im->lines); i++) {
		const struct da_alias *a = da_table_get(im->lines, i);

		/* The table's own lines are named by their line in it (its path). */
		if (da_table_add(tb, da_alias_name(a), da_alias_kind(a), da_alias_value(a), &diag) <
		    0)
			skip(im, im->src[i].file, im->src[i].line, "%s (in %s)",
			     diag.n ? diag.v[diag.n - 1].msg : "out of memory", im->target);
		else
			im->written++;
		da_diag_clear(&diag);
	}
	return 0;
}

int cmd_import(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "write", no_argument, NULL, 'W' },
		{ "file", required_argument, NULL, 'F' },
		GLOBAL_LONG_OPTS,
		{},
	};
	struct import im = { .t = t };
	struct da_diag diag = {};
	_cleanup_free_ char *file = NULL;
	const char *what, *file_arg = NULL;
	bool write = false;
	int c, r;

	while ((c = getopt_long(argc, argv, "+" GLOBAL_SHORT_OPTS, opts, NULL)) != -1) {
		switch (c) {
		case 'W':
			write = true;
			break;
		case 'F':
			file_arg = optarg;
			break;
		default:
			r = tool_common_option(t, c, import_usage);
			if (r >= 0)
				return r;
		}
	}
	if (optind >= argc)
		return usage_error(argv[0], "expected vdev_id or multipath");
	if (file_arg && !write)
		return usage_error(argv[0], "--file goes with --write");
	what = argv[optind++];
	if (streq(what, "vdev_id") && argc - optind > 1)
		return usage_error(argv[0], "vdev_id reads one file");
	if (!streq(what, "vdev_id") && !streq(what, "multipath"))
		return usage_error(argv[0], "'%s': expected vdev_id or multipath", what);
	/* The devices are read only to tell a bare vdev_id link's directory. */
	if (tool_load(t, NEED_DEVICES) < 0 || da_table_parse("import", "", 0, NULL, &im.lines) < 0)
		return EXIT_FAIL;
	if (streq(what, "vdev_id")) {
		_cleanup_free_ char *def = da_ctx_path(t->ctx, DA_FILE_VDEV_ID_CONF);

		r = import_vdev_id(&im, optind < argc ? argv[optind] : def);
	} else {
		r = import_multipath(&im, argv + optind, argc - optind);
	}
	if (r < 0) {
		da_table_free(im.lines);
		free(im.src);
		return EXIT_FAIL;
	}
	if (write && da_table_count(im.lines) > 0) {
		file = file_arg ? tool_table_file(t, file_arg) : strdup(t->table_path);
		im.target = file;
		r = file ? da_table_edit_file(t->table_path, file, add_all, &im, &diag) : -ENOMEM;
		print_diag(&diag);
		if (r < 0 && !diag.n)
			errmsg("%s: %s", file ? file : t->table_path, strerror(-r));
		da_diag_clear(&diag);
		if (r >= 0)
			printf("%zu alias%s written to %s\n", im.written,
			       im.written == 1 ? "" : "es", file);
	} else if (!write) {
		_cleanup_free_ char *text = da_table_format(im.lines, NULL);

		r = text ? 0 : -ENOMEM;
		if (text)
			fputs(text, stdout);
	}
	da_table_free(im.lines);
	free(im.src);
	return r < 0 || im.skipped ? EXIT_FAIL : EXIT_OK;
}
