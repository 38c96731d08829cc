/*
 * cycle_state.c - the PreFilter phase of one cycle: kube's CycleState,
 * bound once (see cycle_state.h; reference §1.3 step 2, §2.10-§2.12).
 * Nothing here defines anything: each field is the literal definition
 * written above it, evaluated once for the cycle instead of once per node.
 */
#include "cycle_state.h"
#include "model.h"
#include "volumes.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Skip of the volume plugins (reference §2.12): each one's PreFilter
 * skips a pod without volumes, when it is enabled; and v1.34's
 * DynamicResources, whose PreFilter skips a pod without claims to judge. */
static uint32_t volume_skips(const struct model_cycle *cy)
{
	const bool *pre = cy->profile->prefilter;
	uint32_t skips = 0;
	if (pre[PLUGIN_DYNAMIC_RESOURCES]) {
		struct sched_status st;
		model_prefilter_dynamic_resources(cy, &st);
		if (st.code == SCHED_SKIP)
			skips |= 1u << PLUGIN_DYNAMIC_RESOURCES;
	}
	if (model_pod_has_volumes(&cy->cluster->pods[cy->pod]))
		return skips;
	return skips | (uint32_t)pre[PLUGIN_VOLUME_RESTRICTIONS] << PLUGIN_VOLUME_RESTRICTIONS |
	       (uint32_t)pre[PLUGIN_EBS_LIMITS] << PLUGIN_EBS_LIMITS |
	       (uint32_t)pre[PLUGIN_GCE_PD_LIMITS] << PLUGIN_GCE_PD_LIMITS |
	       (uint32_t)pre[PLUGIN_NODE_VOLUME_LIMITS] << PLUGIN_NODE_VOLUME_LIMITS |
	       (uint32_t)pre[PLUGIN_AZURE_DISK_LIMITS] << PLUGIN_AZURE_DISK_LIMITS |
	       (uint32_t)pre[PLUGIN_VOLUME_BINDING] << PLUGIN_VOLUME_BINDING |
	       (uint32_t)pre[PLUGIN_VOLUME_ZONE] << PLUGIN_VOLUME_ZONE;
}

/* Spread == PodTopologySpread's PreFilter on base (§2.11), from the
 * pod-only part: the given one (a function of cluster, profile and pod:
 * whoever evaluates many placements keeps it) or the state's own.
 * Returns false for its Skip (no hard constraint). */
static bool spread_prefilter(struct model_cycle_state *st,
			     const struct model_cycle *cy,
			     const struct model_given *given)
{
	if (given && given->spread_skip)
		return false;
	if (given && given->spread_state) {
		model_spread_prefilter_copy(&st->spread, given->spread_state,
					    st->scratch);
		st->spread.pod = &cy->cluster->pods[cy->pod];
		return true;
	}
	const struct model_spread_static *sp = given ? given->spread : NULL;
	if (!sp)
		sp = st->own_static = model_spread_static_new(cy->cluster,
							      cy->profile, cy->pod);
	assert(sp->c == cy->cluster && sp->profile == cy->profile &&
	       sp->pod == cy->pod);
	if (sp->skip)
		return false;
	model_spread_prefilter_init_static(&st->spread, sp, cy->base,
					   st->scratch);
	return true;
}

/* Affinity == InterPodAffinity's PreFilter on base (§2.10): the given
 * state kept for the placement base, or built with the given pod-only part (a function of cluster and pod: whoever evaluates
 * many placements keeps it) or, without one, each match evaluated.
 * Returns false for its Skip. */
static bool affinity_prefilter(struct model_cycle_state *st,
			       const struct model_cycle *cy,
			       const struct model_given *given)
{
	if (given && given->affinity_state) {
		if (given->affinity_skip)
			return false;
		/* without deltas the kept maps are read in place: AddPod /
		 * RemovePod only ever change a clone's (deep) copy or a state
		 * that has deltas to apply */
		if (cy->n_deltas == 0)
			st->affinity = *given->affinity_state;
		else
			model_affinity_prefilter_copy(&st->affinity,
						      given->affinity_state,
						      st->scratch);
		/* a kept state's pod is its class's first: this cycle's pod
		 * reads the same maps, and is never counted as an E */
		st->affinity.pod = cy->pod;
		st->affinity.self = cy->pod;
		return true;
	}
	return model_affinity_prefilter_init(&st->affinity, cy,
					     given ? given->affinity : NULL,
					     st->scratch);
}

