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

enum model_code {
	MODEL_SUCCESS = 0,
	MODEL_UNSCHEDULABLE,     /* kube's Unschedulable: preemption may help */
	MODEL_UAU,               /* UnschedulableAndUnresolvable */
	MODEL_SKIP,              /* PreFilter/PreScore Skip */
	MODEL_ERROR              /* the cycle fails (e.g. a PreScore parse error) */
};

#define MODEL_MAX_REASONS 16
#define MODEL_STATUS_TEXT 512    /* holds the longest reason: a taint key
				  * (316) and value (63) in braces */

/* A plugin's verdict with kube's reason texts, e.g. "Insufficient cpu".
 * The reasons are packed NUL-terminated into text[]; read reason i with
 * model_status_reason().  Plain data: a struct copy is a full copy. */
struct model_status {
	enum model_code code;
	int n_reasons;
	uint16_t off[MODEL_MAX_REASONS];   /* where reason i starts in text */
	uint16_t used;                     /* bytes of text in use */
	char text[MODEL_STATUS_TEXT];
};

/* model_status_reason: reason i (0 <= i < n_reasons), owned by st. */
static inline const char *model_status_reason(const struct model_status *st,
					      int i)
{
	return st->text + st->off[i];
}

/* model_status_ok: success, no reasons.  Inline: every filter and every
 * Feasibility call starts its statuses with it. */
static inline void model_status_ok(struct model_status *st)
{
	st->code = MODEL_SUCCESS;
	st->n_reasons = 0;
	st->used = 0;
}

/* model_status_add_len: model_status_add of reason, whose length n
 * (= strlen(reason)) the caller knows. */
void model_status_add_len(struct model_status *st, enum model_code code,
			  const char *reason, size_t n);

/* model_status_add: model_status_fail without formatting: the worse code,
 * reason appended (dropped beyond MODEL_MAX_REASONS; cut when text[] is
 * full).  Inline so that a literal reason's length is known when
 * compiling: filters add their fixed reasons on every failing node. */
static inline void model_status_add(struct model_status *st,
				    enum model_code code, const char *reason)
{
	model_status_add_len(st, code, reason, strlen(reason));
}

/* model_status_add_join: model_status_add of parts[0..n-1] concatenated,
 * i.e. model_status_fail with "%s%s..." without going through printf
 * (filters that name a resource or a taint run on every node). */
void model_status_add_join(struct model_status *st, enum model_code code,
			   const char *const *parts, int n);

/* model_status_fail: sets code (the worse of the current and the new one)
 * and appends a formatted reason (dropped beyond MODEL_MAX_REASONS). */
void model_status_fail(struct model_status *st, enum model_code code,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One AddPod (+1) or RemovePod (-1) made during a cycle, in call order. */
struct model_delta {
	int pod;
	int node;
	int sign;
};

struct model_cycle_memo;   /* cycle_memo.h */

struct model_cycle {
	const struct cluster *cluster;
	const struct sched_profile *profile;
	int pod;                         /* the incoming pod (index in cluster->pods) */
	const struct snapshot *base;     /* the placement PreFilter saw */
	const struct snapshot *view;     /* base with deltas applied */
	const struct model_delta *deltas;
	int n_deltas;
	/* Per-cycle scratch of the plugins, keyed on (cluster, profile, pod,
	 * base) as cycle_memo.h says; NULL: every plugin computes literally
	 * (what a cycle built with a designated initializer gets). */
	struct model_cycle_memo *memo;
};

/* Filter: verdict of one plugin for (cycle pod, node) into out, set in
 * full (out's previous contents never read). */
typedef void (*model_filter_fn)(const struct model_cycle *cy, int node,
				struct model_status *out);

/* Score: for the feasible nodes feasible[0..n-1] writes each node's
 * NormalizeScore'd score (0..100, before the weight) into scores[i].
 * Returns MODEL_SUCCESS, MODEL_SKIP (PreScore skipped: every score 0) or
 * MODEL_ERROR (err says why; the cycle fails). */
typedef enum model_code (*model_score_fn)(const struct model_cycle *cy,
					  const int *feasible, int n,
					  int64_t *scores,
					  struct model_status *err);

/* The plugins, one file each.  Filters in kube's default order. */
void model_filter_node_unschedulable(const struct model_cycle *, int, struct model_status *);
void model_filter_node_name(const struct model_cycle *, int, struct model_status *);
void model_filter_taint_toleration(const struct model_cycle *, int, struct model_status *);
void model_filter_node_affinity(const struct model_cycle *, int, struct model_status *);
void model_filter_node_ports(const struct model_cycle *, int, struct model_status *);
void model_filter_node_resources_fit(const struct model_cycle *, int, struct model_status *);
void model_filter_pod_topology_spread(const struct model_cycle *, int, struct model_status *);
void model_filter_inter_pod_affinity(const struct model_cycle *, int, struct model_status *);

/* PreFilter-level verdicts that reject every node at once (reference §1.3):
 * NodeAffinity's "pod affinity terms conflict" and its PreFilterResult
 * (matchFields metadata.name In).  allowed[n] is cleared for nodes outside
 * the PreFilterResult. */
void model_prefilter_node_affinity(const struct model_cycle *cy, bool *allowed,
				   struct model_status *out);

enum model_code model_score_taint_toleration(const struct model_cycle *, const int *, int, int64_t *, struct model_status *);
enum model_code model_score_node_affinity(const struct model_cycle *, const int *, int, int64_t *, struct model_status *);
enum model_code model_score_node_resources_fit(const struct model_cycle *, const int *, int, int64_t *, struct model_status *);
enum model_code model_score_pod_topology_spread(const struct model_cycle *, const int *, int, int64_t *, struct model_status *);
enum model_code model_score_inter_pod_affinity(const struct model_cycle *, const int *, int, int64_t *, struct model_status *);
enum model_code model_score_balanced_allocation(const struct model_cycle *, const int *, int, int64_t *, struct model_status *);
enum model_code model_score_image_locality(const struct model_cycle *, const int *, int, int64_t *, struct model_status *);
enum model_code model_score_selector_spread(const struct model_cycle *, const int *, int, int64_t *, struct model_status *);

#endif
