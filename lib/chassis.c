// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Chassis: how the bays of an enclosure (or a group of PCIe slots) sit in
 * the front (or rear) panel an administrator looks at, and the rule that
 * names every bay. One table line describes one such part of a chassis:
 *
 *   chassis NAME ENCLOSURE rows=R columns=C [first=CORNER] [by=rows|columns]
 *           [side=front|rear] [slots=N] [name=PATTERN]
 *
 * ENCLOSURE is an SES enclosure's logical id (0x500304801f3c1d3f) or PCIe
 * slots by name (pcie:1,2,3,4), in the order they are numbered. The
 * R x C cells are numbered from CORNER (top-left unless told), along the
 * rows or down the columns, and cell K (from 0) holds the enclosure's slot
 * N + K (slots=N, default 0) or the K-th PCIe slot named. Lines with one
 * NAME are the parts of one chassis, drawn top to bottom in table order.
 * PATTERN names each bay: {slot}, {slot:0N} (the slot number, or PCIe slot
 * name, zero-padded to N digits), {row}, {col} (from 1, top and left as
 * the panel is seen) and {bay} (from 1, in numbering order), each with :0N
 * too. Everything here is decided by the line alone, so the table names the
 * bays without looking at the machine; check compares with what it shows.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "chassis.h"
#include "internal.h"

/* A chassis part of more cells is refused: 4096 is past any enclosure made. */
#define CHASSIS_CELLS_MAX 4096

static const char *const corner_names[] = {
	[DA_CORNER_TOP_LEFT] = "top-left",
	[DA_CORNER_TOP_RIGHT] = "top-right",
	[DA_CORNER_BOTTOM_LEFT] = "bottom-left",
	[DA_CORNER_BOTTOM_RIGHT] = "bottom-right",
};

const char *chassis_corner_name(enum da_corner c)
{
	return c >= 0 && c < (int)ARRAY_SIZE(corner_names) ? corner_names[c] : NULL;
}

int chassis_corner_from_name(const char *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(corner_names); i++)
		if (streq(s, corner_names[i]))
			return i;
	return -EINVAL;
}

void chassis_clear(struct da_chassis *c)
{
	strv_free(&c->pcie);
	*c = (struct da_chassis){};
}

/* A number of 1 to @max from @s, or -EINVAL. */
static int parse_count(const char *s, unsigned int max, unsigned int *ret)
{
	unsigned int v;

	if (parse_uint(s, &v) < 0 || v < 1 || v > max)
		return -EINVAL;
	*ret = v;
	return 0;
}

/*
 * Check pattern @p: every '{' opens a known placeholder, optionally with a
 * width ":0N" (N from 1 to 9), closed by '}'. The reason in *ret_err.
 */
static int pattern_check(const char *p, const char **ret_err)
{
	static const char *const names[] = { "slot", "row", "col", "bay" };

	for (; *p; p++) {
		const char *end;
		size_t n;
		bool known = false;

		if (*p == '}') {
			*ret_err = "a '}' with no '{' before it";
			return -EINVAL;
		}
		if (*p != '{')
			continue;
		end = strchr(p, '}');
		if (!end) {
			*ret_err = "a '{' with no '}' after it";
			return -EINVAL;
		}
		n = strcspn(p + 1, ":}");
		for (size_t i = 0; i < ARRAY_SIZE(names); i++)
			known |= strlen(names[i]) == n && strncmp(p + 1, names[i], n) == 0;
		if (!known) {
			*ret_err =
				"unknown placeholder: {slot}, {slot:0N}, {row}, {col} and {bay} are known";
			return -EINVAL;
		}
		if (p[1 + n] == ':' && !(end - (p + 1 + n) == 3 && p[2 + n] == '0' &&
					 p[3 + n] >= '1' && p[3 + n] <= '9')) {
			*ret_err = "a width is written :0N, N from 1 to 9 ({slot:02})";
			return -EINVAL;
		}
		p = end;
	}
	return 0;
}

/* The PCIe slot names of "pcie:A,B,...": each a valid slot: value, none twice. */
static int parse_pcie(const char *s, struct strv *ret, const char **ret_err)
{
	const char *p = s;
	int r = 0;

	if (!*p) {
		*ret_err = "no PCIe slot named after pcie:";
		return -EINVAL;
	}
	while (r >= 0) {
		size_t n = strcspn(p, ",");
		char *name = strndup(p, n);
		_cleanup_free_ char *v = name ? xasprintf("pcie/%s", name) : NULL;

		if (!v) {
			free(name);
			return -ENOMEM;
		}
		if (!n || da_identity_check(DA_ID_SLOT, v, NULL) < 0) {
			free(name);
			*ret_err = "not a PCIe slot name (as /sys/bus/pci/slots has them)";
			return -EINVAL;
		}
		if (strv_contains(ret, name)) {
			free(name);
			*ret_err = "a PCIe slot named twice";
			return -EINVAL;
		}
		r = strv_consume(ret, name);
		if (!p[n])
			break;
		p += n + 1;
	}
	return r;
}

