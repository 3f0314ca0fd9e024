// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * diskalias chassis set, unset, list: the table's chassis lines, how the
 * bays of an enclosure or of PCIe slots sit in the panel, and the rule
 * that names them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libsmartcols.h>

#include "jsonw.h"
#include "tool.h"

static const char chassis_usage[] =
	"Usage:\n"
	" diskalias chassis set <name> <enclosure> [--rows R --columns C] [options]\n"
	" diskalias chassis unset <name>\n"
	" diskalias chassis list [-J|-P|-r] [-n]\n"
	"\n"
	"Describe how the bays of an enclosure sit in the chassis's panel, and name\n"
	"every bay with one rule. <enclosure> is an SES enclosure's logical id (as\n"
	"map shows it), its SCSI address (0:0:24:0, written as the id), pcie (every\n"
	"PCIe slot) or pcie:NAME,... (those PCIe slots, in the order they are\n"
	"numbered). Without --rows and --columns the layout is proposed from the\n"
	"enclosure's bays, and said. Lines of one <name> are the parts of one\n"
	"chassis, drawn top to bottom (map --layout).\n"
	"\n"
	"Options of set:\n"
	"     --rows <R>          rows of bays\n"
	"     --columns <C>       columns of bays\n"
	"     --first <corner>    where bay 1 is: top-left (default), top-right,\n"
	"                         bottom-left, bottom-right\n"
	"     --by <rows|columns> number along the rows (default) or down the columns\n"
	"     --side <front|rear> the panel the layout is seen from (default front)\n"
	"     --first-slot <N>    the SES slot number of bay 1 (default: the\n"
	"                         enclosure's first, else 0)\n"
	"     --name <pattern>    name each bay: {slot} {slot:0N} {row} {col} {bay}\n"
	"                         (shelf1-bay{slot:02}); a bay an alias line names\n"
	"                         keeps that name\n"
	"     --file <drop-in>    write this drop-in of the table, not the table\n"
	"\n"
	"Options of list:\n" TOOL_OUTPUT_HELP;

struct chassis_edit {
	const char *name, *enclosure, *file;
	char *options;
	bool unset;
	struct da_diag diag;
};

static int edit_chassis(struct da_table *tb, void *data)
{
	struct chassis_edit *e = data;

	if (e->unset)
		return da_table_chassis_unset(tb, e->name, &e->diag);
	return da_table_chassis_set(tb, e->name, e->enclosure, e->options, &e->diag);
}

