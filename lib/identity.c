// SPDX-License-Identifier: LGPL-2.1-or-later
/* Identity kinds ("wwn:", "path:", ...) and how their values compare. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

static const struct {
	const char *name;
	const char *dir; /* /dev/disk/ directory with links of this kind */
} kinds[_DA_ID_MAX] = {
	[DA_ID_WWN] = { "wwn", NULL },
	[DA_ID_SERIAL] = { "serial", NULL },
	[DA_ID_ID] = { "id", "by-id" },
	[DA_ID_PATH] = { "path", "by-path" },
	[DA_ID_UUID] = { "uuid", "by-uuid" },
	[DA_ID_LABEL] = { "label", "by-label" },
	[DA_ID_PARTUUID] = { "partuuid", "by-partuuid" },
	[DA_ID_PARTLABEL] = { "partlabel", "by-partlabel" },
	[DA_ID_SLOT] = { "slot", NULL },
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

DA_EXPORT const char *da_id_kind_dir(enum da_id_kind kind)
{
	return kind >= 0 && kind < _DA_ID_MAX ? kinds[kind].dir : NULL;
}

DA_EXPORT enum da_id_kind da_id_kind_from_dir(const char *dir, size_t len)
{
	for (int k = 0; k < _DA_ID_MAX; k++)
		if (kinds[k].dir && strncmp(kinds[k].dir, dir, len) == 0 && !kinds[k].dir[len])
			return k;
	return DA_ID_INVALID;
}

DA_EXPORT char *da_id_value_from_link(enum da_id_kind kind, const char *name)
{
	/* udev writes a label's blanks and the like as \xNN in its link's name. */
	return kind == DA_ID_LABEL || kind == DA_ID_PARTLABEL ? unescape_hex(name) : strdup(name);
}

enum da_id_kind da_id_kind_from_name_n(const char *name, size_t len)
{
	for (int i = 0; i < _DA_ID_MAX; i++)
		if (strncmp(kinds[i].name, name, len) == 0 && !kinds[i].name[len])
			return i;
	return DA_ID_INVALID;
}

DA_EXPORT enum da_id_kind da_id_kind_from_name(const char *name)
{
	return da_id_kind_from_name_n(name, strlen(name));
}

DA_EXPORT int da_identity_parse(const char *s, enum da_id_kind *ret_kind, const char **ret_value)
{
	const char *colon = strchr(s, ':');
	enum da_id_kind kind;

	if (!colon || !colon[1])
		return -EINVAL;
	kind = da_id_kind_from_name_n(s, colon - s);
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
	case DA_ID_SLOT: /* an enclosure id's hex digits */
		/* blkid prints UUIDs in lower case, some tools in upper. */
		return strcasecmp(a, b) == 0;
	default:
		return streq(a, b);
	}
}

DA_EXPORT const char *da_id_kinds_text(void)
{
	static char text[128];

	if (!text[0]) {
		size_t o = 0;

		for (int i = 0; i < _DA_ID_MAX; i++)
			o += snprintf(text + o, sizeof(text) - o, "%s%s", i ? ", " : "",
				      kinds[i].name);
	}
	return text;
}

/* @n >= @min bytes at @s, each a hex digit or one of @extra. */
static bool all_hex(const char *s, size_t min, const char *extra)
{
	size_t n = 0;

	for (; *s; s++, n++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
		      (*s >= 'A' && *s <= 'F') || (extra && strchr(extra, *s))))
			return false;
	return n >= min;
}

/* A WWN as the system shows one: 0x..., naa./eui. + hex, nvme. + hex and dashes, t10. + text, bare
 * hex. */
static bool wwn_valid(const char *v)
{
	if (has_prefix_ci(v, "t10."))
		return v[4] != '\0';
	if (has_prefix_ci(v, "nvme."))
		return all_hex(v + 5, 1, "-");
	return all_hex(wwn_body(v), 8, NULL);
}

/* ENCLOSURE_ID/SLOT: 0x and hex digits, a number as the kernel prints it; or pcie/NAME. */
static bool slot_valid(const char *v)
{
	const char *slash = strchr(v, '/');

	if (!slash || strchr(slash + 1, '/') || !slash[1])
		return false;
	if (slash - v == 4 && strncmp(v, "pcie", 4) == 0)
		return true;
	if (!has_prefix_ci(v, "0x") || slash == v + 2 || !is_number(slash + 1) ||
	    (slash[1] == '0' && slash[2]))
		return false;
	for (const char *p = v + 2; p < slash; p++)
		if (!isxdigit((unsigned char)*p))
			return false;
	return true;
}

DA_EXPORT int da_identity_check(enum da_id_kind kind, const char *value, const char **ret_reason)
{
	const char *reason = NULL;
	size_t len = value ? strlen(value) : 0;

	if (!da_id_kind_name(kind))
		reason = "unknown identity kind";
	else if (!len)
		reason = "the value is empty";
	else if (len > DA_ID_VALUE_MAX)
		reason = "the value is longer than 255 bytes";
	for (const char *p = value; !reason && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			reason = "control characters are not allowed in a value";
	if (!reason && (value[0] == ' ' || value[len - 1] == ' '))
		reason = "a value does not start or end with a blank";
	/*
	 * Serials and labels may hold blanks inside (a label "My Photos", a
	 * vendor's serial); link names, UUIDs and WWNs never do.
	 */
	if (!reason && strchr(value, ' ') && kind != DA_ID_SERIAL && kind != DA_ID_LABEL &&
	    kind != DA_ID_PARTLABEL && !(kind == DA_ID_WWN && has_prefix_ci(value, "t10.")))
		reason = "blanks are not allowed in this kind of value";
	if (!reason && kind == DA_ID_WWN && !wwn_valid(value))
		reason =
			"a WWN is hex digits (0x5000c500a1b2c3d4) or of the form naa.HEX, eui.HEX, nvme.HEX-HEX or t10.TEXT";
	if (!reason && kind == DA_ID_SLOT && !slot_valid(value))
		reason =
			"a slot is ENCLOSURE_ID/SLOT (0x5000ccab0405db7f/7: an enclosure's id and a slot number without leading zeros, as sysfs shows them) or pcie/NAME (a PCIe slot's name)";
	if (reason && ret_reason)
		*ret_reason = reason;
	return reason ? -EINVAL : 0;
}

char *da_identity_problem(const char *text, bool *ret_oom)
{
	_cleanup_free_ char *shown = str_escape(text, strlen(text), DA_QUOTE_MAX, true);
	const char *colon = strchr(text, ':'), *value, *reason;
	enum da_id_kind kind;
	char *msg = NULL;

	*ret_oom = false;
	if (da_identity_parse(text, &kind, &value) == 0 &&
	    da_identity_check(kind, value, &reason) == 0)
		return NULL;
	if (!shown) {
		*ret_oom = true;
		return NULL;
	}
	if (!colon) {
		msg = xasprintf("invalid identity '%s': expected KIND:VALUE, KIND one of %s", shown,
				da_id_kinds_text());
	} else if (da_id_kind_from_name_n(text, colon - text) == DA_ID_INVALID) {
		_cleanup_free_ char *k = str_escape(text, colon - text, DA_QUOTE_MAX, true);

		msg = k ? xasprintf("unknown identity kind '%s' (expected one of %s)", k,
				    da_id_kinds_text())
			: NULL;
	} else {
		da_identity_check(da_id_kind_from_name_n(text, colon - text), colon + 1, &reason);
		msg = xasprintf("invalid identity '%s': %s", shown, reason);
	}
	if (!msg)
		*ret_oom = true;
	return msg;
}
