/*
 * filter_in_tree_limits.c - EBSLimits, GCEPDLimits and AzureDiskLimits,
 * the in-tree volume limits of the default profile (reference §2.12,
 * S/framework/plugins/nodevolumelimits/non_csi.go).  Each counts the
 * unique volumes of its type (inline, through a PV, or an unbound claim
 * of its in-tree provisioner) on a node without a CSINode; with one, the
 * volume is migrated to CSI and the plugin defers to NodeVolumeLimits.
 * The volume types are core/csi_translation.h's in_tree_types[], in
 * plugin order.
 */
#include "plugin.h"
#include "volumes.h"
#include "../core/csi_translation.h"
#include "../core/grow.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* A set of volume ids (Go's sets.Set[string]); zero-initialise, free v. */
struct id_set {
	char (*v)[384];
	int n;
	size_t cap;
};

static void id_put(struct id_set *s, const char *id)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], id))
			return;
	GROW(s->v, (size_t)s->n + 1, s->cap);
	snprintf(s->v[s->n++], sizeof s->v[0], "%s", id);
}

static bool id_has(const struct id_set *s, const char *id)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], id))
			return true;
	return false;
}

/* matchProvisioner: the claim's spec.storageClassName (not the beta
 * annotation) names a class with the plugin's in-tree provisioner. */
static bool match_provisioner(const struct cluster *c, const struct in_tree_type *t,
			      const struct pvc *claim)
{
	if (!claim->has_spec_class)
		return false;
	int k = cluster_find_class(c, claim->spec_class_name);
	return k >= 0 && !strcmp(c->classes[k].provisioner, t->provisioner);
}

/* filterVolumes of pod q into set: its inline volumes of the type, and
 * its claims' (bound: the PV's id when the PV is of the type; unbound or
 * PV missing: "<prefix>-ns/claim" when the class provisions the type).  A
 * missing claim fails a new pod (UnschedulableAndUnresolvable) and is
 * skipped for an existing one; a foreign ephemeral claim is an Error.
 * Returns false with out set on failure. */
static bool filter_volumes(const struct cluster *c, const struct in_tree_type *t,
			   int q, bool new_pod, struct id_set *set,
			   struct sched_status *out)
{
	const struct pod *p = &c->pods[q];
	for (int i = 0; i < p->n_disks; i++)
		if (p->disks[i].kind == t->kind)
			id_put(set, p->disks[i].id);
	for (int i = 0; i < p->n_volumes; i++) {
		char buf[MODEL_CLAIM_NAME_MAX];
		const char *name;
		int k = model_limit_claim(c, q, i, new_pod, buf, &name, out);
		if (k == -2)
			return false;
		if (k < 0)
			continue;
		const struct pvc *claim = &c->pvcs[k];
		char pv_id[2 * MODEL_CLAIM_NAME_MAX];
		snprintf(pv_id, sizeof pv_id, "kso-%s/%s", p->ns, name);
		int pv = claim->volume_name[0] ? cluster_find_pv(c, claim->volume_name)
					       : -1;
		if (pv < 0) {
			if (match_provisioner(c, t, claim))
				id_put(set, pv_id);
			continue;
		}
		if (c->pvs[pv].has_intree && c->pvs[pv].intree == t->kind)
			id_put(set, c->pvs[pv].intree_id);
	}
	return true;
}

/* maxVolumeFunc, then the node allocatable's limit key if it has one. */
static int64_t max_volumes(const struct cluster *c, const struct in_tree_type *t,
			   const struct node *n)
{
	int res = cluster_res_index(c, t->limit_key);
	bool found = false;
	int64_t v = res >= 0 ? resource_values_get(&n->allocatable, res, &found) : 0;
	return found ? v : in_tree_max_volumes(t, n);
}

/* PreFilter: Skip unless the pod has a volume of the type, a claim or an
 * ephemeral volume. */
static bool in_tree_prefilter_skips(const struct model_cycle *cy,
				    const struct in_tree_type *t)
{
	const struct pod *p = &cy->cluster->pods[cy->pod];
	for (int i = 0; i < p->n_disks; i++)
		if (p->disks[i].kind == t->kind)
			return false;
	return p->n_volumes == 0;
}

/*
 * Filter(Pod, Node) ==
 *   no new volume of the type \/ the node has a CSINode (migrated) \/
 *   |existing| + |new \ existing| <= max(Node)
 * where existing is the union of the volumes of the type of the node's
 * pods.  Failure: Unschedulable "node(s) exceed max volume count".
 */
static void in_tree_filter(const struct model_cycle *cy, int node,
			   const struct in_tree_type *t, struct sched_status *out)
{
	assert(cy && out && node >= 0 && node < cy->cluster->n_nodes);
	sched_status_ok(out);
	const struct cluster *c = cy->cluster;
	if (in_tree_prefilter_skips(cy, t))
		return;
	struct id_set fresh = {0}, existing = {0};
	if (!filter_volumes(c, t, cy->pod, true, &fresh, out) || fresh.n == 0 ||
	    cluster_find_csi_node(c, c->nodes[node].name) >= 0)
		goto done;
	for (int q = 0; q < c->n_pods; q++)
		if (cy->view->pod_node[q] == node &&
		    !filter_volumes(c, t, q, false, &existing, out))
			goto done;
	int64_t more = 0;
	for (int i = 0; i < fresh.n; i++)
		more += !id_has(&existing, fresh.v[i]);
	if (existing.n + more > max_volumes(c, t, &c->nodes[node]))
		sched_status_add(out, SCHED_UNSCHEDULABLE,
				 "node(s) exceed max volume count");
done:
	free(fresh.v);
	free(existing.v);
}

void model_filter_ebs_limits(const struct model_cycle *cy, int node,
			     struct sched_status *out)
{
	in_tree_filter(cy, node, &in_tree_types[0], out);
}

void model_filter_gce_pd_limits(const struct model_cycle *cy, int node,
				struct sched_status *out)
{
	in_tree_filter(cy, node, &in_tree_types[1], out);
}

void model_filter_azure_disk_limits(const struct model_cycle *cy, int node,
				    struct sched_status *out)
{
	in_tree_filter(cy, node, &in_tree_types[2], out);
}
