/*
 * spread_constraints.h - PodTopologySpread's constraints as v1.30 builds
 * them, node inclusion policies, pod counting and topology-pair counters
 * (reference §2.11 "Constraint construction", "Default constraints";
 * S/framework/plugins/podtopologyspread/common.go).  Shared by the filter
 * (filter_pod_topology_spread.c) and the score (score_pod_topology_spread.c).
 */
#ifndef KSO_SPREAD_CONSTRAINTS_H
#define KSO_SPREAD_CONSTRAINTS_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/config.h"
#include "../core/arena.h"
#include "default_selector.h"
#include "../core/objects.h"
#include "../core/snapshot.h"

#define MODEL_LABEL_HOSTNAME "kubernetes.io/hostname"
#define MODEL_LABEL_ZONE "topology.kubernetes.io/zone"

/* One constraint of one class (DoNotSchedule or ScheduleAnyway). */
struct model_spread_constraint {
	int32_t max_skew;
	const char *key;              /* topologyKey */
	int32_t min_domains;          /* 1 when unset */
	bool affinity_honor;          /* nodeAffinityPolicy Honor */
	bool taints_honor;            /* nodeTaintsPolicy Honor */
	struct model_selector sel;    /* labelSelector + matchLabelKeys, or the default selector */
	int slot;                     /* model_spread_slot of this constraint */
};

struct model_spread_constraints {
	struct model_spread_constraint *items;   /* in pod order, malloc'ed */
	int n, cap;
	bool from_pod;    /* from spec.topologySpreadConstraints, not the defaults */
};

/* model_spread_constraints_build: the constraints of class do_not_schedule
 * for pod (reference §2.11):
 *   the pod's own constraints of that class when it has any constraint at
 *   all (selector = labelSelector AND key = pod.labels[key] for each
 *   matchLabelKeys key the pod carries, unless labelSelector is nil);
 *   otherwise the profile's default constraints of that class (System:
 *   hostname/3 and zone/5, ScheduleAnyway) with the pod's default selector,
 *   none when that selector is empty.
 * out is initialised here; pair with model_spread_constraints_release. */
void model_spread_constraints_build(const struct cluster *c,
				    const struct sched_profile *prof, int pod,
				    bool do_not_schedule,
				    struct model_spread_constraints *out);

/* model_spread_constraints_none: whether model_spread_constraints_build
 * gives no constraint of class do_not_schedule for pod, found without
 * building them (the default selector only when a default constraint
 * of the class exists). */
bool model_spread_constraints_none(const struct cluster *c,
				   const struct sched_profile *prof, int pod,
				   bool do_not_schedule);

/* model_spread_constraints_release: frees what cs owns. */
void model_spread_constraints_release(struct model_spread_constraints *cs);

/* model_spread_slot: the counter constraint i uses: the first constraint
 * with the same topologyKey under QUIRK_SPREAD_SHARED_KEY (v1.30
 * keys counters by topology pair), i itself otherwise. */
int model_spread_slot(const struct model_spread_constraints *cs, int i);

/* model_spread_node_has_keys: the node carries every constraint's
 * topologyKey (nodeLabelsMatchSpreadConstraints). */
bool model_spread_node_has_keys(const struct node *n,
				const struct model_spread_constraints *cs);

/* model_spread_node_eligible: matchNodeInclusionPolicies: Honor affinity
 * => the pod's nodeSelector and required node affinity match n; Honor
 * taints => n has no untolerated NoSchedule/NoExecute taint. */
bool model_spread_node_eligible(const struct pod *p, const struct node *n,
				const struct model_spread_constraint *c);

/* model_spread_count_by_node: counts[n] = count(n, c) for every node of s:
 * pods bound to n, deletionTimestamp unset, in namespace ns, matched by
 * c->sel; 0 everywhere for an empty selector while
 * QUIRK_SPREAD_EMPTY_SELECTOR.  skip_pod (the incoming
 * pod, never bound in kube) is not counted.  counts has n_nodes entries. */
void model_spread_count_by_node(const struct snapshot *s, const char *ns,
				int skip_pod,
				const struct model_spread_constraint *c,
				int64_t *counts);

/* ---------------------------------------------- topology pair counters */

/* A topology pair (slot, value) and its counter; slot as model_spread_slot. */
struct model_spread_pair {
	int slot;
	const char *value;
	int64_t count;
};


/* The pairs in registration order, with a hash index.  Storage from an
 * arena - a cycle's scratch (cycle_state.h), given back when the arena is
 * reset to a mark taken before the table was made - or, with none, from
 * the heap. */
struct model_spread_pairs {
	struct model_spread_pair *items;
	int n, cap;
	int *index;          /* open addressing: item index or -1 */
	int index_cap;       /* power of two, > 2n */
	struct arena *arena; /* NULL: the heap */
};

/* model_spread_pairs_init: an empty table whose storage comes from a
 * (NULL: the heap).  Pair with model_spread_pairs_release. */
void model_spread_pairs_init(struct model_spread_pairs *t, struct arena *a);

/* model_spread_pairs_release: frees t's heap storage (an arena's goes
 * back with the arena's reset). */
void model_spread_pairs_release(struct model_spread_pairs *t);

/* model_spread_pairs_copy: dst (uninitialised) becomes an independent copy
 * of src, same order and counts, its storage from a (NULL: the heap);
 * pair with model_spread_pairs_release. */
void model_spread_pairs_copy(struct model_spread_pairs *dst,
			     const struct model_spread_pairs *src,
			     struct arena *a);

/* model_spread_pairs_find: index of (slot, value) or -1. */
int model_spread_pairs_find(const struct model_spread_pairs *t, int slot,
			    const char *value);

/* model_spread_pairs_add: index of (slot, value), registered with count 0
 * when new (*is_new tells which, may be NULL). */
int model_spread_pairs_add(struct model_spread_pairs *t, int slot,
			   const char *value, bool *is_new);

#endif
