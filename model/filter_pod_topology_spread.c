/*
 * filter_pod_topology_spread.c - the PodTopologySpread filter: PreFilter
 * state (match counts per topology pair, domain counts, critical paths),
 * its AddPod/RemovePod updates, and Filter (reference §2.11 "PreFilter
 * (hard constraints)" and "Filter"; quirks §7 via core/quirks.h).
 *
 * kube computes the PreFilter state once on the placement PreFilter saw
 * and patches it incrementally for nominated pods and preemption victims;
 * the patch is not the same as recounting (no deletionTimestamp or `{}`
 * rule, approximate critical paths), so the model does the same: the
 * cycle's state (cycle_state.h) holds the PreFilter state on cy->base,
 * and each clone of it the AddPod/RemovePod calls made on the clone, in
 * order.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cycle_state.h"
#include "plugin.h"
#include "../core/quirks.h"
#include "spread_prefilter.h"
#include "../core/xalloc.h"

#define REASON_MISSING_LABEL \
	"node(s) didn't match pod topology spread constraints (missing required label)"
#define REASON_SKEW "node(s) didn't match pod topology spread constraints"

/*
 * Spec (criticalPaths.update):
 *   update(p, v, k) ==
 *     IF v = p[0].value \/ v = p[1].value
 *     THEN set that entry's count to k; IF p[0].num > p[1].num THEN swap
 *     ELSE IF k < p[0].num THEN p[1] := p[0]; p[0] := (v, k)
 *     ELSE IF k < p[1].num THEN p[1] := (v, k)
 * Initially p[0] = p[1] = ("", MaxInt32).  Only values held in p are
 * compared, so after an increase p[0] may no longer be the minimum.
 */

/* v = p.value: every value update sees is pair `pair` of the slot's own
 * pairs and a value names one pair of a slot, so a path holding a pair
 * holds v exactly when it holds that pair; the initial "" holds v when v
 * is "" (a label value may be empty). */
static bool path_holds(const struct model_spread_critical_path *p, const char *v,
		       int pair)
{
	return p->pair >= 0 ? p->pair == pair : v[0] == '\0';
}

static inline void critical_path_update(struct model_spread_critical_path p[2],
				 const struct model_spread_pairs *pairs, int pair,
				 int64_t k)
{
	const char *v = pairs->items[pair].value;
	int i = -1;
	if (path_holds(&p[0], v, pair))
		i = 0;
	else if (path_holds(&p[1], v, pair))
		i = 1;
	if (i >= 0) {
		p[i].num = k;
		if (p[0].num > p[1].num) {
			struct model_spread_critical_path t = p[0];
			p[0] = p[1];
			p[1] = t;
		}
		return;
	}
	if (k < p[0].num) {
		p[1] = p[0];
		p[0].value = v;
		p[0].num = k;
		p[0].pair = pair;
	} else if (k < p[1].num) {
		p[1].value = v;
		p[1].num = k;
		p[1].pair = pair;
	}
}

/*
 * Spec (PreFilter counts, on the placement PreFilter saw):
 *   Hosts == { N \in Nodes : \A c \in C : c.key \in DOMAIN N.labels }
 *   perNode(N)[slot(c)] = count(N, c) for c \in C in order with
 *       Eligible(P, N, c)        \* a later same-slot c overwrites
 *   TpPairToMatchNum[(slot, N[key])] = SUM_{N \in Hosts} perNode(N)[slot]
 * Pairs are registered in node order; a pair exists even at count 0.
 */
