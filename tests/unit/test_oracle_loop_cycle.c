/*
 * test_oracle_loop_cycle.c - the scheduler loop's cycle (oracle.h
 * oracle_loop_cycle: decided without a result record first, run again
 * into the result only when no node is viable) against
 * oracle_schedule_cycle, kube's sampled fast path into a result every
 * time (reference §1.3-§1.7): two sampled oracles with the same seed,
 * pods scheduled one after another (the chosen node bound in both, a
 * failed pod's preemption run in both), on every fixture scenario and on
 * a 240-node cluster where sampling examines part of the nodes
 * (numFeasibleNodesToFind: max(100, 240 * (50 - 240/125) / 100) = 115):
 *   - the same returned node, code, viable nodes (node order) and
 *     nominated node, and the same sampling start and random state after
 *     each cycle (so the cycles that follow sample the same nodes);
 *   - when no node is viable, the whole result alike: feasible list,
 *     every node's verdict (code, rejecting plugin, failed filters, the
 *     rejecting filter's reasons), the message - though the cycles before
 *     it that bound filled no per-node entry of the loop's result;
 *   - the same preemption answer (node, victims) after such a cycle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "check.h"
#include "fixture_walk.h"
#include "../../model/model.h"
#include "../../model/preemption.h"
#include "../../oracle/oracle.h"

static int cycles, failed_cycles, preemptions, fixtures;

static bool same_ints(const int *a, int na, const int *b, int nb)
{
	return na == nb && (na == 0 || memcmp(a, b, sizeof(int) * (size_t)na) == 0);
}

/* a: oracle_schedule_cycle's result, b: oracle_loop_cycle's. */
static void compare(const struct cluster *c, const struct sched_cycle_result *a,
		    const struct sched_cycle_result *b, const char *path, int pod)
{
	bool ok = a->code == b->code && a->nominated_node == b->nominated_node &&
		  same_ints(a->viable, a->n_viable, b->viable, b->n_viable);
	cycles++;
	if (ok && a->n_viable == 0) {
		failed_cycles++;
		ok = same_ints(a->feasible, a->n_feasible, b->feasible, b->n_feasible) &&
		     tb_status_eq(&a->prefilter, &b->prefilter) &&
		     ((!a->message && !b->message) ||
		      (a->message && b->message && strcmp(a->message, b->message) == 0));
		for (int n = 0; ok && n < c->n_nodes; n++) {
			const struct sched_node_verdict *x = &a->verdicts[n], *y = &b->verdicts[n];
			ok = x->feasible == y->feasible && x->code == y->code &&
			     x->rejected_by == y->rejected_by &&
			     memcmp(x->failed, y->failed, sizeof x->failed) == 0 &&
			     a->in_prefilter_result[n] == b->in_prefilter_result[n];
			if (ok && x->rejected_by >= 0 && x->rejected_by < PLUGIN_FILTERS)
				ok = tb_status_eq(&x->status[x->rejected_by],
						 &y->status[y->rejected_by]);
		}
	}
	CHECK(ok);
	if (!ok)
		fprintf(stderr, "  %s: pod %s differs\n", path, c->pods[pod].name);
}

