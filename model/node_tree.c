/*
 * node_tree.c - the order of the scheduler's node list: the node tree
 * (reference §1.4; S/internal/cache/node_tree.go).
 *
 * Nodes are grouped by zone key, zones kept in first-seen order and the
 * nodes of a zone in insertion (here: manifest) order; the list takes the
 * first node of every zone, then the second of every zone, and so on.
 * The snapshot's node list is built from it, so DefaultPreemption's
 * potential nodes (§3.2) and its candidate walk (§3.3) come in this order.
 */
#include "model.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../core/xalloc.h"

/* GetZoneKey's parts (§6): the beta label first, then the GA one. */
static const char *zone_part(const struct node *n, const char *beta,
			     const char *ga)
{
	const char *v = labels_get(&n->labels, beta);
	if (!v)
		v = labels_get(&n->labels, ga);
	return v ? v : "";
}

/* A node's zone key as its two parts; both empty is the one "" zone. */
struct zone_key {
	const char *region, *zone;
};

static struct zone_key zone_key_of(const struct node *n)
{
	return (struct zone_key){
		zone_part(n, "failure-domain.beta.kubernetes.io/region",
			  "topology.kubernetes.io/region"),
		zone_part(n, "failure-domain.beta.kubernetes.io/zone",
			  "topology.kubernetes.io/zone"),
	};
}

static bool same_zone(struct zone_key a, struct zone_key b)
{
	return !strcmp(a.region, b.region) && !strcmp(a.zone, b.zone);
}

/*
 * NodeTreeOrder == the nodes sorted by (rank, zone): a node's zone is
 * numbered by the first node of that zone (so zones compare in first-seen
 * order) and its rank is the number of earlier nodes in its zone - round
 * k of the round-robin is rank k.  Keys are distinct, so the order is
 * total.  Both numbers come from one sort of the nodes by (zone key,
 * index): in each run of equal zone keys the first is the zone's first
 * node and the position in the run is the rank.  O(n log n): pairwise
 * comparison of every two nodes was 1.25 billion at 50,000 nodes.
 */
struct tree_key {
	int rank, zone, node;
};

struct zone_entry {
	struct zone_key key;
	int node;
};

static int zone_cmp(const void *a, const void *b)
{
	const struct zone_entry *x = a, *y = b;
	int c = strcmp(x->key.region, y->key.region);
	if (!c)
		c = strcmp(x->key.zone, y->key.zone);
	if (c)
		return c;
	return (x->node > y->node) - (x->node < y->node);
}

static int key_cmp(const void *a, const void *b)
{
	const struct tree_key *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->zone > y->zone) - (x->zone < y->zone);
}

void model_node_tree_order(const struct cluster *c, int *out)
{
	assert(c && (out || c->n_nodes == 0));
	int n = c->n_nodes;
	if (n == 0)
		return;
	struct zone_entry *by_zone = xmalloc(sizeof *by_zone * (size_t)n);
	for (int i = 0; i < n; i++)
		by_zone[i] = (struct zone_entry){zone_key_of(&c->nodes[i]), i};
	qsort(by_zone, (size_t)n, sizeof *by_zone, zone_cmp);
	struct tree_key *keys = xmalloc(sizeof *keys * (size_t)n);
	for (int i = 0, first = 0; i < n; i++) {
		if (i > 0 && !same_zone(by_zone[i - 1].key, by_zone[i].key))
			first = i;
		/* by_zone[first] has the zone's smallest index */
		keys[i] = (struct tree_key){i - first, by_zone[first].node,
					    by_zone[i].node};
	}
	qsort(keys, (size_t)n, sizeof *keys, key_cmp);
	for (int i = 0; i < n; i++)
		out[i] = keys[i].node;
	free(by_zone);
	free(keys);
}
