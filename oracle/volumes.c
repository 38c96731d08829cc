/*
 * volumes.c - the oracle's volume plugins (reference §2.12): VolumeRestrictions
 * (in-tree disks, ReadWriteOncePod), NodeVolumeLimits (CSI), VolumeBinding and
 * VolumeZone, computed the way kube-scheduler v1.30 computes them: each
 * PreFilter builds its state once per cycle (the pod's claims sorted
 * into bound / delay-binding, its ReadWriteOncePod claims and their
 * conflict count, its attachable volumes, its PVs' topologies) and the
 * Filters read it per node.  The existing pods' attachable volumes are
 * computed once per pod for the oracle's lifetime (the cluster's objects
 * never change under it, only the placement).
 *
 * A pod without a claim pays one test per plugin: every PreFilter skips.
 */
#include "../core/limits.h"
#include "internal.h"
#include "../core/go_sort.h"
#include "../core/csi_translation.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define NO_PROVISIONER "kubernetes.io/no-provisioner"

/* One attachable volume of a pod: the limit key (driver) and the unique
 * name "<driver>/<handle>". */
struct oracle_attach {
	const char *driver;
	const char *unique;
};

/* A pod's attachable volumes as filterAttachableVolumes finds them. */
struct oracle_pod_attach {
	bool done;                       /* computed */
	const struct oracle_attach *v;
	int n;
	const char *error;               /* an ephemeral claim the pod does not
					  * own (an Error), or NULL */
	const char *missing;             /* a claim that does not exist (the
					  * pod's own: NotFound), or NULL */
};

/* The pod's PreFilter state of the four plugins. */
struct oracle_volume_state {
	/* VolumeRestrictions: readWriteOncePodPVCs (claim names) */
	const char **rwop;
	int n_rwop;
	/* VolumeBinding: claim indexes by kind */
	int *bound, n_bound;
	const struct pv **bound_pv;      /* [n_bound] each one's PV, or NULL */
	int *delay, n_delay;             /* sorted by request size */
	/* per delay-binding claim, what FindMatchingVolume can pick on any
	 * node (everything it checks but node affinity, worked out once):
	 * the PV pre-bound to it, or -1, and the other candidates in
	 * increasing capacity (list order among equals) */
	int *prebound;                   /* [n_delay] */
	int **cands;                     /* [n_delay][n_cands[i]] */
	int *n_cands;
	int *taken, *provision;          /* [n_delay] scratch of one Filter */
	/* VolumeZone: (label key, PV label value) pairs */
	const char **zone_key, **zone_value;
	int n_zone;
	struct sched_status zone_err;    /* getPVbyPod's rejection, for a
					  * Filter without its PreFilter */
	/* The in-tree limits: the new pod's volumes of in_tree_types[t]
	 * (filterVolumes of the new pod, the same on every node), worked
	 * out at the first node: whether they could be counted, the
	 * rejection when not (in_tree_status[t]), and the ids. */
	bool in_tree_done[IN_TREE_TYPES], in_tree_ok[IN_TREE_TYPES];
	struct sched_status in_tree_status[IN_TREE_TYPES];
	struct in_tree_ids *in_tree_fresh[IN_TREE_TYPES];
};

/* ------------------------------------------------------------ look-ups */

/* The claims and PVs are looked up by name for every pod on every node a
 * volume plugin examines: binary searches over indexes sorted once (the
 * loader refuses duplicate names). */
static bool pvc_less(const void *ctx, int x, int y)
{
	const struct pvc *a = &((const struct cluster *)ctx)->pvcs[x];
	const struct pvc *b = &((const struct cluster *)ctx)->pvcs[y];
	int k = strcmp(a->ns, b->ns);
	return k ? k < 0 : strcmp(a->name, b->name) < 0;
}

static bool pv_less(const void *ctx, int x, int y)
{
	const struct cluster *c = ctx;
	return strcmp(c->pvs[x].name, c->pvs[y].name) < 0;
}

static int *sorted_ids(struct oracle_data *d, const struct cluster *c, int n,
		       model_go_less_fn less)
{
	int *v = arena_array(&d->arena, (size_t)n + 1, sizeof *v);
	for (int i = 0; i < n; i++)
		v[i] = i;
	model_go_sort_slice(v, n, less, c);
	return v;
}

