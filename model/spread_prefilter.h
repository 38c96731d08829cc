/*
 * spread_prefilter.h - PodTopologySpread's PreFilter state for the hard
 * (DoNotSchedule) constraints (reference §2.11 "PreFilter (hard
 * constraints)"), built and read by filter_pod_topology_spread.c.  A type
 * of its own so that the cycle's state (cycle_state.h) can hold it for
 * every node's Filter call, as kube's CycleState does.
 */
#ifndef KSO_SPREAD_PREFILTER_H
#define KSO_SPREAD_PREFILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "plugin.h"
#include "spread_constraints.h"
#include "../core/arena.h"

/* criticalPaths: the two (value, count) pairs of smallest count known;
 * pair is value's index in the state's pairs, -1 for the initial "". */
struct model_spread_critical_path {
	const char *value;
	int64_t num;
	int pair;
};

/*
 * The part of the PreFilter state that depends on (cluster, profile, pod)
 * alone - the objects, never a placement: the constraints, which pods
 * each constraint counts, which node's pair takes which constraint's
 * count, and the pairs themselves (registered in node order whatever the
 * counts).  The PreFilter on a placement is then a sum over the bound
 * pods.  Heap-only (model_spread_static_new); read-only once built.
 */
struct model_spread_static {
	const struct cluster *c;
	const struct sched_profile *profile;
	int pod;
	bool skip;                         /* no hard constraint: PreFilter Skip */
	struct model_spread_constraints cs;
	bool *self;                        /* [i] Matches(c_i.sel, P.labels) */
	int *domains;                      /* [slot] TpKeyToDomainsNum */
	struct model_spread_pairs pairs;   /* the registered pairs, counts 0 */
	/* [slot * n_nodes + node]: the constraint whose count(N, c) the
	 * node's pair takes (the slot's last eligible one), -1 for none or a
	 * node that is not a host */
	int *contrib;
	/* [slot * n_nodes + node]: the pair of (slot, node[slot's key]) in
	 * pairs; -1 not registered, -2 the node lacks the key */
	int *node_pair;
	/* [i * n_pods + q]: q counts for constraint i when bound: q is not P,
	 * has no deletionTimestamp, is in P's namespace and c_i.sel matches
	 * it (never for an empty selector under the quirk) */
	bool *counted;
};

/* model_spread_static_new: the pod-only part of the PreFilter of pod
 * with prof on c.  Returns a heap object the caller owns; free with
 * model_spread_static_free. */
struct model_spread_static *model_spread_static_new(const struct cluster *c,
						    const struct sched_profile *prof,
						    int pod);

/* model_spread_static_count_self: counted[.][pod] set as for any other
 * pod Q, so that st serves every pod of pod's spread class
 * (spread_live.c): for a pod P whose static part is st's but for the
 * term Q # P, the two differ only in counted[.][P] and
 * counted[.][st->pod]; the first is never read while P is pending (only
 * bound pods are summed), the second is what this sets. */
void model_spread_static_count_self(struct model_spread_static *st);

/* model_spread_static_free: frees st (NULL is fine). */
void model_spread_static_free(struct model_spread_static *st);

/* Not to be copied by value: the pointers may point into the struct's
 * own storage.  A state copied from another (model_spread_prefilter_
 * copy) or built from a model_spread_static borrows the constraints,
 * domain counts and self matches, which AddPod/RemovePod never change,
 * and owns its counters. */
struct model_spread_prefilter {
	const struct cluster *c;
	const struct pod *pod;
	const struct model_spread_constraints *cs;   /* own_cs or the base's */
	const int *domains;                /* TpKeyToDomainsNum, per slot */
	const bool *self;                  /* per constraint: Matches(c.sel, P.labels) */
	struct model_spread_pairs pairs;   /* TpPairToMatchNum */
	struct model_spread_critical_path (*paths)[2];   /* TpKeyToCriticalPaths, per slot */

	/* storage: a literal state (init_base) owns cs, domains, self and
	 * paths on the heap; a derived one (init_static, copy) borrows cs,
	 * domains and self and takes paths from a scratch arena */
	bool derived;
	const int *node_pair;              /* the static part's, NULL when literal */
	int n_static_pairs;                /* pairs[0..n) are the static part's */
	struct model_spread_constraints own_cs;
	int *own_domains;
	bool *own_self;
	struct model_spread_critical_path (*own_paths)[2];
};

