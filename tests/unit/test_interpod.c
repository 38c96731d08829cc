/*
 * test_interpod.c - InterPodAffinity filter and score (reference §2.10),
 * hand-derived: the first pod of a series, anti-affinity symmetry, the
 * PreFilter Skip decided before nominated pods, namespaceSelector,
 * preferred scores with min-max normalization and negative raw scores, and
 * the redis-cache / web-store example of shared/seeds/003.
 */
#include "build.h"
#include "check.h"
#include "../../core/quirks.h"

/* ------------------------------------------------------------- helpers */

static struct sched_status last;

#define HOST "kubernetes.io/hostname"
#define ZONE "topology.kubernetes.io/zone"
#define REASON_AFF "node(s) didn't match pod affinity rules"
#define REASON_ANTI "node(s) didn't match pod anti-affinity rules"
#define REASON_EXISTING "node(s) didn't satisfy existing pods anti-affinity rules"

static struct pod_affinity_term term(struct cluster *c, const char *sel,
				     const char *key)
{
	struct pod_affinity_term t;
	memset(&t, 0, sizeof t);
	t.selector = tb_sel_labels(c, sel);
	t.topology_key = key;
	return t;
}

static int node_l(struct cluster *c, const char *name, const char *labels)
{
	return tb_node(c, name, "cpu=4,memory=8Gi,pods=110", labels);
}

static int pod_l(struct cluster *c, const char *name, const char *node_name,
		 const char *labels)
{
	int p = tb_pod(c, name, node_name);
	c->pods[p].labels = tb_labels(c, labels);
	return p;
}

/* Appends t to a (pointer, count) term list of the arena. */
static void push_term(struct cluster *c, const struct pod_affinity_term **arr,
		      int *n, struct pod_affinity_term t)
{
	struct pod_affinity_term *a = arena_array(&c->arena, (size_t)*n + 1, sizeof *a);
	if (*n)
		memcpy(a, *arr, sizeof *a * (size_t)*n);
	a[(*n)++] = t;
	*arr = a;
}

static void push_weighted(struct cluster *c,
			  const struct weighted_pod_affinity_term **arr, int *n,
			  int32_t w, struct pod_affinity_term t)
{
	struct weighted_pod_affinity_term *a =
		arena_array(&c->arena, (size_t)*n + 1, sizeof *a);
	if (*n)
		memcpy(a, *arr, sizeof *a * (size_t)*n);
	a[*n].weight = w;
	a[*n].term = t;
	(*n)++;
	*arr = a;
}

static void add_aff(struct cluster *c, int p, struct pod_affinity_term t)
{
	push_term(c, &c->pods[p].affinity, &c->pods[p].n_affinity, t);
}

static void add_anti(struct cluster *c, int p, struct pod_affinity_term t)
{
	push_term(c, &c->pods[p].anti_affinity, &c->pods[p].n_anti_affinity, t);
}

static void add_pref(struct cluster *c, int p, int32_t w, struct pod_affinity_term t)
{
	push_weighted(c, &c->pods[p].affinity_preferred,
		      &c->pods[p].n_affinity_preferred, w, t);
}

static void add_pref_anti(struct cluster *c, int p, int32_t w,
			  struct pod_affinity_term t)
{
	push_weighted(c, &c->pods[p].anti_affinity_preferred,
		      &c->pods[p].n_anti_affinity_preferred, w, t);
}

static void add_ns(struct cluster *c, const char *name, const char *labels)
{
	if (!c->namespaces)
		c->namespaces = arena_array(&c->arena, 8, sizeof *c->namespaces);
	struct namespace_obj *ns = &c->namespaces[c->n_namespaces++];
	memset(ns, 0, sizeof *ns);
	ns->name = name;
	ns->labels = tb_labels(c, arena_sprintf(&c->arena, "%s%skubernetes.io/metadata.name=%s",
						 labels, labels[0] ? "," : "", name));
}

static enum sched_code ipa(struct cluster *c, int pod, int node)
{
	struct snapshot s;
	snapshot_init(&s, c);
	struct model_cycle cy;
	tb_cycle(&cy, c, &s, pod);
	model_filter_inter_pod_affinity(&cy, node, &last);
	snapshot_release(&s);
	return last.code;
}

