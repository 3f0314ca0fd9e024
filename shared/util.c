// SPDX-License-Identifier: LGPL-2.1-or-later
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "util.h"
#include "strbuf.h"

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		return NULL;
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

char *strjoin(const char *first, ...)
{
	va_list ap;
	size_t len = 0;
	char *s, *p;

	va_start(ap, first);
	for (const char *a = first; a; a = va_arg(ap, const char *))
		len += strlen(a);
	va_end(ap);
	s = malloc(len + 1);
	if (!s)
		return NULL;
	p = s;
	va_start(ap, first);
	for (const char *a = first; a; a = va_arg(ap, const char *))
		p = stpcpy(p, a);
	va_end(ap);
	return s;
}

char *uint_str(char *buf, size_t size, unsigned int v)
{
	char *p = buf + size - 1;

	*p = '\0';
	do
		*--p = '0' + v % 10;
	while ((v /= 10) && p > buf);
	return p;
}

int read_fd(int fd, char **ret_buf, size_t *ret_len)
{
	struct strbuf sb = STRBUF_INIT;
	ssize_t r;

	for (;;) {
		if (strbuf_grow(&sb, 4096) < 0) {
			strbuf_release(&sb);
			return -ENOMEM;
		}
		r = read(fd, sb.buf + sb.len, sb.alloc - sb.len - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			strbuf_release(&sb);
			return r;
		}
		if (r == 0)
			break;
		sb.len += r;
		sb.buf[sb.len] = '\0';
	}
	*ret_buf = strbuf_detach(&sb, ret_len);
	return 0;
}

int read_file_at(int dfd, const char *path, char **ret_buf, size_t *ret_len)
{
	int fd = openat(dfd, path, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0)
		return -errno;
	r = read_fd(fd, ret_buf, ret_len);
	close(fd);
	return r;
}

int read_file(const char *path, char **ret_buf, size_t *ret_len)
{
	return read_file_at(AT_FDCWD, path, ret_buf, ret_len);
}

int read_text_file(const char *path, char **ret_buf, size_t *ret_len)
{
	/* O_NONBLOCK: a FIFO is refused below, never waited on at open. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY), r;
	struct stat st;
	size_t len;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (S_ISDIR(st.st_mode))
		r = -EISDIR;
	else if (!S_ISREG(st.st_mode))
		r = -EINVAL;
	else
		r = read_fd(fd, ret_buf, &len);
	close(fd);
	if (r < 0)
		return r;
	if (memchr(*ret_buf, '\0', len)) {
		free(*ret_buf);
		*ret_buf = NULL;
		return -EILSEQ;
	}
	if (ret_len)
		*ret_len = len;
	return 0;
}

/* One read() of at most @size - 1 bytes into @buf, NUL-terminated: its length or -errno. */
static ssize_t read_once(int fd, char *buf, size_t size)
{
	ssize_t n;

	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

ssize_t read_into_at(int dfd, const char *path, char *buf, size_t size)
{
	int fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read_once(fd, buf, size);
	close(fd);
	return n;
}

int read_small_fd(int fd, char **ret_buf, size_t *ret_len)
{
	char page[4096];
	ssize_t n;
	size_t len = 0;
	int r = 0;

	/*
	 * A sysfs attribute is at most a page and comes whole from one read,
	 * and a regular file gives less than asked only at its end: a short
	 * read is the end, with no second read() to see EOF.
	 */
	n = read_once(fd, page, sizeof(page));
	if (n >= 0 && (size_t)n < sizeof(page) - 1) {
		*ret_buf = malloc(n + 1);
		if (*ret_buf) {
			memcpy(*ret_buf, page, n + 1);
			len = n;
		} else {
			r = -ENOMEM;
		}
	} else if (n < 0) {
		r = n;
	} else if (lseek(fd, 0, SEEK_SET) != 0) { /* bigger: read it all from the start */
		r = -errno;
	} else {
		r = read_fd(fd, ret_buf, &len);
	}
	if (r == 0 && ret_len)
		*ret_len = len;
	return r;
}

int read_small_at(int dfd, const char *path, char **ret_buf, size_t *ret_len)
{
	int fd = openat(dfd, path, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0)
		return -errno;
	r = read_small_fd(fd, ret_buf, ret_len);
	close(fd);
	return r;
}

char *read_attr_at(int dfd, const char *name, bool trim_front)
{
	char *buf, *s;
	size_t len;

	if (read_small_at(dfd, name, &buf, NULL) < 0)
		return NULL;
	/* Attributes are text; a NUL inside (binary VPD pages) ends it. */
	len = strlen(buf);
	while (len > 0 && isspace((unsigned char)buf[len - 1]))
		buf[--len] = '\0';
	s = buf;
	if (trim_front)
		while (isspace((unsigned char)*s))
			s++;
	if (*s == '\0') {
		free(buf);
		return NULL;
	}
	if (s != buf)
		memmove(buf, s, strlen(s) + 1);
	return buf;
}

char *read_attr(const char *dir, const char *name)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", dir, name);

	return path ? read_attr_at(AT_FDCWD, path, false) : NULL;
}

char *read_link_at(int dfd, const char *name)
{
	size_t size = 256;

	for (;;) {
		char *buf = malloc(size);
		ssize_t n;

		if (!buf)
			return NULL;
		n = readlinkat(dfd, name, buf, size);
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < size) {
			buf[n] = '\0';
			return buf;
		}
		free(buf);
		size *= 2;
	}
}

