/*
 * fields.c - the Kubernetes v1.30 field tables (fields.h): one table per
 * type, every field the type has (read by kso or not), the value's shape
 * for the fields whose own fields are checked in turn.  From the API
 * types of k8s.io/api core/v1, policy/v1 and scheduling/v1, and (kube
 * v1.34) resource.k8s.io/v1.
 */
#include "fields.h"

#include <stdio.h>
#include <string.h>

enum shape {
	ANY,        /* not walked: scalars, free-form maps, unmodelled types */
	OBJ,        /* an object of type */
	LIST        /* a list of objects of type */
};

struct ftype;

struct field {
	const char *name;
	enum shape shape;
	const struct ftype *type;
};

struct ftype {
	const char *name;          /* for the message: "a Pod's spec" */
	const struct field *fields;   /* NULL-terminated */
};

#define END {NULL, ANY, NULL}

static const struct field label_requirement_f[] = {
	{"key", ANY, NULL}, {"operator", ANY, NULL}, {"values", ANY, NULL}, END};
static const struct ftype label_requirement = {"a label selector requirement",
					       label_requirement_f};
static const struct field label_selector_f[] = {
	{"matchLabels", ANY, NULL}, {"matchExpressions", LIST, &label_requirement},
	END};
static const struct ftype label_selector = {"a label selector", label_selector_f};

static const struct field node_requirement_f[] = {
	{"key", ANY, NULL}, {"operator", ANY, NULL}, {"values", ANY, NULL}, END};
static const struct ftype node_requirement = {"a node selector requirement",
					      node_requirement_f};
static const struct field node_term_f[] = {
	{"matchExpressions", LIST, &node_requirement},
	{"matchFields", LIST, &node_requirement}, END};
static const struct ftype node_term = {"a node selector term", node_term_f};
static const struct field node_selector_f[] = {
	{"nodeSelectorTerms", LIST, &node_term}, END};
static const struct ftype node_selector = {"a node selector", node_selector_f};
static const struct field preferred_term_f[] = {
	{"weight", ANY, NULL}, {"preference", OBJ, &node_term}, END};
static const struct ftype preferred_term = {"a preferred scheduling term",
					    preferred_term_f};
static const struct field node_affinity_f[] = {
	{"requiredDuringSchedulingIgnoredDuringExecution", OBJ, &node_selector},
	{"preferredDuringSchedulingIgnoredDuringExecution", LIST, &preferred_term},
	END};
static const struct ftype node_affinity = {"a node affinity", node_affinity_f};

static const struct field pod_term_f[] = {
	{"labelSelector", OBJ, &label_selector},
	{"namespaceSelector", OBJ, &label_selector}, {"namespaces", ANY, NULL},
	{"topologyKey", ANY, NULL}, {"matchLabelKeys", ANY, NULL},
	{"mismatchLabelKeys", ANY, NULL}, END};
static const struct ftype pod_term = {"a pod affinity term", pod_term_f};
static const struct field weighted_term_f[] = {
	{"weight", ANY, NULL}, {"podAffinityTerm", OBJ, &pod_term}, END};
static const struct ftype weighted_term = {"a weighted pod affinity term",
					   weighted_term_f};
static const struct field pod_affinity_f[] = {
	{"requiredDuringSchedulingIgnoredDuringExecution", LIST, &pod_term},
	{"preferredDuringSchedulingIgnoredDuringExecution", LIST, &weighted_term},
	END};
static const struct ftype pod_affinity = {"a pod (anti-)affinity", pod_affinity_f};
static const struct field affinity_f[] = {
	{"nodeAffinity", OBJ, &node_affinity}, {"podAffinity", OBJ, &pod_affinity},
	{"podAntiAffinity", OBJ, &pod_affinity}, END};
static const struct ftype affinity = {"an affinity", affinity_f};

static const struct field toleration_f[] = {
	{"key", ANY, NULL}, {"operator", ANY, NULL}, {"value", ANY, NULL},
	{"effect", ANY, NULL}, {"tolerationSeconds", ANY, NULL}, END};
static const struct ftype toleration = {"a toleration", toleration_f};

