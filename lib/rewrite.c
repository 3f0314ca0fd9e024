// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The rewrite engine: kernel names in text become aliases (or the reverse).
 *
 * Every name the text may hold (sdc, /dev/sdc, /dev/mapper/vg0-data, the
 * SCSI address 2:0:3:0, or in reverse an alias and its by-alias path) is
 * put in one open-addressing hash table, built once, keyed by the whole
 * name: a match costs a hash of the token and about one probe however many
 * names there are (a trie of 10,000 names cost a cache miss per byte). The
 * text is scanned once, 64 bytes at a time: a match is tried only where a
 * name may begin (a byte that starts some name, after a byte that cannot
 * continue a word, before one that can be its second; a number only in the
 * shape of a SCSI address), and whose first bytes begin some name (a bit
 * set). There the token's possible ends are found in one pass over the
 * bytes that occur in names (a boundary at a length that a name starting
 * with that byte has, with or without a partition suffix) and looked up
 * from the longest: the longest name that ends on a word boundary wins. A
 * disk's name followed by a partition suffix (sdc1, nvme0n1p2) names that
 * partition even when it is not in the device list. The scanner holds back
 * at most one undecided name at the end of what it was given, so memory
 * does not grow with the input and lines may be of any length; every other
 * byte, NUL and invalid UTF-8 included, passes through unchanged.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>

#include "hashmap.h"
#include "internal.h"

/* Output: pieces shorter than COPY_MAX are gathered in a buffer, longer ones written in place. */
#define OUT_SIZE (64 * 1024)
#define COPY_MAX 128
#define IOV_N	 256
/* The first bytes of every name are in a bit set: most tokens that are no name stop there. */
#define PREFIX_LEN  3
#define PREFIX_BITS 16
/* Numbers are searched for as SCSI addresses if their first number has at most this many digits. */
#define ADDR_RUN_MAX 8
/* At most this many digits in a partition number. */
#define PARTNO_DIGITS 6
/* The most bytes a name can need to be decided: itself, 'p', digits, the byte after. */
#define UNDECIDED_MAX(rw) ((rw)->maxlen + PARTNO_DIGITS + 2)

enum {
	CLS_WORD = 1 << 0,	 /* continues a word: no name starts or ends next to it */
	CLS_NOLEFT = 1 << 1,	 /* no name starts right after it */
	CLS_START = 1 << 2,	 /* some name starts with it */
	CLS_SECOND = 1 << 3,	 /* it is the second byte of some name */
	CLS_INNAME = 1 << 4,	 /* it may be inside a name or its partition suffix */
	CLS_SHORT = 1 << 5,	 /* a name of fewer than PREFIX_LEN bytes starts with it */
	CLS_SECOND_NUM = 1 << 6, /* the second byte of a name that starts with a digit */
};

/*
 * A name in the pool: this header, then the name's bytes (folded in reverse
 * mode), what it becomes, and the alias or kernel name for annotations,
 * unless that ends what it becomes (bay07 of /dev/disk/by-alias/bay07).
 * Small, and 2-aligned, so that the names a log is full of take few cache
 * lines.
 */
struct rw_record {
	uint16_t keylen, tolen, namelen;
	uint8_t flags;
	uint8_t pad;
};

#define RECORD_ALIGN 2
/* Longer strings are not put in a record (no device has one). */
#define RECORD_STR_MAX UINT16_MAX

enum {
	REC_PARTS = 1 << 0,    /* a partition suffix after it names a partition */
	REC_NAME_END = 1 << 1, /* the name is the end of what it becomes */
};

/*
 * A hash table slot is 32 bits, so that the table of 10,000 disks' names
 * takes 256 KB: in its low @rec_bits, 1 + its record's offset in
 * RECORD_ALIGN units (0: empty); above them, as many of the top bits of the
 * name's hash, so that most other names stop there. The pool holds at most
 * 2^REC_BITS_MAX units (32 MB, some 300,000 disks), leaving the tag 8 bits.
 */
#define REC_BITS_MAX 24

/* Lengths by first byte: one bit per length, @words words per byte. */
struct lenset {
	uint64_t *bits;
	size_t words;
};

struct pattern {
	const char *s, *to, *name;
	bool parts;
};

struct da_rewriter {
	enum da_rewrite_mode mode;
	da_rewrite_write_fn write;
	void *userdata;

	uint8_t fold[256]; /* the byte as names are compared: lower case in reverse mode */
	uint8_t cls[256];
	char *pool; /* the records */
	size_t pool_len;
	uint32_t *slots;
	size_t mask; /* slots - 1 */
	unsigned int rec_bits;
	/* A kept rewriter's file (rwcache.c): pool, slots and lengths point into it. */
	void *image;
	size_t image_len;
	/* How many rewriters share the tables (da_rewriter_clone()): the last frees them. */
	unsigned long *refs;
	/*
	 * By the name's first byte: the lengths of names (bare, bare_digit for
	 * those ending in a digit: sdc1 is looked up whole only if some name
	 * is so), of names a partition suffix may follow (base), and the
	 * lengths a token may have to be either (ends); reach[] is the longest.
	 */
	struct lenset bare, bare_digit, base, ends;
	size_t reach[256];
	size_t maxlen;				  /* longest name */
	uint64_t prefix[(1 << PREFIX_BITS) / 64]; /* hashes of the names' first bytes */

	/*
	 * Names that start with a digit are SCSI addresses (forward mode),
	 * whose first number (the host) has at most @addr_run digits: the
	 * vector search takes a number only where ':' follows that many. 0
	 * when some such name is not of that shape; @addr_other says so.
	 */
	unsigned int addr_run;
	bool addr_other;

	/* Nibble tables of CLS_NOLEFT, CLS_START, CLS_SECOND for the vector search, if it runs. */
	bool vector;
	uint8_t noleft_lo[16], noleft_hi[16], start_lo[16], start_hi[16];
	uint8_t second_lo[16], second_hi[16];

	/*
	 * The stream: an undecided name waits in @in. Output is a list of
	 * pieces, written at the end of each feed: stretches of the text where
	 * they are, short ones and replacements copied together into @out.
	 * Everything from @in to the end is the stream's (and nothing above
	 * changes once built): a clone starts with all of it zero.
	 */
	char *in, *out;
	size_t inlen, outlen;
	struct iovec iov[IOV_N];
	int iovcnt;
	struct iovec *tail; /* the last piece, while it ends where copied bytes go next */
	bool prev_noleft;   /* the last byte passed on may not precede a name */
	size_t *tokend;	    /* where a token may end, nearest first */
	size_t count;	    /* names rewritten since the stream began */
	int err;	    /* a write failure sticks */
};

static void init_vector(struct da_rewriter *rw);

