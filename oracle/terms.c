/*
 * terms.c - oracle-wide aggregates kept up to date on every bind and
 * eviction, so a cycle's InterPodAffinity PreFilter and PreScore
 * (reference §2.10) never walk every existing pod:
 *
 *   - per pod group (same namespace, labels, terminating flag; see
 *     internal.h), how many of its pods are bound on each node: the
 *     incoming pod's terms are matched once per group and the counts
 *     added per topology domain;
 *   - the existing pods' own affinity terms, grouped into classes of
 *     identical terms (kind, weight, selector, namespaces, namespace
 *     selector, topology key, and the owner's namespace when the term
 *     defaults to it): whether a term matches the incoming pod depends
 *     on those only, so it is decided once per class, and the class
 *     keeps how many of its terms are bound on each node.
 *
 * The counts follow the placement (oracle_bind / oracle_evict), not
 * NodeInfo: preemption's dry runs edit NodeInfo copies and the cycle
 * state, never these.
 */
#include "../core/grow.h"
#include "internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ identity */

static uint64_t hash_selector(uint64_t h, const struct label_selector *s)
{
	h = oracle_hash_mix(h, s->present);
	h = oracle_hash_labels(h, &s->match_labels);
	return oracle_hash_reqs(h, s->exprs, s->n_exprs);
}

static bool selector_eq(const struct label_selector *a, const struct label_selector *b)
{
	return a->present == b->present && oracle_labels_eq(&a->match_labels, &b->match_labels) &&
	       oracle_reqs_eq(a->exprs, a->n_exprs, b->exprs, b->n_exprs);
}

static bool strs_eq(const char *const *a, int na, const char *const *b, int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++)
		if (!oracle_str_eq(a[i], b[i]))
			return false;
	return true;
}

static uint64_t hash_strs(uint64_t h, const char *const *s, int n)
{
	h = oracle_hash_mix(h, (uint64_t)n);
	for (int i = 0; i < n; i++)
		h = oracle_hash_str(h, s[i]);
	return h;
}

/* The owner's namespace counts only when the term has neither a
 * namespaces list nor a namespace selector. */
static const char *defaulted_ns(const struct pod *owner, const struct pod_affinity_term *t)
{
	return t->n_namespaces == 0 && !t->ns_selector.present ? owner->ns : "";
}

static uint64_t term_hash(int kind, int32_t weight, const struct pod *owner,
			  const struct pod_affinity_term *t)
{
	uint64_t h = oracle_hash_mix(0xcbf29ce484222325ULL, (uint64_t)kind);
	h = oracle_hash_mix(h, (uint64_t)(uint32_t)weight);
	h = hash_selector(h, &t->selector);
	h = hash_selector(h, &t->ns_selector);
	h = hash_strs(h, t->namespaces, t->n_namespaces);
	h = hash_strs(h, t->match_label_keys, t->n_match_label_keys);
	h = hash_strs(h, t->mismatch_label_keys, t->n_mismatch_label_keys);
	h = oracle_hash_str(h, t->topology_key);
	return oracle_hash_str(h, defaulted_ns(owner, t));
}

static bool term_eq(const struct oracle_tclass *k, int kind, int32_t weight,
		    const struct pod *owner, const struct pod_affinity_term *t,
		    const struct cluster *c)
{
	const struct pod_affinity_term *u = k->t;
	return k->kind == kind && k->weight == weight &&
	       oracle_str_eq(t->topology_key, u->topology_key) &&
	       selector_eq(&t->selector, &u->selector) &&
	       selector_eq(&t->ns_selector, &u->ns_selector) &&
	       strs_eq(t->namespaces, t->n_namespaces, u->namespaces, u->n_namespaces) &&
	       strs_eq(t->match_label_keys, t->n_match_label_keys, u->match_label_keys,
		       u->n_match_label_keys) &&
	       strs_eq(t->mismatch_label_keys, t->n_mismatch_label_keys,
		       u->mismatch_label_keys, u->n_mismatch_label_keys) &&
	       oracle_str_eq(defaulted_ns(owner, t), defaulted_ns(&c->pods[k->owner], u));
}

/* --------------------------------------------------------------- classes */

struct class_index {
	int *slots;      /* class + 1 */
	int cap;
};

static void index_put(struct class_index *ix, const struct oracle_tclass *k, int id)
{
	uint32_t i = (uint32_t)k[id].hash & (uint32_t)(ix->cap - 1);
	while (ix->slots[i])
		i = (i + 1) & (uint32_t)(ix->cap - 1);
	ix->slots[i] = id + 1;
}

static void index_grow(struct class_index *ix, const struct oracle_tclass *k, int n)
{
	free(ix->slots);
	ix->cap = ix->cap ? 2 * ix->cap : 64;
	ix->slots = xcalloc((size_t)ix->cap, sizeof(int));
	for (int i = 0; i < n; i++)
		index_put(ix, k, i);
}