static const struct pvc *claim_named(struct oracle *o, const char *ns,
				     const char *name)
{
	const struct cluster *c = o->cluster;
	struct oracle_data *d = o->d;
	if (!d->pvcs_by_name)
		d->pvcs_by_name = sorted_ids(d, c, c->n_pvcs, pvc_less);
	int lo = 0, hi = c->n_pvcs;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const struct pvc *m = &c->pvcs[d->pvcs_by_name[mid]];
		int k = strcmp(m->ns, ns);
		if (!k)
			k = strcmp(m->name, name);
		if (!k)
			return m;
		if (k < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static const struct pvc *claim_of(struct oracle *o, int pod,
				  const struct pod_volume *v, char *buf,
				  const char **name)
{
	const struct pod *p = &o->cluster->pods[pod];
	const char *n = pod_volume_claim(p, v, buf, MODEL_CLAIM_NAME_MAX);
	if (name)
		*name = n;
	return claim_named(o, p->ns, n);
}

/* The limit plugins' rejection of a new pod whose claim ns/name does not
 * exist: the lister's NotFound, wrapped as their Filters wrap it. */
static void limit_claim_not_found(struct sched_status *st, const char *ns,
				  const char *name)
{
	sched_status_fail(st, SCHED_UAU, "looking up PVC %s/%s: "
			  "persistentvolumeclaim \"%s\" not found", ns, name, name);
}

/* ephemeral.VolumeIsForPod: volume v's claim is one pod p may use (an
 * ephemeral volume's only when p controls it); else false, with kube's
 * error as code into st. */
static bool claim_for_pod(const struct pod *p, const struct pod_volume *v,
			  const struct pvc *claim, enum sched_code code,
			  struct sched_status *st)
{
	if (!v->ephemeral || pod_controlled_by(p, claim->owners, claim->n_owners))
		return true;
	sched_status_fail(st, code, "PVC %s/%s was not created for pod %s/%s "
			  "(pod is not owner)", claim->ns, claim->name, p->ns,
			  p->name);
	return false;
}

static const struct pv *pv_named(struct oracle *o, const char *name)
{
	const struct cluster *c = o->cluster;
	struct oracle_data *d = o->d;
	if (!name[0])
		return NULL;
	if (!d->pvs_by_name)
		d->pvs_by_name = sorted_ids(d, c, c->n_pvs, pv_less);
	int lo = 0, hi = c->n_pvs;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const struct pv *m = &c->pvs[d->pvs_by_name[mid]];
		int k = strcmp(m->name, name);
		if (!k)
			return m;
		if (k < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static const struct storage_class *class_named(const struct cluster *c,
					       const char *name)
{
	int k = name[0] ? cluster_find_class(c, name) : -1;
	return k < 0 ? NULL : &c->classes[k];
}

/* CheckNodeAffinity: a PV's required terms against the node's labels
 * alone (an empty name). */
static bool affinity_fits(const struct node_selector *affinity, const struct node *n)
{
	struct node bare = {.name = "", .labels = n->labels};
	return oracle_node_selector_matches(affinity, &bare);
}

static bool pv_fits(const struct pv *v, const struct node *n)
{
	return affinity_fits(&v->node_affinity, n);
}

/* A Filter's Error as RunFilterPlugins reports it (reference §1.4). */
static void filter_error(struct sched_status *st, enum plugin_id id,
			 const char *error)
{
	sched_status_fail(st, SCHED_ERROR, "running \"%s\" filter plugin: %s",
			  config_plugin_name(id), error);
}

/* ------------------------------------------------- attachable volumes */

/* filterAttachableVolumes of pod p (getCSIDriverInfo, and
 * getCSIDriverInfoFromSC for claims without a PV) into a, in d's arena. */
/* One attachable volume into v[0..*n), once per unique name. */
static void attach_add(struct arena *ar, struct oracle_attach *v, int *n,
		       const char *driver, const char *handle)
{
	if (!driver || !driver[0] || !handle[0])
		return;
	char unique[384];
	snprintf(unique, sizeof unique, "%.120s/%.255s", driver, handle);
	for (int j = 0; j < *n; j++)
		if (!strcmp(v[j].unique, unique))
			return;
	v[(*n)++] = (struct oracle_attach){driver, arena_strdup(ar, unique)};
}

/* filterAttachableVolumes of pod p on a node whose CSINode is cn (NULL:
 * none): in-tree volumes count under their CSI driver where
 * isCSIMigrationOn (csi_limits_migrated). */
static void compute_attach(struct oracle *o, int p, const struct csi_node *cn,
			   struct oracle_pod_attach *a)
{
	bool v134 = config_at_least(&o->cluster->config, KUBE_1_34);
	const struct cluster *c = o->cluster;
	struct arena *ar = &o->d->arena;
	const struct pod *pod = &c->pods[p];
	struct oracle_attach *v = arena_array(ar, (size_t)(pod->n_volumes +
							  pod->n_disks) + 1, sizeof *v);
	int n = 0;
	/* checkAttachableInlineVolume: the migrated in-tree inline volumes */
	for (int i = 0; cn && i < pod->n_disks; i++) {
		if (!csi_limits_migrated(csi_plugin_of_disk(pod->disks[i].kind), cn, v134))
			continue;
		char handle[MODEL_CLAIM_NAME_MAX];
		const char *driver = csi_translate_inline(&pod->disks[i], handle,
							  sizeof handle);
		attach_add(ar, v, &n, driver, driver ? handle : "");
	}
	for (int i = 0; i < pod->n_volumes; i++) {
		char buf[MODEL_CLAIM_NAME_MAX];
		const char *name;
		const struct pvc *claim = claim_of(o, p, &pod->volumes[i], buf, &name);
		if (!claim) {
			if (!a->missing)
				a->missing = arena_strdup(ar, name);
			continue;
		}
		struct sched_status st;
		oracle_status_ok(&st);
		if (!claim_for_pod(pod, &pod->volumes[i], claim, SCHED_ERROR, &st)) {
			a->error = arena_strdup(ar, sched_status_reason(&st, 0));
			break;
		}
		const char *driver = NULL;
		char handle[MODEL_CLAIM_NAME_MAX] = "";
		const struct pv *vol = pv_named(o, claim->volume_name);
		if (vol && vol->csi_driver) {
			driver = vol->csi_driver;
			snprintf(handle, sizeof handle, "%s", vol->csi_handle);
		} else if (vol) {
			/* in-tree: counted under its CSI driver when migrated */
			driver = vol->has_intree &&
				 csi_limits_migrated(csi_plugin_of_disk(vol->intree), cn, v134)
				 ? csi_translate_pv(vol, handle, sizeof handle) : NULL;
		} else {
			const struct storage_class *sc = class_named(c, claim->class_name);
			/* an in-tree provisioner: its CSI driver when kube
			 * migrates it and the node has a CSINode, else none */
			const struct csi_in_tree_plugin *tree =
				sc ? csi_plugin_by_name(sc->provisioner) : NULL;
			if (sc && (!tree || csi_limits_migrated(tree, cn, v134))) {
				driver = tree ? tree->driver : sc->provisioner;
				snprintf(handle, sizeof handle, "kso-%s/%s", claim->ns,
					 claim->name);
			}
		}
		attach_add(ar, v, &n, driver, handle);
	}
	a->v = v;
	a->n = n;
	a->done = true;
}

/* Pod p's attachable volumes on a node whose CSINode is cn, computed once
 * per kind of node: without a CSINode (0), with one that migrates
 * Portworx (2, v1.34) or not (1) - the same answer on every node of a
 * kind. */
static const struct oracle_pod_attach *pod_attach(struct oracle *o, int p,
						  const struct csi_node *cn)
{
	struct oracle_data *d = o->d;
	if (!d->attach)
		d->attach = arena_array(&d->arena, 3 * (size_t)d->n_pods + 1,
					sizeof *d->attach);
	int kind = !cn ? 0
		   : csi_limits_migrated(csi_plugin_by_name("kubernetes.io/portworx-volume"),
					 cn, config_at_least(&o->cluster->config, KUBE_1_34))
		   ? 2 : 1;
	struct oracle_pod_attach *a = &d->attach[3 * (size_t)p + (size_t)kind];
	if (!a->done)
		compute_attach(o, p, cn, a);
	return a;
}

/* ----------------------------------------------------------- PreFilter */

/* The claim of the pod's persistentVolumeClaim volume v (the listers'
 * Get); NULL with st set to the NotFound rejection the plugins return. */
static const struct pvc *claim_or_not_found(struct oracle_cycle *cy,
					    const struct pod_volume *v,
					    struct sched_status *st)
{
	const struct pvc *claim = claim_named(cy->o, cy->p->ns, v->claim);
	if (claim)
		return claim;
	sched_status_fail(st, SCHED_UAU, "persistentvolumeclaim \"%s\" not found",
			  v->claim);
	return NULL;
}

/* VolumeRestrictions: is claim ns/name used by a bound pod (through a
 * persistentVolumeClaim volume)? */
static bool claim_in_use(struct oracle_cycle *cy, const char *ns, const char *name)
{
	const struct cluster *c = cy->c;
	const int32_t *where = cy->o->snap.pod_node;
	for (int q = 0; q < c->n_pods; q++) {
		if (where[q] < 0 || strcmp(c->pods[q].ns, ns))
			continue;
		for (int i = 0; i < c->pods[q].n_volumes; i++)
			if (!c->pods[q].volumes[i].ephemeral &&
			    !strcmp(c->pods[q].volumes[i].claim, name))
				return true;
	}
	return false;
}

static int prefilter_restrictions(struct oracle_cycle *cy,
				  struct oracle_volume_state *s,
				  struct sched_status *st)
{
	const struct pod *p = cy->p;
	s->rwop = arena_array(cy->arena, (size_t)p->n_volumes + 1, sizeof *s->rwop);
	for (int i = 0; i < p->n_volumes; i++) {
		const struct pod_volume *v = &p->volumes[i];
		if (v->ephemeral)
			continue;
		const struct pvc *claim = claim_or_not_found(cy, v, st);
		if (!claim)
			return PLUGIN_VOLUME_RESTRICTIONS;
		if (!(claim->access_modes & ACCESS_RWOP))
			continue;
		bool dup = false;
		for (int j = 0; j < s->n_rwop; j++)
			dup |= !strcmp(s->rwop[j], v->claim);
		if (!dup)
			s->rwop[s->n_rwop++] = v->claim;
	}
	cy->vr_conflicts = 0;
	for (int j = 0; j < s->n_rwop; j++)
		cy->vr_conflicts += claim_in_use(cy, p->ns, s->rwop[j]);
	/* Skip: no in-tree disk to check (GCE PD, EBS, RBD, iSCSI) and no
	 * claim in use */
	bool checks_disks = false;
	for (int i = 0; i < p->n_disks; i++)
		checks_disks |= p->disks[i].kind != DISK_AZURE &&
				p->disks[i].kind != DISK_CINDER &&
				p->disks[i].kind != DISK_PORTWORX;
	bool skip = !checks_disks && cy->vr_conflicts == 0;
	if (skip)
		cy->skip[PLUGIN_VOLUME_RESTRICTIONS] = true;
	cy->vr_tracked = !skip && s->n_rwop > 0;
	return -1;
}

static bool bound_to(const struct pv *v, const struct pvc *claim)
{
	return v->has_claim_ref && !strcmp(v->claim_name, claim->name) &&
	       !strcmp(v->claim_ns, claim->ns) &&
	       (!v->claim_uid[0] || !strcmp(v->claim_uid, claim->uid));
}

/* What FindMatchingVolume checks of a PV apart from node affinity, over
 * ListPVs(the claim's class): *prebound the first PV pre-bound to the
 * claim that passes the size, mode and deletion checks (it wins on any
 * node where it fits, and nothing else is taken where it does not), or
 * -1; cands the available, large enough, matching others, by increasing
 * capacity (list order among equals, as the scan keeps the first
 * smallest).  v1.34 takes only PVs of the claim's VolumeAttributesClass;
 * v1.30 (gate off) has the field on neither. */
static void volume_candidates(struct oracle_cycle *cy, const struct pvc *claim,
			      int *prebound, int **cands, int *n_cands)
{
	const struct cluster *c = cy->c;
	*prebound = -1;
	*n_cands = 0;
	*cands = arena_array(cy->arena, (size_t)c->n_pvs + 1, sizeof **cands);
	for (int k = 0; k < c->n_pvs; k++) {
		const struct pv *v = &c->pvs[k];
		/* v1.34 (gate GA, delta §5.6): the same VolumeAttributesClass
		 * (v1.30 reads none: both are "", the API server drops them) */
		if (strcmp(v->class_name, claim->class_name) ||
		    strcmp(v->vac, claim->vac))
			continue;
		bool mine = bound_to(v, claim);
		if ((v->has_claim_ref && !mine) ||
		    quantity_cmp(v->capacity, claim->request) < 0 ||
		    v->block != claim->block || v->deleting)
			continue;
		if (mine) {
			if (*prebound < 0)
				*prebound = k;
			continue;
		}
		if (!v->available ||
		    (claim->selector.present &&
		     !oracle_selector_matches(&claim->selector, &v->labels)) ||
		    (claim->access_modes & ~v->access_modes))
			continue;
		int j = (*n_cands)++;
		while (j > 0 && quantity_cmp(c->pvs[(*cands)[j - 1]].capacity,
					     v->capacity) > 0) {
			(*cands)[j] = (*cands)[j - 1];
			j--;
		}
		(*cands)[j] = k;
	}
}

/* VolumeBinding's podHasPVCs and GetPodVolumeClaims. */
static int prefilter_binding(struct oracle_cycle *cy, struct oracle_volume_state *s,
			     struct sched_status *st)
{
	const struct cluster *c = cy->c;
	const struct pod *p = cy->p;
	size_t nv = (size_t)p->n_volumes + 1;
	s->bound = arena_array(cy->arena, nv, sizeof *s->bound);
	s->delay = arena_array(cy->arena, nv, sizeof *s->delay);
	int immediate = 0;
	for (int i = 0; i < p->n_volumes; i++) {
		char buf[MODEL_CLAIM_NAME_MAX];
		const char *name;
		const struct pod_volume *v = &p->volumes[i];
		const struct pvc *claim = claim_of(cy->o, cy->pod, v, buf, &name);
		if (!claim) {
			if (v->ephemeral)
				sched_status_fail(st, SCHED_UAU, "waiting for ephemeral "
						  "volume controller to create the "
						  "persistentvolumeclaim \"%s\"", name);
			else
				sched_status_fail(st, SCHED_UAU, "persistentvolumeclaim "
						  "\"%s\" not found", name);
			return PLUGIN_VOLUME_BINDING;
		}
		if (claim->lost) {
			sched_status_fail(st, SCHED_UAU, "persistentvolumeclaim \"%s\" "
					  "bound to non-existent persistentvolume \"%s\"",
					  claim->name, claim->volume_name);
			return PLUGIN_VOLUME_BINDING;
		}
		if (claim->deleting) {
			sched_status_fail(st, SCHED_UAU, "persistentvolumeclaim \"%s\" is "
					  "being deleted", claim->name);
			return PLUGIN_VOLUME_BINDING;
		}
		if (!claim_for_pod(p, v, claim, SCHED_UAU, st))
			return PLUGIN_VOLUME_BINDING;
		int k = (int)(claim - c->pvcs);
		const struct storage_class *sc = class_named(c, claim->class_name);
		if (claim->volume_name[0] && claim->bind_completed)
			s->bound[s->n_bound++] = k;
		else if (sc && sc->wait_for_consumer && !claim->volume_name[0])
			s->delay[s->n_delay++] = k;
		else
			immediate++;
	}
	if (immediate) {
		sched_status_add(st, SCHED_UAU,
				 "pod has unbound immediate PersistentVolumeClaims");
		return PLUGIN_VOLUME_BINDING;
	}
	/* byPVCSize: increasing storage request (insertion sort: stable) */
	for (int i = 1; i < s->n_delay; i++)
		for (int j = i; j > 0 && quantity_cmp(c->pvcs[s->delay[j]].request,
						      c->pvcs[s->delay[j - 1]].request) < 0; j--) {
			int t = s->delay[j];
			s->delay[j] = s->delay[j - 1];
			s->delay[j - 1] = t;
		}
	s->bound_pv = arena_array(cy->arena, (size_t)s->n_bound + 1, sizeof *s->bound_pv);
	for (int i = 0; i < s->n_bound; i++)
		s->bound_pv[i] = pv_named(cy->o, c->pvcs[s->bound[i]].volume_name);
	s->prebound = arena_array(cy->arena, (size_t)s->n_delay + 1, sizeof *s->prebound);
	s->cands = arena_array(cy->arena, (size_t)s->n_delay + 1, sizeof *s->cands);
	s->n_cands = arena_array(cy->arena, (size_t)s->n_delay + 1, sizeof *s->n_cands);
	for (int i = 0; i < s->n_delay; i++)
		volume_candidates(cy, &c->pvcs[s->delay[i]], &s->prebound[i],
				  &s->cands[i], &s->n_cands[i]);
	s->taken = arena_array(cy->arena, (size_t)s->n_delay + 1, sizeof *s->taken);
	s->provision = arena_array(cy->arena, (size_t)s->n_delay + 1,
				   sizeof *s->provision);
	return -1;
}

static const char *const topology_labels[] = {
	"failure-domain.beta.kubernetes.io/zone",
	"failure-domain.beta.kubernetes.io/region",
	"topology.kubernetes.io/zone",
	"topology.kubernetes.io/region",
};

/* LabelZonesToSet(value): false when a "__"-separated part is empty
 * after trimming; else *has tells whether zone is one of the parts. */
static bool zone_set_has(const char *value, const char *zone, bool *has)
{
	*has = false;
	size_t zl = strlen(zone);
	for (const char *s = value;;) {
		const char *end = strstr(s, "__");
		const char *a = s, *b = end ? end : s + strlen(s);
		while (a < b && isspace((unsigned char)*a))
			a++;
		while (b > a && isspace((unsigned char)b[-1]))
			b--;
		if (a == b)
			return false;
		if ((size_t)(b - a) == zl && !memcmp(a, zone, zl))
			*has = true;
		if (!end)
			return true;
		s = end + 2;
	}
}

/* VolumeZone's getPVbyPod into s (the topology pairs); a rejection into
 * st with the plugin returned. */
static int pv_topologies(struct oracle_cycle *cy, struct oracle_volume_state *s,
			 struct sched_status *st)
{
	const struct cluster *c = cy->c;
	const struct pod *p = cy->p;
	size_t cap = 4 * (size_t)p->n_volumes + 1;
	s->zone_key = arena_array(cy->arena, cap, sizeof *s->zone_key);
	s->zone_value = arena_array(cy->arena, cap, sizeof *s->zone_value);
	for (int i = 0; i < p->n_volumes; i++) {
		const struct pod_volume *v = &p->volumes[i];
		if (v->ephemeral)
			continue;
		const struct pvc *claim = claim_or_not_found(cy, v, st);
		if (!claim)
			return PLUGIN_VOLUME_ZONE;
		if (!claim->volume_name[0]) {
			if (!claim->class_name[0]) {
				sched_status_add(st, SCHED_UAU, "PersistentVolumeClaim had no "
						 "pv name and storageClass name");
				return PLUGIN_VOLUME_ZONE;
			}
			const struct storage_class *sc = class_named(c, claim->class_name);
			if (!sc) {
				sched_status_fail(st, SCHED_UAU, "storageclass.storage.k8s.io "
						  "\"%s\" not found", claim->class_name);
				return PLUGIN_VOLUME_ZONE;
			}
			if (sc->wait_for_consumer)
				continue;
			sched_status_add(st, SCHED_UAU, "PersistentVolume had no name");
			return PLUGIN_VOLUME_ZONE;
		}
		const struct pv *pv = pv_named(cy->o, claim->volume_name);
		if (!pv) {
			sched_status_fail(st, SCHED_UAU, "persistentvolume \"%s\" not found",
					  claim->volume_name);
			return PLUGIN_VOLUME_ZONE;
		}
		for (int t = 0; t < 4; t++) {
			const char *value = labels_get(&pv->labels, topology_labels[t]);
			bool has;
			if (!value || !zone_set_has(value, "", &has))
				continue;
			s->zone_key[s->n_zone] = topology_labels[t];
			s->zone_value[s->n_zone++] = value;
		}
	}
	return -1;
}

static void in_tree_prefilters(struct oracle_cycle *cy);
static int csi_node_of(struct oracle *o, int node);

/* The PreFilters in order, a rejection into st. */
static int prefilter_volumes(struct oracle_cycle *cy, struct sched_status *st)
{
	const struct sched_profile *prof = cy->prof;
	cy->vol = NULL;
	cy->vr_conflicts = 0;
	cy->vr_tracked = false;
	if (cy->p->n_volumes == 0 && cy->p->n_disks == 0) {
		/* every volume PreFilter skips a pod without volumes */
		cy->skip[PLUGIN_VOLUME_RESTRICTIONS] = cy->skip[PLUGIN_NODE_VOLUME_LIMITS] =
			cy->skip[PLUGIN_VOLUME_BINDING] = cy->skip[PLUGIN_VOLUME_ZONE] =
			cy->skip[PLUGIN_EBS_LIMITS] = cy->skip[PLUGIN_GCE_PD_LIMITS] =
			cy->skip[PLUGIN_AZURE_DISK_LIMITS] = true;
		return -1;
	}
	in_tree_prefilters(cy);
	struct oracle_volume_state *s = arena_alloc(cy->arena, sizeof *s);
	memset(s, 0, sizeof *s);
	cy->vol = s;
	int r;
	if (prof->prefilter[PLUGIN_VOLUME_RESTRICTIONS] &&
	    (r = prefilter_restrictions(cy, s, st)) >= 0)
		return r;
	/* no PreFilterResult in v1.30.12: every node goes to the Filter */
	if (prof->prefilter[PLUGIN_VOLUME_BINDING] &&
	    (r = prefilter_binding(cy, s, st)) >= 0)
		return r;
	sched_status_ok(&s->zone_err);
	if ((r = pv_topologies(cy, s, &s->zone_err)) >= 0) {
		if (prof->prefilter[PLUGIN_VOLUME_ZONE]) {
			oracle_status_copy(st, &s->zone_err);
			return r;
		}
	} else if (prof->prefilter[PLUGIN_VOLUME_ZONE] && s->n_zone == 0) {
		cy->skip[PLUGIN_VOLUME_ZONE] = true;
	}
	return -1;
}

int oracle_prefilter_volumes(struct oracle_cycle *cy, struct sched_status *st)
{
	struct sched_status mine;
	sched_status_ok(&mine);
	int r = prefilter_volumes(cy, &mine);
	if (r >= 0)
		oracle_status_copy(st, &mine);
	return r;
}

/* ------------------------------------------------------------- Filters */

void oracle_volumes_count(struct oracle_cycle *cy, int q, int sign)
{
	const struct oracle_volume_state *s = cy->vol;
	assert(s && cy->vr_tracked);
	const struct pod *p = &cy->c->pods[q];
	for (int i = 0; i < p->n_volumes; i++) {
		if (p->volumes[i].ephemeral)
			continue;
		for (int j = 0; j < s->n_rwop; j++)
			if (!strcmp(s->rwop[j], p->volumes[i].claim))
				cy->vr_conflicts += sign;
	}
}

/* isVolumeConflict of two in-tree disks. */
static bool same_disk(const struct pod_disk *a, const struct pod_disk *b)
{
	if (a->kind != b->kind || strcmp(a->id, b->id))
		return false;
	switch (a->kind) {
	case DISK_AZURE:
	case DISK_CINDER:
	case DISK_PORTWORX:
		return false;   /* not a restriction: a limit plugin's only */
	case DISK_AWS_EBS:
		return true;
	case DISK_RBD: {
		bool overlap = false;
		for (int i = 0; i < a->n_monitors && !overlap; i++)
			for (int j = 0; j < b->n_monitors && !overlap; j++)
				overlap = !strcmp(a->monitors[i], b->monitors[j]);
		if (!overlap || strcmp(a->pool, b->pool))
			return false;
		return !(a->read_only && b->read_only);
	}
	default:
		return !(a->read_only && b->read_only);
	}
}

/* satisfyVolumeConflicts: no disk of the pod is one a pod of the view
 * has (nodeInfo.Pods: the node's pods, then the nominated ones added). */
static bool disks_free(struct oracle_cycle *cy, const struct oracle_nodeview *v)
{
	const struct oracle_ilist *pods = &cy->o->d->nodes[v->node].pods;
	for (int i = 0; i < pods->n + v->n_extra; i++) {
		const struct pod *q = &cy->c->pods[i < pods->n ? pods->v[i]
						   : v->extra[i - pods->n]];
		for (int a = 0; a < cy->p->n_disks; a++)
			for (int b = 0; b < q->n_disks; b++)
				if (same_disk(&cy->p->disks[a], &q->disks[b]))
					return false;
	}
	return true;
}

void oracle_filter_volume_restrictions(struct oracle_cycle *cy,
				       const struct oracle_nodeview *v,
				       struct sched_status *st)
{
	if (cy->p->n_disks && !disks_free(cy, v)) {
		oracle_status_fail_str(st, SCHED_UNSCHEDULABLE,
				       "node(s) had no available disk");
		return;
	}
	if (cy->vr_conflicts > 0)   /* reworded in v1.34 (delta §5.7) */
		oracle_status_fail_str(st, SCHED_UNSCHEDULABLE,
				       config_at_least(&cy->c->config, KUBE_1_34)
				       ? "node(s) unavailable due to PersistentVolumeClaim "
					 "with ReadWriteOncePod access mode already in-use "
					 "by another pod"
				       : "node has pod using PersistentVolumeClaim with the "
					 "same name and ReadWriteOncePod access mode");
}

/* The CSINode of node (csiNodeLister.Get(node.Name)), or -1: an index
 * by node built on first use (a look-up by name per node and cycle would
 * cost the number of CSINodes, quadratic in the cluster). */
static int csi_node_of(struct oracle *o, int node)
{
	struct oracle_data *d = o->d;
	const struct cluster *c = o->cluster;
	if (!d->csi_node_of) {
		d->csi_node_of = arena_array(&d->arena, (size_t)d->n_nodes + 1,
					     sizeof *d->csi_node_of);
		struct oracle_strmap m;
		oracle_strmap_init(&m);
		/* the loader refuses duplicate names: id i is CSINode i */
		for (int i = 0; i < c->n_csi_nodes; i++)
			oracle_strmap_intern(&m, c->csi_nodes[i].name);
		for (int n = 0; n < d->n_nodes; n++)
			d->csi_node_of[n] = oracle_strmap_find(&m, c->nodes[n].name);
		oracle_strmap_release(&m);
	}
	return d->csi_node_of[node];
}

/* getVolumeLimits(node)[key of driver], or -1; v1.34 reads the CSINode
 * only (delta §5.8). */
static int64_t node_limit(struct oracle_cycle *cy, int node, const char *driver)
{
	const struct cluster *c = cy->c;
	int64_t limit = -1;
	char key[sizeof CSI_ATTACH_LIMIT_PREFIX + 128];
	int res = config_at_least(&c->config, KUBE_1_34) ? -1
		  : cluster_res_index(c, csi_attach_limit_key(driver, key, sizeof key));
	if (res >= 0 && cy->o->d->alloc_has[(size_t)node * cy->o->d->n_res + res])
		limit = cy->o->d->alloc[(size_t)node * cy->o->d->n_res + res];
	int k = csi_node_of(cy->o, node);
	for (int i = 0; k >= 0 && i < c->csi_nodes[k].n_drivers; i++) {
		const struct csi_driver_limit *d = &c->csi_nodes[k].drivers[i];
		if (d->has_count && !strcmp(d->driver, driver))
			limit = d->count;
	}
	return limit;
}

/* v1.34: the node's CSINode gives some driver a limit. */
static bool csi_limits_any(struct oracle_cycle *cy, int node)
{
	int k = csi_node_of(cy->o, node);
	for (int i = 0; k >= 0 && i < cy->c->csi_nodes[k].n_drivers; i++)
		if (cy->c->csi_nodes[k].drivers[i].has_count)
			return true;
	return false;
}

/* Whether unique is a volume of one of the view's pods. */
static bool view_has(struct oracle_cycle *cy, const struct oracle_nodeview *v,
		     int n_view, const struct csi_node *cn, const char *unique);

/* v1.34 getNodeVolumeAttachmentInfo, counted for driver: the distinct
 * "<attacher>/<handle>" of the node's VolumeAttachments (attacher set, a
 * CSI PV that exists) under driver that no pod of the view uses. */
static int64_t attachments_of(struct oracle_cycle *cy, const struct oracle_nodeview *v,
			      int n_view, const struct csi_node *cn, const char *driver)
{
	const struct cluster *c = cy->c;
	const char *node = c->nodes[v->node].name;
	int64_t n = 0;
	for (int i = 0; i < c->n_attachments; i++) {
		const struct volume_attachment *va = &c->attachments[i];
		if (strcmp(va->attacher, driver) || strcmp(va->node_name, node) ||
		    !va->pv_name)
			continue;
		const struct pv *vol = pv_named(cy->o, va->pv_name);
		if (!vol || !vol->csi_driver)
			continue;
		char unique[384];
		snprintf(unique, sizeof unique, "%.120s/%.255s", va->attacher,
			 vol->csi_handle);
		bool dup = view_has(cy, v, n_view, cn, unique);
		for (int j = 0; j < i && !dup; j++) {   /* a map: once per name */
			const struct volume_attachment *w = &c->attachments[j];
			const struct pv *wv = w->pv_name ? pv_named(cy->o, w->pv_name) : NULL;
			dup = wv && wv->csi_driver && !strcmp(w->attacher, va->attacher) &&
			      !strcmp(w->node_name, node) &&
			      !strcmp(wv->csi_handle, vol->csi_handle);
		}
		n += !dup;
	}
	return n;
}

/* The attachable volumes of the i-th pod of the view (the node's pods,
 * then the nominated ones added). */
static const struct oracle_pod_attach *view_pod(struct oracle_cycle *cy,
						const struct oracle_nodeview *v,
						int i, const struct csi_node *cn)
{
	const struct oracle_ilist *pods = &cy->o->d->nodes[v->node].pods;
	int q = i < pods->n ? pods->v[i] : v->extra[i - pods->n];
	return pod_attach(cy->o, q, cn);
}

void oracle_filter_volume_limits(struct oracle_cycle *cy,
				 const struct oracle_nodeview *v,
				 struct sched_status *st)
{
	const struct pod *p = cy->p;
	if (p->n_volumes == 0 && p->n_disks == 0)
		return;
	/* on a node with a CSINode the in-tree volumes are cn
	 * (Portworx: v1.34, where its annotation lists it) */
	int k_cn = csi_node_of(cy->o, v->node);
	const struct csi_node *cn = k_cn >= 0 ? &cy->c->csi_nodes[k_cn] : NULL;
	const struct oracle_pod_attach *mine = pod_attach(cy->o, cy->pod, cn);
	if (mine->missing) {
		limit_claim_not_found(st, p->ns, mine->missing);
		return;
	}
	if (mine->error) {
		filter_error(st, PLUGIN_NODE_VOLUME_LIMITS, mine->error);
		return;
	}
	if (mine->n == 0)
		return;
	bool v134 = config_at_least(&cy->c->config, KUBE_1_34);
	if (v134 && !csi_limits_any(cy, v->node))
		return;   /* no limits: the node's pods are not even read */
	int n_view = cy->o->d->nodes[v->node].pods.n + v->n_extra;
	for (int i = 0; i < n_view; i++) {
		const struct oracle_pod_attach *a = view_pod(cy, v, i, cn);
		if (a->error) {
			filter_error(st, PLUGIN_NODE_VOLUME_LIMITS, a->error);
			return;
		}
	}
	for (int k = 0; k < mine->n; k++) {
		const char *driver = mine->v[k].driver;
		bool seen = false;
		for (int j = 0; j < k && !seen; j++)
			seen = !strcmp(mine->v[j].driver, driver);
		if (seen)
			continue;   /* each limit key once */
		int64_t limit = node_limit(cy, v->node, driver);
		if (limit < 0)
			continue;
		/* attachedVolumeCount[key]: unique volumes of the node's pods */
		int64_t attached = 0, fresh = 0;
		for (int i = 0; i < n_view; i++) {
			const struct oracle_pod_attach *a = view_pod(cy, v, i, cn);
			for (int x = 0; x < a->n; x++) {
				if (strcmp(a->v[x].driver, driver))
					continue;
				bool dup = false;
				for (int i2 = 0; i2 <= i && !dup; i2++) {
					const struct oracle_pod_attach *b = view_pod(cy, v, i2, cn);
					int lim = i2 == i ? x : b->n;
					for (int y = 0; y < lim && !dup; y++)
						dup = !strcmp(b->v[y].unique, a->v[x].unique);
				}
				attached += !dup;
			}
		}
		if (v134)
			attached += attachments_of(cy, v, n_view, cn, driver);
		for (int j = 0; j < mine->n; j++) {
			if (strcmp(mine->v[j].driver, driver))
				continue;
			bool there = false;
			for (int i = 0; i < n_view && !there; i++) {
				const struct oracle_pod_attach *a = view_pod(cy, v, i, cn);
				for (int x = 0; x < a->n && !there; x++)
					there = !strcmp(a->v[x].unique, mine->v[j].unique);
			}
			fresh += !there;
		}
		/* only drivers with a volume not attached yet are checked
		 * (kube's newVolumeCount keys) */
		if (fresh > 0 && attached + fresh > limit) {
			oracle_status_fail_str(st, SCHED_UNSCHEDULABLE,
					       "node(s) exceed max volume count");
			return;
		}
	}
}

static bool view_has(struct oracle_cycle *cy, const struct oracle_nodeview *v,
		     int n_view, const struct csi_node *cn, const char *unique)
{
	for (int i = 0; i < n_view; i++) {
		const struct oracle_pod_attach *a = view_pod(cy, v, i, cn);
		for (int x = 0; x < a->n; x++)
			if (!strcmp(a->v[x].unique, unique))
				return true;
	}
	return false;
}

static bool is_taken(const int *taken, int n_taken, int k)
{
	for (int i = 0; i < n_taken; i++)
		if (taken[i] == k)
			return true;
	return false;
}

/* FindMatchingVolume (scheduler path) for delay claim i on node n; -1
 * when none.  taken[0..n_taken) are the PVs earlier claims took
 * (excludedVolumes). */
static int matching_pv(const struct oracle_volume_state *s, int i,
		       const struct cluster *c, const struct node *n,
		       const int *taken, int n_taken)
{
	int pb = s->prebound[i];
	if (pb >= 0 && !is_taken(taken, n_taken, pb))
		return pv_fits(&c->pvs[pb], n) ? pb : -1;
	for (int j = 0; j < s->n_cands[i]; j++) {
		int k = s->cands[i][j];
		if (!is_taken(taken, n_taken, k) && pv_fits(&c->pvs[k], n))
			return k;
	}
	return -1;
}

/* hasEnoughCapacity of class sc for claim on n. */
static bool has_capacity(const struct cluster *c, const struct storage_class *sc,
			 const struct pvc *claim, const struct node *n)
{
	int k = cluster_find_csi_driver(c, sc->provisioner);
	if (k < 0 || !c->csi_drivers[k].storage_capacity)
		return true;
	int64_t size;
	if (quantity_value(claim->request, &size) < 0)
		return false;
	for (int i = 0; i < c->n_capacities; i++) {
		const struct csi_capacity *cap = &c->capacities[i];
		if (strcmp(cap->class_name, sc->name) || !cap->node_topology.present)
			continue;
		int64_t limit;
		struct quantity q = cap->has_max_size ? cap->max_size : cap->capacity;
		if (!cap->has_max_size && !cap->has_capacity)
			continue;
		if (quantity_value(q, &limit) == 0 && limit >= size &&
		    oracle_selector_matches(&cap->node_topology, &n->labels))
			return true;
	}
	return false;
}

/* checkVolumeProvisions for one claim on n: 0 provisionable, 1 not here
 * (unboundVolumesSatisfied false), 2 no room (sufficientStorage false). */
static int provisionable(const struct cluster *c, const struct pvc *claim,
			 const struct node *n)
{
	const struct storage_class *sc = class_named(c, claim->class_name);
	if (!sc || !sc->provisioner[0] || !strcmp(sc->provisioner, NO_PROVISIONER))
		return 1;
	bool allowed = sc->n_allowed_topologies == 0;
	struct node bare = {.name = "", .labels = n->labels};
	for (int t = 0; t < sc->n_allowed_topologies && !allowed; t++)
		allowed = sc->allowed_topologies[t].n_exprs &&
			  oracle_node_term_matches(&sc->allowed_topologies[t], &bare);
	if (!allowed)
		return 1;
	return has_capacity(c, sc, claim, n) ? 0 : 2;
}

/* FindPodVolumes' unboundVolumesSatisfied for the delay-binding claims:
 * a claim already given to another node fails at once; the others take
 * a matching PV or, if none, join those with a selected node in
 * checkVolumeProvisions, which then decides alone. */
static bool unbound_satisfied(struct oracle_cycle *cy, const struct node *n,
			      bool *room)
{
	*room = true;
	const struct cluster *c = cy->c;
	const struct oracle_volume_state *s = cy->vol;
	for (int i = 0; i < s->n_delay; i++) {
		const char *sel = c->pvcs[s->delay[i]].selected_node;
		if (sel && strcmp(sel, n->name))
			return false;
	}
	int n_taken = 0, n_provision = 0;
	bool matched = true;
	for (int i = 0; i < s->n_delay; i++) {
		const struct pvc *claim = &c->pvcs[s->delay[i]];
		if (claim->selected_node) {
			s->provision[n_provision++] = s->delay[i];
			continue;
		}
		int k = matching_pv(s, i, c, n, s->taken, n_taken);
		if (k >= 0) {
			s->taken[n_taken++] = k;
			continue;
		}
		matched = false;
		s->provision[n_provision++] = s->delay[i];
	}
	if (n_provision == 0)
		return matched;
	for (int i = 0; i < n_provision; i++) {
		int why = provisionable(c, &c->pvcs[s->provision[i]], n);
		if (why == 1)
			return false;
		if (why == 2) {
			*room = false;
			return true;
		}
	}
	return true;
}

void oracle_filter_volume_binding(struct oracle_cycle *cy,
				  const struct oracle_nodeview *v,
				  struct sched_status *st)
{
	const struct oracle_volume_state *s = cy->vol;
	if (!s)
		return;
	const struct cluster *c = cy->c;
	const struct node *n = &c->nodes[v->node];
	bool bound_ok = true, found = true;
	int k_csi = s->n_bound ? csi_node_of(cy->o, v->node) : -1;
	const struct csi_node *cn = k_csi >= 0 ? &c->csi_nodes[k_csi] : NULL;
	for (int i = 0; i < s->n_bound; i++) {
		const struct pv *pv = s->bound_pv[i];
		if (!pv) {
			found = false;
			break;
		}
		/* tryTranslatePVToCSI: a migrated in-tree PV's CSI form */
		const struct node_selector *affinity = &pv->node_affinity;
		if (pv->has_intree &&
		    csi_migrated_on_node(csi_plugin_of_disk(pv->intree), cn)) {
			if (pv->csi_error) {
				filter_error(st, PLUGIN_VOLUME_BINDING, pv->csi_error);
				return;
			}
			affinity = &pv->csi_affinity;
		}
		if (!affinity_fits(affinity, n)) {
			bound_ok = false;
			break;
		}
	}
	bool room = true;
	bool unbound = s->n_delay == 0 || unbound_satisfied(cy, n, &room);
	if (!bound_ok)   /* ErrReasonNodeConflict, reworded in v1.34 (delta §5.6) */
		oracle_status_fail_str(st, SCHED_UAU,
				       config_at_least(&cy->c->config, KUBE_1_34)
				       ? "node(s) didn't match PersistentVolume's node affinity"
				       : "node(s) had volume node affinity conflict");
	if (!unbound)
		oracle_status_fail_str(st, SCHED_UAU, "node(s) didn't find available "
				       "persistent volumes to bind");
	if (!room)
		oracle_status_fail_str(st, SCHED_UAU,
				       "node(s) did not have enough free storage");
	if (!found)
		oracle_status_fail_str(st, SCHED_UAU, "node(s) unavailable due to one "
				       "or more pvc(s) bound to non-existent pv(s)");
}

void oracle_filter_volume_zone(struct oracle_cycle *cy,
			       const struct oracle_nodeview *v,
			       struct sched_status *st)
{
	const struct oracle_volume_state *s = cy->vol;
	if (!s)
		return;
	if (s->zone_err.code != SCHED_SUCCESS) {
		/* no PreFilter state: the Filter's own getPVbyPod failed */
		oracle_status_copy(st, &s->zone_err);
		return;
	}
	const struct labels *nl = &cy->c->nodes[v->node].labels;
	bool constrained = false;
	for (int t = 0; t < 4; t++)
		constrained |= labels_get(nl, topology_labels[t]) != NULL;
	if (!constrained)
		return;
	for (int i = 0; i < s->n_zone; i++) {
		const char *key = s->zone_key[i];
		const char *have = labels_get(nl, key);
		if (!have && key == topology_labels[0])
			have = labels_get(nl, topology_labels[2]);
		else if (!have && key == topology_labels[1])
			have = labels_get(nl, topology_labels[3]);
		bool has = false;
		if (have)
			zone_set_has(s->zone_value[i], have, &has);
		if (!has) {
			oracle_status_fail_str(st, SCHED_UAU,
					       "node(s) had no available volume zone");
			return;
		}
	}
}

/* ---------------------------------- EBSLimits, GCEPDLimits, AzureDiskLimits */

/* nonCSILimits' volume types: in_tree_types[] (core/csi_translation.h),
 * EBSLimits, GCEPDLimits, AzureDiskLimits in that order. */
static const int in_tree_plugin[IN_TREE_TYPES] = {
	PLUGIN_EBS_LIMITS, PLUGIN_GCE_PD_LIMITS, PLUGIN_AZURE_DISK_LIMITS,
};

/* A list of volume ids (an id may be listed once). */
struct in_tree_ids {
	const char **v;
	int n, cap;
};

static void ids_add(struct oracle_cycle *cy, struct in_tree_ids *s, const char *id)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], id))
			return;
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 16;
		const char **v = arena_array(cy->arena, (size_t)cap, sizeof *v);
		if (s->n)
			memcpy(v, s->v, sizeof *v * (size_t)s->n);
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = id;
}