DA_EXPORT void da_rewriter_free(struct da_rewriter *rw)
{
	if (!rw)
		return;
	/* The last of a rewriter and its clones frees the tables. */
	if (!rw->refs || __atomic_sub_fetch(rw->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		if (rw->image) {
			munmap(rw->image, rw->image_len);
		} else {
			free(rw->pool);
			free(rw->slots);
			free(rw->bare.bits);
			free(rw->bare_digit.bits);
			free(rw->base.bits);
			free(rw->ends.bits);
		}
		free(rw->refs);
	}
	free(rw->in);
	free(rw->out);
	free(rw->tokend);
	free(rw);
}

static inline bool lenset_has(const struct lenset *s, uint8_t c, size_t len)
{
	return s->bits[c * s->words + len / 64] >> (len % 64) & 1;
}

static inline void lenset_add(struct lenset *s, uint8_t c, size_t len)
{
	s->bits[c * s->words + len / 64] |= UINT64_C(1) << (len % 64);
}

/* Where the PREFIX_LEN bytes at @p, folded, are in the prefix set. */
static inline uint32_t prefix_bit(const struct da_rewriter *rw, const uint8_t *p)
{
	uint32_t v = rw->fold[p[0]] | rw->fold[p[1]] << 8 | (uint32_t)rw->fold[p[2]] << 16;

	return (v * UINT32_C(0x9e3779b1)) >> (32 - PREFIX_BITS);
}

static inline bool is_digit(uint8_t c)
{
	return c >= '0' && c <= '9';
}

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t load32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Eight bytes at once as @fold has them: 'A'..'Z' become lower case, in reverse mode. */
static inline uint64_t fold8(const struct da_rewriter *rw, uint64_t w)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	uint64_t low = w & 0x7f * ones, upper;

	if (rw->mode != DA_REWRITE_REVERSE)
		return w;
	/* High bit of each byte: at least 'A', below '[', and not a byte of 0x80 and above. */
	upper = (low + (0x80 - 'A') * ones) & ~(low + (0x80 - 'Z' - 1) * ones) & ~w & 0x80 * ones;
	return w | upper >> 2;
}

/* A hash of @len bytes at @p as folded, reading no byte outside them. */
static uint64_t hash_name(const struct da_rewriter *rw, const uint8_t *p, size_t len)
{
	const uint64_t k = UINT64_C(0x9e3779b97f4a7c15);
	uint64_t h = len * k, w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8)
		h = ((h << 23 | h >> 41) ^ fold8(rw, load64(p + i))) * k;
	if (len - i >= 4)
		w = load32(p + i) | load32(p + len - 4) << 32;
	else if (len > i)
		w = p[i] | (uint64_t)p[i + (len - i) / 2] << 8 | (uint64_t)p[len - 1] << 16;
	else
		w = 0;
	h = ((h << 23 | h >> 41) ^ fold8(rw, w)) * k;
	/*
	 * A product's low bits depend only on its factors' low bits: mix the
	 * high ones down before the slot is taken from them, or names that
	 * differ only in their last bytes (sdabk, sdabl) share a probe run.
	 */
	h = (h ^ h >> 32) * UINT64_C(0xd6e8feb86659fd93);
	return h ^ h >> 32;
}

/* Are the @len bytes at @p, folded, the name @key (folded)? Word at a time, as names are short. */
static inline bool same_name(const struct da_rewriter *rw, const uint8_t *key, const uint8_t *p,
			     size_t len)
{
	size_t i = 0;

	if (len < 4) {
		for (; i < len; i++)
			if (key[i] != rw->fold[p[i]])
				return false;
		return true;
	}
	if (len < 8)
		return load32(key) == fold8(rw, load32(p)) &&
		       load32(key + len - 4) == fold8(rw, load32(p + len - 4));
	for (; i + 8 < len; i += 8)
		if (load64(key + i) != fold8(rw, load64(p + i)))
			return false;
	return load64(key + len - 8) == fold8(rw, load64(p + len - 8));
}

static inline const uint8_t *record_key(const struct rw_record *r)
{
	return (const uint8_t *)(r + 1);
}

static inline const char *record_to(const struct rw_record *r)
{
	return (const char *)record_key(r) + r->keylen;
}

static inline const char *record_name(const struct rw_record *r)
{
	return record_to(r) + (r->flags & REC_NAME_END ? r->tolen - r->namelen : r->tolen);
}

/* What of hash @h a slot keeps: its top bits. */
static inline uint32_t slot_tag(const struct da_rewriter *rw, uint64_t h)
{
	return (uint32_t)(h >> 32) >> rw->rec_bits;
}

/* Bits a slot needs for 1 + any record's offset in RECORD_ALIGN units, in a pool of @pool_len. */
static unsigned int rec_bits_for(size_t pool_len)
{
	unsigned int bits = 1;

	while (pool_len / RECORD_ALIGN >> bits)
		bits++;
	return bits;
}

/* 1 + the record's offset in RECORD_ALIGN units, of slot @s. */
static inline size_t slot_rec(const struct da_rewriter *rw, uint32_t s)
{
	return s & ((UINT32_C(1) << rw->rec_bits) - 1);
}

/* The record of the name @len bytes at @p, or NULL. */
static const struct rw_record *lookup(const struct da_rewriter *rw, const uint8_t *p, size_t len)
{
	uint64_t h = hash_name(rw, p, len);
	uint32_t tag = slot_tag(rw, h);

	for (size_t i = h & rw->mask;; i = (i + 1) & rw->mask) {
		uint32_t s = rw->slots[i];
		const struct rw_record *r;

		if (!s)
			return NULL;
		if (s >> rw->rec_bits != tag)
			continue;
		r = (const struct rw_record *)(rw->pool + (slot_rec(rw, s) - 1) * RECORD_ALIGN);
		if (r->keylen == len && same_name(rw, record_key(r), p, len))
			return r;
	}
}

/* Keep @s (consumed, even on failure) until the rewriter is built. */
static const char *keep(struct strv *strings, char *s)
{
	if (strv_consume(strings, s) < 0)
		return NULL;
	return s;
}

struct builder {
	struct pattern *v;
	size_t n;
	struct strv strings; /* every string the patterns point at */
};

/*
 * The bytes of a handle up to its last space: the word it is a name after
 * ("usb " of "usb 2-1"). A path is no handle: /dev/mapper/NAME may hold a
 * space of the dm name's own.
 */
static size_t context_len(const char *s)
{
	const char *space = strrchr(s, ' ');

	return space && !strchr(s, '/') ? (size_t)(space - s) + 1 : 0;
}

/*
 * Add name @s (consumed) that becomes @to (annotated as @name). A name
 * after a word ("usb 2-1") keeps the word: it becomes "usb " and @to; the
 * word of a handle it becomes ("{a,b}" back to "usb 2-1") is there already.
 */
static int add_pattern(struct builder *b, char *s, const char *to, const char *name, bool parts)
{
	const char *kept = keep(&b->strings, s);
	size_t ctx = kept ? context_len(kept) : 0;

	to += context_len(to);
	name += context_len(name);
	if (ctx)
		to = keep(&b->strings, xasprintf("%.*s%s", (int)ctx, kept, to));
	if (!kept || !to || ARRAY_GROW(b->v, b->n) < 0)
		return -ENOMEM;
	b->v[b->n++] = (struct pattern){ .s = kept, .to = to, .name = name, .parts = parts };
	return 0;
}

