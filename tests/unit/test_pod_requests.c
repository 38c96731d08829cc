/*
 * test_pod_requests.c - PodRequests, NonZeroRequested, the scorers'
 * request and the node bookkeeping (model/pod_requests.c, reference §2.7,
 * §4).  Every expected value is derived by hand in the comment above it.
 */
#include "build.h"
#include "check.h"

#include "../../model/pod_requests.h"
#include "../../core/quirks.h"
#include "../../oracle/internal.h"

static int64_t req_of(const struct cluster *c, int pod, int res)
{
	int64_t out[64];
	assert(c->n_res <= 64);
	model_pod_requests(c, &c->pods[pod], out);
	return out[res];
}

static int64_t score_req_of(const struct cluster *c, int pod, int res)
{
	int64_t out[64];
	assert(c->n_res <= 64);
	model_pod_score_request(c, &c->pods[pod], out);
	return out[res];
}

static void test_init_max(void)
{
	struct cluster c;
	tb_init(&c);
	/* init 2 cpu vs main 1 + 0.5: max(1.5, 2) = 2 cpu -> 2000m. */
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=1", false, false);
	tb_container(&c, p, "cpu=500m", false, false);
	tb_container(&c, p, "cpu=2", true, false);
	CHECK_EQ(req_of(&c, p, RES_CPU), 2000);
	/* Memory: only the main containers list none, init lists none -> 0. */
	CHECK_EQ(req_of(&c, p, RES_MEMORY), 0);

	/* Main wins when larger: init 1Gi vs main 1Gi + 1Gi = 2Gi. */
	int q = tb_pod(&c, "q", "");
	tb_container(&c, q, "memory=1Gi", false, false);
	tb_container(&c, q, "memory=1Gi", false, false);
	tb_container(&c, q, "memory=1Gi", true, false);
	CHECK_EQ(req_of(&c, q, RES_MEMORY), 2LL * 1024 * 1024 * 1024);
	cluster_release(&c);
}

static void test_sidecars(void)
{
	struct cluster c;
	tb_init(&c);
	/* sidecar 1 + main 1: Σmain + Σsidecars = 2, init max = 1 -> 2000m. */
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=1", true, true);
	tb_container(&c, p, "cpu=1", false, false);
	CHECK_EQ(req_of(&c, p, RES_CPU), 2000);

	/* sidecar 1, then a plain init 2: use = 2 + 1 = 3; Σ = main 1 +
	 * sidecar 1 = 2 -> max 3 -> 3000m. */
	int q = tb_pod(&c, "q", "");
	tb_container(&c, q, "cpu=1", true, true);
	tb_container(&c, q, "cpu=2", true, false);
	tb_container(&c, q, "cpu=1", false, false);
	CHECK_EQ(req_of(&c, q, RES_CPU), 3000);

	/* A plain init before the sidecar does not add it: init 2 (use 2),
	 * sidecar 1 (use 1); Σ = 1 + 1 = 2 -> 2000m. */
	int r = tb_pod(&c, "r", "");
	tb_container(&c, r, "cpu=2", true, false);
	tb_container(&c, r, "cpu=1", true, true);
	tb_container(&c, r, "cpu=1", false, false);
	CHECK_EQ(req_of(&c, r, RES_CPU), 2000);
	cluster_release(&c);
}

static void test_overhead_and_rounding(void)
{
	struct cluster c;
	tb_init(&c);
	/* main 100m + overhead 250m = 350m; overhead lists no memory, so
	 * memory stays the containers' 64Mi. */
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=100m,memory=64Mi", false, false);
	c.pods[p].overhead = tb_reqs(&c, "cpu=250m");
	CHECK_EQ(req_of(&c, p, RES_CPU), 350);
	CHECK_EQ(req_of(&c, p, RES_MEMORY), 64LL * 1024 * 1024);

	/* Rounded once per pod: 0.5m + 0.5m = 1m exactly -> 1 (each alone
	 * would round up to 1, giving 2); memory 0.5 + 0.5 = 1 byte. */
	int q = tb_pod(&c, "q", "");
	tb_container(&c, q, "cpu=0.5m,memory=0.5", false, false);
	tb_container(&c, q, "cpu=0.5m,memory=0.5", false, false);
	CHECK_EQ(req_of(&c, q, RES_CPU), 1);
	CHECK_EQ(req_of(&c, q, RES_MEMORY), 1);

	/* Scalars follow the same rule: main 1 gpu, init 2 gpu -> 2. */
	int r = tb_pod(&c, "r", "");
	tb_container(&c, r, "nvidia.com/gpu=1", false, false);
	tb_container(&c, r, "nvidia.com/gpu=2", true, false);
	CHECK_EQ(req_of(&c, r, cluster_res_index(&c, "nvidia.com/gpu")), 2);
	cluster_release(&c);
}

