/*
 * test_scores_node.c - the node-local scores: TaintToleration,
 * NodeAffinity, NodeResourcesFit (LeastAllocated, MostAllocated,
 * RequestedToCapacityRatio), NodeResourcesBalancedAllocation and
 * ImageLocality (reference §2.4, §2.5, §2.7-§2.9), plus
 * DefaultNormalizeScore.  Expected scores are derived by hand in the
 * comments.
 */
#include "build.h"
#include "check.h"

#include "../../model/normalize.h"

#define MI (1024LL * 1024LL)
#define GI (1024LL * MI)

/* Scores pod over every node of c (all feasible), placement as loaded. */
static enum sched_code score_all(model_score_fn f, const struct cluster *c,
				 int pod, int64_t *scores)
{
	struct snapshot s;
	snapshot_init(&s, c);
	struct model_cycle cy;
	struct sched_status err;
	tb_cycle(&cy, c, &s, pod);
	int feasible[TB_MAX_NODES];
	for (int i = 0; i < c->n_nodes; i++)
		feasible[i] = i;
	enum sched_code code = f(&cy, feasible, c->n_nodes, scores, &err);
	snapshot_release(&s);
	return code;
}

static void test_normalize(void)
{
	/* counts 0,1,2 reversed: max 2 -> 100-0, 100-50, 100-100. */
	int64_t a[3] = {0, 1, 2};
	model_normalize_default(100, true, a, 3);
	CHECK_EQ(a[0], 100);
	CHECK_EQ(a[1], 50);
	CHECK_EQ(a[2], 0);
	/* 1, 50, 51 forward: 100*1/51 = 1, 100*50/51 = 98, 100. */
	int64_t b[3] = {1, 50, 51};
	model_normalize_default(100, false, b, 3);
	CHECK_EQ(b[0], 1);
	CHECK_EQ(b[1], 98);
	CHECK_EQ(b[2], 100);
	/* All zero: reverse -> all 100, forward -> unchanged 0. */
	int64_t z[2] = {0, 0};
	model_normalize_default(100, true, z, 2);
	CHECK_EQ(z[0], 100);
	CHECK_EQ(z[1], 100);
	int64_t y[2] = {0, 0};
	model_normalize_default(100, false, y, 2);
	CHECK_EQ(y[0], 0);
	CHECK_EQ(y[1], 0);
}