static enum sched_code ipa_score(struct cluster *c, int pod, const int *feasible,
				 int n, int64_t *out)
{
	struct snapshot s;
	snapshot_init(&s, c);
	struct model_cycle cy;
	tb_cycle(&cy, c, &s, pod);
	struct sched_status err;
	sched_status_ok(&err);
	enum sched_code rc = model_score_inter_pod_affinity(&cy, feasible, n, out, &err);
	snapshot_release(&s);
	return rc;
}

/* ------------------------------------------------------------- filter */

/* First pod of a series: nodes n1 (zone a), n2 (zone b), n3 (no zone); the
 * pod app=web requires affinity to app=web per zone.
 * No pod anywhere: Aff is empty and the pod matches its own term ->
 *   n1, n2 pass; n3 lacks the key -> UAU.
 * Pod labelled app=other: does not match its own term -> UAU everywhere. */
static void test_first_pod(void)
{
	struct cluster c;
	tb_init(&c);
	node_l(&c, "n1", "zone=a");
	node_l(&c, "n2", "zone=b");
	node_l(&c, "n3", "");
	int p = pod_l(&c, "web", "", "app=web");
	add_aff(&c, p, term(&c, "app=web", "zone"));
	CHECK_EQ(ipa(&c, p, 0), SCHED_SUCCESS);
	CHECK_EQ(ipa(&c, p, 1), SCHED_SUCCESS);
	CHECK_EQ(ipa(&c, p, 2), SCHED_UAU);
	CHECK_STR(sched_status_reason(&last, 0), REASON_AFF);
	c.pods[p].labels = tb_labels(&c, "app=other");
	CHECK_EQ(ipa(&c, p, 0), SCHED_UAU);
	CHECK_EQ(ipa(&c, p, 1), SCHED_UAU);
	cluster_release(&c);
}

/* Series started: an app=web pod on n1 (zone a).  Aff[(zone,a)] = 1:
 * n1 passes, n2 (zone b, count 0, Aff not empty) -> UAU.
 * The quirk: the only app=web pod sits on n3, which has no zone label:
 * v1.30's Aff stays empty, so the exception still opens n1 and n2;
 * intended: a matching pod exists, no exception -> UAU. */
static void test_series_started(void)
{
	struct cluster c;
	tb_init(&c);
	node_l(&c, "n1", "zone=a");
	node_l(&c, "n2", "zone=b");
	node_l(&c, "n3", "");
	int e = pod_l(&c, "web-0", "n1", "app=web");
	int p = pod_l(&c, "web-1", "", "app=web");
	add_aff(&c, p, term(&c, "app=web", "zone"));
	CHECK_EQ(ipa(&c, p, 0), SCHED_SUCCESS);
	CHECK_EQ(ipa(&c, p, 1), SCHED_UAU);
	c.pods[e].node_name = "n3";
	CHECK_EQ(ipa(&c, p, 0), SCHED_SUCCESS);
	CHECK_EQ(ipa(&c, p, 1), SCHED_SUCCESS);
	tb_quirk(&c, QUIRK_AFFINITY_FIRST_POD_COUNTS, false);
	CHECK_EQ(ipa(&c, p, 0), SCHED_UAU);
	CHECK_EQ(ipa(&c, p, 1), SCHED_UAU);
	cluster_release(&c);
}

/* Symmetry: E (on n1, zone a) has required anti-affinity to app=web per
 * zone; the incoming app=web pod has no terms of its own.  existingAnti
 * [(zone,a)] = 1: n1 and n2 (zone a) -> Unschedulable with the existing
 * pods reason; n3 (zone b) passes.  A pod not matching E's term passes
 * everywhere (PreFilter Skip). */
