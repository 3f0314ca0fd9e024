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
 *
 * A table is its main file and the drop-ins of its directory (for
 * /etc/diskalias.conf, /etc/diskalias.d/NAME.conf in lexical order), read as
 * one text in that order: a name is unique across all of them, and each
 * problem names its own file and line. An edit writes one of the files,
 * the table's target (the main file unless told another), and never
 * changes a statement of another file.
 */
#include <ctype.h>
#include <dirent.h>
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
#include <sys/sysmacros.h>

#include "chassis.h"
#include "hashmap.h"
#include "internal.h"
#include "strbuf.h"

struct da_alias {
	const char *file; /* the path of its file, owned by the table */
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
	/* Named by this chassis line's rule (name and identity are its own strings), or NULL. */
	const struct da_chassis *chassis;
};

struct tline {
	const char *text; /* the bytes of the line in the table's text, with its newline */
	size_t len;
	unsigned int file;   /* its file in the table's files[] */
	unsigned int lineno; /* its number in that file, from 1 */
};

/* One file of a table: the main one first, then the drop-ins in order. */
struct tfile {
	char *path;
	size_t off, len; /* its bytes in the table's text */
};

/*
 * Parsing allocates a handful of blocks whatever the table's size (the
 * udev helper parses a table of thousands of aliases once per device and
 * boot): the text in one buffer the lines point into, every token in one
 * arena the aliases point into, and the aliases in one array.
 */
struct da_table {
	char *path; /* the main file */
	struct tfile *files;
	size_t nfiles;
	size_t target; /* the file edits write, in files[] */
	char *text;    /* the whole table; not NUL-terminated line by line */
	char *arena;   /* unquoted tokens, NUL-terminated, for the aliases */
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
	struct hashmap names;	    /* folded name -> first statement of that name */
	struct hashmap bases;	    /* folded partition base of a statement's name -> statement */
	struct da_diag problems;    /* the bad lines, in line order */
	struct da_chassis *chassis; /* every chassis line that parsed; room for one per line */
	size_t nchassis;
	struct strv generated; /* the names and identities the chassis rules gave */
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
	for (size_t i = 0; i < t->nchassis; i++)
		chassis_clear(&t->chassis[i]);
	free(t->chassis);
	t->chassis = NULL;
	t->nchassis = 0;
	strv_free(&t->generated);
	hashmap_free(&t->names);
	hashmap_free(&t->bases);
	da_diag_clear(&t->problems);
	for (size_t i = 0; i < t->nfiles; i++)
		free(t->files[i].path);
	free(t->files);
	t->files = NULL;
	t->nfiles = t->target = 0;
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
	/* The arena has room for every token of a line and its NUL (see parse_text()). */
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

/* Room for a place() in a message: a path and a line number. */
#define PLACE_MAX (PATH_MAX + 16)

/* Where statement @a is, as a message in file @from names it: "line 3", or "FILE:3" elsewhere. */
static const char *place(const struct da_table *t, const struct da_alias *a, size_t from,
			 char buf[static PLACE_MAX])
{
	if (t->lines[a->lineidx].file == from)
		snprintf(buf, PLACE_MAX, "line %u", a->line);
	else
		snprintf(buf, PLACE_MAX, "%s:%u", a->file, a->line);
	return buf;
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
	char where[PLACE_MAX];

	*ret_oom = false;
	if (da_name_check(name, &reason) < 0) {
		_cleanup_free_ char *shown = str_escape(name, len, DA_QUOTE_MAX, true);

		msg = xasprintf("invalid alias name '%s': %s", shown ? shown : "", reason);
		goto out;
	}
	a = hashmap_getn(&t->names, name, len);
	if (a && a != self) {
		if (a->chassis)
			msg = xasprintf("alias '%s' is the name the chassis rule of %s gives slot:%s",
					a->name, place(t, a, t->target, where), a->value);
		else if (streq(a->name, name))
			msg = xasprintf("alias '%s' is already defined (%s)", name,
					place(t, a, t->target, where));
		else
			msg = xasprintf("alias '%s' differs from alias '%s' (%s) only in case",
					name, a->name, place(t, a, t->target, where));
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
			msg = xasprintf("alias '%s' is the name of partition %u of alias '%s' (%s)",
					name, partno, a->name, place(t, a, t->target, where));
			goto out;
		}
	}
	/* Most tables have no alias that looks like a partition name: skip the lookup. */
	a = t->bases.n ? hashmap_getn(&t->bases, name, len) : NULL;
	if (a && a != self) {
		da_partition_of(a->name, name, &partno);
		msg = xasprintf("alias '%s' (%s) is the name of partition %u of alias '%s'",
				a->name, place(t, a, t->target, where), partno, name);
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
			"alias '%s' and alias '%s' (%s) would give their partitions the same names",
			name, a->name, place(t, a, t->target, where));
	else
		return NULL;
out:
	if (!msg)
		*ret_oom = true;
	return msg;
}

static const char *const statement_usage =
	"expected 'alias NAME KIND:VALUE' or 'chassis NAME ENCLOSURE rows=R columns=C ...'";

/* The most words a line has: chassis, its name and enclosure, seven KEY=VALUE. */
#define LINE_TOKENS_MAX 10

/* Add a problem of line @idx to the table's own list. Returns 1, or -ENOMEM. */
static int line_problem(struct da_table *t, size_t idx, const char *fmt, ...) _printf_(3, 4);
static int line_problem(struct da_table *t, size_t idx, const char *fmt, ...)
{
	const struct tline *l = &t->lines[idx];
	_cleanup_free_ char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (!msg ||
	    da_diag_add(&t->problems, t->files[l->file].path, l->lineno, false, "%s", msg) < 0)
		return -ENOMEM;
	return 1;
}

/* A token as a message shows it: escaped, at most DA_QUOTE_MAX bytes of it. */
#define QUOTE(tok, buf) \
	((buf) = str_escape((tok)->value, (tok)->vlen, DA_QUOTE_MAX, true)) ? (buf) : ""

