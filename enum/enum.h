/*
 * enum.h - the exhaustive enumerator: universes of scenarios, the states
 * of each scenario (every placement, or every state the scheduler loop can
 * reach), the symmetry reduction, and the checks made on every state.
 *
 * A universe (README "Universes: what kso enum enumerates") is a base set of manifests plus
 * `vary` dimensions; a scenario is one choice of every dimension, decoded
 * by the ordinary loader into a struct cluster.  The checks compare the
 * oracle (oracle/oracle.h) with the model (model/model.h) on each state,
 * evaluate the model's invariants (model/scheduler.h) and look for the
 * findings the issue lists (kube's preemption worse than the minimal one,
 * a placement breaking an earlier pod's spreading, a final state worse
 * than another).  Storage is enum/store.h, the driver enum/run.h.
 */
#ifndef KSO_ENUM_H
#define KSO_ENUM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "../core/error.h"
#include "../core/limits.h"
#include "../model/model.h"
#include "../model/context.h"
#include "../model/pod_requests.h"
#include "../model/preemption.h"
#include "../model/scheduler.h"
#include "../model/spread_prefilter.h"
#include "../model/affinity_prefilter.h"
#include "../oracle/oracle.h"
#include "ytree.h"

/* ------------------------------------------------------------ universe */

/* One manifest object of a universe or scenario: a YAML map with kind. */
struct enum_object {
	const struct ynode *tree;
	const char *kind;
	const char *ns;          /* "" for cluster-scoped kinds */
	const char *name;
	const char *file;        /* where tree was read (messages), or NULL */
};

/* One field a vary dimension sets: the field at path of every target
 * takes value k (NULL entry: the field is removed). */
struct enum_dim_part {
	int *targets;            /* object indexes */
	int n_targets;
	struct enum_path path;
	int line, col;           /* where the universe file gives the path
				  * (the part's, when it gives none): errors
				  * in applying it point there */
	const struct ynode **values;   /* [n_values of the dimension] */
};

/* A vary dimension: its value k sets value k of every part, the first
 * (target, path, values) and those of its `with` list, so that one value
 * can change several fields (a pod's volume and another's claim) without
 * a dimension, and a factor of scenarios, per field. */
struct enum_dim {
	const char *name;
	struct enum_dim_part *parts;
	int n_parts;
	int n_values;
	const char **label;      /* [n_values] "name=value" (the first part's
				  * value in flow style) for scenario labels,
				  * or NULL (enum_universe_variants) */
};

/* What a scenario needs to know of one object under one choice of the
 * values of the dimensions that edit it (a variant of the object),
 * worked out once per universe (enum_universe_variants) instead of once
 * per scenario: every scenario choosing those values edits the object
 * into the same tree. */
struct enum_variant {
	bool known;              /* false: an edit failed, nothing is known */
	const struct ynode *tree; /* the object's tree edited (sharing the
				  * rest with the base tree; never changed) */
	bool exact;              /* yaml_emit_exact of the edited tree */
	uint64_t nodes;          /* the nodes that check counts */
	bool *mentions;          /* [n_objects]: object k's name is a scalar
				  * of the tree (enum_ynode_mentions_any) */
	const struct ynode *stripped; /* a Node's or Pod's tree without what
				  * names it (the symmetry classes compare
				  * those), or NULL */
	const char *text;        /* yaml_emit of the tree */
	size_t text_len;
};

/* The variants of one object: dims[] are the dimensions targeting it in
 * order; variant index = their value indexes in mixed radix, the first
 * slowest. */
struct enum_object_variants {
	int *dims;
	int n_dims;
	struct enum_variant *v;  /* [product of their sizes], NULL: too many */
};

struct enum_universe {
	struct arena arena;          /* owns everything below */
	const char *path;            /* the universe file as given */
	const char *name;
	const char *config_path;     /* KubeSchedulerConfiguration, or NULL */
	struct enum_object *objects;
	int n_objects;
	struct enum_dim *dims;
	int n_dims;
	uint64_t n_scenarios;        /* product of the dimensions' sizes */
	int n_nodes, n_pods;         /* of every scenario */
	struct cluster config;       /* config_path read once: only .config is
				      * used, shared read-only by the scenarios */
	struct enum_object_variants *variants; /* [n_objects], or NULL */
	/* FNV-1a of every byte the universe was read from: its file (or
	 * text), each manifest file it names, its configuration.  Part of a
	 * run's identity: an edited universe is another run (store.c). */
	uint64_t digest;
};

/* enum_kind_namespaced: whether objects of kind live in a namespace (a
 * target or manifest without metadata.namespace is then in "default"). */
bool enum_kind_namespaced(const char *kind);

/* enum_universe_load: reads the universe file path (see README "Universes: what kso enum enumerates")
 * for release v (its configuration and manifests defaulted and validated
 * as v's; every scenario built from it answers for v).
 * Returns 0, or -1 with err "FILE:LINE:COL: what is wrong (field)".
 * Release with enum_universe_release in every case. */
int enum_universe_load(struct enum_universe *u, const char *path,
		       enum kube_version v, struct error *err);

/* enum_universe_load_buffer: the same from memory, for v1.30; relative
 * manifest paths are read from dir. */
int enum_universe_load_buffer(struct enum_universe *u, const char *name,
			      const char *dir, const char *text,
			      struct error *err);

void enum_universe_release(struct enum_universe *u);

/* enum_universe_variants: u->variants for u's objects and dimensions
 * (enum_universe_load calls it; read-only after, so shared by every
 * thread).  Objects with too many variants get none (v NULL): their
 * scenarios work the facts out themselves.  Memory from u->arena. */
void enum_universe_variants(struct enum_universe *u);

/* enum_universe_digits: scenario index -> the value index of every
 * dimension (the first dimension varies slowest). */
void enum_universe_digits(const struct enum_universe *u, uint64_t index,
			  int *digits);

/* ------------------------------------------------------------ symmetry */

/* Nodes with equal manifests apart from their names (and a hostname label
 * equal to the name), that no other object names, are interchangeable; so
 * are pods with equal manifests apart from the name.  Class ids are the
 * lowest member's index. */
struct enum_symmetry {
	int n_nodes, n_pods;
	int *node_class;         /* [n_nodes] */
	int *pod_class;          /* [n_pods] */
	int *node_perms;         /* [n_perms * n_nodes]: every permutation of
				  * nodes within their classes */
	int n_perms;             /* 1 (identity only) when there are too many */
	uint64_t group_order;    /* |G| used for orbit sizes */
	/* Tables of the classes above (enum_symmetry_init), so the
	 * placement tests cost O(pods + nodes * pod classes) a state: */
	int n_pod_classes;
	int *pod_ord;            /* [n_pods] ordinal of the pod's class (classes
				  * numbered in the order of their lowest member) */
	int *pod_prev;           /* [n_pods] previous member of its class, -1 */
	int *node_prev;          /* [n_nodes] previous member of its class, -1 */
	int *node_next;          /* [n_nodes] next member of its class, -1 */
	int *node_members;       /* [n_nodes] members of the class (at its
				  * lowest member; 0 elsewhere) */
	int *class_members;      /* [n_pod_classes] members of each pod class */
	uint64_t *fact;          /* [max(n_pods, n_nodes) + 1] factorials
				  * (saturated at UINT64_MAX) */
	/* the members that have a previous member, and the classes with
	 * two members or more (the only ones the tests above look at) */
	int *pods_after, n_pods_after;     /* pods with pod_prev >= 0 */
	int *nodes_after, n_nodes_after;   /* nodes with node_prev >= 0 */
	int *pod_multi, n_pod_multi;       /* pod class ordinals, >= 2 members */
	int *node_multi, n_node_multi;     /* node class ids, >= 2 members */
	/* Column keys (enum_placement_keys): a column of M packed into
	 * key_words words, pod class 0 in the most significant field, so
	 * that keys compare as the columns do; a class's field is wide
	 * enough for all its members and never straddles two words. */
	int key_words;
	struct enum_key_field {
		int word;        /* the word of the class's field */
		int shift;       /* the field's lowest bit */
		uint64_t mask;   /* the field's width, as a mask */
	} *key_field;            /* [n_pod_classes] */
};

