/*
 * test_oracle_aggregates.c - the oracle's speed machinery (oracle/shape.c,
 * oracle/terms.c, the status-free fast path of oracle/cycle.c):
 *   1. hand-derived: shape sharing and per-node verdict bits; term
 *      classes and their per-node counts through bind / evict;
 *   2. the incremental aggregates (pods per group per node, bound terms
 *      per class per node) against a recount from the placement after a
 *      long random sequence of binds, evictions and nominations;
 *   3. differential: oracle_select (no statuses, shape verdicts, checks
 *      without reasons, bitmap pick of the viable node) against
 *      oracle_schedule_cycle (statuses, sorted viable list) on two
 *      oracles in the same state with the same seed, over generated
 *      clusters of 110-260 nodes (so sampling and the rotating start
 *      index are exercised), with preemption-free scheduler loops.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../model/model.h"
#include "../../oracle/internal.h"
#include "../../oracle/oracle.h"
#include "../../yaml/load.h"
#include "build.h"

static int pod_ix(const struct cluster *c, const char *ns, const char *name)
{
	int p = cluster_find_pod(c, ns, name);
	if (p < 0) {
		fprintf(stderr, "no pod %s/%s\n", ns, name);
		exit(1);
	}
	return p;
}

/* The verdict array a cycle of pod gets (and its bits of node n). */
static uint8_t *verdicts_of(struct oracle *o, int pod)
{
	struct oracle_cycle cy;
	oracle_cycle_begin(&cy, o, &o->cluster->config.profiles[0], pod);
	uint8_t *v = cy.nverdict;
	for (int n = 0; n < o->cluster->n_nodes; n++)
		oracle_node_verdict(&cy, n);
	oracle_cycle_end(&cy);
	return v;
}

/*
 * n1: taint a=x:NoSchedule, labels disk=ssd; n2: unschedulable, no disk
 * label; n3: disk=ssd, no taint.
 * p1, p2: nodeSelector disk=ssd, no toleration (same shape); p3 tolerates
 * a (another shape).
 *   p1 on n1: selector matches (AFF); the taint is not tolerated (no
 *     TAINT, not STATIC; TaintToleration fails: FAIL_TAINTS).
 *   p1 on n2: no disk label (no AFF); no taint (TAINT); unschedulable and
 *     not tolerated -> not STATIC; both NodeUnschedulable and NodeAffinity
 *     fail (every failing static filter has its bit, not only the first).
 *   p1 on n3: AFF, TAINT, STATIC.
 *   p3 on n1: tolerated -> AFF | TAINT | STATIC.
 */
static void test_shapes(void)
{
	struct cluster c;
	tb_load_yaml(&c,
	     "apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {disk: ssd}}\n"
	     "spec: {taints: [{key: a, value: x, effect: NoSchedule}]}\n"
	     "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '10'}}\n---\n"
	     "apiVersion: v1\nkind: Node\nmetadata: {name: n2}\nspec: {unschedulable: true}\n"
	     "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '10'}}\n---\n"
	     "apiVersion: v1\nkind: Node\nmetadata: {name: n3, labels: {disk: ssd}}\n"
	     "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '10'}}\n---\n"
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: p1}\n"
	     "spec: {nodeSelector: {disk: ssd}, containers: [{name: c, image: i}]}\n---\n"
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: p2}\n"
	     "spec: {nodeSelector: {disk: ssd}, containers: [{name: c, image: i}]}\n---\n"
	     "apiVersion: v1\nkind: Pod\nmetadata: {name: p3}\n"
	     "spec: {nodeSelector: {disk: ssd}, tolerations: [{key: a, operator: Exists}],\n"
	     "  containers: [{name: c, image: i}]}\n");
	struct snapshot s;
	snapshot_init(&s, &c);
	struct oracle o;
	oracle_init(&o, &s);
	uint8_t *v1 = verdicts_of(&o, pod_ix(&c, "default", "p1"));
	uint8_t *v2 = verdicts_of(&o, pod_ix(&c, "default", "p2"));
	uint8_t *v3 = verdicts_of(&o, pod_ix(&c, "default", "p3"));
	CHECK(v1 == v2);
	CHECK(v1 != v3);
	CHECK_EQ(v1[0], OSHAPE_DONE | OSHAPE_AFF | OSHAPE_FAIL_TAINTS);
	CHECK_EQ(v1[1], OSHAPE_DONE | OSHAPE_TAINT | OSHAPE_FAIL_UNSCHEDULABLE |
			OSHAPE_FAIL_NODE_AFFINITY);
	CHECK_EQ(v1[2], OSHAPE_DONE | OSHAPE_AFF | OSHAPE_TAINT | OSHAPE_STATIC);
	CHECK_EQ(v3[0], OSHAPE_DONE | OSHAPE_AFF | OSHAPE_TAINT | OSHAPE_STATIC);
	/* only n3 fits p1 */
	CHECK_EQ(oracle_select(&o, pod_ix(&c, "default", "p1")), 2);
	oracle_release(&o);
	snapshot_release(&s);
	cluster_release(&c);
}

