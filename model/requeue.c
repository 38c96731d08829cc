/*
 * requeue.c - which parked pods a cluster event of kso's loop moves back
 * to activeQ, per release (requeue.h; delta reference §8).
 *
 * v1.30.12 (SchedulerQueueingHints off: every hint is the default Queue,
 * scheduler.go buildQueueingHintMap): the pod moves when a rejecting
 * plugin registered the event (isPodWorthRequeuing).  The pod events the
 * default plugins register (EventsToRegister): Pod/All InterPodAffinity,
 * PodTopologySpread; Pod/Delete NodePorts, NodeResourcesFit,
 * VolumeRestrictions, NodeVolumeLimits and the in-tree limits.  A bound
 * pod only reaches the parked pods with a required pod affinity term
 * matching it (AssignedPodAdded, getUnschedulablePodsWithMatchingAffinityTerm,
 * the bound pod's namespace labels).  Nominations send no event
 * (isPodUpdated ignores status).
 *
 * v1.34.1 (hints on): each rejecting plugin's hint for the event:
 *   InterPodAffinity  added pod: matches all the pod's affinity terms;
 *                     deleted pod: matches all its anti-affinity terms;
 *                     a pod with no node: Skip
 *   PodTopologySpread the event's pod has a node and the pod's namespace
 *                     (or is the pod itself) and its labels match one of
 *                     the pod's DoNotSchedule constraints' selectors
 *   NodeResourcesFit  deleted pod with a node or a nominated node: Queue
 *   NodePorts         deleted pod with a node or a nominated node whose
 *                     host ports conflict with the pod's
 *   NodeVolumeLimits  deleted pod with a node or a nominated node using a
 *                     claim, an ephemeral volume or a migratable in-tree
 *                     disk
 *   VolumeRestrictions deleted pod of the pod's namespace with a
 *                     conflicting disk or the same claim
 *   DynamicResources  a claim's status changed (isSchedulableAfterClaimChange,
 *                     one update event per claim): Skip when the pod's
 *                     own claims are not all found (foreachPodResourceClaim
 *                     fails); Queue when the claim lost its allocation,
 *                     whoever uses it; Queue when it is one of the pod's
 *                     own claims (UID); Skip for another claim that
 *                     keeps its allocation.  An update with the same
 *                     status is no event of kso's.  The pod events it
 *                     registers (UpdatePodGeneratedResourceClaim), its
 *                     ResourceSlice, DeviceClass and Node events never
 *                     happen in the loop.
 *   DefaultPreemption, every other plugin: no event of kso's.
 */
#include "requeue.h"

#include <assert.h>
#include <string.h>

#include "../core/dra_live.h"
#include "../core/dra_plugin.h"
#include "affinity_terms.h"
#include "model.h"
#include "plugin.h"
#include "spread_constraints.h"

/* ------------------------------------------------------ the rejectors */

static uint8_t rejector_bit(enum plugin_id id)
{
	switch (id) {
	case PLUGIN_NODE_RESOURCES_FIT: return MODEL_REJ_FIT;
	case PLUGIN_NODE_PORTS: return MODEL_REJ_PORTS;
	case PLUGIN_VOLUME_RESTRICTIONS: return MODEL_REJ_VOLUME_RESTRICTIONS;
	case PLUGIN_NODE_VOLUME_LIMITS:
	case PLUGIN_EBS_LIMITS:
	case PLUGIN_GCE_PD_LIMITS:
	case PLUGIN_AZURE_DISK_LIMITS: return MODEL_REJ_VOLUME_LIMITS;
	case PLUGIN_POD_TOPOLOGY_SPREAD: return MODEL_REJ_SPREAD;
	case PLUGIN_INTER_POD_AFFINITY: return MODEL_REJ_AFFINITY;
	case PLUGIN_DYNAMIC_RESOURCES: return MODEL_REJ_CLAIMS;
	default: return 0;
	}
}

/*
 * Diagnosis.UnschedulablePlugins (schedule_one.go findNodesThatFitPod):
 * the PreFilter's rejecting plugin, or each evaluated node's first
 * failing Filter.  Nodes outside a PreFilterResult are not evaluated.
 * The nominated node is evaluated first (evaluateNominatedNode) on a copy
 * of the diagnosis: v1.30's copy has its own set (lost), v1.34's shares
 * the set RunPreFilterPlugins returned (kept).  v1.34 also records the
 * PreFilters that returned node names (NodeAffinity, the absent status).
 * No FitError (an Error, no nodes): no plugin.
 */
