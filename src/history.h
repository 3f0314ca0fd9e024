/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Names in old logs: the mapping records of a log, boot by boot (history.c). */
#ifndef DISKALIAS_HISTORY_H
#define DISKALIAS_HISTORY_H

#include "tool.h"

/* "diskalias: sdc is bay07 (wwn:...)" or the kernel's "block sdc: alias set to bay07". */
struct hist_record {
	size_t start, end; /* the record's line in the text, with its newline */
	size_t boot;	   /* in history.boots */
	char *kname;
	char *name;	/* NULL: "alias cleared" */
	char *identity; /* as the record says it; "kernel" for the kernel's own */
	char *handles;	/* the disk's other names the record gives ("ata3.00, 2:0:0:0"), or NULL */
	char *time;	/* the line's timestamp ("2.104224"), or NULL */
};

/*
 * "sd 2:0:3:0: [sdc]": the kernel's own lines tie a SCSI address to a
 * kernel name; a record's other names of its disk tie those ("ata3.00")
 * too. A port's or controller's name (ata3, nvme0) that the records of
 * several disks give ties them all: @more are the others.
 */
struct hist_tie {
	char *hctl, *kname;
	struct strv more;
};

struct hist_boot {
	size_t start;	       /* its first byte in the text */
	char *id;	       /* journalctl's boot ID when the text has one, else NULL */
	size_t first, nrec;    /* its records in history.recs */
	struct hist_tie *ties; /* each SCSI address's (or handle's) first kernel name in the boot */
	size_t nties;
};

/* A log's records by boot; text before the first boot line is a boot of its own. */
struct history {
	struct hist_boot *boots;
	size_t nboots;
	struct hist_record *recs;
	size_t nrecs;
};

/* Find the boots and records of @text. Returns 0 or -ENOMEM. */
int history_scan(struct history *h, const char *text, size_t len);
void history_free(struct history *h);

/*
 * A walk through the text of a history in order: at each byte the names in
 * force there, as a rewriter (NULL where there are none).
 */
struct history_walk {
	const struct history *h;
	enum da_rewrite_mode mode;
	da_rewrite_write_fn write;
	void *userdata;
	size_t boot; /* the current boot, SIZE_MAX before the first */
	size_t next; /* the next record not yet in force */
	struct da_rename *names;
	size_t nnames;
	struct da_rewriter *rw;
	bool stale; /* the names changed since rw was built */
};

void history_walk_init(struct history_walk *w, const struct history *h, enum da_rewrite_mode mode,
		       da_rewrite_write_fn write, void *userdata);
void history_walk_done(struct history_walk *w);
/*
 * Move to byte @off (never back): w->rw names the text there, unless a
 * record starts there (records are kept as written: the rewriter is built
 * at the next other line, so a run of records costs one build). Returns 0
 * or -errno.
 */
int history_walk_to(struct history_walk *w, size_t off);
/* Where the names may change next after the walk's place: a record or a boot (or @len). */
size_t history_walk_end(const struct history_walk *w, size_t len);
/* The record whose line starts at @off, the walk being there; else NULL. */
const struct hist_record *history_record_at(const struct history_walk *w, size_t off);
/*
 * The name in force, at the walk's place, of a /dev/kmsg record's DEVICE=
 * (+block:sdc, +scsi:2:0:3:0 through the boot's ties), with its kernel
 * name in *@ret_kname; NULL for none.
 */
const char *history_device_name(const struct history_walk *w, const char *device,
				const char **ret_kname);

#endif