static int run_chassis_edit(struct tool *t, struct chassis_edit *e)
{
	_cleanup_free_ char *file = NULL;
	int r;

	file = e->file ? tool_table_file(t, e->file) : NULL;
	if (e->file && !file) {
		errmsg("out of memory");
		return EXIT_FAIL;
	}
	r = da_table_edit_file(t->table_path, file, edit_chassis, e, &e->diag);
	print_diag(&e->diag);
	if (r < 0 && !e->diag.n)
		errmsg("%s: %s", t->table_path, strerror(-r));
	da_diag_clear(&e->diag);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

/*
 * The layout proposed for @n bays: the most nearly square one with at
 * least as many columns as rows (24: 4 x 6, 12: 3 x 4, 2: 1 x 2).
 */
static void propose_layout(unsigned int n, unsigned int *ret_rows, unsigned int *ret_cols)
{
	unsigned int c = 1;

	while (c * c < n)
		c++;
	while (c < n && n % c)
		c++;
	*ret_cols = c ? c : 1;
	*ret_rows = n / *ret_cols ? n / *ret_cols : 1;
}

/*
 * What ENCLOSURE means on this machine: the table's spelling (an SES id,
 * pcie:NAME,...) in *ret_spelled, its bays' count in *ret_bays (0 when it
 * is not present) and the lowest SES slot number in *ret_first.
 */
static int resolve_enclosure(const struct tool *t, const struct da_slotlist *slots, const char *arg,
			     char **ret_spelled, unsigned int *ret_bays, unsigned int *ret_first)
{
	struct strbuf sb = STRBUF_INIT;
	const char *id = NULL;
	unsigned int bays = 0, first = UINT32_MAX, n;
	bool pcie = streq(arg, "pcie"), hctl = strchr(arg, ':') && strncmp(arg, "pcie:", 5) != 0;

	if (strncmp(arg, "pcie:", 5) == 0) {
		*ret_spelled = strdup(arg);
		for (const char *p = arg + 5; *p; p += strcspn(p, ",") + !!p[strcspn(p, ",")])
			bays++;
		*ret_bays = bays;
		*ret_first = 0;
		return *ret_spelled ? 0 : -ENOMEM;
	}
	for (size_t i = 0; i < da_slotlist_count(slots); i++) {
		const struct da_slot *s = da_slotlist_get(slots, i);

		if (pcie && s->kind == DA_SLOT_PCIE) {
			if (strbuf_addf(&sb, "%s%s", bays ? "," : "pcie:", s->number) < 0)
				goto oom;
			bays++;
			continue;
		}
		if (s->kind != DA_SLOT_SES || !s->enclosure_id)
			continue;
		if (hctl ? !streq(s->enclosure, arg) : strcasecmp(s->enclosure_id, arg) != 0)
			continue;
		id = s->enclosure_id;
		bays++;
		if (s->number && parse_uint(s->number, &n) == 0 && n < first)
			first = n;
	}
	if (pcie) {
		if (!bays) {
			errmsg("this machine shows no PCIe slots (see diskalias map)");
			return -ENOENT;
		}
		*ret_spelled = strbuf_detach(&sb, NULL);
	} else if (hctl) {
		if (!id) {
			errmsg("%s: no SES enclosure at that SCSI address (see diskalias map)",
			       arg);
			return -ENOENT;
		}
		*ret_spelled = strdup(id);
	} else {
		*ret_spelled = strdup(arg);
	}
	*ret_bays = bays;
	*ret_first = first == UINT32_MAX ? 0 : first;
	(void)t;
	return *ret_spelled ? 0 : -ENOMEM;
oom:
	strbuf_release(&sb);
	return -ENOMEM;
}

static int chassis_set(struct tool *t, int argc, char **argv)
{
	enum {
		OPT_ROWS = 0x200,
		OPT_COLS,
		OPT_FIRST,
		OPT_BY,
		OPT_SIDE,
		OPT_FIRST_SLOT,
		OPT_NAME,
		OPT_FILE
	};
	static const struct option opts[] = {
		{ "rows", required_argument, NULL, OPT_ROWS },
		{ "columns", required_argument, NULL, OPT_COLS },
		{ "first", required_argument, NULL, OPT_FIRST },
		{ "by", required_argument, NULL, OPT_BY },
		{ "side", required_argument, NULL, OPT_SIDE },
		{ "first-slot", required_argument, NULL, OPT_FIRST_SLOT },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "file", required_argument, NULL, OPT_FILE },
		GLOBAL_LONG_OPTS,
		{},
	};
	struct chassis_edit e = {};
	struct da_slotlist *slots = NULL;
	struct da_diag diag = {};
	const char *first = NULL, *by = NULL, *side = NULL, *pattern = NULL;
	unsigned int rows = 0, cols = 0, first_slot = 0, bays = 0, found_first = 0;
	bool have_first_slot = false;
	_cleanup_free_ char *spelled = NULL;
	struct strbuf sb = STRBUF_INIT;
	int c, r, ret = EXIT_FAIL;

	while ((c = getopt_long(argc, argv, GLOBAL_SHORT_OPTS, opts, NULL)) != -1) {
		switch (c) {
		case OPT_ROWS:
		case OPT_COLS:
			if (parse_uint(optarg, c == OPT_ROWS ? &rows : &cols) < 0 ||
			    !(c == OPT_ROWS ? rows : cols))
				return usage_error("chassis", "--%s: '%s' is not a positive number",
						   c == OPT_ROWS ? "rows" : "columns", optarg);
			break;
		case OPT_FIRST:
			first = optarg;
			break;
		case OPT_BY:
			by = optarg;
			break;
		case OPT_SIDE:
			side = optarg;
			break;
		case OPT_FIRST_SLOT:
			if (parse_uint(optarg, &first_slot) < 0)
				return usage_error("chassis", "--first-slot: '%s' is not a number",
						   optarg);
			have_first_slot = true;
			break;
		case OPT_NAME:
			pattern = optarg;
			break;
		case OPT_FILE:
			e.file = optarg;
			break;
		default:
			r = tool_common_option(t, c, chassis_usage);
			if (r >= 0)
				return r;
		}
	}
	if (argc - optind != 2)
		return usage_error("chassis", "set takes a chassis name and an enclosure");
	if (!rows != !cols)
		return usage_error("chassis", "--rows and --columns go together");
	e.name = argv[optind];
	if (tool_load(t, NEED_TABLE) < 0)
		return EXIT_FAIL;
	r = da_slots_scan(t->ctx, &diag, &slots);
	da_diag_clear(&diag);
	if (r < 0) {
		errmsg("cannot read the enclosures: %s", strerror(-r));
		return EXIT_FAIL;
	}
	r = resolve_enclosure(t, slots, argv[optind + 1], &spelled, &bays, &found_first);
	if (r < 0) {
		if (r == -ENOMEM)
			errmsg("out of memory");
		goto out;
	}
	if (!rows) {
		if (!bays) {
			errmsg("%s: no such enclosure on this machine to count its bays: give --rows and --columns",
			       argv[optind + 1]);
			goto out;
		}
		propose_layout(bays, &rows, &cols);
		notemsg("%u row%s of %u for the %u bays of %s; give --rows and --columns to say otherwise",
			rows, rows == 1 ? "" : "s", cols, bays, spelled);
	} else if (!bays && strncmp(spelled, "pcie:", 5) != 0) {
		notemsg("no enclosure %s on this machine now; the layout applies when it is there",
			spelled);
	}
	if (!have_first_slot)
		first_slot = found_first;
	if (strbuf_addf(&sb, "rows=%u columns=%u", rows, cols) < 0 ||
	    (first && strbuf_addf(&sb, " first=%s", first) < 0) ||
	    (by && strbuf_addf(&sb, " by=%s", by) < 0) ||
	    (side && strbuf_addf(&sb, " side=%s", side) < 0) ||
	    (first_slot && strncmp(spelled, "pcie:", 5) != 0 &&
	     strbuf_addf(&sb, " slots=%u", first_slot) < 0) ||
	    (pattern && strbuf_addf(&sb, " name=%s", pattern) < 0)) {
		errmsg("out of memory");
		goto out;
	}
	e.enclosure = spelled;
	e.options = strbuf_detach(&sb, NULL);
	ret = run_chassis_edit(t, &e);
	free(e.options);
out:
	strbuf_release(&sb);
	da_slotlist_free(slots);
	return ret;
}

