/*
 * score_node_resources_fit.c - the NodeResourcesFit score (reference §2.7
 * "Score": resource_allocation.go, least_allocated.go, most_allocated.go,
 * requested_to_capacity_ratio.go, helper/shape_score.go).
 */
#include "plugin.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cycle_state.h"
#include "pod_requests.h"
#include "../core/xalloc.h"

#define MAX_NODE_SCORE 100
#define MAX_UTILIZATION 100
#define SHAPE_SCALE 10   /* MaxNodeScore / MaxCustomPriorityScore */

/* LeastAllocated per resource: free share of the capacity. */
static int64_t least_requested(int64_t req, int64_t alloc)
{
	if (req > alloc)
		return 0;
	return model_go_mul(model_go_sub(alloc, req), MAX_NODE_SCORE) / alloc;
}

/* MostAllocated per resource: used share, requests above capacity capped
 * (pods without requests count 100m / 200Mi and may overshoot). */
static int64_t most_requested(int64_t req, int64_t alloc)
{
	if (req > alloc)
		req = alloc;
	return model_go_mul(req, MAX_NODE_SCORE) / alloc;
}

/* BuildBrokenLinearFunction over the profile's shape, scores x10. */
static int64_t shape_at(const struct sched_profile *prof, int64_t p)
{
	for (int k = 0; k < prof->n_shape; k++) {
		if (p > prof->shape[k].utilization)
			continue;
		int64_t sk = prof->shape[k].score * SHAPE_SCALE;
		if (k == 0)
			return sk;
		int64_t s0 = prof->shape[k - 1].score * SHAPE_SCALE;
		int64_t u0 = prof->shape[k - 1].utilization;
		return s0 + (sk - s0) * (p - u0) / (prof->shape[k].utilization - u0);
	}
	return prof->shape[prof->n_shape - 1].score * SHAPE_SCALE;
}

static int64_t rtcr_resource(const struct sched_profile *prof, int64_t req,
			     int64_t alloc)
{
	if (req > alloc)
		return shape_at(prof, MAX_UTILIZATION);
	return shape_at(prof, model_go_mul(req, MAX_UTILIZATION) / alloc);
}

/*
 * Score(Pod, Node) ==
 *   LET R == the profile's scoringStrategy.resources (name r_i, weight w_i)
 *       <<A_i, Q_i>> == AllocReq(Node, r_i, ScoreRequest(Pod)[r_i])
 *       K == {i : A_i /= 0}
 *   IN CASE LeastAllocated ->
 *             Σ_{i \in K} (IF Q_i > A_i THEN 0 ELSE (A_i - Q_i)*100 \div A_i) * w_i
 *               \div Σ_{i \in K} w_i                         (0 when K = {})
 *        [] MostAllocated ->
 *             Σ_{i \in K} (Min(Q_i, A_i)*100 \div A_i) * w_i \div Σ_{i \in K} w_i
 *        [] RequestedToCapacityRatio ->
 *             LET F_i == Shape(IF Q_i > A_i THEN 100 ELSE Q_i*100 \div A_i)
 *                 K' == {i \in K : F_i > 0}
 *             IN Round(float(Σ_{K'} F_i*w_i) / float(Σ_{K'} w_i))
 * Integer arithmetic as Go int64; no NormalizeScore; PreScore never skips;
 * an empty resource list is kube's "resources not found" Error.  The seed
 * has no resource score (reference §5 (f)).
 */
static int64_t node_score(const struct model_cycle *cy, int node,
			  const int64_t *pod_req, int64_t *requested)
{
	const struct cluster *c = cy->cluster;
	const struct sched_profile *prof = cy->profile;
	struct model_node_usage u = {.requested = requested};
	model_node_requested(cy->state->pods, cy->view, node, requested,
			     &u.nonzero_cpu, &u.nonzero_mem, NULL);
	int64_t sum = 0, weights = 0;
	for (int i = 0; i < prof->n_fit_resources; i++) {
		int res = cluster_res_index(c, prof->fit_resources[i].name);
		int64_t alloc, req, w = prof->fit_resources[i].weight, s;
		model_alloc_request(c, &c->nodes[node], res,
				    res >= 0 ? pod_req[res] : 0, false, &u,
				    &alloc, &req);
		if (alloc == 0)
			continue;
		switch (prof->fit_strategy) {
		case FIT_LEAST_ALLOCATED:
			s = least_requested(req, alloc);
			break;
		case FIT_MOST_ALLOCATED:
			s = most_requested(req, alloc);
			break;
		default:
			s = rtcr_resource(prof, req, alloc);
			if (s <= 0)
				continue;
			break;
		}
		sum = model_go_add(sum, model_go_mul(s, w));
		weights = model_go_add(weights, w);
	}
	if (weights == 0)
		return 0;
	if (prof->fit_strategy == FIT_REQUESTED_TO_CAPACITY_RATIO)
		return (int64_t)round((double)sum / (double)weights);
	return sum / weights;
}

enum sched_code model_score_node_resources_fit(const struct model_cycle *cy,
					       const int *feasible, int n,
					       int64_t *scores,
					       struct sched_status *err)
{
	assert(cy && (n == 0 || (feasible && scores)) && err);
	sched_status_ok(err);
	const struct cluster *c = cy->cluster;
	if (cy->profile->n_fit_resources == 0) {
		sched_status_add(err, SCHED_ERROR, "resources not found");
		return SCHED_ERROR;
	}
	assert(cy->profile->fit_strategy != FIT_REQUESTED_TO_CAPACITY_RATIO ||
	       cy->profile->n_shape > 0);
	struct arena *scratch = cy->state->scratch;
	struct arena_mark mark = arena_mark(scratch);
	int64_t *requested = arena_take_array(scratch, (size_t)c->n_res + 1,
					      sizeof *requested);
	/* ScoreRequest: NodeInfo's cached row of the pod */
	const int64_t *pod_req = model_pod_table_score(cy->state->pods, cy->pod);
	for (int i = 0; i < n; i++)
		scores[i] = node_score(cy, feasible[i], pod_req, requested);
	arena_reset(scratch, mark);
	return SCHED_SUCCESS;
}
