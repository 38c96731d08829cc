/*
 * filter_volume_binding.c - the VolumeBinding plugin's PreFilter and
 * Filter (reference §2.12, S/framework/plugins/volumebinding/
 * volume_binding.go and binder.go, component-helpers storage/volume
 * FindMatchingVolume).  Its Score is skipped in v1.30
 * (VolumeCapacityPriority off); Reserve / PreBind are outside the model.
 */
#include "plugin.h"
#include "volumes.h"
#include "../core/csi_translation.h"
#include "match.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* volume.NotSupportedProvisioner: the class of statically made volumes. */
#define NO_PROVISIONER "kubernetes.io/no-provisioner"

/* The pod's claims as GetPodVolumeClaims sorts them (pvcs indexes);
 * classify fills one, pod_claims_release frees it. */
struct pod_claims {
	int *bound, n_bound;             /* boundClaims */
	int *delay, n_delay;             /* unboundClaimsDelayBinding */
	int n_immediate;                 /* unboundClaimsImmediate */
};

static void pod_claims_release(struct pod_claims *pc)
{
	free(pc->bound);
	free(pc->delay);
}

/* GetPodVolumeClaims (after podHasPVCs found every claim): fully bound;
 * unbound with a WaitForFirstConsumer class and no volumeName (delay);
 * every other unbound claim, pre-bound ones included (immediate). */
static void classify(const struct model_cycle *cy, struct pod_claims *pc)
{
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	memset(pc, 0, sizeof *pc);
	pc->bound = xmalloc(sizeof *pc->bound * ((size_t)p->n_volumes + 1));
	pc->delay = xmalloc(sizeof *pc->delay * ((size_t)p->n_volumes + 1));
	for (int i = 0; i < p->n_volumes; i++) {
		char buf[MODEL_CLAIM_NAME_MAX];
		int k = model_pod_claim(c, cy->pod, &p->volumes[i], buf, NULL);
		assert(k >= 0);
		const struct pvc *claim = &c->pvcs[k];
		if (model_claim_fully_bound(claim))
			pc->bound[pc->n_bound++] = k;
		else if (model_claim_delay_binding(c, claim) && !claim->volume_name[0])
			pc->delay[pc->n_delay++] = k;
		else
			pc->n_immediate++;
	}
}

/* podHasPVCs: each claim must exist, not be Lost, not be being deleted,
 * and an ephemeral one must belong to the pod.  Writes the first problem
 * into out (UnschedulableAndUnresolvable); false when the pod has no
 * claim at all. */
static bool pod_has_claims(const struct model_cycle *cy, struct sched_status *out)
{
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	for (int i = 0; i < p->n_volumes; i++) {
		const struct pod_volume *v = &p->volumes[i];
		char buf[MODEL_CLAIM_NAME_MAX];
		const char *name;
		int k = model_pod_claim(c, cy->pod, v, buf, &name);
		if (k < 0) {
			if (v->ephemeral)
				sched_status_fail(out, SCHED_UAU, "waiting for ephemeral "
						  "volume controller to create the "
						  "persistentvolumeclaim \"%s\"", name);
			else
				sched_status_fail(out, SCHED_UAU, "persistentvolumeclaim "
						  "\"%s\" not found", name);
			return true;
		}
		const struct pvc *claim = &c->pvcs[k];
		if (claim->lost) {
			sched_status_fail(out, SCHED_UAU, "persistentvolumeclaim \"%s\" "
					  "bound to non-existent persistentvolume \"%s\"",
					  claim->name, claim->volume_name);
			return true;
		}
		if (claim->deleting) {
			sched_status_fail(out, SCHED_UAU, "persistentvolumeclaim \"%s\" "
					  "is being deleted", claim->name);
			return true;
		}
		if (!model_claim_for_pod(p, v, claim, SCHED_UAU, out))
			return true;
	}
	return p->n_volumes > 0;
}

