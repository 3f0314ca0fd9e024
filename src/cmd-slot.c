// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * diskalias map, locate, fault: the bays of the machine (SES enclosures and
 * PCIe slots) with what is in them, and their LEDs.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <libsmartcols.h>

#include "hashmap.h"
#include "jsonw.h"
#include "tool.h"

struct bays {
	struct tool *t;
	struct da_slotlist *slots;
	struct hashmap byhctl; /* H:C:T:L -> disk */
};

static int bays_load(struct tool *t, struct bays *b)
{
	struct da_diag diag = {};
	int r;

	b->t = t;
	hashmap_init(&b->byhctl, false);
	r = da_slots_scan(t->ctx, &diag, &b->slots);
	print_diag(&diag);
	da_diag_clear(&diag);
	for (size_t i = 0; r >= 0 && i < da_devlist_count(t->list); i++) {
		struct da_device *d = da_devlist_get(t->list, i);

		if (da_device_devtype(d) == DA_DEV_DISK && da_device_hctl(d))
			r = hashmap_put(&b->byhctl, da_device_hctl(d), d);
	}
	if (r < 0)
		errmsg("out of memory");
	return r;
}

static void bays_free(struct bays *b)
{
	da_slotlist_free(b->slots);
	hashmap_free(&b->byhctl);
}

/*
 * The @i-th disk in bay @s: an SES bay holds the SCSI device its component
 * links to; a PCIe slot every namespace of the controller in it.
 */
static struct da_device *bay_device(const struct bays *b, const struct da_slot *s, size_t i)
{
	if (s->kind == DA_SLOT_SES)
		return i == 0 && s->hctl ? hashmap_get(&b->byhctl, s->hctl) : NULL;
	for (size_t j = 0; j < da_devlist_count(b->t->list); j++) {
		struct da_device *d = da_devlist_get(b->t->list, j);

		if (da_device_has_identity(d, DA_ID_SLOT, s->identity) && i-- == 0)
			return d;
	}
	return NULL;
}

/* The alias of bay @s: one bound to the bay itself, else its disk @d's primary alias. */
static const char *bay_alias(const struct bays *b, const struct da_slot *s,
			     const struct da_device *d)
{
	for (size_t i = 0; s->identity && i < da_table_count(b->t->table); i++) {
		const struct da_alias *a = da_table_get(b->t->table, i);

		if (da_alias_kind(a) == DA_ID_SLOT &&
		    da_id_value_equal(DA_ID_SLOT, da_alias_value(a), s->identity))
			return da_alias_name(a);
	}
	return d ? da_map_device_name(b->t->map, d, 0) : NULL;
}

static const char *led_text(int v)
{
	return v < 0 ? NULL : v ? "on" : "off";
}

enum {
	MAP_SLOT,
	MAP_BAY,
	MAP_ALIAS,
	MAP_DEVICE,
	MAP_MODEL,
	MAP_SERIAL,
	MAP_SIZE,
	MAP_STATUS,
	MAP_LOCATE,
	MAP_FAULT,
	_MAP_COLS,
};

static const struct {
	const char *name, *json;
	double whint;
	int flags;
} map_cols[_MAP_COLS] = {
	[MAP_SLOT] = { "SLOT", "slot", 4, SCOLS_FL_RIGHT },
	[MAP_BAY] = { "BAY", "bay", 0.1, 0 },
	[MAP_ALIAS] = { "ALIAS", "alias", 0.15, 0 },
	[MAP_DEVICE] = { "DEVICE", "device", 0.1, 0 },
	[MAP_MODEL] = { "MODEL", "model", 0.15, SCOLS_FL_TRUNC },
	[MAP_SERIAL] = { "SERIAL", "serial", 0.1, 0 },
	[MAP_SIZE] = { "SIZE", "size", 5, SCOLS_FL_RIGHT },
	[MAP_STATUS] = { "STATUS", "status", 0.1, 0 },
	[MAP_LOCATE] = { "LOCATE", "locate", 6, 0 },
	[MAP_FAULT] = { "FAULT", "fault", 5, 0 },
};

