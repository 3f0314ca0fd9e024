// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The alias table: parsing with file:line problems, validation, edits that
 * keep every other byte, and atomic saving under a lock.
 *
 * The table keeps its text as lines and the aliases parsed from them. An
 * edit builds the new text and parses it again, so a table in memory is
 * always one that parses, and a failed edit leaves it untouched.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "hashmap.h"
#include "internal.h"

struct da_alias {
	char *name;
	enum da_id_kind kind;
	char *value;
	char *identity;		/* kind:value, unquoted */
	unsigned int line;
	/* 32 bits: a table's text is one buffer, far smaller than 4 GiB (load refuses more). */
	unsigned int index;
	unsigned int lineidx;
	unsigned int name_off, name_len;	/* the name token in its line */
	unsigned int id_off, id_len;		/* the identity token in its line */
};

struct tline {
	const char *text;	/* the bytes of the line in the table's text, with its newline */
	size_t len;
};

/*
 * Parsing allocates a handful of blocks whatever the table's size (the
 * udev helper parses a table of thousands of aliases once per device and
 * boot): the text in one buffer the lines point into, every token in one
 * arena the aliases point into, and the aliases in one array.
 */
struct da_table {
	char *path;
	char *text;		/* the whole table; not NUL-terminated line by line */
	char *arena;		/* unquoted tokens, NUL-terminated, for the aliases */
	size_t arena_used;
	bool text_mapped;	/* text is the file, mapped read-only (text_len bytes) */
	size_t text_len;
	struct da_alias *store;	/* the aliases in table order, room for one per line */
	struct tline *lines;
	size_t nlines;
	size_t naliases;
	struct hashmap names;	/* folded alias name -> alias */
	struct hashmap bases;	/* folded partition base of an alias name -> alias */
};

struct token {
	size_t off, len;	/* raw bytes in the line */
	char *value;		/* unquoted */
	size_t vlen;		/* strlen(value) */
};

static void table_clear(struct da_table *t)
{
	if (t->text_mapped)
		munmap(t->text, t->text_len);
	else
		free(t->text);
	free(t->arena);
	free(t->store);
	free(t->lines);
	hashmap_free(&t->names);
	hashmap_free(&t->bases);
	t->text = t->arena = NULL;
	t->store = NULL;
	t->text_mapped = false;
	t->lines = NULL;
	t->naliases = t->nlines = t->arena_used = 0;
}

