/*
 * spread.c - PodTopologySpread (reference §2.11): constraint construction
 * (explicit, or the profile's defaults with the default selector),
 * PreFilter counts with kube's critical-path update rule, AddPod /
 * RemovePod, the Filter, and the ScheduleAnyway score.
 */
#include "internal.h"
#include "../core/grow.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* The system default constraints (defaultingType System). */
static const struct default_spread_constraint system_defaults[] = {
	{3, "kubernetes.io/hostname", false, 1, false, false},
	{5, "topology.kubernetes.io/zone", false, 1, false, false},
};

/* filterTopologySpreadConstraints for one explicit constraint of pod p:
 * selector plus matchLabelKeys (values from the pod's labels; ignored
 * when the selector is nil), allocated in a. */
static void compile_explicit(struct oracle *o, const struct pod *p, struct arena *a,
			     const struct spread_constraint *sc, struct oracle_spread_c *out)
{
	memset(out, 0, sizeof(*out));
	out->topo = oracle_topo_get(o, sc->topology_key);
	out->max_skew = sc->max_skew;
	out->min_domains = sc->min_domains;
	out->aff_honor = sc->node_affinity_honor;
	out->taint_honor = sc->node_taints_honor;
	oracle_sel_from(&out->sel, &sc->selector);
	if (sc->n_match_label_keys && !out->sel.nothing) {
		struct label *items = arena_array(a, (size_t)sc->n_match_label_keys,
						  sizeof(*items));
		int n = 0;
		for (int i = 0; i < sc->n_match_label_keys; i++) {
			const char *v = labels_get(&p->labels, sc->match_label_keys[i]);
			if (v)
				items[n++] = (struct label){sc->match_label_keys[i], v};
		}
		if (n)
			out->sel.maps[out->sel.n_maps++] = (struct labels){items, n};
	}
	out->self_match = oracle_sel_matches(&out->sel, &p->labels);
}

/* The constraints of one class (hard: DoNotSchedule, soft: ScheduleAnyway)
 * of pod p under prof into an array allocated in a; returns their
 * number. */
static int build_constraints(struct oracle *o, const struct pod *p,
			     const struct sched_profile *prof, bool hard,
			     struct arena *a, struct oracle_spread_c **out)
{
	*out = NULL;
	if (p->n_spread) {
		struct oracle_spread_c *c = arena_array(a, (size_t)p->n_spread, sizeof(*c));
		int n = 0;
		for (int i = 0; i < p->n_spread; i++)
			if (p->spread[i].do_not_schedule == hard)
				compile_explicit(o, p, a, &p->spread[i], &c[n++]);
		*out = c;
		return n;
	}
	const struct default_spread_constraint *defs = system_defaults;
	int n_defs = 2;
	if (!prof->spread_system_defaulting) {
		defs = prof->default_constraints;
		n_defs = prof->n_default_constraints;
	}
	int n = 0;
	for (int i = 0; i < n_defs; i++)
		if (defs[i].do_not_schedule == hard)
			n++;
	if (n == 0)
		return 0;
	struct oracle_sel sel;
	oracle_default_selector(o->cluster, p, a, &sel);
	if (oracle_sel_empty(&sel))
		return 0;
	struct oracle_spread_c *c = arena_array(a, (size_t)n, sizeof(*c));
	n = 0;
	for (int i = 0; i < n_defs; i++) {
		if (defs[i].do_not_schedule != hard)
			continue;
		struct oracle_spread_c *x = &c[n++];
		x->topo = oracle_topo_get(o, defs[i].topology_key);
		x->max_skew = defs[i].max_skew;
		x->min_domains = defs[i].min_domains;
		x->aff_honor = !defs[i].affinity_ignore;
		x->taint_honor = defs[i].taints_honor;
		x->sel = sel;
		x->sel.memo = NULL;
		x->self_match = oracle_sel_matches(&sel, &p->labels);
	}
	*out = c;
	return n;
}

/* A pod's compiled constraints of one class under one profile, and the
 * topology key of each distinct key (same-key constraints share
 * TpPairToMatchNum): everything PreFilter and PreScore derive from the
 * pod's spec, the profile and the cluster's workloads, none of which
 * changes while the oracle lives. */
