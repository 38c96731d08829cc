/*
 * test_oracle_precomputed.c - what the oracle computes once instead of per
 * cycle (oracle/nodeinfo.c pods_init, oracle/fit.c PreFilter, the shared
 * cycle arena of oracle/cycle.c):
 *   1. hand-derived: one pod's PodRequests, its Fit-score request (the
 *      100m / 200Mi defaults) and PreFilter's "requests something";
 *   2. differential: on random pods the oracle's per-pod rows against the
 *      model's literal rules (model_pod_requests, model_pod_score_request)
 *      and "requests something" against a literal scan of the request
 *      lists, read through a cycle's PreFilter state;
 *   3. the cycle arena: cycles, a clone and preemptions leave no live
 *      cycle behind and the arena bounded, however many run;
 *   4. FitError's histogram (oracle/fit_message.c): hand-derived
 *      messages, and random histograms (past the small table) against a
 *      printf-and-qsort rendering of the same counts;
 *   5. the topology tables' pointer cache (oracle/topology.c): however
 *      keys are spelled (copies, many more keys than cache slots, in
 *      random order), a key's table is the one of its content and holds
 *      each node's label value;
 *   6. the per-pod shape memo (oracle/shape.c): a pod's cycles under
 *      alternating profiles get the verdict array of (shape, profile),
 *      the same a first lookup by content gives.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "check.h"
#include "xorshift.h"
#include "../../model/model.h"
#include "../../model/pod_requests.h"
#include "../../oracle/internal.h"
#include "../../oracle/oracle.h"

static void place_all_pending(struct snapshot *s, const struct cluster *c)
{
	snapshot_init(s, c);
	for (int p = 0; p < c->n_pods; p++) {
		s->pod_node[p] = SNAP_PENDING;
		s->nominated[p] = -1;
	}
}

/* The request row and req_any a cycle of pod reads after PreFilter. */
static bool prefilter_req(struct oracle *o, int pod, int64_t *req)
{
	struct oracle_cycle cy;
	struct sched_status st;
	oracle_cycle_begin(&cy, o, &o->cluster->config.profiles[0], pod);
	oracle_cycle_prefilter(&cy, &st);
	memcpy(req, cy.req, sizeof(int64_t) * (size_t)o->cluster->n_res);
	bool any = cy.req_any;
	oracle_cycle_end(&cy);
	return any;
}

/*
 * p: main containers cpu 250m + (none), memory 1Gi + (none); an init
 * container cpu 1; a sidecar cpu 100m; overhead cpu 50m.
 *   PodRequests cpu: Σmain + Σsidecars = 250 + 100 = 350m; init use =
 *     1000 + 100 (sidecars before it: none, the sidecar is listed after)
 *     -> the init container comes first: use = 1000 + 0 = 1000m; then
 *     the sidecar: use = side = 100m; max(350, 1000) = 1000m; + overhead
 *     50m = 1050.
 *   memory: 1Gi (the only entry), no overhead -> 1073741824.
 *   Score request cpu: the container without cpu gets 100m: main 250 +
 *     100 = 350, + sidecar 100 = 450; init 1000; max 1000 + 50 = 1050.
 *   Score memory: main 1Gi + 200Mi (the second container), sidecar and
 *     init lack memory: 200Mi each; Σ = 1Gi + 200Mi + 200Mi (sidecar)
 *     = 1493172224; init use = 200Mi + 0 = 209715200; max = 1493172224.
 *   requests something: cpu > 0.
 * q: no container requests anything: PodRequests all 0, nothing
 *   requested; the score request is 100m / 200Mi.
 * s: only example.com/gpu=0 - a scalar key with zero value still counts
 *   as requesting something (§2.7 Filter step 2: "no scalar keys").
 */
