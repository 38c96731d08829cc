/*
 * filter_node_volume_limits.c - NodeVolumeLimits, the CSI attach limits
 * (reference §2.12, S/framework/plugins/nodevolumelimits/csi.go).  On a
 * node with a CSINode, in-tree EBS, GCE PD and Azure Disk volumes are
 * migrated: counted under their CSI driver (core/csi_translation.h).
 */
#include "plugin.h"
#include "volumes.h"
#include "../core/csi_translation.h"
#include "../core/grow.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One attachable volume: uniqueName "<driver>/<handle>" -> its limit key
 * (the driver). */
struct attach {
	char unique[384];
	const char *driver;
};

/* A map of attachable volumes (Go's map[string]string, keyed on
 * unique); zero-initialise, free v. */
struct attach_set {
	struct attach *v;
	int n;
	size_t cap;
};

static int attach_find(const struct attach_set *s, const char *unique)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].unique, unique))
			return i;
	return -1;
}

static void attach_put(struct attach_set *s, const char *driver,
		       const char *handle)
{
	char unique[sizeof s->v[0].unique];
	/* names past the buffer are cut: two volumes would have to share
	 * hundreds of leading characters to be confused */
	snprintf(unique, sizeof unique, "%.120s/%.255s", driver, handle);
	int i = attach_find(s, unique);
	if (i < 0) {
		GROW(s->v, (size_t)s->n + 1, s->cap);
		i = s->n++;
	}
	memcpy(s->v[i].unique, unique, sizeof unique);
	s->v[i].driver = driver;
}

/* getCSIDriverInfoFromSC: an unbound claim (or one whose PV is missing)
 * counts under its class's provisioner - an in-tree one's CSI driver when
 * kube migrates the plugin and the node has a CSINode (isCSIMigrationOn),
 * none when not - with a handle unique
 * to the claim (kube prefixes a random id, here a fixed one). */
static void driver_from_class(const struct cluster *c, const struct pvc *claim,
			      const struct csi_node *cn, const char **driver,
			      char *handle, size_t len)
{
	int k = claim->class_name[0] ? cluster_find_class(c, claim->class_name) : -1;
	if (k < 0)
		return;
	const char *provisioner = c->classes[k].provisioner;
	const struct csi_in_tree_plugin *tree = csi_plugin_by_name(provisioner);
	if (tree && !csi_limits_migrated(tree, cn, config_at_least(&c->config, KUBE_1_34)))
		return;
	*driver = tree ? tree->driver : provisioner;
	snprintf(handle, len, "kso-%s/%s", claim->ns, claim->name);
}

/* getCSIDriverInfo: the driver and volume handle of a claim, or leaves
 * *driver NULL when the volume is not counted (an in-tree PV on a node
 * without a CSINode, or one kso does not translate). */
static void driver_info(const struct cluster *c, const struct pvc *claim,
			const struct csi_node *cn, const char **driver,
			char *handle, size_t len)
{
	*driver = NULL;
	int k = claim->volume_name[0] ? cluster_find_pv(c, claim->volume_name) : -1;
	if (k < 0) {
		driver_from_class(c, claim, cn, driver, handle, len);
		return;
	}
	const struct pv *v = &c->pvs[k];
	if (!v->csi_driver) {
		if (v->has_intree &&
		    csi_limits_migrated(csi_plugin_of_disk(v->intree), cn,
					config_at_least(&c->config, KUBE_1_34)))
			*driver = csi_translate_pv(v, handle, len);
		return;
	}
	*driver = v->csi_driver;
	snprintf(handle, len, "%s", v->csi_handle);
}

/* filterAttachableVolumes for pod q into set, on a node whose CSINode is
 * cn (NULL: none): its migrated inline volumes (checkAttachableInlineVolume)
 * and its claims.  A missing claim fails a new pod
 * (UnschedulableAndUnresolvable, NotFound wrapped) and is skipped for an
 * existing one; an ephemeral claim the pod does not own fails either (an
 * Error).  Returns false with out set on failure. */
