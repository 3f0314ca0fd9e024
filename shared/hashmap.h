/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A string-keyed hash map with open addressing.
 *
 * Invariants: keys are not copied; the caller keeps every key alive and
 * unchanged while it is in the map. Values are opaque pointers the map never
 * frees. With fold set, keys compare ignoring ASCII case. Inserting an equal
 * key replaces the value. Lookups do no allocation.
 */
#ifndef DA_HASHMAP_H
#define DA_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>

struct hashmap_entry {
	const char *key;
	unsigned int keylen;
	unsigned int hash; /* of the key: compared before the key, kept on resize */
	void *value;
};

struct hashmap {
	struct hashmap_entry *v;
	size_t n, size;
	bool fold;
};

/* An empty map; fold: compare keys ignoring ASCII case. */
void hashmap_init(struct hashmap *m, bool fold);
/* Free the map's storage (not keys or values). */
void hashmap_free(struct hashmap *m);
/* Make room for @n keys without growing again; returns 0 or -ENOMEM. */
int hashmap_reserve(struct hashmap *m, size_t n);
/* Insert or replace; returns 0 or -ENOMEM. */
int hashmap_put(struct hashmap *m, const char *key, void *value);
int hashmap_putn(struct hashmap *m, const char *key, size_t keylen, void *value);
/* The value stored under @key, or NULL. */
void *hashmap_get(const struct hashmap *m, const char *key);
void *hashmap_getn(const struct hashmap *m, const char *key, size_t keylen);

/* The hash the map keeps of a key (folded to lower case with @fold). */
unsigned int hashmap_hash(const char *key, size_t len, bool fold);

#endif
