/*
 * objects.h - the Kubernetes objects the scheduler reads, as C types.
 *
 * Field names in comments are the Kubernetes API field paths.  Everything
 * here is filled by the loader (yaml/) after defaulting and validation, so
 * the model and the oracle may assume API-server-valid objects: selectors
 * parse, operators are known, quantities are non-negative, weights are in
 * range.  All memory belongs to the struct cluster's arena.
 *
 * Spec (shared/seeds/004): Objects = the set of Pod and Node objects; a Pod
 * is bound to a Node when Pod.Spec.NodeName = Node.Name.  Here the binding
 * of a pod lives in struct snapshot (core/snapshot.h) so one cluster can be
 * evaluated in many placements; pod.node_name is only the manifest's value.
 */
#ifndef KSO_OBJECTS_H
#define KSO_OBJECTS_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"

/* ---------------------------------------------------------------- labels */

struct label {
	const char *key;
	const char *value;
};

/* A map[string]string (metadata.labels, spec.nodeSelector, service
 * spec.selector).  Keys are unique; order is document order. */
struct labels {
	const struct label *items;
	int n;
};

/* ------------------------------------------------------------- quantities */

/* A resource.Quantity, exact: units + nanos/1e9, rounded up to 1e-9 at parse
 * as Kubernetes does.  Always non-negative after validation.
 * (reference §4) */
struct quantity {
	int64_t units;   /* whole part */
	int32_t nanos;   /* fractional part in 1e-9, 0..999999999 */
	/* Which of apimachinery's two representations ParseQuantity chose:
	 * QUANTITY_FORM_DEC (inf.Dec, also every internally made value), or
	 * int64Amount with scale go_form - QUANTITY_FORM_SCALE_BIAS.  Only
	 * what MilliValue / Value give for a sum past int64 depends on it
	 * (core/go_quantity.h). */
	uint8_t go_form;
};

#define QUANTITY_FORM_DEC 0
#define QUANTITY_FORM_SCALE_BIAS 64

/* Well-known resource indexes in cluster.res_names; every other name
 * (extended resources like nvidia.com/gpu, hugepages-2Mi) follows. */
enum {
	RES_CPU = 0,        /* "cpu", used as MilliValue */
	RES_MEMORY = 1,     /* "memory", used as Value (bytes) */
	RES_EPHEMERAL = 2,  /* "ephemeral-storage", Value */
	RES_PODS = 3,       /* "pods", only meaningful as allocatable */
	RES_FIRST_OTHER = 4
};

/* Resource classes as NodeResourcesFit sees names (reference §2.7). */
enum resource_class {
	RESCLASS_CPU,
	RESCLASS_MEMORY,
	RESCLASS_EPHEMERAL,
	RESCLASS_PODS,
	RESCLASS_SCALAR,   /* extended, hugepages-..., ...kubernetes.io/..., attachable-volumes-... */
	RESCLASS_IGNORED   /* any other name: not checked, not scored */
};

struct resource_quantity {
	int res;                /* index into cluster.res_names */
	struct quantity q;
};

/* A container's resources.requests / limits, or pod spec.overhead. */
struct resource_list {
	const struct resource_quantity *items;
	int n;
};

/* Node allocatable after conversion: cpu in millicores, the rest Value(). */
struct resource_value {
	int res;
	int64_t value;
};

struct resource_values {
	const struct resource_value *items;
	int n;
};

/* -------------------------------------------------------------- selectors */

enum selector_op {
	OP_IN,
	OP_NOT_IN,
	OP_EXISTS,
	OP_DOES_NOT_EXIST,
	OP_GT,             /* node selectors only */
	OP_LT              /* node selectors only */
};

/* One matchExpressions / matchFields entry. */
struct requirement {
	const char *key;
	enum selector_op op;
	const char *const *values;
	int n_values;
	int64_t int_value;   /* Gt/Lt: the single value parsed as int64 */
	bool invalid;        /* node selectors only: the API server accepts a
			      * value that is not a label value, or a Gt/Lt
			      * value that is not an integer, but the
			      * scheduler cannot parse it (reference §2.5) */
};

/* metav1.LabelSelector.  present=false is a nil selector (matches nothing);
 * present with no labels and no expressions is {} (matches everything). */
struct label_selector {
	bool present;
	struct labels match_labels;                 /* matchLabels */
	const struct requirement *exprs;            /* matchExpressions */
	int n_exprs;
};

