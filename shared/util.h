/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Small helpers shared by the library and the tools; not exported.
 *
 * Ownership: every function returning "char *" returns a string the caller
 * frees; NULL means out of memory unless said otherwise. struct strv owns
 * its strings; strv_free() frees them and leaves the list empty.
 */
#ifndef DA_UTIL_H
#define DA_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define _cleanup_(f)   __attribute__((cleanup(f)))
#define _cleanup_free_ _cleanup_(freep)
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define ARRAY_SIZE(a)  (sizeof(a) / sizeof((a)[0]))

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline bool streq(const char *a, const char *b)
{
	return a && b && __builtin_strcmp(a, b) == 0;
}

char *xasprintf(const char *fmt, ...) _printf_(1, 2);
char *xvasprintf(const char *fmt, va_list ap) _printf_(1, 0);
/*
 * The strings up to the NULL one after one another, in a new string (NULL
 * without memory): what xasprintf("%s%s", ...) makes, without the
 * formatting machinery, for the paths and names made once per device.
 */
char *strjoin(const char *first, ...) __attribute__((sentinel));
/* @v in decimal, at the end of @buf (at least 11 bytes): a pointer to its first digit. */
char *uint_str(char *buf, size_t size, unsigned int v);

/*
 * Read all of @path into a NUL-terminated buffer (the NUL is not counted in
 * *ret_len). Returns 0 or -errno; *ret_buf is the caller's to free.
 */
int read_file(const char *path, char **ret_buf, size_t *ret_len);
/*
 * As read_file(), for a text file a user names: -EINVAL when it is not a
 * regular file (a FIFO is refused, never waited on), -EISDIR, -EILSEQ when
 * it holds a NUL byte (no text file does; the rest would be lost unread).
 */
int read_text_file(const char *path, char **ret_buf, size_t *ret_len);
/* As read_file(), @path relative to the directory open as @dfd (or AT_FDCWD). */
int read_file_at(int dfd, const char *path, char **ret_buf, size_t *ret_len);
/*
 * As read_file_at(), for a sysfs attribute or a small regular file: a
 * read shorter than a page is taken as the end (one read(), not two).
 */
int read_small_at(int dfd, const char *path, char **ret_buf, size_t *ret_len);
/*
 * One read() of file @path under @dfd into @buf, at most @size - 1 bytes,
 * NUL-terminated: its length (@size - 1 when it may have been cut), or
 * -errno. For a sysfs attribute parsed on the spot, with no allocation.
 */
ssize_t read_into_at(int dfd, const char *path, char *buf, size_t size);
/* As read_small_at(), from an open file at its start (which stays open). */
int read_small_fd(int fd, char **ret_buf, size_t *ret_len);
/*
 * Write @s to the existing file @path (truncated), as one write: a sysfs
 * attribute or uevent file takes a value per write. A symlink as @path is
 * refused (-ELOOP): a planted link must not steer a root write elsewhere.
 * Returns 0 or -errno.
 */
int write_string(const char *path, const char *s);
/*
 * Open directory @dir (made first, with its parents, when @create) for
 * files only its owner may change: it must be a real directory (not a
 * symlink), owned by the caller and not writable by group or others.
 * Returns the descriptor, -EPERM for a directory that fails that, or -errno.
 */
int open_private_dir(char *dir, bool create);
/*
 * A new temporary file beside @name in @dirfd (mode 0600, a random name
 * that remove_stale_temps_at() knows): its descriptor, its name in
 * *@ret_tmp; or -errno.
 */
int temp_file_at(int dirfd, const char *name, char **ret_tmp);
/* As temp_file_at(), a new directory (mode 0700): 0, its name in *@ret_tmp; or -errno. */
int temp_dir_at(int dirfd, const char *name, char **ret_tmp);
/*
 * Remove directory @name of @dirfd and the files in it, never through a
 * link (a link or file there is removed itself). 0 when it is gone or was
 * never there, else the first -errno.
 */
int remove_dir_at(int dirfd, const char *name);
/*
 * Give temporary file @fd (@tmp, from temp_file_at(), freed here) @mode and
 * owner, sync it if asked and rename it over @name; or, when @r (the
 * writing's result) or any of that fails, remove it. Closes @fd. Returns
 * 0 or -errno.
 */
int temp_file_commit(int dirfd, int fd, char *tmp, const char *name, unsigned int mode,
		     unsigned int uid, unsigned int gid, bool sync, int r);
/*
 * Replace file @name in directory @dirfd by @len bytes of @buf with @mode:
 * written to a new hidden file ".NAME.tmp-XXXXXX" (never through a link),
 * given owner @uid:@gid unless @uid is (unsigned)-1 (a failure to do so
 * matters only to root), flushed when @sync, then renamed over @name. On failure @name is as it
 * was and no temporary file is left. Returns 0 or -errno.
 */
