// SPDX-License-Identifier: LGPL-2.1-or-later
/* Alias names: what is allowed, and how partitions of an alias are named. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

#define NAME_MAX_LEN 64

/* ASCII only and no locale lookups: names are checked for every line of a table. */
static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * Kernel block device names, in a tiny pattern language: "%a" is one or more
 * lower-case letters, "%d" one or more digits, anything else itself. Each may
 * be followed by a partition suffix (p?digits), as the kernel names them.
 */
/* clang-format off */
static const char *const kernel_patterns[] = {
	"sd%a", "hd%a", "vd%a", "xvd%a", "nvme%dn%d", "mmcblk%d", "loop%d", "dm-%d", "md%d",
	"sr%d", "nbd%d", "zram%d", "ram%d", "rbd%d", "pmem%d",
};
/* clang-format on */

static const char *match_class(const char *s, char class)
{
	const char *start = s;

	if (class == 'a')
		while (*s >= 'a' && *s <= 'z')
			s++;
	else
		while (is_digit(*s))
			s++;
	return s == start ? NULL : s;
}

static bool is_partition_suffix(const char *s)
{
	if (*s == '\0')
		return true;
	if (*s == 'p')
		s++;
	return is_number(s);
}

static bool match_pattern(const char *pat, const char *s)
{
	while (*pat) {
		if (pat[0] == '%') {
			s = match_class(s, pat[1]);
			if (!s)
				return false;
			pat += 2;
		} else if (*pat++ != *s++) {
			return false;
		}
	}
	return is_partition_suffix(s);
}

DA_EXPORT bool da_name_is_kernel_like(const char *name)
{
	const char *digits_end;

	if (is_digit(name[0])) {
		/* A number, or MAJ:MIN. */
		digits_end = match_class(name, 'd');
		return !*digits_end || (*digits_end == ':' && is_number(digits_end + 1));
	}
	/* Most names start with none of the patterns' first letters. */
	switch (name[0]) {
	case 'd':
	case 'h':
	case 'l':
	case 'm':
	case 'n':
	case 'p':
	case 'r':
	case 's':
	case 'v':
	case 'x':
	case 'z':
		break;
	default:
		return false;
	}
	for (size_t i = 0; i < ARRAY_SIZE(kernel_patterns); i++)
		if (match_pattern(kernel_patterns[i], name))
			return true;
	return false;
}

bool da_name_char(char c)
{
	return is_alnum(c) || c == '.' || c == '_' || c == '+' || c == '-';
}

/* Every byte one of A-Z a-z 0-9 . _ + - (a table load checks thousands of names). */
static bool all_name_chars(const char *s)
{
	for (; *s; s++)
		if (!da_name_char(*s))
			return false;
	return true;
}

DA_EXPORT int da_name_check(const char *name, const char **ret_reason)
{
	const char *reason = NULL;
	size_t len = strlen(name);

	if (len == 0)
		reason = "empty name";
	else if (len > NAME_MAX_LEN)
		reason = "longer than 64 bytes";
	else if (!all_name_chars(name))
		reason = "only letters, digits and . _ + - are allowed";
	else if (!is_alnum(name[0]))
		reason = "must start with a letter or a digit";
	else if (is_number(name))
		reason = "a bare number could be mistaken for a device number";
	else if (da_name_is_kernel_like(name))
		reason = "looks like a kernel device name";
	if (!reason)
		return 0;
	if (ret_reason)
		*ret_reason = reason;
	return -EINVAL;
}

bool da_partition_takes_p(const char *name, size_t len)
{
	return len > 0 && is_digit(name[len - 1]);
}

size_t da_partition_twin_len(const char *name, size_t len)
{
	if (len >= 2 && (name[len - 1] == 'p' || name[len - 1] == 'P') && is_digit(name[len - 2]))
		return len - 1;
	return 0;
}

bool da_partition_of(const char *name, const char *base, unsigned int *ret_partno)
{
	size_t blen = strlen(base);
	const char *num = name + blen;

	if (strncasecmp(name, base, blen) != 0 || !*num)
		return false;
	if (da_partition_takes_p(base, blen)) {
		if (*num != 'p' && *num != 'P')
			return false;
		num++;
	}
	/* Digits, without the leading zero the kernel never prints. */
	return is_digit(*num) && *num != '0' && parse_uint(num, ret_partno) == 0;
}

char *da_link_partition(const char *disk_link, unsigned int partno)
{
	char num[16];

	return strjoin(disk_link, "-part", uint_str(num, sizeof(num), partno), NULL);
}

size_t da_link_disk_len(const char *link, unsigned int partno)
{
	char suffix[32];
	size_t n = strlen(link), slen = snprintf(suffix, sizeof(suffix), "-part%u", partno);

	if (n <= slen || strcmp(link + n - slen, suffix) != 0)
		return 0;
	return n - slen;
}

DA_EXPORT char *da_partition_name(const char *alias, unsigned int partno)
{
	bool digit = da_partition_takes_p(alias, strlen(alias));
	char num[16];

	return strjoin(alias, digit ? "p" : "", uint_str(num, sizeof(num), partno), NULL);
}

size_t da_partition_base_len(const char *name, size_t len, unsigned int *ret_partno)
{
	size_t end = len;
	unsigned int partno;

	while (end > 0 && is_digit(name[end - 1]))
		end--;
	/* No digits, nothing before them, or a leading zero the kernel never prints. */
	if (end == len || end == 0 || name[end] == '0')
		return 0;
	if (parse_uint(name + end, &partno) < 0 || partno == 0)
		return 0;
	/* After a base ending in a digit the kernel puts a 'p' (in any case, as names compare). */
	if (end >= 2 && (name[end - 1] == 'p' || name[end - 1] == 'P') && is_digit(name[end - 2]))
		end--;
	else if (is_digit(name[end - 1]))
		return 0;
	*ret_partno = partno;
	return end;
}

DA_EXPORT int da_partition_split(const char *name, char **ret_base, unsigned int *ret_partno)
{
	unsigned int partno;
	size_t end = da_partition_base_len(name, strlen(name), &partno);
	char *base;

	if (!end)
		return -EINVAL;
	base = strndup(name, end);
	if (!base)
		return -ENOMEM;
	*ret_base = base;
	*ret_partno = partno;
	return 0;
}
