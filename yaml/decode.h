/*
 * decode.h - internal interface of the manifest decoders (yaml/decode_*.c,
 * load.c, finish.c).  Not for use outside yaml/.
 *
 * A struct yaml_dec carries one load in progress: the cluster being filled,
 * the error to report, the file being read and the field path of the value
 * being decoded ("spec.containers[0].resources.requests.cpu"), so every
 * error is "FILE:LINE:COL: what is wrong (field.path)".  Decoded objects
 * are collected in malloc'ed vectors and copied into the cluster's arena
 * when the whole load succeeded (yaml_dec_commit); everything they point to
 * is allocated from the cluster's arena directly.
 *
 * Every decoder returns 0, or -1 with d->err set.
 */
#ifndef KSO_YAML_DECODE_H
#define KSO_YAML_DECODE_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include "../core/error.h"
#include "../core/objects.h"
#include "index.h"
#include "timestamp.h"
#include "tree.h"
#include "vec.h"

#define YAML_PATH_MAX 512

/* What the finishing pass needs about a decoded pod that struct pod cannot
 * hold: whether spec.priority / spec.preemptionPolicy were given (the
 * priority admission plugin refuses a value that disagrees with the class)
 * and where, for the error. */
struct yaml_pod_extra {
	bool has_priority;
	int32_t priority;
	struct source_pos priority_pos;
	bool has_preempt;
	bool preempt_never;
	struct source_pos preempt_pos;
	struct source_pos class_pos;       /* spec.priorityClassName value */
	const char *prefix;                /* "" or "items[3]." inside a List */
	const char *tmpl_of;               /* a controller's template: "the
					    * pods of Deployment" and the like
					    * (warnings name them), else NULL */
	bool ready;                        /* status.conditions Ready is True
					    * (a StatefulSet's OrderedReady
					    * waits for it, yaml/expand.c) */
};

/* The workload controllers whose pods yaml/expand.c creates. */
enum yaml_ctrl_kind {
	CTRL_REPLICATION_CONTROLLER,
	CTRL_REPLICA_SET,
	CTRL_DEPLOYMENT,
	CTRL_STATEFUL_SET,
	CTRL_JOB,
	CTRL_DAEMON_SET
};

/* One controller as its v1.30 controller reads it: what it selects, how
 * many pods it wants and the pod template (decoded like a pod, with the
 * template's positions, so the pods made from it are errors and warnings
 * at the template). */
struct yaml_controller {
	enum yaml_ctrl_kind kind;
	struct source_pos pos;
	const char *ns, *name, *uid;
	const char *prefix;                /* "" or "items[3]." inside a List */
	bool map_selector;                 /* RC: selector is map_sel */
	struct labels map_sel;
	struct label_selector selector;    /* the others (Job: may be absent) */
	int32_t replicas;                  /* spec.replicas, default 1 */
	bool has_template;                 /* spec.template given */
	struct pod tmpl;                   /* spec.template as a pod */
	struct yaml_pod_extra tmpl_x;
	const struct owner_ref *owners;    /* metadata.ownerReferences */
	int n_owners;
	int64_t revision;                  /* RS: deployment.kubernetes.io/revision */
	uint64_t tmpl_hash;                /* spec.template's text, its
					    * pod-template-hash label left out
					    * (kube's EqualIgnoreHash) */
	const char *hash;                  /* RS: pod-template-hash; SS/DS:
					    * controller-revision-hash; or "" */
	const char *generation;            /* DS: deprecated.daemonset.
					    * template.generation, or "" */
	/* StatefulSet */
	int32_t ordinal_start;             /* spec.ordinals.start */
	bool parallel;                     /* podManagementPolicy Parallel */
	const struct pvc *claim_tmpls;     /* spec.volumeClaimTemplates */
	int n_claim_tmpls;
	/* Job */
	int32_t parallelism, completions;  /* completions -1: unset */
	bool indexed, suspended, finished;
	int32_t succeeded;                 /* status.succeeded */
	const char *completed_indexes;     /* status.completedIndexes, or "" */
};

