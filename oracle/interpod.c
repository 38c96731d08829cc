/*
 * interpod.c - InterPodAffinity (reference §2.10): the incoming pod's
 * terms compiled once per oracle (with the existing pods' term classes
 * that match it), PreFilter counts (existing pods' required
 * anti-affinity, the pod's required affinity / anti-affinity), AddPod /
 * RemovePod, the Filter, and the preferred-terms score.
 */
#include "internal.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

/* A term of the incoming pod: namespaces default to the pod's own (when
 * neither list nor selector is given); a non-{} namespaceSelector is
 * resolved into the names of the namespaces it matches now. */
static void compile_term(struct oracle *o, const struct pod *p,
			 const struct pod_affinity_term *t, int32_t weight,
			 struct oracle_term *out)
{
	const struct cluster *c = o->cluster;
	struct oracle_data *d = o->d;
	memset(out, 0, sizeof(*out));
	out->t = t;
	out->weight = weight;
	out->topo = oracle_topo_get(o, t->topology_key);
	oracle_sel_from(&out->sel, &t->selector);
	oracle_sel_keep(o, &out->sel);
	out->ns = arena_array(&d->arena, (size_t)(t->n_namespaces + c->n_namespaces + 1),
			      sizeof(int));
	if (t->n_namespaces == 0 && !t->ns_selector.present)
		out->ns[out->n_ns++] = oracle_strmap_intern(&d->ns_ids, p->ns);
	for (int i = 0; i < t->n_namespaces; i++)
		out->ns[out->n_ns++] = oracle_strmap_intern(&d->ns_ids, t->namespaces[i]);
	static const struct labels none = {NULL, 0};
	if (oracle_selector_everything(&t->ns_selector)) {
		out->ns_all = true;
	} else if (t->ns_selector.present &&
		   config_quirk(&c->config, QUIRK_AFFINITY_NEGATIVE_NS_SELECTOR) &&
		   oracle_selector_matches(&t->ns_selector, &none)) {
		/* v1.34.1: a selector matching empty namespace labels (NotIn /
		 * DoesNotExist only) selects every namespace (the quirk) */
		out->ns_all = true;
	} else if (t->ns_selector.present) {
		for (int i = 0; i < c->n_namespaces; i++)
			if (oracle_selector_matches(&t->ns_selector, &c->namespaces[i].labels))
				out->ns[out->n_ns++] =
					oracle_strmap_intern(&d->ns_ids, c->namespaces[i].name);
	}
}

static bool term_has_ns(const struct oracle_term *t, int ns)
{
	if (t->ns_all)
		return true;
	for (int i = 0; i < t->n_ns; i++)
		if (t->ns[i] == ns)
			return true;
	return false;
}

/* An incoming-pod term against an existing pod group (nsLabels nil: the
 * namespace selector was merged into the names). */
static bool term_matches_group(struct oracle_cycle *cy, struct oracle_term *t, int g)
{
	struct oracle_data *d = cy->o->d;
	return term_has_ns(t, d->group_ns[g]) && oracle_sel_group(cy->o, &t->sel, g);
}

/* podMatchesAllAffinityTerms: false without terms. */
static bool matches_all_aff(struct oracle_cycle *cy, int g)
{
	if (cy->n_aff == 0)
		return false;
	for (int i = 0; i < cy->n_aff; i++)
		if (!term_matches_group(cy, &cy->aff[i], g))
			return false;
	return true;
}

/* An existing pod's term (owner e) against the incoming pod, whose
 * namespace labels are nl. */
static bool existing_term_matches(const struct pod *e, const struct pod_affinity_term *t,
				  const struct pod *p, const struct labels *nl)
{
	bool ns = false;
	if (t->n_namespaces == 0 && !t->ns_selector.present)
		ns = strcmp(e->ns, p->ns) == 0;
	for (int i = 0; i < t->n_namespaces && !ns; i++)
		ns = strcmp(t->namespaces[i], p->ns) == 0;
	if (!ns)
		ns = oracle_selector_matches(&t->ns_selector, nl);
	return ns && oracle_selector_matches(&t->selector, &p->labels);
}

