/*
 * filter_volume_restrictions.c - the VolumeRestrictions plugin's
 * ReadWriteOncePod check (reference §2.12,
 * S/framework/plugins/volumerestrictions/volume_restrictions.go).  The
 * in-tree disk conflicts (GCE PD, EBS, RBD, iSCSI) are not modelled.
 */
#include "plugin.h"
#include "volumes.h"

#include <assert.h>
#include <string.h>

/* Does some pod bound in s use claim ns/name through a
 * persistentVolumeClaim volume (the snapshot's IsPVCUsedByPods, built from
 * NodeInfo.PVCRefCounts: ephemeral volumes are not counted)? */
static bool claim_used(const struct cluster *c, const struct snapshot *s,
		       const char *ns, const char *name)
{
	for (int q = 0; q < c->n_pods; q++) {
		if (s->pod_node[q] < 0 || strcmp(c->pods[q].ns, ns))
			continue;
		for (int i = 0; i < c->pods[q].n_volumes; i++) {
			const struct pod_volume *v = &c->pods[q].volumes[i];
			if (!v->ephemeral && !strcmp(v->claim, name))
				return true;
		}
	}
	return false;
}

/* Is name one of the incoming pod's ReadWriteOncePod claims
 * (readWriteOncePodPVCs, a set of claim names)?  Only the first volume
 * naming it counts, as a set holds it once. */
static bool rwop_claim_at(const struct model_cycle *cy, int i)
{
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	const struct pod_volume *v = &p->volumes[i];
	if (v->ephemeral)
		return false;
	for (int j = 0; j < i; j++)
		if (!p->volumes[j].ephemeral && !strcmp(p->volumes[j].claim, v->claim))
			return false;
	int k = cluster_find_pvc(c, p->ns, v->claim);
	return k >= 0 && (c->pvcs[k].access_modes & ACCESS_RWOP);
}

static bool in_rwop_set(const struct model_cycle *cy, const char *name)
{
	const struct pod *p = &cy->cluster->pods[cy->pod];
	for (int i = 0; i < p->n_volumes; i++)
		if (rwop_claim_at(cy, i) && !strcmp(p->volumes[i].claim, name))
			return true;
	return false;
}

/* calPreFilterState: conflictingPVCRefCount = the number of the pod's
 * ReadWriteOncePod claims some pod in the snapshot already uses. */
static int conflicts_at_prefilter(const struct model_cycle *cy)
{
	const struct pod *p = &cy->cluster->pods[cy->pod];
	int n = 0;
	for (int i = 0; i < p->n_volumes; i++)
		if (rwop_claim_at(cy, i) &&
		    claim_used(cy->cluster, cy->base, p->ns, p->volumes[i].claim))
			n++;
	return n;
}

/* conflictingPVCRefCountForPod: the volumes of pod q whose claim name is
 * in the set - by name alone, whatever q's namespace (kube's AddPod /
 * RemovePod compare names only). */
static int conflicts_of_pod(const struct model_cycle *cy, int q)
{
	const struct pod *p = &cy->cluster->pods[q];
	int n = 0;
	for (int i = 0; i < p->n_volumes; i++)
		if (!p->volumes[i].ephemeral && in_rwop_set(cy, p->volumes[i].claim))
			n++;
	return n;
}

/*
 * PreFilter: every persistentVolumeClaim volume's claim is looked up (a
 * missing one: UnschedulableAndUnresolvable `persistentvolumeclaim "NAME"
 * not found`); Skip when no ReadWriteOncePod claim of the pod is in use.
 */
void model_prefilter_volume_restrictions(const struct model_cycle *cy,
					 struct model_status *out)
{
	assert(cy && out);
	model_status_ok(out);
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	for (int i = 0; i < p->n_volumes; i++) {
		const struct pod_volume *v = &p->volumes[i];
		if (v->ephemeral || cluster_find_pvc(c, p->ns, v->claim) >= 0)
			continue;
		model_status_fail(out, MODEL_UAU,
				  "persistentvolumeclaim \"%s\" not found", v->claim);
		return;
	}
	if (conflicts_at_prefilter(cy) == 0)
		out->code = MODEL_SKIP;
}

/*
 * Filter(Pod, Node) ==
 *   conflictingPVCRefCount = 0, where the count is the PreFilter's plus,
 *   for each pod AddPod / RemovePod moved this cycle (nominated pods,
 *   preemption victims), +/- its volumes naming one of the claims.
 * Failure: Unschedulable "node has pod using PersistentVolumeClaim with
 * the same name and ReadWriteOncePod access mode" - Unschedulable, so
 * preemption may evict the pod holding the claim.
 */
void model_filter_volume_restrictions(const struct model_cycle *cy, int node,
				      struct model_status *out)
{
	assert(cy && out && node >= 0 && node < cy->cluster->n_nodes);
	model_status_ok(out);
	int count = conflicts_at_prefilter(cy);
	if (count == 0)
		return;   /* PreFilter returned Skip: Filter does not run */
	for (int i = 0; i < cy->n_deltas; i++)
		count += cy->deltas[i].sign * conflicts_of_pod(cy, cy->deltas[i].pod);
	if (count > 0)
		model_status_add(out, MODEL_UNSCHEDULABLE,
				 "node has pod using PersistentVolumeClaim with the "
				 "same name and ReadWriteOncePod access mode");
}