/* enum_symmetry_init: from the classes (copied); on = false gives
 * singleton classes.  Pair with enum_symmetry_release. */
void enum_symmetry_init(struct enum_symmetry *s, int n_nodes, int n_pods,
			const int *node_class, const int *pod_class, bool on);
void enum_symmetry_release(struct enum_symmetry *s);

/* A placement as digits: d[p] = 0 pending, k >= 1 on node k-1. */

/* enum_placement_canonical: true when d is its class's representative:
 * pods of a class sit in non-decreasing digit order and the per-class
 * occupancy columns of nodes of a class are in non-increasing order. */
bool enum_placement_canonical(const struct enum_symmetry *s, const int *d);

/* enum_placement_class_size: the number of placements in d's class. */
uint64_t enum_placement_class_size(const struct enum_symmetry *s, const int *d);

/* enum_placement_class_of: enum_placement_canonical(s, d), and when true
 * enum_placement_class_size(s, d) into *size (the occupancy both read is
 * counted once).  *size is left alone when false. */
bool enum_placement_class_of(const struct enum_symmetry *s, const int *d,
			     uint64_t *size);

/* enum_placement_keys: the column keys of placement d (M's columns, see
 * struct enum_symmetry) into key[(n_nodes + 1) * key_words]: column k
 * (0 pending, k >= 1 node k-1) at key + k * key_words. */
void enum_placement_keys(const struct enum_symmetry *s, const int *d,
			 uint64_t *key);

/* enum_placement_key_move: key (enum_placement_keys) after pod p's digit
 * goes from a to b, so that a walk over placements keeps its keys in
 * O(1) a changed digit. */
static inline void enum_placement_key_move(const struct enum_symmetry *s,
					   uint64_t *key, int p, int a, int b)
{
	const struct enum_key_field *f = &s->key_field[s->pod_ord[p]];
	int w = f->word;
	uint64_t one = UINT64_C(1) << f->shift;
	key[a * s->key_words + w] -= one;
	key[b * s->key_words + w] += one;
}

/* enum_placement_column_cmp: compares the columns of nodes a and b over
 * the pod classes (in class order) in keys key: the one with more pods
 * of the first class that differs sorts first (-1 when a does, 0 equal).
 * The keys put class 0 in the most significant field, so this is the
 * keys compared word by word, the greater first.  Inline, as the tests
 * below: the enumerator asks them of every placement it walks. */
static inline int enum_placement_column_cmp(const struct enum_symmetry *s,
					    const uint64_t *key, int a, int b)
{
	const uint64_t *ka = key + (size_t)(a + 1) * (size_t)s->key_words;
	const uint64_t *kb = key + (size_t)(b + 1) * (size_t)s->key_words;
	if (s->key_words == 1)   /* up to 64 bits of classes: most universes */
		return *ka == *kb ? 0 : *ka > *kb ? -1 : 1;
	for (int w = 0; w < s->key_words; w++)
		if (ka[w] != kb[w])
			return ka[w] > kb[w] ? -1 : 1;
	return 0;
}

/* enum_placement_pods_ordered: the pods of each class of d sit in
 * non-decreasing digit order. */
static inline bool enum_placement_pods_ordered(const struct enum_symmetry *s,
					       const int *d)
{
	for (int i = 0; i < s->n_pods_after; i++) {
		int p = s->pods_after[i];
		if (d[s->pod_prev[p]] > d[p])
			return false;
	}
	return true;
}

/* enum_placement_ordered: enum_placement_canonical(s, d) for d whose keys
 * (enum_placement_keys) are key: its pods of each class in order, and
 * the node columns of each class in non-increasing order. */
static inline bool enum_placement_ordered(const struct enum_symmetry *s,
					  const int *d, const uint64_t *key)
{
	if (!enum_placement_pods_ordered(s, d))
		return false;
	for (int i = 0; i < s->n_nodes_after; i++) {
		int n = s->nodes_after[i];
		if (enum_placement_column_cmp(s, key, s->node_prev[n], n) > 0)
			return false;
	}
	return true;
}

/* enum_placement_size_ordered: enum_placement_class_size of a placement
 * whose keys are key and for which enum_placement_ordered holds. */
uint64_t enum_placement_size_ordered(const struct enum_symmetry *s,
				     const uint64_t *key);

/* enum_placement_class_keyed: enum_placement_class_of(s, d, size) for d
 * whose keys (enum_placement_keys) are key. */
bool enum_placement_class_keyed(const struct enum_symmetry *s, const int *d,
				const uint64_t *key, uint64_t *size);

/* enum_placement_skip: for a walk whose digit 0 turns fastest (the
 * odometer of placements.c), the highest pod k such that every placement
 * the walk meets from d until digit k carries is no representative, or
 * -1 for none found.  Two pods q < p of a class with d[q] > d[p] give
 * k = q: until digit q wraps, the digits above it stay and d[q] only
 * grows, so the pair stays out of order (enum_placement_canonical). */
int enum_placement_skip(const struct enum_symmetry *s, const int *d);

/* A reachable state packed as ENUM_STATE_BYTES bytes per pod: node + 3
 * (1 gone, 2 pending), nominated node + 1, waiting (0, or 1 | the
 * parked pod's rejecting plugins but DynamicResources << 1,
 * model/requeue.h), queue rank (at most ENUM_REACHABLE_MAX_PODS + 1)
 * with 0x80 set when DynamicResources rejected the parked pod.  A
 * cluster whose claims the loop changes adds 4 bytes after the pods: the
 * claims' status, interned (enum/reachable.c). */
#define ENUM_STATE_BYTES 4

/* enum_state_canonical: the least encoding in st's class (over node
 * permutations, pods of a class sorted) into out; *orbit gets the class
 * size (may be NULL). */
void enum_state_canonical(const struct enum_symmetry *s, const uint8_t *st,
			  uint8_t *out, uint64_t *orbit);

/* ------------------------------------------------------------ scenario */

struct enum_scenario {
	uint64_t index;
	struct arena arena;          /* trees, label */
	struct enum_object *objects; /* the scenario's objects (edited clones) */
	int n_objects;
	const char *label;           /* "dim=value, ..." or "" */
	char *yaml;                  /* the manifests as one YAML text (malloc;
				      * after enum_scenario_build, NULL until
				      * enum_scenario_text) */
	struct cluster cluster;
	int *node_obj;               /* [n_nodes] object of each node */
	int *pod_obj;                /* [n_pods] object of each pod */
	struct enum_symmetry sym;
	const struct enum_variant **variants; /* [n_objects] each object's
				      * variant (NULL: unknown; the universe's,
				      * which outlives s), or NULL */
};

/* enum_scenario_build: scenario index of u: the vary values applied to
 * clones of the base objects, printed to YAML and loaded (with u's config).
 * Returns 0, or -1 with err set; release with enum_scenario_release. */
int enum_scenario_build(const struct enum_universe *u, uint64_t index,
			bool symmetry, struct enum_scenario *s,
			struct error *err);