/* A chassis line's words @tok (@ntok of them, "chassis" first): the next chassis. */
static int parse_chassis(struct da_table *t, size_t idx, struct token *tok, size_t ntok)
{
	struct da_chassis *c = &t->chassis[t->nchassis];
	char *opts[LINE_TOKENS_MAX];
	const char *err = NULL;
	int r;

	if (ntok < 3 || ntok > LINE_TOKENS_MAX)
		return line_problem(t, idx,
				    "%s 'chassis NAME ENCLOSURE rows=R columns=C [first=CORNER] "
				    "[by=rows|columns] [side=front|rear] [slots=N] [name=PATTERN]'",
				    ntok < 3 ? "incomplete statement: expected"
					     : "too many words: expected");
	for (size_t i = 3; i < ntok; i++)
		opts[i - 3] = tok[i].value;
	r = chassis_parse(c, tok[1].value, tok[2].value, opts, ntok - 3, &err);
	if (r < 0) {
		chassis_clear(c);
		return r == -ENOMEM ? r : line_problem(t, idx, "invalid chassis line: %s", err);
	}
	c->file = t->files[t->lines[idx].file].path;
	c->line = t->lines[idx].lineno;
	c->lineidx = idx;
	t->nchassis++;
	return 0;
}

/*
 * Parse line @t->lines[idx] into the next statement; what is wrong with it
 * goes to the table's problems. Conflicts with other lines are found after
 * every line is read (resolve_conflicts()). Returns 1 for a problem, 0, or -ENOMEM.
 */
static int parse_line(struct da_table *t, size_t idx, bool nul)
{
	const char *s = t->lines[idx].text, *err = NULL, *value, *reason;
	size_t len = t->lines[idx].len, pos = 0, ntok = 0;
	_cleanup_free_ char *shown = NULL;
	struct token tok[LINE_TOKENS_MAX + 1];
	struct da_alias *a;
	enum da_id_kind kind;
	int r = 0;

	if (nul && memchr(s, '\0', len))
		return line_problem(t, idx, "NUL byte in line");
	/* An editor's byte order mark before the first line is no part of it. */
	if (t->lines[idx].lineno == 1 && len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		pos = 3;
	while (ntok < ARRAY_SIZE(tok)) {
		r = next_token(t, s, len, &pos, &tok[ntok], &err);
		if (r != 0)
			break;
		ntok++;
	}
	if (r < 0)
		return r == -ENOMEM ? r : line_problem(t, idx, "%s", err);
	if (ntok == 0)
		return 0;
	if (streq(tok[0].value, "chassis"))
		return parse_chassis(t, idx, tok, ntok);
	if (tok[0].vlen != 5 || memcmp(tok[0].value, "alias", 5) != 0)
		return line_problem(t, idx, "unknown statement '%s': %s", QUOTE(&tok[0], shown),
				    statement_usage);
	if (ntok != 3)
		return line_problem(t, idx, "%s expected 'alias NAME KIND:VALUE'",
				    ntok < 3 ? "incomplete statement:" : "too many words:");
	if (da_name_check(tok[1].value, &reason) < 0)
		return line_problem(t, idx, "invalid alias name '%s': %s", QUOTE(&tok[1], shown),
				    reason);
	if (da_identity_parse(tok[2].value, &kind, &value) < 0 ||
	    da_identity_check(kind, value, NULL) < 0) {
		bool oom;
		char *msg = da_identity_problem(tok[2].value, &oom);

		r = msg ? line_problem(t, idx, "%s", msg) : -ENOMEM;
		free(msg);
		return r;
	}
	a = &t->store[t->nstmts++];
	a->name = tok[1].value;
	a->kind = kind;
	a->value = (char *)value;
	a->identity = tok[2].value;
	a->file = t->files[t->lines[idx].file].path;
	a->line = t->lines[idx].lineno;
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
	struct da_alias *first = a->lineidx < b->lineidx ? a : b, *later = first == a ? b : a;
	char where[PLACE_MAX];
	unsigned int partno;

	/* A line of the table wins over what a chassis rule made up: the rule's bay goes unnamed. */
	if (!a->chassis != !b->chassis) {
		struct da_alias *gen = a->chassis ? a : b, *line = gen == a ? b : a;

		gen->conflict = true;
		place(t, line, t->lines[gen->lineidx].file, where);
		return line_problem(t, gen->lineidx,
				    "the name rule gives '%s' to slot:%s, which alias '%s' (%s) "
				    "stands in the way of; that bay is not named by the rule",
				    gen->name, gen->value, line->name, where);
	}
	a->conflict = b->conflict = true;
	place(t, first, t->lines[later->lineidx].file, where);
	if (streq(first->name, later->name))
		return line_problem(t, later->lineidx,
				    "alias '%s' is also defined on %s; neither line applies",
				    later->name, where);
	if (strcasecmp(first->name, later->name) == 0)
		return line_problem(
			t, later->lineidx,
			"alias '%s' differs only in case from alias '%s' (%s); neither line applies",
			later->name, first->name, where);
	if (da_partition_of(later->name, first->name, &partno))
		return line_problem(
			t, later->lineidx,
			"alias '%s' is the name of partition %u of alias '%s' (%s); neither line applies",
			later->name, partno, first->name, where);
	if (da_partition_of(first->name, later->name, &partno))
		return line_problem(
			t, later->lineidx,
			"the name of partition %u of alias '%s' is alias '%s' (%s); neither line applies",
			partno, later->name, first->name, where);
	return line_problem(
		t, later->lineidx,
		"alias '%s' and alias '%s' (%s) would give their partitions the same names (%s1); neither line applies",
		later->name, first->name, where,
		da_partition_twin_len(later->name, strlen(later->name)) ? later->name
									: first->name);
}

/* The bays slot: lines of the table name themselves, keyed by their folded value. */
static int explicit_slots(const struct da_table *t, struct hashmap *m)
{
	for (size_t i = 0; i < t->nstmts; i++)
		if (t->store[i].kind == DA_ID_SLOT &&
		    hashmap_put(m, t->store[i].value, &t->store[i]) < 0)
			return -ENOMEM;
	return 0;
}

/* Whether two chassis lines claim a bay in common: one SES enclosure, or a PCIe slot. */
static bool chassis_overlap(const struct da_chassis *a, const struct da_chassis *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == DA_SLOT_SES)
		return strcasecmp(a->enclosure, b->enclosure) == 0;
	for (size_t i = 0; i < a->pcie.n; i++)
		if (strv_contains(&b->pcie, a->pcie.v[i]))
			return true;
	return false;
}