static const struct field spread_f[] = {
	{"maxSkew", ANY, NULL}, {"topologyKey", ANY, NULL},
	{"whenUnsatisfiable", ANY, NULL}, {"labelSelector", OBJ, &label_selector},
	{"minDomains", ANY, NULL}, {"nodeAffinityPolicy", ANY, NULL},
	{"nodeTaintsPolicy", ANY, NULL}, {"matchLabelKeys", ANY, NULL}, END};
static const struct ftype spread = {"a topology spread constraint", spread_f};

static const struct field container_claim_f[] = {
	{"name", ANY, NULL}, {"request", ANY, NULL}, END};
static const struct ftype container_claim = {"a container's resource claim",
					     container_claim_f};
static const struct field resources_f[] = {
	{"limits", ANY, NULL}, {"requests", ANY, NULL},
	{"claims", LIST, &container_claim}, END};
static const struct ftype resources = {"a container's resources", resources_f};
static const struct field port_f[] = {
	{"containerPort", ANY, NULL}, {"hostPort", ANY, NULL}, {"hostIP", ANY, NULL},
	{"name", ANY, NULL}, {"protocol", ANY, NULL}, END};
static const struct ftype port = {"a container port", port_f};
static const struct field container_f[] = {
	{"name", ANY, NULL}, {"image", ANY, NULL}, {"command", ANY, NULL},
	{"args", ANY, NULL}, {"workingDir", ANY, NULL}, {"ports", LIST, &port},
	{"envFrom", ANY, NULL}, {"env", ANY, NULL}, {"resources", OBJ, &resources},
	{"resizePolicy", ANY, NULL}, {"restartPolicy", ANY, NULL},
	{"restartPolicyRules", ANY, NULL}, {"volumeMounts", ANY, NULL}, {"volumeDevices", ANY, NULL},
	{"livenessProbe", ANY, NULL}, {"readinessProbe", ANY, NULL},
	{"startupProbe", ANY, NULL}, {"lifecycle", ANY, NULL},
	{"terminationMessagePath", ANY, NULL},
	{"terminationMessagePolicy", ANY, NULL}, {"imagePullPolicy", ANY, NULL},
	{"securityContext", ANY, NULL}, {"stdin", ANY, NULL},
	{"stdinOnce", ANY, NULL}, {"tty", ANY, NULL}, END};
static const struct ftype container = {"a container", container_f};
static const struct field gate_f[] = {{"name", ANY, NULL}, END};
static const struct ftype gate = {"a scheduling gate", gate_f};

static const struct field pod_claim_f[] = {
	{"name", ANY, NULL}, {"resourceClaimName", ANY, NULL},
	{"resourceClaimTemplateName", ANY, NULL}, END};
static const struct ftype pod_claim = {"a pod's resource claim", pod_claim_f};

static const struct field pod_spec_f[] = {
	{"volumes", ANY, NULL}, {"initContainers", LIST, &container},
	{"containers", LIST, &container}, {"ephemeralContainers", ANY, NULL},
	{"restartPolicy", ANY, NULL}, {"terminationGracePeriodSeconds", ANY, NULL},
	{"activeDeadlineSeconds", ANY, NULL}, {"dnsPolicy", ANY, NULL},
	{"nodeSelector", ANY, NULL}, {"serviceAccountName", ANY, NULL},
	{"serviceAccount", ANY, NULL}, {"automountServiceAccountToken", ANY, NULL},
	{"nodeName", ANY, NULL}, {"hostNetwork", ANY, NULL}, {"hostPID", ANY, NULL},
	{"hostIPC", ANY, NULL}, {"shareProcessNamespace", ANY, NULL},
	{"securityContext", ANY, NULL}, {"imagePullSecrets", ANY, NULL},
	{"hostname", ANY, NULL}, {"subdomain", ANY, NULL},
	{"affinity", OBJ, &affinity}, {"schedulerName", ANY, NULL},
	{"tolerations", LIST, &toleration}, {"hostAliases", ANY, NULL},
	{"priorityClassName", ANY, NULL}, {"priority", ANY, NULL},
	{"dnsConfig", ANY, NULL}, {"readinessGates", ANY, NULL},
	{"runtimeClassName", ANY, NULL}, {"enableServiceLinks", ANY, NULL},
	{"preemptionPolicy", ANY, NULL}, {"overhead", ANY, NULL},
	{"topologySpreadConstraints", LIST, &spread},
	{"setHostnameAsFQDN", ANY, NULL}, {"os", ANY, NULL},
	{"hostUsers", ANY, NULL}, {"schedulingGates", LIST, &gate},
	{"resourceClaims", LIST, &pod_claim}, {"resources", OBJ, &resources},
	{"hostnameOverride", ANY, NULL}, END};