/*
 * Whether partition @d, named @name, is named by its disk's patterns: its
 * kernel name is the disk's with a partition suffix, as its name is the
 * disk's. The engine names such a partition from the disk's name: a
 * pattern of its own would only double the table (and start-up).
 */
static bool named_by_disk(const struct da_map *map, const struct da_device *d, const char *name)
{
	const struct da_device *disk = da_device_parent(d);
	const char *disk_name = disk ? da_map_device_name(map, disk, 0) : NULL;
	_cleanup_free_ char *want = NULL;
	unsigned int partno;

	if (!disk_name || da_map_device_name(map, d, 1) || da_device_dm_name(d) ||
	    da_device_md_devname(d) ||
	    !da_partition_of(da_device_kname(d), da_device_kname(disk), &partno) ||
	    partno != da_device_partno(d))
		return false;
	want = da_partition_name(disk_name, partno);
	return want && streq(want, name);
}

/*
 * The names of @d, kernel name to alias: sdc, /dev/sdc, /dev/mapper/NAME,
 * /dev/md/NAME, 2:0:3:0, and its own other names (ata3.00, sg2, ng0n1).
 */
static int add_forward(struct builder *b, const struct da_map *map, const struct da_device *d)
{
	const char *name = da_map_device_name(map, d, 0);
	const char *link, *kname = da_device_kname(d), *h;
	bool disk = da_device_devtype(d) == DA_DEV_DISK, shared;
	int r;

	if (!name || named_by_disk(map, d, name))
		return 0;
	link = keep(&b->strings, da_alias_node(name));
	name = keep(&b->strings, strdup(name));
	if (!link || !name)
		return -ENOMEM;
	r = add_pattern(b, strdup(kname), name, name, disk);
	if (r >= 0)
		r = add_pattern(b, da_devnode(kname), link, name, disk);
	if (r >= 0 && da_device_dm_name(d))
		r = add_pattern(b, da_mapper_node(da_device_dm_name(d)), link, name, false);
	if (r >= 0 && da_device_md_devname(d))
		r = add_pattern(b, da_md_node(da_device_md_devname(d)), link, name, false);
	if (r >= 0 && disk && da_device_hctl(d))
		r = add_pattern(b, strdup(da_device_hctl(d)), name, name, false);
	for (size_t i = 0; r >= 0 && (h = da_device_handle(d, i, &shared)); i++)
		if (!shared)
			r = add_pattern(b, strdup(h), name, name, false);
	return r;
}

/* The disks that share a handle: their names, and whether one is an alias. */
struct group {
	struct strv names;
	bool named;
};

/* Add disk @d's name to the group of each handle it shares, new ones in @handles. */
static int group_shared(const struct da_map *map, const struct da_device *d, struct hashmap *groups,
			struct strv *handles)
{
	const char *h, *name = da_map_device_name(map, d, 0);
	bool shared;
	int r = 0;

	for (size_t k = 0; r >= 0 && (h = da_device_handle(d, k, &shared)); k++) {
		struct group *g;

		if (!shared)
			continue;
		g = hashmap_get(groups, h);
		if (!g) {
			g = calloc(1, sizeof(*g));
			if (!g || strv_push(handles, h) < 0 ||
			    hashmap_put(groups, handles->v[handles->n - 1], g) < 0) {
				free(g);
				return -ENOMEM;
			}
		}
		g->named = g->named || name;
		r = strv_push(&g->names, name ? name : da_device_kname(d));
	}
	return r;
}

/*
 * The handles disks share (a libata port, an NVMe controller): each names
 * its one disk's alias, or with several disks "{db-a,db-b}", every disk by
 * its alias or kernel name in the device list's order, when one of them
 * has an alias. @reverse: such a list back to the handle.
 */
static int add_shared(struct builder *b, const struct da_map *map, bool reverse)
{
	const struct da_devlist *list = da_map_devlist(map);
	struct strv handles = {};
	struct hashmap groups;
	int r = 0;

	hashmap_init(&groups, false);
	for (size_t i = 0; r >= 0 && i < da_devlist_count(list); i++)
		r = group_shared(map, da_devlist_get(list, i), &groups, &handles);
	for (size_t i = 0; i < handles.n; i++) {
		struct group *g = hashmap_get(&groups, handles.v[i]);
		const char *h, *to;

		if (g && r >= 0 && g->named && g->names.n <= DA_SHARED_NAMES_MAX) {
			_cleanup_free_ char *joined = strv_join(g->names.v, ",");

			h = keep(&b->strings, strdup(handles.v[i]));
			to = keep(&b->strings, !joined		 ? NULL
					       : g->names.n == 1 ? strdup(joined)
								 : xasprintf("{%s}", joined));
			if (!h || !to)
				r = -ENOMEM;
			else if (!reverse)
				r = add_pattern(b, strdup(h), to, to, false);
			else if (g->names.n > 1)
				r = add_pattern(b, strdup(to), h, h, false);
		}
		if (g)
			strv_free(&g->names);
		free(g);
	}
	hashmap_free(&groups);
	strv_free(&handles);
	return r;
}

/* A name of @v: kernel name and /dev node to the name (or, @reverse, back). */
static int add_rename(struct builder *b, const struct da_rename *v, bool reverse)
{
	const char *kname = keep(&b->strings, strdup(v->kname));
	const char *name = keep(&b->strings, strdup(v->name));
	const char *node, *link;
	int r;

	if (!kname || !name)
		return -ENOMEM;
	r = reverse ? add_pattern(b, strdup(name), kname, kname, v->disk)
		    : add_pattern(b, strdup(kname), name, name, v->disk);
	/* A handle after a word ("usb 2-1") has no /dev node. */
	if (r < 0 || context_len(kname))
		return r;
	node = keep(&b->strings, da_devnode(v->kname));
	link = keep(&b->strings, da_alias_node(v->name));
	if (!node || !link)
		return -ENOMEM;
	return reverse ? add_pattern(b, strdup(link), node, kname, v->disk)
		       : add_pattern(b, strdup(node), link, name, v->disk);
}

/*
 * The names of @d, alias to kernel name: every alias and its
 * /dev/disk/by-alias/ link. A partition named by its disk's name has
 * none of its own: the disk's patterns name it (bay07p1 is sdc1, as sdc1
 * is bay07p1 the other way), which halves the table where every disk has
 * two partitions.
 */
static int add_reverse(struct builder *b, const struct da_map *map, const struct da_device *d)
{
	const char *kname = NULL, *node = NULL, *name = da_map_device_name(map, d, 0);
	bool disk = da_device_devtype(d) == DA_DEV_DISK;
	int r = 0;

	if (!name || named_by_disk(map, d, name))
		return 0;
	for (size_t i = 0; r >= 0 && (name = da_map_device_name(map, d, i)); i++) {
		if (!node && (!(node = keep(&b->strings, da_devnode(da_device_kname(d)))) ||
			      !(kname = keep(&b->strings, strdup(da_device_kname(d))))))
			return -ENOMEM;
		r = add_pattern(b, strdup(name), kname, kname, disk);
		if (r >= 0)
			r = add_pattern(b, da_alias_node(name), node, kname, disk);
	}
	return r;
}