/* model_spread_prefilter_init_base: the definition: PreFilter of cy's
 * pod on cy->base (cy->deltas are not read), literally.  Returns false
 * for PreFilter Skip (no hard constraint): st then owns nothing.  When
 * true, pair with model_spread_prefilter_release. */
bool model_spread_prefilter_init_base(const struct model_cycle *cy,
				      struct model_spread_prefilter *st);

/* model_spread_prefilter_init_static: the PreFilter state on placement
 * base from sp (which must not skip, and must outlive st), its critical
 * paths taken from scratch (valid until scratch is reset to a mark taken
 * before).  Pair with model_spread_prefilter_release.
 * Lemma: for a cycle cy with sp's cluster, profile and pod on base,
 *   init_static(model_spread_static_new(c, prof, pod), base)
 *     = init_base(cy)
 * (the same pairs in the same order, counts, domains and critical paths):
 * TpPairToMatchNum is a sum over the bound pods of terms that depend on
 * the pod objects alone (tests/unit/test_spread_pod_part.c). */
void model_spread_prefilter_init_static(struct model_spread_prefilter *st,
					const struct model_spread_static *sp,
					const struct snapshot *base,
					struct arena *scratch);

/* model_spread_prefilter_copy: dst (uninitialised) becomes a copy of
 * src that model_spread_prefilter_apply changes without changing src
 * (the counters copied; the constraints, domain counts and self matches,
 * which AddPod/RemovePod never change, borrowed: src must outlive dst;
 * the critical paths taken from scratch).  Pair with
 * model_spread_prefilter_release. */
void model_spread_prefilter_copy(struct model_spread_prefilter *dst,
				 const struct model_spread_prefilter *src,
				 struct arena *scratch);

/* model_spread_prefilter_apply: kube's AddPod (sign +1) or RemovePod
 * (sign -1) of pod on node applied to st. */
void model_spread_prefilter_apply(struct model_spread_prefilter *st, int pod,
				  int node, int sign);

/* model_spread_prefilter_fresh_paths: st's critical paths as a fresh
 * PreFilter builds them from its current counts (update called for every
 * pair in registration order), whatever AddPod/RemovePod left there. */
void model_spread_prefilter_fresh_paths(struct model_spread_prefilter *st);

/*
 * The PreFilter states of a placement that changes one bind or eviction
 * at a time (the scheduler loop's, scheduler.h), kept up to date instead
 * of recounted: one state per spread class - pods whose pod-only part
 * (model_spread_static) is the same but for the term Q # P: the same
 * profile, namespace, built hard constraints (selectors, keys, skews,
 * policies), self matches and, where a constraint honours them, the same
 * node selector, required node affinity or tolerations.  The state of a
 * class is model_spread_prefilter_init_static of its first pod's static
 * part (model_spread_static_count_self) on the placement it was built
 * on; each bind or eviction since adds or takes 1 from the pair of the
 * node in every slot whose contributing constraint there counts the pod:
 * the term pts_count_static sums.  So for a pending pod P of the class on
 * the tracked placement s,
 *   model_spread_live_get(P, s) = init_static(static_new(c, prof, P), s)
 * in every field the Filter reads (pairs in the same order with the same
 * counts, domains, self, critical paths), at a cost per step of the
 * classes times the constraints, not of every pod and node.
 * tests/unit/test_spread_live.c checks the equation after every step.
 */
struct model_spread_live;

struct model_spread_live *model_spread_live_new(const struct cluster *c);
void model_spread_live_free(struct model_spread_live *l);

/* model_spread_live_get: the PreFilter state of pending pod under prof on
 * the tracked placement s (its class's, built from s when new, its
 * critical paths fresh); NULL when pod is bound on s, its PreFilter skips
 * (no hard constraint) or the class table is full (MODEL_SPREAD_LIVE_CLASSES):
 * the caller builds the state itself.  Valid until the next call. */
const struct model_spread_prefilter *
model_spread_live_get(struct model_spread_live *l,
		      const struct sched_profile *prof, int pod,
		      const struct snapshot *s);

/* model_spread_live_move: pod bound to node (sign +1) or taken off it
 * (sign -1) on the tracked placement. */
void model_spread_live_move(struct model_spread_live *l, int pod, int node,
			    int sign);

/* model_spread_prefilter_release: frees what st owns. */
void model_spread_prefilter_release(struct model_spread_prefilter *st);

#endif
