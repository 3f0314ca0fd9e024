// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The rewrite engine: kernel names in text become aliases (or the reverse).
 *
 * Every name the text may hold (sdc, /dev/sdc, /dev/mapper/vg0-data, the
 * SCSI address 2:0:3:0, or in reverse an alias and its by-alias path) is
 * put in one trie, built once, over an alphabet of only the bytes that occur
 * in some name, so a node is a small dense array. The text is scanned once:
 * a match is tried only where a name may begin (a byte that starts some
 * name, after a byte that cannot continue a word), and the longest name that
 * ends on a word boundary wins. A disk's name followed by a partition suffix
 * (sdc1, nvme0n1p2) names that partition even when it is not in the device
 * list. The scanner holds back at most one undecided name at the end of
 * what it was given, so memory does not grow with the input and lines may
 * be of any length; every other byte, NUL and invalid UTF-8 included,
 * passes through unchanged.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

#define IN_CHUNK	(128 * 1024)
#define OUT_SIZE	(128 * 1024)
/* At most this many digits in a partition number. */
#define PARTNO_DIGITS	6

enum {
	CLS_WORD = 1 << 0,	/* continues a word: no name starts or ends next to it */
	CLS_NOLEFT = 1 << 1,	/* no name starts right after it */
	CLS_START = 1 << 2,	/* some name starts with it */
};

struct rw_entry {
	const char *to;		/* what the name becomes */
	const char *name;	/* the alias or kernel name, for annotations */
	bool parts;		/* a partition suffix after it names a partition */
};

struct pattern {
	const char *s;
	size_t entry;
};

struct da_rewriter {
	enum da_rewrite_mode mode;
	da_rewrite_write_fn write;
	void *userdata;

	uint8_t sym[256];	/* byte -> alphabet symbol, 0 when no name has it */
	uint8_t cls[256];
	size_t nsym;
	uint32_t *child;	/* [node * nsym + symbol] -> node; 0 is none (the root is no child) */
	int32_t *value;		/* node -> entry, -1 when no name ends there */
	size_t nnodes;
	struct rw_entry *entries;
	size_t nentries;
	struct strv strings;	/* every string the entries point at */
	size_t maxlen;		/* longest name */

	/* The stream: undecided bytes wait in @in, output gathers in @out. */
	char *in, *out;
	size_t inlen, incap, outlen;
	bool prev_noleft;	/* the last byte passed on may not precede a name */
	size_t *ends;		/* trie walk: where names ended, deepest last */
	int32_t *endval;
	size_t count;		/* names rewritten since the stream began */
	int err;		/* a write failure sticks */
};

DA_EXPORT void da_rewriter_free(struct da_rewriter *rw)
{
	if (!rw)
		return;
	free(rw->child);
	free(rw->value);
	free(rw->entries);
	strv_free(&rw->strings);
	free(rw->in);
	free(rw->out);
	free(rw->ends);
	free(rw->endval);
	free(rw);
}