/* enum_scenario_from_yaml: a scenario from its YAML text (as stored),
 * name used in messages; config_path may be NULL; loaded for release v
 * (the run's). */
int enum_scenario_from_yaml(const char *name, const char *yaml,
			    const char *config_path, enum kube_version v,
			    bool symmetry, struct enum_scenario *s,
			    struct error *err);

/* enum_scenario_subset: a scenario holding only the objects of src with
 * keep[i] (for minimizing).  Same contract as enum_scenario_build. */
int enum_scenario_subset(const struct enum_scenario *src, const bool *keep,
			 const char *config_path, struct enum_scenario *s,
			 struct error *err);

void enum_scenario_release(struct enum_scenario *s);

/* enum_scenario_text: s->yaml, printed on the first call (a scenario
 * built is decoded from its trees; its text is needed only when stored).
 * Owned by s. */
const char *enum_scenario_text(struct enum_scenario *s);

/* enum_scenario_write: the scenario's objects with keep[i] (NULL: all) as
 * YAML documents into b, each pod's spec.nodeName and
 * status.nominatedNodeName set from snap (NULL: as in the manifests). */
void enum_scenario_write(const struct enum_scenario *s, const bool *keep,
			 const struct snapshot *snap, struct strbuf *b);

/* -------------------------------------------------------------- checks */

enum enum_finding {
	ENUM_FIND_PREEMPT_WORSE,   /* kube evicts more / more important pods
				    * than the least-Casualty answer */
	ENUM_FIND_BREAKS_EARLIER,  /* binding the pod breaks a bound pod's
				    * topology spread or pod affinity */
	ENUM_FIND_WORSE_FINAL,     /* reachable: a final state with more pods
				    * pending than another final state */
	ENUM_FIND_IMPL,            /* --impl: the implementation under test
				    * answered what kube could not (or
				    * failed: "impl-error") */
	ENUM_FIND_GREEDY_GAP,      /* reachable --greedy-gap: a placement of
				    * the scenario's pods that satisfies every
				    * filter places more pods (or more
				    * priority) than any run of the loop */
	ENUM_FIND_QUIRK_VISIBLE,   /* --compare-quirks: switching a v1.30
				    * quirk off (core/quirks.h) changes the
				    * decision */
	ENUM_FIND_VERSION_VISIBLE, /* --compare-versions: the other release
				    * answers otherwise (version_diff.c) */
	ENUM_FIND_COUNT
};

/* The v1.34 delta's items a version-visible difference is attributed to
 * (version_diff.c; the delta reference's headline numbers in the
 * comments), in summary order. */
enum enum_vdelta {
	ENUM_VDELTA_FIT_UNRESOLVABLE,   /* 1: NodeResourcesFit UAU above allocatable */
	ENUM_VDELTA_DRA_POSTFILTER,     /* 2: DynamicResources' PostFilter first */
	ENUM_VDELTA_ABSENT_NODES,       /* 3: NodeToStatus's absent nodes */
	ENUM_VDELTA_SPREAD,             /* 4: PodTopologySpread per constraint */
	ENUM_VDELTA_BALANCED_SKIP,      /* 5: BalancedAllocation skips BestEffort */
	ENUM_VDELTA_LABEL_KEYS,         /* 6: (mis)matchLabelKeys merged */
	ENUM_VDELTA_VOLUME_TEXTS,       /* 7: VolumeBinding/Restrictions texts */
	ENUM_VDELTA_VOLUMES,            /* 8: volume limits, attachments, VAC */
	ENUM_VDELTA_SIDECAR_PORTS,      /* 9: NodePorts reads sidecars */
	ENUM_VDELTA_POD_RESOURCES,      /* 11: pod-level resources, resize */
	ENUM_VDELTA_DRA_NOT_FOUND,      /* 12: PostFilter "not found" */
	ENUM_VDELTA_NONZERO_SIDECARS,   /* 13: NonZeroRequested with sidecars */
	ENUM_VDELTA_NS_SELECTOR,        /* 14: NotIn-only namespaceSelector */
	ENUM_VDELTA_DRA_CLAIMS,         /* DRA proper: pods with claims (issue 35) */
	ENUM_VDELTA_OTHER,              /* a difference none of the above explains */
	ENUM_VDELTA_COUNT
};

/* enum_vdelta_name: "fit-unresolvable", ...; enum_vdelta_item: the delta
 * reference's headline number (0: none). */
const char *enum_vdelta_name(int item);
int enum_vdelta_item(int item);

struct enum_ctx;

/* A scheduler under test the enumerator asks about every decision it
 * checks (kso enum --impl; the adapter lives in cli/).  open makes one
 * per worker thread (arg: the caller's); ask returns 1 with verdict ("ok",
 * "not-viable", ...) and detail filled, or 0 when the implementation
 * failed on this state (verdict "impl-error", detail why; the next ask
 * starts it again); close stops it. */
struct enum_judge {
	void *(*open)(void *arg);
	int (*ask)(void *self, const struct enum_ctx *x, int pod, char *verdict,
		   size_t verdict_len, char *detail, size_t detail_len);
	void (*close)(void *self);
	void *arg;
	const char *command;       /* the implementation's command, for the
				    * reproduce line of an export; or NULL */
};

/* enum_finding_name: "preemption-worse", "breaks-earlier", "worse-final". */
const char *enum_finding_name(enum enum_finding f);


/* What the checks found on one state for one pod.  enum_outcome_init
 * sets every field (a new field must be set there too). */
struct enum_outcome {
	int pod;                       /* the decided pod */
	bool agree;                    /* oracle and model agree */
	char disagreement[ENUM_DETAIL_LEN];
	int oracle_choice;             /* oracle's node, -1 none */
	int bind_node;                 /* the scheduler's bind (first viable
					* by name / nominated), -1 */
	bool preempted;                /* PostFilter ran */
	bool oracle_preempt_checked;   /* the oracle's preemption compared */
	struct sched_preemption kube, minimal;  /* valid when preempted */
	struct sched_preemption oracle_pr;      /* the oracle's (kube's) answer */
	bool minimal_ok;               /* minimal ran (not too many victims) */
	bool inv[MODEL_INV_COUNT];
	char inv_detail[MODEL_INV_COUNT][ENUM_DETAIL_LEN];
	bool find[ENUM_FIND_COUNT];
	char find_detail[ENUM_FIND_COUNT][ENUM_DETAIL_LEN];
	/* --compare-quirks: the quirks whose switch changes the decision
	 * (find[ENUM_FIND_QUIRK_VISIBLE] when any does) */
	bool quirk_visible[QUIRK_COUNT];
	/* --compare-versions: the delta items (a bit per enum enum_vdelta)
	 * the difference is attributed to (find[ENUM_FIND_VERSION_VISIBLE]
	 * when the answers differ) */
	uint32_t version_items;
};

/* Per-thread evaluation state for one scenario. */
/* ------------------------------------------------------ verdict reuse */

/* The score plugins whose scores are reused across states: each one's
 * Score of a node reads the pod, that node and the pods bound to it, and
 * its NormalizeScore is none (NodeResourcesFit, BalancedAllocation,
 * ImageLocality; reference §2.13-§2.15), so a node's score is the same
 * whatever the other nodes hold or which of them are feasible. */
#define ENUM_REUSE_SCORES 3

/* The score plugins whose scores are reused across states for a set of
 * feasible nodes: each one's Score of a node reads the pod and that
 * node's labels or taints alone, and its NormalizeScore every scored
 * node's score (NodeAffinity, TaintToleration; §2.16, §2.17), so the
 * scores are a function of the pod and the feasible set. */