/* core/v1 NodeSelectorTerm. */
struct node_selector_term {
	const struct requirement *exprs;    /* matchExpressions on node labels */
	int n_exprs;
	const struct requirement *fields;   /* matchFields; key metadata.name */
	int n_fields;
};

/* core/v1 NodeSelector (requiredDuringSchedulingIgnoredDuringExecution).
 * present=false when the field is absent (no constraint). */
struct node_selector {
	bool present;
	const struct node_selector_term *terms;   /* nodeSelectorTerms, ORed */
	int n_terms;
};

/* core/v1 PreferredSchedulingTerm. */
struct preferred_node_term {
	int32_t weight;                         /* 1..100 */
	struct node_selector_term preference;
};

/* --------------------------------------------------------- taints & tolerations */

enum taint_effect {
	EFFECT_ANY = 0,          /* empty effect: tolerations only, matches all */
	EFFECT_NO_SCHEDULE,
	EFFECT_PREFER_NO_SCHEDULE,
	EFFECT_NO_EXECUTE
};

struct taint {                 /* node spec.taints[] */
	const char *key;
	const char *value;         /* "" when absent */
	enum taint_effect effect;  /* never EFFECT_ANY */
};

enum toleration_op {
	TOL_EQUAL = 0,             /* "" defaults to Equal */
	TOL_EXISTS
};

struct toleration {            /* pod spec.tolerations[] */
	const char *key;           /* "" = every key (with Exists) */
	enum toleration_op op;
	const char *value;         /* "" when absent */
	enum taint_effect effect;  /* EFFECT_ANY when empty */
	bool has_seconds;          /* tolerationSeconds given (the scheduler */
	int64_t seconds;           /* never reads it; kso dump prints it) */
};

/* -------------------------------------------------------------- pod affinity */

/* core/v1 PodAffinityTerm. */
struct pod_affinity_term {
	struct label_selector selector;       /* labelSelector (nil: nothing) */
	const char *const *namespaces;        /* namespaces */
	int n_namespaces;
	struct label_selector ns_selector;    /* namespaceSelector (nil/{}/...) */
	const char *topology_key;             /* topologyKey, non-empty */
	const char *const *match_label_keys;  /* matchLabelKeys (gate off in v1.30) */
	int n_match_label_keys;
	const char *const *mismatch_label_keys;
	int n_mismatch_label_keys;
};

/* core/v1 WeightedPodAffinityTerm. */
struct weighted_pod_affinity_term {
	int32_t weight;                       /* 1..100 */
	struct pod_affinity_term term;
};

/* ------------------------------------------------------- topology spread */

struct spread_constraint {                   /* spec.topologySpreadConstraints[] */
	int32_t max_skew;                        /* >= 1 */
	const char *topology_key;
	bool do_not_schedule;                    /* whenUnsatisfiable == DoNotSchedule */
	struct label_selector selector;          /* labelSelector */
	int32_t min_domains;                     /* minDomains; 1 when unset */
	bool node_affinity_honor;                /* nodeAffinityPolicy, default Honor */
	bool node_taints_honor;                  /* nodeTaintsPolicy, default Ignore */
	const char *const *match_label_keys;     /* matchLabelKeys */
	int n_match_label_keys;
};

/* ------------------------------------------------------------ containers */

struct container_port {        /* containers[].ports[] */
	int32_t container_port;
	int32_t host_port;         /* 0 when absent */
	const char *protocol;      /* defaulted "TCP" */
	const char *host_ip;       /* "" when absent */
};

struct container {
	const char *name;
	const char *image;                 /* "" when absent */
	struct resource_list requests;     /* resources.requests, limits defaulted in */
	struct resource_list limits;       /* resources.limits */
	const struct container_port *ports;
	int n_ports;
	bool restart_always;               /* init container with restartPolicy: Always (sidecar) */
	const struct container_claim *claims;   /* resources.claims (DRA) */
	int n_claims;
};

/* metadata.ownerReferences[] */
struct owner_ref {
	const char *api_version;
	const char *kind;
	const char *name;
	const char *uid;           /* "" when absent */
	bool controller;
};

/* Where an object came from, for error messages and exports. */
struct source_pos {
	const char *file;
	int line;
	int col;
};

/* A timestamp as Unix seconds; has=false when the field is absent. */
struct timestamp {
	bool has;
	int64_t seconds;
};

/* ---------------------------------------------------------------- volumes */

/* The spec.volumes[] the volume plugins read: those backed by a
 * PersistentVolumeClaim (reference §2.12).  Other volume sources (emptyDir,
 * configMap, CSI inline, ...) never constrain placement in v1.30's default
 * profile and are not kept. */