static void test_hand(void)
{
	struct cluster c;
	tb_init(&c);
	tb_node(&c, "n1", "cpu=4,memory=8Gi,pods=10", "");
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=250m,memory=1Gi", false, false);
	tb_container(&c, p, "", false, false);
	tb_container(&c, p, "cpu=1", true, false);
	tb_container(&c, p, "cpu=100m", true, true);
	c.pods[p].overhead = tb_reqs(&c, "cpu=50m");
	int q = tb_pod(&c, "q", "");
	tb_container(&c, q, "", false, false);
	int s = tb_pod(&c, "s", "");
	tb_container(&c, s, "example.com/gpu=0", false, false);
	struct snapshot snap;
	place_all_pending(&snap, &c);
	struct oracle o;
	oracle_init(&o, &snap);
	const struct oracle_data *d = o.d;
	size_t nr = (size_t)c.n_res;
	int64_t req[16];
	CHECK(c.n_res <= 16);

	CHECK_EQ(d->pod_req[p * nr + RES_CPU], 1050);
	CHECK_EQ(d->pod_req[p * nr + RES_MEMORY], 1073741824LL);
	CHECK_EQ(d->pod_req_nm[p * nr + RES_CPU], 1050);
	CHECK_EQ(d->pod_req_nm[p * nr + RES_MEMORY], 1493172224LL);
	CHECK(prefilter_req(&o, p, req));
	CHECK_EQ(req[RES_CPU], 1050);
	CHECK_EQ(req[RES_MEMORY], 1073741824LL);

	CHECK_EQ(d->pod_req[q * nr + RES_CPU], 0);
	CHECK_EQ(d->pod_req[q * nr + RES_MEMORY], 0);
	CHECK_EQ(d->pod_req_nm[q * nr + RES_CPU], 100);
	CHECK_EQ(d->pod_req_nm[q * nr + RES_MEMORY], 209715200);
	CHECK(!prefilter_req(&o, q, req));

	CHECK(prefilter_req(&o, s, req));
	CHECK_EQ(req[RES_CPU], 0);

	oracle_release(&o);
	snapshot_release(&snap);
	cluster_release(&c);
}

/* ------------------------------------------------------------ random */

static uint64_t rng;

static uint32_t next(void)
{
	return (uint32_t)(tb_xorshift(&rng) >> 11);
}

static const char *random_reqs(void)
{
	static const char *const lists[] = {
		"", "cpu=100m", "memory=128Mi", "cpu=1,memory=1Gi", "cpu=0",
		"ephemeral-storage=1Gi", "example.com/gpu=1", "example.com/gpu=0",
		"cpu=250m,example.com/gpu=2", "memory=0", "hugepages-2Mi=4Mi",
		"cpu=1500m,memory=300Mi,ephemeral-storage=10Mi",
	};
	return lists[next() % (sizeof lists / sizeof lists[0])];
}

/* "Requests something" read literally: a non-zero cpu, memory or
 * ephemeral-storage total, or a scalar key in any list PodRequests
 * reads (containers, init containers, overhead). */
static bool literal_any(const struct cluster *c, int pod, const int64_t *req)
{
	if (req[RES_CPU] || req[RES_MEMORY] || req[RES_EPHEMERAL])
		return true;
	const struct pod *p = &c->pods[pod];
	const struct resource_list *lists[2 * TB_MAX_ITEMS + 1];
	int n = 0;
	for (int i = 0; i < p->n_containers; i++)
		lists[n++] = &p->containers[i].requests;
	for (int i = 0; i < p->n_init_containers; i++)
		lists[n++] = &p->init_containers[i].requests;
	lists[n++] = &p->overhead;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < lists[i]->n; k++)
			if (c->res_class[lists[i]->items[k].res] == RESCLASS_SCALAR)
				return true;
	return false;
}

