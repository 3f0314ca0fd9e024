// SPDX-License-Identifier: GPL-2.0-or-later
/* Copy every record of /dev/kmsg, as it gives them, to standard output, then stop. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	static char buf[16384];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		return 1;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && (errno == EPIPE || errno == EINTR))
			continue;
		if (n <= 0)
			return 0;
		if (write(STDOUT_FILENO, buf, n) != n)
			return 1;
	}
}