struct pod_volume {
	const char *name;          /* volumes[].name */
	bool ephemeral;            /* ephemeral.volumeClaimTemplate: the claim
				    * is "<pod>-<volume>" (pod_volume_claim),
				    * made by the ephemeral volume controller */
	const char *claim;         /* persistentVolumeClaim.claimName; NULL
				    * when ephemeral (pods made from one
				    * template share this array) */
	struct source_pos pos;     /* where it is written, for messages */
	int index;                 /* its index in spec.volumes; -1 for a
				    * StatefulSet's claim template volume */
};

/* An in-tree disk volume of a pod, as VolumeRestrictions compares them
 * (isVolumeConflict): the same GCE PD, iSCSI IQN or RBD image (monitors
 * overlapping, same pool) unless both mount it read-only, or the same
 * EBS volume ID at all. */
enum pod_disk_kind {
	DISK_GCE_PD,               /* gcePersistentDisk.pdName */
	DISK_AWS_EBS,              /* awsElasticBlockStore.volumeID */
	DISK_ISCSI,                /* iscsi.iqn */
	DISK_RBD,                  /* rbd.image in rbd.pool on rbd.monitors */
	DISK_AZURE,                /* azureDisk.diskName (no conflict check:
				    * only AzureDiskLimits reads it) */
	DISK_CINDER,               /* cinder.volumeID (no conflict check, no
				    * in-tree limit: only NodeVolumeLimits
				    * counts it, migrated to CSI) */
	DISK_PORTWORX              /* portworxVolume.volumeID (no conflict
				    * check, no in-tree limit: v1.34's
				    * NodeVolumeLimits counts it, migrated to
				    * CSI where the CSINode says so) */
};

/* The volume source of each disk kind and its id field, as spec.volumes[]
 * and a PersistentVolumeSpec spell them (index: the kind). */
struct disk_source {
	const char *source, *id;
};
#define DISK_KINDS (DISK_PORTWORX + 1)
extern const struct disk_source disk_sources[DISK_KINDS];

struct pod_disk {
	const char *name;          /* volumes[].name */
	enum pod_disk_kind kind;
	const char *id;            /* pdName, volumeID, iqn or image */
	const char *pool;          /* rbd.pool (default "rbd"); "" otherwise */
	const char *uri;           /* azureDisk.diskURI; "" otherwise */
	const char *const *monitors;   /* rbd.monitors */
	int n_monitors;
	bool read_only;            /* readOnly */
};

/* PersistentVolumeAccessMode as a bit set. */
enum {
	ACCESS_RWO = 1,            /* ReadWriteOnce */
	ACCESS_ROX = 2,            /* ReadOnlyMany */
	ACCESS_RWX = 4,            /* ReadWriteMany */
	ACCESS_RWOP = 8            /* ReadWriteOncePod */
};

/* core/v1 PersistentVolumeClaim. */
struct pvc {
	struct source_pos pos;
	const char *ns;
	const char *name;
	const char *uid;                  /* metadata.uid, "" when absent */
	const struct owner_ref *owners;   /* metadata.ownerReferences */
	int n_owners;
	bool deleting;                    /* metadata.deletionTimestamp set */
	const char *class_name;           /* GetPersistentVolumeClaimClass: the
					   * beta storage-class annotation, else
					   * spec.storageClassName, else "" */
	bool has_class;                   /* either of them is set (not nil) */
	bool class_from_beta;             /* the beta annotation is present */
	const char *spec_class_name;      /* spec.storageClassName alone, "" */
	bool has_spec_class;              /* spec.storageClassName set: the
					   * in-tree limits' matchProvisioner
					   * reads only this one */
	const char *volume_name;          /* spec.volumeName, "" when unset */
	bool bind_completed;              /* annotation pv.kubernetes.io/bind-completed */
	const char *selected_node;        /* annotation volume.kubernetes.io/
					   * selected-node, NULL when absent */
	unsigned access_modes;            /* spec.accessModes, ACCESS_* bits */
	bool block;                       /* spec.volumeMode Block (default Filesystem) */
	const char *vac;                  /* spec.volumeAttributesClassName, ""
					   * when unset, and always in v1.30
					   * (gate off: the API server drops
					   * it); v1.34 (gate GA) binds the
					   * claim only to a PV of the same one */
	struct quantity request;          /* spec.resources.requests.storage */
	struct label_selector selector;   /* spec.selector (nil: any volume) */
	bool lost;                        /* status.phase Lost */
};

