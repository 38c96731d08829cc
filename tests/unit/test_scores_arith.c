/*
 * test_scores_arith.c - score arithmetic, integer for integer: arithmetic
 * the other unit tests did not reach (RequestedToCapacityRatio with a
 * multi-point shape and weights, MostAllocated with an extended resource,
 * BalancedAllocation with three configured resources and a pod requesting
 * nothing, ImageLocality clamped at both thresholds with init containers,
 * InterPodAffinity's hardPodAffinityWeight, PodTopologySpread's system
 * defaults over zone-less nodes) and the PreScore Skip rule of
 * NodeAffinity (reference §2.5, §2.7-§2.11).  Every expected value is
 * derived by hand in the comment above it from the reference's formulas.
 */
#include "build.h"
#include "check.h"

#include "../../core/quirks.h"
#include "../../oracle/oracle.h"

#define MI (1024LL * 1024LL)
#define GI (1024LL * MI)

/* Scores pod over the feasible nodes feasible[0..n) on the placement the
 * manifests describe. */
static enum sched_code score_on(model_score_fn f, const struct cluster *c,
				int pod, const int *feasible, int n,
				int64_t *scores)
{
	struct snapshot s;
	snapshot_init(&s, c);
	struct model_cycle cy;
	struct sched_status err;
	sched_status_ok(&err);
	tb_cycle(&cy, c, &s, pod);
	enum sched_code code = f(&cy, feasible, n, scores, &err);
	snapshot_release(&s);
	return code;
}

/* Every node of c feasible. */
static enum sched_code score_all(model_score_fn f, const struct cluster *c,
				 int pod, int64_t *scores)
{
	int feasible[TB_MAX_NODES];
	for (int i = 0; i < c->n_nodes; i++)
		feasible[i] = i;
	return score_on(f, c, pod, feasible, c->n_nodes, scores);
}

/* ------------------------------------------ RequestedToCapacityRatio */

/*
 * Shape (10,0) (30,2) (70,9), scores x10: (10,0) (30,20) (70,90).
 * f(p) = 0 for p <= 10; 0 + 20*(p-10)/20 up to 30; 20 + 70*(p-30)/40 up
 * to 70; 90 beyond 70.  The pod asks cpu 3, memory 5Gi.
 *   A (cpu 10, memory 10Gi; an old pod of cpu 2, memory 1Gi):
 *     cpu  (2000+3000)*100/10000 = 50 -> 20 + 70*20/40 = 20 + 35 = 55
 *     mem  6Gi*100/10Gi = 60        -> 20 + 70*30/40 = 20 + 2100/40 = 72
 *     weights 1,1: round(127/2 = 63.5) = 64 (half away from zero;
 *     LeastAllocated's integer mean would give 63)
 *   B (cpu 5, memory 8Gi, empty):
 *     cpu 3000*100/5000 = 60        -> 20 + 70*30/40 = 72
 *     mem 5Gi*100/8Gi = 62 (62.5 truncated) -> 20 + 70*32/40 = 20 + 56 = 76
 *     round(148/2) = 74
 *   C (cpu 2, memory 100Gi, empty): cpu 3000 > 2000 -> p = 100, past the
 *     last point -> 90; mem 5*100/100 = 5 <= 10 -> 0, dropped from the
 *     mean: round(90/1) = 90
 *   D (cpu 100, memory 100Gi, empty): cpu 3, mem 5 -> both 0 -> no
 *     resource left -> 0
 * Weights cpu 2, memory 3: A round((55*2 + 72*3)/5) = round(326/5 = 65.2)
 *   = 65; B round((72*2 + 76*3)/5) = round(372/5 = 74.4) = 74;
 *   C round(90*2/2) = 90.
 */