static const struct ftype pod_spec = {"a pod's spec", pod_spec_f};

static const struct field meta_f[] = {
	{"name", ANY, NULL}, {"generateName", ANY, NULL}, {"namespace", ANY, NULL},
	{"selfLink", ANY, NULL}, {"uid", ANY, NULL}, {"resourceVersion", ANY, NULL},
	{"generation", ANY, NULL}, {"creationTimestamp", ANY, NULL},
	{"deletionTimestamp", ANY, NULL}, {"deletionGracePeriodSeconds", ANY, NULL},
	{"labels", ANY, NULL}, {"annotations", ANY, NULL},
	{"ownerReferences", ANY, NULL}, {"finalizers", ANY, NULL},
	{"managedFields", ANY, NULL}, END};
static const struct ftype meta = {"an object's metadata", meta_f};

static const struct field taint_f[] = {
	{"key", ANY, NULL}, {"value", ANY, NULL}, {"effect", ANY, NULL},
	{"timeAdded", ANY, NULL}, END};
static const struct ftype taint = {"a taint", taint_f};
static const struct field node_spec_f[] = {
	{"podCIDR", ANY, NULL}, {"podCIDRs", ANY, NULL}, {"providerID", ANY, NULL},
	{"unschedulable", ANY, NULL}, {"taints", LIST, &taint},
	{"configSource", ANY, NULL}, {"externalID", ANY, NULL}, END};
static const struct ftype node_spec = {"a node's spec", node_spec_f};

static const struct field pdb_spec_f[] = {
	{"minAvailable", ANY, NULL}, {"maxUnavailable", ANY, NULL},
	{"selector", OBJ, &label_selector},
	{"unhealthyPodEvictionPolicy", ANY, NULL}, END};
static const struct ftype pdb_spec = {"a PodDisruptionBudget's spec", pdb_spec_f};

static const struct field template_f[] = {
	{"metadata", OBJ, &meta}, {"spec", OBJ, &pod_spec}, END};
static const struct ftype pod_template = {"a pod template", template_f};
static const struct field rs_spec_f[] = {
	{"replicas", ANY, NULL}, {"minReadySeconds", ANY, NULL},
	{"selector", OBJ, &label_selector}, {"template", OBJ, &pod_template}, END};
static const struct ftype rs_spec = {"a ReplicaSet's spec", rs_spec_f};
static const struct field rc_spec_f[] = {
	{"replicas", ANY, NULL}, {"minReadySeconds", ANY, NULL},
	{"selector", ANY, NULL}, {"template", OBJ, &pod_template}, END};
static const struct ftype rc_spec = {"a ReplicationController's spec", rc_spec_f};
static const struct field ss_spec_f[] = {
	{"replicas", ANY, NULL}, {"selector", OBJ, &label_selector},
	{"template", OBJ, &pod_template}, {"volumeClaimTemplates", ANY, NULL},
	{"serviceName", ANY, NULL}, {"podManagementPolicy", ANY, NULL},
	{"updateStrategy", ANY, NULL}, {"revisionHistoryLimit", ANY, NULL},
	{"minReadySeconds", ANY, NULL},
	{"persistentVolumeClaimRetentionPolicy", ANY, NULL},
	{"ordinals", ANY, NULL}, END};
static const struct ftype ss_spec = {"a StatefulSet's spec", ss_spec_f};
static const struct field deploy_spec_f[] = {
	{"replicas", ANY, NULL}, {"selector", OBJ, &label_selector},
	{"template", OBJ, &pod_template}, {"strategy", ANY, NULL},
	{"minReadySeconds", ANY, NULL}, {"revisionHistoryLimit", ANY, NULL},
	{"paused", ANY, NULL}, {"progressDeadlineSeconds", ANY, NULL}, END};
