/*
 * spread_constraints.c - PodTopologySpread constraint construction, node
 * inclusion policies, pod counting and topology-pair counters (see
 * spread_constraints.h; reference §2.11).
 */
#include "spread_constraints.h"
#include "../core/fnv.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "../core/quirks.h"
#include "../core/grow.h"
#include "../core/xalloc.h"

/* System default constraints (reference §2.11, defaultingType System). */
static const struct default_spread_constraint system_defaults[] = {
	{ .max_skew = 3, .topology_key = MODEL_LABEL_HOSTNAME, .do_not_schedule = false,
	  .min_domains = 1 },
	{ .max_skew = 5, .topology_key = MODEL_LABEL_ZONE, .do_not_schedule = false,
	  .min_domains = 1 },
};

static struct model_spread_constraint *spread_push(
	struct model_spread_constraints *cs)
{
	GROW(cs->items, cs->n + 1, cs->cap);
	struct model_spread_constraint *c = &cs->items[cs->n++];
	memset(c, 0, sizeof *c);
	model_selector_init_nothing(&c->sel);
	return c;
}

/*
 * Spec (filterTopologySpreadConstraints):
 *   Sel(c, P) == IF c.labelSelector = nil THEN Nothing
 *                ELSE c.labelSelector /\ { k = P.labels[k] :
 *                                          k \in c.matchLabelKeys /\ k \in DOMAIN P.labels }
 * matchLabelKeys cannot widen Nothing: mergeLabelSetWithSelector returns a
 * selector without Requirements() unchanged.
 */
static void spread_explicit_selector(const struct spread_constraint *sc,
				     const struct pod *p,
				     struct model_selector *out)
{
	model_selector_init_nothing(out);
	if (!sc->selector.present)
		return;
	out->nothing = false;
	out->base = &sc->selector;
	for (int i = 0; i < sc->n_match_label_keys; i++) {
		const char *v = labels_get(&p->labels, sc->match_label_keys[i]);
		if (v)
			model_selector_set(out, sc->match_label_keys[i], v);
	}
}

static void spread_build_explicit(const struct pod *p, bool do_not_schedule,
				  struct model_spread_constraints *out)
{
	for (int i = 0; i < p->n_spread; i++) {
		const struct spread_constraint *sc = &p->spread[i];
		if (sc->do_not_schedule != do_not_schedule)
			continue;
		struct model_spread_constraint *c = spread_push(out);
		c->max_skew = sc->max_skew;
		c->key = sc->topology_key;
		c->min_domains = sc->min_domains > 0 ? sc->min_domains : 1;
		c->affinity_honor = sc->node_affinity_honor;
		c->taints_honor = sc->node_taints_honor;
		spread_explicit_selector(sc, p, &c->sel);
	}
}

/* buildDefaultConstraints: defaults of the class with their minDomains
 * and policies (a system default's: 1, affinity Honor, taints Ignore),
 * all sharing the default selector; nothing when that selector is
 * empty. */
static void spread_build_defaults(const struct cluster *cl,
				  const struct sched_profile *prof, int pod,
				  bool do_not_schedule,
				  struct model_spread_constraints *out)
{
	const struct default_spread_constraint *defs = system_defaults;
	int n_defs = (int)(sizeof system_defaults / sizeof *system_defaults);
	if (!prof->spread_system_defaulting) {
		defs = prof->default_constraints;
		n_defs = prof->n_default_constraints;
	}
	struct model_selector sel;
	model_default_selector(cl, pod, &sel);
	if (model_selector_is_empty(&sel)) {
		model_selector_release(&sel);
		return;
	}
	for (int i = 0; i < n_defs; i++) {
		if (defs[i].do_not_schedule != do_not_schedule)
			continue;
		struct model_spread_constraint *c = spread_push(out);
		c->max_skew = defs[i].max_skew;
		c->key = defs[i].topology_key;
		c->min_domains = defs[i].min_domains;
		c->affinity_honor = !defs[i].affinity_ignore;
		c->taints_honor = defs[i].taints_honor;
		model_selector_copy(&c->sel, &sel);
	}
	model_selector_release(&sel);
}

/* model_spread_slot's rule, worked out once when the constraints are
 * built: the first constraint with the same topologyKey. */
static int spread_slot_of(const struct cluster *c,
			  const struct model_spread_constraints *cs, int i)
{
	if (!config_quirk(&c->config, QUIRK_SPREAD_SHARED_KEY))
		return i;
	for (int j = 0; j < i; j++)
		if (strcmp(cs->items[j].key, cs->items[i].key) == 0)
			return j;
	return i;
}

