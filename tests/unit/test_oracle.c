/*
 * test_oracle.c - the oracle (oracle/) against hand-derived answers and,
 * above all, against the model: for every fixture under fixtures/ and
 * every pending pod, oracle_explain_cycle (all-nodes mode) must fill the
 * same struct sched_cycle_result as model_schedule_cycle, field by field.
 * The first difference of each fixture is printed and counted as a
 * failure.
 */
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "check.h"
#include "fixture_walk.h"
#include "../../model/model.h"
#include "../../oracle/oracle.h"
#include "../../yaml/load.h"

/* ------------------------------------------------------------ comparing */

static void status_str(const struct sched_status *s, char *buf, size_t len)
{
	int w = snprintf(buf, len, "code %d", s->code);
	for (int i = 0; i < s->n_reasons && w > 0 && (size_t)w < len; i++)
		w += snprintf(buf + w, len - (size_t)w, " [%s]", sched_status_reason(s, i));
}

/* The first field where the results differ, written into why; false when
 * they are identical. a is the model's, b the oracle's. */
static bool result_diff(const struct cluster *c, const struct sched_cycle_result *a,
			const struct sched_cycle_result *b, char *why, size_t len)
{
	char sa[600], sb[600];
#define DIFF(...) do { snprintf(why, len, __VA_ARGS__); return true; } while (0)
	if (a->code != b->code)
		DIFF("code: model %d, oracle %d", a->code, b->code);
	if (!tb_status_eq(&a->prefilter, &b->prefilter)) {
		status_str(&a->prefilter, sa, sizeof sa);
		status_str(&b->prefilter, sb, sizeof sb);
		DIFF("prefilter: model %s, oracle %s", sa, sb);
	}
	for (int n = 0; n < c->n_nodes; n++) {
		const struct sched_node_verdict *x = &a->verdicts[n], *y = &b->verdicts[n];
		const char *name = c->nodes[n].name;
		if (a->in_prefilter_result[n] != b->in_prefilter_result[n])
			DIFF("node %s in_prefilter_result: model %d, oracle %d", name,
			     a->in_prefilter_result[n], b->in_prefilter_result[n]);
		if (x->feasible != y->feasible)
			DIFF("node %s feasible: model %d, oracle %d", name, x->feasible, y->feasible);
		if (x->code != y->code)
			DIFF("node %s code: model %d, oracle %d", name, x->code, y->code);
		if (x->rejected_by != y->rejected_by)
			DIFF("node %s rejected_by: model %d, oracle %d", name,
			     x->rejected_by, y->rejected_by);
		for (int p = 0; p < PLUGIN_COUNT; p++) {
			if (x->failed[p] != y->failed[p])
				DIFF("node %s failed[%s]: model %d, oracle %d", name,
				     config_plugin_name(p), x->failed[p], y->failed[p]);
			/* a passing filter's status may be Success or Skip (the
			 * model writes Skip for a PreFilter-skipped plugin only in
			 * the nominated pass); explain prints only failures */
			if (!x->failed[p] && !y->failed[p])
				continue;
			if (!tb_status_eq(&x->status[p], &y->status[p])) {
				status_str(&x->status[p], sa, sizeof sa);
				status_str(&y->status[p], sb, sizeof sb);
				DIFF("node %s status[%s]: model %s, oracle %s", name,
				     config_plugin_name(p), sa, sb);
			}
		}
	}
	if (a->n_feasible != b->n_feasible)
		DIFF("n_feasible: model %d, oracle %d", a->n_feasible, b->n_feasible);
	for (int i = 0; i < a->n_feasible; i++)
		if (a->feasible[i] != b->feasible[i])
			DIFF("feasible[%d]: model %d, oracle %d", i, a->feasible[i], b->feasible[i]);
	if (a->scored != b->scored)
		DIFF("scored: model %d, oracle %d", a->scored, b->scored);
	for (int p = 0; p < PLUGIN_COUNT; p++)
		if (a->score_skipped[p] != b->score_skipped[p])
			DIFF("score_skipped[%s]: model %d, oracle %d", config_plugin_name(p),
			     a->score_skipped[p], b->score_skipped[p]);
	for (int n = 0; n < c->n_nodes; n++) {
		for (int p = 0; p < PLUGIN_COUNT; p++) {
			int64_t x = a->scores[(size_t)n * PLUGIN_COUNT + (size_t)p];
			int64_t y = b->scores[(size_t)n * PLUGIN_COUNT + (size_t)p];
			if (x != y)
				DIFF("node %s score[%s]: model %lld, oracle %lld",
				     c->nodes[n].name, config_plugin_name(p),
				     (long long)x, (long long)y);
		}
		if (a->total[n] != b->total[n])
			DIFF("node %s total: model %lld, oracle %lld", c->nodes[n].name,
			     (long long)a->total[n], (long long)b->total[n]);
	}
	if (a->n_viable != b->n_viable)
		DIFF("n_viable: model %d, oracle %d", a->n_viable, b->n_viable);
	for (int i = 0; i < a->n_viable; i++)
		if (a->viable[i] != b->viable[i])
			DIFF("viable[%d]: model %d, oracle %d", i, a->viable[i], b->viable[i]);
	if (!tb_status_eq(&a->error, &b->error)) {
		status_str(&a->error, sa, sizeof sa);
		status_str(&b->error, sb, sizeof sb);
		DIFF("error: model %s, oracle %s", sa, sb);
	}
	if ((a->message == NULL) != (b->message == NULL) ||
	    (a->message && strcmp(a->message, b->message) != 0))
		DIFF("message: model \"%s\", oracle \"%s\"", a->message ? a->message : "(null)",
		     b->message ? b->message : "(null)");
	if (a->nominated_node != b->nominated_node)
		DIFF("nominated_node: model %d, oracle %d", a->nominated_node, b->nominated_node);
#undef DIFF
	return false;
}


