/*
 * requeue.h - which parked pods a cluster event of kso's loop moves back
 * to the active queue, per release (delta reference §8; kube v1.30.12
 * internal/queue/scheduling_queue.go and v1.34.1 backend/queue/
 * scheduling_queue.go isPodWorthRequeuing, eventhandlers.go, each default
 * plugin's EventsToRegister and QueueingHintFns).
 *
 * A pod that fails a cycle is parked with the plugins that rejected it
 * (UnschedulablePlugins: each node's first failing Filter, or the
 * PreFilter's; v1.34 adds the PreFilters that returned node names).
 * Only pod events and claims' status updates happen in kso's loop (no
 * node, volume, slice or class ever changes), so only the plugins that
 * register those matter; the rest count as "some plugin" (the pod is
 * parked, no event of the loop moves it).
 *
 * The events of one step, each processed after the step's own pod is
 * parked (README "The scheduler loop"):
 *   - a pod bound: an assigned pod added (v1.30 AssignedPodAdded, which
 *     looks only at parked pods with a required pod affinity term
 *     matching it; v1.34 MoveAllToActiveOrBackoffQueue with hints);
 *   - a victim deleted: an assigned pod deleted;
 *   - (v1.34 only) a pending pod whose status.nominatedNodeName had a node
 *     loses or changes it, or leaves the unscheduled pods by binding:
 *     eventhandlers.go treats it as an assigned pod deleted, for the
 *     parked pods of lower or equal priority (getLEPriorityPreCheck); the
 *     hints see a deleted pod with no node and a nominated node;
 *   - (v1.34 only) a ResourceClaim's status changed (core/dra_live.h),
 *     DynamicResources' hint isSchedulableAfterClaimChange (requeue.c).
 * v1.30 (SchedulerQueueingHints off, pkg/features v1.30.12): a pod moves
 * when one of its rejecting plugins registered the event's kind (every
 * hint reads Queue).  v1.34 (hints GA): when one of its rejecting
 * plugins' hint for the event says Queue.
 */
#ifndef KSO_REQUEUE_H
#define KSO_REQUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/objects.h"
#include "../core/verdict.h"

/* The rejecting plugins of a parked pod, as far as pod events read them. */
enum {
	MODEL_REJ_NONE = 1 << 0,     /* no plugin recorded (Error, no nodes,
				      * v1.30's PreFilterResult of no node,
				      * or an engine naming none: a scheduler
				      * under test driving the loop): kube
				      * sends it to backoffQ, retried whatever
				      * happens (see model_requeue_wakes) */
	MODEL_REJ_FIT = 1 << 1,      /* NodeResourcesFit */
	MODEL_REJ_PORTS = 1 << 2,    /* NodePorts */
	MODEL_REJ_VOLUME_RESTRICTIONS = 1 << 3,
	MODEL_REJ_VOLUME_LIMITS = 1 << 4,  /* NodeVolumeLimits; v1.30's
					    * EBSLimits, GCEPDLimits,
					    * AzureDiskLimits (the same events) */
	MODEL_REJ_SPREAD = 1 << 5,   /* PodTopologySpread */
	MODEL_REJ_AFFINITY = 1 << 6, /* InterPodAffinity */
	MODEL_REJ_CLAIMS = 1 << 7    /* DynamicResources (v1.34; only a pod
				      * with claims) */
};

/* The bits but MODEL_REJ_CLAIMS fit in 7: a parked pod's byte in the
 * enumerator's state is 1 | rejectors << 1, MODEL_REJ_CLAIMS kept apart
 * (enum/enum.h ENUM_STATE_BYTES). */
#define MODEL_REJ_BITS 7

/* model_requeue_rejectors: the rejecting plugins of pod's failed cycle r
 * (any code but SUCCESS) on a placement where pod was nominated to
 * nominated (-1: none) when the cycle ran. */
uint8_t model_requeue_rejectors(const struct cluster *c,
				const struct sched_cycle_result *r,
				int nominated);

struct dra_live;

/* The cluster events of one step. */
struct model_requeue_events {
	int bound;                  /* the pod the step bound, -1 */
	const int *deleted;         /* bound pods deleted (the victims) */
	int n_deleted;
	const int *unnominated;     /* pending pods whose nominatedNodeName
				     * had a node and lost or changed it, or
				     * that bound with one (v1.34's events) */
	int n_unnominated;
	/* The ResourceClaims' status before and after the step's changes
	 * (allocated or reserved at a bind, unreserved or deallocated by a
	 * deletion or a PostFilter; core/dra_live.h): each claim whose
	 * status differs is an update event.  NULL, NULL: no claim. */
	const struct dra_live *claims_was, *claims_now;
};

/* model_requeue_wakes: whether the events e move parked pod p, rejected
 * by rejectors, back to activeQ.  A pod with MODEL_REJ_NONE moves on any
 * event: kube retries it after each backoff with nothing changed, so the
 * retry fails the same way; kso folds those retries into one, at the next
 * event (README "The scheduler loop"). */
bool model_requeue_wakes(const struct cluster *c, int p, uint8_t rejectors,
			 const struct model_requeue_events *e);

#endif
