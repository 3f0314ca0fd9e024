// SPDX-License-Identifier: GPL-2.0-or-later
/* diskalias list: disks and partitions with their aliases, lsblk style. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <libsmartcols.h>

#include "tool.h"

enum {
	COL_NAME,
	COL_KNAME,
	COL_ALIAS,
	COL_ALIASES,
	COL_IDENTITY,
	COL_MAJMIN,
	COL_SIZE,
	COL_TYPE,
	COL_MODEL,
	COL_SERIAL,
	COL_WWN,
	COL_PATH,
	COL_ID,
	COL_RM,
	COL_RO,
	COL_STATE,
	COL_DEVNODE,
	COL_HCTL,
	COL_TRAN,
	COL_ATA,
	COL_CTRL,
	COL_HOLDERS,
	COL_ENCLOSURE,
	COL_SLOT,
};

static const struct colinfo {
	const char *name;
	double whint;
	int flags;
	int json;
	const char *help;
} infos[] = {
	[COL_NAME] = { "NAME", 0.25, SCOLS_FL_NOEXTREMES, SCOLS_JSON_STRING,
		       "device name (a device-mapper device by its mapper name, as lsblk)" },
	[COL_KNAME] = { "KNAME", 0.2, 0, SCOLS_JSON_STRING, "kernel device name" },
	[COL_ALIAS] = { "ALIAS", 0.15, 0, SCOLS_JSON_STRING, "primary alias" },
	[COL_ALIASES] = { "ALIASES", 0.2, 0, SCOLS_JSON_ARRAY_STRING,
			  "every alias, primary first" },
	[COL_IDENTITY] = { "IDENTITY", 0.3, 0, SCOLS_JSON_STRING,
			   "what the primary alias is bound to" },
	[COL_MAJMIN] = { "MAJ:MIN", 6, 0, SCOLS_JSON_STRING, "major:minor device number" },
	[COL_SIZE] = { "SIZE", 5, SCOLS_FL_RIGHT, SCOLS_JSON_STRING, "size of the device" },
	[COL_TYPE] = { "TYPE", 4, 0, SCOLS_JSON_STRING, "device type" },
	[COL_MODEL] = { "MODEL", 0.1, SCOLS_FL_TRUNC, SCOLS_JSON_STRING, "device model" },
	/* Never cut short: a serial's prefix could be another disk's. */
	[COL_SERIAL] = { "SERIAL", 0.1, 0, SCOLS_JSON_STRING, "serial number" },
	[COL_WWN] = { "WWN", 0.1, 0, SCOLS_JSON_STRING, "world wide name" },
	[COL_PATH] = { "PATH", 0.2, SCOLS_FL_TRUNC, SCOLS_JSON_STRING,
		       "/dev/disk/by-path link name (the slot)" },
	[COL_ID] = { "ID", 0.2, SCOLS_FL_TRUNC, SCOLS_JSON_STRING, "/dev/disk/by-id link name" },
	[COL_RM] = { "RM", 1, SCOLS_FL_RIGHT, SCOLS_JSON_BOOLEAN_OPTIONAL, "removable device" },
	[COL_RO] = { "RO", 1, SCOLS_FL_RIGHT, SCOLS_JSON_BOOLEAN_OPTIONAL, "read-only device" },
	[COL_STATE] = { "STATE", 7, 0, SCOLS_JSON_STRING,
			"present, missing (an alias whose disk is absent) or ambiguous" },
	[COL_DEVNODE] = { "DEVNODE", 10, 0, SCOLS_JSON_STRING, "device node" },
	[COL_HCTL] = { "HCTL", 10, 0, SCOLS_JSON_STRING, "SCSI address Host:Channel:Target:Lun" },
	[COL_TRAN] = { "TRAN", 6, 0, SCOLS_JSON_STRING,
		       "how the disk is attached (sata, sas, nvme, usb, ...)" },
	[COL_ATA] = { "ATA", 8, 0, SCOLS_JSON_STRING,
		      "libata device (port.device), as in ata3.00:" },
	[COL_CTRL] = { "CTRL", 6, 0, SCOLS_JSON_ARRAY_STRING, "NVMe controllers of the namespace" },
	[COL_HOLDERS] = { "HOLDERS", 0.1, 0, SCOLS_JSON_ARRAY_STRING,
			  "devices made of this one (md, device-mapper)" },
	[COL_ENCLOSURE] = { "ENCLOSURE", 0.1, 0, SCOLS_JSON_STRING,
			    "the SES enclosure's id of the disk's bay, or pcie for a PCIe slot" },
	[COL_SLOT] = { "SLOT", 4, 0, SCOLS_JSON_STRING,
		       "the bay: the enclosure's slot number or the PCIe slot's name" },
};