uint8_t model_requeue_rejectors(const struct cluster *c,
				const struct sched_cycle_result *r,
				int nominated)
{
	assert(c && r);
	if (r->code != SCHED_UNSCHEDULABLE)
		return MODEL_REJ_NONE;
	bool v134 = config_at_least(&c->config, KUBE_1_34);
	bool some = v134 && r->absent_reason != NULL;
	uint8_t bits = 0;
	for (int n = 0; n < r->n_nodes; n++) {
		const struct sched_node_verdict *v = &r->verdicts[n];
		bool evaluated = r->in_prefilter_result[n] ||
				 (v134 && n == nominated);
		if (!evaluated || v->feasible || v->rejected_by < 0)
			continue;
		some = true;
		bits |= rejector_bit((enum plugin_id)v->rejected_by);
	}
	return some ? bits : MODEL_REJ_NONE;
}

/* ------------------------------------------------------------ v1.30 */

/* AssignedPodAdded: a required pod affinity term of p matches the bound
 * pod (its namespace's labels, empty when not found). */
static bool affinity_term_matches(const struct cluster *c, const struct pod *p,
				  const struct pod *bound)
{
	for (int i = 0; i < p->n_affinity; i++)
		if (model_affinity_term_matches(c, &p->affinity[i], p->ns,
						TERM_OF_EXISTING, bound))
			return true;
	return false;
}

static bool wakes_v130(const struct cluster *c, int p, uint8_t rej,
		       const struct model_requeue_events *e)
{
	const uint8_t on_add = MODEL_REJ_AFFINITY | MODEL_REJ_SPREAD;
	const uint8_t on_delete = on_add | MODEL_REJ_FIT | MODEL_REJ_PORTS |
		MODEL_REJ_VOLUME_RESTRICTIONS | MODEL_REJ_VOLUME_LIMITS;
	if (e->n_deleted > 0 && (rej & on_delete))
		return true;
	return e->bound >= 0 && (rej & on_add) &&
	       affinity_term_matches(c, &c->pods[p], &c->pods[e->bound]);
}

/* ------------------------------------------------------------ v1.34 */

/* What the hints read of the event's pod. */
struct event_pod {
	const struct pod *pod;
	int index;
	bool assigned;        /* spec.nodeName set (else it was nominated) */
	bool added;
};

/* podLabelsMatchSpreadConstraints over getConstraints(pod, DoNotSchedule). */
static bool spread_selects(const struct cluster *c, int p, const struct pod *x)
{
	const struct sched_profile *prof = model_profile_for(c, p);
	if (!prof)
		return false;
	struct model_spread_constraints cs;
	model_spread_constraints_build(c, prof, p, true, &cs);
	bool hit = false;
	for (int i = 0; i < cs.n && !hit; i++)
		hit = model_selector_matches(&cs.items[i].sel, &x->labels);
	model_spread_constraints_release(&cs);
	return hit;
}

/* CSILimits.isSchedulableAfterPodDeleted: a claim, an ephemeral volume or
 * an inline volume csi-translation-lib migrates (v1.34: GCE PD, EBS,
 * Azure Disk, Cinder, Portworx of the disks kso reads). */
static bool uses_limited_volume(const struct pod *x)
{
	if (x->n_volumes > 0)
		return true;
	for (int i = 0; i < x->n_disks; i++)
		switch (x->disks[i].kind) {
		case DISK_GCE_PD:
		case DISK_AWS_EBS:
		case DISK_AZURE:
		case DISK_CINDER:
		case DISK_PORTWORX:
			return true;
		default:
			break;
		}
	return false;
}

/* VolumeRestrictions.isSchedulableAfterPodDeleted. */
static bool restrictions_queue(const struct pod *p, const struct pod *x)
{
	if (strcmp(p->ns, x->ns) != 0)
		return false;
	if (model_volume_disks_conflict(p, x))
		return true;
	for (int i = 0; i < p->n_volumes; i++)
		for (int j = 0; p->volumes[i].claim && j < x->n_volumes; j++)
			if (x->volumes[j].claim &&
			    strcmp(p->volumes[i].claim, x->volumes[j].claim) == 0)
				return true;
	return false;
}