static void test_existing_anti(void)
{
	struct cluster c;
	tb_init(&c);
	node_l(&c, "n1", "zone=a");
	node_l(&c, "n2", "zone=a");
	node_l(&c, "n3", "zone=b");
	int e = pod_l(&c, "db", "n1", "app=db");
	add_anti(&c, e, term(&c, "app=web", "zone"));
	int p = pod_l(&c, "web", "", "app=web");
	int q = pod_l(&c, "api", "", "app=api");
	CHECK_EQ(ipa(&c, p, 0), SCHED_UNSCHEDULABLE);
	CHECK_STR(sched_status_reason(&last, 0), REASON_EXISTING);
	CHECK_EQ(ipa(&c, p, 1), SCHED_UNSCHEDULABLE);
	CHECK_EQ(ipa(&c, p, 2), SCHED_SUCCESS);
	CHECK_EQ(ipa(&c, q, 0), SCHED_SUCCESS);
	cluster_release(&c);
}

/* The PreFilter Skip is decided before nominated pods are added: E (with
 * anti-affinity to app=web) is only nominated to n1 and added as a delta.
 * The incoming app=web pod has no terms: Skip on base -> n1 passes even in
 * pass 1 (view holds E).  Give the pod an unrelated anti-affinity term and
 * the plugin runs: E in the view makes n1 fail. */
static void test_skip_ignores_nominated(void)
{
	struct cluster c;
	tb_init(&c);
	int n1 = node_l(&c, "n1", "zone=a");
	int e = pod_l(&c, "db", "", "app=db");
	add_anti(&c, e, term(&c, "app=web", "zone"));
	int p = pod_l(&c, "web", "", "app=web");
	struct snapshot base, view;
	snapshot_init(&base, &c);
	snapshot_clone(&view, &base);
	view.pod_node[e] = n1;
	struct model_delta d[] = { { e, n1, +1 } };
	struct model_cycle cy;
	tb_cycle(&cy, &c, &base, p);
	cy.view = &view;
	cy.deltas = d;
	cy.n_deltas = 1;
	tb_cycle_state(&cy);
	model_filter_inter_pod_affinity(&cy, n1, &last);
	CHECK_EQ(last.code, SCHED_SUCCESS);
	add_anti(&c, p, term(&c, "app=nothing", HOST));
	tb_cycle_state(&cy);   /* the pod changed: its PreFilter again */
	model_filter_inter_pod_affinity(&cy, n1, &last);
	CHECK_EQ(last.code, SCHED_UNSCHEDULABLE);
	CHECK_STR(sched_status_reason(&last, 0), REASON_EXISTING);
	snapshot_release(&view);
	snapshot_release(&base);
	cluster_release(&c);
}

/* The pod's own anti-affinity (app=db per hostname): a db pod on n1 ->
 * n1 Unschedulable "didn't match pod anti-affinity rules"; n2 passes; a
 * node without the hostname label cannot be in the term's domain: pass. */
static void test_own_anti(void)
{
	struct cluster c;
	tb_init(&c);
	node_l(&c, "n1", HOST "=n1");
	node_l(&c, "n2", HOST "=n2");
	node_l(&c, "n3", "");
	pod_l(&c, "db", "n1", "app=db");
	int p = pod_l(&c, "web", "", "app=web");
	add_anti(&c, p, term(&c, "app=db", HOST));
	CHECK_EQ(ipa(&c, p, 0), SCHED_UNSCHEDULABLE);
	CHECK_STR(sched_status_reason(&last, 0), REASON_ANTI);
	CHECK_EQ(ipa(&c, p, 1), SCHED_SUCCESS);
	CHECK_EQ(ipa(&c, p, 2), SCHED_SUCCESS);
	cluster_release(&c);
}

/* namespaceSelector.  Namespaces: data1 {team=data}, other {team=x},
 * web {env=prod}.  app=db pods: one in "other" on n1, one in "data1" on n2.
 * The pod (ns web) requires affinity to app=db in namespaces team=data per
 * hostname: only the data1 pod counts -> n1 UAU (Aff not empty), n2 ok.
 * A term with no namespaces and a nil namespaceSelector means the pod's
 * own namespace (web): no app=db there, but Aff is empty and the pod is
 * not app=db -> UAU everywhere.  namespaceSelector {} means all
 * namespaces: both pods count, n1 and n2 pass. */