/* filterVolumes of pod q for in_tree_types[t] into s; false with st set when
 * the pod cannot be counted (a new pod's missing claim: NotFound; a
 * foreign ephemeral claim: Error). */
static bool in_tree_volumes(struct oracle_cycle *cy, int t, int q, bool new_pod,
			    struct in_tree_ids *s, struct sched_status *st)
{
	const struct cluster *c = cy->c;
	const struct pod *p = &c->pods[q];
	for (int i = 0; i < p->n_disks; i++)
		if (p->disks[i].kind == in_tree_types[t].kind)
			ids_add(cy, s, p->disks[i].id);
	for (int i = 0; i < p->n_volumes; i++) {
		char buf[MODEL_CLAIM_NAME_MAX];
		const char *name;
		const struct pvc *claim = claim_of(cy->o, q, &p->volumes[i], buf, &name);
		if (!claim) {
			if (!new_pod)
				continue;
			limit_claim_not_found(st, p->ns, name);
			return false;
		}
		if (!claim_for_pod(p, &p->volumes[i], claim, SCHED_ERROR, st))
			return false;
		const struct pv *pv = pv_named(cy->o, claim->volume_name);
		if (pv) {
			if (pv->has_intree && pv->intree == in_tree_types[t].kind)
				ids_add(cy, s, pv->intree_id);
			continue;
		}
		/* unbound, or its PV gone: counted when the class of
		 * spec.storageClassName (not the beta annotation) is the
		 * plugin's in-tree provisioner (matchProvisioner) */
		const struct storage_class *sc = claim->has_spec_class
			? class_named(c, claim->spec_class_name) : NULL;
		if (sc && !strcmp(sc->provisioner, in_tree_types[t].provisioner))
			ids_add(cy, s, arena_sprintf(cy->arena, "kso-%s/%s", p->ns, name));
	}
	return true;
}

