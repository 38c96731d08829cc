/*
 * spread_static.c - the part of PodTopologySpread's PreFilter (reference
 * §2.11 "PreFilter (hard constraints)") that the pod objects alone decide
 * (see spread_prefilter.h; the enumerator keeps it per pod across
 * states, enum/spread_cache.c).  Nothing here
 * defines anything new: each table is a term of the spec of pts_count_base
 * (filter_pod_topology_spread.c) evaluated once for every placement.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "../core/quirks.h"
#include "spread_prefilter.h"
#include "../core/xalloc.h"

/* counted[i][q]: the terms of count(N, c_i) about Q alone:
 *   ~Empty(c.sel) (quirk) /\ Q # P /\ Q.deletionTimestamp = nil
 *   /\ Q.ns = P.ns /\ Matches(c.sel, Q.labels) */
static bool counts(const struct model_spread_static *st,
		   const struct model_selector *sel, int q)
{
	const struct cluster *c = st->c;
	const struct pod *pq = &c->pods[q];
	if (pq->deletion.has || strcmp(pq->ns, c->pods[st->pod].ns) != 0)
		return false;
	return model_selector_matches(sel, &pq->labels);
}

static bool counts_nobody(const struct model_spread_static *st,
			  const struct model_selector *sel)
{
	return config_quirk(&st->c->config, QUIRK_SPREAD_EMPTY_SELECTOR) &&
	       model_selector_is_empty(sel);
}

static void static_counted(struct model_spread_static *st)
{
	const struct cluster *c = st->c;
	for (int i = 0; i < st->cs.n; i++) {
		const struct model_selector *sel = &st->cs.items[i].sel;
		bool *row = st->counted + (size_t)i * (size_t)c->n_pods;
		if (counts_nobody(st, sel))
			continue;
		for (int q = 0; q < c->n_pods; q++)
			row[q] = q != st->pod && counts(st, sel, q);
	}
}

void model_spread_static_count_self(struct model_spread_static *st)
{
	assert(st);
	const struct cluster *c = st->c;
	for (int i = 0; !st->skip && i < st->cs.n; i++) {
		const struct model_selector *sel = &st->cs.items[i].sel;
		st->counted[(size_t)i * (size_t)c->n_pods + (size_t)st->pod] =
			!counts_nobody(st, sel) && counts(st, sel, st->pod);
	}
}

/* contrib and the pairs: Hosts, Eligible and the node-order registration
 * of pts_count_base, which do not look at the placement. */
static void static_pairs(struct model_spread_static *st)
{
	const struct cluster *c = st->c;
	const struct pod *p = &c->pods[st->pod];
	size_t nn = (size_t)c->n_nodes;
	int nc = st->cs.n;
	for (size_t k = 0; k < (size_t)nc * nn; k++)
		st->contrib[k] = -1;
	model_spread_pairs_init(&st->pairs, NULL);
	for (int n = 0; n < c->n_nodes; n++) {
		const struct node *node = &c->nodes[n];
		if (!model_spread_node_has_keys(node, &st->cs))
			continue;
		for (int i = 0; i < nc; i++)
			if (model_spread_node_eligible(p, node, &st->cs.items[i]))
				st->contrib[(size_t)model_spread_slot(&st->cs, i) * nn +
					    (size_t)n] = i;
		for (int s = 0; s < nc; s++)
			if (st->contrib[(size_t)s * nn + (size_t)n] >= 0)
				model_spread_pairs_add(&st->pairs, s,
						       labels_get(&node->labels,
								  st->cs.items[s].key),
						       NULL);
	}
	for (int s = 0; s < nc; s++)
		for (int n = 0; n < c->n_nodes; n++) {
			const char *v = labels_get(&c->nodes[n].labels, st->cs.items[s].key);
			st->node_pair[(size_t)s * nn + (size_t)n] =
				v ? model_spread_pairs_find(&st->pairs, s, v) : -2;
		}
	for (int s = 0; s < nc; s++)
		st->domains[s] = 0;
	for (int k = 0; k < st->pairs.n; k++)
		st->domains[st->pairs.items[k].slot]++;
}

struct model_spread_static *model_spread_static_new(const struct cluster *c,
						    const struct sched_profile *prof,
						    int pod)
{
	assert(c && prof && pod >= 0 && pod < c->n_pods);
	struct model_spread_static *st = xcalloc(1, sizeof *st);
	st->c = c;
	st->profile = prof;
	st->pod = pod;
	model_spread_constraints_build(c, prof, pod, true, &st->cs);
	int nc = st->cs.n;
	if (nc == 0) {
		st->skip = true;
		return st;
	}
	size_t cells = (size_t)nc * (size_t)c->n_nodes;
	st->self = xcalloc((size_t)nc, sizeof *st->self);
	st->domains = xcalloc((size_t)nc, sizeof *st->domains);
	st->contrib = xmalloc(sizeof *st->contrib * (cells ? cells : 1));
	st->node_pair = xmalloc(sizeof *st->node_pair * (cells ? cells : 1));
	st->counted = xcalloc((size_t)nc * (size_t)c->n_pods + 1, sizeof *st->counted);
	for (int i = 0; i < nc; i++)
		st->self[i] = model_selector_matches(&st->cs.items[i].sel,
						     &c->pods[pod].labels);
	static_counted(st);
	static_pairs(st);
	return st;
}

void model_spread_static_free(struct model_spread_static *st)
{
	if (!st)
		return;
	model_spread_constraints_release(&st->cs);
	if (!st->skip)
		model_spread_pairs_release(&st->pairs);
	free(st->self);
	free(st->domains);
	free(st->contrib);
	free(st->node_pair);
	free(st->counted);
	free(st);
}
