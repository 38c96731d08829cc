/*
 * filter_inter_pod_affinity.c - the InterPodAffinity filter (reference
 * §2.10 "PreFilter" and "Filter"; quirks §7 via core/quirks.h).
 *
 * PreFilter binds kube's three count maps (existingAnti, aff, anti) into
 * the cycle's state (affinity_prefilter.h), or its Skip; AddPod/RemovePod
 * patch them; Filter reads them and nothing else, as kube's does.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "affinity_prefilter.h"
#include "affinity_terms.h"
#include "cycle_state.h"
#include "match.h"
#include "plugin.h"
#include "../core/quirks.h"
#include "../core/xalloc.h"

#define REASON_AFFINITY "node(s) didn't match pod affinity rules"
#define REASON_ANTI "node(s) didn't match pod anti-affinity rules"
#define REASON_EXISTING_ANTI "node(s) didn't satisfy existing pods anti-affinity rules"

/* ------------------------------------------------------------ the maps */

/* The slot of topology key k, -1 when no pair has it. */
static int key_slot(const struct model_affinity_prefilter *st, const char *k)
{
	for (int i = 0; i < st->n_keys; i++)
		if (st->keys[i] == k || strcmp(st->keys[i], k) == 0)
			return i;
	return -1;
}

/* The slot of k, registered when new. */
static int key_slot_add(struct model_affinity_prefilter *st, const char *k)
{
	int i = key_slot(st, k);
	if (i >= 0)
		return i;
	if (st->n_keys == st->cap_keys) {
		/* the old keys stay behind in scratch until its reset */
		int cap = 2 * st->cap_keys;
		const char **keys = arena_take_array(st->scratch, (size_t)cap,
						     sizeof *keys);
		memcpy(keys, st->keys, sizeof *keys * (size_t)st->n_keys);
		st->keys = keys;
		st->cap_keys = cap;
	}
	st->keys[st->n_keys] = k;
	return st->n_keys++;
}

/* m[(k, value)] += v, value the node's value of k (a pair at 0 is as
 * absent: kube deletes it, and every reader asks for > 0). */
static void count_value(struct model_affinity_prefilter *st,
			struct model_spread_pairs *m, int64_t *sum,
			const char *k, const char *value, int64_t v)
{
	int i = model_spread_pairs_add(m, key_slot_add(st, k), value, NULL);
	m->items[i].count += v;
	if (sum)
		*sum += v;
}

/* m[(k, node[k])] += v, when node carries k. */
static void count(struct model_affinity_prefilter *st,
		  struct model_spread_pairs *m, int64_t *sum,
		  const struct node *node, const char *k, int64_t v)
{
	const char *value = labels_get(&node->labels, k);
	if (value)
		count_value(st, m, sum, k, value, v);
}

/* m[(k, node[k])] > 0. */
static bool counted(const struct model_affinity_prefilter *st,
		    const struct model_spread_pairs *m, const struct node *node,
		    const char *k)
{
	const char *value = labels_get(&node->labels, k);
	int slot = value ? key_slot(st, k) : -1;
	int i = slot >= 0 ? model_spread_pairs_find(m, slot, value) : -1;
	return i >= 0 && m->items[i].count > 0;
}

/* The term matches, from the pod-only part when given (a function of the
 * objects: the same answers), else evaluated. */
static bool existing_matches(const struct cluster *c,
			     const struct model_affinity_static *sp, int pod,
			     int e, int k)
{
	if (sp)
		return sp->existing[sp->existing_at[e] + k];
	const struct pod *q = &c->pods[e];
	return model_affinity_term_matches(c, &q->anti_affinity[k], q->ns,
					   TERM_OF_EXISTING, &c->pods[pod]);
}

static bool aff_all_match(const struct cluster *c,
			  const struct model_affinity_static *sp, int pod, int e)
{
	if (sp)
		return sp->aff_all[e];
	const struct pod *p = &c->pods[pod];
	return model_affinity_matches_all(c, p->affinity, p->n_affinity, p->ns,
					  TERM_OF_INCOMING, &c->pods[e]);
}

static bool anti_matches(const struct cluster *c,
			 const struct model_affinity_static *sp, int pod, int e,
			 int i)
{
	const struct pod *p = &c->pods[pod];
	if (sp)
		return sp->anti[(size_t)e * (size_t)p->n_anti_affinity + (size_t)i];
	return model_affinity_term_matches(c, &p->anti_affinity[i], p->ns,
					   TERM_OF_INCOMING, &c->pods[e]);
}