struct oracle_spread_plan {
	struct oracle_spread_c *c;
	int n;
	const struct oracle_topo **key_topo;    /* [n_keys] */
	int n_keys;
	bool soft;                              /* ScheduleAnyway's: its score
						 * counts hostname per node, so
						 * those keys get no cells */
	size_t n_cells;                         /* Σ (n_dom + 1) over the keys
						 * with cells */
	/* The hard class's PreFilter facts that depend on the nodes and on
	 * the pod's shape verdicts alone, filled by its first PreFilter
	 * (facts_fill; NULL before): a plan is per (pod, profile) and the
	 * verdicts are that pod's under that profile, nodes and specs never
	 * change while the oracle lives, so they hold for the plan's life.
	 * elig[i * n_nodes + node]: the node carries every key and passes
	 * constraint i's policies; reg0: the pairs present in
	 * TpPairToMatchNum (a domain with such a node), laid out as the
	 * state's reg cells (hard plans only); sel_empty[i]: constraint i
	 * matches nothing; all_elig[i]: elig[i * n_nodes + node] for every
	 * node, so that a domain's count is the sum of its matching groups'
	 * (oracle_group_domains). */
	uint8_t *elig;
	bool *reg0;
	bool *sel_empty;
	bool *all_elig;
	const uint8_t *facts_shape;             /* the shape verdicts elig and
						 * reg0 came from, if kept */
};

/* A key's cells in a state of plan pl: its domains and the pseudo-domain
 * "", none for hostname in a soft plan (its score never reads them). */
static size_t key_cells(const struct oracle_spread_plan *pl,
			const struct oracle_topo *t)
{
	return pl->soft && t->hostname ? 0 : (size_t)t->n_dom + 1;
}

static struct oracle_spread_plan *plan_build(struct oracle *o, int pod,
					     const struct sched_profile *prof, bool hard,
					     struct arena *a, bool keep)
{
	struct oracle_spread_plan *pl = arena_alloc(a, sizeof(*pl));
	pl->soft = !hard;
	pl->n = build_constraints(o, &o->cluster->pods[pod], prof, hard, a, &pl->c);
	/* v1.30 shares a key's counters among its constraints */
	bool shared = config_quirk(&o->cluster->config, QUIRK_SPREAD_SHARED_KEY);
	pl->key_topo = arena_array(a, (size_t)pl->n + 1, sizeof(*pl->key_topo));
	for (int i = 0; i < pl->n; i++) {
		struct oracle_spread_c *c = &pl->c[i];
		int k = shared ? 0 : pl->n_keys;
		while (k < pl->n_keys && pl->key_topo[k] != c->topo)
			k++;
		if (k == pl->n_keys) {
			pl->key_topo[pl->n_keys++] = c->topo;
			pl->n_cells += key_cells(pl, c->topo);
		}
		c->key = k;
		if (keep)
			oracle_sel_keep(o, &c->sel);
	}
	return pl;
}

static bool node_has_all_keys(const struct oracle_spread_c *c, int n, int node);

/* Facts offered for sharing at most (each search is linear). */
#define SPREAD_FACTS_KEPT 64

/* The hard plan's facts (see struct oracle_spread_plan) for cy's pod
 * and profile, allocated in a. */
static void facts_fill(struct oracle_cycle *cy, struct oracle_spread_plan *pl,
		       struct arena *a)
{
	int nn = cy->o->d->n_nodes;
	pl->elig = arena_array(a, (size_t)pl->n * (size_t)nn + 1, 1);
	pl->reg0 = pl->soft ? NULL : arena_array(a, pl->n_cells + 1, sizeof(bool));
	pl->sel_empty = arena_array(a, (size_t)pl->n + 1, sizeof(bool));
	pl->all_elig = arena_array(a, (size_t)pl->n + 1, sizeof(bool));
	size_t *base = arena_array(a, (size_t)pl->n_keys + 1, sizeof(size_t));
	for (int k = 1; k < pl->n_keys; k++)
		base[k] = base[k - 1] + key_cells(pl, pl->key_topo[k - 1]);
	for (int i = 0; i < pl->n; i++) {
		const struct oracle_spread_c *c = &pl->c[i];
		pl->sel_empty[i] = oracle_sel_empty(&c->sel);
		pl->all_elig[i] = true;
		for (int n = 0; n < nn; n++) {
			if (!node_has_all_keys(pl->c, pl->n, n) ||
			    !oracle_node_fits_policies(cy, n, c->aff_honor, c->taint_honor)) {
				pl->all_elig[i] = false;
				continue;
			}
			pl->elig[(size_t)i * (size_t)nn + (size_t)n] = 1;
			if (pl->reg0)
				pl->reg0[base[c->key] + (size_t)c->topo->dom[n]] = true;
		}
	}
}

