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

#endif
