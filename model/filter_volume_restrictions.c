/*
 * filter_volume_restrictions.c - the VolumeRestrictions plugin: in-tree
 * disk conflicts and ReadWriteOncePod claims (reference §2.12,
 * S/framework/plugins/volumerestrictions/volume_restrictions.go).
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

/* haveOverlap: the two monitor lists share an address. */
static bool monitors_overlap(const struct pod_disk *a, const struct pod_disk *b)
{
	for (int i = 0; i < a->n_monitors; i++)
		for (int j = 0; j < b->n_monitors; j++)
			if (!strcmp(a->monitors[i], b->monitors[j]))
				return true;
	return false;
}

/* isVolumeConflict for one pair of disks: the same EBS volume; the same
 * GCE PD, iSCSI IQN or RBD image (on overlapping monitors, in the same
 * pool) unless both mount it read-only. */
static bool disks_conflict(const struct pod_disk *a, const struct pod_disk *b)
{
	if (a->kind != b->kind || a->kind == DISK_AZURE || a->kind == DISK_CINDER ||
	    a->kind == DISK_PORTWORX || strcmp(a->id, b->id))
		return false;   /* (Azure, Cinder, Portworx: no restriction) */
	if (a->kind == DISK_AWS_EBS)
		return true;
	if (a->kind == DISK_RBD &&
	    (!monitors_overlap(a, b) || strcmp(a->pool, b->pool)))
		return false;
	return !(a->read_only && b->read_only);
}

/* satisfyVolumeConflicts negated: some disk of the pod conflicts with a
 * disk of a pod on node in the view. */
static bool disk_conflict(const struct model_cycle *cy, int node)
{
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	for (int i = 0; i < p->n_disks; i++)
		for (int q = 0; q < c->n_pods; q++) {
			if (cy->view->pod_node[q] != node)
				continue;
			for (int j = 0; j < c->pods[q].n_disks; j++)
				if (disks_conflict(&p->disks[i], &c->pods[q].disks[j]))
					return true;
		}
	return false;
}

/* The PreFilter skips when the pod has no disk to check
 * (needsRestrictionsCheck: GCE PD, EBS, RBD, iSCSI) and no
 * ReadWriteOncePod claim in use. */
static bool prefilter_skips(const struct model_cycle *cy)
{
	const struct pod *p = &cy->cluster->pods[cy->pod];
	for (int i = 0; i < p->n_disks; i++)
		if (p->disks[i].kind != DISK_AZURE && p->disks[i].kind != DISK_CINDER &&
		    p->disks[i].kind != DISK_PORTWORX)
			return false;
	return conflicts_at_prefilter(cy) == 0;
}

/*
 * PreFilter: every persistentVolumeClaim volume's claim is looked up (a
 * missing one: UnschedulableAndUnresolvable `persistentvolumeclaim "NAME"
 * not found`); Skip when the pod has no in-tree disk and no
 * ReadWriteOncePod claim of the pod is in use.
 */
void model_prefilter_volume_restrictions(const struct model_cycle *cy,
					 struct sched_status *out)
{
	assert(cy && out);
	sched_status_ok(out);
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	for (int i = 0; i < p->n_volumes; i++) {
		const struct pod_volume *v = &p->volumes[i];
		if (v->ephemeral || cluster_find_pvc(c, p->ns, v->claim) >= 0)
			continue;
		sched_status_fail(out, SCHED_UAU,
				  "persistentvolumeclaim \"%s\" not found", v->claim);
		return;
	}
	if (prefilter_skips(cy))
		out->code = SCHED_SKIP;
}

/*
 * Filter(Pod, Node) ==
 *   /\ no disk of the pod conflicts with a disk of a pod on the node
 *   /\ conflictingPVCRefCount = 0, where the count is the PreFilter's
 *      plus, for each pod AddPod / RemovePod moved this cycle (nominated
 *      pods, preemption victims), +/- its volumes naming one of the claims.
 * Failures: Unschedulable "node(s) had no available disk"; Unschedulable
 * "node has pod using PersistentVolumeClaim with the same name and
 * ReadWriteOncePod access mode" - Unschedulable both, so preemption may
 * evict the pod holding the disk or the claim.
 */
void model_filter_volume_restrictions(const struct model_cycle *cy, int node,
				      struct sched_status *out)
{
	assert(cy && out && node >= 0 && node < cy->cluster->n_nodes);
	sched_status_ok(out);
	if (prefilter_skips(cy))
		return;   /* PreFilter returned Skip: Filter does not run */
	if (disk_conflict(cy, node)) {
		sched_status_add(out, SCHED_UNSCHEDULABLE, "node(s) had no available disk");
		return;
	}
	int count = conflicts_at_prefilter(cy);
	for (int i = 0; i < cy->n_deltas; i++)
		count += cy->deltas[i].sign * conflicts_of_pod(cy, cy->deltas[i].pod);
	if (count > 0)   /* ErrReasonReadWriteOncePodConflict, reworded in
			  * v1.34 (delta §5.7) */
		sched_status_add(out, SCHED_UNSCHEDULABLE,
				 config_at_least(&cy->cluster->config, KUBE_1_34)
				 ? "node(s) unavailable due to PersistentVolumeClaim "
				   "with ReadWriteOncePod access mode already in-use "
				   "by another pod"
				 : "node has pod using PersistentVolumeClaim with the "
				   "same name and ReadWriteOncePod access mode");
}

bool model_volume_disks_conflict(const struct pod *a, const struct pod *b)
{
	assert(a && b);
	for (int i = 0; i < a->n_disks; i++)
		for (int j = 0; j < b->n_disks; j++)
			if (disks_conflict(&a->disks[i], &b->disks[j]))
				return true;
	return false;
}