static const int default_cols[] = {
	COL_NAME,  COL_ALIAS,  COL_MAJMIN, COL_SIZE,  COL_TYPE,
	COL_MODEL, COL_SERIAL, COL_WWN,	   COL_STATE,
};

struct list_opts {
	int cols[ARRAY_SIZE(infos) * 2];
	size_t ncols;
	struct tool_output out; /* format 0 draws the tree */
	bool bytes, all, shell, inverse;
	size_t width; /* --width, 0 for the terminal's */
};

/* The table draws a tree on NAME; JSON nests children. */
static bool drawn_as_tree(const struct list_opts *o)
{
	return o->out.format == 0 || o->out.format == 'J';
}

static int column_from_name(const char *s, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(infos); i++)
		if (strlen(infos[i].name) == len && strncasecmp(infos[i].name, s, len) == 0)
			return i;
	return -1;
}

/* "-o NAME,ALIAS" replaces the columns, "-o +PATH" adds to the default ones. */
static int parse_columns(struct list_opts *o, const char *arg)
{
	const char *s = arg;

	if (*s == '+')
		s++;
	else
		o->ncols = 0;
	while (*s) {
		size_t len = strcspn(s, ",");
		int col = column_from_name(s, len);

		if (col < 0)
			return usage_error("list", "unknown column '%.*s'", (int)len, s);
		if (o->ncols < ARRAY_SIZE(o->cols))
			o->cols[o->ncols++] = col;
		s += len;
		if (*s == ',')
			s++;
	}
	return -1;
}

static const char *state_name(enum da_alias_state s)
{
	return s == DA_ALIAS_MISSING	 ? "missing"
	       : s == DA_ALIAS_AMBIGUOUS ? "ambiguous"
					 : "present";
}

/*
 * A list of names, one a line in JSON (libsmartcols makes it an array),
 * else comma separated: every alias, primary first; the NVMe controllers;
 * the holders.
 */
static char *names_cell(const struct tool *t, const struct list_opts *o, const struct da_device *d,
			int col)
{
	const char *sep = o->out.format == 'J' ? "\n" : ",", *s;
	struct strbuf all = STRBUF_INIT;
	bool shared = true;
	size_t n = 0;

	for (size_t i = 0;; i++) {
		s = col == COL_ALIASES	 ? da_map_device_name(t->map, d, i)
		    : col == COL_HOLDERS ? da_device_holder(d, i)
					 : da_device_handle(d, i, &shared);
		if (!s)
			break;
		if (col == COL_CTRL && (!shared || strncmp(s, "nvme", 4) != 0))
			continue;
		if ((n++ && strbuf_addstr(&all, sep) < 0) || strbuf_addstr(&all, s) < 0) {
			strbuf_release(&all);
			return NULL;
		}
	}
	return all.buf;
}

/* ENCLOSURE or SLOT of a slot: identity value ("0x5000ccab0405db7f/7", "pcie/3"). */
static char *slot_part(const char *value, int col)
{
	const char *slash = value ? strchr(value, '/') : NULL;

	if (!slash)
		return NULL;
	return col == COL_ENCLOSURE ? strndup(value, slash - value) : strdup(slash + 1);
}