static void test_random(void)
{
	rng = 0x9e3779b97f4a7c15ULL;
	int pods = 0, any = 0;
	for (int round = 0; round < 60; round++) {
		struct cluster c;
		tb_init(&c);
		tb_node(&c, "n1", "cpu=4,memory=8Gi,pods=10", "");
		/* every resource name exists before the oracle sizes its rows */
		tb_res(&c, "example.com/gpu", RESCLASS_SCALAR);
		tb_res(&c, "hugepages-2Mi", RESCLASS_SCALAR);
		int np = 1 + (int)(next() % 6);
		for (int i = 0; i < np; i++) {
			int p = tb_pod(&c, "p", "");
			int nc = (int)(next() % 4), ni = (int)(next() % 3);
			for (int k = 0; k < nc; k++)
				tb_container(&c, p, random_reqs(), false, false);
			for (int k = 0; k < ni; k++)
				tb_container(&c, p, random_reqs(), true, next() % 2);
			if (next() % 4 == 0)
				c.pods[p].overhead = tb_reqs(&c, random_reqs());
		}
		struct snapshot snap;
		place_all_pending(&snap, &c);
		struct oracle o;
		oracle_init(&o, &snap);
		size_t nr = (size_t)c.n_res;
		int64_t want[16], want_nm[16], got[16];
		CHECK(c.n_res <= 16);
		for (int p = 0; p < c.n_pods; p++) {
			model_pod_requests(&c, &c.pods[p], want);
			model_pod_score_request(&c, &c.pods[p], want_nm);
			bool got_any = prefilter_req(&o, p, got);
			for (size_t r = 0; r < nr; r++) {
				CHECK_EQ(o.d->pod_req[p * nr + r], want[r]);
				CHECK_EQ(o.d->pod_req_nm[p * nr + r], want_nm[r]);
				CHECK_EQ(got[r], want[r]);
			}
			CHECK_EQ(got_any, literal_any(&c, p, want));
			pods++;
			any += got_any;
		}
		oracle_release(&o);
		snapshot_release(&snap);
		cluster_release(&c);
	}
	/* both answers of "requests something" were exercised */
	CHECK(any > 0 && any < pods);
}

/* ------------------------------------------------------- cycle arena */

/*
 * Two nodes of 1 cpu, a 1-cpu pod bound on each (priority 0) and a
 * pending 1-cpu pod of priority 10: every cycle fails with Insufficient
 * cpu on both nodes, and preemption (dry runs on a clone of the PreFilter
 * state) evicts one victim.  Thousands of cycles and preemptions must
 * leave no cycle live and the arena no larger than a few blocks.
 */
static void test_arena(void)
{
	struct cluster c;
	tb_init(&c);
	tb_node(&c, "n1", "cpu=1,memory=1Gi,pods=10", "");
	tb_node(&c, "n2", "cpu=1,memory=1Gi,pods=10", "");
	int a = tb_pod(&c, "a", "n1");
	tb_container(&c, a, "cpu=1", false, false);
	int b = tb_pod(&c, "b", "n2");
	tb_container(&c, b, "cpu=1", false, false);
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=1", false, false);
	c.pods[p].priority = 10;
	struct snapshot snap;
	snapshot_init(&snap, &c);
	snap.pod_node[a] = 0;
	snap.pod_node[b] = 1;
	snap.pod_node[p] = SNAP_PENDING;
	for (int i = 0; i < c.n_pods; i++)
		snap.nominated[i] = -1;
	struct oracle o;
	oracle_init(&o, &snap);
	o.all_nodes = true;
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, &c);
	const struct sched_profile *prof = &c.config.profiles[0];
	size_t most = 0;
	int victims = 0;
	for (int i = 0; i < 3000; i++) {
		CHECK_EQ(oracle_schedule_cycle(&o, p, &r), -1);
		struct sched_preemption pr;
		sched_preemption_init(&pr);
		oracle_preempt(&o, prof, p, &r, (uint64_t)i, &pr);
		victims += pr.node >= 0 && pr.chosen.n == 1;
		sched_preemption_release(&pr);
		if (o.d->live_cycles != 0)
			break;
		if (o.d->cycle_arena.total > most)
			most = o.d->cycle_arena.total;
	}
	CHECK_EQ(o.d->live_cycles, 0);
	CHECK_EQ(victims, 3000);
	/* bounded (a cycle may allocate nothing there: compiled
	 * constraints and terms are kept per pod) */
	CHECK(most < 4 * 64 * 1024);
	sched_cycle_result_release(&r);
	oracle_release(&o);
	snapshot_release(&snap);
	cluster_release(&c);
}