/* The cell @col of bay @s, whose first disk is @d, NULL when empty. Caller frees. */
static char *map_cell(const struct bays *b, const struct da_slot *s, const struct da_device *d,
		      int col, bool bytes)
{
	const char *v = NULL;

	switch (col) {
	case MAP_SLOT:
		v = s->number;
		break;
	case MAP_BAY:
		v = s->label;
		break;
	case MAP_ALIAS:
		v = bay_alias(b, s, d);
		break;
	case MAP_DEVICE: {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; d; d = bay_device(b, s, ++i))
			if (strbuf_addf(&sb, "%s%s", i ? "," : "", da_device_kname(d)) < 0) {
				strbuf_release(&sb);
				return NULL;
			}
		return sb.buf;
	}
	case MAP_MODEL:
		v = d ? da_device_model(d) : NULL;
		break;
	case MAP_SERIAL:
		v = d ? da_device_serial(d) : NULL;
		break;
	case MAP_SIZE:
		if (!d)
			return NULL;
		return bytes ? xasprintf("%" PRIu64, da_device_size(d))
			     : tool_human_size(da_device_size(d));
	case MAP_STATUS:
		v = s->status;
		break;
	case MAP_LOCATE:
		v = led_text(s->led[DA_LED_LOCATE]);
		break;
	case MAP_FAULT:
		v = led_text(s->led[DA_LED_FAULT]);
		break;
	}
	return v ? strdup(v) : NULL;
}

/* Bays @from up to the next group's first: one enclosure, or the PCIe slots. */
static size_t group_end(const struct da_slotlist *l, size_t from)
{
	const struct da_slot *first = da_slotlist_get(l, from), *s;
	size_t i = from + 1;

	while ((s = da_slotlist_get(l, i)) && streq(s->enclosure, first->enclosure))
		i++;
	return i;
}

static size_t group_empty(const struct bays *b, size_t from, size_t to)
{
	size_t n = 0;

	for (size_t i = from; i < to; i++)
		n += !bay_device(b, da_slotlist_get(b->slots, i), 0);
	return n;
}

static int print_group_table(const struct bays *b, const struct tool_output *out, size_t from,
			     size_t to, bool bytes)
{
	struct libscols_table *tb = tool_table_new(out, NULL);
	int r = -1;

	if (!tb)
		return -1;
	for (int c = 0; c < _MAP_COLS; c++)
		if (!tool_table_column(tb, map_cols[c].name, map_cols[c].whint, map_cols[c].flags,
				       SCOLS_JSON_STRING))
			goto out;
	for (size_t i = from; i < to; i++) {
		const struct da_slot *s = da_slotlist_get(b->slots, i);
		const struct da_device *d = bay_device(b, s, 0);
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		if (!ln)
			goto out;
		for (int c = 0; c < _MAP_COLS; c++) {
			char *v = map_cell(b, s, d, c, bytes);
			char *safe = v ? utf8_replace_invalid(v) : NULL;

			if (safe) {
				free(v);
				v = safe;
			}
			if (v && scols_line_refer_data(ln, c, v) < 0) {
				free(v);
				goto out;
			}
		}
	}
	r = tool_table_print(tb);
out:
	scols_unref_table(tb);
	return r;
}

static void print_map_text(const struct bays *b, const struct tool_output *out, bool bytes)
{
	size_t n = da_slotlist_count(b->slots);

	for (size_t from = 0, to; from < n; from = to) {
		const struct da_slot *s = da_slotlist_get(b->slots, from);

		to = group_end(b->slots, from);
		if (!out->noheadings) {
			if (s->kind == DA_SLOT_PCIE)
				printf("%sPCIe slots: %zu, %zu empty\n", from ? "\n" : "",
				       to - from, group_empty(b, from, to));
			else
				printf("%sEnclosure %s, id %s: %zu slots, %zu empty\n",
				       from ? "\n" : "", s->enclosure,
				       s->enclosure_id ? s->enclosure_id : "?", to - from,
				       group_empty(b, from, to));
			if (s->shared_id)
				printf("  (another enclosure reports the same id: slot: aliases here bind nothing)\n");
		}
		print_group_table(b, out, from, to, bytes);
	}
}

