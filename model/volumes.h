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

/* model_pod_has_volumes: the pod has a volume some volume plugin reads
 * (a claim, an ephemeral volume or an in-tree disk); without one, every
 * volume plugin's PreFilter returns Skip. */
static inline bool model_pod_has_volumes(const struct pod *p)
{
	return p->n_volumes > 0 || p->n_disks > 0;
}

/* Room for a claim name built from a pod and a volume name:
 * MODEL_CLAIM_NAME_MAX (core/limits.h). */

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
		      struct sched_status *out);

/* model_claim_for_pod: ephemeral.VolumeIsForPod: volume v's claim is
 * one the pod may use (any claim of a persistentVolumeClaim volume; an
 * ephemeral volume's only when the pod controls it).  When not, out gets
 * kube's "PVC NS/NAME was not created for pod NS/POD (pod is not owner)"
 * with code (VolumeBinding's PreFilter rejects, the limit plugins' Filter
 * errors) and the result is false. */
bool model_claim_for_pod(const struct pod *p, const struct pod_volume *v,
			 const struct pvc *claim, enum sched_code code,
			 struct sched_status *out);

/* model_claim_fully_bound: isPVCFullyBound - spec.volumeName set and the
 * pv.kubernetes.io/bind-completed annotation present. */
bool model_claim_fully_bound(const struct pvc *claim);

/* model_claim_delay_binding: volume.IsDelayBindingMode - the claim's class
 * exists and binds WaitForFirstConsumer (no class, or a class that does
 * not exist: Immediate). */
bool model_claim_delay_binding(const struct cluster *c, const struct pvc *claim);

/* model_node_affinity_ok: volume.CheckNodeAffinity(pv, node.Labels): a
 * PV's required node affinity (as written, or as translated to CSI)
 * against a node that has only the node's labels (so matchFields on
 * metadata.name see an empty name). */
bool model_node_affinity_ok(const struct node_selector *affinity,
			    const struct node *n);

#endif
