/*
 * test_spread.c - PodTopologySpread filter and score (reference §2.11),
 * hand-derived, including every example of shared/seeds/002 (Pod Topology
 * Spread Constraints): 4 nodes in 2 zones, maxSkew 1 / 2, topologyKey node,
 * two intersecting constraints, node affinity, the infeasible zone.
 */
#include <math.h>

#include "build.h"
#include "check.h"
#include "../../core/quirks.h"
#include "../../model/spread_constraints.h"

/* ------------------------------------------------------------- helpers */

static struct sched_status last;   /* status of the last filter call */

static struct label_selector sel_nil(void)
{
	struct label_selector s;
	memset(&s, 0, sizeof s);
	return s;
}

static int node_z(struct cluster *c, const char *name, const char *labels)
{
	return tb_node(c, name, "cpu=4,memory=8Gi,pods=110", labels);
}

/* A pod with labels, bound to node_name ("" = pending). */
static int pod_l(struct cluster *c, const char *name, const char *node_name,
		 const char *labels)
{
	int p = tb_pod(c, name, node_name);
	c->pods[p].labels = tb_labels(c, labels);
	return p;
}

static struct spread_constraint *add_spread(struct cluster *c, int pod,
					    int32_t max_skew, const char *key,
					    bool dns, struct label_selector sel)
{
	struct pod *p = &c->pods[pod];
	struct spread_constraint *arr =
		arena_array(&c->arena, (size_t)p->n_spread + 1, sizeof *arr);
	if (p->n_spread)
		memcpy(arr, p->spread, sizeof *arr * (size_t)p->n_spread);
	struct spread_constraint *sc = &arr[p->n_spread];
	sc->max_skew = max_skew;
	sc->topology_key = key;
	sc->do_not_schedule = dns;
	sc->selector = sel;
	sc->min_domains = 1;
	sc->node_affinity_honor = true;
	sc->node_taints_honor = false;
	p->spread = arr;
	p->n_spread++;
	return sc;
}

static void add_service(struct cluster *c, const char *ns, const char *name,
			const char *selector)
{
	if (!c->workloads)
		c->workloads = arena_array(&c->arena, 8, sizeof *c->workloads);
	struct workload *w = &c->workloads[c->n_workloads++];
	memset(w, 0, sizeof *w);
	w->kind = WORKLOAD_SERVICE;
	w->ns = ns;
	w->name = name;
	w->has_map_selector = true;
	w->map_selector = tb_labels(c, selector);
}

/* Filter verdict of pod on node on the manifests' placement. */
static enum sched_code pts(struct cluster *c, int pod, int node)
{
	struct snapshot s;
	snapshot_init(&s, c);
	struct model_cycle cy;
	tb_cycle(&cy, c, &s, pod);
	model_filter_pod_topology_spread(&cy, node, &last);
	snapshot_release(&s);
	return last.code;
}

/* Score of pod over feasible nodes feasible[0..n) into out. */
static enum sched_code pts_score(struct cluster *c, int pod, const int *feasible,
				 int n, int64_t *out)
{
	struct snapshot s;
	snapshot_init(&s, c);
	struct model_cycle cy;
	tb_cycle(&cy, c, &s, pod);
	struct sched_status err;
	sched_status_ok(&err);
	enum sched_code rc = model_score_pod_topology_spread(&cy, feasible, n, out, &err);
	snapshot_release(&s);
	return rc;
}

#define REASON_SKEW "node(s) didn't match pod topology spread constraints"
#define REASON_LABEL "node(s) didn't match pod topology spread constraints (missing required label)"

/* ------------------------------------------------ seed 002, §3.2 cluster */

/* node1,node2 in zoneA, node3,node4 in zoneB; foo=bar pods on node1-3;
 * the incoming pod "mypod" foo=bar (no constraint yet). */
static int seed002(struct cluster *c)
{
	tb_init(c);
	node_z(c, "node1", "node=node1,zone=zoneA");
	node_z(c, "node2", "node=node2,zone=zoneA");
	node_z(c, "node3", "node=node3,zone=zoneB");
	node_z(c, "node4", "node=node4,zone=zoneB");
	pod_l(c, "p1", "node1", "foo=bar");
	pod_l(c, "p2", "node2", "foo=bar");
	pod_l(c, "p3", "node3", "foo=bar");
	return pod_l(c, "mypod", "", "foo=bar");
}

/* maxSkew 1 on zone: zoneA has 2, zoneB 1, min 1.
 * zoneA: 2 + 1 - 1 = 2 > 1 -> Unschedulable; zoneB: 1 + 1 - 1 = 1 -> ok. */
