/*
 * cycle_state.h - kube's CycleState, made literal: what the PreFilter
 * phase of one scheduling cycle (reference §1.3 step 2) binds once, and
 * every Filter and Score call of that cycle reads, as kube's plugins read
 * the CycleState their PreFilter wrote.
 *
 * Spec: a TLA+ LET over the cycle (cluster, profile, pod P, placement
 * base):
 *   LET Pods       == NodeInfo's cached requests: PodRequests(Q), NonZero(Q)
 *                     of every pod Q (the model context's table)
 *       Req        == PodRequests(P)                       (NodeResourcesFit)
 *       SkipFilter == the plugins whose PreFilter returns Skip (§2.12 the
 *                     volume plugins for a pod without volumes, §2.11
 *                     PodTopologySpread without a hard constraint, §2.10
 *                     InterPodAffinity's Skip(base))
 *       Spread     == PodTopologySpread's PreFilter state on base:
 *                     TpPairToMatchNum, TpKeyToDomainsNum, criticalPaths
 *       Affinity   == InterPodAffinity's PreFilter state on base:
 *                     existingAntiAffinityCounts, affinityCounts,
 *                     antiAffinityCounts (affinity_prefilter.h)
 *   IN Filter(P, N), Score(P, N) ...
 * Every field is built eagerly by model_cycle_state_init, whether or not
 * a Filter reads it: there is no "computed yet?".  The nominated-pods
 * pass (§1.5) and preemption's dry runs (§3.4) clone the state and apply
 * AddPod/RemovePod to the clone, as kube's RunFilterPluginsWithNominated
 * Pods and SelectVictimsOnNode do.
 */
#ifndef KSO_CYCLE_STATE_H
#define KSO_CYCLE_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "plugin.h"
#include "context.h"
#include "spread_prefilter.h"
#include "affinity_prefilter.h"
#include "model.h"

struct model_given;   /* model.h */

struct model_cycle_state {
	/* the cycle the state was built for */
	const struct cluster *cluster;
	const struct sched_profile *profile;
	int pod;
	const struct snapshot *base;

	/* Pods == NodeInfo's cached requests of every pod: the given model
	 * context's table, or own_ctx's */
	const struct model_pod_table *pods;

	/* NodeTree == the context's node tree order (context.h) */
	const int *node_tree;

	/* Req == PodRequests(P), NonZero(P): P's row of pods */
	const int64_t *request;

	/* the given sums of base (model.h, struct model_node_sums), NULL:
	 * none; a clone has none (its view is not base) */
	const struct model_node_sums *node_sums;

	/* the given memo of dry-run verdicts (model.h, struct
	 * model_verdict_memo), NULL: none; a clone keeps it (it is asked
	 * with the clone's own view) */
	const struct model_verdict_memo *memo;

	/* SkipFilterPlugins: bit id set when plugin id's PreFilter returned
	 * Skip; kube runs no Filter of those */
	uint32_t skip_filters;

	/* Spread == PodTopologySpread's PreFilter state on base with the
	 * AddPod/RemovePod calls made on this state since, in order; only
	 * when its PreFilter ran and did not Skip (has_spread) */
	bool has_spread;
	struct model_spread_prefilter spread;

	/* Affinity == InterPodAffinity's PreFilter state on base with the
	 * same AddPod/RemovePod calls; only when its PreFilter ran and did
	 * not Skip (has_affinity) */
	bool has_affinity;
	struct model_affinity_prefilter affinity;

	/* the scratch arena of the cycle (its context's): what the state
	 * takes from it goes back when the state is released, and whatever a
	 * plugin takes, between its own mark and reset */
	struct arena *scratch;
	struct arena_mark mark;

	/* storage: what the state owns (a clone owns neither) */
	struct model_context *own_ctx;
	struct model_spread_static *own_static;
};

/* model_cycle_state_init: the PreFilter phase of cy (cluster, profile,
 * pod, base; cy->state is not read) into st, reading precomputed inputs
 * from given (NULL: none; model.h says what each is), then cy->deltas
 * applied as AddPod/RemovePod in order.  Pair with
 * model_cycle_state_release. */
void model_cycle_state_init(struct model_cycle_state *st,
			    const struct model_cycle *cy,
			    const struct model_given *given);

/* model_cycle_state_clone: dst (uninitialised) becomes a copy of src
 * that AddPod/RemovePod change without changing src (kube's
 * CycleState.Clone); dst borrows from src, which must outlive it, and
 * takes from src's scratch arena: release dst before src, and clones of
 * one state in the reverse order of cloning.  Pair with
 * model_cycle_state_release. */
void model_cycle_state_clone(struct model_cycle_state *dst,
			     const struct model_cycle_state *src);

/* model_cycle_state_add_pod / model_cycle_state_remove_pod: kube's
 * AddPod / RemovePod of pod q on node, applied to st (the PreFilter
 * extensions of PodTopologySpread and InterPodAffinity). */
void model_cycle_state_add_pod(struct model_cycle_state *st, int q, int node);
void model_cycle_state_remove_pod(struct model_cycle_state *st, int q, int node);

/* model_cycle_state_release: frees what st owns. */
void model_cycle_state_release(struct model_cycle_state *st);

/* model_cycle_sums: the given sums when cy's view is its state's base
 * (no deltas), else NULL: what a filter may read instead of summing. */
static inline const struct model_node_sums *
model_cycle_sums(const struct model_cycle *cy)
{
	const struct model_cycle_state *st = cy->state;
	return st->node_sums && cy->n_deltas == 0 && cy->view == st->base
	       ? st->node_sums : NULL;
}

/* model_cycle_skips: plugin id's PreFilter returned Skip in cy's state. */
static inline bool model_cycle_skips(const struct model_cycle *cy,
				     enum plugin_id id)
{
	return cy->state->skip_filters >> id & 1u;
}

#endif
