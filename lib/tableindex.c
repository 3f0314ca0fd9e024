// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * An index of the table by identity, for callers that look up one device
 * in a table of thousands: the udev helper runs once per block device at
 * every boot, and parsing 10,000 lines each time costs more than all the
 * rest of the call.
 *
 * The index is a file under run/ (a cache: lost at reboot, rebuilt by the
 * first call that finds it missing or stale) holding each alias of the
 * table that binds (bad and conflicting lines left out): its name and
 * identity tokens as the table has them, chained in hash buckets by the
 * identity's key. A lookup reads
 * the lines whose key hashes like one of the devices' identities and parses
 * just those as a table, so every rule of the table and of matching stays
 * in table.c and map.c. The index is trusted only when it belongs to the
 * caller, names the same table file (path, inode, size, times) and is
 * consistent throughout; anything else and the table is parsed whole.
 * When the table itself cannot be used (as root, one others could have
 * written), the index of the last table that could be is what names the
 * devices: never from an untrusted table, never silently nothing.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "hashmap.h"
#include "internal.h"

/* The format's version is in its magic: a new format does not read an old index. */
static const char index_magic[8] = "DAIDX03";

/* In host byte order: the index never leaves the machine that made it. */
struct index_header {
	char magic[8];
	uint64_t dev, ino, size;
	int64_t mtime_sec, mtime_nsec, ctime_sec, ctime_nsec;
	uint64_t dropins;    /* da_table_dropins_stamp() */
	uint32_t path_len;   /* the table's path follows, padded to 4 bytes */
	uint32_t hash_check; /* key_hash() of a fixed identity: the same hash function */
	/* Up to here: which table, as stamp() writes it; no padding before this point. */
	uint32_t nbuckets; /* a power of two; then 1 + first entry of each, 0 for none */
	uint32_t nentries; /* then the entries, in table order */
	uint32_t blob_len; /* then the tokens' bytes */
};

_Static_assert(offsetof(struct index_header, nbuckets) == 8 + 8 * 8 + 2 * 4,
	       "the table's stamp is compared with memcmp(): it must hold no padding");

struct index_entry {
	uint32_t hash; /* of the identity's key, see key_hash() */
	uint32_t next; /* 1 + the next entry in the bucket, 0 at the end */
	uint32_t kind;
	uint32_t off; /* the name token's bytes in the blob; the identity's follow */
	uint32_t name_len, id_len;
};

/* Larger tables are parsed each time (and the table refuses 1 GiB anyway). */
#define INDEX_MAX_ENTRIES (1U << 24)

struct index_view {
	const struct index_header *h;
	const uint32_t *buckets;
	const struct index_entry *entries;
	const char *blob;
};

static unsigned int key_hash(enum da_id_kind kind, const char *value)
{
	const char *key = da_id_value_key(kind, value);

	return hashmap_hash(key, strlen(key), true) ^ (kind * 0x9e3779b9U);
}

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static void stamp(struct index_header *h, const char *path, const struct stat *st, uint64_t dropins)
{
	memcpy(h->magic, index_magic, sizeof(h->magic));
	h->path_len = strlen(path);
	h->hash_check = key_hash(DA_ID_SERIAL, "diskalias");
	if (!st)
		return;
	h->dev = st->st_dev;
	h->ino = st->st_ino;
	h->size = st->st_size;
	h->mtime_sec = st->st_mtim.tv_sec;
	h->mtime_nsec = st->st_mtim.tv_nsec;
	h->ctime_sec = st->st_ctim.tv_sec;
	h->ctime_nsec = st->st_ctim.tv_nsec;
	h->dropins = dropins;
}

/*
 * The index in @map (@len bytes) as a view, when it is one of table @path
 * as @st describes; with @st NULL, one of table @path as it was whenever
 * the index was made (the last good copy of a table that cannot be used now).
 * Only the header and the sizes are checked here: each bucket and entry is
 * checked when a lookup reaches it, so that a lookup costs the same with
 * 10 aliases as with 10,000 (index_mark(), index_lookup()).
 */