/* Put byte @c of a name in class @bit, in every case the mode reads it in. */
static void mark(struct da_rewriter *rw, uint8_t c, uint8_t bit)
{
	rw->cls[c] |= bit;
	rw->cls[rw->fold[c]] |= bit;
	if (rw->mode == DA_REWRITE_REVERSE && c >= 'a' && c <= 'z')
		rw->cls[c - ('a' - 'A')] |= bit;
}

/* The classes of the bytes of name @s, and the lengths a token starting as it does may have. */
static void add_lengths(struct da_rewriter *rw, const uint8_t *s, size_t len, bool parts)
{
	uint8_t c = rw->fold[s[0]], second = is_digit(s[0]) ? CLS_SECOND_NUM : CLS_SECOND;
	size_t reach = len, run = 0;

	mark(rw, s[0], CLS_START);
	if (len < PREFIX_LEN) {
		mark(rw, s[0], CLS_SHORT);
	} else {
		uint32_t bit = prefix_bit(rw, s);

		rw->prefix[bit / 64] |= UINT64_C(1) << (bit % 64);
	}
	/* A name of one byte has no second: then any byte may follow a start. */
	for (unsigned int k = 0; len == 1 && k < 256; k++)
		rw->cls[k] |= second;
	if (len > 1)
		mark(rw, s[1], second);
	while (run < len && is_digit(s[run]))
		run++;
	if (run > 0 && (run == len || s[run] != ':' || run > ADDR_RUN_MAX))
		rw->addr_other = true;
	else if (run > rw->addr_run)
		rw->addr_run = run;
	for (size_t k = 0; k < len; k++)
		mark(rw, s[k], CLS_INNAME);
	lenset_add(is_digit(s[len - 1]) ? &rw->bare_digit : &rw->bare, c, len);
	lenset_add(&rw->ends, c, len);
	if (parts) {
		/* 'p' and 1 to PARTNO_DIGITS digits, or the digits alone. */
		size_t from = len + (da_partition_takes_p((const char *)s, len) ? 2 : 1);

		lenset_add(&rw->base, c, len);
		for (reach = from; reach < from + PARTNO_DIGITS; reach++)
			lenset_add(&rw->ends, c, reach);
		reach--;
	}
	if (reach > rw->reach[c])
		rw->reach[c] = reach;
}

static int lenset_init(struct lenset *s, size_t maxlen)
{
	s->words = maxlen / 64 + 1;
	s->bits = calloc(256 * s->words, sizeof(*s->bits));
	return s->bits ? 0 : -ENOMEM;
}

/* Whether @v's name is the end of what it becomes, and so kept only there. */
static bool name_ends_to(const struct pattern *v)
{
	size_t tolen = strlen(v->to), namelen = strlen(v->name);

	return namelen <= tolen && streq(v->to + tolen - namelen, v->name);
}

static size_t record_size(const struct pattern *v)
{
	size_t size = sizeof(struct rw_record) + strlen(v->s) + strlen(v->to) +
		      (name_ends_to(v) ? 0 : strlen(v->name));

	return (size + RECORD_ALIGN - 1) & ~(size_t)(RECORD_ALIGN - 1);
}

/* Put @v in the pool at @off (folded as the mode compares) and in the table, unless there. */
static void insert(struct da_rewriter *rw, const struct pattern *v, size_t off)
{
	struct rw_record *r = (struct rw_record *)(rw->pool + off);
	uint8_t *key = (uint8_t *)(r + 1);
	uint64_t h;
	size_t i;

	*r = (struct rw_record){
		.keylen = strlen(v->s),
		.tolen = strlen(v->to),
		.namelen = strlen(v->name),
		.flags = (v->parts ? REC_PARTS : 0) | (name_ends_to(v) ? REC_NAME_END : 0),
	};
	for (size_t k = 0; k < r->keylen; k++)
		key[k] = rw->fold[(uint8_t)v->s[k]];
	memcpy(key + r->keylen, v->to, r->tolen);
	if (!(r->flags & REC_NAME_END))
		memcpy(key + r->keylen + r->tolen, v->name, r->namelen);
	/* The first of two equal names wins: the device list's order. */
	if (lookup(rw, key, r->keylen))
		return;
	h = hash_name(rw, key, r->keylen);
	for (i = h & rw->mask; rw->slots[i]; i = (i + 1) & rw->mask)
		;
	rw->slots[i] = slot_tag(rw, h) << rw->rec_bits | (uint32_t)(off / RECORD_ALIGN + 1);
}

static int build_table(struct da_rewriter *rw, const struct builder *b)
{
	size_t size = 0, nslots = 16, off = 0;

	for (size_t i = 0; i < b->n; i++) {
		size_t len = strlen(b->v[i].s);

		if (len > RECORD_STR_MAX || strlen(b->v[i].to) > RECORD_STR_MAX ||
		    strlen(b->v[i].name) > RECORD_STR_MAX)
			return -E2BIG;
		size += record_size(&b->v[i]);
		if (len > rw->maxlen)
			rw->maxlen = len;
	}
	/* At most half full: probe runs stay short. */
	while (nslots < 2 * b->n)
		nslots *= 2;
	rw->rec_bits = rec_bits_for(size);
	if (rw->rec_bits > REC_BITS_MAX)
		return -E2BIG;
	rw->mask = nslots - 1;
	rw->pool_len = size;
	rw->slots = calloc(nslots, sizeof(*rw->slots));
	rw->pool = malloc(size ? size : 1);
	if (!rw->slots || !rw->pool || lenset_init(&rw->bare, UNDECIDED_MAX(rw)) < 0 ||
	    lenset_init(&rw->bare_digit, UNDECIDED_MAX(rw)) < 0 ||
	    lenset_init(&rw->base, UNDECIDED_MAX(rw)) < 0 ||
	    lenset_init(&rw->ends, UNDECIDED_MAX(rw)) < 0)
		return -ENOMEM;
	/*
	 * Paths (/dev/sdc) after the bare names and addresses a log is full
	 * of, so that those take fewer cache lines.
	 */
	for (int path = 0; path < 2; path++) {
		for (size_t i = 0; i < b->n; i++) {
			const uint8_t *s = (const uint8_t *)b->v[i].s;

			if (!*s || (*s == '/') != path)
				continue;
			add_lengths(rw, s, strlen(b->v[i].s), b->v[i].parts);
			insert(rw, &b->v[i], off);
			off += record_size(&b->v[i]);
		}
	}
	/* Partition suffixes: digits, and 'p' after a name ending in one. */
	for (unsigned int c = '0'; c <= '9'; c++)
		rw->cls[c] |= CLS_INNAME;
	rw->cls['p'] |= CLS_INNAME;
	/* Numbers that are no address's are searched for as any other start. */
	if (rw->addr_other || !rw->addr_run) {
		rw->addr_run = 0;
		for (unsigned int c = 0; c < 256; c++)
			if (rw->cls[c] & CLS_SECOND_NUM)
				rw->cls[c] |= CLS_SECOND;
	}
	return 0;
}