#define ENUM_REUSE_NORMALIZED 2

/* The most nodes a scenario may have for those to be reused (a table of
 * 2^nodes feasible sets per pod). */
#define ENUM_REUSE_NORMALIZED_NODES 12

/* The stored scores of one (pod, feasible set): the model's, before the
 * plugin's weight, at vals[n * ENUM_REUSE_NORMALIZED + k] of the
 * context's norm_vals for each node n of the set. */
struct enum_stored_norm {
	bool paired;               /* the oracle's scores compared equal */
	uint8_t have;              /* bit k: plugin k's are stored */
	uint32_t vals;             /* index of the first in norm_vals */
};

/* A stored FitError message: the model's, for its key (the words
 * msg_keys[key .. key + n_nodes + 3), see struct enum_verdict_reuse). */
struct enum_stored_message {
	uint64_t hash;             /* of the key */
	uint32_t key, text;        /* offsets in msg_keys, msg_text */
	bool paired;               /* the oracle's compared equal */
};

/* A distinct stored verdict: its hash and first record. */
struct enum_content {
	uint64_t hash;
	uint32_t at;               /* 1 + its offset in bytes */
};

/* One node's stored scores: the model's, before the plugin's weight. */
struct enum_stored_scores {
	bool paired;               /* the oracle's scores compared equal */
	uint8_t have;              /* bit k: raw[k] holds score plugin k's */
	int64_t raw[ENUM_REUSE_SCORES];
};

/* One node's SelectVictimsOnNode result (victims_slot): its code, and
 * the victims (pods at victim_pods[pods], n of them) or the status (at
 * victim_bytes[status]: its fields up to text, then the text in use). */
struct enum_stored_victims {
	enum sched_code code;
	int n, pdb_violations;
	uint32_t pods, status;
	struct sched_casualty casualty;
};

/* The model's Feasibility verdicts of (pod, node, pods bound to the node)
 * met in earlier states of one scenario, for the pods whose verdicts read
 * nothing else (verdict_reuse.c).  Zeroed (after enum_reuse_release, or
 * for a scenario too large) it is off: every cycle evaluates every node. */
struct enum_verdict_reuse {
	bool on;
	int n_nodes, n_pods;
	bool *local;               /* [n_pods] the pod's verdicts are reused */
	uint32_t *slot;            /* [(pod * n_nodes + node) << n_pods | mask]:
				    * 1 + the verdict's offset in bytes, 0 none */
	uint32_t *mask;            /* [n_nodes] scratch: the pods on each node */
	bool *given_now;           /* [n_nodes] scratch: the cycle's given[] */
	/* [n_nodes], of the last enum_reuse_cycle: the stored verdict is a
	 * pair (both engines gave it, compared once) and was given to the
	 * model; the stored verdict is not a pair yet, so the oracle works
	 * the node out afresh and the two may be paired (enum_reuse_pair) */
	bool *paired_now, *pairable_now;
	bool any_paired;           /* some paired_now[n] */
	int pod_now;               /* the last cycle's pod */
	/* this cycle is a sampled fresh recomputation: nothing is given to
	 * either engine (enum_reuse_sampled) */
	bool fresh;
	/* one state in sample_every (a power of two; 64 unless a test sets
	 * it) is decided afresh by both engines and compared with what
	 * reuse would have given */
	uint64_t sample_every;
	unsigned char *bytes;      /* the stored verdicts */
	size_t n_bytes, cap_bytes;
	uint64_t given, stored;    /* verdicts given to cycles, and kept */
	uint64_t paired, given_paired;   /* pairs made, and given to both */
	/* [n_nodes]: the content id (stored_head's content) of the stored
	 * verdict the model's (held_m) and the oracle's (held_o) result
	 * holds at node n, as the last restore left it and the last cycle
	 * kept it; 0 when unknown.  Consecutive states change few nodes'
	 * pods, and most verdicts read like many others, so most given
	 * verdicts are already in place and restoring them is skipped. */
	uint32_t *held_m, *held_o;
	uint64_t in_place;         /* given verdicts found in place (held) */
	/* [(pod * n_nodes + node) << n_pods | mask]: 1 when binding pod to
	 * node, whose bound pods are mask, breaks none of the step's
	 * invariants (checks.c's check_bind), 0 unknown.  Key: the step
	 * invariants of a bind read the bound node's pods after it (capacity,
	 * model/invariants.c: what they request against its allocatable, the
	 * pod being the one this step placed) and the pod's verdict on the
	 * node (bind-feasible), kept here only when it is feasible - nothing
	 * of the other nodes, of pending pods or of nominations. */
	uint8_t *bind_ok;
	/* [(pod * n_nodes + node) << n_pods | mask]: 1 + the index in
	 * scores[] of what the ENUM_REUSE_SCORES plugins score node for pod
	 * when the pods bound to node are mask, 0 none.  Key: each of those
	 * plugins' Score reads the pod, the node and the pods bound to it
	 * (NodeInfo's Requested and NonZeroRequested; ImageLocality the
	 * node's images and how many of the scenario's nodes have each) and
	 * normalizes nothing; the profile is the pod's, fixed per scenario.
	 * Stored from the model's scored cycles (not an Error's), given to
	 * the model's later cycles and, once the oracle worked out the same
	 * scores afresh, to the oracle's too (paired). */
	uint32_t *score_slot;
	struct enum_stored_scores *scores;
	size_t n_scores, cap_scores;
	/* of the last enum_reuse_cycle: what is given to the model's cycle
	 * (known_m) and to the oracle's (known_o, the pairs), the values
	 * (raw, both), and whether any is */
	uint32_t *score_known_m, *score_known_o;
	int64_t *score_raw;
	struct sched_given_scores given_scores_m, given_scores_o;
	bool any_scores_m;
	/* [n_nodes], of the last enum_reuse_cycle: node n's index in the
	 * tables above (SIZE_MAX: not reused), its slot[] and score_slot[]
	 * values */
	size_t *idx_now;
	uint32_t *at_now, *score_at_now;
	/* [(pod << n_nodes) | F]: 1 + the index in norms[] of what the
	 * ENUM_REUSE_NORMALIZED plugins score each node of F for pod when F
	 * is the set of feasible nodes (a bit per node), 0 none.  Key: each
	 * of those plugins' Score reads the pod and the node's labels or
	 * taints, fixed per scenario, and NormalizeScore the scores of the
	 * nodes in F; the profile is the pod's.  NULL: not reused (more
	 * than ENUM_REUSE_NORMALIZED_NODES nodes). */
	uint32_t *norm_slot;
	struct enum_stored_norm *norms;
	size_t n_norms, cap_norms;
	int64_t *norm_vals;
	size_t n_norm_vals, cap_norm_vals;
	/* [n_pods]: the pod's PreFilterResult in its last cycle that kept
	 * its verdicts (a bit per node), and whether there was one: with
	 * the given verdicts, the feasible set a cycle is expected to have
	 * (an engine takes the scores only when it is that set) */
	uint64_t *pre_mask;
	bool *pre_known;
	uint32_t norm_at_now;      /* the expected set's stored scores */
	uint64_t norm_set_now;     /* ... and the set */
	/* A set of the preemption steps found to break none of the step's
	 * invariants (checks.c's check_preempt), open addressing, keys + 1.
	 * Key: (pod, node, pods bound to node before, after the evictions):
	 * the step invariants of a preemption read the victims' priorities
	 * against the pod's (victim-priority; the victims are those on node
	 * before and not after) and the pod's Feasibility on node after the
	 * evictions (nominated-feasible), which for a pod whose verdicts
	 * are reused reads the node and the pods bound to it alone - taken
	 * only when no other pending pod is nominated to the node then. */
	uint64_t *preempt_ok;
	size_t n_preempt_ok, cap_preempt_ok;
	/* The stored verdicts above, lent to the model's preemption dry runs
	 * (struct model_verdict_memo, model/model.h): §3.4's removals and
	 * reprieves and the least-Casualty search's subsets edit only the
	 * node's bound pods, so the pod's Feasibility on the edited node is
	 * the verdict stored under the same key (pod, node, the pods bound
	 * to it in the dry run's view) - when the pod's verdicts are reused
	 * and no pending pod is nominated to the node in that view (the
	 * nominated-pods pass reads those).  Not in a sampled state, whose
	 * dry runs run the filters afresh. */
	struct model_verdict_memo memo;
	uint64_t dry_given;        /* dry-run verdicts answered from it */
	/* [(pod * n_nodes + node) << n_pods | mask]: 1 + the index in
	 * victims[] of the model's §3.4 SelectVictimsOnNode(pod, node) when
	 * the pods bound to node are mask, 0 none; lent through the memo
	 * (victims, keep_victims).  Key: the dry run removes and gives back
	 * the node's lower-priority pods (mask and the pods' priorities, fixed
	 * per scenario), runs the pod's Feasibility on the node so edited
	 * (which for a pod whose verdicts are reused reads the node and its
	 * pods alone, QUIRK_PORTS_SET_REMOVAL's RemovePod included: the edits
	 * are a function of mask), and splits the victims by the PDB budgets
	 * - so only built when the scenario has no PDB (disruptionsAllowed
	 * counts pods over the whole placement); taken when no pending pod is
	 * nominated to the node and the pod has no resource claims.  Not in
	 * a sampled state; the oracle's preemption, never lent, is compared
	 * on every state. */
	uint32_t *victims_slot;
	struct enum_stored_victims *victims;
	size_t n_victims, cap_victims;
	int *victim_pods;
	size_t n_victim_pods, cap_victim_pods;
	unsigned char *victim_bytes;
	size_t n_victim_bytes, cap_victim_bytes;
	uint64_t victims_given, victims_stored;
	bool *claims;              /* [n_pods] the pod has resource claims */
	/* QUIRK_PORTS_SET_REMOVAL is on, and [n_pods] which pods have a
	 * host port in some container (init containers too): removing such
	 * a pod in a dry run is not the same as the pods left bound */
	bool port_removal;
	bool *host_ports;
	/* FitError messages, by key (pod, its PreFilterResult, the content
	 * id of every node's stored verdict) through msg_table
	 * (open addressing, 1 + index in msgs).  Key: the message of a cycle
	 * where no node is feasible is a function of the statuses of every
	 * node in the PreFilterResult (and, v1.34, how many are outside it),
	 * which are the stored verdicts'.  Given to the model, and to the
	 * oracle once its own message compared equal. */
	struct enum_stored_message *msgs;
	size_t n_msgs, cap_msgs;
	uint32_t *msg_keys;
	size_t n_msg_keys, cap_msg_keys;
	char *msg_text;
	size_t n_msg_text, cap_msg_text;
	uint32_t *msg_table;
	size_t cap_msg_table;
	uint32_t *msg_key_now;     /* [n_nodes + 3] the last cycle's key */
	/* the distinct stored verdicts (content ids: two stored verdicts
	 * that read the same share one), a table by hash, and each node's
	 * in the last cycle (0: none stored) */
	struct enum_content *contents;
	size_t n_contents, cap_contents;
	uint32_t *content_table;
	size_t cap_content_table;
	uint32_t *content_now;
	bool msg_keyed;            /* ... when every node has a verdict */
	uint64_t msg_hash_now;
	uint32_t msg_now;          /* 1 + its message's index, 0 none */
	uint32_t norm_actual;      /* the model's feasible set's, after */
	uint64_t norm_actual_set;  /* ... and the set */
	bool sampled_now;          /* the last cycle was a sampled one */
	const struct sched_profile *prof_now;
	uint64_t scores_given, scores_stored, scores_paired;
	uint64_t msgs_stored, msgs_paired;
};

