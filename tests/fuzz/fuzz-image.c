// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fuzz target for a kept rewriter's file (lib/rwcache.c, read back by
 * rewriter_from_image() in lib/rewrite.c), on the machine
 * tests/fixtures/mixed. The input spoils the image of a good rewriter:
 * each 5 bytes are a place (4 bytes, taken modulo the image's length) and
 * a byte XORed into it; the first input byte picks the mode. An image read
 * back unchanged rewrites a log exactly as the rewriter it was made of; a
 * spoiled one is refused or rewrites it without reading or writing a byte
 * outside what it was given (ASan and UBSan watch).
 *
 * Runs like the other targets: under libFuzzer, or on a corpus and its
 * deterministic mutations through fuzz-main.c (the fuzz-smoke suite).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"
#include "mixed-rewriters.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char table[] = "alias bay07 wwn:0x5000c500a1b2c3d4\n"
			    "alias dblog wwn:0x5000c500a1b2c3d5\n"
			    "alias bay1 wwn:0x5000c500a1b2c300\n"
			    "alias fast serial:S4EVNX0M123456\n"
			    "alias lvdata id:dm-name-vg0-data\n"
			    "alias mirror id:md-uuid-0a1b2c3d:4e5f6071:8293a4b5:c6d7e8f9\n";

static const char text[] = "sd 2:0:3:0: [sdc] tag#1 FAILED Result: hostbyte=DID_OK\n"
			   "blk_update_request: I/O error, dev sdc1, sector 2048\n"
			   "md/raid1:md0: Disk failure on /dev/mapper/vg0-data, nvme0n1p2 ata3.00\n"
			   "BAY07 bay1p3 /dev/disk/by-alias/dblog sdcc sdc.1 /sys/block/sdc\n";

static struct strbuf image[3];
static char *want[3];
static size_t want_len[3];

static void setup(void)
{
	struct da_rewriter *rw[3];

	mixed_rewriters(table, NULL, NULL, rw);
	for (int mode = 0; mode < 3; mode++) {
		if (rewriter_image(rw[mode], &image[mode]) < 0 ||
		    da_rewrite_buf(rw[mode], text, sizeof(text) - 1, &want[mode], &want_len[mode]) <
			    0)
			abort();
		da_rewriter_free(rw[mode]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct da_rewriter *rw = NULL;
	const struct strbuf *img;
	unsigned int mode;
	bool spoiled = false;
	char *out = NULL;
	size_t len;
	void *map;
	int r;

	if (!want[0])
		setup();
	if (size < 1)
		return 0;
	mode = data[0] % 3;
	img = &image[mode];
	/* A page-aligned private copy, as the mapped file would be. */
	map = mmap(NULL, img->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		abort();
	memcpy(map, img->buf, img->len);
	for (size_t i = 1; i + 5 <= size; i += 5) {
		uint32_t at;

		memcpy(&at, data + i, sizeof(at));
		((uint8_t *)map)[at % img->len] ^= data[i + 4];
		spoiled |= data[i + 4] != 0;
	}
	r = rewriter_from_image(map, img->len, 0, mode, NULL, NULL, &rw);
	if (r == -ENOMEM)
		abort();
	if (r < 0) {
		/* Refused: only a spoiled image may be. */
		if (!spoiled)
			abort();
		return 0;
	}
	if (da_rewrite_buf(rw, text, sizeof(text) - 1, &out, &len) < 0)
		abort();
	if (!spoiled && (len != want_len[mode] || memcmp(out, want[mode], len) != 0)) {
		fprintf(stderr, "fuzz-image: mode %u: the image read back rewrites otherwise\n",
			mode);
		abort();
	}
	free(out);
	da_rewriter_free(rw);
	return 0;
}
