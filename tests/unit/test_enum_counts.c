/*
 * test_enum_counts.c - the enumerator's counts: (nodes+1)^pods
 * placements, the cartesian product of a universe's dimensions and the
 * scenario each index stands for, field paths and tree edits, and the
 * states both modes visit on a small scenario.  Every count is derived by
 * hand in the comment above it.
 */
#include "check.h"

#include <stdlib.h>

#include "../../enum/enum.h"

/* Two 2-cpu nodes (n1 zone a, n2 zone a) and two pods of 1 cpu, no
 * priority, both pending; two dimensions: n2's zone in {a, b, c} and
 * pod b's cpu in {1, 500m}. */
static const char universe[] =
	"kind: Universe\n"
	"name: small\n"
	"vary:\n"
	"- name: n2-zone\n"
	"  target: Node/n2\n"
	"  path: metadata.labels.\"topology.kubernetes.io/zone\"\n"
	"  values: [a, b, c]\n"
	"- name: b-cpu\n"
	"  target: Pod/default/b\n"
	"  path: [spec, containers, 0, resources, requests, cpu]\n"
	"  values: [\"1\", 500m]\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Node\n"
	"metadata:\n"
	"  name: n1\n"
	"  labels: {kubernetes.io/hostname: n1, topology.kubernetes.io/zone: a}\n"
	"status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"110\"}}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Node\n"
	"metadata:\n"
	"  name: n2\n"
	"  labels: {kubernetes.io/hostname: n2, topology.kubernetes.io/zone: a}\n"
	"status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"110\"}}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: a, namespace: default}\n"
	"spec:\n"
	"  containers:\n"
	"  - name: c\n"
	"    image: pause\n"
	"    resources: {requests: {cpu: \"1\"}}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: b, namespace: default}\n"
	"spec:\n"
	"  containers:\n"
	"  - name: c\n"
	"    image: pause\n"
	"    resources: {requests: {cpu: \"1\"}}\n";

static void placement_counts(void)
{
	/* (nodes+1)^pods: 2 nodes 2 pods 3^2 = 9; 3 nodes 4 pods 4^4 = 256;
	 * no nodes: every pod pending, 1 state; 0 pods: 1 state. */
	CHECK_EQ(enum_placement_count(2, 2), 9);
	CHECK_EQ(enum_placement_count(3, 4), 256);
	CHECK_EQ(enum_placement_count(0, 3), 1);
	CHECK_EQ(enum_placement_count(5, 0), 1);
	/* 2^64 does not fit: 1^... no, (1+1)^64 overflows */
	CHECK(enum_placement_count(1, 64) == UINT64_MAX);
	CHECK_EQ(enum_placement_count(1, 63), (uint64_t)1 << 63);
}

static void paths(void)
{
	struct arena a;
	arena_init(&a);
	struct error err;
	error_init(&err);
	struct enum_path p;
	struct ynode *s = ynode_scalar(&a, "metadata.labels.\"topology.kubernetes.io/zone\"", false);
	CHECK_EQ(enum_path_parse(&a, "f", s, &p, &err), 0);
	CHECK_EQ(p.n, 3);
	CHECK_STR(p.segs[2].key, "topology.kubernetes.io/zone");
	s = ynode_scalar(&a, "spec.containers[0].resources", false);
	CHECK_EQ(enum_path_parse(&a, "f", s, &p, &err), 0);
	CHECK_EQ(p.n, 4);
	CHECK(p.segs[2].key == NULL);
	CHECK_EQ(p.segs[2].index, 0);
	CHECK_STR(p.segs[3].key, "resources");
	s = ynode_scalar(&a, "spec..x", false);
	CHECK_EQ(enum_path_parse(&a, "f", s, &p, &err), -1);
	arena_release(&a);
}

static void cartesian_product(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	int rc = enum_universe_load_buffer(&u, "small.yaml", NULL, universe, &err);
	CHECK_EQ(rc, 0);
	if (rc) {
		fprintf(stderr, "%s\n", err.msg);
		enum_universe_release(&u);
		return;
	}
	/* 3 zones x 2 cpu values = 6 scenarios; 2 nodes, 2 pods */
	CHECK_EQ(u.n_scenarios, 6);
	CHECK_EQ(u.n_nodes, 2);
	CHECK_EQ(u.n_pods, 2);
	/* the first dimension varies slowest: index 4 = 2*2 + 0 -> zone c,
	 * cpu "1"; index 3 = 1*2 + 1 -> zone b, cpu 500m */
	int d[2];
	enum_universe_digits(&u, 4, d);
	CHECK_EQ(d[0], 2);
	CHECK_EQ(d[1], 0);
	enum_universe_digits(&u, 3, d);
	CHECK_EQ(d[0], 1);
	CHECK_EQ(d[1], 1);
	struct enum_scenario sc;
	rc = enum_scenario_build(&u, 3, true, &sc, &err);
	CHECK_EQ(rc, 0);
	if (rc == 0) {
		const struct cluster *c = &sc.cluster;
		int n2 = cluster_find_node(c, "n2");
		CHECK_STR(labels_get(&c->nodes[n2].labels, "topology.kubernetes.io/zone"), "b");
		/* b asks 500m: the first container's request is 0.5 cpu */
		int b = cluster_find_pod(c, "default", "b");
		CHECK_EQ(c->pods[b].containers[0].requests.items[0].q.units, 0);
		CHECK_EQ(c->pods[b].containers[0].requests.items[0].q.nanos, 500000000);
		/* n1 (zone a) and n2 (zone b) differ: no node symmetry; a (1 cpu)
		 * and b (500m) differ: no pod symmetry */
		CHECK_EQ(sc.sym.node_class[1], 1);
		CHECK_EQ(sc.sym.pod_class[1], 1);
	}
	enum_scenario_release(&sc);
	/* scenario 0: zone a, cpu 1: the nodes and the pods are identical */
	rc = enum_scenario_build(&u, 0, true, &sc, &err);
	CHECK_EQ(rc, 0);
	if (rc == 0) {
		CHECK_EQ(sc.sym.node_class[1], 0);
		CHECK_EQ(sc.sym.pod_class[1], 0);
	}
	enum_scenario_release(&sc);
	enum_universe_release(&u);
}