/* enum_reuse_init: for cluster c whose pods are decided with prof[pod]
 * (both borrowed for u's life); off when on is false.  Pair with
 * enum_reuse_release. */
void enum_reuse_init(struct enum_verdict_reuse *u, const struct cluster *c,
		     const struct sched_profile *const *prof, bool on);
void enum_reuse_release(struct enum_verdict_reuse *u);

/* enum_reuse_cycle: model_schedule_cycle_given's MODEL_PHASE_CYCLE
 * answer for (prof, s, pod, given) into r, exactly, with the nodes whose verdicts u holds given too rather than
 * evaluated, and the verdicts it evaluates kept for later cycles (given's
 * own verdicts are not read). */
int enum_reuse_cycle(struct enum_verdict_reuse *u,
		     const struct sched_profile *prof, const struct snapshot *s,
		     int pod, const struct model_given *given,
		     struct sched_cycle_result *r);

/* enum_reuse_dry_verdicts: the memo of stored verdicts for the model's
 * preemption dry runs after the last enum_reuse_cycle (its pod), or NULL
 * when there is none to lend (reuse off, the pod's verdicts not reused,
 * a sampled state). */
const struct model_verdict_memo *enum_reuse_dry_verdicts(const struct enum_verdict_reuse *u);

/* enum_reuse_sampled: whether the state whose seed (checks.c's
 * state_seed: a function of the scenario, the placement and the pod) is
 * seed is one of the sampled ones decided afresh; sets u->fresh for the
 * next enum_reuse_cycle. */
bool enum_reuse_sampled(struct enum_verdict_reuse *u, uint64_t seed);

/* enum_reuse_give_pairs: the paired verdicts of the last enum_reuse_cycle
 * written into the oracle's result r; returns the nodes given (the
 * oracle's o->given), or NULL when none. */
const bool *enum_reuse_give_pairs(struct enum_verdict_reuse *u,
				  struct sched_cycle_result *r);

/* enum_reuse_pair: node's stored verdict (pairable_now[node]) equals the
 * oracle's fresh one, compared by the caller: later cycles give it to
 * both engines and compare it no more. */
void enum_reuse_pair(struct enum_verdict_reuse *u, int node);

/* enum_reuse_give_scores: the paired scores of the last enum_reuse_cycle
 * for the oracle's cycle (its loop engine's given_scores), or NULL when
 * none. */
const struct sched_given_scores *enum_reuse_give_scores(struct enum_verdict_reuse *u);

/* enum_reuse_scores_differ: node's stored scores in the last
 * enum_reuse_cycle's state and pod against those of r (a fresh cycle of
 * the same state and pod); false when none are stored or they are r's,
 * else true with the first difference in why. */
bool enum_reuse_scores_differ(const struct enum_verdict_reuse *u, int node,
			      const struct sched_cycle_result *r, char *why,
			      size_t len);

/* enum_reuse_give_message: the FitError message of the last
 * enum_reuse_cycle's key for the oracle (a pair), or NULL. */
const char *enum_reuse_give_message(const struct enum_verdict_reuse *u);

/* enum_reuse_message_differs: the FitError message stored for the last
 * enum_reuse_cycle's key against r's (a fresh cycle of the same state
 * and pod); false when none is stored or it is r's, else true with the
 * difference in why. */
bool enum_reuse_message_differs(const struct enum_verdict_reuse *u,
				const struct sched_cycle_result *r, char *why,
				size_t len);