/* ------------------------------------------------------- hand-derived */

#include "../../oracle/internal.h"

/* One explain-mode cycle of pod name into r (initialised here). */
static void explain(struct cluster *c, const char *name, struct sched_cycle_result *r)
{
	struct snapshot s;
	snapshot_init(&s, c);
	sched_cycle_result_init(r, c);
	int p = tb_pod_ix(c, name);
	oracle_explain_cycle(model_profile_for(c, p), &s, p, r);
	snapshot_release(&s);
}

#define NODE(name, cpu, labels, extra)                                     \
	"apiVersion: v1\nkind: Node\nmetadata:\n  name: " name "\n"        \
	"  labels: {kubernetes.io/hostname: " name labels "}\n" extra      \
	"status:\n  allocatable: {cpu: \"" cpu "\", memory: 8Gi, pods: \"110\"}\n---\n"
#define POD(name, labels, node, cpu, mem, extra)                           \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name ", labels: {" labels "}}\n" \
	"spec:\n  nodeName: \"" node "\"\n" extra                          \
	"  containers:\n  - name: c\n    image: nginx\n"                   \
	"    resources: {requests: {cpu: \"" cpu "\", memory: " mem "}}\n---\n"

/*
 * n1 (4 cpu, 8Gi) runs e1 (1 cpu, 2Gi); n2 (4 cpu) is empty; n3 has
 * 500m.  p asks 1 cpu, 2Gi.
 * Filter: n3: 1000m > 500m - 0 -> "Insufficient cpu", Unschedulable.
 * Scores on {n1, n2} (§2.4, §2.7, §2.8, §2.9):
 *   TaintToleration: no taints, max 0 -> 100 each, x3 = 300.
 *   NodeAffinity: no preferred terms -> Skip.  PodTopologySpread: no
 *   Service/controller -> empty default selector -> Skip.
 *   InterPodAffinity: no terms anywhere -> no entry -> Skip.
 *   NodeResourcesFit (LeastAllocated): n1 cpu (4000-2000)*100/4000 = 50,
 *   mem (8Gi-4Gi)*100/8Gi = 50 -> 50; n2 cpu 3000*100/4000 = 75, mem 75
 *   -> 75.  BalancedAllocation: equal fractions -> std 0 -> 100.
 *   ImageLocality: no node lists nginx -> sum clamps to minT -> 0.
 *   Totals: n1 300+50+100 = 450, n2 300+75+100 = 475 -> viable {n2}.
 * p2 asks 8 cpu and 10Gi: every node lacks both; histogram "3 Insufficient
 * cpu", "3 Insufficient memory" sorted as strings.
 */