struct yaml_dec {
	struct cluster *c;
	struct arena *a;               /* &c->arena */
	struct error *err;
	const char *file;              /* current file name, in the arena */

	/* objects decoded by this load, copied into c on success */
	struct yaml_vec nodes;         /* struct node */
	struct yaml_vec pods;          /* struct pod */
	struct yaml_vec pod_extra;     /* struct yaml_pod_extra, parallel to pods */
	struct yaml_vec namespaces;    /* struct namespace_obj (explicit only) */
	struct yaml_vec pcs;           /* struct priority_class */
	struct yaml_vec pdbs;          /* struct pdb */
	struct yaml_vec workloads;     /* struct workload */
	struct yaml_vec controllers;   /* struct yaml_controller */
	struct yaml_vec pvcs;          /* struct pvc */
	struct yaml_vec pvs;           /* struct pv */
	struct yaml_vec classes;       /* struct storage_class */
	struct yaml_vec csi_nodes;     /* struct csi_node */
	struct yaml_vec csi_drivers;   /* struct csi_driver */
	struct yaml_vec capacities;    /* struct csi_capacity */
	struct yaml_vec device_classes;   /* struct device_class */
	struct yaml_vec slices;        /* struct resource_slice */
	struct yaml_vec claims;        /* struct resource_claim */
	struct yaml_vec claim_templates;  /* struct claim_template */
	struct yaml_vec attachments;   /* struct volume_attachment */
	bool in_dump;                  /* reading a kso dump: its pods are the
					* expanded ones already */
	bool scheduler_parser;         /* node selectors read as the scheduler's
					* parser (nodeaffinity.NewNodeSelector)
					* reads a profile's addedAffinity, not
					* as the API server validates a pod's */
	struct yaml_index index;       /* identities, for duplicates */

	size_t depth;                  /* entered, possibly > YAML_PATH_MAX */
	/* field path of the current value, as the keys and indexes entered
	 * (rendered by yd_path only when an error or a List item needs the
	 * text: the decoders enter a field for every value they read).  A
	 * key points into the tree or a literal, alive while entered.  Only
	 * the first YAML_PATH_MAX are kept: every later one starts with '.'
	 * or '[', so the rendered path is full before them. */
	struct yd_seg {
		const char *key;       /* NULL: "[index]" */
		int index;
	} seg[YAML_PATH_MAX];
};

/* ---------------------------------------------------------- load.c */

/* yaml_dec_init: a load into c reporting to err; indexes the objects c
 * already holds so duplicates across loads are found.  Pair with
 * yaml_dec_release(). */
void yaml_dec_init(struct yaml_dec *d, struct cluster *c, struct error *err);
void yaml_dec_release(struct yaml_dec *d);

/* yaml_dec_commit: runs the finishing pass and appends the decoded objects
 * to the cluster.  0, or -1 with d->err set (cluster unchanged then). */
int yaml_dec_commit(struct yaml_dec *d);

/* yaml_decode_docs: every document of a parsed file. */
int yaml_decode_docs(struct yaml_dec *d, const struct ydoc_set *set);

/* --------------------------------------------------- decode_scalar.c */

/* Field path: yd_enter/yd_index append ".key" / "[i]" and return the
 * previous depth, which yd_leave restores.  key is borrowed until left. */
static inline size_t yd_enter(struct yaml_dec *d, const char *key)
{
	assert(d && key);
	size_t mark = d->depth++;
	if (mark < YAML_PATH_MAX)
		d->seg[mark] = (struct yd_seg){key, 0};
	return mark;
}

static inline size_t yd_index(struct yaml_dec *d, int i)
{
	assert(d);
	size_t mark = d->depth++;
	if (mark < YAML_PATH_MAX)
		d->seg[mark] = (struct yd_seg){NULL, i};
	return mark;
}

static inline void yd_leave(struct yaml_dec *d, size_t mark)
{
	assert(d && mark <= d->depth);
	d->depth = mark;
}