static void test_seed_max_skew_1(void)
{
	struct cluster c;
	int p = seed002(&c);
	add_spread(&c, p, 1, "zone", true, tb_sel_labels(&c, "foo=bar"));
	CHECK_EQ(pts(&c, p, 0), SCHED_UNSCHEDULABLE);
	CHECK_STR(sched_status_reason(&last, 0), REASON_SKEW);
	CHECK_EQ(last.n_reasons, 1);
	CHECK_EQ(pts(&c, p, 1), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 2), SCHED_SUCCESS);
	CHECK_EQ(pts(&c, p, 3), SCHED_SUCCESS);
	cluster_release(&c);
}

/* maxSkew 2: zoneA 2 + 1 - 1 = 2 <= 2: every node passes. */
static void test_seed_max_skew_2(void)
{
	struct cluster c;
	int p = seed002(&c);
	add_spread(&c, p, 2, "zone", true, tb_sel_labels(&c, "foo=bar"));
	for (int n = 0; n < 4; n++)
		CHECK_EQ(pts(&c, p, n), SCHED_SUCCESS);
	cluster_release(&c);
}

/* topologyKey node, maxSkew 1: counts 1,1,1,0, min 0: node1-3 give
 * 1 + 1 - 0 = 2 > 1, node4 0 + 1 - 0 = 1: only node4. */
static void test_seed_key_node(void)
{
	struct cluster c;
	int p = seed002(&c);
	add_spread(&c, p, 1, "node", true, tb_sel_labels(&c, "foo=bar"));
	CHECK_EQ(pts(&c, p, 0), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 1), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 2), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 3), SCHED_SUCCESS);
	cluster_release(&c);
}

/* ScheduleAnyway only: the filter has no hard constraint (PreFilter Skip)
 * and passes everywhere.  Score (all 4 feasible, explicit constraint ->
 * requireAll): pairs zoneA, zoneB -> topoSize 2, W = ln 4 = 1.3863;
 * counts zoneA 2, zoneB 1; raw zoneA = round(2 * 1.3863 + 0) = 3,
 * zoneB = round(1.3863) = 1; max 3, min 1:
 * zoneA 100 * (3 + 1 - 3) / 3 = 33, zoneB 100 * (3 + 1 - 1) / 3 = 100.
 * A fifth feasible node without the zone label is ignored: 0, and does not
 * change the others. */
static void test_seed_schedule_anyway(void)
{
	struct cluster c;
	int p = seed002(&c);
	node_z(&c, "node5", "node=node5");
	add_spread(&c, p, 1, "zone", false, tb_sel_labels(&c, "foo=bar"));
	for (int n = 0; n < 5; n++)
		CHECK_EQ(pts(&c, p, n), SCHED_SUCCESS);
	int feasible[] = { 0, 1, 2, 3, 4 };
	int64_t s[5];
	CHECK_EQ(pts_score(&c, p, feasible, 5, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 33);
	CHECK_EQ(s[1], 33);
	CHECK_EQ(s[2], 100);
	CHECK_EQ(s[3], 100);
	CHECK_EQ(s[4], 0);
	cluster_release(&c);
}

/* A node lacking the hard constraint's key: UAU with the missing-label
 * reason; it is no domain either (zoneA 2, zoneB 1 as before). */
static void test_missing_label(void)
{
	struct cluster c;
	int p = seed002(&c);
	int n5 = node_z(&c, "node5", "node=node5");
	add_spread(&c, p, 1, "zone", true, tb_sel_labels(&c, "foo=bar"));
	CHECK_EQ(pts(&c, p, n5), SCHED_UAU);
	CHECK_STR(sched_status_reason(&last, 0), REASON_LABEL);
	CHECK_EQ(pts(&c, p, 2), SCHED_SUCCESS);
	cluster_release(&c);
}

/* seed 002 §3.3.2: zone1 = {nodeA: 0 pods, nodeB: 3}, zone2 = {nodeX: 2,
 * nodeY: 0}; two constraints, maxSkew 1 each.
 * zone: min 2 -> zone1 3 + 1 - 2 = 2 fails, zone2 2 + 1 - 2 = 1 passes.
 * node: min 0 -> nodeA 1 ok, nodeB 4 fails, nodeX 3 fails, nodeY 1 ok.
 * Intersection: nodeY only. */
static void test_seed_two_constraints(void)
{
	struct cluster c;
	tb_init(&c);
	node_z(&c, "nodeA", "node=nodeA,zone=zone1");
	node_z(&c, "nodeB", "node=nodeB,zone=zone1");
	node_z(&c, "nodeX", "node=nodeX,zone=zone2");
	node_z(&c, "nodeY", "node=nodeY,zone=zone2");
	pod_l(&c, "b1", "nodeB", "foo=bar");
	pod_l(&c, "b2", "nodeB", "foo=bar");
	pod_l(&c, "b3", "nodeB", "foo=bar");
	pod_l(&c, "x1", "nodeX", "foo=bar");
	pod_l(&c, "x2", "nodeX", "foo=bar");
	int p = pod_l(&c, "new", "", "foo=bar");
	add_spread(&c, p, 1, "zone", true, tb_sel_labels(&c, "foo=bar"));
	add_spread(&c, p, 1, "node", true, tb_sel_labels(&c, "foo=bar"));
	CHECK_EQ(pts(&c, p, 0), SCHED_UNSCHEDULABLE);   /* zone fails */
	CHECK_EQ(pts(&c, p, 1), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 2), SCHED_UNSCHEDULABLE);   /* node fails */
	CHECK_EQ(pts(&c, p, 3), SCHED_SUCCESS);
	cluster_release(&c);
}