#define TERM(ns) \
	"  affinity:\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n" \
	"      - labelSelector: {matchLabels: {app: db}}\n        topologyKey: kubernetes.io/hostname\n" ns
#define EPOD(name, ns, node, extra) \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name ", namespace: " ns ", labels: {app: db}}\n" \
	"spec:\n  nodeName: \"" node "\"\n  containers: [{name: c, image: i}]\n" extra "---\n"

/*
 * e1, e2 (default) carry the same anti-affinity term with no namespaces:
 * it defaults to the owner's namespace, so both are one class; e3 in
 * namespace other has the same text but defaults to "other": a second
 * class; e4 names namespaces [default] explicitly: a third (the classes
 * compare what the spec says).  e1, e2 on n1 and e3 on n2: class(e1)
 * counts 2 on n1, class(e3) 1 on n2; evicting e2 leaves 1 on n1; binding
 * the pending e4 to n2 counts 1 for its class.
 * The pod groups: e1, e2 share (default, app=db); after the eviction the
 * group has 1 pod on n1.
 */
static void test_term_classes(void)
{
	struct cluster c;
	tb_load_yaml(&c,
	     "apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {kubernetes.io/hostname: n1}}\n"
	     "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '10'}}\n---\n"
	     "apiVersion: v1\nkind: Node\nmetadata: {name: n2, labels: {kubernetes.io/hostname: n2}}\n"
	     "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '10'}}\n---\n"
	     EPOD("e1", "default", "n1", TERM(""))
	     EPOD("e2", "default", "n1", TERM(""))
	     EPOD("e3", "other", "n2", TERM(""))
	     EPOD("e4", "default", "", TERM("        namespaces: [default]\n")));
	struct snapshot s;
	snapshot_init(&s, &c);
	struct oracle o;
	oracle_init(&o, &s);
	struct oracle_data *d = o.d;
	int e1 = pod_ix(&c, "default", "e1"), e2 = pod_ix(&c, "default", "e2");
	int e3 = pod_ix(&c, "other", "e3"), e4 = pod_ix(&c, "default", "e4");
	int k1 = d->pod_tc[d->pod_tc_off[e1]], k2 = d->pod_tc[d->pod_tc_off[e2]];
	int k3 = d->pod_tc[d->pod_tc_off[e3]], k4 = d->pod_tc[d->pod_tc_off[e4]];
	CHECK_EQ(d->n_tclass, 3);
	CHECK_EQ(k1, k2);
	CHECK(k3 != k1 && k4 != k1 && k4 != k3);
	CHECK_EQ(d->tclass[k1].kind, OTERM_REQ_ANTI);
	CHECK_EQ(d->tclass[k1].bound, 2);
	CHECK_EQ(d->tclass[k1].nodes.n, 1);
	CHECK_EQ(d->tclass[k1].nodes.node[0], 0);
	CHECK_EQ(d->tclass[k1].nodes.cnt[0], 2);
	CHECK_EQ(d->tclass[k3].bound, 1);
	CHECK_EQ(d->tclass[k4].bound, 0);
	oracle_evict(&o, e2);
	CHECK_EQ(d->tclass[k1].bound, 1);
	CHECK_EQ(d->tclass[k1].nodes.cnt[0], 1);
	int g = d->pod_group[e1];
	CHECK_EQ(d->pod_group[e2], g);
	CHECK_EQ(d->group_bound[g], 1);
	oracle_bind(&o, e4, 1);
	CHECK_EQ(d->tclass[k4].bound, 1);
	CHECK_EQ(d->n_bound_anti, 3);
	oracle_release(&o);
	snapshot_release(&s);
	cluster_release(&c);
}