/* elig and reg0 read of a plan: its constraints' topology keys, their
 * key slots and policies (and the shape's verdicts, compared apart). */
static bool same_fact_inputs(const struct oracle_spread_plan *a,
			     const struct oracle_spread_plan *b)
{
	if (a->n != b->n || a->n_keys != b->n_keys || a->n_cells != b->n_cells ||
	    a->soft != b->soft)
		return false;
	for (int k = 0; k < a->n_keys; k++)
		if (a->key_topo[k] != b->key_topo[k])
			return false;
	for (int i = 0; i < a->n; i++) {
		const struct oracle_spread_c *x = &a->c[i], *y = &b->c[i];
		if (x->topo != y->topo || x->key != y->key ||
		    x->aff_honor != y->aff_honor || x->taint_honor != y->taint_honor)
			return false;
	}
	return true;
}

/* The hard plan pl's facts for cy (pl kept in d->arena): shared with an
 * earlier plan of the same kept shape verdicts and fact inputs - the
 * facts are a function of those alone - else filled and offered. */
static void facts_kept(struct oracle_cycle *cy, struct oracle_spread_plan *pl)
{
	struct oracle_data *d = cy->o->d;
	if (cy->nverdict_shared) {
		for (int i = 0; i < d->n_facts_from; i++) {
			const struct oracle_spread_plan *x = d->facts_from[i];
			if (x->facts_shape != cy->nverdict || !same_fact_inputs(x, pl))
				continue;
			pl->elig = x->elig;
			pl->reg0 = x->reg0;
			pl->all_elig = x->all_elig;
			pl->facts_shape = x->facts_shape;
			pl->sel_empty = arena_array(&d->arena, (size_t)pl->n + 1,
						    sizeof(bool));
			for (int k = 0; k < pl->n; k++)
				pl->sel_empty[k] = oracle_sel_empty(&pl->c[k].sel);
			return;
		}
	}
	facts_fill(cy, pl, &d->arena);
	if (!cy->nverdict_shared || d->n_facts_from >= SPREAD_FACTS_KEPT)
		return;
	pl->facts_shape = cy->nverdict;
	GROW(d->facts_from, d->n_facts_from + 1, d->cap_facts_from);
	d->facts_from[d->n_facts_from++] = pl;
}

/* The cycle's plan: kept per (pod, profile, class) when the profile is
 * one of the cluster's (their contents are the cluster's, fixed); built
 * in the cycle arena for any other profile.  The hard one comes with its
 * facts. */
static const struct oracle_spread_plan *plan_get(struct oracle_cycle *cy, bool hard)
{
	struct oracle *o = cy->o;
	struct oracle_data *d = o->d;
	const struct sched_config *cfg = &cy->c->config;
	int pi = oracle_profile_index(cy->c, cy->prof);
	if (pi < 0) {
		struct oracle_spread_plan *pl =
			plan_build(o, cy->pod, cy->prof, hard, cy->arena, false);
		if (hard)
			facts_fill(cy, pl, cy->arena);
		return pl;
	}
	if (!d->spread_plans)
		d->spread_plans = arena_array(&d->arena,
					      (size_t)d->n_pods * (size_t)cfg->n_profiles * 2 + 1,
					      sizeof(*d->spread_plans));
	size_t slot = ((size_t)cy->pod * (size_t)cfg->n_profiles + (size_t)pi) * 2 + !hard;
	if (!d->spread_plans[slot]) {
		d->spread_plans[slot] = plan_build(o, cy->pod, cy->prof, hard, &d->arena, true);
		/* a soft plan's facts serve its score (kept shapes only:
		 * otherwise the score reads the nodes itself) */
		if (hard || cy->nverdict_shared)
			facts_kept(cy, d->spread_plans[slot]);
	}
	return d->spread_plans[slot];
}