/* seed 002 §3.3.1 (node affinity restricts the domains): zone1 = n1
 * env=qa (1 pod), zone2 = n2 env=qa (1 pod), zone3 = n3 env=prod (0 pods);
 * the pod selects env=qa.
 * nodeAffinityPolicy Honor (default): domains zone1 1, zone2 1, min 1:
 *   n1, n2: 1 + 1 - 1 = 1 -> pass.
 * nodeAffinityPolicy Ignore: zone3 counts with 0, min 0:
 *   n1, n2: 1 + 1 - 0 = 2 -> fail; n3: 0 + 1 - 0 = 1 -> pass (NodeAffinity's
 *   own filter rejects it). */
static void test_seed_node_affinity(void)
{
	struct cluster c;
	tb_init(&c);
	node_z(&c, "n1", "zone=zone1,env=qa");
	node_z(&c, "n2", "zone=zone2,env=qa");
	node_z(&c, "n3", "zone=zone3,env=prod");
	pod_l(&c, "a", "n1", "foo=bar");
	pod_l(&c, "b", "n2", "foo=bar");
	int p = pod_l(&c, "new", "", "foo=bar");
	c.pods[p].has_node_selector = true;
	c.pods[p].node_selector = tb_labels(&c, "env=qa");
	struct spread_constraint *sc =
		add_spread(&c, p, 1, "zone", true, tb_sel_labels(&c, "foo=bar"));
	CHECK_EQ(pts(&c, p, 0), SCHED_SUCCESS);
	CHECK_EQ(pts(&c, p, 1), SCHED_SUCCESS);
	sc->node_affinity_honor = false;
	CHECK_EQ(pts(&c, p, 0), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 1), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 2), SCHED_SUCCESS);
	cluster_release(&c);
}

/* seed 002 §3.3.3: 3/3/0 over zone1, zone2, zone3 where zone3's node has
 * an untolerated NoSchedule taint.
 * DoNotSchedule (nodeTaintsPolicy Ignore): min 0 (zone3 counts), so
 *   zone1/zone2: 3 + 1 - 0 = 4 > 1 -> fail; zone3 passes this filter but
 *   TaintToleration rejects it: the pod cannot be scheduled.
 * nodeTaintsPolicy Honor: zone3 is no domain, min 3: 3 + 1 - 3 = 1 -> pass.
 * ScheduleAnyway, feasible {n1, n2}: topoSize 2, W = ln 4; counts 3, 3;
 *   raw round(3 * 1.3863) = round(4.1589) = 4 for both; max = min = 4:
 *   100 * (4 + 4 - 4) / 4 = 100 each - equal chances. */
static int seed002_infeasible(struct cluster *c)
{
	tb_init(c);
	node_z(c, "n1", "zone=zone1");
	node_z(c, "n2", "zone=zone2");
	int n3 = node_z(c, "n3", "zone=zone3");
	tb_taint(c, n3, "dedicated", "x", EFFECT_NO_SCHEDULE);
	for (int i = 0; i < 3; i++) {
		pod_l(c, i == 0 ? "a0" : i == 1 ? "a1" : "a2", "n1", "foo=bar");
		pod_l(c, i == 0 ? "b0" : i == 1 ? "b1" : "b2", "n2", "foo=bar");
	}
	return pod_l(c, "new", "", "foo=bar");
}

static void test_seed_infeasible_zone(void)
{
	struct cluster c;
	int p = seed002_infeasible(&c);
	struct spread_constraint *sc =
		add_spread(&c, p, 1, "zone", true, tb_sel_labels(&c, "foo=bar"));
	CHECK_EQ(pts(&c, p, 0), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 1), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 2), SCHED_SUCCESS);
	sc->node_taints_honor = true;
	CHECK_EQ(pts(&c, p, 0), SCHED_SUCCESS);
	CHECK_EQ(pts(&c, p, 1), SCHED_SUCCESS);
	cluster_release(&c);

	p = seed002_infeasible(&c);
	add_spread(&c, p, 1, "zone", false, tb_sel_labels(&c, "foo=bar"));
	CHECK_EQ(pts(&c, p, 0), SCHED_SUCCESS);
	int feasible[] = { 0, 1 };
	int64_t s[2];
	CHECK_EQ(pts_score(&c, p, feasible, 2, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 100);
	CHECK_EQ(s[1], 100);
	cluster_release(&c);
}