/* core/v1 PersistentVolume. */
struct pv {
	struct source_pos pos;
	const char *name;
	struct labels labels;
	bool deleting;                    /* metadata.deletionTimestamp set */
	const char *class_name;           /* beta annotation, else spec.storageClassName */
	unsigned access_modes;            /* ACCESS_* bits */
	bool block;                       /* spec.volumeMode Block */
	struct quantity capacity;         /* spec.capacity.storage */
	bool has_claim_ref;               /* spec.claimRef */
	const char *claim_ns, *claim_name, *claim_uid;
	struct node_selector node_affinity;   /* spec.nodeAffinity.required */
	bool available;                   /* status.phase Available (absent:
					   * what the PV controller makes of an
					   * unbound volume, Available) */
	const char *vac;                  /* spec.volumeAttributesClassName, v1.34
					   * only (a v1.30 API server drops it);
					   * "" when unset */
	const char *csi_driver;           /* spec.csi.driver, NULL if not CSI */
	const char *csi_handle;           /* spec.csi.volumeHandle */
	bool has_intree;                  /* an in-tree EBS, GCE PD, Azure Disk or
					   * Cinder source (kube migrates them to
					   * CSI; the in-tree limits count the
					   * first three) */
	enum pod_disk_kind intree;        /* DISK_AWS_EBS, DISK_GCE_PD, DISK_AZURE,
					   * DISK_CINDER, DISK_PORTWORX */
	const char *intree_id;            /* volumeID, pdName or diskName */
	const char *intree_uri;           /* azureDisk.diskURI; "" otherwise */
	/* With has_intree: the PV as csi-translation-lib translates it
	 * (csi_translate_pv_affinity), which VolumeBinding checks on a node
	 * whose CSINode says the plugin is migrated: its node affinity, or
	 * the translation's error (then csi_error is not NULL). */
	struct node_selector csi_affinity;
	const char *csi_error;
};

/* storage.k8s.io/v1 StorageClass. */
struct storage_class {
	struct source_pos pos;
	const char *name;
	const char *provisioner;
	bool wait_for_consumer;           /* volumeBindingMode WaitForFirstConsumer
					   * (default Immediate) */
	bool is_default;                  /* the is-default-class annotation */
	struct timestamp creation;
	/* allowedTopologies: each TopologySelectorTerm as a node selector
	 * term of In requirements (matchLabelExpressions); empty: anywhere */
	const struct node_selector_term *allowed_topologies;
	int n_allowed_topologies;
};

/* storage.k8s.io/v1 VolumeAttachment: a volume attached to a node, which
 * v1.34's NodeVolumeLimits counts when no pod on the node uses it (delta
 * §5.8, csi.go getNodeVolumeAttachmentInfo); v1.30 reads none. */
struct volume_attachment {
	struct source_pos pos;
	const char *name;
	const char *attacher;             /* spec.attacher (the CSI driver) */
	const char *node_name;            /* spec.nodeName */
	const char *pv_name;              /* spec.source.persistentVolumeName,
					   * NULL for an inlineVolumeSpec */
};

/* storage.k8s.io/v1 CSINode: spec.drivers[].allocatable.count. */
struct csi_driver_limit {
	const char *driver;               /* drivers[].name */
	bool has_count;                   /* allocatable.count given */
	int32_t count;
};

/* v1.MigratedPluginsAnnotationKey, on a CSINode. */
#define CSI_MIGRATED_PLUGINS "storage.alpha.kubernetes.io/migrated-plugins"

struct csi_node {
	struct source_pos pos;
	const char *name;                 /* the node's name */
	/* the CSI_MIGRATED_PLUGINS annotation: the in-tree plugins migrated
	 * to CSI on the node, comma-separated ("": none) */
	const char *migrated_plugins;
	const struct csi_driver_limit *drivers;
	int n_drivers;
};

/* storage.k8s.io/v1 CSIDriver: whether the driver opts into storage
 * capacity tracking. */
struct csi_driver {
	struct source_pos pos;
	const char *name;
	bool storage_capacity;            /* spec.storageCapacity (default false) */
};

/* storage.k8s.io/v1 CSIStorageCapacity: what a class can still provision
 * on the nodes its topology selects. */
struct csi_capacity {
	struct source_pos pos;
	const char *ns;
	const char *name;
	const char *class_name;           /* storageClassName */
	struct label_selector node_topology;   /* nodeTopology (nil: no node) */
	bool has_capacity;                /* capacity */
	struct quantity capacity;
	bool has_max_size;                /* maximumVolumeSize */
	struct quantity max_size;
};

