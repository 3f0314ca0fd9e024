// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hashmap.h"

static inline unsigned char fold_char(unsigned char c, bool fold)
{
	return fold && c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

unsigned int hashmap_hash(const char *key, size_t len, bool fold)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= fold_char(key[i], fold);
		h *= 0x100000001b3ULL;
	}
	return h ^ (h >> 29);
}

static bool key_equal(const struct hashmap_entry *e, const char *key, size_t len, unsigned int h,
		      bool fold)
{
	if (e->hash != h || e->keylen != len)
		return false;
	return fold ? strncasecmp(e->key, key, len) == 0 : memcmp(e->key, key, len) == 0;
}

void hashmap_init(struct hashmap *m, bool fold)
{
	memset(m, 0, sizeof(*m));
	m->fold = fold;
}

void hashmap_free(struct hashmap *m)
{
	free(m->v);
	m->v = NULL;
	m->n = m->size = 0;
}

static struct hashmap_entry *find_slot(struct hashmap_entry *v, size_t size, const char *key,
				       size_t len, unsigned int h, bool fold)
{
	size_t i = h & (size - 1);

	while (v[i].key && !key_equal(&v[i], key, len, h, fold))
		i = (i + 1) & (size - 1);
	return &v[i];
}

/*
 * Keep the load at most 3/4 so probe runs stay short; lower would spread a
 * large map (the table's names) over more cache and pages than it needs.
 */
static bool over_load(size_t n, size_t size)
{
	return n * 4 > size * 3;
}

/* Move every entry to a new array of @size slots (a power of two). */
static int resize(struct hashmap *m, size_t size)
{
	struct hashmap_entry *v = calloc(size, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < m->size; i++)
		if (m->v[i].key)
			*find_slot(v, size, m->v[i].key, m->v[i].keylen, m->v[i].hash, m->fold) =
				m->v[i];
	free(m->v);
	m->v = v;
	m->size = size;
	return 0;
}

static int grow(struct hashmap *m)
{
	return resize(m, m->size ? m->size * 2 : 16);
}

int hashmap_reserve(struct hashmap *m, size_t n)
{
	size_t size = m->size ? m->size : 16;

	while (over_load(n, size))
		size *= 2;
	return size > m->size ? resize(m, size) : 0;
}

int hashmap_putn(struct hashmap *m, const char *key, size_t keylen, void *value)
{
	unsigned int h = hashmap_hash(key, keylen, m->fold);
	struct hashmap_entry *e;

	if (keylen > UINT32_MAX)
		return -EINVAL;
	if (over_load(m->n + 1, m->size) && grow(m) < 0)
		return -ENOMEM;
	e = find_slot(m->v, m->size, key, keylen, h, m->fold);
	if (!e->key)
		m->n++;
	e->key = key;
	e->keylen = keylen;
	e->hash = h;
	e->value = value;
	return 0;
}

int hashmap_put(struct hashmap *m, const char *key, void *value)
{
	return hashmap_putn(m, key, strlen(key), value);
}

void *hashmap_getn(const struct hashmap *m, const char *key, size_t keylen)
{
	if (!m->size || keylen > UINT32_MAX)
		return NULL;
	return find_slot(m->v, m->size, key, keylen, hashmap_hash(key, keylen, m->fold), m->fold)
		->value;
}

void *hashmap_get(const struct hashmap *m, const char *key)
{
	return hashmap_getn(m, key, strlen(key));
}
