/*
 * test_feasibility.c - the driver's own logic (model/feasibility.c,
 * cycle.c, fit_error.c, queue.c): filter order and first failure, every
 * filter evaluated, the nominated-pods two passes, no scoring with one
 * feasible node, viable ties, FitError text, PrioritySort and the pending
 * pod rules.  Every expected value is derived by hand in the comment above
 * its check (reference §1-§2).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../model/cycle_state.h"
#include "../../model/model.h"
#include "../../yaml/load.h"
#include "build.h"

/* A cluster loaded from YAML text; aborts the test on a load error. */
/* cy's state (its PreFilter phase) in *st, built again after cy or its
 * placement changed: the previous one released first when live. */
static void state_for(struct model_cycle *cy, struct model_cycle_state *st,
		      bool live)
{
	if (live)
		model_cycle_state_release(st);
	model_cycle_state_init(st, cy, NULL);
	cy->state = st;
}

static int node(const struct cluster *c, const char *name)
{
	int n = cluster_find_node(c, name);
	if (n < 0) {
		fprintf(stderr, "no node %s\n", name);
		exit(1);
	}
	return n;
}

static int pod(const struct cluster *c, const char *name)
{
	int p = cluster_find_pod(c, "default", name);
	if (p < 0) {
		fprintf(stderr, "no pod %s\n", name);
		exit(1);
	}
	return p;
}

#define NODE(name, cpu, extra)                                             \
	"apiVersion: v1\nkind: Node\nmetadata:\n  name: " name "\n"        \
	"  labels: {kubernetes.io/hostname: " name "}\n" extra             \
	"status:\n  allocatable: {cpu: \"" cpu "\", memory: 8Gi, pods: \"110\"}\n---\n"

/* ------------------------------------------------ first failure, all run */

/*
 * n1: NoExecute taint k=v (TaintToleration: UAU), no disktype label
 *     (NodeAffinity: UAU), 1 cpu for a 2-cpu pod (NodeResourcesFit: U).
 *     Every one is evaluated; kube records TaintToleration, the first in
 *     Filter order, with its code UAU.
 * n2: only the cpu is short: rejected by NodeResourcesFit, Unschedulable.
 * n3: ssd, 4 cpu: feasible.
 */
static const char *const ALL_FAIL =
	NODE("n1", "1", "spec:\n  taints: [{key: k, value: v, effect: NoExecute}]\n")
	"apiVersion: v1\nkind: Node\nmetadata:\n  name: n2\n"
	"  labels: {kubernetes.io/hostname: n2, disktype: ssd}\n"
	"status:\n  allocatable: {cpu: \"1\", memory: 8Gi, pods: \"110\"}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata:\n  name: n3\n"
	"  labels: {kubernetes.io/hostname: n3, disktype: ssd}\n"
	"status:\n  allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
	"spec:\n  nodeSelector: {disktype: ssd}\n"
	"  containers:\n  - name: c\n    image: nginx\n"
	"    resources: {requests: {cpu: \"2\"}}\n";