char *read_link(const char *path)
{
	return read_link_at(AT_FDCWD, path);
}

/*
 * Fold "." and ".." components and repeated slashes of @path in place, by
 * the letters alone: no component is looked up. Leading ".." of a relative
 * path stay; ".." at "/" is "/". What folds to nothing is "." ("" stays "").
 */
char *path_normalize(char *path)
{
	bool abs = path[0] == '/';
	char *out = path + abs, *p = path + abs;
	size_t keep = 0; /* leading ".." components of a relative path, not to fold */

	if (!*path)
		return path;

	for (bool more = *p; more; p++) {
		char *end = strchrnul(p, '/');
		size_t n = end - p;

		/* Writing may overrun the NUL at @end: take what it says first. */
		more = *end;

		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (out > path + abs + keep) {
				/* Back over the last component and its slash. */
				out--;
				while (out > path + abs && out[-1] != '/')
					out--;
			} else if (!abs) {
				memcpy(out, "../", 3);
				out += 3;
				keep += 3;
			}
		} else {
			memmove(out, p, n);
			out += n;
			*out++ = '/';
		}
		p = end;
	}
	if (out > path + abs)
		out--; /* the last slash */
	else if (!abs)
		*out++ = '.';
	*out = '\0';
	return path;
}

char *path_join_normalized(const char *dir, const char *rel)
{
	char *joined = rel[0] == '/' ? strdup(rel) : xasprintf("%s/%s", dir, rel);

	return joined ? path_normalize(joined) : NULL;
}

/*
 * Where the link @path points, as a path: its target joined to the link's
 * directory and folded by path_normalize(), with no lookup of the
 * components. Right when the link's directory holds no link on the way
 * (sysfs: /sys/class/block/sda, or a link under a resolved /sys/devices
 * path). @path itself when it is no link. Caller frees; NULL with errno set.
 */
char *resolve_link(const char *path)
{
	_cleanup_free_ char *target = read_link(path), *dir = NULL;
	const char *slash;
	char *self;

	if (!target) {
		if (errno != EINVAL)
			return NULL;
		self = strdup(path);
		return self ? path_normalize(self) : NULL;
	}
	slash = strrchr(path, '/');
	dir = slash ? strndup(path, slash - path) : strdup(".");
	return dir ? path_join_normalized(dir, target) : NULL;
}

const char *path_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

