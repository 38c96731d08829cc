/*
 * filter_inter_pod_affinity.c - the InterPodAffinity filter (reference
 * §2.10 "PreFilter" and "Filter"; quirks §7 via core/quirks.h).
 *
 * kube's three PreFilter count maps (existingAnti, aff, anti) are sums of
 * per-pod contributions that AddPod/RemovePod patch exactly, so counting
 * on cy->view gives the same maps; only the PreFilter Skip is decided on
 * cy->base, as kube decides it before any nominated pod is added.
 */
#include <assert.h>
#include <string.h>

#include "affinity_terms.h"
#include "cycle_state.h"
#include "match.h"
#include "plugin.h"
#include "../core/quirks.h"

#define REASON_AFFINITY "node(s) didn't match pod affinity rules"
#define REASON_ANTI "node(s) didn't match pod anti-affinity rules"
#define REASON_EXISTING_ANTI "node(s) didn't satisfy existing pods anti-affinity rules"

/* The node an existing pod q sits on in s, or NULL (pending, gone, on an
 * unknown node, or the incoming pod itself, which kube never has placed). */
static const struct node *placed_on(const struct model_cycle *cy,
				    const struct snapshot *s, int q)
{
	if (q == cy->pod || s->pod_node[q] < 0)
		return NULL;
	return &cy->cluster->nodes[s->pod_node[q]];
}

/* Node a's value vb of key shares the domain of vb, b's value of key:
 * both carry it, with equal values.  (A node is in its own domain when
 * it carries the key: no second lookup or compare for a == b.) */
static bool same_domain_value(const struct node *a, const struct node *b,
			      const char *vb, const char *key)
{
	if (!vb)
		return false;
	if (a == b)
		return true;
	const char *va = labels_get(&a->labels, key);
	return va && strcmp(va, vb) == 0;
}

/* Two nodes share the domain of key: both carry it, with equal values. */
static bool same_domain(const struct node *a, const struct node *b,
			const char *key)
{
	return same_domain_value(a, b, labels_get(&b->labels, key), key);
}

/*
 * Spec: ExistingAnti(s, P, N) ==   \* N = NULL: "is the map non-empty"
 *   \E E, M : BoundTo(E, M, s) /\ \E t \in E.requiredAntiAffinity :
 *       Matches(t, P, NL(P)) /\ t.key \in DOMAIN M.labels
 *       /\ (N = NULL \/ N[t.key] = M[t.key])
 */
static bool existing_anti(const struct model_cycle *cy,
			  const struct snapshot *s, const struct node *n)
{
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	/* only pods with anti-affinity terms can count: their list when the
	 * cluster has it, else every pod */
	bool listed = c->anti_pods_of == c->n_pods;
	int n_candidates = listed ? c->n_anti_pods : c->n_pods;
	for (int i = 0; i < n_candidates; i++) {
		int q = listed ? c->anti_pods[i] : i;
		const struct node *m = placed_on(cy, s, q);
		if (!m)
			continue;
		const struct pod *e = &c->pods[q];
		for (int k = 0; k < e->n_anti_affinity; k++) {
			const struct pod_affinity_term *t = &e->anti_affinity[k];
			const char *vm = labels_get(&m->labels, t->topology_key);
			if (!vm)
				continue;
			if (n && !same_domain_value(n, m, vm, t->topology_key))
				continue;
			if (model_affinity_term_matches(c, t, e->ns,
							TERM_OF_EXISTING, p))
				return true;
		}
	}
	return false;
}

/* Spec: Skip(base) == ~ExistingAnti(base, P, NULL)
 *                     /\ P.requiredAffinity = {} /\ P.requiredAntiAffinity = {}
 * Bound once per cycle into the cycle's state (cycle_state.c). */
bool model_prefilter_inter_pod_affinity_skips(const struct model_cycle *cy)
{
	assert(cy && cy->cluster && cy->base);
	const struct pod *p = &cy->cluster->pods[cy->pod];
	if (p->n_affinity || p->n_anti_affinity)
		return false;
	return !existing_anti(cy, cy->base, NULL);
}

/*
 * Spec: Aff(key, v) == |{ (E, t) : BoundTo(E, M) /\ t \in P.requiredAffinity
 *                         /\ t.key = key /\ M[key] = v /\ MatchesAll(P.requiredAffinity, E) }|
 * aff_count(N, t) is Aff(t.key, N[t.key]) > 0; aff_empty is "no E matching
 * all terms sits on a node carrying any term's key".
 */