static const struct ftype deploy_spec = {"a Deployment's spec", deploy_spec_f};
static const struct field ds_spec_f[] = {
	{"selector", OBJ, &label_selector}, {"template", OBJ, &pod_template},
	{"updateStrategy", ANY, NULL}, {"minReadySeconds", ANY, NULL},
	{"revisionHistoryLimit", ANY, NULL}, {"templateGeneration", ANY, NULL},
	END};
static const struct ftype ds_spec = {"a DaemonSet's spec", ds_spec_f};
static const struct field job_spec_f[] = {
	{"parallelism", ANY, NULL}, {"completions", ANY, NULL},
	{"activeDeadlineSeconds", ANY, NULL}, {"podFailurePolicy", ANY, NULL},
	{"successPolicy", ANY, NULL}, {"backoffLimit", ANY, NULL},
	{"backoffLimitPerIndex", ANY, NULL}, {"maxFailedIndexes", ANY, NULL},
	{"selector", OBJ, &label_selector}, {"manualSelector", ANY, NULL},
	{"template", OBJ, &pod_template}, {"ttlSecondsAfterFinished", ANY, NULL},
	{"completionMode", ANY, NULL}, {"suspend", ANY, NULL},
	{"podReplacementPolicy", ANY, NULL}, {"managedBy", ANY, NULL}, END};
static const struct ftype job_spec = {"a Job's spec", job_spec_f};
static const struct field svc_spec_f[] = {
	{"ports", ANY, NULL}, {"selector", ANY, NULL}, {"clusterIP", ANY, NULL},
	{"clusterIPs", ANY, NULL}, {"type", ANY, NULL}, {"externalIPs", ANY, NULL},
	{"sessionAffinity", ANY, NULL}, {"loadBalancerIP", ANY, NULL},
	{"loadBalancerSourceRanges", ANY, NULL}, {"externalName", ANY, NULL},
	{"externalTrafficPolicy", ANY, NULL}, {"healthCheckNodePort", ANY, NULL},
	{"publishNotReadyAddresses", ANY, NULL},
	{"sessionAffinityConfig", ANY, NULL}, {"ipFamilies", ANY, NULL},
	{"ipFamilyPolicy", ANY, NULL},
	{"allocateLoadBalancerNodePorts", ANY, NULL},
	{"loadBalancerClass", ANY, NULL}, {"internalTrafficPolicy", ANY, NULL},
	{"trafficDistribution", ANY, NULL}, END};
static const struct ftype svc_spec = {"a Service's spec", svc_spec_f};
static const struct field ns_spec_f[] = {{"finalizers", ANY, NULL}, END};
static const struct ftype ns_spec = {"a Namespace's spec", ns_spec_f};

/* The top level of each kind read, to the depth kso reads it. */
#define TOP(spec_shape, spec_type) \
	{"apiVersion", ANY, NULL}, {"kind", ANY, NULL}, \
	{"metadata", OBJ, &meta}, {"spec", spec_shape, spec_type}, \
	{"status", ANY, NULL}
/* storage (reference §2.12): core/v1 and storage.k8s.io/v1 */
static const struct field pvc_spec_f[] = {
	{"accessModes", ANY, NULL}, {"selector", OBJ, &label_selector},
	{"resources", ANY, NULL}, {"volumeName", ANY, NULL},
	{"storageClassName", ANY, NULL}, {"volumeMode", ANY, NULL},
	{"dataSource", ANY, NULL}, {"dataSourceRef", ANY, NULL},
	{"volumeAttributesClassName", ANY, NULL}, END};
static const struct ftype pvc_spec = {"a PersistentVolumeClaim's spec", pvc_spec_f};
static const struct field pv_affinity_f[] = {
	{"required", OBJ, &node_selector}, END};