/* ------------------------------------------------------------- the plan */

/* What a cycle of pod p derives from specs alone: its terms compiled,
 * and the existing pods' term classes (terms.c) whose term matches p,
 * in class order.  The pod, the classes (made at oracle_init for every
 * pod), the namespaces and the pod groups never change while the oracle
 * lives, so it is built on p's first cycle and kept (d->arena). */
struct oracle_interpod_plan {
	struct oracle_term *aff, *anti, *pref_aff, *pref_anti;
	int *tc;                 /* matching classes */
	int n_tc;
};

static struct oracle_term *compile_terms(struct oracle *o, const struct pod *p,
					 const struct pod_affinity_term *t, int n)
{
	struct oracle_term *out = arena_array(&o->d->arena, (size_t)n + 1, sizeof(*out));
	for (int i = 0; i < n; i++)
		compile_term(o, p, &t[i], 0, &out[i]);
	return out;
}

static struct oracle_term *compile_weighted(struct oracle *o, const struct pod *p,
					    const struct weighted_pod_affinity_term *w,
					    int n)
{
	struct oracle_term *t = arena_array(&o->d->arena, (size_t)n + 1, sizeof(*t));
	for (int i = 0; i < n; i++)
		compile_term(o, p, &w[i].term, w[i].weight, &t[i]);
	return t;
}

static const struct oracle_interpod_plan *plan_get(struct oracle *o, int pod)
{
	struct oracle_data *d = o->d;
	if (!d->interpod_plans)
		d->interpod_plans = arena_array(&d->arena, (size_t)d->n_pods + 1,
						sizeof(*d->interpod_plans));
	if (d->interpod_plans[pod])
		return d->interpod_plans[pod];
	const struct pod *p = &o->cluster->pods[pod];
	struct oracle_interpod_plan *pl = arena_alloc(&d->arena, sizeof(*pl));
	pl->aff = compile_terms(o, p, p->affinity, p->n_affinity);
	pl->anti = compile_terms(o, p, p->anti_affinity, p->n_anti_affinity);
	pl->pref_aff = compile_weighted(o, p, p->affinity_preferred, p->n_affinity_preferred);
	pl->pref_anti = compile_weighted(o, p, p->anti_affinity_preferred,
					 p->n_anti_affinity_preferred);
	pl->tc = arena_array(&d->arena, (size_t)d->n_tclass + 1, sizeof(int));
	for (int k = 0; k < d->n_tclass; k++) {
		const struct oracle_tclass *tc = &d->tclass[k];
		if (existing_term_matches(&o->cluster->pods[tc->owner], tc->t, p,
					  d->pod_ns_labels[pod]))
			pl->tc[pl->n_tc++] = k;
	}
	d->interpod_plans[pod] = pl;
	return pl;
}

/* ------------------------------------------------------ topology counters */

struct oracle_tcount *oracle_tmap_key(struct oracle_cycle *cy, struct oracle_tmap *m,
				      const struct oracle_topo *t)
{
	for (int i = 0; i < m->n; i++)
		if (m->k[i].topo == t)
			return &m->k[i];
	if (m->n == m->cap) {
		int cap = m->cap ? 2 * m->cap : 4;
		struct oracle_tcount *k = arena_array(cy->arena, (size_t)cap, sizeof(*k));
		if (m->n)
			memcpy(k, m->k, sizeof(*k) * (size_t)m->n);
		m->k = k;
		m->cap = cap;
	}
	struct oracle_tcount *k = &m->k[m->n++];
	k->topo = t;
	/* counts and presence flags in one (zeroed) allocation */
	size_t nd = (size_t)t->n_dom + 1;
	k->cnt = arena_alloc(cy->arena, nd * (sizeof(int64_t) + sizeof(bool)));
	k->has = (bool *)(k->cnt + nd);
	return k;
}

