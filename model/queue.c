/*
 * queue.c - which pod the scheduler takes next: PrioritySort and the
 * pending-pod rules of the scheduling queue.
 *
 * Spec (shared/seeds/004, "Control loop"): the scheduler picks a pod of
 * Unbound with \A Other \in Unbound : Other.Spec.Priority <= Pod.Spec.Priority.
 * kube v1.30 (reference §1.2): only pods with empty spec.nodeName whose
 * schedulerName names a profile are queued; gated pods stay out of activeQ;
 * pods being deleted are skipped at Pop; activeQ is ordered by priority
 * (desc) then queue timestamp (asc).  The model has no clock, so the queue
 * timestamp is the creation time, then manifest order (DEVIATIONS.md).
 */
#include "model.h"

#include <assert.h>

/*
 * PrioritySort Less(p1, p2) == prio(p1) > prio(p2) \/
 *   (prio(p1) = prio(p2) /\ p1.Timestamp < p2.Timestamp)
 * A pod without creationTimestamp counts as created now, i.e. after every
 * pod that has one.
 */
bool model_queue_less(const struct cluster *c, int a, int b)
{
	assert(c && a >= 0 && a < c->n_pods && b >= 0 && b < c->n_pods);
	const struct pod *pa = &c->pods[a], *pb = &c->pods[b];
	if (pa->priority != pb->priority)
		return pa->priority > pb->priority;
	if (pa->creation.has != pb->creation.has)
		return pa->creation.has;
	if (pa->creation.has && pa->creation.seconds != pb->creation.seconds)
		return pa->creation.seconds < pb->creation.seconds;
	return a < b;
}

const struct sched_profile *model_profile_for(const struct cluster *c, int p)
{
	assert(c && p >= 0 && p < c->n_pods);
	return config_find_profile(&c->config, c->pods[p].scheduler_name);
}

/* kube §1.2, without the profile: the pod is pending, not gated and not
 * being deleted. */
static bool queue_waiting(const struct snapshot *s, int p)
{
	const struct pod *pod = &s->cluster->pods[p];
	return s->pod_node[p] == SNAP_PENDING && pod->n_gates == 0 &&
	       !pod->dra_gated && !pod->deletion.has;
}

/* kube §1.2: the pod is in activeQ and Pop would schedule it. */
static bool queue_eligible(const struct sched_config *cfg,
			   const struct snapshot *s, int p)
{
	return queue_waiting(s, p) &&
	       config_find_profile(cfg, s->cluster->pods[p].scheduler_name) != NULL;
}

int model_next_pod(const struct sched_config *cfg, const struct snapshot *s)
{
	assert(cfg && s && s->cluster);
	int best = -1;
	for (int p = 0; p < s->cluster->n_pods; p++)
		if (queue_eligible(cfg, s, p) &&
		    (best < 0 || model_queue_less(s->cluster, p, best)))
			best = p;
	return best;
}

int model_next_pod_of(const struct snapshot *s,
		      const struct sched_profile *const *prof)
{
	assert(s && s->cluster && prof);
	const struct cluster *c = s->cluster;
	int best = -1;
	/* queue_eligible with the profile looked up already */
	for (int p = 0; p < c->n_pods; p++)
		if (prof[p] && queue_waiting(s, p) &&
		    (best < 0 || model_queue_less(c, p, best)))
			best = p;
	return best;
}

/* The nominator only holds pods of this scheduler's queue: the informer
 * handler queues only pending pods some profile is responsible for
 * (responsibleForPod), and PriorityQueue.Add returns before
 * AddNominatedPod for a pod its PreEnqueue plugins (SchedulingGates,
 * reference §2.1) gate. */
bool model_in_nominator(const struct cluster *c, int p)
{
	assert(c && p >= 0 && p < c->n_pods);
	return c->pods[p].n_gates == 0 && !c->pods[p].dra_gated &&
	       model_profile_for(c, p) != NULL;
}