static const struct ftype pv_affinity = {"a volume node affinity", pv_affinity_f};
static const struct field pv_spec_f[] = {
	{"capacity", ANY, NULL}, {"accessModes", ANY, NULL},
	{"claimRef", ANY, NULL}, {"persistentVolumeReclaimPolicy", ANY, NULL},
	{"storageClassName", ANY, NULL}, {"mountOptions", ANY, NULL},
	{"volumeMode", ANY, NULL}, {"nodeAffinity", OBJ, &pv_affinity},
	{"volumeAttributesClassName", ANY, NULL},
	/* the volume sources */
	{"gcePersistentDisk", ANY, NULL}, {"awsElasticBlockStore", ANY, NULL},
	{"hostPath", ANY, NULL}, {"glusterfs", ANY, NULL}, {"nfs", ANY, NULL},
	{"rbd", ANY, NULL}, {"iscsi", ANY, NULL}, {"cinder", ANY, NULL},
	{"cephfs", ANY, NULL}, {"fc", ANY, NULL}, {"flocker", ANY, NULL},
	{"flexVolume", ANY, NULL}, {"azureFile", ANY, NULL},
	{"vsphereVolume", ANY, NULL}, {"quobyte", ANY, NULL},
	{"azureDisk", ANY, NULL}, {"photonPersistentDisk", ANY, NULL},
	{"portworxVolume", ANY, NULL}, {"scaleIO", ANY, NULL},
	{"local", ANY, NULL}, {"storageos", ANY, NULL}, {"csi", ANY, NULL}, END};
static const struct ftype pv_spec = {"a PersistentVolume's spec", pv_spec_f};
static const struct field topology_req_f[] = {
	{"key", ANY, NULL}, {"values", ANY, NULL}, END};
static const struct ftype topology_req = {"a topology selector requirement",
					  topology_req_f};
static const struct field topology_term_f[] = {
	{"matchLabelExpressions", LIST, &topology_req}, END};
static const struct ftype topology_term = {"a topology selector term",
					   topology_term_f};
static const struct field csi_driver_entry_f[] = {
	{"name", ANY, NULL}, {"nodeID", ANY, NULL}, {"topologyKeys", ANY, NULL},
	{"allocatable", ANY, NULL}, END};
static const struct ftype csi_driver_entry = {"a CSINode driver",
					      csi_driver_entry_f};
static const struct field csinode_spec_f[] = {
	{"drivers", LIST, &csi_driver_entry}, END};
static const struct ftype csinode_spec = {"a CSINode's spec", csinode_spec_f};
static const struct field csidriver_spec_f[] = {
	{"attachRequired", ANY, NULL}, {"podInfoOnMount", ANY, NULL},
	{"volumeLifecycleModes", ANY, NULL}, {"storageCapacity", ANY, NULL},
	{"fsGroupPolicy", ANY, NULL}, {"tokenRequests", ANY, NULL},
	{"requiresRepublish", ANY, NULL}, {"seLinuxMount", ANY, NULL},
	{"nodeAllocatableUpdatePeriodSeconds", ANY, NULL}, END};
static const struct ftype csidriver_spec = {"a CSIDriver's spec",
					    csidriver_spec_f};
static const struct field va_source_f[] = {
	{"persistentVolumeName", ANY, NULL}, {"inlineVolumeSpec", ANY, NULL}, END};
static const struct ftype va_source = {"a VolumeAttachment's source", va_source_f};
static const struct field va_spec_f[] = {
	{"attacher", ANY, NULL}, {"nodeName", ANY, NULL},
	{"source", OBJ, &va_source}, END};
static const struct ftype va_spec = {"a VolumeAttachment's spec", va_spec_f};
static const struct field va_f[] = {TOP(OBJ, &va_spec), END};
static const struct field pvc_f[] = {TOP(OBJ, &pvc_spec), END};
static const struct field pv_f[] = {TOP(OBJ, &pv_spec), END};
static const struct field csinode_f[] = {TOP(OBJ, &csinode_spec), END};
static const struct field csidriver_f[] = {TOP(OBJ, &csidriver_spec), END};
static const struct field sc_f[] = {
	{"apiVersion", ANY, NULL}, {"kind", ANY, NULL}, {"metadata", OBJ, &meta},
	{"provisioner", ANY, NULL}, {"parameters", ANY, NULL},
	{"reclaimPolicy", ANY, NULL}, {"mountOptions", ANY, NULL},
	{"allowVolumeExpansion", ANY, NULL}, {"volumeBindingMode", ANY, NULL},
	{"allowedTopologies", LIST, &topology_term}, END};