/*
 * PreFilter: podHasPVCs (Skip without claims; a missing, Lost, deleted or
 * foreign claim rejects), then any unbound Immediate claim rejects with
 * UnschedulableAndUnresolvable "pod has unbound immediate
 * PersistentVolumeClaims".  v1.30.12 returns no PreFilterResult (the
 * bound local PVs' hostnames are not used to narrow the nodes): every
 * node is filtered, and a node the PVs' node affinity does not match
 * fails the Filter with "node(s) had volume node affinity conflict".
 */
void model_prefilter_volume_binding(const struct model_cycle *cy,
				    struct sched_status *out)
{
	assert(cy && out);
	sched_status_ok(out);
	if (!pod_has_claims(cy, out)) {
		out->code = SCHED_SKIP;
		return;
	}
	if (out->code != SCHED_SUCCESS)
		return;
	struct pod_claims pc;
	classify(cy, &pc);
	if (pc.n_immediate > 0)
		sched_status_add(out, SCHED_UAU,
				 "pod has unbound immediate PersistentVolumeClaims");
	pod_claims_release(&pc);
}

/* checkBoundClaims: every bound claim's PV exists (else *found = false)
 * and its node affinity matches the node (else *ok = false); stops at the
 * first problem.  An in-tree PV whose plugin the node's CSINode says is
 * migrated is checked as translated to CSI (tryTranslatePVToCSI), and a
 * translation that fails is an Error: returns it, else NULL. */
static const char *check_bound(const struct cluster *c, const struct pod_claims *pc,
			       const struct node *n, bool *ok, bool *found)
{
	*ok = *found = true;
	int k_csi = cluster_find_csi_node(c, n->name);
	const struct csi_node *cn = k_csi >= 0 ? &c->csi_nodes[k_csi] : NULL;
	for (int i = 0; i < pc->n_bound; i++) {
		int k = cluster_find_pv(c, c->pvcs[pc->bound[i]].volume_name);
		if (k < 0) {
			*found = false;
			return NULL;
		}
		const struct pv *v = &c->pvs[k];
		const struct node_selector *affinity = &v->node_affinity;
		if (v->has_intree &&
		    csi_migrated_on_node(csi_plugin_of_disk(v->intree), cn)) {
			if (v->csi_error)
				return v->csi_error;
			affinity = &v->csi_affinity;
		}
		if (!model_node_affinity_ok(affinity, n)) {
			*ok = false;
			return NULL;
		}
	}
	return NULL;
}

/* IsVolumeBoundToClaim: the PV's claimRef names the claim (and its uid,
 * when the reference has one). */
static bool pv_bound_to(const struct pv *v, const struct pvc *claim)
{
	return v->has_claim_ref && !strcmp(v->claim_name, claim->name) &&
	       !strcmp(v->claim_ns, claim->ns) &&
	       (!v->claim_uid[0] || !strcmp(v->claim_uid, claim->uid));
}

/* FindMatchingVolume on the scheduler path (node given, delay binding):
 * the PV pre-bound to the claim (none if it does not fit the node), else
 * the smallest available PV of the claim's class that is large enough,
 * has the claim's volume mode and access modes, matches its selector and
 * fits the node; -1 when none.  chosen[] excludes PVs already picked. */
static int find_matching(const struct cluster *c, const struct pvc *claim,
			 const struct node *n, const bool *chosen)
{
	int best = -1;
	for (int k = 0; k < c->n_pvs; k++) {
		const struct pv *v = &c->pvs[k];
		/* ListPVs(class): the volumes of the claim's class */
		if (strcmp(v->class_name, claim->class_name) || chosen[k])
			continue;
		if (v->has_claim_ref && !pv_bound_to(v, claim))
			continue;
		if (quantity_cmp(v->capacity, claim->request) < 0 ||
		    v->block != claim->block || v->deleting)
			continue;
		/* v1.34 (gate GA, delta §5.6): the same VolumeAttributesClass;
		 * v1.30's FindMatchingVolume reads none, and both are "" */
		if (strcmp(v->vac, claim->vac))
			continue;
		bool affinity_ok = model_node_affinity_ok(&v->node_affinity, n);
		if (pv_bound_to(v, claim))
			return affinity_ok ? k : -1;
		if (!v->available)
			continue;
		if (claim->selector.present &&
		    !match_label_selector(&claim->selector, &v->labels))
			continue;
		if (!affinity_ok ||
		    (claim->access_modes & v->access_modes) != claim->access_modes)
			continue;
		if (best < 0 || quantity_cmp(c->pvs[best].capacity, v->capacity) > 0)
			best = k;
	}
	return best;
}

