/*
 * volumes.h - what the four volume plugins of the default profile share
 * (reference §2.12): looking a pod's claims up, and the few storage
 * helpers kube's volume code calls from more than one plugin
 * (pkg/scheduler/framework/plugins/volumebinding, component-helpers
 * storage/volume).
 */
#ifndef KSO_MODEL_VOLUMES_H
#define KSO_MODEL_VOLUMES_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/objects.h"
#include "../core/config.h"
#include "../core/verdict.h"

/* model_volume_plugin: one of the seven volume plugins, whose PreFilters
 * skip every pod without volumes (model_pod_has_volumes). */
static inline bool model_volume_plugin(enum plugin_id id)
{
	/* a bit test: Feasibility asks it for every filter of every node */
	const uint32_t volume_plugins = 1u << PLUGIN_VOLUME_RESTRICTIONS |
		1u << PLUGIN_EBS_LIMITS | 1u << PLUGIN_GCE_PD_LIMITS |
		1u << PLUGIN_NODE_VOLUME_LIMITS | 1u << PLUGIN_AZURE_DISK_LIMITS |
		1u << PLUGIN_VOLUME_BINDING | 1u << PLUGIN_VOLUME_ZONE;
	_Static_assert(PLUGIN_COUNT <= 32, "plugin ids fit a 32-bit set");
	return (volume_plugins >> id) & 1u;
}

/* model_pod_has_volumes: the pod has a volume some volume plugin reads
 * (a claim, an ephemeral volume or an in-tree disk); without one, every
 * volume plugin's PreFilter returns Skip. */
static inline bool model_pod_has_volumes(const struct pod *p)
{
	return p->n_volumes > 0 || p->n_disks > 0;
}

/* Room for a claim name built from a pod and a volume name. */
#define MODEL_CLAIM_NAME_MAX 512

/* model_pod_claim: the PersistentVolumeClaim behind volume v of pod (in
 * the pod's namespace; an ephemeral volume's is "<pod>-<volume>"): its
 * index in c->pvcs, or -1 (the lister's NotFound).  name (may be NULL)
 * receives the claim's name, in buf. */
int model_pod_claim(const struct cluster *c, int pod, const struct pod_volume *v,
		    char buf[MODEL_CLAIM_NAME_MAX], const char **name);

/* model_limit_claim: the claim of volume i of pod q as the volume limit
 * plugins look it up (filterVolumes, filterAttachableVolumes): its index;
 * -1 when it is missing and q is an existing pod (not counted); -2 with
 * out set when q is the new pod and it is missing
 * (UnschedulableAndUnresolvable, kube's wrapped NotFound), or when it is
 * an ephemeral claim q does not own (an Error).  name as model_pod_claim. */
int model_limit_claim(const struct cluster *c, int q, int i, bool new_pod,
		      char buf[MODEL_CLAIM_NAME_MAX], const char **name,
		      struct model_status *out);

/* model_claim_fully_bound: isPVCFullyBound - spec.volumeName set and the
 * pv.kubernetes.io/bind-completed annotation present. */
bool model_claim_fully_bound(const struct pvc *claim);

/* model_claim_delay_binding: volume.IsDelayBindingMode - the claim's class
 * exists and binds WaitForFirstConsumer (no class, or a class that does
 * not exist: Immediate). */
bool model_claim_delay_binding(const struct cluster *c, const struct pvc *claim);

/* model_pv_node_affinity_ok: volume.CheckNodeAffinity(pv, node.Labels):
 * the PV's required node affinity against a node that has only the
 * node's labels (so matchFields on metadata.name see an empty name). */
bool model_pv_node_affinity_ok(const struct pv *v, const struct node *n);

#endif
