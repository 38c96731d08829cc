/*
 * filter_volume_zone.c - the VolumeZone plugin (reference §2.12,
 * S/framework/plugins/volumezone/volume_zone.go): a bound claim's PV
 * zone and region labels against the node's.
 */
#include "plugin.h"
#include "volumes.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* topologyLabels, in kube's order: the beta labels first. */
static const char *const topology_labels[] = {
	"failure-domain.beta.kubernetes.io/zone",
	"failure-domain.beta.kubernetes.io/region",
	"topology.kubernetes.io/zone",
	"topology.kubernetes.io/region",
};

/* translateToGALabel: a beta key's GA counterpart. */
static const char *ga_label(const char *key)
{
	if (!strcmp(key, topology_labels[0]))
		return topology_labels[2];
	if (!strcmp(key, topology_labels[1]))
		return topology_labels[3];
	return key;
}

/* LabelZonesToSet(value) contains zone: the value split at "__", each
 * part trimmed of spaces; an empty part makes the whole label unusable
 * (*valid = false: kube logs and skips it). */
static bool zones_contain(const char *value, const char *zone, bool *valid)
{
	bool found = false;
	*valid = true;
	for (const char *s = value;;) {
		const char *end = strstr(s, "__");
		size_t len = end ? (size_t)(end - s) : strlen(s);
		const char *a = s, *b = s + len;
		while (a < b && isspace((unsigned char)*a))
			a++;
		while (b > a && isspace((unsigned char)b[-1]))
			b--;
		if (a == b)
			*valid = false;
		else if ((size_t)(b - a) == strlen(zone) && !strncmp(a, zone, (size_t)(b - a)))
			found = true;
		if (!end)
			break;
		s = end + 2;
	}
	return *valid && found;
}

/*
 * getPVbyPod: the PVs of the pod's bound persistentVolumeClaim volumes
 * (ephemeral volumes are not looked at).  An unbound claim of a
 * WaitForFirstConsumer class is skipped; any other problem rejects the
 * pod (UnschedulableAndUnresolvable; NotFound errors as the API prints
 * them).  pvs[] (room for every volume of the pod) receives the PV
 * indexes; returns their number, or -1 with out set.
 */
static int pod_pvs(const struct model_cycle *cy, int *pvs,
		   struct sched_status *out)
{
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	int n = 0;
	for (int i = 0; i < p->n_volumes; i++) {
		const struct pod_volume *v = &p->volumes[i];
		if (v->ephemeral)
			continue;
		int k = cluster_find_pvc(c, p->ns, v->claim);
		if (k < 0) {
			sched_status_fail(out, SCHED_UAU,
					  "persistentvolumeclaim \"%s\" not found", v->claim);
			return -1;
		}
		const struct pvc *claim = &c->pvcs[k];
		if (!claim->volume_name[0]) {
			if (!claim->class_name[0]) {
				sched_status_add(out, SCHED_UAU, "PersistentVolumeClaim had "
						 "no pv name and storageClass name");
				return -1;
			}
			int sc = cluster_find_class(c, claim->class_name);
			if (sc < 0) {
				sched_status_fail(out, SCHED_UAU, "storageclass.storage.k8s.io "
						  "\"%s\" not found", claim->class_name);
				return -1;
			}
			if (c->classes[sc].wait_for_consumer)
				continue;
			sched_status_add(out, SCHED_UAU, "PersistentVolume had no name");
			return -1;
		}
		int pv = cluster_find_pv(c, claim->volume_name);
		if (pv < 0) {
			sched_status_fail(out, SCHED_UAU, "persistentvolume \"%s\" not found",
					  claim->volume_name);
			return -1;
		}
		pvs[n++] = pv;
	}
	return n;
}

/* Does PV v carry a usable topology label? */
static bool has_topology(const struct pv *v)
{
	for (size_t i = 0; i < sizeof topology_labels / sizeof *topology_labels; i++) {
		const char *value = labels_get(&v->labels, topology_labels[i]);
		bool valid;
		if (value && (zones_contain(value, "", &valid), valid))
			return true;
	}
	return false;
}

/* PreFilter: getPVbyPod; Skip when no PV has a topology label. */
void model_prefilter_volume_zone(const struct model_cycle *cy,
				 struct sched_status *out)
{
	assert(cy && out);
	sched_status_ok(out);
	int *pvs = xmalloc(sizeof *pvs * ((size_t)cy->cluster->pods[cy->pod].n_volumes + 1));
	int n = pod_pvs(cy, pvs, out);
	bool any = false;
	for (int i = 0; i < n; i++)
		any = any || has_topology(&cy->cluster->pvs[pvs[i]]);
	free(pvs);
	if (n >= 0 && !any)
		out->code = SCHED_SKIP;
}

/* The Filter proper on the PVs pvs[0..n): each usable topology label
 * against the node's labels nl. */
static void check_zones(const struct cluster *c, const int *pvs, int n,
			const struct labels *nl, struct sched_status *out)
{
	bool constrained = false;
	for (size_t i = 0; i < sizeof topology_labels / sizeof *topology_labels; i++)
		constrained |= labels_get(nl, topology_labels[i]) != NULL;
	if (!constrained)
		return;
	for (int i = 0; i < n; i++) {
		const struct pv *v = &c->pvs[pvs[i]];
		for (size_t t = 0; t < sizeof topology_labels / sizeof *topology_labels; t++) {
			const char *key = topology_labels[t];
			const char *value = labels_get(&v->labels, key);
			bool valid;
			if (!value || (zones_contain(value, "", &valid), !valid))
				continue;
			const char *have = labels_get(nl, key);
			if (!have)
				have = labels_get(nl, ga_label(key));
			if (!have || !zones_contain(value, have, &valid)) {
				sched_status_add(out, SCHED_UAU,
						 "node(s) had no available volume zone");
				return;
			}
		}
	}
}

/*
 * Filter(Pod, Node) ==
 *   the node has none of the four topology labels \/
 *   \A PV, key with PV.labels[key] usable :
 *     (node.labels[key], or its GA key's value) \in zones(PV.labels[key])
 * Failure: UnschedulableAndUnresolvable "node(s) had no available volume
 * zone".  With its PreFilter disabled the Filter computes getPVbyPod
 * itself and returns its rejection.
 */
void model_filter_volume_zone(const struct model_cycle *cy, int node,
			      struct sched_status *out)
{
	assert(cy && out && node >= 0 && node < cy->cluster->n_nodes);
	sched_status_ok(out);
	const struct cluster *c = cy->cluster;
	if (c->pods[cy->pod].n_volumes == 0)
		return;
	int *pvs = xmalloc(sizeof *pvs * ((size_t)c->pods[cy->pod].n_volumes + 1));
	int n = pod_pvs(cy, pvs, out);
	if (n > 0)
		check_zones(c, pvs, n, &c->nodes[node].labels, out);
	free(pvs);
}