static bool node_has_all_keys(const struct oracle_spread_c *c, int n, int node)
{
	for (int i = 0; i < n; i++)
		if (c[i].topo->dom[node] < 0)
			return false;
	return true;
}

/* A critical path's value as kube compares it (a string): the domain id
 * of a non-empty value, -1 for "" - the initial entries' value and that
 * of the domain whose label value is empty alike.  Distinct ids are
 * distinct strings (a topology interns its values), so comparing these
 * ints is comparing the strings. */
static int cp_value(const struct oracle_topo *t, int dom)
{
	return dom == t->empty_dom ? -1 : dom;
}

/* criticalPaths.update (§2.11), replicated exactly: values compared as
 * strings (cp_value), the initial entries are ("", MaxInt32). */
static void cp_update(struct oracle_spread_key *k, int val, int64_t num)
{
	if (val == k->p0v) {
		k->p0n = num;
		if (k->p0n > k->p1n)
			goto swap;
	} else if (val == k->p1v) {
		k->p1n = num;
		if (k->p0n > k->p1n)
			goto swap;
	} else if (num < k->p0n) {
		k->p1v = k->p0v;
		k->p1n = k->p0n;
		k->p0v = val;
		k->p0n = num;
	} else if (num < k->p1n) {
		k->p1v = val;
		k->p1n = num;
	}
	return;
swap:;
	int tv = k->p0v;
	int64_t tn = k->p0n;
	k->p0v = k->p1v;
	k->p0n = k->p1n;
	k->p1v = tv;
	k->p1n = tn;
}

/* The cycle's state for plan pl: its constraints, zeroed counters per
 * key (one allocation: counts, then presence flags: the plan's reg0 when
 * it has one, else none), the critical paths at their initial ("",
 * MaxInt32). */
static void state_begin(struct oracle_cycle *cy, const struct oracle_spread_plan *pl,
			struct oracle_spread_state *s)
{
	s->c = pl->c;
	s->n = pl->n;
	s->elig = pl->elig;
	s->n_keys = pl->n_keys;
	size_t head = sizeof(*s->keys) * ((size_t)s->n_keys + 1);
	char *block = arena_alloc(cy->arena, head + pl->n_cells * (sizeof(int64_t) + 1));
	s->keys = (struct oracle_spread_key *)block;
	int64_t *match = (int64_t *)(block + head);
	bool *reg = (bool *)(match + pl->n_cells);
	if (pl->reg0)
		memcpy(reg, pl->reg0, pl->n_cells);
	for (int k = 0; k < s->n_keys; k++) {
		struct oracle_spread_key *key = &s->keys[k];
		size_t nd = key_cells(pl, pl->key_topo[k]);
		key->topo = pl->key_topo[k];
		key->match = match;
		key->reg = reg;
		match += nd;
		reg += nd;
		key->p0v = key->p1v = -1;   /* "" */
		key->p0n = key->p1n = INT32_MAX;
	}
}

/* Whether {} counts no existing pod (QUIRK_SPREAD_EMPTY_SELECTOR). */
static bool empty_counts_zero(const struct oracle_cycle *cy)
{
	return config_quirk(&cy->c->config, QUIRK_SPREAD_EMPTY_SELECTOR);
}

/* The general PreFilter loop (§2.11): over all nodes carrying every hard
 * key, per eligible constraint perNode[pair] = count, a later same-key
 * constraint overwriting an earlier one, summed into TpPairToMatchNum
 * (the pairs present are the plan's reg0). */
static void count_general(struct oracle_cycle *cy, struct oracle_spread_state *s)
{
	int64_t *per = arena_array(cy->arena, (size_t)s->n_keys, sizeof(int64_t));
	bool *set = arena_array(cy->arena, (size_t)s->n_keys, sizeof(bool));
	size_t nn = (size_t)cy->c->n_nodes;
	for (int n = 0; n < cy->c->n_nodes; n++) {
		memset(set, 0, sizeof(bool) * (size_t)s->n_keys);
		for (int i = 0; i < s->n; i++) {
			const struct oracle_spread_c *c = &s->c[i];
			if (!s->elig[(size_t)i * nn + (size_t)n])
				continue;
			per[c->key] = oracle_count_matching(cy, n, &s->c[i].sel,
							    empty_counts_zero(cy));
			set[c->key] = true;
		}
		for (int k = 0; k < s->n_keys; k++) {
			if (!set[k])
				continue;
			int dom = s->keys[k].topo->dom[n];
			s->keys[k].match[dom] += per[k];
		}
	}
}

