// SPDX-License-Identifier: GPL-2.0
/*
 * alias-hammer - rewrite or read a sysfs attribute as fast as possible, for
 * the leak and race tests of /sys/block/DISK/alias (a shell loop is far too
 * slow under TCG to reach a million writes).
 *
 *   alias-hammer write FILE COUNT NAME...   write the NAMEs in turn, COUNT
 *                                           writes in all (0: until killed)
 *   alias-hammer read FILE COUNT            read FILE COUNT times (0: ever)
 *
 * Exits 1 at the first failed write or read; prints the number done, also
 * when stopped by SIGTERM.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	unsigned long count, i;
	char buf[256];
	int fd, write_mode;

	if (argc < 4 || (strcmp(argv[1], "write") && strcmp(argv[1], "read")) ||
	    (!strcmp(argv[1], "write") && argc < 5)) {
		fprintf(stderr, "usage: alias-hammer write FILE COUNT NAME... | read FILE COUNT\n");
		return 2;
	}
	write_mode = !strcmp(argv[1], "write");
	count = strtoul(argv[3], NULL, 10);
	fd = open(argv[2], write_mode ? O_WRONLY : O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "alias-hammer: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	signal(SIGTERM, on_term);
	for (i = 0; !stop && (!count || i < count); i++) {
		ssize_t n;

		if (write_mode) {
			const char *name = argv[4 + i % (argc - 4)];

			n = pwrite(fd, name, strlen(name), 0);
			if (n < 0 && errno == EINTR)
				continue;
			if (n != (ssize_t)strlen(name))
				goto fail;
		} else {
			n = pread(fd, buf, sizeof(buf) - 1, 0);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0 || buf[n - 1] != '\n')
				goto fail;
		}
	}
	printf("%lu\n", i);
	return 0;
fail:
	fprintf(stderr, "alias-hammer: %s #%lu on %s: %s\n", argv[1], i, argv[2], strerror(errno));
	return 1;
}