static char *device_cell(const struct tool *t, const struct list_opts *o, const struct da_device *d,
			 int col)
{
	const struct da_alias *a = da_map_device_alias(t->map, d, 0);
	const char *s = NULL;

	switch (col) {
	case COL_NAME:
		s = da_device_dm_name(d) ? da_device_dm_name(d) : da_device_kname(d);
		break;
	case COL_KNAME:
		s = da_device_kname(d);
		break;
	case COL_ALIAS:
		s = da_map_device_name(t->map, d, 0);
		break;
	case COL_ALIASES:
		return names_cell(t, o, d, col);
	case COL_IDENTITY:
		s = a ? da_alias_identity(a) : NULL;
		break;
	case COL_MAJMIN:
		return xasprintf("%u:%u", da_device_major(d), da_device_minor(d));
	case COL_SIZE:
		return o->bytes ? xasprintf("%" PRIu64, da_device_size(d))
				: tool_human_size(da_device_size(d));
	case COL_TYPE:
		s = da_device_type(d);
		break;
	case COL_MODEL:
		s = da_device_model(d);
		break;
	case COL_SERIAL:
		s = da_device_serial(d);
		break;
	case COL_WWN:
		s = da_device_wwn(d);
		break;
	case COL_PATH:
		s = da_device_identity(d, DA_ID_PATH, 0);
		break;
	case COL_ID:
		s = da_device_identity(d, DA_ID_ID, 0);
		break;
	case COL_RM:
		s = da_device_removable(d) ? "1" : "0";
		break;
	case COL_RO:
		s = da_device_readonly(d) ? "1" : "0";
		break;
	case COL_STATE:
		s = "present";
		break;
	case COL_DEVNODE:
		return da_devnode(da_device_kname(d));
	case COL_HCTL:
		s = da_device_hctl(d);
		break;
	case COL_TRAN:
		s = da_device_parent(d) ? NULL : da_device_tran(d);
		break;
	case COL_ATA:
		s = da_device_ata(d);
		break;
	case COL_CTRL:
	case COL_HOLDERS:
		return names_cell(t, o, d, col);
	case COL_ENCLOSURE:
	case COL_SLOT:
		return slot_part(da_device_identity(d, DA_ID_SLOT, 0), col);
	}
	return s ? strdup(s) : NULL;
}

/* A row for an alias with no single device: its name, identity and state. */
static char *alias_cell(const struct da_alias *a, enum da_alias_state state, int col)
{
	switch (col) {
	case COL_ALIAS:
	case COL_ALIASES:
		return strdup(da_alias_name(a));
	case COL_IDENTITY:
		return strdup(da_alias_identity(a));
	case COL_WWN:
	case COL_SERIAL:
	case COL_PATH:
	case COL_ID: {
		static const enum da_id_kind kinds[] = {
			[COL_WWN] = DA_ID_WWN,
			[COL_SERIAL] = DA_ID_SERIAL,
			[COL_PATH] = DA_ID_PATH,
			[COL_ID] = DA_ID_ID,
		};

		return da_alias_kind(a) == kinds[col] ? strdup(da_alias_value(a)) : NULL;
	}
	case COL_STATE:
		return strdup(state_name(state));
	case COL_ENCLOSURE:
	case COL_SLOT:
		return da_alias_kind(a) == DA_ID_SLOT ? slot_part(da_alias_value(a), col) : NULL;
	default:
		return NULL;
	}
}

/*
 * At 10,000 disks the list is 30,000 lines, which libsmartcols would hold
 * whole: some 20 MB. Where nothing needs every line first, the lines go
 * out LIST_PART at a time, each part a table of its own: JSON, raw and
 * KEY="value" output, and the aligned table when it is not fitted to a
 * terminal. The aligned table's columns are as wide in every part as the
 * one table's would be: a first round measures the cells, and what
 * libsmartcols makes of the widest of them is each column's width. A
 * terminal's table is fitted to it by what all its lines hold: one part.
 */
#define LIST_PART 256