void model_cycle_state_init(struct model_cycle_state *st,
			    const struct model_cycle *cy,
			    const struct model_given *given)
{
	assert(st && cy && cy->cluster && cy->profile && cy->base);
	assert(cy->pod >= 0 && cy->pod < cy->cluster->n_pods);
	const struct sched_profile *prof = cy->profile;
	st->cluster = cy->cluster;
	st->profile = prof;
	st->pod = cy->pod;
	st->base = cy->base;
	st->own_ctx = NULL;
	st->own_static = NULL;

	/* Pods == NodeInfo's cached requests of every pod */
	struct model_context *ctx = given ? given->ctx : NULL;
	if (!ctx) {
		st->own_ctx = xmalloc(sizeof *st->own_ctx);
		model_context_init(st->own_ctx, cy->cluster);
		ctx = st->own_ctx;
	}
	assert(ctx->cluster == cy->cluster);
	st->pods = &ctx->pods;
	st->node_tree = ctx->node_tree;
	st->scratch = &ctx->scratch;
	st->mark = arena_mark(st->scratch);

	/* Req == PodRequests(P) */
	st->request = model_pod_table_get(st->pods, cy->pod, NULL, NULL);
	st->node_sums = given ? given->node_sums : NULL;
	st->memo = given ? given->dry_verdicts : NULL;

	/* SkipFilter == the volume plugins' Skips, PodTopologySpread's
	 * (no hard constraint), InterPodAffinity's Skip(base); Spread and
	 * Affinity where their PreFilter does not Skip */
	st->skip_filters = volume_skips(cy);
	st->has_spread = prof->prefilter[PLUGIN_POD_TOPOLOGY_SPREAD] &&
			 spread_prefilter(st, cy, given);
	if (prof->prefilter[PLUGIN_POD_TOPOLOGY_SPREAD] && !st->has_spread)
		st->skip_filters |= 1u << PLUGIN_POD_TOPOLOGY_SPREAD;
	st->has_affinity = prof->prefilter[PLUGIN_INTER_POD_AFFINITY] &&
			   affinity_prefilter(st, cy, given);
	if (prof->prefilter[PLUGIN_INTER_POD_AFFINITY] && !st->has_affinity)
		st->skip_filters |= 1u << PLUGIN_INTER_POD_AFFINITY;

	/* the cycle's AddPod/RemovePod calls so far */
	for (int i = 0; i < cy->n_deltas; i++) {
		const struct model_delta *d = &cy->deltas[i];
		if (d->sign > 0)
			model_cycle_state_add_pod(st, d->pod, d->node);
		else
			model_cycle_state_remove_pod(st, d->pod, d->node);
	}
}

void model_cycle_state_clone(struct model_cycle_state *dst,
			     const struct model_cycle_state *src)
{
	assert(dst && src);
	dst->cluster = src->cluster;
	dst->profile = src->profile;
	dst->pod = src->pod;
	dst->base = src->base;
	dst->pods = src->pods;
	dst->node_tree = src->node_tree;
	dst->request = src->request;
	dst->node_sums = NULL;
	dst->memo = src->memo;
	dst->skip_filters = src->skip_filters;
	dst->scratch = src->scratch;
	dst->mark = arena_mark(dst->scratch);
	dst->has_spread = src->has_spread;
	if (src->has_spread)
		model_spread_prefilter_copy(&dst->spread, &src->spread,
					    dst->scratch);
	dst->has_affinity = src->has_affinity;
	if (src->has_affinity)
		model_affinity_prefilter_copy(&dst->affinity, &src->affinity,
					      dst->scratch);
	dst->own_ctx = NULL;
	dst->own_static = NULL;
}

void model_cycle_state_add_pod(struct model_cycle_state *st, int q, int node)
{
	assert(st);
	if (st->has_spread)
		model_spread_prefilter_apply(&st->spread, q, node, +1);
	if (st->has_affinity)
		model_affinity_prefilter_apply(&st->affinity, q, node, +1);
}

void model_cycle_state_remove_pod(struct model_cycle_state *st, int q, int node)
{
	assert(st);
	if (st->has_spread)
		model_spread_prefilter_apply(&st->spread, q, node, -1);
	if (st->has_affinity)
		model_affinity_prefilter_apply(&st->affinity, q, node, -1);
}

void model_cycle_state_release(struct model_cycle_state *st)
{
	assert(st);
	if (st->has_spread)
		model_spread_prefilter_release(&st->spread);
	arena_reset(st->scratch, st->mark);
	model_spread_static_free(st->own_static);
	if (st->own_ctx) {
		model_context_release(st->own_ctx);
		free(st->own_ctx);
	}
	st->has_spread = false;
	st->has_affinity = false;   /* its storage: the scratch given back */
	st->own_static = NULL;
	st->own_ctx = NULL;
}
