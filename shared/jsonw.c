// SPDX-License-Identifier: LGPL-2.1-or-later
#include <inttypes.h>
#include <string.h>

#include "jsonw.h"
#include "util.h"

void jsonw_init(struct jsonw *w, FILE *f, bool pretty)
{
	*w = (struct jsonw){ .f = f, .pretty = pretty };
	w->first[0] = true;
}

/* Before a value: the comma after the one before, and its line in pretty output. */
static void before_value(struct jsonw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (!w->first[w->depth])
		fputc(',', w->f);
	w->first[w->depth] = false;
	if (w->pretty && w->depth > 0)
		fprintf(w->f, "\n%*s", 3 * (int)w->depth, "");
}

static void open_(struct jsonw *w, char c)
{
	before_value(w);
	fputc(c, w->f);
	if (w->depth + 1 < JSONW_DEPTH)
		w->depth++;
	w->first[w->depth] = true;
}

static void close_(struct jsonw *w, char c)
{
	bool empty = w->first[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (w->pretty && !empty)
		fprintf(w->f, "\n%*s", 3 * (int)w->depth, "");
	fputc(c, w->f);
	if (w->depth == 0)
		fputc('\n', w->f);
}

void jsonw_open_object(struct jsonw *w)
{
	open_(w, '{');
}

void jsonw_close_object(struct jsonw *w)
{
	close_(w, '}');
}

void jsonw_open_array(struct jsonw *w)
{
	open_(w, '[');
}

void jsonw_close_array(struct jsonw *w)
{
	close_(w, ']');
}

/* @len bytes as a JSON string's text: valid UTF-8 whatever they are. */
static void put_string(struct jsonw *w, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', w->f);
	for (size_t i = 0; i < len;) {
		size_t n = utf8_seq_len(s + i, len - i);

		if (n == 0) {
			fputs("\xef\xbf\xbd", w->f); /* U+FFFD */
			n = 1;
		} else if (n > 1) {
			fwrite(s + i, 1, n, w->f);
		} else if (s[i] == '"' || s[i] == '\\') {
			fprintf(w->f, "\\%c", s[i]);
		} else if (s[i] == '\n') {
			fputs("\\n", w->f);
		} else if (s[i] == '\t') {
			fputs("\\t", w->f);
		} else if (s[i] < 0x20 || s[i] == 0x7f) {
			fprintf(w->f, "\\u%04x", s[i]);
		} else {
			fputc(s[i], w->f);
		}
		i += n;
	}
	fputc('"', w->f);
}

void jsonw_key(struct jsonw *w, const char *key)
{
	before_value(w);
	put_string(w, key, strlen(key));
	fputs(w->pretty ? ": " : ":", w->f);
	w->after_key = true;
}

void jsonw_string(struct jsonw *w, const char *s, size_t len)
{
	before_value(w);
	put_string(w, s, len);
}

void jsonw_uint(struct jsonw *w, uint64_t v)
{
	before_value(w);
	fprintf(w->f, "%" PRIu64, v);
}

void jsonw_usec(struct jsonw *w, uint64_t usec)
{
	before_value(w);
	fprintf(w->f, "%" PRIu64 ".%06" PRIu64, usec / 1000000, usec % 1000000);
}

void jsonw_literal(struct jsonw *w, const char *literal)
{
	before_value(w);
	fputs(literal, w->f);
}
