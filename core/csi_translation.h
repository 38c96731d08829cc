/*
 * csi_translation.h - CSI migration of in-tree volumes, as
 * k8s.io/csi-translation-lib v1.30 translates them (reference §2.12:
 * NodeVolumeLimits counts a migrated in-tree volume under its CSI driver,
 * on a node with a CSINode; VolumeBinding checks a migrated PV's translated
 * node affinity).  The volumes kso translates: AWS EBS, GCE PD, Azure Disk
 * and Cinder, the ones v1.30 migrates.  Both engines call it: it is data
 * conversion, not a scheduling rule.
 */
#ifndef KSO_CSI_TRANSLATION_H
#define KSO_CSI_TRANSLATION_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
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

/* The in-tree plugins csi-translation-lib translates (its plugins directory): the
 * plugin's name, which is also its in-tree provisioner, its CSI driver,
 * the topology key of the driver's zone (NULL: its PV translation adds
 * none), and whether kube v1.30 with its default feature gates migrates
 * it - isCSIMigrationOn (NodeVolumeLimits) and isCSIMigrationOnForPlugin
 * (VolumeBinding): AWS EBS, GCE PD, Azure Disk and Cinder, whose gates are
 * GA; not Portworx or RBD (gates off by default), nor Azure File or
 * vSphere (not listed).  v1.34's NodeVolumeLimits also migrates Portworx
 * (CSIMigrationPortworx GA) where the CSINode's annotation lists it
 * (csi_limits_migrated). */
struct csi_in_tree_plugin {
	const char *name;
	const char *driver;
	const char *zone_key;
	bool migrated;
};

/* csi_plugin_by_name: the in-tree plugin (or provisioner) of that name
 * (IsMigratableIntreePluginByName), or NULL. */
const struct csi_in_tree_plugin *csi_plugin_by_name(const char *name);

/* csi_plugin_of_disk: the in-tree plugin of an in-tree disk kind
 * (GetInTreePluginNameFromSpec), or NULL (iSCSI: no translation). */
const struct csi_in_tree_plugin *csi_plugin_of_disk(enum pod_disk_kind kind);

/* csi_limits_migrated: NodeVolumeLimits' isCSIMigrationOn: the node has
 * a CSINode (cn not NULL) and the plugin is one kube migrates there
 * without asking the annotation (EBS, GCE PD, Azure Disk, Cinder), or
 * is Portworx, whose gate is GA in v1.34 (v134; off in v1.30), and the
 * CSINode lists it in its migrated-plugins annotation (delta §5.8). */
bool csi_limits_migrated(const struct csi_in_tree_plugin *p,
			 const struct csi_node *cn, bool v134);

/* csi_migrated_on_node: VolumeBinding's isCSIMigrationOnForPlugin and
 * isPluginMigratedToCSIOnNode: the plugin is migrated and the node's
 * CSINode (NULL: none) lists it in its migrated-plugins annotation. */
bool csi_migrated_on_node(const struct csi_in_tree_plugin *p,
			  const struct csi_node *cn);

/* csi_translate_pv_affinity: TranslateInTreePVToCSI of an in-tree PV (v
 * has_intree) as far as VolumeBinding reads it.  Sets *out to the
 * translated node affinity (translateTopologyFromInTreeToCSI: the zone
 * requirement's key becomes the driver's topology key, else the PV's zone
 * label becomes an In requirement of every term; a beta region key
 * becomes the GA one), allocated in a, and returns NULL; or returns the
 * error VolumeBinding reports ("could not translate pv: ..."), in a. */
const char *csi_translate_pv_affinity(const struct pv *v, struct arena *a,
				      struct node_selector *out);

/* csi_attach_limit_key: volumeutil.GetCSIAttachLimitKey: the node
 * allocatable that carries driver's attach limit,
 * "attachable-volumes-csi-<driver>", or, when that would be 63 characters
 * or more (a driver name of 40 or more), the prefix, the driver's first
 * 23 characters and the first 16 hex digits of its SHA-1.  Into key (len
 * bytes); returns key. */
#define CSI_ATTACH_LIMIT_PREFIX "attachable-volumes-csi-"
char *csi_attach_limit_key(const char *driver, char *key, size_t len);

/* csi_translate_inline / csi_translate_pv: TranslateInTreeInlineVolumeToCSI
 * / TranslateInTreePVToCSI: the driver (returned) and the volume handle
 * (into handle, len bytes) of a migrated in-tree volume; NULL when it is
 * not one kso translates or the translation fails (a malformed EBS id, GCE
 * zones of different regions). */
const char *csi_translate_inline(const struct pod_disk *d, char *handle, size_t len);
const char *csi_translate_pv(const struct pv *v, char *handle, size_t len);

#endif
