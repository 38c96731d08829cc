/*
 * csi_translation.c - CSI migration of in-tree EBS, GCE PD, Azure Disk and
 * Cinder volumes (csi_translation.h; csi-translation-lib's aws_ebs.go,
 * gce_pd.go, azure_disk.go, openstack_cinder.go, and in_tree_volume.go's
 * topology translation).
 */
#include "csi_translation.h"
#include "sha1.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* csi-translation-lib's plugins: aws_ebs.go, gce_pd.go, azure_disk.go,
 * openstack_cinder.go, azure_file.go, vsphere_volume.go, portworx.go,
 * rbd.go (csi_translation.h says which v1.30 migrates). */
static const struct csi_in_tree_plugin plugins[] = {
	{"kubernetes.io/aws-ebs", "ebs.csi.aws.com",
	 "topology.ebs.csi.aws.com/zone", true},
	{"kubernetes.io/gce-pd", "pd.csi.storage.gke.io",
	 "topology.gke.io/zone", true},
	{"kubernetes.io/azure-disk", "disk.csi.azure.com",
	 "topology.disk.csi.azure.com/zone", true},
	{"kubernetes.io/cinder", "cinder.csi.openstack.org",
	 "topology.cinder.csi.openstack.org/zone", true},
	{"kubernetes.io/azure-file", "file.csi.azure.com", NULL, false},
	{"kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com", NULL, false},
	{"kubernetes.io/portworx-volume", "pxd.portworx.com", NULL, false},
	{"kubernetes.io/rbd", "rbd.csi.ceph.com", NULL, false},
};
#define N_PLUGINS (sizeof plugins / sizeof *plugins)
#define EBS_DRIVER (plugins[0].driver)
#define GCE_PD_DRIVER (plugins[1].driver)
#define AZURE_DISK_DRIVER (plugins[2].driver)
#define CINDER_DRIVER (plugins[3].driver)
#define PORTWORX (&plugins[6])

#define ZONE_GA "topology.kubernetes.io/zone"
#define ZONE_BETA "failure-domain.beta.kubernetes.io/zone"
#define REGION_GA "topology.kubernetes.io/region"
#define REGION_BETA "failure-domain.beta.kubernetes.io/region"

const struct in_tree_type in_tree_types[IN_TREE_TYPES] = {
	{DISK_AWS_EBS, "kubernetes.io/aws-ebs", "attachable-volumes-aws-ebs", 39},
	{DISK_GCE_PD, "kubernetes.io/gce-pd", "attachable-volumes-gce-pd", 16},
	{DISK_AZURE, "kubernetes.io/azure-disk", "attachable-volumes-azure-disk", 16},
};

int in_tree_max_volumes(const struct in_tree_type *t, const struct node *n)
{
	assert(t && n);
	if (t->kind != DISK_AWS_EBS)
		return t->default_max;
	const char *type = labels_get(&n->labels, "node.kubernetes.io/instance-type");
	bool nitro = type && (((type[0] == 'c' || type[0] == 'm' || type[0] == 'r') &&
			       type[1] == '5') || strstr(type, "t3") || strstr(type, "z1d"));
	return nitro ? 25 : t->default_max;
}

const struct csi_in_tree_plugin *csi_plugin_by_name(const char *name)
{
	assert(name);
	for (size_t i = 0; i < N_PLUGINS; i++)
		if (!strcmp(plugins[i].name, name))
			return &plugins[i];
	return NULL;
}

const struct csi_in_tree_plugin *csi_plugin_of_disk(enum pod_disk_kind kind)
{
	switch (kind) {
	case DISK_AWS_EBS:
		return &plugins[0];
	case DISK_GCE_PD:
		return &plugins[1];
	case DISK_AZURE:
		return &plugins[2];
	case DISK_CINDER:
		return &plugins[3];
	case DISK_PORTWORX:
		return PORTWORX;
	case DISK_RBD:
		return &plugins[7];
	default:
		return NULL;
	}
}

