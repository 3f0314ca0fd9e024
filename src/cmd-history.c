// SPDX-License-Identifier: GPL-2.0-or-later
/* diskalias history: the mapping records of a log, boot by boot. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "history.h"

static const char history_usage[] =
	"Usage:\n"
	" diskalias history [options] [<file>]\n"
	"\n"
	"Print the mapping records of a saved kernel log ('-': standard input), or\n"
	"of every boot in the journal (else of this boot's kernel log): which kernel\n"
	"name was which alias, boot by boot. Boots are numbered as journalctl -b\n"
	"numbers them: 0 the last, -1 the one before. Read a log's lines in those\n"
	"names with 'diskalias filter --history' or 'diskalias dmesg -F'.\n"
	"\n"
	"Options:\n" TOOL_OUTPUT_HELP;

/* The kernel log of every boot the journal keeps, as journalctl prints it; -1 without one. */
static int read_journal(char **ret_text, size_t *ret_len)
{
	FILE *p = popen("journalctl _TRANSPORT=kernel --no-pager -q -o short-monotonic 2>/dev/null",
			"re");
	int r, status;

	if (!p)
		return -1;
	r = read_fd(fileno(p), ret_text, ret_len);
	status = pclose(p);
	if (r < 0 || status != 0 || !*ret_len) {
		free(*ret_text);
		*ret_text = NULL;
		return -1;
	}
	return 0;
}

/* This boot's kernel log from the kmsg device (each read one record), or a saved stream. */
static int read_kmsg_all(struct tool *t, char **ret_text, size_t *ret_len)
{
	_cleanup_free_ char *path = da_ctx_path(t->ctx, DA_FILE_KMSG);
	struct strbuf sb = STRBUF_INIT;
	char buf[8192];
	int fd, r = 0;

	if (!path)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		r = -errno;
		errmsg("%s: %s", path, strerror(-r));
		return r;
	}
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		/* Records overwritten while reading: go on with the next. */
		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0) {
			r = -errno;
			errmsg("%s: %s", path, strerror(-r));
			break;
		}
		if (n == 0 || strbuf_add(&sb, buf, n) < 0)
			break;
	}
	close(fd);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*ret_text = strbuf_detach(&sb, ret_len);
	return *ret_text ? 0 : -ENOMEM;
}

enum { COL_BOOT, COL_TIME, COL_KNAME, COL_ALIAS, COL_IDENTITY, COL_HANDLES, COL_BOOTID };

static const struct {
	const char *name;
	double whint;
	int json;
} cols[] = {
	[COL_BOOT] = { "BOOT", 3, SCOLS_JSON_NUMBER },
	[COL_TIME] = { "TIME", 12, SCOLS_JSON_STRING },
	[COL_KNAME] = { "KNAME", 8, SCOLS_JSON_STRING },
	[COL_ALIAS] = { "ALIAS", 10, SCOLS_JSON_STRING },
	[COL_IDENTITY] = { "IDENTITY", 30, SCOLS_JSON_STRING },
	/* The disk's other names in the kernel's log the record gives: "ata3.00, 2:0:0:0, ata3". */
	[COL_HANDLES] = { "HANDLES", 0.2, SCOLS_JSON_STRING },
	[COL_BOOTID] = { "BOOTID", 32, SCOLS_JSON_STRING }, /* last: shown only where known */
};

/* One row per record, boots numbered back from the last (0). */
static int print_history(const struct history *h, const struct tool_output *out)
{
	struct libscols_table *tb = tool_table_new(out, "records");
	size_t ncols = ARRAY_SIZE(cols) - 1;
	int r = -ENOMEM;

	if (!tb)
		return -ENOMEM;
	/* BOOTID where the log has them (journalctl's "-- Boot ID --" lines). */
	for (size_t i = 0; i < h->nboots && ncols == COL_BOOTID; i++)
		if (h->boots[i].id)
			ncols++;
	for (size_t i = 0; i < ncols; i++)
		if (!tool_table_column(tb, cols[i].name, cols[i].whint, 0, cols[i].json))
			goto out;
	for (size_t i = 0; i < h->nrecs; i++) {
		const struct hist_record *rec = &h->recs[i];
		const struct hist_boot *b = &h->boots[rec->boot];
		struct libscols_line *ln = scols_table_new_line(tb, NULL);
		_cleanup_free_ char *boot =
			xasprintf("%ld", (long)rec->boot - (long)(h->nboots - 1));

		/* libsmartcols escapes control bytes, as in list. */
		if (!ln || !boot || scols_line_set_data(ln, COL_BOOT, boot) < 0 ||
		    scols_line_set_data(ln, COL_TIME, rec->time ? rec->time : "") < 0 ||
		    scols_line_set_data(ln, COL_KNAME, rec->kname) < 0 ||
		    scols_line_set_data(ln, COL_ALIAS, rec->name ? rec->name : "") < 0 ||
		    scols_line_set_data(ln, COL_IDENTITY, rec->identity) < 0 ||
		    scols_line_set_data(ln, COL_HANDLES, rec->handles ? rec->handles : "") < 0 ||
		    (ncols > COL_BOOTID &&
		     scols_line_set_data(ln, COL_BOOTID, b->id ? b->id : "") < 0))
			goto out;
	}
	r = tool_table_print(tb);
out:
	scols_unref_table(tb);
	return r;
}

int cmd_history(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		TOOL_OUTPUT_LONG_OPTS,
		GLOBAL_LONG_OPTS,
		{},
	};
	static const tool_excl_t excl[] = { TOOL_OUTPUT_EXCL, {} };
	int excl_seen[ARRAY_SIZE(excl)] = {};
	struct tool_output out = {};
	_cleanup_free_ char *text = NULL;
	const char *what;
	struct history h;
	size_t len = 0;
	int c, r;

	while ((c = getopt_long(argc, argv, TOOL_OUTPUT_SHORT_OPTS GLOBAL_SHORT_OPTS, opts,
				NULL)) != -1) {
		r = tool_exclusive(t, c, opts, excl, excl_seen);
		if (r >= 0)
			return r;
		r = tool_output_common_option(t, c, &out, history_usage);
		if (r >= 0)
			return r;
	}
	if (argc - optind > 1)
		return usage_error(argv[0], "unexpected argument '%s'", argv[optind + 1]);
	if (optind < argc) {
		what = streq(argv[optind], "-") ? "standard input" : argv[optind];
		r = streq(argv[optind], "-") ? read_fd(STDIN_FILENO, &text, &len)
					     : read_file(argv[optind], &text, &len);
		if (r < 0) {
			errmsg("%s: %s", what, strerror(-r));
			return EXIT_FAIL;
		}
	} else {
		/* The journal keeps every boot; on a machine without one, this boot's log. */
		what = "the journal";
		if (tool_load(t, 0) < 0)
			return EXIT_FAIL;
		if (t->root || read_journal(&text, &len) < 0) {
			what = "the kernel log";
			if (read_kmsg_all(t, &text, &len) < 0)
				return EXIT_FAIL;
		}
	}
	r = history_scan(&h, text, len);
	if (r < 0) {
		errmsg("out of memory");
		return EXIT_FAIL;
	}
	if (!h.nrecs)
		notemsg("%s: no mapping records (\"diskalias: sdc is bay07\")", what);
	r = print_history(&h, &out);
	history_free(&h);
	if (r < 0)
		errmsg("write error on standard output: %s", strerror(-r));
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}