static void json_str(struct jsonw *w, const char *key, const char *v)
{
	jsonw_key(w, key);
	if (v)
		jsonw_string(w, v, strlen(v));
	else
		jsonw_literal(w, "null");
}

/* -------------------------------------------------------------------------
 * The chassis: each drawn as its panel (--layout), and in JSON.
 */

/* What a bay shows: its state word and whether its LEDs are lit. */
enum bay_state { BAY_ABSENT, BAY_EMPTY, BAY_OK, BAY_FAILED };

static enum bay_state bay_state(const struct bays *b, const struct da_slot *s)
{
	if (!s)
		return BAY_ABSENT;
	if (!bay_device(b, s, 0))
		return BAY_EMPTY;
	if (s->status &&
	    (strcasecmp(s->status, "critical") == 0 || strcasecmp(s->status, "unrecoverable") == 0))
		return BAY_FAILED;
	return BAY_OK;
}

static const char *const state_words[] = {
	[BAY_ABSENT] = "absent",
	[BAY_EMPTY] = "empty",
	[BAY_OK] = "OK",
	[BAY_FAILED] = "failed",
};

/* The bay of bay @k of chassis part @ch on this machine, or NULL; its slot: value in *ret_id. */
static const struct da_slot *chassis_slot(const struct bays *b, const struct da_chassis *ch,
					  unsigned int k, unsigned int *ret_row,
					  unsigned int *ret_col, char **ret_id)
{
	*ret_id = NULL;
	if (da_chassis_bay(ch, k, ret_id, ret_row, ret_col) < 0)
		return NULL;
	return da_slotlist_find(b->slots, *ret_id, 0);
}

/* The bay's own name: its alias (the rule's, or a line's), else its label. */
static const char *bay_name(const struct bays *b, const struct da_slot *s, const char *identity)
{
	for (size_t i = 0; i < da_table_count(b->t->table); i++) {
		const struct da_alias *a = da_table_get(b->t->table, i);

		if (da_alias_kind(a) == DA_ID_SLOT &&
		    da_id_value_equal(DA_ID_SLOT, da_alias_value(a), identity))
			return da_alias_name(a);
	}
	return s ? s->label : NULL;
}

struct panel {
	unsigned int width; /* of a cell's text */
	bool color;
};

/* @s, escaped, cut to the panel's cell width and padded to it. */
static void put_cell_text(const struct panel *p, const char *s, const char *sgr)
{
	_cleanup_free_ char *safe = s ? str_escape(s, strlen(s), 0, true) : NULL;
	size_t n = safe ? strlen(safe) : 0;

	if (n > p->width)
		n = p->width;
	if (p->color && sgr && n)
		printf("\033[%sm%.*s\033[0m", sgr, (int)n, safe);
	else
		printf("%.*s", (int)n, safe ? safe : "");
	printf("%*s", (int)(p->width - n), "");
}

static void put_border(const struct panel *p, unsigned int cols)
{
	putchar('+');
	for (unsigned int c = 0; c < cols; c++) {
		for (unsigned int i = 0; i < p->width; i++)
			putchar('-');
		putchar('+');
	}
	putchar('\n');
}

