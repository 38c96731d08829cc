/*
 * score_pod_topology_spread.c - the PodTopologySpread score: PreScore
 * (soft constraints, ignored nodes, topology sizes and weights, counts
 * over all nodes), Score and NormalizeScore (reference §2.11 "Scoring
 * (soft constraints)"; quirks §7 via core/quirks.h).
 */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"
#include "cycle_state.h"
#include "../core/quirks.h"
#include "spread_constraints.h"
#include "../core/xalloc.h"

struct ptss_state {
	const struct model_cycle *cy;
	const struct pod *pod;
	struct model_spread_constraints cs;
	bool require_all;
	bool *ignored;                      /* per feasible index */
	int n_ignored;
	struct model_spread_pairs pairs;    /* TopologyPairToPodCounts */
	double *weight;                     /* TopologyNormalizingWeight, per constraint */
};

static bool is_hostname(const struct model_spread_constraint *c)
{
	return strcmp(c->key, MODEL_LABEL_HOSTNAME) == 0;
}

/* The value a node registers/counts under for constraint c: its label, or
 * the pseudo-domain "" when it lacks the key (only reachable when
 * requireAll is false, i.e. system defaults); NULL: the node takes no part. */
static const char *ptss_value(const struct cluster *cl, const struct node *n,
			      const struct model_spread_constraint *c)
{
	const char *v = labels_get(&n->labels, c->key);
	if (v)
		return v;
	return config_quirk(&cl->config, QUIRK_SPREAD_EMPTY_DOMAIN) ? "" : NULL;
}

/*
 * Spec (initPreScoreState, over the feasible nodes F):
 *   Ignored == IF requireAll THEN { F : \E c \in C : c.key \notin DOMAIN F.labels } ELSE {}
 *   for F \notin Ignored, c_i in order with c_i.key # hostname:
 *       register (slot(i), F[c_i.key] or ""); topoSize[i] += 1 if new
 *   W_i == ln(size_i + 2), size_i = |F| - |Ignored| for hostname, topoSize[i] else
 */
static void ptss_register(struct ptss_state *st, const int *feasible, int n)
{
	const struct cluster *cl = st->cy->cluster;
	int *topo_size = xcalloc((size_t)st->cs.n, sizeof *topo_size);
	for (int f = 0; f < n; f++) {
		const struct node *node = &cl->nodes[feasible[f]];
		if (st->require_all && !model_spread_node_has_keys(node, &st->cs)) {
			st->ignored[f] = true;
			st->n_ignored++;
			continue;
		}
		for (int i = 0; i < st->cs.n; i++) {
			const struct model_spread_constraint *c = &st->cs.items[i];
			if (is_hostname(c))
				continue;
			const char *v = ptss_value(cl, node, c);
			if (!v)
				continue;
			bool is_new;
			model_spread_pairs_add(&st->pairs, model_spread_slot(&st->cs, i),
					       v, &is_new);
			if (is_new)
				topo_size[i]++;
		}
	}
	for (int i = 0; i < st->cs.n; i++) {
		int size = topo_size[i];
		if (is_hostname(&st->cs.items[i]))
			size = n - st->n_ignored;
		st->weight[i] = log((double)(size + 2));
	}
	free(topo_size);
}

/*
 * Spec (PreScore counts, over ALL nodes A of the placement):
 *   A is skipped when requireAll /\ A lacks some key;
 *   \A c in order with Eligible(P, A, c) and (slot(c), A[c.key] or "")
 *       registered: counts[pair] += count(A, c)
 * (hostname pairs are never registered: per-node counts are read in Score.)
 */
static void ptss_count_all(struct ptss_state *st)
{
	const struct cluster *cl = st->cy->cluster;
	int64_t *counts = xcalloc((size_t)cl->n_nodes, sizeof *counts);
	for (int i = 0; i < st->cs.n; i++) {
		const struct model_spread_constraint *c = &st->cs.items[i];
		if (is_hostname(c))
			continue;
		int s = model_spread_slot(&st->cs, i);
		model_spread_count_by_node(st->cy->view, st->pod->ns, st->cy->pod,
					   c, counts);
		for (int a = 0; a < cl->n_nodes; a++) {
			const struct node *node = &cl->nodes[a];
			if (st->require_all && !model_spread_node_has_keys(node, &st->cs))
				continue;
			if (!model_spread_node_eligible(st->pod, node, c))
				continue;
			const char *v = ptss_value(cl, node, c);
			int k = v ? model_spread_pairs_find(&st->pairs, s, v) : -1;
			if (k >= 0)
				st->pairs.items[k].count += counts[a];
		}
	}
	free(counts);
}

