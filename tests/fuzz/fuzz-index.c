// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fuzz target for the table's index (lib/tableindex.c): for any bytes that
 * parse as a table, a device carrying the identities of its first aliases
 * gets the same names through the index as through the whole table, and
 * the index is what answers the second time. Quoting, escapes and case in
 * the table's tokens all go through the index's copy of them.
 *
 * Runs like fuzz-table.c: under libFuzzer, or on a corpus and its
 * deterministic mutations through fuzz-main.c (the fuzz-smoke suite).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Under $TMPDIR (make fuzz points it at a tmpfs: each run writes two files). */
static char root[4096];
static char table_path[sizeof(root) + 32];
static struct da_ctx *ctx;

static void cleanup(void)
{
	char cmd[sizeof(root) + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz-index: cannot remove %s\n", root);
}

static void setup(void)
{
	char etc[sizeof(root) + 8];
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/diskalias-fuzz-index.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		abort();
	atexit(cleanup);
	snprintf(etc, sizeof(etc), "%s/etc", root);
	snprintf(table_path, sizeof(table_path), "%s/diskalias.conf", etc);
	if (mkdir(etc, 0755) < 0 || da_ctx_new(root, &ctx) < 0)
		abort();
}

/* The names @t gives device "sdz" of @l, joined by spaces. Caller frees. */
static char *names(const struct da_table *t, const struct da_devlist *l)
{
	struct da_map *m = NULL;
	char *out = strdup(""), *joined;
	const char *n;

	if (!out || da_map_new(t, l, &m) < 0)
		abort();
	for (size_t i = 0; (n = da_map_device_name(m, da_devlist_find_kname(l, "sdz"), i)); i++) {
		joined = xasprintf("%s %s", out, n);
		if (!joined)
			abort();
		free(out);
		out = joined;
	}
	da_map_free(m);
	return out;
}

/* True when an alias of @t past the first 3 has an identity key none of them has. */
static bool unmatched(const struct da_table *t)
{
	for (size_t j = 3; j < da_table_count(t); j++) {
		const struct da_alias *b = da_table_get(t, j);
		bool same = false;

		for (size_t i = 0; i < 3 && !same; i++) {
			const struct da_alias *a = da_table_get(t, i);

			same = da_alias_kind(a) == da_alias_kind(b) &&
			       strcasecmp(da_id_value_key(da_alias_kind(a), da_alias_value(a)),
					  da_id_value_key(da_alias_kind(b), da_alias_value(b))) ==
				       0;
		}
		if (!same)
			return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct da_table *whole = NULL, *first = NULL, *second = NULL;
	struct da_devlist *l = NULL;
	struct da_device *d = NULL;
	char *want, *got;
	FILE *f;

	if (!ctx)
		setup();
	if (da_table_parse("fuzz", (const char *)data, size, NULL, &whole) < 0)
		return 0;
	if (da_devlist_new_empty(&l) < 0 ||
	    da_devlist_add_device(l, "sdz", 8, 400, 0, NULL, &d) < 0)
		abort();
	for (size_t i = 0; i < 3 && i < da_table_count(whole); i++) {
		const struct da_alias *a = da_table_get(whole, i);

		if (da_device_add_identity(d, da_alias_kind(a), da_alias_value(a)) < 0)
			abort();
	}
	/* A new table each time: written whole, then renamed over the old one, as diskalias saves. */
	f = fopen(table_path, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	if (da_table_load_indexed(ctx, table_path, l, DA_INDEX_WRITE, NULL, &first) < 0 ||
	    da_table_load_indexed(ctx, table_path, l, DA_INDEX_WRITE, NULL, &second) < 0)
		abort();
	/* The first call parsed the table; the second read the index, and left out some line. */
	if (da_table_count(first) != da_table_count(whole) ||
	    (unmatched(whole) && da_table_count(second) >= da_table_count(whole)))
		abort();
	want = names(whole, l);
	got = names(second, l);
	if (strcmp(want, got) != 0) {
		fprintf(stderr, "fuzz-index: '%s' through the table, '%s' through the index\n",
			want, got);
		abort();
	}
	free(want);
	free(got);
	da_table_free(first);
	da_table_free(second);
	da_table_free(whole);
	da_devlist_free(l);
	return 0;
}