static void init_classes(struct da_rewriter *rw)
{
	for (unsigned int c = 0; c < 256; c++) {
		bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '_' || c == '-' || c >= 0x80;

		rw->cls[c] = word ? CLS_WORD | CLS_NOLEFT : 0;
		/* Aliases are one name whatever their case; kernel names are not. */
		rw->fold[c] = c;
		if (rw->mode == DA_REWRITE_REVERSE && c >= 'A' && c <= 'Z')
			rw->fold[c] = c + ('a' - 'A');
	}
	/* Inside a path a name is a directory, not the device: /sys/block/sdc stays. */
	rw->cls['/'] |= CLS_NOLEFT;
}

/* Make built rewriter @rw (freed on failure) ready for a stream. */
static int stream_init(struct da_rewriter *rw, struct da_rewriter **ret_rw)
{
	if (!rw->refs) {
		/* New tables, this rewriter's alone until it is cloned. */
		rw->refs = malloc(sizeof(*rw->refs));
		if (rw->refs)
			*rw->refs = 1;
	}
	/* An undecided name, and as much again of what follows it. */
	rw->in = malloc(2 * UNDECIDED_MAX(rw));
	rw->tokend = malloc((UNDECIDED_MAX(rw) + 1) * sizeof(*rw->tokend));
	rw->out = malloc(OUT_SIZE);
	if (!rw->refs || !rw->in || !rw->out || !rw->tokend) {
		da_rewriter_free(rw);
		return -ENOMEM;
	}
	init_vector(rw);
	*ret_rw = rw;
	return 0;
}

/*
 * A rewriter for the names of @map (@v and @n NULL and 0) or of the @n
 * names of @v.
 */
static int rewriter_new(const struct da_map *map, const struct da_rename *v, size_t n,
			enum da_rewrite_mode mode, da_rewrite_write_fn write, void *userdata,
			struct da_rewriter **ret_rw)
{
	const struct da_devlist *list = map ? da_map_devlist(map) : NULL;
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
	for (size_t i = 0; r >= 0 && list && i < da_devlist_count(list); i++) {
		const struct da_device *d = da_devlist_get(list, i);

		r = mode == DA_REWRITE_REVERSE ? add_reverse(&b, map, d) : add_forward(&b, map, d);
	}
	if (r >= 0 && map)
		r = add_shared(&b, map, mode == DA_REWRITE_REVERSE);
	for (size_t i = 0; r >= 0 && i < n; i++)
		r = add_rename(&b, &v[i], mode == DA_REWRITE_REVERSE);
	if (r >= 0)
		r = build_table(rw, &b);
	free(b.v);
	strv_free(&b.strings);
	if (r < 0) {
		da_rewriter_free(rw);
		return r;
	}
	return stream_init(rw, ret_rw);
}

DA_EXPORT int da_rewriter_new(const struct da_map *map, enum da_rewrite_mode mode,
			      da_rewrite_write_fn write, void *userdata,
			      struct da_rewriter **ret_rw)
{
	return rewriter_new(map, NULL, 0, mode, write, userdata, ret_rw);
}

DA_EXPORT int da_rewriter_new_names(const struct da_rename *v, size_t n, enum da_rewrite_mode mode,
				    da_rewrite_write_fn write, void *userdata,
				    struct da_rewriter **ret_rw)
{
	return rewriter_new(NULL, v, n, mode, write, userdata, ret_rw);
}

/*
 * A built rewriter as a file keeps it (rwcache.c): this header, then the
 * four length sets, the slots and the pool as they are in memory, so that
 * a rewriter read back points into the file. Host byte order.
 */
struct rw_image {
	uint64_t hash_check; /* image_check(): the same hash function */
	uint64_t maxlen, nslots, pool_len;
	uint32_t mode, addr_run, addr_other, words;
	uint64_t reach[256];
	uint64_t prefix[(1 << PREFIX_BITS) / 64];
	uint8_t cls[256];
};

/* Longer names are not kept (no device has one). */
#define IMAGE_MAXLEN (1U << 16)

enum da_rewrite_mode rewriter_mode(const struct da_rewriter *rw)
{
	return rw->mode;
}

static uint64_t image_check(const struct da_rewriter *rw)
{
	static const char name[] = "diskalias image check";

	return hash_name(rw, (const uint8_t *)name, sizeof(name) - 1);
}

static size_t pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

int rewriter_image(const struct da_rewriter *rw, struct strbuf *sb)
{
	const struct lenset *sets[] = { &rw->bare, &rw->bare_digit, &rw->base, &rw->ends };
	static const char zeros[8];
	struct rw_image *img = calloc(1, sizeof(*img));
	int r;

	if (!img)
		return -ENOMEM;
	*img = (struct rw_image){
		.hash_check = image_check(rw),
		.maxlen = rw->maxlen,
		.nslots = rw->mask + 1,
		.pool_len = rw->pool_len,
		.mode = rw->mode,
		.addr_run = rw->addr_run,
		.addr_other = rw->addr_other,
		.words = rw->bare.words,
	};
	for (unsigned int c = 0; c < 256; c++)
		img->reach[c] = rw->reach[c];
	memcpy(img->prefix, rw->prefix, sizeof(img->prefix));
	memcpy(img->cls, rw->cls, sizeof(img->cls));
	r = rw->maxlen > IMAGE_MAXLEN ? -E2BIG : strbuf_add(sb, img, sizeof(*img));
	free(img);
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(sets); i++)
		r = strbuf_add(sb, sets[i]->bits, 256 * sets[i]->words * sizeof(uint64_t));
	if (r >= 0)
		r = strbuf_add(sb, rw->slots, (rw->mask + 1) * sizeof(*rw->slots));
	if (r >= 0)
		r = strbuf_add(sb, rw->pool, rw->pool_len);
	if (r >= 0)
		r = strbuf_add(sb, zeros, pad8(rw->pool_len) - rw->pool_len);
	return r < 0 ? r : 0;
}

/* Whether every slot of @rw leads to a whole record in the pool, and one is empty. */
static bool image_records_valid(const struct da_rewriter *rw)
{
	bool empty = false;

	for (size_t i = 0; i <= rw->mask; i++) {
		size_t rec = slot_rec(rw, rw->slots[i]), off = (rec - 1) * RECORD_ALIGN, room, kept;
		const struct rw_record *r;

		if (!rw->slots[i]) {
			empty = true;
			continue;
		}
		if (!rec || off > rw->pool_len || rw->pool_len - off < sizeof(*r))
			return false;
		r = (const struct rw_record *)(rw->pool + off);
		room = rw->pool_len - off - sizeof(*r);
		kept = r->flags & REC_NAME_END ? 0 : r->namelen;
		if (r->flags & ~(REC_PARTS | REC_NAME_END) || !r->keylen ||
		    r->keylen > rw->maxlen || (r->flags & REC_NAME_END && r->namelen > r->tolen) ||
		    (size_t)r->keylen + r->tolen + kept > room)
			return false;
	}
	/* A probe stops at an empty slot: a table without one would never stop. */
	return empty;
}