/* minDomains: zoneA (n1, 1 pod), zoneB (n2, 1 pod), maxSkew 1.
 * minDomains 3 > 2 domains -> min 0: 1 + 1 - 0 = 2 > 1 on both.
 * minDomains 2 -> min 1: 1 + 1 - 1 = 1 on both. */
static void test_min_domains(void)
{
	struct cluster c;
	tb_init(&c);
	node_z(&c, "n1", "zone=zoneA");
	node_z(&c, "n2", "zone=zoneB");
	pod_l(&c, "a", "n1", "foo=bar");
	pod_l(&c, "b", "n2", "foo=bar");
	int p = pod_l(&c, "new", "", "foo=bar");
	struct spread_constraint *sc =
		add_spread(&c, p, 1, "zone", true, tb_sel_labels(&c, "foo=bar"));
	sc->min_domains = 3;
	CHECK_EQ(pts(&c, p, 0), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 1), SCHED_UNSCHEDULABLE);
	sc->min_domains = 2;
	CHECK_EQ(pts(&c, p, 0), SCHED_SUCCESS);
	CHECK_EQ(pts(&c, p, 1), SCHED_SUCCESS);
	cluster_release(&c);
}

/* matchLabelKeys: zoneA n1 has 2 pods app=foo,version=v1; zoneB n2 has one
 * app=foo,version=v2; the pod is app=foo,version=v2.
 * Selector app=foo: zoneA 2, zoneB 1, min 1 -> n1 2 > 1 fails, n2 1 ok.
 * matchLabelKeys [version] -> selector app=foo,version=v2: zoneA 0,
 * zoneB 1, min 0 -> n1 0 + 1 = 1 ok, n2 1 + 1 = 2 fails.
 * A key the pod lacks adds nothing (back to the first result). */
static void test_match_label_keys(void)
{
	struct cluster c;
	tb_init(&c);
	node_z(&c, "n1", "zone=zoneA");
	node_z(&c, "n2", "zone=zoneB");
	pod_l(&c, "a1", "n1", "app=foo,version=v1");
	pod_l(&c, "a2", "n1", "app=foo,version=v1");
	pod_l(&c, "b1", "n2", "app=foo,version=v2");
	int p = pod_l(&c, "new", "", "app=foo,version=v2");
	struct spread_constraint *sc =
		add_spread(&c, p, 1, "zone", true, tb_sel_labels(&c, "app=foo"));
	CHECK_EQ(pts(&c, p, 0), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 1), SCHED_SUCCESS);
	static const char *const version[] = { "version" };
	sc->match_label_keys = version;
	sc->n_match_label_keys = 1;
	CHECK_EQ(pts(&c, p, 0), SCHED_SUCCESS);
	CHECK_EQ(pts(&c, p, 1), SCHED_UNSCHEDULABLE);
	static const char *const missing[] = { "track" };
	sc->match_label_keys = missing;
	CHECK_EQ(pts(&c, p, 0), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 1), SCHED_SUCCESS);
	/* a nil labelSelector stays Nothing: no count, no self-match: pass */
	sc->selector = sel_nil();
	sc->match_label_keys = version;
	CHECK_EQ(pts(&c, p, 0), SCHED_SUCCESS);
	CHECK_EQ(pts(&c, p, 1), SCHED_SUCCESS);
	cluster_release(&c);
}

/* Terminating pods and pods of other namespaces do not count: zoneA (n1)
 * holds a foo=bar pod with deletionTimestamp and one in namespace "other";
 * zoneB (n2) none.  Counts 0/0, so n1: 0 + 1 - 0 = 1 -> pass (it would
 * fail with either pod counted). */
static void test_count_rules(void)
{
	struct cluster c;
	tb_init(&c);
	node_z(&c, "n1", "zone=zoneA");
	node_z(&c, "n2", "zone=zoneB");
	int t = pod_l(&c, "term", "n1", "foo=bar");
	c.pods[t].deletion.has = true;
	c.pods[t].deletion.seconds = 1700000000;
	int o = pod_l(&c, "other", "n1", "foo=bar");
	c.pods[o].ns = "other";
	int p = pod_l(&c, "new", "", "foo=bar");
	add_spread(&c, p, 1, "zone", true, tb_sel_labels(&c, "foo=bar"));
	CHECK_EQ(pts(&c, p, 0), SCHED_SUCCESS);
	CHECK_EQ(pts(&c, p, 1), SCHED_SUCCESS);
	cluster_release(&c);
}

