/*
 * filter_node_resources_fit.c - the NodeResourcesFit filter (reference
 * §2.7 "Filter", S/framework/plugins/noderesources/fit.go fitsRequest).
 */
#include "plugin.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cycle_state.h"
#include "pod_requests.h"
#include "../core/xalloc.h"

/* IsExtendedResourceName for a name the loader classed as scalar: it has a
 * '/' and is not in the kubernetes.io namespace (hugepages-* and
 * attachable-volumes-* have no '/'). */
static bool is_extended(const char *name)
{
	return strchr(name, '/') && !strstr(name, "kubernetes.io/");
}

/* NodeResourcesFitArgs ignoredResources / ignoredResourceGroups, which
 * only ever apply to extended resources. */
static bool ignored(const struct sched_profile *prof, const char *name)
{
	if (!is_extended(name))
		return false;
	for (int i = 0; i < prof->n_fit_ignored_resources; i++)
		if (strcmp(prof->fit_ignored_resources[i], name) == 0)
			return true;
	size_t group = (size_t)(strchr(name, '/') - name);
	for (int i = 0; i < prof->n_fit_ignored_groups; i++) {
		const char *g = prof->fit_ignored_groups[i];
		if (strlen(g) == group && strncmp(g, name, group) == 0)
			return true;
	}
	return false;
}

/* Pods with nothing to check stop after the pod-count test.  kube tests
 * "no scalar key" rather than "every scalar 0", but a listed scalar of 0 is
 * skipped below anyway, so both give the same reasons. */
static bool requests_nothing(const struct cluster *c, const int64_t *req)
{
	for (int r = 0; r < c->n_res; r++)
		if (r != RES_PODS && c->res_class[r] != RESCLASS_IGNORED && req[r] != 0)
			return false;
	return true;
}

/* One "Insufficient <name>" test: Req > Allocatable - Requested.  From
 * v1.34 (delta reference §5.1) a shortfall where Req > Allocatable alone
 * is unresolvable (no preemption frees it): the status's code becomes
 * UnschedulableAndUnresolvable, the reason stays. */
static void check_one(const struct cluster *c, const struct node *n, int r,
		      const int64_t *req, const int64_t *used,
		      struct sched_status *out)
{
	/* Req[r] > 0 first: the allocatable lookup only when it matters */
	if (req[r] <= 0)
		return;
	int64_t alloc = resource_values_get(&n->allocatable, r, NULL);
	if (req[r] <= model_go_sub(alloc, used[r]))
		return;
	bool unresolvable = req[r] > alloc &&
			    config_at_least(&c->config, KUBE_1_34);
	sched_status_add_join(out, unresolvable ? SCHED_UAU : SCHED_UNSCHEDULABLE,
			      (const char *[]){"Insufficient ", c->res_names[r]}, 2);
}

/*
 * Filter(Pod, Node) ==
 *   LET Req == PodRequests(Pod); Used == Requested(Node); A == Allocatable(Node)
 *   IN /\ Cardinality(Pods(Node)) + 1 <= A["pods"]           ("Too many pods")
 *      /\ \A r \in {cpu, memory, ephemeral-storage} \cup Scalars \ Ignored :
 *           Req[r] > 0 => Req[r] <= A[r] - Used[r]            ("Insufficient r")
 * with every failing reason collected in kube's order (pods, cpu, memory,
 * ephemeral-storage, then scalars; kube ranges over a Go map for scalars,
 * kso uses resource-name order), code Unschedulable - from v1.34
 * UnschedulableAndUnresolvable when some Req[r] > A[r].  A missing
 * allocatable entry reads as 0 (so no allocatable "pods" rejects all).
 * Seed (004 §1.2): max(init) and Σ main compared with allocatable
 * separately, only 1 <= allocatable.pods; v1.30 compares one combined
 * request (sidecars, overhead) with what the node's pods left free and
 * covers every scalar resource (reference §5 (c)).
 * fit_check: the filter on the pod's requests req and the node's
 * bookkeeping (used, pods).
 */
static void fit_check(const struct model_cycle *cy, const struct node *n,
		      const int64_t *req, const int64_t *used, int pods,
		      struct sched_status *out)
{
	const struct cluster *c = cy->cluster;
	int64_t allowed = resource_values_get(&n->allocatable, RES_PODS, NULL);
	if ((int64_t)pods + 1 > allowed)
		sched_status_add(out, SCHED_UNSCHEDULABLE, "Too many pods");
	if (requests_nothing(c, req))
		return;
	check_one(c, n, RES_CPU, req, used, out);
	check_one(c, n, RES_MEMORY, req, used, out);
	check_one(c, n, RES_EPHEMERAL, req, used, out);
	for (int r = RES_FIRST_OTHER; r < c->n_res; r++)
		if (c->res_class[r] == RESCLASS_SCALAR && req[r] != 0 &&
		    !ignored(cy->profile, c->res_names[r]))
			check_one(c, n, r, req, used, out);
}

/* Req and each pod's part of Used are the cycle state's (NodeInfo's
 * cached requests). */
void model_filter_node_resources_fit(const struct model_cycle *cy, int node,
				     struct sched_status *out)
{
	assert(cy && out && node >= 0 && node < cy->cluster->n_nodes);
	sched_status_ok(out);
	const struct cluster *c = cy->cluster;
	const struct node *n = &c->nodes[node];
	struct arena *scratch = cy->state->scratch;
	struct arena_mark mark = arena_mark(scratch);
	int64_t *used = arena_take_array(scratch, (size_t)c->n_res, sizeof *used);
	int pods;
	const struct model_node_sums *sums = model_cycle_sums(cy);
	if (sums) {
		/* the same sums, kept (struct model_given) */
		memcpy(used, sums->requested + (size_t)node * (size_t)c->n_res,
		       sizeof *used * (size_t)c->n_res);
		pods = sums->pods[node];
	} else {
		model_node_requested(cy->state->pods, cy->view, node, used, NULL,
				     NULL, &pods);
	}
	fit_check(cy, n, cy->state->request, used, pods, out);
	arena_reset(scratch, mark);
}
