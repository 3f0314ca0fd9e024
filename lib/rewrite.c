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
#include <sys/uio.h>

#include "internal.h"

/* Output: pieces shorter than COPY_MAX are gathered in a buffer, longer ones written in place. */
#define OUT_SIZE	(64 * 1024)
#define COPY_MAX	128
#define IOV_N		256
/* At most this many digits in a partition number. */
#define PARTNO_DIGITS	6
/* The most bytes a name can need to be decided: itself, 'p', digits, the byte after. */
#define UNDECIDED_MAX(rw) ((rw)->maxlen + PARTNO_DIGITS + 2)

enum {
	CLS_WORD = 1 << 0,	/* continues a word: no name starts or ends next to it */
	CLS_NOLEFT = 1 << 1,	/* no name starts right after it */
	CLS_START = 1 << 2,	/* some name starts with it */
	CLS_SECOND = 1 << 3,	/* it is the second byte of some name */
};

struct rw_entry {
	const char *to;		/* what the name becomes */
	const char *name;	/* the alias or kernel name, for annotations */
	uint32_t tolen, namelen;
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
	/*
	 * [node * nsym + symbol] -> node, 0 for none (the root is no child).
	 * Symbol 0 is no byte's: its slot holds 1 + the entry of the name
	 * ending at the node (0 for none), on the cache line the walk reads.
	 */
	uint32_t *child;
	size_t nnodes;
	struct rw_entry *entries;
	size_t nentries;
	struct strv strings;	/* every string the entries point at */
	size_t maxlen;		/* longest name */

	/* Nibble tables of CLS_NOLEFT, CLS_START, CLS_SECOND for the vector search, if it runs. */
	bool vector;
	uint8_t noleft_lo[16], noleft_hi[16], start_lo[16], start_hi[16], second_lo[16], second_hi[16];

	/*
	 * The stream: an undecided name waits in @in. Output is a list of
	 * pieces, written at the end of each feed: stretches of the text where
	 * they are, short ones and replacements copied together into @out.
	 */
	char *in, *out;
	size_t inlen, outlen;
	struct iovec iov[IOV_N];
	int iovcnt;
	bool prev_noleft;	/* the last byte passed on may not precede a name */
	size_t *ends;		/* trie walk: where names ended, deepest last */
	int32_t *endval;
	size_t count;		/* names rewritten since the stream began */
	int err;		/* a write failure sticks */
};

static void init_vector(struct da_rewriter *rw);

DA_EXPORT void da_rewriter_free(struct da_rewriter *rw)
{
	if (!rw)
		return;
	free(rw->child);
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
	v[rw->nentries] = (struct rw_entry){
		.to = to, .name = name, .tolen = strlen(to), .namelen = strlen(name), .parts = parts,
	};
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
	name = keep(rw, strdup(name));
	if (!link || !name)
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
	const char *kname = NULL, *node = NULL, *name;
	bool disk = da_device_devtype(d) == DA_DEV_DISK;
	int r = 0;

	for (size_t i = 0; r >= 0 && (name = da_map_device_name(map, d, i)); i++) {
		if (!node && (!(node = keep(rw, da_devnode(da_device_kname(d)))) ||
			      !(kname = keep(rw, strdup(da_device_kname(d))))))
			return -ENOMEM;
		r = add_pattern(rw, b, strdup(name), kname, kname, disk);
		if (r >= 0)
			r = add_pattern(rw, b, da_alias_node(name), node, kname, disk);
	}
	return r;
}