static void test_first_failure_and_all_filters(void)
{
	struct cluster c;
	tb_load_yaml(&c, ALL_FAIL);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct model_cycle cy = {
		.cluster = &c, .profile = &c.config.profiles[0],
		.pod = pod(&c, "p"), .base = &s, .view = &s,
	};
	struct model_cycle_state st;
	state_for(&cy, &st, false);
	struct sched_node_verdict *v = malloc(sizeof *v);

	model_feasibility(&cy, node(&c, "n1"), v);
	CHECK(!v->feasible);
	CHECK_EQ(v->rejected_by, PLUGIN_TAINT_TOLERATION);
	CHECK_EQ(v->code, SCHED_UAU);
	CHECK(v->failed[PLUGIN_TAINT_TOLERATION]);
	CHECK(v->failed[PLUGIN_NODE_AFFINITY]);
	CHECK(v->failed[PLUGIN_NODE_RESOURCES_FIT]);
	CHECK(!v->failed[PLUGIN_NODE_UNSCHEDULABLE]);
	CHECK(!v->failed[PLUGIN_NODE_PORTS]);
	CHECK_STR(sched_status_reason(&v->status[PLUGIN_NODE_RESOURCES_FIT], 0),
		  "Insufficient cpu");

	model_feasibility(&cy, node(&c, "n2"), v);
	CHECK(!v->feasible);
	CHECK_EQ(v->rejected_by, PLUGIN_NODE_RESOURCES_FIT);
	CHECK_EQ(v->code, SCHED_UNSCHEDULABLE);
	CHECK(!v->failed[PLUGIN_TAINT_TOLERATION]);

	model_feasibility(&cy, node(&c, "n3"), v);
	CHECK(v->feasible);
	CHECK_EQ(v->rejected_by, -1);
	CHECK_EQ(v->code, SCHED_SUCCESS);

	/* With TaintToleration disabled the first failure on n1 is the next
	 * one in order: NodeAffinity. */
	struct sched_profile prof = c.config.profiles[0];
	prof.filter[PLUGIN_TAINT_TOLERATION] = false;
	cy.profile = &prof;
	state_for(&cy, &st, true);
	model_feasibility(&cy, node(&c, "n1"), v);
	CHECK_EQ(v->rejected_by, PLUGIN_NODE_AFFINITY);
	CHECK(!v->failed[PLUGIN_TAINT_TOLERATION]);
	CHECK(v->failed[PLUGIN_NODE_RESOURCES_FIT]);

	model_cycle_state_release(&st);
	free(v);
	snapshot_release(&s);
	cluster_release(&c);
}

/* The whole cycle on ALL_FAIL: only n3 is feasible, so it is chosen
 * without scoring (kube §1.3 step 7). */
static void test_one_feasible_not_scored(void)
{
	struct cluster c;
	tb_load_yaml(&c, ALL_FAIL);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, &c);
	model_schedule_cycle(&c.config.profiles[0], &s, pod(&c, "p"), &r);
	CHECK_EQ(r.code, SCHED_SUCCESS);
	CHECK_EQ(r.n_feasible, 1);
	CHECK(!r.scored);
	CHECK_EQ(r.n_viable, 1);
	CHECK_EQ(r.viable[0], node(&c, "n3"));
	CHECK_EQ(r.total[node(&c, "n3")], 0);
	CHECK(r.message == NULL);
	sched_cycle_result_release(&r);
	snapshot_release(&s);
	cluster_release(&c);
}

/* ------------------------------------------------------- FitError text */

/*
 * a: taint dedicated=gpu NoSchedule (4 cpu would fit) -> "node(s) had
 *    untolerated taint {dedicated: gpu}"; b, c: 1 cpu for 2 -> "Insufficient
 *    cpu".  Histogram strings "1 node(s) had ..." and "2 Insufficient cpu"
 *    sorted bytewise: '1' < '2'.
 */
static void test_fit_error_message(void)
{
	struct cluster c;
	tb_load_yaml(&c,
	     NODE("a", "4", "spec:\n  taints: [{key: dedicated, value: gpu, effect: NoSchedule}]\n")
	     NODE("b", "1", "")
	     NODE("c", "1", "")
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
	     "spec:\n  containers:\n  - name: c\n    image: nginx\n"
	     "    resources: {requests: {cpu: \"2\"}}\n");
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, &c);
	model_schedule_cycle(&c.config.profiles[0], &s, pod(&c, "p"), &r);
	CHECK_EQ(r.code, SCHED_UNSCHEDULABLE);
	CHECK_EQ(r.n_feasible, 0);
	CHECK_EQ(r.n_viable, 0);
	CHECK_STR(r.message, "0/3 nodes are available: 1 node(s) had untolerated "
			     "taint {dedicated: gpu}, 2 Insufficient cpu.");
	/* PostFilter's message follows after one space, no period added */
	char *m = model_fit_error(&r, "preemption: x");
	CHECK_STR(m, "0/3 nodes are available: 1 node(s) had untolerated "
		     "taint {dedicated: gpu}, 2 Insufficient cpu. preemption: x");
	free(m);
	sched_cycle_result_release(&r);
	snapshot_release(&s);
	cluster_release(&c);
}