#include "dra.h"

/* ------------------------------------------------------------------- pod */

struct pod {
	struct source_pos pos;
	const char *ns;                 /* metadata.namespace, default "default" */
	const char *name;               /* metadata.name */
	const char *uid;                /* metadata.uid, "" when absent */
	struct labels labels;           /* metadata.labels */
	const struct owner_ref *owners; /* metadata.ownerReferences */
	int n_owners;
	struct timestamp creation;      /* metadata.creationTimestamp */
	struct timestamp deletion;      /* metadata.deletionTimestamp */
	struct timestamp start_time;    /* status.startTime */
	const char *phase;              /* status.phase, "" when absent */
	bool created;                   /* made by the workload expansion
					 * (yaml/expand.c), not listed */
	bool preemption_target;         /* status.conditions: the first
					 * DisruptionTarget condition has status
					 * True and reason PreemptionByScheduler
					 * (the scheduler is evicting it, §3.1) */

	int32_t priority;               /* spec.priority (defaulted from the class) */
	const char *priority_class;     /* spec.priorityClassName, "" when none */
	bool preempt_never;             /* spec.preemptionPolicy == Never */
	const char *scheduler_name;     /* spec.schedulerName, default "default-scheduler" */
	const char *node_name;          /* spec.nodeName, "" when pending */
	const struct pod_volume *volumes;   /* spec.volumes that name a claim */
	int n_volumes;
	const struct pod_disk *disks;       /* spec.volumes that are in-tree disks */
	int n_disks;
	bool host_network;              /* spec.hostNetwork (its ports' hostPort
					 * defaulted to containerPort) */
	const char *nominated_node;     /* status.nominatedNodeName, "" when none */
	const char *const *gates;       /* spec.schedulingGates[].name */
	int n_gates;

	const struct container *containers;       /* spec.containers */
	int n_containers;
	const struct container *init_containers;  /* spec.initContainers */
	int n_init_containers;
	struct resource_list overhead;            /* spec.overhead */
	struct resource_list pod_requests;        /* spec.resources.requests, v1.34
						   * only (PodLevelResources): its
						   * cpu / memory / hugepages-*
						   * entries, defaulted from the
						   * pod-level limits */
	bool pod_requests_set;                    /* IsPodLevelRequestsSet */

	bool has_node_selector;                   /* spec.nodeSelector non-nil */
	struct labels node_selector;              /* spec.nodeSelector */
	struct node_selector node_affinity;       /* ...nodeAffinity.required... */
	const struct preferred_node_term *node_preferred;   /* ...nodeAffinity.preferred... */
	int n_node_preferred;
	bool has_node_preferred;                  /* the preferred field is non-nil */

	const struct pod_affinity_term *affinity;           /* podAffinity.required */
	int n_affinity;
	const struct weighted_pod_affinity_term *affinity_preferred;
	int n_affinity_preferred;
	const struct pod_affinity_term *anti_affinity;      /* podAntiAffinity.required */
	int n_anti_affinity;
	const struct weighted_pod_affinity_term *anti_affinity_preferred;
	int n_anti_affinity_preferred;

	const struct toleration *tolerations;     /* spec.tolerations */
	int n_tolerations;
	const struct spread_constraint *spread;   /* spec.topologySpreadConstraints */
	int n_spread;

	const struct pod_claim *claims;           /* spec.resourceClaims (DRA) */
	int n_claims;
	const struct pod_claim_status *claim_statuses;   /* status.resourceClaimStatuses */
	int n_claim_statuses;
	/* v1.34, pending: DynamicResources' PreEnqueue keeps it out of the
	 * queue - a claim not found, not created yet, being deleted or not
	 * the pod's (yaml/finish.c; claims are not created or deleted during
	 * a run, so it stays out) */
	bool dra_gated;
};

/* pod_port_container: the i-th of the pod's containers, i in [0,
 * n_init_containers + n_containers), init containers first, whose ports
 * NodePorts reads (GetHostPorts), or NULL for one it does not: v1.30 reads
 * the regular containers only; v1.34 (sidecars true, delta §5.5) also
 * the restartable init containers (sidecars). */
static inline const struct container *pod_port_container(const struct pod *p,
							  int i, bool sidecars)
{
	if (i >= p->n_init_containers)
		return &p->containers[i - p->n_init_containers];
	const struct container *k = &p->init_containers[i];
	return sidecars && k->restart_always ? k : NULL;
}

/* ------------------------------------------------------------------ node */

