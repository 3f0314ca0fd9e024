// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fuzz target for the snapshot of a scan (lib/devcache.c: run/diskalias/
 * devices, read back by devcache_parse()), of the machine
 * tests/fixtures/mixed. The input spoils the snapshot of its scan: each 5
 * bytes are a place (4 bytes, taken modulo the file's length) and a byte
 * XORed into it; a first byte of 1 first cuts the file short where the
 * next 4 bytes say, its header's length set to match. A snapshot read back
 * unchanged holds every device, string and list of the scan; a spoiled one
 * is refused or read without a byte outside it (ASan and UBSan watch), and
 * every string of every device it gives starts and ends inside the part of
 * the file that stays mapped (checked here: ASan sees past a mapping only
 * at its page's end).
 *
 * Runs like the other targets: under libFuzzer, or on a corpus and its
 * deterministic mutations through fuzz-main.c (the fuzz-smoke suite).
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "device.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The md array of the fixture would make a read for DA_SCAN_STACK scan again. */
#define READ_DETAILS (DA_SCAN_DETAILS & ~DA_SCAN_STACK)

static const struct devcache_stamp stamp = { .seqnum = 4711, .udev = 0x5eed };
static struct strbuf image = STRBUF_INIT;
static struct strbuf want = STRBUF_INIT;

/*
 * A snapshot's string must start and end (its NUL) inside the part of the
 * file its list @l still maps (no @l: not checked): a mapping is only
 * caught by ASan past its page.
 */
static void check_inside(const struct da_devlist *l, const char *s)
{
	const char *start = l ? l->snap_map : NULL, *end = start ? start + l->snap_len : NULL;

	if (s && l && l->snap_map && (s < start || s >= end || !memchr(s, '\0', end - s))) {
		fprintf(stderr, "fuzz-snapshot: a string outside the snapshot\n");
		abort();
	}
}

static void add_str(const struct da_devlist *l, struct strbuf *sb, const char *what, const char *s)
{
	check_inside(l, s);
	if (strbuf_addf(sb, " %s=%s", what, s ? s : "(none)") < 0)
		abort();
}

/* Everything a snapshot keeps of the devices of @l, as text. */
static void dump(const struct da_devlist *l, struct strbuf *sb)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct da_device *d = l->v[i];

		if (strbuf_addf(sb, "%zu %u:%u %d p%u %" PRIu64 " %d%d", d->pos, d->major, d->minor,
				d->devtype, d->partno, d->size, d->removable, d->ro) < 0)
			abort();
		add_str(l, sb, "kname", d->kname);
		add_str(l, sb, "parent", d->parent ? d->parent->kname : NULL);
		/* Type and transport are device.c's static names, not the file's. */
		add_str(NULL, sb, "type", d->type);
		add_str(NULL, sb, "tran", d->tran);
		add_str(l, sb, "syspath", d->syspath);
		add_str(l, sb, "model", d->model);
		add_str(l, sb, "serial", d->serial);
		add_str(l, sb, "wwn", d->wwn);
		add_str(l, sb, "dm", d->dm_name);
		add_str(l, sb, "hctl", d->hctl);
		add_str(l, sb, "ata", d->ata);
		add_str(l, sb, "path", d->id_path);
		add_str(l, sb, "md", d->md_devname);
		for (unsigned int k = 0; k < _DEV_LIST_MAX; k++) {
			struct strv v = device_list(d, k);

			for (size_t j = 0; j < v.n; j++) {
				check_inside(l, v.v[j]);
				if (strbuf_addf(sb, " [%u]%s", k, v.v[j]) < 0)
					abort();
			}
		}
		if (strbuf_addstr(sb, "\n") < 0)
			abort();
	}
}

static void setup(void)
{
	const char *fixtures = getenv("FIXTURES");
	struct da_devlist *l = NULL;
	struct da_ctx *ctx = NULL;
	char root[4096];

	snprintf(root, sizeof(root), "%s/mixed", fixtures ? fixtures : FIXTURES_DIR);
	if (da_ctx_new(root, &ctx) < 0 || da_devlist_scan(ctx, NULL, &l) < 0 || l->n < 10 ||
	    devcache_image(&stamp, DA_SCAN_DETAILS, l, &image, -1) < 0)
		abort();
	dump(l, &want);
	da_devlist_free(l);
	da_ctx_unref(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf got = STRBUF_INIT;
	struct da_devlist *l = NULL;
	bool spoiled = false;
	size_t len;
	void *map;
	int r;

	if (!want.len)
		setup();
	if (size < 1)
		return 0;
	len = image.len;
	/* Mode 1: the file cut short at the first place, its header's length made to match. */
	if (data[0] == 1 && size >= 5) {
		uint32_t at;

		memcpy(&at, data + 1, sizeof(at));
		len = sizeof(struct devcache_header) +
		      at % (image.len - sizeof(struct devcache_header));
		spoiled = true;
	}
	/* A page-aligned private copy, as the mapped file would be. */
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		abort();
	memcpy(map, image.buf, len);
	if (len != image.len) {
		uint64_t n = len;

		memcpy((char *)map + offsetof(struct devcache_header, len), &n, sizeof(n));
	}
	for (size_t i = 1 + (data[0] == 1) * 4; i + 5 <= size; i += 5) {
		uint32_t at;

		memcpy(&at, data + i, sizeof(at));
		((uint8_t *)map)[at % len] ^= data[i + 4];
		spoiled |= data[i + 4] != 0;
	}
	r = devcache_parse(map, len, &stamp, READ_DETAILS, &l);
	if (r == -ENOMEM)
		abort();
	if (r == 0) {
		/* Refused: only a spoiled snapshot may be. */
		if (!spoiled)
			abort();
		return 0;
	}
	/* Every string is read to its end, and checked to lie inside the file. */
	dump(l, &got);
	if (!spoiled && (got.len != want.len || memcmp(got.buf, want.buf, got.len) != 0)) {
		fprintf(stderr, "fuzz-snapshot: the snapshot read back differs from its scan\n");
		abort();
	}
	strbuf_release(&got);
	da_devlist_free(l);
	return 0;
}
