/*
 * cycle_memo.h - per-cycle scratch the plugins share (struct model_cycle's
 * memo): values that the literal definitions would recompute on every
 * node's Filter or Score call although they only depend on the cycle.
 *
 * Keyed on (cluster, profile, pod, base): a memo serves only cycles with
 * exactly those four (asserted), and whoever points a cycle at a memo
 * (model_schedule_cycle) keeps *base unchanged while the memo lives.
 * Parts derived from the placement Filter sees (view) are only handed out
 * to cycles without deltas (view is then base, e.g. not the nominated-pods
 * pass 1 of model_feasibility, not preemption's dry runs); those cycles
 * compute literally.  Each part is computed on first use, by the thread
 * that owns the cycle.
 */
#ifndef KSO_CYCLE_MEMO_H
#define KSO_CYCLE_MEMO_H

#include <stdbool.h>

#include "plugin.h"
#include "pod_requests.h"
#include "spread_prefilter.h"

enum model_memo_part {
	MODEL_MEMO_UNSET = 0,   /* not computed yet */
	MODEL_MEMO_READY,       /* computed */
	MODEL_MEMO_SKIP         /* computed: the plugin's PreFilter skips */
};

struct model_cycle_memo {
	/* the key */
	const struct cluster *cluster;
	const struct sched_profile *profile;
	int pod;
	const struct snapshot *base;

	/* NodeResourcesFit filter and scores, BalancedAllocation: every
	 * node's bookkeeping on base */
	enum model_memo_part usage_part;
	struct model_usage usage;

	/* PodTopologySpread filter: the PreFilter state on base */
	enum model_memo_part spread_part;
	struct model_spread_prefilter spread;
};

/* model_cycle_memo_init: an empty memo for cy's (cluster, profile, pod,
 * base); the caller then sets cy->memo to it.  Pair with
 * model_cycle_memo_release. */
void model_cycle_memo_init(struct model_cycle_memo *m,
			   const struct model_cycle *cy);

/* model_cycle_memo_release: frees what m owns. */
void model_cycle_memo_release(struct model_cycle_memo *m);

/* model_cycle_memo_usage: every node's bookkeeping on cy->view (row n =
 * model_node_requested(cy->view, n, ...)), owned by cy's memo; NULL when
 * cy has no memo or has deltas (compute literally then). */
const struct model_usage *model_cycle_memo_usage(const struct model_cycle *cy);

/* model_cycle_memo_spread: PodTopologySpread's PreFilter state of cy
 * (model_spread_prefilter_init), owned by cy's memo.  Returns
 * MODEL_MEMO_READY (*out set), MODEL_MEMO_SKIP (PreFilter Skip), or
 * MODEL_MEMO_UNSET when cy has no memo or has deltas (compute literally
 * then). */
enum model_memo_part model_cycle_memo_spread(
	const struct model_cycle *cy,
	const struct model_spread_prefilter **out);

#endif