static bool attachable(const struct cluster *c, int q, bool new_pod,
		       const struct csi_node *cn, struct attach_set *set,
		       struct sched_status *out)
{
	const struct pod *p = &c->pods[q];
	bool v134 = config_at_least(&c->config, KUBE_1_34);
	for (int i = 0; cn && i < p->n_disks; i++) {
		if (!csi_limits_migrated(csi_plugin_of_disk(p->disks[i].kind), cn, v134))
			continue;   /* isCSIMigrationOn */
		char handle[MODEL_CLAIM_NAME_MAX];
		const char *driver = csi_translate_inline(&p->disks[i], handle,
							  sizeof handle);
		if (driver && handle[0])
			attach_put(set, driver, handle);
	}
	for (int i = 0; i < p->n_volumes; i++) {
		char buf[MODEL_CLAIM_NAME_MAX];
		const char *name;
		int k = model_limit_claim(c, q, i, new_pod, buf, &name, out);
		if (k == -2)
			return false;
		if (k < 0)
			continue;
		const struct pvc *claim = &c->pvcs[k];
		const char *driver;
		char handle[MODEL_CLAIM_NAME_MAX];
		driver_info(c, claim, cn, &driver, handle, sizeof handle);
		if (driver && driver[0] && handle[0])
			attach_put(set, driver, handle);
	}
	return true;
}

/* getVolumeLimits for one driver: CSINode's allocatable.count wins over
 * the node's allocatable named by GetCSIAttachLimitKey
 * (attachable-volumes-csi-<driver>, hashed for long names); -1 when
 * neither gives one.  v1.34 reads the CSINode only (delta §5.8). */
static int64_t driver_limit(const struct cluster *c, int node, const char *driver)
{
	const struct node *n = &c->nodes[node];
	int64_t limit = -1;
	char key[sizeof CSI_ATTACH_LIMIT_PREFIX + MODEL_CLAIM_NAME_MAX];
	int res = config_at_least(&c->config, KUBE_1_34) ? -1
		  : cluster_res_index(c, csi_attach_limit_key(driver, key, sizeof key));
	bool found = false;
	if (res >= 0) {
		int64_t v = resource_values_get(&n->allocatable, res, &found);
		if (found)
			limit = v;
	}
	int k = cluster_find_csi_node(c, n->name);
	for (int i = 0; k >= 0 && i < c->csi_nodes[k].n_drivers; i++) {
		const struct csi_driver_limit *d = &c->csi_nodes[k].drivers[i];
		if (d->has_count && !strcmp(d->driver, driver))
			limit = d->count;
	}
	return limit;
}

/* v1.34: whether the node's CSINode gives any driver a limit (an empty
 * getVolumeLimits passes the pod before the node's pods are read). */
static bool node_has_limits(const struct cluster *c, int node)
{
	int k = cluster_find_csi_node(c, c->nodes[node].name);
	for (int i = 0; k >= 0 && i < c->csi_nodes[k].n_drivers; i++)
		if (c->csi_nodes[k].drivers[i].has_count)
			return true;
	return false;
}

/* v1.34 getNodeVolumeAttachmentInfo: the VolumeAttachments of node with
 * an attacher and a PV that exists and is a CSI volume, as
 * "<attacher>/<handle>" under the attacher, into set. */
static void node_attachments(const struct cluster *c, int node,
			     struct attach_set *set)
{
	for (int i = 0; i < c->n_attachments; i++) {
		const struct volume_attachment *va = &c->attachments[i];
		if (strcmp(va->node_name, c->nodes[node].name) || !va->attacher[0] ||
		    !va->pv_name)
			continue;
		int k = cluster_find_pv(c, va->pv_name);
		if (k < 0 || !c->pvs[k].csi_driver)
			continue;
		attach_put(set, va->attacher, c->pvs[k].csi_handle);
	}
}

