/*
 * score_selector_spread.c - the SelectorSpread score of kube-scheduler
 * v1.28 (removed in v1.29, off in kso's default profile): spread the pods
 * of the same Services / RC / RS / SS over nodes and zones (reference §6;
 * the worked tables of shared/seeds/001).
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "default_selector.h"
#include "match.h"
#include "plugin.h"
#include "../core/xalloc.h"

#define LABEL_BETA_ZONE "failure-domain.beta.kubernetes.io/zone"
#define LABEL_ZONE "topology.kubernetes.io/zone"
#define LABEL_BETA_REGION "failure-domain.beta.kubernetes.io/region"
#define LABEL_REGION "topology.kubernetes.io/region"

/* zoneWeighting: a Go typed constant, so 2/3 rounded to float64 once. */
static const double zone_weighting = 2.0 / 3.0;

/* GetZoneKey as (region, zone): beta labels win when present (even if
 * empty); the key is "" (has_zone false) when both values are empty. */
struct zone_key {
	const char *region;
	const char *zone;
	bool has_zone;
};

static struct zone_key zone_key_of(const struct node *n)
{
	struct zone_key k;
	k.zone = labels_get(&n->labels, LABEL_BETA_ZONE);
	if (!k.zone)
		k.zone = labels_get(&n->labels, LABEL_ZONE);
	k.region = labels_get(&n->labels, LABEL_BETA_REGION);
	if (!k.region)
		k.region = labels_get(&n->labels, LABEL_REGION);
	if (!k.zone)
		k.zone = "";
	if (!k.region)
		k.region = "";
	k.has_zone = k.region[0] || k.zone[0];
	return k;
}

static bool zone_key_eq(const struct zone_key *a, const struct zone_key *b)
{
	return strcmp(a->region, b->region) == 0 && strcmp(a->zone, b->zone) == 0;
}

/* Spec: Score(N) == IF Empty(sel) THEN 0 ELSE
 *   |{ Q : BoundTo(Q, N) /\ Q.ns = P.ns /\ Q.deletionTimestamp = nil
 *          /\ Matches(sel, Q.labels) }| */
static void ss_counts(const struct model_cycle *cy,
		      const struct model_selector *sel,
		      const int *feasible, int n, int64_t *scores)
{
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	int64_t *per_node = xcalloc(c->n_nodes > 0 ? (size_t)c->n_nodes : 1,
				   sizeof *per_node);
	if (!model_selector_is_empty(sel))
		for (int q = 0; q < c->n_pods; q++) {
			int node = cy->view->pod_node[q];
			if (node < 0 || q == cy->pod)
				continue;
			const struct pod *e = &c->pods[q];
			if (strcmp(e->ns, p->ns) != 0 || e->deletion.has)
				continue;
			if (model_selector_matches(sel, &e->labels))
				per_node[node]++;
		}
	for (int f = 0; f < n; f++)
		scores[f] = per_node[feasible[f]];
	free(per_node);
}

/* Σ of the counts of the feasible nodes in zone z. */
static int64_t zone_count(const struct cluster *c, const int *feasible, int n,
			  const int64_t *counts, const struct zone_key *z)
{
	int64_t sum = 0;
	for (int f = 0; f < n; f++) {
		struct zone_key k = zone_key_of(&c->nodes[feasible[f]]);
		if (k.has_zone && zone_key_eq(&k, z))
			sum += counts[f];
	}
	return sum;
}

/*
 * Spec (NormalizeScore over the feasible nodes, s_i the counts):
 *   maxNode == MAX(0, s_i);  zoneCount[z] == SUM s_i of nodes in zone z # "";
 *   maxZone == MAX(0, zoneCount[z])
 *   f  == IF maxNode = 0 THEN 100.0 ELSE 100.0 * (float(maxNode - s_i) / float(maxNode))
 *   if some feasible node has a zone and zone(i) # "":
 *     zs == IF maxZone = 0 THEN 100.0 ELSE 100.0 * (float(maxZone - zoneCount[zone(i)]) / float(maxZone))
 *     f  == f * (1.0 - 2/3) + 2/3 * zs
 *   s_i == trunc(f)
 * The two products are stored before the sum: Go on amd64 does not fuse
 * them into a multiply-add, and C must not either.
 */
static void ss_normalize(const struct cluster *c, const int *feasible, int n,
			 int64_t *scores)
{
	int64_t *zone_counts = xcalloc(n > 0 ? (size_t)n : 1, sizeof *zone_counts);
	int64_t max_node = 0, max_zone = 0;
	bool have_zones = false;
	for (int f = 0; f < n; f++) {
		if (scores[f] > max_node)
			max_node = scores[f];
		struct zone_key k = zone_key_of(&c->nodes[feasible[f]]);
		if (!k.has_zone)
			continue;
		have_zones = true;
		zone_counts[f] = zone_count(c, feasible, n, scores, &k);
		if (zone_counts[f] > max_zone)
			max_zone = zone_counts[f];
	}
	for (int f = 0; f < n; f++) {
		double fs = 100.0;
		if (max_node > 0)
			fs = 100.0 * ((double)(max_node - scores[f]) / (double)max_node);
		struct zone_key k = zone_key_of(&c->nodes[feasible[f]]);
		if (have_zones && k.has_zone) {
			double zs = 100.0;
			if (max_zone > 0)
				zs = 100.0 * ((double)(max_zone - zone_counts[f]) /
					      (double)max_zone);
			double node_part = fs * (1.0 - zone_weighting);
			double zone_part = zone_weighting * zs;
			fs = node_part + zone_part;
		}
		scores[f] = (int64_t)fs;
	}
	free(zone_counts);
}

/*
 * Not run (Skip) unless the profile enables SelectorSpread at Score.  A pod
 * with topologySpreadConstraints gets 0 everywhere (v1.28's PreScore
 * succeeds and Score/NormalizeScore do nothing - not a Skip).
 */
enum sched_code model_score_selector_spread(const struct model_cycle *cy,
					    const int *feasible, int n,
					    int64_t *scores,
					    struct sched_status *err)
{
	assert(cy && (n == 0 || (feasible && scores)));
	(void)err;
	for (int f = 0; f < n; f++)
		scores[f] = 0;
	if (!cy->profile->score[PLUGIN_SELECTOR_SPREAD])
		return SCHED_SKIP;
	const struct pod *p = &cy->cluster->pods[cy->pod];
	if (p->n_spread > 0)
		return SCHED_SUCCESS;
	struct model_selector sel;
	model_default_selector(cy->cluster, cy->pod, &sel);
	ss_counts(cy, &sel, feasible, n, scores);
	model_selector_release(&sel);
	ss_normalize(cy->cluster, feasible, n, scores);
	return SCHED_SUCCESS;
}