/* 12 nodes short of cpu and 2 tainted: "12 Insufficient cpu" sorts before
 * "2 node(s) ..." because '1' < '2' (Go sort.Strings on the formatted
 * entries, not on the reasons). */
static void test_fit_error_sorts_formatted_strings(void)
{
	struct cluster c;
	tb_load_yaml(&c,
	     NODE("t1", "4", "spec:\n  taints: [{key: x, effect: NoSchedule}]\n")
	     NODE("t2", "4", "spec:\n  taints: [{key: x, effect: NoSchedule}]\n")
	     NODE("s01", "1", "") NODE("s02", "1", "") NODE("s03", "1", "")
	     NODE("s04", "1", "") NODE("s05", "1", "") NODE("s06", "1", "")
	     NODE("s07", "1", "") NODE("s08", "1", "") NODE("s09", "1", "")
	     NODE("s10", "1", "") NODE("s11", "1", "") NODE("s12", "1", "")
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
	     "spec:\n  containers:\n  - name: c\n    image: nginx\n"
	     "    resources: {requests: {cpu: \"2\"}}\n");
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, &c);
	model_schedule_cycle(&c.config.profiles[0], &s, pod(&c, "p"), &r);
	CHECK_STR(r.message, "0/14 nodes are available: 12 Insufficient cpu, "
			     "2 node(s) had untolerated taint {x: }.");
	sched_cycle_result_release(&r);
	snapshot_release(&s);
	cluster_release(&c);
}

/* 0 nodes: UnschedulableAndUnresolvable, kube's ErrNoNodesAvailable. */
static void test_no_nodes(void)
{
	struct cluster c;
	tb_load_yaml(&c, "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
		 "spec:\n  containers: [{name: c, image: nginx}]\n");
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, &c);
	model_schedule_cycle(&c.config.profiles[0], &s, pod(&c, "p"), &r);
	CHECK_EQ(r.code, SCHED_UAU);
	CHECK_EQ(r.n_viable, 0);
	CHECK_STR(r.message, "no nodes available to schedule pods");
	sched_cycle_result_release(&r);
	snapshot_release(&s);
	cluster_release(&c);
}

/* PreFilter: one term asking metadata.name In [a] AND In [b]: empty
 * intersection -> UAU "pod affinity terms conflict" on every node, no
 * Filter runs; the message is the PreFilter message, not a histogram. */
static void test_prefilter_rejects_every_node(void)
{
	struct cluster c;
	tb_load_yaml(&c, NODE("a", "4", "") NODE("b", "4", "")
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
	     "spec:\n  affinity:\n    nodeAffinity:\n"
	     "      requiredDuringSchedulingIgnoredDuringExecution:\n"
	     "        nodeSelectorTerms:\n        - matchFields:\n"
	     "          - {key: metadata.name, operator: In, values: [a]}\n"
	     "          - {key: metadata.name, operator: In, values: [b]}\n"
	     "  containers: [{name: c, image: nginx}]\n");
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, &c);
	model_schedule_cycle(&c.config.profiles[0], &s, pod(&c, "p"), &r);
	CHECK_EQ(r.code, SCHED_UNSCHEDULABLE);
	CHECK_EQ(r.prefilter.code, SCHED_UAU);
	for (int n = 0; n < 2; n++) {
		CHECK_EQ(r.verdicts[n].rejected_by, PLUGIN_NODE_AFFINITY);
		CHECK_EQ(r.verdicts[n].code, SCHED_UAU);
	}
	CHECK_STR(r.message, "0/2 nodes are available: pod affinity terms conflict.");
	sched_cycle_result_release(&r);
	snapshot_release(&s);
	cluster_release(&c);
}

/* PreFilterResult: metadata.name In [b] restricts the candidates to b; a
 * gets no verdict (kube records no status for it). */
