/*
 * test_cycle_state.c - the cycle's state (model/cycle_state.c, kube's
 * CycleState), NodeInfo's cached requests (model_pod_table,
 * model/pod_requests.c) and the given inputs (struct model_given) against
 * the literal computations:
 *   - the table by hand, then against model_node_requested and a
 *     per-resource PodRequests written here straight from the definition,
 *     on random pods (init containers, sidecars, overhead, duplicate
 *     entries) and random placements;
 *   - every fixture under fixtures/ on pseudo-random placements: each
 *     filter, model_feasibility and the resource scores of a cycle whose
 *     state read given inputs (a model context, the pod-only
 *     PodTopologySpread part) equal the same with a state that built its
 *     own, also for cycles with deltas (a clone of the base state with
 *     RemovePod, after the base state served a delta-free cycle) as
 *     preemption makes them; and model_feasibility_of on a subset of the
 *     filters equal to the full verdict on that subset;
 *   - the capacity invariant reading a model context
 *     (model_scheduler.ctx) against the same without it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "check.h"
#include "xorshift.h"
#include "fixture_walk.h"

#include "../../model/context.h"
#include "../../model/cycle_state.h"
#include "../../model/model.h"
#include "../../model/pod_requests.h"
#include "../../model/scheduler.h"
#include "../../yaml/load.h"

/* ------------------------------------------------- literal PodRequests */

static struct quantity lit_add(struct quantity a, struct quantity b)
{
	struct quantity r;
	if (quantity_add(a, b, &r) != 0)
		return (struct quantity){INT64_MAX, 0, QUANTITY_FORM_DEC};
	return r;
}

static struct quantity lit_max(struct quantity a, struct quantity b)
{
	return quantity_cmp(a, b) >= 0 ? a : b;
}

static struct quantity lit_container(const struct container *k, int res,
				     bool defaults)
{
	bool found;
	struct quantity q = resource_list_get(&k->requests, res, &found);
	if (!found && defaults && res == RES_CPU)
		q = (struct quantity){0, 100000000, QUANTITY_FORM_DEC};
	if (!found && defaults && res == RES_MEMORY)
		q = (struct quantity){209715200, 0, QUANTITY_FORM_DEC};
	return q;
}

/* PodRequests(Pod)[r] as pod_requests.h defines it, one resource at a
 * time: max(Σ main + Σ sidecars, max_i Use(i)) + overhead, converted. */
static int64_t lit_request(const struct pod *p, int res, bool defaults)
{
	struct quantity sum = {0, 0, QUANTITY_FORM_DEC}, side = {0, 0, QUANTITY_FORM_DEC}, init_max = {0, 0, QUANTITY_FORM_DEC};
	for (int i = 0; i < p->n_containers; i++)
		sum = lit_add(sum, lit_container(&p->containers[i], res, defaults));
	for (int i = 0; i < p->n_init_containers; i++) {
		const struct container *k = &p->init_containers[i];
		struct quantity q = lit_container(k, res, defaults), use;
		if (k->restart_always) {
			sum = lit_add(sum, q);
			side = lit_add(side, q);
			use = side;
		} else {
			use = lit_add(q, side);
		}
		init_max = lit_max(init_max, use);
	}
	struct quantity total = lit_max(sum, init_max);
	bool found;
	struct quantity over = resource_list_get(&p->overhead, res, &found);
	if (found)
		total = lit_add(total, over);
	int64_t v;
	int rc = res == RES_CPU ? quantity_milli(total, &v) : quantity_value(total, &v);
	return rc == 0 ? v : INT64_MAX;
}

/* ------------------------------------------------------- by hand */

/*
 * n0 holds a (main 1 cpu + 1Gi; init 3 cpu) and b (sidecar 250m, main
 * 500m, overhead 100m), n1 holds c (no requests), d is pending.
 *   a: cpu max(1000, 3000) = 3000m; memory 1Gi.
 *   b: cpu Σ = 500 + 250 = 750, init max = 250 -> 750 + 100 = 850m.
 *   n0: requested cpu 3000 + 850 = 3850, memory 1073741824; 2 pods.
 *   NonZero cpu: a: max(S = 1000, I = 3000) = 3000; b: S = 500 (the
 *   sidecar is not in S), I = 250 -> 500, + overhead 100 = 600; n0 3600.
 *   NonZero memory: a 1Gi (explicit); b: S = 200Mi (main lacks memory),
 *   I = 200Mi -> 200Mi; n0 1073741824 + 209715200 = 1283457024.
 *   n1: c only: requested 0, NonZero 100m / 200Mi, 1 pod.
 */