struct container_image {          /* status.images[] */
	const char *const *names;
	int n_names;
	int64_t size_bytes;
};

struct node {
	struct source_pos pos;
	const char *name;                  /* metadata.name */
	struct labels labels;              /* metadata.labels */
	const struct taint *taints;        /* spec.taints */
	int n_taints;
	bool unschedulable;                /* spec.unschedulable */
	struct resource_values allocatable;   /* status.allocatable, converted */
	const struct container_image *images; /* status.images */
	int n_images;
	bool ready;                        /* Ready condition status True (informational) */
};

/* -------------------------------------------------------- other objects */

struct namespace_obj {
	struct source_pos pos;
	const char *name;
	struct labels labels;   /* always has kubernetes.io/metadata.name */
	bool implicit;          /* named by a pod but not defined in a manifest */
};

struct priority_class {
	struct source_pos pos;
	const char *name;
	int32_t value;
	bool global_default;
	bool preempt_never;     /* preemptionPolicy: Never */
};

/* An int-or-percent (PDB minAvailable / maxUnavailable). */
struct int_or_percent {
	bool set;
	bool percent;
	int32_t value;
};

struct pdb {                           /* policy/v1 PodDisruptionBudget */
	struct source_pos pos;
	const char *ns;
	const char *name;
	struct label_selector selector;    /* spec.selector */
	struct int_or_percent min_available;
	struct int_or_percent max_unavailable;
	bool has_disruptions_allowed;      /* status.disruptionsAllowed given */
	int32_t disruptions_allowed;       /* status.disruptionsAllowed */
	const char *const *disrupted_pods; /* keys of status.disruptedPods */
	int n_disrupted_pods;
};

enum workload_kind {
	WORKLOAD_SERVICE,                  /* v1 Service: spec.selector map */
	WORKLOAD_REPLICATION_CONTROLLER,   /* v1 ReplicationController: spec.selector map */
	WORKLOAD_REPLICA_SET,              /* apps/v1 ReplicaSet: spec.selector LabelSelector */
	WORKLOAD_STATEFUL_SET              /* apps/v1 StatefulSet: spec.selector LabelSelector */
};

/* The objects default spreading reads their selector from. */
struct workload {
	struct source_pos pos;
	enum workload_kind kind;
	const char *ns;
	const char *name;
	bool has_map_selector;          /* Service / RC: selector is a map */
	struct labels map_selector;
	struct label_selector selector; /* RS / SS */
};

/* --scale NAMESPACE/KIND/NAME=N: what the workload expansion
 * (cluster.expand_workloads) makes of a controller's replicas. */
struct workload_scale {
	const char *arg;                /* as given, for messages */
	const char *ns, *kind, *name;   /* kind as the API names it: Deployment */
	int32_t replicas;
	bool used;                      /* the load found the controller */
	/* kso capacity --workload: replicas unused; the controller wants
	 * `more` replicas beyond its pods bound to a node (0: one more than
	 * the nodes have pod slots), every missing one at once (each copy is
	 * taken as Running and Ready once placed: a StatefulSet does not wait
	 * on OrderedReady); a Job's parallelism rises, its completions still
	 * bound it.  The expansion reports back below. */
	bool capacity;
	int32_t more;
	int *pods;                      /* out: the pods it claims, then those
					 * it creates (cluster pod indexes) */
	int n_pods;
	int n_bound;                    /* out: how many of them are bound */
	const char *limit;              /* out: why it creates fewer than
					 * asked (a Job's completions), or NULL */
};

#include "config.h"

/* ---------------------------------------------------------------- cluster */

/* Everything loaded from a set of manifests.  Owns its arena. */
struct cluster {
	struct arena arena;                /* owns every pointer below */

	struct node *nodes;                /* in manifest order */
	int n_nodes;
	struct pod *pods;                  /* every non-terminal pod, manifest order */
	int n_pods;
	struct namespace_obj *namespaces;
	int n_namespaces;
	struct priority_class *priority_classes;
	int n_priority_classes;
	struct pdb *pdbs;
	int n_pdbs;
	struct workload *workloads;
	int n_workloads;
	struct pvc *pvcs;                  /* PersistentVolumeClaims */
	int n_pvcs;
	struct pv *pvs;                    /* PersistentVolumes */
	int n_pvs;
	struct storage_class *classes;     /* StorageClasses */
	int n_classes;
	struct csi_node *csi_nodes;        /* CSINodes */
	int n_csi_nodes;
	struct csi_driver *csi_drivers;    /* CSIDrivers */
	int n_csi_drivers;
	struct csi_capacity *capacities;   /* CSIStorageCapacities */
	int n_capacities;
	struct device_class *device_classes;     /* resource.k8s.io/v1 (core/dra.h) */
	int n_device_classes;
	struct resource_slice *slices;
	int n_slices;
	struct resource_claim *claims;
	int n_claims;
	struct claim_template *claim_templates;
	int n_claim_templates;
	struct volume_attachment *attachments;   /* VolumeAttachments */
	int n_attachments;