static void test_taint_score(void)
{
	struct cluster c;
	tb_init(&c);
	tb_node(&c, "zero", "pods=10", "");
	int one = tb_node(&c, "one", "pods=10", "");
	tb_taint(&c, one, "a", "x", EFFECT_PREFER_NO_SCHEDULE);
	tb_taint(&c, one, "hard", "x", EFFECT_NO_SCHEDULE);   /* not counted */
	int two = tb_node(&c, "two", "pods=10", "");
	tb_taint(&c, two, "a", "x", EFFECT_PREFER_NO_SCHEDULE);
	tb_taint(&c, two, "b", "y", EFFECT_PREFER_NO_SCHEDULE);
	int p = tb_pod(&c, "p", "");
	int64_t sc[3];
	/* Untolerated PreferNoSchedule counts 0, 1, 2 -> 100, 50, 0. */
	CHECK_EQ(score_all(model_score_taint_toleration, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 100);
	CHECK_EQ(sc[1], 50);
	CHECK_EQ(sc[2], 0);

	/* A toleration of b with empty effect is kept: counts 0, 1, 1 ->
	 * 100, 0, 0.  A NoSchedule-effect toleration of a is not kept (and
	 * would not match a PreferNoSchedule taint anyway). */
	int q = tb_pod(&c, "q", "");
	tb_toleration(&c, q, "b", TOL_EQUAL, "y", EFFECT_ANY);
	tb_toleration(&c, q, "a", TOL_EXISTS, "", EFFECT_NO_SCHEDULE);
	CHECK_EQ(score_all(model_score_taint_toleration, &c, q, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 100);
	CHECK_EQ(sc[1], 0);
	CHECK_EQ(sc[2], 0);

	/* Tolerating both with PreferNoSchedule tolerations: all 0 -> 100. */
	int r = tb_pod(&c, "r", "");
	tb_toleration(&c, r, "", TOL_EXISTS, "", EFFECT_PREFER_NO_SCHEDULE);
	CHECK_EQ(score_all(model_score_taint_toleration, &c, r, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 100);
	CHECK_EQ(sc[1], 100);
	CHECK_EQ(sc[2], 100);
	cluster_release(&c);
}

/* Sets pod's preferred node affinity terms (label key = value, weight). */
static void prefer(struct cluster *c, int pod, int n, const char *const *keys,
		   const char *const *values, const int32_t *weights)
{
	struct preferred_node_term *terms = arena_array(&c->arena, (size_t)n, sizeof *terms);
	for (int i = 0; i < n; i++) {
		struct requirement r = tb_req(c, keys[i], OP_IN, values[i]);
		terms[i].weight = weights[i];
		terms[i].preference = tb_term(c, &r, 1, NULL, 0);
	}
	c->pods[pod].node_preferred = terms;
	c->pods[pod].n_node_preferred = n;
	c->pods[pod].has_node_preferred = true;
}

static void test_node_affinity_score(void)
{
	/* The seed's example (003, "with-affinity-anti-affinity"): weight 1
	 * for label-1=key-1, weight 50 for label-2=key-2.  Nodes A (label-1),
	 * B (label-2): raw 1 and 50, max 50 -> 100*1/50 = 2 and 100. */
	static const char *const keys[] = {"label-1", "label-2"};
	static const char *const values[] = {"key-1", "key-2"};
	static const int32_t weights[] = {1, 50};
	struct cluster c;
	tb_init(&c);
	tb_node(&c, "a", "pods=10", "label-1=key-1");
	tb_node(&c, "b", "pods=10", "label-2=key-2");
	int p = tb_pod(&c, "p", "");
	prefer(&c, p, 2, keys, values, weights);
	int64_t sc[4];
	CHECK_EQ(score_all(model_score_node_affinity, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 2);
	CHECK_EQ(sc[1], 100);

	/* Adding C (both labels, raw 51) and D (none, 0): max 51 ->
	 * A 100*1/51 = 1, B 5000/51 = 98, C 100, D 0. */
	tb_node(&c, "c", "pods=10", "label-1=key-1,label-2=key-2");
	tb_node(&c, "d", "pods=10", "");
	CHECK_EQ(score_all(model_score_node_affinity, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 1);
	CHECK_EQ(sc[1], 98);
	CHECK_EQ(sc[2], 100);
	CHECK_EQ(sc[3], 0);

	/* The profile's addedAffinity preferred adds to the same raw sum:
	 * weight 49 on label-1=key-1 -> A 50, B 50, C 100, D 0 -> 50, 50, 100, 0. */
	struct requirement r = tb_req(&c, "label-1", OP_IN, "key-1");
	struct preferred_node_term added = {49, tb_term(&c, &r, 1, NULL, 0)};
	tb_profile(&c)->added_preferred = &added;
	tb_profile(&c)->n_added_preferred = 1;
	CHECK_EQ(score_all(model_score_node_affinity, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 50);
	CHECK_EQ(sc[1], 50);
	CHECK_EQ(sc[2], 100);
	CHECK_EQ(sc[3], 0);

	/* A pod without preferred terms still scores the added terms. */
	int q = tb_pod(&c, "q", "");
	CHECK_EQ(score_all(model_score_node_affinity, &c, q, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 100);
	CHECK_EQ(sc[1], 0);
	tb_profile(&c)->added_preferred = NULL;
	tb_profile(&c)->n_added_preferred = 0;
	/* ... and without them PreScore skips: every score 0. */
	CHECK_EQ(score_all(model_score_node_affinity, &c, q, sc), SCHED_SKIP);
	CHECK_EQ(sc[0], 0);
	CHECK_EQ(sc[2], 0);
	cluster_release(&c);
}

static void test_least_most_allocated(void)
{
	struct cluster c;
	tb_init(&c);
	/* A: 4000m / 8Gi with 1000m / 2Gi requested; B: same, empty. */
	tb_node(&c, "a", "cpu=4,memory=8Gi,pods=10", "");
	tb_node(&c, "b", "cpu=4,memory=8Gi,pods=10", "");
	int old = tb_pod(&c, "old", "a");
	tb_container(&c, old, "cpu=1,memory=2Gi", false, false);
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=1,memory=2Gi", false, false);
	int64_t sc[4];
	/* LeastAllocated, A: cpu (4000-2000)*100/4000 = 50, memory
	 * (8Gi-4Gi)*100/8Gi = 50 -> (50+50)/2 = 50.  B: 3000*100/4000 = 75
	 * twice -> 75. */
	CHECK_EQ(score_all(model_score_node_resources_fit, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 50);
	CHECK_EQ(sc[1], 75);
	/* MostAllocated: A 2000*100/4000 = 50 -> 50; B 1000*100/4000 = 25. */
	tb_profile(&c)->fit_strategy = FIT_MOST_ALLOCATED;
	CHECK_EQ(score_all(model_score_node_resources_fit, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 50);
	CHECK_EQ(sc[1], 25);
	cluster_release(&c);
}

static void test_nonzero_scoring(void)
{
	struct cluster c;
	tb_init(&c);
	/* 1000m / 1000Mi with a request-less pod on it; the incoming pod has
	 * no requests either.  NonZero: cpu 100 + 100 = 200 -> (1000-200)*100
	 * /1000 = 80; memory 200Mi + 200Mi = 400Mi -> 600*100/1000 = 60. */
	tb_node(&c, "n", "cpu=1,memory=1000Mi,pods=10", "");
	int old = tb_pod(&c, "old", "n");
	tb_container(&c, old, "", false, false);
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "", false, false);
	int64_t sc[1];
	/* Weights 1/1: (80+60)/2 = 70. */
	CHECK_EQ(score_all(model_score_node_resources_fit, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 70);
	/* Weights cpu 3, memory 1: (80*3 + 60*1)/4 = 300/4 = 75. */
	tb_profile(&c)->fit_resources[0].weight = 3;
	CHECK_EQ(score_all(model_score_node_resources_fit, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 75);
	/* MostAllocated caps at capacity: a pod of 2 cpu -> 100 + 2000 >
	 * 1000 -> 1000*100/1000 = 100; memory 400Mi -> 40; (100*3 + 40)/4 = 85. */
	tb_profile(&c)->fit_strategy = FIT_MOST_ALLOCATED;
	int big = tb_pod(&c, "big", "");
	tb_container(&c, big, "cpu=2", false, false);
	CHECK_EQ(score_all(model_score_node_resources_fit, &c, big, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 85);
	cluster_release(&c);
}

static void test_requested_to_capacity_ratio(void)
{
	struct cluster c;
	tb_init(&c);
	struct sched_profile *prof = tb_profile(&c);
	prof->fit_strategy = FIT_REQUESTED_TO_CAPACITY_RATIO;
	prof->shape[0] = (struct shape_point){0, 0};
	prof->shape[1] = (struct shape_point){100, 10};
	prof->n_shape = 2;
	tb_node(&c, "a", "cpu=4,memory=8Gi,pods=10", "");
	tb_node(&c, "d", "cpu=4,memory=8Gi,pods=10", "");
	tb_node(&c, "f", "cpu=500m,memory=8Gi,pods=10", "");
	int old = tb_pod(&c, "old", "a");
	tb_container(&c, old, "cpu=1,memory=2Gi", false, false);
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=1,memory=4Gi", false, false);
	int64_t sc[3];
	/* Shape (0,0)-(100,100).  A: cpu 2000*100/4000 = 50 -> 50; memory
	 * 6Gi*100/8Gi = 75 -> 75; round(125/2 = 62.5) = 63.
	 * D: cpu 25, memory 50 -> round(37.5) = 38 (LeastAllocated would
	 * truncate (75+50)/2 = 62).  F: cpu 1000 > 500 -> p = 100 -> 100;
	 * memory 50 -> round(150/2) = 75. */
	CHECK_EQ(score_all(model_score_node_resources_fit, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 63);
	CHECK_EQ(sc[1], 38);
	CHECK_EQ(sc[2], 75);

	/* Shape (0,10)-(100,0), i.e. scores 100 down to 0: resources scoring
	 * 0 leave the mean.  F: cpu p = 100 -> 100 + (0-100)*(100-0)/100 = 0
	 * -> dropped; memory 100 + (-100)*50/100 = 50 -> 50/1 = 50.
	 * D: cpu 100 - 25 = 75, memory 50 -> round(62.5) = 63. */
	prof->shape[0] = (struct shape_point){0, 10};
	prof->shape[1] = (struct shape_point){100, 0};
	CHECK_EQ(score_all(model_score_node_resources_fit, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[1], 63);
	CHECK_EQ(sc[2], 50);

	/* Three points (0,0) (50,10) (100,2): D cpu 25 -> 0 + 100*25/50 = 50;
	 * memory 50 -> 100 (p <= 50 hits the second point exactly);
	 * round(150/2) = 75.  A: cpu 50 -> 100; memory 75 -> 100 +
	 * (20-100)*(75-50)/50 = 100 - 40 = 60; round(160/2) = 80. */
	prof->shape[0] = (struct shape_point){0, 0};
	prof->shape[1] = (struct shape_point){50, 10};
	prof->shape[2] = (struct shape_point){100, 2};
	prof->n_shape = 3;
	CHECK_EQ(score_all(model_score_node_resources_fit, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 80);
	CHECK_EQ(sc[1], 75);
	cluster_release(&c);
}

static void test_balanced_allocation(void)
{
	struct cluster c;
	tb_init(&c);
	tb_node(&c, "n", "cpu=4,memory=8Gi,nvidia.com/gpu=4,pods=10", "");
	/* A request-less pod on the node: useRequested reads Requested (0),
	 * not NonZeroRequested. */
	int old = tb_pod(&c, "old", "n");
	tb_container(&c, old, "", false, false);
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=2,memory=2Gi", false, false);
	int64_t sc[1];
	/* cpu 2000/4000 = 0.5, memory 2Gi/8Gi = 0.25 -> std |0.25/2| = 0.125
	 * -> trunc((1 - 0.125) * 100) = trunc(87.5) = 87. */
	CHECK_EQ(score_all(model_score_balanced_allocation, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 87);

	/* A pod without requests: fractions 0, 0 -> 100. */
	int z = tb_pod(&c, "z", "");
	tb_container(&c, z, "", false, false);
	CHECK_EQ(score_all(model_score_balanced_allocation, &c, z, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 100);

	/* Over capacity caps at 1: cpu 8/4 -> 1, memory 0.25 -> std 0.375 ->
	 * trunc(62.5) = 62. */
	int big = tb_pod(&c, "big", "");
	tb_container(&c, big, "cpu=8,memory=2Gi", false, false);
	CHECK_EQ(score_all(model_score_balanced_allocation, &c, big, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 62);

	/* Three resources cpu, memory, nvidia.com/gpu; the pod also asks 1 of
	 * 4 gpus: fractions 0.5, 0.25, 0.25, mean 1/3, Σ(f-mean)^2 = 1/36 +
	 * 2/144 = 1/24, /3 = 1/72, sqrt = 0.11785 -> trunc(88.21) = 88. */
	struct sched_profile *prof = tb_profile(&c);
	prof->balanced_resources[2] = (struct resource_weight){"nvidia.com/gpu", 1};
	prof->n_balanced_resources = 3;
	int g = tb_pod(&c, "g", "");
	tb_container(&c, g, "cpu=2,memory=2Gi,nvidia.com/gpu=1", false, false);
	CHECK_EQ(score_all(model_score_balanced_allocation, &c, g, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 88);
	/* A scalar the pod does not request is skipped: back to 87. */
	CHECK_EQ(score_all(model_score_balanced_allocation, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 87);
	cluster_release(&c);
}

/* v1.34 (delta §5.2): a pod requesting none of the configured resources
 * is best effort: PreScore Skip, every score 0.  v1.30 scores it. */
static void test_balanced_best_effort_1_34(void)
{
	struct cluster c;
	tb_init(&c);
	tb_node(&c, "n", "cpu=4,memory=8Gi,nvidia.com/gpu=4,pods=10", "");
	int old = tb_pod(&c, "old", "n");
	tb_container(&c, old, "cpu=1,memory=4Gi", false, false);
	/* no requests: v1.30 fractions 1000/4000 = 0.25 and 4Gi/8Gi = 0.5
	 * (Requested of the node, nothing added) -> std 0.125 -> 87 */
	int z = tb_pod(&c, "z", "");
	tb_container(&c, z, "", false, false);
	/* only a gpu, which the default resources (cpu, memory) leave out:
	 * best effort for the plugin as well; v1.30 87 again */
	int g = tb_pod(&c, "g", "");
	tb_container(&c, g, "nvidia.com/gpu=1", false, false);
	/* cpu=0 explicitly and 1 byte of memory: not best effort; memory
	 * (4Gi + 1) / 8Gi = 0.5000000001, cpu 0.25 -> std 0.1250000001 ->
	 * trunc(87.49999999) = 87 */
	int m = tb_pod(&c, "m", "");
	tb_container(&c, m, "cpu=0,memory=1", false, false);
	int64_t sc[1];
	CHECK_EQ(score_all(model_score_balanced_allocation, &c, z, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 87);
	CHECK_EQ(score_all(model_score_balanced_allocation, &c, g, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 87);
	c.config.kube_version = KUBE_1_34;
	sc[0] = 7;
	CHECK_EQ(score_all(model_score_balanced_allocation, &c, z, sc), SCHED_SKIP);
	CHECK_EQ(sc[0], 0);
	CHECK_EQ(score_all(model_score_balanced_allocation, &c, g, sc), SCHED_SKIP);
	CHECK_EQ(sc[0], 0);
	CHECK_EQ(score_all(model_score_balanced_allocation, &c, m, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 87);
	cluster_release(&c);
}

static void test_image_locality(void)
{
	struct cluster c;
	tb_init(&c);
	/* 4 nodes; repo/app:v1 of 250MiB on n0 and n1 (n1 reports 300MiB, but
	 * the size comes from the first node listing the name). */
	int n0 = tb_node(&c, "n0", "pods=10", "");
	int n1 = tb_node(&c, "n1", "pods=10", "");
	int n2 = tb_node(&c, "n2", "pods=10", "");
	tb_node(&c, "n3", "pods=10", "");
	tb_image(&c, n0, "repo/app:v1,repo/app@sha256:abc", 250 * MI);
	tb_image(&c, n1, "repo/app:v1", 300 * MI);
	tb_image(&c, n2, "repo/bare:latest,registry:5000/x:latest", 500 * MI);
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "", false, false)->image = "repo/app:v1";
	int64_t sc[4];
	/* n0, n1: trunc(250MiB * (2/4)) = 131072000; min 23MiB = 24117248,
	 * max 1000MiB = 1048576000: 100 * (131072000 - 24117248) /
	 * (1048576000 - 24117248) = 10695475200 / 1024458752 = 10.44 -> 10.
	 * n2, n3: sum 0 -> clamped to min -> 0. */
	CHECK_EQ(score_all(model_score_image_locality, &c, p, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 10);
	CHECK_EQ(sc[1], 10);
	CHECK_EQ(sc[2], 0);
	CHECK_EQ(sc[3], 0);

	/* An init container counts in the threshold: max = 2000MiB =
	 * 2097152000; 10695475200 / (2097152000 - 24117248) = 5.16 -> 5. */
	int q = tb_pod(&c, "q", "");
	tb_container(&c, q, "", true, false)->image = "nothing:here";
	tb_container(&c, q, "", false, false)->image = "repo/app:v1";
	CHECK_EQ(score_all(model_score_image_locality, &c, q, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 5);

	/* Name normalization: "repo/bare" has no tag -> ":latest"; so has
	 * "registry:5000/x" (its ':' is before the last '/').  Each on 1 of 4
	 * nodes at 500MiB -> trunc(524288000 * 0.25) = 131072000 each; two
	 * containers: sum 262144000, max 2000MiB -> 100 * (262144000 -
	 * 24117248) / 2073034752 = 23802675200 / 2073034752 = 11.48 -> 11. */
	int r = tb_pod(&c, "r", "");
	tb_container(&c, r, "", false, false)->image = "repo/bare";
	tb_container(&c, r, "", false, false)->image = "registry:5000/x";
	CHECK_EQ(score_all(model_score_image_locality, &c, r, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[2], 11);
	CHECK_EQ(sc[0], 0);

	/* A digest reference is kept as is: on n0 only, 250MiB * 1/4 =
	 * 65536000 -> 100 * (65536000 - 24117248) / 1024458752 = 4.04 -> 4. */
	int d = tb_pod(&c, "d", "");
	tb_container(&c, d, "", false, false)->image = "repo/app@sha256:abc";
	CHECK_EQ(score_all(model_score_image_locality, &c, d, sc), SCHED_SUCCESS);
	CHECK_EQ(sc[0], 4);
	CHECK_EQ(sc[1], 0);
	cluster_release(&c);
}

int main(void)
{
	test_normalize();
	test_taint_score();
	test_node_affinity_score();
	test_least_most_allocated();
	test_nonzero_scoring();
	test_requested_to_capacity_ratio();
	test_balanced_allocation();
	test_balanced_best_effort_1_34();
	test_image_locality();
	return check_done("test_scores_node");
}