/*
 * Whether chassis @c's rule is good: every bay gets a name an alias can
 * have, no two the same. Else a problem at its line: 1, 0, or -ENOMEM.
 */
static int chassis_rule_problem(struct da_table *t, const struct da_chassis *c)
{
	struct hashmap mine;
	struct strv names = {};
	int r = 0;

	if (!c->pattern)
		return 0;
	hashmap_init(&mine, true);
	for (unsigned int k = 0; r == 0 && k < chassis_cells(c); k++) {
		char *name = chassis_bay_name(c, k);
		_cleanup_free_ char *id = chassis_slot(c, k), *shown = NULL;
		const char *reason = NULL;

		if (!name || !id || strv_consume(&names, name) < 0) {
			r = -ENOMEM;
			break;
		}
		if (hashmap_get(&mine, name))
			reason =
				"it gives that name to another bay too (a placeholder such as {slot} tells them apart)";
		else if (hashmap_put(&mine, name, name) < 0)
			r = -ENOMEM;
		if (r < 0 || (!reason && da_name_check(name, &reason) == 0))
			continue;
		shown = str_escape(name, strlen(name), DA_QUOTE_MAX, true);
		r = line_problem(t, c->lineidx,
				 "invalid chassis line: the name rule gives '%s' to slot:%s: %s",
				 shown ? shown : "", id, reason);
	}
	hashmap_free(&mine);
	strv_free(&names);
	return r;
}

/*
 * The names the chassis rules give: a rule naming a bay a name that
 * cannot be an alias is a bad line and names no bay; two good chassis
 * lines claiming one enclosure (or PCIe slot) both bind nothing; a bay a
 * slot: line of the table names is left to it. The names made become
 * statements after the table's own (so a disk's own lines come first),
 * marked with their chassis. Returns the number of problems, or -ENOMEM.
 */