/* enum_reuse_oracle_done: the oracle's cycle of the last enum_reuse_cycle
 * has filled r (after enum_reuse_give_pairs): which of its verdicts are
 * the given ones still (see held_o). */
void enum_reuse_oracle_done(struct enum_verdict_reuse *u,
			    const struct sched_cycle_result *r);

/* enum_reuse_bind_ok: the memo of binding pod to node in placement s
 * (struct enum_verdict_reuse's bind_ok), NULL when reuse is off. */
uint8_t *enum_reuse_bind_ok(struct enum_verdict_reuse *u,
			    const struct snapshot *s, int pod, int node);

/* enum_reuse_preempt_key: the key of pod's preemption step to node from
 * placement before to after in u's preempt_ok set, 0 when it is not
 * kept there (reuse off, pod's verdicts not reused, another pending pod
 * nominated to node after). */
uint64_t enum_reuse_preempt_key(const struct enum_verdict_reuse *u,
				const struct snapshot *before,
				const struct snapshot *after, int pod, int node);

/* enum_reuse_preempt_seen: key (not 0) is in the set; _remember adds it. */
bool enum_reuse_preempt_seen(const struct enum_verdict_reuse *u, uint64_t key);
void enum_reuse_preempt_remember(struct enum_verdict_reuse *u, uint64_t key);

/* enum_reuse_stored: the verdict stored for node in the last
 * enum_reuse_cycle's state and pod into v; false when none is (or the
 * node's verdicts are not reused there). */
bool enum_reuse_stored(const struct enum_verdict_reuse *u, int node,
		       struct sched_node_verdict *v);

/* enum_reuse_paired_content: the content id (1 + ...) of the verdict
 * stored for (pod, node, the pods bound to node = mask) when it is a
 * pair (both engines gave it, compared once), with whether it is
 * feasible in *feasible; else 0. */
uint32_t enum_reuse_paired_content(const struct enum_verdict_reuse *u,
				   int pod, int node, uint32_t mask,
				   bool *feasible);

/* ----------------------------------------------------- decision reuse */

/*
 * Whole decisions found clean, reused across states (decision_reuse.c):
 * a decision is a function of the pod and of what each node holds, and
 * for most pods of a placements universe of few of the nodes - a node
 * that rejects the pod as UnschedulableAndUnresolvable by a filter that
 * reads only the pod and the Node object (an untolerated taint, a
 * nodeSelector, a cordon) is never feasible, scored nor a place to
 * preempt on, whatever it holds.  Key (struct enum_verdict_reuse's rules
 * and the conditions decision_reuse.c states): (pod, for each node
 * either the pods bound to it or, for a node rejecting the pod so, the
 * content of its stored paired verdict).  Value: the decision broke no
 * invariant, found nothing, both engines agreed, and whether it went to
 * preemption - all a clean decision adds to a run's tallies.
 */
struct enum_decision_reuse {
	bool on;
	int n_nodes, n_pods;
	int words;                 /* of a key: 1 + n_nodes */
	bool *eligible;            /* [n_pods] the pod's decisions are kept */
	/* [n_pods]: the nodes rejecting the pod by a filter that reads only
	 * the pod and the node (a bit per node), known after the pod's first
	 * decision that kept its verdicts */
	uint64_t *fixed;
	bool *fixed_known;
	/* [(pod * n_nodes + node) << n_pods | mask]: the content id of
	 * the paired verdict stored for that key, with CONTENT_FEASIBLE
	 * set when it is feasible; 0 not known yet (a pair stays one: found
	 * once, it is taken from here) */
	uint32_t *content;
	uint32_t *key_now;         /* [words] the key built last */
	uint32_t *verdict_now;     /* [n_nodes] scratch: each node's entry
				    * of content, as the key was built */
	uint64_t hash_now;
	bool by_pods_now;          /* key_now reads no node's verdict */
	/* the kept keys (words each), their hashes and values (1 clean
	 * without preemption, 2 clean with), a table by hash (1 + index) */
	uint32_t *keys;
	uint64_t *hashes;
	uint8_t *vals;
	size_t n, cap, cap_keys;
	uint32_t *table;
	size_t cap_table;
	uint64_t hits, kept;
};

/* enum_decisions_init: for x's scenario (its verdict reuse already
 * initialized); off when that is off or nothing can be kept.  Pair with
 * enum_decisions_release. */
void enum_decisions_init(struct enum_decision_reuse *d, const struct enum_ctx *x);
void enum_decisions_release(struct enum_decision_reuse *d);

/* enum_decisions_find: the key of deciding pod in x's state into
 * d->key_now; returns the value kept for it (1, 2), 0 when none is, or
 * -1 when the state has no key. */
int enum_decisions_find(struct enum_decision_reuse *d, const struct enum_ctx *x,
			int pod);

/* enum_decisions_learn: after a decision of pod whose model cycle is
 * x->mr: the pod's fixed nodes, when not known yet. */
void enum_decisions_learn(struct enum_decision_reuse *d, const struct enum_ctx *x,
			  int pod);

/* enum_decisions_keep: value (1, 2) kept for d->key_now, after an
 * enum_decisions_find that returned 0. */
void enum_decisions_keep(struct enum_decision_reuse *d, int value);

/* ---------------------------------------------------- the pod-only parts */

/* The pod-only PreFilter parts of each pod of one cluster
 * (spread_cache.c): PodTopologySpread's (model_spread_static) and
 * InterPodAffinity's (model_affinity_static), built on first use, owned
 * by one thread's context. */
struct enum_spread_cache {
	const struct cluster *c;
	struct model_spread_static **by_pod;   /* [n_pods], NULL until asked */
	struct model_affinity_static **affinity_by_pod;   /* the same */
};

/* enum_spread_cache_init: an empty cache for c; pair with
 * enum_spread_cache_release. */
void enum_spread_cache_init(struct enum_spread_cache *k, const struct cluster *c);
void enum_spread_cache_release(struct enum_spread_cache *k);

/* enum_spread_cache_get: the entry of (prof, pod), built on first use;
 * owned by k, valid until k is released or asked for pod with another
 * profile. */
const struct model_spread_static *enum_spread_cache_get(struct enum_spread_cache *k,
							const struct sched_profile *prof,
							int pod);

/* enum_affinity_cache_get: the InterPodAffinity part of pod (a function
 * of the cluster and the pod alone), built on first use; owned by k. */
const struct model_affinity_static *enum_affinity_cache_get(struct enum_spread_cache *k,
							    int pod);

