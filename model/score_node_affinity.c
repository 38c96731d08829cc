/*
 * score_node_affinity.c - the NodeAffinity score (reference §2.5 "Score",
 * S/framework/plugins/nodeaffinity/node_affinity.go, component-helpers
 * nodeaffinity PreferredSchedulingTerms).
 */
#include "plugin.h"

#include <assert.h>

#include "match.h"
#include "normalize.h"

/* Σ weights of the terms that match; terms of weight 0 or with an empty
 * preference are dropped when parsed (match_node_selector_term already
 * refuses an empty term). */
static int64_t preferred_sum(const struct preferred_node_term *terms, int n,
			     const struct node *node)
{
	int64_t sum = 0;
	for (int i = 0; i < n; i++)
		if (terms[i].weight != 0 &&
		    match_node_selector_term(&terms[i].preference, node))
			sum += terms[i].weight;
	return sum;
}

/*
 * Raw(Pod, Node) ==
 *     Σ {T.Weight : T \in Pod...NodeAffinity.Preferred, Match_NS(T.Preference, Node)}
 *   + Σ {T.Weight : T \in AddedAffinity.Preferred,      Match_NS(T.Preference, Node)}
 * Score == Normalize(Raw over the feasible nodes, 100, Reverse = FALSE).
 * PreScore Skip when the pod's preferred field is nil and the profile has
 * no addedAffinity preferred terms (kube keeps addedPrefSchedTerms only
 * for a non-empty preferred list; an addedAffinity with only a required
 * part does not prevent the Skip).
 * Seed (004 "Score"): the raw weight sums, added with the pod-affinity
 * sums; v1.30 normalizes by the maximum over the feasible nodes and
 * weights the plugin 2 (reference §5 (f)).
 */
enum sched_code model_score_node_affinity(const struct model_cycle *cy,
					  const int *feasible, int n,
					  int64_t *scores,
					  struct sched_status *err)
{
	assert(cy && (n == 0 || (feasible && scores)) && err);
	sched_status_ok(err);
	const struct pod *p = &cy->cluster->pods[cy->pod];
	const struct sched_profile *prof = cy->profile;
	if (!p->has_node_preferred && prof->n_added_preferred == 0) {
		for (int i = 0; i < n; i++)
			scores[i] = 0;
		return SCHED_SKIP;
	}
	/* PreScore parses every preferred term: one that does not parse
	 * fails the whole cycle (an Error status, not a zero score) */
	char why[SCHED_STATUS_TEXT];
	if (match_preferred_parse_error(p->node_preferred, p->n_node_preferred,
					why, sizeof why)) {
		for (int i = 0; i < n; i++)
			scores[i] = 0;
		sched_status_add(err, SCHED_ERROR, why);
		return SCHED_ERROR;
	}
	for (int i = 0; i < n; i++) {
		const struct node *node = &cy->cluster->nodes[feasible[i]];
		scores[i] = preferred_sum(prof->added_preferred,
					  prof->n_added_preferred, node) +
			    preferred_sum(p->node_preferred, p->n_node_preferred, node);
	}
	model_normalize_default(100, false, scores, n);
	return SCHED_SUCCESS;
}