static bool index_view(const char *map, size_t len, const char *path, const struct stat *st,
		       uint64_t dropins, struct index_view *v)
{
	struct index_header want = {}, h;
	uint64_t need;

	if (len < sizeof(h))
		return false;
	memcpy(&h, map, sizeof(h));
	stamp(&want, path, st, dropins);
	if (!st) {
		/* Any table's stamp, but the same format, path and hash function. */
		memcpy(&want.dev, &h.dev,
		       offsetof(struct index_header, path_len) -
			       offsetof(struct index_header, dev));
	}
	if (memcmp(&h, &want, offsetof(struct index_header, nbuckets)))
		return false;
	if (!h.nbuckets || (h.nbuckets & (h.nbuckets - 1)) || h.nbuckets > 2 * INDEX_MAX_ENTRIES ||
	    h.nentries > INDEX_MAX_ENTRIES)
		return false;
	need = sizeof(h) + pad4(h.path_len) + 4ULL * h.nbuckets +
	       (uint64_t)h.nentries * sizeof(struct index_entry) + h.blob_len;
	if (need != len || memcmp(map + sizeof(h), path, h.path_len))
		return false;
	v->h = (const struct index_header *)map;
	v->buckets = (const uint32_t *)(map + sizeof(h) + pad4(h.path_len));
	v->entries = (const struct index_entry *)(v->buckets + h.nbuckets);
	v->blob = (const char *)(v->entries + h.nentries);
	return true;
}

struct hits {
	uint32_t *v; /* entry numbers, 1-based */
	size_t n, alloc;
};

/*
 * Add to @hits the entries whose identity hashes like @value of @kind.
 * Returns 0, -EINVAL when the chain is spoiled, or -ENOMEM.
 */
static int index_mark(const struct index_view *v, enum da_id_kind kind, const char *value,
		      struct hits *hits)
{
	unsigned int h = key_hash(kind, value);
	uint32_t n = v->h->nentries, i = v->buckets[h & (v->h->nbuckets - 1)];