static void test_nonzero(void)
{
	struct cluster c;
	tb_init(&c);
	int64_t cpu, mem;
	/* No requests at all -> 100m and 200Mi = 209715200. */
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "", false, false);
	model_pod_nonzero(&c, &c.pods[p], &cpu, &mem);
	CHECK_EQ(cpu, 100);
	CHECK_EQ(mem, 209715200);

	/* An explicit 0 stays 0; the missing memory still defaults. */
	int q = tb_pod(&c, "q", "");
	tb_container(&c, q, "cpu=0", false, false);
	model_pod_nonzero(&c, &c.pods[q], &cpu, &mem);
	CHECK_EQ(cpu, 0);
	CHECK_EQ(mem, 209715200);

	/* Per-container rounding: 0.5m + 0.5m -> 1 + 1 = 2 (PodRequests 1). */
	int r = tb_pod(&c, "r", "");
	tb_container(&c, r, "cpu=0.5m,memory=1", false, false);
	tb_container(&c, r, "cpu=0.5m,memory=1", false, false);
	model_pod_nonzero(&c, &c.pods[r], &cpu, &mem);
	CHECK_EQ(cpu, 2);
	CHECK_EQ(mem, 2);

	/* Overhead is added when listed: 100m default + 50m = 150m; memory
	 * not in the overhead stays the 200Mi default. */
	int s = tb_pod(&c, "s", "");
	tb_container(&c, s, "", false, false);
	c.pods[s].overhead = tb_reqs(&c, "cpu=50m");
	model_pod_nonzero(&c, &c.pods[s], &cpu, &mem);
	CHECK_EQ(cpu, 150);
	CHECK_EQ(mem, 209715200);

	/* Init max against defaults: init cpu 300m (memory missing -> 200Mi),
	 * main no requests (100m, 200Mi): cpu max(100, 300) = 300. */
	int t = tb_pod(&c, "t", "");
	tb_container(&c, t, "cpu=300m", true, false);
	tb_container(&c, t, "", false, false);
	model_pod_nonzero(&c, &c.pods[t], &cpu, &mem);
	CHECK_EQ(cpu, 300);
	CHECK_EQ(mem, 209715200);
	cluster_release(&c);
}

static void test_nonzero_sidecar_quirk(void)
{
	struct cluster c;
	tb_init(&c);
	int64_t cpu, mem;
	/* sidecar cpu 1 + main cpu 1.  v1.30: S = main only = 1000; I = the
	 * sidecar list {cpu 1} = 1000 -> max 1000 (PodRequests says 2000).
	 * Memory: main lacks it (200Mi), the sidecar list lacks it (200Mi)
	 * -> 200Mi.  Intended semantics would add the sidecar to S: 2000 and
	 * 400Mi. */
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=1", true, true);
	tb_container(&c, p, "cpu=1", false, false);
	model_pod_nonzero(&c, &c.pods[p], &cpu, &mem);
	CHECK_EQ(cpu, 1000);
	CHECK_EQ(mem, 209715200);
	tb_quirk(&c, QUIRK_NONZERO_IGNORES_SIDECARS, false);
	model_pod_nonzero(&c, &c.pods[p], &cpu, &mem);
	CHECK_EQ(cpu, 2000);
	CHECK_EQ(mem, 2 * 209715200);
	tb_quirk(&c, QUIRK_NONZERO_IGNORES_SIDECARS, true);
	CHECK_EQ(req_of(&c, p, RES_CPU), 2000);

	/* sidecar 500m, then init 1 cpu: I = max(500, 1000 + 500) = 1500;
	 * main 200m -> S = 200 -> 1500. */
	int q = tb_pod(&c, "q", "");
	tb_container(&c, q, "cpu=500m", true, true);
	tb_container(&c, q, "cpu=1", true, false);
	tb_container(&c, q, "cpu=200m", false, false);
	model_pod_nonzero(&c, &c.pods[q], &cpu, &mem);
	CHECK_EQ(cpu, 1500);
	cluster_release(&c);
}

/* NonZero of pod p by both engines; they must agree. */
static void nonzero_both(const struct cluster *c, int p, int64_t *cpu,
			 int64_t *mem)
{
	int64_t ocpu, omem;
	model_pod_nonzero(c, &c->pods[p], cpu, mem);
	oracle_pod_nonzero(c, &c->pods[p], &ocpu, &omem);
	CHECK_EQ(ocpu, *cpu);
	CHECK_EQ(omem, *mem);
}

/* v1.34 (delta §5.1 headline 13): NonZero is PodRequests with 100m /
 * 200Mi given to each container lacking the entry, converted once. */