/* One part of a chassis, as its panel: four lines a bay (number, name, disk, state). */
static int draw_part(const struct bays *b, const struct da_chassis *ch, const struct panel *p)
{
	unsigned int rows = da_chassis_rows(ch), cols = da_chassis_columns(ch);
	unsigned int n = da_chassis_cells(ch), row, col, outside = 0;
	_cleanup_free_ int *grid = malloc(sizeof(int) * rows * cols);

	if (!grid)
		return -ENOMEM;
	for (unsigned int i = 0; i < rows * cols; i++)
		grid[i] = -1;
	for (unsigned int k = 0; k < n; k++) {
		_cleanup_free_ char *id = NULL;

		chassis_slot(b, ch, k, &row, &col, &id);
		grid[row * cols + col] = k;
	}
	/* Bays of the enclosure the layout has no cell for: check says which. */
	for (size_t i = 0; i < da_slotlist_count(b->slots); i++) {
		const struct da_slot *s = da_slotlist_get(b->slots, i);
		unsigned int k;

		if (s->identity && s->kind == da_chassis_kind(ch) &&
		    da_chassis_find(ch, s->identity, &k) < 0 &&
		    (s->kind == DA_SLOT_PCIE
			     ? false
			     : s->enclosure_id &&
				       strcasecmp(s->enclosure_id, da_chassis_enclosure(ch)) == 0))
			outside++;
	}
	put_border(p, cols);
	for (unsigned int r = 0; r < rows; r++) {
		for (int line = 0; line < 4; line++) {
			putchar('|');
			for (unsigned int c = 0; c < cols; c++) {
				int k = grid[r * cols + c];
				_cleanup_free_ char *id = NULL, *text = NULL;
				const struct da_slot *s;
				const struct da_device *d;
				enum bay_state st;
				const char *sgr = NULL;

				if (k < 0) {
					put_cell_text(p, NULL, NULL);
					putchar('|');
					continue;
				}
				s = chassis_slot(b, ch, k, &row, &col, &id);
				d = s ? bay_device(b, s, 0) : NULL;
				st = bay_state(b, s);
				if (line == 0) {
					text = strdup(strrchr(id, '/') + 1);
					sgr = "1";
				} else if (line == 1) {
					const char *name = bay_name(b, s, id);

					text = strdup(name ? name : "");
				} else if (line == 2) {
					const char *alias =
						d ? da_map_device_name(b->t->map, d, 0) : NULL;
					const char *name = bay_name(b, s, id);

					/* The disk by its own alias; by its kernel name when that
					 * is the bay's. */
					size_t more = 0;

					if (alias && name && streq(alias, name))
						alias = NULL;
					/* A drive of several namespaces: the first, and how many
					 * more. */
					while (d && bay_device(b, s, more + 1))
						more++;
					text = !d     ? strdup("-")
					       : more ? xasprintf("%s +%zu",
								  alias ?: da_device_kname(d), more)
						      : strdup(alias ?: da_device_kname(d));
				} else {
					bool loc = s && s->led[DA_LED_LOCATE] > 0;
					bool flt = s && s->led[DA_LED_FAULT] > 0;

					text = xasprintf("%s%s%s", state_words[st],
							 loc ? " LOCATE" : "", flt ? " FAULT" : "");
					sgr = flt || st == BAY_FAILED ? "1;31"
					      : loc		      ? "1;30;43"
					      : st == BAY_OK	      ? "32"
								      : "2";
				}
				if (!text)
					return -ENOMEM;
				put_cell_text(p, text, sgr);
				putchar('|');
			}
			putchar('\n');
		}
		put_border(p, cols);
	}
	if (outside)
		printf("(%u bay%s of %s %s in no cell of this layout: see diskalias check)\n",
		       outside, outside == 1 ? "" : "s", da_chassis_enclosure(ch),
		       outside == 1 ? "is" : "are");
	return 0;
}

/* The terminal's width, or 80 when stdout is none. */
static unsigned int term_width(void)
{
	struct winsize ws;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col)
		return ws.ws_col;
	return 80;
}