DA_EXPORT void da_table_free(struct da_table *t)
{
	if (!t)
		return;
	table_clear(t);
	free(t->path);
	free(t);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * Read one token starting at @s[*pos]. Double quotes group bytes with
 * blanks; inside them \" \\ and \xHH are escapes. Returns 0, 1 at the end of
 * the statement (end of line or a comment), or -EINVAL with *ret_err set.
 */
/* Bytes that end a run of plain token bytes outside quotes: blanks, newline, quote. */
static const bool ends_plain_run[256] = {
	[' '] = true, ['\t'] = true, ['\r'] = true, ['\v'] = true, ['\f'] = true,
	['\n'] = true, ['"'] = true,
};

static int next_token(struct da_table *t, const char *s, size_t len, size_t *pos,
		      struct token *tok, const char **ret_err)
{
	size_t i = *pos, o = 0;
	bool quoted = false;
	char *v;

	while (i < len && is_blank(s[i]))
		i++;
	if (i >= len || s[i] == '\n' || s[i] == '#') {
		*pos = i;
		return 1;
	}
	/* The arena has room for every token of a line and its NUL (see parse_into()). */
	v = t->arena + t->arena_used;
	tok->off = i;
	for (; i < len && s[i] != '\n' && (quoted || !is_blank(s[i])); i++) {
		if (!quoted && !ends_plain_run[(unsigned char)s[i]]) {
			/* The common case, a run of plain bytes, copied at once. */
			size_t start = i;

			while (i + 1 < len && !ends_plain_run[(unsigned char)s[i + 1]])
				i++;
			memcpy(v + o, s + start, i + 1 - start);
			o += i + 1 - start;
		} else if (s[i] == '"') {
			quoted = !quoted;
		} else if (quoted && s[i] == '\\' && i + 1 < len && (s[i + 1] == '"' || s[i + 1] == '\\')) {
			v[o++] = s[++i];
		} else if (quoted && s[i] == '\\' && i + 3 < len && s[i + 1] == 'x' &&
			   hexval(s[i + 2]) >= 0 && hexval(s[i + 3]) >= 0) {
			v[o++] = (char)(hexval(s[i + 2]) * 16 + hexval(s[i + 3]));
			i += 3;
		} else {
			v[o++] = s[i];
		}
	}
	if (quoted) {
		*ret_err = "unterminated quote";
		return -EINVAL;
	}
	v[o] = '\0';
	t->arena_used += o + 1;
	tok->len = i - tok->off;
	tok->value = v;
	tok->vlen = o;
	*pos = i;
	return 0;
}

/*
 * Why @name cannot join the table beside the aliases already in it (@self,
 * being renamed, does not count), as a message the caller frees; NULL when
 * it can. *ret_oom is set when memory ran out.
 */
static char *name_conflict(const struct da_table *t, const char *name, const struct da_alias *self,
			   bool *ret_oom)
{
	_cleanup_free_ char *base = NULL;
	const struct da_alias *a;
	unsigned int partno;
	const char *reason;
	char *msg = NULL;
	size_t len = strlen(name), baselen;

	*ret_oom = false;
	if (da_name_check(name, &reason) < 0) {
		msg = xasprintf("invalid alias name '%s': %s", name, reason);
		goto out;
	}
	a = hashmap_getn(&t->names, name, len);
	if (a && a != self) {
		if (streq(a->name, name))
			msg = xasprintf("alias '%s' is already defined (line %u)", name, a->line);
		else
			msg = xasprintf("alias '%s' differs from alias '%s' (line %u) only in case",
					name, a->name, a->line);
		goto out;
	}
	baselen = da_partition_base_len(name, len, &partno);
	if (baselen) {
		a = hashmap_getn(&t->names, name, baselen);
		if (a && a != self) {
			msg = xasprintf("alias '%s' is the name of partition %u of alias '%s' (line %u)",
					name, partno, a->name, a->line);
			goto out;
		}
	}
	/* Most tables have no alias that looks like a partition name: skip the lookup. */
	a = t->bases.n ? hashmap_getn(&t->bases, name, len) : NULL;
	if (a && a != self) {
		da_partition_split(a->name, &base, &partno);
		msg = xasprintf("alias '%s' (line %u) is the name of partition %u of alias '%s'",
				a->name, a->line, partno, name);
	}
	return msg;
out:
	if (!msg)
		*ret_oom = true;
	return msg;
}

static int index_alias(struct da_table *t, struct da_alias *a)
{
	size_t len = strlen(a->name), baselen;
	unsigned int partno;
	int r;

	r = hashmap_putn(&t->names, a->name, len, a);
	if (r < 0)
		return r;
	baselen = da_partition_base_len(a->name, len, &partno);
	/* Keyed by the base's bytes inside the alias's own name, which lives on. */
	if (baselen)
		r = hashmap_putn(&t->bases, a->name, baselen, a);
	return r;
}


static const char *const statement_usage = "expected 'alias NAME KIND:VALUE'";

/* Parse line @t->lines[idx]; problems go to @diag. Returns 1 for a problem, 0, or -ENOMEM. */
static int parse_line(struct da_table *t, size_t idx, bool nul, struct da_diag *diag)
{
	const char *s = t->lines[idx].text, *err = NULL, *value;
	size_t len = t->lines[idx].len, pos = 0, ntok = 0;
	unsigned int line = idx + 1;
	struct token tok[4];
	struct da_alias *a = NULL;
	enum da_id_kind kind;
	char *msg;
	bool oom;
	int r = 0;

	if (nul && memchr(s, '\0', len))
		return da_diag_add(diag, t->path, line, false, "NUL byte in line") ?: 1;
	while (ntok < ARRAY_SIZE(tok)) {
		r = next_token(t, s, len, &pos, &tok[ntok], &err);
		if (r != 0)
			break;
		ntok++;
	}
	if (r < 0) {
		if (r == -ENOMEM)
			goto out;
		r = da_diag_add(diag, t->path, line, false, "%s", err) ?: 1;
		goto out;
	}
	r = 0;
	if (ntok == 0)
		goto out;
	if (tok[0].vlen != 5 || memcmp(tok[0].value, "alias", 5) != 0) {
		r = da_diag_add(diag, t->path, line, false, "unknown statement '%s'", tok[0].value) ?: 1;
		goto out;
	}
	if (ntok != 3) {
		r = da_diag_add(diag, t->path, line, false, "%s %s", ntok < 3 ? "incomplete statement:" :
				"too many words:", statement_usage) ?: 1;
		goto out;
	}
	if (da_identity_parse(tok[2].value, &kind, &value) < 0) {
		r = da_diag_add(diag, t->path, line, false,
				"invalid identity '%s': expected KIND:VALUE, KIND one of wwn, serial, id, path, uuid, label, partuuid, partlabel",
				tok[2].value) ?: 1;
		goto out;
	}
	msg = name_conflict(t, tok[1].value, NULL, &oom);
	if (oom) {
		r = -ENOMEM;
		goto out;
	}
	if (msg) {
		r = da_diag_add(diag, t->path, line, false, "%s", msg) ?: 1;
		free(msg);
		goto out;
	}
	a = &t->store[t->naliases];
	a->name = tok[1].value;
	a->kind = kind;
	a->value = (char *)value;
	a->identity = tok[2].value;
	a->line = line;
	a->lineidx = idx;
	a->name_off = tok[1].off;
	a->name_len = tok[1].len;
	a->id_off = tok[2].off;
	a->id_len = tok[2].len;
	a->index = t->naliases;
	t->naliases++;
	r = index_alias(t, a);
out:
	return r;
}

enum text_mode {
	TEXT_COPY,	/* the table takes a copy */
	TEXT_OWNED,	/* the table takes the buffer (with room for a NUL after it) */
	TEXT_MAPPED,	/* the table takes a read-only mapping of @len bytes */
};

/*
 * Parse @buf into the empty table @t as @mode says; a buffer or mapping it
 * takes is freed with the table whatever happens. Returns the number of
 * problems, -ENOMEM, or -EFBIG for a text of 1 GiB or more.
 */
static int parse_text(struct da_table *t, char *buf, size_t len, enum text_mode mode,
		      struct da_diag *diag)
{
	size_t start = 0, n = 0;
	int r, problems = 0;
	bool nul;

	hashmap_init(&t->names, true);
	hashmap_init(&t->bases, true);
	for (const char *p = buf; (p = memchr(p, '\n', len - (p - buf))); p++)
		n++;
	n++;
	/* A line's tokens are at most its bytes, and parse_line() reads at most 4 of them. */
	t->text = mode == TEXT_COPY ? malloc(len + 1) : buf;
	t->text_mapped = mode == TEXT_MAPPED;
	t->text_len = len;
	if (len >= 1U << 30)
		return -EFBIG;
	t->arena = malloc(len + 4 * n + 1);
	t->lines = malloc(n * sizeof(*t->lines));
	t->store = calloc(n, sizeof(*t->store));
	if (!t->text || !t->arena || !t->lines || !t->store ||
	    hashmap_reserve(&t->names, n) < 0)
		return -ENOMEM;
	if (mode == TEXT_COPY)
		memcpy(t->text, buf, len);
	if (mode != TEXT_MAPPED)
		t->text[len] = '\0';
	while (start < len) {
		const char *nl = memchr(t->text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - t->text) + 1 : len;

		t->lines[t->nlines].text = t->text + start;
		t->lines[t->nlines++].len = end - start;
		start = end;
	}
	/* Lines with a NUL byte are errors; looked for line by line only when there is one. */
	nul = memchr(t->text, '\0', len) != NULL;
	for (size_t i = 0; i < t->nlines; i++) {
		r = parse_line(t, i, nul, diag);
		if (r < 0)
			return r;
		problems += r;
	}
	return problems;
}

static struct da_table *table_new(const char *path)
{
	struct da_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->path = strdup(path ? path : "-");
	if (!t->path) {
		free(t);
		return NULL;
	}
	return t;
}

DA_EXPORT int da_table_parse(const char *path, const char *buf, size_t len, struct da_diag *diag,
			     struct da_table **ret_table)
{
	struct da_table *t = table_new(path);
	int r;

	if (!t)
		return -ENOMEM;
	r = parse_text(t, (char *)buf, len, TEXT_COPY, diag);
	if (r != 0) {
		da_table_free(t);
		return r < 0 ? r : -EINVAL;
	}
	*ret_table = t;
	return 0;
}

/* As da_table_parse() on a buffer or mapping the table takes, freed whatever happens. */
static int table_parse_taken(const char *path, char *buf, size_t len, enum text_mode mode,
			     struct da_diag *diag, struct da_table **ret_table)
{
	struct da_table *t = table_new(path);
	int r;

	if (!t) {
		if (mode == TEXT_MAPPED)
			munmap(buf, len);
		else
			free(buf);
		return -ENOMEM;
	}
	r = parse_text(t, buf, len, mode, diag);
	if (r != 0) {
		da_table_free(t);
		return r < 0 ? r : -EINVAL;
	}
	*ret_table = t;
	return 0;
}

/* Refuse, when root, a table that someone other than root could have written. */
static int check_owner(const char *path, const struct stat *st, struct da_diag *diag)
{
	if (geteuid() != 0)
		return 0;
	if (st->st_uid != 0)
		return da_diag_add(diag, path, 0, false,
				   "not owned by root; refusing to use it as root") ?: -EPERM;
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return da_diag_add(diag, path, 0, false,
				   "writable by group or others; refusing to use it as root (chmod go-w)") ?: -EPERM;
	return 0;
}

int da_table_open(const char *path, int *ret_fd, struct stat *st, struct da_diag *diag)
{
	int fd, r;

	*ret_fd = -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		if (r == -ENOENT)
			return 0;
		da_diag_add(diag, path, 0, false, "%s", strerror(-r));
		return r;
	}
	r = fstat(fd, st) < 0 ? -errno : 0;
	if (r == 0 && S_ISDIR(st->st_mode))
		r = da_diag_add(diag, path, 0, false, "is a directory") ?: -EISDIR;
	if (r == 0)
		r = check_owner(path, st, diag);
	if (r < 0) {
		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 0;
}

int da_table_load_opened(const char *path, int fd, const struct stat *st, struct da_diag *diag,
			 struct da_table **ret_table)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r;

	if (fd < 0)
		return da_table_parse(path, "", 0, diag, ret_table);
	/*
	 * A regular file is mapped, not read: the udev helper parses the table
	 * for every device at boot, and a mapping of the page cache costs a
	 * handful of faults where a copy costs one per page. Tables are
	 * replaced by rename, never rewritten in place.
	 */
	if (S_ISREG(st->st_mode) && st->st_size > 0 && (uint64_t)st->st_size < 1U << 30) {
		void *map = mmap(NULL, st->st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (map != MAP_FAILED)
			return table_parse_taken(path, map, st->st_size, TEXT_MAPPED, diag, ret_table);
	}
	r = read_fd(fd, &buf, &len);
	if (r < 0) {
		da_diag_add(diag, path, 0, false, "%s", strerror(-r));
		return r;
	}
	r = table_parse_taken(path, buf, len, TEXT_OWNED, diag, ret_table);
	buf = NULL;
	return r;
}

DA_EXPORT int da_table_load(const char *path, struct da_diag *diag, struct da_table **ret_table)
{
	struct stat st;
	int fd, r;

	r = da_table_open(path, &fd, &st, diag);
	if (r < 0)
		return r;
	r = da_table_load_opened(path, fd, &st, diag, ret_table);
	if (fd >= 0)
		close(fd);
	return r;
}

void da_alias_raw(const struct da_table *t, const struct da_alias *a, const char **ret_name,
		  size_t *ret_name_len, const char **ret_id, size_t *ret_id_len)
{
	const char *line = t->lines[a->lineidx].text;

	*ret_name = line + a->name_off;
	*ret_name_len = a->name_len;
	*ret_id = line + a->id_off;
	*ret_id_len = a->id_len;
}

DA_EXPORT size_t da_table_count(const struct da_table *t)
{
	return t->naliases;
}

DA_EXPORT const struct da_alias *da_table_get(const struct da_table *t, size_t i)
{
	return i < t->naliases ? &t->store[i] : NULL;
}

DA_EXPORT const struct da_alias *da_table_find(const struct da_table *t, const char *name)
{
	return hashmap_get(&t->names, name);
}

DA_EXPORT const char *da_table_path(const struct da_table *t)
{
	return t->path;
}

DA_EXPORT const char *da_alias_name(const struct da_alias *a)
{
	return a->name;
}

DA_EXPORT enum da_id_kind da_alias_kind(const struct da_alias *a)
{
	return a->kind;
}

DA_EXPORT const char *da_alias_value(const struct da_alias *a)
{
	return a->value;
}

DA_EXPORT const char *da_alias_identity(const struct da_alias *a)
{
	return a->identity;
}

DA_EXPORT unsigned int da_alias_line(const struct da_alias *a)
{
	return a->line;
}

DA_EXPORT size_t da_alias_index(const struct da_alias *a)
{
	return a->index;
}

DA_EXPORT char *da_table_format(const struct da_table *t, size_t *ret_len)
{
	size_t len = 0, o = 0;
	char *s;

	for (size_t i = 0; i < t->nlines; i++)
		len += t->lines[i].len;
	s = malloc(len + 1);
	if (!s)
		return NULL;
	for (size_t i = 0; i < t->nlines; i++) {
		memcpy(s + o, t->lines[i].text, t->lines[i].len);
		o += t->lines[i].len;
	}
	s[o] = '\0';
	if (ret_len)
		*ret_len = len;
	return s;
}

/* An identity as a table token: quoted when the value has blanks, quotes, '#' or control bytes. */
static char *format_identity(enum da_id_kind kind, const char *value)
{
	size_t n = strcspn(value, " \t\r\n\v\f\"#\\");
	char *out, *o;

	for (const char *p = value; *p && n == strlen(value); p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			n = 0;
	if (n == strlen(value))
		return xasprintf("%s:%s", da_id_kind_name(kind), value);
	out = malloc(strlen(da_id_kind_name(kind)) + 4 * strlen(value) + 4);
	if (!out)
		return NULL;
	o = out + sprintf(out, "%s:\"", da_id_kind_name(kind));
	for (const char *p = value; *p; p++) {
		unsigned char c = *p;

		if (c == '"' || c == '\\')
			o += sprintf(o, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			o += sprintf(o, "\\x%02x", c);
		else
			*o++ = c;
	}
	strcpy(o, "\"");
	return out;
}

/*
 * Replace the text of the table with the lines of @t where line @idx (if
 * < nlines) is replaced by @repl (NULL: removed) and @append is added at the
 * end, then parse it; on failure @t is unchanged.
 */
static int table_splice(struct da_table *t, size_t idx, const char *repl, const char *append,
			struct da_diag *diag)
{
	struct da_table *n = table_new(t->path);
	char *text = NULL, *o;
	size_t len = 0;
	int r;

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < t->nlines; i++)
		len += t->lines[i].len;
	len += (repl ? strlen(repl) : 0) + (append ? strlen(append) + 1 : 0);
	text = malloc(len + 1);
	r = -ENOMEM;
	if (!text)
		goto out;
	o = text;
	for (size_t i = 0; i < t->nlines; i++) {
		const char *s = i == idx ? repl : t->lines[i].text;
		size_t l = i == idx ? (repl ? strlen(repl) : 0) : t->lines[i].len;

		if (l)
			memcpy(o, s, l);
		o += l;
	}
	if (append) {
		/* A last line without a newline gets one before the new statement. */
		if (o > text && o[-1] != '\n')
			*o++ = '\n';
		o = stpcpy(o, append);
	}
	r = parse_text(n, text, o - text, TEXT_OWNED, diag);
	text = NULL;
	if (r != 0) {
		r = r < 0 ? r : -EINVAL;
		goto out;
	}
	table_clear(t);
	free(t->path);
	*t = *n;
	free(n);
	n = NULL;
out:
	free(text);
	da_table_free(n);
	return r;
}

static int report_conflict(struct da_table *t, const char *name, const struct da_alias *self,
			   struct da_diag *diag)
{
	bool oom;
	char *msg = name_conflict(t, name, self, &oom);
	int r;

	if (oom)
		return -ENOMEM;
	if (!msg)
		return 0;
	r = da_diag_add(diag, t->path, 0, false, "%s", msg);
	free(msg);
	if (r < 0)
		return r;
	return da_name_check(name, NULL) < 0 ? -EINVAL : -EEXIST;
}

static struct da_alias *find_or_report(struct da_table *t, const char *name, struct da_diag *diag)
{
	struct da_alias *a = hashmap_get(&t->names, name);

	if (!a)
		da_diag_add(diag, t->path, 0, false, "no alias '%s'", name);
	return a;
}

DA_EXPORT int da_table_add(struct da_table *t, const char *name, enum da_id_kind kind,
			   const char *value, struct da_diag *diag)
{
	_cleanup_free_ char *id = NULL, *line = NULL;
	int r;

	if (!da_id_kind_name(kind) || !value || !*value)
		return -EINVAL;
	r = report_conflict(t, name, NULL, diag);
	if (r < 0)
		return r;
	id = format_identity(kind, value);
	if (!id)
		return -ENOMEM;
	line = xasprintf("alias %s %s\n", name, id);
	if (!line)
		return -ENOMEM;
	return table_splice(t, SIZE_MAX, NULL, line, diag);
}

/* Line @a's text with the token at @off/@len replaced by @repl. */
static char *line_with(const struct da_table *t, const struct da_alias *a, size_t off, size_t len,
		       const char *repl)
{
	const struct tline *l = &t->lines[a->lineidx];

	return xasprintf("%.*s%s%.*s", (int)off, l->text, repl, (int)(l->len - off - len),
			 l->text + off + len);
}

DA_EXPORT int da_table_rebind(struct da_table *t, const char *name, enum da_id_kind kind,
			      const char *value, struct da_diag *diag)
{
	_cleanup_free_ char *id = NULL, *line = NULL;
	struct da_alias *a;

	if (!da_id_kind_name(kind) || !value || !*value)
		return -EINVAL;
	a = find_or_report(t, name, diag);
	if (!a)
		return -ENOENT;
	id = format_identity(kind, value);
	if (!id)
		return -ENOMEM;
	line = line_with(t, a, a->id_off, a->id_len, id);
	if (!line)
		return -ENOMEM;
	return table_splice(t, a->lineidx, line, NULL, diag);
}

DA_EXPORT int da_table_remove(struct da_table *t, const char *name, struct da_diag *diag)
{
	struct da_alias *a = find_or_report(t, name, diag);

	if (!a)
		return -ENOENT;
	return table_splice(t, a->lineidx, NULL, NULL, diag);
}

DA_EXPORT int da_table_rename(struct da_table *t, const char *oldname, const char *newname,
			      struct da_diag *diag)
{
	_cleanup_free_ char *line = NULL;
	struct da_alias *a = find_or_report(t, oldname, diag);
	int r;

	if (!a)
		return -ENOENT;
	r = report_conflict(t, newname, a, diag);
	if (r < 0)
		return r;
	line = line_with(t, a, a->name_off, a->name_len, newname);
	if (!line)
		return -ENOMEM;
	return table_splice(t, a->lineidx, line, NULL, diag);
}

/* Write @t next to @path and rename it over @path; @dirfd is @path's directory. */
static int save_atomic(const struct da_table *t, const char *path, int dirfd, const struct stat *old,
		       struct da_diag *diag)
{
	_cleanup_free_ char *tmp = NULL, *text = NULL;
	size_t len;
	int fd, r;

	tmp = xasprintf("%s.XXXXXX", path);
	text = da_table_format(t, &len);
	if (!tmp || !text)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		da_diag_add(diag, path, 0, false, "cannot create a temporary file: %s", strerror(-r));
		return r;
	}
	r = write_all(fd, text, len);
	if (r == 0 && fchmod(fd, old ? old->st_mode & 07777 : 0644) < 0)
		r = -errno;
	if (r == 0 && old && fchown(fd, old->st_uid, old->st_gid) < 0 && geteuid() == 0)
		r = -errno;
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		da_diag_add(diag, path, 0, false, "cannot save: %s", strerror(-r));
		return r;
	}
	/* The rename is durable once the directory is. */
	fsync(dirfd);
	return 0;
}