char *csi_attach_limit_key(const char *driver, char *key, size_t len)
{
	assert(driver && key && len);
	/* v1.ResourceNameLengthLimit */
	const size_t limit = 63, prefix = sizeof CSI_ATTACH_LIMIT_PREFIX - 1;
	size_t n = strlen(driver);
	if (prefix + n < limit) {
		snprintf(key, len, "%s%s", CSI_ATTACH_LIMIT_PREFIX, driver);
		return key;
	}
	uint8_t digest[20];
	sha1(driver, n, digest);
	char hex[17];
	for (int i = 0; i < 8; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	snprintf(key, len, "%s%.23s%s", CSI_ATTACH_LIMIT_PREFIX, driver, hex);
	return key;
}

/* The CSINode's migrated-plugins annotation, split at commas, has name as
 * one of its parts. */
static bool annotation_lists(const struct csi_node *cn, const char *name)
{
	size_t n = strlen(name);
	for (const char *t = cn->migrated_plugins; t;) {
		const char *comma = strchr(t, ',');
		size_t len = comma ? (size_t)(comma - t) : strlen(t);
		if (len == n && !strncmp(t, name, n))
			return true;
		t = comma ? comma + 1 : NULL;
	}
	return false;
}

bool csi_limits_migrated(const struct csi_in_tree_plugin *p,
			 const struct csi_node *cn, bool v134)
{
	if (!p || !cn)
		return false;
	if (p == PORTWORX)   /* CSIMigrationPortworx: GA in v1.34, off in v1.30 */
		return v134 && annotation_lists(cn, p->name);
	return p->migrated;
}

bool csi_migrated_on_node(const struct csi_in_tree_plugin *p,
			  const struct csi_node *cn)
{
	if (!p || !p->migrated || !cn)
		return false;
	return annotation_lists(cn, p->name);
}

/* KubernetesVolumeIDToEBSVolumeID: a bare id as is; "aws://zone/vol-..."
 * its path without surrounding slashes, which must match ^vol-[^/]*$.
 * Returns NULL, or kube's error (in err, len bytes). */
static const char *ebs_volume_id(const char *id, char *out, size_t len,
				 char *err, size_t err_len)
{
	if (strncmp(id, "aws://", 6)) {
		snprintf(out, len, "%s", id);
		return NULL;
	}
	const char *path = strchr(id + 6, '/');   /* after the host */
	if (!path)
		path = "";
	while (*path == '/')
		path++;
	size_t n = strlen(path);
	while (n > 0 && path[n - 1] == '/')
		n--;
	if (n < 4 || strncmp(path, "vol-", 4) || memchr(path, '/', n)) {
		snprintf(err, err_len, "Invalid format for AWS volume (%s)", id);
		return err;
	}
	snprintf(out, len, "%.*s", (int)n, path);
	return NULL;
}

/* The next "__"-separated part of *z (labelMultiZoneDelimiter) into
 * [*part, *part + *n); false past the last. */
static bool next_zone(const char **z, const char **part, size_t *n)
{
	if (!*z)
		return false;
	const char *end = strstr(*z, "__");
	*part = *z;
	*n = end ? (size_t)(end - *z) : strlen(*z);
	*z = end ? end + 2 : NULL;
	return true;
}

/* gceGetRegionFromZones: every zone is {locale}-{region}-{zone} (three
 * dash-separated parts) and they share one region, "{locale}-{region}".
 * Returns NULL with the region in out, or kube's error in err. */
static const char *gce_region(const char *zones, char *out, size_t len,
			      char *err, size_t err_len)
{
	/* the distinct regions, for the error: Go prints the set as a map,
	 * its keys sorted */
	char regions[4][256];
	int n_regions = 0;
	const char *part;
	size_t n;
	for (const char *z = zones; next_zone(&z, &part, &n);) {
		int dashes = 0;
		size_t second = 0;
		for (size_t i = 0; i < n; i++)
			if (part[i] == '-' && ++dashes == 2)
				second = i;
		if (dashes != 2) {
			snprintf(err, err_len, "zone in unexpected format, expected: "
				 "{locale}-{region}-{zone}, got: %.*s", (int)n, part);
			return err;
		}
		char r[256];
		snprintf(r, sizeof r, "%.*s", (int)second, part);
		int k = 0;
		while (k < n_regions && strcmp(regions[k], r) < 0)
			k++;
		if (k < n_regions && !strcmp(regions[k], r))
			continue;
		if (n_regions == 4)
			continue;   /* enough to say there are several */
		memmove(regions[k + 1], regions[k], sizeof regions[0] * (size_t)(n_regions - k));
		snprintf(regions[k], sizeof regions[k], "%s", r);
		n_regions++;
	}
	if (n_regions == 1) {
		snprintf(out, len, "%s", regions[0]);
		return NULL;
	}
	int w = snprintf(err, err_len, "multiple or no regions gotten from zones, got: map[");
	for (int k = 0; k < n_regions && w >= 0 && (size_t)w < err_len; k++)
		w += snprintf(err + w, err_len - (size_t)w, "%s%s:{}", k ? " " : "",
			      regions[k]);
	if (w >= 0 && (size_t)w < err_len)
		snprintf(err + w, err_len - (size_t)w, "]");
	return err;
}

/* gce_pd.go TranslateInTreePVToCSI's volume handle: the zones from the
 * beta zone label, else the GA one (both set and different: an error);
 * one zone: zonal, several: regional (their region), none: UNSPECIFIED.
 * Returns NULL, or kube's error in err. */
static const char *gce_pv_handle(const struct pv *v, char *handle, size_t len,
				 char *err, size_t err_len)
{
	const char *beta = labels_get(&v->labels, ZONE_BETA);
	const char *ga = labels_get(&v->labels, ZONE_GA);
	if (beta && *beta && ga && *ga && strcmp(beta, ga)) {
		snprintf(err, err_len, "topology labels from two Kubernetes "
			 "versions are different: %s and %s", beta, ga);
		return err;
	}
	const char *zones = beta && *beta ? beta : ga ? ga : "";
	char region[256];
	if (!*zones) {
		snprintf(handle, len, "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/%s",
			 v->intree_id);
	} else if (!strstr(zones, "__")) {
		snprintf(handle, len, "projects/UNSPECIFIED/zones/%s/disks/%s",
			 zones, v->intree_id);
	} else {
		char inner[512];
		if (gce_region(zones, region, sizeof region, inner, sizeof inner)) {
			snprintf(err, err_len, "failed to get region from zones: %s", inner);
			return err;
		}
		snprintf(handle, len, "projects/UNSPECIFIED/regions/%s/disks/%s",
			 region, v->intree_id);
	}
	return NULL;
}

const char *csi_translate_inline(const struct pod_disk *d, char *handle, size_t len)
{
	assert(d && handle && len);
	char err[512];
	switch (d->kind) {
	case DISK_AWS_EBS:
		return ebs_volume_id(d->id, handle, len, err, sizeof err)
		       ? NULL : EBS_DRIVER;
	case DISK_GCE_PD:
		snprintf(handle, len, "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/%s",
			 d->id);
		return GCE_PD_DRIVER;
	case DISK_AZURE:
		snprintf(handle, len, "%s", d->uri);
		return AZURE_DISK_DRIVER;
	case DISK_CINDER:
		snprintf(handle, len, "%s", d->id);
		return CINDER_DRIVER;
	case DISK_PORTWORX:   /* portworx.go: the volume id, as is */
		snprintf(handle, len, "%s", d->id);
		return PORTWORX->driver;
	default:
		return NULL;
	}
}

/* The PV's CSI driver and volume handle, or the translation's error (in
 * err) with a NULL driver. */
static const char *translate_pv(const struct pv *v, char *handle, size_t len,
				char *err, size_t err_len)
{
	err[0] = '\0';
	switch (v->intree) {
	case DISK_AWS_EBS: {
		char inner[512];
		if (!ebs_volume_id(v->intree_id, handle, len, inner, sizeof inner))
			return EBS_DRIVER;
		snprintf(err, err_len, "failed to translate Kubernetes ID to EBS "
			 "Volume ID %s", inner);
		return NULL;
	}
	case DISK_AZURE:
		snprintf(handle, len, "%s", v->intree_uri);
		return AZURE_DISK_DRIVER;
	case DISK_CINDER:
		snprintf(handle, len, "%s", v->intree_id);
		return CINDER_DRIVER;
	case DISK_PORTWORX:
		snprintf(handle, len, "%s", v->intree_id);
		return PORTWORX->driver;
	case DISK_GCE_PD:
		return gce_pv_handle(v, handle, len, err, err_len) ? NULL : GCE_PD_DRIVER;
	default:
		snprintf(err, err_len, "not a translated in-tree volume");
		return NULL;
	}
}

const char *csi_translate_pv(const struct pv *v, char *handle, size_t len)
{
	assert(v && handle && len);
	if (!v->has_intree)
		return NULL;
	char err[512];
	return translate_pv(v, handle, len, err, sizeof err);
}

/* ------------------------------------------ translated node affinity */

/* TopologyKeyExist: some requirement of some term has the key. */
static bool key_exists(const struct node_selector *ns, const char *key)
{
	for (int t = 0; ns->present && t < ns->n_terms; t++)
		for (int e = 0; e < ns->terms[t].n_exprs; e++)
			if (!strcmp(ns->terms[t].exprs[e].key, key))
				return true;
	return false;
}

/* getTopologyValues is not empty: a requirement with the key has values. */
static bool key_has_values(const struct node_selector *ns, const char *key)
{
	for (int t = 0; ns->present && t < ns->n_terms; t++)
		for (int e = 0; e < ns->terms[t].n_exprs; e++)
			if (!strcmp(ns->terms[t].exprs[e].key, key) &&
			    ns->terms[t].exprs[e].n_values > 0)
				return true;
	return false;
}

/* getTopologyLabel: the GA zone key when the node affinity has it, else
 * the beta one when it has that, else the same asked of the labels; GA
 * by default.  *beta tells which. */
static const char *zone_label(const struct pv *v, bool *beta)
{
	const struct node_selector *ns = &v->node_affinity;
	*beta = !key_exists(ns, ZONE_GA) &&
		(key_exists(ns, ZONE_BETA) ||
		 (!labels_get(&v->labels, ZONE_GA) && labels_get(&v->labels, ZONE_BETA)));
	return *beta ? ZONE_BETA : ZONE_GA;
}

/* A copy of ns's terms in a (at least one term: addTopology makes an
 * empty one when there is none), each with room for one more
 * requirement; the copies are the caller's to change (replace_key and
 * translate_topology write through casts to them). */
static struct node_selector_term *copy_terms(const struct node_selector *ns,
					     struct arena *a, int *n_terms)
{
	int n = ns->present ? ns->n_terms : 0;
	*n_terms = n > 0 ? n : 1;
	struct node_selector_term *t = arena_array(a, (size_t)*n_terms, sizeof *t);
	for (int i = 0; i < n; i++) {
		struct requirement *r = arena_array(a, (size_t)ns->terms[i].n_exprs + 1,
						    sizeof *r);
		memcpy(r, ns->terms[i].exprs, sizeof *r * (size_t)ns->terms[i].n_exprs);
		t[i] = ns->terms[i];
		t[i].exprs = r;
	}
	if (n == 0)
		t[0].exprs = arena_array(a, 1, sizeof *t[0].exprs);
	return t;
}

/* replaceTopology: every requirement keyed from gets the key to. */
static void replace_key(struct node_selector_term *t, int n_terms,
			const char *from, const char *to)
{
	for (int i = 0; i < n_terms; i++)
		for (int e = 0; e < t[i].n_exprs; e++)
			if (!strcmp(t[i].exprs[e].key, from))
				((struct requirement *)t[i].exprs)[e].key = to;
}

/* addTopology's zones: the label's "__"-separated parts, trimmed, without
 * empty ones and duplicates, sorted; their count. */
static int label_zones(const char *label, struct arena *a, const char ***out)
{
	int cap = 1;
	for (const char *z = label; (z = strstr(z, "__")); z += 2)
		cap++;
	const char **zones = arena_array(a, (size_t)cap, sizeof *zones);
	int n = 0;
	const char *part;
	size_t len;
	for (const char *z = label; next_zone(&z, &part, &len);) {
		while (len > 0 && isspace((unsigned char)*part))
			part++, len--;
		while (len > 0 && isspace((unsigned char)part[len - 1]))
			len--;
		if (len == 0)
			continue;
		char *zone = arena_strndup(a, part, len);
		int k = 0;
		while (k < n && strcmp(zones[k], zone) < 0)
			k++;
		if (k < n && !strcmp(zones[k], zone))
			continue;
		memmove(&zones[k + 1], &zones[k], sizeof *zones * (size_t)(n - k));
		zones[k] = zone;
		n++;
	}
	*out = zones;
	return n;
}

/* translateTopologyFromInTreeToCSI (its errors are not returned). */
static void translate_topology(const struct pv *v, const char *csi_key,
			       struct arena *a, struct node_selector *out)
{
	*out = v->node_affinity;
	bool beta;
	const char *zone_key = zone_label(v, &beta);
	const char *label = labels_get(&v->labels, zone_key);
	const char **zones = NULL;
	int n_zones = 0;
	bool replace = key_has_values(&v->node_affinity, zone_key);
	if (!replace && label)
		n_zones = label_zones(label, a, &zones);
	bool region = beta && key_has_values(&v->node_affinity, REGION_BETA);
	if (!replace && n_zones == 0 && !region)
		return;
	int n_terms;
	struct node_selector_term *t = copy_terms(&v->node_affinity, a, &n_terms);
	if (replace)
		replace_key(t, n_terms, zone_key, csi_key);
	for (int i = 0; n_zones > 0 && i < n_terms; i++) {
		struct requirement *r = (struct requirement *)&t[i].exprs[t[i].n_exprs++];
		*r = (struct requirement){.key = csi_key, .op = OP_IN,
					  .values = zones, .n_values = n_zones};
	}
	if (region)
		replace_key(t, n_terms, REGION_BETA, REGION_GA);
	/* past the early return the PV had terms, or addTopology made one */
	out->present = true;
	out->terms = t;
	out->n_terms = n_terms;
}

const char *csi_translate_pv_affinity(const struct pv *v, struct arena *a,
				      struct node_selector *out)
{
	assert(v && v->has_intree && a && out);
	const struct csi_in_tree_plugin *p = csi_plugin_of_disk(v->intree);
	assert(p && p->zone_key);
	char handle[512], err[1024];
	if (!translate_pv(v, handle, sizeof handle, err, sizeof err))
		return arena_sprintf(a, "could not translate pv: %s", err);
	translate_topology(v, p->zone_key, a, out);
	return NULL;
}