bool is_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int parse_u64(const char *s, uint64_t *ret)
{
	unsigned long long v;
	char *end;

	if (!is_number(s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*ret = v;
	return 0;
}

int parse_uint(const char *s, unsigned int *ret)
{
	uint64_t v;

	if (parse_u64(s, &v) < 0 || v > UINT_MAX)
		return -EINVAL;
	*ret = v;
	return 0;
}

char *unescape_hex_n(const char *s, size_t len, size_t *ret_len)
{
	char *out = malloc(len + 1), *o = out;
	const char *end = s + len;

	if (!out)
		return NULL;
	while (s < end) {
		if (end - s >= 4 && s[0] == '\\' && s[1] == 'x' && isxdigit((unsigned char)s[2]) &&
		    isxdigit((unsigned char)s[3])) {
			char hex[3] = { s[2], s[3], '\0' };

			*o++ = (char)strtoul(hex, NULL, 16);
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	if (ret_len)
		*ret_len = o - out;
	return out;
}

char *unescape_hex(const char *s)
{
	return unescape_hex_n(s, strlen(s), NULL);
}

int strv_consume(struct strv *l, char *s)
{
	char **n;

	if (!s)
		return -ENOMEM;
	/* Room for @s and the NULL after it. */
	n = array_grow(l->v, l->n, 2, sizeof(*n));
	if (!n) {
		free(s);
		return -ENOMEM;
	}
	l->v = n;
	l->v[l->n++] = s;
	l->v[l->n] = NULL;
	return 0;
}

int strv_push(struct strv *l, const char *s)
{
	return strv_consume(l, strdup(s));
}

char *strv_join(char *const *v, const char *sep)
{
	size_t len = 1, seplen = strlen(sep);
	char *s, *o;

	for (char *const *p = v; p && *p; p++)
		len += strlen(*p) + seplen;
	s = o = malloc(len);
	if (!s)
		return NULL;
	*o = '\0';
	for (char *const *p = v; p && *p; p++)
		o = stpcpy(p == v ? o : stpcpy(o, sep), *p);
	return s;
}

bool strv_contains(const struct strv *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (streq(l->v[i], s))
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strv_sort(struct strv *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), cmp_str);
}

static int cmp_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

void strv_sort_natural(struct strv *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), cmp_version);
}

void strv_free(struct strv *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

const char *list_sep(size_t k, size_t n, const char *last)
{
	return k == 0 ? "" : k + 1 < n ? ", " : last;
}

char **strv_detach(struct strv *l)
{
	char **v = l->v ? l->v : calloc(1, sizeof(*v));

	if (!v)
		strv_free(l);
	l->v = NULL;
	l->n = 0;
	return v;
}

int write_string(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW), r = 0;
	size_t len = strlen(s);

	if (fd < 0)
		return -errno;
	if (write(fd, s, len) != (ssize_t)len)
		r = errno ? -errno : -EIO;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

/* Make @dir (and its parents) like mkdir -p. */
int mkdir_p(char *dir)
{
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	return mkdir(dir, 0755) < 0 && errno != EEXIST ? -errno : 0;
}

/* Write all @len bytes of @buf to @fd, through short writes and EINTR. */
int write_all_at(int fd, const char *buf, size_t len, uint64_t *pos)
{
	while (len > 0) {
		ssize_t n = pos ? pwrite(fd, buf, len, *pos) : write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (pos)
			*pos += n;
		buf += n;
		len -= n;
	}
	return 0;
}

int write_all(int fd, const char *buf, size_t len)
{
	return write_all_at(fd, buf, len, NULL);
}

int open_private_dir(char *dir, bool create)
{
	struct stat st;
	int fd, r;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* Made only when missing: the udev helper comes here for every device. */
	if (fd < 0 && errno == ENOENT && create) {
		r = mkdir_p(dir);
		if (r < 0)
			return r;
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0)
		return errno == ENOTDIR ? -EPERM : -errno;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/*
 * The names in directory @fd that start with @prefix, into @v: all but "."
 * and ".." with @hidden, else none that starts with a dot. getdents64()
 * itself, not fdopendir(): that costs a stat and two fcntl calls per
 * directory, and a scan lists one per disk.
 */
static void list_dir(int fd, const char *prefix, bool hidden, struct strv *v)
{
	size_t plen = strlen(prefix);
	char buf[8192] __attribute__((aligned(8)));
	ssize_t n;

	while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			const struct dirent64 *de = (const struct dirent64 *)(buf + off);
			const char *e = de->d_name;

			if ((hidden ? !streq(e, ".") && !streq(e, "..") : e[0] != '.') &&
			    strncmp(e, prefix, plen) == 0)
				strv_push(v, e);
			off += de->d_reclen;
		}
	}
}

static const char temp_tag[] = ".tmp-";

/* A new hidden entry ".NAME.tmp-XXXXXX" in @dirfd: a file open for writing (its fd), or a directory
 * (0). */
static int temp_entry_at(int dirfd, const char *name, bool dir, char **ret_tmp)
{
	static const char letters[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	char *tmp = xasprintf(".%s%sXXXXXX", name, temp_tag);
	int fd = -1;

	if (!tmp)
		return -ENOMEM;
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		unsigned char rnd[6];
		char *x = tmp + strlen(tmp) - 6;

		if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != sizeof(rnd))
			for (size_t i = 0; i < sizeof(rnd); i++)
				rnd[i] = (unsigned char)(rand() ^ getpid() ^ tries);
		for (size_t i = 0; i < sizeof(rnd); i++)
			x[i] = letters[rnd[i] % (sizeof(letters) - 1)];
		if (dir)
			fd = mkdirat(dirfd, tmp, 0700);
		else
			fd = openat(dirfd, tmp,
				    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST) {
			fd = -errno;
			free(tmp);
			return fd;
		}
	}
	if (fd < 0) {
		free(tmp);
		return -EEXIST;
	}
	*ret_tmp = tmp;
	return fd;
}

