// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fuzz target for the alias table parser and editor: any bytes either parse
 * into a table whose text is the input, byte for byte, or are refused with
 * at least one problem; edits of a parsed table keep it parseable.
 *
 * Built with libFuzzer (clang -fsanitize=fuzzer) it fuzzes; built without,
 * fuzz-main.c runs it on a corpus and on deterministic mutations of it, as
 * the fuzz-smoke test suite.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <diskalias.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct da_diag diag = {};
	struct da_table *t = NULL;
	size_t len;
	char *text;
	int r;

	r = da_table_parse("fuzz", (const char *)data, size, &diag, &t);
	if (r < 0) {
		if (r == -22 && diag.n == 0)
			abort();
		da_diag_clear(&diag);
		return 0;
	}
	if (diag.n)
		abort();
	text = da_table_format(t, &len);
	if (!text || len != size || memcmp(text, data, size) != 0)
		abort();
	free(text);
	if (da_table_count(t) > 0) {
		const struct da_alias *a = da_table_get(t, 0);
		char *name = strdup(da_alias_name(a));

		if (da_table_rename(t, name, "renamed-by-fuzz", &diag) == 0 &&
		    !da_table_find(t, "renamed-by-fuzz"))
			abort();
		da_table_remove(t, da_table_find(t, "renamed-by-fuzz") ? "renamed-by-fuzz" : name, &diag);
		free(name);
	}
	if (da_table_add(t, "added-by-fuzz", DA_ID_LABEL, "a \"label\"\n#", &diag) == 0 &&
	    !da_table_find(t, "added-by-fuzz"))
		abort();
	da_diag_clear(&diag);
	da_table_free(t);
	return 0;
}