static void test_fit_and_scores(void)
{
	struct cluster c;
	tb_load_yaml(&c, NODE("n1", "4", "", "") NODE("n2", "4", "", "") NODE("n3", "500m", "", "")
		 POD("e1", "", "n1", "1", "2Gi", "") POD("p", "", "", "1", "2Gi", "")
		 POD("p2", "", "", "8", "10Gi", ""));
	struct sched_cycle_result r;
	explain(&c, "p", &r);
	CHECK_EQ(r.n_feasible, 2);
	CHECK_EQ(r.verdicts[2].rejected_by, PLUGIN_NODE_RESOURCES_FIT);
	CHECK_EQ(r.verdicts[2].code, SCHED_UNSCHEDULABLE);
	CHECK_STR(sched_status_reason(&r.verdicts[2].status[PLUGIN_NODE_RESOURCES_FIT], 0), "Insufficient cpu");
	CHECK(r.score_skipped[PLUGIN_NODE_AFFINITY]);
	CHECK(r.score_skipped[PLUGIN_POD_TOPOLOGY_SPREAD]);
	CHECK(r.score_skipped[PLUGIN_INTER_POD_AFFINITY]);
	CHECK_EQ(r.scores[0 * PLUGIN_COUNT + PLUGIN_TAINT_TOLERATION], 300);
	CHECK_EQ(r.scores[0 * PLUGIN_COUNT + PLUGIN_NODE_RESOURCES_FIT], 50);
	CHECK_EQ(r.scores[1 * PLUGIN_COUNT + PLUGIN_NODE_RESOURCES_FIT], 75);
	CHECK_EQ(r.scores[1 * PLUGIN_COUNT + PLUGIN_BALANCED_ALLOCATION], 100);
	CHECK_EQ(r.scores[1 * PLUGIN_COUNT + PLUGIN_IMAGE_LOCALITY], 0);
	CHECK_EQ(r.total[0], 450);
	CHECK_EQ(r.total[1], 475);
	CHECK_EQ(r.n_viable, 1);
	CHECK_EQ(r.viable[0], 1);
	sched_cycle_result_release(&r);

	explain(&c, "p2", &r);
	CHECK_EQ(r.code, SCHED_UNSCHEDULABLE);
	CHECK_STR(r.message, "0/3 nodes are available: 3 Insufficient cpu, 3 Insufficient memory.");
	sched_cycle_result_release(&r);
	cluster_release(&c);
}

/*
 * PreferNoSchedule taints: n1 has two untolerated, n2 one, n3 none.
 * Raw 2, 1, 0; reverse normalize with max 2: 100-100*2/2 = 0,
 * 100-100*1/2 = 50, 100; weight 3 -> 0, 150, 300.
 */
static void test_taint_score(void)
{
	struct cluster c;
	tb_load_yaml(&c, NODE("n1", "4", "", "spec:\n  taints: [{key: a, effect: PreferNoSchedule}, {key: b, effect: PreferNoSchedule}]\n")
		 NODE("n2", "4", "", "spec:\n  taints: [{key: a, effect: PreferNoSchedule}]\n")
		 NODE("n3", "4", "", "") POD("p", "", "", "1", "1Gi", ""));
	struct sched_cycle_result r;
	explain(&c, "p", &r);
	CHECK_EQ(r.scores[0 * PLUGIN_COUNT + PLUGIN_TAINT_TOLERATION], 0);
	CHECK_EQ(r.scores[1 * PLUGIN_COUNT + PLUGIN_TAINT_TOLERATION], 150);
	CHECK_EQ(r.scores[2 * PLUGIN_COUNT + PLUGIN_TAINT_TOLERATION], 300);
	sched_cycle_result_release(&r);
	cluster_release(&c);
}

/*
 * Zones z1 = {n1, n2}, z2 = {n3}; app=web pods: one on n1, one on n3.
 * "even": maxSkew 1 on zone: counts z1 = 1, z2 = 1, min 1; every node
 * 1 + 1 - 1 = 1 <= 1 -> all feasible.
 * "min3": same with minDomains 3: 2 domains < 3 so min = 0; 1 + 1 - 0 = 2
 * > 1 on every node -> all Unschedulable with the spread reason.
 */
#define SPREAD(min) \
	"  topologySpreadConstraints:\n  - maxSkew: 1\n    topologyKey: topology.kubernetes.io/zone\n" \
	"    whenUnsatisfiable: DoNotSchedule\n" min "    labelSelector: {matchLabels: {app: web}}\n"

static void test_spread_filter(void)
{
	struct cluster c;
	tb_load_yaml(&c, NODE("n1", "4", ", topology.kubernetes.io/zone: z1", "")
		 NODE("n2", "4", ", topology.kubernetes.io/zone: z1", "")
		 NODE("n3", "4", ", topology.kubernetes.io/zone: z2", "")
		 POD("w1", "app: web", "n1", "1", "1Gi", "") POD("w2", "app: web", "n3", "1", "1Gi", "")
		 POD("even", "app: web", "", "1", "1Gi", SPREAD(""))
		 POD("min3", "app: web", "", "1", "1Gi", SPREAD("    minDomains: 3\n")));
	struct sched_cycle_result r;
	explain(&c, "even", &r);
	CHECK_EQ(r.n_feasible, 3);
	sched_cycle_result_release(&r);
	explain(&c, "min3", &r);
	CHECK_EQ(r.n_feasible, 0);
	CHECK_EQ(r.verdicts[0].rejected_by, PLUGIN_POD_TOPOLOGY_SPREAD);
	CHECK_EQ(r.verdicts[0].code, SCHED_UNSCHEDULABLE);
	CHECK_STR(r.message, "0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints.");
	sched_cycle_result_release(&r);
	cluster_release(&c);
}

