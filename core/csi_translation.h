/*
 * csi_translation.h - CSI migration of in-tree volumes, as
 * k8s.io/csi-translation-lib v1.30 translates them (reference §2.12:
 * NodeVolumeLimits counts a migrated in-tree volume under its CSI driver,
 * on a node with a CSINode).  Only the sources kso reads: AWS EBS, GCE PD
 * and Azure Disk.  Both engines call it: it is data conversion, not a
 * scheduling rule.
 */
#ifndef KSO_CSI_TRANSLATION_H
#define KSO_CSI_TRANSLATION_H

#include <stdbool.h>
#include <stddef.h>

#include "objects.h"

/* The in-tree volume types the in-tree limit plugins (non_csi.go) count:
 * EBSLimits, GCEPDLimits, AzureDiskLimits, in that order. */
struct in_tree_type {
	enum pod_disk_kind kind;       /* FilterVolume / FilterPersistentVolume */
	const char *provisioner;       /* MatchProvisioner: the in-tree one */
	const char *limit_key;         /* the node allocatable that overrides */
	int default_max;               /* maxVolumeFunc (EBS: 25 on Nitro types) */
};
#define IN_TREE_TYPES 3
extern const struct in_tree_type in_tree_types[IN_TREE_TYPES];

/* in_tree_max_volumes: maxVolumeFunc of type t on node n - its default,
 * for EBS 25 on the Nitro instance types (node.kubernetes.io/instance-type
 * matching ^[cmr]5.*|t3|z1d) - before the node allocatable's override. */
int in_tree_max_volumes(const struct in_tree_type *t, const struct node *n);

/* csi_driver_of_provisioner: GetCSINameFromInTreeName for the in-tree
 * provisioners kso translates (kubernetes.io/aws-ebs, kubernetes.io/gce-pd,
 * kubernetes.io/azure-disk), or NULL. */
const char *csi_driver_of_provisioner(const char *provisioner);

/* csi_translate_inline / csi_translate_pv: TranslateInTreeInlineVolumeToCSI
 * / TranslateInTreePVToCSI: the driver (returned) and the volume handle
 * (into handle, len bytes) of a migrated in-tree volume; NULL when it is
 * not one kso translates or the translation fails (a malformed EBS id, GCE
 * zones of different regions). */
const char *csi_translate_inline(const struct pod_disk *d, char *handle, size_t len);
const char *csi_translate_pv(const struct pv *v, char *handle, size_t len);

#endif