static void test_prefilter_result_restricts(void)
{
	struct cluster c;
	tb_load_yaml(&c, NODE("a", "4", "") NODE("b", "4", "")
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
	     "spec:\n  affinity:\n    nodeAffinity:\n"
	     "      requiredDuringSchedulingIgnoredDuringExecution:\n"
	     "        nodeSelectorTerms:\n        - matchFields:\n"
	     "          - {key: metadata.name, operator: In, values: [b]}\n"
	     "  containers: [{name: c, image: nginx}]\n");
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, &c);
	model_schedule_cycle(&c.config.profiles[0], &s, pod(&c, "p"), &r);
	int a = node(&c, "a"), b = node(&c, "b");
	CHECK(!r.in_prefilter_result[a]);
	CHECK(r.in_prefilter_result[b]);
	CHECK_EQ(r.verdicts[a].rejected_by, -1);
	CHECK(!r.verdicts[a].feasible);
	CHECK_EQ(r.n_feasible, 1);
	CHECK_EQ(r.n_viable, 1);
	CHECK_EQ(r.viable[0], b);
	sched_cycle_result_release(&r);
	snapshot_release(&s);
	cluster_release(&c);
}

/* --------------------------------------------------------- nominated */

/*
 * big (priority 1000, 2 cpu) is pending and nominated to a (2 cpu).
 * small (priority 0, 1 cpu): pass 1 on a adds big: 2 + 1 > 2 -> Insufficient
 *   cpu (Unschedulable); pass 2 would pass; the node fails.
 * top (priority 2000, 1 cpu): big has lower priority -> no pass 1 -> fits.
 * big itself: q != pod -> fits on a; a feasible nominated node is chosen at
 *   once (kube §1.3 step 3) although b is feasible too.
 */
static const char *const NOMINATED =
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: high}\nvalue: 1000\n---\n"
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: higher}\nvalue: 2000\n---\n"
	NODE("a", "2", "") NODE("b", "4", "")
	"apiVersion: v1\nkind: Pod\nmetadata: {name: big, namespace: default}\n"
	"spec:\n  priorityClassName: high\n"
	"  containers:\n  - name: c\n    image: nginx\n"
	"    resources: {requests: {cpu: \"2\"}}\n"
	"status: {nominatedNodeName: a}\n---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: small, namespace: default}\n"
	"spec:\n  containers:\n  - name: c\n    image: nginx\n"
	"    resources: {requests: {cpu: \"1\"}}\n---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: top, namespace: default}\n"
	"spec:\n  priorityClassName: higher\n"
	"  containers:\n  - name: c\n    image: nginx\n"
	"    resources: {requests: {cpu: \"1\"}}\n";

static void test_nominated_pass_one(void)
{
	struct cluster c;
	tb_load_yaml(&c, NOMINATED);
	struct snapshot s;
	snapshot_init(&s, &c);
	int a = node(&c, "a"), b = node(&c, "b");
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, &c);

	model_schedule_cycle(&c.config.profiles[0], &s, pod(&c, "small"), &r);
	CHECK(!r.verdicts[a].feasible);
	CHECK_EQ(r.verdicts[a].rejected_by, PLUGIN_NODE_RESOURCES_FIT);
	CHECK_EQ(r.verdicts[a].code, SCHED_UNSCHEDULABLE);
	CHECK(r.verdicts[b].feasible);
	CHECK_EQ(r.n_viable, 1);
	CHECK_EQ(r.viable[0], b);
	CHECK(!r.scored);

	model_schedule_cycle(&c.config.profiles[0], &s, pod(&c, "top"), &r);
	CHECK(r.verdicts[a].feasible);
	CHECK_EQ(r.n_feasible, 2);
	CHECK(r.scored);

	model_schedule_cycle(&c.config.profiles[0], &s, pod(&c, "big"), &r);
	CHECK(r.verdicts[a].feasible);
	CHECK(r.verdicts[b].feasible);
	CHECK_EQ(r.nominated_node, a);
	CHECK(!r.scored);
	CHECK_EQ(r.n_viable, 1);
	CHECK_EQ(r.viable[0], a);

	/* A nominated pod that is bound already is not nominated any more:
	 * with big on b, small fits a (2 cpu, nothing there). */
	s.pod_node[pod(&c, "big")] = b;
	model_schedule_cycle(&c.config.profiles[0], &s, pod(&c, "small"), &r);
	CHECK(r.verdicts[a].feasible);

	sched_cycle_result_release(&r);
	snapshot_release(&s);
	cluster_release(&c);
}