/* The hints of the plugins in rej for one event: Queue from any. */
static bool hint_queues(const struct cluster *c, int p, uint8_t rej,
			const struct event_pod *x)
{
	const struct pod *pod = &c->pods[p];
	if ((rej & MODEL_REJ_AFFINITY) && x->assigned) {
		const struct pod_affinity_term *t =
			x->added ? pod->affinity : pod->anti_affinity;
		int n = x->added ? pod->n_affinity : pod->n_anti_affinity;
		if (model_affinity_matches_all(c, t, n, pod->ns, TERM_OF_PARKED,
					       x->pod))
			return true;
	}
	if ((rej & MODEL_REJ_SPREAD) &&
	    (x->index == p || (x->assigned && !strcmp(x->pod->ns, pod->ns))) &&
	    spread_selects(c, p, x->pod))
		return true;
	if (x->added)
		return false;   /* the rest register Pod/Delete only */
	if (rej & MODEL_REJ_FIT)
		return true;
	if ((rej & MODEL_REJ_PORTS) &&
	    model_node_ports_pods_conflict(pod, x->pod, true))
		return true;
	if ((rej & MODEL_REJ_VOLUME_LIMITS) && uses_limited_volume(x->pod))
		return true;
	return (rej & MODEL_REJ_VOLUME_RESTRICTIONS) &&
	       restrictions_queue(pod, x->pod);
}

/* Whether claim k's status differs across the step. */
static bool claim_changed(const struct model_requeue_events *e, int k)
{
	return e->claims_was && e->claims_now &&
	       !dra_live_claim_equal(e->claims_was, e->claims_now, k);
}

static bool claims_changed(const struct cluster *c,
			   const struct model_requeue_events *e)
{
	for (int k = 0; k < c->n_claims; k++)
		if (claim_changed(e, k))
			return true;
	return false;
}

/* isSchedulableAfterClaimChange for each claim the step changed (kso's
 * claims are only updated, never created: originalClaim is set).  Within
 * a step a claim's status only gains (bind) or only loses (deletions,
 * PostFilter), so a claim deallocated by any of its updates has an
 * allocation before the step and none after. */
static bool claims_queue(const struct cluster *c, int p,
			 const struct model_requeue_events *e)
{
	if (!claims_changed(c, e))
		return false;
	struct arena a;
	arena_init(&a);
	const int *own = NULL;
	int n_own = dra_pod_claims(&a, c, &c->pods[p], &own);
	bool queue = false;
	for (int k = 0; n_own >= 0 && k < c->n_claims && !queue; k++) {
		if (!claim_changed(e, k))
			continue;
		queue = dra_live_allocated(e->claims_was, c, k) &&
			!dra_live_allocated(e->claims_now, c, k);
		for (int i = 0; i < n_own && !queue; i++)
			queue = own[i] == k;
	}
	arena_release(&a);
	return queue;
}

static bool wakes_v134(const struct cluster *c, int p, uint8_t rej,
		       const struct model_requeue_events *e)
{
	if ((rej & MODEL_REJ_CLAIMS) && claims_queue(c, p, e))
		return true;
	struct event_pod x = {.assigned = true};
	if (e->bound >= 0) {
		x.pod = &c->pods[e->bound];
		x.index = e->bound;
		x.added = true;
		if (hint_queues(c, p, rej, &x))
			return true;
	}
	x.added = false;
	for (int i = 0; i < e->n_deleted; i++) {
		x.pod = &c->pods[e->deleted[i]];
		x.index = e->deleted[i];
		if (hint_queues(c, p, rej, &x))
			return true;
	}
	x.assigned = false;
	for (int i = 0; i < e->n_unnominated; i++) {
		int y = e->unnominated[i];
		/* getLEPriorityPreCheck */
		if (c->pods[p].priority > c->pods[y].priority)
			continue;
		if (rej & MODEL_REJ_NONE)
			return true;
		x.pod = &c->pods[y];
		x.index = y;
		if (hint_queues(c, p, rej, &x))
			return true;
	}
	return false;
}

bool model_requeue_wakes(const struct cluster *c, int p, uint8_t rejectors,
			 const struct model_requeue_events *e)
{
	assert(c && e && p >= 0 && p < c->n_pods);
	if ((rejectors & MODEL_REJ_NONE) &&
	    (e->bound >= 0 || e->n_deleted > 0 || claims_changed(c, e)))
		return true;
	if (config_at_least(&c->config, KUBE_1_34))
		return wakes_v134(c, p, rejectors, e);
	return wakes_v130(c, p, rejectors, e);
}