static void test_rtcr_multipoint(void)
{
	struct cluster c;
	tb_init(&c);
	struct sched_profile *prof = tb_profile(&c);
	prof->fit_strategy = FIT_REQUESTED_TO_CAPACITY_RATIO;
	prof->shape[0] = (struct shape_point){10, 0};
	prof->shape[1] = (struct shape_point){30, 2};
	prof->shape[2] = (struct shape_point){70, 9};
	prof->n_shape = 3;
	tb_node(&c, "a", "cpu=10,memory=10Gi,pods=10", "");
	tb_node(&c, "b", "cpu=5,memory=8Gi,pods=10", "");
	tb_node(&c, "c", "cpu=2,memory=100Gi,pods=10", "");
	tb_node(&c, "d", "cpu=100,memory=100Gi,pods=10", "");
	int old = tb_pod(&c, "old", "a");
	tb_container(&c, old, "cpu=2,memory=1Gi", false, false);
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=3,memory=5Gi", false, false);
	int64_t sc[4];
	CHECK_EQ(score_all(model_score_node_resources_fit, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 64);
	CHECK_EQ(sc[1], 74);
	CHECK_EQ(sc[2], 90);
	CHECK_EQ(sc[3], 0);
	prof->fit_resources[0].weight = 2;
	prof->fit_resources[1].weight = 3;
	CHECK_EQ(score_all(model_score_node_resources_fit, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 65);
	CHECK_EQ(sc[1], 74);
	CHECK_EQ(sc[2], 90);
	CHECK_EQ(sc[3], 0);
	cluster_release(&c);
}

/*
 * The same shape, pod and nodes through the oracle's own arithmetic
 * (oracle/fit.c), in one explain cycle: node c cannot fit cpu 3 (2
 * allocatable), so it gets no score; a, b and d as worked out above:
 * 64, 74, 0 at weights 1,1 and 65, 74, 0 at weights 2,3 (NodeResourcesFit
 * weight 1 in the default profile, so the weighted score is the score).
 * A unit test kills a slip in the oracle's interpolation or its rounding
 * in seconds (scripts/mutate.py).
 */
static void test_rtcr_multipoint_oracle(void)
{
	struct cluster c;
	tb_init(&c);
	struct sched_profile *prof = tb_profile(&c);
	prof->fit_strategy = FIT_REQUESTED_TO_CAPACITY_RATIO;
	prof->shape[0] = (struct shape_point){10, 0};
	prof->shape[1] = (struct shape_point){30, 2};
	prof->shape[2] = (struct shape_point){70, 9};
	prof->n_shape = 3;
	tb_node(&c, "a", "cpu=10,memory=10Gi,pods=10", "");
	tb_node(&c, "b", "cpu=5,memory=8Gi,pods=10", "");
	tb_node(&c, "c", "cpu=2,memory=100Gi,pods=10", "");
	tb_node(&c, "d", "cpu=100,memory=100Gi,pods=10", "");
	int old = tb_pod(&c, "old", "a");
	tb_container(&c, old, "cpu=2,memory=1Gi", false, false);
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=3,memory=5Gi", false, false);
	static const int64_t want[2][4] = {{64, 74, -1, 0}, {65, 74, -1, 0}};
	for (int w = 0; w < 2; w++) {
		if (w) {
			prof->fit_resources[0].weight = 2;
			prof->fit_resources[1].weight = 3;
		}
		struct snapshot s;
		snapshot_init(&s, &c);
		struct sched_cycle_result r;
		sched_cycle_result_init(&r, &c);
		CHECK_EQ(oracle_explain_cycle(prof, &s, p, &r), 0);
		CHECK(r.verdicts[0].feasible && r.verdicts[1].feasible);
		CHECK(!r.verdicts[2].feasible && r.verdicts[3].feasible);
		for (int n = 0; n < 4; n++)
			if (want[w][n] >= 0)
				CHECK_EQ(r.scores[(size_t)n * PLUGIN_COUNT +
						  PLUGIN_NODE_RESOURCES_FIT],
					 want[w][n]);
		sched_cycle_result_release(&r);
		snapshot_release(&s);
	}
	cluster_release(&c);
}

/* ------------------------------------------ MostAllocated, extended */

/*
 * MostAllocated over cpu:1, memory:1, example.com/foo:3.
 * A: cpu 4, memory 8Gi, foo 8; old pod cpu 1, memory 2Gi, foo 2.
 * B: cpu 4, memory 8Gi, no foo.
 * Pod p asks cpu 1, memory 2Gi, foo 3:
 *   A cpu (1000+1000)*100/4000 = 50, mem 4Gi*100/8Gi = 50,
 *     foo (2+3)*100/8 = 62 (62.5 truncated): (50 + 50 + 62*3)/5 = 286/5 = 57
 *   B cpu 25, mem 25, foo not allocatable -> skipped: 50/2 = 25
 * Pod q asks cpu 1, memory 2Gi, no foo: a scalar the pod does not request
 *   is skipped although A has 2 requested: A (50+50)/2 = 50.
 * Pod r asks foo 9: 2 + 9 = 11 > 8 -> capped at 8 -> 100; cpu/mem as p:
 *   (50 + 50 + 300)/5 = 80.
 */
static void test_most_allocated_extended(void)
{
	struct cluster c;
	tb_init(&c);
	struct sched_profile *prof = tb_profile(&c);
	prof->fit_strategy = FIT_MOST_ALLOCATED;
	prof->fit_resources[2] = (struct resource_weight){"example.com/foo", 3};
	prof->n_fit_resources = 3;
	tb_node(&c, "a", "cpu=4,memory=8Gi,example.com/foo=8,pods=10", "");
	tb_node(&c, "b", "cpu=4,memory=8Gi,pods=10", "");
	int old = tb_pod(&c, "old", "a");
	tb_container(&c, old, "cpu=1,memory=2Gi,example.com/foo=2", false, false);
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=1,memory=2Gi,example.com/foo=3", false, false);
	int q = tb_pod(&c, "q", "");
	tb_container(&c, q, "cpu=1,memory=2Gi", false, false);
	int r = tb_pod(&c, "r", "");
	tb_container(&c, r, "cpu=1,memory=2Gi,example.com/foo=9", false, false);
	int64_t sc[2];
	CHECK_EQ(score_all(model_score_node_resources_fit, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 57);
	CHECK_EQ(sc[1], 25);
	CHECK_EQ(score_all(model_score_node_resources_fit, &c, q, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 50);
	CHECK_EQ(score_all(model_score_node_resources_fit, &c, r, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 80);
	cluster_release(&c);
}

/* ---------------------------------------------- BalancedAllocation */

/*
 * Resources cpu, memory, nvidia.com/gpu configured.  Node cpu 4, memory
 * 8Gi, gpu 4, ephemeral-storage 100Gi; an old pod requests cpu 1, memory
 * 1Gi, gpu 2, ephemeral-storage 25Gi.  useRequested: Requested, pod
 * requests without defaults.
 *   Pod z requests nothing: gpu is a scalar the pod does not request ->
 *     skipped; fractions cpu 1000/4000 = 0.25, mem 1Gi/8Gi = 0.125 ->
 *     std |(0.25 - 0.125)/2| = 0.0625 -> trunc(93.75) = 93.
 *   Pod g requests gpu 1: fractions 0.25, 0.125, 3/4 = 0.75; mean
 *     1.125/3 = 0.375; squares 0.015625 + 0.0625 + 0.140625 = 0.21875;
 *     /3 = 0.0729167, sqrt = 0.2700309 -> trunc(72.997) = 72.
 * Resources cpu, memory, ephemeral-storage: ephemeral-storage is not a
 *   scalar, so z keeps it: fractions 0.25, 0.125, 25/100 = 0.25; mean
 *   0.208333; squares 0.00173611 + 0.00694444 + 0.00173611 = 0.01041667,
 *   /3 = 0.00347222, sqrt = 0.0589256 -> trunc(94.107) = 94.
 */
static void test_balanced_three(void)
{
	struct cluster c;
	tb_init(&c);
	struct sched_profile *prof = tb_profile(&c);
	prof->balanced_resources[2] = (struct resource_weight){"nvidia.com/gpu", 1};
	prof->n_balanced_resources = 3;
	tb_node(&c, "n", "cpu=4,memory=8Gi,nvidia.com/gpu=4,ephemeral-storage=100Gi,pods=10", "");
	int old = tb_pod(&c, "old", "n");
	tb_container(&c, old, "cpu=1,memory=1Gi,nvidia.com/gpu=2,ephemeral-storage=25Gi",
		     false, false);
	int z = tb_pod(&c, "z", "");
	tb_container(&c, z, "", false, false);
	int g = tb_pod(&c, "g", "");
	tb_container(&c, g, "nvidia.com/gpu=1", false, false);
	int64_t sc[1];
	CHECK_EQ(score_all(model_score_balanced_allocation, &c, z, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 93);
	CHECK_EQ(score_all(model_score_balanced_allocation, &c, g, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 72);
	prof->balanced_resources[2] = (struct resource_weight){"ephemeral-storage", 1};
	CHECK_EQ(score_all(model_score_balanced_allocation, &c, z, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 94);
	cluster_release(&c);
}

/* --------------------------------------------------- ImageLocality */

/*
 * Two nodes (N = 2).  "big:1" 1500MiB on both (spread 2/2 = 1),
 * "small:1" 10MiB on n0 only (spread 1/2), "edge:1" 46MiB on n0 only,
 * "cap:1" 1000MiB on both.  minT = 23MiB = 24117248.
 *   p: init big:1 + container big:1 (both counted): 2 * 1572864000 =
 *     3145728000 > maxT = 2 * 1000MiB = 2097152000 -> clamped -> 100 on
 *     both nodes.
 *   q: init small:1 + container small:1: n0 2 * 5MiB = 10MiB < minT ->
 *     clamped -> 0; n1 nothing -> 0.
 *   r: init big:1 + container none:1: n0 1572864000 ->
 *     100 * (1572864000 - 24117248) / (2097152000 - 24117248)
 *     = 154874675200 / 2073034752 = 74.7 -> 74.
 *   e: container edge:1: n0 trunc(48234496 * 0.5) = 24117248 = minT
 *     exactly -> 0.
 *   m: container cap:1: 1048576000 = maxT (one container) exactly -> 100.
 */
static void test_image_locality_clamps(void)
{
	struct cluster c;
	tb_init(&c);
	int n0 = tb_node(&c, "n0", "pods=10", "");
	int n1 = tb_node(&c, "n1", "pods=10", "");
	tb_image(&c, n0, "big:1", 1500 * MI);
	tb_image(&c, n1, "big:1", 1500 * MI);
	tb_image(&c, n0, "small:1", 10 * MI);
	tb_image(&c, n0, "edge:1", 46 * MI);
	tb_image(&c, n0, "cap:1", 1000 * MI);
	tb_image(&c, n1, "cap:1", 1000 * MI);
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "", true, false)->image = "big:1";
	tb_container(&c, p, "", false, false)->image = "big:1";
	int q = tb_pod(&c, "q", "");
	tb_container(&c, q, "", true, false)->image = "small:1";
	tb_container(&c, q, "", false, false)->image = "small:1";
	int r = tb_pod(&c, "r", "");
	tb_container(&c, r, "", true, false)->image = "big:1";
	tb_container(&c, r, "", false, false)->image = "none:1";
	int e = tb_pod(&c, "e", "");
	tb_container(&c, e, "", false, false)->image = "edge:1";
	int m = tb_pod(&c, "m", "");
	tb_container(&c, m, "", false, false)->image = "cap:1";
	int64_t sc[2];
	CHECK_EQ(score_all(model_score_image_locality, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 100);
	CHECK_EQ(sc[1], 100);
	CHECK_EQ(score_all(model_score_image_locality, &c, q, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 0);
	CHECK_EQ(sc[1], 0);
	CHECK_EQ(score_all(model_score_image_locality, &c, r, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 74);
	CHECK_EQ(sc[1], 74);
	CHECK_EQ(score_all(model_score_image_locality, &c, e, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 0);
	CHECK_EQ(score_all(model_score_image_locality, &c, m, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 100);
	CHECK_EQ(sc[1], 100);
	cluster_release(&c);
}

/* -------------------------------------------------- InterPodAffinity */

static struct pod_affinity_term term(struct cluster *c, const char *sel,
				     const char *key)
{
	struct pod_affinity_term t;
	memset(&t, 0, sizeof t);
	t.selector.present = true;
	t.selector.match_labels = tb_labels(c, sel);
	t.topology_key = key;
	return t;
}

static int pod_l(struct cluster *c, const char *name, const char *node_name,
		 const char *labels)
{
	int p = tb_pod(c, name, node_name);
	c->pods[p].labels = tb_labels(c, labels);
	return p;
}

/* Sets pod p's required affinity terms. */
static void set_aff(struct cluster *c, int p, const struct pod_affinity_term *t,
		    int n)
{
	c->pods[p].affinity = arena_memdup(&c->arena, t, sizeof *t * (size_t)n);
	c->pods[p].n_affinity = n;
}

/*
 * hardPodAffinityWeight 5.  Nodes n1 zone=a, n2 zone=b, n3 zone=c,
 * n4 host=n4 (no zone).  The incoming pod app=web.
 *   E1 on n1 requires affinity to app=web per zone        -> zone a +5
 *   E2 on n2 requires [app=web per zone, app=nope per zone]: scoring takes
 *      each required term on its own (unlike the Filter's "all terms") ->
 *      zone b +5 (the second term does not match the incoming pod)
 *   E3 on n3 requires app=web per "rack": n3 has no rack label -> nothing
 *   E4 on n4 requires app=web per zone: n4 has no zone label -> nothing
 *   the incoming pod prefers anti-affinity to app=e1 per zone, weight 2
 *      -> zone a -2
 * Raw n1 3, n2 5, n3 0, n4 0; min 0, max 5:
 *   n1 trunc(100 * (3/5)) = 60, n2 100, n3 0, n4 0.
 * hardPodAffinityWeight 0 (existing required terms do not score): n1 -2,
 *   others 0: min -2, max 0: n1 0, n2..n4 trunc(100 * 2/2) = 100.
 */
static void test_hard_pod_affinity_weight(void)
{
	struct cluster c;
	tb_init(&c);
	tb_node(&c, "n1", "pods=10", "zone=a");
	tb_node(&c, "n2", "pods=10", "zone=b");
	tb_node(&c, "n3", "pods=10", "zone=c");
	tb_node(&c, "n4", "pods=10", "host=n4");
	int e1 = pod_l(&c, "e1", "n1", "app=e1");
	struct pod_affinity_term t1 = term(&c, "app=web", "zone");
	set_aff(&c, e1, &t1, 1);
	int e2 = pod_l(&c, "e2", "n2", "app=e2");
	struct pod_affinity_term t2[2] = {term(&c, "app=web", "zone"),
					  term(&c, "app=nope", "zone")};
	set_aff(&c, e2, t2, 2);
	int e3 = pod_l(&c, "e3", "n3", "app=e3");
	struct pod_affinity_term t3 = term(&c, "app=web", "rack");
	set_aff(&c, e3, &t3, 1);
	int e4 = pod_l(&c, "e4", "n4", "app=e4");
	struct pod_affinity_term t4 = term(&c, "app=web", "zone");
	set_aff(&c, e4, &t4, 1);
	int p = pod_l(&c, "web", "", "app=web");
	struct weighted_pod_affinity_term *w = arena_array(&c.arena, 1, sizeof *w);
	w->weight = 2;
	w->term = term(&c, "app=e1", "zone");
	c.pods[p].anti_affinity_preferred = w;
	c.pods[p].n_anti_affinity_preferred = 1;
	tb_profile(&c)->hard_pod_affinity_weight = 5;
	int64_t sc[4];
	CHECK_EQ(score_all(model_score_inter_pod_affinity, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 60);
	CHECK_EQ(sc[1], 100);
	CHECK_EQ(sc[2], 0);
	CHECK_EQ(sc[3], 0);
	tb_profile(&c)->hard_pod_affinity_weight = 0;
	CHECK_EQ(score_all(model_score_inter_pod_affinity, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 0);
	CHECK_EQ(sc[1], 100);
	CHECK_EQ(sc[2], 100);
	CHECK_EQ(sc[3], 100);
	cluster_release(&c);
}

/* ------------------------------------------------ PodTopologySpread */

/*
 * System default constraints (hostname maxSkew 3, zone maxSkew 5) over
 * zone-less nodes.  A Service selects app=web.  Nodes: n1 (zone zA, 1
 * web pod), n2 (no zone, 2), n3 (no zone, 0), n4 (no zone, 3, not
 * feasible), n5 (zone label present with the empty value "", 0).
 * Feasible {n1, n2, n3, n5}; requireAll is false (system defaulting), so no
 * node is ignored.
 * v1.30 (QUIRK_SPREAD_EMPTY_DOMAIN):
 *   zone pairs registered from the feasible nodes: zA (n1), "" (n2; n3
 *   and n5 find it registered) -> topoSize 2, W_zone = ln 4 = 1.386294;
 *   W_host = ln(4 + 2) = ln 6 = 1.791759.
 *   counts over ALL nodes: (zone, zA) = 1; (zone, "") = n2 2 + n3 0 +
 *   n4 3 + n5 0 = 5.
 *   Score (a constraint adds only when the node carries its key):
 *     n1 1*1.791759 + 2 + 1*1.386294 + 4 = 9.178 -> 9
 *     n2 2*1.791759 + 2 = 5.584 -> 6            (no zone label)
 *     n3 0 + 2 = 2
 *     n5 0 + 2 + 5*1.386294 + 4 = 12.931 -> 13  (reads the "" pair)
 *   max 13, min 2: n1 100*(15-9)/13 = 46, n2 100*(15-6)/13 = 69,
 *   n3 100*13/13 = 100, n5 100*2/13 = 15.
 * Intended (quirk off): zone-less nodes neither register nor count; n5's
 *   explicit "" label still registers "" (topoSize 2): (zone, "") = 0:
 *   n1 9, n2 6, n3 2, n5 0 + 2 + 0 + 4 = 6; max 9, min 2:
 *   n1 100*2/9 = 22, n2 100*5/9 = 55, n3 100, n5 55.
 */
static void test_spread_system_defaults_zoneless(void)
{
	struct cluster c;
	tb_init(&c);
	tb_node(&c, "n1", "pods=10", "kubernetes.io/hostname=n1,topology.kubernetes.io/zone=zA");
	tb_node(&c, "n2", "pods=10", "kubernetes.io/hostname=n2");
	tb_node(&c, "n3", "pods=10", "kubernetes.io/hostname=n3");
	tb_node(&c, "n4", "pods=10", "kubernetes.io/hostname=n4");
	tb_node(&c, "n5", "pods=10", "kubernetes.io/hostname=n5,topology.kubernetes.io/zone=");
	pod_l(&c, "a1", "n1", "app=web");
	pod_l(&c, "b1", "n2", "app=web");
	pod_l(&c, "b2", "n2", "app=web");
	pod_l(&c, "d1", "n4", "app=web");
	pod_l(&c, "d2", "n4", "app=web");
	pod_l(&c, "d3", "n4", "app=web");
	int p = pod_l(&c, "new", "", "app=web");
	c.workloads = arena_array(&c.arena, 1, sizeof *c.workloads);
	struct workload *svc = &c.workloads[0];
	memset(svc, 0, sizeof *svc);
	svc->kind = WORKLOAD_SERVICE;
	svc->ns = "default";
	svc->name = "web";
	svc->has_map_selector = true;
	svc->map_selector = tb_labels(&c, "app=web");
	c.n_workloads = 1;
	int feasible[] = {0, 1, 2, 4};
	int64_t sc[4];
	CHECK_EQ(score_on(model_score_pod_topology_spread, &c, p, feasible, 4, sc),
		 SCHED_SUCCESS);
	CHECK_EQ(sc[0], 46);
	CHECK_EQ(sc[1], 69);
	CHECK_EQ(sc[2], 100);
	CHECK_EQ(sc[3], 15);
	tb_quirk(&c, QUIRK_SPREAD_EMPTY_DOMAIN, false);
	CHECK_EQ(score_on(model_score_pod_topology_spread, &c, p, feasible, 4, sc),
		 SCHED_SUCCESS);
	CHECK_EQ(sc[0], 22);
	CHECK_EQ(sc[1], 55);
	CHECK_EQ(sc[2], 100);
	CHECK_EQ(sc[3], 55);
	cluster_release(&c);
}

/* ------------------------------------------------------ NodeAffinity */

/*
 * PreScore Skip iff the pod's preferred field is nil and the profile has
 * no addedAffinity *preferred* terms (kube: addedPrefSchedTerms == nil);
 * an addedAffinity with only a required part does not prevent the Skip.
 * Either way every score is 0, but the plugin is reported skipped.
 */
static void test_node_affinity_skip_added_required_only(void)
{
	struct cluster c;
	tb_init(&c);
	tb_node(&c, "a", "pods=10", "x=1");
	tb_node(&c, "b", "pods=10", "");
	int p = tb_pod(&c, "p", "");
	struct requirement r = tb_req(&c, "x", OP_EXISTS, "");
	struct node_selector_term t = tb_term(&c, &r, 1, NULL, 0);
	struct node_selector added = {true, &t, 1};
	tb_profile(&c)->added_required = &added;
	int64_t sc[2] = {7, 7};
	CHECK_EQ(score_all(model_score_node_affinity, &c, p, sc), SCHED_SKIP);
	CHECK_EQ(sc[0], 0);
	CHECK_EQ(sc[1], 0);
	tb_profile(&c)->added_required = NULL;
	cluster_release(&c);
}

int main(void)
{
	test_rtcr_multipoint();
	test_rtcr_multipoint_oracle();
	test_most_allocated_extended();
	test_balanced_three();
	test_image_locality_clamps();
	test_hard_pod_affinity_weight();
	test_spread_system_defaults_zoneless();
	test_node_affinity_skip_added_required_only();
	return check_done("test_scores_arith");
}