/*
 * InterPodAffinity "first pod of a series": db requires app=db on the
 * same rack; no db pod exists, db matches its own term, so every node
 * with a rack label passes; n3 has no rack label -> UAU "node(s) didn't
 * match pod affinity rules".
 */
static void test_interpod_first_pod(void)
{
	struct cluster c;
	tb_load_yaml(&c, NODE("n1", "4", ", rack: a", "") NODE("n2", "4", ", rack: b", "") NODE("n3", "4", "", "")
		 POD("db", "app: db", "", "1", "1Gi",
		     "  affinity:\n    podAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
		     "      - labelSelector: {matchLabels: {app: db}}\n        topologyKey: rack\n"));
	struct sched_cycle_result r;
	explain(&c, "db", &r);
	CHECK(r.verdicts[0].feasible);
	CHECK(r.verdicts[1].feasible);
	CHECK_EQ(r.verdicts[2].rejected_by, PLUGIN_INTER_POD_AFFINITY);
	CHECK_EQ(r.verdicts[2].code, SCHED_UAU);
	CHECK_STR(sched_status_reason(&r.verdicts[2].status[PLUGIN_INTER_POD_AFFINITY], 0),
		  "node(s) didn't match pod affinity rules");
	sched_cycle_result_release(&r);
	cluster_release(&c);
}

/* Node node's verdict for pod p by the model and by the oracle (they
 * must agree): -1 when feasible, else the first rejecting plugin. */
static int node_verdict(struct cluster *c, int p, int node)
{
	struct snapshot s;
	snapshot_init(&s, c);
	struct sched_cycle_result a, b;
	sched_cycle_result_init(&a, c);
	sched_cycle_result_init(&b, c);
	model_schedule_cycle(model_profile_for(c, p), &s, p, &a);
	oracle_explain_cycle(model_profile_for(c, p), &s, p, &b);
	char why[2048];
	CHECK(!result_diff(c, &a, &b, why, sizeof why));
	int v = a.verdicts[node].feasible ? -1 : (int)a.verdicts[node].rejected_by;
	sched_cycle_result_release(&a);
	sched_cycle_result_release(&b);
	snapshot_release(&s);
	return v;
}

/*
 * affinity-negative-ns-selector (v1.34.1, delta §5.4 headline 14):
 * namespaces a (team=x) and b (team=y); e (app=web, namespace b) runs on
 * n1.  new (namespace a) has a required anti-affinity term on hostname
 * selecting app=web in the namespaces matching {team NotIn [y]}.
 * v1.30: the selector picks namespace a only; e (in b) is not selected
 *   -> n1 feasible.
 * v1.34.1: the selector also matches the empty label set -> every
 *   namespace -> e counts -> n1 rejected by InterPodAffinity.
 * v1.34 with the quirk off: as v1.30.  A selector {team In [x]} does not
 * match empty labels: feasible under every setting.
 */
static void test_negative_ns_selector(void)
{
	struct cluster c;
	tb_load_yaml(&c, NODE("n1", "4", "", "")
		 "apiVersion: v1\nkind: Namespace\nmetadata: {name: a, labels: {team: x}}\n---\n"
		 "apiVersion: v1\nkind: Namespace\nmetadata: {name: b, labels: {team: y}}\n---\n"
		 "apiVersion: v1\nkind: Pod\nmetadata: {name: e, namespace: b, labels: {app: web}}\n"
		 "spec:\n  nodeName: n1\n  containers: [{name: c, image: x}]\n---\n"
		 "apiVersion: v1\nkind: Pod\nmetadata: {name: new, namespace: a}\n"
		 "spec:\n  affinity:\n    podAntiAffinity:\n"
		 "      requiredDuringSchedulingIgnoredDuringExecution:\n"
		 "      - labelSelector: {matchLabels: {app: web}}\n"
		 "        namespaceSelector:\n"
		 "          matchExpressions: [{key: team, operator: NotIn, values: [y]}]\n"
		 "        topologyKey: kubernetes.io/hostname\n"
		 "  containers: [{name: c, image: x}]\n---\n"
		 "apiVersion: v1\nkind: Pod\nmetadata: {name: pos, namespace: a}\n"
		 "spec:\n  affinity:\n    podAntiAffinity:\n"
		 "      requiredDuringSchedulingIgnoredDuringExecution:\n"
		 "      - labelSelector: {matchLabels: {app: web}}\n"
		 "        namespaceSelector:\n"
		 "          matchExpressions: [{key: team, operator: In, values: [x]}]\n"
		 "        topologyKey: kubernetes.io/hostname\n"
		 "  containers: [{name: c, image: x}]\n");
	int newp = cluster_find_pod(&c, "a", "new"), pos = cluster_find_pod(&c, "a", "pos");
	CHECK(newp >= 0 && pos >= 0);
	CHECK_EQ(node_verdict(&c, newp, 0), -1);
	CHECK_EQ(node_verdict(&c, pos, 0), -1);
	c.config.kube_version = KUBE_1_34;
	CHECK_EQ(node_verdict(&c, newp, 0), PLUGIN_INTER_POD_AFFINITY);
	CHECK_EQ(node_verdict(&c, pos, 0), -1);
	c.config.quirks_off = UINT32_C(1) << QUIRK_AFFINITY_NEGATIVE_NS_SELECTOR;
	CHECK_EQ(node_verdict(&c, newp, 0), -1);
	/* switching it off under v1.30 changes nothing either */
	c.config.kube_version = KUBE_1_30;
	CHECK_EQ(node_verdict(&c, newp, 0), -1);
	cluster_release(&c);
}