/* Whether image header @img describes a consistent rewriter of @len bytes. */
static bool image_header_valid(const struct rw_image *img, size_t len)
{
	uint64_t undecided = img->maxlen + PARTNO_DIGITS + 2, need;

	if (img->maxlen > IMAGE_MAXLEN || img->words != undecided / 64 + 1 || img->nslots < 16 ||
	    img->nslots > (1U << 30) || (img->nslots & (img->nslots - 1)) ||
	    rec_bits_for(img->pool_len) > REC_BITS_MAX || img->addr_run > ADDR_RUN_MAX ||
	    img->addr_other > 1)
		return false;
	for (unsigned int c = 0; c < 256; c++)
		if (img->reach[c] > undecided)
			return false;
	need = sizeof(*img) + 4 * 256 * (uint64_t)img->words * sizeof(uint64_t) +
	       img->nslots * sizeof(uint32_t) + pad8(img->pool_len);
	return need == len;
}

int rewriter_from_image(void *map, size_t map_len, size_t off, enum da_rewrite_mode mode,
			da_rewrite_write_fn write, void *userdata, struct da_rewriter **ret_rw)
{
	struct lenset *sets[4];
	const struct rw_image *img = (const struct rw_image *)((char *)map + off);
	struct da_rewriter *rw = calloc(1, sizeof(*rw));
	const char *p;

	if (!rw) {
		munmap(map, map_len);
		return -ENOMEM;
	}
	rw->image = map;
	rw->image_len = map_len;
	if (off % 8 || off > map_len || map_len - off < sizeof(*img) || img->mode != mode ||
	    !image_header_valid(img, map_len - off)) {
		da_rewriter_free(rw);
		return -EINVAL;
	}
	rw->mode = mode;
	rw->write = write;
	rw->userdata = userdata;
	init_classes(rw);
	memcpy(rw->cls, img->cls, sizeof(rw->cls));
	memcpy(rw->prefix, img->prefix, sizeof(rw->prefix));
	for (unsigned int c = 0; c < 256; c++)
		rw->reach[c] = img->reach[c];
	rw->maxlen = img->maxlen;
	rw->addr_run = img->addr_run;
	rw->addr_other = img->addr_other;
	p = (const char *)(img + 1);
	sets[0] = &rw->bare;
	sets[1] = &rw->bare_digit;
	sets[2] = &rw->base;
	sets[3] = &rw->ends;
	for (size_t i = 0; i < ARRAY_SIZE(sets); i++) {
		sets[i]->bits = (uint64_t *)p;
		sets[i]->words = img->words;
		p += 256 * img->words * sizeof(uint64_t);
	}
	rw->slots = (uint32_t *)p;
	rw->mask = img->nslots - 1;
	rw->rec_bits = rec_bits_for(img->pool_len);
	rw->pool = (char *)(p + img->nslots * sizeof(uint32_t));
	rw->pool_len = img->pool_len;
	if (img->hash_check != image_check(rw) || !image_records_valid(rw)) {
		da_rewriter_free(rw);
		return -EINVAL;
	}
	return stream_init(rw, ret_rw);
}

DA_EXPORT int da_rewriter_clone(const struct da_rewriter *rw, da_rewrite_write_fn write,
				void *userdata, struct da_rewriter **ret_rw)
{
	struct da_rewriter *c = malloc(sizeof(*c));

	if (!c)
		return -ENOMEM;
	/* The tables, shared; a stream of its own. */
	*c = *rw;
	memset((char *)c + offsetof(struct da_rewriter, in), 0,
	       sizeof(*c) - offsetof(struct da_rewriter, in));
	c->write = write;
	c->userdata = userdata;
	__atomic_add_fetch(c->refs, 1, __ATOMIC_ACQ_REL);
	return stream_init(c, ret_rw);
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
	rw->tail = NULL;
	if (r < 0)
		rw->err = r;
	return rw->err;
}

/* Copy @len bytes to @out, extending the last piece: there is room, and it is @tail. */
static inline void append(struct da_rewriter *rw, const char *p, size_t len)
{
	memcpy(rw->out + rw->outlen, p, len);
	rw->tail->iov_len += len;
	rw->outlen += len;
}

static void emit_piece(struct da_rewriter *rw, const char *p, size_t len)
{
	if (rw->err || len == 0)
		return;
	/* Room for one more piece, and for its bytes if they are to be copied. */
	if ((rw->iovcnt == IOV_N || (len < COPY_MAX && rw->outlen + len > OUT_SIZE)) &&
	    flush_out(rw) < 0)
		return;
	if (len >= COPY_MAX) {
		rw->iov[rw->iovcnt++] = (struct iovec){ (void *)p, len };
		rw->tail = NULL;
		return;
	}
	if (!rw->tail) {
		rw->tail = &rw->iov[rw->iovcnt++];
		*rw->tail = (struct iovec){ rw->out + rw->outlen, 0 };
	}
	append(rw, p, len);
}

/* Most pieces are short and extend the last: that path is inline. */
static inline void emit(struct da_rewriter *rw, const char *p, size_t len)
{
	if (rw->tail && len < COPY_MAX && len <= OUT_SIZE - rw->outlen)
		append(rw, p, len);
	else
		emit_piece(rw, p, len);
}

enum {
	NO_MATCH,
	MATCH,
	UNDECIDED, /* the input ended before it could tell */
};

struct match {
	const struct rw_record *r;
	size_t end;		     /* past the name as matched, suffix included */
	size_t part_start, part_end; /* the partition number's digits, if any */
};

/*
 * The name that the @len bytes at @t are, or that they are with a partition
 * suffix, the longest first; @c is the first byte folded.
 */
static bool lookup_token(const struct da_rewriter *rw, const uint8_t *t, size_t len, uint8_t c,
			 struct match *m)
{
	const struct lenset *bare = is_digit(t[len - 1]) ? &rw->bare_digit : &rw->bare;
	const struct rw_record *r;
	size_t d = 0, base;