int chassis_parse(struct da_chassis *c, const char *name, const char *enclosure, char *const *opts,
		  size_t nopts, const char **ret_err)
{
	bool have_rows = false, have_cols = false;
	const char *reason;
	int r;

	*c = (struct da_chassis){ .name = name, .enclosure = enclosure };
	if (da_name_check(name, &reason) < 0) {
		*ret_err = "invalid chassis name: it follows the rules of an alias name";
		return -EINVAL;
	}
	if (strncmp(enclosure, "pcie:", 5) == 0) {
		c->kind = DA_SLOT_PCIE;
		r = parse_pcie(enclosure + 5, &c->pcie, ret_err);
		if (r < 0)
			return r;
	} else {
		_cleanup_free_ char *v = xasprintf("%s/0", enclosure);

		if (!v)
			return -ENOMEM;
		if (strncmp(enclosure, "0x", 2) != 0 ||
		    da_identity_check(DA_ID_SLOT, v, NULL) < 0) {
			*ret_err = "the enclosure is an SES logical id (0x...) or pcie:NAME,...";
			return -EINVAL;
		}
		c->kind = DA_SLOT_SES;
	}
	for (size_t i = 0; i < nopts; i++) {
		const char *o = opts[i], *eq = strchr(o, '='), *v = eq ? eq + 1 : NULL;
		size_t klen = eq ? (size_t)(eq - o) : strlen(o);

#define KEY(k) (klen == strlen(k) && strncmp(o, k, klen) == 0)
		if (!eq) {
			*ret_err = "expected KEY=VALUE after the enclosure";
			return -EINVAL;
		} else if (KEY("rows")) {
			if (have_rows || parse_count(v, CHASSIS_CELLS_MAX, &c->rows) < 0) {
				*ret_err = "rows= is a number of 1 or more, given once";
				return -EINVAL;
			}
			have_rows = true;
		} else if (KEY("columns")) {
			if (have_cols || parse_count(v, CHASSIS_CELLS_MAX, &c->columns) < 0) {
				*ret_err = "columns= is a number of 1 or more, given once";
				return -EINVAL;
			}
			have_cols = true;
		} else if (KEY("first")) {
			r = chassis_corner_from_name(v);
			if (r < 0) {
				*ret_err =
					"first= is top-left, top-right, bottom-left or bottom-right";
				return -EINVAL;
			}
			c->first = r;
		} else if (KEY("by")) {
			if (!streq(v, "rows") && !streq(v, "columns")) {
				*ret_err = "by= is rows or columns";
				return -EINVAL;
			}
			c->by_columns = streq(v, "columns");
		} else if (KEY("side")) {
			if (!streq(v, "front") && !streq(v, "rear")) {
				*ret_err = "side= is front or rear";
				return -EINVAL;
			}
			c->rear = streq(v, "rear");
		} else if (KEY("slots")) {
			if (c->kind == DA_SLOT_PCIE || parse_uint(v, &c->first_slot) < 0 ||
			    c->first_slot > 1000000) {
				*ret_err = "slots= is the first slot's number, of an SES enclosure";
				return -EINVAL;
			}
		} else if (KEY("name")) {
			if (!*v || pattern_check(v, ret_err) < 0) {
				if (!*v)
					*ret_err = "name= is a pattern such as bay{slot:02}";
				return -EINVAL;
			}
			c->pattern = v;
		} else {
			*ret_err =
				"unknown key: rows=, columns=, first=, by=, side=, slots= and name= are known";
			return -EINVAL;
		}
#undef KEY
	}
	if (!have_rows || !have_cols) {
		*ret_err = "rows= and columns= are needed";
		return -EINVAL;
	}
	if ((unsigned long)c->rows * c->columns > CHASSIS_CELLS_MAX) {
		*ret_err = "more than 4096 cells";
		return -EINVAL;
	}
	if (c->kind == DA_SLOT_PCIE && c->pcie.n > c->rows * c->columns) {
		*ret_err = "more PCIe slots named than the layout has cells";
		return -EINVAL;
	}
	return 0;
}

unsigned int chassis_cells(const struct da_chassis *c)
{
	return c->kind == DA_SLOT_PCIE ? c->pcie.n : c->rows * c->columns;
}

void chassis_cell(const struct da_chassis *c, unsigned int k, unsigned int *ret_row,
		  unsigned int *ret_col)
{
	unsigned int r = c->by_columns ? k % c->rows : k / c->columns;
	unsigned int col = c->by_columns ? k / c->rows : k % c->columns;

	if (c->first == DA_CORNER_BOTTOM_LEFT || c->first == DA_CORNER_BOTTOM_RIGHT)
		r = c->rows - 1 - r;
	if (c->first == DA_CORNER_TOP_RIGHT || c->first == DA_CORNER_BOTTOM_RIGHT)
		col = c->columns - 1 - col;
	*ret_row = r;
	*ret_col = col;
}

char *chassis_slot(const struct da_chassis *c, unsigned int k)
{
	if (c->kind == DA_SLOT_PCIE)
		return k < c->pcie.n ? xasprintf("pcie/%s", c->pcie.v[k]) : NULL;
	return xasprintf("%s/%u", c->enclosure, c->first_slot + k);
}

