// SPDX-License-Identifier: LGPL-2.1-or-later
/* Identity kinds ("wwn:", "path:", ...) and how their values compare. */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

static const struct {
	const char *name;
	const char *dir;	/* /dev/disk/ directory with links of this kind */
} kinds[_DA_ID_MAX] = {
	[DA_ID_WWN] = { "wwn", NULL },
	[DA_ID_SERIAL] = { "serial", NULL },
	[DA_ID_ID] = { "id", "by-id" },
	[DA_ID_PATH] = { "path", "by-path" },
	[DA_ID_UUID] = { "uuid", "by-uuid" },
	[DA_ID_LABEL] = { "label", "by-label" },
	[DA_ID_PARTUUID] = { "partuuid", "by-partuuid" },
	[DA_ID_PARTLABEL] = { "partlabel", "by-partlabel" },
};

const struct da_udev_prop da_udev_props[] = {
	{ "ID_WWN_WITH_EXTENSION", DA_ID_WWN, true },
	{ "ID_WWN", DA_ID_WWN, true },
	{ "ID_SCSI_SERIAL", DA_ID_SERIAL, true },
	{ "ID_SERIAL_SHORT", DA_ID_SERIAL, true },
	{ "ID_FS_UUID", DA_ID_UUID, false },
	{ "ID_FS_LABEL", DA_ID_LABEL, false },
	{ "ID_PART_ENTRY_UUID", DA_ID_PARTUUID, false },
	{ "ID_PART_ENTRY_NAME", DA_ID_PARTLABEL, false },
	{},
};

DA_EXPORT const char *da_id_kind_name(enum da_id_kind kind)
{
	return kind >= 0 && kind < _DA_ID_MAX ? kinds[kind].name : NULL;
}

const char *da_id_kind_dir(enum da_id_kind kind)
{
	return kind >= 0 && kind < _DA_ID_MAX ? kinds[kind].dir : NULL;
}

DA_EXPORT enum da_id_kind da_id_kind_from_name(const char *name)
{
	for (int i = 0; i < _DA_ID_MAX; i++)
		if (streq(kinds[i].name, name))
			return i;
	return DA_ID_INVALID;
}

DA_EXPORT int da_identity_parse(const char *s, enum da_id_kind *ret_kind, const char **ret_value)
{
	const char *colon = strchr(s, ':');
	enum da_id_kind kind = DA_ID_INVALID;

	if (!colon || !colon[1])
		return -EINVAL;
	for (int i = 0; i < _DA_ID_MAX && kind == DA_ID_INVALID; i++)
		if (strncmp(kinds[i].name, s, colon - s) == 0 && !kinds[i].name[colon - s])
			kind = i;
	if (kind == DA_ID_INVALID)
		return -EINVAL;
	*ret_kind = kind;
	*ret_value = colon + 1;
	return 0;
}

/*
 * A WWN is written 0x5000c500a1b2c3d4 by udev, naa.5000c500a1b2c3d4 by the
 * kernel and bare by some vendors: they are one WWN.
 */
/* @s starts with lower-case ASCII @prefix, in any case (no locale: called per table line). */
static bool has_prefix_ci(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if ((*s >= 'A' && *s <= 'Z' ? *s + ('a' - 'A') : *s) != *prefix)
			return false;
	return true;
}

static const char *wwn_body(const char *s)
{
	if (has_prefix_ci(s, "naa.") || has_prefix_ci(s, "eui."))
		s += 4;
	if (has_prefix_ci(s, "0x"))
		s += 2;
	return s;
}

const char *da_id_value_key(enum da_id_kind kind, const char *value)
{
	return kind == DA_ID_WWN ? wwn_body(value) : value;
}

DA_EXPORT bool da_id_value_equal(enum da_id_kind kind, const char *a, const char *b)
{
	switch (kind) {
	case DA_ID_WWN:
		return strcasecmp(wwn_body(a), wwn_body(b)) == 0;
	case DA_ID_UUID:
	case DA_ID_PARTUUID:
		/* blkid prints UUIDs in lower case, some tools in upper. */
		return strcasecmp(a, b) == 0;
	default:
		return streq(a, b);
	}
}