struct printer {
	const struct list_opts *o;
	struct libscols_table *tb;	     /* the part being made */
	bool parts;			     /* lines may go out before the list is made */
	bool measure;			     /* the round that measures the cells */
	bool measured;			     /* every part prints with width[] */
	size_t width[ARRAY_SIZE(infos) * 2]; /* by column: the widest cell, then the width */
	struct libscols_table *widths;	     /* cells libsmartcols measures */
	struct tool_table_parts printed;
};

/* A new table for a part, with @width (by column, or NULL: libsmartcols's own). */
static struct libscols_table *list_table_new(const struct list_opts *o, const size_t *width)
{
	struct libscols_table *tb = tool_table_new(&o->out, "blockdevices");

	if (!tb)
		return NULL;
	if (o->width) {
		scols_table_set_termwidth(tb, o->width);
		scols_table_set_termforce(tb, SCOLS_TERMFORCE_ALWAYS);
	}
	/* MAJ:MIN="8:32" as lsblk prints it; --shell: MAJ_MIN, a name a shell takes. */
	scols_table_enable_shellvar(tb, o->shell);
	for (size_t i = 0; i < o->ncols; i++) {
		const struct colinfo *ci = &infos[o->cols[i]];
		int flags = ci->flags;
		struct libscols_column *cl;

		/* The tree is drawn on NAME in the table and nests children in JSON. */
		if (o->cols[i] == COL_NAME && drawn_as_tree(o))
			flags |= SCOLS_FL_TREE;
		/* The columns of several names: one a line, which JSON makes an array. */
		if (ci->json == SCOLS_JSON_ARRAY_STRING && o->out.format == 'J')
			flags |= SCOLS_FL_WRAP;
		/*
		 * libsmartcols widens a column to its hint only where the cells
		 * are as wide as the heading, unless it is strict; and a strict
		 * column may be narrower than its heading. Strict, then, where
		 * the width is wider than the heading.
		 */
		if (width && width[i] > strlen(ci->name))
			flags |= SCOLS_FL_STRICTWIDTH;
		cl = tool_table_column(tb, ci->name, width ? width[i] : ci->whint, flags,
				       o->cols[i] == COL_SIZE && o->bytes ? SCOLS_JSON_NUMBER
									  : ci->json);
		if (!cl) {
			scols_unref_table(tb);
			return NULL;
		}
		if (ci->json == SCOLS_JSON_ARRAY_STRING && o->out.format == 'J')
			scols_column_set_wrapfunc(cl, scols_wrapnl_chunksize,
						  scols_wrapnl_nextchunk, NULL);
	}
	return tb;
}

static ssize_t write_nowhere(void *cookie, const char *buf, size_t size)
{
	return size;
}

/*
 * What libsmartcols makes of the cells measured so far (with the headings
 * and hints), printed nowhere: each column's width, at least as wide as
 * it makes of any part of them; then, with @more, a new table for more.
 */
static int widths_fold(struct printer *pr, bool more)
{
	static const cookie_io_functions_t nowhere = { .write = write_nowhere };
	FILE *f = fopencookie(NULL, "w", nowhere);
	int r = f ? 0 : -ENOMEM;

	if (f) {
		scols_table_set_stream(pr->widths, f);
		r = scols_print_table(pr->widths) < 0 ? -EIO : 0;
		fclose(f);
	}
	for (size_t i = 0; r >= 0 && i < pr->o->ncols; i++) {
		size_t w = scols_column_get_width(scols_table_get_column(pr->widths, i));

		if (w > pr->width[i])
			pr->width[i] = w;
	}
	scols_unref_table(pr->widths);
	pr->widths = more ? list_table_new(pr->o, NULL) : NULL;
	return r < 0 ? r : pr->widths || !more ? 0 : -ENOMEM;
}

/* A new line under @parent in the part being made, in *@ln; none when measuring. */
static int part_line(struct printer *pr, struct libscols_line *parent, struct libscols_line **ln)
{
	*ln = pr->measure ? NULL : scols_table_new_line(pr->tb, parent);
	return pr->measure || *ln ? 0 : -ENOMEM;
}