/* ExistingAnti's sum: e's terms (e on node) that match P, times v. */
static void existing_anti_of(struct model_affinity_prefilter *st, int e,
			     const struct node *node, int64_t v)
{
	const struct pod *q = &st->c->pods[e];
	for (int k = 0; k < q->n_anti_affinity; k++) {
		if (!existing_matches(st->c, st->sp, st->pod, e, k))
			continue;
		const char *key = q->anti_affinity[k].topology_key;
		const char *value = labels_get(&node->labels, key);
		if (value)
			count_value(st, &st->existing_anti,
				    &st->existing_anti_sum, key, value, v);
	}
}

/* Aff's, AffPods' and Anti's sums: P's terms against e (on node), times v. */
static void incoming_of(struct model_affinity_prefilter *st, int e,
			const struct node *node, int64_t v)
{
	const struct pod *p = &st->c->pods[st->pod];
	if (p->n_affinity && aff_all_match(st->c, st->sp, st->pod, e)) {
		st->aff_pods += v;
		for (int i = 0; i < p->n_affinity; i++)
			count(st, &st->aff, &st->aff_sum, node,
			      p->affinity[i].topology_key, v);
	}
	for (int i = 0; i < p->n_anti_affinity; i++)
		if (anti_matches(st->c, st->sp, st->pod, e, i))
			count(st, &st->anti, NULL, node,
			      p->anti_affinity[i].topology_key, v);
}

/* The node pod e is bound to in s, or NULL (pending, gone, or the
 * incoming pod itself, which kube never has placed). */
static const struct node *bound_node(const struct model_affinity_prefilter *st,
				     const struct snapshot *s, int e)
{
	if (e == st->self || s->pod_node[e] < 0)
		return NULL;
	return &st->c->nodes[s->pod_node[e]];
}

/* -------------------------------------------------------------- PreFilter */

/*
 * Spec (the pod-only part, for every pod E):
 *   aff_all[E]      == MatchesAll(P.requiredAffinity, E)
 *   anti[E][i]      == Matches(P.requiredAntiAffinity[i], E)
 *   existing[E][k]  == Matches(E.requiredAntiAffinity[k], P)
 */
struct model_affinity_static *model_affinity_static_new(const struct cluster *c,
							int pod)
{
	assert(c && pod >= 0 && pod < c->n_pods);
	const struct pod *p = &c->pods[pod];
	size_t np = (size_t)c->n_pods, na = (size_t)p->n_anti_affinity;
	size_t total = 0;
	for (int e = 0; e < c->n_pods; e++)
		total += (size_t)c->pods[e].n_anti_affinity;
	/* one block: the struct, existing_at, then the three bool arrays */
	size_t bytes = sizeof(struct model_affinity_static) +
		       sizeof(int) * (np + 1) + np + np * na + total + 1;
	struct model_affinity_static *sp = xcalloc(1, bytes);
	sp->c = c;
	sp->pod = pod;
	sp->existing_at = (int *)(sp + 1);
	sp->aff_all = (bool *)(sp->existing_at + np + 1);
	sp->anti = sp->aff_all + np;
	sp->existing = sp->anti + np * na;
	int at = 0;
	for (int e = 0; e < c->n_pods; e++) {
		sp->existing_at[e] = at;
		at += c->pods[e].n_anti_affinity;
	}
	for (int e = 0; e < c->n_pods; e++) {
		const struct pod *q = &c->pods[e];
		sp->aff_all[e] = model_affinity_matches_all(c, p->affinity,
			p->n_affinity, p->ns, TERM_OF_INCOMING, q);
		for (size_t i = 0; i < na; i++)
			sp->anti[(size_t)e * na + i] = model_affinity_term_matches(c,
				&p->anti_affinity[i], p->ns, TERM_OF_INCOMING, q);
		for (int k = 0; k < q->n_anti_affinity; k++)
			sp->existing[sp->existing_at[e] + k] =
				model_affinity_term_matches(c, &q->anti_affinity[k],
					q->ns, TERM_OF_EXISTING, p);
	}
	return sp;
}

void model_affinity_static_free(struct model_affinity_static *sp)
{
	free(sp);
}

/* The pods that can count for ExistingAnti, those with anti-affinity
 * terms: the cluster's list of them when it has one, else every pod. */