static inline uint8_t fold(enum da_rewrite_mode mode, uint8_t c)
{
	/* Aliases are one name whatever their case; kernel names are not. */
	return mode == DA_REWRITE_REVERSE && c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* Keep @s (consumed, even on failure) for the rewriter's life. */
static const char *keep(struct da_rewriter *rw, char *s)
{
	if (strv_consume(&rw->strings, s) < 0)
		return NULL;
	return s;
}

static int add_entry(struct da_rewriter *rw, const char *to, const char *name, bool parts,
		     size_t *ret)
{
	struct rw_entry *v = realloc(rw->entries, (rw->nentries + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	rw->entries = v;
	v[rw->nentries] = (struct rw_entry){ .to = to, .name = name, .parts = parts };
	*ret = rw->nentries++;
	return 0;
}

struct builder {
	struct pattern *v;
	size_t n;
};

/* Add name @s (consumed) that becomes @to (annotated as @name). */
static int add_pattern(struct da_rewriter *rw, struct builder *b, char *s, const char *to,
		       const char *name, bool parts)
{
	const char *kept = keep(rw, s);
	struct pattern *v;
	size_t e;

	if (!kept || add_entry(rw, to, name, parts, &e) < 0)
		return -ENOMEM;
	v = realloc(b->v, (b->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	b->v = v;
	v[b->n++] = (struct pattern){ .s = kept, .entry = e };
	return 0;
}

/* The names of @d, kernel name to alias: sdc, /dev/sdc, /dev/mapper/NAME, 2:0:3:0. */
static int add_forward(struct da_rewriter *rw, struct builder *b, const struct da_map *map,
		       const struct da_device *d)
{
	const char *name = da_map_device_name(map, d, 0);
	const char *link, *kname = da_device_kname(d);
	bool disk = da_device_devtype(d) == DA_DEV_DISK;
	int r;

	if (!name)
		return 0;
	link = keep(rw, da_alias_node(name));
	if (!link)
		return -ENOMEM;
	r = add_pattern(rw, b, strdup(kname), name, name, disk);
	if (r >= 0)
		r = add_pattern(rw, b, da_devnode(kname), link, name, disk);
	if (r >= 0 && da_device_dm_name(d))
		r = add_pattern(rw, b, da_mapper_node(da_device_dm_name(d)), link, name, false);
	if (r >= 0 && disk && da_device_hctl(d))
		r = add_pattern(rw, b, strdup(da_device_hctl(d)), name, name, false);
	return r;
}

/* The names of @d, alias to kernel name: every alias and its /dev/disk/by-alias/ link. */
static int add_reverse(struct da_rewriter *rw, struct builder *b, const struct da_map *map,
		       const struct da_device *d)
{
	const char *kname = da_device_kname(d), *node = NULL, *name;
	bool disk = da_device_devtype(d) == DA_DEV_DISK;
	int r = 0;

	for (size_t i = 0; r >= 0 && (name = da_map_device_name(map, d, i)); i++) {
		if (!node && !(node = keep(rw, da_devnode(kname))))
			return -ENOMEM;
		r = add_pattern(rw, b, strdup(name), kname, kname, disk);
		if (r >= 0)
			r = add_pattern(rw, b, da_alias_node(name), node, kname, disk);
	}
	return r;
}

static int build_trie(struct da_rewriter *rw, const struct builder *b)
{
	size_t total = 1;

	for (size_t i = 0; i < b->n; i++)
		for (const uint8_t *p = (const uint8_t *)b->v[i].s; *p; p++)
			if (!rw->sym[fold(rw->mode, *p)]) {
				/* Symbols from 1; 0 is "in no name". */
				rw->sym[fold(rw->mode, *p)] = ++rw->nsym;
			}
	rw->nsym++;
	for (unsigned int c = 'A'; rw->mode == DA_REWRITE_REVERSE && c <= 'Z'; c++)
		rw->sym[c] = rw->sym[c + ('a' - 'A')];
	for (size_t i = 0; i < b->n; i++) {
		size_t len = strlen(b->v[i].s);

		total += len;
		if (len > rw->maxlen)
			rw->maxlen = len;
	}
	rw->child = calloc(total * rw->nsym, sizeof(*rw->child));
	rw->value = malloc(total * sizeof(*rw->value));
	rw->ends = malloc((rw->maxlen + 1) * sizeof(*rw->ends));
	rw->endval = malloc((rw->maxlen + 1) * sizeof(*rw->endval));
	if (!rw->child || !rw->value || !rw->ends || !rw->endval)
		return -ENOMEM;
	rw->value[0] = -1;
	rw->nnodes = 1;
	for (size_t i = 0; i < b->n; i++) {
		const uint8_t *p = (const uint8_t *)b->v[i].s;
		uint32_t node = 0;

		if (!*p)
			continue;
		rw->cls[*p] |= CLS_START;
		rw->cls[fold(rw->mode, *p)] |= CLS_START;
		if (rw->mode == DA_REWRITE_REVERSE && *p >= 'a' && *p <= 'z')
			rw->cls[*p - ('a' - 'A')] |= CLS_START;
		for (; *p; p++) {
			uint32_t *c = &rw->child[node * rw->nsym + rw->sym[*p]];

			if (!*c) {
				*c = rw->nnodes;
				rw->value[rw->nnodes++] = -1;
			}
			node = *c;
		}
		/* The first of two equal names wins: the device list's order. */
		if (rw->value[node] < 0)
			rw->value[node] = b->v[i].entry;
	}
	return 0;
}

static void init_classes(struct da_rewriter *rw)
{
	for (unsigned int c = 0; c < 256; c++) {
		bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '_' || c == '-' || c >= 0x80;

		rw->cls[c] = word ? CLS_WORD | CLS_NOLEFT : 0;
	}
	/* Inside a path a name is a directory, not the device: /sys/block/sdc stays. */
	rw->cls['/'] |= CLS_NOLEFT;
}

DA_EXPORT int da_rewriter_new(const struct da_map *map, enum da_rewrite_mode mode,
			      da_rewrite_write_fn write, void *userdata,
			      struct da_rewriter **ret_rw)
{
	const struct da_devlist *list = da_map_devlist(map);
	struct da_rewriter *rw;
	struct builder b = {};
	int r = 0;

	if (mode != DA_REWRITE_ALIAS && mode != DA_REWRITE_ANNOTATE && mode != DA_REWRITE_REVERSE)
		return -EINVAL;
	rw = calloc(1, sizeof(*rw));
	if (!rw)
		return -ENOMEM;
	rw->mode = mode;
	rw->write = write;
	rw->userdata = userdata;
	init_classes(rw);
	for (size_t i = 0; r >= 0 && i < da_devlist_count(list); i++) {
		const struct da_device *d = da_devlist_get(list, i);

		r = mode == DA_REWRITE_REVERSE ? add_reverse(rw, &b, map, d) :
						 add_forward(rw, &b, map, d);
	}
	if (r >= 0)
		r = build_trie(rw, &b);
	free(b.v);
	if (r >= 0) {
		/* Room for a whole chunk after the longest undecided name. */
		rw->incap = IN_CHUNK + rw->maxlen + PARTNO_DIGITS + 8;
		rw->in = malloc(rw->incap);
		rw->out = malloc(OUT_SIZE);
		if (!rw->in || !rw->out)
			r = -ENOMEM;
	}
	if (r < 0) {
		da_rewriter_free(rw);
		return r;
	}
	*ret_rw = rw;
	return 0;
}

static int flush_out(struct da_rewriter *rw)
{
	int r;

	if (rw->outlen == 0 || rw->err)
		return rw->err;
	r = rw->write(rw->userdata, rw->out, rw->outlen);
	rw->outlen = 0;
	if (r < 0)
		rw->err = r;
	return rw->err;
}

static void emit(struct da_rewriter *rw, const char *p, size_t len)
{
	if (rw->err || len == 0)
		return;
	if ((rw->outlen + len > OUT_SIZE || len >= OUT_SIZE / 4) && flush_out(rw) < 0)
		return;
	if (len >= OUT_SIZE / 4) {
		/* Large unchanged stretches go out as they are, without a copy. */
		int r = rw->write(rw->userdata, p, len);

		if (r < 0)
			rw->err = r;
		return;
	}
	memcpy(rw->out + rw->outlen, p, len);
	rw->outlen += len;
}

enum {
	NO_MATCH,
	MATCH,
	UNDECIDED,	/* the input ended before it could tell */
};

/* Is there a word boundary before @p[@i]? */
static int boundary_at(const struct da_rewriter *rw, const uint8_t *p, size_t i, size_t n,
		       bool final)
{
	if (i == n)
		return final ? MATCH : UNDECIDED;
	return rw->cls[p[i]] & (CLS_WORD | CLS_NOLEFT) ? NO_MATCH : MATCH;
}

/*
 * A partition suffix at @p[@i] ('p' first after a name ending in a digit),
 * then a boundary: MATCH with its digits in [*ret_start, *ret_end).
 */
static int partition_at(const struct da_rewriter *rw, const uint8_t *p, size_t i, size_t n,
			bool final, bool digit, size_t *ret_start, size_t *ret_end)
{
	size_t start;

	if (digit) {
		if (i == n)
			return final ? NO_MATCH : UNDECIDED;
		if (p[i++] != 'p')
			return NO_MATCH;
	}
	start = i;
	if (i == n)
		return final ? NO_MATCH : UNDECIDED;
	if (p[i] < '1' || p[i] > '9')
		return NO_MATCH;
	while (i < n && i - start < PARTNO_DIGITS && p[i] >= '0' && p[i] <= '9')
		i++;
	*ret_start = start;
	*ret_end = i;
	return boundary_at(rw, p, i, n, final);
}

struct match {
	const struct rw_entry *e;
	size_t end;			/* past the name as matched, suffix included */
	size_t part_start, part_end;	/* the partition number's digits, if any */
};

/* The longest name at @p[@i] that ends on a boundary. */
static int match_at(struct da_rewriter *rw, const uint8_t *p, size_t i, size_t n, bool final,
		    struct match *m)
{
	size_t j = i, nends = 0;
	uint32_t node = 0;

	while (j < n) {
		uint8_t s = rw->sym[p[j]];
		uint32_t c = s ? rw->child[node * rw->nsym + s] : 0;

		if (!c)
			break;
		node = c;
		j++;
		if (rw->value[node] >= 0) {
			rw->ends[nends] = j;
			rw->endval[nends++] = rw->value[node];
		}
	}
	if (j == n && !final)
		return UNDECIDED;
	while (nends-- > 0) {
		const struct rw_entry *e = &rw->entries[rw->endval[nends]];
		size_t end = rw->ends[nends], ps, pe;
		int r;

		if (e->parts) {
			bool digit = da_partition_takes_p((const char *)p + i, end - i);

			r = partition_at(rw, p, end, n, final, digit, &ps, &pe);
			if (r == UNDECIDED)
				return r;
			if (r == MATCH) {
				*m = (struct match){ e, pe, ps, pe };
				return MATCH;
			}
		}
		r = boundary_at(rw, p, end, n, final);
		if (r == UNDECIDED)
			return r;
		if (r == MATCH) {
			*m = (struct match){ e, end, 0, 0 };
			return MATCH;
		}
	}
	return NO_MATCH;
}

static void emit_name(struct da_rewriter *rw, const char *name, const char *digits, size_t n)
{
	size_t len = strlen(name);

	emit(rw, name, len);
	if (n == 0)
		return;
	if (da_partition_takes_p(name, len))
		emit(rw, "p", 1);
	emit(rw, digits, n);
}

static void emit_match(struct da_rewriter *rw, const char *p, size_t i, const struct match *m)
{
	const char *digits = p + m->part_start;
	size_t ndigits = m->part_end - m->part_start;

	if (rw->mode == DA_REWRITE_ANNOTATE) {
		emit(rw, p + i, m->end - i);
		emit(rw, "(", 1);
		emit_name(rw, m->e->name, digits, ndigits);
		emit(rw, ")", 1);
	} else {
		emit_name(rw, m->e->to, digits, ndigits);
	}
	rw->count++;
}

/* Where the next name may start, from @i: a start byte after a byte that allows one. */
static size_t next_candidate(const struct da_rewriter *rw, const uint8_t *p, size_t i, size_t n,
			     bool *prev_noleft)
{
	bool noleft = *prev_noleft;

	for (; i < n; i++) {
		uint8_t c = rw->cls[p[i]];

		if ((c & CLS_START) && !noleft)
			break;
		noleft = c & CLS_NOLEFT;
	}
	*prev_noleft = noleft;
	return i;
}

/* Rewrite what waits in @in; keep an undecided tail unless @final. */
static void scan(struct da_rewriter *rw, bool final)
{
	const uint8_t *p = (const uint8_t *)rw->in;
	size_t i = 0, from = 0, n = rw->inlen;
	bool noleft = rw->prev_noleft;

	while (i < n) {
		struct match m;
		int r;

		i = next_candidate(rw, p, i, n, &noleft);
		if (i >= n)
			break;
		r = match_at(rw, p, i, n, final, &m);
		if (r == UNDECIDED)
			break;
		if (r == MATCH) {
			emit(rw, rw->in + from, i - from);
			emit_match(rw, rw->in, i, &m);
			i = from = m.end;
		} else {
			i++;
		}
		noleft = rw->cls[p[i - 1]] & CLS_NOLEFT;
	}
	if (i > n)
		i = n;
	emit(rw, rw->in + from, i - from);
	rw->prev_noleft = noleft;
	memmove(rw->in, rw->in + i, n - i);
	rw->inlen = n - i;
}

DA_EXPORT int da_rewriter_feed(struct da_rewriter *rw, const void *buf, size_t len)
{
	const char *s = buf;

	while (len > 0 && !rw->err) {
		size_t n = rw->incap - rw->inlen;

		if (n > len)
			n = len;
		memcpy(rw->in + rw->inlen, s, n);
		rw->inlen += n;
		s += n;
		len -= n;
		scan(rw, false);
	}
	flush_out(rw);
	return rw->err;
}

/* End the stream: rewrite what waits, hand it out, and get ready for the next one. */
static int end_stream(struct da_rewriter *rw, size_t *ret_count)
{
	int r;

	if (!rw->err)
		scan(rw, true);
	r = flush_out(rw);
	if (ret_count)
		*ret_count = rw->count;
	rw->inlen = 0;
	rw->outlen = 0;
	rw->prev_noleft = false;
	rw->count = 0;
	rw->err = 0;
	return r;
}

DA_EXPORT int da_rewriter_finish(struct da_rewriter *rw)
{
	return end_stream(rw, NULL);
}

DA_EXPORT size_t da_rewriter_count(const struct da_rewriter *rw)
{
	return rw->count;
}

struct membuf {
	char *buf;
	size_t len, size;
};

static int membuf_write(void *userdata, const char *p, size_t len)
{
	struct membuf *mb = userdata;

	if (mb->len + len + 1 > mb->size) {
		size_t size = (mb->len + len + 1) * 2;
		char *b = realloc(mb->buf, size);

		if (!b)
			return -ENOMEM;
		mb->buf = b;
		mb->size = size;
	}
	memcpy(mb->buf + mb->len, p, len);
	mb->len += len;
	mb->buf[mb->len] = '\0';
	return 0;
}

DA_EXPORT int da_rewrite_buf(struct da_rewriter *rw, const void *buf, size_t len, char **ret_buf,
			     size_t *ret_len)
{
	da_rewrite_write_fn write = rw->write;
	void *userdata = rw->userdata;
	struct membuf mb = {};
	size_t count = 0;
	int r;

	if (rw->inlen || rw->outlen)
		return -EBUSY;
	rw->write = membuf_write;
	rw->userdata = &mb;
	r = membuf_write(&mb, "", 0);
	if (r >= 0)
		r = da_rewriter_feed(rw, buf, len);
	if (r >= 0)
		r = end_stream(rw, &count);
	else
		end_stream(rw, NULL);
	rw->write = write;
	rw->userdata = userdata;
	if (r < 0) {
		free(mb.buf);
		return r;
	}
	*ret_buf = mb.buf;
	if (ret_len)
		*ret_len = mb.len;
	return count > INT32_MAX ? INT32_MAX : (int)count;
}
