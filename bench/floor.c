// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/floor - the least a listing of a machine's block devices can read:
 * the floor `diskalias list` and the naming commands are measured against.
 *
 *   floor SYSROOT list    NAME SIZE TYPE SERIAL WWN of every block device
 *   floor SYSROOT names   NAME WWN of every block device (a partition's
 *                         from its disk), what naming by WWN needs
 *
 * It lists sys/class/block once and, for each device, opens exactly the
 * files the columns come from, relative to open directories: its uevent
 * (MAJOR, MINOR, DEVTYPE, PARTN), its size (list), and its udev database
 * entry run/udev/data/bMAJ:MIN (ID_SERIAL_SHORT, ID_WWN). No sorting, no
 * tree, no table, no checks: a reader of the same sysfs attributes, not a
 * tool. Built by bench/run with the system compiler.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The whole of a small file under @dfd, NUL-terminated, in @buf; its length or -1. */
static ssize_t slurp(int dfd, const char *path, char *buf, size_t size)
{
	int fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* The value of KEY= in the KEY=VALUE lines of @text (udev's "E:KEY=" too), in @out. */
static const char *field(const char *text, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = strncmp(p, "E:", 2) == 0 ? p + 2 : p;
		size_t n;

		if (strncmp(q, key, klen) != 0 || q[klen] != '=')
			continue;
		q += klen + 1;
		n = strcspn(q, "\n");
		if (n >= size)
			n = size - 1;
		memcpy(out, q, n);
		out[n] = '\0';
		return out;
	}
	out[0] = '\0';
	return out;
}

int main(int argc, char **argv)
{
	char path[4096], uevent[4096], db[16384], size[64];
	char major[16], minor[16], type[32], serial[256], wwn[256];
	int list, cfd, dbfd;
	DIR *dir;
	struct dirent *e;

	if (argc != 3 || (strcmp(argv[2], "list") != 0 && strcmp(argv[2], "names") != 0)) {
		fprintf(stderr, "usage: floor SYSROOT list|names\n");
		return 2;
	}
	list = strcmp(argv[2], "list") == 0;
	snprintf(path, sizeof(path), "%s/sys/class/block", argv[1]);
	cfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/run/udev/data", argv[1]);
	dbfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dir = cfd >= 0 ? fdopendir(dup(cfd)) : NULL;
	if (!dir || dbfd < 0) {
		perror(argv[1]);
		return 1;
	}
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/uevent", e->d_name);
		if (slurp(cfd, path, uevent, sizeof(uevent)) < 0)
			continue;
		field(uevent, "MAJOR", major, sizeof(major));
		field(uevent, "MINOR", minor, sizeof(minor));
		field(uevent, "DEVTYPE", type, sizeof(type));
		snprintf(path, sizeof(path), "b%s:%s", major, minor);
		if (slurp(dbfd, path, db, sizeof(db)) < 0)
			db[0] = '\0';
		field(db, "ID_WWN", wwn, sizeof(wwn));
		if (list) {
			snprintf(path, sizeof(path), "%s/size", e->d_name);
			if (slurp(cfd, path, size, sizeof(size)) < 0)
				size[0] = '\0';
			size[strcspn(size, "\n")] = '\0';
			field(db, "ID_SERIAL_SHORT", serial, sizeof(serial));
			printf("%s %s %s %s %s\n", e->d_name, size, type, serial, wwn);
		} else {
			printf("%s %s\n", e->d_name, wwn);
		}
	}
	closedir(dir);
	return 0;
}
