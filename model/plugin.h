/*
 * plugin.h - the shape every model plugin has.
 *
 * Spec (shared/seeds/004):
 *   Feasibility(Pod, Node, Snapshot) == Filter_1(..) /\ Filter_2(..) /\ ...
 *   Viability(Pod, Node, Snapshot)   == the weighted sum of the scores
 * Each Filter_i and each score is one C file under model/ (filter_*.c,
 * score_*.c) implementing kube-scheduler v1.30's plugin of that name
 * (shared/reference/kube-scheduler-v1.30.md §2).
 *
 * A filter or score sees one scheduling cycle (struct model_cycle): the
 * incoming pod, the placement PreFilter saw (base) and the placement the
 * Filter sees (view = base plus the pods the cycle added or removed, e.g.
 * nominated pods or preemption victims, in the order kube's AddPod /
 * RemovePod calls would make).  Most plugins only read view; the few whose
 * v1.30 behaviour depends on the PreFilter-time state or on the order of
 * incremental updates (PodTopologySpread critical paths, InterPodAffinity's
 * Skip) read base and deltas too, literally.
 */
#ifndef KSO_PLUGIN_H
#define KSO_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../core/objects.h"
#include "../core/snapshot.h"

#include "../core/verdict.h"
#include "../core/dra_plugin.h"

/* One AddPod (+1) or RemovePod (-1) made during a cycle, in call order. */
struct model_delta {
	int pod;
	int node;
	int sign;
};

struct model_cycle_state;   /* cycle_state.h */

struct model_cycle {
	const struct cluster *cluster;
	const struct sched_profile *profile;
	int pod;                         /* the incoming pod (index in cluster->pods) */
	const struct snapshot *base;     /* the placement PreFilter saw */
	const struct snapshot *view;     /* base with deltas applied */
	const struct model_delta *deltas;
	int n_deltas;
	/* kube's CycleState for this cycle: the PreFilter phase on base
	 * with the AddPod/RemovePod calls of deltas applied (cycle_state.h);
	 * every Filter and Score reads it, never NULL */
	const struct model_cycle_state *state;
};

/* Filter: verdict of one plugin for (cycle pod, node) into out, set in
 * full (out's previous contents never read). */
typedef void (*model_filter_fn)(const struct model_cycle *cy, int node,
				struct sched_status *out);

/* Score: for the feasible nodes feasible[0..n-1] writes each node's
 * NormalizeScore'd score (0..100, before the weight) into scores[i].
 * Returns SCHED_SUCCESS, SCHED_SKIP (PreScore skipped: every score 0) or
 * SCHED_ERROR (err says why; the cycle fails). */
typedef enum sched_code (*model_score_fn)(const struct model_cycle *cy,
					  const int *feasible, int n,
					  int64_t *scores,
					  struct sched_status *err);

/* The plugins, one file each.  Filters in kube's default order. */
void model_filter_node_unschedulable(const struct model_cycle *, int, struct sched_status *);
void model_filter_node_name(const struct model_cycle *, int, struct sched_status *);
void model_filter_taint_toleration(const struct model_cycle *, int, struct sched_status *);
void model_filter_node_affinity(const struct model_cycle *, int, struct sched_status *);
void model_filter_node_ports(const struct model_cycle *, int, struct sched_status *);
void model_filter_node_resources_fit(const struct model_cycle *, int, struct sched_status *);
void model_filter_volume_restrictions(const struct model_cycle *, int, struct sched_status *);
void model_filter_ebs_limits(const struct model_cycle *, int, struct sched_status *);
void model_filter_gce_pd_limits(const struct model_cycle *, int, struct sched_status *);
void model_filter_node_volume_limits(const struct model_cycle *, int, struct sched_status *);
void model_filter_azure_disk_limits(const struct model_cycle *, int, struct sched_status *);
void model_filter_volume_binding(const struct model_cycle *, int, struct sched_status *);
void model_filter_volume_zone(const struct model_cycle *, int, struct sched_status *);
void model_filter_pod_topology_spread(const struct model_cycle *, int, struct sched_status *);
void model_filter_inter_pod_affinity(const struct model_cycle *, int, struct sched_status *);

/* The pod-level tests the v1.34 QueueingHints ask of a deleted pod
 * (model/requeue.c): NodePorts' - some host port of want's port containers
 * conflicts with one of used's (Fits(want, a node holding only used's
 * ports); sidecars counted as v1.34 counts them); VolumeRestrictions' -
 * some in-tree disk of a conflicts with one of b's (satisfyVolumeConflicts
 * negated). */
bool model_node_ports_pods_conflict(const struct pod *want,
				    const struct pod *used, bool sidecars);
bool model_volume_disks_conflict(const struct pod *a, const struct pod *b);

/* DynamicResources (v1.34, filter_dynamic_resources.c): its PreFilter
 * (Success, Skip for a pod without claims, or UnschedulableAndUnresolvable),
 * its Filter, and its PostFilter after the failed cycle r: Unschedulable
 * "no new claims to deallocate" / "deallocation of ResourceClaim
 * completed" / "still not schedulable", or Error "not found" when its
 * PreFilter never wrote its state; *dealloc (malloc'ed, NULL when none)
 * gets the *n claims it may deallocate (dra_postfilter). */
void model_prefilter_dynamic_resources(const struct model_cycle *cy,
				       struct sched_status *out);
void model_filter_dynamic_resources(const struct model_cycle *, int, struct sched_status *);
void model_postfilter_dynamic_resources(const struct snapshot *s,
					const struct sched_profile *prof,
					const struct sched_cycle_result *r,
					struct sched_status *out,
					int **dealloc, int *n);

/* PreFilter-level verdicts that reject every node at once (reference §1.3):
 * NodeAffinity's "pod affinity terms conflict" and its PreFilterResult
 * (matchFields metadata.name In).  allowed[n] is cleared for nodes outside
 * the PreFilterResult, and *restricted set when there is one. */
void model_prefilter_node_affinity(const struct model_cycle *cy, bool *allowed,
				   bool *restricted, struct sched_status *out);

/* The volume plugins' PreFilters (reference §2.12): each sets out to
 * Skip, Success or its rejection (UnschedulableAndUnresolvable); none
 * of them returns a PreFilterResult in v1.30.12. */
void model_prefilter_volume_restrictions(const struct model_cycle *cy,
					 struct sched_status *out);
void model_prefilter_node_volume_limits(const struct model_cycle *cy,
					struct sched_status *out);
void model_prefilter_volume_binding(const struct model_cycle *cy,
				    struct sched_status *out);
void model_prefilter_volume_zone(const struct model_cycle *cy,
				 struct sched_status *out);

enum sched_code model_score_taint_toleration(const struct model_cycle *, const int *, int, int64_t *, struct sched_status *);
enum sched_code model_score_node_affinity(const struct model_cycle *, const int *, int, int64_t *, struct sched_status *);
enum sched_code model_score_node_resources_fit(const struct model_cycle *, const int *, int, int64_t *, struct sched_status *);
enum sched_code model_score_pod_topology_spread(const struct model_cycle *, const int *, int, int64_t *, struct sched_status *);
enum sched_code model_score_inter_pod_affinity(const struct model_cycle *, const int *, int, int64_t *, struct sched_status *);
enum sched_code model_score_balanced_allocation(const struct model_cycle *, const int *, int, int64_t *, struct sched_status *);
enum sched_code model_score_image_locality(const struct model_cycle *, const int *, int, int64_t *, struct sched_status *);
enum sched_code model_score_selector_spread(const struct model_cycle *, const int *, int, int64_t *, struct sched_status *);

#endif