/* The same when every constraint has its own key (no overwriting): the
 * counts come from the matching groups' pods per node, so only nodes
 * with matching pods are visited. */
static void count_distinct(struct oracle_cycle *cy, const struct oracle_spread_plan *pl,
			   struct oracle_spread_state *s)
{
	struct oracle_data *d = cy->o->d;
	size_t nn = (size_t)d->n_nodes;
	for (int i = 0; i < s->n; i++) {
		struct oracle_spread_c *c = &s->c[i];
		if (pl->sel_empty[i] && empty_counts_zero(cy))
			continue;
		int64_t *match = s->keys[c->key].match;
		const int *dom = c->topo->dom;
		const uint8_t *elig = &s->elig[(size_t)i * nn];
		/* every node eligible: the groups' counts per domain */
		const int64_t *gd = pl->all_elig[i]
			? oracle_group_domains(cy->o, c->topo) : NULL;
		size_t nd = (size_t)c->topo->n_dom;
		for (int g = 0; g < d->n_groups; g++) {
			if (!oracle_group_counted(cy, &c->sel, g))
				continue;
			if (gd) {
				for (size_t x = 0; x < nd; x++)
					match[x] += gd[(size_t)g * nd + x];
				continue;
			}
			const struct oracle_ncount *at = &d->group_nodes[g];
			for (int e = 0; e < at->n; e++) {
				int n = at->node[e];
				if (at->cnt[e] != 0 && elig[n])
					match[dom[n]] += at->cnt[e];
			}
		}
	}
}

/* PreFilter: TpPairToMatchNum over the nodes carrying every hard key;
 * domains and critical paths per key. */
void oracle_prefilter_spread(struct oracle_cycle *cy)
{
	struct oracle_spread_state *s = &cy->spread;
	const struct oracle_spread_plan *pl = plan_get(cy, true);
	if (pl->n == 0) {
		s->n = 0;
		cy->skip[PLUGIN_POD_TOPOLOGY_SPREAD] = true;
		return;
	}
	state_begin(cy, pl, s);
	if (s->n_keys == s->n)
		count_distinct(cy, pl, s);
	else
		count_general(cy, s);
	for (int k = 0; k < s->n_keys; k++) {
		struct oracle_spread_key *key = &s->keys[k];
		for (int dom = 0; dom < key->topo->n_dom; dom++) {
			if (!key->reg[dom])
				continue;
			key->domains++;
			cp_update(key, cp_value(key->topo, dom), key->match[dom]);
		}
	}
}

/* The intended semantics (QUIRK_SPREAD_APPROX_CRITICAL_PATHS off): p0 is
 * the true minimum of the key's registered pairs, MaxInt32 without one. */
static void exact_minimum(struct oracle_spread_key *key)
{
	key->p0n = INT32_MAX;
	for (int dom = 0; dom <= key->topo->n_dom; dom++)
		if (key->reg[dom] && key->match[dom] < key->p0n)
			key->p0n = key->match[dom];
}

/* updateWithPod: AddPod (+1) / RemovePod (-1) of q on node n. */
void oracle_spread_update(struct oracle_cycle *cy, int q, int n, int sign)
{
	struct oracle_spread_state *s = &cy->spread;
	if (cy->skip[PLUGIN_POD_TOPOLOGY_SPREAD])
		return;
	if (oracle_pod_ns(cy->o, q) != oracle_pod_ns(cy->o, cy->pod))
		return;
	/* q's labels are its group's */
	int g = cy->o->d->pod_group[q];
	size_t nn = (size_t)cy->o->d->n_nodes;
	for (int i = 0; i < s->n; i++) {
		struct oracle_spread_c *c = &s->c[i];
		/* the node carries every key and passes the policies */
		if (!s->elig[(size_t)i * nn + (size_t)n])
			continue;
		if (!oracle_sel_group(cy->o, &c->sel, g))
			continue;
		struct oracle_spread_key *key = &s->keys[c->key];
		int dom = c->topo->dom[n];
		key->match[dom] += sign;
		cp_update(key, cp_value(c->topo, dom), key->match[dom]);
		if (!config_quirk(&cy->c->config, QUIRK_SPREAD_APPROX_CRITICAL_PATHS))
			exact_minimum(key);
	}
}