static void test_table_by_hand(void)
{
	struct cluster c;
	tb_init(&c);
	tb_node(&c, "n0", "cpu=8,memory=16Gi,pods=10", "");
	tb_node(&c, "n1", "cpu=8,memory=16Gi,pods=10", "");
	int a = tb_pod(&c, "a", "n0");
	tb_container(&c, a, "cpu=1,memory=1Gi", false, false);
	tb_container(&c, a, "cpu=3", true, false);
	int b = tb_pod(&c, "b", "n0");
	tb_container(&c, b, "cpu=250m", true, true);
	tb_container(&c, b, "cpu=500m", false, false);
	c.pods[b].overhead = tb_reqs(&c, "cpu=100m");
	int cc = tb_pod(&c, "c", "n1");
	tb_container(&c, cc, "", false, false);
	int d = tb_pod(&c, "d", "");
	tb_container(&c, d, "cpu=2", false, false);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct model_pod_table t;
	model_pod_table_init(&t, &c);
	int64_t nzc, nzm, req[64];
	int pods;
	CHECK_EQ(model_pod_table_get(&t, a, NULL, NULL)[RES_CPU], 3000);
	CHECK_EQ(model_pod_table_get(&t, a, NULL, NULL)[RES_MEMORY], 1073741824);
	CHECK_EQ(model_pod_table_get(&t, b, NULL, NULL)[RES_CPU], 850);
	CHECK_EQ(model_pod_table_get(&t, d, &nzc, NULL)[RES_CPU], 2000);
	CHECK_EQ(nzc, 2000);
	/* ScoreRequest: cc requests nothing, so 100m cpu and 200Mi memory;
	 * a asks 3 cpu of its own */
	int64_t score[64];
	model_pod_score_request(&c, &c.pods[cc], score);
	CHECK_EQ(score[RES_CPU], 100);
	CHECK_EQ(score[RES_MEMORY], 209715200);
	model_pod_score_request(&c, &c.pods[a], score);
	CHECK_EQ(score[RES_CPU], 3000);
	model_node_requested(&t, &s, 0, req, &nzc, &nzm, &pods);
	CHECK_EQ(req[RES_CPU], 3850);
	CHECK_EQ(req[RES_MEMORY], 1073741824);
	CHECK_EQ(nzc, 3600);
	CHECK_EQ(nzm, 1283457024);
	CHECK_EQ(pods, 2);
	model_node_requested(&t, &s, 1, req, &nzc, &nzm, &pods);
	CHECK_EQ(req[RES_CPU], 0);
	CHECK_EQ(nzc, 100);
	CHECK_EQ(nzm, 209715200);
	CHECK_EQ(pods, 1);
	/* the table follows the placement it is asked about: d joins n1 */
	s.pod_node[d] = 1;
	model_node_requested(&t, &s, 1, req, &nzc, NULL, &pods);
	CHECK_EQ(req[RES_CPU], 2000);
	CHECK_EQ(nzc, 2100);
	CHECK_EQ(pods, 2);
	model_pod_table_release(&t);
	snapshot_release(&s);
	cluster_release(&c);
}

/* ---------------------------------------------------------- random */

static const char *const random_lists[] = {
	"", "cpu=1", "cpu=250m", "memory=1Gi", "cpu=100m,memory=128Mi",
	"cpu=0", "memory=0", "cpu=1500m,example.com/gpu=1",
	"cpu=1,cpu=2",   /* a duplicate: the first entry counts */
	"ephemeral-storage=1Gi,cpu=333m", "example.com/gpu=2,memory=1",
	"hugepages-2Mi=4Mi", "cpu=0.0001",
};
#define N_LISTS ((int)(sizeof random_lists / sizeof *random_lists))

static void random_pod(struct cluster *c, int p, uint64_t *s)
{
	int n = 1 + tb_below(s, 3);
	for (int i = 0; i < n; i++)
		tb_container(c, p, random_lists[tb_below(s, N_LISTS)], false, false);
	int init = tb_below(s, 4);
	for (int i = 0; i < init; i++)
		tb_container(c, p, random_lists[tb_below(s, N_LISTS)], true,
			     tb_below(s, 2) == 0);
	if (tb_below(s, 3) == 0)
		c->pods[p].overhead = tb_reqs(c, random_lists[tb_below(s, N_LISTS)]);
}

