// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fuzz target for the /dev/kmsg record parser (lib/kmsg.c): any bytes are
 * a record or refused; a record's text and metadata are within the input,
 * NUL-terminated; its DEVICE= names a device of tests/fixtures/mixed or
 * nothing, and never crashes the lookup.
 *
 * Runs like fuzz-table.c: under libFuzzer, or on a corpus and its
 * deterministic mutations through fuzz-main.c (the fuzz-smoke suite).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskalias.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct da_devlist *list;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct da_kmsg rec = {};
	int r;

	if (!list) {
		const char *fixtures = getenv("FIXTURES");
		struct da_ctx *ctx = NULL;
		char root[4096];

		snprintf(root, sizeof(root), "%s/mixed", fixtures ? fixtures : FIXTURES_DIR);
		if (da_ctx_new(root, &ctx) < 0 || da_devlist_scan(ctx, NULL, &list) < 0)
			abort();
		da_ctx_unref(ctx);
	}
	r = da_kmsg_parse((const char *)data, size, &rec);
	if (r == 0) {
		if (!da_kmsg_is_record((const char *)data, size) || rec.level > 7 || !rec.text ||
		    rec.text_len > size || rec.text[rec.text_len] != '\0')
			abort();
		if (rec.device)
			da_kmsg_device(list, rec.device);
	} else if (r != -22 && r != -12) {
		abort();
	}
	da_kmsg_clear(&rec);
	return 0;
}