static void test_namespace_selector(void)
{
	struct cluster c;
	tb_init(&c);
	add_ns(&c, "data1", "team=data");
	add_ns(&c, "other", "team=x");
	add_ns(&c, "web", "env=prod");
	node_l(&c, "n1", HOST "=n1");
	node_l(&c, "n2", HOST "=n2");
	int a = pod_l(&c, "db-a", "n1", "app=db");
	c.pods[a].ns = "other";
	int b = pod_l(&c, "db-b", "n2", "app=db");
	c.pods[b].ns = "data1";
	int p = pod_l(&c, "web", "", "app=web");
	c.pods[p].ns = "web";
	struct pod_affinity_term t = term(&c, "app=db", HOST);
	t.ns_selector = tb_sel_labels(&c, "team=data");
	add_aff(&c, p, t);
	CHECK_EQ(ipa(&c, p, 0), SCHED_UAU);
	CHECK_EQ(ipa(&c, p, 1), SCHED_SUCCESS);
	struct pod_affinity_term *pt = (struct pod_affinity_term *)c.pods[p].affinity;
	pt->ns_selector.present = false;
	CHECK_EQ(ipa(&c, p, 0), SCHED_UAU);
	CHECK_EQ(ipa(&c, p, 1), SCHED_UAU);
	pt->ns_selector = tb_sel_labels(&c, "");
	CHECK_EQ(ipa(&c, p, 0), SCHED_SUCCESS);
	CHECK_EQ(ipa(&c, p, 1), SCHED_SUCCESS);
	cluster_release(&c);
}

/* An existing pod's namespaceSelector is evaluated on the incoming pod's
 * namespace labels: E (ns data1, on n1) has anti-affinity to app=web in
 * namespaces env=prod.  Pod in "web" {env=prod} -> n1 Unschedulable; after
 * relabelling web to env=dev -> pass.  A pod in an undefined namespace is
 * matched against no labels: env=prod fails -> pass; a DoesNotExist
 * expression on empty labels matches -> Unschedulable. */
static void test_existing_namespace_selector(void)
{
	struct cluster c;
	tb_init(&c);
	add_ns(&c, "data1", "team=data");
	add_ns(&c, "web", "env=prod");
	node_l(&c, "n1", HOST "=n1");
	int e = pod_l(&c, "db", "n1", "app=db");
	c.pods[e].ns = "data1";
	struct pod_affinity_term t = term(&c, "app=web", HOST);
	t.ns_selector = tb_sel_labels(&c, "env=prod");
	add_anti(&c, e, t);
	int p = pod_l(&c, "web", "", "app=web");
	c.pods[p].ns = "web";
	CHECK_EQ(ipa(&c, p, 0), SCHED_UNSCHEDULABLE);
	CHECK_STR(sched_status_reason(&last, 0), REASON_EXISTING);
	c.namespaces[1].labels = tb_labels(&c, "env=dev,kubernetes.io/metadata.name=web");
	CHECK_EQ(ipa(&c, p, 0), SCHED_SUCCESS);
	c.pods[p].ns = "ghost";
	CHECK_EQ(ipa(&c, p, 0), SCHED_SUCCESS);
	struct pod_affinity_term *et = (struct pod_affinity_term *)c.pods[e].anti_affinity;
	struct requirement *r = arena_alloc(&c.arena, sizeof *r);
	*r = tb_req(&c, "env", OP_DOES_NOT_EXIST, "");
	et->ns_selector = tb_sel_labels(&c, "");
	et->ns_selector.exprs = r;
	et->ns_selector.n_exprs = 1;
	CHECK_EQ(ipa(&c, p, 0), SCHED_UNSCHEDULABLE);
	cluster_release(&c);
}

/* seed 003: three nodes; redis-cache replicas (app=store, anti-affinity
 * app=store per hostname) and web-server replicas (app=web-store,
 * anti-affinity app=web-store, affinity app=store, per hostname).
 * (1) cache-1 on n1, cache-2 on n2; cache-3 pending: its own anti term
 *     rejects n1, n2 ("didn't match pod anti-affinity rules"); n3 ok.
 * (2) caches on n1..n3, web-1 on n1, web-2 on n2; web-3: n1, n2 fail its
 *     anti-affinity; n3 has a store pod and no web pod: ok.
 * (3) only cache-1 and cache-2 placed, no web yet: web-1 may go to n1 or
 *     n2; n3 has no store pod and Aff is not empty -> UAU. */
