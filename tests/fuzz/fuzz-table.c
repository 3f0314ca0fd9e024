// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fuzz target for the alias table parser and editor. For any bytes:
 * - the table parses (a bad line binds nothing, it never fails the table),
 *   with one problem reported per problem kept, and its text is the input
 *   byte for byte;
 * - every alias that binds is found by its name, no two that bind share a
 *   name or partition name in any case or are each other's partition
 *   name, and no problem line binds;
 * - the text parsed again gives the same aliases and problems;
 * - edits keep every other line, bad ones included, byte for byte.
 *
 * Built with libFuzzer (clang -fsanitize=fuzzer) it fuzzes; built without,
 * fuzz-main.c runs it on a corpus and on deterministic mutations of it, as
 * the fuzz-smoke test suite.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <diskalias.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bound aliases of @t keep every rule of the table among themselves. */
static void check_bound(const struct da_table *t, const struct da_diag *diag)
{
	size_t n = da_table_count(t);

	for (size_t i = 0; i < n; i++) {
		const struct da_alias *a = da_table_get(t, i);
		char *base = NULL;
		unsigned int partno;

		if (da_table_find(t, da_alias_name(a)) != a || da_alias_index(a) != i ||
		    da_name_check(da_alias_name(a), NULL) < 0 ||
		    da_identity_check(da_alias_kind(a), da_alias_value(a), NULL) < 0)
			abort();
		if (da_partition_split(da_alias_name(a), &base, &partno) == 0 &&
		    da_table_find(t, base))
			abort();
		free(base);
		/* Partitions of two aliases never share a name (disk1 and disk1p: disk1p1). */
		for (size_t j = 0; j < i; j++) {
			char *p = da_partition_name(da_alias_name(a), 1);
			char *q = da_partition_name(da_alias_name(da_table_get(t, j)), 1);

			if (p && q && strcasecmp(p, q) == 0)
				abort();
			free(p);
			free(q);
		}
		for (size_t k = 0; diag && k < diag->n; k++)
			if (diag->v[k].line == da_alias_line(a))
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct da_diag diag = {}, again_diag = {};
	struct da_table *t = NULL, *again = NULL;
	size_t len, before_len;
	char *text, *before;

	if (da_table_parse("fuzz", (const char *)data, size, &diag, &t) < 0)
		return 0; /* out of memory, or a text of 1 GiB */
	if (diag.n != da_table_problems(t))
		abort();
	text = da_table_format(t, &len);
	if (!text || len != size || memcmp(text, data, size) != 0)
		abort();
	check_bound(t, &diag);
	if (da_table_parse("fuzz", text, len, &again_diag, &again) < 0 ||
	    da_table_count(again) != da_table_count(t) || again_diag.n != diag.n)
		abort();
	for (size_t k = 0; k < diag.n; k++)
		if (again_diag.v[k].line != diag.v[k].line ||
		    strcmp(again_diag.v[k].msg, diag.v[k].msg))
			abort();
	free(text);
	da_table_free(again);
	da_diag_clear(&again_diag);

	if (da_table_count(t) > 0) {
		const struct da_alias *a = da_table_get(t, 0);
		char *name = strdup(da_alias_name(a));

		if (da_table_rename(t, name, "renamed-by-fuzz", &diag) == 0 &&
		    !da_table_find(t, "renamed-by-fuzz"))
			abort();
		da_table_remove(t, da_table_find(t, "renamed-by-fuzz") ? "renamed-by-fuzz" : name,
				&diag);
		free(name);
		check_bound(t, NULL);
	}
	/* An added line goes at the end; everything before it stays as it was. */
	before = da_table_format(t, &before_len);
	if (da_table_add(t, "added-by-fuzz", DA_ID_LABEL, "a \"label\" #", &diag) == 0) {
		text = da_table_format(t, &len);
		if (!da_table_find(t, "added-by-fuzz") || len <= before_len ||
		    memcmp(text, before, before_len) != 0)
			abort();
		free(text);
	}
	free(before);
	check_bound(t, NULL);
	da_diag_clear(&diag);
	da_table_free(t);
	return 0;
}
