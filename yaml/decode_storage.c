/*
 * decode_storage.c - the storage objects the volume plugins read
 * (reference §2.12): core/v1 PersistentVolumeClaim and PersistentVolume,
 * storage.k8s.io/v1 StorageClass, CSINode, CSIDriver and CSIStorageCapacity,
 * validated as the API server
 * validates them (pkg/apis/core/validation, pkg/apis/storage/validation)
 * and defaulted as it defaults them (volumeMode Filesystem,
 * volumeBindingMode Immediate).
 */
#include "decode.h"
#include "../core/csi_translation.h"
#include "quantity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The annotations the scheduler's volume code reads. */
#define ANN_BETA_CLASS "volume.beta.kubernetes.io/storage-class"
#define ANN_BIND_COMPLETED "pv.kubernetes.io/bind-completed"
#define ANN_SELECTED_NODE "volume.kubernetes.io/selected-node"
#define ANN_DEFAULT_CLASS "storageclass.kubernetes.io/is-default-class"
#define ANN_BETA_DEFAULT_CLASS "storageclass.beta.kubernetes.io/is-default-class"

/* metadata.annotations[key] of obj, NULL when absent. */
static const struct ynode *annotation(const struct ynode *obj, const char *key)
{
	return yd_get(yd_get(yd_get(obj, "metadata"), "annotations"), key);
}

/* An annotation's text into *out (NULL when absent): annotations are
 * map[string]string. */
static int annotation_str(struct yaml_dec *d, const struct ynode *obj,
			  const char *key, const char **out)
{
	*out = NULL;
	const struct ynode *v = annotation(obj, key);
	if (!v)
		return 0;
	size_t mark = yd_enter(d, "metadata");
	size_t m2 = yd_enter(d, "annotations");
	size_t m3 = yd_enter(d, key);
	if (yd_scalar_str(d, v, out) < 0)
		return -1;
	yd_leave(d, m3);
	yd_leave(d, m2);
	yd_leave(d, mark);
	return 0;
}

/* spec.accessModes: required, known values, ReadWriteOncePod alone
 * (ValidatePersistentVolumeClaimSpec / ValidatePersistentVolumeSpec). */
static int decode_access_modes(struct yaml_dec *d, const struct ynode *spec,
			       unsigned *out)
{
	static const struct {
		const char *name;
		unsigned bit;
	} modes[] = {
		{"ReadWriteOnce", ACCESS_RWO}, {"ReadOnlyMany", ACCESS_ROX},
		{"ReadWriteMany", ACCESS_RWX}, {"ReadWriteOncePod", ACCESS_RWOP},
	};
	const char *const *v;
	int n;
	*out = 0;
	if (yd_str_list(d, spec, "accessModes", &v, &n) < 0)
		return -1;
	const struct ynode *at = yd_get(spec, "accessModes");
	if (n == 0)
		return yd_fail_key(d, at ? at : spec, "accessModes",
				   "at least 1 access mode is required");
	for (int i = 0; i < n; i++) {
		size_t k = 0;
		while (k < sizeof modes / sizeof *modes && strcmp(modes[k].name, v[i]))
			k++;
		if (k == sizeof modes / sizeof *modes)
			return yd_fail_key(d, at->items[i], "accessModes",
					   "unsupported access mode \"%.64s\" (want "
					   "ReadWriteOnce, ReadOnlyMany, ReadWriteMany, "
					   "ReadWriteOncePod)", v[i]);
		*out |= modes[k].bit;
	}
	if ((*out & ACCESS_RWOP) && *out != ACCESS_RWOP)
		return yd_fail_key(d, at, "accessModes",
				   "may not use ReadWriteOncePod with other access modes");
	return 0;
}

/* spec.volumeMode: Filesystem (the default) or Block. */
static int decode_volume_mode(struct yaml_dec *d, const struct ynode *spec,
			      bool *block)
{
	const char *mode = "Filesystem";
	if (yd_str(d, spec, "volumeMode", &mode) < 0)
		return -1;
	*block = !strcmp(mode, "Block");
	if (!*block && strcmp(mode, "Filesystem"))
		return yd_fail_key(d, yd_get(spec, "volumeMode"), "volumeMode",
				   "unsupported volumeMode \"%.64s\" (want "
				   "Filesystem, Block)", mode);
	return 0;
}