/* fixtures/v134/csi-limits-attachments.yaml (its header works the
 * answers out): v1.30 n1 feasible, n2 rejected by NodeVolumeLimits;
 * v1.34 the other way round. */
static void test_csi_limits_attachments(void)
{
	static const char path[] = "fixtures/v134/csi-limits-attachments.yaml";
	for (int v = KUBE_1_30; v <= KUBE_1_34; v++) {
		struct cluster c;
		if (!fixture_load_version(path, &c, v)) {
			CHECK(!"fixture loads");
			return;
		}
		CHECK_EQ(c.n_nodes, 2);
		int p = cluster_find_pod(&c, "default", "new");
		int want_n1 = v == KUBE_1_34 ? PLUGIN_NODE_VOLUME_LIMITS : -1;
		int want_n2 = v == KUBE_1_34 ? -1 : PLUGIN_NODE_VOLUME_LIMITS;
		CHECK_EQ(node_verdict(&c, p, 0), want_n1);
		CHECK_EQ(node_verdict(&c, p, 1), want_n2);
		cluster_release(&c);
	}
}

/* fixtures/v134/volume-binding-vac.yaml (its header): v1.30 (the API
 * server dropped both classes) p-gold and p-none feasible; v1.34 p-gold
 * feasible, p-none rejected by VolumeBinding. */
static void test_volume_binding_vac(void)
{
	static const char path[] = "fixtures/v134/volume-binding-vac.yaml";
	for (int v = KUBE_1_30; v <= KUBE_1_34; v++) {
		struct cluster c;
		if (!fixture_load_version(path, &c, v)) {
			CHECK(!"fixture loads");
			return;
		}
		int gold = cluster_find_pod(&c, "default", "p-gold");
		int none = cluster_find_pod(&c, "default", "p-none");
		CHECK_EQ(node_verdict(&c, gold, 0), -1);
		CHECK_EQ(node_verdict(&c, none, 0),
			 v == KUBE_1_34 ? PLUGIN_VOLUME_BINDING : -1);
		cluster_release(&c);
	}
}

/* ------------------------------------------ quirks no valid input reaches */

/*
 * spread-shared-key (core/quirks.h): two DoNotSchedule constraints of new
 * (app=a) on zone, selecting app=a and app=b, maxSkew 1 - which the
 * loader rejects, so the second constraint's key is changed after
 * loading.  n1 (zone A) runs a1, a2 (app=a), n2 (zone B) runs b1, b2.
 * v1.30 (the later constraint's per-node count overwrites): zone A 0,
 * zone B 2, min 0: n1 app=a 0 + 1 = 1, app=b 0: passes; n2 2 + 1 = 3:
 * fails.  Intended: app=a A 2, B 0; app=b A 0, B 2: n1 2 + 1 = 3 fails,
 * n2 app=a 1, app=b 2 > 1 fails.  (test_spread.c: the model, by hand.)
 */
