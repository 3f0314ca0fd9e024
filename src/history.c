// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names in old logs: the mapping records a log carries ("diskalias: sdc is
 * bay07 (wwn:...)", written by the udev helper each time a disk is named,
 * and the kernel's own "block sdc: alias set to bay07"), boot by boot, and
 * the text rewritten by them rather than by today's table: a log from last
 * year names the disks as they were named then.
 *
 * Within a boot, a line is named by the latest record of its kernel name
 * before it, or, before the first, by the first (the kernel names a disk
 * before udev does: its "Attached SCSI disk" comes before the record). A
 * kernel name given to another disk later in the boot (a hot swap) takes
 * the new name from its record on. The record lines themselves are kept as
 * written: they are what ties the two names.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "hashmap.h"
#include "history.h"

/* A line's bytes: [*start, *end) with its newline, the next line's start in *end. */
static void next_line(const char *text, size_t len, size_t start, size_t *end)
{
	const char *nl = memchr(text + start, '\n', len - start);

	*end = nl ? (size_t)(nl - text) + 1 : len;
}

static bool has_prefix(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

/* Bytes of a kernel name as a record writes it: sdc, nvme0n1, dm-3, mmcblk0p1. */
static size_t kname_len(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '_' ||
			   s[i] == '.' || s[i] == ':' || s[i] == '!'))
		i++;
	return i;
}

/*
 * The timestamp a line starts with, as a history shows it: dmesg's
 * "[    2.104224]" (also journalctl -o short-monotonic's), or a /dev/kmsg
 * record's microseconds. NULL when there is none.
 */
static char *line_time(const char *s, size_t len)
{
	const char *end;
	unsigned long long usec = 0;
	size_t i = 0, commas = 0;

	if (len > 2 && s[0] == '[' && (end = memchr(s, ']', len < 32 ? len : 32))) {
		const char *p = s + 1;

		while (p < end && *p == ' ')
			p++;
		return strndup(p, end - p);
	}
	/* "PRI,SEQ,USEC,FLAGS;" */
	for (; i < len && i < 64 && s[i] != ';'; i++) {
		if (s[i] == ',')
			commas++;
		else if (commas == 2 && isdigit((unsigned char)s[i]))
			usec = usec * 10 + (s[i] - '0');
		else if (!isdigit((unsigned char)s[i]) && commas < 3)
			return NULL;
	}
	if (i >= len || s[i] != ';' || commas < 3)
		return NULL;
	return xasprintf("%llu.%06llu", usec / 1000000, usec % 1000000);
}

/*
 * Parse a record in the line @s (@len bytes, no newline) into @rec: the
 * udev helper's "diskalias: KNAME is NAME (IDENTITY)" or the kernel's
 * "block KNAME: alias set to NAME" / "alias cleared". Returns true for one.
 */
static bool parse_record(const char *s, size_t len, struct hist_record *rec)
{
	const char *p, *end = s + len, *k, *n, *id = NULL, *hs = NULL;
	size_t klen, nlen, idlen = 0, hslen = 0;
	bool cleared = false;

	if (len && end[-1] == '\r')
		end--;
	if ((p = memmem(s, end - s, "diskalias: ", 11))) {
		p += 11;
		k = p;
		klen = kname_len(p, end - p);
		p += klen;
		if (!klen || !has_prefix(p, end - p, " is "))
			return false;
		n = p + 4;
		nlen = 0;
		while (n + nlen < end && n[nlen] != ' ')
			nlen++;
		p = n + nlen;
		if (!has_prefix(p, end - p, " (") || end[-1] != ')')
			return false;
		id = p + 2;
		idlen = end - 1 - id;
		/* "wwn:0x...; ata3.00, 2:0:0:0, ata3": the other names of the disk after "; ". */
		hs = memmem(id, idlen, "; ", 2);
		if (hs) {
			idlen = hs - id;
			hs += 2;
			hslen = end - 1 - hs;
		}
	} else if ((p = memmem(s, end - s, "block ", 6))) {
		p += 6;
		k = p;
		klen = kname_len(p, end - p);
		p += klen;
		if (!klen || p[-1] == ':')
			klen--, p--;
		if (!klen || !has_prefix(p, end - p, ": alias "))
			return false;
		p += 8;
		if (has_prefix(p, end - p, "set to ")) {
			n = p + 7;
			nlen = end - n;
		} else if (end - p == 7 && has_prefix(p, end - p, "cleared")) {
			n = NULL;
			nlen = 0;
			cleared = true;
		} else {
			return false;
		}
	} else {
		return false;
	}
	if (!cleared) {
		_cleanup_free_ char *name = strndup(n, nlen);

		if (!name || da_name_check(name, NULL) < 0)
			return false;
		rec->name = name;
		name = NULL;
	}
	rec->kname = strndup(k, klen);
	rec->identity = id ? strndup(id, idlen) : strdup(cleared ? "" : "kernel");
	rec->handles = hs ? strndup(hs, hslen) : NULL;
	if (!rec->kname || !rec->identity || (hs && !rec->handles)) {
		free(rec->kname);
		free(rec->name);
		free(rec->identity);
		free(rec->handles);
		return false;
	}
	return true;
}