static const struct field capacity_f[] = {
	{"apiVersion", ANY, NULL}, {"kind", ANY, NULL}, {"metadata", OBJ, &meta},
	{"nodeTopology", OBJ, &label_selector}, {"storageClassName", ANY, NULL},
	{"capacity", ANY, NULL}, {"maximumVolumeSize", ANY, NULL}, END};

/* resource.k8s.io/v1 */
static const struct field cel_selector_f[] = {{"expression", ANY, NULL}, END};
static const struct ftype cel_selector = {"a CEL device selector", cel_selector_f};
static const struct field device_selector_f[] = {{"cel", OBJ, &cel_selector}, END};
static const struct ftype device_selector = {"a device selector", device_selector_f};
static const struct field opaque_f[] = {
	{"driver", ANY, NULL}, {"parameters", ANY, NULL}, END};
static const struct ftype opaque = {"an opaque device configuration", opaque_f};
static const struct field device_config_f[] = {
	{"requests", ANY, NULL}, {"opaque", OBJ, &opaque}, END};
static const struct ftype device_config = {"a device configuration", device_config_f};
static const struct field class_spec_f[] = {
	{"selectors", LIST, &device_selector}, {"config", LIST, &device_config},
	{"extendedResourceName", ANY, NULL}, END};
static const struct ftype class_spec = {"a DeviceClass's spec", class_spec_f};
static const struct field pool_f[] = {
	{"name", ANY, NULL}, {"generation", ANY, NULL},
	{"resourceSliceCount", ANY, NULL}, END};
static const struct ftype pool = {"a resource pool", pool_f};
static const struct field device_f[] = {
	{"name", ANY, NULL}, {"attributes", ANY, NULL}, {"capacity", ANY, NULL},
	{"consumesCounters", ANY, NULL}, {"nodeName", ANY, NULL},
	{"nodeSelector", ANY, NULL}, {"allNodes", ANY, NULL}, {"taints", ANY, NULL},
	{"bindsToNode", ANY, NULL}, {"bindingConditions", ANY, NULL},
	{"bindingFailureConditions", ANY, NULL},
	{"allowMultipleAllocations", ANY, NULL}, END};
static const struct ftype device = {"a device", device_f};
static const struct field slice_spec_f[] = {
	{"driver", ANY, NULL}, {"pool", OBJ, &pool}, {"nodeName", ANY, NULL},
	{"nodeSelector", OBJ, &node_selector}, {"allNodes", ANY, NULL},
	{"devices", LIST, &device}, {"perDeviceNodeSelection", ANY, NULL},
	{"sharedCounters", ANY, NULL}, END};
static const struct ftype slice_spec = {"a ResourceSlice's spec", slice_spec_f};
static const struct field subrequest_f[] = {
	{"name", ANY, NULL}, {"deviceClassName", ANY, NULL},
	{"selectors", LIST, &device_selector}, {"allocationMode", ANY, NULL},
	{"count", ANY, NULL}, {"tolerations", ANY, NULL}, {"capacity", ANY, NULL}, END};
static const struct ftype subrequest = {"a device subrequest", subrequest_f};
static const struct field exact_request_f[] = {
	{"deviceClassName", ANY, NULL}, {"selectors", LIST, &device_selector},
	{"allocationMode", ANY, NULL}, {"count", ANY, NULL},
	{"adminAccess", ANY, NULL}, {"tolerations", ANY, NULL},
	{"capacity", ANY, NULL}, END};
static const struct ftype exact_request = {"an exact device request", exact_request_f};
static const struct field device_request_f[] = {
	{"name", ANY, NULL}, {"exactly", OBJ, &exact_request},
	{"firstAvailable", LIST, &subrequest}, END};
static const struct ftype device_request = {"a device request", device_request_f};
static const struct field constraint_f[] = {
	{"requests", ANY, NULL}, {"matchAttribute", ANY, NULL},
	{"distinctAttribute", ANY, NULL}, END};