/* What AddPod may change beyond the counts: the critical paths. */
void *oracle_spread_save(struct oracle_cycle *cy)
{
	struct oracle_spread_state *s = &cy->spread;
	if (cy->skip[PLUGIN_POD_TOPOLOGY_SPREAD])
		return NULL;
	struct oracle_spread_key *copy = arena_array(cy->arena, (size_t)s->n_keys + 1,
						     sizeof(*copy));
	memcpy(copy, s->keys, sizeof(*copy) * (size_t)s->n_keys);
	return copy;
}

void oracle_spread_restore(struct oracle_cycle *cy, void *saved)
{
	struct oracle_spread_state *s = &cy->spread;
	if (!saved)
		return;
	const struct oracle_spread_key *copy = saved;
	for (int k = 0; k < s->n_keys; k++) {
		s->keys[k].p0v = copy[k].p0v;
		s->keys[k].p0n = copy[k].p0n;
		s->keys[k].p1v = copy[k].p1v;
		s->keys[k].p1n = copy[k].p1n;
	}
}

/* Filter: per hard constraint, missing key -> UAU; skew
 * match + self - minMatch > maxSkew -> Unschedulable.  Returns the
 * failure code, SCHED_SUCCESS when the node passes. */
static enum sched_code spread_check(const struct oracle_cycle *cy, int node)
{
	const struct oracle_spread_state *s = &cy->spread;
	for (int i = 0; i < s->n; i++) {
		const struct oracle_spread_c *c = &s->c[i];
		int dom = c->topo->dom[node];
		if (dom < 0)
			return SCHED_UAU;
		const struct oracle_spread_key *key = &s->keys[c->key];
		if (key->domains == 0)
			continue;   /* no domain: minMatchNum errors, skipped */
		int64_t min_match = key->p0n;
		if (key->domains < c->min_domains)
			min_match = 0;
		int64_t skew = key->match[dom] + (c->self_match ? 1 : 0) - min_match;
		if (skew > c->max_skew)
			return SCHED_UNSCHEDULABLE;
	}
	return SCHED_SUCCESS;
}

enum sched_code oracle_check_spread(struct oracle_cycle *cy, const struct oracle_nodeview *v)
{
	return spread_check(cy, v->node);
}

void oracle_filter_spread(struct oracle_cycle *cy, const struct oracle_nodeview *v,
			  struct sched_status *st)
{
	switch (spread_check(cy, v->node)) {
	case SCHED_SUCCESS:
		return;
	case SCHED_UAU:
		oracle_status_fail_str(st, SCHED_UAU,
				  "node(s) didn't match pod topology spread constraints (missing required label)");
		return;
	default:
		oracle_status_fail_str(st, SCHED_UNSCHEDULABLE,
				  "node(s) didn't match pod topology spread constraints");
		return;
	}
}

/* The pair a node gives a soft constraint's key: its value, or the
 * pseudo-domain "" when it lacks the label (QUIRK_SPREAD_EMPTY_DOMAIN;
 * off: -1, no pair). */
static int pair_dom(const struct oracle_cycle *cy, const struct oracle_topo *t,
		    int node)
{
	if (t->dom[node] >= 0)
		return t->dom[node];
	if (!config_quirk(&cy->c->config, QUIRK_SPREAD_EMPTY_DOMAIN))
		return -1;
	return t->empty_dom >= 0 ? t->empty_dom : t->n_dom;
}

/* Score (§2.11): per feasible node Σ cnt*ln(size+2) + (maxSkew-1) over
 * the soft constraints it has keys for, rounded; normalized as
 * 100*(max+min-s)/max over the non-ignored nodes. */
