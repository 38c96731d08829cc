/*
 * csi_translation.c - CSI migration of in-tree EBS, GCE PD and Azure Disk
 * volumes (csi_translation.h; csi-translation-lib's aws_ebs.go, gce_pd.go,
 * azure_disk.go).
 */
#include "csi_translation.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#define EBS_DRIVER "ebs.csi.aws.com"
#define GCE_PD_DRIVER "pd.csi.storage.gke.io"
#define AZURE_DISK_DRIVER "disk.csi.azure.com"

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

const char *csi_driver_of_provisioner(const char *provisioner)
{
	assert(provisioner);
	if (!strcmp(provisioner, "kubernetes.io/aws-ebs"))
		return EBS_DRIVER;
	if (!strcmp(provisioner, "kubernetes.io/gce-pd"))
		return GCE_PD_DRIVER;
	if (!strcmp(provisioner, "kubernetes.io/azure-disk"))
		return AZURE_DISK_DRIVER;
	return NULL;
}

/* KubernetesVolumeIDToEBSVolumeID: a bare id as is; "aws://zone/vol-..."
 * its path without slashes, which must look like vol-x (no '/'). */
static bool ebs_volume_id(const char *id, char *out, size_t len)
{
	if (strncmp(id, "aws://", 6)) {
		snprintf(out, len, "%s", id);
		return true;
	}
	const char *path = strchr(id + 6, '/');   /* after the host */
	if (!path)
		return false;
	while (*path == '/')
		path++;
	size_t n = strlen(path);
	while (n > 0 && path[n - 1] == '/')
		n--;
	if (n < 4 || strncmp(path, "vol-", 4) || memchr(path, '/', n))
		return false;
	snprintf(out, len, "%.*s", (int)n, path);
	return true;
}

/* gceGetRegionFromZones: the zones' common region (a zone without its
 * last "-x"), or false when they differ or one has no '-'. */
static bool gce_region(const char *zones, char *out, size_t len)
{
	out[0] = '\0';
	for (const char *z = zones; *z;) {
		const char *end = strstr(z, "__");
		size_t n = end ? (size_t)(end - z) : strlen(z);
		const char *dash = NULL;
		for (size_t i = 0; i < n; i++)
			if (z[i] == '-')
				dash = z + i;
		if (!dash)
			return false;
		size_t rn = (size_t)(dash - z);
		if (out[0] && (strlen(out) != rn || strncmp(out, z, rn)))
			return false;
		snprintf(out, len, "%.*s", (int)rn, z);
		if (!end)
			break;
		z = end + 2;
	}
	return out[0] != '\0';
}

const char *csi_translate_inline(const struct pod_disk *d, char *handle, size_t len)
{
	assert(d && handle && len);
	switch (d->kind) {
	case DISK_AWS_EBS:
		return ebs_volume_id(d->id, handle, len) ? EBS_DRIVER : NULL;
	case DISK_GCE_PD:
		snprintf(handle, len, "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/%s",
			 d->id);
		return GCE_PD_DRIVER;
	case DISK_AZURE:
		snprintf(handle, len, "%s", d->uri);
		return AZURE_DISK_DRIVER;
	default:
		return NULL;
	}
}

const char *csi_translate_pv(const struct pv *v, char *handle, size_t len)
{
	assert(v && handle && len);
	if (!v->has_intree)
		return NULL;
	switch (v->intree) {
	case DISK_AWS_EBS:
		return ebs_volume_id(v->intree_id, handle, len) ? EBS_DRIVER : NULL;
	case DISK_AZURE:
		snprintf(handle, len, "%s", v->intree_uri);
		return AZURE_DISK_DRIVER;
	case DISK_GCE_PD: {
		/* the zone from the beta label, else the GA one (they must
		 * agree when both are set); several zones: regional */
		const char *beta = labels_get(&v->labels, "failure-domain.beta.kubernetes.io/zone");
		const char *ga = labels_get(&v->labels, "topology.kubernetes.io/zone");
		const char *zones = beta && *beta ? beta : ga ? ga : "";
		if (beta && *beta && ga && *ga && strcmp(beta, ga))
			return NULL;
		char region[256];
		if (!*zones)
			snprintf(handle, len, "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/%s",
				 v->intree_id);
		else if (!strstr(zones, "__"))
			snprintf(handle, len, "projects/UNSPECIFIED/zones/%s/disks/%s",
				 zones, v->intree_id);
		else if (gce_region(zones, region, sizeof region))
			snprintf(handle, len, "projects/UNSPECIFIED/regions/%s/disks/%s",
				 region, v->intree_id);
		else
			return NULL;
		return GCE_PD_DRIVER;
	}
	default:
		return NULL;
	}
}