/* The SCSI address and kernel name of "sd 2:0:3:0: [sdc]" in line @s, into @tie. */
static bool parse_tie(const char *s, size_t len, struct hist_tie *tie)
{
	const char *p = memmem(s, len, "sd ", 3), *end = s + len, *h, *k;
	size_t hlen = 0, klen;
	int colons = 0;

	if (!p)
		return false;
	h = p + 3;
	while (h + hlen < end && (isdigit((unsigned char)h[hlen]) || h[hlen] == ':')) {
		colons += h[hlen] == ':';
		hlen++;
	}
	/* "2:0:3:0" and the ':' after it. */
	if (colons != 4 || !hlen || h[hlen - 1] != ':' ||
	    !has_prefix(h + hlen, end - h - hlen, " ["))
		return false;
	k = h + hlen + 2;
	klen = kname_len(k, end - k);
	if (!klen || k + klen >= end || k[klen] != ']')
		return false;
	tie->hctl = strndup(h, hlen - 1);
	tie->kname = strndup(k, klen);
	if (!tie->hctl || !tie->kname) {
		free(tie->hctl);
		free(tie->kname);
		return false;
	}
	return true;
}

/*
 * Add @tie (consumed) to the current boot unless its address is tied
 * already; @shared: a record's name of a port or controller, which ties
 * every disk whose record gives it. Returns 0 or -ENOMEM.
 */
static int add_tie(struct history *h, struct hashmap *seen, struct hist_tie *tie, bool shared)
{
	struct hist_boot *b = &h->boots[h->nboots - 1];
	size_t at = (uintptr_t)hashmap_get(seen, tie->hctl);
	int r = 0;

	if (at) {
		struct hist_tie *t = &b->ties[at - 1];

		/* One past the most a list names: enough to know it is too many. */
		if (shared && t->more.n < DA_SHARED_NAMES_MAX && !streq(t->kname, tie->kname) &&
		    !strv_contains(&t->more, tie->kname))
			r = strv_push(&t->more, tie->kname);
	} else if (ARRAY_GROW(b->ties, b->nties) < 0) {
		r = -ENOMEM;
	} else {
		b->ties[b->nties++] = *tie;
		/* Keyed by the address's own string, which stays where it is as the array grows. */
		return hashmap_put(seen, tie->hctl, (void *)(uintptr_t)b->nties) < 0 ? -ENOMEM : 0;
	}
	free(tie->hctl);
	free(tie->kname);
	return r;
}

/*
 * Tie the other names @rec gives its disk: "ata3.00, 2:0:0:0" its own,
 * then after "; " those of its port or controller, "ata3".
 */
