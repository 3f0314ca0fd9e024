// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fuzz target for the rewrite engine (lib/rewrite.c) on the machine
 * tests/fixtures/mixed: any text, rewritten in one piece, equals the same
 * text fed in pieces of any sizes (names cut across pieces, long lines,
 * NUL bytes and invalid UTF-8 included); text with no kernel name in it
 * comes out unchanged. The first input byte picks the mode and the piece
 * sizes.
 *
 * Runs like fuzz-table.c: under libFuzzer, or on a corpus and its
 * deterministic mutations through fuzz-main.c (the fuzz-smoke suite).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <diskalias.h>

#include "mixed-rewriters.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char table[] = "alias bay07 wwn:0x5000c500a1b2c3d4\n"
			    "alias dblog wwn:0x5000c500a1b2c3d5\n"
			    "alias bay1 wwn:0x5000c500a1b2c300\n"
			    "alias bay10 wwn:0x5000c500a1b2c326\n"
			    "alias fast serial:S4EVNX0M123456\n"
			    "alias vm-data serial:VBLK-DATA\n"
			    "alias xen0 path:xen-vbd-51712\n"
			    "alias card serial:0x1234abcd\n"
			    "alias lvdata id:dm-name-vg0-data\n"
			    "alias mirror id:md-uuid-0a1b2c3d:4e5f6071:8293a4b5:c6d7e8f9\n"
			    "alias Front wwn:0x5000c500a1b2c3d4\n";

struct out {
	char *buf;
	size_t len, size;
};

static int collect(void *userdata, const struct iovec *iov, int iovcnt)
{
	struct out *o = userdata;

	for (int i = 0; i < iovcnt; i++) {
		if (o->len + iov[i].iov_len > o->size) {
			o->size = 2 * (o->len + iov[i].iov_len);
			o->buf = realloc(o->buf, o->size);
			if (!o->buf)
				abort();
		}
		memcpy(o->buf + o->len, iov[i].iov_base, iov[i].iov_len);
		o->len += iov[i].iov_len;
	}
	return 0;
}

static struct da_rewriter *rw[3];
static struct out out[3];

static void setup(void)
{
	void *const userdata[3] = { &out[0], &out[1], &out[2] };

	mixed_rewriters(table, collect, userdata, rw);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int mode, seed;
	char *whole = NULL;
	size_t len, pos = 0;
	struct out *o;
	int n;

	if (!rw[0])
		setup();
	if (size < 1)
		return 0;
	mode = data[0] % 3;
	seed = data[0] / 3;
	data++;
	size--;
	o = &out[mode];
	n = da_rewrite_buf(rw[mode], data, size, &whole, &len);
	if (n < 0)
		abort();
	if (n == 0 && (len != size || memcmp(whole, data, size) != 0))
		abort();
	/* The same text fed in pieces of 1 to 64 bytes. */
	o->len = 0;
	for (unsigned int i = 0; pos < size; i++) {
		size_t piece = 1 + (seed * 31 + i * 7) % 64;

		if (piece > size - pos)
			piece = size - pos;
		if (da_rewriter_feed(rw[mode], data + pos, piece) < 0)
			abort();
		pos += piece;
	}
	if (da_rewriter_finish(rw[mode]) < 0)
		abort();
	if (o->len != len || memcmp(o->buf, whole, len) != 0) {
		fprintf(stderr, "fuzz-rewrite: mode %u: %zu bytes in pieces, %zu whole\n", mode,
			o->len, len);
		abort();
	}
	free(whole);
	return 0;
}