/* An optional quantity at key of obj. */
static int optional_quantity(struct yaml_dec *d, const struct ynode *obj,
			     const char *key, bool *has, struct quantity *out)
{
	const struct ynode *v = yd_get(obj, key);
	*has = v != NULL;
	if (!v)
		return 0;
	size_t mark = yd_enter(d, key);
	const char *s, *why = NULL;
	if (yd_scalar_text(d, v, &s) < 0)
		return -1;
	if (yaml_parse_quantity(s, out, &why) < 0)
		return yd_fail(d, v, "invalid quantity \"%.64s\": %s", s,
			       why ? why : "invalid syntax");
	yd_leave(d, mark);
	return 0;
}

/* The storage quantity under key of m (a map of resources), required. */
static int decode_storage_quantity(struct yaml_dec *d, const struct ynode *m,
				   const char *key, struct quantity *out)
{
	const struct ynode *res = yd_get(m, key);
	if (!yd_get(res, "storage"))
		return yd_fail_key(d, res ? res : m, key, "%s.storage is required", key);
	size_t mark = yd_enter(d, key);
	bool has;
	if (optional_quantity(d, res, "storage", &has, out) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}

/* GetPersistentVolumeClaimClass / GetPersistentVolumeClass: the beta
 * annotation wins over spec.storageClassName. */
static int decode_class_name(struct yaml_dec *d, const struct ynode *obj,
			     const struct ynode *spec, const char **out,
			     bool *has)
{
	const char *beta;
	if (annotation_str(d, obj, ANN_BETA_CLASS, &beta) < 0)
		return -1;
	*out = "";
	if (yd_str(d, spec, "storageClassName", out) < 0)
		return -1;
	*has = beta || yd_get(spec, "storageClassName");
	if (beta)
		*out = beta;
	return 0;
}

/* ----------------------------------------------- PersistentVolumeClaim */

/* The claim's spec.storageClassName as written, apart from the beta
 * annotation (the in-tree volume limits' matchProvisioner reads only the
 * spec field, kube v1.30 nodevolumelimits non_csi.go). */
static int decode_spec_class(struct yaml_dec *d, const struct ynode *obj,
			     const struct ynode *spec, struct pvc *c)
{
	const char *beta;
	if (annotation_str(d, obj, ANN_BETA_CLASS, &beta) < 0)
		return -1;
	c->class_from_beta = beta != NULL;
	c->spec_class_name = "";
	c->has_spec_class = yd_get(spec, "storageClassName") != NULL;
	return yd_str(d, spec, "storageClassName", &c->spec_class_name);
}

static int decode_pvc_spec(struct yaml_dec *d, const struct ynode *obj,
			   struct pvc *c)
{
	const struct ynode *spec = yd_get(obj, "spec");
	if (!spec)
		return yd_fail_key(d, obj, "spec", "spec is required");
	size_t mark = yd_enter(d, "spec");
	if (yd_want_map(d, spec) < 0 ||
	    decode_access_modes(d, spec, &c->access_modes) < 0 ||
	    decode_volume_mode(d, spec, &c->block) < 0 ||
	    decode_class_name(d, obj, spec, &c->class_name, &c->has_class) < 0 ||
	    decode_spec_class(d, obj, spec, c) < 0 ||
	    yd_str(d, spec, "volumeName", &c->volume_name) < 0)
		return -1;
	/* v1.30's API server drops it (VolumeAttributesClass gate off:
	 * DropDisabledFields of a new claim), as it does a PV's */
	const char *vac = "";
	if (yd_str(d, spec, "volumeAttributesClassName", &vac) < 0)
		return -1;
	c->vac = config_at_least(&d->c->config, KUBE_1_34) ? vac : "";
	size_t m2 = yd_enter(d, "resources");
	const struct ynode *res = yd_get(spec, "resources");
	if (!res)
		return yd_fail_key(d, spec, "resources",
				   "resources.requests.storage is required");
	if (yd_want_map(d, res) < 0 ||
	    decode_storage_quantity(d, res, "requests", &c->request) < 0)
		return -1;
	yd_leave(d, m2);
	m2 = yd_enter(d, "selector");
	if (yaml_decode_label_selector(d, yd_get(spec, "selector"), &c->selector) < 0)
		return -1;
	yd_leave(d, m2);
	yd_leave(d, mark);
	return 0;
}

int yaml_decode_claim_template(struct yaml_dec *d, const struct ynode *t,
			       struct pvc *out)
{
	memset(out, 0, sizeof *out);
	out->pos = yd_pos(d, t);
	out->volume_name = "";
	out->uid = "";
	out->name = "";
	if (yd_want_map(d, t) < 0)
		return -1;
	const struct ynode *md = yd_get(t, "metadata");
	size_t mark = yd_enter(d, "metadata");
	if (md && (yd_want_map(d, md) < 0 || yd_str(d, md, "name", &out->name) < 0))
		return -1;
	yd_leave(d, mark);
	if (!out->name[0])
		return yd_fail_key(d, md ? md : t, md ? "name" : "metadata",
				   "metadata.name is required");
	return decode_pvc_spec(d, t, out);
}

int yaml_decode_pvc(struct yaml_dec *d, const struct ynode *obj)
{
	struct pvc c;
	memset(&c, 0, sizeof c);
	c.pos = yd_pos(d, obj);
	c.volume_name = "";
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, true, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    yaml_check_duplicate(d, "PersistentVolumeClaim", &m, obj) < 0)
		return -1;
	c.ns = m.ns;
	c.name = m.name;
	c.uid = m.uid ? m.uid : "";
	c.owners = m.owners;
	c.n_owners = m.n_owners;
	c.deleting = m.deletion.has;
	const char *bound, *phase = "";
	if (decode_pvc_spec(d, obj, &c) < 0 ||
	    annotation_str(d, obj, ANN_BIND_COMPLETED, &bound) < 0 ||
	    annotation_str(d, obj, ANN_SELECTED_NODE, &c.selected_node) < 0)
		return -1;
	c.bind_completed = bound != NULL;   /* metav1.HasAnnotation: any value */
	const struct ynode *st = yd_get(obj, "status");
	size_t mark = yd_enter(d, "status");
	if (st && (yd_want_map(d, st) < 0 || yd_str(d, st, "phase", &phase) < 0))
		return -1;
	yd_leave(d, mark);
	c.lost = !strcmp(phase, "Lost");
	yaml_vec_push(&d->pvcs, &c);
	return 0;
}