static int add_record_ties(struct history *h, struct hashmap *seen, const struct hist_record *rec)
{
	const char *p = rec->handles;
	bool shared = false;
	int r = 0;

	while (p && *p && r >= 0) {
		size_t n = strcspn(p, ",;");
		struct hist_tie tie = { n ? strndup(p, n) : NULL, strdup(rec->kname) };

		if (n && (!tie.hctl || !tie.kname)) {
			free(tie.hctl);
			free(tie.kname);
			return -ENOMEM;
		}
		if (n)
			r = add_tie(h, seen, &tie, shared);
		else
			free(tie.kname);
		shared = shared || p[n] == ';';
		p += n;
		p += strspn(p, ",; ");
	}
	return r;
}

/* A line where a boot starts: "-- Boot ID --" (journalctl), the kernel's "Linux version". */
static int boot_line(const char *s, size_t len, char **ret_id)
{
	const char *p;

	*ret_id = NULL;
	if (has_prefix(s, len, "-- Boot ")) {
		size_t n = 0;

		while (8 + n < len && isxdigit((unsigned char)s[8 + n]))
			n++;
		*ret_id = n ? strndup(s + 8, n) : NULL;
		return 2;
	}
	if (has_prefix(s, len, "-- Reboot --"))
		return 2;
	p = memmem(s, len, "Linux version ", 14);
	/* As the kernel's first line: after a timestamp, a record's ';', "kernel: ", or alone. */
	if (p && (p == s || (p - s >= 2 && (p[-1] == ';' || (p[-2] == ']' && p[-1] == ' ') ||
					    (p[-2] == ':' && p[-1] == ' ')))))
		return 1;
	return 0;
}

void history_free(struct history *h)
{
	for (size_t i = 0; i < h->nrecs; i++) {
		free(h->recs[i].kname);
		free(h->recs[i].name);
		free(h->recs[i].identity);
		free(h->recs[i].handles);
		free(h->recs[i].time);
	}
	for (size_t i = 0; i < h->nboots; i++) {
		for (size_t j = 0; j < h->boots[i].nties; j++) {
			free(h->boots[i].ties[j].hctl);
			free(h->boots[i].ties[j].kname);
			strv_free(&h->boots[i].ties[j].more);
		}
		free(h->boots[i].ties);
		free(h->boots[i].id);
	}
	free(h->recs);
	free(h->boots);
	*h = (struct history){};
}

static int add_boot(struct history *h, size_t start, char *id)
{
	if (ARRAY_GROW(h->boots, h->nboots) < 0) {
		free(id);
		return -ENOMEM;
	}
	h->boots[h->nboots++] = (struct hist_boot){ .start = start, .id = id, .first = h->nrecs };
	return 0;
}

int history_scan(struct history *h, const char *text, size_t len)
{
	bool content = false; /* the current boot has lines besides "-- Boot --" */
	struct hashmap seen;  /* the current boot's tied addresses */
	size_t end;
	int r;

	*h = (struct history){};
	hashmap_init(&seen, false);
	r = add_boot(h, 0, NULL);
	for (size_t start = 0; r >= 0 && start < len; start = end) {
		size_t llen;
		struct hist_record rec = {};
		char *id;
		int kind;

		next_line(text, len, start, &end);
		llen = end - start - (text[end - 1] == '\n');
		kind = boot_line(text + start, llen, &id);
		if (kind) {
			struct hist_boot *b = &h->boots[h->nboots - 1];

			/* journalctl's "-- Boot --" and then the kernel's first line: one boot. */
			if (content) {
				r = add_boot(h, start, id);
				hashmap_free(&seen);
				hashmap_init(&seen, false);
			} else if (id) {
				free(b->id);
				b->id = id;
			}
			content = kind == 1;
			continue;
		}
		content = true;
		if (!parse_record(text + start, llen, &rec)) {
			struct hist_tie tie = {};

			if (parse_tie(text + start, llen, &tie))
				r = add_tie(h, &seen, &tie, false);
			continue;
		}
		rec.start = start;
		rec.end = end;
		rec.boot = h->nboots - 1;
		rec.time = line_time(text + start, llen);
		if (ARRAY_GROW(h->recs, h->nrecs) < 0) {
			free(rec.kname);
			free(rec.name);
			free(rec.identity);
			free(rec.handles);
			free(rec.time);
			r = -ENOMEM;
			break;
		}
		h->recs[h->nrecs++] = rec;
		h->boots[h->nboots - 1].nrec++;
		r = add_record_ties(h, &seen, &rec);
	}
	hashmap_free(&seen);
	if (r < 0)
		history_free(h);
	return r;
}

