// SPDX-License-Identifier: GPL-2.0-or-later
/* diskalias run: a command with aliases as arguments and in its output. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "tool.h"

static const char run_usage[] =
	"Usage:\n"
	" diskalias run [options] -- <command> [<argument>...]\n"
	"\n"
	"Run <command> (no shell involved) with every argument @NAME replaced by the\n"
	"device node of that alias or partition name (@bay07 -> /dev/sdc, @bay07p1 ->\n"
	"/dev/sdc1; @@x passes @x). Its standard output and error are filtered as by\n"
	"'diskalias filter'; standard input passes through. The exit status is the\n"
	"command's; when it is killed by a signal, diskalias dies of the same signal.\n"
	"\n"
	"Options:\n"
	" -a, --annotate   keep the kernel names and add the aliases: sdc(bay07)\n";

/* The command's arguments with @NAME resolved. Every unknown name is said; NULL then. */
static char **resolve_args(struct tool *t, int argc, char **argv)
{
	char **v = calloc(argc + 1, sizeof(*v));
	bool failed = false;

	if (!v) {
		errmsg("out of memory");
		return NULL;
	}
	for (int i = 0; i < argc; i++) {
		struct da_diag diag = {};
		struct da_device *d;

		if (argv[i][0] != '@' || argv[i][1] == '\0') {
			v[i] = strdup(argv[i]);
		} else if (argv[i][1] == '@') {
			v[i] = strdup(argv[i] + 1);
		} else if (da_map_lookup(t->map, argv[i] + 1, &diag, &d) == 0) {
			v[i] = da_devnode(da_device_kname(d));
		} else {
			print_diag(&diag);
			failed = true;
			v[i] = strdup("");
		}
		da_diag_clear(&diag);
		if (!v[i]) {
			errmsg("out of memory");
			failed = true;
			break;
		}
	}
	if (!failed)
		return v;
	for (int i = 0; i < argc; i++)
		free(v[i]);
	free(v);
	return NULL;
}

static void child(char **argv, int out, int err, int status)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0) {
		int e = errno;

		(void)!write(status, &e, sizeof(e));
		_exit(127);
	}
	execvp(argv[0], argv);
	(void)!write(status, &errno, sizeof(errno));
	_exit(127);
}

struct stream {
	int in;	 /* the command's end of it, ours to read */
	int out; /* where the filtered text goes */
	struct da_rewriter *rw;
};

/* Copy both streams through their rewriters until the command closes them. */
static int pump(struct stream *s, size_t n)
{
	char buf[64 * 1024];
	size_t open = n;
	int ret = 0;

	while (open > 0) {
		struct pollfd p[2];

		for (size_t i = 0; i < n; i++)
			p[i] = (struct pollfd){ .fd = s[i].in, .events = POLLIN };
		if (poll(p, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (size_t i = 0; i < n; i++) {
			ssize_t len;
			int r;

			if (s[i].in < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			len = read(s[i].in, buf, sizeof(buf));
			if (len < 0 && errno == EINTR)
				continue;
			if (len > 0) {
				r = da_rewriter_feed(s[i].rw, buf, len);
			} else {
				r = da_rewriter_finish(s[i].rw);
				close(s[i].in);
				s[i].in = -1;
				open--;
			}
			if (r < 0 && ret == 0)
				ret = r;
		}
	}
	return ret;
}

/* Die as the command died, so whoever waits for diskalias sees the same signal. */
static int die_like(int sig)
{
	struct rlimit no_core = { 0, 0 };
	sigset_t set;

	fflush(stdout);
	/* The command has dumped its core already, if it did. */
	setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	return 128 + sig;
}

static int run(char **argv, enum da_rewrite_mode mode, struct tool *t)
{
	int fd_out = STDOUT_FILENO, fd_err = STDERR_FILENO;
	struct stream s[2] = { { -1, fd_out, NULL }, { -1, fd_err, NULL } };
	int out[2] = { -1, -1 }, err[2] = { -1, -1 }, status[2] = { -1, -1 };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	int ret = EXIT_FAIL, e = 0, wstatus, r;
	pid_t pid;

	if (tool_rewriter(t, mode, false, &fd_out, &s[0].rw) < 0 ||
	    tool_rewriter(t, mode, false, &fd_err, &s[1].rw) < 0)
		goto out;
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0 ||
	    pipe2(status, O_CLOEXEC) < 0) {
		errmsg("cannot make a pipe: %s", strerror(errno));
		goto out;
	}
	tool_widen_pipe(out[0]);
	/* As system(3): a ^C at the terminal is the command's to handle; we report how it ended. */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid = fork();
	if (pid < 0) {
		errmsg("cannot start %s: %s", argv[0], strerror(errno));
		goto restore;
	}
	if (pid == 0)
		child(argv, out[1], err[1], status[1]);
	close(out[1]);
	close(err[1]);
	close(status[1]);
	out[1] = err[1] = status[1] = -1;
	while ((r = read(status[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	s[0].in = out[0];
	s[1].in = err[0];
	out[0] = err[0] = -1;
	r = pump(s, 2);
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	if (r < 0)
		errmsg("write error: %s", strerror(-r));
	if (e) {
		/* As a shell says it: 127 not found, 126 found but not runnable. */
		errmsg("%s: %s", argv[0], strerror(e));
		ret = e == ENOENT ? 127 : 126;
	} else if (WIFSIGNALED(wstatus)) {
		ret = -WTERMSIG(wstatus);
	} else {
		ret = WEXITSTATUS(wstatus);
	}
restore:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
out:
	for (int i = 0; i < 2; i++) {
		if (out[i] >= 0)
			close(out[i]);
		if (err[i] >= 0)
			close(err[i]);
		if (status[i] >= 0)
			close(status[i]);
		if (s[i].in >= 0)
			close(s[i].in);
		da_rewriter_free(s[i].rw);
	}
	return ret;
}

int cmd_run(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		GLOBAL_LONG_OPTS,
		{ "annotate", no_argument, NULL, 'a' },
		{},
	};
	enum da_rewrite_mode mode = DA_REWRITE_ALIAS;
	char **args;
	int c, r;

	/* '+': the command's own options are not ours. */
	while ((c = getopt_long(argc, argv, "+" GLOBAL_SHORT_OPTS "a", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			mode = DA_REWRITE_ANNOTATE;
			break;
		default:
			r = tool_common_option(t, c, run_usage);
			if (r >= 0)
				return r;
		}
	}
	if (optind >= argc)
		return usage_error(argv[0], "no command given");
	if (tool_load(t, NEED_MAP_NAMES) < 0)
		return EXIT_FAIL;
	args = resolve_args(t, argc - optind, argv + optind);
	if (!args)
		return EXIT_FAIL;
	r = run(args, mode, t);
	for (char **a = args; *a; a++)
		free(*a);
	free(args);
	if (r < 0) {
		tool_done(t);
		*t = (struct tool){};
		return die_like(-r);
	}
	return r;
}
