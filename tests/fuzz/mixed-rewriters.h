/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fuzz targets' rewriters: the machine tests/fixtures/mixed named by a table. */
#ifndef FUZZ_MIXED_REWRITERS_H
#define FUZZ_MIXED_REWRITERS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskalias.h>

/*
 * A rewriter in each mode (indexed by it) for the devices of the fixture
 * "mixed" ($FIXTURES, else FIXTURES_DIR) named by @table, the one of mode
 * M writing through @write to @userdata[M]. Aborts on any failure.
 */
static inline void mixed_rewriters(const char *table, da_rewrite_write_fn write,
				   void *const userdata[3], struct da_rewriter *rw[3])
{
	const char *fixtures = getenv("FIXTURES");
	struct da_table *t = NULL;
	struct da_devlist *l = NULL;
	struct da_ctx *ctx = NULL;
	struct da_map *m = NULL;
	char root[4096];

	snprintf(root, sizeof(root), "%s/mixed", fixtures ? fixtures : FIXTURES_DIR);
	if (da_ctx_new(root, &ctx) < 0 || da_devlist_scan(ctx, NULL, &l) < 0 ||
	    da_table_parse("t", table, strlen(table), NULL, &t) < 0 || da_map_new(t, l, &m) < 0)
		abort();
	for (int mode = 0; mode < 3; mode++)
		if (da_rewriter_new(m, mode, write, userdata ? userdata[mode] : NULL, &rw[mode]) <
		    0)
			abort();
	/* The rewriters keep copies of the names: the map may go. */
	da_map_free(m);
	da_devlist_free(l);
	da_table_free(t);
	da_ctx_unref(ctx);
}

#endif