static void pts_count_base(struct model_spread_prefilter *st, const struct snapshot *base,
			   int self)
{
	const struct cluster *cl = st->c;
	int nc = st->cs->n;
	size_t cells = (size_t)nc * (size_t)cl->n_nodes;
	int64_t *counts = xcalloc(cells + 1, sizeof *counts);
	for (int i = 0; i < nc; i++)
		model_spread_count_by_node(base, st->pod->ns, self,
					   &st->cs->items[i],
					   counts + (size_t)i * (size_t)cl->n_nodes);
	int64_t *last = xcalloc((size_t)nc, sizeof *last);
	bool *set = xcalloc((size_t)nc, sizeof *set);
	for (int n = 0; n < cl->n_nodes; n++) {
		const struct node *node = &cl->nodes[n];
		if (!model_spread_node_has_keys(node, st->cs))
			continue;
		memset(set, 0, sizeof *set * (size_t)nc);
		for (int i = 0; i < nc; i++) {
			if (!model_spread_node_eligible(st->pod, node, &st->cs->items[i]))
				continue;
			int s = model_spread_slot(st->cs, i);
			last[s] = counts[(size_t)i * (size_t)cl->n_nodes + (size_t)n];
			set[s] = true;
		}
		for (int s = 0; s < nc; s++) {
			if (!set[s])
				continue;
			const char *v = labels_get(&node->labels, st->cs->items[s].key);
			int k = model_spread_pairs_add(&st->pairs, s, v, NULL);
			st->pairs.items[k].count += last[s];
		}
	}
	free(set);
	free(last);
	free(counts);
}

/* DomainsNum per slot: the number of pairs registered for it. */
static void pts_build_domains(const struct model_spread_prefilter *st, int *domains)
{
	for (int s = 0; s < st->cs->n; s++)
		domains[s] = 0;
	for (int k = 0; k < st->pairs.n; k++)
		domains[st->pairs.items[k].slot]++;
}

/* The critical paths built by calling update for every pair.  kube walks
 * a Go map here (random order); kso walks pairs in registration order,
 * which only decides among equal counts. */
static void pts_build_paths(struct model_spread_prefilter *st)
{
	for (int s = 0; s < st->cs->n; s++) {
		st->paths[s][0].value = st->paths[s][1].value = "";
		st->paths[s][0].num = st->paths[s][1].num = INT32_MAX;
		st->paths[s][0].pair = st->paths[s][1].pair = -1;
	}
	for (int k = 0; k < st->pairs.n; k++) {
		const struct model_spread_pair *pr = &st->pairs.items[k];
		critical_path_update(st->paths[pr->slot], &st->pairs, k, pr->count);
	}
}

/* pts_count_base from the pod-only part: TpPairToMatchNum[(slot, N[key])]
 * sums count(N, c) over the hosts N, c the slot's contributing constraint
 * on N; count(N, c) is the number of pods bound to N that c counts, so
 * each bound pod adds 1 to the pair of its node in every slot whose
 * contributing constraint there counts it. */
static void pts_count_static(struct model_spread_prefilter *st,
			     const struct model_spread_static *sp,
			     const struct snapshot *base)
{
	const struct cluster *cl = st->c;
	size_t nn = (size_t)cl->n_nodes, np = (size_t)cl->n_pods;
	int nc = st->cs->n;
	for (int q = 0; q < cl->n_pods; q++) {
		int n = base->pod_node[q];
		if (n < 0)
			continue;
		for (int s = 0; s < nc; s++) {
			size_t cell = (size_t)s * nn + (size_t)n;
			int i = sp->contrib[cell];
			if (i < 0 || !sp->counted[(size_t)i * np + (size_t)q])
				continue;
			assert(sp->node_pair[cell] >= 0);
			st->pairs.items[sp->node_pair[cell]].count++;
		}
	}
}

/*
 * Spec (AddPod/RemovePod of Q on node M with sign d, in call order):
 *   IF Q.ns # P.ns \/ M \notin Hosts THEN skip
 *   ELSE \A c \in C in order with Matches(c.sel, Q.labels) /\ Eligible(P, M, c):
 *          TpPairToMatchNum[(slot(c), M[c.key])] += d
 *          update(paths[slot(c)], M[c.key], TpPairToMatchNum[...])
 * Unlike count(): Q's deletionTimestamp is not looked at and `{}` matches.
 */
static void pts_apply_delta(struct model_spread_prefilter *st, const struct model_delta *d)
{
	assert(d->pod >= 0 && d->pod < st->c->n_pods);
	assert(d->node >= 0 && d->node < st->c->n_nodes);
	const struct pod *q = &st->c->pods[d->pod];
	const struct node *m = &st->c->nodes[d->node];
	if (strcmp(q->ns, st->pod->ns) != 0)
		return;
	if (!model_spread_node_has_keys(m, st->cs))
		return;
	for (int i = 0; i < st->cs->n; i++) {
		const struct model_spread_constraint *c = &st->cs->items[i];
		if (!model_selector_matches(&c->sel, &q->labels))
			continue;
		if (!model_spread_node_eligible(st->pod, m, c))
			continue;
		int s = model_spread_slot(st->cs, i);
		const char *v = labels_get(&m->labels, c->key);
		int k = model_spread_pairs_add(&st->pairs, s, v, NULL);
		st->pairs.items[k].count += d->sign;
		critical_path_update(st->paths[s], &st->pairs, k, st->pairs.items[k].count);
	}
}