	const char **res_names;            /* resource name by index (RES_*) */
	enum resource_class *res_class;    /* class of each resource name */
	int n_res;

	struct sched_config config;        /* KubeSchedulerConfiguration, or defaults */

	/* Load option, set before loading: the objects are taken as already
	 * admitted (as `kubectl get -o yaml` prints them), so the loader does
	 * not emulate the admission plugins (Priority, DefaultTolerationSeconds;
	 * yaml/finish.c): spec.priority is used as given.  Off by default. */
	bool no_admission;
	/* Load option: --extension SelectorSpread.  v1.30's plugin registry
	 * has no SelectorSpread (reference §6), so a configuration naming it
	 * is refused unless this kso extension (seed 001) is asked for. */
	bool ext_selector_spread;
	/* Load option: no unknown-field warnings (yaml/fields.h).  Set by the
	 * enumerator for the scenarios it builds: clones of manifests already
	 * loaded, whose warnings nobody reads, thousands of times a run. */
	bool no_field_check;
	/* Load option: several pods may share a namespace and name.  kso
	 * check loads each version of a pod its log shows that matters to
	 * the scheduler as a pod of its own, only one of them present (the
	 * others SNAP_GONE) at any point of the log. */
	bool allow_duplicate_pods;
	/* Load option: workload controllers (Deployment, ReplicaSet,
	 * ReplicationController, StatefulSet, Job, DaemonSet) are expanded
	 * into the pending pods their controllers would create
	 * (yaml/expand.c), with scales[] applied.  Off by default: the
	 * commands that read a user's cluster turn it on (--no-expand). */
	bool expand_workloads;
	struct workload_scale *scales;     /* the caller's; --scale */
	int n_scales;

	/* Suspicious but valid input the loader noticed, one line each in
	 * the error format with "warning: " before the text (arena
	 * strings); the command prints them after loading. */
	const char **warnings;
	int n_warnings, cap_warnings;
	/* What the loader did that a user may want to know but need not
	 * act on (a file a directory walk skipped), printed under -v. */
	const char **notes;
	int n_notes, cap_notes;
	/* Objects that make pods the workload expansion does not create
	 * ("CronJob ops/cleanup": a CronJob's Jobs are made on a schedule),
	 * for kso validate's summary.  Arena strings, load order. */
	const char **unexpanded;
	int n_unexpanded, cap_unexpanded;
	/* The kind of each object skipped as nothing the scheduler reads
	 * (ConfigMap, CronJob, Kustomization ...), load order; -v prints
	 * them counted by kind, one line. */
	const char **skipped;
	int n_skipped, cap_skipped;

	/* Open-addressing hash indexes by name, rebuilt by cluster_reindex();
	 * slot value = object index + 1, 0 = empty.  Look-ups fall back to a
	 * linear scan while an index is stale (built for fewer objects). */
	int32_t *node_slots;               /* node name -> node */
	int node_slots_cap;                /* power of two, or 0 */
	int node_slots_n;                  /* n_nodes when built */
	int32_t *pod_slots;                /* (namespace, name) -> pod */
	int pod_slots_cap;
	int pod_slots_n;
	/* The pods with a required anti-affinity term, in pod order: the
	 * only pods InterPodAffinity's ExistingAnti can find (kube keeps the
	 * same list per NodeInfo, PodsWithRequiredAntiAffinity).  Rebuilt by
	 * cluster_reindex(); stale (readers scan every pod) while
	 * anti_pods_of != n_pods. */
	int32_t *anti_pods;
	int n_anti_pods;
	int anti_pods_of;
};

/* cluster_init: empty cluster with default configuration; pair with
 * cluster_release(). */
void cluster_init(struct cluster *c);

/* cluster_init_config: cluster_init with a copy of config instead of the
 * default configuration (config's pointers must outlive c); profiles past
 * config->n_profiles are not copied (left undefined). */
void cluster_init_config(struct cluster *c, const struct sched_config *config);

/* cluster_release: frees everything the cluster owns. */
void cluster_release(struct cluster *c);