static int redis_node_pods(struct cluster *c, int n_caches, int n_webs)
{
	static const char *const nodes[] = { "n1", "n2", "n3" };
	static const char *const caches[] = { "cache-1", "cache-2", "cache-3" };
	static const char *const webs[] = { "web-1", "web-2", "web-3" };
	tb_init(c);
	for (int i = 0; i < 3; i++)
		node_l(c, nodes[i], arena_sprintf(&c->arena, HOST "=%s", nodes[i]));
	for (int i = 0; i < 3; i++) {
		int r = pod_l(c, caches[i], i < n_caches ? nodes[i] : "", "app=store");
		add_anti(c, r, term(c, "app=store", HOST));
	}
	int last_web = -1;
	for (int i = 0; i < 3; i++) {
		int w = pod_l(c, webs[i], i < n_webs ? nodes[i] : "", "app=web-store");
		add_anti(c, w, term(c, "app=web-store", HOST));
		add_aff(c, w, term(c, "app=store", HOST));
		if (i == n_webs && last_web < 0)
			last_web = w;
	}
	return last_web;
}

static void test_redis_web_store(void)
{
	struct cluster c;
	redis_node_pods(&c, 2, 0);
	int cache3 = cluster_find_pod(&c, "default", "cache-3");
	CHECK_EQ(ipa(&c, cache3, 0), SCHED_UNSCHEDULABLE);
	CHECK_STR(sched_status_reason(&last, 0), REASON_ANTI);
	CHECK_EQ(ipa(&c, cache3, 1), SCHED_UNSCHEDULABLE);
	CHECK_EQ(ipa(&c, cache3, 2), SCHED_SUCCESS);
	cluster_release(&c);

	int web3 = redis_node_pods(&c, 3, 2);
	CHECK_EQ(ipa(&c, web3, 0), SCHED_UNSCHEDULABLE);
	CHECK_STR(sched_status_reason(&last, 0), REASON_ANTI);
	CHECK_EQ(ipa(&c, web3, 1), SCHED_UNSCHEDULABLE);
	CHECK_EQ(ipa(&c, web3, 2), SCHED_SUCCESS);
	cluster_release(&c);

	int web1 = redis_node_pods(&c, 2, 0);
	CHECK_EQ(ipa(&c, web1, 0), SCHED_SUCCESS);
	CHECK_EQ(ipa(&c, web1, 1), SCHED_SUCCESS);
	CHECK_EQ(ipa(&c, web1, 2), SCHED_UAU);
	CHECK_STR(sched_status_reason(&last, 0), REASON_AFF);
	cluster_release(&c);
}

/* -------------------------------------------------------------- score */

/* The incoming pod's preferred terms: n1 (zone a) runs app=db, n2 (zone b)
 * app=cache, n3 (zone c) nothing.  Preferred affinity 80 to app=db and
 * preferred anti-affinity 50 to app=cache, per zone.
 * Raw: n1 +80, n2 -50, n3 0; min -50, max 80, diff 130:
 *   n1 100 * (130/130) = 100, n2 0, n3 trunc(100 * (50/130)) = trunc(38.46) = 38. */
