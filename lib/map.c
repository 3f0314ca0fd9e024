// SPDX-License-Identifier: LGPL-2.1-or-later
/* The table joined with the devices present: alias -> device, device -> names. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hashmap.h"
#include "internal.h"

struct alias_match {
	enum da_alias_state state;
	struct da_device *dev;
	size_t nmatch;
};

struct dev_names {
	struct strv names;
	const struct da_alias **src;
};

struct da_map {
	const struct da_table *table;
	const struct da_devlist *list;
	struct alias_match *alias; /* by table index */
	struct dev_names *dev;	   /* by device list index */
};

DA_EXPORT void da_map_free(struct da_map *m)
{
	if (!m)
		return;
	for (size_t i = 0; m->dev && i < da_devlist_count(m->list); i++) {
		strv_free(&m->dev[i].names);
		free(m->dev[i].src);
	}
	free(m->dev);
	free(m->alias);
	free(m);
}

static int add_name(struct dev_names *dn, char *name, const struct da_alias *src)
{
	if (ARRAY_GROW(dn->src, dn->names.n) < 0) {
		free(name);
		return -ENOMEM;
	}
	dn->src[dn->names.n] = src;
	return strv_consume(&dn->names, name);
}

/* The names of @dev, a device of the map's list (found by its place there), else NULL. */
static struct dev_names *names_of(const struct da_map *m, const struct da_device *dev)
{
	size_t j = dev ? da_device_pos(dev) : SIZE_MAX;

	if (j >= da_devlist_count(m->list) || da_devlist_get(m->list, j) != dev)
		return NULL;
	return &m->dev[j];
}

/* A device carrying an identity value, in a list of those whose values share a key. */
struct id_node {
	struct da_device *dev;
	struct id_node *next;
};

/*
 * Which devices carry each alias's identity. A partition never matches a wwn
 * or serial. The devices' values are indexed by kind and key first, so a
 * table of thousands of aliases against thousands of disks stays linear.
 */
static int match_aliases(struct da_map *m)
{
	size_t na = da_table_count(m->table), nd = da_devlist_count(m->list), nv = 0;
	size_t nkind[_DA_ID_MAX] = {};
	struct hashmap index[_DA_ID_MAX];
	bool used[_DA_ID_MAX] = {};
	struct id_node *nodes;
	int r = 0;

	/* Only the kinds the table binds by are looked up: only they are indexed. */
	for (size_t i = 0; i < na; i++)
		used[da_alias_kind(da_table_get(m->table, i))] = true;
	for (size_t j = 0; j < nd; j++)
		for (int kind = 0; kind < _DA_ID_MAX; kind++)
			for (size_t i = 0;
			     used[kind] && da_device_identity(da_devlist_get(m->list, j), kind, i);
			     i++)
				nkind[kind]++;
	for (int kind = 0; kind < _DA_ID_MAX; kind++) {
		hashmap_init(&index[kind], true);
		nv += nkind[kind];
		if (r >= 0 && nkind[kind])
			r = hashmap_reserve(&index[kind], nkind[kind]);
	}
	nodes = r >= 0 ? calloc(nv + 1, sizeof(*nodes)) : NULL;
	if (!nodes) {
		for (int kind = 0; kind < _DA_ID_MAX; kind++)
			hashmap_free(&index[kind]);
		return -ENOMEM;
	}
	/* Last device first, each put at the head of its list: lists end up in device order. */
	nv = 0;
	for (size_t j = nd; r >= 0 && j-- > 0;) {
		struct da_device *d = da_devlist_get(m->list, j);

		for (int kind = 0; r >= 0 && kind < _DA_ID_MAX; kind++) {
			const char *v;

			if (!used[kind])
				continue;
			for (size_t i = 0; r >= 0 && (v = da_device_identity(d, kind, i)); i++) {
				const char *key = da_id_value_key(kind, v);
				struct id_node *n = &nodes[nv++];

				n->dev = d;
				n->next = hashmap_get(&index[kind], key);
				r = hashmap_put(&index[kind], key, n);
			}
		}
	}
	for (size_t i = 0; r >= 0 && i < na; i++) {
		const struct da_alias *a = da_table_get(m->table, i);
		enum da_id_kind kind = da_alias_kind(a);
		struct alias_match *am = &m->alias[i];
		const struct id_node *n;
		struct da_device *last = NULL;

		n = hashmap_get(&index[kind], da_id_value_key(kind, da_alias_value(a)));
		for (; n; n = n->next) {
			if (n->dev == last ||
			    !da_device_has_identity(n->dev, kind, da_alias_value(a)))
				continue;
			last = n->dev;
			if (am->nmatch++ == 0)
				am->dev = n->dev;
		}
		am->state = am->nmatch == 1   ? DA_ALIAS_PRESENT
			    : am->nmatch == 0 ? DA_ALIAS_MISSING
					      : DA_ALIAS_AMBIGUOUS;
		if (am->state != DA_ALIAS_PRESENT)
			am->dev = NULL;
	}
	for (int kind = 0; kind < _DA_ID_MAX; kind++)
		hashmap_free(&index[kind]);
	free(nodes);
	return r;
}