/* ---------------------------------------------------- PersistentVolume */

/* The volume sources of a PersistentVolumeSpec (core/v1 types.go). */
static const char *const pv_sources[] = {
	"gcePersistentDisk", "awsElasticBlockStore", "hostPath", "glusterfs",
	"nfs", "rbd", "iscsi", "cinder", "cephfs", "fc", "flocker",
	"flexVolume", "azureFile", "vsphereVolume", "quobyte", "azureDisk",
	"photonPersistentDisk", "portworxVolume", "scaleIO", "local",
	"storageos", "csi",
};

/* Exactly one volume source; a CSI one gives the driver and handle. */
static int decode_pv_source(struct yaml_dec *d, const struct ynode *spec,
			    struct pv *v, const char **source)
{
	*source = NULL;
	for (size_t i = 0; i < sizeof pv_sources / sizeof *pv_sources; i++) {
		if (!yd_get(spec, pv_sources[i]))
			continue;
		if (*source)
			return yd_fail_key(d, yd_get(spec, pv_sources[i]),
					   pv_sources[i], "may not specify more than "
					   "1 volume type (%s is already given)",
					   *source);
		*source = pv_sources[i];
	}
	if (!*source)
		return yd_fail(d, spec, "must specify a volume type");
	/* the in-tree sources kube migrates to CSI (csi_translation.h) */
	static const enum pod_disk_kind intree[] = {
		DISK_AWS_EBS, DISK_GCE_PD, DISK_AZURE, DISK_CINDER, DISK_PORTWORX,
	};
	for (size_t k = 0; k < sizeof intree / sizeof *intree; k++) {
		const struct disk_source *ds = &disk_sources[intree[k]];
		if (strcmp(*source, ds->source))
			continue;
		const struct ynode *src = yd_get(spec, ds->source);
		size_t mark = yd_enter(d, ds->source);
		v->intree_id = v->intree_uri = "";
		if (yd_want_map(d, src) < 0 ||
		    yd_str(d, src, ds->id, &v->intree_id) < 0 ||
		    (intree[k] == DISK_AZURE &&
		     yd_str(d, src, "diskURI", &v->intree_uri) < 0))
			return -1;
		if (!*v->intree_id)
			return yd_fail_key(d, src, ds->id, "%s is required", ds->id);
		yd_leave(d, mark);
		v->has_intree = true;
		v->intree = intree[k];
	}
	if (strcmp(*source, "csi"))
		return 0;
	const struct ynode *csi = yd_get(spec, "csi");
	size_t mark = yd_enter(d, "csi");
	v->csi_driver = v->csi_handle = "";
	if (yd_want_map(d, csi) < 0 ||
	    yd_str(d, csi, "driver", &v->csi_driver) < 0 ||
	    yd_str(d, csi, "volumeHandle", &v->csi_handle) < 0)
		return -1;
	if (!*v->csi_driver)
		return yd_fail_key(d, csi, "driver", "driver is required");
	if (!*v->csi_handle)
		return yd_fail_key(d, csi, "volumeHandle", "volumeHandle is required");
	yd_leave(d, mark);
	return 0;
}