/* ---------------------------------------------------- generated clusters */

static uint64_t rng_state;

static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(rng_state >> 33) % n;
}

struct buf {
	char *s;
	size_t len, cap;
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static void put(struct buf *b, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if ((size_t)n < b->cap - b->len) {
			b->len += (size_t)n;
			return;
		}
		b->cap = b->cap * 2 + (size_t)n + 1;
		b->s = realloc(b->s, b->cap);
	}
}

static const char *const APPS[] = {"web", "db", "cache"};
static const char *const KEYS[] = {"kubernetes.io/hostname", "topology.kubernetes.io/zone"};

static void gen_term(struct buf *b, const char *indent)
{
	put(b, "%s- labelSelector: {matchLabels: {app: %s}}\n%s  topologyKey: %s\n", indent,
	    APPS[rnd(3)], indent, KEYS[rnd(2)]);
}

/* A cluster of n nodes in 3 zones (some tainted, some unschedulable,
 * small capacities so nodes fill) and 3n pods, 60% bound. */
static char *gen_cluster(int n)
{
	struct buf b = {malloc(1 << 16), 0, 1 << 16};
	for (int i = 0; i < n; i++) {
		put(&b, "apiVersion: v1\nkind: Node\nmetadata:\n  name: n%d\n  labels:\n"
			"    kubernetes.io/hostname: n%d\n", i, i);
		if (rnd(10))
			put(&b, "    topology.kubernetes.io/zone: z%u\n", rnd(3));
		if (rnd(2))
			put(&b, "    disk: %s\n", rnd(2) ? "ssd" : "hdd");
		put(&b, "spec:\n");
		if (rnd(8) == 0)
			put(&b, "  taints: [{key: dedicated, value: x, effect: NoSchedule}]\n");
		if (rnd(20) == 0)
			put(&b, "  unschedulable: true\n");
		put(&b, "status: {allocatable: {cpu: '%u', memory: 8Gi, pods: '%u'}}\n---\n",
		    2 + rnd(3), 4 + rnd(8));
		/* CSI attach limits of 1 to 3 on most nodes */
		if (rnd(4))
			put(&b, "apiVersion: storage.k8s.io/v1\nkind: CSINode\n"
				"metadata: {name: n%d}\nspec:\n  drivers:\n"
				"  - {name: csi.x, nodeID: n%d, allocatable: {count: %u}}\n---\n",
			    i, i, 1 + rnd(3));
	}
	put(&b, "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: wffc}\n"
		"provisioner: csi.x\nvolumeBindingMode: WaitForFirstConsumer\n"
		"allowedTopologies:\n- matchLabelExpressions:\n"
		"  - {key: topology.kubernetes.io/zone, values: [z0, z1]}\n---\n");
	put(&b, "apiVersion: v1\nkind: Service\nmetadata: {name: svc}\nspec: {selector: {app: web}}\n---\n");
	for (int i = 0; i < 3 * n; i++) {
		put(&b, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p%d\n  labels: {app: %s}\n"
			"spec:\n", i, APPS[rnd(3)]);
		if (i < 9 * n / 5)
			put(&b, "  nodeName: n%u\n", rnd((unsigned)n));
		else if (rnd(8) == 0)
			put(&b, "  nodeName: \"\"\n");
		if (rnd(6) == 0)
			put(&b, "  nodeSelector: {disk: ssd}\n");
		if (rnd(5) == 0)
			put(&b, "  tolerations: [{key: dedicated, operator: Exists}]\n");
		if (rnd(4) == 0)
			put(&b, "  topologySpreadConstraints:\n  - maxSkew: %u\n    topologyKey: %s\n"
				"    whenUnsatisfiable: %s\n    labelSelector: {matchLabels: {app: %s}}\n",
			    1 + rnd(2), KEYS[rnd(2)], rnd(2) ? "DoNotSchedule" : "ScheduleAnyway",
			    APPS[rnd(3)]);
		unsigned a = rnd(10);
		if (a < 4) {
			put(&b, "  affinity:\n    %s:\n", a % 2 ? "podAffinity" : "podAntiAffinity");
			if (a < 2) {
				put(&b, "      requiredDuringSchedulingIgnoredDuringExecution:\n");
				gen_term(&b, "      ");
			} else {
				put(&b, "      preferredDuringSchedulingIgnoredDuringExecution:\n"
					"      - weight: %u\n        podAffinityTerm:\n"
					"          labelSelector: {matchLabels: {app: %s}}\n"
					"          topologyKey: %s\n", 1 + rnd(100), APPS[rnd(3)],
				    KEYS[rnd(2)]);
			}
		}
		put(&b, "  containers:\n  - name: c\n    image: nginx\n"
			"    resources: {requests: {cpu: %um, memory: %uMi}}\n", 100 + 100 * rnd(8),
		    64 + 64 * rnd(8));
		if (rnd(12) == 0)
			put(&b, "    ports: [{containerPort: 80, hostPort: 8080}]\n");
		/* a quarter of the pods have a claim of class wffc: the bound
		 * ones bound (their PV's attachments count), the others
		 * unbound (provisioned in zones z0 and z1 only) */
		if (rnd(4) == 0) {
			bool bound = i < 9 * n / 5;
			put(&b, "  volumes: [{name: d, persistentVolumeClaim: {claimName: c%d}}]\n"
				"---\napiVersion: v1\nkind: PersistentVolumeClaim\n"
				"metadata:\n  name: c%d\n", i, i);
			if (bound)
				put(&b, "  annotations: {pv.kubernetes.io/bind-completed: 'yes'}\n");
			put(&b, "spec:\n  accessModes: [ReadWriteOnce]\n"
				"  resources: {requests: {storage: 1Gi}}\n  storageClassName: wffc\n");
			if (bound)
				put(&b, "  volumeName: v%d\n---\napiVersion: v1\n"
					"kind: PersistentVolume\nmetadata: {name: v%d}\nspec:\n"
					"  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n"
					"  storageClassName: wffc\n  csi: {driver: csi.x, volumeHandle: v%d}\n"
					"  claimRef: {namespace: default, name: c%d}\n", i, i, i, i);
		}
		put(&b, "---\n");
	}
	return b.s;
}