/* maxVolumeFunc, unless the node's allocatable has the plugin's key. */
static int64_t in_tree_max(struct oracle_cycle *cy, int t, int node)
{
	int res = cluster_res_index(cy->c, in_tree_types[t].limit_key);
	struct oracle_data *d = cy->o->d;
	if (res >= 0 && d->alloc_has[(size_t)node * d->n_res + res])
		return d->alloc[(size_t)node * d->n_res + res];
	return in_tree_max_volumes(&in_tree_types[t], &cy->c->nodes[node]);
}

/* The new pod's volumes of in_tree_types[t], once per cycle; NULL with
 * st set when they cannot be counted. */
static const struct in_tree_ids *in_tree_fresh(struct oracle_cycle *cy, int t,
					       struct sched_status *st)
{
	struct oracle_volume_state *s = cy->vol;
	assert(s);
	if (!s->in_tree_done[t]) {
		s->in_tree_done[t] = true;
		s->in_tree_fresh[t] = arena_alloc(cy->arena, sizeof *s->in_tree_fresh[t]);
		memset(s->in_tree_fresh[t], 0, sizeof *s->in_tree_fresh[t]);
		oracle_status_ok(&s->in_tree_status[t]);
		s->in_tree_ok[t] = in_tree_volumes(cy, t, cy->pod, true,
						   s->in_tree_fresh[t],
						   &s->in_tree_status[t]);
	}
	if (s->in_tree_ok[t])
		return s->in_tree_fresh[t];
	*st = s->in_tree_status[t];
	return NULL;
}

