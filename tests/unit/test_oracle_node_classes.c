/*
 * test_oracle_node_classes.c - oracle/node_class.c, worked out by hand:
 * which nodes share a class (static signature without the unique keys,
 * the multiset of their pods' kinds), how binds and evictions move a
 * node between classes, that a pod with host ports is a kind of its own,
 * and which pods may use classes (none that reads a node's name or a
 * unique key's value).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../oracle/internal.h"
#include "../../oracle/oracle.h"
#include "../../yaml/load.h"
#include "build.h"

#define NODE(name, zone, cpu)                                                  \
	"apiVersion: v1\nkind: Node\nmetadata: {name: " name ", labels: "       \
	"{kubernetes.io/hostname: " name ", topology.kubernetes.io/zone: " zone \
	"}}\nstatus: {allocatable: {cpu: '" cpu "', memory: 8Gi, pods: '10'}}\n---\n"
#define POD(name, app, node, extra)                                            \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name ", labels: {app: " \
	app "}}\nspec:\n  nodeName: \"" node "\"\n  containers: [{name: c, "    \
	"image: i, resources: {requests: {cpu: 100m}}" extra "}]\n---\n"
#define PORT ", ports: [{containerPort: 80, hostPort: 8080}]"

/*
 * n1, n2, n4 in zone a, n3 in zone b; n4 has 8 cpus, the others 4.
 * kubernetes.io/hostname is unique (every node, distinct values), so it
 * is no part of a signature; the zone is.  Static signatures: n1 = n2,
 * n3 (zone) and n4 (allocatable) each their own.
 * Pods: w1 (web) on n1, w2 (web) on n2, d1 (db) on n2; w3 (web) and the
 * port pods h1, h2 (web, hostPort 8080) pending.
 *   start: n1 {web}, n2 {web, db}: different classes;
 *   evict d1: n2 {web} = n1;
 *   bind w3 to n3: n3 {web}, still not n1's class (zone);
 *   bind h1 to n1 and h2 to n2: equal specs, but a pod with host ports
 *   is a kind of its own, so n1 and n2 differ again;
 *   evict h1, h2: n1 = n2 again (the same class id as before).
 */