/* The class of one term of pod p, created when new. */
static int intern(struct oracle *o, struct class_index *ix, int kind, int32_t weight,
		  int p, const struct pod_affinity_term *t)
{
	struct oracle_data *d = o->d;
	const struct pod *owner = &o->cluster->pods[p];
	uint64_t h = term_hash(kind, weight, owner, t);
	for (uint32_t i = (uint32_t)h & (uint32_t)(ix->cap - 1); ix->slots[i];
	     i = (i + 1) & (uint32_t)(ix->cap - 1)) {
		const struct oracle_tclass *k = &d->tclass[ix->slots[i] - 1];
		if (k->hash == h && term_eq(k, kind, weight, owner, t, o->cluster))
			return ix->slots[i] - 1;
	}
	GROW(d->tclass, d->n_tclass + 1, d->cap_tclass);
	int id = d->n_tclass++;
	struct oracle_tclass *k = &d->tclass[id];
	memset(k, 0, sizeof(*k));
	k->kind = kind;
	k->weight = weight;
	k->t = t;
	k->owner = p;
	k->hash = h;
	k->topo = oracle_topo_get(o, t->topology_key);
	if ((d->n_tclass + 1) * 2 > ix->cap)
		index_grow(ix, d->tclass, d->n_tclass);
	else
		index_put(ix, d->tclass, id);
	return id;
}

/* The classes of pod p's terms, in OTERM order of kinds. */
static void pod_classes(struct oracle *o, struct class_index *ix, int p,
			struct oracle_ilist *out)
{
	const struct pod *x = &o->cluster->pods[p];
	for (int i = 0; i < x->n_affinity; i++)
		oracle_ilist_push(out, intern(o, ix, OTERM_REQ_AFF, 0, p, &x->affinity[i]));
	for (int i = 0; i < x->n_anti_affinity; i++)
		oracle_ilist_push(out, intern(o, ix, OTERM_REQ_ANTI, 0, p, &x->anti_affinity[i]));
	for (int i = 0; i < x->n_affinity_preferred; i++)
		oracle_ilist_push(out, intern(o, ix, OTERM_PREF_AFF, x->affinity_preferred[i].weight,
					      p, &x->affinity_preferred[i].term));
	for (int i = 0; i < x->n_anti_affinity_preferred; i++)
		oracle_ilist_push(out, intern(o, ix, OTERM_PREF_ANTI,
					      x->anti_affinity_preferred[i].weight, p,
					      &x->anti_affinity_preferred[i].term));
}

void oracle_terms_init(struct oracle *o)
{
	struct oracle_data *d = o->d;
	const struct cluster *c = o->cluster;
	d->group_nodes = xcalloc((size_t)d->n_groups + 1, sizeof(*d->group_nodes));
	d->group_bound = xcalloc((size_t)d->n_groups + 1, sizeof(int));
	d->pod_tc_off = xcalloc((size_t)c->n_pods + 1, sizeof(int));
	struct class_index ix = {0};
	index_grow(&ix, NULL, 0);
	struct oracle_ilist all = {0};
	for (int p = 0; p < c->n_pods; p++) {
		d->pod_tc_off[p] = all.n;
		if (d->pod_flags[p] & OPOD_AFFINITY)
			pod_classes(o, &ix, p, &all);
	}
	d->pod_tc_off[c->n_pods] = all.n;
	d->pod_tc = all.v;
	free(ix.slots);
}

void oracle_terms_place(struct oracle *o, int n, int p, int sign)
{
	struct oracle_data *d = o->d;
	int g = d->pod_group[p];
	oracle_ncount_add(&d->group_nodes[g], n, sign);
	d->group_bound[g] += sign;
	for (int i = 0; i < d->n_gdom; i++) {
		const struct oracle_topo *t = d->gdom[i].topo;
		if (t->dom[n] >= 0)
			d->gdom[i].cnt[(size_t)g * (size_t)t->n_dom + (size_t)t->dom[n]] += sign;
	}
	for (int i = d->pod_tc_off[p]; i < d->pod_tc_off[p + 1]; i++) {
		struct oracle_tclass *k = &d->tclass[d->pod_tc[i]];
		oracle_ncount_add(&k->nodes, n, sign);
		k->bound += sign;
	}
}

const int64_t *oracle_group_domains(struct oracle *o, const struct oracle_topo *t)
{
	struct oracle_data *d = o->d;
	if (t->hostname || (size_t)d->n_groups * (size_t)t->n_dom > ORACLE_GDOM_CELLS)
		return NULL;
	for (int i = 0; i < d->n_gdom; i++)
		if (d->gdom[i].topo == t)
			return d->gdom[i].cnt;
	size_t nd = (size_t)t->n_dom;
	int64_t *cnt = xcalloc((size_t)d->n_groups * nd + 1, sizeof(int64_t));
	for (int g = 0; g < d->n_groups; g++) {
		const struct oracle_ncount *at = &d->group_nodes[g];
		for (int e = 0; e < at->n; e++) {
			int dom = t->dom[at->node[e]];
			if (dom >= 0)
				cnt[(size_t)g * nd + (size_t)dom] += at->cnt[e];
		}
	}
	GROW(d->gdom, d->n_gdom + 1, d->cap_gdom);
	d->gdom[d->n_gdom++] = (struct oracle_gdom){t, cnt};
	return cnt;
}

void oracle_terms_release(struct oracle_data *d)
{
	for (int i = 0; i < d->n_gdom; i++)
		free(d->gdom[i].cnt);
	free(d->gdom);
	for (int g = 0; d->group_nodes && g < d->n_groups; g++)
		oracle_ncount_release(&d->group_nodes[g]);
	for (int i = 0; i < d->n_tclass; i++)
		oracle_ncount_release(&d->tclass[i].nodes);
	free(d->group_nodes);
	free(d->group_bound);
	free(d->tclass);
	free(d->pod_tc);
	free(d->pod_tc_off);
}