DA_EXPORT int da_table_edit(const char *path, int (*edit)(struct da_table *table, void *data),
			    void *data, struct da_diag *diag)
{
	_cleanup_free_ char *dircopy = strdup(path);
	struct da_table *t = NULL;
	struct stat st, *old = NULL;
	int dirfd, fd, r, ret;

	if (!dircopy)
		return -ENOMEM;
	/*
	 * Lock the directory, not the file: the file is replaced by rename, so a
	 * lock on it would not be seen by an editor that opened the new one.
	 */
	dirfd = open(dirname(dircopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		r = -errno;
		da_diag_add(diag, path, 0, false, "cannot open its directory: %s", strerror(-r));
		return r;
	}
	if (flock(dirfd, LOCK_EX) < 0) {
		r = -errno;
		da_diag_add(diag, path, 0, false, "cannot lock: %s", strerror(-r));
		goto out;
	}
	r = da_table_open(path, &fd, &st, diag);
	if (r < 0)
		goto out;
	if (fd >= 0)
		old = &st;
	r = da_table_load_opened(path, fd, &st, diag, &t);
	if (fd >= 0)
		close(fd);
	if (r < 0)
		goto out;
	ret = edit(t, data);
	if (ret < 0) {
		r = ret;
		goto out;
	}
	r = save_atomic(t, path, dirfd, old, diag);
	if (r == 0)
		r = ret;
out:
	da_table_free(t);
	close(dirfd);
	return r;
}