/* yd_path: the field path as text into out[YAML_PATH_MAX], "" at the
 * top, truncated to YAML_PATH_MAX - 1 bytes as snprintf would; returns
 * its length. */
size_t yd_path(const struct yaml_dec *d, char out[YAML_PATH_MAX]);

/* yd_fail: records "FILE:LINE:COL: MESSAGE (path)" at node n (n may be NULL:
 * then line 0); returns -1. */
int yd_fail(struct yaml_dec *d, const struct ynode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* yd_fail_key: as yd_fail with ".key" appended to the path. */
int yd_fail_key(struct yaml_dec *d, const struct ynode *n, const char *key,
		const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* yd_get: value of key in map m, NULL when m is NULL, the key is absent or
 * the value is null ("", ~, null), which Kubernetes reads as unset. */
static inline const struct ynode *yd_get(const struct ynode *m,
					 const char *key)
{
	const struct ynode *v = ynode_get(m, key);
	if (!v || ynode_is_null(v))
		return NULL;
	return v;
}

/* yd_kind_name: "a map", "a list" or "a string" for messages. */
const char *yd_kind_name(const struct ynode *n);

/* Type checks of a present value (n non-NULL); the path must already name
 * n.  -1 with "expected a map, got a list" etc. */
int yd_want_map(struct yaml_dec *d, const struct ynode *n);
int yd_want_seq(struct yaml_dec *d, const struct ynode *n);

/* Scalars under key of map m.  Absent/null leaves the default given by the
 * caller untouched (and *has = false when has is given).  Errors name the
 * path plus key.  Strings are copied into the arena. */
int yd_str(struct yaml_dec *d, const struct ynode *m, const char *key,
	   const char **out);
int yd_int32(struct yaml_dec *d, const struct ynode *m, const char *key,
	     int32_t *out, bool *has);
int yd_int64(struct yaml_dec *d, const struct ynode *m, const char *key,
	     int64_t *out, bool *has);
int yd_bool(struct yaml_dec *d, const struct ynode *m, const char *key,
	    bool *out);

/* yd_scalar_str: n must be a string scalar (a plain scalar YAML 1.1 reads
 * as a number or boolean is refused, as Kubernetes' decoding does); copies
 * it into the arena.  null reads as "". */
int yd_scalar_str(struct yaml_dec *d, const struct ynode *n, const char **out);
/* yd_scalar_text: any scalar's text (map keys, which the YAML-to-JSON step
 * turns into strings, and quantities, which accept numbers). */
int yd_scalar_text(struct yaml_dec *d, const struct ynode *n, const char **out);
/* yd_scalar_int64: n must be a plain (unquoted) integer scalar. */
int yd_scalar_int64(struct yaml_dec *d, const struct ynode *n, int64_t *out);

/* yd_str_list: a list of strings (e.g. namespaces, matchLabelKeys). */
int yd_str_list(struct yaml_dec *d, const struct ynode *m, const char *key,
		const char *const **out, int *n);

/* yd_pos: the source position of n in the current file. */
struct source_pos yd_pos(const struct yaml_dec *d, const struct ynode *n);

/* ------------------------------------------------------ resources.c */

/* yaml_res_class: the class of a resource name (reference §2.7). */
enum resource_class yaml_res_class(const char *name);

/* yaml_res_intern: index of name in c->res_names, appended when new. */
int yaml_res_intern(struct cluster *c, const char *name);

/* yaml_decode_resource_list: a map name -> quantity (requests, limits,
 * overhead).  Each value must parse and convert to int64 (cpu as milli,
 * others as Value). */
int yaml_decode_resource_list(struct yaml_dec *d, const struct ynode *m,
			      struct resource_list *out);

/* yaml_decode_resource_values: node allocatable: cpu -> milli, others ->
 * Value. */
int yaml_decode_resource_values(struct yaml_dec *d, const struct ynode *m,
				struct resource_values *out);

/* ---------------------------------------------------- decode_meta.c */

enum yaml_name_rule {
	NAME_DNS_SUBDOMAIN,   /* most objects */
	NAME_DNS_LABEL,       /* Namespace */
	NAME_DNS1035_LABEL    /* Service */
};

struct yaml_meta {
	const char *name;
	const char *ns;                  /* "default" when namespaced and unset */
	const struct ynode *ns_node;     /* metadata.namespace value, or NULL */
	const char *uid;
	struct labels labels;
	const struct owner_ref *owners;
	int n_owners;
	struct timestamp creation, deletion;
	const struct ynode *name_node;   /* for duplicate reports */
};

/* yaml_decode_meta: metadata of obj.  name is required and must follow
 * rule; namespace is read only when namespaced. */
int yaml_decode_meta(struct yaml_dec *d, const struct ynode *obj,
		     bool namespaced, enum yaml_name_rule rule,
		     struct yaml_meta *out);

/* yaml_check_duplicate: records (kind, ns, name) of an object starting at
 * obj; a second definition is "duplicate KIND NS/NAME (first defined at
 * FILE:LINE)" at its metadata.name. */
int yaml_check_duplicate(struct yaml_dec *d, const char *kind,
			 const struct yaml_meta *m, const struct ynode *obj);

/* yaml_decode_timestamp: an RFC 3339 timestamp under key of m. */
int yaml_decode_timestamp(struct yaml_dec *d, const struct ynode *m,
			  const char *key, struct timestamp *out);

/* ------------------------------------------------ decode_selector.c */

/* yaml_decode_labels: a map[string]string (labels, nodeSelector, Service
 * selector); keys must be valid label keys, values valid label values.
 * *present tells a non-nil map from an absent one (present may be NULL). */
int yaml_decode_labels(struct yaml_dec *d, const struct ynode *m,
		       struct labels *out, bool *present);

/* yaml_decode_label_selector: metav1.LabelSelector (n NULL: nil). */
int yaml_decode_label_selector(struct yaml_dec *d, const struct ynode *n,
			       struct label_selector *out);

/* yaml_decode_node_selector: core/v1 NodeSelector (n NULL: absent). */
int yaml_decode_node_selector(struct yaml_dec *d, const struct ynode *n,
			      struct node_selector *out);

/* yaml_decode_preferred_terms: []PreferredSchedulingTerm. */
int yaml_decode_preferred_terms(struct yaml_dec *d, const struct ynode *seq,
				const struct preferred_node_term **out, int *n);

/* yaml_decode_affinity_terms / yaml_decode_weighted_terms:
 * []PodAffinityTerm and []WeightedPodAffinityTerm. */
int yaml_decode_affinity_terms(struct yaml_dec *d, const struct ynode *seq,
			       const struct pod_affinity_term **out, int *n);
int yaml_decode_weighted_terms(struct yaml_dec *d, const struct ynode *seq,
			       const struct weighted_pod_affinity_term **out,
			       int *n);

/* yaml_check_label_key / yaml_check_label_value: validity of a key or value
 * held by node at (for the position). */
int yaml_check_label_key(struct yaml_dec *d, const struct ynode *at,
			 const char *key);
int yaml_check_label_value(struct yaml_dec *d, const struct ynode *at,
			   const char *value);

/* ------------------------------------- decode_container.c, decode_scheduling.c */

/* yaml_decode_containers: spec.containers (init=false) or
 * spec.initContainers (init=true) of the pod spec map; requests defaulted
 * from limits. */
int yaml_decode_containers(struct yaml_dec *d, const struct ynode *spec,
			   bool init, const struct container **out, int *n);

/* yaml_decode_tolerations / yaml_decode_taints / yaml_decode_spread /
 * yaml_decode_affinity: the scheduling fields of a pod or node spec map
 * (validated and defaulted as the API server does). */
int yaml_decode_tolerations(struct yaml_dec *d, const struct ynode *spec,
			    struct pod *p);
int yaml_decode_taints(struct yaml_dec *d, const struct ynode *spec,
		       struct node *n);
int yaml_decode_spread(struct yaml_dec *d, const struct ynode *spec,
		       struct pod *p);
int yaml_decode_affinity(struct yaml_dec *d, const struct ynode *spec,
			 struct pod *p);

/* yaml_decode_pod_level_resources (pod_resources.c): spec.resources of
 * p under v1.34 (PodLevelResources) into p->pod_requests, defaulted; 0,
 * or -1 with the error. */
int yaml_decode_pod_level_resources(struct yaml_dec *d, const struct ynode *spec,
				    struct pod *p);

/* yaml_apply_resize_status (pod_resources.c): under v1.34, for a bound p,
 * the status resources (in-place resize) of p's containers and sidecars
 * written into their requests as PodRequests reads them; 0, or -1 with
 * the error.  st: the pod's status (may be NULL). */
int yaml_apply_resize_status(struct yaml_dec *d, const struct ynode *st,
			     struct pod *p);

/* yaml_apply_affinity_label_keys (label_keys.c): the API server's merge
 * of p's (anti-)affinity matchLabelKeys / mismatchLabelKeys into the
 * terms' selectors under v1.34 (c->config.kube_version), a warning per
 * such field under v1.30; p's labels and affinity decoded from spec, the
 * decoder's path at spec. */
void yaml_apply_affinity_label_keys(struct yaml_dec *d, const struct ynode *spec,
				    struct pod *p);

/* ------------------------------------------------- per-kind decoders */

/* Each decodes one object of its kind (obj is the object's map) into the
 * load's vectors.  path_prefix is "" or "items[3]." for List items. */
int yaml_decode_pod(struct yaml_dec *d, const struct ynode *obj);
int yaml_decode_node(struct yaml_dec *d, const struct ynode *obj);
int yaml_decode_namespace(struct yaml_dec *d, const struct ynode *obj);
int yaml_decode_priority_class(struct yaml_dec *d, const struct ynode *obj);
int yaml_decode_pdb(struct yaml_dec *d, const struct ynode *obj);
/* decode_storage.c */
int yaml_decode_pvc(struct yaml_dec *d, const struct ynode *obj);
int yaml_decode_pv(struct yaml_dec *d, const struct ynode *obj);
int yaml_decode_storage_class(struct yaml_dec *d, const struct ynode *obj);
int yaml_decode_csi_node(struct yaml_dec *d, const struct ynode *obj);
int yaml_decode_csi_driver(struct yaml_dec *d, const struct ynode *obj);
int yaml_decode_csi_capacity(struct yaml_dec *d, const struct ynode *obj);
int yaml_decode_volume_attachment(struct yaml_dec *d, const struct ynode *obj);
/* yaml_decode_claim_template: one StatefulSet volumeClaimTemplates[] item
 * (metadata.name and a claim spec) into out, name and namespace left to
 * the claims the controller makes from it. */
int yaml_decode_claim_template(struct yaml_dec *d, const struct ynode *t,
			       struct pvc *out);
/* decode_dra.c: resource.k8s.io/v1 (core/dra.h) */
int yaml_decode_device_class(struct yaml_dec *d, const struct ynode *obj);
int yaml_decode_resource_slice(struct yaml_dec *d, const struct ynode *obj);
int yaml_decode_resource_claim(struct yaml_dec *d, const struct ynode *obj);
int yaml_decode_claim_template_dra(struct yaml_dec *d, const struct ynode *obj);
/* yaml_decode_pod_claims: spec.resourceClaims and
 * status.resourceClaimStatuses of pod object obj into p (after its
 * containers, whose resources.claims must name its claims). */
int yaml_decode_pod_claims(struct yaml_dec *d, const struct ynode *obj, struct pod *p);
/* yaml_decode_container_claims: resources.claims of a container (res is
 * its resources map). */
int yaml_decode_container_claims(struct yaml_dec *d, const struct ynode *res,
				 struct container *c);
/* yaml_have_claim: claim ns/name is in the cluster or in this load
 * (finish.c). */
bool yaml_have_claim(const struct yaml_dec *d, const char *ns, const char *name);
int yaml_decode_workload(struct yaml_dec *d, const struct ynode *obj,
			 enum workload_kind kind);
/* yaml_decode_controller: a Deployment, Job or DaemonSet (kinds read only
 * for the pods they create), or the controller part of an RC, ReplicaSet
 * or StatefulSet (after yaml_decode_workload read its selector). */
int yaml_decode_controller(struct yaml_dec *d, const struct ynode *obj,
			   enum yaml_ctrl_kind kind);

/* yaml_decode_pod_template: spec.template of a controller (tmpl the
 * template's map) into p and x, as a pod of namespace ns would be; its
 * labels are the template's. */
int yaml_decode_pod_template(struct yaml_dec *d, const struct ynode *tmpl,
			     const char *ns, struct pod *p,
			     struct yaml_pod_extra *x);

/* ------------------------------------------------------- match.c */

/* yaml_map_selects / yaml_selector_selects: does a map selector (every
 * pair present) / a LabelSelector (nil selects nothing) select labels l? */
bool yaml_map_selects(const struct labels *sel, const struct labels *l);
bool yaml_selector_selects(const struct label_selector *s,
			   const struct labels *l);

/* yaml_node_selector_matches: nodeaffinity's NodeSelector.Match (terms
 * ORed, an empty term selecting nothing; absent: every node). */
bool yaml_node_selector_matches(const struct node_selector *s, const struct node *n);

/* yaml_refuse_unjudged_dra: under v1.34, the pending pods with resource
 * claims whose DynamicResources verdicts kso cannot give exactly
 * (finish.c); -1 with err set (incomplete) for the first. */
int yaml_refuse_unjudged_dra(struct cluster *c, struct error *err);

/* yaml_warn_admin_access: under v1.34, a warning for each claim (from
 * index first_claim) and claim template (from first_template) with an
 * adminAccess request whose namespace is in the input without the
 * resource.kubernetes.io/admin-access: "true" label. */
void yaml_warn_admin_access(struct cluster *c, int first_claim, int first_template);

/* yaml_daemon_fits: the DaemonSet controller's predicates for node n: the
 * template's nodeSelector and required node affinity match, and every
 * NoSchedule and NoExecute taint is tolerated by with_tolerations (the
 * template with the DaemonSet's default tolerations added). */
bool yaml_daemon_fits(const struct pod *tmpl, const struct pod *with_tolerations,
		      const struct node *n);

/* ------------------------------------------------------- expand.c */

/* yaml_expand: appends to the load's pods every pod the controllers of
 * this load would create (cluster.expand_workloads), with cluster.scales
 * applied.  0, or -1 with d->err set. */
int yaml_expand(struct yaml_dec *d);

/* yaml_system_priority_class: true with *value for the built-in classes
 * every cluster has (system-node-critical, system-cluster-critical). */
bool yaml_system_priority_class(const char *name, int32_t *value);

/* ------------------------------------------------------- finish.c */

/* yaml_finish: cross-object defaults and checks over the objects of this
 * load (PriorityClass resolution, global default uniqueness) before
 * commit. */
int yaml_finish(struct yaml_dec *d);

/* yaml_priority_class_known: does the input (or every cluster) define the
 * PriorityClass name? */
bool yaml_priority_class_known(const struct yaml_dec *d, const char *name);

/* yaml_finish_namespaces: appends every namespace the cluster's objects
 * name but no manifest defines (implicit), after the explicit ones. */
void yaml_finish_namespaces(struct cluster *c);

/* yaml_namespace_labels: labels with kubernetes.io/metadata.name=name set
 * (replaced when present, appended otherwise), as the API server does. */
struct labels yaml_namespace_labels(struct arena *a, const struct labels *in,
				    const char *name);

#endif