static int print_layout(const struct bays *b, bool color)
{
	const struct da_table *tb = b->t->table;
	size_t n = da_table_chassis_count(tb);
	unsigned int cols = 1;
	struct panel p = { .color = color };

	if (!n) {
		printf("no chassis described (see diskalias chassis set); the bays by enclosure:\n\n");
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		if (da_chassis_columns(da_table_chassis_get(tb, i)) > cols)
			cols = da_chassis_columns(da_table_chassis_get(tb, i));
	/* Cells of 12 characters where the width allows (6 columns fit 80), 6 at least. */
	p.width = (term_width() - 1) / cols;
	p.width = p.width > 13 ? 12 : p.width > 7 ? p.width - 1 : 6;
	for (size_t i = 0; i < n; i++) {
		const struct da_chassis *ch = da_table_chassis_get(tb, i);
		bool first_part = !i || !streq(da_chassis_name(da_table_chassis_get(tb, i - 1)),
					       da_chassis_name(ch));
		int r;

		if (first_part)
			printf("%sChassis %s\n", i ? "\n" : "", da_chassis_name(ch));
		printf("%s: %s, %u row%s of %u, first bay %s, numbered along the %s\n",
		       da_chassis_rear(ch) ? "rear" : "front", da_chassis_enclosure(ch),
		       da_chassis_rows(ch), da_chassis_rows(ch) == 1 ? "" : "s",
		       da_chassis_columns(ch), da_chassis_corner_name(da_chassis_first(ch)),
		       da_chassis_by_columns(ch) ? "columns" : "rows");
		r = draw_part(b, ch, &p);
		if (r < 0)
			return r;
	}
	return 0;
}

static const char *const layout_keys[] = { "chassis", "part", "row", "column", "number" };

/* The layout of bay @s in JSON: its chassis, row, column and bay number, or nulls. */
static void json_bay_layout(struct jsonw *w, const struct bays *b, const struct da_slot *s)
{
	const struct da_table *tb = b->t->table;

	for (size_t i = 0; s->identity && i < da_table_chassis_count(tb); i++) {
		const struct da_chassis *ch = da_table_chassis_get(tb, i);
		unsigned int k, row, col;
		_cleanup_free_ char *id = NULL;

		if (da_chassis_find(ch, s->identity, &k) < 0 ||
		    da_chassis_bay(ch, k, &id, &row, &col) < 0)
			continue;
		jsonw_key(w, "chassis");
		jsonw_string(w, da_chassis_name(ch), strlen(da_chassis_name(ch)));
		jsonw_key(w, "part");
		jsonw_uint(w, i);
		jsonw_key(w, "row");
		jsonw_uint(w, row);
		jsonw_key(w, "column");
		jsonw_uint(w, col);
		jsonw_key(w, "number");
		jsonw_uint(w, k + 1);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(layout_keys); i++) {
		jsonw_key(w, layout_keys[i]);
		jsonw_literal(w, "null");
	}
}

/* Every chassis part: its layout and each bay's place, for tools that draw it. */
static void json_chassis(struct jsonw *w, const struct bays *b)
{
	const struct da_table *tb = b->t->table;

	jsonw_key(w, "chassis");
	jsonw_open_array(w);
	for (size_t i = 0; i < da_table_chassis_count(tb); i++) {
		const struct da_chassis *ch = da_table_chassis_get(tb, i);

		jsonw_open_object(w);
		json_str(w, "name", da_chassis_name(ch));
		json_str(w, "enclosure", da_chassis_enclosure(ch));
		json_str(w, "type", da_chassis_kind(ch) == DA_SLOT_PCIE ? "pcie" : "ses");
		jsonw_key(w, "rows");
		jsonw_uint(w, da_chassis_rows(ch));
		jsonw_key(w, "columns");
		jsonw_uint(w, da_chassis_columns(ch));
		json_str(w, "first", da_chassis_corner_name(da_chassis_first(ch)));
		json_str(w, "by", da_chassis_by_columns(ch) ? "columns" : "rows");
		json_str(w, "side", da_chassis_rear(ch) ? "rear" : "front");
		json_str(w, "rule", da_chassis_pattern(ch));
		jsonw_key(w, "bays");
		jsonw_open_array(w);
		for (unsigned int k = 0; k < da_chassis_cells(ch); k++) {
			_cleanup_free_ char *id = NULL;
			unsigned int row, col;
			const struct da_slot *s = chassis_slot(b, ch, k, &row, &col, &id);

			if (!id)
				continue;
			jsonw_open_object(w);
			jsonw_key(w, "number");
			jsonw_uint(w, k + 1);
			jsonw_key(w, "row");
			jsonw_uint(w, row);
			jsonw_key(w, "column");
			jsonw_uint(w, col);
			json_str(w, "identity", id);
			json_str(w, "name", bay_name(b, s, id));
			json_str(w, "state", state_words[bay_state(b, s)]);
			jsonw_close_object(w);
		}
		jsonw_close_array(w);
		jsonw_close_object(w);
	}
	jsonw_close_array(w);
}

static void print_map_json(const struct bays *b, bool bytes)
{
	size_t n = da_slotlist_count(b->slots);
	struct jsonw w;

	jsonw_init(&w, stdout, true);
	jsonw_open_object(&w);
	jsonw_key(&w, "enclosures");
	jsonw_open_array(&w);
	for (size_t from = 0, to; from < n; from = to) {
		const struct da_slot *s = da_slotlist_get(b->slots, from);

		to = group_end(b->slots, from);
		jsonw_open_object(&w);
		json_str(&w, "enclosure", s->enclosure);
		json_str(&w, "id", s->enclosure_id);
		json_str(&w, "type", s->kind == DA_SLOT_PCIE ? "pcie" : "ses");
		jsonw_key(&w, "shared-id");
		jsonw_literal(&w, s->shared_id ? "true" : "false");
		jsonw_key(&w, "slots");
		jsonw_open_array(&w);
		for (size_t i = from; i < to; i++) {
			const struct da_slot *bay = da_slotlist_get(b->slots, i);
			const struct da_device *d = bay_device(b, bay, 0);

			jsonw_open_object(&w);
			for (int c = 0; c < _MAP_COLS; c++) {
				_cleanup_free_ char *v = map_cell(b, bay, d, c, bytes);

				json_str(&w, map_cols[c].json, v);
			}
			json_str(&w, "identity", bay->identity);
			json_bay_layout(&w, b, bay);
			jsonw_close_object(&w);
		}
		jsonw_close_array(&w);
		jsonw_close_object(&w);
	}
	jsonw_close_array(&w);
	json_chassis(&w, b);
	jsonw_close_object(&w);
}

static const char map_usage[] =
	"Usage:\n"
	" diskalias map [options]\n"
	"\n"
	"Show every bay of the machine, enclosure by enclosure (SES), then the PCIe\n"
	"slots: slot, bay, alias, disk, model, serial, size, status and the locate\n"
	"and fault LEDs. Empty bays are shown too. With --layout, each chassis the\n"
	"table describes (diskalias chassis) is drawn as its panel: a bay's number\n"
	"and name, its disk's alias (or kernel name), and its state.\n"
	"\n"
	"Options:\n"
	" -J, --json            JSON output: {\"enclosures\": [{..., \"slots\": [...]}],\n"
	"                       \"chassis\": [...]}, with each bay's place in its chassis\n"
	" -n, --noheadings      don't print headings\n"
	" -b, --bytes           print SIZE in bytes\n"
	" -L, --layout          draw each chassis as its panel\n"
	"     --color[=<when>]  colour the panel: auto (default: on a terminal, unless\n"
	"                       NO_COLOR is set), always or never\n";

int cmd_map(struct tool *t, int argc, char **argv)
{
	enum { OPT_COLOR = 0x200 };
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "noheadings", no_argument, NULL, 'n' },
		{ "bytes", no_argument, NULL, 'b' },
		{ "layout", no_argument, NULL, 'L' },
		{ "color", optional_argument, NULL, OPT_COLOR },
		GLOBAL_LONG_OPTS,
		{},
	};
	static const tool_excl_t excl[] = { { 'J', 'L' }, {} };
	int excl_seen[ARRAY_SIZE(excl)] = {};
	struct tool_output out = {};
	struct bays b = {};
	bool bytes = false, layout = false, color;
	const char *when = "auto";
	int c, r;

	while ((c = getopt_long(argc, argv, "JnbL" GLOBAL_SHORT_OPTS, opts, NULL)) != -1) {
		r = tool_exclusive(t, c, opts, excl, excl_seen);
		if (r >= 0)
			return r;
		if (c == 'b') {
			bytes = true;
			continue;
		}
		if (c == 'L') {
			layout = true;
			continue;
		}
		if (c == OPT_COLOR) {
			when = optarg ? optarg : "always";
			if (!streq(when, "auto") && !streq(when, "always") && !streq(when, "never"))
				return usage_error("map",
						   "--color: '%s' is not auto, always or never",
						   when);
			continue;
		}
		r = tool_output_common_option(t, c, &out, map_usage);
		if (r >= 0)
			return r;
	}
	if (optind < argc)
		return usage_error("map", "unexpected argument '%s'", argv[optind]);
	color = streq(when, "always") || (streq(when, "auto") && isatty(STDOUT_FILENO) &&
					  !(getenv("NO_COLOR") && *getenv("NO_COLOR")));
	if (tool_load(t, NEED_MAP) < 0 || bays_load(t, &b) < 0) {
		bays_free(&b);
		return EXIT_FAIL;
	}
	r = 0;
	if (out.format == 'J')
		print_map_json(&b, bytes);
	else if (layout && (r = print_layout(&b, color)) == 0)
		;
	else if (r < 0)
		errmsg("out of memory");
	else if (!da_slotlist_count(b.slots))
		printf("no enclosure bays or PCIe slots on this machine\n");
	else
		print_map_text(&b, &out, bytes);
	bays_free(&b);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