static void test_shared_key_switch(void)
{
	struct cluster c;
	tb_load_yaml(&c, NODE("n1", "4", ", zone: A", "") NODE("n2", "4", ", zone: B", "")
		 POD("a1", "app: a", "n1", "100m", "1Gi", "")
		 POD("a2", "app: a", "n1", "100m", "1Gi", "")
		 POD("b1", "app: b", "n2", "100m", "1Gi", "")
		 POD("b2", "app: b", "n2", "100m", "1Gi", "")
		 POD("new", "app: a", "", "100m", "1Gi",
		     "  topologySpreadConstraints:\n"
		     "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,\n"
		     "     labelSelector: {matchLabels: {app: a}}}\n"
		     "  - {maxSkew: 1, topologyKey: other, whenUnsatisfiable: DoNotSchedule,\n"
		     "     labelSelector: {matchLabels: {app: b}}}\n"));
	struct spread_constraint *sc =
		(struct spread_constraint *)c.pods[tb_pod_ix(&c, "new")].spread;
	sc[1].topology_key = sc[0].topology_key;
	struct sched_cycle_result r;
	explain(&c, "new", &r);
	CHECK(r.verdicts[0].feasible);
	CHECK_EQ(r.verdicts[1].rejected_by, PLUGIN_POD_TOPOLOGY_SPREAD);
	sched_cycle_result_release(&r);
	c.config.quirks_off = UINT32_C(1) << QUIRK_SPREAD_SHARED_KEY;
	explain(&c, "new", &r);
	CHECK_EQ(r.verdicts[0].rejected_by, PLUGIN_POD_TOPOLOGY_SPREAD);
	CHECK_EQ(r.verdicts[1].rejected_by, PLUGIN_POD_TOPOLOGY_SPREAD);
	CHECK_EQ(r.n_feasible, 0);
	sched_cycle_result_release(&r);
	/* v1.34 counts per constraint (delta §5.3): the intended answer with
	 * no switch turned off */
	c.config.quirks_off = 0;
	c.config.kube_version = KUBE_1_34;
	explain(&c, "new", &r);
	CHECK_EQ(r.verdicts[0].rejected_by, PLUGIN_POD_TOPOLOGY_SPREAD);
	CHECK_EQ(r.verdicts[1].rejected_by, PLUGIN_POD_TOPOLOGY_SPREAD);
	CHECK_EQ(r.n_feasible, 0);
	sched_cycle_result_release(&r);
	cluster_release(&c);
}

/*
 * spread-approx-critical-paths: zones A, B, C (na, nb, nc), no pod yet;
 * AddPod of q1 on na and q2 on nb in one cycle (kube only ever adds the
 * filtered node's pods, so this goes through the oracle's internals).
 * Critical paths: [(A,0),(B,0)]; AddPod A=1 swaps to [(B,0),(A,1)];
 * AddPod B=1 -> [(B,1),(A,1)]: min 1 though C is 0.  Filter na, maxSkew
 * 1: v1.30 1 + 1 - 1 = 1 passes; exact 1 + 1 - 0 = 2 fails.  nc passes
 * either way (0 + 1 - 1, 0 + 1 - 0).
 */
static enum sched_code two_adds_then_check(struct cluster *c, int node)
{
	int p = tb_pod_ix(c, "new");
	struct snapshot s;
	snapshot_init(&s, c);
	struct oracle o;
	oracle_init(&o, &s);
	struct oracle_cycle cy;
	oracle_cycle_begin(&cy, &o, model_profile_for(c, p), p);
	struct sched_status st;
	sched_status_ok(&st);
	CHECK_EQ(oracle_cycle_prefilter(&cy, &st), -1);
	oracle_spread_update(&cy, tb_pod_ix(c, "q1"), 0, +1);
	oracle_spread_update(&cy, tb_pod_ix(c, "q2"), 1, +1);
	struct oracle_nodeview v = {.node = node};
	enum sched_code code = oracle_check_spread(&cy, &v);
	oracle_cycle_end(&cy);
	oracle_release(&o);
	snapshot_release(&s);
	return code;
}

static void test_exact_minimum_switch(void)
{
	struct cluster c;
	tb_load_yaml(&c, NODE("na", "4", ", zone: A", "") NODE("nb", "4", ", zone: B", "")
		 NODE("nc", "4", ", zone: C", "")
		 POD("q1", "foo: bar", "", "100m", "1Gi", "")
		 POD("q2", "foo: bar", "", "100m", "1Gi", "")
		 POD("new", "foo: bar", "", "100m", "1Gi",
		     "  topologySpreadConstraints:\n"
		     "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,\n"
		     "     labelSelector: {matchLabels: {foo: bar}}}\n"));
	CHECK_EQ(two_adds_then_check(&c, 0), SCHED_SUCCESS);
	CHECK_EQ(two_adds_then_check(&c, 2), SCHED_SUCCESS);
	c.config.quirks_off = UINT32_C(1) << QUIRK_SPREAD_APPROX_CRITICAL_PATHS;
	CHECK_EQ(two_adds_then_check(&c, 0), SCHED_UNSCHEDULABLE);
	CHECK_EQ(two_adds_then_check(&c, 2), SCHED_SUCCESS);
	cluster_release(&c);
}

/*
 * numFeasibleNodesToFind (§1.4), adaptive: n < 100 -> n; 100 -> pct 50,
 * 50 nodes < 100 -> 100; 1000 -> pct 50-8 = 42 -> 420; 5000 -> pct 10 ->
 * 500; 6000 -> pct 2 < 5 -> 5 -> 300.  Configured 30: 1000 -> 300, 200 ->
 * 60 < 100 -> 100.
 */