static void test_classes(void)
{
	struct cluster c;
	tb_load_yaml(&c, NODE("n1", "a", "4") NODE("n2", "a", "4") NODE("n3", "b", "4")
		 NODE("n4", "a", "8")
		 POD("w1", "web", "n1", "") POD("w2", "web", "n2", "")
		 POD("d1", "db", "n2", "") POD("w3", "web", "", "")
		 POD("h1", "web", "", PORT) POD("h2", "web", "", PORT));
	struct snapshot s;
	snapshot_init(&s, &c);
	struct oracle o;
	oracle_init(&o, &s);
	struct oracle_nclasses *nc = oracle_nclasses(&o);
	CHECK_EQ(nc->unique.n, 1);
	CHECK(oracle_strmap_find(&nc->unique, "kubernetes.io/hostname") >= 0);
	CHECK(oracle_strmap_find(&nc->unique, "topology.kubernetes.io/zone") < 0);
	CHECK_EQ(nc->static_id[0], nc->static_id[1]);
	CHECK(nc->static_id[2] != nc->static_id[0]);
	CHECK(nc->static_id[3] != nc->static_id[0]);
	CHECK(nc->static_id[3] != nc->static_id[2]);

	CHECK(oracle_nclass_of(&o, 0) != oracle_nclass_of(&o, 1));
	oracle_evict(&o, tb_pod_ix(&c, "d1"));
	int web_a = oracle_nclass_of(&o, 0);
	CHECK_EQ(oracle_nclass_of(&o, 1), web_a);
	oracle_bind(&o, tb_pod_ix(&c, "w3"), 2);
	CHECK(oracle_nclass_of(&o, 2) != web_a);
	CHECK_EQ(nc->cls[oracle_nclass_of(&o, 2)].n, 1);
	oracle_bind(&o, tb_pod_ix(&c, "h1"), 0);
	oracle_bind(&o, tb_pod_ix(&c, "h2"), 1);
	CHECK(oracle_nclass_of(&o, 0) != oracle_nclass_of(&o, 1));
	CHECK(oracle_nclass_of(&o, 0) != web_a);
	oracle_evict(&o, tb_pod_ix(&c, "h1"));
	oracle_evict(&o, tb_pod_ix(&c, "h2"));
	CHECK_EQ(oracle_nclass_of(&o, 0), web_a);
	CHECK_EQ(oracle_nclass_of(&o, 1), web_a);
	/* nominating marks the node, which the walk then filters itself:
	 * its class is looked up on each use, none kept */
	oracle_arrive(&o, tb_pod_ix(&c, "d1"));
	oracle_nominate(&o, tb_pod_ix(&c, "d1"), 1);
	CHECK_EQ(oracle_nclass_of(&o, 1), web_a);
	CHECK_EQ(nc->nominated[1], 1);
	CHECK_EQ(nc->node_class[1], -1);
	CHECK_EQ(oracle_nclass_of(&o, 0), web_a);
	CHECK_EQ(nc->nominated[0], 0);
	CHECK_EQ(nc->node_class[0], web_a);
	/* a cycle of the pending h1 (4 nodes: every one examined) answers
	 * through the classes - n1's verdict memoised this epoch - and
	 * with them off through none, the same node.  Every node fits
	 * (no pod holds port 8080); the empty n4 with 8 cpus scores
	 * highest: LeastAllocated cpu (8000-100)*100/8000 = 98, memory
	 * (8192-200)*100/8192 = 97 (the 200Mi default), mean 97, plus
	 * BalancedAllocation (1-|0.0125-0.0244|/2)*100 = 99: 196; a 4-cpu
	 * node holding one 100m pod: cpu 95, memory 95, Balanced 99: 194;
	 * no default spreading (no Service selects h1).  The class of n1
	 * (and of the nominated n2) keeps its raw scores under h1's score
	 * key: Fit (95 + 95) / 2 = 95 (cpu (4000-200)*100/4000, memory
	 * (8192-400)*100/8192 = 95.1 with w1's and h1's 200Mi defaults);
	 * Balanced counts the requests without defaults (§2.8
	 * useRequested): cpu 200/4000 = 0.05, memory 0, (1 - 0.025) * 100
	 * = 97.5, truncated 97.  The walk's per-class entries are back to
	 * unknown once it ends. */
	oracle_arrive(&o, tb_pod_ix(&c, "h1"));
	uint32_t epoch = nc->epoch;
	o.no_node_classes = true;
	CHECK_EQ(oracle_select(&o, tb_pod_ix(&c, "h1")), 3);
	CHECK_EQ(nc->epoch, epoch);
	o.no_node_classes = false;
	CHECK_EQ(oracle_select(&o, tb_pod_ix(&c, "h1")), 3);
	CHECK_EQ(nc->epoch, epoch + 1);
	CHECK_EQ(nc->hot[web_a].rep_stamp, epoch + 1);
	CHECK_EQ(nc->walk[web_a + 1], NC_WALK_UNKNOWN);
	CHECK_EQ(nc->n_walked, 0);
	uint32_t key = (uint32_t)nc->pod_skey[tb_pod_ix(&c, "h1")] + 1;
	CHECK_EQ(nc->memo[web_a].skey[0][0], key);
	CHECK_EQ(nc->memo[web_a].sval[0][0], 95);
	CHECK_EQ(nc->memo[web_a].skey[1][0], key);
	CHECK_EQ(nc->memo[web_a].sval[1][0], 97);
	oracle_release(&o);
	snapshot_release(&s);
	cluster_release(&c);
}

/* oracle_nclass_pod_ok for pod name of the cluster. */
static bool pod_ok(struct oracle *o, const char *name)
{
	struct oracle_cycle cy;
	int p = tb_pod_ix(o->cluster, name);
	oracle_cycle_begin(&cy, o, &o->cluster->config.profiles[0], p);
	bool ok = oracle_nclass_pod_ok(&cy);
	oracle_cycle_end(&cy);
	return ok;
}