static int chassis_names(struct da_table *t)
{
	struct hashmap explicit;
	size_t need = 0;
	int problems = 0, r = 0;

	for (size_t i = 0; i < t->nchassis; i++) {
		r = chassis_rule_problem(t, &t->chassis[i]);
		if (r < 0)
			return r;
		t->chassis[i].bad = t->chassis[i].conflict = r;
		problems += r;
	}
	for (size_t i = 0; i < t->nchassis; i++) {
		struct da_chassis *b = &t->chassis[i];

		for (size_t j = 0; !b->bad && j < i; j++) {
			struct da_chassis *a = &t->chassis[j];
			char where[PLACE_MAX];

			if (a->bad || !chassis_overlap(a, b))
				continue;
			if (t->lines[a->lineidx].file == t->lines[b->lineidx].file)
				snprintf(where, sizeof(where), "line %u", a->line);
			else
				snprintf(where, sizeof(where), "%s:%u", a->file, a->line);
			a->conflict = b->conflict = true;
			r = line_problem(t, b->lineidx,
					 "chassis '%s' claims %s, which chassis '%s' (%s) claims too; "
					 "neither line applies",
					 b->name, b->enclosure, a->name, where);
			if (r < 0)
				return r;
			problems++;
			break;
		}
	}
	for (size_t i = 0; i < t->nchassis; i++)
		if (!t->chassis[i].conflict && t->chassis[i].pattern)
			need += chassis_cells(&t->chassis[i]);
	if (!need)
		return problems;
	/* Room for the names made, with the pointers into the store kept valid: made now. */
	{
		struct da_alias *store = reallocarray(t->store, t->nstmts + need, sizeof(*store));
		struct da_alias **bound;

		if (!store)
			return -ENOMEM;
		t->store = store;
		bound = reallocarray(t->bound, t->nstmts + need, sizeof(*bound));
		if (!bound)
			return -ENOMEM;
		t->bound = bound;
		memset(t->store + t->nstmts, 0, need * sizeof(*store));
	}
	hashmap_init(&explicit, true);
	r = explicit_slots(t, &explicit);
	for (size_t i = 0; r >= 0 && i < t->nchassis; i++) {
		struct da_chassis *c = &t->chassis[i];

		if (c->conflict || !c->pattern)
			continue;
		for (unsigned int k = 0; r >= 0 && k < chassis_cells(c); k++) {
			char *id = chassis_slot(c, k), *name = NULL, *identity;
			struct da_alias *a;

			if (!id || strv_consume(&t->generated, id) < 0) {
				r = -ENOMEM;
				break;
			}
			/* A bay a line of the table names is that line's. */
			if (hashmap_get(&explicit, id))
				continue;
			name = chassis_bay_name(c, k);
			identity = xasprintf("slot:%s", id);
			if (!name || strv_consume(&t->generated, name) < 0 || !identity ||
			    strv_consume(&t->generated, identity) < 0) {
				if (!name)
					free(identity);
				r = -ENOMEM;
				break;
			}
			a = &t->store[t->nstmts++];
			a->name = name;
			a->kind = DA_ID_SLOT;
			a->value = id;
			a->identity = identity;
			a->file = c->file;
			a->line = c->line;
			a->lineidx = c->lineidx;
			a->chassis = c;
		}
	}
	hashmap_free(&explicit);
	return r < 0 ? r : problems;
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

/* The position of problem @p's file among the files of table @t (their order). */
static size_t problem_file(const struct da_table *t, const struct da_problem *p)
{
	size_t i = 0;

	while (i < t->nfiles && !(p->file && streq(p->file, t->files[i].path)))
		i++;
	return i;
}

static int problem_cmp(const void *pa, const void *pb, void *data)
{
	const struct da_problem *a = pa, *b = pb;
	size_t fa = problem_file(data, a), fb = problem_file(data, b);

	if (fa != fb)
		return fa < fb ? -1 : 1;
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
 * takes is freed with the table whatever happens. The files of @t, when it
 * has them, say which bytes of @buf are whose; else @buf is all of file
 * t->path. Problems found before (a file that could not be read) stay and
 * take their place in file order. Returns the number of problems (in
 * t->problems), -ENOMEM, or -EFBIG for a text of 1 GiB or more.
 */
static int parse_text(struct da_table *t, char *buf, size_t len, enum text_mode mode)
{
	size_t n = t->nfiles;
	int r, problems = t->problems.n;
	bool nul;

	hashmap_init(&t->names, true);
	hashmap_init(&t->bases, true);
	t->text = mode == TEXT_COPY ? malloc(len + 1) : buf;
	t->text_mapped = mode == TEXT_MAPPED;
	t->text_len = len;
	if (len >= 1U << 30)
		return -EFBIG;
	if (!t->nfiles) {
		t->files = calloc(1, sizeof(*t->files));
		if (!t->files || !(t->files[0].path = strdup(t->path)))
			return -ENOMEM;
		t->files[0].len = len;
		t->nfiles = n = 1;
	}
	/* At most one line more than newlines in each file. */
	for (const char *p = buf; (p = memchr(p, '\n', len - (p - buf))); p++)
		n++;
	/* A line's tokens are at most its bytes and a NUL each, and parse_line() reads at
	 * most LINE_TOKENS_MAX + 1 of them. */
	t->arena = malloc(len + (LINE_TOKENS_MAX + 1) * n + 1);
	t->lines = malloc(n * sizeof(*t->lines));
	t->store = calloc(n, sizeof(*t->store));
	t->bound = malloc(n * sizeof(*t->bound));
	t->chassis = calloc(n, sizeof(*t->chassis));
	if (!t->text || !t->arena || !t->lines || !t->store || !t->bound || !t->chassis ||
	    hashmap_reserve(&t->names, n) < 0)
		return -ENOMEM;
	if (mode == TEXT_COPY)
		memcpy(t->text, buf, len);
	if (mode != TEXT_MAPPED)
		t->text[len] = '\0';
	for (size_t f = 0; f < t->nfiles; f++) {
		size_t start = t->files[f].off, stop = start + t->files[f].len;
		unsigned int lineno = 0;

		while (start < stop) {
			const char *nl = memchr(t->text + start, '\n', stop - start);
			size_t end = nl ? (size_t)(nl - t->text) + 1 : stop;
			struct tline *l = &t->lines[t->nlines++];

			l->text = t->text + start;
			l->len = end - start;
			l->file = f;
			l->lineno = ++lineno;
			start = end;
		}
	}
	/* Lines with a NUL byte are errors; looked for line by line only when there is one. */
	nul = memchr(t->text, '\0', len) != NULL;
	for (size_t i = 0; i < t->nlines; i++) {
		r = parse_line(t, i, nul);
		if (r < 0)
			return r;
		problems += r;
	}
	r = chassis_names(t);
	if (r < 0)
		return r;
	problems += r;
	r = resolve_conflicts(t);
	if (r < 0)
		return r;
	problems += r;
	if (t->problems.n > 1)
		qsort_r(t->problems.v, t->problems.n, sizeof(*t->problems.v), problem_cmp, t);
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

/*
 * Parse @buf (taken as @mode says) into the new table @t, report its
 * problems to @diag and hand it out; on failure @t is freed, with the buffer.
 */
static int parse_into(struct da_table *t, char *buf, size_t len, enum text_mode mode,
		      struct da_diag *diag, struct da_table **ret_table)
{
	int r = parse_text(t, buf, len, mode);

	if (r >= 0)
		r = report_problems(t, diag);
	if (r < 0) {
		da_table_free(t);
		return r;
	}
	*ret_table = t;
	return 0;
}

/* As da_table_parse() on a buffer or mapping the table takes, freed whatever happens. */
static int table_parse_taken(const char *path, char *buf, size_t len, enum text_mode mode,
			     struct da_diag *diag, struct da_table **ret_table)
{
	struct da_table *t = table_new(path);

	if (!t) {
		if (mode == TEXT_MAPPED)
			munmap(buf, len);
		else if (mode == TEXT_OWNED)
			free(buf);
		return -ENOMEM;
	}
	return parse_into(t, buf, len, mode, diag, ret_table);
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

/* The single file @path, opened as @fd (-1: none), into a new table. */
static int load_single(const char *path, int fd, const struct stat *st, struct da_diag *diag,
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

DA_EXPORT char *da_table_dropin_dir(const char *path)
{
	size_t len = strlen(path);

	if (len > 5 && streq(path + len - 5, ".conf"))
		len -= 5;
	return xasprintf("%.*s.d", (int)len, path);
}

/* A file name a drop-in directory holds a drop-in as: "NAME.conf", not hidden. */
static bool is_dropin_name(const char *name)
{
	size_t len = strlen(name);

	return name[0] != '.' && len > 5 && streq(name + len - 5, ".conf");
}

/*
 * The names of the drop-ins in @dir, sorted, with @extra (a file to be
 * written) among them. None when @dir is missing; when it cannot be
 * trusted as root (not root's, writable by others) none either, with the
 * reason in @problems.
 */
static int list_dropins(const char *dir, const char *extra, struct strv *names,
			struct da_diag *problems)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int r = 0;

	d = opendir(dir);
	if (!d) {
		r = -errno;
		if (r == -ENOENT || r == -ENOTDIR)
			r = 0;
		else if (r != -ENOMEM)
			r = da_diag_add(problems, dir, 0, false, "%s; its drop-ins are not read",
					strerror(-r));
		return r < 0 ? r : extra ? strv_push(names, extra) : 0;
	}
	if (geteuid() == 0 && fstat(dirfd(d), &st) == 0 &&
	    (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))) {
		closedir(d);
		return da_diag_add(problems, dir, 0, false, "%s; refusing its drop-ins as root",
				   st.st_uid != 0 ? "not owned by root"
						  : "writable by group or others");
	}
	while (r >= 0 && (errno = 0, de = readdir(d)))
		if (is_dropin_name(de->d_name) && !(extra && streq(de->d_name, extra)))
			r = strv_push(names, de->d_name);
	closedir(d);
	if (r >= 0 && extra)
		r = strv_push(names, extra);
	if (r >= 0)
		strv_sort(names);
	return r;
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/* Mix what stat() says of @path into @h: which file, its size and times (or that it is missing). */
uint64_t da_stamp_file(uint64_t h, const char *path)
{
	struct stat st;
	int64_t v[7] = { -1 };

	if (stat(path, &st) == 0) {
		v[0] = st.st_dev;
		v[1] = st.st_ino;
		v[2] = st.st_size;
		v[3] = st.st_mtim.tv_sec;
		v[4] = st.st_mtim.tv_nsec;
		v[5] = st.st_ctim.tv_sec;
		v[6] = st.st_ctim.tv_nsec;
	}
	return fnv1a(h, v, sizeof(v));
}

/* Mix the bytes of regular file @path (or that it is none, or unreadable) into @h. */
static uint64_t stamp_bytes(uint64_t h, const char *path)
{
	const uint64_t k = UINT64_C(0x9e3779b97f4a7c15);
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, i = 0;
	struct stat st;
	/* Not blocking: a FIFO put where a table was is no table (da_table_open()). */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || read_fd(fd, &buf, &len) < 0) {
		if (fd >= 0)
			close(fd);
		return fnv1a(h, "", 1);
	}
	close(fd);
	/* Eight bytes at a time: a table of 10,000 lines is hashed in well under a millisecond. */
	for (; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, buf + i, sizeof(w));
		h = ((h << 23 | h >> 41) ^ w) * k;
	}
	for (; i < len; i++)
		h = ((h << 23 | h >> 41) ^ (uint8_t)buf[i]) * k;
	return fnv1a(h, &len, sizeof(len));
}

/* The drop-ins' stamp, with their bytes if @bytes. */
static int dropins_stamp(const char *path, bool bytes, uint64_t *ret_stamp)
{
	_cleanup_free_ char *dir = da_table_dropin_dir(path);
	uint64_t h = 0xcbf29ce484222325ULL;
	struct da_diag ignored = {};
	struct strv names = {};
	int r;

	if (!dir)
		return -ENOMEM;
	h = da_stamp_file(h, dir);
	r = list_dropins(dir, NULL, &names, &ignored);
	da_diag_clear(&ignored);
	for (size_t i = 0; r >= 0 && i < names.n; i++) {
		_cleanup_free_ char *fpath = xasprintf("%s/%s", dir, names.v[i]);

		if (!fpath) {
			r = -ENOMEM;
			break;
		}
		h = fnv1a(h, names.v[i], strlen(names.v[i]) + 1);
		h = da_stamp_file(h, fpath);
		if (bytes)
			h = stamp_bytes(h, fpath);
	}
	strv_free(&names);
	*ret_stamp = h;
	return r < 0 ? r : 0;
}

int da_table_dropins_stamp(const char *path, uint64_t *ret_stamp)
{
	return dropins_stamp(path, false, ret_stamp);
}

int da_table_stamp(const char *path, uint64_t *ret_stamp)
{
	struct stat st;
	uint64_t h;
	int r;

	/* A table that is no file (a pipe, a device) has no bytes to tell it by. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return -EINVAL;
	r = dropins_stamp(path, true, &h);
	h = fnv1a(h, path, strlen(path) + 1);
	h = da_stamp_file(h, path);
	*ret_stamp = stamp_bytes(h, path);
	return r;
}

/* True when @path is masked, a link to /dev/null (as systemd masks a drop-in). */
static bool is_masked(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3);
}

/*
 * Add file @path, opened as @fd (-1: none, or unread), to table @t being
 * read into @text. A read error fails the load when @diag is not NULL (the
 * main file), and is a problem of the file's own when it is.
 */
static int add_file(struct da_table *t, struct strbuf *text, const char *path, int fd,
		    struct da_diag *diag)
{
	struct tfile *f;
	char *buf = NULL;
	size_t len = 0;
	int r;

	if (ARRAY_GROW(t->files, t->nfiles) < 0)
		return -ENOMEM;
	f = &t->files[t->nfiles];
	*f = (struct tfile){ .path = strdup(path), .off = text->len };
	if (!f->path)
		return -ENOMEM;
	t->nfiles++;
	if (fd < 0)
		return 0;
	r = read_fd(fd, &buf, &len);
	if (r == 0)
		r = strbuf_add(text, buf, len);
	else if (r != -ENOMEM)
		r = da_diag_add(diag ?: &t->problems, path, 0, false, "%s", strerror(-r))
			    ?: diag ? r
				    : 0;
	free(buf);
	f->len = text->len - f->off;
	return r;
}

/*
 * Read table @path, opened as @fd (-1: none), with the drop-ins of its
 * directory, and @extra among them (a drop-in about to be written, read
 * as empty when it is missing; NULL for none). A drop-in that cannot be
 * read, or that someone other than root could have written when running
 * as root, is a problem of its own file and binds nothing; the others
 * apply.
 */
static int load_files(const char *path, int fd, const struct stat *st, const char *extra,
		      struct da_diag *diag, struct da_table **ret_table)
{
	_cleanup_free_ char *dir = da_table_dropin_dir(path);
	struct strbuf text = STRBUF_INIT;
	struct strv names = {};
	struct da_table *t = NULL;
	char *buf;
	size_t len;
	int r;

	if (!dir)
		return -ENOMEM;
	t = table_new(path);
	if (!t)
		return -ENOMEM;
	r = list_dropins(dir, extra, &names, &t->problems);
	if (r >= 0 && !names.n && !t->problems.n) {
		/* The usual table, one file: mapped, not copied. */
		da_table_free(t);
		return load_single(path, fd, st, diag, ret_table);
	}
	if (r >= 0)
		r = add_file(t, &text, path, fd, diag);
	for (size_t i = 0; r >= 0 && i < names.n; i++) {
		_cleanup_free_ char *fpath = xasprintf("%s/%s", dir, names.v[i]);
		struct stat fst;
		int ffd = -1;

		if (!fpath) {
			r = -ENOMEM;
			break;
		}
		if (is_masked(fpath))
			continue;
		r = da_table_open(fpath, &ffd, &fst, &t->problems);
		if (r < 0 && r != -ENOMEM)
			r = 0; /* the problem is the file's: it binds nothing */
		if (r >= 0)
			r = add_file(t, &text, fpath, ffd, NULL);
		if (ffd >= 0)
			close(ffd);
	}
	strv_free(&names);
	if (r < 0) {
		strbuf_release(&text);
		da_table_free(t);
		return r;
	}
	buf = strbuf_detach(&text, &len);
	if (!buf) {
		da_table_free(t);
		return -ENOMEM;
	}
	return parse_into(t, buf, len, TEXT_OWNED, diag, ret_table);
}

int da_table_load_opened(const char *path, int fd, const struct stat *st, struct da_diag *diag,
			 struct da_table **ret_table)
{
	return load_files(path, fd, st, NULL, diag, ret_table);
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

	if (a->chassis) {
		/* Made by a rule: plain tokens of their own. */
		*ret_name = a->name;
		*ret_name_len = strlen(a->name);
		*ret_id = a->identity;
		*ret_id_len = strlen(a->identity);
		return;
	}
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

const struct da_alias *da_table_conflicting(const struct da_table *t, const char *name)
{
	const struct da_alias *a = hashmap_get(&t->names, name);

	return a && a->conflict ? a : NULL;
}

DA_EXPORT const char *da_table_path(const struct da_table *t)
{
	return t->path;
}

DA_EXPORT size_t da_table_chassis_count(const struct da_table *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nchassis; i++)
		n += !t->chassis[i].conflict;
	return n;
}

DA_EXPORT const struct da_chassis *da_table_chassis_get(const struct da_table *t, size_t i)
{
	for (size_t k = 0; k < t->nchassis; k++)
		if (!t->chassis[k].conflict && i-- == 0)
			return &t->chassis[k];
	return NULL;
}

DA_EXPORT const struct da_chassis *da_alias_chassis(const struct da_alias *a)
{
	return a->chassis;
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

DA_EXPORT const char *da_alias_file(const struct da_alias *a)
{
	return a->file;
}

DA_EXPORT size_t da_alias_index(const struct da_alias *a)
{
	return a->index;
}

/* The file edits write. */
static const char *target_path(const struct da_table *t)
{
	return t->files[t->target].path;
}

DA_EXPORT char *da_table_format(const struct da_table *t, size_t *ret_len)
{
	const struct tfile *f = &t->files[t->target];
	char *s = malloc(f->len + 1);

	if (!s)
		return NULL;
	memcpy(s, t->text + f->off, f->len);
	s[f->len] = '\0';
	if (ret_len)
		*ret_len = f->len;
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
 * end of the target file, then parse it. The line written must bind: when
 * it does not, the problems are reported and @t is left unchanged. Bad
 * lines elsewhere stay as they were, byte for byte.
 */
static int table_splice(struct da_table *t, size_t idx, const char *repl, const char *append,
			struct da_diag *diag)
{
	struct da_table *n = table_new(t->path);
	unsigned int written = repl ? t->lines[idx].lineno : 0;
	char *text = NULL, *o;
	size_t len = 0, li = 0;
	int r = -ENOMEM;

	if (!n)
		return -ENOMEM;
	len = t->text_len + (repl ? strlen(repl) : 0) + (append ? strlen(append) + 1 : 0);
	text = malloc(len + 1);
	n->files = calloc(t->nfiles, sizeof(*n->files));
	if (!text || !n->files)
		goto out;
	o = text;
	for (size_t f = 0; f < t->nfiles; f++) {
		struct tfile *nf = &n->files[n->nfiles];

		nf->path = strdup(t->files[f].path);
		if (!nf->path)
			goto out;
		n->nfiles++;
		nf->off = o - text;
		for (; li < t->nlines && t->lines[li].file == f; li++) {
			const char *s = li == idx ? repl : t->lines[li].text;
			size_t l = li == idx ? (repl ? strlen(repl) : 0) : t->lines[li].len;

			if (l)
				memcpy(o, s, l);
			o += l;
		}
		if (append && f == t->target) {
			/* A last line without a newline gets one before the new statement. */
			if (o > text + nf->off && o[-1] != '\n')
				*o++ = '\n';
			written = 1;
			for (const char *p = text + nf->off; (p = memchr(p, '\n', o - p)); p++)
				written++;
			o = stpcpy(o, append);
		}
		nf->len = o - text - nf->off;
	}
	n->target = t->target;
	r = parse_text(n, text, o - text, TEXT_OWNED);
	text = NULL;
	if (r < 0)
		goto out;
	r = 0;
	for (size_t i = 0; written && i < n->problems.n; i++) {
		const struct da_problem *p = &n->problems.v[i];

		if (p->line == written && p->file && streq(p->file, target_path(n))) {
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

/*
 * Refuse, with the reason in @diag, to change statement @a when it lives in
 * another file than the one being edited: that file is someone else's
 * (a drop-in of a configuration tool) and is not written.
 */
static int other_file(const struct da_table *t, const struct da_alias *a, struct da_diag *diag)
{
	if (t->lines[a->lineidx].file == t->target)
		return 0;
	return da_diag_add(diag, target_path(t), 0, false,
			   "alias '%s' is defined in %s:%u, not in this file; edit that file (--file %s)",
			   a->name, a->file, a->line, a->file)
		       ?: -EXDEV;
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
	r = da_diag_add(diag, target_path(t), 0, false, "%s", msg);
	free(msg);
	if (r < 0)
		return r;
	return da_name_check(name, NULL) < 0 ? -EINVAL : -EEXIST;
}

/*
 * Refuse, with the reason in @diag, to rebind or remove @a when a chassis
 * rule made it: the rule is what names the bay.
 */
static int rule_named(const struct da_table *t, const struct da_alias *a, struct da_diag *diag)
{
	char where[PLACE_MAX];

	if (!a->chassis)
		return 0;
	return da_diag_add(diag, target_path(t), 0, false,
			   "alias '%s' is the name the chassis rule of %s gives slot:%s; "
			   "name the bay otherwise (set or rename), or change the rule (chassis set)",
			   a->name, place(t, a, t->target, where), a->value)
		       ?: -EPERM;
}

/* The statement named @name, to change it; one that conflicts is refused: it binds nothing. */
static struct da_alias *find_or_report(struct da_table *t, const char *name, struct da_diag *diag)
{
	struct da_alias *a = hashmap_get(&t->names, name);

	if (!a)
		da_diag_add(diag, target_path(t), 0, false, "no alias '%s'", name);
	else if (a->conflict)
		da_diag_add(diag, a->file, a->line, false,
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
	return da_diag_add(diag, target_path(t), 0, false, "invalid identity '%s:%s': %s",
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
	r = other_file(t, a, diag);
	if (r < 0)
		return r;
	r = rule_named(t, a, diag);
	if (r < 0)
		return r;
	id = format_identity(kind, value);
	if (!id)
		return -ENOMEM;
	line = line_with(t, a, a->id_off, a->id_len, id);
	if (!line)
		return -ENOMEM;
	return table_splice(t, a->lineidx, line, NULL, diag);
}

/* The first statement from @from on named @name exactly (any case when @fold), bound or not; or
 * NULL. */
static const struct da_alias *find_statement(const struct da_table *t, const char *name, bool fold,
					     size_t from)
{
	for (size_t i = from; i < t->nstmts; i++)
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
		da_diag_add(diag, target_path(t), 0, false, "no alias '%s'", name);
		return -ENOENT;
	}
	fold = !find_statement(t, name, false, 0);
	/* Nothing is removed unless every line of the name can be. */
	for (a = find_statement(t, name, fold, 0); a && r >= 0;
	     a = find_statement(t, name, fold, a - t->store + 1))
		r = a->chassis ? rule_named(t, a, diag) : other_file(t, a, diag);
	while (r >= 0 && (a = find_statement(t, name, fold, 0)))
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
	if (a->chassis) {
		/* A line for the bay wins over the rule: the bay takes the new name. */
		r = report_conflict(t, newname, a, diag);
		if (r < 0)
			return r;
		line = xasprintf("alias %s %s\n", newname, a->identity);
		return line ? table_splice(t, SIZE_MAX, NULL, line, diag) : -ENOMEM;
	}
	r = other_file(t, a, diag);
	if (r < 0)
		return r;
	r = report_conflict(t, newname, a, diag);
	if (r < 0)
		return r;
	line = line_with(t, a, a->name_off, a->name_len, newname);
	if (!line)
		return -ENOMEM;
	return table_splice(t, a->lineidx, line, NULL, diag);
}

/* The chassis line named @name that claims a bay @c claims too, from @from on; or NULL. */
static const struct da_chassis *find_chassis(const struct da_table *t, const char *name,
					     const struct da_chassis *c, size_t from, bool other)
{
	for (size_t i = from; i < t->nchassis; i++) {
		const struct da_chassis *x = &t->chassis[i];

		if (other == streq(x->name, name))
			continue;
		if (!c || chassis_overlap(x, c))
			return x;
	}
	return NULL;
}

DA_EXPORT int da_table_chassis_set(struct da_table *t, const char *name, const char *enclosure,
				   const char *options, struct da_diag *diag)
{
	_cleanup_free_ char *line = xasprintf("chassis %s %s %s\n", name, enclosure, options);
	_cleanup_free_ char *copy = options ? strdup(options) : NULL;
	struct da_chassis want = {};
	const struct da_chassis *old, *other;
	char *opts[LINE_TOKENS_MAX], *save = NULL;
	const char *err = NULL;
	char where[PLACE_MAX];
	size_t nopts = 0;
	int r;

	if (!line || !copy)
		return -ENOMEM;
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (nopts == ARRAY_SIZE(opts))
			return da_diag_add(diag, target_path(t), 0, false, "too many options")
				       ?: -EINVAL;
		opts[nopts++] = w;
	}
	r = chassis_parse(&want, name, enclosure, opts, nopts, &err);
	if (r < 0) {
		chassis_clear(&want);
		return r == -ENOMEM ? r
				    : da_diag_add(diag, target_path(t), 0, false,
						  "invalid chassis: %s", err) ?: -EINVAL;
	}
	other = find_chassis(t, name, &want, 0, true);
	old = find_chassis(t, name, &want, 0, false);
	chassis_clear(&want);
	if (other) {
		snprintf(where, sizeof(where), "%s:%u", other->file, other->line);
		return da_diag_add(diag, target_path(t), 0, false,
				   "%s is part of chassis '%s' (%s); unset that first", enclosure,
				   other->name, where)
			       ?: -EEXIST;
	}
	if (!old)
		return table_splice(t, SIZE_MAX, NULL, line, diag);
	if (t->lines[old->lineidx].file != t->target)
		return da_diag_add(diag, target_path(t), 0, false,
				   "chassis '%s' is described in %s:%u, not in this file; edit that file (--file %s)",
				   name, old->file, old->line, old->file)
			       ?: -EXDEV;
	return table_splice(t, old->lineidx, line, NULL, diag);
}

DA_EXPORT int da_table_chassis_unset(struct da_table *t, const char *name, struct da_diag *diag)
{
	const struct da_chassis *c;
	int r = 0;

	if (!find_chassis(t, name, NULL, 0, false)) {
		da_diag_add(diag, target_path(t), 0, false, "no chassis '%s'", name);
		return -ENOENT;
	}
	/* Nothing is removed unless every line of it can be. */
	for (size_t i = 0; i < t->nchassis; i++) {
		c = &t->chassis[i];
		if (streq(c->name, name) && t->lines[c->lineidx].file != t->target)
			return da_diag_add(diag, target_path(t), 0, false,
					   "chassis '%s' is described in %s:%u, not in this file; edit that file (--file %s)",
					   name, c->file, c->line, c->file)
				       ?: -EXDEV;
	}
	while (r >= 0 && (c = find_chassis(t, name, NULL, 0, false)))
		r = table_splice(t, c->lineidx, NULL, NULL, diag);
	return r;
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

/* A file of the table of @path an edit may write: @file itself, or the reason in @diag. */
static int check_target(const char *path, const char *file, struct da_diag *diag)
{
	_cleanup_free_ char *dir = da_table_dropin_dir(path), *copy = strdup(file);
	struct stat a, b;
	char *parent;

	if (!dir || !copy)
		return -ENOMEM;
	parent = dirname(copy);
	if (is_dropin_name(path_basename(file)) &&
	    (streq(parent, dir) || (stat(parent, &a) == 0 && stat(dir, &b) == 0 &&
				    a.st_dev == b.st_dev && a.st_ino == b.st_ino)))
		return 0;
	return da_diag_add(diag, file, 0, false,
			   "neither the table nor one of its drop-ins (%s/*.conf): it would not be read",
			   dir)
		       ?: -EINVAL;
}

DA_EXPORT int da_table_edit_file(const char *path, const char *file,
				 int (*edit)(struct da_table *table, void *data), void *data,
				 struct da_diag *diag)
{
	_cleanup_free_ char *real = NULL, *realmain = NULL, *dircopy = NULL, *maindir = NULL;
	_cleanup_free_ char *dropins = NULL, *tpath = NULL;
	const char *save = NULL, *extra = NULL;
	struct da_table *t = NULL;
	struct stat st, tst, *old = NULL;
	int dirfd = -1, maindirfd = -1, lockfd = -1, fd = -1, r, ret;

	if (file && streq(file, path))
		file = NULL;
	if (file) {
		r = check_target(path, file, diag);
		if (r < 0)
			return r;
		extra = path_basename(file);
		dropins = da_table_dropin_dir(path);
		tpath = dropins ? xasprintf("%s/%s", dropins, extra) : NULL;
		if (!tpath)
			return -ENOMEM;
		if (is_masked(tpath))
			return da_diag_add(diag, tpath, 0, false,
					   "masked (a link to /dev/null); refusing to edit it")
				       ?: -EPERM;
		/* The first drop-in makes the directory (its parent must be there). */
		if (!dropins || (mkdir(dropins, 0755) < 0 && errno != EEXIST)) {
			r = dropins ? -errno : -ENOMEM;
			if (dropins)
				da_diag_add(diag, dropins, 0, false, "cannot create it: %s",
					    strerror(-r));
			return r;
		}
	}
	/* A file that is a symlink is edited where it points, never replaced by a file. */
	save = file ?: path;
	if (lstat(save, &st) == 0 && S_ISLNK(st.st_mode)) {
		real = realpath(save, NULL);
		if (!real) {
			r = -errno;
			da_diag_add(diag, save, 0, false, "a symlink to %s; refusing to edit it",
				    r == -ENOENT ? "a missing file" : strerror(-r));
			return r;
		}
		save = real;
	}
	/* One lock for the table and all its drop-ins, beside the main file. */
	realmain =
		lstat(path, &st) == 0 && S_ISLNK(st.st_mode) ? realpath(path, NULL) : strdup(path);
	dircopy = strdup(save);
	maindir = realmain ? strdup(realmain) : NULL;
	if (!dircopy || !maindir)
		return -ENOMEM;
	dirfd = open(dirname(dircopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	maindirfd = file ? open(dirname(maindir), O_RDONLY | O_DIRECTORY | O_CLOEXEC) : dirfd;
	if (dirfd < 0 || maindirfd < 0) {
		r = -errno;
		da_diag_add(diag, dirfd < 0 ? save : path, 0, false,
			    "cannot open its directory: %s", strerror(-r));
		goto out;
	}
	r = lockfd = lock_table(realmain, maindirfd, diag);
	if (r < 0)
		goto out;
	/* What an editor killed mid-way left: nobody else writes while we hold the lock. */
	remove_stale_temps_at(dirfd, path_basename(save));
	r = da_table_open(path, &fd, &st, diag);
	if (r < 0)
		goto out;
	/* The table's own problems are the readers' to report: an edit keeps those lines as they
	 * are. */
	r = load_files(path, fd, &st, extra, NULL, &t);
	if (r < 0)
		goto out;
	if (file) {
		/* A drop-in that could not be read (the reader said why) is not written over. */
		bool unread = false;

		for (size_t i = 0; i < t->problems.n; i++) {
			const struct da_problem *p = &t->problems.v[i];

			unread |= !p->line && p->file &&
				  (streq(p->file, tpath) || streq(p->file, dropins));
		}
		while (t->target < t->nfiles && !streq(t->files[t->target].path, tpath))
			t->target++;
		if (unread || t->target == t->nfiles) {
			r = da_diag_add(diag, tpath, 0, false,
					"cannot be read; refusing to edit it")
				    ?: -EPERM;
			goto out;
		}
	}
	if (stat(save, &tst) == 0)
		old = &tst;
	ret = edit(t, data);
	if (ret < 0) {
		r = ret;
		goto out;
	}
	r = save_atomic(t, save, dirfd, old, diag);
	if (r == 0)
		r = ret;
out:
	da_table_free(t);
	if (fd >= 0)
		close(fd);
	if (lockfd >= 0)
		close(lockfd);
	if (maindirfd >= 0 && maindirfd != dirfd)
		close(maindirfd);
	if (dirfd >= 0)
		close(dirfd);
	return r;
}

DA_EXPORT int da_table_edit(const char *path, int (*edit)(struct da_table *table, void *data),
			    void *data, struct da_diag *diag)
{
	return da_table_edit_file(path, NULL, edit, data, diag);
}