/*
 * Measure cell @v of column @i, after @art columns of the tree's art. A
 * cell of printable ASCII is as wide as it is long in any locale, unless
 * it holds a "\x", which libsmartcols counts as an escape. Anything else
 * goes to libsmartcols to measure as it prints it: a line of its own,
 * after as many blanks as the art is wide, a part at a time.
 */
static int measure_cell(struct printer *pr, size_t i, const char *v, size_t art)
{
	const unsigned char *u = (const unsigned char *)v;
	struct libscols_line *ln;
	size_t len = 0;
	char *s;

	while (u[len] >= 0x20 && u[len] < 0x7f && !(u[len] == '\\' && u[len + 1] == 'x'))
		len++;
	if (!u[len]) {
		if (art + len > pr->width[i])
			pr->width[i] = art + len;
		return 0;
	}
	ln = scols_table_new_line(pr->widths, NULL);
	s = ln ? xasprintf("%*s%s", (int)art, "", v) : NULL;
	if (!s || scols_line_refer_data(ln, i, s) < 0) {
		free(s);
		return -1;
	}
	/* Held a part at a time, however many there are. */
	return scols_table_get_nlines(pr->widths) >= LIST_PART ? widths_fold(pr, true) : 0;
}

/*
 * Fill line @ln at tree depth @depth, or measure its cells in the
 * measuring round; returns the number of cells with data, or -1.
 */
static int set_cells(struct printer *pr, struct libscols_line *ln, size_t depth,
		     char *(*cell)(const void *a, const void *b, int col), const void *a,
		     const void *b)
{
	const struct list_opts *o = pr->o;
	int n = 0, r;

	for (size_t i = 0; i < o->ncols; i++) {
		char *v = cell(a, b, o->cols[i]), *safe;

		if (!v)
			continue;
		/*
		 * Device strings are anything a firmware or a sysfs file says.
		 * libsmartcols escapes control bytes in every format, but lets
		 * invalid UTF-8 into JSON: that becomes U+FFFD, as it would in
		 * any UTF-8 decoder.
		 */
		safe = utf8_replace_invalid(v);
		if (safe) {
			free(v);
			v = safe;
		}
		if (pr->measure) {
			/* The tree's art takes two columns a level, in ASCII as in UTF-8. */
			r = measure_cell(pr, i, v,
					 o->cols[i] == COL_NAME && drawn_as_tree(o) ? 2 * depth
										    : 0);
			free(v);
		} else if ((r = scols_line_refer_data(ln, i, v)) < 0) {
			free(v);
		}
		if (r < 0)
			return -1;
		n++;
	}
	return n;
}

struct dev_cell_args {
	const struct tool *t;
	const struct list_opts *o;
};

static char *dev_cell_cb(const void *a, const void *b, int col)
{
	const struct dev_cell_args *x = a;

	return device_cell(x->t, x->o, b, col);
}

static char *alias_cell_cb(const void *a, const void *b, int col)
{
	return alias_cell(a, *(const enum da_alias_state *)b, col);
}

/*
 * What the scan reads besides names and identities: the size (which devices
 * are shown), what devices are made of (the tree, md types), and what the
 * columns show. As lsblk, a file no column shows is not read: -o
 * NAME,SIZE,SERIAL reads no model, removable or ro at 1,000 disks.
 */
static unsigned int scan_details(const struct list_opts *o)
{
	unsigned int details = DA_SCAN_SIZE | DA_SCAN_STACK;

	for (size_t i = 0; i < o->ncols; i++)
		details |= o->cols[i] == COL_MODEL ? DA_SCAN_MODEL
			   : o->cols[i] == COL_RM  ? DA_SCAN_REMOVABLE
			   : o->cols[i] == COL_RO  ? DA_SCAN_READONLY
						   : 0;
	return details;
}

/* Devices users list: not unused loop devices, not RAM disks, unless --all. */
static bool shown(const struct da_device *d, const struct list_opts *o)
{
	if (o->all)
		return true;
	return da_device_size(d) > 0 && da_device_major(d) != 1;
}

/* How deep the tree goes: md on dm on a partition is 3; a looping tree stops there. */
#define TREE_DEPTH 8