void model_spread_constraints_build(const struct cluster *c,
				    const struct sched_profile *prof, int pod,
				    bool do_not_schedule,
				    struct model_spread_constraints *out)
{
	assert(c && prof && out && pod >= 0 && pod < c->n_pods);
	const struct pod *p = &c->pods[pod];
	out->items = NULL;
	out->n = 0;
	out->cap = 0;
	out->from_pod = p->n_spread > 0;
	if (p->n_spread > 0)
		spread_build_explicit(p, do_not_schedule, out);
	else
		spread_build_defaults(c, prof, pod, do_not_schedule, out);
	for (int i = 0; i < out->n; i++)
		out->items[i].slot = spread_slot_of(c, out, i);
}

bool model_spread_constraints_none(const struct cluster *c,
				   const struct sched_profile *prof, int pod,
				   bool do_not_schedule)
{
	assert(c && prof && pod >= 0 && pod < c->n_pods);
	const struct pod *p = &c->pods[pod];
	if (p->n_spread > 0) {
		for (int i = 0; i < p->n_spread; i++)
			if (p->spread[i].do_not_schedule == do_not_schedule)
				return false;
		return true;
	}
	const struct default_spread_constraint *defs = system_defaults;
	int n_defs = (int)(sizeof system_defaults / sizeof *system_defaults);
	if (!prof->spread_system_defaulting) {
		defs = prof->default_constraints;
		n_defs = prof->n_default_constraints;
	}
	bool any = false;
	for (int i = 0; i < n_defs && !any; i++)
		any = defs[i].do_not_schedule == do_not_schedule;
	if (!any)
		return true;
	struct model_selector sel;
	model_default_selector(c, pod, &sel);
	bool empty = model_selector_is_empty(&sel);
	model_selector_release(&sel);
	return empty;
}

void model_spread_constraints_release(struct model_spread_constraints *cs)
{
	assert(cs);
	for (int i = 0; i < cs->n; i++)
		model_selector_release(&cs->items[i].sel);
	free(cs->items);
	cs->items = NULL;
	cs->n = 0;
	cs->cap = 0;
}

int model_spread_slot(const struct model_spread_constraints *cs, int i)
{
	assert(cs && i >= 0 && i < cs->n);
	return cs->items[i].slot;
}

bool model_spread_node_has_keys(const struct node *n,
				const struct model_spread_constraints *cs)
{
	assert(n && cs);
	for (int i = 0; i < cs->n; i++)
		if (!labels_get(&n->labels, cs->items[i].key))
			return false;
	return true;
}

/* Spec: Eligible(P, N, c) ==
 *   /\ c.affinity_honor => NodeSelector(P) matches N /\ RequiredNodeAffinity(P) matches N
 *   /\ c.taints_honor   => ~\E t \in N.taints : t.effect \in {NoSchedule, NoExecute}
 *                                               /\ ~Tolerated(P, t) */
bool model_spread_node_eligible(const struct pod *p, const struct node *n,
				const struct model_spread_constraint *c)
{
	assert(p && n && c);
	if (c->affinity_honor && !match_pod_required_node_affinity(p, n))
		return false;
	if (c->taints_honor && match_first_untolerated(p, n) >= 0)
		return false;
	return true;
}

/* Spec: count(N, c) ==
 *   IF Empty(c.sel) THEN 0       \* quirk QUIRK_SPREAD_EMPTY_SELECTOR
 *   ELSE |{ Q : BoundTo(Q, N) /\ Q.deletionTimestamp = nil
 *              /\ Q.ns = P.ns /\ Matches(c.sel, Q.labels) }| */
void model_spread_count_by_node(const struct snapshot *s, const char *ns,
				int skip_pod,
				const struct model_spread_constraint *c,
				int64_t *counts)
{
	assert(s && ns && c && counts);
	const struct cluster *cl = s->cluster;
	for (int n = 0; n < cl->n_nodes; n++)
		counts[n] = 0;
	if (config_quirk(&cl->config, QUIRK_SPREAD_EMPTY_SELECTOR) &&
	    model_selector_is_empty(&c->sel))
		return;
	for (int q = 0; q < cl->n_pods; q++) {
		int n = s->pod_node[q];
		if (n < 0 || q == skip_pod)
			continue;
		const struct pod *pq = &cl->pods[q];
		if (pq->deletion.has || (pq->ns != ns && strcmp(pq->ns, ns) != 0))
			continue;
		if (model_selector_matches(&c->sel, &pq->labels))
			counts[n]++;
	}
}

