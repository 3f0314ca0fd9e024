// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Where an alias is in use through its /dev/disk/by-alias link: mounts
 * whose source is the link, and lines of fstab, crypttab, mdadm.conf and
 * smartd.conf that name it (rename refuses while there are any).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* True when @s[0..len) is @name or one of its partition names (bay07p1, dblog1). */
static bool is_name_or_part(const char *s, size_t len, const char *name)
{
	_cleanup_free_ char *word = strndup(s, len);
	unsigned int partno;

	if (!word)
		return false;
	/* Links are made in the name's own case: only that case is a use. */
	return streq(word, name) ||
	       (strncmp(word, name, strlen(name)) == 0 && da_partition_of(word, name, &partno));
}

/* The first "/dev/disk/by-alias/WORD" in @line where WORD is @name or a partition of it. */
static const char *find_link_use(const char *line, const char *name)
{
	static const char prefix[] = "/dev/disk/by-alias/";

	for (const char *p = strstr(line, prefix); p; p = strstr(p + 1, prefix)) {
		const char *w = p + strlen(prefix);
		size_t n = 0;

		while (da_name_char(w[n]))
			n++;
		if (n && is_name_or_part(w, n, name))
			return p;
	}
	return NULL;
}

struct uses {
	const char *name;
	da_use_fn fn;
	void *userdata;
	int n;
};

/* Call @fn on each line of @file under the root, numbered from 1; a missing file has none. */
static int each_line(const struct da_ctx *ctx, enum da_ctx_file file, struct uses *u,
		     int (*fn)(struct uses *u, const char *path, unsigned int lineno, char *line))
{
	_cleanup_free_ char *path = da_ctx_path(ctx, file), *buf = NULL;
	unsigned int lineno = 0;
	char *line, *next;
	int r;

	if (!path)
		return -ENOMEM;
	if (read_file(path, &buf, NULL) < 0)
		return 0;
	for (line = buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		r = fn(u, path, ++lineno, line);
		if (r < 0)
			return r;
	}
	return 0;
}

static int use_found(struct uses *u, const char *path, unsigned int lineno, const char *what)
{
	u->n++;
	return u->fn(u->userdata, path, lineno, what);
}

/* A mount whose source is a link of the name: mountinfo's field after " - " and the type. */
static int mount_use(struct uses *u, const char *path, unsigned int lineno, char *line)
{
	_cleanup_free_ char *what = NULL;
	char *f[32], *fsave = NULL, *src = NULL;
	size_t nf = 0;

	/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER */
	for (char *w = strtok_r(line, " ", &fsave); w && nf < ARRAY_SIZE(f);
	     w = strtok_r(NULL, " ", &fsave))
		f[nf++] = w;
	for (size_t i = 6; i + 2 < nf && !src; i++)
		if (streq(f[i], "-"))
			src = f[i + 2];
	if (!src || find_link_use(src, u->name) != src)
		return 0;
	what = xasprintf("%s mounted on %s", src, f[4]);
	return what ? use_found(u, path, lineno, what) : -ENOMEM;
}

/* A line of a configuration file that names a link of the name (comments are not uses). */
static int file_use(struct uses *u, const char *path, unsigned int lineno, char *line)
{
	const char *s = line + strspn(line, " \t");

	if (*s == '#' || !find_link_use(s, u->name))
		return 0;
	return use_found(u, path, lineno, s);
}

DA_EXPORT int da_name_find_uses(const struct da_ctx *ctx, const char *name, da_use_fn fn,
				void *userdata)
{
	static const enum da_ctx_file files[] = {
		DA_FILE_FSTAB,
		DA_FILE_CRYPTTAB,
		DA_FILE_MDADM_CONF,
		DA_FILE_SMARTD_CONF,
	};
	struct uses u = { .name = name, .fn = fn, .userdata = userdata };
	int r;

	r = each_line(ctx, DA_FILE_MOUNTINFO, &u, mount_use);
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(files); i++)
		r = each_line(ctx, files[i], &u, file_use);
	return r < 0 ? r : u.n;
}