enum sched_code oracle_score_spread(struct oracle_cycle *cy, const int *f, int n,
				    int64_t *out)
{
	if (n == 0 || cy->c->n_nodes == 0)
		return SCHED_SKIP;
	const struct oracle_spread_plan *pl = plan_get(cy, false);
	if (pl->n == 0)
		return SCHED_SKIP;
	struct oracle_spread_state s = {0};
	state_begin(cy, pl, &s);
	bool require_all = cy->p->n_spread > 0 || !cy->prof->spread_system_defaulting;
	bool zero_empty = empty_counts_zero(cy);
	bool *ignored = arena_array(cy->arena, (size_t)n, sizeof(bool));
	int *size = arena_array(cy->arena, (size_t)s.n, sizeof(int));
	/* the feasible nodes not ignored: with node classes (score_mult)
	 * f[i] stands for mult[i] nodes of its class, whose domains of a
	 * key are its own, or for a unique key (node_class.c: every node
	 * has it, values distinct) one each */
	const int *mult = cy->score_mult;
	int n_counted = 0;
	for (int i = 0; i < n; i++) {
		if (require_all && !node_has_all_keys(s.c, s.n, f[i])) {
			ignored[i] = true;
			continue;
		}
		int times = mult ? mult[i] : 1;
		n_counted += times;
		for (int k = 0; k < s.n; k++) {
			if (s.c[k].topo->hostname)
				continue;
			struct oracle_spread_key *key = &s.keys[s.c[k].key];
			int dom = pair_dom(cy, s.c[k].topo, f[i]);
			if (dom >= 0 && !key->reg[dom]) {
				key->reg[dom] = true;
				size[k] += s.c[k].topo->n_dom == cy->c->n_nodes ? times : 1;
			}
		}
	}
	double *weight = arena_array(cy->arena, (size_t)s.n, sizeof(double));
	for (int k = 0; k < s.n; k++) {
		int sz = s.c[k].topo->hostname ? n_counted : size[k];
		weight[k] = log((double)(sz + 2));
	}
	/* every node's matching pods, in the pairs the feasible nodes have,
	 * read from the matching groups' pods per node */
	struct oracle_data *d = cy->o->d;
	int *groups = arena_array(cy->arena, (size_t)d->n_groups + 1, sizeof(int));
	for (int k = 0; k < s.n; k++) {
		const struct oracle_spread_c *c = &s.c[k];
		if (c->topo->hostname)
			continue;
		struct oracle_spread_key *key = &s.keys[c->key];
		int ng = oracle_count_groups(cy, &s.c[k].sel, zero_empty, groups);
		/* every node carries every key and passes the policies: a
		 * registered domain's count is its groups' count there */
		const int64_t *gd = pl->all_elig && pl->all_elig[k]
			? oracle_group_domains(cy->o, c->topo) : NULL;
		if (gd) {
			size_t nd = (size_t)c->topo->n_dom;
			for (int j = 0; j < ng; j++)
				for (size_t x = 0; x < nd; x++)
					if (key->reg[x])
						key->match[x] += gd[(size_t)groups[j] * nd + x];
			continue;
		}
		for (int j = 0; j < ng; j++) {
			const struct oracle_ncount *at = &d->group_nodes[groups[j]];
			for (int e = 0; e < at->n; e++) {
				int a = at->node[e];
				if (at->cnt[e] == 0 || (require_all && !node_has_all_keys(s.c, s.n, a)))
					continue;
				int dom = pair_dom(cy, c->topo, a);
				if (dom < 0 || !key->reg[dom] ||
				    !oracle_node_fits_policies(cy, a, c->aff_honor, c->taint_honor))
					continue;
				key->match[dom] += at->cnt[e];
			}
		}
	}
	int64_t min = INT64_MAX, max = 0;
	for (int i = 0; i < n; i++) {
		if (ignored[i]) {
			out[i] = 0;
			continue;
		}
		double score = 0;
		for (int k = 0; k < s.n; k++) {
			const struct oracle_spread_c *c = &s.c[k];
			int dom = c->topo->dom[f[i]];
			if (dom < 0)
				continue;
			int64_t m = c->topo->hostname
				? oracle_nclass_count_matching(cy, f[i], &s.c[k].sel,
							       zero_empty)
				: s.keys[c->key].match[dom];
			score += (double)m * weight[k] + (double)(c->max_skew - 1);
		}
		out[i] = (int64_t)round(score);
		if (out[i] < min)
			min = out[i];
		if (out[i] > max)
			max = out[i];
	}
	for (int i = 0; i < n; i++) {
		if (ignored[i])
			out[i] = 0;
		else if (max == 0)
			out[i] = 100;
		else
			out[i] = 100 * (max + min - out[i]) / max;
	}
	return SCHED_SUCCESS;
}