static void record_none(void *user, struct enum_record *r)
{
	(*(int *)user)++;
	enum_record_release(r);
}

static void visited_states(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	if (enum_universe_load_buffer(&u, "small.yaml", NULL, universe, &err)) {
		CHECK(0);
		enum_universe_release(&u);
		return;
	}
	struct enum_scenario sc;
	if (enum_scenario_build(&u, 0, true, &sc, &err)) {
		CHECK(0);
		enum_scenario_release(&sc);
		enum_universe_release(&u);
		return;
	}
	int stored = 0;
	struct enum_sink sink = {.user = &stored, .record = record_none};
	struct enum_ctx x;
	enum_ctx_init(&x, &sc);
	/* placements of scenario 0 (identical nodes, identical pods): 9
	 * states in 4 classes (test_enum_symmetry); a decision wherever a
	 * pod is pending: both pending (1) and one pending (4) = 5 states, 2
	 * classes; nothing breaks, nothing disagrees, so --store findings
	 * stores nothing */
	struct enum_tally t[2] = {{0}};
	CHECK_EQ(enum_placements(&x, 0, 9, true, false, &sink, t), 0);
	CHECK_EQ(t[0].states, 9);
	CHECK_EQ(t[1].states, 4);
	CHECK_EQ(t[0].decisions, 5);
	CHECK_EQ(t[1].decisions, 2);
	CHECK_EQ(t[0].agree, 5);
	CHECK_EQ(stored, 0);
	/* without symmetry: 9 states, 9 classes, the same 5 decisions */
	struct enum_tally t2[2] = {{0}};
	enum_placements(&x, 0, 9, false, false, &sink, t2);
	CHECK_EQ(t2[1].states, 9);
	CHECK_EQ(t2[0].decisions, 5);
	/* --store all keeps every evaluated class: 4 */
	sink.store_all = true;
	struct enum_tally t3[2] = {{0}};
	enum_placements(&x, 0, 9, true, false, &sink, t3);
	CHECK_EQ(stored, 4);
	sink.store_all = false;

	/* reachable from both pending: a (first in manifest order) binds to
	 * n1 or n2 (equal scores: a tie, both followed); then b's best node
	 * is the empty one (LeastAllocated), so b lands on the other node:
	 * 1 + 2 + 2 = 5 states, 2 of them final.  With node symmetry: 3
	 * classes (all pending / a bound / a and b apart), 1 final class. */
	struct enum_tally r[2] = {{0}};
	CHECK_EQ(enum_reachable(&x, true, &sink, r, &err), 0);
	CHECK_EQ(r[0].states, 5);
	CHECK_EQ(r[1].states, 3);
	CHECK_EQ(r[0].finals, 2);
	CHECK_EQ(r[1].finals, 1);
	struct enum_tally r2[2] = {{0}};
	CHECK_EQ(enum_reachable(&x, false, &sink, r2, &err), 0);
	CHECK_EQ(r2[0].states, 5);
	CHECK_EQ(r2[1].states, 5);
	enum_ctx_release(&x);
	enum_scenario_release(&sc);
	enum_universe_release(&u);
}

static void bad_universes(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	/* not a Universe */
	CHECK_EQ(enum_universe_load_buffer(&u, "x.yaml", NULL, "kind: Pod\n", &err), -1);
	CHECK(strstr(err.msg, "x.yaml:1:1:") == err.msg);
	enum_universe_release(&u);
	/* a target that does not exist */
	error_init(&err);
	CHECK_EQ(enum_universe_load_buffer(&u, "y.yaml", NULL,
		"kind: Universe\nvary:\n- target: Node/zz\n  path: a\n  values: [1]\n",
		&err), -1);
	CHECK(strstr(err.msg, "y.yaml:3:11:") == err.msg);
	enum_universe_release(&u);
}

int main(void)
{
	placement_counts();
	paths();
	cartesian_product();
	visited_states();
	bad_universes();
	return check_done("test_enum_counts");
}