int chassis_index_of(const struct da_chassis *c, const char *slot)
{
	unsigned int n;

	if (c->kind == DA_SLOT_PCIE) {
		for (size_t i = 0; i < c->pcie.n; i++)
			if (streq(c->pcie.v[i], slot))
				return i;
		return -ENOENT;
	}
	if (parse_uint(slot, &n) < 0 || n < c->first_slot || n - c->first_slot >= chassis_cells(c))
		return -ENOENT;
	return n - c->first_slot;
}

/* Append @v to @sb, zero-padded to @width digits when it is a number. */
static int put_field(struct strbuf *sb, const char *v, unsigned int width)
{
	size_t len = strlen(v);

	if (width && is_number(v))
		for (; len < width; len++)
			if (strbuf_add(sb, "0", 1) < 0)
				return -ENOMEM;
	return strbuf_addstr(sb, v);
}

char *chassis_bay_name(const struct da_chassis *c, unsigned int k)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned int row, col;
	char num[16];

	if (!c->pattern)
		return NULL;
	chassis_cell(c, k, &row, &col);
	for (const char *p = c->pattern; *p; p++) {
		const char *end, *v;
		unsigned int width = 0;
		size_t n;
		int r;

		if (*p != '{') {
			if (strbuf_add(&sb, p, 1) < 0)
				goto oom;
			continue;
		}
		end = strchr(p, '}');
		n = strcspn(p + 1, ":}");
		if (p[1 + n] == ':')
			width = p[3 + n] - '0';
		if (strncmp(p + 1, "slot", n) == 0 && n == 4) {
			if (c->kind == DA_SLOT_PCIE) {
				v = c->pcie.v[k];
			} else {
				snprintf(num, sizeof(num), "%u", c->first_slot + k);
				v = num;
			}
		} else {
			unsigned int x = strncmp(p + 1, "row", n) == 0 && n == 3   ? row + 1
					 : strncmp(p + 1, "col", n) == 0 && n == 3 ? col + 1
										   : k + 1;

			snprintf(num, sizeof(num), "%u", x);
			v = num;
		}
		r = put_field(&sb, v, width);
		if (r < 0)
			goto oom;
		p = end;
	}
	return strbuf_detach(&sb, NULL);
oom:
	strbuf_release(&sb);
	return NULL;
}

/* -------------------------------------------------------------------------
 * Public accessors.
 */
DA_EXPORT const char *da_chassis_name(const struct da_chassis *c)
{
	return c->name;
}

DA_EXPORT const char *da_chassis_enclosure(const struct da_chassis *c)
{
	return c->enclosure;
}

DA_EXPORT enum da_slot_kind da_chassis_kind(const struct da_chassis *c)
{
	return c->kind;
}

DA_EXPORT unsigned int da_chassis_rows(const struct da_chassis *c)
{
	return c->rows;
}

DA_EXPORT unsigned int da_chassis_columns(const struct da_chassis *c)
{
	return c->columns;
}

DA_EXPORT enum da_corner da_chassis_first(const struct da_chassis *c)
{
	return c->first;
}

DA_EXPORT const char *da_chassis_corner_name(enum da_corner corner)
{
	return chassis_corner_name(corner);
}

DA_EXPORT bool da_chassis_by_columns(const struct da_chassis *c)
{
	return c->by_columns;
}

DA_EXPORT bool da_chassis_rear(const struct da_chassis *c)
{
	return c->rear;
}

DA_EXPORT const char *da_chassis_pattern(const struct da_chassis *c)
{
	return c->pattern;
}

DA_EXPORT unsigned int da_chassis_first_slot(const struct da_chassis *c)
{
	return c->first_slot;
}

DA_EXPORT const char *da_chassis_file(const struct da_chassis *c)
{
	return c->file;
}

DA_EXPORT unsigned int da_chassis_line(const struct da_chassis *c)
{
	return c->line;
}

DA_EXPORT unsigned int da_chassis_cells(const struct da_chassis *c)
{
	return chassis_cells(c);
}

DA_EXPORT int da_chassis_bay(const struct da_chassis *c, unsigned int k, char **ret_identity,
			     unsigned int *ret_row, unsigned int *ret_col)
{
	char *id;

	if (k >= chassis_cells(c))
		return -ENOENT;
	id = chassis_slot(c, k);
	if (!id)
		return -ENOMEM;
	chassis_cell(c, k, ret_row, ret_col);
	*ret_identity = id;
	return 0;
}

DA_EXPORT int da_chassis_find(const struct da_chassis *c, const char *identity,
			      unsigned int *ret_bay)
{
	const char *slash = strrchr(identity, '/');
	size_t n = slash ? (size_t)(slash - identity) : 0;
	int k;

	if (!slash)
		return -ENOENT;
	if (c->kind == DA_SLOT_PCIE
		    ? n != 4 || strncmp(identity, "pcie", 4) != 0
		    : n != strlen(c->enclosure) || strncasecmp(identity, c->enclosure, n) != 0)
		return -ENOENT;
	k = chassis_index_of(c, slash + 1);
	if (k < 0)
		return k;
	*ret_bay = k;
	return 0;
}