static int chassis_unset(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "file", required_argument, NULL, 'F' },
		GLOBAL_LONG_OPTS,
		{},
	};
	struct chassis_edit e = { .unset = true };
	int c, r;

	while ((c = getopt_long(argc, argv, GLOBAL_SHORT_OPTS, opts, NULL)) != -1) {
		if (c == 'F') {
			e.file = optarg;
			continue;
		}
		r = tool_common_option(t, c, chassis_usage);
		if (r >= 0)
			return r;
	}
	if (argc - optind != 1)
		return usage_error("chassis", "unset takes a chassis name");
	e.name = argv[optind];
	if (tool_load(t, NEED_TABLE) < 0)
		return EXIT_FAIL;
	return run_chassis_edit(t, &e);
}

enum {
	CH_NAME,
	CH_ENCLOSURE,
	CH_ROWS,
	CH_COLUMNS,
	CH_FIRST,
	CH_BY,
	CH_SIDE,
	CH_SLOTS,
	CH_RULE,
	CH_WHERE,
	_CH_COLS,
};

static const struct {
	const char *name;
	double whint;
	int flags, json;
} ch_cols[_CH_COLS] = {
	[CH_NAME] = { "NAME", 0.1, 0, SCOLS_JSON_STRING },
	[CH_ENCLOSURE] = { "ENCLOSURE", 0.2, 0, SCOLS_JSON_STRING },
	[CH_ROWS] = { "ROWS", 4, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER },
	[CH_COLUMNS] = { "COLUMNS", 7, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER },
	[CH_FIRST] = { "FIRST", 12, 0, SCOLS_JSON_STRING },
	[CH_BY] = { "BY", 7, 0, SCOLS_JSON_STRING },
	[CH_SIDE] = { "SIDE", 5, 0, SCOLS_JSON_STRING },
	[CH_SLOTS] = { "SLOTS", 5, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER },
	[CH_RULE] = { "RULE", 0.2, 0, SCOLS_JSON_STRING },
	[CH_WHERE] = { "WHERE", 0.2, 0, SCOLS_JSON_STRING },
};