void model_spread_prefilter_apply(struct model_spread_prefilter *st, int pod,
				  int node, int sign)
{
	struct model_delta d = {.pod = pod, .node = node, .sign = sign};
	pts_apply_delta(st, &d);
}

bool model_spread_prefilter_init_base(const struct model_cycle *cy,
				      struct model_spread_prefilter *st)
{
	assert(cy && st);
	memset(st, 0, sizeof *st);
	st->c = cy->cluster;
	st->pod = &cy->cluster->pods[cy->pod];
	model_spread_constraints_build(cy->cluster, cy->profile, cy->pod, true,
				       &st->own_cs);
	st->cs = &st->own_cs;
	int n = st->cs->n;
	if (n == 0) {
		model_spread_constraints_release(&st->own_cs);
		return false;
	}
	model_spread_pairs_init(&st->pairs, NULL);
	int *domains = st->own_domains = xcalloc((size_t)n, sizeof *domains);
	bool *self = st->own_self = xcalloc((size_t)n, sizeof *self);
	st->paths = st->own_paths = xcalloc((size_t)n, sizeof *st->paths);
	/* self (see the Filter's spec) depends on the constraint only */
	for (int i = 0; i < n; i++)
		self[i] = model_selector_matches(&st->cs->items[i].sel,
						 &st->pod->labels);
	st->self = self;
	pts_count_base(st, cy->base, cy->pod);
	pts_build_domains(st, domains);
	pts_build_paths(st);
	st->domains = domains;
	return true;
}

/* The fields of a derived state (cs, domains, self borrowed, paths in a
 * scratch arena) that no derived state reads set to "nothing owned": a
 * derived state is built for every cycle. */
static void derived_init(struct model_spread_prefilter *st,
			 const struct cluster *c, const struct pod *pod)
{
	st->c = c;
	st->pod = pod;
	st->derived = true;
	st->own_domains = NULL;
	st->own_self = NULL;
	st->own_paths = NULL;
}

void model_spread_prefilter_init_static(struct model_spread_prefilter *st,
					const struct model_spread_static *sp,
					const struct snapshot *base,
					struct arena *scratch)
{
	assert(st && sp && base && !sp->skip && base->cluster == sp->c);
	derived_init(st, sp->c, &sp->c->pods[sp->pod]);
	st->cs = &sp->cs;
	st->domains = sp->domains;
	st->self = sp->self;
	st->node_pair = sp->node_pair;
	st->n_static_pairs = sp->pairs.n;
	model_spread_pairs_copy(&st->pairs, &sp->pairs, scratch);
	st->paths = arena_take_array(scratch, (size_t)st->cs->n, sizeof *st->paths);
	pts_count_static(st, sp, base);
	pts_build_paths(st);
}

void model_spread_prefilter_copy(struct model_spread_prefilter *dst,
				 const struct model_spread_prefilter *src,
				 struct arena *scratch)
{
	assert(dst && src);
	derived_init(dst, src->c, src->pod);
	dst->cs = src->cs;
	dst->domains = src->domains;
	dst->self = src->self;
	dst->node_pair = src->node_pair;
	dst->n_static_pairs = src->n_static_pairs;
	model_spread_pairs_copy(&dst->pairs, &src->pairs, scratch);
	dst->paths = arena_take_array(scratch, (size_t)dst->cs->n,
				      sizeof *dst->paths);
	memcpy(dst->paths, src->paths, sizeof *dst->paths * (size_t)dst->cs->n);
}

void model_spread_prefilter_fresh_paths(struct model_spread_prefilter *st)
{
	assert(st);
	pts_build_paths(st);
}

