// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Kernel log records as /dev/kmsg gives them (the kernel's
 * Documentation/ABI/testing/dev-kmsg): "PRI,SEQ,USEC,FLAGS[,...];TEXT",
 * then continuation lines " KEY=VALUE" with the record's metadata. The
 * kernel escapes unprintable bytes and '\' in both as \xNN.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

DA_EXPORT void da_kmsg_clear(struct da_kmsg *rec)
{
	if (!rec)
		return;
	free(rec->text);
	free(rec->subsystem);
	free(rec->device);
	memset(rec, 0, sizeof(*rec));
}

DA_EXPORT bool da_kmsg_is_record(const char *line, size_t len)
{
	unsigned int fields = 0;
	size_t i = 0;

	/* PRI,SEQ,USEC: numbers, then FLAGS and maybe more, up to ';'. */
	while (fields < 3) {
		size_t start = i;

		while (i < len && line[i] >= '0' && line[i] <= '9')
			i++;
		if (i == start || i == len || (line[i] != ',' && line[i] != ';'))
			return false;
		fields++;
		if (line[i] == ';')
			return fields == 3;
		i++;
	}
	return memchr(line + i, ';', len - i) != NULL;
}

/* The decimal number at *@p, before @end, saturated at UINT64_MAX; *@p is moved past it. */
static uint64_t parse_number(const char **p, const char *end)
{
	uint64_t v = 0;

	for (; *p < end && **p >= '0' && **p <= '9'; (*p)++)
		v = v > (UINT64_MAX - 9) / 10 ? UINT64_MAX : v * 10 + (uint64_t)(**p - '0');
	return v;
}

DA_EXPORT int da_kmsg_parse(const char *buf, size_t len, struct da_kmsg *ret)
{
	const char *end = buf + len, *nl = memchr(buf, '\n', len), *semi, *p = buf;
	uint64_t pri;
	struct da_kmsg rec = {};

	if (!nl)
		nl = end;
	/* The record's line, checked by its bytes: @buf need not end in a NUL. */
	if (!da_kmsg_is_record(buf, nl - buf))
		return -EINVAL;
	semi = memchr(buf, ';', nl - buf);
	pri = parse_number(&p, semi);
	p++;
	rec.seq = parse_number(&p, semi);
	p++;
	rec.usec = parse_number(&p, semi);
	rec.level = pri & 7;
	rec.facility = pri >> 3 > UINT_MAX ? UINT_MAX : (unsigned int)(pri >> 3);
	/* FLAGS: '-' alone, 'c' a continuation of an earlier record's line. */
	if (*p == ',' && p + 1 < semi && p[1] == 'c')
		rec.cont = true;
	rec.text = unescape_hex_n(semi + 1, nl - semi - 1, &rec.text_len);
	if (!rec.text)
		return -ENOMEM;
	for (p = nl < end ? nl + 1 : end; p < end;) {
		const char *e = memchr(p, '\n', end - p);
		size_t l = e ? (size_t)(e - p) : (size_t)(end - p);
		char **field = NULL;
		size_t skip = 0;

		if (l > 0 && p[0] == ' ') {
			if (l > 11 && strncmp(p, " SUBSYSTEM=", 11) == 0)
				field = &rec.subsystem, skip = 11;
			else if (l > 8 && strncmp(p, " DEVICE=", 8) == 0)
				field = &rec.device, skip = 8;
		}
		if (field && !*field) {
			*field = unescape_hex_n(p + skip, l - skip, NULL);
			if (!*field) {
				da_kmsg_clear(&rec);
				return -ENOMEM;
			}
		}
		p += l + 1;
	}
	*ret = rec;
	return 0;
}

DA_EXPORT struct da_device *da_kmsg_device(const struct da_devlist *list, const char *device)
{
	unsigned int major, minor;
	const char *name;
	char extra;

	if (!device)
		return NULL;
	if (sscanf(device, "b%u:%u%c", &major, &minor, &extra) == 2)
		return da_devlist_find_devnum(list, major, minor);
	if (strncmp(device, "+block:", 7) == 0)
		return da_devlist_find_kname(list, device + 7);
	if (strncmp(device, "+scsi:", 6) == 0) {
		name = device + 6;
		for (size_t i = 0; i < da_devlist_count(list); i++) {
			struct da_device *d = da_devlist_get(list, i);

			if (streq(da_device_hctl(d), name))
				return d;
		}
	}
	return NULL;
}