static void in_tree_filter(struct oracle_cycle *cy, int t,
			   const struct oracle_nodeview *v, struct sched_status *st)
{
	const struct in_tree_ids *new_ids = in_tree_fresh(cy, t, st);
	if (!new_ids || new_ids->n == 0 || csi_node_of(cy->o, v->node) >= 0)
		return;   /* nothing new, or migrated: NodeVolumeLimits counts */
	const struct in_tree_ids fresh = *new_ids;
	struct in_tree_ids attached = {0};
	const struct oracle_ilist *pods = &cy->o->d->nodes[v->node].pods;
	for (int i = 0; i < pods->n + v->n_extra; i++)
		if (!in_tree_volumes(cy, t, i < pods->n ? pods->v[i]
				     : v->extra[i - pods->n], false, &attached, st))
			return;
	int64_t total = attached.n;
	for (int i = 0; i < fresh.n; i++) {
		bool there = false;
		for (int j = 0; j < attached.n && !there; j++)
			there = !strcmp(attached.v[j], fresh.v[i]);
		total += !there;
	}
	if (total > in_tree_max(cy, t, v->node))
		oracle_status_fail_str(st, SCHED_UNSCHEDULABLE,
				       "node(s) exceed max volume count");
}

void oracle_filter_ebs_limits(struct oracle_cycle *cy,
			      const struct oracle_nodeview *v, struct sched_status *st)
{
	in_tree_filter(cy, 0, v, st);
}

void oracle_filter_gce_pd_limits(struct oracle_cycle *cy,
				 const struct oracle_nodeview *v, struct sched_status *st)
{
	in_tree_filter(cy, 1, v, st);
}

void oracle_filter_azure_disk_limits(struct oracle_cycle *cy,
				     const struct oracle_nodeview *v,
				     struct sched_status *st)
{
	in_tree_filter(cy, 2, v, st);
}

/* The in-tree limits' PreFilters: Skip unless the pod has a volume of the
 * type, a claim or an ephemeral volume. */
static void in_tree_prefilters(struct oracle_cycle *cy)
{
	for (int t = 0; t < IN_TREE_TYPES; t++) {
		bool has = cy->p->n_volumes > 0;
		for (int i = 0; i < cy->p->n_disks && !has; i++)
			has = cy->p->disks[i].kind == in_tree_types[t].kind;
		if (!has && cy->prof->prefilter[in_tree_plugin[t]])
			cy->skip[in_tree_plugin[t]] = true;
	}
}
