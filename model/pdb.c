/*
 * pdb.c - PodDisruptionBudget accounting for preemption (reference §3.4
 * step 4; kube v1.30 filterPodsWithPDBViolation in
 * S/framework/plugins/defaultpreemption/default_preemption.go).
 *
 * The spec measures Casualty with PDBs ("抢占损害是用Pod Disruption
 * Budget来评估的"); kube counts how many victims violate a budget.
 *
 * disruptionsAllowed: kube's scheduler copies status.disruptionsAllowed,
 * which the disruption controller (pkg/controller/disruption) keeps up to
 * date.  When a manifest gives the status, kso copies it as is (it is not
 * recomputed after evictions: kso does not run the controller).  When it
 * does not, kso computes what the controller would write on the current
 * placement:
 *   matched        = pods of the PDB's namespace its selector matches (the
 *                    controller's selector: nil matches nothing, {} every
 *                    pod), not deleted
 *   expectedCount  = |matched|  (kube: the controllers' scale for
 *                    percentages and maxUnavailable; kso has no replica
 *                    counts, so the pods themselves stand for it)
 *   currentHealthy = matched pods bound to a node, without
 *                    deletionTimestamp, not in status.disruptedPods
 *                    (kube: Ready pods; kso has no readiness of pods)
 *   desiredHealthy = minAvailable (int), or ceil(minAvailable% *
 *                    expectedCount / 100); or expectedCount -
 *                    maxUnavailable (int, or ceil of the percentage),
 *                    at least 0; 0 when neither is set
 *   allowed        = currentHealthy - desiredHealthy, 0 when that is
 *                    negative or expectedCount is 0
 */
#include "preemption.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "../core/xalloc.h"

static bool in_disrupted(const struct pdb *b, const char *name)
{
	for (int i = 0; i < b->n_disrupted_pods; i++)
		if (!strcmp(b->disrupted_pods[i], name))
			return true;
	return false;
}

/*
 * filterPodsWithPDBViolation's match: a pod with no labels matches no PDB;
 * the PDB must be in the pod's namespace; a nil or empty selector matches
 * nothing (selector.Empty() is skipped); otherwise the selector decides.
 */
bool model_pdb_selects(const struct cluster *c, int pdb, int pod)
{
	assert(c && pdb >= 0 && pdb < c->n_pdbs && pod >= 0 && pod < c->n_pods);
	const struct pdb *b = &c->pdbs[pdb];
	const struct pod *p = &c->pods[pod];
	if (p->labels.n == 0 || strcmp(b->ns, p->ns))
		return false;
	if (!b->selector.present || match_label_selector_is_empty(&b->selector))
		return false;
	return match_label_selector(&b->selector, &p->labels);
}

/* intstr.GetScaledValueFromIntOrPercent(v, total, roundUp=true). */
static int64_t scaled(struct int_or_percent v, int64_t total)
{
	if (!v.percent)
		return v.value;
	return ((int64_t)v.value * total + 99) / 100;
}

/* The disruption controller's count of one PDB on placement s. */
static int32_t controller_allowed(const struct snapshot *s, int pdb)
{
	const struct cluster *c = s->cluster;
	const struct pdb *b = &c->pdbs[pdb];
	int64_t expected = 0, healthy = 0;
	for (int p = 0; p < c->n_pods; p++) {
		const struct pod *pod = &c->pods[p];
		if (s->pod_node[p] == SNAP_GONE || strcmp(pod->ns, b->ns) ||
		    !match_label_selector(&b->selector, &pod->labels))
			continue;
		expected++;
		bool bound = s->pod_node[p] >= 0 ||
			     s->pod_node[p] == SNAP_ELSEWHERE;
		if (bound && !pod->deletion.has &&
		    !in_disrupted(b, pod->name))
			healthy++;
	}
	int64_t desired = 0;
	if (b->max_unavailable.set) {
		desired = expected - scaled(b->max_unavailable, expected);
		if (desired < 0)
			desired = 0;
	} else if (b->min_available.set) {
		desired = scaled(b->min_available, expected);
	}
	int64_t allowed = healthy - desired;
	if (expected <= 0 || allowed < 0)
		allowed = 0;
	return (int32_t)allowed;
}

void model_pdb_allowed(const struct snapshot *s, int32_t *out)
{
	assert(s && s->cluster && (out || s->cluster->n_pdbs == 0));
	const struct cluster *c = s->cluster;
	for (int i = 0; i < c->n_pdbs; i++)
		out[i] = c->pdbs[i].has_disruptions_allowed
			? c->pdbs[i].disruptions_allowed
			: controller_allowed(s, i);
}

/* Whether pod p spends a disruption of PDB b in §3.4 step 4: b selects
 * it and does not already list it in disruptedPods. */
static bool spends(const struct cluster *c, int b, int p)
{
	return model_pdb_selects(c, b, p) &&
	       !in_disrupted(&c->pdbs[b], c->pods[p].name);
}

void model_pdb_spends(const struct cluster *c, bool *out)
{
	assert(c && (out || c->n_pdbs == 0 || c->n_pods == 0));
	for (int p = 0; p < c->n_pods; p++)
		for (int b = 0; b < c->n_pdbs; b++)
			out[(size_t)p * (size_t)c->n_pdbs + (size_t)b] = spends(c, b, p);
}

/*
 * kube §3.4 step 4: walk the pods in MoreImportantPod order; each matching
 * PDB that does not already list the pod in disruptedPods loses one
 * allowed disruption; a pod that drives any budget below zero violates.
 */
int model_pdb_split_with(const struct cluster *c, const int32_t *allowed,
			 const bool *spent, const int *pods, int n,
			 bool *violating)
{
	assert(c && (pods || n == 0) && (violating || n == 0));
	if (c->n_pdbs == 0) {
		/* no budget to spend: nobody violates */
		memset(violating, 0, sizeof *violating * (size_t)n);
		return 0;
	}
	/* the budgets left as the walk spends them */
	int32_t *left = xmalloc(sizeof *left * (size_t)c->n_pdbs);
	memcpy(left, allowed, sizeof *left * (size_t)c->n_pdbs);
	int count = 0;
	for (int i = 0; i < n; i++) {
		violating[i] = false;
		for (int b = 0; b < c->n_pdbs; b++) {
			if (spent ? !spent[(size_t)pods[i] * (size_t)c->n_pdbs + (size_t)b]
				  : !spends(c, b, pods[i]))
				continue;
			left[b]--;
			if (left[b] < 0)
				violating[i] = true;
		}
		count += violating[i];
	}
	free(left);
	return count;
}

int model_pdb_split(const struct cluster *c, const int32_t *allowed,
		    const int *pods, int n, bool *violating)
{
	return model_pdb_split_with(c, allowed, NULL, pods, n, violating);
}