/* ------------------------------------------------------- FitError */

/*
 * "Too many pods" twice, "Insufficient cpu" ten times (interleaved),
 * "node(s) had untolerated taint {a: b}" once, over 13 nodes:
 *   lines "2 Too many pods", "10 Insufficient cpu", "1 node(s) ...";
 *   as strings "1 node(s)..." < "10 Insufficient cpu" < "2 Too many pods"
 *   ('1' = '1', then ' ' (32) < '0' (48); '2' > '1').
 * No reason at all: the header alone, without the period.
 */
static void test_histo_hand(void)
{
	struct oracle_histo h;
	oracle_histo_init(&h);
	oracle_histo_add(&h, "Too many pods", 1);
	for (int i = 0; i < 10; i++)
		oracle_histo_add(&h, "Insufficient cpu", 1);
	oracle_histo_add(&h, "node(s) had untolerated taint {a: b}", 1);
	oracle_histo_add(&h, "Too many pods", 1);
	char *m = oracle_histo_message(&h, 13);
	CHECK_STR(m, "0/13 nodes are available: 1 node(s) had untolerated taint {a: b}, "
		     "10 Insufficient cpu, 2 Too many pods.");
	free(m);
	oracle_histo_release(&h);

	oracle_histo_init(&h);
	m = oracle_histo_message(&h, 0);
	CHECK_STR(m, "0/0 nodes are available:");
	free(m);
	oracle_histo_release(&h);
}

/*
 * The prefixed message (preemption's) and one whose lines outgrow the
 * stack buffers (40 distinct reasons of 60 bytes: 40 lines, ~2.5 KB):
 * 40 reasons "r<NN>" padded with '-' to 60 bytes, added in descending
 * order, once each; the lines "1 r00---", "1 r01---", ... sort ascending,
 * so the message is "preemption: 0/40 nodes are available: " + those
 * lines in NN order joined by ", " + ".".
 */