static int anti_candidates(const struct cluster *c, const int **list)
{
	bool listed = c->anti_pods_of == c->n_pods;
	*list = listed ? c->anti_pods : NULL;
	return listed ? c->n_anti_pods : c->n_pods;
}

/* ExistingAnti # {} on base, without counting: the Skip is decided for
 * every pod of every cycle, and most have no term and meet none. */
static bool existing_anti_some(const struct model_cycle *cy,
			       const struct model_affinity_static *sp)
{
	const struct cluster *c = cy->cluster;
	const int *list;
	int n = anti_candidates(c, &list);
	for (int i = 0; i < n; i++) {
		int e = list ? list[i] : i;
		int at = cy->base->pod_node[e];
		if (e == cy->pod || at < 0)
			continue;
		const struct node *m = &c->nodes[at];
		const struct pod *q = &c->pods[e];
		for (int k = 0; k < q->n_anti_affinity; k++)
			if (labels_get(&m->labels, q->anti_affinity[k].topology_key) &&
			    existing_matches(c, sp, cy->pod, e, k))
				return true;
	}
	return false;
}

/* The three maps over the pods bound in base (the pod's own terms only
 * when it has some: without, Aff and Anti stay empty). */
static void count_all(struct model_affinity_prefilter *st,
		      const struct snapshot *base, bool terms)
{
	const struct cluster *c = st->c;
	st->keys = arena_take_array(st->scratch, (size_t)st->cap_keys,
				    sizeof *st->keys);
	model_spread_pairs_init(&st->existing_anti, st->scratch);
	const int *list;
	int n = anti_candidates(c, &list);
	for (int i = 0; i < n; i++) {
		int e = list ? list[i] : i;
		const struct node *m = bound_node(st, base, e);
		if (m)
			existing_anti_of(st, e, m, 1);
	}
	model_spread_pairs_init(&st->aff, st->scratch);
	model_spread_pairs_init(&st->anti, st->scratch);
	for (int e = 0; terms && e < c->n_pods; e++) {
		const struct node *m = bound_node(st, base, e);
		if (m)
			incoming_of(st, e, m, 1);
	}
}

bool model_affinity_prefilter_init(struct model_affinity_prefilter *st,
				   const struct model_cycle *cy,
				   const struct model_affinity_static *sp,
				   struct arena *scratch)
{
	assert(!sp || (sp->c == cy->cluster && sp->pod == cy->pod));
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	bool terms = p->n_affinity > 0 || p->n_anti_affinity > 0;
	if (!terms && !existing_anti_some(cy, sp))
		return false;   /* Skip */
	*st = (struct model_affinity_prefilter){
		.c = c, .pod = cy->pod, .self = cy->pod, .sp = sp,
		.scratch = scratch, .cap_keys = 4,
	};
	count_all(st, cy->base, terms);
	return true;
}

void model_affinity_prefilter_count(struct model_affinity_prefilter *st,
				    const struct cluster *c, int pod,
				    const struct snapshot *s,
				    struct arena *scratch)
{
	assert(st && c && s && scratch && pod >= 0 && pod < c->n_pods);
	const struct pod *p = &c->pods[pod];
	*st = (struct model_affinity_prefilter){
		.c = c, .pod = pod, .self = -1, .scratch = scratch,
		.cap_keys = 4,
	};
	count_all(st, s, p->n_affinity > 0 || p->n_anti_affinity > 0);
}

void model_affinity_prefilter_copy(struct model_affinity_prefilter *dst,
				   const struct model_affinity_prefilter *src,
				   struct arena *scratch)
{
	assert(dst && src && scratch);
	*dst = *src;
	dst->scratch = scratch;
	dst->keys = arena_take_array(scratch, (size_t)src->cap_keys,
				     sizeof *dst->keys);
	memcpy(dst->keys, src->keys, sizeof *dst->keys * (size_t)src->n_keys);
	model_spread_pairs_copy(&dst->existing_anti, &src->existing_anti, scratch);
	model_spread_pairs_copy(&dst->aff, &src->aff, scratch);
	model_spread_pairs_copy(&dst->anti, &src->anti, scratch);
}

void model_affinity_prefilter_apply(struct model_affinity_prefilter *st,
				    int q, int node, int sign)
{
	assert(st && (sign == 1 || sign == -1));
	if (q == st->self)
		return;
	const struct node *m = &st->c->nodes[node];
	existing_anti_of(st, q, m, sign);
	incoming_of(st, q, m, sign);
}

