// SPDX-License-Identifier: GPL-2.0-or-later
/* diskalias filter: text with kernel names as aliases. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "history.h"
#include "strbuf.h"
#include "tool.h"

#define READ_SIZE (128 * 1024)

/*
 * A large regular file is rewritten by one thread per CPU, a segment at a
 * time: SEG_SIZE bytes, cut just after a newline (no name spans one, and a
 * rewriter's stream after one is as a new stream is), written out in order.
 * A segment's output waits in memory for its turn; past SEG_OUT_MAX it waits
 * for the turn and goes out as it comes, so a line of any length takes no
 * more memory.
 */
#define SEG_SIZE	(1 << 20)
#define SEG_OUT_MAX	(4 * SEG_SIZE)
#define PAR_MIN		(32 * SEG_SIZE)
#define PAR_THREADS_MAX 16
#define CUT_READ	4096

struct par {
	int fd, *out;
	off_t start, end; /* the threads' part: after a newline to after one */
	size_t nsegs;
	pthread_mutex_t lock;
	pthread_cond_t turn;
	size_t taken; /* segments handed out */
	size_t next;  /* the segment whose output goes out next */
	int err;      /* the first failure stops every thread */
	bool write_err;
};

struct par_worker {
	struct par *p;
	struct da_rewriter *rw;
	pthread_t thread;
	size_t seg;  /* the segment being rewritten */
	bool direct; /* past SEG_OUT_MAX, its turn came: writing straight out */
	struct strbuf out;
	char buf[READ_SIZE];
};

/* Write @len bytes of @buf as they are. */
static int write_raw(int *out, const char *buf, size_t len)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return tool_write_fd(out, &iov, 1);
}

static void par_fail(struct par *p, int r, bool write)
{
	pthread_mutex_lock(&p->lock);
	if (!p->err) {
		p->err = r;
		p->write_err = write;
	}
	pthread_cond_broadcast(&p->turn);
	pthread_mutex_unlock(&p->lock);
}

/* Wait until every segment before @w's is out. Returns 0, or the failure that stopped all. */
static int par_wait_turn(struct par_worker *w)
{
	int r;

	pthread_mutex_lock(&w->p->lock);
	while (w->p->next != w->seg && !w->p->err)
		pthread_cond_wait(&w->p->turn, &w->p->lock);
	r = w->p->err ? -ECANCELED : 0;
	pthread_mutex_unlock(&w->p->lock);
	return r;
}

/* Write what @w gathered, in its turn, and wait no more in this segment. */
static int par_flush(struct par_worker *w)
{
	int r = par_wait_turn(w);

	if (r >= 0 && w->out.len)
		r = write_raw(w->p->out, w->out.buf, w->out.len);
	strbuf_reset(&w->out);
	w->direct = true;
	return r;
}

/* The write function of a worker's rewriter. */
static int par_write(void *userdata, const struct iovec *iov, int iovcnt)
{
	struct par_worker *w = userdata;
	int r = 0;

	if (w->direct)
		return tool_write_fd(w->p->out, iov, iovcnt);
	for (int i = 0; r >= 0 && i < iovcnt; i++)
		r = strbuf_add(&w->out, iov[i].iov_base, iov[i].iov_len);
	if (r >= 0 && w->out.len > SEG_OUT_MAX)
		r = par_flush(w);
	return r;
}

