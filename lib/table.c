// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The alias table: parsing with file:line problems, validation, edits that
 * keep every other byte, and atomic saving under a lock.
 *
 * The table keeps its text as lines and the statements parsed from them.
 * A bad line binds nothing and never takes the others down (as udev and
 * multipath-tools treat their configuration): a line that does not parse
 * is a problem, and two statements that conflict (one name twice, a name
 * differing only in case, a name that is another's partition name) are a
 * problem and both bind nothing, since which of the two was meant is a
 * guess. The problems stay with the table, in line order. An edit builds
 * the new text and parses it again; it fails, leaving the table untouched,
 * only when the line it writes would be a problem.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <stdarg.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "hashmap.h"
#include "internal.h"

struct da_alias {
	char *name;
	enum da_id_kind kind;
	char *value;
	char *identity; /* kind:value, unquoted */
	unsigned int line;
	/* 32 bits: a table's text is one buffer, far smaller than 4 GiB (load refuses more). */
	unsigned int index; /* among the statements that bind */
	unsigned int lineidx;
	unsigned int name_off, name_len; /* the name token in its line */
	unsigned int id_off, id_len;	 /* the identity token in its line */
	bool conflict;			 /* conflicts with another statement: binds nothing */
};

struct tline {
	const char *text; /* the bytes of the line in the table's text, with its newline */
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
	char *text;  /* the whole table; not NUL-terminated line by line */
	char *arena; /* unquoted tokens, NUL-terminated, for the aliases */
	size_t arena_used;
	bool text_mapped; /* text is the file, mapped read-only (text_len bytes) */
	size_t text_len;
	struct da_alias
		*store; /* every statement that parsed, in table order; room for one per line */
	size_t nstmts;
	struct da_alias **bound; /* the statements that bind (no conflict), in table order */
	size_t naliases;
	struct tline *lines;
	size_t nlines;
	struct hashmap names;	 /* folded name -> first statement of that name */
	struct hashmap bases;	 /* folded partition base of a statement's name -> statement */
	struct da_diag problems; /* the bad lines, in line order */
};

struct token {
	size_t off, len; /* raw bytes in the line */
	char *value;	 /* unquoted */
	size_t vlen;	 /* strlen(value) */
};

static void table_clear(struct da_table *t)
{
	if (t->text_mapped)
		munmap(t->text, t->text_len);
	else
		free(t->text);
	free(t->arena);
	free(t->store);
	free(t->bound);
	free(t->lines);
	hashmap_free(&t->names);
	hashmap_free(&t->bases);
	da_diag_clear(&t->problems);
	t->text = t->arena = NULL;
	t->store = NULL;
	t->bound = NULL;
	t->text_mapped = false;
	t->lines = NULL;
	t->naliases = t->nstmts = t->nlines = t->arena_used = 0;
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
	[' '] = true,  ['\t'] = true, ['\r'] = true, ['\v'] = true,
	['\f'] = true, ['\n'] = true, ['"'] = true,
};

static int next_token(struct da_table *t, const char *s, size_t len, size_t *pos, struct token *tok,
		      const char **ret_err)
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
		} else if (quoted && s[i] == '\\' && i + 1 < len &&
			   (s[i + 1] == '"' || s[i + 1] == '\\')) {
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
 * Why @name cannot join the table beside the statements already in it
 * (@self, being renamed, does not count; statements that conflict still
 * claim their names), as a message the caller frees; NULL when it can.
 * *ret_oom is set when memory ran out.
 */
static char *name_conflict(const struct da_table *t, const char *name, const struct da_alias *self,
			   bool *ret_oom)
{
	const struct da_alias *a;
	unsigned int partno;
	const char *reason;
	char *msg = NULL;
	size_t len = strlen(name), baselen, twinlen;

	*ret_oom = false;
	if (da_name_check(name, &reason) < 0) {
		_cleanup_free_ char *shown = str_escape(name, len, DA_QUOTE_MAX, true);

		msg = xasprintf("invalid alias name '%s': %s", shown ? shown : "", reason);
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
	/* disk1p2 is partition 2 of disk1, and of disk1p too. */
	baselen = da_partition_base_len(name, len, &partno);
	for (size_t k = 0; baselen && k < 2; k++) {
		if (k == 1 && !da_partition_twin_len(name, ++baselen))
			break;
		a = hashmap_getn(&t->names, name, baselen);
		if (a && a != self) {
			da_partition_of(name, a->name, &partno);
			msg = xasprintf("alias '%s' is the name of partition %u of alias '%s' (line %u)",
					name, partno, a->name, a->line);
			goto out;
		}
	}
	/* Most tables have no alias that looks like a partition name: skip the lookup. */
	a = t->bases.n ? hashmap_getn(&t->bases, name, len) : NULL;
	if (a && a != self) {
		da_partition_of(a->name, name, &partno);
		msg = xasprintf("alias '%s' (line %u) is the name of partition %u of alias '%s'",
				a->name, a->line, partno, name);
		goto out;
	}
	/* disk1p beside disk1: both would have a partition disk1p1. */
	twinlen = da_partition_twin_len(name, len);
	if (twinlen) {
		a = hashmap_getn(&t->names, name, twinlen);
	} else if (da_partition_takes_p(name, len)) {
		_cleanup_free_ char *twin = xasprintf("%sp", name);

		if (!twin)
			goto out;
		a = hashmap_get(&t->names, twin);
	} else {
		a = NULL;
	}
	if (a && a != self)
		msg = xasprintf(
			"alias '%s' and alias '%s' (line %u) would give their partitions the same names",
			name, a->name, a->line);
	else
		return NULL;
out:
	if (!msg)
		*ret_oom = true;
	return msg;
}

static const char *const statement_usage = "expected 'alias NAME KIND:VALUE'";

/* Add a problem of line @line to the table's own list. Returns 1, or -ENOMEM. */
static int line_problem(struct da_table *t, unsigned int line, const char *fmt, ...) _printf_(3, 4);
static int line_problem(struct da_table *t, unsigned int line, const char *fmt, ...)
{
	_cleanup_free_ char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (!msg || da_diag_add(&t->problems, t->path, line, false, "%s", msg) < 0)
		return -ENOMEM;
	return 1;
}

/* A token as a message shows it: escaped, at most DA_QUOTE_MAX bytes of it. */
#define QUOTE(tok, buf) \
	((buf) = str_escape((tok)->value, (tok)->vlen, DA_QUOTE_MAX, true)) ? (buf) : ""

/*
 * Parse line @t->lines[idx] into the next statement; what is wrong with it
 * goes to the table's problems. Conflicts with other lines are found after
 * every line is read (resolve_conflicts()). Returns 1 for a problem, 0, or -ENOMEM.
 */
static int parse_line(struct da_table *t, size_t idx, bool nul)
{
	const char *s = t->lines[idx].text, *err = NULL, *value, *reason;
	size_t len = t->lines[idx].len, pos = 0, ntok = 0;
	unsigned int line = idx + 1;
	_cleanup_free_ char *shown = NULL;
	struct token tok[4];
	struct da_alias *a;
	enum da_id_kind kind;
	int r = 0;

	if (nul && memchr(s, '\0', len))
		return line_problem(t, line, "NUL byte in line");
	/* An editor's byte order mark before the first line is no part of it. */
	if (idx == 0 && len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		pos = 3;
	while (ntok < ARRAY_SIZE(tok)) {
		r = next_token(t, s, len, &pos, &tok[ntok], &err);
		if (r != 0)
			break;
		ntok++;
	}
	if (r < 0)
		return r == -ENOMEM ? r : line_problem(t, line, "%s", err);
	if (ntok == 0)
		return 0;
	if (tok[0].vlen != 5 || memcmp(tok[0].value, "alias", 5) != 0)
		return line_problem(t, line, "unknown statement '%s': %s", QUOTE(&tok[0], shown),
				    statement_usage);
	if (ntok != 3)
		return line_problem(t, line, "%s %s",
				    ntok < 3 ? "incomplete statement:" : "too many words:",
				    statement_usage);
	if (da_name_check(tok[1].value, &reason) < 0)
		return line_problem(t, line, "invalid alias name '%s': %s", QUOTE(&tok[1], shown),
				    reason);
	if (da_identity_parse(tok[2].value, &kind, &value) < 0 ||
	    da_identity_check(kind, value, NULL) < 0) {
		bool oom;
		char *msg = da_identity_problem(tok[2].value, &oom);

		r = msg ? line_problem(t, line, "%s", msg) : -ENOMEM;
		free(msg);
		return r;
	}
	a = &t->store[t->nstmts++];
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
	return 0;
}

/*
 * Two statements that cannot both bind: mark both, and say so at the later
 * line, naming the earlier. Returns 1 or -ENOMEM.
 */
static int conflict(struct da_table *t, struct da_alias *a, struct da_alias *b)
{
	struct da_alias *first = a->line < b->line ? a : b, *later = first == a ? b : a;
	unsigned int partno;

	a->conflict = b->conflict = true;
	if (streq(first->name, later->name))
		return line_problem(t, later->line,
				    "alias '%s' is also defined on line %u; neither line applies",
				    later->name, first->line);
	if (strcasecmp(first->name, later->name) == 0)
		return line_problem(
			t, later->line,
			"alias '%s' differs only in case from alias '%s' (line %u); neither line applies",
			later->name, first->name, first->line);
	if (da_partition_of(later->name, first->name, &partno))
		return line_problem(
			t, later->line,
			"alias '%s' is the name of partition %u of alias '%s' (line %u); neither line applies",
			later->name, partno, first->name, first->line);
	if (da_partition_of(first->name, later->name, &partno))
		return line_problem(
			t, later->line,
			"the name of partition %u of alias '%s' is alias '%s' (line %u); neither line applies",
			partno, later->name, first->name, first->line);
	return line_problem(
		t, later->line,
		"alias '%s' and alias '%s' (line %u) would give their partitions the same names (%s1); neither line applies",
		later->name, first->name, first->line,
		da_partition_twin_len(later->name, strlen(later->name)) ? later->name
									: first->name);
}

/*
 * Index the statements by name and find the ones that conflict: a name
 * defined twice (in any case), and a name that is another's partition name
 * (bay07p1 beside bay07). Returns the number of problems, or -ENOMEM.
 */
static int resolve_conflicts(struct da_table *t)
{
	int problems = 0, r;

	for (size_t i = 0; i < t->nstmts; i++) {
		struct da_alias *a = &t->store[i], *prev;
		size_t len = strlen(a->name);

		prev = hashmap_getn(&t->names, a->name, len);
		if (prev) {
			r = conflict(t, prev, a);
			if (r < 0)
				return r;
			problems += r;
			continue;
		}
		if (hashmap_putn(&t->names, a->name, len, a) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; i < t->nstmts; i++) {
		struct da_alias *a = &t->store[i], *other;
		size_t len = strlen(a->name), key[3];
		unsigned int partno;

		/* The names a's name may clash with, as lengths of its prefix. */
		key[0] = da_partition_base_len(a->name, len, &partno);
		/* disk1p2 is partition 2 of disk1, and of disk1p too. */
		key[1] = key[0] && da_partition_twin_len(a->name, key[0] + 1) ? key[0] + 1 : 0;
		/* disk1p and disk1 both have a partition disk1p1. */
		key[2] = da_partition_twin_len(a->name, len);
		for (int k = 0; k < 3; k++) {
			if (!key[k])
				continue;
			/* A base, keyed by its bytes inside the statement's name, which lives on. */
			if (k < 2 && hashmap_putn(&t->bases, a->name, key[k], a) < 0)
				return -ENOMEM;
			other = hashmap_getn(&t->names, a->name, key[k]);
			if (!other)
				continue;
			r = conflict(t, a, other);
			if (r < 0)
				return r;
			problems += r;
		}
	}
	for (size_t i = 0; i < t->nstmts; i++) {
		if (t->store[i].conflict)
			continue;
		t->store[i].index = t->naliases;
		t->bound[t->naliases++] = &t->store[i];
	}
	return problems;
}

static int problem_cmp(const void *pa, const void *pb)
{
	const struct da_problem *a = pa, *b = pb;

	/* Two problems of one line in a fixed order, whatever the sort. */
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return strcmp(a->msg, b->msg);
}

enum text_mode {
	TEXT_COPY,   /* the table takes a copy */
	TEXT_OWNED,  /* the table takes the buffer (with room for a NUL after it) */
	TEXT_MAPPED, /* the table takes a read-only mapping of @len bytes */
};

/*
 * Parse @buf into the empty table @t as @mode says; a buffer or mapping it
 * takes is freed with the table whatever happens. Returns the number of
 * problems (in t->problems), -ENOMEM, or -EFBIG for a text of 1 GiB or more.
 */
static int parse_text(struct da_table *t, char *buf, size_t len, enum text_mode mode)
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
	t->bound = malloc(n * sizeof(*t->bound));
	if (!t->text || !t->arena || !t->lines || !t->store || !t->bound ||
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
		r = parse_line(t, i, nul);
		if (r < 0)
			return r;
		problems += r;
	}
	r = resolve_conflicts(t);
	if (r < 0)
		return r;
	problems += r;
	if (problems > 1)
		qsort(t->problems.v, t->problems.n, sizeof(*t->problems.v), problem_cmp);
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

/* Hand the problems of @t to @diag, which may be NULL. */
static int report_problems(const struct da_table *t, struct da_diag *diag)
{
	for (size_t i = 0; diag && i < t->problems.n; i++) {
		const struct da_problem *p = &t->problems.v[i];

		if (da_diag_add(diag, p->file, p->line, p->warning, "%s", p->msg) < 0)
			return -ENOMEM;
	}
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
		else if (mode == TEXT_OWNED)
			free(buf);
		return -ENOMEM;
	}
	r = parse_text(t, buf, len, mode);
	if (r >= 0)
		r = report_problems(t, diag);
	if (r < 0) {
		da_table_free(t);
		return r;
	}
	*ret_table = t;
	return 0;
}

DA_EXPORT int da_table_parse(const char *path, const char *buf, size_t len, struct da_diag *diag,
			     struct da_table **ret_table)
{
	return table_parse_taken(path, (char *)buf, len, TEXT_COPY, diag, ret_table);
}

DA_EXPORT size_t da_table_problems(const struct da_table *t)
{
	return t->problems.n;
}

/* Refuse, when root, a table that someone other than root could have written. */
static int check_owner(const char *path, const struct stat *st, struct da_diag *diag)
{
	if (geteuid() != 0)
		return 0;
	if (st->st_uid != 0)
		return da_diag_add(diag, path, 0, false,
				   "not owned by root; refusing to use it as root")
			       ?: -EPERM;
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return da_diag_add(diag, path, 0, false,
				   "writable by group or others; refusing to use it as root (chmod go-w)")
			       ?: -EPERM;
	return 0;
}

int da_table_open(const char *path, int *ret_fd, struct stat *st, struct da_diag *diag)
{
	int fd, r;

	*ret_fd = -1;
	/* Not blocking: a FIFO put where the table was must not hang a udev worker. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
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
	else if (r == 0 && !S_ISREG(st->st_mode))
		r = da_diag_add(diag, path, 0, false,
				"not a regular file (%s); refusing to read it",
				S_ISFIFO(st->st_mode)	? "a FIFO"
				: S_ISSOCK(st->st_mode) ? "a socket"
							: "a device")
			    ?: -EINVAL;
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
			return table_parse_taken(path, map, st->st_size, TEXT_MAPPED, diag,
						 ret_table);
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
	return i < t->naliases ? t->bound[i] : NULL;
}

DA_EXPORT const struct da_alias *da_table_find(const struct da_table *t, const char *name)
{
	const struct da_alias *a = hashmap_get(&t->names, name);

	return a && !a->conflict ? a : NULL;
}

unsigned int da_table_conflict_line(const struct da_table *t, const char *name)
{
	const struct da_alias *a = hashmap_get(&t->names, name);

	return a && a->conflict ? a->line : 0;
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
 * end, then parse it. The line written must bind: when it does not, the
 * problems are reported and @t is left unchanged. Bad lines elsewhere stay
 * as they were, byte for byte.
 */
static int table_splice(struct da_table *t, size_t idx, const char *repl, const char *append,
			struct da_diag *diag)
{
	struct da_table *n = table_new(t->path);
	char *text = NULL, *o;
	unsigned int written = repl ? idx + 1 : 0;
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
		written = 1;
		for (const char *p = text; (p = memchr(p, '\n', o - p)); p++)
			written++;
		o = stpcpy(o, append);
	}
	r = parse_text(n, text, o - text, TEXT_OWNED);
	text = NULL;
	if (r < 0)
		goto out;
	r = 0;
	for (size_t i = 0; written && i < n->problems.n; i++) {
		const struct da_problem *p = &n->problems.v[i];

		if (p->line == written) {
			r = da_diag_add(diag, p->file, 0, false, "%s", p->msg) ?: -EINVAL;
			break;
		}
	}
	if (r < 0)
		goto out;
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

/* The statement named @name, to change it; one that conflicts is refused: it binds nothing. */
static struct da_alias *find_or_report(struct da_table *t, const char *name, struct da_diag *diag)
{
	struct da_alias *a = hashmap_get(&t->names, name);

	if (!a)
		da_diag_add(diag, t->path, 0, false, "no alias '%s'", name);
	else if (a->conflict)
		da_diag_add(diag, t->path, a->line, false,
			    "alias '%s' conflicts with another line and applies nowhere; "
			    "fix that first (diskalias check)",
			    a->name);
	return a && !a->conflict ? a : NULL;
}

/* A kind and value a table line can hold, or the reason in @diag. */
static int check_identity(const struct da_table *t, enum da_id_kind kind, const char *value,
			  struct da_diag *diag)
{
	_cleanup_free_ char *shown = NULL;
	const char *reason;

	if (!da_id_kind_name(kind) || !value)
		return -EINVAL;
	if (da_identity_check(kind, value, &reason) == 0)
		return 0;
	shown = str_escape(value, strlen(value), DA_QUOTE_MAX, true);
	return da_diag_add(diag, t->path, 0, false, "invalid identity '%s:%s': %s",
			   da_id_kind_name(kind), shown ? shown : "", reason)
		       ?: -EINVAL;
}

DA_EXPORT int da_table_add(struct da_table *t, const char *name, enum da_id_kind kind,
			   const char *value, struct da_diag *diag)
{
	_cleanup_free_ char *id = NULL, *line = NULL;
	int r;

	r = check_identity(t, kind, value, diag);
	if (r < 0)
		return r;
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
	int r;

	r = check_identity(t, kind, value, diag);
	if (r < 0)
		return r;
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

/* The first statement named @name exactly (any case when @fold), bound or not; or NULL. */
static const struct da_alias *find_statement(const struct da_table *t, const char *name, bool fold)
{
	for (size_t i = 0; i < t->nstmts; i++)
		if (fold ? strcasecmp(t->store[i].name, name) == 0 : streq(t->store[i].name, name))
			return &t->store[i];
	return NULL;
}

DA_EXPORT int da_table_remove(struct da_table *t, const char *name, struct da_diag *diag)
{
	const struct da_alias *a;
	bool fold;
	int r = 0;

	/*
	 * Every line of the name goes: a name defined twice binds nothing, and
	 * removing it must not leave the other line to bind by surprise. The
	 * lines of the name as written, or if none, of the name in any case.
	 */
	if (!hashmap_get(&t->names, name)) {
		da_diag_add(diag, t->path, 0, false, "no alias '%s'", name);
		return -ENOENT;
	}
	fold = !find_statement(t, name, false);
	while (r >= 0 && (a = find_statement(t, name, fold)))
		r = table_splice(t, a->lineidx, NULL, NULL, diag);
	return r;
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

/* Write @t over @path (its directory open as @dirfd), atomically, keeping the old file's owner and
 * mode. */
static int save_atomic(const struct da_table *t, const char *path, int dirfd,
		       const struct stat *old, struct da_diag *diag)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r;

	text = da_table_format(t, &len);
	if (!text)
		return -ENOMEM;
	r = replace_file_at(dirfd, path_basename(path), text, len,
			    old ? old->st_mode & 07777 : 0644, old ? old->st_uid : (uid_t)-1,
			    old ? old->st_gid : (gid_t)-1, true);
	if (r < 0)
		da_diag_add(diag, path, 0, false, "cannot save: %s", strerror(-r));
	return r;
}

/* How long an editor waits for another's lock: DISKALIAS_LOCK_TIMEOUT seconds, default 10. */
static unsigned int lock_timeout_ms(void)
{
	const char *s = getenv("DISKALIAS_LOCK_TIMEOUT");
	unsigned int v;

	return s && parse_uint(s, &v) == 0 && v < 86400 ? v * 1000 : 10000;
}

/*
 * Take the edit lock of table @path, a file ".NAME.lock" beside it that
 * only its owner can open: an unprivileged user must not be able to hold
 * root's edits up. Waits up to lock_timeout_ms(), then says who holds it.
 * Returns the lock's descriptor or -errno.
 */
static int lock_table(const char *path, int dirfd, struct da_diag *diag)
{
	_cleanup_free_ char *name = xasprintf(".%s.lock", path_basename(path));
	_cleanup_free_ char *holder = NULL;
	unsigned int waited = 0, timeout = lock_timeout_ms();
	char pid[32];
	struct stat st;
	int fd, r;

	if (!name)
		return -ENOMEM;
	fd = openat(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0) {
		r = -errno;
		da_diag_add(diag, path, 0, false, "cannot open its lock file %s: %s", name,
			    r == -ELOOP ? "it is a symlink" : strerror(-r));
		return r;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		close(fd);
		return da_diag_add(diag, path, 0, false,
				   "its lock file %s is not a private file of this user; refusing to edit",
				   name)
			       ?: -EPERM;
	}
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK || waited >= timeout) {
			r = errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
			if (read_fd(fd, &holder, NULL) == 0 && *holder)
				holder[strcspn(holder, "\n")] = '\0';
			da_diag_add(diag, path, 0, false, "cannot lock it%s%s%s: %s",
				    holder && *holder ? " (held by process " : "",
				    holder && *holder ? holder : "", holder && *holder ? ")" : "",
				    r == -ETIMEDOUT ? "another edit is still running"
						    : strerror(-r));
			close(fd);
			return r;
		}
		usleep(50 * 1000);
		waited += 50;
	}
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) == 0)
		(void)!pwrite(fd, pid, strlen(pid), 0);
	return fd;
}

DA_EXPORT int da_table_edit(const char *path, int (*edit)(struct da_table *table, void *data),
			    void *data, struct da_diag *diag)
{
	_cleanup_free_ char *real = NULL, *dircopy = NULL;
	struct da_table *t = NULL;
	struct stat st, *old = NULL;
	int dirfd, lockfd = -1, fd, r, ret;

	/* A table that is a symlink is edited where it points, never replaced by a file. */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		real = realpath(path, NULL);
		if (!real) {
			r = -errno;
			da_diag_add(diag, path, 0, false, "a symlink to %s; refusing to edit it",
				    r == -ENOENT ? "a missing file" : strerror(-r));
			return r;
		}
		path = real;
	}
	dircopy = strdup(path);
	if (!dircopy)
		return -ENOMEM;
	dirfd = open(dirname(dircopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		r = -errno;
		da_diag_add(diag, path, 0, false, "cannot open its directory: %s", strerror(-r));
		return r;
	}
	r = lockfd = lock_table(path, dirfd, diag);
	if (r < 0)
		goto out;
	/* What an editor killed mid-way left: nobody else writes while we hold the lock. */
	remove_stale_temps_at(dirfd, path_basename(path));
	r = da_table_open(path, &fd, &st, diag);
	if (r < 0)
		goto out;
	if (fd >= 0)
		old = &st;
	/* The table's own problems are the readers' to report: an edit keeps those lines as they
	 * are. */
	r = da_table_load_opened(path, fd, &st, NULL, &t);
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
	if (lockfd >= 0)
		close(lockfd);
	close(dirfd);
	return r;
}