struct tree {
	struct tool *t;
	const struct list_opts *o;
	struct printer *pr;
	size_t *parts; /* by device index: how many partitions follow it in the list */
};

/* The index in the list of the device named @name, or -1 when there is none. */
static ssize_t device_index(const struct tree *tr, const char *name)
{
	const struct da_device *d = da_devlist_find_kname(tr->t->list, name);

	return d ? (ssize_t)da_device_pos(d) : -1;
}

/*
 * Device @i's line under @parent and, in the tree, what it holds under it
 * as lsblk draws it: its partitions, then the md and dm devices made of it
 * (a device made of several appears under each); --inverse, what it is
 * made of: its slaves, or a partition's disk.
 */
static int add_device(struct tree *tr, struct libscols_line *parent, size_t i, int depth)
{
	const struct da_devlist *list = tr->t->list;
	const struct da_device *d = da_devlist_get(list, i), *up;
	struct dev_cell_args args = { tr->t, tr->o };
	struct libscols_line *ln = NULL;
	const char *name;
	ssize_t k;
	int r = 0;

	/* Measured, a line is its cells and its depth. */
	if (part_line(tr->pr, parent, &ln) < 0 ||
	    set_cells(tr->pr, ln, depth, dev_cell_cb, &args, d) < 0)
		return -1;
	if (!drawn_as_tree(tr->o) || depth >= TREE_DEPTH)
		return 0;
	if (tr->o->inverse) {
		up = da_device_parent(d);
		if (up && (k = device_index(tr, da_device_kname(up))) >= 0)
			r = add_device(tr, ln, k, depth + 1);
		for (size_t s = 0; r >= 0 && (name = da_device_slave(d, s)); s++)
			if ((k = device_index(tr, name)) >= 0)
				r = add_device(tr, ln, k, depth + 1);
		return r;
	}
	for (size_t p = 1; r >= 0 && p <= tr->parts[i]; p++)
		if (shown(da_devlist_get(list, i + p), tr->o))
			r = add_device(tr, ln, i + p, depth + 1);
	for (size_t h = 0; r >= 0 && (name = da_device_holder(d, h)); h++)
		if ((k = device_index(tr, name)) >= 0 && shown(da_devlist_get(list, k), tr->o))
			r = add_device(tr, ln, k, depth + 1);
	return r;
}

/* Whether device @d starts a tree: it is made of nothing shown (--inverse: nothing is made of it). */
static bool tree_top(const struct tree *tr, size_t i)
{
	const struct da_devlist *list = tr->t->list;
	const struct da_device *d = da_devlist_get(list, i);
	const char *name;
	ssize_t k;

	if (!drawn_as_tree(tr->o))
		return true;
	if (tr->o->inverse) {
		if (tr->parts[i])
			return false;
		for (size_t h = 0; (name = da_device_holder(d, h)); h++)
			if ((k = device_index(tr, name)) >= 0 &&
			    shown(da_devlist_get(list, k), tr->o))
				return false;
		return true;
	}
	if (da_device_parent(d))
		return false;
	for (size_t s = 0; (name = da_device_slave(d, s)); s++)
		if ((k = device_index(tr, name)) >= 0 && shown(da_devlist_get(list, k), tr->o))
			return false;
	return true;
}

/*
 * lsblk's order: disks by their numbers (MAJ:MIN), each followed by its
 * partitions by number. @list keeps each disk's partitions right after it.
 */
static int devnum_cmp(const void *pa, const void *pb, void *data)
{
	const struct da_devlist *list = data;
	const struct da_device *a = da_devlist_get(list, *(const size_t *)pa);
	const struct da_device *b = da_devlist_get(list, *(const size_t *)pb);
	unsigned int ma = da_device_major(a), mb = da_device_major(b);

	if (ma != mb)
		return ma < mb ? -1 : 1;
	if (da_device_minor(a) != da_device_minor(b))
		return da_device_minor(a) < da_device_minor(b) ? -1 : 1;
	return 0;
}

