// SPDX-License-Identifier: LGPL-2.1-or-later
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

int strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want, alloc;
	char *b;

	if (extra >= SIZE_MAX / 2 - sb->len)
		return -ENOMEM;
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return 0;
	alloc = sb->alloc ? sb->alloc : 64;
	while (alloc < want)
		alloc *= 2;
	b = realloc(sb->buf, alloc);
	if (!b)
		return -ENOMEM;
	if (!sb->buf)
		b[0] = '\0';
	sb->buf = b;
	sb->alloc = alloc;
	return 0;
}

int strbuf_addstr(struct strbuf *sb, const char *s)
{
	return strbuf_add(sb, s, strlen(s));
}

int strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || strbuf_grow(sb, n) < 0)
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
	va_end(ap);
	sb->len += n;
	return 0;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *strbuf_detach(struct strbuf *sb, size_t *ret_len)
{
	char *b = sb->buf ? sb->buf : strdup("");

	if (ret_len)
		*ret_len = sb->len;
	*sb = (struct strbuf)STRBUF_INIT;
	return b;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	*sb = (struct strbuf)STRBUF_INIT;
}

void *array_grow(void *v, size_t n, size_t extra, size_t size)
{
	size_t have = 1, want = n + extra;

	/* Room the array has: the power of two at or above n (none for an empty one). */
	while (n && have < n)
		have *= 2;
	if (n && want <= have)
		return v;
	while (have < want)
		have *= 2;
	if (have > SIZE_MAX / size)
		return NULL;
	return realloc(v, have * size);
}

int strbuf_spill(struct strbuf *sb, int fd, uint64_t *pos, size_t at_least)
{
	int r = 0;

	if (sb->len && sb->len >= at_least) {
		r = write_all_at(fd, sb->buf, sb->len, pos);
		strbuf_reset(sb);
	}
	return r;
}