static void test_num_to_find(void)
{
	struct cluster c;
	cluster_init(&c);
	const struct sched_profile *p = &c.config.profiles[0];
	CHECK_EQ(oracle_num_to_find(&c, p, 50), 50);
	CHECK_EQ(oracle_num_to_find(&c, p, 100), 100);
	CHECK_EQ(oracle_num_to_find(&c, p, 1000), 420);
	CHECK_EQ(oracle_num_to_find(&c, p, 5000), 500);
	CHECK_EQ(oracle_num_to_find(&c, p, 6000), 300);
	c.config.percentage_of_nodes_to_score = 30;
	CHECK_EQ(oracle_num_to_find(&c, p, 1000), 300);
	CHECK_EQ(oracle_num_to_find(&c, p, 200), 100);
	cluster_release(&c);
}

/*
 * Node tree order: a1, a2 (z1), b1 (z2), c1 (no zone), a3 (z1): zones in
 * first-seen order z1, z2, "" -> round robin a1 b1 c1, then a2, then a3.
 */
static void test_node_order(void)
{
	struct cluster c;
	tb_load_yaml(&c, NODE("a1", "1", ", topology.kubernetes.io/zone: z1", "")
		 NODE("a2", "1", ", topology.kubernetes.io/zone: z1", "")
		 NODE("b1", "1", ", topology.kubernetes.io/zone: z2", "")
		 NODE("c1", "1", "", "")
		 NODE("a3", "1", ", topology.kubernetes.io/zone: z1", ""));
	struct snapshot s;
	snapshot_init(&s, &c);
	struct oracle o;
	oracle_init(&o, &s);
	static const int want[] = {0, 2, 3, 1, 4};
	for (int i = 0; i < 5; i++)
		CHECK_EQ(o.d->order[i], want[i]);
	oracle_release(&o);
	snapshot_release(&s);
	cluster_release(&c);
}

/*
 * Sampling and rotation with 150 identical feasible nodes: numToFind(150)
 * = 150*49/100 = 73 < 100 -> 100.  Cycle 1 starts at 0, examines 100
 * nodes, next start 100; cycle 2 examines order[100..149] and
 * order[0..49], next start (100 + 100) % 150 = 50.  Explain mode sees all
 * 150.
 */
static void test_sampling_rotation(void)
{
	size_t cap = 150 * 200 + 1000, len = 0;
	char *y = malloc(cap);
	for (int i = 0; i < 150; i++)
		len += (size_t)snprintf(y + len, cap - len,
			"apiVersion: v1\nkind: Node\nmetadata: {name: n%d}\n"
			"status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n---\n", i);
	snprintf(y + len, cap - len, POD("p", "", "", "1", "1Gi", ""));
	struct cluster c;
	tb_load_yaml(&c, y);
	free(y);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct oracle o;
	oracle_init(&o, &s);
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, &c);
	int p = tb_pod_ix(&c, "p");
	int n = oracle_schedule_cycle(&o, p, &r);
	CHECK(n >= 0);
	CHECK_EQ(r.n_feasible, 100);
	CHECK_EQ(o.next_start, 100);
	CHECK(r.verdicts[o.d->order[99]].feasible);
	CHECK(!r.verdicts[o.d->order[100]].feasible);   /* not examined */
	oracle_schedule_cycle(&o, p, &r);
	CHECK_EQ(o.next_start, 50);
	CHECK(r.verdicts[o.d->order[149]].feasible);
	CHECK(r.verdicts[o.d->order[49]].feasible);
	CHECK(!r.verdicts[o.d->order[50]].feasible);
	o.all_nodes = true;
	oracle_schedule_cycle(&o, p, &r);
	CHECK_EQ(r.n_feasible, 150);
	sched_cycle_result_release(&r);
	oracle_release(&o);
	snapshot_release(&s);
	cluster_release(&c);
}

/* -------------------------------------------------------- differential */

static int fixtures_compared, pods_compared;

/*
 * The oracle's incremental aggregates against the model's from-scratch
 * view: one oracle lives through a scheduler-like loop over the pending
 * pods (bind to the model's first viable node; every 3rd step evict the
 * first bound pod; every 4th step nominate the last pending pod), and
 * before every bind both engines explain the pod on the oracle's own
 * placement.
 */
static void loop_fixture(const char *path, struct cluster *c, const struct snapshot *s0)
{
	struct oracle o;
	oracle_init(&o, s0);
	o.all_nodes = true;
	struct sched_cycle_result a, b;
	sched_cycle_result_init(&a, c);
	sched_cycle_result_init(&b, c);
	bool differs = false;
	for (int p = 0, step = 0; p < c->n_pods && !differs; p++) {
		if (o.snap.pod_node[p] != SNAP_PENDING)
			continue;
		const struct sched_profile *prof = model_profile_for(c, p);
		if (!prof)
			continue;
		step++;
		model_schedule_cycle(prof, &o.snap, p, &a);
		oracle_schedule_cycle(&o, p, &b);
		char why[2048];
		if (result_diff(c, &a, &b, why, sizeof why)) {
			fprintf(stderr, "DIFF(loop step %d) %s pod %s/%s: %s\n", step, path,
				c->pods[p].ns, c->pods[p].name, why);
			differs = true;
		}
		if (a.n_viable > 0)
			oracle_bind(&o, p, a.viable[0]);
		if (step % 3 == 0)
			for (int q = 0; q < c->n_pods; q++)
				if (o.snap.pod_node[q] >= 0) {
					oracle_evict(&o, q);
					break;
				}
		if (step % 4 == 0 && c->n_nodes > 0)
			for (int q = c->n_pods - 1; q > p; q--)
				if (o.snap.pod_node[q] == SNAP_PENDING) {
					oracle_nominate(&o, q, step % c->n_nodes);
					break;
				}
	}
	CHECK(!differs);
	sched_cycle_result_release(&a);
	sched_cycle_result_release(&b);
	oracle_release(&o);
}