	if (lenset_has(bare, c, len) && (r = lookup(rw, t, len))) {
		*m = (struct match){ r, len, 0, 0 };
		return true;
	}
	while (d < len && d <= PARTNO_DIGITS && is_digit(t[len - 1 - d]))
		d++;
	/* 1 to PARTNO_DIGITS digits, without a leading zero. */
	if (d == 0 || d > PARTNO_DIGITS || t[len - d] == '0')
		return false;
	/* After a name not ending in a digit, the digits alone. */
	base = len - d;
	if (base > 0 && lenset_has(&rw->base, c, base) && (r = lookup(rw, t, base)) &&
	    r->flags & REC_PARTS) {
		*m = (struct match){ r, len, base, len };
		return true;
	}
	/* After one ending in a digit, 'p' first. */
	if (base >= 2 && t[base - 1] == 'p' && is_digit(t[base - 2]) &&
	    lenset_has(&rw->base, c, base - 1) && (r = lookup(rw, t, base - 1)) &&
	    r->flags & REC_PARTS) {
		*m = (struct match){ r, len, base, len };
		return true;
	}
	return false;
}

/*
 * The longest name at @p[@i] that ends on a word boundary. Its possible ends
 * are the boundary bytes (or the end of the input, if @final) at a length a
 * name with @p[@i] first may take, up to the first byte that is in no name
 * and no partition suffix; a longer token ends in a shorter name only when
 * the longer is none.
 */
static int match_at(struct da_rewriter *rw, const uint8_t *p, size_t i, size_t n, bool final,
		    struct match *m)
{
	uint8_t c = rw->fold[p[i]];
	size_t reach = rw->reach[c], nends = 0, j;
	size_t lim = n - i > reach ? i + reach + 1 : n;

	for (j = i + 1; j < lim; j++) {
		uint8_t k = rw->cls[p[j]];

		/* Most bytes go on a word inside a name: no end there. */
		if ((k & (CLS_INNAME | CLS_NOLEFT)) == (CLS_INNAME | CLS_NOLEFT))
			continue;
		/* A dot and a digit go on a word: ata3 is not in ata3.01 (nor sdc in sdc.1). */
		if (p[j] == '.' && j + 1 == n && !final)
			return UNDECIDED;
		if (!(k & (CLS_WORD | CLS_NOLEFT)) && lenset_has(&rw->ends, c, j - i) &&
		    !(p[j] == '.' && j + 1 < n && is_digit(p[j + 1])))
			rw->tokend[nends++] = j;
		if (!(k & CLS_INNAME))
			break;
	}
	if (j == n && j - i <= reach) {
		/* The input ended where a name could go on. */
		if (!final)
			return UNDECIDED;
		if (lenset_has(&rw->ends, c, n - i))
			rw->tokend[nends++] = n;
	}
	while (nends-- > 0) {
		if (lookup_token(rw, p + i, rw->tokend[nends] - i, c, m)) {
			m->end += i;
			m->part_start += i;
			m->part_end += i;
			return MATCH;
		}
	}
	return NO_MATCH;
}

/* What goes between name @name (@len bytes) and @ndigits of partition number: "p" or "". */
static const char *partition_sep(const char *name, size_t len, size_t ndigits)
{
	return ndigits && da_partition_takes_p(name, len) ? "p" : "";
}

char *rewriter_lookup(const struct da_rewriter *rw, const char *s)
{
	size_t len = strlen(s), ndigits;
	const uint8_t *p = (const uint8_t *)s;
	struct match m;
	const char *to;

	if (!len || len > UNDECIDED_MAX(rw) || !lookup_token(rw, p, len, rw->fold[p[0]], &m))
		return NULL;
	to = record_to(m.r);
	ndigits = m.part_end - m.part_start;
	return xasprintf("%.*s%s%.*s", (int)m.r->tolen, to, partition_sep(to, m.r->tolen, ndigits),
			 (int)ndigits, s + m.part_start);
}

static void emit_name(struct da_rewriter *rw, const char *name, size_t len, const char *digits,
		      size_t n)
{
	const char *sep;

	emit(rw, name, len);
	if (n == 0)
		return;
	sep = partition_sep(name, len, n);
	emit(rw, sep, strlen(sep));
	emit(rw, digits, n);
}

static void emit_match(struct da_rewriter *rw, const char *p, size_t i, const struct match *m)
{
	const char *digits = p + m->part_start;
	size_t ndigits = m->part_end - m->part_start;

	if (rw->mode == DA_REWRITE_ANNOTATE) {
		emit(rw, p + i, m->end - i);
		emit(rw, "(", 1);
		emit_name(rw, record_name(m->r), m->r->namelen, digits, ndigits);
		emit(rw, ")", 1);
	} else {
		emit_name(rw, record_to(m->r), m->r->tolen, digits, ndigits);
	}
	rw->count++;
}

/*
 * Where names may start in the @len (at most 64) bytes at @p: bit j is set
 * when p[j] starts some name and the byte before it (p[-1], or *@prev_noleft
 * for the first) allows one. Whether a byte may start a name depends on the
 * text alone, never on what was rewritten, so a block is looked at once.
 * *@prev_noleft becomes the class of the block's last byte.
 */
static inline uint64_t candidates_scalar(const struct da_rewriter *rw, const uint8_t *p, size_t len,
					 bool *prev_noleft)
{
	bool noleft = *prev_noleft;
	uint64_t mask = 0;

	for (size_t j = 0; j < len; j++) {
		uint8_t c = rw->cls[p[j]];

		if ((c & CLS_START) && !noleft)
			mask |= UINT64_C(1) << j;
		noleft = c & CLS_NOLEFT;
	}
	*prev_noleft = noleft;
	return mask;
}

/*
 * The same for 64 bytes at once. Class membership is looked up by nibbles
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

/* The nibble tables of one class, loaded once per scan. */
struct class_tables {
	__m256i lo, hi;
};

__attribute__((target("avx2"))) static inline struct class_tables class_tables(const uint8_t *lo16,
									       const uint8_t *hi16)
{
	return (struct class_tables){
		_mm256_broadcastsi128_si256(_mm_loadu_si128((const void *)lo16)),
		_mm256_broadcastsi128_si256(_mm_loadu_si128((const void *)hi16)),
	};
}

/* Bit j: byte j of the 64 has its high bit in @m0 (bytes 0-31) and @m1 (32-63). */
__attribute__((target("avx2"))) static inline uint64_t bits64(__m256i m0, __m256i m1)
{
	return (uint64_t)(uint32_t)_mm256_movemask_epi8(m1) << 32 |
	       (uint32_t)_mm256_movemask_epi8(m0);
}

__attribute__((target("avx2"))) static inline uint64_t class_mask(__m256i v0, __m256i v1,
								  struct class_tables t)
{
	const __m256i nib = _mm256_set1_epi8(0x0f);
	__m256i lo0 = _mm256_shuffle_epi8(t.lo, _mm256_and_si256(v0, nib));
	__m256i hi0 = _mm256_shuffle_epi8(t.hi, _mm256_and_si256(_mm256_srli_epi16(v0, 4), nib));
	__m256i lo1 = _mm256_shuffle_epi8(t.lo, _mm256_and_si256(v1, nib));
	__m256i hi1 = _mm256_shuffle_epi8(t.hi, _mm256_and_si256(_mm256_srli_epi16(v1, 4), nib));
	__m256i none0 = _mm256_cmpeq_epi8(_mm256_and_si256(lo0, hi0), _mm256_setzero_si256());
	__m256i none1 = _mm256_cmpeq_epi8(_mm256_and_si256(lo1, hi1), _mm256_setzero_si256());

