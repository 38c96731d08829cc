/*
 * affinity_prefilter.h - InterPodAffinity's PreFilter state (reference
 * §2.10 "PreFilter", "AddPod / RemovePod"), built and read by
 * filter_inter_pod_affinity.c.  A type of its own so that the cycle's
 * state (cycle_state.h) can hold it for every node's Filter call, as
 * kube's CycleState does.
 *
 * Spec, for the incoming pod P on placement base (E ranges over the pods
 * bound in base other than P, M over E's node; a map counts per topology
 * pair (key, M[key]), only for an M carrying key):
 *   ExistingAnti == [pair |-> |{(E, t) : t \in E.requiredAntiAffinity,
 *                                        Matches(t, P)}|]
 *   Aff          == [pair |-> |{(E, t) : t \in P.requiredAffinity,
 *                                        MatchesAll(P.requiredAffinity, E)}|]
 *   Anti         == [pair |-> |{(E, t) : t \in P.requiredAntiAffinity,
 *                                        Matches(t, E)}|]
 *   AffPods      == |{E : MatchesAll(P.requiredAffinity, E)}|
 *   Skip         == ExistingAnti = {} /\ P has no required (anti-)affinity
 * AddPod(Q, N) / RemovePod(Q, N) add / subtract Q's own terms of each
 * sum, as if Q were (or were no longer) one of the E on N: each map is
 * a sum over the pods, so the state after them is the definition on the
 * edited placement - except Skip, which stays what base decided.
 *
 * Which term matches which pod depends on the objects alone, never on a
 * placement: that part (struct model_affinity_static) is worked out once
 * per pod by whoever evaluates many placements, and kept (the
 * enumerator, given to the cycle as struct model_given's affinity); a
 * cycle given none evaluates each match it needs.
 */
#ifndef KSO_AFFINITY_PREFILTER_H
#define KSO_AFFINITY_PREFILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "plugin.h"
#include "spread_constraints.h"
#include "../core/arena.h"

/* The pod-only part of P's PreFilter: for every pod E (E = P's entries
 * unused), which terms match.  Heap-only (model_affinity_static_new);
 * read-only once built. */
struct model_affinity_static {
	const struct cluster *c;
	int pod;
	bool *aff_all;             /* [e] MatchesAll(P.requiredAffinity, E) */
	bool *anti;                /* [e * n_anti(P) + i] Matches(P's anti i, E) */
	int *existing_at;          /* [e] E's first entry in existing */
	bool *existing;            /* [existing_at[e] + k] Matches(E's anti k, P) */
};

/* model_affinity_static_new: the pod-only part of pod's PreFilter on c.
 * Free with model_affinity_static_free (NULL is fine). */
struct model_affinity_static *model_affinity_static_new(const struct cluster *c,
							int pod);
void model_affinity_static_free(struct model_affinity_static *sp);

/* A map's pairs are (slot, value) of a model_spread_pairs table, slot
 * the index of the pair's topology key in keys. */
struct model_affinity_prefilter {
	const struct cluster *c;
	int pod;
	int self;                          /* the pod never counted as an E:
					    * pod, or -1 in a kept class state
					    * (affinity_live.c), whose first
					    * pod counts once bound */
	const struct model_affinity_static *sp;   /* P's pod-only part, or
						   * NULL: evaluated */
	const char **keys;                 /* the topology keys met */
	int n_keys, cap_keys;
	struct arena *scratch;             /* where keys and the maps grow */
	struct model_spread_pairs existing_anti, aff, anti;
	int64_t existing_anti_sum;         /* the sum of ExistingAnti's counts */
	int64_t aff_sum;                   /* ... of Aff's */
	int64_t aff_pods;                  /* AffPods */
};

/* model_affinity_prefilter_init: the PreFilter of cy's pod on cy->base
 * (cy->deltas and cy->state are not read) with sp, its pod-only part
 * (NULL: none; it must outlive st), its storage from scratch (given back when
 * scratch is reset to a mark taken before).  Returns false for its Skip;
 * true: the state is st. */
bool model_affinity_prefilter_init(struct model_affinity_prefilter *st,
				   const struct model_cycle *cy,
				   const struct model_affinity_static *sp,
				   struct arena *scratch);

/* model_affinity_prefilter_copy: dst becomes a copy of src that
 * model_affinity_prefilter_apply changes without changing src, its
 * storage from scratch. */
void model_affinity_prefilter_copy(struct model_affinity_prefilter *dst,
				   const struct model_affinity_prefilter *src,
				   struct arena *scratch);

/* model_affinity_prefilter_apply: AddPod (sign +1) or RemovePod (-1) of
 * pod q on node. */
void model_affinity_prefilter_apply(struct model_affinity_prefilter *st,
				    int q, int node, int sign);

/* model_affinity_prefilter_count: the three maps of pod on placement s
 * as init builds them, but never Skip and with self -1 (every bound pod
 * counts, pod too), storage from scratch: the start of a kept class
 * state (affinity_live.c). */
void model_affinity_prefilter_count(struct model_affinity_prefilter *st,
				    const struct cluster *c, int pod,
				    const struct snapshot *s,
				    struct arena *scratch);

/*
 * The InterPodAffinity PreFilter states of a placement that changes one
 * bind or eviction at a time (the scheduler loop's, scheduler.h), kept
 * up to date instead of recounted, as spread_live.c does for
 * PodTopologySpread: one state per affinity class - pods with the same
 * namespace, labels, required affinity terms and required anti-affinity
 * terms, which decide every term match the maps count (Matches(t, P)
 * reads P's namespace, its namespace's labels and P's labels; P's own
 * terms are the class's).  The class's state is
 * model_affinity_prefilter_count of its first pod on the placement it
 * was built on; each bind or eviction since is applied to it
 * (model_affinity_prefilter_apply, AddPod / RemovePod: the maps are sums
 * over the bound pods).  So for a pending pod P of the class on the
 * tracked placement s, the kept state equals init(P on s) in every map
 * count Filter reads (a pair at 0 is as absent), in the sums and in
 * AffPods; Skip(P, s) == no required term of P /\ the ExistingAnti sum
 * is 0 (the pairs existing_anti_some looks for are those the sum
 * counts).  tests/unit/test_affinity_live.c checks this after every step.
 */
struct model_affinity_live;

struct model_affinity_live *model_affinity_live_new(const struct cluster *c);
void model_affinity_live_free(struct model_affinity_live *l);

/* model_affinity_live_get: the PreFilter state of pending pod on the
 * tracked placement s, *skip its Skip; NULL when pod is bound on s or
 * the class table is full (MODEL_AFFINITY_LIVE_CLASSES): the caller
 * builds the state itself.  The state's pod is its class's first pod;
 * valid until the next call. */
const struct model_affinity_prefilter *
model_affinity_live_get(struct model_affinity_live *l, int pod,
			const struct snapshot *s, bool *skip);

/* model_affinity_live_move: pod bound to node (sign +1) or taken off it
 * (sign -1) on the tracked placement. */
void model_affinity_live_move(struct model_affinity_live *l, int pod, int node,
			      int sign);

#endif