/*
 * kube's fast path (first failing filter, sampling, nominated node first):
 * below 100 nodes every node is examined, so the chosen node must be one
 * of the model's viable nodes and the feasible set the same (unless the
 * nominated node was taken at once).  a is the model's result for pod.
 */
static bool fast_path_agrees(struct oracle *fast, int pod,
			     const struct sched_cycle_result *a,
			     struct sched_cycle_result *b, char *why, size_t len)
{
	int n = oracle_schedule_cycle(fast, pod, b);
	if (a->n_viable == 0) {
		if (n >= 0)
			snprintf(why, len, "fast path chose %d, model has no viable node", n);
		return n < 0;
	}
	bool in = false;
	for (int i = 0; i < a->n_viable; i++)
		in = in || a->viable[i] == n;
	if (!in) {
		snprintf(why, len, "fast path chose %d, not viable in the model", n);
		return false;
	}
	if (a->nominated_node < 0 && a->n_feasible != b->n_feasible) {
		snprintf(why, len, "fast path n_feasible %d, model %d", b->n_feasible,
			 a->n_feasible);
		return false;
	}
	return true;
}

/* Every pending pod of one fixture file; a file that does not load is
 * skipped.  Prints the first difference and fails once per fixture. */
static enum kube_version walk_version;   /* the release diff_fixture loads */

static void diff_fixture(const char *path)
{
	struct cluster c;
	if (!fixture_load_version(path, &c, walk_version))
		return;
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_cycle_result a, b;
	sched_cycle_result_init(&a, &c);
	sched_cycle_result_init(&b, &c);
	bool differs = false;
	struct oracle fast;
	oracle_init(&fast, &s);
	for (int p = 0; p < c.n_pods && !differs; p++) {
		if (s.pod_node[p] != SNAP_PENDING)
			continue;
		const struct sched_profile *prof = model_profile_for(&c, p);
		if (!prof)
			continue;
		model_schedule_cycle(prof, &s, p, &a);
		oracle_explain_cycle(prof, &s, p, &b);
		char why[2048];
		if (result_diff(&c, &a, &b, why, sizeof why) ||
		    (c.n_nodes < 100 && !fast_path_agrees(&fast, p, &a, &b, why, sizeof why))) {
			fprintf(stderr, "DIFF %s (v1.%d) pod %s/%s: %s\n", path,
				walk_version == KUBE_1_34 ? 34 : 30, c.pods[p].ns,
				c.pods[p].name, why);
			differs = true;
		}
		pods_compared++;
	}
	oracle_release(&fast);
	CHECK(!differs);
	fixtures_compared++;
	loop_fixture(path, &c, &s);
	sched_cycle_result_release(&a);
	sched_cycle_result_release(&b);
	snapshot_release(&s);
	cluster_release(&c);
}

static bool is_manifest(const char *name)
{
	size_t n = strlen(name);
	return (n > 5 && strcmp(name + n - 5, ".yaml") == 0) ||
	       (n > 4 && strcmp(name + n - 4, ".yml") == 0) ||
	       (n > 5 && strcmp(name + n - 5, ".json") == 0);
}


int main(void)
{
	test_fit_and_scores();
	test_taint_score();
	test_spread_filter();
	test_interpod_first_pod();
	test_shared_key_switch();
	test_negative_ns_selector();
	test_csi_limits_attachments();
	test_volume_binding_vac();
	test_exact_minimum_switch();
	test_num_to_find();
	test_node_order();
	test_sampling_rotation();
	const char *root = getenv("KSO_FIXTURES");
	/* every fixture under both releases: the engines agree on each */
	fixture_walk(root ? root : "fixtures", is_manifest, diff_fixture);
	walk_version = KUBE_1_34;
	fixture_walk(root ? root : "fixtures", is_manifest, diff_fixture);
	printf("test_oracle: compared %d pods in %d fixtures (each under v1.30 "
	       "and v1.34)\n", pods_compared, fixtures_compared);
	return check_done("test_oracle");
}
