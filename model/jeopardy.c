/*
 * jeopardy.c - Jeopardy(Pod, Node, Snapshot): which pods a preemptor may
 * evict, kube's eligibility rule for preempting at all, and the nodes
 * where preemption might help.
 *
 * Spec (shared/seeds/004, 抢占流程): "删除绑定到该Node的较低优先级Pod子集"
 * - the subsets of the lower-priority pods bound to the node.
 * kube v1.30: reference §3.1 (PodEligibleToPreemptOthers), §3.2
 * (nodesWherePreemptionMightHelp), §3.4 step 1 (strictly lower priority).
 */
#include "preemption.h"

#include <assert.h>
#include <stdio.h>

/*
 * Jeopardy(Pod, Node, S) == {Other \in S : BoundTo(Other, Node, S) /\
 *                            Other.Spec.Priority < Pod.Spec.Priority}
 * Equal priority is never in jeopardy (§3.4 step 1 removes only strictly
 * lower).  A pod with preemptionPolicy Never puts nobody in jeopardy: kube
 * never lets it preempt (§3.1).
 */
int model_jeopardy(const struct snapshot *s, int pod, int node, int *out)
{
	assert(s && s->cluster && out);
	const struct cluster *c = s->cluster;
	assert(pod >= 0 && pod < c->n_pods);
	const struct pod *p = &c->pods[pod];
	if (p->preempt_never)
		return 0;
	int n = 0;
	for (int q = 0; q < c->n_pods; q++)
		if (q != pod && s->pod_node[q] == node &&
		    c->pods[q].priority < p->priority)
			out[n++] = q;
	return n;
}

/* Some pod on node with priority below prio is terminating by preemption:
 * deletionTimestamp set and its first DisruptionTarget condition True with
 * reason PreemptionByScheduler (PodDisruptionConditions is on in v1.30).
 * A pod terminating for any other reason does not count (§3.1). */
static bool terminating_victim_on(const struct snapshot *s, int node,
				  int32_t prio)
{
	const struct cluster *c = s->cluster;
	for (int q = 0; q < c->n_pods; q++)
		if (s->pod_node[q] == node && c->pods[q].priority < prio &&
		    c->pods[q].deletion.has && c->pods[q].preemption_target)
			return true;
	return false;
}

/*
 * kube §3.1: not eligible when the preemption policy is Never, or when the
 * pod is already nominated to a node N whose status this cycle is not UAU
 * and N still holds a terminating lower-priority pod (an earlier preemption
 * is still in progress there: wait for it instead of evicting more).
 */
bool model_preemption_eligible(const struct snapshot *s, int pod,
			       const struct sched_cycle_result *r,
			       char *why, int why_len)
{
	assert(s && r && why && why_len > 0);
	const struct pod *p = &s->cluster->pods[pod];
	why[0] = '\0';
	if (p->preempt_never) {
		snprintf(why, (size_t)why_len,
			 "not eligible due to preemptionPolicy=Never.");
		return false;
	}
	int nom = s->nominated[pod];
	if (nom < 0 || nom >= r->n_nodes)
		return true;
	if (r->verdicts[nom].code == SCHED_UAU)
		return true;
	if (terminating_victim_on(s, nom, p->priority)) {
		snprintf(why, (size_t)why_len,
			 "not eligible due to a terminating pod on the "
			 "nominated node.");
		return false;
	}
	return true;
}

/* kube §3.2: only a node whose recorded status is exactly Unschedulable
 * may become schedulable by evicting pods; UAU, and no status (outside the
 * PreFilterResult, which model_schedule_cycle records as UAU), mean
 * preemption cannot help there.  The nominated node keeps the status its
 * fast-path evaluation gave even outside the PreFilterResult, as in kube. */
int model_preemption_potential(const struct sched_cycle_result *r, int *out)
{
	assert(r && out);
	int n = 0;
	for (int i = 0; i < r->n_nodes; i++)
		if (r->verdicts[i].code == SCHED_UNSCHEDULABLE)
			out[n++] = i;
	return n;
}