/* topologyToMatchedTermCount.update: only nodes with the key count; an
 * entry back at zero is deleted (tracked by the non-zero count). */
void oracle_tmap_add(struct oracle_cycle *cy, struct oracle_tmap *m,
		     const struct oracle_topo *t, int node, int64_t v)
{
	int dom = t->dom[node];
	if (dom < 0)
		return;
	struct oracle_tcount *k = oracle_tmap_key(cy, m, t);
	int64_t old = k->cnt[dom];
	k->cnt[dom] += v;
	k->has[dom] = true;
	m->any = true;
	if (old == 0 && k->cnt[dom] != 0)
		m->nonzero++;
	else if (old != 0 && k->cnt[dom] == 0)
		m->nonzero--;
}

static int64_t tmap_get(const struct oracle_tmap *m, const struct oracle_topo *t, int node)
{
	int dom = t->dom[node];
	if (dom < 0)
		return 0;
	for (int i = 0; i < m->n; i++)
		if (m->k[i].topo == t)
			return m->k[i].cnt[dom];
	return 0;
}

/* weight x the count of every node with a non-zero count, per node's
 * domain: the per-pod oracle_tmap_add calls summed, the key looked up
 * once (and created, as there, only for a node carrying it). */
static void add_counts(struct oracle_cycle *cy, struct oracle_tmap *m,
		       const struct oracle_topo *t, const struct oracle_ncount *at, int64_t w)
{
	struct oracle_tcount *k = NULL;
	for (int e = 0; e < at->n; e++) {
		int dom = t->dom[at->node[e]];
		if (at->cnt[e] == 0 || dom < 0)
			continue;
		if (!k)
			k = oracle_tmap_key(cy, m, t);
		int64_t old = k->cnt[dom];
		k->cnt[dom] += w * at->cnt[e];
		k->has[dom] = true;
		if (old == 0 && k->cnt[dom] != 0)
			m->nonzero++;
		else if (old != 0 && k->cnt[dom] == 0)
			m->nonzero--;
	}
	if (k)
		m->any = true;
}

/* ---------------------------------------------------------------- filter */

/* Existing pod q's required anti-affinity terms that match the incoming
 * pod, counted at q's node n. */
static void existing_anti_add(struct oracle_cycle *cy, int q, int n, int64_t v)
{
	const struct pod *e = &cy->c->pods[q];
	for (int i = 0; i < e->n_anti_affinity; i++) {
		const struct pod_affinity_term *t = &e->anti_affinity[i];
		if (existing_term_matches(e, t, cy->p, cy->ns_labels))
			oracle_tmap_add(cy, &cy->existing_anti,
					oracle_topo_get(cy->o, t->topology_key), n, v);
	}
}

/* The incoming pod's affinity / anti-affinity counts for `count` pods of
 * group g on node n. */
static void incoming_add(struct oracle_cycle *cy, int g, int n, int64_t count)
{
	if (matches_all_aff(cy, g)) {
		cy->aff_anywhere += count;
		for (int i = 0; i < cy->n_aff; i++)
			oracle_tmap_add(cy, &cy->aff_cnt, cy->aff[i].topo, n, count);
	}
	for (int i = 0; i < cy->n_anti; i++)
		if (term_matches_group(cy, &cy->anti[i], g))
			oracle_tmap_add(cy, &cy->anti_cnt, cy->anti[i].topo, n, count);
}

