/*
 * cycle_clone.c - kube's CycleState.Clone() for the oracle's cycle state
 * (reference §3.3: "SelectVictimsOnNode on copies of node and cycle
 * state").  Preemption evaluates every candidate node on its own copy of
 * the PreFilter state, edited by RemovePod / AddPod, so the PreFilter
 * work is done once per preemption and never recomputed per node.
 *
 * What a copy must own: everything AddPod / RemovePod (spread counts and
 * critical paths, InterPodAffinity's three topology maps) or the filters
 * (the nominated-pods request buffer) write.  The compiled constraints,
 * terms, the pod's request and the PreFilterResult are only read after
 * PreFilter and stay shared with the source.
 */
#include "internal.h"

#include <assert.h>
#include <string.h>

/* PodTopologySpread's per-key counters (TpPairToMatchNum, critical paths). */
static void clone_spread(struct oracle_cycle *dst, const struct oracle_cycle *src)
{
	const struct oracle_spread_state *s = &src->spread;
	struct oracle_spread_state *d = &dst->spread;
	if (!s->keys)
		return;
	d->keys = arena_array(&dst->arena, (size_t)s->n_keys + 1, sizeof(*d->keys));
	for (int k = 0; k < s->n_keys; k++) {
		const struct oracle_spread_key *from = &s->keys[k];
		struct oracle_spread_key *to = &d->keys[k];
		size_t nd = (size_t)from->topo->n_dom + 1;
		*to = *from;
		to->match = arena_array(&dst->arena, nd, sizeof(int64_t));
		to->reg = arena_array(&dst->arena, nd, sizeof(bool));
		memcpy(to->match, from->match, nd * sizeof(int64_t));
		memcpy(to->reg, from->reg, nd * sizeof(bool));
	}
}

/* One topologyToMatchedTermCount; room for src's capacity so later keys
 * (oracle_tmap_key) grow the copy, not the source. */
static void clone_tmap(struct oracle_cycle *dst, struct oracle_tmap *to,
		       const struct oracle_tmap *from)
{
	*to = *from;
	if (!from->k)
		return;
	to->k = arena_array(&dst->arena, (size_t)from->cap + 1, sizeof(*to->k));
	for (int i = 0; i < from->n; i++) {
		size_t nd = (size_t)from->k[i].topo->n_dom + 1;
		to->k[i].topo = from->k[i].topo;
		to->k[i].cnt = arena_array(&dst->arena, nd, sizeof(int64_t));
		to->k[i].has = arena_array(&dst->arena, nd, sizeof(bool));
		memcpy(to->k[i].cnt, from->k[i].cnt, nd * sizeof(int64_t));
		memcpy(to->k[i].has, from->k[i].has, nd * sizeof(bool));
	}
}

void oracle_cycle_clone(struct oracle_cycle *dst, const struct oracle_cycle *src)
{
	assert(dst && src && dst != src);
	*dst = *src;
	arena_init(&dst->arena);
	dst->scratch_req = arena_array(&dst->arena, (size_t)src->o->d->n_res + 1,
				       sizeof(int64_t));
	clone_spread(dst, src);
	clone_tmap(dst, &dst->existing_anti, &src->existing_anti);
	clone_tmap(dst, &dst->aff_cnt, &src->aff_cnt);
	clone_tmap(dst, &dst->anti_cnt, &src->anti_cnt);
}
