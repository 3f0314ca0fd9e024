// SPDX-License-Identifier: GPL-2.0-or-later
/* diskalias filter: text with kernel names as aliases. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	" -r, --reverse    turn aliases into the current kernel names\n";

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

int cmd_filter(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		GLOBAL_LONG_OPTS,
		{ "annotate", no_argument, NULL, 'a' },
		{ "reverse", no_argument, NULL, 'r' },
		{},
	};
	enum da_rewrite_mode mode = DA_REWRITE_ALIAS;
	struct da_rewriter *rw = NULL;
	_cleanup_free_ char *buf = NULL;
	int c, r, out = STDOUT_FILENO, ret = EXIT_OK;
	char *stdin_only[] = { "-" };
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
		default:
			r = tool_common_option(t, c, filter_usage);
			if (r >= 0)
				return r;
		}
	}
	files = optind < argc ? argv + optind : stdin_only;
	nfiles = optind < argc ? argc - optind : 1;
	buf = malloc(READ_SIZE);
	if (!buf) {
		errmsg("out of memory");
		return EXIT_FAIL;
	}
	if (tool_rewriter(t, mode, &out, &rw) < 0)
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
