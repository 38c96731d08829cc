/*
 * test_selector_spread.c - the v1.28 SelectorSpread score (reference §6)
 * and the default selector it shares with PodTopologySpread (§2.11), with
 * the worked examples of shared/seeds/001, each re-derived from §6's
 * formula in the comments.
 */
#include "build.h"
#include "check.h"
#include "../../model/default_selector.h"

#define ZONE "topology.kubernetes.io/zone"
#define BETA_ZONE "failure-domain.beta.kubernetes.io/zone"

/* seed 001's two label sets */
#define LABELS1 "foo=bar,baz=blah"
#define LABELS2 "bar=foo,baz=blah"

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

static struct workload *add_workload(struct cluster *c, enum workload_kind kind,
				     const char *name)
{
	if (!c->workloads)
		c->workloads = arena_array(&c->arena, 8, sizeof *c->workloads);
	struct workload *w = &c->workloads[c->n_workloads++];
	memset(w, 0, sizeof *w);
	w->kind = kind;
	w->ns = "default";
	w->name = name;
	return w;
}

static void add_map_workload(struct cluster *c, enum workload_kind kind,
			     const char *name, const char *selector)
{
	struct workload *w = add_workload(c, kind, name);
	w->has_map_selector = true;
	w->map_selector = tb_labels(c, selector);
}

static void set_owner(struct cluster *c, int pod, const char *api_version,
		      const char *kind, const char *name, bool controller)
{
	struct owner_ref *o = arena_alloc(&c->arena, sizeof *o);
	o->api_version = api_version;
	o->kind = kind;
	o->name = name;
	o->controller = controller;
	c->pods[pod].owners = o;
	c->pods[pod].n_owners = 1;
}

/* SelectorSpread enabled at Score in the profile; every node feasible. */
static enum sched_code ss(struct cluster *c, int pod, int64_t *out)
{
	tb_profile(c)->score[PLUGIN_SELECTOR_SPREAD] = true;
	int feasible[TB_MAX_NODES];
	for (int i = 0; i < c->n_nodes; i++)
		feasible[i] = i;
	struct snapshot s;
	snapshot_init(&s, c);
	struct model_cycle cy;
	tb_cycle(&cy, c, &s, pod);
	struct sched_status err;
	sched_status_ok(&err);
	enum sched_code rc = model_score_selector_spread(&cy, feasible, c->n_nodes,
							 out, &err);
	snapshot_release(&s);
	return rc;
}

/* seed 001, two nodes, example 1: the pod has labels1; n1 runs labels1 and
 * labels2, n2 runs labels1 twice; one Service selecting labels1.
 * Counts n1 1, n2 2; no zones; maxNode 2:
 *   n1 100 * ((2-1)/2) = 50, n2 100 * ((2-2)/2) = 0. */
