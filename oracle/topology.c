/*
 * topology.c - topology keys as interned domains: for a label key, each
 * node's value as a dense domain id (reference §2.10, §2.11 topology
 * pairs).  Nodes never change, so a key's table is built once.
 */
#include "../core/grow.h"
#include "internal.h"

#include <assert.h>
#include <string.h>

static void topo_build(struct oracle *o, struct oracle_topo *t, const char *key)
{
	const struct cluster *c = o->cluster;
	struct oracle_strmap vals;
	oracle_strmap_init(&vals);
	t->key = key;
	t->hostname = strcmp(key, "kubernetes.io/hostname") == 0;
	t->dom = xmalloc(sizeof(int) * (size_t)(c->n_nodes + 1));
	t->value = xmalloc(sizeof(char *) * (size_t)(c->n_nodes + 1));
	t->n_dom = 0;
	t->empty_dom = -1;
	for (int n = 0; n < c->n_nodes; n++) {
		const char *v = labels_get(&c->nodes[n].labels, key);
		if (!v) {
			t->dom[n] = -1;
			continue;
		}
		int id = oracle_strmap_intern(&vals, v);
		if (id == t->n_dom)
			t->value[t->n_dom++] = v;
		if (!v[0])
			t->empty_dom = id;
		t->dom[n] = id;
	}
	oracle_strmap_release(&vals);
}

/* The key's slot in the recent-pointer cache. */
static struct oracle_topo_hit *recent_slot(struct oracle_data *d, const char *key)
{
	uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ULL;
	return &d->topo_recent[(h >> 32) & (ORACLE_TOPO_RECENT - 1)];
}

/* The table of key by content (interned key strings), built if new. */
static const struct oracle_topo *topo_find(struct oracle *o, const char *key)
{
	struct oracle_data *d = o->d;
	int id = oracle_strmap_find(&d->topo_ids, key);
	if (id >= 0)
		return d->topos[id];
	GROW(d->topos, d->n_topos + 1, d->cap_topos);
	/* each table is its own allocation: cycle state keeps pointers */
	struct oracle_topo *t = xcalloc(1, sizeof(*t));
	d->topos[d->n_topos] = t;
	topo_build(o, t, key);
	oracle_strmap_intern(&d->topo_ids, t->key);
	d->n_topos++;
	return t;
}

/* Every cycle asks for the same few keys (the same spec strings): the
 * pointer cache spares hashing and comparing them. */
const struct oracle_topo *oracle_topo_get(struct oracle *o, const char *key)
{
	assert(o && key);
	struct oracle_topo_hit *hit = recent_slot(o->d, key);
	if (hit->key != key) {
		hit->topo = topo_find(o, key);
		hit->key = key;
	}
	return hit->topo;
}