static void test_histo_prefix_wide(void)
{
	static char reason[40][61];
	for (int i = 0; i < 40; i++) {
		memset(reason[i], '-', 60);
		reason[i][60] = '\0';
		reason[i][0] = 'r';
		reason[i][1] = (char)('0' + i / 10);
		reason[i][2] = (char)('0' + i % 10);
	}
	struct oracle_histo h;
	oracle_histo_init(&h);
	for (int i = 39; i >= 0; i--)
		oracle_histo_add(&h, reason[i], 1);
	char want[4096];
	size_t n = (size_t)snprintf(want, sizeof want, "preemption: 0/40 nodes are available:");
	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(want + n, sizeof want - n, "%s1 %s", i ? ", " : " ",
				      reason[i]);
	snprintf(want + n, sizeof want - n, ".");
	char *m = oracle_histo_message_after(&h, 40, "preemption: ");
	CHECK_STR(m, want);
	free(m);
	/* without a prefix: the same text after "preemption: " */
	m = oracle_histo_message(&h, 40);
	CHECK_STR(m, want + strlen("preemption: "));
	free(m);
	oracle_histo_release(&h);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The same message the old way: snprintf per line, qsort, snprintf. */
static char *literal_message(const char *const *reason, const int *count, int n,
			     int n_nodes)
{
	char **line = malloc(sizeof(char *) * (size_t)(n + 1));
	size_t total = 64;
	for (int i = 0; i < n; i++) {
		size_t len = strlen(reason[i]) + 16;
		line[i] = malloc(len);
		snprintf(line[i], len, "%d %s", count[i], reason[i]);
		total += strlen(line[i]) + 2;
	}
	qsort(line, (size_t)n, sizeof(char *), str_cmp);
	char *msg = malloc(total);
	size_t at = (size_t)snprintf(msg, total, "0/%d nodes are available:", n_nodes);
	for (int i = 0; i < n; i++) {
		at += (size_t)snprintf(msg + at, total - at, "%s%s", i ? ", " : " ", line[i]);
		free(line[i]);
	}
	if (n > 0)
		snprintf(msg + at, total - at, ".");
	free(line);
	return msg;
}

static void test_histo_random(void)
{
	static const char *const pool[] = {
		"Too many pods", "Insufficient cpu", "Insufficient memory",
		"Insufficient example.com/gpu", "node(s) didn't match Pod's node affinity/selector",
		"node(s) had untolerated taint {a: b}", "node(s) had untolerated taint {c: }",
		"node(s) didn't have free ports for the requested pod ports",
		"node(s) didn't match pod topology spread constraints",
		"node(s) didn't match pod affinity rules", "node(s) were unschedulable",
		"node(s) didn't satisfy existing pods anti-affinity rules",
		"node(s) didn't match pod anti-affinity rules", "Insufficient ephemeral-storage",
		"Preemption is not helpful for scheduling", "No preemption victims found for incoming pod",
		"node(s) didn't match the requested node name", "Insufficient hugepages-2Mi",
		"node(s) had untolerated taint {e: f}", "node(s) had untolerated taint {g: h}",
	};
	int np = (int)(sizeof pool / sizeof pool[0]);
	rng = 0x2545f4914f6cdd1dULL;
	int mapped = 0;
	for (int round = 0; round < 300; round++) {
		const char *order[32];
		int count[32], n = 0, adds = 1 + (int)(next() % 200);
		int distinct = 1 + (int)(next() % (unsigned)np);
		struct oracle_histo h;
		oracle_histo_init(&h);
		for (int a = 0; a < adds; a++) {
			const char *r = pool[next() % (unsigned)distinct];
			int times = 1 + (int)(next() % 3);
			oracle_histo_add(&h, r, times);
			int k = 0;
			while (k < n && strcmp(order[k], r) != 0)
				k++;
			if (k == n) {
				order[n] = r;
				count[n++] = 0;
			}
			count[k] += times;
		}
		int nodes = (int)(next() % 5000);
		char *got = oracle_histo_message(&h, nodes);
		char *want = literal_message(order, count, n, nodes);
		CHECK_STR(got, want);
		mapped += h.mapped;
		free(got);
		free(want);
		oracle_histo_release(&h);
	}
	/* the string map took over in some rounds, not in all */
	CHECK(mapped > 0 && mapped < 300);
}

/* ------------------------------------------------------ topologies */

/*
 * 6 nodes; key kI (I = 0..299) is set on node n when (I + n) % 3 != 0,
 * to the value "vJ" with J = (I + n) % 2 - so every key has 2 domains
 * (or fewer) and some nodes without it.  Two spellings of every key
 * (separate strings with the same text) are asked for in a random
 * order, 20 times over.
 */
static void test_topo_cache(void)
{
	enum { KEYS = 300, NODES = 6 };
	struct cluster c;
	tb_init(&c);
	static char names[2][KEYS][16];
	static const char *values[2] = {"v0", "v1"};
	for (int n = 0; n < NODES; n++) {
		static const char *node_names[NODES] = {"n0", "n1", "n2", "n3", "n4", "n5"};
		int x = tb_node(&c, node_names[n], "cpu=1,memory=1Gi,pods=10", "");
		struct label *items = arena_array(&c.arena, KEYS, sizeof(*items));
		int m = 0;
		for (int i = 0; i < KEYS; i++) {
			snprintf(names[0][i], sizeof names[0][i], "k%d", i);
			snprintf(names[1][i], sizeof names[1][i], "k%d", i);
			if ((i + n) % 3 != 0)
				items[m++] = (struct label){names[0][i], values[(i + n) % 2]};
		}
		c.nodes[x].labels = (struct labels){items, m};
	}
	struct snapshot snap;
	place_all_pending(&snap, &c);
	struct oracle o;
	oracle_init(&o, &snap);
	rng = 0x1234567887654321ULL;
	int bad = 0, asked = 0;
	const struct oracle_topo *first[KEYS] = {0};
	for (int round = 0; round < 20 * 2 * KEYS; round++) {
		int i = (int)(next() % KEYS), spelling = (int)(next() % 2);
		const struct oracle_topo *t = oracle_topo_get(&o, names[spelling][i]);
		asked++;
		if (!first[i])
			first[i] = t;
		/* one table per content, whichever pointer asks */
		bad += t != first[i] || strcmp(t->key, names[0][i]) != 0;
		for (int n = 0; n < NODES; n++) {
			const char *v = labels_get(&c.nodes[n].labels, names[0][i]);
			if (!v)
				bad += t->dom[n] != -1;
			else
				bad += t->dom[n] < 0 || strcmp(t->value[t->dom[n]], v) != 0;
		}
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(asked, 20 * 2 * KEYS);
	CHECK_EQ(o.d->n_topos, KEYS);
	/* k1: nodes 0..5 give (1 + n) % 3 = 1,2,0,1,2,0: nodes 2 and 5
	 * lack it; values (1 + n) % 2 = v1, v0, -, v0, v1, -: 2 domains */
	const struct oracle_topo *k1 = oracle_topo_get(&o, names[1][1]);
	CHECK_EQ(k1->n_dom, 2);
	CHECK_EQ(k1->dom[2], -1);
	CHECK_EQ(k1->dom[5], -1);
	CHECK_EQ(k1->dom[0], k1->dom[4]);
	CHECK_EQ(k1->dom[1], k1->dom[3]);
	CHECK(k1->dom[0] != k1->dom[1]);
	oracle_release(&o);
	snapshot_release(&snap);
	cluster_release(&c);
}

/* ------------------------------------------------------------ shapes */

static uint8_t *shape_of(struct oracle *o, const struct sched_profile *prof, int pod)
{
	struct oracle_cycle cy;
	oracle_cycle_begin(&cy, o, prof, pod);
	uint8_t *v = cy.nverdict;
	oracle_cycle_end(&cy);
	return v;
}

/*
 * a, b: no selector, no toleration (one shape); c: tolerates key t (its
 * own shape).  Profile B is a copy of the default profile at another
 * address: shapes are per profile, so a under B is a third array.  The
 * lookups alternate profiles and pods; each answer must be the array the
 * first lookup of that (shape, profile) gave.
 */
static void test_shape_memo(void)
{
	struct cluster c;
	tb_init(&c);
	tb_node(&c, "n1", "cpu=1,memory=1Gi,pods=10", "");
	int a = tb_pod(&c, "a", "");
	int b = tb_pod(&c, "b", "");
	int t = tb_pod(&c, "c", "");
	tb_toleration(&c, t, "t", TOL_EXISTS, "", EFFECT_NO_SCHEDULE);
	struct snapshot snap;
	place_all_pending(&snap, &c);
	struct oracle o;
	oracle_init(&o, &snap);
	const struct sched_profile *pa = &c.config.profiles[0];
	struct sched_profile pb = *pa;
	uint8_t *a_a = shape_of(&o, pa, a), *c_a = shape_of(&o, pa, t);
	uint8_t *a_b = shape_of(&o, &pb, a);
	CHECK(a_a != c_a);
	CHECK(a_a != a_b);
	int bad = 0;
	for (int i = 0; i < 50; i++) {
		bad += shape_of(&o, pa, a) != a_a;
		bad += shape_of(&o, &pb, a) != a_b;
		bad += shape_of(&o, pa, b) != a_a;
		bad += shape_of(&o, pa, t) != c_a;
		bad += shape_of(&o, &pb, b) != a_b;
	}
	CHECK_EQ(bad, 0);
	oracle_release(&o);
	snapshot_release(&snap);
	cluster_release(&c);
}

int main(void)
{
	test_shape_memo();
	test_topo_cache();
	test_hand();
	test_random();
	test_arena();
	test_histo_hand();
	test_histo_prefix_wide();
	test_histo_random();
	return check_done("test_oracle_precomputed");
}