static void test_nonzero_1_34(void)
{
	struct cluster c;
	tb_init(&c);
	int64_t cpu, mem;
	/* sidecar cpu 1 + main cpu 1 (as in test_nonzero_sidecar_quirk).
	 * v1.30 1000m / 200Mi.  v1.34: each container lacks memory -> 200Mi
	 * each; Σ = main + sidecar = 2000m / 400Mi, init use = the sidecar
	 * list 1000m / 200Mi -> 2000m / 419430400. */
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=1", true, true);
	tb_container(&c, p, "cpu=1", false, false);
	nonzero_both(&c, p, &cpu, &mem);
	CHECK_EQ(cpu, 1000);
	CHECK_EQ(mem, 209715200);
	c.config.kube_version = KUBE_1_34;
	nonzero_both(&c, p, &cpu, &mem);
	CHECK_EQ(cpu, 2000);
	CHECK_EQ(mem, 2 * 209715200);
	/* the quirk does not exist in v1.34: switching it on changes nothing */
	tb_quirk(&c, QUIRK_NONZERO_IGNORES_SIDECARS, true);
	nonzero_both(&c, p, &cpu, &mem);
	CHECK_EQ(cpu, 2000);

	/* Rounding once per pod: two containers of 0.5m.  v1.30 rounds each
	 * up (1 + 1 = 2); v1.34 sums 1m exactly -> 1.  Memory 1 + 1 = 2. */
	int r = tb_pod(&c, "r", "");
	tb_container(&c, r, "cpu=0.5m,memory=1", false, false);
	tb_container(&c, r, "cpu=0.5m,memory=1", false, false);
	nonzero_both(&c, r, &cpu, &mem);
	CHECK_EQ(cpu, 1);
	CHECK_EQ(mem, 2);

	/* A sidecar listing cpu, then a plain init container listing none:
	 * v1.30 reads the init list (own + sidecars) as having cpu, 300m;
	 * v1.34 gives the init container its own 100m first: use = 100 +
	 * 300 = 400m.  Main 200m + sidecar 300m = 500m wins either way in
	 * v1.34; cpu 500.  Memory: main 200Mi + sidecar 200Mi = 400Mi vs
	 * init 200Mi + 200Mi = 400Mi -> 419430400. */
	int q = tb_pod(&c, "q", "");
	tb_container(&c, q, "cpu=300m", true, true);
	tb_container(&c, q, "", true, false);
	tb_container(&c, q, "cpu=200m", false, false);
	nonzero_both(&c, q, &cpu, &mem);
	CHECK_EQ(cpu, 500);
	CHECK_EQ(mem, 2 * 209715200);
	/* the same pod with main 0 cpu (explicit, stays 0): Σ = 0 + 300 =
	 * 300, init use 400 -> 400 under v1.34; v1.30: S 0, I = max(300,
	 * list {300m} = 300) = 300. */
	int u = tb_pod(&c, "u", "");
	tb_container(&c, u, "cpu=300m", true, true);
	tb_container(&c, u, "", true, false);
	tb_container(&c, u, "cpu=0", false, false);
	nonzero_both(&c, u, &cpu, &mem);
	CHECK_EQ(cpu, 400);
	c.config.kube_version = KUBE_1_30;
	nonzero_both(&c, u, &cpu, &mem);
	CHECK_EQ(cpu, 300);
	cluster_release(&c);
}

static void test_score_request(void)
{
	struct cluster c;
	tb_init(&c);
	/* main and sidecar without requests each get 100m / 200Mi: Σ = 100 +
	 * 100 = 200m, init max = 100m -> 200m; memory 2 * 200Mi. */
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "", true, true);
	tb_container(&c, p, "", false, false);
	CHECK_EQ(score_req_of(&c, p, RES_CPU), 200);
	CHECK_EQ(score_req_of(&c, p, RES_MEMORY), 2 * 209715200LL);
	CHECK_EQ(req_of(&c, p, RES_CPU), 0);

	/* Explicit cpu 0 stays 0; missing memory gets 200Mi. */
	int q = tb_pod(&c, "q", "");
	tb_container(&c, q, "cpu=0", false, false);
	CHECK_EQ(score_req_of(&c, q, RES_CPU), 0);
	CHECK_EQ(score_req_of(&c, q, RES_MEMORY), 209715200);

	/* A plain init container lacking cpu counts 100m in the init max:
	 * main 50m; init (no requests) 100m -> max(50, 100) = 100; overhead
	 * 10m -> 110. */
	int r = tb_pod(&c, "r", "");
	tb_container(&c, r, "", true, false);
	tb_container(&c, r, "cpu=50m,memory=1Mi", false, false);
	c.pods[r].overhead = tb_reqs(&c, "cpu=10m");
	CHECK_EQ(score_req_of(&c, r, RES_CPU), 110);
	/* memory: max(1Mi, 200Mi) = 200Mi. */
	CHECK_EQ(score_req_of(&c, r, RES_MEMORY), 209715200);
	cluster_release(&c);
}