struct enum_ctx {
	const struct enum_scenario *sc;
	const struct cluster *c;
	/* the oracle as a loop engine (oracle_engine.open, core/engine.h),
	 * in explain mode; moved to each state checked (its sync) */
	struct loop_engine oracle;
	struct snapshot snap;          /* the state being checked */
	struct snapshot after;         /* scratch: after the decision */
	struct sched_cycle_result mr, orr;
	bool *placed, *waiting;        /* [n_pods] scratch for invariants */
	struct snapshot view;          /* scratch for constraint checks */
	struct sched_node_verdict *verdict;   /* scratch (a few KB) */
	/* hard_ok's memo (checks.c): [placement index * n_pods + pod], 0
	 * unknown, 1 held, 2 broken; NULL when the scenario has too many
	 * placements for it */
	uint8_t *hard_memo;
	int64_t *queued_at;
	bool step_invariants;          /* placements: the one-step invariants */
	bool greedy_gap;               /* reachable: --greedy-gap */
	bool traces;                   /* reachable: records carry their
					* trace as data (enum_record.trace) */
	int arrivals;                  /* reachable: 0, or pods start absent
					* and arrive (ENUM_ARRIVE_*) */
	/* the pod-only PodTopologySpread parts of c's pods, for every model
	 * cycle, preemption and hard_ok of this context (enum_model_given) */
	struct enum_spread_cache spread_cache;
	/* the model's context of c (NodeInfo's cached requests), for the
	 * same users and the capacity invariant (step_invariants) */
	struct model_context model;
	/* scratch for step_invariants (checks.c): zeroed once here; each
	 * step sets its inputs and clears inv.broken, the only part
	 * model_invariants_check_step reads back (a step never reaches the
	 * termination check, so inv.hashes stays NULL) */
	struct model_scheduler step_m;
	/* model_profile_for of each pod: the pods and the configuration are
	 * the scenario's, fixed while the context lives */
	const struct sched_profile **prof;
	/* [q * n_pods + p]: may_break(q, p) of checks.c, a function of the
	 * two pods' specs alone, fixed while the context lives */
	bool *may_break;
	/* [p]: may_break(q, p) for some q - binding p can break some pod's
	 * hard constraint at all (else breaks-earlier has nothing to look at) */
	bool *may_be_broken;
	/* model_pdb_spends(c) (preemption.h), a function of the cluster,
	 * lent to every preemption of the context */
	bool *pdb_spends;
	/* --impl: the worker's implementation under test (NULL: none) */
	const struct enum_judge *judge;
	void *judge_self;
	/* --compare-quirks: every decision again with each quirk the
	 * scenario models switched off; quirk_alt is a shallow copy of c
	 * whose configuration's quirks_off the check sets (created on first
	 * use, NULL before) */
	bool compare_quirks;
	struct cluster *quirk_alt;
	bool has_sidecar;              /* some pod of c has a sidecar (set
					* with quirk_alt) */
	/* --compare-versions: the release every decision is decided again
	 * under (-1: none), the universe's configuration to load the
	 * scenario with for it, and that scenario (loaded on first use,
	 * NULL before; version_diff.c) */
	int compare_version;
	const char *config_path;
	struct enum_scenario *version_alt;
	bool version_alt_failed;       /* it does not hold the same pods and
					* nodes: no state is compared */
	/* the model's per-node verdicts met before (verdict_reuse.c) */
	struct enum_verdict_reuse reuse;
	/* whole clean decisions met before (decision_reuse.c), used while
	 * decision_reuse is set: placements mode, nothing stored of a clean
	 * state (not --store all) and no check beyond the decision's own
	 * (no --compare-quirks, --compare-versions, --impl) */
	struct enum_decision_reuse decisions;
	bool decision_reuse;
};

/* enum_ctx_init: for scenario sc (borrowed), verdict reuse on; pair with
 * enum_ctx_release. */
void enum_ctx_init(struct enum_ctx *x, const struct enum_scenario *sc);
void enum_ctx_release(struct enum_ctx *x);

/* enum_model_given: what x gives the model's cycles and PostFilters of
 * pod with prof (struct model_given, model/model.h): x's model context
 * and pod's PodTopologySpread and InterPodAffinity parts from x's cache;
 * no verdicts. */
void enum_model_given(struct enum_ctx *x, const struct sched_profile *prof,
		      int pod, struct model_given *out);

/* enum_check_pod: every check of one scheduling decision of pod (pending)
 * on x->snap into out (pair with enum_outcome_release).  Runs the model
 * cycle (result left in x->mr) and the oracle cycle (x->orr). */
void enum_check_pod(struct enum_ctx *x, int pod, struct enum_outcome *out);

void enum_outcome_init(struct enum_outcome *o);

/* enum_check_versions: --compare-versions: pod's decision in x's state
 * under x->compare_version too; a difference sets out's
 * ENUM_FIND_VERSION_VISIBLE finding (both answers in words) and
 * version_items (version_diff.c). */
void enum_check_versions(struct enum_ctx *x, int pod, struct enum_outcome *out);

/* enum_scenario_as: src's objects loaded for release v (config_path:
 * the universe's configuration, NULL: none), src's quirk switches. */
int enum_scenario_as(const struct enum_scenario *src, enum kube_version v,
		     const char *config_path, struct enum_scenario *s,
		     struct error *err);
void enum_outcome_release(struct enum_outcome *o);

/* enum_outcome_issue: true when the outcome holds a disagreement, a
 * violation or a finding (the states --store findings keeps). */
bool enum_outcome_issue(const struct enum_outcome *o);

/* enum_bind_node: the node the scheduler binds pod to from result r on s:
 * the nominated node of the fast path, else the viable node whose name
 * sorts first; -1 when none. */
int enum_bind_node(const struct cluster *c, const struct sched_cycle_result *r);

/* ------------------------------------------------------------- tallies */

/* Counts of one run or chunk; [0] weighted by class size (raw states),
 * [1] one per evaluated class. */
struct enum_tally {
	uint64_t states;
	uint64_t decisions;
	uint64_t agree, disagree;
	uint64_t violations;          /* states with a broken invariant */
	uint64_t inv[MODEL_INV_COUNT];
	/* every kind but ENUM_FIND_IMPL, whose count is impl_findings (kept
	 * last, so that work items stored before it read back unchanged:
	 * store.c writes it after both tallies) */
	uint64_t findings[ENUM_FIND_IMPL];
	uint64_t preemptions, preempt_unchecked;
	uint64_t finals;              /* reachable: quiescent states */
	uint64_t impl_findings;       /* --impl: ENUM_FIND_IMPL */
	uint64_t greedy_gaps;         /* --greedy-gap: ENUM_FIND_GREEDY_GAP
				       * (after impl_findings, likewise) */
	uint64_t quirk_visible;       /* --compare-quirks:
				       * ENUM_FIND_QUIRK_VISIBLE, and per
				       * quirk (likewise) */
	uint64_t quirk_states[QUIRK_COUNT];
	uint64_t version_visible;     /* --compare-versions:
				       * ENUM_FIND_VERSION_VISIBLE, and per
				       * delta item (likewise) */
	uint64_t version_items[ENUM_VDELTA_COUNT];
};

/* enum_tally_finding: the count of finding kind f in t. */
static inline uint64_t enum_tally_finding(const struct enum_tally *t, int f)
{
	return f == ENUM_FIND_IMPL ? t->impl_findings
		: f == ENUM_FIND_GREEDY_GAP ? t->greedy_gaps
		: f == ENUM_FIND_QUIRK_VISIBLE ? t->quirk_visible
		: f == ENUM_FIND_VERSION_VISIBLE ? t->version_visible : t->findings[f];
}

/* enum_tally_finding_slot: where t counts finding kind f. */
static inline uint64_t *enum_tally_finding_slot(struct enum_tally *t, int f)
{
	return f == ENUM_FIND_IMPL ? &t->impl_findings
		: f == ENUM_FIND_GREEDY_GAP ? &t->greedy_gaps
		: f == ENUM_FIND_QUIRK_VISIBLE ? &t->quirk_visible
		: f == ENUM_FIND_VERSION_VISIBLE ? &t->version_visible : &t->findings[f];
}

void enum_tally_add(struct enum_tally *dst, const struct enum_tally *src);

/* enum_tally_outcome: counts one decision of a state of class size w. */
void enum_tally_outcome(const struct enum_outcome *o, uint64_t w,
			struct enum_tally t[2]);

/* ------------------------------------------------------- state records */

/* Arrivals (kso enum --arrivals): pods start absent and arrive one at a
 * time, interleaved with the scheduler's steps, in any order or in
 * manifest order. */
enum { ENUM_ARRIVE_ANY = 1, ENUM_ARRIVE_ORDERED = 2 };