/* -------------------------------------------------------------------------
 * locate, fault
 */
struct target {
	const struct da_slot *slot;
	const char *arg;
	int before; /* the LED's state before: restored when another write fails */
};

static bool add_target(const struct da_slot *s, const char *arg, struct target **v, size_t *n)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].slot == s)
			return true;
	if (ARRAY_GROW(*v, *n) < 0) {
		errmsg("out of memory");
		return false;
	}
	(*v)[(*n)++] = (struct target){ .slot = s, .arg = arg };
	return true;
}

/* Add the bay of identity @value to @v, naming @arg; false with a message when none or unclear. */
static bool add_slot(const struct bays *b, const char *arg, const char *value, struct target **v,
		     size_t *n)
{
	const struct da_slot *s = da_slotlist_find(b->slots, value, 0);
	const struct da_slot *other = da_slotlist_find(b->slots, value, 1);

	if (!s) {
		errmsg("%s: no bay slot:%s on this machine (see diskalias map)", arg, value);
		return false;
	}
	if (other) {
		errmsg("%s: enclosures %s and %s report the same id %s: the bay cannot be told apart",
		       arg, s->enclosure, other->enclosure, s->enclosure_id);
		return false;
	}
	return add_target(s, arg, v, n);
}

/* The bays @arg means: a slot: identity, an alias bound to a bay, or any DEVICE in bays. */
static bool resolve_bays(const struct bays *b, const char *arg, struct target **v, size_t *n)
{
	const struct da_alias *a = da_map_find_alias(b->t->map, arg, NULL);
	struct da_diag diag = {};
	struct da_device *d = NULL, *bay;
	bool ok = true, found = false;
	int r;

	if (strncmp(arg, "slot:", 5) == 0)
		return add_slot(b, arg, arg + 5, v, n);
	if (a && da_alias_kind(a) == DA_ID_SLOT)
		return add_slot(b, arg, da_alias_value(a), v, n);
	r = da_map_lookup(b->t->map, arg, &diag, &d);
	print_diag(&diag);
	da_diag_clear(&diag);
	if (r < 0)
		return false;
	if (da_device_parent(d))
		d = da_device_parent(d);
	/* A disk's bay is the one that holds it, even where enclosures share an id. */
	for (size_t i = 0; ok && i < da_slotlist_count(b->slots); i++) {
		const struct da_slot *s = da_slotlist_get(b->slots, i);

		for (size_t k = 0; ok && (bay = bay_device(b, s, k)); k++)
			if (bay == d) {
				ok = add_target(s, arg, v, n);
				found = true;
			}
	}
	if (!found)
		errmsg("%s: %s is in no enclosure bay or PCIe slot this machine shows", arg,
		       da_device_kname(d));
	return ok && found;
}

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