	if (i > n)
		return -EINVAL;
	for (; i; i = v->entries[i - 1].next) {
		const struct index_entry *e = &v->entries[i - 1];

		/* A chain only goes forward in the table, so it ends. */
		if ((e->next && e->next <= i) || e->next > n)
			return -EINVAL;
		if (e->hash != h || e->kind != (uint32_t)kind)
			continue;
		if (hits->n == hits->alloc) {
			size_t alloc = hits->alloc ? 2 * hits->alloc : 16;
			uint32_t *grown = reallocarray(hits->v, alloc, sizeof(*grown));

			if (!grown)
				return -ENOMEM;
			hits->v = grown;
			hits->alloc = alloc;
		}
		hits->v[hits->n++] = i;
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * The table of the lines of @v the devices of @list may match, in table
 * order. Returns 1, 0 when the lines do not parse, or -ENOMEM.
 */
static int index_lookup(const struct index_view *v, const char *path, const struct da_devlist *list,
			struct da_table **ret_table)
{
	struct hits hits = {};
	struct strbuf text = STRBUF_INIT;
	struct da_table *t = NULL;
	int r = 0;

	for (size_t j = 0; r == 0 && j < da_devlist_count(list); j++) {
		const struct da_device *d = da_devlist_get(list, j);

		for (int kind = 0; r == 0 && kind < _DA_ID_MAX; kind++) {
			const char *value;

			for (size_t i = 0; r == 0 && (value = da_device_identity(d, kind, i)); i++)
				r = index_mark(v, kind, value, &hits);
		}
	}
	/* The lines in table order, each once. */
	if (hits.n)
		qsort(hits.v, hits.n, sizeof(*hits.v), cmp_u32);
	for (size_t k = 0; r == 0 && k < hits.n; k++) {
		const struct index_entry *e = &v->entries[hits.v[k] - 1];

		if (k > 0 && hits.v[k] == hits.v[k - 1])
			continue;
		if ((uint64_t)e->off + e->name_len + e->id_len > v->h->blob_len)
			r = -EINVAL;
		else if (strbuf_addf(&text, "alias %.*s %.*s\n", (int)e->name_len, v->blob + e->off,
				     (int)e->id_len, v->blob + e->off + e->name_len) < 0)
			r = -ENOMEM;
	}
	free(hits.v);
	if (r < 0) {
		strbuf_release(&text);
		return r == -EINVAL ? 0 : r;
	}
	/* The index's lines parsed cleanly once already: if they do not now, the index is spoiled. */
	r = da_table_parse(path, text.buf ? text.buf : "", text.len, NULL, &t);
	strbuf_release(&text);
	if (r < 0)
		return -ENOMEM;
	if (da_table_problems(t)) {
		da_table_free(t);
		return 0;
	}
	*ret_table = t;
	return 1;
}

/*
 * Look the devices of @list up in the index of @ctx, if it is one of table
 * @path as @st describes (@st NULL: as it was when the index was made).
 * Returns 1 when the index answered, 0 when it cannot (missing, stale, not
 * the caller's, in a directory others can write, spoiled), or -ENOMEM.
 */
static int index_read(const struct da_ctx *ctx, const char *path, const struct stat *st,
		      uint64_t dropins, const struct da_devlist *list, struct da_table **ret_table)
{
	_cleanup_free_ char *dir = NULL, *index_path = NULL;
	struct ctx_batch *batch = da_ctx_batch(ctx);
	struct index_view v;
	struct stat ist;
	void *map;
	int dfd, fd, r = 0;

	/* In a batch, the index found good last time, if it still is for this table. */
	if (batch && batch->index_map &&
	    index_view(batch->index_map, batch->index_len, path, st, dropins, &v))
		return index_lookup(&v, path, list, ret_table);
	dir = da_ctx_path(ctx, DA_FILE_RUN_DIR);
	index_path = da_ctx_path(ctx, DA_FILE_TABLE_INDEX);
	if (!dir || !index_path)
		return -ENOMEM;
	dfd = open_private_dir(dir, false);
	if (dfd < 0)
		return 0;
	fd = openat(dfd, path_basename(index_path), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	close(dfd);
	if (fd < 0)
		return 0;
	if (fstat(fd, &ist) < 0 || !S_ISREG(ist.st_mode) || ist.st_uid != geteuid() ||
	    (ist.st_mode & (S_IWGRP | S_IWOTH)) ||
	    ist.st_size < (off_t)sizeof(struct index_header) || ist.st_size >= 1L << 30) {
		close(fd);
		return 0;
	}
	map = mmap(NULL, ist.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return 0;
	if (index_view(map, ist.st_size, path, st, dropins, &v)) {
		r = index_lookup(&v, path, list, ret_table);
		if (batch) {
			if (batch->index_map)
				munmap(batch->index_map, batch->index_len);
			batch->index_map = map;
			batch->index_len = ist.st_size;
			return r;
		}
	}
	munmap(map, ist.st_size);
	return r;
}

/* The index of table @t (file @path as @st describes) in one buffer, its length in *ret_len. */
static char *index_build(const struct da_table *t, const char *path, const struct stat *st,
			 uint64_t dropins, size_t *ret_len)
{
	size_t n = da_table_count(t), nb = 1, blob = 0, len;
	struct index_header h = {};
	struct index_entry *e;
	uint32_t *buckets;
	char *buf, *b;

	if (n > INDEX_MAX_ENTRIES)
		return NULL;
	while (nb < n + n / 3)
		nb *= 2;
	for (size_t i = 0; i < n; i++) {
		const char *name, *id;
		size_t nlen, idlen;

		da_alias_raw(t, da_table_get(t, i), &name, &nlen, &id, &idlen);
		blob += nlen + idlen;
	}
	stamp(&h, path, st, dropins);
	h.nbuckets = nb;
	h.nentries = n;
	h.blob_len = blob;
	if (blob >= 1U << 30)
		return NULL;
	len = sizeof(h) + pad4(h.path_len) + 4 * nb + n * sizeof(*e) + blob;
	buf = calloc(1, len);
	if (!buf)
		return NULL;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), path, h.path_len);
	buckets = (uint32_t *)(buf + sizeof(h) + pad4(h.path_len));
	e = (struct index_entry *)(buckets + nb);
	b = (char *)(e + n);
	blob = 0;
	for (size_t i = 0; i < n; i++) {
		const struct da_alias *a = da_table_get(t, i);
		const char *name, *id;
		size_t nlen, idlen;

		da_alias_raw(t, a, &name, &nlen, &id, &idlen);
		e[i].hash = key_hash(da_alias_kind(a), da_alias_value(a));
		e[i].kind = da_alias_kind(a);
		e[i].off = blob;
		e[i].name_len = nlen;
		e[i].id_len = idlen;
		memcpy(b + blob, name, nlen);
		memcpy(b + blob + nlen, id, idlen);
		blob += nlen + idlen;
	}
	/* Last alias first, each at the head of its bucket: chains go forward in the table. */
	for (size_t i = n; i-- > 0;) {
		uint32_t slot = e[i].hash & (nb - 1);

		e[i].next = buckets[slot];
		buckets[slot] = i + 1;
	}
	*ret_len = len;
	return buf;
}

/* Replace the index of @ctx with one of @t; best effort, as a cache is. */
static void index_write(const struct da_ctx *ctx, const struct da_table *t, const char *path,
			const struct stat *st, uint64_t dropins)
{
	_cleanup_free_ char *dir = da_ctx_path(ctx, DA_FILE_RUN_DIR);
	_cleanup_free_ char *index_path = da_ctx_path(ctx, DA_FILE_TABLE_INDEX);
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int dfd;

	if (!dir || !index_path)
		return;
	/* Where run/ cannot be written, or is not root's own, give up before building anything. */
	dfd = open_private_dir(dir, true);
	if (dfd < 0)
		return;
	buf = index_build(t, path, st, dropins, &len);
	if (buf)
		replace_file_at(dfd, path_basename(index_path), buf, len, 0644, -1, -1, false);
	close(dfd);
	/* A new index is a new table: names told from the old one before the coldplug go. */
	da_udev_boot_forget(ctx);
}

DA_EXPORT int da_table_load_indexed(const struct da_ctx *ctx, const char *path,
				    const struct da_devlist *list, unsigned int flags,
				    struct da_diag *diag, struct da_table **ret_table)
{
	_cleanup_free_ char *renamed_path = da_ctx_path(ctx, DA_FILE_RENAMED);
	struct ctx_batch *batch = da_ctx_batch(ctx);
	struct da_diag why = {};
	struct stat st, rst;
	uint64_t dropins;
	int fd, r;

	if (!renamed_path)
		return -ENOMEM;
	/*
	 * In a batch the table is as the first device found it (nothing may
	 * replace it meanwhile): its index answers without the table, its
	 * drop-ins and the renamed file looked at again for each device.
	 */
	if (batch && batch->table_path && streq(batch->table_path, path) && batch->index_map) {
		r = index_read(ctx, path, &batch->table_st, batch->table_dropins, list, ret_table);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	r = da_table_open(path, &fd, &st, &why);
	if (r < 0) {
		/*
		 * A table that cannot be used now (not root's, writable by others,
		 * unreadable, not a file): the names of the last table that could
		 * be are better than none, and it is said so.
		 */
		int q = r == -ENOMEM ? 0 : index_read(ctx, path, NULL, 0, list, ret_table);

		for (size_t i = 0; i < why.n; i++)
			da_diag_add(diag, why.v[i].file, why.v[i].line, false, "%s%s", why.v[i].msg,
				    q > 0 ? "; using its last good copy, kept in run/diskalias"
					  : "");
		da_diag_clear(&why);
		return q > 0 ? 0 : q < 0 ? q : r;
	}
	if (fd < 0) /* no table: nothing to index */
		return da_table_load_opened(path, fd, &st, diag, ret_table);
	/*
	 * The drop-ins are stamped before they are read: one changed in between
	 * leaves an index with the old stamp, which the next call passes over.
	 */
	r = da_table_dropins_stamp(path, &dropins);
	/* Old names kept by a forced rename are checked against the whole table (renamed.c). */
	if (r == 0 && !(stat(renamed_path, &rst) == 0 && rst.st_size > 0)) {
		r = index_read(ctx, path, &st, dropins, list, ret_table);
		if (r > 0 && batch && (!batch->table_path || !streq(batch->table_path, path))) {
			free(batch->table_path);
			batch->table_path = strdup(path);
			batch->table_st = st;
			batch->table_dropins = dropins;
		}
	}
	if (r == 0) {
		r = da_table_load_opened(path, fd, &st, diag, ret_table);
		if (r == 0 && (flags & DA_INDEX_WRITE))
			index_write(ctx, *ret_table, path, &st, dropins);
	}
	close(fd);
	return r < 0 ? r : 0;
}