void oracle_prefilter_interpod(struct oracle_cycle *cy)
{
	const struct pod *p = cy->p;
	struct oracle_data *d = cy->o->d;
	const struct oracle_interpod_plan *pl = plan_get(cy->o, cy->pod);
	cy->ns_labels = d->pod_ns_labels[cy->pod];
	cy->n_aff = p->n_affinity;
	cy->n_anti = p->n_anti_affinity;
	cy->aff = pl->aff;
	cy->anti = pl->anti;
	/* existing pods' required anti-affinity: the matching classes of
	 * identical terms, then their bound terms per node */
	for (int j = 0; j < pl->n_tc && d->n_bound_anti; j++) {
		const struct oracle_tclass *tc = &d->tclass[pl->tc[j]];
		if (tc->kind != OTERM_REQ_ANTI || tc->bound == 0)
			continue;
		for (int i = 0; i < tc->nodes.n; i++)
			if (tc->nodes.cnt[i])
				oracle_tmap_add(cy, &cy->existing_anti, tc->topo,
						tc->nodes.node[i], tc->nodes.cnt[i]);
	}
	/* the pod's own terms: one decision per group of existing pods */
	bool anti_match_small[8];
	bool *anti_match = cy->n_anti <= 8
		? anti_match_small
		: arena_array(cy->arena, (size_t)cy->n_anti, sizeof(bool));
	for (int g = 0; g < d->n_groups && (cy->n_aff || cy->n_anti); g++) {
		if (d->group_bound[g] == 0)
			continue;
		bool all = matches_all_aff(cy, g);
		if (all)
			cy->aff_anywhere += d->group_bound[g];
		for (int i = 0; i < cy->n_anti; i++)
			anti_match[i] = term_matches_group(cy, &cy->anti[i], g);
		const struct oracle_ncount *at = &d->group_nodes[g];
		for (int i = 0; i < cy->n_aff && all; i++)
			add_counts(cy, &cy->aff_cnt, cy->aff[i].topo, at, 1);
		for (int i = 0; i < cy->n_anti; i++)
			if (anti_match[i])
				add_counts(cy, &cy->anti_cnt, cy->anti[i].topo, at, 1);
	}
	if (cy->existing_anti.nonzero == 0 && cy->n_aff == 0 && cy->n_anti == 0)
		cy->skip[PLUGIN_INTER_POD_AFFINITY] = true;
}

void oracle_interpod_update(struct oracle_cycle *cy, int q, int n, int sign)
{
	if (cy->skip[PLUGIN_INTER_POD_AFFINITY])
		return;
	existing_anti_add(cy, q, n, sign);
	incoming_add(cy, cy->o->d->pod_group[q], n, sign);
}

/* satisfyPodAffinity with the "first pod of a series" exception. */
static bool satisfies_affinity(struct oracle_cycle *cy, int node)
{
	bool exist = true;
	for (int i = 0; i < cy->n_aff; i++) {
		const struct oracle_topo *t = cy->aff[i].topo;
		if (t->dom[node] < 0)
			return false;
		if (tmap_get(&cy->aff_cnt, t, node) <= 0)
			exist = false;
	}
	if (exist)
		return true;
	/* v1.30: no matching pod on a node with a term's key; intended: none
	 * anywhere (QUIRK_AFFINITY_FIRST_POD_COUNTS) */
	if (config_quirk(&cy->c->config, QUIRK_AFFINITY_FIRST_POD_COUNTS)
	    ? cy->aff_cnt.nonzero != 0 : cy->aff_anywhere != 0)
		return false;
	/* the pod against its own terms (nsLabels nil) */
	for (int i = 0; i < cy->n_aff; i++) {
		struct oracle_term *t = &cy->aff[i];
		if (!term_has_ns(t, cy->o->d->pod_ns[cy->pod]) ||
		    !oracle_sel_matches(&t->sel, &cy->p->labels))
			return false;
	}
	return true;
}

/* The Filter's checks in kube's order: 0 passes, 1 affinity, 2 the pod's
 * anti-affinity, 3 existing pods' anti-affinity. */
static int interpod_check(struct oracle_cycle *cy, int node)
{
	if (!satisfies_affinity(cy, node))
		return 1;
	if (cy->anti_cnt.nonzero > 0)
		for (int i = 0; i < cy->n_anti; i++)
			if (tmap_get(&cy->anti_cnt, cy->anti[i].topo, node) > 0)
				return 2;
	if (cy->existing_anti.nonzero > 0)
		for (int i = 0; i < cy->existing_anti.n; i++) {
			const struct oracle_tcount *k = &cy->existing_anti.k[i];
			int dom = k->topo->dom[node];
			if (dom >= 0 && k->cnt[dom] > 0)
				return 3;
		}
	return 0;
}