/*
 * The end of the measuring round: each column's widest cell of printable
 * ASCII, as blanks, joins the cells libsmartcols measures, and what it
 * makes of them all is each column's width, as it would be in the one
 * table.
 */
static int measure_end(struct printer *pr)
{
	struct libscols_line *ln = scols_table_new_line(pr->widths, NULL);

	if (!ln)
		return -ENOMEM;
	for (size_t i = 0; i < pr->o->ncols; i++) {
		char *x;

		if (!pr->width[i])
			continue;
		x = xasprintf("%*s", (int)pr->width[i], "");
		if (!x || scols_line_refer_data(ln, i, x) < 0) {
			free(x);
			return -ENOMEM;
		}
	}
	pr->measured = true;
	return widths_fold(pr, false);
}

/*
 * Begin a part: a new table, not the last one emptied, as libsmartcols
 * keeps a column's statistics from print to print.
 */
static int part_new(struct printer *pr)
{
	scols_unref_table(pr->tb);
	pr->tb = list_table_new(pr->o, pr->measured ? pr->width : NULL);
	return pr->tb ? 0 : -ENOMEM;
}

/* Print the part made so far, and begin the next. */
static int part_out(struct printer *pr)
{
	int r = tool_table_print_part(pr->tb, &pr->printed);

	return r < 0 ? r : part_new(pr);
}

/* A part is full at LIST_PART lines; called between two trees. */
static int part_full(struct printer *pr)
{
	if (!pr->parts || pr->measure)
		return 0;
	return scols_table_get_nlines(pr->tb) >= LIST_PART ? part_out(pr) : 0;
}

static int fill_table(struct tool *t, const struct list_opts *o, struct printer *pr)
{
	size_t n = da_devlist_count(t->list), ndisks = 0;
	struct tree tr = { t, o, pr, calloc(n + 1, sizeof(size_t)) };
	_cleanup_free_ size_t *disks = calloc(n + 1, sizeof(*disks));
	int r = 0;

	if (!tr.parts || !disks)
		r = -1;
	/* Partitions follow their disk in the list. */
	for (size_t i = 0, disk = 0; r >= 0 && i < n; i++) {
		if (!da_device_parent(da_devlist_get(t->list, i)))
			disks[ndisks++] = disk = i;
		else
			tr.parts[disk]++;
	}
	if (r >= 0)
		qsort_r(disks, ndisks, sizeof(*disks), devnum_cmp, (void *)t->list);
	/* Each disk, then its partitions: lines of their own when flat or inverted. */
	for (size_t k = 0; r >= 0 && k < ndisks; k++)
		for (size_t i = disks[k]; r >= 0 && i <= disks[k] + tr.parts[disks[k]]; i++)
			if (shown(da_devlist_get(t->list, i), o) && tree_top(&tr, i)) {
				r = add_device(&tr, NULL, i, 0);
				if (r >= 0)
					r = part_full(pr);
			}
	free(tr.parts);
	if (r < 0)
		return -1;
	for (size_t i = 0; r >= 0 && i < da_table_count(t->table); i++) {
		enum da_alias_state s = da_map_alias_state(t->map, i, NULL);
		struct libscols_line *ln;

		if (s == DA_ALIAS_PRESENT)
			continue;
		if (part_line(pr, NULL, &ln) < 0)
			return -1;
		switch (set_cells(pr, ln, 0, alias_cell_cb, da_table_get(t->table, i), &s)) {
		case -1:
			return -1;
		case 0:
			/* None of the chosen columns says anything about it. */
			if (ln)
				scols_table_remove_line(pr->tb, ln);
			break;
		}
		r = part_full(pr);
	}
	return r;
}

