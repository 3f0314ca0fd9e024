// SPDX-License-Identifier: GPL-2.0-or-later
/* diskalias filter: text with kernel names as aliases. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "history.h"
#include "tool.h"

#define READ_SIZE (128 * 1024)

static const char filter_usage[] =
	"Usage:\n"
	" diskalias filter [options] [<file>...]\n"
	"\n"
	"Copy the files (or standard input, also named '-') to standard output with\n"
	"kernel names replaced by aliases: sdc -> bay07, sdc1 -> bay07p1, [sdc], sdc:,\n"
	"/dev/sdc -> /dev/disk/by-alias/bay07, /dev/mapper/NAME, the SCSI address\n"
	"2:0:3:0 of a disk. Whole words only.\n"
	"\n"
	"Options:\n"
	" -a, --annotate   keep the kernel name and add the alias: sdc(bay07)\n"
	" -r, --reverse    turn aliases into the current kernel names\n"
	"     --history    name each boot of a saved log by the mapping records it\n"
	"                  carries (\"diskalias: sdc is bay07\"), not by today's table\n";

/* Feed all of @fd to @rw. Returns 0, or -errno with *ret_write telling a write failure apart. */
static int filter_fd(struct da_rewriter *rw, int fd, char *buf, bool *ret_write)
{
	for (;;) {
		ssize_t n = read(fd, buf, READ_SIZE);
		int r;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		r = da_rewriter_feed(rw, buf, n);
		if (r < 0) {
			*ret_write = true;
			return r;
		}
	}
}

/* Write @len bytes of @buf as they are. */
static int write_raw(int *out, const char *buf, size_t len)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return tool_write_fd(out, &iov, 1);
}

/* Rewrite @text, a whole log, by the records it carries, boot by boot. Returns 0 or -errno. */
static int rewrite_history(const char *text, size_t len, enum da_rewrite_mode mode, int *out,
			   const char *what)
{
	struct history h;
	struct history_walk w;
	int r = history_scan(&h, text, len);

	if (r < 0)
		return r;
	if (!h.nrecs)
		notemsg("%s: no mapping records (\"diskalias: sdc is bay07\"): nothing to name its disks by",
			what);
	history_walk_init(&w, &h, mode, tool_write_fd, out);
	for (size_t pos = 0; r >= 0 && pos < len;) {
		const struct hist_record *rec;
		size_t end;

		r = history_walk_to(&w, pos);
		if (r < 0)
			break;
		/* A record is what ties the names: kept as written. */
		rec = history_record_at(&w, pos);
		end = rec ? rec->end : history_walk_end(&w, len);
		if (rec || !w.rw) {
			r = write_raw(out, text + pos, end - pos);
		} else {
			r = da_rewriter_feed(w.rw, text + pos, end - pos);
			if (r >= 0)
				r = da_rewriter_finish(w.rw);
		}
		pos = end;
	}
	history_walk_done(&w);
	history_free(&h);
	return r;
}

/* filter --history of each file. */
static int filter_history(char **files, int nfiles, enum da_rewrite_mode mode, int *out)
{
	int ret = EXIT_OK;

	for (int i = 0; i < nfiles; i++) {
		bool is_stdin = streq(files[i], "-");
		const char *what = is_stdin ? "standard input" : files[i];
		_cleanup_free_ char *text = NULL;
		size_t len;
		int r;

		/* Read whole: the records of a boot name the lines before them too. */
		r = is_stdin ? read_fd(STDIN_FILENO, &text, &len)
			     : read_file(files[i], &text, &len);
		if (r < 0) {
			errmsg("%s: %s", what, strerror(-r));
			ret = EXIT_FAIL;
			continue;
		}
		r = rewrite_history(text, len, mode, out, what);
		if (r < 0) {
			errmsg("%s: %s", r == -ENOMEM ? what : "write error on standard output",
			       strerror(-r));
			return EXIT_FAIL;
		}
	}
	return ret;
}

int cmd_filter(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		GLOBAL_LONG_OPTS,
		{ "annotate", no_argument, NULL, 'a' },
		{ "reverse", no_argument, NULL, 'r' },
		{ "history", no_argument, NULL, 'H' },
		{},
	};
	enum da_rewrite_mode mode = DA_REWRITE_ALIAS;
	struct da_rewriter *rw = NULL;
	_cleanup_free_ char *buf = NULL;
	int c, r, out = STDOUT_FILENO, ret = EXIT_OK;
	char *stdin_only[] = { "-" };
	bool history = false;
	char **files;
	int nfiles;

	static const tool_excl_t excl[] = { { 'a', 'r' }, {} };
	int excl_seen[ARRAY_SIZE(excl)] = {};

	while ((c = getopt_long(argc, argv, GLOBAL_SHORT_OPTS "ar", opts, NULL)) != -1) {
		r = tool_exclusive(t, c, opts, excl, excl_seen);
		if (r >= 0)
			return r;
		switch (c) {
		case 'a':
			mode = DA_REWRITE_ANNOTATE;
			break;
		case 'r':
			mode = DA_REWRITE_REVERSE;
			break;
		case 'H':
			history = true;
			break;
		default:
			r = tool_common_option(t, c, filter_usage);
			if (r >= 0)
				return r;
		}
	}
	files = optind < argc ? argv + optind : stdin_only;
	nfiles = optind < argc ? argc - optind : 1;
	if (history)
		return filter_history(files, nfiles, mode, &out);
	buf = malloc(READ_SIZE);
	if (!buf) {
		errmsg("out of memory");
		return EXIT_FAIL;
	}
	if (tool_rewriter(t, mode, true, &out, &rw) < 0)
		return EXIT_FAIL;
	for (int i = 0; i < nfiles; i++) {
		bool is_stdin = streq(files[i], "-"), write_failed = false;
		int fd = is_stdin ? STDIN_FILENO : open(files[i], O_RDONLY | O_CLOEXEC);

		if (is_stdin)
			tool_widen_pipe(fd);

		if (fd < 0) {
			errmsg("%s: %s", files[i], strerror(errno));
			ret = EXIT_FAIL;
			continue;
		}
		r = filter_fd(rw, fd, buf, &write_failed);
		if (!is_stdin)
			close(fd);
		if (write_failed) {
			errmsg("write error on standard output: %s", strerror(-r));
			da_rewriter_free(rw);
			return EXIT_FAIL;
		}
		if (r < 0) {
			errmsg("%s: %s", is_stdin ? "standard input" : files[i], strerror(-r));
			ret = EXIT_FAIL;
		}
	}
	r = da_rewriter_finish(rw);
	if (r < 0) {
		errmsg("write error on standard output: %s", strerror(-r));
		ret = EXIT_FAIL;
	}
	da_rewriter_free(rw);
	return ret;
}
