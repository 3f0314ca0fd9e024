/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Growable byte strings and arrays; not exported.
 *
 * struct strbuf owns its bytes. Until something is added, buf is NULL and
 * len 0; after, buf[len] is always '\0' (the bytes may hold NULs of their
 * own). A function that fails (-ENOMEM) leaves the buffer as it was.
 * strbuf_detach() hands the bytes to the caller, who frees them, and
 * leaves the buffer empty; strbuf_release() frees them.
 *
 * Arrays: one of n elements, grown only through array_grow() (ARRAY_PUSH),
 * has room for the power of two at or above n; it keeps no capacity of its
 * own, so a plain { v, n } pair (struct da_diag, struct strv) grows by
 * doubling. Removing elements keeps that true; an array made another way
 * (calloc of an exact count) must not be grown by it.
 */
#ifndef DA_STRBUF_H
#define DA_STRBUF_H

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "util.h"

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

/* Brace lists in macros are left as written: clang-format 14 and 19 disagree on them. */
/* clang-format off */
#define STRBUF_INIT { NULL, 0, 0 }
/* clang-format on */

/* Room for @extra more bytes and the NUL after them. */
int strbuf_grow(struct strbuf *sb, size_t extra);
/* Inline: the writers of the snapshot and the rewriter add a few bytes at a time. */
static inline int strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (len >= sb->alloc - sb->len && strbuf_grow(sb, len) < 0)
		return -ENOMEM;
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
	return 0;
}
int strbuf_addstr(struct strbuf *sb, const char *s);
int strbuf_addf(struct strbuf *sb, const char *fmt, ...) _printf_(2, 3);
/*
 * Write what @sb holds to @fd and empty it, once it holds @at_least bytes
 * (0: whatever it holds): a long output in pieces, not whole in memory.
 * With @pos, at that offset of @fd, advanced past what is written. 0 or
 * -errno (@sb emptied all the same).
 */
int strbuf_spill(struct strbuf *sb, int fd, uint64_t *pos, size_t at_least);
/* Empty again, keeping the memory for what comes next. */
void strbuf_reset(struct strbuf *sb);
/* The bytes (an empty string when none, NULL only when that cannot be had); length in *@ret_len. */
char *strbuf_detach(struct strbuf *sb, size_t *ret_len);
void strbuf_release(struct strbuf *sb);

/*
 * Array @v of @n elements of @size bytes with room for @n + @extra, moved
 * as realloc() moves it; NULL (and @v untouched) when memory ran out.
 */
void *array_grow(void *v, size_t n, size_t extra, size_t size);

/* Room for one more element of array @v of @n elements: 0 or -ENOMEM. */
#define ARRAY_GROW(v, n)                                              \
	({                                                            \
		void *_grown = array_grow((v), (n), 1, sizeof(*(v))); \
		if (_grown)                                           \
			(v) = _grown;                                 \
		_grown ? 0 : -ENOMEM;                                 \
	})

#endif
