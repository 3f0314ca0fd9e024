// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fuzz target for what the udev helper makes of its environment
 * (lib/udev.c): the input's lines are the kernel name, then "KEY=value"
 * properties, as udev would hand them (DEVPATH, DEVTYPE, PARTN, DEVLINKS,
 * ID_*). A kernel name that is empty or has a '/' is refused; any other
 * gives a device, and every name the table gives it is a valid alias or
 * an alias's partition name.
 *
 * Runs like fuzz-table.c: under libFuzzer, or on a corpus and its
 * deterministic mutations through fuzz-main.c (the fuzz-smoke suite).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <diskalias.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char table[] = "alias bay07 wwn:0x5000c500a1b2c3d4\n"
			    "alias disk9 serial:SER-A\n"
			    "alias boot partuuid:0a1b2c3d-02\n"
			    "alias slot3 path:pci-0000:00:05.0-scsi-0:0:3:0\n"
			    "alias byid id:nvme-Model_SER\n"
			    "alias root label:My\\x20Root\n";

static bool valid_name(const char *name)
{
	char *base = NULL;
	unsigned int partno;
	bool ok = da_name_check(name, NULL) == 0 ||
		  (da_partition_split(name, &base, &partno) == 0 && da_name_check(base, NULL) == 0);

	free(base);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct da_table *t;
	char *text = malloc(size + 1), **env, *kname;
	struct da_devlist *l = NULL;
	struct da_map *m = NULL;
	size_t n = 0;
	const char *name;
	int r;

	if (!t && da_table_parse("t", table, strlen(table), NULL, &t) < 0)
		abort();
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	env = calloc(size + 2, sizeof(*env));
	if (!env)
		abort();
	/* Line by line: the kernel name, then the properties. */
	kname = text;
	for (char *p = text, *nl; (nl = memchr(p, '\n', text + size - p)); p = nl + 1) {
		*nl = '\0';
		if (p != text)
			env[n++] = p;
		if (nl + 1 < text + size && !memchr(nl + 1, '\n', text + size - nl - 1))
			env[n++] = nl + 1;
	}
	r = da_devlist_from_udev(kname, env, &l);
	/* Refused: no kernel name, a '/' in it, or a partition whose disk name would be its own. */
	if ((!*kname || strchr(kname, '/')) && r != -22)
		abort();
	if (r == 0) {
		if (da_map_new(t, l, &m) < 0)
			abort();
		for (size_t i = 0;
		     (name = da_map_device_name(m, da_devlist_find_kname(l, kname), i)); i++)
			if (!valid_name(name))
				abort();
		da_map_free(m);
		da_devlist_free(l);
	}
	free(env);
	free(text);
	return 0;
}