/* model_pod_requests / model_pod_score_request against the literal
 * definition, and the pod table against model_pod_requests,
 * model_pod_nonzero and model_node_requested, on random clusters and
 * placements. */
static void test_table_random(void)
{
	static const char *const names[] = {"p0", "p1", "p2", "p3", "p4", "p5",
					    "p6", "p7", "p8", "p9"};
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int mismatches = 0;
	for (int round = 0; round < 200; round++) {
		struct cluster c;
		tb_init(&c);
		int n_nodes = 1 + tb_below(&seed, 4);
		static const char *const node_names[] = {"n0", "n1", "n2", "n3"};
		for (int n = 0; n < n_nodes; n++)
			tb_node(&c, node_names[n], "cpu=4,memory=8Gi,pods=10", "");
		int n_pods = 1 + tb_below(&seed, 10);
		for (int p = 0; p < n_pods; p++)
			random_pod(&c, tb_pod(&c, names[p], ""), &seed);
		struct snapshot s;
		snapshot_init(&s, &c);
		for (int p = 0; p < n_pods; p++)
			s.pod_node[p] = tb_below(&seed, n_nodes + 2) - 2;   /* -2, -1 or a node */
		int64_t got[64], want[64];
		assert(c.n_res <= 64);
		for (int p = 0; p < n_pods; p++) {
			for (int pass = 0; pass < 2; pass++) {
				if (pass)
					model_pod_score_request(&c, &c.pods[p], got);
				else
					model_pod_requests(&c, &c.pods[p], got);
				for (int r = 0; r < c.n_res; r++)
					mismatches += got[r] != lit_request(&c.pods[p], r, pass);
			}
		}
		struct model_pod_table t;
		model_pod_table_init(&t, &c);
		for (int p = n_pods - 1; p >= 0; p--) {
			int64_t cpu, mem, tc, tm;
			model_pod_requests(&c, &c.pods[p], want);
			model_pod_nonzero(&c, &c.pods[p], &cpu, &mem);
			const int64_t *row = model_pod_table_get(&t, p, &tc, &tm);
			for (int r = 0; r < c.n_res; r++)
				mismatches += row[r] != want[r];
			mismatches += tc != cpu;
			mismatches += tm != mem;
		}
		for (int n = 0; n < n_nodes; n++) {
			int64_t nzc, nzm, tc, tm;
			int pods, tp;
			model_node_requested(NULL, &s, n, want, &nzc, &nzm, &pods);
			model_node_requested(&t, &s, n, got, &tc, &tm, &tp);
			for (int r = 0; r < c.n_res; r++)
				mismatches += got[r] != want[r];
			mismatches += tc != nzc;
			mismatches += tm != nzm;
			mismatches += tp != pods;
		}
		model_pod_table_release(&t);
		snapshot_release(&s);
		cluster_release(&c);
	}
	CHECK_EQ(mismatches, 0);
}

/* ------------------------------------------------------ fixtures */

static bool verdict_eq(const struct sched_node_verdict *a,
		       const struct sched_node_verdict *b)
{
	if (a->feasible != b->feasible || a->code != b->code ||
	    a->rejected_by != b->rejected_by)
		return false;
	if (memcmp(a->failed, b->failed, sizeof a->failed))
		return false;
	for (int p = 0; p < PLUGIN_FILTERS; p++)
		if (!tb_status_eq(&a->status[p], &b->status[p]))
			return false;
	return true;
}

/* model_feasibility_of(cy, node, only) against the full verdict full:
 * every filter in only[] has full's verdict, every other reads passed. */
static bool subset_eq(const struct model_cycle *cy, int node, const bool *only,
		      const struct sched_node_verdict *full)
{
	static struct sched_node_verdict v;
	model_feasibility_of(cy, node, only, &v);
	for (int i = 0; i < MODEL_N_FILTERS; i++) {
		int id = model_filter_ids[i];
		bool want = only[id] && full->failed[id];
		if (v.failed[id] != want ||
		    (want && !tb_status_eq(&v.status[id], &full->status[id])))
			return false;
	}
	return true;
}

static int state_cycles, state_differences, subset_checks;

/* One pod on placement s: every filter, Feasibility and the resource
 * scores of a cycle whose state read the given inputs against the same
 * cycle whose state built its own. */
