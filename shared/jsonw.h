/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A small JSON writer for record streams (dmesg -J): objects and arrays
 * nest, commas and indentation are its business, and every string it
 * writes is valid JSON and valid UTF-8 whatever bytes it is given
 * (control bytes as \u00XX, bytes that are not UTF-8 as U+FFFD).
 *
 * Invariants: a writer writes to one FILE it does not own; each open is
 * closed by the matching close, in order; jsonw_key() precedes each value
 * inside an object and never appears inside an array. Nesting deeper than
 * JSONW_DEPTH is the caller's bug (ignored beyond it).
 */
#ifndef DA_JSONW_H
#define DA_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSONW_DEPTH 8

struct jsonw {
	FILE *f;
	bool pretty; /* one member a line, indented; else all on one line */
	unsigned int depth;
	bool first[JSONW_DEPTH]; /* no member written yet at this depth */
	bool after_key;
};

/* A writer to @f; @pretty indents as util-linux's JSON does. */
void jsonw_init(struct jsonw *w, FILE *f, bool pretty);
void jsonw_open_object(struct jsonw *w);
void jsonw_close_object(struct jsonw *w);
void jsonw_open_array(struct jsonw *w);
void jsonw_close_array(struct jsonw *w);
/* The name of the next member of the object open. */
void jsonw_key(struct jsonw *w, const char *key);
/* A string of @len bytes of any kind. */
void jsonw_string(struct jsonw *w, const char *s, size_t len);
void jsonw_uint(struct jsonw *w, uint64_t v);
/* true, false or null. */
void jsonw_literal(struct jsonw *w, const char *literal);
/* A number of microseconds as seconds with six decimals (dmesg's "time"). */
void jsonw_usec(struct jsonw *w, uint64_t usec);

#endif