enum sched_code oracle_check_interpod(struct oracle_cycle *cy, const struct oracle_nodeview *v)
{
	static const enum sched_code code[] = {
		SCHED_SUCCESS, SCHED_UAU, SCHED_UNSCHEDULABLE, SCHED_UNSCHEDULABLE,
	};
	return code[interpod_check(cy, v->node)];
}

void oracle_filter_interpod(struct oracle_cycle *cy, const struct oracle_nodeview *v,
			    struct sched_status *st)
{
	switch (interpod_check(cy, v->node)) {
	case 0:
		return;
	case 1:
		oracle_status_fail_str(st, SCHED_UAU, "node(s) didn't match pod affinity rules");
		return;
	case 2:
		oracle_status_fail_str(st, SCHED_UNSCHEDULABLE,
				  "node(s) didn't match pod anti-affinity rules");
		return;
	default:
		oracle_status_fail_str(st, SCHED_UNSCHEDULABLE,
				  "node(s) didn't satisfy existing pods anti-affinity rules");
		return;
	}
}

/* ----------------------------------------------------------------- score */

/* The score's sums for a key with a domain per node (hostname): kept per
 * scored node instead of per domain, so that a cycle neither allocates
 * nor zeroes a counter for every node of the cluster.  head[dom] (the
 * oracle's, all 0 between cycles) is 1 + the first scored node of
 * domain dom, next[] chains the others (node labels may share a
 * value). */
struct host_sums {
	const struct oracle_topo *topo;   /* its table, once a count came */
	int *head;                        /* [n_dom] */
	int *next;                        /* [n] */
	int64_t *sum;                     /* [n] */
	bool any;                         /* some count added (m.any's part) */
};

/* The chains of the scored nodes f[0..n) by domain of t. */
static void host_begin(struct oracle_cycle *cy, struct host_sums *h,
		       const struct oracle_topo *t, const int *f, int n)
{
	struct oracle_data *d = cy->o->d;
	h->topo = t;
	if (!d->interpod_head)
		d->interpod_head = xcalloc((size_t)d->n_nodes + 1, sizeof(int));
	h->head = d->interpod_head;
	h->next = arena_array(cy->arena, (size_t)n + 1, sizeof(int));
	h->sum = arena_array(cy->arena, (size_t)n + 1, sizeof(int64_t));
	for (int i = n - 1; i >= 0; i--) {
		int dom = t->dom[f[i]];
		if (dom < 0)
			continue;
		h->next[i] = h->head[dom];
		h->head[dom] = i + 1;
	}
}

static void host_end(struct host_sums *h, const int *f, int n)
{
	for (int i = 0; h->topo && i < n; i++)
		if (h->topo->dom[f[i]] >= 0)
			h->head[h->topo->dom[f[i]]] = 0;
}

/* add_counts for the key of h: w x the count of every node with one,
 * into the scored nodes of its domain.  When every node has a domain of
 * its own (the key is on every node, values distinct) and fewer nodes
 * are scored than have counts, each scored node's own count is looked
 * up instead: the same sums, without a walk over every node holding
 * such pods (thousands per cycle at 50,000 nodes). */
static void host_add(struct oracle_cycle *cy, struct host_sums *h,
		     const struct oracle_ncount *at, int64_t w, const int *f, int n)
{
	if (h->topo->n_dom == cy->c->n_nodes && at->n > n) {
		/* by classes, f[i] stands for its class: the class's count
		 * kept across cycles */
		for (int i = 0; i < n; i++) {
			int32_t c = cy->score_mult ? oracle_nclass_ncount(cy, at, f[i])
						   : oracle_ncount_get(at, f[i]);
			if (c)
				h->sum[i] += w * c;
		}
		for (int e = 0; e < at->n && !h->any; e++)
			h->any = at->cnt[e] != 0;
		return;
	}
	for (int e = 0; e < at->n; e++) {
		int dom = h->topo->dom[at->node[e]];
		if (at->cnt[e] == 0 || dom < 0)
			continue;
		h->any = true;
		for (int i = h->head[dom]; i; i = h->next[i - 1])
			h->sum[i - 1] += w * at->cnt[e];
	}
}