/* Quirk: same-key constraints share the counter.  zoneA (n1): 2 pods
 * app=a; zoneB (n2): 2 pods app=b; the pod app=a has c1 {app=a} and
 * c2 {app=b}, both zone / maxSkew 1.
 * v1.30: per node the later constraint overwrites: zoneA = c2's 0,
 *   zoneB = c2's 2, min 0.  n1: c1 0 + 1 - 0 = 1 ok, c2 0 + 0 ok -> pass;
 *   n2: c1 2 + 1 - 0 = 3 -> fail.
 * Intended: c1 counts zoneA 2, zoneB 0: n1 3 > 1 fails; n2: c1 1 ok,
 *   c2 (zoneA 0, zoneB 2) 2 + 0 - 0 = 2 > 1 fails. */
static void test_same_key_quirk(void)
{
	struct cluster c;
	tb_init(&c);
	node_z(&c, "n1", "zone=zoneA");
	node_z(&c, "n2", "zone=zoneB");
	pod_l(&c, "a1", "n1", "app=a");
	pod_l(&c, "a2", "n1", "app=a");
	pod_l(&c, "b1", "n2", "app=b");
	pod_l(&c, "b2", "n2", "app=b");
	int p = pod_l(&c, "new", "", "app=a");
	add_spread(&c, p, 1, "zone", true, tb_sel_labels(&c, "app=a"));
	add_spread(&c, p, 1, "zone", true, tb_sel_labels(&c, "app=b"));
	CHECK_EQ(pts(&c, p, 0), SCHED_SUCCESS);
	CHECK_EQ(pts(&c, p, 1), SCHED_UNSCHEDULABLE);
	tb_quirk(&c, QUIRK_SPREAD_SHARED_KEY, false);
	CHECK_EQ(pts(&c, p, 0), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 1), SCHED_UNSCHEDULABLE);
	/* v1.34 counts per constraint (delta §5.3): the intended answers,
	 * with the switch left on (v1.34 has no such quirk) */
	tb_quirk(&c, QUIRK_SPREAD_SHARED_KEY, true);
	c.config.kube_version = KUBE_1_34;
	CHECK_EQ(pts(&c, p, 0), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 1), SCHED_UNSCHEDULABLE);
	cluster_release(&c);
}

/* Quirk: labelSelector {} counts 0 but self-matches.  zoneA (n1) 2 pods,
 * zoneB (n2) none.  v1.30: counts 0/0, n1 0 + 1 - 0 = 1 -> pass.
 * Intended ({} counts all): n1 2 + 1 - 0 = 3 -> fail.  n2 passes both. */
static void test_empty_selector_quirk(void)
{
	struct cluster c;
	tb_init(&c);
	node_z(&c, "n1", "zone=zoneA");
	node_z(&c, "n2", "zone=zoneB");
	pod_l(&c, "a1", "n1", "x=1");
	pod_l(&c, "a2", "n1", "y=2");
	int p = pod_l(&c, "new", "", "z=3");
	add_spread(&c, p, 1, "zone", true, tb_sel_labels(&c, ""));
	CHECK_EQ(pts(&c, p, 0), SCHED_SUCCESS);
	CHECK_EQ(pts(&c, p, 1), SCHED_SUCCESS);
	tb_quirk(&c, QUIRK_SPREAD_EMPTY_SELECTOR, false);
	CHECK_EQ(pts(&c, p, 0), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 1), SCHED_SUCCESS);
	cluster_release(&c);
}

/* A cycle whose view is base plus deltas. */
static enum sched_code pts_deltas(struct cluster *c, int pod, int node,
				  const struct snapshot *base,
				  const struct snapshot *view,
				  const struct model_delta *d, int nd)
{
	struct model_cycle cy;
	tb_cycle(&cy, c, base, pod);
	cy.view = view;
	cy.deltas = d;
	cy.n_deltas = nd;
	tb_cycle_state(&cy);
	model_filter_pod_topology_spread(&cy, node, &last);
	return last.code;
}

/* Approximate critical paths: zones A, B, C (nodes nA, nB, nC), no pod
 * yet; q1 and q2 (foo=bar) are nominated to nA and nB and added in order.
 * Build (pairs in node order, all 0): update(A,0) -> p = [(A,0),("",Max)];
 * update(B,0) -> [(A,0),(B,0)]; update(C,0) -> unchanged.
 * AddPod q1 on nA: A = 1, update(A,1) -> p0.num = 1 > p1.num 0 -> swap:
 * [(B,0),(A,1)].  AddPod q2 on nB: B = 1, update(B,1) -> [(B,1),(A,1)].
 * The true minimum is C = 0, but p0.num = 1.
 * Filter on nA, maxSkew 1: v1.30 1 + 1 - 1 = 1 -> pass; exact: 1 + 1 - 0
 * = 2 -> fail.  On nC: 0 + 1 - 1 = 0 -> pass either way. */