static const struct ftype constraint = {"a device constraint", constraint_f};
static const struct field device_claim_f[] = {
	{"requests", LIST, &device_request}, {"constraints", LIST, &constraint},
	{"config", LIST, &device_config}, END};
static const struct ftype device_claim = {"a claim's devices", device_claim_f};
static const struct field claim_spec_f[] = {{"devices", OBJ, &device_claim}, END};
static const struct ftype claim_spec = {"a ResourceClaim's spec", claim_spec_f};
static const struct field claim_template_spec_f[] = {
	{"metadata", OBJ, &meta}, {"spec", OBJ, &claim_spec}, END};
static const struct ftype claim_template_spec = {"a ResourceClaimTemplate's spec",
						 claim_template_spec_f};
static const struct field device_class_f[] = {TOP(OBJ, &class_spec), END};
static const struct field slice_f[] = {TOP(OBJ, &slice_spec), END};
static const struct field claim_f[] = {TOP(OBJ, &claim_spec), END};
static const struct field claim_template_f[] = {TOP(OBJ, &claim_template_spec), END};

static const struct field pod_f[] = {TOP(OBJ, &pod_spec), END};
static const struct field node_f[] = {TOP(OBJ, &node_spec), END};
static const struct field pdb_f[] = {TOP(OBJ, &pdb_spec), END};
static const struct field rs_f[] = {TOP(OBJ, &rs_spec), END};
static const struct field rc_f[] = {TOP(OBJ, &rc_spec), END};
static const struct field ss_f[] = {TOP(OBJ, &ss_spec), END};
static const struct field svc_f[] = {TOP(OBJ, &svc_spec), END};
static const struct field deploy_f[] = {TOP(OBJ, &deploy_spec), END};
static const struct field ds_f[] = {TOP(OBJ, &ds_spec), END};
static const struct field job_f[] = {TOP(OBJ, &job_spec), END};
static const struct field ns_f[] = {TOP(OBJ, &ns_spec), END};
static const struct field pc_f[] = {
	{"apiVersion", ANY, NULL}, {"kind", ANY, NULL}, {"metadata", OBJ, &meta},
	{"value", ANY, NULL}, {"globalDefault", ANY, NULL},
	{"description", ANY, NULL}, {"preemptionPolicy", ANY, NULL}, END};

static const struct {
	const char *kind;
	struct ftype type;
} tops[] = {
	{"Pod", {"a Pod", pod_f}},
	{"Node", {"a Node", node_f}},
	{"PodDisruptionBudget", {"a PodDisruptionBudget", pdb_f}},
	{"PriorityClass", {"a PriorityClass", pc_f}},
	{"Namespace", {"a Namespace", ns_f}},
	{"Service", {"a Service", svc_f}},
	{"ReplicationController", {"a ReplicationController", rc_f}},
	{"ReplicaSet", {"a ReplicaSet", rs_f}},
	{"StatefulSet", {"a StatefulSet", ss_f}},
	{"Deployment", {"a Deployment", deploy_f}},
	{"DaemonSet", {"a DaemonSet", ds_f}},
	{"Job", {"a Job", job_f}},
	{"PersistentVolumeClaim", {"a PersistentVolumeClaim", pvc_f}},
	{"PersistentVolume", {"a PersistentVolume", pv_f}},
	{"StorageClass", {"a StorageClass", sc_f}},
	{"CSINode", {"a CSINode", csinode_f}},
	{"CSIDriver", {"a CSIDriver", csidriver_f}},
	{"CSIStorageCapacity", {"a CSIStorageCapacity", capacity_f}},
	{"DeviceClass", {"a DeviceClass", device_class_f}},
	{"ResourceSlice", {"a ResourceSlice", slice_f}},
	{"ResourceClaim", {"a ResourceClaim", claim_f}},
	{"ResourceClaimTemplate", {"a ResourceClaimTemplate", claim_template_f}},
	{"VolumeAttachment", {"a VolumeAttachment", va_f}},
};