/* add_counts, or host_add for h's key (its chains made on first use). */
static void score_add(struct oracle_cycle *cy, struct oracle_tmap *m, struct host_sums *h,
		      const struct oracle_topo *t, const struct oracle_ncount *at, int64_t w,
		      const int *f, int n)
{
	if (!t->hostname) {
		add_counts(cy, m, t, at, w);
		return;
	}
	if (!h->topo)
		host_begin(cy, h, t, f, n);
	host_add(cy, h, at, w, f, n);
}

enum sched_code oracle_score_interpod(struct oracle_cycle *cy, const int *f, int n,
				      int64_t *out)
{
	const struct pod *p = cy->p;
	struct oracle_data *d = cy->o->d;
	bool constraints = p->n_affinity_preferred || p->n_anti_affinity_preferred;
	if (cy->prof->ignore_preferred_terms_of_existing && !constraints)
		return SCHED_SKIP;
	if (!cy->ns_labels)
		cy->ns_labels = d->pod_ns_labels[cy->pod];
	const struct oracle_interpod_plan *pl = plan_get(cy->o, cy->pod);
	struct oracle_term *pa = pl->pref_aff, *paa = pl->pref_anti;
	struct oracle_tmap m = {0};
	struct host_sums h = {0};
	/* the pod's preferred terms against every bound pod: one decision
	 * per group, its pods counted per node */
	for (int g = 0; g < d->n_groups && constraints; g++) {
		if (d->group_bound[g] == 0)
			continue;
		const struct oracle_ncount *at = &d->group_nodes[g];
		for (int k = 0; k < p->n_affinity_preferred; k++)
			if (term_matches_group(cy, &pa[k], g))
				score_add(cy, &m, &h, pa[k].topo, at, pa[k].weight, f, n);
		for (int k = 0; k < p->n_anti_affinity_preferred; k++)
			if (term_matches_group(cy, &paa[k], g))
				score_add(cy, &m, &h, paa[k].topo, at,
					  -(int64_t)paa[k].weight, f, n);
	}
	/* existing pods' terms against the pod: the matching classes */
	int32_t hard = cy->prof->hard_pod_affinity_weight;
	for (int j = 0; j < pl->n_tc; j++) {
		const struct oracle_tclass *tc = &d->tclass[pl->tc[j]];
		int64_t w;
		switch (tc->kind) {
		case OTERM_REQ_AFF:
			w = hard;
			break;
		case OTERM_PREF_AFF:
			w = tc->weight;
			break;
		case OTERM_PREF_ANTI:
			w = -(int64_t)tc->weight;
			break;
		default:
			continue;
		}
		if (tc->bound == 0 || (tc->kind == OTERM_REQ_AFF && hard <= 0))
			continue;
		score_add(cy, &m, &h, tc->topo, &tc->nodes, w, f, n);
	}
	host_end(&h, f, n);
	if (!m.any && !h.any)
		return SCHED_SKIP;
	int64_t min = INT64_MAX, max = INT64_MIN;
	for (int i = 0; i < n; i++) {
		int64_t s = h.topo ? h.sum[i] : 0;
		for (int k = 0; k < m.n; k++) {
			int dom = m.k[k].topo->dom[f[i]];
			if (dom >= 0)
				s += m.k[k].cnt[dom];
		}
		out[i] = s;
		if (s > max)
			max = s;
		if (s < min)
			min = s;
	}
	int64_t diff = max - min;
	for (int i = 0; i < n; i++) {
		double fs = 0;
		if (diff > 0)
			fs = 100.0 * ((double)(out[i] - min) / (double)diff);
		out[i] = (int64_t)fs;
	}
	return SCHED_SUCCESS;
}