/*
 * Pass 2 decides: p needs pod affinity to app=db on the same hostname; the
 * only db pod is pending and nominated to a (priority 0 >= 0).  Pass 1
 * (db counted on a) passes; pass 2 (no db pod anywhere, and p itself has
 * no app=db label so the first-pod exception does not apply) fails with
 * UAU "node(s) didn't match pod affinity rules" - the node is rejected by
 * InterPodAffinity.
 */
static void test_nominated_pass_two(void)
{
	struct cluster c;
	tb_load_yaml(&c, NODE("a", "4", "")
	     "apiVersion: v1\nkind: Pod\nmetadata:\n  name: db\n  namespace: default\n"
	     "  labels: {app: db}\n"
	     "spec:\n  containers: [{name: c, image: nginx}]\n"
	     "status: {nominatedNodeName: a}\n---\n"
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
	     "spec:\n  affinity:\n    podAffinity:\n"
	     "      requiredDuringSchedulingIgnoredDuringExecution:\n"
	     "      - topologyKey: kubernetes.io/hostname\n"
	     "        labelSelector: {matchLabels: {app: db}}\n"
	     "  containers: [{name: c, image: nginx}]\n");
	struct snapshot s;
	snapshot_init(&s, &c);
	struct model_cycle cy = {
		.cluster = &c, .profile = &c.config.profiles[0],
		.pod = pod(&c, "p"), .base = &s, .view = &s,
	};
	struct model_cycle_state st;
	state_for(&cy, &st, false);
	struct sched_node_verdict *v = malloc(sizeof *v);
	model_feasibility(&cy, node(&c, "a"), v);
	CHECK(!v->feasible);
	CHECK_EQ(v->rejected_by, PLUGIN_INTER_POD_AFFINITY);
	CHECK_EQ(v->code, SCHED_UAU);
	CHECK_STR(sched_status_reason(&v->status[PLUGIN_INTER_POD_AFFINITY], 0),
		  "node(s) didn't match pod affinity rules");

	/* bound on a, db satisfies the affinity in both passes */
	s.pod_node[pod(&c, "db")] = node(&c, "a");
	state_for(&cy, &st, true);
	model_feasibility(&cy, node(&c, "a"), v);
	CHECK(v->feasible);
	model_cycle_state_release(&st);
	free(v);
	snapshot_release(&s);
	cluster_release(&c);
}

/* ------------------------------------------------------------ ties */

/* a and b identical and empty, every plugin scores them equally: both are
 * viable with the same total; c (500m) is rejected by NodeResourcesFit. */
static void test_viable_ties(void)
{
	struct cluster c;
	tb_load_yaml(&c, NODE("a", "4", "") NODE("b", "4", "") NODE("c", "500m", "")
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
	     "spec:\n  containers:\n  - name: c\n    image: nginx\n"
	     "    resources: {requests: {cpu: \"1\"}}\n");
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, &c);
	model_schedule_cycle(&c.config.profiles[0], &s, pod(&c, "p"), &r);
	CHECK(r.scored);
	CHECK_EQ(r.n_feasible, 2);
	CHECK_EQ(r.n_viable, 2);
	CHECK_EQ(r.viable[0], node(&c, "a"));
	CHECK_EQ(r.viable[1], node(&c, "b"));
	CHECK_EQ(r.total[node(&c, "a")], r.total[node(&c, "b")]);
	/* TaintToleration: no PreferNoSchedule taints -> 100 x weight 3 */
	CHECK_EQ(r.scores[(size_t)node(&c, "a") * PLUGIN_COUNT +
			  PLUGIN_TAINT_TOLERATION], 300);
	CHECK_EQ(r.total[node(&c, "c")], 0);
	sched_cycle_result_release(&r);
	snapshot_release(&s);
	cluster_release(&c);
}