/*
 * Spec (Score of a non-ignored feasible node F):
 *   round( SUM_{i : c_i.key \in DOMAIN F.labels}
 *            float(cnt_i) * W_i + float(c_i.maxSkew - 1) )
 *   cnt_i == count(F, c_i) for hostname, counts[(slot(i), F[c_i.key])] else
 * summed in constraint order, each term computed as kube does (no fused
 * multiply-add: the product is stored before the addition).
 */
static int64_t ptss_raw(const struct ptss_state *st, int node,
			int64_t *host_counts_scratch)
{
	const struct cluster *cl = st->cy->cluster;
	const struct node *n = &cl->nodes[node];
	double score = 0.0;
	for (int i = 0; i < st->cs.n; i++) {
		const struct model_spread_constraint *c = &st->cs.items[i];
		const char *v = labels_get(&n->labels, c->key);
		if (!v)
			continue;
		int64_t cnt;
		if (is_hostname(c)) {
			model_spread_count_by_node(st->cy->view, st->pod->ns,
						   st->cy->pod, c,
						   host_counts_scratch);
			cnt = host_counts_scratch[node];
		} else {
			int k = model_spread_pairs_find(&st->pairs,
							model_spread_slot(&st->cs, i), v);
			assert(k >= 0);
			cnt = st->pairs.items[k].count;
		}
		double product = (double)cnt * st->weight[i];
		double term = product + (double)(c->max_skew - 1);
		score += term;
	}
	return (int64_t)round(score);
}

/*
 * Spec (NormalizeScore over the non-ignored feasible nodes):
 *   min == MIN raw (from MaxInt64), max == MAX raw (from 0)
 *   ignored -> 0;  max = 0 -> 100;  else 100 * (max + min - s) / max  (int64)
 */
static void ptss_normalize(const struct ptss_state *st, int n, int64_t *scores)
{
	int64_t min = INT64_MAX, max = 0;
	for (int f = 0; f < n; f++) {
		if (st->ignored[f])
			continue;
		if (scores[f] < min)
			min = scores[f];
		if (scores[f] > max)
			max = scores[f];
	}
	for (int f = 0; f < n; f++) {
		if (st->ignored[f])
			scores[f] = 0;
		else if (max == 0)
			scores[f] = 100;
		else
			scores[f] = 100 * (max + min - scores[f]) / max;
	}
}

static void ptss_release(struct ptss_state *st)
{
	model_spread_constraints_release(&st->cs);
	model_spread_pairs_release(&st->pairs);
	free(st->ignored);
	free(st->weight);
}

/*
 * PreScore Skip: no feasible node, or no soft constraint (neither explicit
 * ScheduleAnyway ones nor defaults).  requireAll = the pod has explicit
 * constraints or the profile does not use System defaulting, so with
 * system defaults zone-less nodes still get hostname spreading.
 * v1.30 vs the seed: counts are over all nodes but domains only over
 * feasible ones; weights ln(size+2); normalization inverts the raw score.
 */
enum sched_code model_score_pod_topology_spread(const struct model_cycle *cy,
						const int *feasible, int n,
						int64_t *scores,
						struct sched_status *err)
{
	assert(cy && (n == 0 || (feasible && scores)));
	(void)err;
	for (int f = 0; f < n; f++)
		scores[f] = 0;
	if (n == 0 || cy->cluster->n_nodes == 0)
		return SCHED_SKIP;
	struct ptss_state st;
	memset(&st, 0, sizeof st);
	st.cy = cy;
	st.pod = &cy->cluster->pods[cy->pod];
	model_spread_constraints_build(cy->cluster, cy->profile, cy->pod, false,
				       &st.cs);
	if (st.cs.n == 0) {
		model_spread_constraints_release(&st.cs);
		return SCHED_SKIP;
	}
	st.require_all = st.cs.from_pod || !cy->profile->spread_system_defaulting;
	st.ignored = xcalloc((size_t)n, sizeof *st.ignored);
	st.weight = xcalloc((size_t)st.cs.n, sizeof *st.weight);
	/* the pairs in the cycle's scratch, given back below */
	struct arena *scratch = cy->state->scratch;
	struct arena_mark mark = arena_mark(scratch);
	model_spread_pairs_init(&st.pairs, scratch);
	ptss_register(&st, feasible, n);
	ptss_count_all(&st);
	int64_t *per_node = xcalloc((size_t)cy->cluster->n_nodes, sizeof *per_node);
	for (int f = 0; f < n; f++)
		scores[f] = st.ignored[f] ? 0 : ptss_raw(&st, feasible[f], per_node);
	free(per_node);
	ptss_normalize(&st, n, scores);
	ptss_release(&st);
	arena_reset(scratch, mark);
	return SCHED_SUCCESS;
}
