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

/* Not to be copied by value: the pointers may point into the struct's
 * own storage.  A state derived from another (model_spread_prefilter_
 * derive) shares that one's constraints, domain counts and self matches,
 * which AddPod/RemovePod never change, and owns its counters. */
struct model_spread_prefilter {
	const struct cluster *c;
	const struct pod *pod;
	const struct model_spread_constraints *cs;   /* own_cs or the base's */
	const int *domains;                /* TpKeyToDomainsNum, per slot */
	const bool *self;                  /* per constraint: Matches(c.sel, P.labels) */
	struct model_spread_pairs pairs;   /* TpPairToMatchNum */
	struct model_spread_critical_path (*paths)[2];   /* TpKeyToCriticalPaths, per slot */

	/* storage; the inline arrays serve while cs->n <= MODEL_SPREAD_INLINE:
	 * the filter runs per node, the heap would cost more than it */
	bool derived;                      /* cs, domains, self are the base's */
	struct model_spread_constraints own_cs;
	int *heap_domains;                 /* domains and self past the inline size */
	bool *heap_self;
	int inline_domains[MODEL_SPREAD_INLINE];
	bool inline_self[MODEL_SPREAD_INLINE];
	struct model_spread_critical_path inline_paths[MODEL_SPREAD_INLINE][2];
};

/* model_spread_prefilter_init: PreFilter of cy's pod on cy->base, then
 * cy->deltas replayed as kube's AddPod/RemovePod, in order.  Returns false
 * for PreFilter Skip (no hard constraint): st then owns nothing.  When
 * true, pair with model_spread_prefilter_release. */
bool model_spread_prefilter_init(const struct model_cycle *cy,
				 struct model_spread_prefilter *st);

/* model_spread_prefilter_init_base: model_spread_prefilter_init without
 * the deltas (the state PreFilter leaves on cy->base), for
 * model_spread_prefilter_derive to start from; false for Skip. */
bool model_spread_prefilter_init_base(const struct model_cycle *cy,
				      struct model_spread_prefilter *st);

/* model_spread_prefilter_derive: dst (uninitialised) becomes what
 * model_spread_prefilter_init(cy) gives, starting from base =
 * model_spread_prefilter_init_base of a cycle with cy's cluster, profile,
 * pod and base placement: base's counters copied, cy->deltas replayed.
 * dst borrows from base, which must outlive it.  Pair with
 * model_spread_prefilter_release. */
void model_spread_prefilter_derive(struct model_spread_prefilter *dst,
				   const struct model_spread_prefilter *base,
				   const struct model_cycle *cy);

/* model_spread_prefilter_release: frees what st owns. */
void model_spread_prefilter_release(struct model_spread_prefilter *st);

#endif