static void test_approx_critical_paths(void)
{
	struct cluster c;
	tb_init(&c);
	int na = node_z(&c, "nA", "zone=A");
	int nb = node_z(&c, "nB", "zone=B");
	int nc = node_z(&c, "nC", "zone=C");
	int q1 = pod_l(&c, "q1", "", "foo=bar");
	int q2 = pod_l(&c, "q2", "", "foo=bar");
	int p = pod_l(&c, "new", "", "foo=bar");
	add_spread(&c, p, 1, "zone", true, tb_sel_labels(&c, "foo=bar"));
	struct snapshot base, view;
	snapshot_init(&base, &c);
	snapshot_clone(&view, &base);
	view.pod_node[q1] = na;
	view.pod_node[q2] = nb;
	struct model_delta d[] = { { q1, na, +1 }, { q2, nb, +1 } };
	CHECK_EQ(pts_deltas(&c, p, na, &base, &view, d, 2), SCHED_SUCCESS);
	tb_quirk(&c, QUIRK_SPREAD_APPROX_CRITICAL_PATHS, false);
	CHECK_EQ(pts_deltas(&c, p, na, &base, &view, d, 2), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts_deltas(&c, p, nc, &base, &view, d, 2), SCHED_SUCCESS);
	tb_quirk(&c, QUIRK_SPREAD_APPROX_CRITICAL_PATHS, true);
	CHECK_EQ(pts_deltas(&c, p, nc, &base, &view, d, 2), SCHED_SUCCESS);
	/* without the deltas (pass 2): counts 0/0/0, min 0: nA 1 -> pass */
	CHECK_EQ(pts_deltas(&c, p, na, &base, &base, NULL, 0), SCHED_SUCCESS);
	snapshot_release(&view);
	snapshot_release(&base);
	cluster_release(&c);
}

/* RemovePod ignores deletionTimestamp: zoneA (nA) has a terminating
 * foo=bar pod t and a normal one; zoneB (nB) one normal pod.  PreFilter:
 * A = 1, B = 1, p = [(A,1),(B,1)].  Preemption removes t (-1): A = 0,
 * update(A,0) -> [(A,0),(B,1)].  Filter nB: 1 + 1 - 0 = 2 > 1 -> fail,
 * although recounting the view (A 1, B 1) would pass.  Not a quirk switch:
 * this is how the literal update reads. */
static void test_remove_terminating(void)
{
	struct cluster c;
	tb_init(&c);
	int na = node_z(&c, "nA", "zone=A");
	int nb = node_z(&c, "nB", "zone=B");
	int t = pod_l(&c, "t", "nA", "foo=bar");
	c.pods[t].deletion.has = true;
	pod_l(&c, "a", "nA", "foo=bar");
	pod_l(&c, "b", "nB", "foo=bar");
	int p = pod_l(&c, "new", "", "foo=bar");
	add_spread(&c, p, 1, "zone", true, tb_sel_labels(&c, "foo=bar"));
	struct snapshot base, view;
	snapshot_init(&base, &c);
	snapshot_clone(&view, &base);
	view.pod_node[t] = SNAP_GONE;
	struct model_delta d[] = { { t, na, -1 } };
	CHECK_EQ(pts_deltas(&c, p, nb, &base, &view, d, 1), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts_deltas(&c, p, nb, &base, &base, NULL, 0), SCHED_SUCCESS);
	snapshot_release(&view);
	snapshot_release(&base);
	cluster_release(&c);
}

/* Default constraints.  System defaulting: both defaults are
 * ScheduleAnyway, so the filter never rejects.  List defaulting with a
 * DoNotSchedule {zone, maxSkew 1} and a Service app=web: n1 (zoneA) has 2
 * app=web pods, n2 (zoneB) none: n1 2 + 1 - 0 = 3 fails, n2 passes.  A pod
 * no Service selects has an empty default selector: no constraint. */