static void compare_pod(const struct cluster *c, const struct snapshot *s,
			int pod, const char *path,
			struct model_context *lent)
{
	const struct sched_profile *prof = model_profile_for(c, pod);
	if (!prof)
		return;
	struct model_cycle own = {
		.cluster = c, .profile = prof, .pod = pod, .base = s, .view = s,
	};
	struct model_cycle with = own;
	struct model_cycle_state own_state, given_state;
	model_cycle_state_init(&own_state, &own, NULL);
	own.state = &own_state;
	struct model_spread_static *sp = model_spread_static_new(c, prof, pod);
	const struct model_given given = {.ctx = lent, .spread = sp};
	model_cycle_state_init(&given_state, &with, &given);
	with.state = &given_state;
	static struct sched_node_verdict va, vb;
	int *all = malloc(sizeof *all * (size_t)(c->n_nodes + 1));
	int64_t *sa = malloc(sizeof *sa * (size_t)(c->n_nodes + 1));
	int64_t *sb = malloc(sizeof *sb * (size_t)(c->n_nodes + 1));
	bool differs = false;
	for (int n = 0; n < c->n_nodes; n++) {
		all[n] = n;
		struct sched_status a, b;
		model_filter_pod_topology_spread(&with, n, &a);
		model_filter_pod_topology_spread(&own, n, &b);
		differs = differs || !tb_status_eq(&a, &b);
		model_filter_node_resources_fit(&with, n, &a);
		model_filter_node_resources_fit(&own, n, &b);
		differs = differs || !tb_status_eq(&a, &b);
		model_filter_inter_pod_affinity(&with, n, &a);
		model_filter_inter_pod_affinity(&own, n, &b);
		differs = differs || !tb_status_eq(&a, &b);
		model_feasibility(&with, n, &va);
		model_feasibility(&own, n, &vb);
		differs = differs || !verdict_eq(&va, &vb);
		/* a different subset of the filters for every (pod, node) */
		bool only[PLUGIN_COUNT] = {0};
		for (int i = 0; i < MODEL_N_FILTERS; i++)
			only[model_filter_ids[i]] = ((pod + n + i) % 3) != 0;
		differs = differs || !subset_eq(&own, n, only, &vb);
		subset_checks++;
	}
	struct sched_status ea, eb;
	enum sched_code ca = model_score_node_resources_fit(&with, all, c->n_nodes, sa, &ea);
	enum sched_code cb = model_score_node_resources_fit(&own, all, c->n_nodes, sb, &eb);
	differs = differs || ca != cb || memcmp(sa, sb, sizeof *sa * (size_t)c->n_nodes);
	ca = model_score_balanced_allocation(&with, all, c->n_nodes, sa, &ea);
	cb = model_score_balanced_allocation(&own, all, c->n_nodes, sb, &eb);
	differs = differs || ca != cb || memcmp(sa, sb, sizeof *sa * (size_t)c->n_nodes);
	if (differs && state_differences++ == 0)
		fprintf(stderr, "given state differs: %s pod %s/%s\n", path,
			c->pods[pod].ns, c->pods[pod].name);
	state_cycles++;
	free(all);
	free(sa);
	free(sb);
	model_cycle_state_release(&own_state);
	model_cycle_state_release(&given_state);
	model_spread_static_free(sp);
}

static int capacity_checks, capacity_breaches;

/* The step invariants of binding pod to each node of s (placed alone),
 * reading a pod table and not: the same breaches, word for word. */
static void compare_capacity(const struct cluster *c, const struct snapshot *s,
			     int pod, struct model_context *lent)
{
	bool *placed = calloc((size_t)c->n_pods + 1, sizeof *placed);
	bool *waiting = calloc((size_t)c->n_pods + 1, sizeof *waiting);
	placed[pod] = true;
	for (int n = 0; n < c->n_nodes; n++) {
		struct model_scheduler m[2];
		struct model_step st = {.pod = pod, .action = MODEL_STEP_BIND, .node = n};
		for (int k = 0; k < 2; k++) {
			memset(&m[k], 0, sizeof m[k]);
			m[k].cluster = c;
			snapshot_clone(&m[k].snap, s);
			m[k].snap.pod_node[pod] = n;
			m[k].placed = placed;
			m[k].waiting = waiting;
			m[k].steps = 1;
			m[k].ctx = k ? lent : NULL;
			model_invariants_check_step(&m[k], s, &st);
		}
		for (int i = 0; i < MODEL_INV_COUNT; i++)
			if (m[0].inv.broken[i] != m[1].inv.broken[i] ||
			    strcmp(m[0].inv.detail[i], m[1].inv.detail[i]) != 0)
				state_differences++;
		capacity_breaches += m[0].inv.broken[MODEL_INV_CAPACITY];
		capacity_checks++;
		for (int k = 0; k < 2; k++) {
			snapshot_release(&m[k].snap);
			model_invariants_release(&m[k].inv);
		}
	}
	free(placed);
	free(waiting);
}