/* Levenshtein distance of a and b, capped: 3 means "3 or more". */
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64 || (la > lb ? la - lb : lb - la) > 2)
		return 3;
	int row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int up = row[j];
			int sub = diag + (a[i - 1] != b[j - 1]);
			int del = row[j] + 1, ins = row[j - 1] + 1;
			row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
			diag = up;
		}
	}
	return row[lb] > 3 ? 3 : row[lb];
}

/* The field of t nearest key (at most two edits), or NULL. */
static const char *nearest(const struct ftype *t, const char *key)
{
	const char *best = NULL;
	int best_d = 3;
	for (const struct field *f = t->fields; f->name; f++) {
		int dd = distance(key, f->name);
		if (dd < best_d) {
			best_d = dd;
			best = f->name;
		}
	}
	/* a cut-short name: requiredDuringScheduling */
	for (const struct field *f = t->fields; !best && f->name; f++)
		if (strlen(key) >= 6 && !strncmp(f->name, key, strlen(key)))
			best = f->name;
	return best;
}

/* The path walked so far, as keys and indexes, rendered only for a
 * warning (most objects have none: no formatting per field). */
#define WALK_DEPTH 32

struct trail {
	const char *key[WALK_DEPTH];   /* NULL: an index */
	int index[WALK_DEPTH];
	int n;
	const char *prefix;            /* "items[3]" in a List, or "" */
};

static void render(const struct trail *tr, char *out, size_t cap)
{
	size_t len = (size_t)snprintf(out, cap, "%s", tr->prefix);
	for (int i = 0; i < tr->n && len < cap; i++)
		len += tr->key[i]
			? (size_t)snprintf(out + len, cap - len, "%s%s",
					   len ? "." : "", tr->key[i])
			: (size_t)snprintf(out + len, cap - len, "[%d]",
					   tr->index[i]);
}

static void walk(struct yaml_dec *d, const struct ynode *m, const struct ftype *t,
		 struct trail *tr);

static void walk_value(struct yaml_dec *d, const struct field *f,
		       const struct ynode *v, struct trail *tr)
{
	if (f->shape == OBJ && v->kind == YNODE_MAP) {
		walk(d, v, f->type, tr);
		return;
	}
	if (f->shape != LIST || v->kind != YNODE_SEQ || tr->n >= WALK_DEPTH)
		return;
	for (int i = 0; i < v->n; i++) {
		if (v->items[i]->kind != YNODE_MAP)
			continue;
		tr->key[tr->n] = NULL;
		tr->index[tr->n++] = i;
		walk(d, v->items[i], f->type, tr);
		tr->n--;
	}
}

static void walk(struct yaml_dec *d, const struct ynode *m, const struct ftype *t,
		 struct trail *tr)
{
	if (tr->n >= WALK_DEPTH)
		return;
	for (int i = 0; i < m->n; i++) {
		const struct ynode *k = m->keys[i];
		if (k->kind != YNODE_SCALAR)
			continue;
		const struct field *f = t->fields;
		while (f->name && strcmp(f->name, k->str))
			f++;
		tr->key[tr->n++] = k->str;
		if (f->name) {
			walk_value(d, f, m->items[i], tr);
			tr->n--;
			continue;
		}
		char path[YAML_PATH_MAX];
		render(tr, path, sizeof path);
		tr->n--;
		const char *near = nearest(t, k->str);
		cluster_warn(d->c, "%s:%d:%d: warning: unknown field \"%.128s\" in %s%s%s%s; "
			     "kso ignores it (%s)", d->file, k->line, k->col, k->str,
			     t->name, near ? " (did you mean " : "", near ? near : "",
			     near ? "?)" : "", path);
	}
}

void yaml_check_fields(struct yaml_dec *d, const struct ynode *obj,
		       const char *kind)
{
	for (size_t i = 0; i < sizeof tops / sizeof *tops; i++) {
		if (strcmp(tops[i].kind, kind))
			continue;
		char prefix[YAML_PATH_MAX];
		size_t len = yd_path(d, prefix);
		prefix[len < sizeof prefix ? len : sizeof prefix - 1] = '\0';
		struct trail tr = {.n = 0, .prefix = prefix};
		walk(d, obj, &tops[i].type, &tr);
		return;
	}
}