/* The disk kinds of identity: a partition is named after its disk. */
static bool names_a_disk(const char *identity)
{
	static const char *const part_kinds[] = { "partuuid:", "partlabel:", "uuid:", "label:" };

	for (size_t i = 0; i < ARRAY_SIZE(part_kinds); i++)
		if (has_prefix(identity, strlen(identity), part_kinds[i]))
			return false;
	return true;
}

/* The name in force for @kname in the walk's names, or NULL. */
static struct da_rename *find_name(struct history_walk *w, const char *kname)
{
	for (size_t i = 0; i < w->nnames; i++)
		if (streq(w->names[i].kname, kname))
			return &w->names[i];
	return NULL;
}

/* Set @kname's name to @rec's (a cleared one: none). Returns 1 when that changed it. */
static int set_name(struct history_walk *w, const struct hist_record *rec)
{
	struct da_rename *n = find_name(w, rec->kname);

	if (n && rec->name && streq(n->name, rec->name))
		return 0;
	if (!n && !rec->name)
		return 0;
	if (!n) {
		if (ARRAY_GROW(w->names, w->nnames) < 0)
			return -ENOMEM;
		n = &w->names[w->nnames++];
	}
	if (!rec->name) {
		*n = w->names[--w->nnames];
		return 1;
	}
	*n = (struct da_rename){ .kname = rec->kname,
				 .name = rec->name,
				 .disk = names_a_disk(rec->identity) };
	return 1;
}

/* The tie of SCSI address @hctl in the walk's boot, or NULL. */
static const struct hist_tie *find_tie(const struct history_walk *w, const char *hctl)
{
	const struct hist_boot *b = &w->h->boots[w->boot];

	for (size_t i = 0; i < b->nties; i++)
		if (streq(b->ties[i].hctl, hctl))
			return &b->ties[i];
	return NULL;
}