/* One step of a reachable-mode trace: what the loop did to which pod (or
 * the pod's arrival). */
struct enum_trace_step {
	int pod;                   /* -1 for a flush */
	bool arrive;               /* the pod was created: no scheduling */
	bool flush;                /* the 5-minute unschedulable timeout
				    * moved every parked pod back: no pod,
				    * no scheduling */
	enum model_step_action action;
	bool minimal;              /* a preemption by the spec's minimal
				    * answer, not kube's */
	int node;                  /* bind / nominated node, -1 */
	int *victims;              /* sorted by pod index */
	int n_victims;
};

/* The shortest way to a state from all pods pending (malloc'ed). */
struct enum_trace {
	struct enum_trace_step *steps;
	int n;
};

void enum_trace_release(struct enum_trace *t);

/* What the store keeps of one state (all text malloc'ed by
 * enum_record_fill, freed by enum_record_release). */
struct enum_record {
	uint64_t scenario;
	uint64_t weight;
	int depth;                    /* reachable: BFS depth; placements 0 */
	char *placement;              /* "default/a=n1 default/b=-" */
	char *pod_node, *nominated;   /* "0,-1,2" / "-1,-1,-1" */
	char *claims;                 /* reachable under v1.34: the claims'
				       * status (enum_record_claims), NULL */
	/* decision (pod NULL: none) */
	char *pod;
	char *model_feasible, *model_viable, *oracle_feasible, *oracle_choice;
	int agree;
	char *detail;
	/* preemption (kube_node NULL: none) */
	char *kube_node, *kube_victims, *kube_casualty;
	char *min_node, *min_victims, *min_casualty;
	char *oracle_node, *oracle_victims;
	int oracle_checked, differs;
	/* violations and findings */
	int n_viol;
	char *viol_name[MODEL_INV_COUNT + 1], *viol_detail[MODEL_INV_COUNT + 1],
	     *viol_trace[MODEL_INV_COUNT + 1];
	int n_find;
	char *find_kind[ENUM_FIND_COUNT], *find_detail[ENUM_FIND_COUNT];
	/* reachable with enum_ctx.traces: the state's trace (a step
	 * violation's ends with the violating step); not stored */
	struct enum_trace trace;
};

/* enum_record_state: the placement part of a record from snap; absent
 * (--arrivals, may be NULL): the pods not created yet, written "?" in
 * the placement text (a deleted pod is "x", a pending one "-"). */
void enum_record_state(struct enum_record *r, const struct snapshot *snap,
		       const bool *absent);

/* enum_record_claims: the claims' status of snap (snap->dra, not NULL)
 * as dra_live_encode's words in decimal, comma-separated (the claims
 * table's status; enum_claims_parse reads it back). */
void enum_record_claims(struct enum_record *r, const struct snapshot *snap);

/* enum_claims_parse: text enum_record_claims wrote into snap->dra
 * (snap's cluster); false when it is not one of its statuses. */
bool enum_claims_parse(const char *text, struct snapshot *snap);

/* enum_record_outcome: the decision, preemption, violations and findings
 * of o (x->mr / x->orr must still hold o's cycle).  trace (may be NULL)
 * is attached to every violation. */
void enum_record_outcome(struct enum_record *r, const struct enum_ctx *x,
			 const struct enum_outcome *o, const char *trace);

/* enum_record_violation / enum_record_finding: one more entry. */
void enum_record_violation(struct enum_record *r, const char *name,
			   const char *detail, const char *trace);
void enum_record_finding(struct enum_record *r, const char *kind,
			 const char *detail);

void enum_record_release(struct enum_record *r);

/* ------------------------------------------------------ the two modes */

/* Receives every state worth storing and the tallies. */
struct enum_sink {
	void *user;
	bool store_all;                /* --store all */
	void (*record)(void *user, struct enum_record *r);  /* takes r */
	volatile sig_atomic_t *stop;   /* set: abandon (interrupted) */
	/* reachable: called now and then with the states expanded and the
	 * change of the frontier (found, not yet expanded) since the last
	 * call; the calls of one search sum to (its states, 0).  May be NULL. */
	void (*progress)(void *user, uint64_t expanded, int64_t frontier);
	void *progress_user;
};

/* enum_placements: placement states [first, last) of x's scenario in
 * odometer order (pod 0's digit fastest); one decision per state (the
 * pod PrioritySort picks) or, with all_pending, one per pending pod.
 * With symmetry only class representatives are evaluated, weighted by
 * the class size.  Adds to t; returns 0, or 1 when stopped. */
int enum_placements(struct enum_ctx *x, uint64_t first, uint64_t last,
		    bool symmetry, bool all_pending, struct enum_sink *sink,
		    struct enum_tally t[2]);

/* enum_placement_count: (nodes+1)^pods, or UINT64_MAX on overflow. */
uint64_t enum_placement_count(int nodes, int pods);

/* enum_reachable: breadth-first search of every state the scheduler loop
 * reaches from all pods pending (every tie between viable nodes, kube's
 * and the minimal preemption answer).  A broken invariant is recorded
 * with the shortest trace to it.  Adds to t; returns 0, 1 when stopped,
 * -1 with err set on a failure (e.g. more than 60 pods). */
int enum_reachable(struct enum_ctx *x, bool symmetry, struct enum_sink *sink,
		   struct enum_tally t[2], struct error *err);

/* ----------------------------------------------------------- minimize */

/* The issue a state is exported for. */
struct enum_issue {
	enum { ENUM_ISSUE_DISAGREE, ENUM_ISSUE_VIOLATION, ENUM_ISSUE_FINDING } kind;
	int which;                     /* invariant or finding id */
	const char *pod_ns, *pod_name; /* the decided pod; NULL: none */
	/* an impl finding: the implementation to ask again (NULL: it cannot
	 * be re-checked) and the verdict it must give again ("not-viable") */
	const struct enum_judge *judge;
	const char *impl_verdict;
	int arrivals;                  /* the run's --arrivals (ENUM_ARRIVE_*) */
	/* a quirk-visible finding: its detail, which a smaller scenario
	 * must give again word for word (the same decisions, so that the
	 * export shows what its header says); NULL: the kind suffices */
	const char *detail;
	uint32_t quirks_off;           /* the run's --quirk NAME=off: every
					* scenario built for the issue gets
					* them (sched_config.quirks_off) */
	enum kube_version kube_version;   /* the run's --kube-version */
	/* a version-visible finding: the release it compares with (-1:
	 * none) and the delta items a smaller scenario must show again
	 * (the same set: its decisions' words may name fewer nodes) */
	int compare_version;
	uint32_t version_items;
};

/* enum_record_has: r records issue is: a violation of its invariant or a
 * finding of its kind (a disagreement: false). */
bool enum_record_has(const struct enum_record *r, const struct enum_issue *is);

/* enum_issue_holds: the issue occurs on sc with snap (placement of sc). */
bool enum_issue_holds(const struct enum_scenario *sc, const struct snapshot *snap,
		      const struct enum_issue *is);

/* enum_minimize: drops pods and nodes (and other objects) of sc while the
 * issue holds; keep[] (n_objects) gets the objects kept.  Placement snap
 * is of sc.  An issue with a pod is re-checked by that pod's decision; one
 * without (pod_name NULL: a reachable-mode step violation or worse-final;
 * not termination, which belongs to no single state) by a reachable search
 * of each smaller scenario recording it at the same state.  Returns true
 * when the issue held at the start. */
bool enum_minimize(const struct enum_scenario *sc, const struct snapshot *snap,
		   const struct enum_issue *is, const char *config_path,
		   bool *keep);

#endif