static int print_list(struct tool *t, const struct list_opts *o)
{
	struct printer pr = { .o = o };
	int r = 0;

	pr.parts = o->out.format != 0 || (!o->width && !isatty(STDOUT_FILENO));
	if (pr.parts && o->out.format == 0) {
		pr.measure = true;
		pr.widths = list_table_new(o, NULL);
		r = pr.widths ? fill_table(t, o, &pr) : -1;
		if (r >= 0)
			r = measure_end(&pr);
		pr.measure = false;
	}
	if (r >= 0)
		r = part_new(&pr);
	if (r >= 0)
		r = fill_table(t, o, &pr);
	/* The last part; a list of nothing is still a table, with its headings. */
	if (r >= 0 && (scols_table_get_nlines(pr.tb) || !pr.printed.n))
		r = part_out(&pr);
	if (tool_table_parts_end(&pr.printed) < 0)
		r = -1;
	scols_unref_table(pr.tb);
	scols_unref_table(pr.widths);
	return r;
}

static const char list_usage[] =
	"Usage:\n"
	" diskalias list [options]\n"
	"\n"
	"List disks and partitions with their aliases and identities, and aliases\n"
	"whose disk is not present.\n"
	"\n"
	"Options:\n"
	" -o, --output <list>   columns to print (-o +COL adds to the default)\n" TOOL_OUTPUT_HELP
	" -y, --shell           with --pairs, keys a shell takes as variables (MAJ_MIN)\n"
	" -b, --bytes           print SIZE in bytes\n"
	" -a, --all             also list empty devices\n"
	" -s, --inverse         the tree upside down: md and dm devices first, what\n"
	"                       they are made of under them\n"
	" -w, --width <num>     output width (default: the terminal's, or $COLUMNS)\n"
	" -H, --list-columns    list the available columns\n";

/* The columns with what they show, from infos[]: the help and --list-columns say the same. */
static void print_columns(FILE *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(infos); i++)
		fprintf(f, "%10s  %s\n", infos[i].name, infos[i].help);
}

int cmd_list(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		TOOL_OUTPUT_LONG_OPTS,
		{ "bytes", no_argument, NULL, 'b' },
		{ "all", no_argument, NULL, 'a' },
		{ "shell", no_argument, NULL, 'y' },
		{ "width", required_argument, NULL, 'w' },
		{ "list-columns", no_argument, NULL, 'H' },
		{ "inverse", no_argument, NULL, 's' },
		GLOBAL_LONG_OPTS,
		{},
	};
	static const tool_excl_t excl[] = { TOOL_OUTPUT_EXCL, {} };
	int excl_seen[ARRAY_SIZE(excl)] = {};
	struct list_opts o = {};
	int c, r;

	memcpy(o.cols, default_cols, sizeof(default_cols));
	o.ncols = ARRAY_SIZE(default_cols);
	while ((c = getopt_long(argc, argv, "o:bayw:Hs" TOOL_OUTPUT_SHORT_OPTS GLOBAL_SHORT_OPTS,
				opts, NULL)) != -1) {
		r = tool_exclusive(t, c, opts, excl, excl_seen);
		if (r >= 0)
			return r;
		switch (c) {
		case 'o':
			r = parse_columns(&o, optarg);
			if (r >= 0)
				return r;
			break;
		case 'b':
			o.bytes = true;
			break;
		case 'a':
			o.all = true;
			break;
		case 'y':
			o.shell = true;
			break;
		case 'w': {
			unsigned int w;

			if (parse_uint(optarg, &w) < 0 || w == 0)
				return usage_error("list", "--width: '%s' is not a positive number",
						   optarg);
			o.width = w;
			break;
		}
		case 's':
			o.inverse = true;
			break;
		case 'H':
			print_columns(stdout);
			return EXIT_OK;
		case 'h':
			tool_help(list_usage);
			fputs("\nAvailable columns (for --output):\n", stdout);
			print_columns(stdout);
			return EXIT_OK;
		default:
			r = tool_output_common_option(t, c, &o.out, list_usage);
			if (r >= 0)
				return r;
		}
	}
	if (o.shell && o.out.format != 'P')
		return usage_error("list", "--shell goes with --pairs");
	if (optind < argc)
		return usage_error("list", "unexpected argument '%s'", argv[optind]);
	t->details = scan_details(&o);
	if (tool_load(t, NEED_MAP) < 0)
		return EXIT_FAIL;
	if (print_list(t, &o) < 0) {
		errmsg("cannot print the list");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