static int kname_order(const void *a, const void *b)
{
	return strverscmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * What a port's or controller's name that several disks share becomes:
 * "{db-a,db-b}", each disk by its name in force or its kernel name, when
 * one has a name; else NULL.
 */
static char *shared_name(struct history_walk *w, const struct hist_tie *tie)
{
	struct strv names = {};
	bool named = false;
	char *joined, *s = NULL;
	_cleanup_free_ const char **knames = calloc(tie->more.n + 1, sizeof(*knames));

	if (!knames)
		return NULL;
	/* In kernel name order, as the device list has them: nvme0n1 before nvme0n2. */
	knames[0] = tie->kname;
	memcpy(knames + 1, tie->more.v, tie->more.n * sizeof(*knames));
	qsort(knames, tie->more.n + 1, sizeof(*knames), kname_order);
	for (size_t i = 0; i <= tie->more.n; i++) {
		struct da_rename *n = find_name(w, knames[i]);

		named = named || n;
		if (strv_push(&names, n ? n->name : knames[i]) < 0) {
			strv_free(&names);
			return NULL;
		}
	}
	joined = named ? strv_join(names.v, ",") : NULL;
	if (joined)
		s = xasprintf("{%s}", joined);
	free(joined);
	strv_free(&names);
	return s;
}

/*
 * The rewriter for the names in force, with the names tied to them: the
 * SCSI addresses and the other names the records give (one way only), and
 * a name several disks share as their list (both ways).
 */
static int build_rewriter(struct history_walk *w)
{
	const struct hist_boot *b = &w->h->boots[w->boot];
	_cleanup_free_ struct da_rename *v = NULL;
	struct strv lists = {};
	size_t n = w->nnames;
	int r;

	da_rewriter_free(w->rw);
	w->rw = NULL;
	if (!w->nnames)
		return 0;
	v = calloc(w->nnames + b->nties, sizeof(*v));
	if (!v)
		return -ENOMEM;
	memcpy(v, w->names, w->nnames * sizeof(*v));
	for (size_t i = 0; i < b->nties; i++) {
		const struct hist_tie *tie = &b->ties[i];
		struct da_rename *name = find_name(w, tie->kname);
		char *list;

		if (tie->more.n >= DA_SHARED_NAMES_MAX) {
			continue;
		} else if (tie->more.n) {
			list = shared_name(w, tie);
			if (list && strv_consume(&lists, list) >= 0)
				v[n++] = (struct da_rename){ .kname = tie->hctl, .name = list };
		} else if (name && name->disk && w->mode != DA_REWRITE_REVERSE) {
			/* As "sd 2:0:3:0: [sdc]" says it: the address of the disk. */
			v[n++] = (struct da_rename){ .kname = tie->hctl, .name = name->name };
		}
	}
	r = da_rewriter_new_names(v, n, w->mode, w->write, w->userdata, &w->rw);
	strv_free(&lists);
	return r;
}

const char *history_device_name(const struct history_walk *w, const char *device,
				const char **ret_kname)
{
	struct history_walk *mw = (struct history_walk *)w;
	const struct hist_tie *tie;
	struct da_rename *n = NULL;

	*ret_kname = NULL;
	if (!device || w->boot == SIZE_MAX)
		return NULL;
	if (has_prefix(device, strlen(device), "+block:")) {
		n = find_name(mw, device + 7);
	} else if (has_prefix(device, strlen(device), "+scsi:")) {
		tie = find_tie(w, device + 6);
		n = tie ? find_name(mw, tie->kname) : NULL;
	}
	if (!n)
		return NULL;
	*ret_kname = n->kname;
	return n->name;
}

void history_walk_init(struct history_walk *w, const struct history *h, enum da_rewrite_mode mode,
		       da_rewrite_write_fn write, void *userdata)
{
	*w = (struct history_walk){ .h = h, .mode = mode, .write = write, .userdata = userdata };
	w->boot = SIZE_MAX;
}

void history_walk_done(struct history_walk *w)
{
	da_rewriter_free(w->rw);
	free(w->names);
	w->rw = NULL;
	w->names = NULL;
	w->nnames = 0;
}

int history_walk_to(struct history_walk *w, size_t off)
{
	const struct history *h = w->h;
	size_t boot = w->boot == SIZE_MAX ? 0 : w->boot;
	bool changed = false;
	int r;

	while (boot + 1 < h->nboots && h->boots[boot + 1].start <= off)
		boot++;
	if (boot != w->boot) {
		const struct hist_boot *b = &h->boots[boot];

		/* A new boot: each kernel name's first record names it from the start. */
		w->boot = boot;
		w->nnames = 0;
		w->next = b->first;
		for (size_t i = b->first; i < b->first + b->nrec; i++)
			if (!find_name(w, h->recs[i].kname) && set_name(w, &h->recs[i]) < 0)
				return -ENOMEM;
		changed = true;
	}
	for (; w->next < h->boots[boot].first + h->boots[boot].nrec && h->recs[w->next].start < off;
	     w->next++) {
		r = set_name(w, &h->recs[w->next]);
		if (r < 0)
			return r;
		changed |= r > 0;
	}
	w->stale = w->stale || changed;
	if (!w->stale || history_record_at(w, off))
		return 0;
	w->stale = false;
	return build_rewriter(w);
}

size_t history_walk_end(const struct history_walk *w, size_t len)
{
	const struct history *h = w->h;
	const struct hist_boot *b = &h->boots[w->boot];
	size_t end = w->boot + 1 < h->nboots ? h->boots[w->boot + 1].start : len;

	if (w->next < b->first + b->nrec && h->recs[w->next].start < end)
		end = h->recs[w->next].start;
	return end;
}

const struct hist_record *history_record_at(const struct history_walk *w, size_t off)
{
	const struct history *h = w->h;
	const struct hist_boot *b = &h->boots[w->boot];

	return w->next < b->first + b->nrec && h->recs[w->next].start == off ? &h->recs[w->next]
									     : NULL;
}
