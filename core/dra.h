/*
 * dra.h - the resource.k8s.io/v1 objects of Dynamic Resource Allocation
 * (kube v1.34, k8s.io/api/resource/v1) as the DynamicResources plugin and
 * the structured allocator read them: DeviceClass, ResourceSlice,
 * ResourceClaim and ResourceClaimTemplate, validated and defaulted by the
 * loader as the API server does (yaml/decode_dra.c).  Fields behind the
 * feature gates v1.34 has off (device taints and tolerations, partitionable
 * devices, consumable capacity, binding conditions, extended resources) are
 * dropped by the API server, and so by the loader (with a warning).
 * Included by objects.h; all memory belongs to the cluster's arena.
 */
#ifndef KSO_DRA_H
#define KSO_DRA_H

#include <stdbool.h>
#include <stdint.h>

/* core/cel.h; pointers only here, so objects.h need not include it */
struct cel_attr;
struct cel_capacity;
struct cel_program;

/* A DeviceSelector: its CEL expression, compiled at load. */
struct device_selector {
	const char *expression;           /* cel.expression */
	const struct cel_program *program;
};

/* An opaque DeviceConfiguration (kept for kso dump; the scheduler does
 * not read it): the driver and the requests it applies to. */
struct device_config {
	const char *driver;               /* opaque.driver */
	const char *const *requests;      /* requests (claims only) */
	int n_requests;
};

/* DeviceClass. */
struct device_class {
	struct source_pos pos;
	const char *name;
	const struct device_selector *selectors;
	int n_selectors;
	const struct device_config *config;
	int n_config;
};

/* A device of a ResourceSlice: attributes and capacity by qualified name
 * (in the slice's driver domain when unqualified), as the CEL environment
 * reads them. */
struct device {
	const char *name;
	const struct cel_attr *attrs;
	int n_attrs;
	const struct cel_capacity *caps;
	int n_caps;
};

/* ResourceSlice. */
struct resource_slice {
	struct source_pos pos;
	const char *name;
	const char *driver;               /* spec.driver */
	const char *pool;                 /* spec.pool.name */
	int64_t generation;               /* spec.pool.generation */
	int64_t slice_count;              /* spec.pool.resourceSliceCount (> 0) */
	/* exactly one of the three: */
	const char *node_name;            /* spec.nodeName, or NULL */
	struct node_selector node_selector;   /* spec.nodeSelector (one term) */
	bool all_nodes;                   /* spec.allNodes */
	const struct device *devices;
	int n_devices;
};

/* A DeviceRequest (exactly) or one of its firstAvailable subrequests. */
struct device_request {
	const char *name;
	const char *class_name;           /* deviceClassName; NULL for a
					   * request with first_available */
	const struct device_selector *selectors;
	int n_selectors;
	bool all;                         /* allocationMode All (default
					   * ExactCount) */
	int64_t count;                    /* ExactCount: count, default 1 */
	bool admin_access;                /* adminAccess */
	const struct device_request *first_available;   /* the prioritized */
	int n_first_available;            /* list; 0 with exactly */
};

/* A DeviceConstraint: matchAttribute over requests (all when none). */
struct device_constraint {
	const char *const *requests;
	int n_requests;
	const char *match_attribute;      /* a fully qualified name */
};

/* ResourceClaimSpec (spec.devices). */
struct claim_spec {
	const struct device_request *requests;
	int n_requests;
	const struct device_constraint *constraints;
	int n_constraints;
	const struct device_config *config;
	int n_config;
};

/* status.allocation.devices.results[]. */
struct device_result {
	const char *request;              /* "request" or "request/subrequest" */
	const char *driver;
	const char *pool;
	const char *device;
	bool admin_access;
};

/* status.reservedFor[]. */
struct claim_consumer {
	const char *api_group;            /* "" for core */
	const char *resource;             /* "pods" */
	const char *name;
	const char *uid;
};

/* ResourceClaim. */
struct resource_claim {
	struct source_pos pos;
	const char *ns;
	const char *name;
	const char *uid;                  /* "" when absent */
	const struct owner_ref *owners;   /* a template claim: its pod */
	int n_owners;
	/* metadata.annotations[resource.kubernetes.io/pod-claim-name]: the
	 * pod's claim entry the resourceclaim controller made it for, or
	 * NULL */
	const char *pod_claim_name;
	bool deleting;                    /* metadata.deletionTimestamp set */
	struct claim_spec spec;
	bool allocated;                   /* status.allocation set */
	const struct device_result *results;
	int n_results;
	struct node_selector alloc_nodes; /* status.allocation.nodeSelector */
	const struct claim_consumer *reserved_for;
	int n_reserved_for;
};

/* ResourceClaimTemplate. */
struct claim_template {
	struct source_pos pos;
	const char *ns;
	const char *name;
	struct labels labels;             /* spec.metadata.labels */
	struct claim_spec spec;           /* spec.spec */
};

/* A pod's spec.resourceClaims[]: exactly one source. */
struct pod_claim {
	const char *name;
	const char *claim_name;           /* resourceClaimName, or NULL */
	const char *template_name;        /* resourceClaimTemplateName, or NULL */
};

/* A pod's status.resourceClaimStatuses[]: the claim generated for a
 * template (claim_name NULL: none is needed). */
struct pod_claim_status {
	const char *name;
	const char *claim_name;
};

/* A container's resources.claims[]. */
struct container_claim {
	const char *name;
	const char *request;              /* "" when absent */
};

#endif