static char *chassis_cell(const struct da_chassis *ch, int col)
{
	switch (col) {
	case CH_NAME:
		return strdup(da_chassis_name(ch));
	case CH_ENCLOSURE:
		return strdup(da_chassis_enclosure(ch));
	case CH_ROWS:
		return xasprintf("%u", da_chassis_rows(ch));
	case CH_COLUMNS:
		return xasprintf("%u", da_chassis_columns(ch));
	case CH_FIRST:
		return strdup(da_chassis_corner_name(da_chassis_first(ch)));
	case CH_BY:
		return strdup(da_chassis_by_columns(ch) ? "columns" : "rows");
	case CH_SIDE:
		return strdup(da_chassis_rear(ch) ? "rear" : "front");
	case CH_SLOTS:
		return da_chassis_kind(ch) == DA_SLOT_SES
			       ? xasprintf("%u", da_chassis_first_slot(ch))
			       : NULL;
	case CH_RULE:
		return da_chassis_pattern(ch) ? strdup(da_chassis_pattern(ch)) : NULL;
	case CH_WHERE:
		return xasprintf("%s:%u", da_chassis_file(ch), da_chassis_line(ch));
	}
	return NULL;
}

static int chassis_list(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		TOOL_OUTPUT_LONG_OPTS,
		GLOBAL_LONG_OPTS,
		{},
	};
	static const tool_excl_t excl[] = { TOOL_OUTPUT_EXCL, {} };
	int excl_seen[ARRAY_SIZE(excl)] = {};
	struct tool_output out = {};
	struct libscols_table *tb;
	int c, r = -1;

	while ((c = getopt_long(argc, argv, TOOL_OUTPUT_SHORT_OPTS GLOBAL_SHORT_OPTS, opts,
				NULL)) != -1) {
		r = tool_exclusive(t, c, opts, excl, excl_seen);
		if (r >= 0)
			return r;
		r = tool_output_common_option(t, c, &out, chassis_usage);
		if (r >= 0)
			return r;
	}
	if (optind < argc)
		return usage_error("chassis", "unexpected argument '%s'", argv[optind]);
	if (tool_load(t, NEED_TABLE) < 0)
		return EXIT_FAIL;
	tb = tool_table_new(&out, "chassis");
	if (!tb)
		goto oom;
	for (int k = 0; k < _CH_COLS; k++)
		if (!tool_table_column(tb, ch_cols[k].name, ch_cols[k].whint, ch_cols[k].flags,
				       ch_cols[k].json))
			goto oom;
	for (size_t i = 0; i < da_table_chassis_count(t->table); i++) {
		const struct da_chassis *ch = da_table_chassis_get(t->table, i);
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		if (!ln)
			goto oom;
		for (int k = 0; k < _CH_COLS; k++) {
			char *v = chassis_cell(ch, k);

			if (v && scols_line_refer_data(ln, k, v) < 0) {
				free(v);
				goto oom;
			}
		}
	}
	r = tool_table_print(tb);
	scols_unref_table(tb);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
oom:
	scols_unref_table(tb);
	errmsg("out of memory");
	return EXIT_FAIL;
}

int cmd_chassis(struct tool *t, int argc, char **argv)
{
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (streq(argv[1], "-h") || streq(argv[1], "--help"))) {
			tool_help(chassis_usage);
			return EXIT_OK;
		}
		return usage_error("chassis", "expected set, unset or list");
	}
	if (streq(argv[1], "set"))
		return chassis_set(t, argc - 1, argv + 1);
	if (streq(argv[1], "unset"))
		return chassis_unset(t, argc - 1, argv + 1);
	if (streq(argv[1], "list"))
		return chassis_list(t, argc - 1, argv + 1);
	return usage_error("chassis", "unknown subcommand '%s': expected set, unset or list",
			   argv[1]);
}
