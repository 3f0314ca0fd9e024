/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A chassis line of the table (chassis.c): its layout and its naming rule. */
#ifndef DA_CHASSIS_H
#define DA_CHASSIS_H

#include "internal.h"

struct da_chassis {
	const char *file; /* the line's file, owned by the table */
	unsigned int line, lineidx;
	/* Into the table's arena. */
	const char *name, *enclosure, *pattern;
	enum da_slot_kind kind;
	struct strv pcie; /* DA_SLOT_PCIE: the slot names, in numbering order */
	unsigned int rows, columns, first_slot;
	enum da_corner first;
	bool by_columns, rear;
	bool bad;      /* its rule gives a bay a name that cannot be an alias */
	bool conflict; /* bad, or claims an enclosure another line claims: binds nothing */
};

/*
 * Parse a chassis line's words: @name, @enclosure and the KEY=VALUE
 * options (the strings stay the caller's, and @c points into them).
 * 0, -EINVAL with the reason in *ret_err, or -ENOMEM; free with chassis_clear().
 */
int chassis_parse(struct da_chassis *c, const char *name, const char *enclosure, char *const *opts,
		  size_t nopts, const char **ret_err);
void chassis_clear(struct da_chassis *c);
/* The number of bays: cells of an SES part, slots named of a PCIe one. */
unsigned int chassis_cells(const struct da_chassis *c);
/* The row and column (from 0, top and left) of bay @k, in numbering order. */
void chassis_cell(const struct da_chassis *c, unsigned int k, unsigned int *ret_row,
		  unsigned int *ret_col);
/* The slot: value of bay @k ("0x5003.../7", "pcie/3"). Caller frees; NULL without memory. */
char *chassis_slot(const struct da_chassis *c, unsigned int k);
/* The bay of slot number (or PCIe slot name) @slot, or -ENOENT. */
int chassis_index_of(const struct da_chassis *c, const char *slot);
/* The name the rule gives bay @k; NULL without a rule or memory. Caller frees. */
char *chassis_bay_name(const struct da_chassis *c, unsigned int k);
const char *chassis_corner_name(enum da_corner c);
int chassis_corner_from_name(const char *s);

#endif