/* Pods of group g on node n and terms of class k on node n, recounted
 * from the placement, against terms.c's counts. */
static bool aggregates_agree(const struct oracle *o)
{
	const struct oracle_data *d = o->d;
	int nn = d->n_nodes;
	int *want = calloc((size_t)nn, sizeof(int));
	bool ok = true;
	for (int g = 0; g < d->n_groups && ok; g++) {
		memset(want, 0, sizeof(int) * (size_t)nn);
		int total = 0;
		for (int p = 0; p < d->n_pods; p++)
			if (d->pod_group[p] == g && o->snap.pod_node[p] >= 0) {
				want[o->snap.pod_node[p]]++;
				total++;
			}
		const struct oracle_ncount *at = &d->group_nodes[g];
		for (int e = 0; e < at->n; e++)
			want[at->node[e]] -= at->cnt[e];
		for (int n = 0; n < nn; n++)
			ok = ok && want[n] == 0;
		ok = ok && total == d->group_bound[g];
	}
	for (int k = 0; k < d->n_tclass && ok; k++) {
		memset(want, 0, sizeof(int) * (size_t)nn);
		for (int p = 0; p < d->n_pods; p++)
			for (int i = d->pod_tc_off[p]; i < d->pod_tc_off[p + 1]; i++)
				if (d->pod_tc[i] == k && o->snap.pod_node[p] >= 0)
					want[o->snap.pod_node[p]]++;
		const struct oracle_tclass *tc = &d->tclass[k];
		for (int e = 0; e < tc->nodes.n; e++)
			want[tc->nodes.node[e]] -= tc->nodes.cnt[e];
		for (int n = 0; n < nn; n++)
			ok = ok && want[n] == 0;
	}
	free(want);
	return ok;
}

