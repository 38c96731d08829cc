/*
 * cycle_memo.h - per-cycle scratch the plugins share (struct model_cycle's
 * memo; one cycle, reference §1.3): values that the literal definitions would recompute on every
 * node's Filter or Score call although they do not depend on the node.
 *
 * Keyed on (cluster, profile, pod, base): a memo serves only cycles with
 * exactly those four (asserted), and whoever points a cycle at a memo
 * keeps *base unchanged while the memo lives.  Every part depends on the
 * key alone, never on the view or the deltas, so the cycles of a
 * preemption dry run (one base, many delta lists) share one memo; what
 * depends on the view is still computed per call.  Each part is computed
 * on first use, by the thread that owns the memo.
 */
#ifndef KSO_CYCLE_MEMO_H
#define KSO_CYCLE_MEMO_H

#include <stdbool.h>

#include "plugin.h"
#include "pod_requests.h"
#include "spread_prefilter.h"

enum model_memo_part {
	MODEL_MEMO_UNSET = 0,   /* not computed yet / no memo */
	MODEL_MEMO_READY,       /* computed */
	MODEL_MEMO_SKIP         /* computed: the plugin's PreFilter skips */
};

/* model_cycle_memo_init sets the key and every flag, nothing else: a new
 * part's flag (and any pointer release reads) must be set there too. */
struct model_cycle_memo {
	/* the key */
	const struct cluster *cluster;
	const struct sched_profile *profile;
	int pod;
	const struct snapshot *base;

	/* every pod's PodRequests and NonZero (a function of the cluster):
	 * a borrowed table of the cluster (model_cycle_memo_use_pods) or
	 * the memo's own */
	struct model_pod_table *pods_lent;
	bool pods_ready;
	struct model_pod_table pods;

	/* PodTopologySpread: the PreFilter state on base, before deltas,
	 * built from the pod-only part: the cache's (borrowed, see
	 * model_cycle_memo_use_cache) or the memo's own */
	struct model_spread_cache *cache;
	struct model_spread_static *own_static;
	enum model_memo_part spread_part;
	struct model_spread_prefilter spread;

	/* InterPodAffinity: whether its PreFilter skips on base */
	enum model_memo_part ipa_part;
};

/* model_cycle_memo_init: an empty memo for cy's (cluster, profile, pod,
 * base); the caller then points cycles with that key at it.  Pair with
 * model_cycle_memo_release. */
void model_cycle_memo_init(struct model_cycle_memo *m,
			   const struct model_cycle *cy);

/* model_cycle_memo_use_cache: m takes PodTopologySpread's pod-only part
 * from k (a cache of m's cluster, which must outlive m) instead of
 * building its own; call before the memo's first use. */
void model_cycle_memo_use_cache(struct model_cycle_memo *m,
				struct model_spread_cache *k);

/* model_cycle_memo_use_pods: m reads the pod rows from t (a table of
 * m's cluster, which must outlive m) instead of filling its own. */
void model_cycle_memo_use_pods(struct model_cycle_memo *m,
			       struct model_pod_table *t);

/* model_cycle_memo_borrow: model_cycle_memo_use_cache(m, k) when k is
 * not NULL and model_cycle_memo_use_pods(m, t) when t is not NULL: the
 * caches a context lends (struct model_cycle_result's spread_cache and
 * pod_table, either of which may be absent). */
void model_cycle_memo_borrow(struct model_cycle_memo *m,
			     struct model_spread_cache *k,
			     struct model_pod_table *t);

/* model_cycle_memo_release: frees what m owns. */
void model_cycle_memo_release(struct model_cycle_memo *m);

/* model_cycle_memo_pods: the pod table of cy's memo, or NULL when cy has
 * no memo (compute literally then). */
struct model_pod_table *model_cycle_memo_pods(const struct model_cycle *cy);

/* model_cycle_memo_spread: PodTopologySpread's PreFilter state on
 * cy->base before any delta (model_spread_prefilter_init_base), owned by
 * cy's memo.  Returns MODEL_MEMO_READY (*out set), MODEL_MEMO_SKIP
 * (PreFilter Skip), or MODEL_MEMO_UNSET when cy has no memo (compute
 * literally then). */
enum model_memo_part model_cycle_memo_spread(
	const struct model_cycle *cy,
	const struct model_spread_prefilter **out);

/* model_cycle_memo_ipa_skip: the InterPodAffinity PreFilter's Skip
 * verdict on cy->base as remembered by cy's memo: MODEL_MEMO_SKIP or
 * MODEL_MEMO_READY (does not skip), MODEL_MEMO_UNSET when cy has no memo
 * or the memo has no verdict yet (compute it, then record it with
 * model_cycle_memo_ipa_record). */
enum model_memo_part model_cycle_memo_ipa_skip(const struct model_cycle *cy);

/* model_cycle_memo_ipa_record: records skips, the PreFilter verdict on
 * cy->base, in cy's memo (nothing when cy has none). */
void model_cycle_memo_ipa_record(const struct model_cycle *cy, bool skips);

#endif