static int decode_claim_ref(struct yaml_dec *d, const struct ynode *spec,
			    struct pv *v)
{
	const struct ynode *ref = yd_get(spec, "claimRef");
	if (!ref)
		return 0;
	size_t mark = yd_enter(d, "claimRef");
	v->has_claim_ref = true;
	v->claim_ns = v->claim_name = v->claim_uid = "";
	if (yd_want_map(d, ref) < 0 ||
	    yd_str(d, ref, "namespace", &v->claim_ns) < 0 ||
	    yd_str(d, ref, "name", &v->claim_name) < 0 ||
	    yd_str(d, ref, "uid", &v->claim_uid) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}

static int decode_pv_spec(struct yaml_dec *d, const struct ynode *obj,
			  struct pv *v)
{
	const struct ynode *spec = yd_get(obj, "spec");
	if (!spec)
		return yd_fail_key(d, obj, "spec", "spec is required");
	size_t mark = yd_enter(d, "spec");
	bool has_class;
	const char *source;
	if (yd_want_map(d, spec) < 0 ||
	    decode_storage_quantity(d, spec, "capacity", &v->capacity) < 0 ||
	    decode_access_modes(d, spec, &v->access_modes) < 0 ||
	    decode_volume_mode(d, spec, &v->block) < 0 ||
	    decode_class_name(d, obj, spec, &v->class_name, &has_class) < 0 ||
	    decode_pv_source(d, spec, v, &source) < 0 ||
	    decode_claim_ref(d, spec, v) < 0)
		return -1;
	const struct ynode *na = yd_get(spec, "nodeAffinity");
	size_t m2 = yd_enter(d, "nodeAffinity");
	if (na && yd_want_map(d, na) < 0)
		return -1;
	size_t m3 = yd_enter(d, "required");
	if (yaml_decode_node_selector(d, yd_get(na, "required"),
				      &v->node_affinity) < 0)
		return -1;
	yd_leave(d, m3);
	yd_leave(d, m2);
	if (!strcmp(source, "local") && !v->node_affinity.present)
		return yd_fail_key(d, spec, "nodeAffinity",
				   "Local volumes require node affinity");
	/* what VolumeBinding checks of it on nodes where it is migrated */
	if (v->has_intree && csi_plugin_of_disk(v->intree)->zone_key)
		v->csi_error = csi_translate_pv_affinity(v, d->a, &v->csi_affinity);
	yd_leave(d, mark);
	return 0;
}

int yaml_decode_pv(struct yaml_dec *d, const struct ynode *obj)
{
	struct pv v;
	memset(&v, 0, sizeof v);
	v.pos = yd_pos(d, obj);
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, false, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    yaml_check_duplicate(d, "PersistentVolume", &m, obj) < 0)
		return -1;
	v.name = m.name;
	v.labels = m.labels;
	v.deleting = m.deletion.has;
	if (decode_pv_spec(d, obj, &v) < 0)
		return -1;
	v.vac = "";   /* v1.30's API server drops it (gate off) */
	if (config_at_least(&d->c->config, KUBE_1_34) &&
	    yd_str(d, yd_get(obj, "spec"), "volumeAttributesClassName", &v.vac) < 0)
		return -1;
	const char *phase = "";
	const struct ynode *st = yd_get(obj, "status");
	size_t mark = yd_enter(d, "status");
	if (st && (yd_want_map(d, st) < 0 || yd_str(d, st, "phase", &phase) < 0))
		return -1;
	yd_leave(d, mark);
	/* no status: what the PV controller makes of it - an unbound
	 * volume Available, one with a claimRef soon Bound */
	v.available = *phase ? !strcmp(phase, "Available") : !v.has_claim_ref;
	yaml_vec_push(&d->pvs, &v);
	return 0;
}