/* PreFilter: Skip unless the pod has a persistentVolumeClaim, an
 * ephemeral volume or an inline volume kube can migrate (of those kso
 * reads: EBS, GCE PD, Azure Disk). */
void model_prefilter_node_volume_limits(const struct model_cycle *cy,
					struct sched_status *out)
{
	assert(cy && out);
	sched_status_ok(out);
	const struct pod *p = &cy->cluster->pods[cy->pod];
	bool migratable = false;
	/* IsInlineMigratable: csi-translation-lib translates the disk */
	for (int i = 0; i < p->n_disks; i++)
		migratable |= csi_plugin_of_disk(p->disks[i].kind) != NULL;
	if (p->n_volumes == 0 && !migratable)
		out->code = SCHED_SKIP;
}

/* The Filter past the pod's own volumes (fresh, non-empty): the node's
 * pods' volumes into attached, then each driver's count. */
static void check_limits(const struct cluster *c, int node,
			 const struct csi_node *cn,
			 const struct attach_set *fresh, struct attach_set *attached,
			 const struct snapshot *view, struct sched_status *out)
{
	bool v134 = config_at_least(&c->config, KUBE_1_34);
	if (v134 && !node_has_limits(c, node))
		return;
	for (int q = 0; q < c->n_pods; q++)
		if (view->pod_node[q] == node &&
		    !attachable(c, q, false, cn, attached, out))
			return;
	struct attach_set vas = {0};
	if (v134)
		node_attachments(c, node, &vas);
	for (int d = 0; d < fresh->n; d++) {
		const char *driver = fresh->v[d].driver;
		int64_t limit = driver_limit(c, node, driver);
		if (limit < 0)
			continue;
		int64_t now = 0, more = 0;
		for (int i = 0; i < attached->n; i++)
			now += !strcmp(attached->v[i].driver, driver);
		/* v1.34: the attachments no pod on the node uses */
		for (int i = 0; i < vas.n; i++)
			now += !strcmp(vas.v[i].driver, driver) &&
			       attach_find(attached, vas.v[i].unique) < 0;
		for (int i = 0; i < fresh->n; i++)
			more += !strcmp(fresh->v[i].driver, driver) &&
				attach_find(attached, fresh->v[i].unique) < 0;
		/* newVolumeCount has a key only for a driver with a volume
		 * not already attached: a node already over its limit keeps
		 * a pod whose volumes of that driver are all attached there */
		if (more > 0 && now + more > limit) {
			sched_status_add(out, SCHED_UNSCHEDULABLE,
					 "node(s) exceed max volume count");
			break;
		}
	}
	free(vas.v);
}

/*
 * Filter(Pod, Node) ==
 *   \A driver : new(driver) = 0 \/ limit(driver) absent \/
 *     attached(driver) + new(driver) <= limit(driver)
 * where attached counts the unique volumes of the pods on the node and
 * new those of the pod not already attached there.  v1.34 (delta §5.8):
 * limits from the CSINode only (none: pass), and attached also counts
 * the node's VolumeAttachments of CSI PVs no pod there uses (which do not
 * make a volume of the pod's not new).
 * Failure: Unschedulable "node(s) exceed max volume count".
 */
void model_filter_node_volume_limits(const struct model_cycle *cy, int node,
				     struct sched_status *out)
{
	assert(cy && out && node >= 0 && node < cy->cluster->n_nodes);
	sched_status_ok(out);
	const struct cluster *c = cy->cluster;
	struct attach_set fresh = {0}, attached = {0};
	/* the in-tree plugins are migrated where the node has a CSINode
	 * (Portworx: v1.34, where its annotation lists it) */
	int k = cluster_find_csi_node(c, c->nodes[node].name);
	const struct csi_node *cn = k >= 0 ? &c->csi_nodes[k] : NULL;
	if (attachable(c, cy->pod, true, cn, &fresh, out) && fresh.n > 0)
		check_limits(c, node, cn, &fresh, &attached, cy->view, out);
	free(fresh.v);
	free(attached.v);
}