/* hasEnoughCapacity: a driver that opts into capacity tracking (its
 * CSIDriver has storageCapacity) needs a CSIStorageCapacity of the class
 * whose maximumVolumeSize (else capacity) holds the request and whose
 * nodeTopology selects the node; any other provisioner always has room. */
static bool enough_capacity(const struct cluster *c, const struct storage_class *sc,
			    const struct pvc *claim, const struct node *n)
{
	int k = cluster_find_csi_driver(c, sc->provisioner);
	if (k < 0 || !c->csi_drivers[k].storage_capacity)
		return true;
	int64_t want;
	if (quantity_value(claim->request, &want) < 0)
		return false;
	for (int i = 0; i < c->n_capacities; i++) {
		const struct csi_capacity *cap = &c->capacities[i];
		if (strcmp(cap->class_name, sc->name))
			continue;
		int64_t limit;
		const struct quantity *q = cap->has_max_size ? &cap->max_size
					  : cap->has_capacity ? &cap->capacity : NULL;
		if (!q || quantity_value(*q, &limit) < 0 || limit < want)
			continue;
		/* nodeHasAccess: no topology is no node */
		if (cap->node_topology.present &&
		    match_label_selector(&cap->node_topology, &n->labels))
			return true;
	}
	return false;
}

/* What checkVolumeProvisions makes of one claim on a node. */
enum provision {
	PROVISION_OK,
	PROVISION_NOT_HERE,    /* unboundVolumesSatisfied = false */
	PROVISION_NO_ROOM      /* sufficientStorage = false */
};

/* checkVolumeProvisions for one claim: its class provisions (not
 * kubernetes.io/no-provisioner), allows the node's topology and has room
 * there. */
static enum provision can_provision(const struct cluster *c, const struct pvc *claim,
				    const struct node *n)
{
	int k = cluster_find_class(c, claim->class_name);
	assert(k >= 0);   /* a delay-binding claim's class exists */
	const struct storage_class *sc = &c->classes[k];
	if (!sc->provisioner[0] || !strcmp(sc->provisioner, NO_PROVISIONER))
		return PROVISION_NOT_HERE;
	/* MatchTopologySelectorTerms: no term matches everything; a term
	 * without expressions matches nothing; otherwise every expression's
	 * key has one of its values */
	bool allowed = sc->n_allowed_topologies == 0;
	struct node labels_only = {.name = "", .labels = n->labels};
	for (int t = 0; t < sc->n_allowed_topologies && !allowed; t++)
		allowed = sc->allowed_topologies[t].n_exprs &&
			  match_node_selector_term(&sc->allowed_topologies[t],
						   &labels_only);
	if (!allowed)
		return PROVISION_NOT_HERE;
	return enough_capacity(c, sc, claim, n) ? PROVISION_OK : PROVISION_NO_ROOM;
}

/* The delay-binding claims in increasing request size (byPVCSize; a
 * stable order for the few claims a pod has). */
