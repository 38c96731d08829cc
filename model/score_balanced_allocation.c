/*
 * score_balanced_allocation.c - the NodeResourcesBalancedAllocation score
 * (reference §2.8, S/framework/plugins/noderesources/balanced_allocation.go).
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

/* Room for every configured resource's fraction (the profile's list). */
#define MAX_FRACTIONS CONFIG_MAX_RESOURCES

/*
 * Score(Pod, Node) ==
 *   LET <<A_i, Q_i>> == AllocReq(Node, r_i, PodRequests(Pod)[r_i]) with
 *                       useRequested (Requested, not NonZeroRequested)
 *       F == <<Min(1, float(Q_i) / float(A_i)) : i with A_i /= 0>>
 *       Std == CASE Len(F) = 2 -> |(F[1] - F[2]) / 2|
 *              [] Len(F) > 2 -> LET M == (Σ F) / Len(F)
 *                               IN Sqrt(Σ_i (F[i] - M)^2 / Len(F))
 *              [] OTHER      -> 0
 *   IN Trunc((1 - Std) * 100)
 * Floats evaluated in that order (IEEE double, as Go).  Arg weights are
 * unused; no NormalizeScore.  Not in the seed.  PreScore never skips in
 * v1.30; v1.34 skips a best-effort pod (BestEffort below).
 */
static int64_t node_score(const struct model_cycle *cy, int node,
			  const int64_t *pod_req, int64_t *requested)
{
	const struct cluster *c = cy->cluster;
	const struct sched_profile *prof = cy->profile;
	struct model_node_usage u = {.requested = requested};
	model_node_requested(cy->state->pods, cy->view, node, requested,
			     &u.nonzero_cpu, &u.nonzero_mem, NULL);
	double f[MAX_FRACTIONS], total = 0.0;
	int nf = 0;
	for (int i = 0; i < prof->n_balanced_resources && nf < MAX_FRACTIONS; i++) {
		int res = cluster_res_index(c, prof->balanced_resources[i].name);
		int64_t alloc, req;
		model_alloc_request(c, &c->nodes[node], res,
				    res >= 0 ? pod_req[res] : 0, true, &u,
				    &alloc, &req);
		if (alloc == 0)
			continue;
		double fraction = (double)req / (double)alloc;
		if (fraction > 1)
			fraction = 1;
		total += fraction;
		f[nf++] = fraction;
	}
	double std = 0.0;
	if (nf == 2) {
		std = fabs((f[0] - f[1]) / 2);
	} else if (nf > 2) {
		double mean = total / (double)nf, sum = 0.0;
		for (int i = 0; i < nf; i++)
			sum = sum + (f[i] - mean) * (f[i] - mean);
		std = sqrt(sum / (double)nf);
	}
	return (int64_t)((1 - std) * (double)MAX_NODE_SCORE);
}

/*
 * v1.34 (delta §5.2, balanced_allocation.go PreScore, isBestEffortPod):
 *   BestEffort(Pod) == \A i : PodRequests(Pod)[r_i] = 0
 * over the configured resources (an empty list is best effort): PreScore
 * Skip, or, without its PreScore, a Score of 0 on every node.
 */
static bool best_effort(const struct model_cycle *cy, const int64_t *pod_req)
{
	const struct sched_profile *prof = cy->profile;
	for (int i = 0; i < prof->n_balanced_resources; i++) {
		int res = cluster_res_index(cy->cluster, prof->balanced_resources[i].name);
		if (res >= 0 && pod_req[res] != 0)
			return false;
	}
	return true;
}

enum sched_code model_score_balanced_allocation(const struct model_cycle *cy,
						const int *feasible, int n,
						int64_t *scores,
						struct sched_status *err)
{
	assert(cy && (n == 0 || (feasible && scores)) && err);
	sched_status_ok(err);
	const struct cluster *c = cy->cluster;
	bool v134 = config_at_least(&c->config, KUBE_1_34);
	if (!v134 && cy->profile->n_balanced_resources == 0) {
		sched_status_add(err, SCHED_ERROR, "resources not found");
		return SCHED_ERROR;
	}
	struct arena *scratch = cy->state->scratch;
	struct arena_mark mark = arena_mark(scratch);
	int64_t *requested = arena_take_array(scratch, (size_t)c->n_res + 1,
					      sizeof *requested);
	/* PodRequests: the cycle state's Req */
	const int64_t *pod_req = cy->state->request;
	if (v134 && best_effort(cy, pod_req)) {
		for (int i = 0; i < n; i++)
			scores[i] = 0;
		arena_reset(scratch, mark);
		return SCHED_SKIP;
	}
	for (int i = 0; i < n; i++)
		scores[i] = node_score(cy, feasible[i], pod_req, requested);
	arena_reset(scratch, mark);
	return SCHED_SUCCESS;
}