DA_EXPORT int da_map_new(const struct da_table *table, const struct da_devlist *list,
			 struct da_map **ret_map)
{
	size_t na = da_table_count(table), nd = da_devlist_count(list);
	struct da_map *m = calloc(1, sizeof(*m));
	int r = -ENOMEM;

	if (!m)
		return -ENOMEM;
	m->table = table;
	m->list = list;
	m->alias = calloc(na + 1, sizeof(*m->alias));
	m->dev = calloc(nd + 1, sizeof(*m->dev));
	if (!m->alias || !m->dev)
		goto fail;
	r = match_aliases(m);
	if (r < 0)
		goto fail;
	r = -ENOMEM;

	/* A device's own aliases first, in table order... */
	for (size_t i = 0; i < na; i++) {
		const struct da_alias *a = da_table_get(table, i);

		if (m->alias[i].state != DA_ALIAS_PRESENT)
			continue;
		r = add_name(names_of(m, m->alias[i].dev), strdup(da_alias_name(a)), a);
		if (r < 0)
			goto fail;
	}
	/* ...then, for a partition, the names its disk's aliases give it. */
	for (size_t j = 0; j < nd; j++) {
		struct da_device *d = da_devlist_get(list, j);
		struct dev_names *parent;

		if (!da_device_parent(d))
			continue;
		parent = names_of(m, da_device_parent(d));
		/* A list with a partition of the same kernel name as its disk is no machine's. */
		if (!parent || parent == &m->dev[j])
			continue;
		for (size_t k = 0; k < parent->names.n; k++) {
			r = add_name(&m->dev[j],
				     da_partition_name(parent->names.v[k], da_device_partno(d)),
				     parent->src[k]);
			if (r < 0)
				goto fail;
		}
	}
	*ret_map = m;
	return 0;
fail:
	da_map_free(m);
	return r;
}

const struct da_devlist *da_map_devlist(const struct da_map *m)
{
	return m->list;
}

DA_EXPORT enum da_alias_state da_map_alias_state(const struct da_map *m, size_t i,
						 struct da_device **ret_dev)
{
	if (i >= da_table_count(m->table))
		return DA_ALIAS_MISSING;
	if (m->alias[i].state == DA_ALIAS_PRESENT && ret_dev)
		*ret_dev = m->alias[i].dev;
	return m->alias[i].state;
}

DA_EXPORT size_t da_map_alias_matches(const struct da_map *m, size_t i)
{
	return i < da_table_count(m->table) ? m->alias[i].nmatch : 0;
}

DA_EXPORT const char *da_map_device_name(const struct da_map *m, const struct da_device *dev,
					 size_t i)
{
	const struct dev_names *dn = names_of(m, dev);

	return dn && i < dn->names.n ? dn->names.v[i] : NULL;
}

DA_EXPORT const struct da_alias *da_map_device_alias(const struct da_map *m,
						     const struct da_device *dev, size_t i)
{
	const struct dev_names *dn = names_of(m, dev);

	return dn && i < dn->names.n ? dn->src[i] : NULL;
}

DA_EXPORT const struct da_alias *da_map_find_alias(const struct da_map *m, const char *name,
						   unsigned int *ret_partno)
{
	const struct da_alias *a = da_table_find(m->table, name);
	unsigned int partno = 0;
	size_t baselen = a ? 0 : da_partition_base_len(name, strlen(name), &partno);

	/* disk1p2 is partition 2 of disk1 or of disk1p: a table binds at most one of them. */
	for (int k = 0; !a && baselen && k < 2; k++) {
		_cleanup_free_ char *base = NULL;

		if (k == 1 && !da_partition_twin_len(name, ++baselen))
			break;
		base = strndup(name, baselen);
		if (!base)
			return NULL;
		a = da_table_find(m->table, base);
	}
	if (!a)
		partno = 0;
	if (a && ret_partno)
		*ret_partno = partno;
	return a;
}