static void test_seed_two_nodes_service(void)
{
	struct cluster c;
	tb_init(&c);
	node_l(&c, "n1", "");
	node_l(&c, "n2", "");
	pod_l(&c, "a", "n1", LABELS1);
	pod_l(&c, "b", "n1", LABELS2);
	pod_l(&c, "c", "n2", LABELS1);
	pod_l(&c, "d", "n2", LABELS1);
	int p = pod_l(&c, "new", "", LABELS1);
	add_map_workload(&c, WORKLOAD_SERVICE, "svc", LABELS1);
	int64_t s[2];
	CHECK_EQ(ss(&c, p, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 50);
	CHECK_EQ(s[1], 0);
	cluster_release(&c);
}

/* seed 001, two nodes, example 2: n1 runs labels1 and labels2, n2 labels1;
 * a Service selecting baz=blah and the pod's controller, an RC selecting
 * foo=bar: the merged selector is baz=blah AND foo=bar (an intersection:
 * labels2 lacks foo=bar).  Counts n1 1, n2 1; maxNode 1: both
 * 100 * ((1-1)/1) = 0.  (The seed's "/2" is a typo; its result 0 stands.) */
static void test_seed_two_nodes_rc(void)
{
	struct cluster c;
	tb_init(&c);
	node_l(&c, "n1", "");
	node_l(&c, "n2", "");
	pod_l(&c, "a", "n1", LABELS1);
	pod_l(&c, "b", "n1", LABELS2);
	pod_l(&c, "c", "n2", LABELS1);
	int p = pod_l(&c, "new", "", LABELS1);
	add_map_workload(&c, WORKLOAD_SERVICE, "svc", "baz=blah");
	add_map_workload(&c, WORKLOAD_REPLICATION_CONTROLLER, "rc", "foo=bar");
	set_owner(&c, p, "v1", "ReplicationController", "rc", true);
	int64_t s[2];
	CHECK_EQ(ss(&c, p, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 0);
	CHECK_EQ(s[1], 0);
	/* without the RC, baz=blah matches both pods on n1: counts 2, 1:
	 * n1 0, n2 100 * (1/2) = 50 */
	c.pods[p].n_owners = 0;
	CHECK_EQ(ss(&c, p, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 0);
	CHECK_EQ(s[1], 50);
	cluster_release(&c);
}

/* The six-node cluster of seed 001: node1 in zone1, node2-3 in zone2,
 * node4-6 in zone3; a Service selecting labels1; the pod has labels1. */
static int six_nodes(struct cluster *c, const char *const *pod_labels, int n)
{
	static const char *const names[] = { "node1", "node2", "node3", "node4", "node5", "node6" };
	static const char *const pods[] = { "p1", "p2", "p3", "p4", "p5" };
	static const char *const zones[] = { ZONE "=zone1", ZONE "=zone2", ZONE "=zone2",
					     ZONE "=zone3", ZONE "=zone3", ZONE "=zone3" };
	tb_init(c);
	for (int i = 0; i < 6; i++)
		node_l(c, names[i], zones[i]);
	for (int i = 0; i < n; i++)
		pod_l(c, pods[i], names[i], pod_labels[i]);
	add_map_workload(c, WORKLOAD_SERVICE, "svc", LABELS1);
	return pod_l(c, "new", "", LABELS1);
}

/* Table 1: pods labels2, labels1, labels1, labels2, labels1 on nodes 1-5.
 * counts 0 1 1 0 1 0, maxNode 1; node part 100 0 0 100 0 100.
 * zone counts zone1 0, zone2 2, zone3 1; maxZone 2; zone part
 * 100*((2-0)/2) = 100, 0, 0, 50, 50, 50.
 * f = node * (1 - 2/3) + 2/3 * zone:
 *   node1 33.333333333333336 + 66.66666666666666 = 100 (the float sum rounds
 *         to exactly 100.0) -> 100
 *   node2, node3 0; node4 33.33.. + 33.33.. = 66.66.. -> 66; node5 33.33 -> 33;
 *   node6 66.
 * Final 100/0/0/66/33/66 as in the seed. */
static void test_seed_six_nodes_1(void)
{
	static const char *const labels[] = { LABELS2, LABELS1, LABELS1, LABELS2, LABELS1 };
	struct cluster c;
	int p = six_nodes(&c, labels, 5);
	int64_t s[6];
	CHECK_EQ(ss(&c, p, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 100);
	CHECK_EQ(s[1], 0);
	CHECK_EQ(s[2], 0);
	CHECK_EQ(s[3], 66);
	CHECK_EQ(s[4], 33);
	CHECK_EQ(s[5], 66);
	cluster_release(&c);
}

/* Table 2: pods labels1, labels1, labels2, labels1 on nodes 1-4.
 * counts 1 1 0 1 0 0, maxNode 1; node part 0 0 100 0 100 100;
 * zone counts 1, 1, 1; maxZone 1: zone part 0 everywhere;
 * f = node / 3: 0 0 33 0 33 33. */
static void test_seed_six_nodes_2(void)
{
	static const char *const labels[] = { LABELS1, LABELS1, LABELS2, LABELS1 };
	struct cluster c;
	int p = six_nodes(&c, labels, 4);
	int64_t s[6];
	CHECK_EQ(ss(&c, p, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 0);
	CHECK_EQ(s[1], 0);
	CHECK_EQ(s[2], 33);
	CHECK_EQ(s[3], 0);
	CHECK_EQ(s[4], 33);
	CHECK_EQ(s[5], 33);
	cluster_release(&c);
}

/* Zones only blend into nodes that have one: n1 (zone a, count 1), n2 (no
 * zone, 0), n3 (zone b, 0).  maxNode 1, zone a 1, zone b 0, maxZone 1.
 *   n1: 0 * 1/3 + 2/3 * 0 = 0;  n2: node part only, 100;
 *   n3: 100/3 + 2/3 * 100 = 100. */
static void test_partial_zones(void)
{
	struct cluster c;
	tb_init(&c);
	node_l(&c, "n1", ZONE "=a");
	node_l(&c, "n2", "");
	node_l(&c, "n3", ZONE "=b");
	pod_l(&c, "x", "n1", "app=web");
	int p = pod_l(&c, "new", "", "app=web");
	add_map_workload(&c, WORKLOAD_SERVICE, "svc", "app=web");
	int64_t s[3];
	CHECK_EQ(ss(&c, p, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 0);
	CHECK_EQ(s[1], 100);
	CHECK_EQ(s[2], 100);
	cluster_release(&c);
}

/* The beta zone label wins over the GA one: n1 {beta zone a, GA zone b}
 * count 1; n2 {GA zone a} 0; n3 {GA zone b} 0.  Zones: a = n1 + n2 = 1,
 * b = n3 = 0; maxZone 1.
 *   n1 0; n2 100/3 + 2/3 * 0 = 33; n3 100/3 + 2/3 * 100 = 100.
 * (Were GA read first, n2 would be alone in zone a with 0 -> 100.) */
static void test_beta_zone_label(void)
{
	struct cluster c;
	tb_init(&c);
	node_l(&c, "n1", BETA_ZONE "=a," ZONE "=b");
	node_l(&c, "n2", ZONE "=a");
	node_l(&c, "n3", ZONE "=b");
	pod_l(&c, "x", "n1", "app=web");
	int p = pod_l(&c, "new", "", "app=web");
	add_map_workload(&c, WORKLOAD_SERVICE, "svc", "app=web");
	int64_t s[3];
	CHECK_EQ(ss(&c, p, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 0);
	CHECK_EQ(s[1], 33);
	CHECK_EQ(s[2], 100);
	cluster_release(&c);
}

/* A ReplicaSet owner ANDs its label selector with the Services' map: the
 * pod app=web,tier=fe is owned by RS rs1 {app=web}; a Service selects
 * tier=fe.  Selector tier=fe AND app=web.  n1 runs {app=web}, n2
 * {app=web,tier=fe}, n3 {tier=fe} plus a terminating {app=web,tier=fe}
 * and one in namespace "other": counts 0 1 0, no zones:
 *   100 * ((1-0)/1) = 100, 0, 100.
 * Non-controller owner: only tier=fe: counts 0 1 1 -> 100 0 0.
 * Controller in another namespace: not found, same as no owner. */
static void test_replica_set_owner(void)
{
	struct cluster c;
	tb_init(&c);
	node_l(&c, "n1", "");
	node_l(&c, "n2", "");
	node_l(&c, "n3", "");
	pod_l(&c, "a", "n1", "app=web");
	pod_l(&c, "b", "n2", "app=web,tier=fe");
	pod_l(&c, "c", "n3", "tier=fe");
	int t = pod_l(&c, "t", "n3", "app=web,tier=fe");
	c.pods[t].deletion.has = true;
	int o = pod_l(&c, "o", "n3", "app=web,tier=fe");
	c.pods[o].ns = "other";
	int p = pod_l(&c, "new", "", "app=web,tier=fe");
	add_map_workload(&c, WORKLOAD_SERVICE, "svc", "tier=fe");
	struct workload *rs = add_workload(&c, WORKLOAD_REPLICA_SET, "rs1");
	rs->selector.present = true;
	rs->selector.match_labels = tb_labels(&c, "app=web");
	set_owner(&c, p, "apps/v1", "ReplicaSet", "rs1", true);
	int64_t s[3];
	CHECK_EQ(ss(&c, p, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 100);
	CHECK_EQ(s[1], 0);
	CHECK_EQ(s[2], 100);
	set_owner(&c, p, "apps/v1", "ReplicaSet", "rs1", false);
	CHECK_EQ(ss(&c, p, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 100);
	CHECK_EQ(s[1], 0);
	CHECK_EQ(s[2], 0);
	set_owner(&c, p, "apps/v1", "ReplicaSet", "rs1", true);
	rs->ns = "elsewhere";
	CHECK_EQ(ss(&c, p, s), SCHED_SUCCESS);
	CHECK_EQ(s[2], 0);
	cluster_release(&c);
}

/* The default selector itself: Services with nil selectors are skipped, a
 * Service in another namespace or not matching the pod is ignored; no
 * Service and no owner -> empty selector (counts 0 everywhere: every node
 * 100). */
static void test_default_selector(void)
{
	struct cluster c;
	tb_init(&c);
	node_l(&c, "n1", "");
	pod_l(&c, "x", "n1", "app=web");
	int p = pod_l(&c, "new", "", "app=web,v=1");
	struct model_selector sel;
	model_default_selector(&c, p, &sel);
	CHECK(model_selector_is_empty(&sel));
	model_selector_release(&sel);
	add_workload(&c, WORKLOAD_SERVICE, "nil-selector");
	add_map_workload(&c, WORKLOAD_SERVICE, "other-app", "app=db");
	add_map_workload(&c, WORKLOAD_SERVICE, "web", "app=web");
	add_map_workload(&c, WORKLOAD_SERVICE, "v", "v=1");
	c.workloads[c.n_workloads - 1].ns = "other";
	model_default_selector(&c, p, &sel);
	CHECK_EQ(sel.n_equal, 1);
	CHECK_STR(sel.equal[0].key, "app");
	CHECK(model_selector_matches(&sel, &c.pods[0].labels));
	model_selector_release(&sel);
	int64_t s[1];
	c.n_workloads = 0;
	CHECK_EQ(ss(&c, p, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 100);
	cluster_release(&c);
}

/* A pod with topologySpreadConstraints scores 0 everywhere (v1.28 runs the
 * plugin but does nothing: Success, not Skip); a profile without
 * SelectorSpread does not run it (Skip). */
static void test_skip_rules(void)
{
	struct cluster c;
	tb_init(&c);
	node_l(&c, "n1", "");
	node_l(&c, "n2", "");
	pod_l(&c, "x", "n1", "app=web");
	int p = pod_l(&c, "new", "", "app=web");
	add_map_workload(&c, WORKLOAD_SERVICE, "svc", "app=web");
	struct spread_constraint *sc = arena_alloc(&c.arena, sizeof *sc);
	sc->max_skew = 1;
	sc->topology_key = ZONE;
	sc->min_domains = 1;
	c.pods[p].spread = sc;
	c.pods[p].n_spread = 1;
	int64_t s[2] = { 9, 9 };
	CHECK_EQ(ss(&c, p, s), SCHED_SUCCESS);
	CHECK_EQ(s[0], 0);
	CHECK_EQ(s[1], 0);
	c.pods[p].n_spread = 0;
	tb_profile(&c)->score[PLUGIN_SELECTOR_SPREAD] = false;
	struct snapshot snap;
	snapshot_init(&snap, &c);
	struct model_cycle cy;
	tb_cycle(&cy, &c, &snap, p);
	int feasible[] = { 0, 1 };
	struct sched_status err;
	sched_status_ok(&err);
	CHECK_EQ(model_score_selector_spread(&cy, feasible, 2, s, &err), SCHED_SKIP);
	CHECK_EQ(s[0], 0);
	snapshot_release(&snap);
	cluster_release(&c);
}

int main(void)
{
	test_seed_two_nodes_service();
	test_seed_two_nodes_rc();
	test_seed_six_nodes_1();
	test_seed_six_nodes_2();
	test_partial_zones();
	test_beta_zone_label();
	test_replica_set_owner();
	test_default_selector();
	test_skip_rules();
	return check_done("test_selector_spread");
}