static void test_node_requested(void)
{
	struct cluster c;
	tb_init(&c);
	int n0 = tb_node(&c, "n0", "cpu=4,memory=8Gi,pods=10", "");
	tb_node(&c, "n1", "cpu=4,memory=8Gi,pods=10", "");
	/* On n0: a (1 cpu, 1Gi) and b (no requests); c is on n1; d pending. */
	int a = tb_pod(&c, "a", "n0");
	tb_container(&c, a, "cpu=1,memory=1Gi", false, false);
	int b = tb_pod(&c, "b", "n0");
	tb_container(&c, b, "", false, false);
	int d = tb_pod(&c, "c", "n1");
	tb_container(&c, d, "cpu=3", false, false);
	int e = tb_pod(&c, "d", "");
	tb_container(&c, e, "cpu=3", false, false);
	struct snapshot s;
	snapshot_init(&s, &c);
	int64_t requested[64], nzc, nzm;
	int pods;
	model_node_requested(NULL, &s, n0, requested, &nzc, &nzm, &pods);
	/* Requested: 1000m + 0 = 1000; 1Gi + 0.  NonZero: 1000 + 100 = 1100;
	 * 1Gi + 200Mi = 1073741824 + 209715200 = 1283457024.  2 pods. */
	CHECK_EQ(requested[RES_CPU], 1000);
	CHECK_EQ(requested[RES_MEMORY], 1073741824);
	CHECK_EQ(nzc, 1100);
	CHECK_EQ(nzm, 1283457024);
	CHECK_EQ(pods, 2);
	/* The placement decides: move d onto n0 -> 1000 + 3000 = 4000, 3 pods. */
	s.pod_node[e] = n0;
	model_node_requested(NULL, &s, n0, requested, NULL, NULL, &pods);
	CHECK_EQ(requested[RES_CPU], 4000);
	CHECK_EQ(pods, 3);
	snapshot_release(&s);
	cluster_release(&c);
}

/* core/same_requests.c and the table rows it lets model_pod_table_init
 * copy from the pod before. */
static void test_same_requests_rows(void)
{
	struct cluster c;
	tb_init(&c);
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=1,memory=1Gi", false, false);
	int q = tb_pod(&c, "q", "");
	tb_container(&c, q, "cpu=1,memory=1Gi", false, false);
	/* the same amount written 1000m: another quantity form, so not "the
	 * same" (the rule only promises equal rows for equal fields) */
	int r = tb_pod(&c, "r", "");
	tb_container(&c, r, "cpu=1000m,memory=1Gi", false, false);
	/* q's container again, plus a sidecar of 1 cpu: 2 cpu */
	int s = tb_pod(&c, "s", "");
	tb_container(&c, s, "cpu=1", true, true);
	tb_container(&c, s, "cpu=1,memory=1Gi", false, false);
	/* s's containers, but the init container is a plain one: max(1, 1) */
	int t = tb_pod(&c, "t", "");
	tb_container(&c, t, "cpu=1", true, false);
	tb_container(&c, t, "cpu=1,memory=1Gi", false, false);
	CHECK(pod_same_requests(&c.pods[p], &c.pods[q]));
	CHECK(!pod_same_requests(&c.pods[q], &c.pods[r]));
	CHECK(!pod_same_requests(&c.pods[q], &c.pods[s]));
	CHECK(!pod_same_requests(&c.pods[s], &c.pods[t]));
	struct model_pod_table tab;
	model_pod_table_init(&tab, &c);
	int64_t nzc, nzm;
	/* q copies p's row: 1000m, 1Gi; NonZero the same */
	CHECK_EQ(model_pod_table_get(&tab, q, &nzc, &nzm)[RES_CPU], 1000);
	CHECK_EQ(model_pod_table_get(&tab, q, NULL, NULL)[RES_MEMORY], 1073741824);
	CHECK_EQ(nzc, 1000);
	CHECK_EQ(nzm, 1073741824);
	/* s: main 1 + sidecar 1 = 2 cpu; t: max(main 1, init 1) = 1 cpu */
	CHECK_EQ(model_pod_table_get(&tab, s, NULL, NULL)[RES_CPU], 2000);
	CHECK_EQ(model_pod_table_get(&tab, t, NULL, NULL)[RES_CPU], 1000);
	model_pod_table_release(&tab);
	cluster_release(&c);
}

int main(void)
{
	test_init_max();
	test_sidecars();
	test_overhead_and_rounding();
	test_nonzero();
	test_nonzero_sidecar_quirk();
	test_nonzero_1_34();
	test_score_request();
	test_node_requested();
	test_same_requests_rows();
	return check_done("test_pod_requests");
}