/* Read @len bytes at @off of @fd into @buf: -ENODATA when the file shrank meanwhile. */
static int read_at(int fd, char *buf, off_t off, size_t len)
{
	for (size_t got = 0; got < len;) {
		ssize_t n = pread(fd, buf + got, len - got, off + got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ENODATA;
		got += n;
	}
	return 0;
}

/* Where the segment cut at @x falls: the first place at or after it that follows a newline. */
static int par_cut(struct par_worker *w, off_t x, off_t *ret)
{
	struct par *p = w->p;

	if (x <= p->start || x >= p->end) {
		*ret = x <= p->start ? p->start : p->end;
		return 0;
	}
	/* Lines are short: a page at a time, not a whole read's worth. */
	for (off_t pos = x - 1; pos < p->end;) {
		size_t len = p->end - pos < CUT_READ ? p->end - pos : CUT_READ;
		const char *nl;
		int r = read_at(p->fd, w->buf, pos, len);

		if (r < 0)
			return r;
		nl = memchr(w->buf, '\n', len);
		if (nl) {
			*ret = pos + (nl - w->buf) + 1;
			return 0;
		}
		pos += len;
	}
	*ret = p->end; /* not reached: the part ends after a newline */
	return 0;
}

/* Rewrite segment @w->seg. Returns 0 or -errno, *@ret_write telling a write failure apart. */
static int par_segment(struct par_worker *w, bool *ret_write)
{
	struct par *p = w->p;
	off_t from, to;
	int r;

	r = par_cut(w, p->start + (off_t)w->seg * SEG_SIZE, &from);
	if (r >= 0)
		r = par_cut(w, p->start + (off_t)(w->seg + 1) * SEG_SIZE, &to);
	for (off_t pos = from; r >= 0 && pos < to;) {
		size_t len = to - pos < READ_SIZE ? to - pos : READ_SIZE;

		r = read_at(p->fd, w->buf, pos, len);
		if (r < 0)
			break;
		r = da_rewriter_feed(w->rw, w->buf, len);
		if (r < 0)
			*ret_write = true;
		pos += len;
	}
	if (r >= 0 && !w->direct) {
		r = par_flush(w);
		*ret_write = r < 0;
	}
	w->direct = false;
	if (r >= 0) {
		pthread_mutex_lock(&p->lock);
		p->next = w->seg + 1;
		pthread_cond_broadcast(&p->turn);
		pthread_mutex_unlock(&p->lock);
	}
	return r;
}

static void *par_run(void *userdata)
{
	struct par_worker *w = userdata;
	struct par *p = w->p;

	/* Room for a segment's output, made once (it grows if names do). */
	if (strbuf_grow(&w->out, SEG_SIZE + SEG_SIZE / 4) < 0) {
		par_fail(p, -ENOMEM, false);
		return NULL;
	}
	for (;;) {
		bool write = false;
		int r;

		pthread_mutex_lock(&p->lock);
		w->seg = p->err ? p->nsegs : p->taken;
		if (w->seg < p->nsegs)
			p->taken++;
		pthread_mutex_unlock(&p->lock);
		if (w->seg >= p->nsegs)
			return NULL;
		r = par_segment(w, &write);
		if (r < 0) {
			par_fail(p, r, write);
			return NULL;
		}
	}
}

/* CPUs this process may run on, at most PAR_THREADS_MAX. */
static size_t par_threads(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 1;
	n = CPU_COUNT(&set);
	return n < 1 ? 1 : n > PAR_THREADS_MAX ? PAR_THREADS_MAX : (size_t)n;
}

/*
 * Rewrite [@start, @end) of regular file @fd with clones of @rw, one thread
 * per CPU, the calling thread among them. Returns 0, 1 when it could not
 * start (nothing done: rewrite it alone), or -errno with *@ret_write
 * telling a write failure apart.
 */
static int par_rewrite(struct da_rewriter *rw, int fd, int *out, off_t start, off_t end,
		       size_t nthreads, bool *ret_write)
{
	struct par p = {
		.fd = fd,
		.out = out,
		.start = start,
		.end = end,
		.nsegs = (end - start + SEG_SIZE - 1) / SEG_SIZE,
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.turn = PTHREAD_COND_INITIALIZER,
	};
	struct par_worker *w = calloc(nthreads, sizeof(*w));
	size_t n = 0, started = 0;

	for (; w && n < nthreads; n++) {
		w[n].p = &p;
		if (da_rewriter_clone(rw, par_write, &w[n], &w[n].rw) < 0)
			break;
	}
	/* The calling thread is the first; a thread that cannot start leaves more to the others. */
	for (started = 1; started < n; started++)
		if (pthread_create(&w[started].thread, NULL, par_run, &w[started]) != 0)
			break;
	if (n >= 2)
		par_run(&w[0]);
	for (size_t i = 1; i < started; i++)
		pthread_join(w[i].thread, NULL);
	for (size_t i = 0; i < n; i++) {
		da_rewriter_free(w[i].rw);
		strbuf_release(&w[i].out);
	}
	free(w);
	if (n < 2)
		return 1;
	*ret_write = p.write_err;
	return p.err;
}

/* Where the last newline before @end is, plus one: @start when there is none. */
static off_t last_line_end(int fd, char *buf, off_t start, off_t end)
{
	for (off_t pos = end; pos > start;) {
		size_t len = pos - start < READ_SIZE ? pos - start : READ_SIZE;
		const char *nl;

		if (read_at(fd, buf, pos - len, len) < 0)
			return start;
		nl = memrchr(buf, '\n', len);
		if (nl)
			return pos - len + (nl - buf) + 1;
		pos -= len;
	}
	return start;
}

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

/*
 * Feed @fd to @rw: to its end, or if @line through its next newline. Returns
 * 1 when it stopped after a newline, 0 at the end, or -errno with
 * *ret_write telling a write failure apart.
 */
static int feed_fd(struct da_rewriter *rw, int fd, char *buf, bool line, bool *ret_write)
{
	for (;;) {
		ssize_t n = read(fd, buf, READ_SIZE);
		const char *nl;
		int r;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		nl = line ? memchr(buf, '\n', n) : NULL;
		r = da_rewriter_feed(rw, buf, nl ? (size_t)(nl - buf + 1) : (size_t)n);
		if (r < 0) {
			*ret_write = true;
			return r;
		}
		/* What was read past the newline is read again. */
		if (nl && lseek(fd, (off_t)(nl - buf + 1) - n, SEEK_CUR) < 0)
			return -errno;
		if (nl)
			return 1;
	}
}

/*
 * Feed all of @fd to @rw (writing to *@out). Returns 0, or -errno with
 * *ret_write telling a write failure apart.
 */
static int filter_fd(struct da_rewriter *rw, int fd, int *out, char *buf, bool *ret_write)
{
	size_t nthreads;
	struct stat st;
	off_t start, end;
	int r;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (start = lseek(fd, 0, SEEK_CUR)) < 0 ||
	    st.st_size - start < PAR_MIN || (nthreads = par_threads()) < 2)
		return feed_fd(rw, fd, buf, false, ret_write);
	/*
	 * The first line goes on from what came before (the last file's tail);
	 * after it every line starts a new stream.
	 */
	r = feed_fd(rw, fd, buf, true, ret_write);
	if (r <= 0)
		return r;
	start = lseek(fd, 0, SEEK_CUR);
	if (start < 0)
		return -errno;
	/* Past the last newline the file may still grow: that is read on alone, as ever. */
	end = last_line_end(fd, buf, start, st.st_size);
	if (end - start >= PAR_MIN) {
		r = par_rewrite(rw, fd, out, start, end, nthreads, ret_write);
		if (r < 0)
			return r;
		if (r == 0 && lseek(fd, end, SEEK_SET) < 0)
			return -errno;
	}
	return feed_fd(rw, fd, buf, false, ret_write);
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
		r = filter_fd(rw, fd, &out, buf, &write_failed);
		if (!is_stdin)
			close(fd);
		if (write_failed) {
			errmsg("write error on standard output: %s", strerror(-r));
			da_rewriter_free(rw);
			return EXIT_FAIL;
		}
		if (r < 0) {
			errmsg("%s: %s", is_stdin ? "standard input" : files[i],
			       r == -ENODATA
				       ? "it shrank while it was read (truncated?): its end is missing"
				       : strerror(-r));
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