static void test_score_preferred(void)
{
	struct cluster c;
	tb_init(&c);
	node_l(&c, "n1", "zone=a");
	node_l(&c, "n2", "zone=b");
	node_l(&c, "n3", "zone=c");
	pod_l(&c, "db", "n1", "app=db");
	pod_l(&c, "cache", "n2", "app=cache");
	int p = pod_l(&c, "web", "", "app=web");
	add_pref(&c, p, 80, term(&c, "app=db", "zone"));
	add_pref_anti(&c, p, 50, term(&c, "app=cache", "zone"));
	int feasible[] = { 0, 1, 2 };
	int64_t s[3];
	CHECK_EQ(ipa_score(&c, p, feasible, 3, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 100);
	CHECK_EQ(s[1], 0);
	CHECK_EQ(s[2], 38);
	/* only n2 and n3 feasible: raw -50, 0 -> 0, 100 */
	int f2[] = { 1, 2 };
	CHECK_EQ(ipa_score(&c, p, f2, 2, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 0);
	CHECK_EQ(s[1], 100);
	cluster_release(&c);
}

/* Existing pods' terms score symmetrically.  The pod app=web has no terms.
 * E1 on n1 (zone a) requires affinity to app=web per zone: +hard (1);
 * E2 on n2 (zone b) prefers app=web with weight 20: +20;
 * E3 on n3 (zone c) prefers anti app=web with weight 30: -30.
 * Raw 1, 20, -30; min -30, max 20, diff 50:
 *   n1 trunc(100 * (31/50)) = 62, n2 100, n3 0.
 * hardPodAffinityWeight 0: n1 raw 0: trunc(100 * (30/50)) = 60.
 * ignorePreferredTermsOfExistingPods (the pod has no preferred term):
 * PreScore Skip. */
static void test_score_existing_terms(void)
{
	struct cluster c;
	tb_init(&c);
	node_l(&c, "n1", "zone=a");
	node_l(&c, "n2", "zone=b");
	node_l(&c, "n3", "zone=c");
	int e1 = pod_l(&c, "e1", "n1", "app=e1");
	add_aff(&c, e1, term(&c, "app=web", "zone"));
	int e2 = pod_l(&c, "e2", "n2", "app=e2");
	add_pref(&c, e2, 20, term(&c, "app=web", "zone"));
	int e3 = pod_l(&c, "e3", "n3", "app=e3");
	add_pref_anti(&c, e3, 30, term(&c, "app=web", "zone"));
	int p = pod_l(&c, "web", "", "app=web");
	int feasible[] = { 0, 1, 2 };
	int64_t s[3];
	CHECK_EQ(ipa_score(&c, p, feasible, 3, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 62);
	CHECK_EQ(s[1], 100);
	CHECK_EQ(s[2], 0);
	tb_profile(&c)->hard_pod_affinity_weight = 0;
	CHECK_EQ(ipa_score(&c, p, feasible, 3, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 60);
	tb_profile(&c)->hard_pod_affinity_weight = 1;
	tb_profile(&c)->ignore_preferred_terms_of_existing = true;
	CHECK_EQ(ipa_score(&c, p, feasible, 3, s), SCHED_SKIP);
	CHECK_EQ(s[0], 0);
	cluster_release(&c);
}

/* Skip when nothing scored: no pod has any term.  An entry that sums to 0
 * is still an entry: +10 and -10 on zone a -> not Skip, all raw 0 ->
 * max - min = 0 -> all 0.  A pod on a node without labels never scores. */
static void test_score_skip(void)
{
	struct cluster c;
	tb_init(&c);
	node_l(&c, "n1", "zone=a");
	node_l(&c, "n2", "zone=b");
	node_l(&c, "bare", "");
	pod_l(&c, "x", "n1", "app=x");
	int p = pod_l(&c, "web", "", "app=web");
	int feasible[] = { 0, 1 };
	int64_t s[2];
	CHECK_EQ(ipa_score(&c, p, feasible, 2, s), SCHED_SKIP);
	add_pref(&c, p, 10, term(&c, "app=x", "zone"));
	add_pref_anti(&c, p, 10, term(&c, "app=x", "zone"));
	CHECK_EQ(ipa_score(&c, p, feasible, 2, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 0);
	CHECK_EQ(s[1], 0);
	cluster_release(&c);

	tb_init(&c);
	node_l(&c, "n1", "zone=a");
	node_l(&c, "bare", "");
	pod_l(&c, "x", "bare", "app=x");
	p = pod_l(&c, "web", "", "app=web");
	add_pref(&c, p, 10, term(&c, "app=x", "zone"));
	CHECK_EQ(ipa_score(&c, p, feasible, 2, s), SCHED_SKIP);
	cluster_release(&c);
}

int main(void)
{
	test_first_pod();
	test_series_started();
	test_existing_anti();
	test_skip_ignores_nominated();
	test_own_anti();
	test_namespace_selector();
	test_existing_namespace_selector();
	test_redis_web_store();
	test_score_preferred();
	test_score_existing_terms();
	test_score_skip();
	return check_done("test_interpod");
}