/* Wait @seconds or until SIGINT, SIGTERM or SIGHUP. */
static void wait_or_signal(unsigned int seconds)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };
	struct timespec left = { .tv_sec = seconds };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	while (!stop_signal && nanosleep(&left, &left) < 0 && errno == EINTR)
		;
}

static const char *const led_names[_DA_LED_MAX] = { "locate", "fault" };

static const char locate_usage[] =
	"Usage:\n"
	" diskalias %s [options] <name>...\n"
	"\n"
	"Switch the %s LED of the bay of each <name> on (or off): an alias, a\n"
	"kernel name or any DEVICE form, or a slot: identity (an empty bay too).\n"
	"SES enclosures through the slot's %s file, PCIe slots through their\n"
	"attention indicator (locate blinks it, fault lights it) or NPEM LEDs.\n"
	"Every name is checked before any LED changes; when one cannot be set,\n"
	"those already set are put back.\n"
	"\n"
	"Options:\n"
	"     --off             switch it off\n"
	"     --timeout <sec>   switch it off again after <sec> seconds (or on\n"
	"                       SIGINT/SIGTERM), staying in the foreground\n";

static int led_command(struct tool *t, int argc, char **argv, enum da_led led)
{
	enum { OPT_OFF = 0x100, OPT_TIMEOUT };
	static const struct option opts[] = {
		{ "off", no_argument, NULL, OPT_OFF },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		GLOBAL_LONG_OPTS,
		{},
	};
	const char *cmd = led_names[led];
	_cleanup_free_ char *usage =
		xasprintf(locate_usage, cmd, cmd, led == DA_LED_LOCATE ? "locate" : "fault");
	_cleanup_free_ struct target *v = NULL;
	struct bays b = {};
	unsigned int timeout = 0;
	bool on = true, ok = true;
	size_t n = 0, done = 0;
	int c, r, ret = EXIT_FAIL;

	if (!usage)
		return EXIT_FAIL;
	while ((c = getopt_long(argc, argv, GLOBAL_SHORT_OPTS, opts, NULL)) != -1) {
		switch (c) {
		case OPT_OFF:
			on = false;
			break;
		case OPT_TIMEOUT:
			if (parse_uint(optarg, &timeout) < 0 || timeout == 0)
				return usage_error(cmd,
						   "--timeout: '%s' is not a positive number of seconds",
						   optarg);
			break;
		default:
			r = tool_common_option(t, c, usage);
			if (r >= 0)
				return r;
		}
	}
	if (optind >= argc)
		return usage_error(cmd, "expected at least one name");
	if (!on && timeout)
		return usage_error(cmd, "--timeout goes with switching on, not --off");
	if (tool_load(t, NEED_MAP) < 0 || bays_load(t, &b) < 0)
		goto out;
	for (int i = optind; i < argc; i++)
		ok = resolve_bays(&b, argv[i], &v, &n) && ok;
	for (size_t i = 0; ok && i < n; i++) {
		if (!v[i].slot->led_file[led]) {
			errmsg("%s: bay %s (%s) has no %s LED control", v[i].arg, v[i].slot->label,
			       v[i].slot->enclosure, cmd);
			ok = false;
		}
		v[i].before = v[i].slot->led[led];
	}
	if (!ok)
		goto out;
	for (; done < n; done++) {
		r = da_slot_set_led(v[done].slot, led, on);
		if (r < 0) {
			errmsg("%s: cannot switch the %s LED of bay %s (%s) %s: %s", v[done].arg,
			       cmd, v[done].slot->label, v[done].slot->enclosure, on ? "on" : "off",
			       r == -EIO ? "it does not read back as written" : strerror(-r));
			break;
		}
	}
	if (done < n) {
		/* Put back what was switched: nothing half done. */
		while (done-- > 0)
			if (v[done].before >= 0)
				da_slot_set_led(v[done].slot, led, v[done].before > 0);
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		printf("%s: %s %s (%s %s, bay %s)\n", v[i].arg, cmd, on ? "on" : "off",
		       v[i].slot->kind == DA_SLOT_PCIE ? "PCIe slot" : "enclosure",
		       v[i].slot->kind == DA_SLOT_PCIE ? v[i].slot->pci : v[i].slot->enclosure,
		       v[i].slot->label);
	fflush(stdout);
	ret = EXIT_OK;
	if (timeout) {
		wait_or_signal(timeout);
		for (size_t i = 0; i < n; i++) {
			r = da_slot_set_led(v[i].slot, led, false);
			if (r < 0) {
				errmsg("%s: cannot switch the %s LED off again: %s", v[i].arg, cmd,
				       strerror(-r));
				ret = EXIT_FAIL;
			}
		}
		if (ret == EXIT_OK)
			printf("%s off again\n", cmd);
	}
out:
	bays_free(&b);
	return ret;
}

int cmd_locate(struct tool *t, int argc, char **argv)
{
	return led_command(t, argc, argv, DA_LED_LOCATE);
}

int cmd_fault(struct tool *t, int argc, char **argv)
{
	return led_command(t, argc, argv, DA_LED_FAULT);
}