/* ----------------------------------------------------------------- Filter */

/* Whether the first-pod exception is open: the affinity counts are empty
 * (v1.30: len(affinityCounts) == 0), or, with
 * QUIRK_AFFINITY_FIRST_POD_COUNTS off, no pod matching all terms exists
 * anywhere (AffPods = 0). */
static bool no_series_yet(const struct model_cycle *cy,
			  const struct model_affinity_prefilter *st)
{
	if (config_quirk(&cy->cluster->config, QUIRK_AFFINITY_FIRST_POD_COUNTS))
		return st->aff_sum == 0;
	return st->aff_pods == 0;
}

/*
 * Spec (satisfyPodAffinity):
 *   /\ \A t \in P.requiredAffinity : t.key \in DOMAIN N.labels
 *   /\ \/ \A t \in P.requiredAffinity : Aff[(t.key, N[t.key])] > 0
 *      \/ Aff = {} /\ MatchesAll(P.requiredAffinity, P)     \* first pod of a series
 * v1.30 vs the seed's \A t : P_Affinity(t, N): counts are per topology
 * domain of the node, and the first-pod exception.
 */
static bool satisfies_affinity(const struct model_cycle *cy,
			       const struct model_affinity_prefilter *st,
			       const struct node *n)
{
	const struct pod *p = &cy->cluster->pods[cy->pod];
	bool pods_exist = true;
	for (int i = 0; i < p->n_affinity; i++) {
		const char *key = p->affinity[i].topology_key;
		if (!labels_get(&n->labels, key))
			return false;
		if (pods_exist && !counted(st, &st->aff, n, key))
			pods_exist = false;
	}
	if (pods_exist)
		return true;
	return no_series_yet(cy, st) &&
	       model_affinity_matches_all(cy->cluster, p->affinity, p->n_affinity,
					  p->ns, TERM_OF_INCOMING, p);
}

/*
 * Spec (satisfyPodAntiAffinity):
 *   ~\E t \in P.requiredAntiAffinity : Anti[(t.key, N[t.key])] > 0
 */
static bool satisfies_anti_affinity(const struct model_cycle *cy,
				    const struct model_affinity_prefilter *st,
				    const struct node *n)
{
	const struct pod *p = &cy->cluster->pods[cy->pod];
	for (int i = 0; i < p->n_anti_affinity; i++)
		if (counted(st, &st->anti, n, p->anti_affinity[i].topology_key))
			return false;
	return true;
}

/*
 * Spec (satisfyExistingPodsAntiAffinity):
 *   ~\E key \in DOMAIN N.labels : ExistingAnti[(key, N[key])] > 0
 * (a key no pair has counts nothing: only the keys met are asked)
 */
static bool satisfies_existing_anti(const struct model_affinity_prefilter *st,
				    const struct node *n)
{
	if (st->existing_anti_sum == 0)
		return true;
	for (int k = 0; k < st->n_keys; k++)
		if (counted(st, &st->existing_anti, n, st->keys[k]))
			return false;
	return true;
}

/*
 * Spec: Filter(P, N) ==
 *   IF Skip THEN TRUE
 *   ELSE CASE ~satisfyPodAffinity(N)     -> UAU
 *          [] ~satisfyPodAntiAffinity(N) -> Unschedulable
 *          [] ~satisfyExistingPodsAntiAffinity(N) -> Unschedulable
 *          [] OTHER                      -> TRUE
 * over the state's maps (the cycle's AddPod/RemovePod applied).
 */
void model_filter_inter_pod_affinity(const struct model_cycle *cy, int node,
				     struct sched_status *out)
{
	assert(cy && out && node >= 0 && node < cy->cluster->n_nodes);
	sched_status_ok(out);
	if (model_cycle_skips(cy, PLUGIN_INTER_POD_AFFINITY))
		return;
	const struct model_affinity_prefilter *st = &cy->state->affinity;
	const struct node *n = &cy->cluster->nodes[node];
	if (!satisfies_affinity(cy, st, n)) {
		sched_status_add(out, SCHED_UAU, REASON_AFFINITY);
		return;
	}
	if (!satisfies_anti_affinity(cy, st, n)) {
		sched_status_add(out, SCHED_UNSCHEDULABLE, REASON_ANTI);
		return;
	}
	if (!satisfies_existing_anti(st, n))
		sched_status_add(out, SCHED_UNSCHEDULABLE, REASON_EXISTING_ANTI);
}