/* ------------------------------------------------------------- pairs */

static uint64_t pair_hash(int slot, const char *value)
{
	return fnv64_str(1469598103934665603ull ^ (uint64_t)(unsigned)slot, value);
}

/* A table's first room, taken when its first pair comes (a table that
 * never gets one - most of a cycle's - costs nothing): every small
 * cluster's pairs, so that a cycle's table grows at most once. */
enum { PAIRS_FIRST = 16 };

/* Room for count elements of size each, from t's arena or the heap. */
static void *pairs_room(struct arena *a, size_t count, size_t size)
{
	if (count == 0)
		return NULL;
	return a ? arena_take_array(a, count, size) : xcalloc(count, size);
}

static void pairs_free(const struct model_spread_pairs *t, void *p)
{
	if (!t->arena)
		free(p);
}

void model_spread_pairs_init(struct model_spread_pairs *t, struct arena *a)
{
	assert(t);
	*t = (struct model_spread_pairs){.arena = a};
}

void model_spread_pairs_release(struct model_spread_pairs *t)
{
	assert(t);
	pairs_free(t, t->items);
	pairs_free(t, t->index);
	t->items = NULL;
	t->index = NULL;
	t->n = t->cap = t->index_cap = 0;
}

void model_spread_pairs_copy(struct model_spread_pairs *dst,
			     const struct model_spread_pairs *src,
			     struct arena *a)
{
	assert(dst && src);
	dst->arena = a;
	dst->n = src->n;
	dst->cap = src->cap;
	dst->index_cap = src->index_cap;
	dst->items = pairs_room(a, (size_t)src->cap, sizeof *dst->items);
	dst->index = pairs_room(a, (size_t)src->index_cap, sizeof *dst->index);
	if (src->n)
		memcpy(dst->items, src->items, sizeof *dst->items * (size_t)src->n);
	if (src->index_cap)
		memcpy(dst->index, src->index,
		       sizeof *dst->index * (size_t)src->index_cap);
}

int model_spread_pairs_find(const struct model_spread_pairs *t, int slot,
			    const char *value)
{
	assert(t && value);
	/* the same string (one node's label, met again) found without
	 * hashing it */
	for (int i = 0; i < t->n && i < 4; i++)
		if (t->items[i].value == value && t->items[i].slot == slot)
			return i;
	if (!t->index_cap)
		return -1;
	size_t mask = (size_t)t->index_cap - 1;
	for (size_t h = pair_hash(slot, value) & mask;; h = (h + 1) & mask) {
		int i = t->index[h];
		if (i < 0)
			return -1;
		if (t->items[i].slot == slot &&
		    strcmp(t->items[i].value, value) == 0)
			return i;
	}
}

static void pairs_reindex(struct model_spread_pairs *t, int cap)
{
	pairs_free(t, t->index);
	t->index = pairs_room(t->arena, (size_t)cap, sizeof *t->index);
	t->index_cap = cap;
	for (int h = 0; h < cap; h++)
		t->index[h] = -1;
	size_t mask = (size_t)cap - 1;
	for (int i = 0; i < t->n; i++) {
		size_t h = pair_hash(t->items[i].slot, t->items[i].value) & mask;
		while (t->index[h] >= 0)
			h = (h + 1) & mask;
		t->index[h] = i;
	}
}

int model_spread_pairs_add(struct model_spread_pairs *t, int slot,
			   const char *value, bool *is_new)
{
	assert(t && value);
	int i = model_spread_pairs_find(t, slot, value);
	if (is_new)
		*is_new = i < 0;
	if (i >= 0)
		return i;
	if (t->n == t->cap) {
		/* an arena's old items stay behind until its reset */
		int cap = t->cap ? 2 * t->cap : PAIRS_FIRST;
		struct model_spread_pair *items =
			pairs_room(t->arena, (size_t)cap, sizeof *items);
		if (t->n)
			memcpy(items, t->items, sizeof *items * (size_t)t->n);
		pairs_free(t, t->items);
		t->items = items;
		t->cap = cap;
	}
	i = t->n++;
	t->items[i].slot = slot;
	t->items[i].value = value;
	t->items[i].count = 0;
	if (2 * t->n >= t->index_cap)
		pairs_reindex(t, t->index_cap ? 2 * t->index_cap : 2 * PAIRS_FIRST);
	else {
		size_t mask = (size_t)t->index_cap - 1;
		size_t h = pair_hash(slot, value) & mask;
		while (t->index[h] >= 0)
			h = (h + 1) & mask;
		t->index[h] = i;
	}
	return i;
}