/* A cycle with deltas (the first bound pod removed from its node): its
 * state a clone of the base state with RemovePod, after the base state
 * served a delta-free cycle, against a state built for the cycle with
 * its deltas: every verdict the same (the clone is the view's, not
 * base's). */
static void compare_deltas(const struct cluster *c, const struct snapshot *s,
			   int pod)
{
	const struct sched_profile *prof = model_profile_for(c, pod);
	int q = 0;
	while (q < c->n_pods && (q == pod || s->pod_node[q] < 0))
		q++;
	if (!prof || q == c->n_pods)
		return;
	struct snapshot view;
	snapshot_clone(&view, s);
	struct model_delta d = {.pod = q, .node = s->pod_node[q], .sign = -1};
	view.pod_node[q] = SNAP_GONE;
	struct model_cycle built = {
		.cluster = c, .profile = prof, .pod = pod, .base = s,
		.view = &view, .deltas = &d, .n_deltas = 1,
	};
	struct model_cycle_state built_state;
	model_cycle_state_init(&built_state, &built, NULL);
	built.state = &built_state;
	/* the base state serves a delta-free cycle first */
	struct model_cycle fill = built;
	fill.view = s;
	fill.deltas = NULL;
	fill.n_deltas = 0;
	struct model_cycle_state base_state, clone;
	model_cycle_state_init(&base_state, &fill, NULL);
	fill.state = &base_state;
	model_cycle_state_clone(&clone, &base_state);
	model_cycle_state_remove_pod(&clone, d.pod, d.node);
	struct model_cycle with = built;
	with.state = &clone;
	static struct sched_node_verdict va, vb;
	bool differs = false;
	for (int n = 0; n < c->n_nodes; n++) {
		model_feasibility(&fill, n, &va);
		model_feasibility(&with, n, &va);
		model_feasibility(&built, n, &vb);
		differs = differs || !verdict_eq(&va, &vb);
	}
	if (differs)
		state_differences++;
	model_cycle_state_release(&clone);
	model_cycle_state_release(&base_state);
	model_cycle_state_release(&built_state);
	snapshot_release(&view);
}

static void state_fixture(const char *path)
{
	struct cluster c;
	if (!fixture_load(path, &c))
		return;
	if (c.n_nodes == 0) {
		cluster_release(&c);
		return;
	}
	struct snapshot s;
	snapshot_init(&s, &c);
	struct model_context lent;
	model_context_init(&lent, &c);
	uint64_t seed = 0x2545f4914f6cdd1dull ^ (uint64_t)c.n_pods;
	for (int round = 0; round < 4; round++) {
		/* round 0: the manifests' placement; then random ones */
		if (round > 0)
			for (int p = 0; p < c.n_pods; p++)
				s.pod_node[p] = tb_below(&seed, c.n_nodes + 1) - 1;
		for (int p = 0; p < c.n_pods; p++) {
			int32_t was = s.pod_node[p];
			s.pod_node[p] = SNAP_PENDING;
			compare_pod(&c, &s, p, path, &lent);
			compare_deltas(&c, &s, p);
			if (model_profile_for(&c, p))
				compare_capacity(&c, &s, p, &lent);
			s.pod_node[p] = was;
		}
	}
	model_context_release(&lent);
	snapshot_release(&s);
	cluster_release(&c);
}

int main(void)
{
	test_table_by_hand();
	test_table_random();
	const char *root = getenv("KSO_FIXTURES");
	fixture_walk(root ? root : "fixtures", fixture_is_scenario, state_fixture);
	printf("test_cycle_state: %d given states compared, %d capacity checks "
	       "(%d breached), %d filter subsets\n", state_cycles, capacity_checks,
	       capacity_breaches, subset_checks);
	CHECK(state_cycles > 100);
	CHECK(subset_checks > 100);
	CHECK(capacity_breaches > 0);
	CHECK_EQ(state_differences, 0);
	return check_done("test_cycle_state");
}