static void test_default_constraints_filter(void)
{
	struct cluster c;
	tb_init(&c);
	node_z(&c, "n1", "zone=zoneA");
	node_z(&c, "n2", "zone=zoneB");
	pod_l(&c, "w1", "n1", "app=web");
	pod_l(&c, "w2", "n1", "app=web");
	int p = pod_l(&c, "new", "", "app=web");
	int lone = pod_l(&c, "lone", "", "app=lone");
	add_service(&c, "default", "web", "app=web");
	CHECK_EQ(pts(&c, p, 0), SCHED_SUCCESS);
	struct sched_profile *prof = tb_profile(&c);
	/* model_spread_constraints_none: the system defaults have no
	 * DoNotSchedule constraint; their two ScheduleAnyway ones carry the
	 * Service's selector for new, none for lone (nothing selects it) */
	CHECK(model_spread_constraints_none(&c, prof, p, true));
	CHECK(!model_spread_constraints_none(&c, prof, p, false));
	CHECK(model_spread_constraints_none(&c, prof, lone, false));
	prof->spread_system_defaulting = false;
	prof->default_constraints[0].max_skew = 1;
	prof->default_constraints[0].topology_key = "zone";
	prof->default_constraints[0].do_not_schedule = true;
	prof->default_constraints[0].min_domains = 1;
	prof->n_default_constraints = 1;
	CHECK_EQ(pts(&c, p, 0), SCHED_UNSCHEDULABLE);
	CHECK_EQ(pts(&c, p, 1), SCHED_SUCCESS);
	CHECK_EQ(pts(&c, lone, 0), SCHED_SUCCESS);
	/* the list's one constraint is DoNotSchedule: new has it, lone
	 * (empty default selector) not, and neither a ScheduleAnyway one */
	CHECK(!model_spread_constraints_none(&c, prof, p, true));
	CHECK(model_spread_constraints_none(&c, prof, lone, true));
	CHECK(model_spread_constraints_none(&c, prof, p, false));
	cluster_release(&c);
}

/* System-default scoring and the "" pseudo-domain.  n1 {hostname n1,
 * zone zA}, n2 {hostname n2, zone zA}, n3 {hostname n3, no zone}; Service
 * app=web; 3 app=web pods on n1.  Constraints: hostname/3, zone/5,
 * requireAll false (no node ignored).
 * v1.30: zone pairs zA and "" (from n3): topoSize 2, W_zone = ln 4 =
 *   1.386294; W_host = ln(3 + 2) = 1.609438.  counts zA = 3, "" = 0.
 *   n1: 3*1.609438 + 2 + 3*1.386294 + 4 = 14.9872 -> 15
 *   n2: 0 + 2 + 8.158883 = 10.1589 -> 10
 *   n3: 0 + 2 (no zone term) -> 2
 *   max 15, min 2: n1 100*(17-15)/15 = 13, n2 100*7/15 = 46, n3 100.
 * Without the pseudo-domain: W_zone = ln 3 = 1.098612: n1 14.1242 -> 14,
 *   n2 9.2958 -> 9, n3 2: n1 100*2/14 = 14, n2 100*7/14 = 50, n3 100. */