	return ~bits64(none0, none1);
}

struct vector_tables {
	struct class_tables noleft, start, second;
	unsigned int addr_run;
};

/* The bytes in ['0', '9']. */
__attribute__((target("avx2"))) static inline uint64_t digit_mask(__m256i v0, __m256i v1)
{
	const __m256i zero = _mm256_set1_epi8('0'), nine = _mm256_set1_epi8(9);
	__m256i d0 = _mm256_sub_epi8(v0, zero), d1 = _mm256_sub_epi8(v1, zero);

	return bits64(_mm256_cmpeq_epi8(_mm256_min_epu8(d0, nine), d0),
		      _mm256_cmpeq_epi8(_mm256_min_epu8(d1, nine), d1));
}

/*
 * The digits that begin a run of 1 to @max digits followed by ':' (bytes
 * past the block, unseen, may be either).
 */
static inline uint64_t address_starts(uint64_t digit, uint64_t colon, unsigned int max)
{
	uint64_t run = digit, ok = 0;

	for (unsigned int k = 1; k <= max; k++) {
		uint64_t unseen = ~(UINT64_MAX >> k);

		ok |= run & (colon >> k | unseen);
		run &= digit >> k | unseen;
	}
	return ok;
}

__attribute__((target("avx2"))) static inline uint64_t
candidates_avx2(const struct vector_tables *t, const uint8_t *p, bool *prev_noleft)
{
	__m256i v0 = _mm256_loadu_si256((const void *)p);
	__m256i v1 = _mm256_loadu_si256((const void *)(p + 32));
	/* High bytes (negative as signed) continue words and start none. */
	uint64_t high = bits64(v0, v1);
	uint64_t noleft = class_mask(v0, v1, t->noleft) | high;
	uint64_t start = class_mask(v0, v1, t->start) & ~high;
	/* A start whose next byte is no name's second is none (the last byte's next is unseen). */
	uint64_t second = class_mask(v0, v1, t->second) & ~high;
	uint64_t follows = second >> 1 | UINT64_C(1) << 63;
	uint64_t mask = start & ~(noleft << 1 | (uint64_t)*prev_noleft);

	if (t->addr_run) {
		/* A number starts a name only as a SCSI address does. */
		uint64_t digit = digit_mask(v0, v1);
		uint64_t colon = bits64(_mm256_cmpeq_epi8(v0, _mm256_set1_epi8(':')),
					_mm256_cmpeq_epi8(v1, _mm256_set1_epi8(':')));

		follows = (digit & address_starts(digit, colon, t->addr_run)) | (~digit & follows);
	}
	*prev_noleft = noleft >> 63;
	return mask & follows;
}
#endif

struct vector_tables;

/*
 * Of the starts in @mask (bit j: @p[@b + j]), drop those whose first bytes
 * begin no name, without a branch on each: most numbers in a log are no
 * SCSI address, and most words no device.
 */
static inline uint64_t prefix_filter(const struct da_rewriter *rw, const uint8_t *p, size_t b,
				     size_t n, uint64_t mask)
{
	for (uint64_t m = mask; m; m &= m - 1) {
		size_t j = __builtin_ctzll(m);
		uint32_t bit;
		bool keep;

		if (b + j + PREFIX_LEN > n)
			continue;
		bit = prefix_bit(rw, p + b + j);
		keep = (rw->prefix[bit / 64] >> (bit % 64) & 1) | !!(rw->cls[p[b + j]] & CLS_SHORT);
		mask &= ~((uint64_t)!keep << j);
	}
	return mask;
}

/*
 * Rewrite @n bytes at @buf, continuing the stream. Everything is written out
 * except, unless @final, an undecided name at the end: returns where it
 * starts (@n when there is none). Built twice: for AVX2 (@t set) and without.
 */
static inline __attribute__((always_inline)) size_t scan_blocks(struct da_rewriter *rw,
								const char *buf, size_t n,
								bool final,
								const struct vector_tables *t)
{
	const uint8_t *p = (const uint8_t *)buf;
	bool noleft = rw->prev_noleft, before = noleft;
	size_t i = 0, from = 0;

	for (size_t b = 0; b < n; b += 64) {
		size_t len = n - b < 64 ? n - b : 64;
		uint64_t mask;

		before = noleft;
#if defined(__x86_64__) && defined(__GNUC__)
		if (t && len == 64)
			mask = candidates_avx2(t, p + b, &noleft);
		else
#endif
			mask = candidates_scalar(rw, p + b, len, &noleft);
		mask = prefix_filter(rw, p, b, n, mask);
		for (; mask; mask &= mask - 1) {
			size_t at = b + __builtin_ctzll(mask);
			struct match m;
			int r;

			if (at < i)
				continue; /* inside a name just rewritten */
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

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) static size_t scan_avx2(struct da_rewriter *rw, const char *buf,
							size_t n, bool final)
{
	struct vector_tables t = {
		class_tables(rw->noleft_lo, rw->noleft_hi),
		class_tables(rw->start_lo, rw->start_hi),
		class_tables(rw->second_lo, rw->second_hi),
		rw->addr_run,
	};

	return scan_blocks(rw, buf, n, final, &t);
}
#endif

static size_t scan(struct da_rewriter *rw, const char *buf, size_t n, bool final)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (rw->vector)
		return scan_avx2(rw, buf, n, final);
#endif
	return scan_blocks(rw, buf, n, final, NULL);
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
	rw->tail = NULL;
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

static int membuf_write(void *userdata, const struct iovec *iov, int iovcnt)
{
	struct strbuf *sb = userdata;
	size_t len = 0;

	for (int i = 0; i < iovcnt; i++)
		len += iov[i].iov_len;
	if (strbuf_grow(sb, len) < 0)
		return -ENOMEM;
	for (int i = 0; i < iovcnt; i++)
		strbuf_add(sb, iov[i].iov_base, iov[i].iov_len);
	return 0;
}

DA_EXPORT int da_rewrite_buf(struct da_rewriter *rw, const void *buf, size_t len, char **ret_buf,
			     size_t *ret_len)
{
	da_rewrite_write_fn write = rw->write;
	void *userdata = rw->userdata;
	struct strbuf sb = STRBUF_INIT;
	size_t count = 0;
	int r;

	if (rw->inlen || rw->iovcnt)
		return -EBUSY;
	rw->write = membuf_write;
	rw->userdata = &sb;
	r = da_rewriter_feed(rw, buf, len);
	if (r >= 0)
		r = end_stream(rw, &count);
	else
		end_stream(rw, NULL);
	rw->write = write;
	rw->userdata = userdata;
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*ret_buf = strbuf_detach(&sb, ret_len);
	if (!*ret_buf)
		return -ENOMEM;
	return count > INT32_MAX ? INT32_MAX : (int)count;
}