/* -------------------------------------------------------- StorageClass */

/* One TopologySelectorTerm: matchLabelExpressions [{key, values}], each
 * an In requirement (TopologySelectorRequirementsAsSelector). */
static int decode_topology_term(struct yaml_dec *d, const struct ynode *t,
				struct node_selector_term *out)
{
	memset(out, 0, sizeof *out);
	if (yd_want_map(d, t) < 0)
		return -1;
	const struct ynode *exprs = yd_get(t, "matchLabelExpressions");
	if (!exprs)
		return 0;
	size_t mark = yd_enter(d, "matchLabelExpressions");
	if (yd_want_seq(d, exprs) < 0)
		return -1;
	struct requirement *r = arena_array(d->a, (size_t)exprs->n, sizeof *r);
	for (int i = 0; i < exprs->n; i++) {
		size_t m2 = yd_index(d, i);
		const struct ynode *e = exprs->items[i];
		r[i].key = "";
		r[i].op = OP_IN;
		if (yd_want_map(d, e) < 0 || yd_str(d, e, "key", &r[i].key) < 0 ||
		    yaml_check_label_key(d, yd_get(e, "key") ? yd_get(e, "key") : e,
					 r[i].key) < 0 ||
		    yd_str_list(d, e, "values", &r[i].values, &r[i].n_values) < 0)
			return -1;
		if (r[i].n_values == 0)
			return yd_fail_key(d, e, "values", "must specify as least one value");
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	out->exprs = r;
	out->n_exprs = exprs->n;
	return 0;
}

static int decode_allowed_topologies(struct yaml_dec *d, const struct ynode *obj,
				     struct storage_class *sc)
{
	const struct ynode *at = yd_get(obj, "allowedTopologies");
	if (!at)
		return 0;
	size_t mark = yd_enter(d, "allowedTopologies");
	if (yd_want_seq(d, at) < 0)
		return -1;
	struct node_selector_term *terms =
		arena_array(d->a, (size_t)at->n, sizeof *terms);
	for (int i = 0; i < at->n; i++) {
		size_t m2 = yd_index(d, i);
		if (decode_topology_term(d, at->items[i], &terms[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	sc->allowed_topologies = terms;
	sc->n_allowed_topologies = at->n;
	return 0;
}

int yaml_decode_storage_class(struct yaml_dec *d, const struct ynode *obj)
{
	struct storage_class sc;
	memset(&sc, 0, sizeof sc);
	sc.pos = yd_pos(d, obj);
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, false, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    yaml_check_duplicate(d, "StorageClass", &m, obj) < 0)
		return -1;
	sc.name = m.name;
	sc.creation = m.creation;
	sc.provisioner = "";
	const char *mode = "Immediate", *def, *beta_def;
	if (yd_str(d, obj, "provisioner", &sc.provisioner) < 0 ||
	    yd_str(d, obj, "volumeBindingMode", &mode) < 0 ||
	    annotation_str(d, obj, ANN_DEFAULT_CLASS, &def) < 0 ||
	    annotation_str(d, obj, ANN_BETA_DEFAULT_CLASS, &beta_def) < 0 ||
	    decode_allowed_topologies(d, obj, &sc) < 0)
		return -1;
	if (!*sc.provisioner)
		return yd_fail_key(d, obj, "provisioner", "provisioner is required");
	sc.wait_for_consumer = !strcmp(mode, "WaitForFirstConsumer");
	if (!sc.wait_for_consumer && strcmp(mode, "Immediate"))
		return yd_fail_key(d, yd_get(obj, "volumeBindingMode"),
				   "volumeBindingMode",
				   "unsupported volumeBindingMode \"%.64s\" (want "
				   "Immediate, WaitForFirstConsumer)", mode);
	/* storageutil.IsDefaultAnnotation: either annotation, "true" */
	sc.is_default = (def && !strcmp(def, "true")) ||
			(beta_def && !strcmp(beta_def, "true"));
	yaml_vec_push(&d->classes, &sc);
	return 0;
}

/* ------------------------------------------------------------- CSINode */

static int decode_csi_driver(struct yaml_dec *d, const struct ynode *n,
			     struct csi_driver_limit *out)
{
	out->driver = "";
	if (yd_want_map(d, n) < 0 || yd_str(d, n, "name", &out->driver) < 0)
		return -1;
	if (!*out->driver)
		return yd_fail_key(d, n, "name", "name is required");
	const struct ynode *alloc = yd_get(n, "allocatable");
	if (!alloc)
		return 0;
	size_t mark = yd_enter(d, "allocatable");
	if (yd_want_map(d, alloc) < 0 ||
	    yd_int32(d, alloc, "count", &out->count, &out->has_count) < 0)
		return -1;
	if (out->has_count && out->count < 0)
		return yd_fail_key(d, yd_get(alloc, "count"), "count",
				   "must be greater than or equal to 0");
	yd_leave(d, mark);
	return 0;
}

int yaml_decode_csi_node(struct yaml_dec *d, const struct ynode *obj)
{
	struct csi_node cn;
	memset(&cn, 0, sizeof cn);
	cn.pos = yd_pos(d, obj);
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, false, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    yaml_check_duplicate(d, "CSINode", &m, obj) < 0)
		return -1;
	cn.name = m.name;
	if (annotation_str(d, obj, CSI_MIGRATED_PLUGINS, &cn.migrated_plugins) < 0)
		return -1;
	if (!cn.migrated_plugins)
		cn.migrated_plugins = "";
	const struct ynode *spec = yd_get(obj, "spec");
	const struct ynode *drivers = yd_get(spec, "drivers");
	size_t mark = yd_enter(d, "spec");
	if (spec && yd_want_map(d, spec) < 0)
		return -1;
	size_t m2 = yd_enter(d, "drivers");
	if (drivers && yd_want_seq(d, drivers) < 0)
		return -1;
	int n = drivers ? drivers->n : 0;
	struct csi_driver_limit *v = arena_array(d->a, (size_t)n ? (size_t)n : 1,
						 sizeof *v);
	for (int i = 0; i < n; i++) {
		size_t m3 = yd_index(d, i);
		if (decode_csi_driver(d, drivers->items[i], &v[i]) < 0)
			return -1;
		yd_leave(d, m3);
	}
	yd_leave(d, m2);
	yd_leave(d, mark);
	cn.drivers = v;
	cn.n_drivers = n;
	yaml_vec_push(&d->csi_nodes, &cn);
	return 0;
}

/* ----------------------------------------------------------- CSIDriver */

int yaml_decode_csi_driver(struct yaml_dec *d, const struct ynode *obj)
{
	struct csi_driver cd;
	memset(&cd, 0, sizeof cd);
	cd.pos = yd_pos(d, obj);
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, false, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    yaml_check_duplicate(d, "CSIDriver", &m, obj) < 0)
		return -1;
	cd.name = m.name;
	const struct ynode *spec = yd_get(obj, "spec");
	size_t mark = yd_enter(d, "spec");
	if (spec && (yd_want_map(d, spec) < 0 ||
		     yd_bool(d, spec, "storageCapacity", &cd.storage_capacity) < 0))
		return -1;
	yd_leave(d, mark);
	yaml_vec_push(&d->csi_drivers, &cd);
	return 0;
}

/* -------------------------------------------------- CSIStorageCapacity */

int yaml_decode_csi_capacity(struct yaml_dec *d, const struct ynode *obj)
{
	struct csi_capacity cc;
	memset(&cc, 0, sizeof cc);
	cc.pos = yd_pos(d, obj);
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, true, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    yaml_check_duplicate(d, "CSIStorageCapacity", &m, obj) < 0)
		return -1;
	cc.ns = m.ns;
	cc.name = m.name;
	cc.class_name = "";
	if (yd_str(d, obj, "storageClassName", &cc.class_name) < 0)
		return -1;
	if (!cc.class_name[0])
		return yd_fail_key(d, obj, "storageClassName",
				   "storageClassName is required");
	size_t mark = yd_enter(d, "nodeTopology");
	if (yaml_decode_label_selector(d, yd_get(obj, "nodeTopology"),
				       &cc.node_topology) < 0)
		return -1;
	yd_leave(d, mark);
	if (optional_quantity(d, obj, "capacity", &cc.has_capacity, &cc.capacity) < 0 ||
	    optional_quantity(d, obj, "maximumVolumeSize", &cc.has_max_size,
			      &cc.max_size) < 0)
		return -1;
	yaml_vec_push(&d->capacities, &cc);
	return 0;
}

/* ---------------------------------------------------- VolumeAttachment */

/* storage.k8s.io/v1 VolumeAttachment, validated as the API server does
 * (ValidateVolumeAttachment): attacher and nodeName required, exactly one
 * of source.persistentVolumeName and source.inlineVolumeSpec. */
int yaml_decode_volume_attachment(struct yaml_dec *d, const struct ynode *obj)
{
	struct volume_attachment va;
	memset(&va, 0, sizeof va);
	va.pos = yd_pos(d, obj);
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, false, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    yaml_check_duplicate(d, "VolumeAttachment", &m, obj) < 0)
		return -1;
	va.name = m.name;
	const struct ynode *spec = yd_get(obj, "spec");
	if (!spec)
		return yd_fail_key(d, obj, "spec", "spec is required");
	size_t mark = yd_enter(d, "spec");
	va.attacher = va.node_name = "";
	if (yd_want_map(d, spec) < 0 || yd_str(d, spec, "attacher", &va.attacher) < 0 ||
	    yd_str(d, spec, "nodeName", &va.node_name) < 0)
		return -1;
	if (!*va.attacher)
		return yd_fail_key(d, spec, "attacher", "attacher is required");
	if (!*va.node_name)
		return yd_fail_key(d, spec, "nodeName", "nodeName is required");
	const struct ynode *src = yd_get(spec, "source");
	size_t m2 = yd_enter(d, "source");
	if (!src)
		return yd_fail_key(d, spec, "source", "source is required");
	if (yd_want_map(d, src) < 0 ||
	    yd_str(d, src, "persistentVolumeName", &va.pv_name) < 0)
		return -1;
	bool inline_spec = yd_get(src, "inlineVolumeSpec") != NULL;
	if ((va.pv_name != NULL) == inline_spec)
		return yd_fail(d, src, "must specify exactly one of "
			       "persistentVolumeName and inlineVolumeSpec");
	if (va.pv_name && !*va.pv_name)
		return yd_fail_key(d, src, "persistentVolumeName",
				   "persistentVolumeName must not be empty");
	yd_leave(d, m2);
	yd_leave(d, mark);
	yaml_vec_push(&d->attachments, &va);
	return 0;
}