static void run(const char *path, struct cluster *c)
{
	struct snapshot s;
	snapshot_init(&s, c);
	struct oracle full, loop;
	oracle_init(&full, &s);
	oracle_init(&loop, &s);
	full.seed = loop.seed = 0x1005;
	struct sched_cycle_result a, b;
	sched_cycle_result_init(&a, c);
	sched_cycle_result_init(&b, c);
	for (int p = 0; p < c->n_pods; p++) {
		const struct sched_profile *prof = model_profile_for(c, p);
		if (s.pod_node[p] != SNAP_PENDING || !prof)
			continue;
		int na = oracle_schedule_cycle(&full, p, &a);
		int nb = oracle_loop_cycle(&loop, p, &b);
		CHECK_EQ(nb, na);
		CHECK_EQ(loop.next_start, full.next_start);
		CHECK(loop.seed == full.seed);
		compare(c, &a, &b, path, p);
		if (a.n_viable == 0 && a.code == SCHED_UNSCHEDULABLE &&
		    prof->postfilter[PLUGIN_DEFAULT_PREEMPTION]) {
			struct sched_preemption pa, pb;
			sched_preemption_init(&pa);
			sched_preemption_init(&pb);
			oracle_preempt(&full, prof, p, &a, 0, &pa);
			oracle_preempt(&loop, prof, p, &b, 0, &pb);
			CHECK_EQ(pb.code, pa.code);
			CHECK_EQ(pb.node, pa.node);
			CHECK(same_ints(pa.chosen.pods, pa.chosen.n, pb.chosen.pods, pb.chosen.n));
			preemptions++;
			sched_preemption_release(&pa);
			sched_preemption_release(&pb);
		}
		if (na >= 0) {
			oracle_bind(&full, p, na);
			oracle_bind(&loop, p, na);
		}
	}
	sched_cycle_result_release(&a);
	sched_cycle_result_release(&b);
	oracle_release(&full);
	oracle_release(&loop);
	snapshot_release(&s);
	fixtures++;
}

static void fixture(const char *path)
{
	struct cluster c;
	if (!fixture_load(path, &c))
		return;
	run(path, &c);
	cluster_release(&c);
}

/* 240 nodes of 2 cpu in zones a, b, c; 600 pods of 1 cpu, every third
 * spread over zones (maxSkew 1), every fifth asking for zone a: the
 * cluster fills, zone a first, and the last pods fit nowhere. */
static void sampled_cluster(void)
{
	size_t cap = 1 << 20, len = 0;
	char *y = malloc(cap);
	if (!y)
		abort();
	for (int i = 0; i < 240; i++)
		len += (size_t)snprintf(y + len, cap - len,
			"---\napiVersion: v1\nkind: Node\nmetadata: {name: n%d, labels: "
			"{topology.kubernetes.io/zone: %c, kubernetes.io/hostname: n%d}}\n"
			"status: {allocatable: {cpu: '2', memory: 8Gi, pods: '110'}}\n",
			i, "abc"[i % 3], i);
	for (int i = 0; i < 600; i++) {
		len += (size_t)snprintf(y + len, cap - len,
			"---\napiVersion: v1\nkind: Pod\nmetadata: {name: p%d, namespace: default, "
			"labels: {app: a%d}}\nspec:\n  containers: [{name: c, image: i, "
			"resources: {requests: {cpu: '1'}}}]\n", i, i % 2);
		if (i % 3 == 0)
			len += (size_t)snprintf(y + len, cap - len,
				"  topologySpreadConstraints: [{maxSkew: 1, topologyKey: "
				"topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, "
				"labelSelector: {matchLabels: {app: a%d}}}]\n", i % 2);
		if (i % 5 == 0)
			len += (size_t)snprintf(y + len, cap - len,
				"  nodeSelector: {topology.kubernetes.io/zone: a}\n");
	}
	struct cluster c;
	struct error err;
	cluster_init(&c);
	error_init(&err);
	int rc = yaml_load_buffer(&c, "sampled.yaml", (const unsigned char *)y, len, &err);
	CHECK_EQ(rc, 0);
	if (rc)
		fprintf(stderr, "%s\n", err.msg);
	else
		run("sampled.yaml", &c);
	cluster_release(&c);
	free(y);
}

int main(void)
{
	sampled_cluster();
	CHECK(failed_cycles > 50);
	const char *root = getenv("KSO_FIXTURES");
	fixture_walk(root ? root : "fixtures", fixture_is_scenario, fixture);
	printf("test_oracle_loop_cycle: %d cycles (%d without a viable node), "
	       "%d preemptions in %d clusters\n", cycles, failed_cycles, preemptions,
	       fixtures);
	CHECK(cycles > 500);
	CHECK(preemptions > 10);
	return check_done("test_oracle_loop_cycle");
}