#define PENDING(name, spec)                                                    \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name "}\nspec:\n" spec  \
	"  containers: [{name: c, image: i}]\n---\n"

/*
 * A pod may use classes unless it reads a node's name (matchFields) or
 * the value of the unique key kubernetes.io/hostname: a nodeSelector on
 * the zone, or a preferred term on it, reads a keyed label (yes); a
 * nodeSelector, a required or a preferred term on the hostname (no); a
 * matchFields term (no).
 */
static void test_pod_ok(void)
{
	struct cluster c;
	tb_load_yaml(&c, NODE("n1", "a", "4") NODE("n2", "b", "4")
		 PENDING("plain", "")
		 PENDING("zone", "  nodeSelector: {topology.kubernetes.io/zone: a}\n")
		 PENDING("zone-pref", "  affinity: {nodeAffinity: "
			 "{preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, "
			 "preference: {matchExpressions: [{key: topology.kubernetes.io/zone, "
			 "operator: In, values: [a]}]}}]}}\n")
		 PENDING("host", "  nodeSelector: {kubernetes.io/hostname: n1}\n")
		 PENDING("host-req", "  affinity: {nodeAffinity: "
			 "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
			 "[{matchExpressions: [{key: kubernetes.io/hostname, operator: In, "
			 "values: [n1]}]}]}}}\n")
		 PENDING("host-pref", "  affinity: {nodeAffinity: "
			 "{preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, "
			 "preference: {matchExpressions: [{key: kubernetes.io/hostname, "
			 "operator: In, values: [n1]}]}}]}}\n")
		 PENDING("fields", "  affinity: {nodeAffinity: "
			 "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
			 "[{matchFields: [{key: metadata.name, operator: In, "
			 "values: [n1]}]}]}}}\n"));
	struct snapshot s;
	snapshot_init(&s, &c);
	struct oracle o;
	oracle_init(&o, &s);
	/* with two nodes in two zones both keys are unique */
	CHECK(!pod_ok(&o, "zone"));
	oracle_release(&o);
	snapshot_release(&s);
	cluster_release(&c);

	tb_load_yaml(&c, NODE("n1", "a", "4") NODE("n2", "a", "4")
		 PENDING("plain", "")
		 PENDING("zone", "  nodeSelector: {topology.kubernetes.io/zone: a}\n")
		 PENDING("zone-pref", "  affinity: {nodeAffinity: "
			 "{preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, "
			 "preference: {matchExpressions: [{key: topology.kubernetes.io/zone, "
			 "operator: In, values: [a]}]}}]}}\n")
		 PENDING("host", "  nodeSelector: {kubernetes.io/hostname: n1}\n")
		 PENDING("host-req", "  affinity: {nodeAffinity: "
			 "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
			 "[{matchExpressions: [{key: kubernetes.io/hostname, operator: In, "
			 "values: [n1]}]}]}}}\n")
		 PENDING("host-pref", "  affinity: {nodeAffinity: "
			 "{preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, "
			 "preference: {matchExpressions: [{key: kubernetes.io/hostname, "
			 "operator: In, values: [n1]}]}}]}}\n")
		 PENDING("fields", "  affinity: {nodeAffinity: "
			 "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
			 "[{matchFields: [{key: metadata.name, operator: In, "
			 "values: [n1]}]}]}}}\n"));
	snapshot_init(&s, &c);
	oracle_init(&o, &s);
	CHECK(pod_ok(&o, "plain"));
	CHECK(pod_ok(&o, "zone"));
	CHECK(pod_ok(&o, "zone-pref"));
	CHECK(!pod_ok(&o, "host"));
	CHECK(!pod_ok(&o, "host-req"));
	CHECK(!pod_ok(&o, "host-pref"));
	CHECK(!pod_ok(&o, "fields"));
	oracle_release(&o);
	snapshot_release(&s);
	cluster_release(&c);
}

int main(void)
{
	test_classes();
	test_pod_ok();
	return check_done("test_oracle_node_classes");
}
