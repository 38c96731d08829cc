/*
 * score_inter_pod_affinity.c - the InterPodAffinity score: PreScore
 * (topology scores from the incoming pod's preferred terms and from the
 * existing pods' terms), Score and the min-max NormalizeScore (reference
 * §2.10 "PreScore / Score").
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affinity_terms.h"
#include "match.h"
#include "plugin.h"
#include "../core/xalloc.h"
#include "../core/grow.h"

/* One entry of topologyScore: score[key][value] += weight. */
struct ipa_contrib {
	const char *key;
	const char *value;
	int64_t weight;
};

struct ipa_contribs {
	struct ipa_contrib *items;
	int n, cap;
};

static void ipa_add(struct ipa_contribs *cs, const struct node *m,
		    const char *key, int64_t weight)
{
	const char *v = labels_get(&m->labels, key);
	if (!v)
		return;
	GROW(cs->items, cs->n + 1, cs->cap);
	cs->items[cs->n].key = key;
	cs->items[cs->n].value = v;
	cs->items[cs->n].weight = weight;
	cs->n++;
}

/*
 * Spec (processExistingPod, E on node M with labels; T(k) = M[k]):
 *   t \in P.preferredAffinity (w),     Matches(t, E):  score[t.key][T] += w
 *   t \in P.preferredAntiAffinity (w), Matches(t, E):  score[t.key][T] -= w
 *   hard > 0: t \in E.requiredAffinity, Matches(t, P, NL(P)): score[t.key][T] += hard
 *   t \in E.preferredAffinity (w),     Matches(t, P, NL(P)): score[t.key][T] += w
 *   t \in E.preferredAntiAffinity (w), Matches(t, P, NL(P)): score[t.key][T] -= w
 * each only when M carries t.key.  E's required anti-affinity does not score.
 */
static void ipa_process_pod(const struct model_cycle *cy, int q,
			    const struct node *m, struct ipa_contribs *out)
{
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	const struct pod *e = &c->pods[q];
	int32_t hard = cy->profile->hard_pod_affinity_weight;
	for (int i = 0; i < p->n_affinity_preferred; i++) {
		const struct weighted_pod_affinity_term *w = &p->affinity_preferred[i];
		if (model_affinity_term_matches(c, &w->term, p->ns, TERM_OF_INCOMING, e))
			ipa_add(out, m, w->term.topology_key, w->weight);
	}
	for (int i = 0; i < p->n_anti_affinity_preferred; i++) {
		const struct weighted_pod_affinity_term *w = &p->anti_affinity_preferred[i];
		if (model_affinity_term_matches(c, &w->term, p->ns, TERM_OF_INCOMING, e))
			ipa_add(out, m, w->term.topology_key, -(int64_t)w->weight);
	}
	if (hard > 0)
		for (int i = 0; i < e->n_affinity; i++)
			if (model_affinity_term_matches(c, &e->affinity[i], e->ns,
							TERM_OF_EXISTING, p))
				ipa_add(out, m, e->affinity[i].topology_key, hard);
	for (int i = 0; i < e->n_affinity_preferred; i++) {
		const struct weighted_pod_affinity_term *w = &e->affinity_preferred[i];
		if (model_affinity_term_matches(c, &w->term, e->ns, TERM_OF_EXISTING, p))
			ipa_add(out, m, w->term.topology_key, w->weight);
	}
	for (int i = 0; i < e->n_anti_affinity_preferred; i++) {
		const struct weighted_pod_affinity_term *w = &e->anti_affinity_preferred[i];
		if (model_affinity_term_matches(c, &w->term, e->ns, TERM_OF_EXISTING, p))
			ipa_add(out, m, w->term.topology_key, -(int64_t)w->weight);
	}
}

/* Every existing pod of the placement, skipping pods on nodes without
 * labels.  (kube visits only pods with affinity unless P has preferred
 * terms; the others contribute nothing either way.) */
static void ipa_collect(const struct model_cycle *cy, struct ipa_contribs *out)
{
	const struct cluster *c = cy->cluster;
	for (int q = 0; q < c->n_pods; q++) {
		int n = cy->view->pod_node[q];
		if (n < 0 || q == cy->pod)
			continue;
		const struct node *m = &c->nodes[n];
		if (m->labels.n == 0)
			continue;
		ipa_process_pod(cy, q, m, out);
	}
}

/* Spec: Score(F) == SUM { w : (k, v, w) \in topologyScore, F[k] = v } */
static int64_t ipa_raw(const struct ipa_contribs *cs, const struct node *f)
{
	int64_t s = 0;
	for (int i = 0; i < cs->n; i++) {
		const char *v = labels_get(&f->labels, cs->items[i].key);
		if (v && strcmp(v, cs->items[i].value) == 0)
			s += cs->items[i].weight;
	}
	return s;
}

/*
 * Spec (NormalizeScore over the feasible nodes):
 *   max - min > 0 -> trunc(100.0 * (float(s - min) / float(max - min)))
 *   else          -> 0
 */
static void ipa_normalize(int n, int64_t *scores)
{
	int64_t min = INT64_MAX, max = INT64_MIN;
	for (int f = 0; f < n; f++) {
		if (scores[f] > max)
			max = scores[f];
		if (scores[f] < min)
			min = scores[f];
	}
	int64_t diff = max - min;
	for (int f = 0; f < n; f++) {
		double fs = 0.0;
		if (diff > 0)
			fs = 100.0 * ((double)(scores[f] - min) / (double)diff);
		scores[f] = (int64_t)fs;
	}
}

static bool has_preferred_terms(const struct pod *p)
{
	return p->n_affinity_preferred > 0 || p->n_anti_affinity_preferred > 0;
}

/*
 * PreScore Skip: no feasible node; ignorePreferredTermsOfExistingPods with
 * an incoming pod without preferred terms; or no topologyScore entry at
 * all (an entry exists even when its weights cancel to 0).
 * v1.30 vs the seed's plain sum of matching term weights: per topology
 * domain, anti-affinity subtracts, existing pods' terms count
 * symmetrically, then min-max normalization.
 */
enum sched_code model_score_inter_pod_affinity(const struct model_cycle *cy,
					       const int *feasible, int n,
					       int64_t *scores,
					       struct sched_status *err)
{
	assert(cy && (n == 0 || (feasible && scores)));
	(void)err;
	for (int f = 0; f < n; f++)
		scores[f] = 0;
	if (n == 0)
		return SCHED_SKIP;
	const struct pod *p = &cy->cluster->pods[cy->pod];
	if (cy->profile->ignore_preferred_terms_of_existing && !has_preferred_terms(p))
		return SCHED_SKIP;
	struct ipa_contribs cs = { NULL, 0, 0 };
	ipa_collect(cy, &cs);
	if (cs.n == 0) {
		free(cs.items);
		return SCHED_SKIP;
	}
	for (int f = 0; f < n; f++)
		scores[f] = ipa_raw(&cs, &cy->cluster->nodes[feasible[f]]);
	free(cs.items);
	ipa_normalize(n, scores);
	return SCHED_SUCCESS;
}