/* Two oracles in lockstep: the status-free fast path and the recording
 * one must pick the same node and advance the start index alike; every
 * 5th step evicts a bound pod, every 7th nominates a pending one. */
static void lockstep(const struct cluster *c, int seed)
{
	struct snapshot s;
	snapshot_init(&s, c);
	struct oracle fast, rec;
	oracle_init(&fast, &s);
	oracle_init(&rec, &s);
	fast.seed = rec.seed = (uint64_t)seed;
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, c);
	int steps = 0, bound = 0, differ = 0;
	for (int p = 0; p < c->n_pods; p++) {
		if (fast.snap.pod_node[p] != SNAP_PENDING)
			continue;
		int a = oracle_select(&fast, p);
		int b = oracle_schedule_cycle(&rec, p, &r);
		if (a != b || fast.next_start != rec.next_start) {
			if (!differ++)
				fprintf(stderr, "DIFF seed %d pod %s: fast %d (start %d), "
					"recording %d (start %d)\n", seed, c->pods[p].name, a,
					fast.next_start, b, rec.next_start);
		}
		steps++;
		if (a >= 0) {
			oracle_bind(&fast, p, a);
			oracle_bind(&rec, p, a);
			bound++;
		}
		if (steps % 5 == 0)
			for (int q = (steps * 7) % c->n_pods, i = 0; i < c->n_pods; i++) {
				int x = (q + i) % c->n_pods;
				if (fast.snap.pod_node[x] >= 0) {
					oracle_evict(&fast, x);
					oracle_evict(&rec, x);
					break;
				}
			}
		if (steps % 7 == 0)
			for (int q = c->n_pods - 1; q > p; q--)
				if (fast.snap.pod_node[q] == SNAP_PENDING) {
					oracle_nominate(&fast, q, steps % c->n_nodes);
					oracle_nominate(&rec, q, steps % c->n_nodes);
					break;
				}
	}
	CHECK_EQ(differ, 0);
	CHECK(steps > 0 && bound > 0);
	CHECK(aggregates_agree(&fast));
	sched_cycle_result_release(&r);
	oracle_release(&fast);
	oracle_release(&rec);
	snapshot_release(&s);
}

static void test_generated(void)
{
	for (int seed = 1; seed <= 12; seed++) {
		rng_state = (uint64_t)seed * 0x9e3779b97f4a7c15ULL;
		char *yaml = gen_cluster(110 + 13 * seed);
		struct cluster c;
		tb_load_yaml(&c, yaml);
		free(yaml);
		lockstep(&c, seed);
		cluster_release(&c);
	}
}

int main(void)
{
	test_shapes();
	test_term_classes();
	test_generated();
	return check_done("test_oracle_aggregates");
}