static void sort_by_size(const struct cluster *c, int *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 &&
		     quantity_cmp(c->pvcs[v[j]].request, c->pvcs[v[j - 1]].request) < 0; j--) {
			int t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* FindPodVolumes' unbound part with its scratch: match[] and
 * provision[] have room for every delay-binding claim.  Returns
 * unboundVolumesSatisfied, with *room sufficientStorage. */
static bool unbound_claims_ok(const struct cluster *c, const struct pod_claims *pc,
			      const struct node *n, bool *room, int *match,
			      int *provision)
{
	int n_match = 0, n_provision = 0;
	for (int i = 0; i < pc->n_delay; i++) {
		const struct pvc *claim = &c->pvcs[pc->delay[i]];
		if (claim->selected_node) {
			if (strcmp(claim->selected_node, n->name))
				return false;   /* fast path: another node's */
			provision[n_provision++] = pc->delay[i];
		} else {
			match[n_match++] = pc->delay[i];
		}
	}
	sort_by_size(c, match, n_match);
	bool *chosen = xcalloc((size_t)c->n_pvs + 1, sizeof *chosen);
	bool ok = true;
	for (int i = 0; i < n_match; i++) {
		int k = find_matching(c, &c->pvcs[match[i]], n, chosen);
		if (k < 0) {
			provision[n_provision++] = match[i];
			ok = false;
		} else {
			chosen[k] = true;
		}
	}
	free(chosen);
	if (n_provision == 0)
		return ok;
	/* checkVolumeProvisions decides alone when it runs, stopping at the
	 * first claim it cannot provision */
	for (int i = 0; i < n_provision; i++) {
		enum provision v = can_provision(c, &c->pvcs[provision[i]], n);
		if (v == PROVISION_NOT_HERE)
			return false;
		if (v == PROVISION_NO_ROOM) {
			*room = false;
			return true;
		}
	}
	return true;
}

static bool unbound_ok(const struct cluster *c, const struct pod_claims *pc,
		       const struct node *n, bool *room)
{
	*room = true;
	int *match = xmalloc(sizeof *match * ((size_t)pc->n_delay + 1));
	int *provision = xmalloc(sizeof *provision * ((size_t)pc->n_delay + 1));
	bool ok = unbound_claims_ok(c, pc, n, room, match, provision);
	free(match);
	free(provision);
	return ok;
}

/*
 * Filter(Pod, Node) == every bound claim's PV exists and fits the node,
 * and every unbound WaitForFirstConsumer claim has a matching available
 * PV or may be provisioned there.
 * Failure: UnschedulableAndUnresolvable with, in this order, "node(s) had
 * volume node affinity conflict" (v1.34: "node(s) didn't match
 * PersistentVolume's node affinity"), "node(s) didn't find available
 * persistent volumes to bind", "node(s) did not have enough free
 * storage", "node(s) unavailable due to one or more pvc(s) bound to
 * non-existent pv(s)".
 */
void model_filter_volume_binding(const struct model_cycle *cy, int node,
				 struct sched_status *out)
{
	assert(cy && out && node >= 0 && node < cy->cluster->n_nodes);
	sched_status_ok(out);
	const struct cluster *c = cy->cluster;
	struct sched_status pre;
	sched_status_ok(&pre);
	if (!pod_has_claims(cy, &pre) || pre.code != SCHED_SUCCESS)
		return;   /* Skip (a rejection never reaches Filter) */
	struct pod_claims pc;
	classify(cy, &pc);
	const struct node *n = &c->nodes[node];
	bool bound_ok, found;
	const char *error = check_bound(c, &pc, n, &bound_ok, &found);
	if (error) {
		pod_claims_release(&pc);
		sched_status_fail(out, SCHED_ERROR, "%s", error);
		return;
	}
	bool room = true;
	bool unbound = pc.n_delay == 0 || unbound_ok(c, &pc, n, &room);
	pod_claims_release(&pc);
	if (!bound_ok)   /* ErrReasonNodeConflict, reworded in v1.34 (delta §5.6) */
		sched_status_add(out, SCHED_UAU,
				 config_at_least(&c->config, KUBE_1_34)
				 ? "node(s) didn't match PersistentVolume's node affinity"
				 : "node(s) had volume node affinity conflict");
	if (!unbound)
		sched_status_add(out, SCHED_UAU,
				 "node(s) didn't find available persistent volumes to bind");
	if (!room)
		sched_status_add(out, SCHED_UAU, "node(s) did not have enough free storage");
	if (!found)
		sched_status_add(out, SCHED_UAU, "node(s) unavailable due to one or "
				 "more pvc(s) bound to non-existent pv(s)");
}
