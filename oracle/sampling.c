/*
 * sampling.c - which nodes a cycle examines (reference §1.4): the node
 * tree order (zones round-robin), numFeasibleNodesToFind with the
 * adaptive percentageOfNodesToScore, and the seeded random source used
 * for selectHost ties.
 */
#include "internal.h"
#include "../core/splitmix.h"

#include <assert.h>
#include <string.h>

/* GetZoneKey: region + ":\0:" + zone, beta labels first; "" when both
 * are empty.  Written with a separator no label value can contain. */
static const char *zone_key(struct arena *a, const struct node *n)
{
	const char *zone = labels_get(&n->labels, "failure-domain.beta.kubernetes.io/zone");
	if (!zone)
		zone = labels_get(&n->labels, "topology.kubernetes.io/zone");
	const char *region = labels_get(&n->labels, "failure-domain.beta.kubernetes.io/region");
	if (!region)
		region = labels_get(&n->labels, "topology.kubernetes.io/region");
	if ((!zone || !*zone) && (!region || !*region))
		return "";
	/* region ":\x01:" zone, concatenated without printf (once per node
	 * of every oracle) */
	region = region ? region : "";
	zone = zone ? zone : "";
	size_t lr = strlen(region), lz = strlen(zone);
	char *s = arena_alloc(a, lr + lz + 4);
	memcpy(s, region, lr);
	memcpy(s + lr, ":\x01:", 3);
	memcpy(s + lr + 3, zone, lz + 1);
	return s;
}

/* nodeTree.list(): zones in first-seen order, nodes of a zone in
 * insertion order, emitted round-robin across zones. */
void oracle_node_order(struct oracle *o)
{
	const struct cluster *c = o->cluster;
	struct oracle_data *d = o->d;
	struct arena tmp;
	arena_init(&tmp);
	struct oracle_strmap zones;
	oracle_strmap_init(&zones);
	int *zone_of = arena_array(&tmp, (size_t)c->n_nodes + 1, sizeof(int));
	for (int n = 0; n < c->n_nodes; n++)
		zone_of[n] = oracle_strmap_intern(&zones, zone_key(&tmp, &c->nodes[n]));
	int nz = zones.n;
	int *count = arena_array(&tmp, (size_t)nz + 1, sizeof(int));
	int *start = arena_array(&tmp, (size_t)nz + 1, sizeof(int));
	int *members = arena_array(&tmp, (size_t)c->n_nodes + 1, sizeof(int));
	for (int n = 0; n < c->n_nodes; n++)
		count[zone_of[n]]++;
	for (int z = 1; z < nz; z++)
		start[z] = start[z - 1] + count[z - 1];
	int *fill = arena_array(&tmp, (size_t)nz + 1, sizeof(int));
	for (int n = 0; n < c->n_nodes; n++) {
		int z = zone_of[n];
		members[start[z] + fill[z]++] = n;
	}
	int k = 0;
	for (int round = 0; k < c->n_nodes; round++)
		for (int z = 0; z < nz; z++)
			if (round < count[z])
				d->order[k++] = members[start[z] + round];
	oracle_strmap_release(&zones);
	arena_release(&tmp);
}

/* numFeasibleNodesToFind (int32 arithmetic as kube). */
int oracle_num_to_find(const struct cluster *c, const struct sched_profile *p,
		       int n)
{
	const int min_feasible = 100;
	if (n < min_feasible)
		return n;
	int32_t pct = p && p->percentage_set
		? p->percentage_of_nodes_to_score
		: c->config.percentage_of_nodes_to_score;
	if (pct == 0) {
		pct = 50 - n / 125;
		if (pct < 5)
			pct = 5;
	}
	int64_t k = (int64_t)n * pct / 100;
	if (k < min_feasible)
		return min_feasible;
	return (int)k;
}

/* splitmix64: small, seedable, good enough for tie-breaking. */
uint64_t oracle_rand(struct oracle *o)
{
	return splitmix64_next(&o->seed);
}
