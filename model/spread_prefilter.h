/*
 * spread_prefilter.h - PodTopologySpread's PreFilter state for the hard
 * (DoNotSchedule) constraints (reference §2.11 "PreFilter (hard
 * constraints)"), built and read by filter_pod_topology_spread.c.  A type
 * of its own so that a cycle memo (cycle_memo.h) can keep the state of a
 * cycle's base for every node's Filter call.
 */
#ifndef KSO_SPREAD_PREFILTER_H
#define KSO_SPREAD_PREFILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "plugin.h"
#include "spread_constraints.h"

/* criticalPaths: the two (value, count) pairs of smallest count known. */
struct model_spread_critical_path {
	const char *value;
	int64_t num;
};

/* Not to be copied by value: domains, paths and the members point into
 * the inline storage. */
struct model_spread_prefilter {
	const struct cluster *c;
	const struct pod *pod;
	struct model_spread_constraints cs;
	struct model_spread_pairs pairs;   /* TpPairToMatchNum */
	int *domains;                      /* TpKeyToDomainsNum, per slot */
	struct model_spread_critical_path (*paths)[2];   /* TpKeyToCriticalPaths, per slot */
	/* storage for domains and paths while cs.n <= MODEL_SPREAD_INLINE:
	 * the filter runs per node, the heap would cost more than it */
	int inline_domains[MODEL_SPREAD_INLINE];
	struct model_spread_critical_path inline_paths[MODEL_SPREAD_INLINE][2];
};

/* model_spread_prefilter_init: PreFilter of cy's pod on cy->base, then
 * cy->deltas replayed as kube's AddPod/RemovePod, in order.  Returns false
 * for PreFilter Skip (no hard constraint): st then owns nothing.  When
 * true, pair with model_spread_prefilter_release. */
bool model_spread_prefilter_init(const struct model_cycle *cy,
				 struct model_spread_prefilter *st);

/* model_spread_prefilter_release: frees what st owns. */
void model_spread_prefilter_release(struct model_spread_prefilter *st);

#endif