/* ------------------------------------------------------------ queue */

/*
 * x: priority 0;  y: 1000 created 2024-01-02;  z: 1000 created 2024-01-01;
 * w: 1000 without creationTimestamp (counts as newest);  g: 5000 gated;
 * o: 5000 for scheduler "other" (no such profile);  d: 5000 being deleted.
 * PrioritySort: z < y < w < x; next pod = z.
 */
static void test_queue(void)
{
	struct cluster c;
	tb_load_yaml(&c,
	     "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	     "metadata: {name: high}\nvalue: 1000\n---\n"
	     "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	     "metadata: {name: top}\nvalue: 5000\n---\n"
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: x, namespace: default,"
	     " creationTimestamp: \"2023-01-01T00:00:00Z\"}\n"
	     "spec:\n  containers: [{name: c, image: nginx}]\n---\n"
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: w, namespace: default}\n"
	     "spec:\n  priorityClassName: high\n  containers: [{name: c, image: nginx}]\n---\n"
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: y, namespace: default,"
	     " creationTimestamp: \"2024-01-02T00:00:00Z\"}\n"
	     "spec:\n  priorityClassName: high\n  containers: [{name: c, image: nginx}]\n---\n"
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: z, namespace: default,"
	     " creationTimestamp: \"2024-01-01T00:00:00Z\"}\n"
	     "spec:\n  priorityClassName: high\n  containers: [{name: c, image: nginx}]\n---\n"
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: g, namespace: default}\n"
	     "spec:\n  priorityClassName: top\n  schedulingGates: [{name: hold}]\n"
	     "  containers: [{name: c, image: nginx}]\n---\n"
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: o, namespace: default}\n"
	     "spec:\n  priorityClassName: top\n  schedulerName: other\n"
	     "  containers: [{name: c, image: nginx}]\n---\n"
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: d, namespace: default,"
	     " deletionTimestamp: \"2024-01-01T00:00:00Z\"}\n"
	     "spec:\n  priorityClassName: top\n  containers: [{name: c, image: nginx}]\n");
	int x = pod(&c, "x"), y = pod(&c, "y"), z = pod(&c, "z"), w = pod(&c, "w");
	CHECK(model_queue_less(&c, z, y));
	CHECK(!model_queue_less(&c, y, z));
	CHECK(model_queue_less(&c, y, w));
	CHECK(model_queue_less(&c, w, x));
	CHECK(!model_queue_less(&c, x, x));
	CHECK(model_profile_for(&c, x) == &c.config.profiles[0]);
	CHECK(model_profile_for(&c, pod(&c, "o")) == NULL);

	struct snapshot s;
	snapshot_init(&s, &c);
	CHECK_EQ(model_next_pod(&c.config, &s), z);
	/* binding z and y leaves w (no timestamp = newest of priority 1000) */
	s.pod_node[z] = SNAP_ELSEWHERE;
	s.pod_node[y] = SNAP_ELSEWHERE;
	CHECK_EQ(model_next_pod(&c.config, &s), w);
	s.pod_node[w] = SNAP_GONE;
	CHECK_EQ(model_next_pod(&c.config, &s), x);
	s.pod_node[x] = SNAP_ELSEWHERE;
	CHECK_EQ(model_next_pod(&c.config, &s), -1);
	snapshot_release(&s);
	cluster_release(&c);
}

int main(void)
{
	test_first_failure_and_all_filters();
	test_one_feasible_not_scored();
	test_fit_error_message();
	test_fit_error_sorts_formatted_strings();
	test_no_nodes();
	test_prefilter_rejects_every_node();
	test_prefilter_result_restricts();
	test_nominated_pass_one();
	test_nominated_pass_two();
	test_viable_ties();
	test_queue();
	return check_done("test_feasibility");
}