int temp_file_at(int dirfd, const char *name, char **ret_tmp)
{
	return temp_entry_at(dirfd, name, false, ret_tmp);
}

int temp_dir_at(int dirfd, const char *name, char **ret_tmp)
{
	return temp_entry_at(dirfd, name, true, ret_tmp);
}

int remove_dir_at(int dirfd, const char *name)
{
	struct strv names = {};
	int fd, r = 0;

	/* Never through a link: what is planted there goes, not what it points at. */
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR))
		return unlinkat(dirfd, name, 0) < 0 && errno != ENOENT ? -errno : 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	list_dir(fd, "", true, &names);
	for (size_t i = 0; i < names.n; i++)
		if (unlinkat(fd, names.v[i], 0) < 0 && errno != ENOENT && r == 0)
			r = -errno;
	strv_free(&names);
	close(fd);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT && r == 0)
		r = -errno;
	return r;
}

int temp_file_commit(int dirfd, int fd, char *tmp, const char *name, unsigned int mode,
		     unsigned int uid, unsigned int gid, bool sync, int r)
{
	if (r == 0 && fchmod(fd, mode) < 0)
		r = -errno;
	if (r == 0 && uid != (unsigned int)-1 && fchown(fd, uid, gid) < 0 && geteuid() == 0)
		r = -errno;
	if (r == 0 && sync && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dirfd, tmp, dirfd, name) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(dirfd, tmp, 0);
	free(tmp);
	/* The rename is durable once the directory is. */
	if (r == 0 && sync)
		fsync(dirfd);
	return r;
}

int replace_file_at(int dirfd, const char *name, const char *buf, size_t len, unsigned int mode,
		    unsigned int uid, unsigned int gid, bool sync)
{
	char *tmp;
	int fd = temp_file_at(dirfd, name, &tmp);

	if (fd < 0)
		return fd;
	return temp_file_commit(dirfd, fd, tmp, name, mode, uid, gid, sync,
				write_all(fd, buf, len));
}

void remove_stale_temps_at(int dirfd, const char *name)
{
	_cleanup_free_ char *prefix = xasprintf(".%s%s", name, temp_tag);
	struct dirent *de;
	size_t n;
	DIR *dp;
	int fd;

	if (!prefix)
		return;
	n = strlen(prefix);
	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dp = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dp) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(dp)))
		if (strncmp(de->d_name, prefix, n) == 0 && strlen(de->d_name) == n + 6 &&
		    unlinkat(dirfd, de->d_name, 0) < 0 && errno == EISDIR)
			remove_dir_at(dirfd, de->d_name);
	closedir(dp);
}

size_t utf8_seq_len(const unsigned char *s, size_t len)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8. */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

char *str_escape(const char *str, size_t len, size_t max, bool backslash)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t shown = max && len > max ? max : len;
	char *out = malloc(4 * shown + 4), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < shown;) {
		size_t n = utf8_seq_len(s + i, shown - i);

		if (n == 3 && s[i] == 0xef && s[i + 1] == 0xbb && s[i + 2] == 0xbf) {
			o = stpcpy(o, "<U+FEFF>");
		} else if (n == 1 && s[i] >= 0x20 && s[i] != 0x7f && (s[i] != '\\' || !backslash)) {
			*o++ = s[i];
		} else if (n > 1 && !(n == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0)) {
			memcpy(o, s + i, n);
			o += n;
		} else {
			n = 1;
			o += sprintf(o, "\\x%02x", s[i]);
		}
		i += n;
	}
	if (shown < len)
		o = stpcpy(o, "...");
	*o = '\0';
	return out;
}

char *utf8_replace_invalid(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strlen(str), i = 0, n;
	char *out, *o;

	while (i < len && (n = utf8_seq_len(s + i, len - i)))
		i += n;
	if (i == len)
		return NULL;
	/* Each bad byte becomes U+FFFD, three bytes. */
	out = malloc(3 * len + 1);
	if (!out)
		return NULL;
	memcpy(out, s, i);
	o = out + i;
	while (i < len) {
		n = utf8_seq_len(s + i, len - i);
		if (n) {
			memcpy(o, s + i, n);
			o += n;
			i += n;
		} else {
			o = stpcpy(o, "\xef\xbf\xbd");
			i++;
		}
	}
	*o = '\0';
	return out;
}

void read_dir_names(int dfd, const char *name, const char *prefix, struct strv *v)
{
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	list_dir(fd, prefix, false, v);
	close(fd);
}