int replace_file_at(int dirfd, const char *name, const char *buf, size_t len, unsigned int mode,
		    unsigned int uid, unsigned int gid, bool sync);
/*
 * Remove the temporary files replace_file_at() left for @name in @dirfd (a
 * writer killed mid-way), and the directories temp_dir_at() left.
 */
void remove_stale_temps_at(int dirfd, const char *name);
/*
 * @len bytes of @s made safe to show on a terminal or in the kernel log:
 * control bytes, C1 controls and invalid UTF-8 as \xNN (and '\' itself
 * with @backslash, so that what is shown reads back unambiguously), an
 * invisible U+FEFF as <U+FEFF>; past @max bytes of @s (0: no limit) the
 * rest is replaced by "...". Caller frees.
 */
char *str_escape(const char *s, size_t len, size_t max, bool backslash);
/*
 * Length of the UTF-8 sequence at @s (at most @len bytes, @len > 0), or 0
 * when it is not valid UTF-8 (overlong forms and surrogates included).
 */
size_t utf8_seq_len(const unsigned char *s, size_t len);
/*
 * @s with each byte that is not part of valid UTF-8 replaced by U+FFFD, as
 * a new string the caller frees; NULL when @s is valid UTF-8 already, or
 * when memory ran out (then @s is the best there is).
 */
char *utf8_replace_invalid(const char *s);
/* As read_file(), from an open file descriptor (which stays open). */
int read_fd(int fd, char **ret_buf, size_t *ret_len);
/* As write_all(), at offset *@pos of @fd, advanced by what is written (no @pos: write_all()). */
int write_all_at(int fd, const char *buf, size_t len, uint64_t *pos);
int write_all(int fd, const char *buf, size_t len);
/* Read a small attribute file, trailing white space removed; NULL when absent or empty. */
char *read_attr(const char *dir, const char *name);
/*
 * Attribute @name of the directory open as @dfd: its text without trailing
 * blanks (and leading ones with @trim_front), NULL when absent or empty.
 */
char *read_attr_at(int dfd, const char *name, bool trim_front);
/* Target of symlink @path; NULL if it is none. */
char *read_link(const char *path);
char *read_link_at(int dfd, const char *name);
/* Fold ".", ".." and repeated slashes of @path in place, by its letters alone. */
char *path_normalize(char *path);
/* @rel, when relative, joined to @dir, then folded by path_normalize(). Caller frees. */
char *path_join_normalized(const char *dir, const char *rel);
/* Where the link @path points, joined and folded by its letters (see util.c). Caller frees. */
char *resolve_link(const char *path);
/* What goes before item @k of @n in prose: "", ", ", and @last (" and ") before the last. */
const char *list_sep(size_t k, size_t n, const char *last);
/* Last path component of @path (a pointer into it). */
const char *path_basename(const char *path);
/* Make @dir (and its parents) like mkdir -p, mode 0755; @dir is restored. */
int mkdir_p(char *dir);
/* True if @s is one or more ASCII digits and nothing else. */
bool is_number(const char *s);
/* Parse a decimal unsigned int filling all of @s; -EINVAL otherwise. */
int parse_uint(const char *s, unsigned int *ret);
/* The same for a 64-bit number. */
int parse_u64(const char *s, uint64_t *ret);
/* Decode udev's \xHH escapes (by-label link names). */
char *unescape_hex(const char *s);
/* The same on @len bytes that may hold NULs once decoded; the decoded length in *ret_len (may be
 * NULL). */
char *unescape_hex_n(const char *s, size_t len, size_t *ret_len);

struct strv {
	char **v;
	size_t n;
};

/* Append a copy of @s. Returns 0 or -ENOMEM. */
int strv_push(struct strv *l, const char *s);
/* Append @s itself, taking ownership (freed on failure). */
int strv_consume(struct strv *l, char *s);
bool strv_contains(const struct strv *l, const char *s);
/* The strings of NULL-terminated @v (may be NULL) joined by @sep, in one pass. Caller frees. */
char *strv_join(char *const *v, const char *sep);
void strv_sort(struct strv *l);
/* Natural order, as strverscmp(): "0:0:2:0" before "0:0:10:0", slot 2 before slot 10. */
void strv_sort_natural(struct strv *l);
/*
 * The strings of @l as a NULL-terminated array (one NULL when empty) the
 * caller frees; @l is left empty. NULL when memory ran out (@l is freed).
 */
char **strv_detach(struct strv *l);
void strv_free(struct strv *l);
/* The names of the entries of directory @name under @dfd that start with @prefix, pushed to @v. */
void read_dir_names(int dfd, const char *name, const char *prefix, struct strv *v);

#endif