static void test_system_default_score(void)
{
	struct cluster c;
	tb_init(&c);
	node_z(&c, "n1", "kubernetes.io/hostname=n1,topology.kubernetes.io/zone=zA");
	node_z(&c, "n2", "kubernetes.io/hostname=n2,topology.kubernetes.io/zone=zA");
	node_z(&c, "n3", "kubernetes.io/hostname=n3");
	pod_l(&c, "w1", "n1", "app=web");
	pod_l(&c, "w2", "n1", "app=web");
	pod_l(&c, "w3", "n1", "app=web");
	int p = pod_l(&c, "new", "", "app=web");
	add_service(&c, "default", "web", "app=web");
	int feasible[] = { 0, 1, 2 };
	int64_t s[3];
	CHECK_EQ(pts_score(&c, p, feasible, 3, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 13);
	CHECK_EQ(s[1], 46);
	CHECK_EQ(s[2], 100);
	tb_quirk(&c, QUIRK_SPREAD_EMPTY_DOMAIN, false);
	CHECK_EQ(pts_score(&c, p, feasible, 3, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 14);
	CHECK_EQ(s[1], 50);
	CHECK_EQ(s[2], 100);
	tb_quirk(&c, QUIRK_SPREAD_EMPTY_DOMAIN, true);
	/* no Service, no owner: empty default selector -> Skip */
	c.n_workloads = 0;
	CHECK_EQ(pts_score(&c, p, feasible, 3, s), SCHED_SKIP);
	CHECK_EQ(s[0], 0);
	cluster_release(&c);
}

/* Score Skip: only DoNotSchedule constraints; no feasible node.  Explicit
 * constraints never fall back to defaults even with a Service. */
static void test_score_skip(void)
{
	struct cluster c;
	int p = seed002(&c);
	add_service(&c, "default", "foo", "foo=bar");
	add_spread(&c, p, 1, "zone", true, tb_sel_labels(&c, "foo=bar"));
	int feasible[] = { 2, 3 };
	int64_t s[2] = { 7, 7 };
	CHECK_EQ(pts_score(&c, p, feasible, 2, s), SCHED_SKIP);
	CHECK_EQ(s[0], 0);
	CHECK_EQ(s[1], 0);
	CHECK_EQ(pts_score(&c, p, feasible, 0, s), SCHED_SKIP);
	cluster_release(&c);
}

/* Same-key constraints in scoring: c1 {app=a}, c2 {app=b}, both zone,
 * ScheduleAnyway, maxSkew 1; zoneA (n1) 1 app=a pod, zoneB (n2) 2 app=b.
 * v1.30: c1 registers zoneA, zoneB (topoSize 2), c2 nothing (0):
 *   W1 = ln 4 = 1.386294, W2 = ln 2 = 0.693147; the shared counter adds
 *   c1's and c2's counts: zoneA 1 + 0 = 1, zoneB 0 + 2 = 2.
 *   n1: 1*1.386294 + 0 + 1*0.693147 + 0 = 2.0794 -> 2
 *   n2: 2*1.386294 + 2*0.693147 = 4.1589 -> 4
 *   max 4, min 2: n1 100*(6-2)/4 = 100, n2 100*2/4 = 50.
 * Intended: W1 = W2 = ln 4; c1 zoneA 1, zoneB 0; c2 zoneA 0, zoneB 2:
 *   n1 1.386294 -> 1; n2 2.772589 -> 3; n1 100*(4-1)/3 = 100,
 *   n2 100*1/3 = 33. */
static void test_same_key_score(void)
{
	struct cluster c;
	tb_init(&c);
	node_z(&c, "n1", "zone=zoneA");
	node_z(&c, "n2", "zone=zoneB");
	pod_l(&c, "a1", "n1", "app=a");
	pod_l(&c, "b1", "n2", "app=b");
	pod_l(&c, "b2", "n2", "app=b");
	int p = pod_l(&c, "new", "", "app=a");
	add_spread(&c, p, 1, "zone", false, tb_sel_labels(&c, "app=a"));
	add_spread(&c, p, 1, "zone", false, tb_sel_labels(&c, "app=b"));
	int feasible[] = { 0, 1 };
	int64_t s[2];
	CHECK_EQ(pts_score(&c, p, feasible, 2, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 100);
	CHECK_EQ(s[1], 50);
	tb_quirk(&c, QUIRK_SPREAD_SHARED_KEY, false);
	CHECK_EQ(pts_score(&c, p, feasible, 2, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 100);
	CHECK_EQ(s[1], 33);
	/* v1.34 (delta §5.3): per constraint, as intended */
	tb_quirk(&c, QUIRK_SPREAD_SHARED_KEY, true);
	c.config.kube_version = KUBE_1_34;
	CHECK_EQ(pts_score(&c, p, feasible, 2, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 100);
	CHECK_EQ(s[1], 33);
	cluster_release(&c);
}

/* Eligibility in scoring: counts come from eligible nodes only.  n1, n2 in
 * zoneA, n3 in zoneB; the pod selects env=qa which n2 lacks; n2 holds 4
 * foo=bar pods, n1 none, n3 1.  Feasible {n1, n3}.  Honor affinity: zoneA
 * counts only n1 (0), zoneB 1; topoSize 2, W = ln 4:
 *   n1 round(0) = 0, n3 round(1.386) = 1; max 1, min 0:
 *   n1 100*(1+0-0)/1 = 100, n3 100*(1-1)/1 = 0. */
static void test_score_eligibility(void)
{
	struct cluster c;
	tb_init(&c);
	node_z(&c, "n1", "zone=zoneA,env=qa");
	node_z(&c, "n2", "zone=zoneA");
	node_z(&c, "n3", "zone=zoneB,env=qa");
	for (int i = 0; i < 4; i++)
		pod_l(&c, i == 0 ? "x0" : i == 1 ? "x1" : i == 2 ? "x2" : "x3", "n2", "foo=bar");
	pod_l(&c, "y", "n3", "foo=bar");
	int p = pod_l(&c, "new", "", "foo=bar");
	c.pods[p].has_node_selector = true;
	c.pods[p].node_selector = tb_labels(&c, "env=qa");
	add_spread(&c, p, 1, "zone", false, tb_sel_labels(&c, "foo=bar"));
	int feasible[] = { 0, 2 };
	int64_t s[2];
	CHECK_EQ(pts_score(&c, p, feasible, 2, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 100);
	CHECK_EQ(s[1], 0);
	cluster_release(&c);
}

int main(void)
{
	test_seed_max_skew_1();
	test_seed_max_skew_2();
	test_seed_key_node();
	test_seed_schedule_anyway();
	test_missing_label();
	test_seed_two_constraints();
	test_seed_node_affinity();
	test_seed_infeasible_zone();
	test_min_domains();
	test_match_label_keys();
	test_count_rules();
	test_same_key_quirk();
	test_empty_selector_quirk();
	test_approx_critical_paths();
	test_remove_terminating();
	test_default_constraints_filter();
	test_system_default_score();
	test_score_skip();
	test_same_key_score();
	test_score_eligibility();
	return check_done("test_spread");
}
