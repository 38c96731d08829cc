/*
 * volume_claims.c - claim look-ups and storage helpers the volume plugins
 * share (volumes.h; reference §2.12).
 */
#include "volumes.h"
#include "match.h"
#include "plugin.h"

#include <assert.h>
#include <string.h>

int model_pod_claim(const struct cluster *c, int pod, const struct pod_volume *v,
		    char buf[MODEL_CLAIM_NAME_MAX], const char **name)
{
	assert(c && v && buf && pod >= 0 && pod < c->n_pods);
	const struct pod *p = &c->pods[pod];
	const char *n = pod_volume_claim(p, v, buf, MODEL_CLAIM_NAME_MAX);
	if (name)
		*name = n;
	return cluster_find_pvc(c, p->ns, n);
}

int model_limit_claim(const struct cluster *c, int q, int i, bool new_pod,
		      char buf[MODEL_CLAIM_NAME_MAX], const char **name,
		      struct sched_status *out)
{
	assert(c && q >= 0 && q < c->n_pods && buf && name && out);
	const struct pod *p = &c->pods[q];
	assert(i >= 0 && i < p->n_volumes);
	int k = model_pod_claim(c, q, &p->volumes[i], buf, name);
	if (k < 0) {
		if (!new_pod)
			return -1;
		sched_status_fail(out, SCHED_UAU, "looking up PVC %s/%s: "
				  "persistentvolumeclaim \"%s\" not found",
				  p->ns, *name, *name);
		return -2;
	}
	if (!model_claim_for_pod(p, &p->volumes[i], &c->pvcs[k], SCHED_ERROR, out))
		return -2;
	return k;
}

bool model_claim_for_pod(const struct pod *p, const struct pod_volume *v,
			 const struct pvc *claim, enum sched_code code,
			 struct sched_status *out)
{
	assert(p && v && claim && out);
	if (!v->ephemeral || pod_controlled_by(p, claim->owners, claim->n_owners))
		return true;
	sched_status_fail(out, code, "PVC %s/%s was not created for pod %s/%s "
			  "(pod is not owner)", claim->ns, claim->name, p->ns,
			  p->name);
	return false;
}

bool model_claim_fully_bound(const struct pvc *claim)
{
	assert(claim);
	return claim->volume_name[0] && claim->bind_completed;
}

bool model_claim_delay_binding(const struct cluster *c, const struct pvc *claim)
{
	assert(c && claim);
	if (!claim->class_name[0])
		return false;
	int k = cluster_find_class(c, claim->class_name);
	return k >= 0 && c->classes[k].wait_for_consumer;
}

bool model_node_affinity_ok(const struct node_selector *affinity,
			    const struct node *n)
{
	assert(affinity && n);
	struct node labels_only = {.name = "", .labels = n->labels};
	return match_node_selector(affinity, &labels_only);
}