static bool aff_pod_in_domain(const struct model_cycle *cy,
			      const struct node *n, const char *key)
{
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	for (int q = 0; q < c->n_pods; q++) {
		const struct node *m = placed_on(cy, cy->view, q);
		if (!m || !same_domain(n, m, key))
			continue;
		if (model_affinity_matches_all(c, p->affinity, p->n_affinity,
					       p->ns, TERM_OF_INCOMING, &c->pods[q]))
			return true;
	}
	return false;
}

static bool node_has_some_term_key(const struct pod *p, const struct node *m)
{
	for (int i = 0; i < p->n_affinity; i++)
		if (labels_get(&m->labels, p->affinity[i].topology_key))
			return true;
	return false;
}

/* Whether the first-pod exception is open: the affinity counts are empty
 * (v1.30), or, with QUIRK_AFFINITY_FIRST_POD_COUNTS off, no pod
 * matching all terms exists anywhere. */
static bool no_series_yet(const struct model_cycle *cy)
{
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	bool counts_only = config_quirk(&c->config, QUIRK_AFFINITY_FIRST_POD_COUNTS);
	for (int q = 0; q < c->n_pods; q++) {
		const struct node *m = placed_on(cy, cy->view, q);
		if (!m)
			continue;
		if (counts_only &&
		    !node_has_some_term_key(p, m))
			continue;
		if (model_affinity_matches_all(c, p->affinity, p->n_affinity,
					       p->ns, TERM_OF_INCOMING, &c->pods[q]))
			return false;
	}
	return true;
}

/*
 * Spec (satisfyPodAffinity):
 *   /\ \A t \in P.requiredAffinity : t.key \in DOMAIN N.labels
 *   /\ \/ \A t \in P.requiredAffinity : Aff(t.key, N[t.key]) > 0
 *      \/ Aff = {} /\ MatchesAll(P.requiredAffinity, P)     \* first pod of a series
 * v1.30 vs the seed's \A t : P_Affinity(t, N): counts are per topology
 * domain of the node, and the first-pod exception.
 */
static bool satisfies_affinity(const struct model_cycle *cy,
			       const struct node *n)
{
	const struct pod *p = &cy->cluster->pods[cy->pod];
	bool pods_exist = true;
	for (int i = 0; i < p->n_affinity; i++) {
		const char *key = p->affinity[i].topology_key;
		if (!labels_get(&n->labels, key))
			return false;
		if (pods_exist && !aff_pod_in_domain(cy, n, key))
			pods_exist = false;
	}
	if (pods_exist)
		return true;
	return no_series_yet(cy) &&
	       model_affinity_matches_all(cy->cluster, p->affinity, p->n_affinity,
					  p->ns, TERM_OF_INCOMING, p);
}

/*
 * Spec (satisfyPodAntiAffinity):
 *   ~\E t \in P.requiredAntiAffinity, E, M : BoundTo(E, M) /\ Matches(t, E)
 *       /\ t.key \in DOMAIN N.labels /\ M[t.key] = N[t.key]
 */
static bool satisfies_anti_affinity(const struct model_cycle *cy,
				    const struct node *n)
{
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	for (int i = 0; i < p->n_anti_affinity; i++) {
		const struct pod_affinity_term *t = &p->anti_affinity[i];
		if (!labels_get(&n->labels, t->topology_key))
			continue;
		for (int q = 0; q < c->n_pods; q++) {
			const struct node *m = placed_on(cy, cy->view, q);
			if (!m || !same_domain(n, m, t->topology_key))
				continue;
			if (model_affinity_term_matches(c, t, p->ns,
							TERM_OF_INCOMING, &c->pods[q]))
				return false;
		}
	}
	return true;
}

/*
 * Spec: Filter(P, N) ==
 *   IF Skip(base) THEN TRUE
 *   ELSE CASE ~satisfyPodAffinity(N)     -> UAU
 *          [] ~satisfyPodAntiAffinity(N) -> Unschedulable
 *          [] ExistingAnti(view, P, N)   -> Unschedulable   \* symmetry
 *          [] OTHER                      -> TRUE
 */
void model_filter_inter_pod_affinity(const struct model_cycle *cy, int node,
				     struct sched_status *out)
{
	assert(cy && out && node >= 0 && node < cy->cluster->n_nodes);
	sched_status_ok(out);
	if (model_cycle_skips(cy, PLUGIN_INTER_POD_AFFINITY))
		return;
	const struct node *n = &cy->cluster->nodes[node];
	if (!satisfies_affinity(cy, n)) {
		sched_status_add(out, SCHED_UAU, REASON_AFFINITY);
		return;
	}
	if (!satisfies_anti_affinity(cy, n)) {
		sched_status_add(out, SCHED_UNSCHEDULABLE, REASON_ANTI);
		return;
	}
	if (existing_anti(cy, cy->view, n))
		sched_status_add(out, SCHED_UNSCHEDULABLE, REASON_EXISTING_ANTI);
}