void model_spread_prefilter_release(struct model_spread_prefilter *st)
{
	assert(st);
	if (!st->derived)
		model_spread_constraints_release(&st->own_cs);
	model_spread_pairs_release(&st->pairs);
	free(st->own_paths);
	free(st->own_domains);
	free(st->own_self);
}

/*
 * Spec (Filter, each hard constraint c in order; the first failure wins):
 *   c.key \notin DOMAIN N.labels            -> UAU (missing required label)
 *   DomainsNum[slot] = 0                     -> c is skipped
 *   minMatch == IF DomainsNum[slot] < c.minDomains THEN 0 ELSE paths[slot][0].num
 *   self     == IF Matches(c.sel, P.labels) THEN 1 ELSE 0
 *   TpPairToMatchNum[(slot, N[c.key])] + self - minMatch > c.maxSkew
 *                                            -> Unschedulable
 * v1.30 differences from the seed's "matching num - min < maxSkew": the
 * counts and the minimum come from the PreFilter state (not the current
 * placement), minDomains, node inclusion policies, matchLabelKeys.
 */
/* The pair of N[c.key] in the slot's counters (-1 none) into *k, false
 * when N lacks the key.  A state from the pod-only part knows each node's
 * pair among the part's pairs; only a pair a delta added is looked up. */
static bool pts_node_pair(const struct model_spread_prefilter *st, int node, int i,
			  int *k)
{
	const struct model_spread_constraint *c = &st->cs->items[i];
	int s = c->slot;   /* model_spread_slot, read in place: per node */
	if (st->node_pair) {
		*k = st->node_pair[(size_t)s * (size_t)st->c->n_nodes + (size_t)node];
		if (*k == -2)
			return false;
		if (*k >= 0 || st->pairs.n == st->n_static_pairs)
			return true;
	}
	const char *v = labels_get(&st->c->nodes[node].labels, c->key);
	if (!v)
		return false;
	*k = model_spread_pairs_find(&st->pairs, s, v);
	return true;
}

/* minMatch's minimum for slot s: v1.30's critical path p[0].num, which
 * after AddPod/RemovePod may not be the minimum
 * (QUIRK_SPREAD_APPROX_CRITICAL_PATHS), or without the quirk the intended
 * semantics, the true minimum of the slot's counts. */
static int64_t pts_min(const struct model_spread_prefilter *st, int s,
		       bool approx)
{
	if (approx)
		return st->paths[s][0].num;
	int64_t min = INT32_MAX;
	for (int k = 0; k < st->pairs.n; k++)
		if (st->pairs.items[k].slot == s && st->pairs.items[k].count < min)
			min = st->pairs.items[k].count;
	return min;
}

static void pts_check_node(const struct model_spread_prefilter *st, int node,
			   bool approx, struct sched_status *out)
{
	for (int i = 0; i < st->cs->n; i++) {
		const struct model_spread_constraint *c = &st->cs->items[i];
		int k;
		if (!pts_node_pair(st, node, i, &k)) {
			sched_status_add(out, SCHED_UAU, REASON_MISSING_LABEL);
			return;
		}
		int s = c->slot;
		if (st->domains[s] == 0)
			continue;   /* kube: "internal error", constraint skipped */
		int64_t min_match = st->domains[s] < c->min_domains ? 0
				    : pts_min(st, s, approx);
		int64_t self = st->self[i] ? 1 : 0;
		int64_t match = k >= 0 ? st->pairs.items[k].count : 0;
		if (match + self - min_match > c->max_skew) {
			sched_status_add(out, SCHED_UNSCHEDULABLE, REASON_SKEW);
			return;
		}
	}
}

/* Filter reads the PreFilter state from the cycle's state, as kube's
 * reads it from CycleState: no PreFilter state (Skip) means no Filter. */
void model_filter_pod_topology_spread(const struct model_cycle *cy, int node,
				      struct sched_status *out)
{
	assert(cy && out && node >= 0 && node < cy->cluster->n_nodes);
	sched_status_ok(out);
	const struct model_cycle_state *state = cy->state;
	if (!state->has_spread)
		return;
	pts_check_node(&state->spread, node,
		       config_quirk(&cy->cluster->config,
				    QUIRK_SPREAD_APPROX_CRITICAL_PATHS), out);
}