/* Put byte @c of a name in class @bit, in every case the mode reads it in. */
static void mark(struct da_rewriter *rw, uint8_t c, uint8_t bit)
{
	rw->cls[c] |= bit;
	rw->cls[fold(rw->mode, c)] |= bit;
	if (rw->mode == DA_REWRITE_REVERSE && c >= 'a' && c <= 'z')
		rw->cls[c - ('a' - 'A')] |= bit;
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
	rw->ends = malloc((rw->maxlen + 1) * sizeof(*rw->ends));
	rw->endval = malloc((rw->maxlen + 1) * sizeof(*rw->endval));
	if (!rw->child || !rw->ends || !rw->endval)
		return -ENOMEM;
	rw->nnodes = 1;
	for (size_t i = 0; i < b->n; i++) {
		const uint8_t *p = (const uint8_t *)b->v[i].s;
		uint32_t node = 0;

		if (!*p)
			continue;
		mark(rw, p[0], CLS_START);
		/* A name of one byte has no second: then any byte may follow a start. */
		for (unsigned int c = 0; !p[1] && c < 256; c++)
			rw->cls[c] |= CLS_SECOND;
		if (p[1])
			mark(rw, p[1], CLS_SECOND);
		for (; *p; p++) {
			uint32_t *c = &rw->child[node * rw->nsym + rw->sym[*p]];

			if (!*c)
				*c = rw->nnodes++;
			node = *c;
		}
		/* The first of two equal names wins: the device list's order. */
		if (!rw->child[node * rw->nsym])
			rw->child[node * rw->nsym] = b->v[i].entry + 1;
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
		/* An undecided name, and as much again of what follows it. */
		rw->in = malloc(2 * UNDECIDED_MAX(rw));
		init_vector(rw);
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

/* Write out the pieces gathered. They point into the text fed: done before a feed returns. */
static int flush_out(struct da_rewriter *rw)
{
	int r;

	if (rw->iovcnt == 0 || rw->err)
		return rw->err;
	r = rw->write(rw->userdata, rw->iov, rw->iovcnt);
	rw->iovcnt = 0;
	rw->outlen = 0;
	if (r < 0)
		rw->err = r;
	return rw->err;
}

static void emit(struct da_rewriter *rw, const char *p, size_t len)
{
	struct iovec *last;

	if (rw->err || len == 0)
		return;
	/* Room for one more piece, and for its bytes if they are to be copied. */
	if ((rw->iovcnt == IOV_N || (len < COPY_MAX && rw->outlen + len > OUT_SIZE)) &&
	    flush_out(rw) < 0)
		return;
	if (len >= COPY_MAX) {
		rw->iov[rw->iovcnt++] = (struct iovec){ (void *)p, len };
		return;
	}
	last = rw->iovcnt ? &rw->iov[rw->iovcnt - 1] : NULL;
	memcpy(rw->out + rw->outlen, p, len);
	if (last && (char *)last->iov_base + last->iov_len == rw->out + rw->outlen)
		last->iov_len += len;
	else
		rw->iov[rw->iovcnt++] = (struct iovec){ rw->out + rw->outlen, len };
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
		if (rw->child[node * rw->nsym]) {
			rw->ends[nends] = j;
			rw->endval[nends++] = rw->child[node * rw->nsym] - 1;
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

static void emit_name(struct da_rewriter *rw, const char *name, size_t len, const char *digits,
		      size_t n)
{
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
		emit_name(rw, m->e->name, m->e->namelen, digits, ndigits);
		emit(rw, ")", 1);
	} else {
		emit_name(rw, m->e->to, m->e->tolen, digits, ndigits);
	}
	rw->count++;
}

/*
 * Where names may start in the @len (at most 32) bytes at @p: bit j is set
 * when p[j] starts some name and the byte before it (p[-1], or *@prev_noleft
 * for the first) allows one. Whether a byte may start a name depends on the
 * text alone, never on what was rewritten, so a block is looked at once.
 * *@prev_noleft becomes the class of the block's last byte.
 */
static uint32_t candidates_scalar(const struct da_rewriter *rw, const uint8_t *p, size_t len,
				  bool *prev_noleft)
{
	bool noleft = *prev_noleft;
	uint32_t mask = 0;

	for (size_t j = 0; j < len; j++) {
		uint8_t c = rw->cls[p[j]];

		if ((c & CLS_START) && !noleft)
			mask |= 1u << j;
		noleft = c & CLS_NOLEFT;
	}
	*prev_noleft = noleft;
	return mask;
}

/*
 * The same for 32 bytes at once. Class membership is looked up by nibbles
 * (the classic two-shuffle test): bit h of lo[c & 15] is set when byte
 * h << 4 | (c & 15) is in the class, and hi[h] is 1 << h for h < 8. Bytes of
 * 0x80 and above, outside the tables, are added as the scalar table has them
 * (init_vector() checks that they are all alike).
 */
static void nibble_tables(const uint8_t *cls, uint8_t bit, uint8_t lo[16], uint8_t hi[16])
{
	for (unsigned int h = 0; h < 16; h++) {
		hi[h] = h < 8 ? 1u << h : 0;
		lo[h] = 0;
	}
	for (unsigned int c = 0; c < 128; c++)
		if (cls[c] & bit)
			lo[c & 15] |= 1u << (c >> 4);
}

static void init_vector(struct da_rewriter *rw)
{
	rw->vector = false;
#if defined(__x86_64__) && defined(__GNUC__)
	/* High bytes: all continue words and none is in a name (no name has one). */
	for (unsigned int c = 128; c < 256; c++)
		if ((rw->cls[c] & (CLS_NOLEFT | CLS_START | CLS_SECOND)) != CLS_NOLEFT)
			return;
	nibble_tables(rw->cls, CLS_NOLEFT, rw->noleft_lo, rw->noleft_hi);
	nibble_tables(rw->cls, CLS_START, rw->start_lo, rw->start_hi);
	nibble_tables(rw->cls, CLS_SECOND, rw->second_lo, rw->second_hi);
	__builtin_cpu_init();
	rw->vector = __builtin_cpu_supports("avx2");
#endif
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

__attribute__((target("avx2"))) static inline uint32_t class_mask(__m256i v, const uint8_t *lo16,
								   const uint8_t *hi16)
{
	const __m256i nib = _mm256_set1_epi8(0x0f);
	__m256i lo_tbl = _mm256_broadcastsi128_si256(_mm_loadu_si128((const void *)lo16));
	__m256i hi_tbl = _mm256_broadcastsi128_si256(_mm_loadu_si128((const void *)hi16));
	__m256i lo = _mm256_shuffle_epi8(lo_tbl, _mm256_and_si256(v, nib));
	__m256i hi = _mm256_shuffle_epi8(hi_tbl, _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
	__m256i none = _mm256_cmpeq_epi8(_mm256_and_si256(lo, hi), _mm256_setzero_si256());

	return ~(uint32_t)_mm256_movemask_epi8(none);
}

__attribute__((target("avx2"))) static uint32_t candidates_avx2(const struct da_rewriter *rw,
								const uint8_t *p, bool *prev_noleft)
{
	__m256i v = _mm256_loadu_si256((const void *)p);
	/* High bytes (negative as signed) continue words and start none. */
	uint32_t high = (uint32_t)_mm256_movemask_epi8(v);
	uint32_t noleft = class_mask(v, rw->noleft_lo, rw->noleft_hi) | high;
	uint32_t start = class_mask(v, rw->start_lo, rw->start_hi) & ~high;
	/* A start whose next byte is no name's second is none (the last byte's next is unseen). */
	uint32_t second = class_mask(v, rw->second_lo, rw->second_hi) & ~high;
	uint32_t mask = start & ~(noleft << 1 | (uint32_t)*prev_noleft) & (second >> 1 | 1u << 31);

	*prev_noleft = noleft >> 31;
	return mask;
}
#endif

static uint32_t candidates(const struct da_rewriter *rw, const uint8_t *p, size_t len,
			   bool *prev_noleft)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (rw->vector && len == 32)
		return candidates_avx2(rw, p, prev_noleft);
#endif
	return candidates_scalar(rw, p, len, prev_noleft);
}

/*
 * Rewrite @n bytes at @buf, continuing the stream. Everything is written out
 * except, unless @final, an undecided name at the end: returns where it
 * starts (@n when there is none).
 */
static size_t scan(struct da_rewriter *rw, const char *buf, size_t n, bool final)
{
	const uint8_t *p = (const uint8_t *)buf;
	bool noleft = rw->prev_noleft, before = noleft;
	size_t i = 0, from = 0;

	for (size_t b = 0; b < n; b += 32) {
		size_t len = n - b < 32 ? n - b : 32;
		uint32_t mask;

		before = noleft;
		mask = candidates(rw, p + b, len, &noleft);
		for (; mask; mask &= mask - 1) {
			size_t at = b + __builtin_ctz(mask);
			struct match m;
			int r;

			if (at < i)
				continue;	/* inside a name just rewritten */
			r = match_at(rw, p, at, n, final, &m);
			if (r == UNDECIDED) {
				emit(rw, buf + from, at - from);
				rw->prev_noleft = at > 0 ? rw->cls[p[at - 1]] & CLS_NOLEFT : before;
				return at;
			}
			if (r == MATCH) {
				emit(rw, buf + from, at - from);
				emit_match(rw, buf, at, &m);
				i = from = m.end;
			}
		}
	}
	emit(rw, buf + from, n - from);
	rw->prev_noleft = noleft;
	return n;
}

DA_EXPORT int da_rewriter_feed(struct da_rewriter *rw, const void *buf, size_t len)
{
	const char *s = buf;
	size_t off = 0, stop;

	if (rw->err)
		return rw->err;
	if (rw->inlen > 0) {
		/*
		 * A name was undecided at the end of the last piece: decide it
		 * with the start of this one, then go on in this one itself.
		 */
		size_t carried = rw->inlen, k = len < UNDECIDED_MAX(rw) ? len : UNDECIDED_MAX(rw);

		memcpy(rw->in + carried, s, k);
		stop = scan(rw, rw->in, carried + k, false);
		if (stop < carried) {
			/* Still undecided: then all of this piece was short, and is in @in. */
			flush_out(rw);
			memmove(rw->in, rw->in + stop, carried + k - stop);
			rw->inlen = carried + k - stop;
			return rw->err;
		}
		rw->inlen = 0;
		off = stop - carried;
	}
	stop = off + scan(rw, s + off, len - off, false);
	/* Out before @in is written: pieces may point into it. */
	flush_out(rw);
	memcpy(rw->in, s + stop, len - stop);
	rw->inlen = len - stop;
	return rw->err;
}

/* End the stream: rewrite what waits, hand it out, and get ready for the next one. */
static int end_stream(struct da_rewriter *rw, size_t *ret_count)
{
	int r;

	if (!rw->err)
		scan(rw, rw->in, rw->inlen, true);
	r = flush_out(rw);
	if (ret_count)
		*ret_count = rw->count;
	rw->inlen = 0;
	rw->outlen = 0;
	rw->iovcnt = 0;
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

static int membuf_write(void *userdata, const struct iovec *iov, int iovcnt)
{
	struct membuf *mb = userdata;
	size_t len = 0;

	for (int i = 0; i < iovcnt; i++)
		len += iov[i].iov_len;
	if (mb->len + len + 1 > mb->size) {
		size_t size = (mb->len + len + 1) * 2;
		char *b = realloc(mb->buf, size);

		if (!b)
			return -ENOMEM;
		mb->buf = b;
		mb->size = size;
	}
	for (int i = 0; i < iovcnt; i++) {
		memcpy(mb->buf + mb->len, iov[i].iov_base, iov[i].iov_len);
		mb->len += iov[i].iov_len;
	}
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

	if (rw->inlen || rw->iovcnt)
		return -EBUSY;
	rw->write = membuf_write;
	rw->userdata = &mb;
	r = membuf_write(&mb, NULL, 0);
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
