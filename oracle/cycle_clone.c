/*
 * cycle_clone.c - kube's CycleState.Clone() for the oracle's cycle state
 * (reference §3.3: "SelectVictimsOnNode on copies of node and cycle
 * state").  Preemption evaluates every candidate node on its own copy of
 * the PreFilter state, edited by RemovePod / AddPod, so the PreFilter
 * work is done once per preemption and never recomputed per node.
 *
 * What a copy must own: everything AddPod / RemovePod write (spread
 * counts and critical paths, InterPodAffinity's three topology maps; the
 * filters' nominated-pods request buffer is the oracle's, filled before
 * each use).  The compiled constraints, terms, the pod's request and the
 * PreFilterResult are only read after PreFilter and stay shared with the
 * source.  The copy allocates from the oracle's cycle arena, as the
 * source does.
 *
 * One clone serves a whole preemption: after each node's dry run
 * oracle_cycle_clone_reset copies back only what RemovePod / AddPod on
 * that node can have written (its domains' counts, the critical paths),
 * so a candidate costs O(topology keys), not a copy of every counter.
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
	d->keys = arena_array(dst->arena, (size_t)s->n_keys + 1, sizeof(*d->keys));
	for (int k = 0; k < s->n_keys; k++) {
		const struct oracle_spread_key *from = &s->keys[k];
		struct oracle_spread_key *to = &d->keys[k];
		size_t nd = (size_t)from->topo->n_dom + 1;
		*to = *from;
		to->match = arena_array(dst->arena, nd, sizeof(int64_t));
		to->reg = arena_array(dst->arena, nd, sizeof(bool));
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
	to->k = arena_array(dst->arena, (size_t)from->cap + 1, sizeof(*to->k));
	for (int i = 0; i < from->n; i++) {
		size_t nd = (size_t)from->k[i].topo->n_dom + 1;
		to->k[i].topo = from->k[i].topo;
		to->k[i].cnt = arena_array(dst->arena, nd, sizeof(int64_t));
		to->k[i].has = arena_array(dst->arena, nd, sizeof(bool));
		memcpy(to->k[i].cnt, from->k[i].cnt, nd * sizeof(int64_t));
		memcpy(to->k[i].has, from->k[i].has, nd * sizeof(bool));
	}
}

void oracle_cycle_clone(struct oracle_cycle *dst, const struct oracle_cycle *src)
{
	assert(dst && src && dst != src);
	*dst = *src;
	/* the clone allocates from the same cycle arena */
	src->o->d->live_cycles++;
	clone_spread(dst, src);
	clone_tmap(dst, &dst->existing_anti, &src->existing_anti);
	clone_tmap(dst, &dst->aff_cnt, &src->aff_cnt);
	clone_tmap(dst, &dst->anti_cnt, &src->anti_cnt);
}

/* ------------------------------------------------------ reset after a dry run */

/* RemovePod / AddPod of a pod on node write TpPairToMatchNum at node's
 * domain of each key (updateWithPod) and the critical paths; the pair
 * registrations and domain counts are PreFilter's only. */
static void reset_spread(struct oracle_cycle *dst, const struct oracle_cycle *src,
			 int node)
{
	const struct oracle_spread_state *s = &src->spread;
	for (int k = 0; k < s->n_keys; k++) {
		const struct oracle_spread_key *from = &s->keys[k];
		struct oracle_spread_key *to = &dst->spread.keys[k];
		int64_t *match = to->match;
		bool *reg = to->reg;
		*to = *from;
		to->match = match;
		to->reg = reg;
		int dom = from->topo->dom[node];
		if (dom >= 0) {
			match[dom] = from->match[dom];
			reg[dom] = from->reg[dom];
		}
	}
}

/* topologyToMatchedTermCount.update writes node's domain of the term's
 * key only (oracle_tmap_add); the keys are dst's own copies in src's
 * order, as long as none was added. */
static void reset_tmap(struct oracle_tmap *to, const struct oracle_tmap *from, int node)
{
	assert(to->n == from->n);
	for (int i = 0; i < from->n; i++) {
		int dom = from->k[i].topo->dom[node];
		if (dom < 0)
			continue;
		to->k[i].cnt[dom] = from->k[i].cnt[dom];
		to->k[i].has[dom] = from->k[i].has[dom];
	}
	to->nonzero = from->nonzero;
	to->any = from->any;
}

void oracle_cycle_clone_reset(struct oracle_cycle *dst, const struct oracle_cycle *src,
			      int node)
{
	assert(dst && src && dst != src && node >= 0 && node < src->c->n_nodes);
	if (dst->existing_anti.n != src->existing_anti.n ||
	    dst->aff_cnt.n != src->aff_cnt.n || dst->anti_cnt.n != src->anti_cnt.n) {
		oracle_cycle_end(dst);
		oracle_cycle_clone(dst, src);
		return;
	}
	dst->vr_conflicts = src->vr_conflicts;
	dst->aff_anywhere = src->aff_anywhere;
	reset_spread(dst, src, node);
	reset_tmap(&dst->existing_anti, &src->existing_anti, node);
	reset_tmap(&dst->aff_cnt, &src->aff_cnt, node);
	reset_tmap(&dst->anti_cnt, &src->anti_cnt, node);
}