/* cluster_warn: appends a formatted warning (the arena owns it). */
void cluster_warn(struct cluster *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* cluster_unexpanded: records an object whose pods kso does not make
 * ("KIND NS/NAME"; the arena owns it). */
void cluster_unexpanded(struct cluster *c, const char *kind, const char *ns,
			const char *name);

/* cluster_skipped: records an object of a kind the loader skips (the
 * arena owns the copy). */
void cluster_skipped(struct cluster *c, const char *kind);

/* cluster_note: appends a formatted note (the arena owns it). */
void cluster_note(struct cluster *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* cluster_reindex: (re)builds the name indexes (and anti_pods) after
 * objects were added;
 * the loader calls it at the end of every load.  Memory from the arena. */
void cluster_reindex(struct cluster *c);

/* labels_get: the value of key in ls, or NULL when absent. */
const char *labels_get(const struct labels *ls, const char *key);

/* cluster_find_node / cluster_find_pod / cluster_find_namespace: index or -1. */
int cluster_find_node(const struct cluster *c, const char *name);
int cluster_find_pod(const struct cluster *c, const char *ns, const char *name);
int cluster_find_namespace(const struct cluster *c, const char *name);

/* cluster_pod_key: writes pod p's "namespace/name" (kubectl's and kube's
 * key for a pod) into buf of len bytes, truncating; returns buf. */
const char *cluster_pod_key(const struct cluster *c, int p, char *buf, size_t len);

/* cluster_find_pod_key: the pod whose key ("namespace/name", as
 * cluster_pod_key writes it) is key, or -1 (also when key has no '/'). */
int cluster_find_pod_key(const struct cluster *c, const char *key);

/* cluster_node_list / cluster_pod_list: the names of nodes v[0..n) (pods:
 * their "namespace/name"), comma-separated, into buf of len bytes,
 * truncated to fit; return buf. */
const char *cluster_node_list(const struct cluster *c, const int *v, int n,
			      char *buf, size_t len);
const char *cluster_pod_list(const struct cluster *c, const int *v, int n,
			     char *buf, size_t len);

/* cluster_find_pvc / cluster_find_pv / cluster_find_class /
 * cluster_find_csi_node: the object's index by its name (a claim: in
 * namespace ns), or -1 (the listers' NotFound).  Linear: only pods with
 * claims look them up. */
int cluster_find_pvc(const struct cluster *c, const char *ns, const char *name);
int cluster_find_pv(const struct cluster *c, const char *name);
int cluster_find_class(const struct cluster *c, const char *name);
int cluster_find_csi_node(const struct cluster *c, const char *name);
int cluster_find_csi_driver(const struct cluster *c, const char *name);

/* pod_volume_claim: the name of the claim behind volume v of pod p:
 * claimName, or for a generic ephemeral volume "<pod>-<volume>"
 * (ephemeral.VolumeClaimName), written into buf of len bytes when it has
 * to be built.  Returns the name. */
const char *pod_volume_claim(const struct pod *p, const struct pod_volume *v,
			     char *buf, size_t len);

/* pod_controlled_by: metav1.IsControlledBy(obj, pod): obj's controller
 * owner reference has the pod's uid (an ephemeral claim must be owned by
 * its pod). */
bool pod_controlled_by(const struct pod *p, const struct owner_ref *owners,
		       int n_owners);

/* cluster_res_index: index of resource name, or -1 if no object uses it. */
int cluster_res_index(const struct cluster *c, const char *name);

/* quantity helpers (reference §4): MilliValue and Value round up. Return 0
 * on success, -1 when the result does not fit in int64. */
int quantity_milli(struct quantity q, int64_t *out);
int quantity_value(struct quantity q, int64_t *out);
/* quantity_add: exact sum; -1 on overflow. */
int quantity_add(struct quantity a, struct quantity b, struct quantity *out);
/* quantity_cmp: <0, 0, >0. */
int quantity_cmp(struct quantity a, struct quantity b);

/* resource_list_get: the quantity for res in l, found=false when absent. */
struct quantity resource_list_get(const struct resource_list *l, int res,
				  bool *found);
/* pod_same_requests: a and b have equal requests lists (containers, init
 * containers and their restartPolicy Always, pod level, overhead), so
 * PodRequests, NonZeroRequested and the scorers' request give both the
 * same values (core/same_requests.c). */
bool pod_same_requests(const struct pod *a, const struct pod *b);
/* resource_values_get: allocatable value for res, found=false when absent. */
int64_t resource_values_get(const struct resource_values *v, int res,
			    bool *found);

#endif