static struct da_device *find_partition(const struct da_devlist *list, const struct da_device *disk,
					unsigned int partno)
{
	for (size_t j = 0; j < da_devlist_count(list); j++) {
		struct da_device *d = da_devlist_get(list, j);

		if (da_device_parent(d) == disk && da_device_partno(d) == partno)
			return d;
	}
	return NULL;
}

static struct da_device *find_dm(const struct da_devlist *list, const char *name)
{
	for (size_t j = 0; j < da_devlist_count(list); j++)
		if (streq(da_device_dm_name(da_devlist_get(list, j)), name))
			return da_devlist_get(list, j);
	return NULL;
}

/* The device of alias @name (or its partition), with the reason in @diag when there is none. */
static int lookup_alias(const struct da_map *m, const char *arg, const char *name,
			struct da_diag *diag, struct da_device **ret_dev)
{
	unsigned int partno = 0;
	const struct da_alias *a = da_map_find_alias(m, name, &partno), *bad;
	const struct alias_match *am;
	struct da_device *d;

	if (!a && (bad = da_table_conflicting(m->table, name)))
		return da_diag_add(diag, NULL, 0, false,
				   "%s: alias '%s' (%s:%u) conflicts with another line and applies nowhere (see 'diskalias check')",
				   arg, name, da_alias_file(bad), da_alias_line(bad))
			       ?: -ENOENT;
	if (!a)
		return da_diag_add(diag, NULL, 0, false, "%s: no such device or alias", arg)
			       ?: -ENOENT;
	am = &m->alias[da_alias_index(a)];
	if (am->state == DA_ALIAS_MISSING)
		return da_diag_add(diag, NULL, 0, false,
				   "%s: alias '%s' (%s): no such disk present", arg,
				   da_alias_name(a), da_alias_identity(a))
			       ?: -ENODEV;
	if (am->state == DA_ALIAS_AMBIGUOUS)
		return da_diag_add(diag, NULL, 0, false,
				   "%s: alias '%s' (%s) matches %zu devices; refusing to guess",
				   arg, da_alias_name(a), da_alias_identity(a), am->nmatch)
			       ?: -ENOTUNIQ;
	d = am->dev;
	if (partno) {
		d = find_partition(m->list, am->dev, partno);
		if (!d)
			return da_diag_add(diag, NULL, 0, false, "%s: %s (%s) has no partition %u",
					   arg, da_alias_name(a), da_device_kname(am->dev), partno)
				       ?: -ENODEV;
	}
	*ret_dev = d;
	return 0;
}

DA_EXPORT int da_map_lookup(const struct da_map *m, const char *arg, struct da_diag *diag,
			    struct da_device **ret_dev)
{
	const char *name;
	unsigned int major, minor;
	struct da_device *d = NULL;
	char extra;

	name = da_dev_alias_link(arg);
	if (name)
		return lookup_alias(m, arg, name, diag, ret_dev);
	if (da_dev_disk_link(arg)) {
		d = da_devlist_find_link(m->list, arg);
		if (!d)
			return da_diag_add(diag, NULL, 0, false, "%s: no such link", arg)
				       ?: -ENOENT;
	} else if ((name = da_dev_mapper_name(arg))) {
		d = find_dm(m->list, name);
		if (!d)
			return da_diag_add(diag, NULL, 0, false, "%s: no such device-mapper device",
					   arg)
				       ?: -ENOENT;
	} else if ((name = da_dev_strip(arg))) {
		d = da_devlist_find_kname(m->list, name);
		if (!d)
			return da_diag_add(diag, NULL, 0, false, "%s: no such block device", arg)
				       ?: -ENOENT;
	} else if (sscanf(arg, "%u:%u%c", &major, &minor, &extra) == 2) {
		d = da_devlist_find_devnum(m->list, major, minor);
		if (!d)
			return da_diag_add(diag, NULL, 0, false,
					   "%s: no block device with that number", arg)
				       ?: -ENOENT;
	} else {
		d = da_devlist_find_kname(m->list, arg);
		if (!d)
			return lookup_alias(m, arg, arg, diag, ret_dev);
	}
	*ret_dev = d;
	return 0;
}
